# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""instances (a fleet, CONTRACT section 17), in process against the simulator over HTTP: one listing, names resolved
once, every create sent before any wait, the tasks and the readiness waited for together, a second run that sends
nothing, check mode, scaling out and in (purge, highest index first), power states, a partial failure named by
member, the re-run that finishes a build left by wait: false, and bad input refused before any request."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.modules import instances

import harness
from harness import writes

BASE = "/cloud/v1/instances/1/76"
CREATE = "/cloud/v2/instances/1/76"
NET, SUBNET = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01", "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01"
ARGS = dict(project_id=1, region_id=76, count=3, name_format="node-{index}", flavor="g1-standard-2-4",
            volumes=[{"source": "image", "image_name": "ubuntu-22.04", "size": 10, "boot_index": 0}],
            interfaces=[{"type": "subnet", "network_id": NET, "subnet_id": SUBNET}], security_groups=["legacy-sg"])


def run(server, **args):
    return harness.run(server, instances, dict(ARGS, **args))


def requests(server):
    return [(entry["method"], entry["path"]) for entry in server.requests()]


def fleet(server):
    return sorted(record["name"] for record in server.call("GET", BASE)[1]["results"] if record["name"].startswith("node-"))


def test_a_fleet_is_created_together_then_a_second_run_sends_nothing(server):
    result = run(server)
    assert not result.get("failed"), result.get("msg")
    assert result["changed"] is True and result["changes"]["created"] == ["node-1", "node-2", "node-3"]
    assert [item["name"] for item in result["instances"]] == ["node-1", "node-2", "node-3"]
    assert all(item["status"] == "ACTIVE" for item in result["instances"])
    assert set(result["addresses"]) == {"node-1", "node-2", "node-3"}
    order = requests(server)
    posts = [index for index, item in enumerate(order) if item == ("POST", CREATE)]
    assert len(posts) == 3 and posts == list(range(posts[0], posts[0] + 3)), "every create sent before any wait"
    assert order.count(("GET", "/cloud/v1/images/1/76")) == 1 and order.count(("GET", "/cloud/v1/securitygroups/1/76")) == 1
    assert [item for item in order[:posts[0]] if item[1] == BASE] == [("GET", BASE)], "one listing finds the fleet"
    server.log = []
    again = run(server)
    assert again["changed"] is False and writes(server) == [], again
    assert requests(server) == [("GET", BASE)]
    assert again["diff"]["before"] == again["diff"]["after"]
