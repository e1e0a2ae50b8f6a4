# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""waap_policy_overrides against the simulator (docs/api_reference.md section 18.4): identity by exact name, members by
PATCH, a target change replaced (POST then DELETE, ``changes.replaced``; a failure between them loses nothing), one DELETE each, check mode, the round trip,
and the checks before any request."""

from __future__ import annotations

from unittest import mock

import pytest

from ansible_collections.gcore.platform.plugins.module_utils import _tasks
from ansible_collections.gcore.platform.plugins.modules import waap_policy_overrides

import harness

Module = waap_policy_overrides.WaapPolicyOverrides
DOMAIN = 1006
PATH = "/waap/v1/domains/1006/default-rule-overrides"
SQL = {"name": "Admin SQL", "target_type": "detector", "targets": [862, 861],
       "conditions": [{"url": {"url": "/admin/sql"}}, {"ip": {"ip_address": "192.0.2.10"}}]}
BOTS = {"name": "Partner bot", "description": "their crawler", "target_type": "rule", "targets": [12],
        "conditions": [{"ja3": {"ja3_fingerprints": ["E7D705A3286E19EA42F587B344EE6865"]}}]}


def run(server, args, **options):
    return harness.run(server, Module, args, **options)


@pytest.fixture
def sim(server):
    server.reset()
    return server


def held(sim):
    return sim.policy_overrides.setdefault(DOMAIN, [])


def test_created_then_the_same_input_sends_nothing(sim):
    result = run(sim, {"domain_id": DOMAIN, "config": [SQL, BOTS]})
    assert result["changed"] is True
    assert result["changes"] == {"created": ["Admin SQL", "Partner bot"], "updated": [], "deleted": [], "deleted_ids": [], "replaced": []}
    assert harness.writes(sim)[0] == ("POST", PATH, {
        "name": "Admin SQL", "enabled": True, "target_type": "detector", "target_ids": [861, 862],
        "conditions": [{"url": {"url": "/admin/sql", "match_type": "Contains", "negation": False}},
                       {"ip": {"ip_address": "192.0.2.10", "negation": False}}]})
    assert result["diff"]["before"] == {} and sorted(result["diff"]["after"]) == ["Admin SQL", "Partner bot"]
    sim.log = []
    again = run(sim, {"domain_id": DOMAIN, "config": [dict(SQL, targets=[861, 862, 861]), BOTS]})
    assert again["changed"] is False and sim.writes() == []
    assert again["changes"] == {"created": [], "updated": [], "deleted": [], "deleted_ids": [], "replaced": []}


def test_other_members_change_by_one_patch_of_the_differences(sim):
    run(sim, {"domain_id": DOMAIN, "config": [SQL]})
    ident = held(sim)[0]["id"]
    sim.log = []
    result = run(sim, {"domain_id": DOMAIN, "config": [dict(SQL, enabled=False, conditions=[{"url": {"url": "/admin/sql"}}])]})
    assert result["changes"]["updated"] == ["Admin SQL"] and result["changes"]["replaced"] == []
    assert harness.writes(sim) == [("PATCH", "%s/%s" % (PATH, ident), {
        "enabled": False, "conditions": [{"url": {"url": "/admin/sql", "match_type": "Contains", "negation": False}}]})]
    assert held(sim)[0]["id"] == ident and held(sim)[0]["enabled"] is False


@pytest.mark.parametrize("change", [{"targets": [861]}, {"target_type": "rule", "targets": [11, 12]}])  # rule ids the OWASP listing shows
def test_a_target_change_creates_then_deletes_and_says_replaced(sim, change):
    run(sim, {"domain_id": DOMAIN, "config": [dict(SQL, description="kept")]})
    old = held(sim)[0]["id"]
    sim.log = []
    result = run(sim, {"domain_id": DOMAIN, "config": [dict({"name": "Admin SQL"}, **change)]})
    assert result["changed"] is True
    assert result["changes"] == {"created": [], "updated": [], "deleted": [], "deleted_ids": [old], "replaced": ["Admin SQL"]}
    writes = harness.writes(sim)
    assert [(method, path) for method, path, _body in writes] == [("POST", PATH), ("DELETE", "%s/%s" % (PATH, old))]
    assert writes[0][2]["description"] == "kept" and writes[0][2]["conditions"][0]["url"]["url"] == "/admin/sql"  # merged: the rest kept
    assert [record["id"] for record in held(sim)] != [old] and len(held(sim)) == 1
    assert result["diff"]["before"]["Admin SQL"]["targets"] == [861, 862]
    sim.log = []
    assert run(sim, {"domain_id": DOMAIN, "config": [dict({"name": "Admin SQL"}, **change)]})["changed"] is False and sim.writes() == []


def test_check_mode_tells_the_replacement_and_sends_nothing(sim):
    run(sim, {"domain_id": DOMAIN, "config": [SQL]})
    sim.log = []
    result = run(sim, {"domain_id": DOMAIN, "config": [dict(SQL, targets=[1])]}, _ansible_check_mode=True)
    assert result["changed"] is True and result["changes"]["replaced"] == ["Admin SQL"] and sim.writes() == []


def test_overridden_deletes_one_at_a_time_and_gathered_round_trips(sim):
    run(sim, {"domain_id": DOMAIN, "config": [SQL, BOTS]})
    sim.log = []
    result = run(sim, {"domain_id": DOMAIN, "state": "overridden", "config": [BOTS]})
    assert result["changes"]["deleted"] == ["Admin SQL"]
    assert [method for method, _path, _body in harness.writes(sim)] == ["DELETE"]
    gathered = run(sim, {"domain_id": DOMAIN, "state": "gathered"})["gathered"]
    assert gathered == [{"name": "Partner bot", "description": "their crawler", "enabled": True, "target_type": "rule", "targets": [12],
                         "conditions": [{"ja3": {"ja3_fingerprints": ["e7d705a3286e19ea42f587b344ee6865"], "negation": False}}]}]
    sim.log = []
    assert run(sim, {"domain_id": DOMAIN, "state": "overridden", "config": gathered})["changed"] is False and sim.writes() == []


def test_deleted_deletes_the_named_and_a_missing_name_is_no_change(sim):
    run(sim, {"domain_id": DOMAIN, "config": [SQL, BOTS]})
    result = run(sim, {"domain_id": DOMAIN, "state": "deleted", "config": [{"name": "Partner bot"}, {"name": "Nobody"}]})
    assert result["changes"]["deleted"] == ["Partner bot"] and [record["name"] for record in held(sim)] == ["Admin SQL"]
    assert run(sim, {"domain_id": DOMAIN, "state": "deleted", "config": [{"name": "Partner bot"}]})["changed"] is False


def test_two_overrides_with_one_name_refuse_a_write(sim):
    held(sim).extend([dict(record, id=ident) for ident, record in ((1, {"name": "Twin"}), (2, {"name": "Twin"}))])
    result = run(sim, {"domain_id": DOMAIN, "config": [dict(SQL, name="Twin")]})
    assert result["failed"] is True and "2 policy overrides of domain 1006 are named 'Twin' (ids 1, 2)" in result["msg"]
    assert sim.writes() == []


@pytest.mark.parametrize("item, message", [
    (dict(SQL, conditions=[{"ip": {"ip_address": "192.0.2.%d" % n}} for n in range(6)]),
     "config[0].conditions: 1 to 5 conditions are required (6 given)"),
    (dict(SQL, conditions=[{"asn": {"asns": [64500]}}]), "config.conditions.asn"),
    (dict(SQL, targets=[]), "config[0].targets: at least one detector or rule id is required"),
    (dict(SQL, targets=[0]), "config[0].targets[0]"),
    (dict(SQL, name=" "), "config[0].name: must not be empty"),
    ({"name": "New", "target_type": "detector", "conditions": SQL["conditions"]}, "config[0]: targets required to create"),
])
def test_bad_input_fails_before_any_write(sim, item, message):
    result = run(sim, {"domain_id": DOMAIN, "config": [item]})
    assert result["failed"] is True and message in result["msg"], result["msg"]
    assert sim.writes() == []


def test_replaced_resets_what_the_item_leaves_out_also_in_a_replacement(sim):
    run(sim, {"domain_id": DOMAIN, "config": [dict(SQL, description="old words", enabled=False), dict(BOTS, enabled=False)]})
    sim.log = []
    result = run(sim, {"domain_id": DOMAIN, "state": "replaced", "config": [dict(SQL, targets=[861]), BOTS]})
    assert result["changes"]["replaced"] == ["Admin SQL"] and result["changes"]["updated"] == ["Partner bot"]
    writes = harness.writes(sim)
    assert [method for method, _path, _body in writes] == ["PATCH", "POST", "DELETE"]
    assert writes[0][2] == {"enabled": True}
    assert writes[1][2]["enabled"] is True and writes[1][2].get("description", "") == "" and writes[1][2]["target_ids"] == [861]


REPLACEMENT_FAULTS = {"rejected": dict(status=403), "task-less 500, not applied": dict(status=500)}


@pytest.mark.parametrize("fault", list(REPLACEMENT_FAULTS))
def test_a_failed_replacement_create_leaves_the_old_override_and_says_nothing_replaced(sim, fault):
    run(sim, {"domain_id": DOMAIN, "config": [SQL]})
    old = held(sim)[0]["id"]
    sim.log = []
    sim.add_fault(method="POST", path=PATH + "$", **REPLACEMENT_FAULTS[fault])
    with mock.patch.object(_tasks, "SETTLE_TIMEOUT", 1):  # a 500 not applied is read back for a second here
        result = run(sim, {"domain_id": DOMAIN, "config": [dict(SQL, targets=[861])]})
    assert result["failed"] is True
    assert [method for method, _path, _body in harness.writes(sim)] == ["POST"], "the old one is not deleted"
    assert [record["id"] for record in held(sim)] == [old] and held(sim)[0]["targets"][0]["detector_id"] == 861
    assert result["changes"] == {"created": [], "updated": [], "deleted": [], "deleted_ids": [], "replaced": []}
    assert result["changed"] is (fault != "rejected"), "a 500 may have been applied: changed, not confirmed"
    sim.log = []
    again = run(sim, {"domain_id": DOMAIN, "config": [dict(SQL, targets=[861])]})
    assert again["changes"]["replaced"] == ["Admin SQL"] and again["changes"]["deleted_ids"] == [old]
    assert [method for method, _path, _body in harness.writes(sim)] == ["POST", "DELETE"]


def test_a_failed_delete_after_the_replacement_was_created_says_created_and_the_rerun_finishes_it(sim):
    run(sim, {"domain_id": DOMAIN, "config": [SQL]})
    old = held(sim)[0]["id"]
    sim.add_fault(method="DELETE", path=PATH + "/%s$" % old, status=403)
    result = run(sim, {"domain_id": DOMAIN, "config": [dict(SQL, targets=[1])]})
    assert result["failed"] is True and result["changed"] is True
    assert result["changes"]["replaced"] == [] and result["changes"]["created"] == ["Admin SQL"] and result["changes"]["deleted_ids"] == []
    assert sorted(record["id"] for record in held(sim))[0] == old and len(held(sim)) == 2, "both: the new one works already"
    sim.log = []
    again = run(sim, {"domain_id": DOMAIN, "config": [dict(SQL, targets=[1])]}, _ansible_diff=True)
    assert again["changed"] is True and again["changes"]["deleted_ids"] == [old], again
    assert harness.writes(sim) == [("DELETE", "%s/%s" % (PATH, old), None)], "the old one, left by the replacement"
    assert again["diff"]["before"]["Admin SQL"]["targets"] == [861, 862] and "Admin SQL" not in again["diff"]["after"]
    sim.log = []
    assert run(sim, {"domain_id": DOMAIN, "config": [dict(SQL, targets=[1])]})["changed"] is False and sim.writes() == []


def test_the_domain_by_its_name_is_one_paginated_lookup_before_anything_else(sim):
    result = run(sim, {"domain": "RULES.example.com", "config": [SQL]})
    assert result["changed"] is True and [path for _method, path, _body in harness.writes(sim)] == [PATH]
    assert [entry["path"] for entry in sim.requests("GET")][:2] == ["/waap/v2/domains", PATH], "the lookup first, then the listing"
    sim.log = []
    again = run(sim, {"domain": "rules.example.com", "config": [SQL]})
    assert again["changed"] is False and sim.writes() == [] and len(sim.requests("GET")) == 2
    sim.log = []
    unknown = run(sim, {"domain": "rules.example", "config": [SQL]})
    assert unknown["failed"] and "No WAAP domain is named 'rules.example'" in unknown["msg"]
    assert [entry["path"] for entry in sim.requests()] == ["/waap/v2/domains"], "nothing but the lookup"


@pytest.mark.parametrize("check", [False, True])
def test_rule_targets_the_owasp_listing_lacks_fail_before_any_write_a_replacement_too(sim, check):
    run(sim, {"domain_id": DOMAIN, "config": [SQL]})
    sim.log = []
    result = run(sim, {"domain_id": DOMAIN, "config": [BOTS, dict(SQL, target_type="rule", targets=[12, 99, 7])]}, _ansible_check_mode=check)
    assert result["failed"] is True and sim.writes() == [], result
    assert "config[1].targets: 7, 99 are not among the rule ids the domain's OWASP Top Threats targets list (11, 12, 13, 14, 15, 16)" in result["msg"]
    assert [entry["path"] for entry in sim.requests("GET")].count(PATH.replace("default-rule-overrides", "policy-override-targets/owasp-top-threats")) == 1
    sim.log = []
    assert run(sim, {"domain_id": DOMAIN, "config": [SQL]})["changed"] is False
    assert [entry["path"] for entry in sim.requests("GET")] == [PATH], "no rule target to create: the listing is not read"


def test_two_overrides_of_one_name_deleted_are_named_twice(sim):
    run(sim, {"domain_id": DOMAIN, "config": [SQL]})
    sim.call("POST", PATH, {"name": "Admin SQL", "enabled": True, "target_type": "detector", "target_ids": [5]})
    ids = sorted(record["id"] for record in held(sim))
    result = run(sim, {"domain_id": DOMAIN, "state": "overridden", "config": [BOTS]})
    assert result["changes"]["deleted"] == ["Admin SQL", "Admin SQL"] and result["changes"]["deleted_ids"] == ids, result["changes"]
