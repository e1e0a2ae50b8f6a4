# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""load_balancer and load_balancer_info in process against the simulator over HTTP: one create with everything inline,
a second run that only reads (four reads: the L7 policies too), check mode and diff, one pool PATCH for one member, listeners added,
changed and purged, create-only options refused, every nested option checked before any request."""

from __future__ import annotations

import copy

import pytest

from ansible_collections.gcore.platform.plugins.modules import load_balancer, load_balancer_info
from simulator.resources.load_balancers import SEEDED

import harness
from harness import writes

NO_L7 = {"created": [], "updated": [], "deleted": []}  # no L7 policy written
SCOPE = dict(project_id=1, region_id=76)
HTTP = {"name": "http", "protocol": "HTTP", "protocol_port": 80, "insert_x_forwarded": True, "pool": {
    "name": "web-pool", "lb_algorithm": "ROUND_ROBIN", "protocol": "HTTP",
    "members": [{"address": "10.0.0.11", "protocol_port": 8080}, {"address": "10.0.0.12", "protocol_port": 8080, "weight": 5}],
    "healthmonitor": {"type": "HTTP", "delay": 10, "max_retries": 3, "timeout": 5, "url_path": "/health"}}}
TCP = {"name": "postgres", "protocol": "TCP", "protocol_port": 5432, "allowed_cidrs": ["10.0.0.0/8"], "pool": {
    "name": "db-pool", "lb_algorithm": "LEAST_CONNECTIONS", "protocol": "TCP",
    "members": [{"address": "10.0.0.21", "protocol_port": 5432}]}}
LB = dict(SCOPE, name="web-lb", flavor="lb1-1-2", tags={"env": "prod"}, listeners=[HTTP, TCP])


def run(server, args, **options):
    return harness.run(server, load_balancer, args, **options)


def created(server, args=None):
    result = run(server, args or LB)
    assert result["changed"] is True and not result.get("failed"), result
    server.log = []
    return result


def with_listeners(*listeners, **extra):
    return dict(LB, listeners=list(listeners), **extra)


def reads(server):
    return [(entry["method"], entry["path"]) for entry in server.requests() if entry["method"] == "GET"
            and "/tasks/" not in entry["path"]]


def test_create_sends_one_request_with_everything_inline_and_returns_the_whole_tree(server):
    result = run(server, LB)
    assert result["changed"] is True
    sent = writes(server)
    assert [(method, path) for method, path, _body in sent] == [("POST", "/cloud/v1/loadbalancers/1/76")]
    body = sent[0][2]
    assert body["name"] == "web-lb" and body["flavor"] == "lb1-1-2" and body["tags"] == {"env": "prod"}
    assert [item["name"] for item in body["listeners"]] == ["http", "postgres"]
    assert body["listeners"][0]["pools"][0]["healthmonitor"]["url_path"] == "/health"
    second = {"address": "10.0.0.12", "protocol_port": 8080, "weight": 5, "backup": False, "admin_state_up": True}
    assert body["listeners"][0]["pools"][0]["members"][1] == second
    lb = result["load_balancer"]
    assert lb["provisioning_status"] == "ACTIVE"
    assert sorted(item["name"] for item in lb["listeners"]) == ["http", "postgres"]
    http = next(item for item in lb["listeners"] if item["name"] == "http")
    assert http["pool"]["name"] == "web-pool" and len(http["pool"]["members"]) == 2
    assert http["pool"]["healthmonitor"]["type"] == "HTTP"
    assert result["changes"] == {"l7policies": NO_L7, "listeners": {"created": ["http", "postgres"], "updated": [], "deleted": []},
                                 "members": {"added": ["10.0.0.11:8080", "10.0.0.12:8080", "10.0.0.21:5432"], "removed": []}}
    assert len(result["tasks"]) == 1


def test_second_run_reads_four_times_and_sends_nothing(server):
    created(server)
    result = run(server, LB)
    assert result["changed"] is False, result.get("diff")
    assert writes(server) == []
    assert [path for _method, path in reads(server)] == [
        "/cloud/v1/loadbalancers/1/76", "/cloud/v1/lblisteners/1/76", "/cloud/v1/lbpools/1/76", "/cloud/v1/l7policies/1/76"]
    assert sorted(item["name"] for item in result["load_balancer"]["listeners"]) == ["http", "postgres"]
    assert result["changes"]["listeners"] == {"created": [], "updated": [], "deleted": []}


def test_check_mode_sends_nothing_and_diff_shows_mappings(server):
    result = run(server, LB, _ansible_check_mode=True, _ansible_diff=True)
    assert result["changed"] is True and writes(server) == [] and result["load_balancer"] is None
    after = result["diff"]["after"]
    assert result["diff"]["before"] == {"state": "absent"}
    assert set(after["listeners"]) == {"http", "postgres"}
    assert set(after["listeners"]["http"]["pool"]["members"]) == {"10.0.0.11:8080", "10.0.0.12:8080"}
    assert result["changes"]["listeners"]["created"] == ["http", "postgres"]
    created(server)
    changed = with_listeners(HTTP, dict(TCP, connection_limit=500))
    result = run(server, changed, _ansible_check_mode=True, _ansible_diff=True)
    assert result["changed"] is True and writes(server) == []
    assert list(result["diff"]["before"]["listeners"]) == ["postgres"] and list(result["diff"]["after"]["listeners"]) == ["postgres"]
    assert result["diff"]["after"]["listeners"]["postgres"]["connection_limit"] == 500
    assert result["changes"]["listeners"] == {"created": [], "updated": ["postgres"], "deleted": []}


def test_adding_one_member_is_one_put_of_the_whole_member_list(server):
    created(server)
    pool = copy.deepcopy(HTTP["pool"])
    pool["members"].append({"address": "10.0.0.13", "protocol_port": 8080})
    result = run(server, with_listeners(dict(HTTP, pool=pool), TCP), _ansible_diff=True)
    assert result["changed"] is True
    sent = writes(server)
    assert len(sent) == 1 and sent[0][0] == "PUT" and sent[0][1].startswith("/cloud/v1/loadbalancers/1/76/pools/")
    assert sent[0][1].endswith("/members")
    assert [member["address"] for member in sent[0][2]] == ["10.0.0.11", "10.0.0.12", "10.0.0.13"]
    assert result["changes"] == {"l7policies": NO_L7, "listeners": {"created": [], "updated": ["http"], "deleted": []},
                                 "members": {"added": ["10.0.0.13:8080"], "removed": []}}
    assert "10.0.0.13:8080" not in result["diff"]["before"]["listeners"]["http"]["pool"]["members"]
    assert "10.0.0.13:8080" in result["diff"]["after"]["listeners"]["http"]["pool"]["members"]
    server.log = []
    assert run(server, with_listeners(dict(HTTP, pool=pool), TCP))["changed"] is False and writes(server) == []


def test_listener_add_change_and_purge(server):
    created(server)
    udp = {"name": "dns", "protocol": "UDP", "protocol_port": 53, "pool": {
        "name": "dns-pool", "lb_algorithm": "SOURCE_IP", "protocol": "UDP", "members": [{"address": "10.0.0.31", "protocol_port": 53}]}}
    result = run(server, with_listeners(dict(HTTP, allowed_cidrs=["192.0.2.0/24"], connection_limit=1000), udp))
    assert result["changed"] is True, result
    sent = [(method, path.split("?")[0].rsplit("/", 1)[0] if method != "POST" else path, body) for method, path, body in writes(server)]
    assert [(method, path) for method, path, _body in sent] == [
        ("POST", "/cloud/v1/lblisteners/1/76"), ("POST", "/cloud/v1/lbpools/1/76"),
        ("PATCH", "/cloud/v2/lblisteners/1/76"), ("DELETE", "/cloud/v1/lblisteners/1/76")]
    assert sent[1][2]["listener_id"] == next(item["id"] for item in result["load_balancer"]["listeners"] if item["name"] == "dns")
    assert sent[2][2] == {"allowed_cidrs": ["192.0.2.0/24"], "connection_limit": 1000}
    assert server.writes()[3]["query"] == "delete_default_pool=true"
    assert result["changes"] == {"l7policies": NO_L7, "listeners": {"created": ["dns"], "updated": ["http"], "deleted": ["postgres"]},
                                 "members": {"added": ["10.0.0.31:53"], "removed": ["10.0.0.21:5432"]}}
    assert sorted(item["name"] for item in result["load_balancer"]["listeners"]) == ["dns", "http"]
    server.log = []
    again = run(server, with_listeners(dict(HTTP, allowed_cidrs=["192.0.2.0/24"], connection_limit=1000), udp))
    assert again["changed"] is False and writes(server) == []


def test_two_listeners_of_one_name_fail_naming_both_and_nothing_is_sent(server):
    created(server)
    next(record for record in server.lb_listeners.values() if record["name"] == "postgres")["name"] = "http"
    result = run(server, with_listeners(HTTP, purge_listeners=False))
    assert result["failed"] is True and "2 listeners named 'http'" in result["msg"] and writes(server) == [], result


def test_purge_listeners_false_keeps_the_others(server):
    created(server)
    result = run(server, with_listeners(HTTP, purge_listeners=False))
    assert result["changed"] is False and writes(server) == []


def test_pool_left_out_is_deleted_and_monitor_left_out_is_removed(server):
    created(server)
    pool = dict(HTTP["pool"], healthmonitor=None, session_persistence={"type": "SOURCE_IP"})
    result = run(server, with_listeners(dict(HTTP, pool=pool), dict(TCP, pool=None)))
    assert result["changed"] is True, result
    sent = writes(server)
    assert [(method, path.split("/cloud/")[1].split("/")[1]) for method, path, _body in sent] == [
        ("DELETE", "lbpools"), ("PATCH", "lbpools"), ("DELETE", "lbpools")]
    assert sent[0][1].endswith("/healthmonitor")
    assert sent[1][2] == {"session_persistence": {"type": "SOURCE_IP"}}
    listeners = dict((item["name"], item) for item in result["load_balancer"]["listeners"])
    assert listeners["postgres"]["pool"] is None and listeners["http"]["pool"]["healthmonitor"] is None
    server.log = []
    assert run(server, with_listeners(dict(HTTP, pool=pool), dict(TCP, pool=None)))["changed"] is False


def test_health_monitor_type_change_is_delete_then_create(server):
    created(server)
    pool = dict(HTTP["pool"], healthmonitor={"type": "TCP", "delay": 5, "max_retries": 2, "timeout": 3})
    result = run(server, with_listeners(dict(HTTP, pool=pool), TCP))
    assert [(method, path.rsplit("/", 1)[1]) for method, path, _body in writes(server)] == [
        ("DELETE", "healthmonitor"), ("POST", "healthmonitor")]
    http = next(item for item in result["load_balancer"]["listeners"] if item["name"] == "http")
    assert http["pool"]["healthmonitor"]["type"] == "TCP"


@pytest.mark.parametrize("option, value", [("protocol", "TERMINATED_HTTPS"), ("protocol_port", 81), ("insert_x_forwarded", False)])
def test_create_only_listener_options_fail_before_any_write(server, option, value):
    created(server)
    tls = {"secret": "seed-cert"} if value == "TERMINATED_HTTPS" else {}  # a TERMINATED_HTTPS listener needs its certificate
    result = run(server, with_listeners(dict(HTTP, **dict(tls, **{option: value})), TCP))
    assert result["failed"] is True and writes(server) == []
    assert "listeners[0].%s" % option in result["msg"] and "'http'" in result["msg"] and "cannot change" in result["msg"]


def test_a_different_flavor_fails_before_any_write(server):
    created(server)
    result = run(server, dict(LB, flavor="lb1-2-4"))
    assert result["failed"] is True and writes(server) == [] and "flavor" in result["msg"] and "lb1-1-2" in result["msg"]


def test_rename_and_tags_go_through_the_v2_patch(server):
    lb_id = created(server)["load_balancer"]["id"]
    result = run(server, dict(LB, load_balancer_id=lb_id.upper(), name="web-lb-2", tags={"team": "web"}))
    assert result["changed"] is True
    assert writes(server) == [("PATCH", "/cloud/v2/loadbalancers/1/76/" + lb_id,
                               {"name": "web-lb-2", "tags": {"team": "web", "env": None}})]
    assert result["load_balancer"]["tags_v2"] == [{"key": "team", "value": "web", "read_only": False}]
    assert "tags" not in result["load_balancer"], "the record shows its tags as tags_v2 only, as the service does"
    server.log = []
    again = run(server, dict(LB, load_balancer_id=lb_id, name="web-lb-2", tags={"team": "web"}))
    assert again["changed"] is False and writes(server) == [], "the tags are read from tags_v2: nothing to send"


def test_delete_is_one_request(server):
    lb_id = created(server)["load_balancer"]["id"]
    result = run(server, dict(SCOPE, name="web-lb", state="absent"))
    assert result["changed"] is True and result["load_balancer"] is None
    assert writes(server) == [("DELETE", "/cloud/v1/loadbalancers/1/76/" + lb_id, None)]
    server.log = []
    assert run(server, dict(SCOPE, name="web-lb", state="absent"))["changed"] is False and writes(server) == []


def test_an_error_status_fails_naming_the_id(server):
    server.configure(lb_create_error=True)
    result = run(server, LB)
    assert result["failed"] is True and result["changed"] is True
    assert result["load_balancer"]["id"] in result["msg"] and "ERROR" in result["msg"]


def test_writes_wait_while_the_load_balancer_is_busy(server):
    created(server)
    server.hold()
    server.release(after={"method": "GET", "path": "/cloud/v1/tasks/", "times": 2})
    pool = copy.deepcopy(HTTP["pool"])
    pool["members"].append({"address": "10.0.0.13", "protocol_port": 8080})
    result = run(server, with_listeners(dict(HTTP, pool=pool), dict(TCP, connection_limit=10)))
    assert not result.get("failed"), result["msg"]
    assert [entry["status"] for entry in server.writes()] == [200, 200]


def test_the_load_balancer_is_active_again_after_the_last_write_so_the_next_task_meets_no_conflict(server):
    """The service settles a load balancer after a write's task has ended: the module reads it until it is ACTIVE."""
    created(server)
    server.configure(lb_settle_reads=2)
    result = run(server, with_listeners(HTTP, dict(TCP, connection_limit=10)))
    assert result["changed"] is True and result["load_balancer"]["provisioning_status"] == "ACTIVE"
    server.log = []
    again = run(server, with_listeners(HTTP, dict(TCP, connection_limit=20)))
    assert not again.get("failed"), again["msg"]
    assert [entry["status"] for entry in server.writes()] == [200], "the next task's write is not refused (409)"


def test_a_create_only_listener_option_that_differs_names_the_current_and_the_wanted_value(server):
    created(server)
    server.log = []
    result = run(server, with_listeners(HTTP, dict(TCP, protocol_port=5433)))
    assert result["failed"] is True and writes(server) == []
    assert "has protocol_port 5432, not 5433" in result["msg"], result["msg"]


def test_two_load_balancers_with_the_name_fail_listing_their_ids(server):
    result = run(server, dict(SCOPE, name="twin-lb"))
    assert result["failed"] is True and all(ident in result["msg"] for ident in SEEDED["twin_lb"])


def test_info_by_id_name_and_all(server):
    by_id = harness.run(server, load_balancer_info, dict(SCOPE, load_balancer_id=SEEDED["legacy_lb"]))
    assert [item["name"] for item in by_id["load_balancers"]] == ["legacy-lb"]
    assert by_id["load_balancers"][0]["listeners"][0]["pool"]["name"] == "web-pool"
    by_name = harness.run(server, load_balancer_info, dict(SCOPE, name="twin-lb"))
    assert sorted(item["id"] for item in by_name["load_balancers"]) == sorted(SEEDED["twin_lb"])
    assert harness.run(server, load_balancer_info, dict(SCOPE, name="twin"))["load_balancers"] == []
    everything = harness.run(server, load_balancer_info, SCOPE)
    assert len(everything["load_balancers"]) == 3 and everything["changed"] is False
    missing = harness.run(server, load_balancer_info, dict(SCOPE, load_balancer_id="00000000-0000-4000-8000-000000000000"))
    assert missing["load_balancers"] == []


BAD = [
    (dict(LB, name="x"), "name:"),
    (dict(LB, load_balancer_id="nope"), "load_balancer_id"),
    (with_listeners(dict(HTTP, name="a")), "listeners[0].name"),
    (with_listeners(HTTP, dict(TCP, protocol_port=0)), "listeners[1].protocol_port"),
    (with_listeners(HTTP, dict(TCP, allowed_cidrs=["10.0.0.0/33"])), "listeners[1].allowed_cidrs[0]"),
    (with_listeners(HTTP, dict(TCP, insert_x_forwarded=True)), "listeners[1].insert_x_forwarded"),
    (with_listeners(HTTP, dict(TCP, connection_limit=-2)), "listeners[1].connection_limit"),
    (with_listeners(HTTP, dict(TCP, pool=dict(TCP["pool"], members=[{"address": "10.0.0.1", "protocol_port": 1, "weight": 0}]))),
     "listeners[1].pool.members[0].weight"),
    (with_listeners(HTTP, dict(TCP, pool=dict(TCP["pool"], members=[{"address": "10.0.0.300", "protocol_port": 1}]))),
     "listeners[1].pool.members[0].address"),
    (with_listeners(HTTP, dict(TCP, pool=dict(TCP["pool"], members=[{"address": "10.0.0.1", "protocol_port": 1}] * 2))),
     "listeners[1].pool.members[0] and listeners[1].pool.members[1]"),
    (with_listeners(dict(HTTP, pool=dict(HTTP["pool"], healthmonitor={"type": "TCP", "delay": 5, "max_retries": 3, "timeout": 5}))),
     "listeners[0].pool.healthmonitor.timeout: must be below"),
    (with_listeners(dict(HTTP, pool=dict(HTTP["pool"], healthmonitor={"type": "TCP", "delay": 5, "max_retries": 3, "timeout": 1,
                                                                      "url_path": "/x"}))),
     "listeners[0].pool.healthmonitor.url_path"),
    (with_listeners(dict(HTTP, pool=dict(HTTP["pool"], session_persistence={"type": "APP_COOKIE"}))),
     "listeners[0].pool.session_persistence.cookie_name"),
    (with_listeners(HTTP, dict(TCP, name="http")), "listeners[0] and listeners[1]: each listener must have its own name"),
    (with_listeners(HTTP, dict(TCP, protocol_port=80)), "listeners[0] and listeners[1]: each listener must have its own protocol_port"),
    (with_listeners(HTTP, dict(TCP, connection_limit=float("nan"))), "connection_limit"),
    (dict(LB, floating_ip={"source": "existing"}), "floating_ip.existing_floating_id"),
    (with_listeners(HTTP, dict(TCP, pool=dict(TCP["pool"], members=[{"address": "10.0.0.1", "instance": "db-1", "protocol_port": 1}]))),
     "listeners[1].pool.members[0]: give exactly one of address and instance"),
    (with_listeners(HTTP, dict(TCP, pool=dict(TCP["pool"], members=[{"protocol_port": 1}]))),
     "listeners[1].pool.members[0]: give exactly one of address and instance"),
    (with_listeners(HTTP, dict(TCP, pool=dict(TCP["pool"], members=[{"instance": "-x", "protocol_port": 1}]))),
     "listeners[1].pool.members[0].instance"),
    (dict(LB, tags={"a b": "c"}), "tags"),
]


@pytest.mark.parametrize("args, expected", BAD, ids=[expected for _args, expected in BAD])
def test_bad_input_fails_before_any_request_naming_the_option(args, expected):
    message = harness.fail_message(load_balancer, args)
    assert expected in message, message


def test_changes_on_failure_hold_only_what_the_service_accepted(server):
    created(server)
    udp = {"name": "dns", "protocol": "UDP", "protocol_port": 53, "pool": {
        "name": "dns-pool", "lb_algorithm": "SOURCE_IP", "protocol": "UDP", "members": [{"address": "10.0.0.31", "protocol_port": 53}]}}
    server.add_fault(method="POST", path="/cloud/v1/lbpools/1/76$", status=400, body="no pool for you")
    result = run(server, with_listeners(HTTP, TCP, udp))
    assert result["failed"] is True and result["changed"] is True and "no pool for you" in result["msg"]
    assert result["changes"] == {"l7policies": NO_L7, "listeners": {"created": ["dns"], "updated": [], "deleted": []},
                                 "members": {"added": [], "removed": []}}


def test_wait_false_returns_the_tasks_and_later_writes_still_wait_for_the_lock(server):
    result = run(server, dict(LB, wait=False))
    assert result["changed"] is True and result["load_balancer"] is None and len(result["tasks"]) == 1
    server.release()
    server.log = []
    server.hold()
    server.release(after={"method": "GET", "path": "/cloud/v1/", "times": 6})
    pool = copy.deepcopy(HTTP["pool"])
    pool["members"].append({"address": "10.0.0.13", "protocol_port": 8080})
    result = run(server, dict(with_listeners(dict(HTTP, pool=pool), dict(TCP, connection_limit=10)), wait=False))
    assert not result.get("failed"), result["msg"]
    assert len(result["tasks"]) == 2
    assert [entry["method"] for entry in server.writes() if entry["status"] == 200] == ["PUT", "PATCH"]


def test_an_unknown_id_fails_to_present_and_is_unchanged_when_absent(server):
    missing = "00000000-0000-4000-8000-00000000000A"
    result = run(server, dict(LB, load_balancer_id=missing))
    assert result["failed"] is True and missing.lower() in result["msg"] and writes(server) == []
    result = run(server, dict(SCOPE, load_balancer_id=missing, state="absent"))
    assert result["changed"] is False and result["load_balancer"] is None and writes(server) == []


def test_a_connection_limit_of_minus_one_is_the_default_and_changes_nothing(server):
    created(server, with_listeners(HTTP, dict(TCP, connection_limit=-1)))
    result = run(server, with_listeners(HTTP, dict(TCP, connection_limit=-1)))
    assert result["changed"] is False and writes(server) == []


def test_changes_on_failure_hold_a_write_the_state_confirmed(server):
    created(server)
    pool = copy.deepcopy(HTTP["pool"])
    pool["members"].append({"address": "10.0.0.13", "protocol_port": 8080})
    server.add_fault(method="PATCH", path="/cloud/v2/lblisteners/", status=500, applied=True)
    server.add_fault(method="PUT", path="/cloud/v1/loadbalancers/", status=400, body="no member for you")
    result = run(server, with_listeners(dict(TCP, connection_limit=10), dict(HTTP, pool=pool)), api_retries=1)
    assert result["failed"] is True and result["changed"] is True and "no member for you" in result["msg"]
    assert result["changes"] == {"l7policies": NO_L7, "listeners": {"created": [], "updated": ["postgres"], "deleted": []},
                                 "members": {"added": [], "removed": []}}


def test_a_member_named_by_its_instance_takes_the_instance_private_address_resolved_before_any_write(server):
    db = [record for record in server.instances if record["name"] == "db-1" and record["region_id"] == 76][0]
    pool = dict(TCP["pool"], members=[{"instance": "db-1", "protocol_port": 5432}, {"instance": db["id"].upper(), "protocol_port": 5433}])
    result = run(server, with_listeners(dict(TCP, pool=pool)))
    assert not result.get("failed"), result.get("msg")
    body = writes(server)[0][2]
    assert body["listeners"][0]["pools"][0]["members"] == [
        {"address": "192.168.10.5", "protocol_port": port, "instance_id": db["id"], "weight": 1, "backup": False, "admin_state_up": True}
        for port in (5432, 5433)]
    server.log = []
    assert run(server, with_listeners(dict(TCP, pool=pool)))["changed"] is False and writes(server) == []
    missing = run(server, with_listeners(dict(TCP, pool=dict(pool, members=[{"instance": "no-such-vm", "protocol_port": 1}]))))
    assert missing["failed"] is True and "listeners[0].pool.members[0].instance: 0 instances" in missing["msg"] and writes(server) == []


def test_a_member_of_another_ip_version_than_its_subnet_fails_after_reading_the_subnet_and_sends_nothing(server):
    """Issue 34: an IPv6 member on an IPv4 subnet is refused before any write (the subnet is read once for two members)."""
    from simulator.resources.networks import SEEDED_SUBNETS
    subnet = next(ident for ident, item in SEEDED_SUBNETS.items() if ":" not in item["cidr"])
    pool = dict(HTTP["pool"], members=[{"address": "10.0.0.11", "protocol_port": 8080, "subnet_id": subnet.upper()},
                                       {"address": "2001:db8::11", "protocol_port": 8080, "subnet_id": subnet}])
    result = run(server, with_listeners(dict(HTTP, pool=pool)))
    assert result["failed"] is True and not result.get("changed"), result
    assert result["msg"] == ("Invalid input: listeners[0].pool.members[1].address: 2001:db8::11 is an IPv6 address but subnet %s is IPv4 "
                             "(nothing was sent)" % subnet)
    assert writes(server) == [] and reads(server).count(("GET", "/cloud/v1/subnets/1/76/%s" % subnet)) == 1
    unknown = dict(HTTP["pool"], members=[{"address": "10.0.0.11", "protocol_port": 8080, "subnet_id": "0b3e1e4c-5c3d-4a8e-9d6f-2f6b8e1a7c90"}])
    result = run(server, with_listeners(dict(HTTP, pool=unknown)))
    assert result["failed"] is True and "listeners[0].pool.members[0].subnet_id: no subnet" in result["msg"] and writes(server) == []
