# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""WAAP helpers: service defaults, the comparison of conditions and actions, validation before any request."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError, strip_none
from ansible_collections.gcore.platform.plugins.module_utils._waap import (
    action_matches,
    action_to_send,
    condition_argument_spec,
    list_params,
    normalise_condition,
    same_conditions,
    validate_action,
    validate_conditions,
    validate_rule_name,
)
from ansible_collections.gcore.platform.plugins.module_utils._members import differences
from ansible_collections.gcore.platform.plugins.module_utils._waap_rules import RULE_MEMBERS
from ansible_collections.gcore.platform.plugins.module_utils._waap_tables import CONDITION_KINDS


def ansible_condition(kind, **members):
    """A condition as Ansible hands it over: every kind present, unset ones None; unset members None."""
    condition = dict((name, None) for name in CONDITION_KINDS)
    options = condition_argument_spec()[kind]["options"]
    condition[kind] = dict((name, members.get(name)) for name in options)
    return condition


def test_defaults_filled_as_the_service_does():
    assert normalise_condition({"ip": {"ip_address": "192.0.2.1"}}) == {"ip": {"ip_address": "192.0.2.1", "negation": False}}
    assert normalise_condition({"url": {"url": "/a"}}) == {"url": {"url": "/a", "match_type": "Contains", "negation": False}}
    assert normalise_condition({"owner_types": {}}) == {"owner_types": {"owner_types": ["COMMERCIAL"], "negation": False}}
    assert normalise_condition({"header": {"header": "X", "value": "v", "match_type": "Exact", "negation": True}}) == {
        "header": {"header": "X", "value": "v", "match_type": "Exact", "negation": True}}


def test_request_rate_never_gets_negation():
    rate = {"request_rate": {"path_pattern": "^/", "requests": 20, "time": 1}}
    assert normalise_condition(rate) == rate


def test_ansible_nones_are_dropped_and_ips_canonical():
    condition = ansible_condition("ip_range", lower_bound="2001:DB8:0::1", upper_bound="2001:db8::ff")
    assert normalise_condition(condition) == {"ip_range": {"lower_bound": "2001:db8::1", "upper_bound": "2001:db8::ff", "negation": False}}
    rate = ansible_condition("request_rate", path_pattern="^/", requests=20, time=5, ips=["2001:DB8::1"])
    assert normalise_condition(rate) == {"request_rate": {"path_pattern": "^/", "requests": 20, "time": 5, "ips": ["2001:db8::1"]}}


def test_conditions_equal_with_defaults_left_out_or_spelled_out_in_any_order():
    record = [{"user_agent": {"user_agent": "scrapy", "match_type": "Contains", "negation": False}},
              {"url": {"url": "/api/", "match_type": "Contains", "negation": False}},
              {"country": {"country_code": ["DE", "FR"], "negation": False}}]
    left_out = [ansible_condition("user_agent", user_agent="scrapy"), ansible_condition("url", url="/api/"),
                ansible_condition("country", country_code=["FR", "DE"])]
    spelled_out = [ansible_condition("country", country_code=["DE", "FR"], negation=False),
                   ansible_condition("url", url="/api/", match_type="Contains", negation=False),
                   ansible_condition("user_agent", user_agent="scrapy", match_type="Contains", negation=False)]
    assert same_conditions(left_out, record)
    assert same_conditions(spelled_out, record)


@pytest.mark.parametrize("changed", [
    [{"user_agent": {"user_agent": "curl"}}, {"url": {"url": "/api/"}}],
    [{"user_agent": {"user_agent": "scrapy", "negation": True}}, {"url": {"url": "/api/"}}],
    [{"user_agent": {"user_agent": "scrapy", "match_type": "Exact"}}, {"url": {"url": "/api/"}}],
    [{"user_agent": {"user_agent": "scrapy"}}],
    [{"user_agent": {"user_agent": "scrapy"}}, {"url": {"url": "/api/"}}, {"http_method": {"http_method": "GET"}}],
    [{"user_agent": {"user_agent": "scrapy"}}, {"user_agent": {"user_agent": "scrapy"}}],
])
def test_a_real_difference_is_seen(changed):
    record = [{"user_agent": {"user_agent": "scrapy", "match_type": "Contains", "negation": False}},
              {"url": {"url": "/api/", "match_type": "Contains", "negation": False}}]
    assert not same_conditions(changed, record)


def test_owner_types_default_equals_the_explicit_list():
    assert same_conditions([{"owner_types": {}}], [{"owner_types": {"owner_types": ["COMMERCIAL"], "negation": False}}])
    assert not same_conditions([{"owner_types": {"owner_types": ["ISP"]}}], [{"owner_types": {"owner_types": ["COMMERCIAL"]}}])


def test_block_members_left_out_are_not_managed():
    held = {"block": {"status_code": 429, "action_duration": "10m"}}
    assert action_matches({"block": {"status_code": None, "action_duration": None}}, held)
    assert action_matches({"block": {"status_code": 429}}, held)
    assert not action_matches({"block": {"status_code": 403}}, held)
    assert action_matches({"block": {}}, {"block": {"status_code": None}})
    assert not action_matches({"captcha": {}}, held)
    assert action_matches({"tag": {"tags": ["b", "a"]}}, {"tag": {"tags": ["a", "b"]}})


def test_a_changed_block_keeps_the_members_the_user_left_out():
    held = {"block": {"status_code": 429, "action_duration": "10m"}}
    assert action_to_send({"block": {"action_duration": "1h", "status_code": None}}, held) == {
        "block": {"status_code": 429, "action_duration": "1h"}}
    assert action_to_send({"captcha": {}, "block": None}, held) == {"captcha": {}}
    assert action_to_send({"block": {}}, {"allow": {}}) == {"block": {}}


@pytest.mark.parametrize("desired, held, same", [
    (None, None, True), ("", None, True), ("", "", True), (None, "", True), ("x", None, False), ("", "x", False), ("x", "x", True),
])
def test_missing_null_and_empty_description_are_one_value(desired, held, same):
    assert ("description" not in differences(RULE_MEMBERS, {"description": held}, {"description": desired})) is same


def test_strip_none_keeps_empty_members():
    assert strip_none({"allow": {}, "block": None, "x": [{"a": None, "b": 1}]}) == {"allow": {}, "x": [{"b": 1}]}


def test_list_params_only_given_filters_with_lower_case_booleans():
    params = {"name": "Block*", "description": None, "enabled": False, "domain_ids": [], "action": "block", "ordering": "-id"}
    assert list_params(params, ("name", "description", "enabled", "domain_ids", "action", "ordering")) == {
        "name": "Block*", "enabled": "false", "action": "block", "ordering": "-id"}
    assert list_params({"enabled": True, "domain_ids": [1, 2]}, ("enabled", "domain_ids")) == {"enabled": "true", "domain_ids": [1, 2]}


@pytest.mark.parametrize("conditions, option", [
    ([], "conditions"),
    ([ansible_condition("ip", ip_address="192.0.2.1")] * 6, "conditions"),
    ([dict(ansible_condition("ip", ip_address="192.0.2.1"), url={"url": "/a"})], "conditions[0]"),
    ([ansible_condition("ip", ip_address="192.0.2.300")], "conditions[0].ip.ip_address"),
    ([ansible_condition("url", url="/a b")], "conditions[0].url.url"),
    ([ansible_condition("url", url="(?<!x)y", match_type="Regex")], "conditions[0].url.url"),
    ([ansible_condition("url", url="(unclosed", match_type="Regex")], "conditions[0].url.url"),
    ([ansible_condition("header", header="X_Bad", value="v")], "conditions[0].header.header"),
    ([ansible_condition("header", header="X-Ok", value="")], "conditions[0].header.value"),
    ([ansible_condition("request_rate", path_pattern="^/", requests=19, time=1)], "conditions[0].request_rate.requests"),
    ([ansible_condition("request_rate", path_pattern="^/", requests=20, time=0)], "conditions[0].request_rate.time"),
    ([ansible_condition("request_rate", path_pattern="^/", requests=20, time=1, ips=["192.0.2.1"] * 11)], "conditions[0].request_rate.ips"),
    ([{"request_rate": {"path_pattern": "^/", "requests": 20, "time": 1, "negation": False}}], "conditions[0].request_rate.negation"),
    ([ansible_condition("country", country_code=["D"])], "conditions[0].country.country_code[0]"),
    ([ansible_condition("file_extension", file_extension=["x" * 11])], "conditions[0].file_extension.file_extension[0]"),
    ([ansible_condition("tags", tags=[])], "conditions[0].tags.tags"),
    ([ansible_condition("user_defined_tags", tags=["ok", "9no"])], "conditions[0].user_defined_tags.tags[1]"),
    ([ansible_condition("session_request_count", request_count=0)], "conditions[0].session_request_count.request_count"),
    ([ansible_condition("user_agent", user_agent="u" * 301)], "conditions[0].user_agent.user_agent"),
    # issue 11: ISO codes are upper case; the extension pattern is anchored; ranges are ordered and of one family
    ([ansible_condition("country", country_code=["DE", "de"])], "conditions[0].country.country_code[1]"),
    ([ansible_condition("country", country_code=["D1"])], "conditions[0].country.country_code[0]"),
    ([ansible_condition("country", country_code=["DE\n"])], "conditions[0].country.country_code[0]"),
    ([ansible_condition("file_extension", file_extension=["PDF"])], "conditions[0].file_extension.file_extension[0]"),
    ([ansible_condition("file_extension", file_extension=["pdf\n"])], "conditions[0].file_extension.file_extension[0]"),
    ([ansible_condition("ip_range", lower_bound="192.0.2.9", upper_bound="192.0.2.1")], "conditions[0].ip_range"),
    ([ansible_condition("ip_range", lower_bound="192.0.2.1", upper_bound="2001:db8::1")], "conditions[0].ip_range"),
    ([ansible_condition("header", header="X-Ok\n", value="v")], "conditions[0].header.header"),
    ([ansible_condition("user_defined_tags", tags=["Bots\n"])], "conditions[0].user_defined_tags.tags[0]"),
])
def test_invalid_conditions_name_the_option(conditions, option):
    with pytest.raises(ValidationError) as raised:
        validate_conditions("conditions", conditions)
    assert str(raised.value).startswith(option + ":")


def test_valid_conditions_of_every_kind_pass():
    validate_conditions("conditions", [
        ansible_condition("ip", ip_address="2001:db8::1", negation=True),
        ansible_condition("url", url="^/api/v[0-9]+/", match_type="Regex"),
        ansible_condition("header", header="X-Forwarded-For", value="10.0.0.1; x=\"y\""),
        ansible_condition("request_rate", path_pattern="^/login", requests=20, time=3600, ips=["192.0.2.1"], http_methods=["POST"],
                          user_defined_tag="Login tag"),
        ansible_condition("user_defined_tags", tags=["Bots"]),
    ])
    validate_conditions("conditions", [
        ansible_condition("country", country_code=["DE", "US"]),
        ansible_condition("file_extension", file_extension=["pdf", "mp4"]),
        ansible_condition("ip_range", lower_bound="192.0.2.1", upper_bound="192.0.2.1"),
        ansible_condition("ip_range", lower_bound="2001:db8::1", upper_bound="2001:db8::ff"),
    ])


def test_range_messages_say_what_is_wrong():
    with pytest.raises(ValidationError, match="lower_bound 192.0.2.9 is above upper_bound 192.0.2.1"):
        validate_conditions("conditions", [ansible_condition("ip_range", lower_bound="192.0.2.9", upper_bound="192.0.2.1")])
    with pytest.raises(ValidationError, match="must be of one family"):
        validate_conditions("conditions", [ansible_condition("ip_range", lower_bound="::1", upper_bound="10.0.0.1")])


@pytest.mark.parametrize("action, option", [
    ({"allow": {}, "block": {"status_code": None, "action_duration": None}}, "action"),
    ({"allow": None}, "action"),
    ({"block": {"status_code": 403, "action_duration": "0"}}, "action.block.action_duration"),
    ({"block": {"status_code": 403, "action_duration": "1w"}}, "action.block.action_duration"),
    ({"block": {"status_code": 403, "action_duration": "12345678901"}}, "action.block.action_duration"),
    ({"tag": {"tags": ["a"] * 6}}, "action.tag.tags"),
])
def test_invalid_actions_name_the_option(action, option):
    with pytest.raises(ValidationError) as raised:
        validate_action("action", action)
    assert str(raised.value).startswith(option + ":")


@pytest.mark.parametrize("duration", ["30", "60s", "10m", "12h", "1d", "1234567890"])
def test_valid_durations(duration):
    validate_action("action", {"block": {"status_code": None, "action_duration": duration}})


@pytest.mark.parametrize("name, valid", [
    ("Block bad bots", True), ("a", True), ("x" * 100, True), ("Rule: \"quoted\" & 'single'; <x>? | \\", True),
    ("", False), ("x" * 101, False), ("Block*", False), ("Block/bots", False), ("Block-bots", False), ("Blöck", False),
    ("Tab\tand line\nbreak", True), ("   ", False), ("\t\n", False), ("Block\x1cbots", False), ("Block\u00a0bots", False),
])
def test_rule_names(name, valid):
    if valid:
        validate_rule_name("name", name)
    else:
        with pytest.raises(ValidationError, match="^name:"):
            validate_rule_name("name", name)
