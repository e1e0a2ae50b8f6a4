# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The operations that moved since the published copy (SDK 0.59, docs/api_reference.md section 17) are served, and the
ones they replace still are: the v2 network PATCH (a task, none when nothing changes), the pool member family, the
health monitor GET and PATCH."""

from __future__ import annotations

import pytest

from simulator.core import Simulator
from simulator.resources.load_balancers import SEEDED as LB_SEEDED
from simulator.resources.networks import SEEDED as NET_SEEDED

NET_1 = NET_SEEDED[0][0]
SUBNET_1 = NET_SEEDED[0][2][0][0]
POOL = LB_SEEDED["legacy_pool"]
MEMBERS = "/cloud/v1/loadbalancers/1/76/pools/%s/members" % POOL
MONITOR = "/cloud/v1/lbpools/1/76/%s/healthmonitor" % POOL


@pytest.fixture
def sim():
    simulator = Simulator()
    simulator.configure(task_delay=0)
    return simulator


def run(sim, answer):
    """The tasks of ``answer`` finished; their records."""
    sim.advance()
    return [sim.tasks[task_id]["record"] for task_id in answer["tasks"]]


def test_the_v2_network_patch_is_a_task_and_none_when_nothing_changes(sim):
    path = "/cloud/v2/networks/1/76/%s" % NET_1
    sim.hold()
    status, answer = sim.call("PATCH", path, {"name": "renamed-net", "tags": {"env": "dev"}})
    assert status == 200 and len(answer["tasks"]) == 1
    network = sim.call("GET", "/cloud/v1/networks/1/76/%s" % NET_1)[1]
    assert network["name"] == "router-net-1" and network["task_id"] == answer["tasks"][0]  # applied when it finishes
    assert sim.call("PATCH", path, {"name": "other"})[0] == 409  # the task holds the network's lock
    sim.release()
    assert run(sim, answer)[0]["state"] == "FINISHED"
    network = sim.call("GET", "/cloud/v1/networks/1/76/%s" % NET_1)[1]
    assert network["name"] == "renamed-net" and {"key": "env", "value": "dev", "read_only": False} in network["tags"]
    assert network["task_id"] is None
    assert sim.call("PATCH", path, {"name": "renamed-net", "tags": {"env": "dev"}}) == (200, {"tasks": []})
    assert sim.call("PATCH", path, {"name": "-bad"})[0] == 422
    # The published synchronous v1 PATCH is still answered (deprecated).
    status, record = sim.call("PATCH", "/cloud/v1/networks/1/76/%s" % NET_1, {"name": "v1-name"})
    assert status == 200 and record["name"] == "v1-name"


def test_the_member_family_lists_adds_replaces_updates_and_deletes(sim):
    status, page = sim.call("GET", MEMBERS, query="limit=1&order_by=address.desc")
    assert status == 200 and page["count"] == 2 and [m["address"] for m in page["results"]] == ["10.0.0.12"]
    assert sim.call("GET", MEMBERS, query="order_by=name")[0] == 422
    new = {"address": "10.0.0.13", "protocol_port": 8080, "subnet_id": SUBNET_1}
    status, answer = sim.call("POST", MEMBERS, new)
    member_id = run(sim, answer)[0]["created_resources"]["members"][0]
    assert sim.call("GET", "%s/%s" % (MEMBERS, member_id))[1]["address"] == "10.0.0.13"
    assert sim.call("POST", MEMBERS, new)[0] == 400  # the same address and port twice
    status, answer = sim.call("PATCH", "%s/%s" % (MEMBERS, member_id), {"weight": 7, "monitor_port": None})
    run(sim, answer)
    assert sim.call("GET", "%s/%s" % (MEMBERS, member_id))[1]["weight"] == 7
    assert sim.call("GET", "%s/%s" % (MEMBERS, member_id))[1]["monitor_port"] is None
    assert sim.call("PATCH", "%s/%s" % (MEMBERS, member_id), {"weight": 7}) == (200, {"tasks": []})
    assert sim.call("PATCH", "%s/%s" % (MEMBERS, member_id), {"address": "10.0.0.99"})[0] == 422
    # PUT: the whole set; the kept member keeps its id, the others go.
    kept = sim.call("GET", MEMBERS)[1]["results"][0]
    status, answer = sim.call("PUT", MEMBERS, [{"address": kept["address"], "protocol_port": 8080, "subnet_id": SUBNET_1}])
    assert status == 200 and len(answer["tasks"]) == 1
    run(sim, answer)
    after = sim.call("GET", MEMBERS)[1]
    assert after["count"] == 1 and after["results"][0]["id"] == kept["id"]
    assert sim.call("PUT", MEMBERS, [{"address": kept["address"], "protocol_port": 8080, "subnet_id": SUBNET_1}]) == (200, {"tasks": []})
    status, answer = sim.call("DELETE", "%s/%s" % (MEMBERS, kept["id"]))
    run(sim, answer)
    assert sim.call("GET", MEMBERS)[1]["count"] == 0
    assert sim.call("GET", "%s/%s" % (MEMBERS, kept["id"]))[0] == 404


def test_the_health_monitor_is_read_and_patched_without_its_type(sim):
    status, monitor = sim.call("GET", MONITOR)
    assert status == 200 and monitor["type"] == "HTTP" and monitor["delay"] == 10
    assert sim.call("PATCH", MONITOR, {"type": "TCP"})[0] == 422  # no type in the PATCH
    assert sim.call("PATCH", MONITOR, {"timeout": 20})[0] == 400  # timeout below delay, with the held delay
    assert sim.call("PATCH", MONITOR, {"delay": 10}) == (200, {"tasks": []})
    status, answer = sim.call("PATCH", MONITOR, {"timeout": 4, "url_path": None})
    run(sim, answer)
    after = sim.call("GET", MONITOR)[1]
    assert after["timeout"] == 4 and after["url_path"] is None and after["id"] == monitor["id"]
    assert sim.call("DELETE", MONITOR)[0] == 204
    assert sim.call("GET", MONITOR)[0] == 404 and sim.call("PATCH", MONITOR, {"delay": 5})[0] == 404
