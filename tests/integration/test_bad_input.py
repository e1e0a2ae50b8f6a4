# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Bad input across every module: each case fails, its message names the option, and nothing is sent.

One table, played in one ansible-playbook run (a task per case) against the simulator; the simulator's
request log must stay empty. The per-module *_invalid targets hold many more cases of each module.
"""

from __future__ import annotations

import json

RULE = {"domain_id": 1001, "name": "ok rule", "action": {"block": {}}, "conditions": [{"ip": {"ip_address": "192.0.2.1"}}]}
EXTERNAL = [{"type": "external"}]
UUID = "3f0e1b5a-6c2d-4e8f-9a1b-2c3d4e5f6a7b"
BM = {"resource": "baremetal", "flavor": "bm1-basic-medium", "names": ["a"], "interfaces": EXTERNAL}
PRICE = {"flavor": "g1-standard-2-4", "names": ["a"], "interfaces": EXTERNAL}


def rule(**changes):
    return dict(RULE, **changes)


def item(**changes):
    """One item of the set modules' config."""
    return dict({key: value for key, value in RULE.items() if key != "domain_id"}, **changes)


# (module, arguments, text the message must contain: the option's name)
CASES = [
    # REQUIREMENTS.md "Limits"
    ("firewall_rules_info", {"page_size": 0}, "page_size"),
    ("firewall_rules_info", {"page_size": 101}, "page_size"),
    ("firewall_rules_info", {"max_results": 0}, "max_results"),
    ("waap_custom_rule", rule(name=""), "name"),
    ("waap_custom_rule", rule(name="x" * 101), "name"),
    ("waap_custom_rule", rule(name="semi-colon-and-dash-"), "name"),
    ("waap_custom_rule", rule(description="d" * 101), "description"),
    ("waap_custom_rule", rule(conditions=[]), "conditions"),
    ("waap_custom_rule", rule(conditions=[{"ip": {"ip_address": "192.0.2.%s" % n}} for n in range(6)]), "conditions"),
    ("router", {"name": "ab"}, "name"),
    ("router", {"name": "r" * 64}, "name"),
    ("router", {"name": "-starts-with-dash"}, "name"),
    ("router", {"name": "ends-with-dash-"}, "name"),
    ("notification_threshold", {"client_id": 1, "threshold": 59}, "threshold"),
    ("notification_threshold", {"client_id": 1, "threshold": 101}, "threshold"),
    # patterns and enums of the contract
    ("router", {"name": "r-1", "routes": [{"destination": "10.0.0.1/24", "nexthop": "10.0.0.254"}]}, "destination"),
    ("router", {"name": "r-1", "routes": [{"destination": "10.0.0.0/33", "nexthop": "10.0.0.254"}]}, "destination"),
    ("router", {"name": "r-1", "routes": [{"destination": "10.0.0.0/24", "nexthop": "10.0.0.999"}]}, "nexthop"),
    ("router", {"name": "r-1", "external_gateway_info": {"network_id": "not-a-uuid"}}, "network_id"),
    ("router", {"name": "r-1", "external_gateway_info": {"type": "manual"}}, "network_id"),
    ("router", {"id": "not-a-uuid"}, "id"),
    ("router", {"name": "r-1", "state": "gone"}, "state"),
    ("waap_custom_rule", rule(action={"block": {"status_code": 404}}), "status_code"),
    ("waap_custom_rule", rule(action={"block": {"action_duration": "0s"}}), "action_duration"),
    ("waap_custom_rule", rule(action={"allow": {}, "block": {}}), "action"),
    ("waap_custom_rule", rule(action={"tag": {"tags": []}}), "tags"),
    ("waap_custom_rule", rule(conditions=[{"ip": {"ip_address": "192.0.2.1"}, "url": {"url": "/a"}}]), "conditions"),
    ("waap_custom_rule", rule(conditions=[{"request_rate": {"path_pattern": "/", "requests": 20, "time": 1, "negation": True}}]),
     "negation"),
    ("waap_custom_rule", rule(conditions=[{"http_method": {"http_method": "FETCH"}}]), "http_method"),
    ("firewall_rules_info", {"action": "captcha"}, "action"),
    ("firewall_rules_info", {"ordering": "size"}, "ordering"),
    ("quota_check", {"resource": "vm"}, "resource"),
    ("quota_check", dict(BM, interfaces=[{"type": "subnet", "network_id": UUID, "subnet_id": UUID, "ip_family": "ipv4"}]), "ip_family"),
    ("quota_check", dict(BM, interfaces=[{"type": "external", "subnet_id": UUID}]), "subnet_id"),
    ("quota_check", dict(BM, interfaces=[{"type": "subnet", "network_id": UUID}]), "subnet_id"),
    ("quota_check", dict(BM, interfaces=[{"type": "external", "interface_name": "i" * 38}]), "interface_name"),
    ("quota_check", {"resource": "loadbalancer", "logging": {"enabled": True, "retention_policy": {"period": 1826}}}, "period"),
    ("quota_check", {"resource": "loadbalancer", "logging": {"enabled": True, "topic_name": "Bad_Topic"}}, "topic_name"),
    ("quota_check", {"resource": "loadbalancer", "vip_network_id": UUID, "vip_port_id": UUID}, "vip_network_id"),
    ("quota_check", {"resource": "loadbalancer", "floating_ip": {"source": "existing"}}, "existing_floating_id"),
    ("price_preview", dict(PRICE, volumes=[{"source": "snapshot", "size": 10}]), "snapshot_id"),
    ("price_preview", dict(PRICE, volumes=[{"source": "image", "type_name": "gold"}]), "type_name"),
    ("price_preview", dict(PRICE, volumes=[{"source": "floppy"}]), "source"),
    ("price_preview", {"flavor": "g1-standard-2-4", "interfaces": EXTERNAL}, "names"),
    ("storage", {"storage_id": 1, "type": "nfs"}, "type"),
    ("storage", {"storage_id": 1, "state": "present"}, "state"),
    # wrong types
    ("notification_threshold_info", {"client_id": "abc"}, "client_id"),
    ("notification_threshold", {"client_id": 1, "threshold": "high"}, "threshold"),
    ("firewall_rules_info", {"domain_ids": ["one"]}, "domain_ids"),
    ("firewall_rules_info", {"enabled": "maybe"}, "enabled"),
    ("storage", {"storage_id": "twelve"}, "storage_id"),
    ("storage", {"storage_id": 0}, "storage_id"),
    ("router", {"name": "r-1", "wait_timeout": "soon"}, "wait_timeout"),
    ("router", {"name": "r-1", "routes": "10.0.0.0/24"}, "routes"),
    ("waap_custom_rule", rule(domain_id=0), "domain_id"),
    # unknown options, options of the wrong variant, common options
    ("notification_threshold_info", {"client_id": 1, "region": 76}, "region"),
    ("router", {"name": "r-1", "interface": []}, "interface"),
    # issue 14: router interfaces, gateway removal, router_info
    ("router", {"name": "r-1", "interfaces": [{"subnet_id": UUID}, {"subnet_id": UUID}]}, "interfaces"),
    ("router", {"name": "r-1", "interfaces": [{"subnet_id": "subnet-1"}]}, "interfaces[0].subnet_id"),
    ("router", {"name": "r-1", "interfaces": [{"subnet_id": UUID, "ip_address": "10.0.0.1\n"}]}, "interfaces[0].ip_address"),
    ("router", {"name": "r-1", "external_gateway_info": {"type": "none", "network_id": UUID}}, "external_gateway_info.network_id"),
    ("router_info", {"id": "router-1"}, "id"),
    ("router_info", {"name": "r\u0001x"}, "name"),
    ("router_info", {"id": UUID, "name": "r-1"}, "id|name"),
    ("quota_check", dict(BM, vip_port_id=UUID), "vip_port_id"),
    ("quota_check", {"resource": "loadbalancer", "names": ["a"]}, "names"),
    ("waap_custom_rule_info", {"domain_id": 1001, "page": 2}, "page"),
    ("notification_threshold_info", {"client_id": 1, "api_timeout": 0}, "api_timeout"),
    ("notification_threshold_info", {"client_id": 1, "api_retries": -1}, "api_retries"),
    # issue 11: the common options as CONTRACT section 1 states them
    ("notification_threshold_info", {"client_id": 1, "api_url": "{{ sim_url }}/cloud"}, "api_url"),  # was: null, "absent"
    ("storage", {"storage_id": 1, "api_url": "{{ sim_url }}/cloud"}, "api_url"),  # was: ok, nothing deleted
    ("notification_threshold_info", {"client_id": 1, "api_url": "{{ sim_url }}/?region=76"}, "api_url"),
    ("notification_threshold_info", {"client_id": 1, "api_url": "{{ sim_url | replace('http://', '') }}"}, "api_url"),
    ("notification_threshold_info", {"client_id": 1, "api_url": ""}, "api_url"),  # was: production
    ("notification_threshold_info", {"client_id": 1, "api_url": "ftp://127.0.0.1"}, "api_url"),
    ("notification_threshold_info", {"client_id": 1, "api_key": "abc\ndef"}, "api_key"),
    ("notification_threshold_info", {"client_id": 1, "api_key": "abc\u2013def"}, "api_key"),  # was: a codec error
    ("notification_threshold_info", {"client_id": 1, "api_timeout": 3601}, "api_timeout"),
    ("notification_threshold_info", {"client_id": 1, "api_retries": 11}, "api_retries"),
    ("price_preview", dict(PRICE, project_id=0), "project_id"),
    ("price_preview", dict(PRICE, region_id=-1), "region_id"),
    ("quota_check", dict(BM, region_id=0), "region_id"),
    # issue 11: numbers that are not numbers
    ("price_preview", dict(PRICE, max_price_per_month="nan"), "max_price_per_month"),  # was: sent, then a crash
    ("price_preview", dict(PRICE, max_price_per_month="inf"), "max_price_per_month"),  # was: no budget at all
    ("price_preview", dict(PRICE, max_price_per_month="-inf"), "max_price_per_month"),
    ("notification_threshold", {"client_id": 1, "threshold": True}, "threshold"),  # was: "True is out of range"
    ("waap_custom_rule", rule(conditions=[{"session_request_count": {"request_count": True}}]), "request_count"),
    # issue 11: WAAP patterns and ranges
    ("waap_custom_rule", rule(conditions=[{"country": {"country_code": ["de"]}}]), "country_code"),
    ("waap_custom_rule", rule(conditions=[{"file_extension": {"file_extension": ["PDF"]}}]), "file_extension"),
    ("waap_custom_rule", rule(conditions=[{"ip_range": {"lower_bound": "192.0.2.9", "upper_bound": "192.0.2.1"}}]), "ip_range"),
    ("waap_custom_rule", rule(conditions=[{"ip_range": {"lower_bound": "192.0.2.1", "upper_bound": "2001:db8::1"}}]), "ip_range"),
    ("waap_custom_rule", rule(name="   "), "name"),
    ("waap_custom_rule", rule(name="ok\x1crule"), "name"),
    # issue 13: the set modules name the item
    ("waap_custom_rules", {"domain_id": 1001, "config": [item(), item(name="ok\x1crule")]}, "config[1].name"),
    ("waap_custom_rules", {"domain_id": 1001, "config": [item(conditions=[{"session_request_count": {"request_count": True}}])]},
     "config[0].conditions[0].session_request_count.request_count"),
    ("waap_custom_rules", {"domain_id": 1001, "config": [item(conditions=[{"request_rate": {"path_pattern": "/", "requests": "nan", "time": 1}}])]},
     "requests"),
    ("waap_custom_rules", {"domain_id": 1001, "config": [item(), item()]}, "config: each custom rule must have its own name"),
    ("waap_firewall_rules", {"domain_id": 1001, "config": [item(conditions=[{"ip": {"ip_address": "192.0.2.1"}}] * 2)]},
     "config[0].conditions"),
    ("waap_firewall_rules", {"domain_id": 1001, "config": [item(conditions=[{"ip": {"ip_address": "192.0.2.256"}}])]},
     "config[0].conditions[0].ip.ip_address"),
    ("waap_firewall_rules", {"domain_id": "nan", "state": "gathered"}, "domain_id"),
]


def test_the_table_is_large_and_covers_every_module():
    assert len(CASES) >= 40
    modules = {case[0] for case in CASES}
    assert modules == {"firewall_rules_info", "waap_custom_rule", "waap_custom_rule_info", "router", "router_info", "quota_check",
                       "price_preview", "notification_threshold", "notification_threshold_info", "storage",
                       "waap_custom_rules", "waap_firewall_rules"}


def test_every_bad_input_fails_naming_the_option_and_sends_nothing(playbook, sim, tmp_path):
    tasks = []
    for number, (module, args, _option) in enumerate(CASES):
        tasks.append({"name": "case %s: %s" % (number, module), "gcore.platform.%s" % module: args,
                      "register": "case_%s" % number, "ignore_errors": True})
    tasks.append({"name": "Report", "ansible.builtin.debug": {
        "msg": "RESULTS=" + "{{ [%s] | to_json }}" % ", ".join(
            "{'failed': case_%s.failed | default(false), 'msg': case_%s.msg | default('')}" % (n, n) for n in range(len(CASES)))}})
    play = tmp_path / "bad_input.yml"
    play.write_text(json.dumps([{"name": "Bad input", "hosts": "localhost", "gather_facts": False, "tasks": tasks}]))
    run = playbook(str(play))
    assert run.rc == 0, run
    line = [text for text in run.output.splitlines() if '"msg": "RESULTS=' in text][0]
    results = json.loads(json.loads("{%s}" % line.strip())["msg"][len("RESULTS="):])
    problems = []
    for (module, args, option), result in zip(CASES, results):
        if not result["failed"]:
            problems.append("%s %s: did not fail" % (module, args))
        elif option not in result["msg"]:
            problems.append("%s %s: message does not name %s: %s" % (module, args, option, result["msg"]))
    assert not problems, "\n".join(problems)
    assert sim.log == [], "bad input must send nothing, but the simulator received %s" % sim.log[:3]


def _key_play(tmp_path):
    play = tmp_path / "key.yml"
    play.write_text(json.dumps([{"name": "Key", "hosts": "localhost", "gather_facts": False, "tasks": [
        {"name": "Read", "register": "result", "ignore_errors": True, "gcore.platform.notification_threshold_info": {"client_id": 1}},
        {"name": "Show", "ansible.builtin.debug": {"msg": "RESULT={{ result | to_json }}"}}]}]))
    return play


def _result(run):
    line = [text for text in run.output.splitlines() if '"msg": "RESULT=' in text][0]
    return json.loads(json.loads("{%s}" % line.strip())["msg"][len("RESULT="):])


def test_a_key_read_from_a_file_with_its_newline_works_and_shows_nowhere(playbook, sim, tmp_path):
    # before issue 11 the HTTP library refused the header and msg quoted it: 'apikey <key>\\n'
    run = playbook(str(_key_play(tmp_path)), env={"GCORE_API_KEY": sim.api_key + "\n"})  # the fixture searches -vvvv for the key
    assert run.rc == 0, run
    result = _result(run)
    assert not result.get("failed"), result
    assert result["notification_threshold"] is not None


def test_a_key_with_a_newline_inside_is_refused_showing_none_of_it(playbook, sim, tmp_path):
    half = len(sim.api_key) // 2
    run = playbook(str(_key_play(tmp_path)), env={"GCORE_API_KEY": sim.api_key[:half] + "\n" + sim.api_key[half:]})
    assert run.rc == 0, run
    result = _result(run)
    assert result["failed"] is True and result["msg"].startswith("Invalid input: api_key: "), result
    for part in (sim.api_key[:half], sim.api_key[half:]):
        assert part not in run.output
    assert sim.log == []
