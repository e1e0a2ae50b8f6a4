# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault matrix of load_balancer's writes: for each write of a plan (the create with everything inline, a listener
and its pool created, a listener PATCH, a pool PATCH, a health monitor removed and retyped, a pool deleted, a listener
purged, the load balancer's PATCH and its delete) and each fault kind (a 500 after the service applied the write, a
connection dropped after it applied it, a clear 400 or 403 rejection that applied nothing), the run reports the truth
(``changed``, ``changes``), sends no write twice, leaves no duplicate listener, pool or member, and a re-run converges
with no write left. The cases are generated from the plans below, not written by hand.

The module runs in-process (its ``main``) against the real simulator over HTTP (the ``server`` fixture)."""

from __future__ import annotations

import copy
import re
from collections import Counter

import pytest

from ansible_collections.gcore.platform.plugins.modules import load_balancer

import harness

NO_L7 = {"created": [], "updated": [], "deleted": []}  # no L7 policy written
LB = {"project_id": 1, "region_id": 76, "name": "fault-lb", "tags": {"env": "test"}, "listeners": [
    {"name": "http", "protocol": "HTTP", "protocol_port": 80, "pool": {
        "name": "web-pool", "lb_algorithm": "ROUND_ROBIN", "protocol": "HTTP",
        "members": [{"address": "10.0.0.11", "protocol_port": 8080}, {"address": "10.0.0.12", "protocol_port": 8080}],
        "healthmonitor": {"type": "HTTP", "delay": 10, "max_retries": 3, "timeout": 5}}},
    {"name": "postgres", "protocol": "TCP", "protocol_port": 5432, "pool": {
        "name": "db-pool", "lb_algorithm": "LEAST_CONNECTIONS", "protocol": "TCP",
        "members": [{"address": "10.0.0.21", "protocol_port": 5432}]}}]}
LBS, LISTENERS, POOLS = r"/cloud/v1/loadbalancers/1/76", r"/cloud/v1/lblisteners/1/76", r"/cloud/v1/lbpools/1/76"
ITEM = r"/[0-9a-f-]{36}$"


def changed_lb(change):
    args = copy.deepcopy(LB)
    change(args)
    return args


def add_listener(args):
    args["listeners"].append({"name": "dns", "protocol": "UDP", "protocol_port": 53, "pool": {
        "name": "dns-pool", "lb_algorithm": "SOURCE_IP", "protocol": "UDP", "members": [{"address": "10.0.0.31", "protocol_port": 53}]}})


def add_member(args):
    args["listeners"][0]["pool"]["members"].append({"address": "10.0.0.13", "protocol_port": 8080})


def retype_monitor(args):
    args["listeners"][0]["pool"]["healthmonitor"] = {"type": "TCP", "delay": 5, "max_retries": 2, "timeout": 3}


def tune_monitor(args):
    args["listeners"][0]["pool"]["healthmonitor"] = {"type": "HTTP", "delay": 20, "max_retries": 3, "timeout": 5}


def drop_monitor_and_pool(args):
    args["listeners"][0]["pool"]["healthmonitor"] = None
    args["listeners"][0]["pool"]["lb_algorithm"] = "LEAST_CONNECTIONS"
    args["listeners"][1]["pool"] = None


def change_listener(args):
    args["listeners"][1]["allowed_cidrs"] = ["10.0.0.0/8"]


def purge_listener(args):
    del args["listeners"][1]


# A plan: the arguments, whether the load balancer exists first, and the writes in the order they are sent (method, path regex).
PLANS = {
    "create": dict(seed=False, args=LB, writes=[("POST", LBS + "$")]),
    "listener add": dict(seed=True, args=changed_lb(add_listener), writes=[("POST", LISTENERS + "$"), ("POST", POOLS + "$")]),
    "member add": dict(seed=True, args=changed_lb(add_member), writes=[("PUT", r"/cloud/v1/loadbalancers/1/76/pools/[0-9a-f-]{36}/members$")]),
    "listener patch": dict(seed=True, args=changed_lb(change_listener), writes=[("PATCH", r"/cloud/v2/lblisteners/1/76" + ITEM)]),
    "monitor retype": dict(seed=True, args=changed_lb(retype_monitor),
                           writes=[("DELETE", POOLS + r"/[0-9a-f-]{36}/healthmonitor$"), ("POST", POOLS + r"/[0-9a-f-]{36}/healthmonitor$")]),
    "monitor tune": dict(seed=True, args=changed_lb(tune_monitor), writes=[("PATCH", POOLS + r"/[0-9a-f-]{36}/healthmonitor$")]),
    "monitor and pool removal": dict(seed=True, args=changed_lb(drop_monitor_and_pool), writes=[
        ("DELETE", POOLS + r"/[0-9a-f-]{36}/healthmonitor$"), ("PATCH", r"/cloud/v2/lbpools/1/76" + ITEM), ("DELETE", POOLS + ITEM)]),
    "listener purge": dict(seed=True, args=changed_lb(purge_listener), writes=[("DELETE", LISTENERS + ITEM)]),
    "rename": dict(seed=True, args=dict(LB, name="fault-lb", tags={"env": "prod"}), writes=[("PATCH", r"/cloud/v2/loadbalancers/1/76" + ITEM)]),
    "delete": dict(seed=True, args=dict(LB, state="absent"), writes=[("DELETE", LBS + ITEM)]),
}
# A fault kind: the fault added for the write, and whether the service applies the write.
FAULTS = {
    "500 after applying": (dict(status=500, applied=True), True),
    "dropped after applying": (dict(drop=True, applied=True), True),
    "rejected 400": (dict(status=400, body="injected rejection"), False),
    "rejected 403": (dict(status=403, body="injected rejection"), False),
}


def run(server, args):
    return harness.run(server, load_balancer, args, api_retries=1, _ansible_diff=True)


def writes(server):
    """Bodies as sent (text): the writes are counted, so they must be hashable."""
    return [(entry["method"], entry["path"], entry["query"], entry["body"]) for entry in server.writes()]


def no_duplicates(server):
    """No load balancer holds two listeners with one name, no listener two pools, no pool two members on one address and port."""
    names = Counter((item["load_balancer_id"], item["name"]) for item in server.lb_listeners.values())
    assert [key for key, count in names.items() if count > 1] == []
    pools = Counter(listener["id"] for pool in server.lb_pools.values() for listener in pool["listeners"])
    assert [key for key, count in pools.items() if count > 1] == []
    for pool in server.lb_pools.values():
        members = Counter((member["address"], member["protocol_port"]) for member in pool["members"])
        assert [key for key, count in members.items() if count > 1] == []
    assert len([lb for lb in server.load_balancers.values() if lb["name"] == "fault-lb"]) <= 1


def prepare(server, plan):
    """The simulator as the plan starts from (the load balancer made when the plan is seeded, the log empty)."""
    spec = PLANS[plan]
    server.reset()
    server.configure(task_delay=0)
    if spec["seed"]:
        assert not run(server, LB).get("failed")
    server.log = []
    return spec


@pytest.mark.parametrize("plan, position, kind", list(harness.task_fault_cases(
    PLANS, found=("listener add", "delete"),
    untasked=(("monitor retype", 0), ("monitor and pool removal", 0)))))
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    spec = prepare(server, plan)
    harness.check_task_fault(server, lambda **extra: run(server, dict(spec["args"], **extra)), spec["writes"], position, kind)


@pytest.mark.parametrize("plan, position, fault", list(harness.fault_cases(PLANS, FAULTS)))
def test_a_fault_at_any_load_balancer_write_reports_the_truth_sends_nothing_twice_and_the_rerun_converges(server, plan, position, fault):
    spec = prepare(server, plan)
    method, path = spec["writes"][position]
    extra, applied = FAULTS[fault]
    server.add_fault(method=method, path=path, **extra)
    result = run(server, spec["args"])
    sent = writes(server)
    assert [count for count in Counter(sent).values() if count > 1] == [], "a write was sent twice: %s" % sent
    assert len(sent) == (len(spec["writes"]) if applied else position + 1), sent
    for (expected_method, pattern), (sent_method, sent_path, _query, _body) in zip(spec["writes"], sent):
        assert expected_method == sent_method and re.search(pattern, sent_path), "plan order: %s" % sent
    no_duplicates(server)
    if applied:
        assert not result.get("failed"), result["msg"]
        assert result["changed"] is True
        texts = harness.warning_texts(result)
        assert len(texts) == 1 and "shows the change was applied, so it was not sent again" in texts[0], texts
    else:
        assert result["failed"] is True and "injected rejection" in result["msg"], result
        assert result["changed"] is (position > 0), "changed means applied"
        assert "could not be confirmed" not in result["msg"], "a clear rejection is not unconfirmed"
        if "changes" in result and position == 0:
            assert result["changes"] == {"l7policies": NO_L7, "listeners": {"created": [], "updated": [], "deleted": []},
                                         "members": {"added": [], "removed": []}}, "a rejected write is not a change"
    # the re-run sends what is left (nothing after an applied fault), then a third run sends nothing
    server.log = []
    again = run(server, spec["args"])
    assert not again.get("failed"), again.get("msg")
    assert not again.get("warnings"), again["warnings"]
    assert again["changed"] is (not applied)
    assert len(writes(server)) == (0 if applied else len(spec["writes"]) - position)
    no_duplicates(server)
    server.log = []
    third = run(server, spec["args"])
    assert third["changed"] is False and writes(server) == []
