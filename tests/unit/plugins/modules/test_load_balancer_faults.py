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


def add_member_and_tune_monitor(args):
    add_member(args)
    tune_monitor(args)


def change_listener(args):
    args["listeners"][1]["allowed_cidrs"] = ["10.0.0.0/8"]


def purge_listener(args):
    del args["listeners"][1]


def seeded(server):
    """The load balancer of LB, made by the module."""
    assert not harness.run(server, load_balancer, LB).get("failed")


# A plan: the arguments, how to seed (the load balancer made first), and the writes in the order they are sent (method, path regex).
PLANS = {
    "create": dict(args=LB, writes=[("POST", LBS + "$")]),
    "listener add": dict(seed=seeded, args=changed_lb(add_listener), writes=[("POST", LISTENERS + "$"), ("POST", POOLS + "$")]),
    "member add": dict(seed=seeded, args=changed_lb(add_member),
                       writes=[("PUT", r"/cloud/v1/loadbalancers/1/76/pools/[0-9a-f-]{36}/members$")]),
    "listener patch": dict(seed=seeded, args=changed_lb(change_listener), writes=[("PATCH", r"/cloud/v2/lblisteners/1/76" + ITEM)]),
    "monitor retype": dict(seed=seeded, args=changed_lb(retype_monitor),
                           writes=[("DELETE", POOLS + r"/[0-9a-f-]{36}/healthmonitor$"), ("POST", POOLS + r"/[0-9a-f-]{36}/healthmonitor$")]),
    "monitor tune": dict(seed=seeded, args=changed_lb(tune_monitor), writes=[("PATCH", POOLS + r"/[0-9a-f-]{36}/healthmonitor$")]),
    "members then monitor": dict(seed=seeded, args=changed_lb(add_member_and_tune_monitor), writes=[
        ("PUT", r"/cloud/v1/loadbalancers/1/76/pools/[0-9a-f-]{36}/members$"), ("PATCH", POOLS + r"/[0-9a-f-]{36}/healthmonitor$")]),
    "monitor and pool removal": dict(seed=seeded, args=changed_lb(drop_monitor_and_pool), writes=[
        ("DELETE", POOLS + r"/[0-9a-f-]{36}/healthmonitor$"), ("PATCH", r"/cloud/v2/lbpools/1/76" + ITEM), ("DELETE", POOLS + ITEM)]),
    "listener purge": dict(seed=seeded, args=changed_lb(purge_listener), writes=[("DELETE", LISTENERS + ITEM)]),
    "rename": dict(seed=seeded, args=dict(LB, name="fault-lb", tags={"env": "prod"}), writes=[("PATCH", r"/cloud/v2/loadbalancers/1/76" + ITEM)]),
    "delete": dict(seed=seeded, args=dict(LB, state="absent"), writes=[("DELETE", LBS + ITEM)]),
}


def no_duplicates(server, row):
    """No load balancer holds two listeners with one name, no listener two pools, no pool two members on one address and port."""
    names = Counter((item["load_balancer_id"], item["name"]) for item in server.lb_listeners.values())
    assert [key for key, count in names.items() if count > 1] == []
    pools = Counter(listener["id"] for pool in server.lb_pools.values() for listener in pool["listeners"])
    assert [key for key, count in pools.items() if count > 1] == []
    for pool in server.lb_pools.values():
        members = Counter((member["address"], member["protocol_port"]) for member in pool["members"])
        assert [key for key, count in members.items() if count > 1] == []
    assert len([lb for lb in server.load_balancers.values() if lb["name"] == "fault-lb"]) <= 1


def a_rejected_first_write_is_no_change(server, row, result, stage):
    if stage == "first" and row.applied is False and row.position == 0 and "changes" in result:
        assert result["changes"] == {"l7policies": NO_L7, "listeners": {"created": [], "updated": [], "deleted": []},
                                     "members": {"added": [], "removed": []}}, "a rejected write is not a change"


MATRIX = harness.Matrix(PLANS, module=load_balancer, found=("listener add", "delete"),
                        untasked=(("monitor retype", 0), ("monitor and pool removal", 0)),
                        unique=no_duplicates, check=a_rejected_first_write_is_no_change)


@pytest.mark.parametrize("plan, position, kind", MATRIX.task_cases())
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    MATRIX.check_task_fault(server, plan, position, kind)


@pytest.mark.parametrize("plan, position, fault", MATRIX.cases())
def test_a_fault_at_any_load_balancer_write_reports_the_truth_sends_nothing_twice_and_the_rerun_converges(server, plan, position, fault):
    MATRIX.check_fault(server, plan, position, fault)
