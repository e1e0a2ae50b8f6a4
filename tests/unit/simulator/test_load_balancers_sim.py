# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The simulated load balancers answer as the published API does: one create with everything inline, statuses moved by
tasks, writes refused while the load balancer is pending, pool PATCH with the full member list, validation, faults."""

from __future__ import annotations

import pytest

from simulator.core import Simulator
from simulator.resources.load_balancers import SEEDED

LBS = "/cloud/v1/loadbalancers/1/76"
LBS_V2 = "/cloud/v2/loadbalancers/1/76"
LISTENERS = "/cloud/v1/lblisteners/1/76"
LISTENERS_V2 = "/cloud/v2/lblisteners/1/76"
POOLS = "/cloud/v1/lbpools/1/76"
POOLS_V2 = "/cloud/v2/lbpools/1/76"
MONITOR = {"type": "HTTP", "delay": 10, "max_retries": 3, "timeout": 5}
BODY = {"name": "front", "tags": {"env": "dev"}, "listeners": [
    {"name": "http", "protocol": "HTTP", "protocol_port": 80, "insert_x_forwarded": True, "pools": [
        {"name": "http-pool", "lb_algorithm": "ROUND_ROBIN", "protocol": "HTTP", "healthmonitor": MONITOR,
         "members": [{"address": "10.0.0.5", "protocol_port": 8080}, {"address": "10.0.0.6", "protocol_port": 8080, "weight": 5}]}]},
    {"name": "tcp", "protocol": "TCP", "protocol_port": 5432}]}


@pytest.fixture
def sim():
    simulator = Simulator()
    simulator.configure(task_delay=0)  # tasks end at the next request; hold() keeps them running
    return simulator


def finish(sim):
    sim.release()
    sim.advance()


def created(sim, answer, key):
    finish(sim)
    return sim.tasks[answer["tasks"][0]]["record"]["created_resources"][key]


def make(sim, body=None):
    status, answer = sim.call("POST", LBS, body or BODY)
    assert status == 200, answer
    return created(sim, answer, "loadbalancers")[0]


def listeners(sim, lb_id):
    return sim.call("GET", LISTENERS, query="load_balancer_id=" + lb_id)[1]["results"]


def pools(sim, lb_id, details="true"):
    return sim.call("GET", POOLS, query="load_balancer_id=%s&details=%s" % (lb_id, details))[1]["results"]


def test_create_inline_makes_everything_and_reports_every_id(sim):
    status, answer = sim.call("POST", LBS, BODY)
    assert status == 200 and list(answer) == ["tasks"]
    made = created(sim, answer, "loadbalancers")
    resources = sim.tasks[answer["tasks"][0]]["record"]["created_resources"]
    assert len(made) == 1 and len(resources["listeners"]) == 2 and len(resources["pools"]) == 1
    assert len(resources["members"]) == 2 and len(resources["healthmonitors"]) == 1
    status, lb = sim.call("GET", LBS + "/" + made[0])
    assert status == 200
    assert lb["provisioning_status"] == "ACTIVE" and lb["operating_status"] == "ONLINE" and lb["task_id"] is None
    assert lb["tags_v2"] == [{"key": "env", "value": "dev", "read_only": False}]
    assert sorted(item["id"] for item in lb["listeners"]) == sorted(resources["listeners"])
    http = next(item for item in listeners(sim, made[0]) if item["name"] == "http")
    assert http["insert_headers"] and http["pool_count"] == 1 and http["provisioning_status"] == "ACTIVE"
    pool = pools(sim, made[0])[0]
    assert pool["listeners"] == [{"id": http["id"]}]
    assert [(item["address"], item["protocol_port"], item["weight"]) for item in pool["members"]] == [
        ("10.0.0.5", 8080, 1), ("10.0.0.6", 8080, 5)]
    assert pool["healthmonitor"]["type"] == "HTTP" and pool["healthmonitor"]["url_path"] == "/"
    assert set(pools(sim, made[0], "false")[0]["members"][0]) == {"id"}


def test_statuses_move_with_the_task_and_writes_wait_for_active(sim):
    sim.hold()
    status, answer = sim.call("POST", LBS, BODY)
    lb = next(record for record in sim.call("GET", LBS, query="name=front")[1]["results"])
    assert lb["provisioning_status"] == "PENDING_CREATE" and lb["task_id"] == answer["tasks"][0]
    lb_id = lb["id"]
    assert sim.call("PATCH", LBS_V2 + "/" + lb_id, {"name": "front-2"})[0] == 409
    assert sim.call("POST", LISTENERS, {"load_balancer_id": lb_id, "name": "late", "protocol": "TCP", "protocol_port": 81})[0] == 409
    finish(sim)
    status, answer = sim.call("PATCH", LBS_V2 + "/" + lb_id, {"name": "front-2", "tags": {"env": None, "team": "web"}})
    assert status == 200
    sim.hold()
    assert sim.call("GET", LBS + "/" + lb_id)[1]["provisioning_status"] == "ACTIVE"  # the PATCH task already ran
    status, answer = sim.call("PATCH", LBS_V2 + "/" + lb_id, {"name": "front-3"})
    lb = sim.call("GET", LBS + "/" + lb_id)[1]
    assert lb["provisioning_status"] == "PENDING_UPDATE" and lb["task_id"] == answer["tasks"][0]
    finish(sim)
    lb = sim.call("GET", LBS + "/" + lb_id)[1]
    assert lb["name"] == "front-3" and lb["provisioning_status"] == "ACTIVE"
    assert lb["tags_v2"] == [{"key": "team", "value": "web", "read_only": False}]


def test_listener_create_patch_delete(sim):
    lb_id = make(sim)
    status, answer = sim.call("POST", LISTENERS, {"load_balancer_id": lb_id, "name": "udp", "protocol": "UDP", "protocol_port": 53})
    assert status == 200
    listener_id = created(sim, answer, "listeners")[0]
    status, answer = sim.call("PATCH", LISTENERS_V2 + "/" + listener_id, {"connection_limit": 10, "allowed_cidrs": ["10.0.0.0/8"]})
    assert status == 200
    finish(sim)
    listener = sim.call("GET", LISTENERS + "/" + listener_id)[1]
    assert listener["connection_limit"] == 10 and listener["allowed_cidrs"] == ["10.0.0.0/8"]
    assert sim.call("PATCH", LISTENERS_V2 + "/" + listener_id, {"protocol_port": 54})[0] == 422  # create-only
    http = next(item for item in listeners(sim, lb_id) if item["name"] == "http")
    assert sim.call("DELETE", LISTENERS + "/" + http["id"], query="delete_default_pool=true")[0] == 200
    finish(sim)
    assert sorted(item["name"] for item in listeners(sim, lb_id)) == ["tcp", "udp"]
    assert pools(sim, lb_id) == []


def test_pool_patch_replaces_members_and_keeps_those_equal_by_address_and_port(sim):
    lb_id = make(sim)
    pool = pools(sim, lb_id)[0]
    kept = pool["members"][0]["id"]
    members = [{"address": "10.0.0.5", "protocol_port": 8080, "weight": 3}, {"address": "10.0.0.7", "protocol_port": 8080}]
    status, answer = sim.call("PATCH", POOLS_V2 + "/" + pool["id"], {"members": members, "session_persistence": {"type": "SOURCE_IP"}})
    assert status == 200 and len(answer["tasks"]) == 1
    finish(sim)
    pool = sim.call("GET", POOLS + "/" + pool["id"])[1]
    assert [(item["address"], item["weight"]) for item in pool["members"]] == [("10.0.0.5", 3), ("10.0.0.7", 1)]
    assert pool["members"][0]["id"] == kept
    assert pool["session_persistence"]["type"] == "SOURCE_IP"
    assert sim.call("PATCH", POOLS_V2 + "/" + pool["id"], {"members": members})[1] == {"tasks": []}  # nothing changes
    status, body = sim.call("PATCH", POOLS_V2 + "/" + pool["id"], {"members": members + members[:1]})
    assert status == 400 and "given twice" in body["message"]


def test_health_monitor_create_and_delete(sim):
    lb_id = make(sim)
    pool = pools(sim, lb_id)[0]
    path = POOLS + "/" + pool["id"] + "/healthmonitor"
    assert sim.call("POST", path, MONITOR)[0] == 400  # the pool has one
    status, body = sim.call("DELETE", path)
    assert status == 204 and body is None
    assert sim.call("GET", POOLS + "/" + pool["id"])[1]["healthmonitor"] is None
    assert sim.call("DELETE", path)[0] == 404
    status, body = sim.call("POST", path, dict(MONITOR, timeout=10))
    assert status == 400 and "timeout" in body["message"]
    status, answer = sim.call("POST", path, dict(MONITOR, type="TCP"))
    assert status == 200
    assert created(sim, answer, "healthmonitors")
    assert sim.call("GET", POOLS + "/" + pool["id"])[1]["healthmonitor"]["type"] == "TCP"


def test_pool_create_for_a_listener(sim):
    lb_id = make(sim)
    tcp = next(item for item in listeners(sim, lb_id) if item["name"] == "tcp")
    body = {"listener_id": tcp["id"], "name": "db-pool", "lb_algorithm": "LEAST_CONNECTIONS", "protocol": "TCP",
            "members": [{"address": "10.0.0.9", "protocol_port": 5432}]}
    status, answer = sim.call("POST", POOLS, body)
    assert status == 200
    pool_id = created(sim, answer, "pools")[0]
    assert sim.call("GET", POOLS + "/" + pool_id)[1]["listeners"] == [{"id": tcp["id"]}]
    assert sim.call("POST", POOLS, body)[0] == 400  # the listener has a pool
    assert sim.call("DELETE", POOLS + "/" + pool_id)[0] == 200
    finish(sim)
    assert sim.call("GET", POOLS + "/" + pool_id)[0] == 404


@pytest.mark.parametrize("body, where", [
    ({"name": "x"}, "name"),
    (dict(BODY, listeners=[dict(BODY["listeners"][1], protocol="SCTP")]), "listeners.0.protocol"),
    (dict(BODY, listeners=[dict(BODY["listeners"][1], surprise=1)]), "listeners.0.surprise"),
    (dict(BODY, listeners=[dict(BODY["listeners"][0], pools=[dict(BODY["listeners"][0]["pools"][0], members=[
        {"address": "10.0.0.5", "protocol_port": 8080, "weight": 0}])])]), "listeners.0.pools.0.members.0.weight"),
])
def test_validation_is_a_cloud_422_naming_the_member(sim, body, where):
    status, answer = sim.call("POST", LBS, body)
    assert status == 422
    assert set(answer) == {"exception_class", "message", "request_id"} and answer["message"].startswith(where + ":")


def test_rules_the_schema_does_not_hold_are_400(sim):
    tcp = dict(BODY["listeners"][1], insert_x_forwarded=True)
    assert sim.call("POST", LBS, dict(BODY, listeners=[tcp]))[0] == 400
    assert sim.call("POST", LBS, dict(BODY, listeners=[BODY["listeners"][1], dict(BODY["listeners"][1], name="other")]))[0] == 400


def test_unknown_ids_are_404_and_the_seeds_are_there(sim):
    for path in (LBS, LISTENERS, POOLS):
        assert sim.call("GET", path + "/00000000-0000-4000-8000-000000000000")[0] == 404
    assert sim.call("GET", LBS + "/" + SEEDED["legacy_lb"])[1]["name"] == "legacy-lb"
    assert [item["name"] for item in listeners(sim, SEEDED["legacy_lb"])] == ["web"]
    assert len(sim.call("GET", LBS, query="name=twin-lb")[1]["results"]) == 2


def test_failed_tasks_undo_and_unlock(sim):
    lb_id = make(sim)
    sim.configure(task_fail={"create_lblistener": "no capacity"})
    sim.call("POST", LISTENERS, {"load_balancer_id": lb_id, "name": "udp", "protocol": "UDP", "protocol_port": 53})
    finish(sim)
    assert sorted(item["name"] for item in listeners(sim, lb_id)) == ["http", "tcp"]
    assert sim.call("GET", LBS + "/" + lb_id)[1]["provisioning_status"] == "ACTIVE"
    sim.configure(task_fail={}, lb_create_error=True)
    lb_id = make(sim, dict(BODY, name="broken"))
    assert sim.call("GET", LBS + "/" + lb_id)[1]["provisioning_status"] == "ERROR"
    assert sim.call("DELETE", LBS + "/" + lb_id)[0] == 200


def test_fault_applied_then_dropped_still_creates(sim):
    sim.add_fault(method="POST", path="/cloud/v1/loadbalancers/", drop=True, applied=True)
    assert sim.call("POST", LBS, BODY) == (None, None)
    finish(sim)
    assert [item["name"] for item in sim.call("GET", LBS, query="name=front")[1]["results"]] == ["front"]


def test_delete_takes_listeners_and_pools(sim):
    lb_id = make(sim)
    assert sim.call("DELETE", LBS + "/" + lb_id)[0] == 200
    finish(sim)
    assert sim.call("GET", LBS + "/" + lb_id)[0] == 404
    assert not [item for item in sim.lb_listeners.values() if item["load_balancer_id"] == lb_id]
    assert not [item for item in sim.lb_pools.values() if item["loadbalancers"][0]["id"] == lb_id]
