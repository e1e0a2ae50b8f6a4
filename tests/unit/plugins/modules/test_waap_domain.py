# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""waap_domain, waap_domain_info and waap_policies against the simulator (docs/api_reference.md sections 18.1-18.3):
only what differs is sent, a second run sends nothing, check mode sends nothing, bad input is refused before any
request, policies are set (never flipped), and a plan refusal names the policy."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.modules import waap_domain, waap_domain_info, waap_policies

import harness

DOMAIN, DomainModule, Info, Policies = 1003, waap_domain.WaapDomain, waap_domain_info.WaapDomainInfo, waap_policies.WaapPolicies
TOR = {"rule_set": "Bot Protection", "name": "Traffic via TOR network", "enabled": False}


def run(server, module, args, **options):
    return harness.run(server, module, args, **options)


@pytest.fixture
def sim(server):
    server.reset()
    return server


def test_the_domain_goes_active_with_its_settings_then_a_second_run_sends_nothing(sim):
    args = {"name": "Blog.Example.com", "status": "active", "api_urls": ["api/v2/.*", "api/v1/.*"], "ddos_burst_threshold": 1500}
    check = run(sim, DomainModule, args, _ansible_check_mode=True, _ansible_diff=True)
    assert check["changed"] is True and sim.writes() == [], "check mode sends no write"
    result = run(sim, DomainModule, args, _ansible_diff=True)
    assert result["changed"] is True and result["changes"] == {"updated": ["api_urls", "ddos_burst_threshold", "status"]}
    assert result["diff"] == {"before": {"status": "monitor", "api_urls": [], "ddos_burst_threshold": 1000},
                              "after": {"status": "active", "api_urls": ["api/v1/.*", "api/v2/.*"], "ddos_burst_threshold": 1500}}
    assert harness.writes(sim) == [("PATCH", "/waap/v2/domains/1003", {"status": "active"}),
                                   ("PATCH", "/waap/v2/domains/1003/settings",
                                    {"api": {"api_urls": ["api/v2/.*", "api/v1/.*"]}, "ddos": {"burst_threshold": 1500, "global_threshold": 5000}})]
    assert result["domain"]["status"] == "active" and result["domain"]["settings"]["ddos"]["burst_threshold"] == 1500
    assert result["domain"]["quotas"]["custom-rules"]["allowed"] == 1000
    sim.log = []
    again = run(sim, DomainModule, dict(args, name="blog.example.com", api_urls=["api/v1/.*", "api/v2/.*", "api/v1/.*"]))
    assert again["changed"] is False and sim.writes() == [], "a set: order and repeats do not matter"


def test_is_api_is_sent_alone_in_api_then_a_second_run_sends_nothing(sim):
    """API discovery (docs/api_reference.md section 18.2): is_api is a member of the settings' api, sent without api_urls when only it
    differs (omitted members stay as they are); a read without it is false, the read schema's default."""
    check = run(sim, DomainModule, {"domain_id": 1002, "is_api": True}, _ansible_check_mode=True, _ansible_diff=True)
    assert check["changed"] is True and check["diff"] == {"before": {"is_api": False}, "after": {"is_api": True}} and sim.writes() == []
    result = run(sim, DomainModule, {"domain_id": 1002, "is_api": True})
    assert result["changed"] is True and result["changes"] == {"updated": ["is_api"]}
    assert harness.writes(sim) == [("PATCH", "/waap/v2/domains/1002/settings", {"api": {"is_api": True}})]
    assert result["domain"]["settings"]["api"] == {"is_api": True, "api_urls": ["api/v1/.*"]}, "api_urls kept"
    sim.log = []
    assert run(sim, DomainModule, {"domain_id": 1002, "is_api": True, "api_urls": ["api/v1/.*"]})["changed"] is False
    assert sim.writes() == []
    both = run(sim, DomainModule, {"domain_id": 1002, "is_api": False, "api_urls": ["v2/.*"]})
    assert both["changes"] == {"updated": ["api_urls", "is_api"]}
    assert harness.writes(sim) == [("PATCH", "/waap/v2/domains/1002/settings", {"api": {"api_urls": ["v2/.*"], "is_api": False}})]
    del sim.waap_settings[1003]["api"]["is_api"]
    assert run(sim, DomainModule, {"domain_id": 1003, "is_api": False})["changed"] is False, "absent reads false"


@pytest.mark.parametrize("domain_id, status", [(1007, "bypass"), (1008, "locked")])
def test_a_bypass_or_locked_domain_is_not_set_and_nothing_is_sent(sim, domain_id, status):
    result = run(sim, DomainModule, {"domain_id": domain_id, "ddos_global_threshold": 6000})
    assert result["failed"] is True and "is %s: neither its status nor its settings can be set" % status in result["msg"]
    assert sim.writes() == []
    assert run(sim, DomainModule, {"domain_id": domain_id})["changed"] is False, "nothing asked: nothing refused"


@pytest.mark.parametrize("args, message", [
    ({"domain_id": 1003, "api_urls": ["api/.*", "/"]}, "api_urls[1]: '/' must contain a letter or a digit"),
    ({"domain_id": 1003, "api_urls": ["/"]}, "to make the whole domain an API domain, set is_api: true"),
    ({"domain_id": 1003, "is_api": "sometimes"}, "is_api"),
    ({"domain_id": 1003, "ddos_burst_threshold": 0}, "ddos_burst_threshold"),
    ({"domain_id": 1003, "ddos_global_threshold": 100}, "ddos_global_threshold"),
    ({"domain_id": 0}, "domain_id"),
    ({"domain_id": 1003, "name": "blog.example.com"}, "mutually exclusive"),
    ({"domain_id": 1003, "status": "bypass"}, "status"),
])
def test_bad_input_is_refused_before_any_request(args, message):
    assert message in harness.fail_message(DomainModule, args)


def test_a_domain_that_does_not_exist_is_never_created(sim):
    for args in ({"domain_id": 4242, "status": "active"}, {"name": "nowhere.example.com", "status": "active"}):
        result = run(sim, DomainModule, args)
        assert result["failed"] is True and "cannot be created here" in result["msg"]
    assert sim.writes() == []


def test_domain_info_reads_one_lists_by_status_and_finds_an_exact_name(sim):
    assert [d["id"] for d in run(sim, Info, {"domain_id": 1003})["domains"]] == [1003]
    assert run(sim, Info, {"domain_id": 4242})["domains"] == []
    assert [d["id"] for d in run(sim, Info, {"status": "monitor"})["domains"]] == [1003, 1004, 1006]
    assert [d["id"] for d in run(sim, Info, {"name": "SHOP.example.com"})["domains"]] == [1001]
    assert [request["query"] for request in sim.requests("GET", r"^/waap/v2/domains$")][-2] == "status=monitor&limit=100&offset=0"


def test_policies_are_set_by_name_or_id_with_one_read_and_one_write_each_and_converge(sim):
    args = {"domain_id": DOMAIN, "policies": [TOR, {"id": "S55075100", "enabled": True}, {"id": "S55075104", "enabled": False}]}
    result = run(sim, Policies, {"domain_id": DOMAIN, "policies": [dict(TOR, enabled=True)]}, _ansible_diff=True)
    assert result["changed"] is False and sim.writes() == [], "the policy is on already"
    sim.log = []
    result = run(sim, Policies, {"domain": "blog.example.com", "policies": [TOR]}, _ansible_diff=True)
    assert result["changes"] == {"enabled": [], "disabled": ["Bot Protection / Traffic via TOR network"]}
    assert result["diff"] == {"before": {"Bot Protection / Traffic via TOR network": True}, "after": {"Bot Protection / Traffic via TOR network": False}}
    assert harness.writes(sim) == [("PATCH", "/waap/v2/domains/1003/policies/S55075104", {"mode": False})], "set, never toggled"
    assert len(sim.requests("GET")) == 2, "the domain listing by name, one read of every policy; the answer of the write is the result"
    sim.log = []
    again = run(sim, Policies, args)
    assert again["changed"] is False and sim.writes() == [], "the id and the name of one policy agree, nothing to send"


def test_gathered_round_trips_and_feeding_it_back_changes_nothing(sim):
    gathered = run(sim, Policies, {"domain_id": DOMAIN, "state": "gathered"})
    assert len(gathered["gathered"]) == 100 and "changes" not in gathered
    assert gathered["gathered"][0] == {"rule_set": "OWASP Top Threats", "name": "SQL injection", "id": "S55075100", "enabled": True}
    again = run(sim, Policies, {"domain_id": DOMAIN, "policies": gathered["gathered"]})
    assert again["changed"] is False and sim.writes() == []


def test_a_policy_the_plan_lacks_fails_with_the_detail_naming_it_and_changes_lists_what_went_before(sim):
    args = {"domain_id": DOMAIN, "policies": [TOR, {"rule_set": "API protection", "name": "Schema violations", "enabled": True}]}
    result = run(sim, Policies, args)
    assert result["failed"] is True and result["changed"] is True
    assert "API protection / Schema violations: " in result["msg"] and "not available under your current plan" in result["msg"]
    assert result["changes"] == {"enabled": [], "disabled": ["Bot Protection / Traffic via TOR network"]}


@pytest.mark.parametrize("policies, message", [
    ([{"rule_set": "Bot Protection", "name": "Traffic via TOR", "enabled": True}],
     "policies[0]: no policy 'Bot Protection / Traffic via TOR' on domain 1003; the closest: 'Bot Protection / Traffic via TOR network'"),
    ([{"id": "S55075299", "enabled": True}], "policies[0].id: no policy 'S55075299'"),
    ([TOR, {"id": "S55075104", "enabled": True}], "policies[0] and policies[1] both name the policy 'Bot Protection / Traffic via TOR network'"),
    ([{"id": "S55075104", "rule_set": "Bot Protection", "name": "Scrapers", "enabled": True}], "policies[0]: id S55075104 is"),
])
def test_a_policy_not_on_the_domain_or_named_twice_fails_before_any_write(sim, policies, message):
    result = run(sim, Policies, {"domain_id": DOMAIN, "policies": policies})
    assert result["failed"] is True and message in result["msg"], result["msg"]
    assert sim.writes() == []


@pytest.mark.parametrize("args, message", [
    ({"domain_id": 1003, "policies": [{"name": "Scrapers", "enabled": True}]}, "policies[0].rule_set: is required with name"),
    ({"domain_id": 1003, "policies": [{"enabled": True}]}, "policies[0]: give the policy's id"),
    ({"domain_id": 1003, "state": "gathered", "policies": []}, "policies: is not used with state=gathered"),
    ({"domain_id": 1003}, "policies"),
])
def test_policies_bad_input_is_refused_before_any_request(args, message):
    assert message in harness.fail_message(Policies, args)
