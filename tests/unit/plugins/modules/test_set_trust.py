# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The trust rules of every set (docs/api_reference.md section 12), each defect of issue 21 against the real simulator over HTTP:
deletes before creates at a quota, the gathered round trip, names that several rules hold, names with whitespace,
attach before detach, UUIDs in any case, IPv4-mapped addresses sent as written."""

from __future__ import annotations

import copy
import json


from ansible_collections.gcore.platform.plugins.modules import router, waap_custom_rules

import harness

DOMAIN = 1006
ROUTER = "e1a7c0de-0000-4000-8000-000000000001"  # legacy-router, attached to subnet ...b01
S1 = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01"


def run(server, module, args, check=False):
    return harness.run(server, module, args, _ansible_diff=True, _ansible_check_mode=check)


def rule(name, extension="pdf", ident=None):
    item = {"name": name, "enabled": True, "action": {"block": {}},
            "conditions": [{"file_extension": {"file_extension": [extension]}}]}
    return dict(item, id=ident) if ident else item


def seed(server, *rules):
    server.reset()
    server.custom_rules[DOMAIN] = [copy.deepcopy(item) for item in rules]


def writes(server):
    return [(method, path.rsplit("/", 1)[-1]) for method, path, _body in harness.writes(server)]


def test_overridden_at_the_rule_quota_deletes_first_and_converges(server):
    seed(server, rule("a", ident=1), rule("b", ident=2))
    server.configure(waap_rule_quota={"custom_rules": 2})
    result = run(server, waap_custom_rules.WaapCustomRules, {"domain_id": DOMAIN, "state": "overridden", "config": [rule("c"), rule("d")]})
    assert not result.get("failed"), result.get("msg")
    assert writes(server) == [("POST", "bulk_delete"), ("POST", "custom-rules"), ("POST", "custom-rules")]
    assert result["changes"] == {"created": ["c", "d"], "updated": [], "deleted": ["a", "b"], "deleted_ids": [1, 2]}
    server.log = []
    again = run(server, waap_custom_rules.WaapCustomRules, {"domain_id": DOMAIN, "state": "overridden", "config": [rule("c"), rule("d")]})
    assert again["changed"] is False and writes(server) == []


def test_gathered_round_trips_a_file_extension_with_its_dot(server):
    seed(server, rule("docs", ".pdf", ident=1))
    gathered = run(server, waap_custom_rules.WaapCustomRules, {"domain_id": DOMAIN, "state": "gathered"})
    assert gathered["gathered"][0]["conditions"] == [{"file_extension": {"file_extension": [".pdf"], "negation": False}}]
    result = run(server, waap_custom_rules.WaapCustomRules, {"domain_id": DOMAIN, "state": "overridden", "config": gathered["gathered"]})
    assert not result.get("failed"), result.get("msg")
    assert result["changed"] is False and writes(server) == []


def test_a_rule_the_module_cannot_represent_fails_gathered_naming_it(server):
    seed(server, rule("fine", ident=1), dict(rule("odd", ident=2), conditions=[{"ja3_fingerprint": {"value": "x"}}]))
    result = run(server, waap_custom_rules.WaapCustomRules, {"domain_id": DOMAIN, "state": "gathered"})
    assert result["failed"] is True
    assert result["msg"].startswith("Custom rule 'odd' (id 2) of domain 1006 cannot be represented as a config item: conditions[0]")


def test_deleted_with_a_name_several_rules_hold_deletes_them_all(server):
    seed(server, rule("twin", ident=1), rule("other", ident=2), rule("twin", "doc", ident=3))
    result = run(server, waap_custom_rules.WaapCustomRules, {"domain_id": DOMAIN, "state": "deleted", "config": [{"name": "twin"}]})
    assert result["changes"] == {"created": [], "updated": [], "deleted": ["twin", "twin"], "deleted_ids": [1, 3]}
    assert sorted(result["diff"]["before"]) == ["twin (id 1)", "twin (id 3)"] and result["diff"]["after"] == {}
    assert [item["name"] for item in server.custom_rules[DOMAIN]] == ["other"]


def test_a_name_with_whitespace_gets_a_warning_naming_the_item(server):
    seed(server, rule("web", ident=1))
    result = run(server, waap_custom_rules.WaapCustomRules, {"domain_id": DOMAIN, "config": [rule("web"), rule("web\n")]}, check=True)
    assert "config[1].name 'web\\\\n' has leading or trailing whitespace" in json.dumps(result["warnings"])
    assert result["changes"]["created"] == ["web\n"]


def test_the_diff_holds_only_the_rules_that_change_as_mappings_by_name(server):
    seed(server, rule("same", ident=1), rule("old", ident=2), rule("edit", ident=3))
    result = run(server, waap_custom_rules.WaapCustomRules, {"domain_id": DOMAIN, "state": "overridden",
                                                             "config": [rule("same"), rule("edit", "doc"), rule("new")]}, check=True)
    assert sorted(result["diff"]["before"]) == ["edit", "old"] and sorted(result["diff"]["after"]) == ["edit", "new"]
    assert result["diff"]["after"]["edit"]["conditions"] == [{"file_extension": {"file_extension": ["doc"], "negation": False}}]


ROUTER_ARGS = {"project_id": 1, "region_id": 76}


def attached(server):
    return sorted(assignment["subnet_id"] for port in server.routers[ROUTER]["interfaces"] for assignment in port["ip_assignments"])


def test_a_mistyped_subnet_fails_its_attach_and_leaves_the_old_subnet_attached(server):
    server.reset()
    unknown = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3bff"
    result = run(server, router.Router, dict(ROUTER_ARGS, id=ROUTER, interfaces=[{"subnet_id": unknown}]))
    assert result["failed"] is True and "HTTP 404" in result["msg"] and result["changed"] is False
    assert "could not be confirmed" not in result["msg"]
    assert [entry["path"].rsplit("/", 1)[-1] for entry in server.writes()] == ["attach"], "nothing detached"
    assert attached(server) == [S1]


def test_router_and_subnet_uuids_compare_case_insensitively_and_are_sent_lower_case(server):
    server.reset()
    result = run(server, router.Router, dict(ROUTER_ARGS, id=ROUTER.upper(), interfaces=[{"subnet_id": S1.upper()}]))
    assert not result.get("failed"), result.get("msg")
    assert result["changed"] is False and server.writes() == []
    assert all(ROUTER.upper() not in entry["path"] for entry in server.requests())


def test_an_ipv4_mapped_address_keeps_its_dotted_form():
    from ansible_collections.gcore.platform.plugins.module_utils._checks import canonical_ip  # pylint: disable=import-outside-toplevel
    assert canonical_ip("::ffff:10.0.0.1") == "::ffff:10.0.0.1"
    assert canonical_ip("::FFFF:0a00:0001") == "::ffff:10.0.0.1"
    assert canonical_ip("2001:DB8::1") == "2001:db8::1" and canonical_ip("10.0.0.1") == "10.0.0.1"


def test_an_ipv4_mapped_firewall_address_is_sent_as_written(server):
    from ansible_collections.gcore.platform.plugins.modules import waap_firewall_rules  # pylint: disable=import-outside-toplevel
    server.reset()
    config = [{"name": "mapped", "action": {"block": {}}, "conditions": [{"ip": {"ip_address": "::ffff:10.0.0.1"}}]}]
    result = run(server, waap_firewall_rules.WaapFirewallRules, {"domain_id": DOMAIN, "config": config})
    assert not result.get("failed"), result.get("msg")
    body = json.loads(server.writes()[0]["body"])
    assert body["conditions"] == [{"ip": {"ip_address": "::ffff:10.0.0.1", "negation": False}}]
    server.log = []
    assert run(server, waap_firewall_rules.WaapFirewallRules, {"domain_id": DOMAIN, "config": config})["changed"] is False
    assert server.writes() == []
