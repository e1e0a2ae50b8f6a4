# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""waap_custom_rules and waap_firewall_rules: the set comparison of WAAP rules (the single-rule module's semantics:
service defaults filled, members left out not managed under merged, reset under replaced), validation before any
request, and gathered in the config shape. Served from memory (no HTTP); every request is recorded."""

from __future__ import annotations

import copy
import json
from unittest import mock

import pytest
from ansible.module_utils.testing import patch_module_args

from ansible_collections.gcore.platform.plugins.modules.waap_custom_rules import WaapCustomRules
from ansible_collections.gcore.platform.plugins.modules.waap_firewall_rules import WaapFirewallRules

CLIENT = "ansible_collections.gcore.platform.plugins.module_utils._base.Client"
CUSTOM = "/waap/v1/domains/7/custom-rules"  # read and created on v1
FIREWALL = "/waap/v1/domains/7/firewall-rules"
CUSTOM_V2 = "/waap/v2/domains/7/custom-rules"  # updated and bulk-deleted on v2 (docs/api_reference.md section 18.7)
FIREWALL_V2 = "/waap/v2/domains/7/firewall-rules"


class Rules:
    """One domain's rules as the service holds them; PATCH merges, bulk_delete removes."""

    def __init__(self, rules):
        self.rules = copy.deepcopy(rules)
        self.requests = []
        self.next_id = 900

    def paginate(self, path, params=None, **kwargs):
        self.requests.append(("GET", path, None))
        return copy.deepcopy(self.rules)

    def request(self, method, path, params=None, json=None, ok=None):
        self.requests.append((method, path, json))
        if path.endswith("/bulk_delete"):
            self.rules = [rule for rule in self.rules if rule["id"] not in json["rule_ids"]]
        elif method == "POST":
            self.next_id += 1
            self.rules.append(dict(json, id=self.next_id))
        elif method == "PATCH":
            rule_id = int(path.rsplit("/", 1)[1])
            next(rule for rule in self.rules if rule["id"] == rule_id).update(json)
        return None

    def writes(self):
        return [request for request in self.requests if request[0] != "GET"]


def run(module, service, args, check=False):
    args = dict(args, api_key="unit-test-key", _ansible_check_mode=check, _ansible_diff=True)
    with patch_module_args(args), mock.patch("sys.stdout") as stdout, mock.patch(CLIENT, lambda **kwargs: service):
        with pytest.raises(SystemExit):
            module.main()
    return json.loads("".join(call.args[0] for call in stdout.write.call_args_list))


def custom_rules():
    return [
        {"id": 1, "name": "Bots", "description": "Bad bots", "enabled": False,
         "action": {"block": {"status_code": 403, "action_duration": "1h"}},
         "conditions": [{"user_agent": {"user_agent": "badbot", "match_type": "Contains", "negation": False}},
                        {"owner_types": {"owner_types": ["COMMERCIAL"], "negation": False}}]},
        {"id": 2, "name": "Rate", "enabled": True, "action": {"captcha": {}},
         "conditions": [{"request_rate": {"path_pattern": "^/login", "requests": 50, "time": 60}}]},
    ]


BOTS = {"name": "Bots", "action": {"block": {}},
        "conditions": [{"owner_types": {}}, {"user_agent": {"user_agent": "badbot"}}]}


def test_merged_fills_the_service_defaults_and_leaves_members_out_unmanaged():
    service = Rules(custom_rules())
    result = run(WaapCustomRules, service, {"domain_id": 7, "config": [BOTS, {"name": "Rate"}]})
    assert result["changed"] is False, result
    assert service.requests == [("GET", CUSTOM, None)], "no write: defaults filled, description/enabled/block members unmanaged"


def test_merged_sends_only_the_members_that_differ_keeping_the_block_members_the_service_holds():
    service = Rules(custom_rules())
    result = run(WaapCustomRules, service, {"domain_id": 7, "config": [dict(BOTS, action={"block": {"status_code": 429}})]})
    assert result["changes"] == {"created": [], "updated": ["Bots"], "deleted": [], "deleted_ids": []}
    assert service.writes() == [("PATCH", CUSTOM_V2 + "/1", {"action": {"block": {"status_code": 429, "action_duration": "1h"}}})]


def test_replaced_resets_description_and_enabled_but_not_the_block_members():
    service = Rules(custom_rules())
    result = run(WaapCustomRules, service, {"domain_id": 7, "state": "replaced", "config": [BOTS, {"name": "Rate"}]})
    assert result["changes"]["updated"] == ["Bots"]
    assert service.writes() == [("PATCH", CUSTOM_V2 + "/1", {"description": "", "enabled": True})]
    assert result["diff"]["before"]["Bots"]["enabled"] is False and result["diff"]["after"]["Bots"]["enabled"] is True
    again = run(WaapCustomRules, Rules(service.rules), {"domain_id": 7, "state": "replaced", "config": [BOTS, {"name": "Rate"}]})
    assert again["changed"] is False


def test_gathered_is_the_config_shape_and_round_trips_through_overridden():
    service = Rules(custom_rules())
    gathered = run(WaapCustomRules, service, {"domain_id": 7, "state": "gathered"})["gathered"]
    assert gathered[1] == {"name": "Rate", "enabled": True, "action": {"captcha": {}},
                           "conditions": [{"request_rate": {"path_pattern": "^/login", "requests": 50, "time": 60}}]}
    assert "id" not in gathered[0] and gathered[0]["description"] == "Bad bots"
    result = run(WaapCustomRules, service, {"domain_id": 7, "state": "overridden", "config": gathered})
    assert result["changed"] is False and service.writes() == []


def test_a_rule_to_create_without_action_fails_naming_the_item_after_the_listing_only():
    service = Rules(custom_rules())
    result = run(WaapCustomRules, service, {"domain_id": 7, "config": [{"name": "Rate"}, {"name": "New", "enabled": True}]})
    assert result["failed"] is True and result["changed"] is False
    assert "config[1]: action and conditions required to create the custom rule 'New'" in result["msg"]
    assert service.requests == [("GET", CUSTOM, None)]


@pytest.mark.parametrize("config, message", [
    ([{"name": "A"}, {"name": "B"}, {"name": "C"}, {"name": "D", "conditions": [{"ip": {"ip_address": "10.0.0.300"}}]}],
     "config[3].conditions[0].ip.ip_address: '10.0.0.300' is not an IPv4 or IPv6 address"),
    ([{"name": "A", "conditions": [{"url": {"url": "(?=x)", "match_type": "Regex"}}]}],
     "config[0].conditions[0].url.url: a Regex url must not use lookahead or lookbehind"),
    ([{"name": "A", "action": {"block": {"action_duration": "0s"}}}], "config[0].action.block.action_duration"),
])
def test_every_item_is_validated_before_any_request(config, message):
    service = Rules(custom_rules())
    result = run(WaapCustomRules, service, {"domain_id": 7, "config": config})
    assert result["failed"] is True and message in result["msg"], result["msg"]
    assert service.requests == []


@pytest.mark.parametrize("args, message", [
    ({"state": "overridden"}, "state is overridden but all of the following are missing: config"),
    ({"state": "deleted", "config": []}, "config: state=deleted needs the names"),
    ({"state": "gathered", "config": [{"name": "A"}]}, "config: is not used with state=gathered"),
])
def test_config_is_required_except_for_gathered(args, message):
    service = Rules(custom_rules())
    result = run(WaapCustomRules, service, dict(args, domain_id=7))
    assert result["failed"] is True and message in result["msg"], result["msg"]
    assert service.requests == []


# ---- firewall rules -------------------------------------------------------------------------------

def firewall_rules():
    return [
        {"id": 11, "name": "Office", "description": "Egress", "enabled": True, "action": {"allow": {}, "block": None},
         "conditions": [{"ip": {"ip_address": "2001:DB8::1", "negation": False}}]},
        {"id": 12, "name": "Scanners", "enabled": True, "action": {"allow": None, "block": {"status_code": 403, "action_duration": None}},
         "conditions": [{"ip_range": {"lower_bound": "198.51.100.0", "upper_bound": "198.51.100.255", "negation": True}}]},
    ]


def test_firewall_rules_compare_with_null_action_members_and_canonical_addresses():
    service = Rules(firewall_rules())
    config = [{"name": "Office", "action": {"allow": {}}, "conditions": [{"ip": {"ip_address": "2001:db8:0::1"}}]},
              {"name": "Scanners", "action": {"block": {}}}]
    result = run(WaapFirewallRules, service, {"domain_id": 7, "config": config})
    assert result["changed"] is False and service.requests == [("GET", FIREWALL, None)]
    gathered = run(WaapFirewallRules, service, {"domain_id": 7, "state": "gathered"})["gathered"]
    assert gathered[1] == {"name": "Scanners", "enabled": True, "action": {"block": {"status_code": 403}},
                           "conditions": [{"ip_range": {"lower_bound": "198.51.100.0", "upper_bound": "198.51.100.255", "negation": True}}]}
    overridden = run(WaapFirewallRules, service, {"domain_id": 7, "state": "overridden", "config": gathered[:1]})
    assert overridden["changes"] == {"created": [], "updated": [], "deleted": ["Scanners"], "deleted_ids": [12]}
    assert service.writes() == [("POST", FIREWALL_V2 + "/bulk_delete", {"rule_ids": [12]})]


def test_a_firewall_action_change_is_sent_whole():
    service = Rules(firewall_rules())
    run(WaapFirewallRules, service, {"domain_id": 7, "config": [{"name": "Office", "action": {"block": {"status_code": 429}}}]})
    assert service.writes() == [("PATCH", FIREWALL_V2 + "/11", {"action": {"block": {"status_code": 429}}})]


@pytest.mark.parametrize("config, message", [
    ([{"name": "A", "conditions": [{"ip": {"ip_address": "192.0.2.1"}}, {"ip": {"ip_address": "192.0.2.2"}}]}],
     "config[0].conditions: a firewall rule takes exactly 1 condition, ip or ip_range (2 given)"),
    ([{"name": "A", "conditions": [{"ip_range": {"lower_bound": "192.0.2.1", "upper_bound": "::1"}}]}],
     "config[0].conditions[0].ip_range: lower_bound 192.0.2.1 and upper_bound ::1 must be of one family"),
    ([{"name": "A", "action": {"captcha": {}}}], "config.action.captcha"),
    ([{"name": "A", "conditions": [{"country": {"country_code": ["DE"]}}]}], "config.conditions.country"),
])
def test_firewall_items_take_only_the_firewall_fields(config, message):
    service = Rules(firewall_rules())
    result = run(WaapFirewallRules, service, {"domain_id": 7, "config": config})
    assert result["failed"] is True and message in result["msg"], result["msg"]
    assert service.requests == []


# ---- the SDK 0.59 conditions (docs/api_reference.md section 18.6) -----------------------------------------------

LEGACY = {"id": 3, "name": "Legacy", "enabled": True, "action": {"monitor": {}},
          "conditions": [{"response_header": {"header": "X-Cache", "value": "MISS", "match_type": "Exact", "negation": False}}]}


def test_a_rule_with_a_read_only_condition_round_trips_and_an_update_leaves_its_conditions_out():
    service = Rules(custom_rules() + [LEGACY])
    gathered = run(WaapCustomRules, service, {"domain_id": 7, "state": "gathered"})["gathered"]
    result = run(WaapCustomRules, service, {"domain_id": 7, "state": "overridden", "config": gathered})
    assert result["changed"] is False and service.writes() == []
    legacy = dict(gathered[2], description="Cache misses")
    result = run(WaapCustomRules, service, {"domain_id": 7, "config": [legacy]})
    assert service.writes() == [("PATCH", CUSTOM_V2 + "/3", {"description": "Cache misses"})], "the unchanged conditions are not sent"


@pytest.mark.parametrize("config, message", [
    ([dict(LEGACY, id=None, name="New legacy")], "conditions[0].response_header: the service returns response_header conditions"),
    ([{"name": "Legacy", "conditions": [{"response_header_exists": {"header": "X-Cache"}}]}],
     "conditions[0].response_header_exists: the service returns response_header_exists conditions"),
])
def test_a_create_or_a_changed_list_with_a_read_only_condition_fails_before_any_write(config, message):
    service = Rules(custom_rules() + [LEGACY])
    config = [dict((key, value) for key, value in item.items() if key != "id") for item in config]
    result = run(WaapCustomRules, service, {"domain_id": 7, "config": config})
    assert result["failed"] is True and result["changed"] is False and message in result["msg"], result
    assert service.writes() == []
    check = run(WaapCustomRules, Rules(custom_rules() + [LEGACY]), {"domain_id": 7, "config": config}, check=True)
    assert check["failed"] is True and message in check["msg"], "check mode refuses it too"


def test_a_create_with_a_read_only_condition_names_the_item():
    service = Rules(custom_rules())
    item = {"name": "New", "action": {"monitor": {}}, "conditions": [{"ip": {"ip_address": "192.0.2.1"}}, {"response_header_exists": {"header": "X"}}]}
    result = run(WaapCustomRules, service, {"domain_id": 7, "config": [{"name": "Rate"}, item]})
    assert result["failed"] is True and "config[1].conditions[1].response_header_exists" in result["msg"], result["msg"]
    assert service.writes() == []


def test_asn_ja3_ja4_conditions_are_sent_lower_case_and_compare_case_insensitively():
    ja3, ja4 = "E7D705A3286E19EA42F587B344EE6865", "T13D1516H2_8DAAF6152771_02713D6AF862"
    item = {"name": "Fingerprints", "action": {"block": {}},
            "conditions": [{"asn": {"asns": [64496, 13335]}}, {"ja3": {"ja3_fingerprints": [ja3]}}, {"ja4": {"ja4_fingerprints": [ja4]}}]}
    service = Rules([])
    result = run(WaapCustomRules, service, {"domain_id": 7, "config": [item]})
    assert result["changes"]["created"] == ["Fingerprints"]
    body = service.writes()[0][2]
    assert body["conditions"] == [{"asn": {"asns": [64496, 13335], "negation": False}},
                                  {"ja3": {"ja3_fingerprints": [ja3.lower()], "negation": False}},
                                  {"ja4": {"ja4_fingerprints": [ja4.lower()], "negation": False}}]
    again = run(WaapCustomRules, Rules(service.rules), {"domain_id": 7, "config": [item]})
    assert again["changed"] is False, "upper-case fingerprints match the lower-case ones the service holds"
