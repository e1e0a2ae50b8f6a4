# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""waap_advanced_rules against the simulator (docs/api_reference.md section 18.5): every expression checked against the
descriptor before any write, whitespace-normalised comparison, the toggle for an enabled-only change, one DELETE per
rule, and the round trip."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._cel import check_source, normalised_source
from ansible_collections.gcore.platform.plugins.modules import waap_advanced_rules

import harness

Module = waap_advanced_rules.WaapAdvancedRules
DOMAIN = 1006
RATE = {"name": "Rate limit events", "action": {"block": {"status_code": 429}},
        "source": "request.rate_limit([], '.*events', 5, 200, [], [], '', 'ip')"}
LEGACY = {"name": "Block legacy", "action": {"block": {}}, "source": "request.headers['user-agent'] == 'legacy/1.0'", "phase": "access"}


def run(server, args, **options):
    return harness.run(server, Module, args, **options)


@pytest.fixture
def sim(server):
    server.reset()
    return server


def test_created_then_a_reformatted_source_is_no_change_and_nothing_is_sent(sim):
    result = run(sim, {"domain_id": DOMAIN, "config": [RATE, LEGACY]})
    assert result["changes"]["created"] == ["Block legacy", "Rate limit events"]
    assert [entry["path"] for entry in sim.requests()][:2] == ["/waap/v1/advanced-rules/descriptor", "/waap/v1/domains/1006/advanced-rules"]
    sim.log = []
    reformatted = dict(RATE, source="request.rate_limit( [],\n  '.*events', 5, 200, [], [], '', 'ip' )")
    again = run(sim, {"domain_id": DOMAIN, "config": [reformatted, LEGACY]})
    assert again["changed"] is False and sim.writes() == []
    assert len(sim.requests("GET")) == 2, "one descriptor read and one listing"


def test_an_enabled_only_change_uses_the_toggle_and_other_changes_the_v2_patch(sim):
    run(sim, {"domain_id": DOMAIN, "config": [RATE, LEGACY]})
    sim.log = []
    result = run(sim, {"domain_id": DOMAIN, "config": [dict(RATE, enabled=False), dict(LEGACY, phase="header_filter")]})
    assert result["changes"]["updated"] == ["Block legacy", "Rate limit events"]
    writes = harness.writes(sim)
    assert [(method, path.rsplit("/", 2)[-2:] if path.endswith("able") else path.rsplit("/", 1)[0], body) for method, path, body in writes] == [
        ("PATCH", ["%s" % sim.advanced_rules[DOMAIN][0]["id"], "disable"], None),
        ("PATCH", "/waap/v2/domains/1006/advanced-rules", {"phase": "header_filter"})]


def test_overridden_deletes_one_rule_at_a_time_and_gathered_round_trips(sim):
    run(sim, {"domain_id": DOMAIN, "config": [RATE, LEGACY]})
    sim.log = []
    result = run(sim, {"domain_id": DOMAIN, "state": "overridden", "config": [RATE]})
    assert result["changes"]["deleted"] == ["Block legacy"]
    assert [(method, "advanced-rules/" in path) for method, path, _body in harness.writes(sim)] == [("DELETE", True)]
    gathered = run(sim, {"domain_id": DOMAIN, "state": "gathered"})["gathered"]
    assert gathered == [{"name": "Rate limit events", "enabled": True, "action": {"block": {"status_code": 429}},
                         "source": RATE["source"], "phase": "access"}]
    sim.log = []
    assert run(sim, {"domain_id": DOMAIN, "state": "overridden", "config": gathered})["changed"] is False and sim.writes() == []


@pytest.mark.parametrize("source, message", [
    ("request.hedaers['a'] == 'b'", "config[1].source: position 0: request has no attribute 'hedaers'"),
    ("reqest.headers['a'] == 'b'", "config[1].source: position 0: 'reqest' is not an object of the descriptor"),
    ("request.rate_limit([], '.*', 5)", "config[1].source: position 0: request.rate_limit takes 8 arguments"),
])
def test_a_source_the_descriptor_refuses_fails_before_any_write_naming_the_item_and_position(sim, source, message):
    result = run(sim, {"domain_id": DOMAIN, "config": [RATE, dict(LEGACY, source=source)]})
    assert result["failed"] is True and message in result["msg"], result["msg"]
    assert sim.writes() == [] and [entry["path"] for entry in sim.requests()] == ["/waap/v1/advanced-rules/descriptor"]


@pytest.mark.parametrize("source, message", [
    ('request.headers["a"] == \'b\'', "config[0].source: position 16: a double-quoted string"),
    ("(request.headers['a'] == 'b'", "config[0].source: position 0: '(' is never closed"),
    ("request.headers['a'] == 'b", "config[0].source: the string opened at position 24 is not closed"),
    ("   ", "config[0].source: must hold an expression"),
])
def test_a_malformed_source_fails_before_any_request(source, message):
    assert message in harness.fail_message(Module, {"domain_id": DOMAIN, "config": [dict(RATE, source=source)]})


def test_the_checks_leave_strings_and_method_calls_alone():
    descriptor = {"request": {"headers": {"name": "headers"}, "path": {"name": "path"}}}
    check_source("request.path.startsWith('/x.y(') and request.headers['a.b'] == 'c'", descriptor)
    with pytest.raises(ValidationError):
        check_source("request.body == 'x'", descriptor)
    assert normalised_source("a  ==  'x  y'\n and b") == normalised_source("a == 'x  y' and b")
    assert normalised_source("a == 'x  y'") != normalised_source("a == 'x y'")


def test_the_domain_by_its_name_is_resolved_before_the_descriptor_and_the_listing(sim):
    result = run(sim, {"domain": "rules.example.com", "config": [RATE]})
    assert result["changes"]["created"] == ["Rate limit events"]
    assert [entry["path"] for entry in sim.requests("GET")][:3] == [
        "/waap/v2/domains", "/waap/v1/advanced-rules/descriptor", "/waap/v1/domains/1006/advanced-rules"]
    sim.log = []
    gathered = run(sim, {"domain": "Rules.Example.com", "state": "gathered"})
    assert [item["name"] for item in gathered["gathered"]] == ["Rate limit events"] and sim.writes() == []
