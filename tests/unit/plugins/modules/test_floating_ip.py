# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""floating_ip in process against the simulator over HTTP: for an instance (by id or name) or a port, idempotent
without an id (the floating IP already on the port satisfies it), by id or address, moved, unassigned, deleted by
instance; tags as a merge patch; check mode, diff, wait=false, the lock, and each refusal before any write."""

from __future__ import annotations

import copy

import pytest

from ansible_collections.gcore.platform.plugins.modules import floating_ip
from simulator.resources.floating_ips import FloatingIps

import harness
from harness import writes

FIPS = "/cloud/v1/floatingips/1/76"
V2 = "/cloud/v2/floatingips/1/76"
FREE = "203.0.113.200"  # seeded, unassigned, tag env=prod (and a read-only tag)
ON_WEB = "203.0.113.10"  # seeded, on web-1's first port


def run(server, **args):
    server.log = []
    return harness.run(server, floating_ip, dict(dict(project_id=1, region_id=76), **args), _ansible_diff=True)


def port(server, name, index=0):
    instance = server.seeds["instances"]["instances"]["%s/1/76" % name]
    return server.call("GET", "/cloud/v1/instances/1/76/%s/interfaces" % instance)[1]["results"][index]["port_id"]


def seeded(address):
    return FloatingIps.SEEDS["floating_ips"][address]


CLOUD = dict(project_id=1, region_id=76)


@pytest.mark.parametrize("args, expected", [
    (dict(CLOUD), "floating_ip_id: one of floating_ip_id, address, instance or port_id is required"),
    (dict(CLOUD, floating_ip_id="nope"), "floating_ip_id"),
    (dict(CLOUD, port_id="nope"), "port_id"),
    (dict(CLOUD, address="203.0.113.300"), "address: '203.0.113.300' is not an IPv4 or IPv6 address"),
    (dict(CLOUD, address="nan"), "address: 'nan' is not an IPv4 or IPv6 address"),
    (dict(CLOUD, instance="web-1", fixed_ip_address="2a03::1"), "fixed_ip_address: '2a03::1' is not an IPv4 address"),
    (dict(CLOUD, address=FREE, fixed_ip_address="10.0.0.5"), "fixed_ip_address: needs instance or port_id"),
    (dict(CLOUD, address=FREE, floating_ip_id="00000000-0000-4000-8000-000000000000"), "mutually exclusive"),
    (dict(CLOUD, instance="web-1", port_id="00000000-0000-4000-8000-000000000000"), "mutually exclusive"),
    (dict(CLOUD, address=FREE, instance="web-1", unassign=True), "unassign: cannot be true with instance"),
    (dict(CLOUD, instance="web-1", unassign=True), "unassign: cannot be true with instance"),
    (dict(CLOUD, address=FREE, unassign=True, state="absent"), "unassign: is used only with state=present"),
    (dict(CLOUD, instance=" "), "instance: must be an instance ID or name"),
    (dict(CLOUD, instance="web\n1"), "instance: must be an instance ID or name"),
    (dict(CLOUD, instance="web-1", tags={"a b": "x"}), "tags: key 'a b' breaks the rule"),
    (dict(CLOUD, instance="web-1", tags={"k": " x"}), "tags.k: ' x' breaks the rule"),
    (dict(CLOUD, instance="web-1", wait_timeout=0), "wait_timeout: 0 is out of range"),
    (dict(project_id=1, instance="web-1"), "region_id"),
])
def test_every_option_limit_fails_before_any_request(args, expected):
    assert expected in harness.fail_message(floating_ip, args)


def test_an_instance_with_a_floating_ip_on_its_port_is_left_as_it_is(server):
    result = run(server, instance="web-1")
    assert result["changed"] is False and result["floating_ip"]["floating_ip_address"] == ON_WEB and writes(server) == []
    assert result["tasks"] == []


def test_create_for_an_instance_by_name_then_a_second_run_sends_nothing(server):
    db = port(server, "db-1")
    result = run(server, instance="db-1", tags={"role": "db"})
    assert result["changed"] is True and len(result["tasks"]) == 1
    record = result["floating_ip"]
    assert record["port_id"] == db and record["fixed_ip_address"] == "192.168.10.5" and record["status"] == "ACTIVE"
    assert writes(server) == [("POST", FIPS, {"port_id": db, "tags": {"role": "db"}})]
    assert result["diff"] == {"before": {"state": "absent"}, "after": {"port_id": db, "tags": {"role": "db"}, "state": "present"}}
    again = run(server, instance="db-1", tags={"role": "db"})
    assert again["changed"] is False and again["floating_ip"]["id"] == record["id"] and writes(server) == []
    by_id = run(server, instance=server.seeds["instances"]["instances"]["db-1/1/76"].upper())
    assert by_id["changed"] is False and by_id["floating_ip"]["id"] == record["id"]


def test_create_for_a_port_with_a_fixed_address(server):
    app = port(server, "app")
    result = run(server, port_id=app.upper(), fixed_ip_address="198.51.100.20")
    assert result["changed"] is True and result["floating_ip"]["fixed_ip_address"] == "198.51.100.20"
    assert writes(server) == [("POST", FIPS, {"port_id": app, "fixed_ip_address": "198.51.100.20"})]
    assert run(server, port_id=app, fixed_ip_address="198.51.100.20")["changed"] is False and writes(server) == []


def test_check_mode_sends_no_write(server):
    db = port(server, "db-1")
    result = run(server, instance="db-1", _ansible_check_mode=True)
    assert result["changed"] is True and result["floating_ip"] is None
    assert result["diff"]["after"] == {"port_id": db, "state": "present"}
    moved = run(server, address=FREE, instance="db-1", _ansible_check_mode=True)
    assert moved["changed"] is True and moved["diff"]["before"]["port_id"] is None and moved["diff"]["after"]["port_id"] == db
    gone = run(server, instance="web-1", state="absent", _ansible_check_mode=True)
    assert gone["changed"] is True and gone["diff"]["after"] == {"state": "absent"}
    assert writes(server) == []


def test_a_known_address_is_assigned_moved_and_unassigned_with_the_v2_patch(server):
    ident = seeded(FREE)
    db, app = port(server, "db-1"), port(server, "app")
    assigned = run(server, address=FREE, instance="db-1")
    assert assigned["changed"] is True and assigned["floating_ip"]["port_id"] == db
    assert writes(server) == [("PATCH", "%s/%s" % (V2, ident), {"port_id": db})]
    assert run(server, floating_ip_id=ident, instance="db-1")["changed"] is False and writes(server) == []
    moved = run(server, floating_ip_id=ident, port_id=app)
    assert moved["changed"] is True and moved["floating_ip"]["port_id"] == app
    unassigned = run(server, address=FREE, unassign=True)
    assert unassigned["changed"] is True and unassigned["floating_ip"]["port_id"] is None
    assert unassigned["floating_ip"]["status"] == "DOWN"
    assert writes(server) == [("PATCH", "%s/%s" % (V2, ident), {"port_id": None})]
    assert run(server, address=FREE, unassign=True)["changed"] is False and writes(server) == []


def test_tags_are_a_merge_patch_and_read_only_tags_are_kept(server):
    ident = seeded(FREE)
    result = run(server, address=FREE, tags={"team": "web"})
    assert result["changed"] is True
    assert writes(server) == [("PATCH", "%s/%s" % (V2, ident), {"tags": {"team": "web", "env": None}})]
    assert result["diff"]["before"]["tags"] == {"env": "prod"}
    assert {"key": "owner", "value": "gcore", "read_only": True} in result["floating_ip"]["tags"]
    kept = run(server, address=FREE, tags={"env": "prod"}, purge_tags=False)
    assert writes(server) == [("PATCH", "%s/%s" % (V2, ident), {"tags": {"env": "prod"}})] and kept["changed"] is True
    assert run(server, address=FREE, tags={"env": "prod"}, purge_tags=False)["changed"] is False and writes(server) == []


def test_absent_by_instance_deletes_the_floating_ip_on_its_port_once(server):
    result = run(server, instance="web-1", state="absent")
    assert result["changed"] is True and result["floating_ip"] is None and len(result["tasks"]) == 1
    assert writes(server) == [("DELETE", "%s/%s" % (FIPS, seeded(ON_WEB)), None)]
    again = run(server, instance="web-1", state="absent")
    assert again["changed"] is False and writes(server) == []
    assert run(server, instance="no-such-instance", state="absent")["changed"] is False


def test_absent_by_address_and_by_unknown_id(server):
    assert run(server, address=FREE, state="absent")["changed"] is True
    assert writes(server) == [("DELETE", "%s/%s" % (FIPS, seeded(FREE)), None)]
    unknown = run(server, floating_ip_id="00000000-0000-4000-8000-000000000000", state="absent")
    assert unknown["changed"] is False and writes(server) == []


def test_what_cannot_be_created_fails_before_any_write(server):
    missing_instance = run(server, instance="no-such-instance")
    assert missing_instance["failed"] is True and "no instance 'no-such-instance'" in missing_instance["msg"]
    unknown_address = run(server, address="198.51.100.99")
    assert unknown_address["failed"] is True and "an address cannot be chosen" in unknown_address["msg"]
    unknown_id = run(server, floating_ip_id="00000000-0000-4000-8000-000000000000", instance="db-1")
    assert unknown_id["failed"] is True and "an id cannot be created" in unknown_id["msg"]
    wrong_fixed = run(server, instance="db-1", fixed_ip_address="10.9.9.9")
    assert wrong_fixed["failed"] is True and "has no interface with the address 10.9.9.9" in wrong_fixed["msg"]
    assert writes(server) == []


def test_two_instances_with_the_name_fail_listing_their_ids(server):
    server.instances.append(dict(next(item for item in server.instances if item["name"] == "db-1"), id="11111111-1111-4111-8111-111111111111"))
    result = run(server, instance="db-1")
    assert result["failed"] is True and "2 instances of project 1, region 76 are named 'db-1'" in result["msg"]
    assert "11111111-1111-4111-8111-111111111111" in result["msg"] and writes(server) == []


MULTI = {"id": "22222222-2222-4222-8222-222222222222", "name": "multi", "project_id": 1, "region_id": 76, "status": "ACTIVE",
         "addresses": {"net": [{"addr": "10.1.0.5", "type": "fixed", "interface_name": "eth0"},
                               {"addr": "10.1.0.6", "type": "fixed", "interface_name": "eth0"}]}}


def two_on_one_port(server):
    """Instance ``multi`` with one port of two fixed addresses, each with a floating IP; their records."""
    server.instances.append(copy.deepcopy(MULTI))
    first = run(server, instance="multi", fixed_ip_address="10.1.0.5")
    second = run(server, instance="multi", fixed_ip_address="10.1.0.6")
    assert first["changed"] and second["changed"] and first["floating_ip"]["id"] != second["floating_ip"]["id"]
    return first["floating_ip"], second["floating_ip"]


def test_two_floating_ips_on_the_port_satisfy_present_and_absent_deletes_both(server):
    first, second = two_on_one_port(server)
    assert run(server, instance="multi")["changed"] is False and writes(server) == []
    check = run(server, instance="multi", state="absent", _ansible_check_mode=True)
    assert check["changed"] is True and writes(server) == []
    assert check["diff"] == {"before": {"state": "present", "port_id": first["port_id"],
                                        "floating_ip_addresses": sorted([first["floating_ip_address"], second["floating_ip_address"]])},
                             "after": {"state": "absent"}}
    gone = run(server, instance="multi", state="absent")
    assert not gone.get("failed"), gone["msg"]
    assert gone["changed"] is True and gone["floating_ip"] is None and len(gone["tasks"]) == 2
    assert gone["diff"] == check["diff"]
    assert writes(server) == [("DELETE", "%s/%s" % (FIPS, second["id"]), None), ("DELETE", "%s/%s" % (FIPS, first["id"]), None)]
    assert [record for record in server.floating_ips.values() if record["port_id"] == first["port_id"]] == []
    again = run(server, instance="multi", state="absent")
    assert again["changed"] is False and writes(server) == []


def test_absent_by_the_port_with_a_fixed_address_deletes_that_one_only(server):
    first, second = two_on_one_port(server)
    result = run(server, instance="multi", fixed_ip_address="10.1.0.6", state="absent")
    assert result["changed"] is True and writes(server) == [("DELETE", "%s/%s" % (FIPS, second["id"]), None)]
    assert result["diff"]["before"]["floating_ip_addresses"] == [second["floating_ip_address"]]
    assert first["id"] in server.floating_ips


def test_a_rejected_second_delete_reports_the_first_as_changed_and_the_rerun_sends_the_rest(server):
    first, second = two_on_one_port(server)
    server.log = []
    server.add_fault(method="DELETE", path="/floatingips/1/76/%s$" % first["id"], status=403, body="injected rejection")
    failed = run(server, instance="multi", state="absent")
    assert failed["failed"] is True and failed["changed"] is True, failed
    assert "the writes before it were accepted (DELETE %s/%s)" % (FIPS, second["id"]) in failed["msg"]
    rerun = run(server, instance="multi", state="absent")
    assert rerun["changed"] is True and writes(server) == [("DELETE", "%s/%s" % (FIPS, first["id"]), None)]


def test_another_floating_ip_of_the_port_that_is_locked_is_waited_for_before_its_delete(server):
    first, second = two_on_one_port(server)
    server.hold()
    server.call("PATCH", "%s/%s" % (V2, second["id"]), {"tags": {"env": "staging"}})
    server.release(after={"method": "GET", "path": "/floatingips/1/76/%s$" % second["id"], "times": 1})
    result = run(server, instance="multi", state="absent")
    assert not result.get("failed"), result["msg"]
    assert writes(server) == [("DELETE", "%s/%s" % (FIPS, second["id"]), None), ("DELETE", "%s/%s" % (FIPS, first["id"]), None)]
    sent = [(entry["method"], entry["path"]) for entry in server.requests()]
    assert sent.index(("GET", "%s/%s" % (FIPS, second["id"]))) < sent.index(("DELETE", "%s/%s" % (FIPS, second["id"]))), sent


def test_wait_false_returns_the_task_and_no_record(server):
    server.hold()
    result = run(server, instance="db-1", wait=False)
    assert result["changed"] is True and result["floating_ip"] is None and len(result["tasks"]) == 1
    server.release()


def test_a_locked_floating_ip_is_waited_for_before_the_patch(server):
    ident = seeded(FREE)
    server.hold()
    server.call("PATCH", "%s/%s" % (V2, ident), {"tags": {"env": "staging"}})
    server.release(after={"method": "GET", "path": "/floatingips/1/76/%s$" % ident, "times": 1})
    result = run(server, address=FREE, tags={"env": "dev"})
    assert not result.get("failed"), result["msg"]
    assert result["changed"] is True and writes(server) == [("PATCH", "%s/%s" % (V2, ident), {"tags": {"env": "dev"}})]
    assert result["floating_ip"]["task_id"] is None and len(result["tasks"]) == 1
    sent = [(entry["method"], entry["path"]) for entry in server.requests()]
    assert sent.index(("GET", "%s/%s" % (FIPS, ident))) < sent.index(("PATCH", "%s/%s" % (V2, ident))), sent  # waited first


def test_the_diff_shows_the_user_tags_after_the_change(server):
    result = run(server, address=FREE, tags={"team": "web"})
    assert result["diff"]["after"]["tags"] == {"team": "web"}


def test_an_instance_without_interfaces_fails_naming_it(server):
    server.log = []
    result = harness.run(server, floating_ip, dict(project_id=2, region_id=1, instance="build-1"))
    assert result["failed"] is True and "instance build-1 of project 2, region 1 has no network interface" in result["msg"]
    assert writes(server) == []
