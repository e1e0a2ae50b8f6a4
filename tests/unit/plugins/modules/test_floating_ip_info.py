# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""floating_ip_info in process against the simulator over HTTP (issue 34): by id, by address, by instance (id or exact
name), by status (the service's filter), or all over every page; an unknown one is an empty list; nothing is written."""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.modules import floating_ip_info

import harness
from harness import writes

CLOUD = dict(project_id=1, region_id=76)
LIST = "/cloud/v1/floatingips/1/76"


def found(server, **args):
    result = harness.run(server, floating_ip_info, dict(CLOUD, **args))
    assert not result.get("failed") and result["changed"] is False, result
    return [item["floating_ip_address"] for item in result["floating_ips"]]


def test_floating_ip_info_finds_by_each_filter_and_writes_nothing(server):
    listed = server.call("GET", LIST)[1]["results"]
    web = next(item for item in listed if item["floating_ip_address"] == "203.0.113.10")
    assert sorted(found(server)) == sorted(item["floating_ip_address"] for item in listed) and len(listed) >= 2
    assert found(server, status="DOWN") == ["203.0.113.200"]
    assert "status=DOWN" in server.requests(path="^%s$" % LIST)[-1]["query"]  # the service's filter is used
    assert found(server, address="203.0.113.200") == ["203.0.113.200"]
    assert found(server, instance="web-1") == ["203.0.113.10"]
    assert found(server, instance=web["instance"]["id"].upper()) == ["203.0.113.10"]
    assert found(server, instance="web-1", status="DOWN") == []
    assert found(server, instance="no-such-vm") == []
    assert found(server, floating_ip_id=web["id"].upper()) == ["203.0.113.10"]
    assert found(server, floating_ip_id="6c26051a-4760-4d56-9b3f-b97ccbb860c7") == []
    assert found(server, address="2001:db8::1") == []
    assert writes(server) == []


def test_an_orphaned_floating_ip_is_found_as_down(server):
    """An instance deleted without delete_floating_ips leaves its floating IP unassigned: status DOWN finds it."""
    web = next(item for item in server.call("GET", LIST)[1]["results"] if item["floating_ip_address"] == "203.0.113.10")
    server.configure(task_delay=0)
    status, _answer = server.call("DELETE", "/cloud/v1/instances/1/76/%s" % web["instance"]["id"])
    assert status == 200
    server.call("GET", "/cloud/v1/tasks")  # any request brings the tasks up to date
    assert sorted(found(server, status="DOWN")) == ["203.0.113.10", "203.0.113.200"]
