# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""security_group and security_group_info, in process against the simulator over HTTP: every rule checked before any
request, the first run ends with exactly ``rules`` (the default egress rules removed by one PATCH) and the second sends
nothing, one PATCH carrying the whole rule list, ``purge_rules``, ``changes``, the diff keyed by rule identity."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.module_utils import _cloud
from ansible_collections.gcore.platform.plugins.modules import security_group, security_group_info
from simulator.resources.security_groups import LEGACY_ID, SHARED_IDS

import harness
from harness import writes

V1 = "/cloud/v1/securitygroups/1/76"
V2 = "/cloud/v2/security_groups/1/76"
SCOPE = dict(project_id=1, region_id=76)
SSH = dict(direction="ingress", protocol="tcp", port_range_min=22, remote_ip_prefix="10.0.0.0/8")
HTTPS = dict(direction="ingress", protocol="tcp", port_range_min=443, port_range_max=443, remote_ip_prefix="0.0.0.0/0",
             description="https")
LEGACY_SSH = dict(direction="ingress", protocol="tcp", port_range_min=22, port_range_max=22, remote_ip_prefix="0.0.0.0/0")
EGRESS = [dict(direction="egress", ethertype="IPv4", protocol="any"), dict(direction="egress", ethertype="IPv6", protocol="any")]


def run(server, module=security_group, **args):
    return harness.run(server, module, dict(SCOPE, **args), _ansible_diff=True)


def group(server, group_id):
    return server.security_groups[group_id]


def shapes(record):
    """The group's rules as comparable tuples."""
    return sorted((rule["direction"], rule["ethertype"], rule["protocol"], rule["port_range_min"], rule["port_range_max"],
                   rule["remote_ip_prefix"], rule["remote_group_id"], rule["description"]) for rule in record["security_group_rules"])


# ---- create -------------------------------------------------------------------------------------

def test_the_first_run_ends_with_exactly_rules_and_the_second_sends_no_write(server):
    result = run(server, name="web", description="front", rules=[SSH, HTTPS], tags={"env": "prod"})
    assert result["changed"] is True and not result.get("warnings")
    sent = writes(server)
    assert [(method, path) for method, path, _body in sent] == [("POST", V2), ("PATCH", V2 + "/" + result["security_group"]["id"])]
    assert sent[0][2] == {"name": "web", "description": "front", "tags": {"env": "prod"}, "rules": [
        {"direction": "ingress", "ethertype": "IPv4", "protocol": "tcp", "port_range_min": 22, "port_range_max": 22,
         "remote_ip_prefix": "10.0.0.0/8"},
        {"direction": "ingress", "ethertype": "IPv4", "protocol": "tcp", "port_range_min": 443, "port_range_max": 443,
         "remote_ip_prefix": "0.0.0.0/0", "description": "https"}]}
    assert sent[1][2] == {"rules": sent[0][2]["rules"]}, "one PATCH: the declared rules, the default egress ones left out"
    assert shapes(result["security_group"]) == [
        ("ingress", "IPv4", "tcp", 22, 22, "10.0.0.0/8", None, None), ("ingress", "IPv4", "tcp", 443, 443, "0.0.0.0/0", None, "https")]
    assert len(result["tasks"]) == 2
    assert [rule["port_range_min"] for rule in result["changes"]["created"]] == [22, 443]
    assert [(rule["direction"], rule["ethertype"]) for rule in result["changes"]["deleted"]] == [("egress", "IPv4"), ("egress", "IPv6")]
    assert result["diff"]["before"] == {"state": "absent"}
    assert sorted(result["diff"]["after"]["rules"]) == ["ingress IPv4 tcp 22-22 10.0.0.0/8", "ingress IPv4 tcp 443-443 0.0.0.0/0"]
    server.log = []
    again = run(server, name="web", description="front", rules=[SSH, HTTPS], tags={"env": "prod"})
    assert again["changed"] is False and writes(server) == []
    assert again["changes"] == {"created": [], "deleted": []}
    assert again["diff"]["before"] == again["diff"]["after"]
    assert [entry["method"] for entry in server.requests()] == ["GET"], "one read, no write"


def test_a_create_with_an_egress_rule_sends_only_the_create(server):
    result = run(server, name="out", rules=[dict(direction="egress", protocol="tcp", port_range_min=443)])
    assert [method for method, _path, _body in writes(server)] == ["POST"]
    assert shapes(result["security_group"]) == [("egress", "IPv4", "tcp", 443, 443, None, None, None)]
    assert result["changes"]["deleted"] == []


def test_rules_left_out_keep_the_default_egress_rules_and_an_empty_list_creates_none(server):
    kept = run(server, name="plain")
    assert [method for method, _path, _body in writes(server)] == ["POST"] and "rules" not in writes(server)[0][2]
    assert len(kept["security_group"]["security_group_rules"]) == 2
    server.log = []
    empty = run(server, name="empty", rules=[])
    assert [(method, body) for method, _path, body in writes(server)] == [("POST", {"name": "empty", "rules": []})]
    assert empty["security_group"]["security_group_rules"] == []


def test_purge_rules_false_at_create_keeps_the_default_egress_rules(server):
    result = run(server, name="web", rules=[SSH], purge_rules=False)
    assert [method for method, _path, _body in writes(server)] == ["POST"]
    assert len(result["security_group"]["security_group_rules"]) == 3


def test_check_mode_sends_no_write_and_tells_what_would_happen(server):
    result = run(server, name="web", rules=[SSH], _ansible_check_mode=True)
    assert result["changed"] is True and writes(server) == [] and result["security_group"] is None
    assert [rule["port_range_min"] for rule in result["changes"]["created"]] == [22] and result["changes"]["deleted"] == []
    assert list(result["diff"]["after"]["rules"]) == ["ingress IPv4 tcp 22-22 10.0.0.0/8"]
    server.log = []
    update = run(server, name="legacy-sg", rules=[LEGACY_SSH, HTTPS], _ansible_check_mode=True)
    assert update["changed"] is True and writes(server) == []
    assert [rule["port_range_min"] for rule in update["changes"]["created"]] == [443]
    assert sorted((rule["direction"], rule["ethertype"]) for rule in update["changes"]["deleted"]) == [
        ("egress", "IPv4"), ("egress", "IPv6")], "the SSH rule listed without a description keeps the group's"
    assert update["security_group"]["id"] == LEGACY_ID


def test_wait_false_cannot_remove_the_default_egress_rules_so_it_fails_before_any_write(server):
    result = run(server, name="web", rules=[SSH], wait=False)
    assert result["failed"] is True and "wait=false" in result["msg"] and "egress" in result["msg"]
    assert writes(server) == []
    started = run(server, name="web", rules=[SSH, dict(direction="egress")], wait=False)
    assert started["changed"] is True and len(started["tasks"]) == 1 and started["security_group"] is None


# ---- update -------------------------------------------------------------------------------------

def test_rule_changes_and_members_go_in_one_patch_carrying_the_whole_list(server):
    ssh = dict(LEGACY_SSH, description="ssh")
    result = run(server, name="legacy-sg", description="edge", tags={"team": "a"},
                 rules=[ssh, HTTPS] + EGRESS)
    sent = writes(server)
    assert len(sent) == 1 and sent[0][:2] == ("PATCH", V2 + "/" + LEGACY_ID)
    body = sent[0][2]
    assert body["description"] == "edge" and body["tags"] == {"team": "a"}
    assert len(body["rules"]) == 4, "every rule the group keeps is repeated"
    assert {"direction": "egress", "ethertype": "IPv6", "protocol": None} in body["rules"], "any is sent as null"
    assert [rule["port_range_min"] for rule in result["changes"]["created"]] == [443]
    assert result["changes"]["deleted"] == []
    assert result["diff"]["before"]["rules"] == {}
    assert list(result["diff"]["after"]["rules"]) == ["ingress IPv4 tcp 443-443 0.0.0.0/0"]
    assert {"key": "billing", "value": "seeded", "read_only": True} in result["security_group"]["tags_v2"]
    server.log = []
    assert run(server, name="legacy-sg", description="edge", tags={"team": "a"}, rules=[ssh, HTTPS] + EGRESS)["changed"] is False
    assert writes(server) == []


def test_purge_rules_removes_what_is_not_listed_and_the_diff_names_it(server):
    result = run(server, name="legacy-sg", rules=[LEGACY_SSH])
    body = writes(server)[0][2]
    assert body == {"rules": [{"direction": "ingress", "ethertype": "IPv4", "protocol": "tcp", "port_range_min": 22,
                               "port_range_max": 22, "remote_ip_prefix": "0.0.0.0/0", "description": "ssh"}]}, \
        "a rule listed without a description keeps the group's"
    assert sorted(result["diff"]["before"]["rules"]) == ["egress IPv4 any", "egress IPv6 any"]
    assert result["diff"]["after"]["rules"] == {}
    assert len(result["changes"]["deleted"]) == 2 and result["changes"]["created"] == []
    assert shapes(group(server, LEGACY_ID)) == [("ingress", "IPv4", "tcp", 22, 22, "0.0.0.0/0", None, "ssh")]


def test_purge_rules_false_adds_the_missing_rule_and_sends_the_others_again(server):
    result = run(server, name="legacy-sg", rules=[HTTPS, dict(LEGACY_SSH)], purge_rules=False)
    assert len(writes(server)) == 1
    assert len(writes(server)[0][2]["rules"]) == 4
    assert len(result["security_group"]["security_group_rules"]) == 4
    assert [rule["port_range_min"] for rule in result["changes"]["created"]] == [443] and result["changes"]["deleted"] == []
    server.log = []
    assert run(server, name="legacy-sg", rules=[HTTPS], purge_rules=False)["changed"] is False and writes(server) == []


def test_a_description_change_is_a_change_of_that_rule_in_both_lists(server):
    result = run(server, name="legacy-sg", rules=[dict(LEGACY_SSH, description="ssh from anywhere")], purge_rules=False)
    key = "ingress IPv4 tcp 22-22 0.0.0.0/0"
    assert result["diff"]["before"]["rules"][key]["description"] == "ssh"
    assert result["diff"]["after"]["rules"][key]["description"] == "ssh from anywhere"
    assert [rule["description"] for rule in result["changes"]["created"]] == ["ssh from anywhere"]
    assert [rule["description"] for rule in result["changes"]["deleted"]] == ["ssh"]
    server.log = []
    same = run(server, name="legacy-sg", rules=[dict(LEGACY_SSH, description="")], purge_rules=False)
    assert same["changed"] is False and writes(server) == [], '"" is null: not compared'


@pytest.mark.parametrize("spelling", [
    dict(protocol="tcp", port_range_max=22, remote_ip_prefix="0.0.0.0/0"),  # one port alone means both
    dict(protocol="tcp", port_range_min=22, port_range_max=22, remote_ip_prefix="0.0.0.0/0", description=""),
], ids=["one-port", "empty-description-not-compared"])
def test_equal_spellings_of_a_rule_are_the_same_rule(server, spelling):
    rules = [dict(spelling, direction="ingress", ethertype="IPv4"), dict(direction="egress"),
             dict(direction="egress", ethertype="IPv6", protocol="any")]
    result = run(server, name="legacy-sg", rules=rules)
    assert result["changed"] is False and writes(server) == []


def test_canonical_prefixes_and_group_ids(server):
    made = run(server, name="v6-web", rules=[
        dict(direction="ingress", ethertype="IPv6", protocol="tcp", port_range_min=80, remote_ip_prefix="2001:DB8:0:0::/64"),
        dict(direction="ingress", remote_group_id=LEGACY_ID.upper())])
    assert made.get("changed") is True, made.get("msg")
    rules = dict((rule["remote_ip_prefix"] or rule["remote_group_id"], rule) for rule in made["security_group"]["security_group_rules"])
    assert set(rules) == {"2001:db8::/64", LEGACY_ID}
    server.log = []
    again = run(server, name="v6-web", rules=[
        dict(direction="ingress", ethertype="IPv6", protocol="tcp", port_range_min=80, remote_ip_prefix="2001:db8::/64"),
        dict(direction="ingress", protocol="any", remote_group_id=LEGACY_ID)])
    assert again["changed"] is False and writes(server) == []


def test_rename_by_id_and_tags_as_a_merge_patch(server):
    result = run(server, security_group_id=LEGACY_ID.upper(), name="legacy-2", tags={"a": "1"})
    assert writes(server) == [("PATCH", V2 + "/" + LEGACY_ID, {"name": "legacy-2", "tags": {"a": "1"}})]
    assert result["security_group"]["name"] == "legacy-2"
    server.log = []
    run(server, security_group_id=LEGACY_ID, tags={"b": "2"})
    assert writes(server)[0][2] == {"tags": {"a": None, "b": "2"}}
    server.log = []
    run(server, security_group_id=LEGACY_ID, tags={"c": "3"}, purge_tags=False)
    assert writes(server)[0][2] == {"tags": {"c": "3"}}


def test_the_module_waits_for_the_lock_before_its_patch(server):
    server.hold()
    server.call("PATCH", V2 + "/" + LEGACY_ID, {"name": "locked-by-other"})
    server.release(after={"method": "GET", "path": "^/cloud/v1/securitygroups/1/76/" + LEGACY_ID, "times": 1})
    server.log = []
    result = run(server, security_group_id=LEGACY_ID, name="mine")
    assert result["changed"] is True and result["security_group"]["name"] == "mine"
    assert [status for entry in server.requests(method="PATCH") for status in [entry["status"]]] == [200], "no 409"


# ---- concurrent runs on one group ---------------------------------------------------------------

WEB = dict(direction="ingress", protocol="tcp", port_range_min=8080, remote_ip_prefix="0.0.0.0/0")
WEB_BODY = dict(direction="ingress", ethertype="IPv4", protocol="tcp", port_range_min=8080, port_range_max=8080,
                remote_ip_prefix="0.0.0.0/0")
OTHER_BODY = dict(direction="ingress", ethertype="IPv4", protocol="udp", port_range_min=53, port_range_max=53,
                  remote_ip_prefix="10.0.0.0/8")


def another_run_patches_meanwhile(server, group_id, rules):
    """Right after this run's listing by name, another run's PATCH writes ``rules`` (the group's whole list); its task
    locks the group until this run's own PATCH has met the 409 (no timing: the simulator injects and releases)."""
    server.hold()
    patch = {"method": "PATCH", "path": "%s/%s" % (V2, group_id), "body": {"rules": rules}}
    server.inject({"after": {"method": "GET", "path": "^%s$" % V1}, "request": patch})
    server.release(after={"method": "PATCH", "path": group_id})


def test_a_rule_another_run_added_meanwhile_survives_a_409_and_purge_rules_false(server):
    group_id = run(server, name="shared-web", rules=[SSH])["security_group"]["id"]
    held = group(server, group_id)["security_group_rules"]
    another_run_patches_meanwhile(server, group_id, [harness_rule(rule) for rule in held] + [OTHER_BODY])
    server.log = []
    result = run(server, name="shared-web", rules=[WEB], purge_rules=False)
    assert result["changed"] is True, result
    statuses = [entry["status"] for entry in server.requests(method="PATCH")]
    assert statuses == [409, 200], "the body planned again after the 409, sent once"
    protocols = sorted((rule["protocol"], rule["port_range_min"]) for rule in group(server, group_id)["security_group_rules"])
    assert protocols == [("tcp", 22), ("tcp", 8080), ("udp", 53)], "the other run's rule kept"
    assert [rule["port_range_min"] for rule in result["changes"]["created"]] == [8080] and result["changes"]["deleted"] == []


def test_a_run_whose_change_another_run_made_meanwhile_reports_no_change(server):
    group_id = run(server, name="shared-web", rules=[SSH])["security_group"]["id"]
    held = group(server, group_id)["security_group_rules"]
    another_run_patches_meanwhile(server, group_id, [harness_rule(rule) for rule in held] + [WEB_BODY])
    server.log = []
    result = run(server, name="shared-web", rules=[WEB], purge_rules=False)
    assert result["changed"] is False and result["changes"] == {"created": [], "deleted": []}, result
    assert [entry["status"] for entry in server.requests(method="PATCH")] == [409], "nothing left to send once read again"


def harness_rule(rule):
    """A rule record as the v2 PATCH takes it."""
    return dict((key, rule[key]) for key in ("direction", "ethertype", "protocol", "port_range_min", "port_range_max",
                                             "remote_ip_prefix", "remote_group_id", "description") if rule.get(key) is not None)


def test_a_rename_into_a_taken_name_fails_naming_its_id_and_sends_nothing(server):
    taken = run(server, name="taken-name")["security_group"]["id"]
    server.log = []
    result = run(server, security_group_id=LEGACY_ID, name="taken-name")
    assert result["failed"] is True and result["changed"] is False and writes(server) == []
    assert "security group %s of project 1, region 76 is already named 'taken-name'" % taken in result["msg"], result["msg"]
    assert run(server, security_group_id=LEGACY_ID, name="free-name")["changed"] is True, "a free name renames"


def test_no_empty_changes_on_a_rename_or_a_delete(server):
    renamed = run(server, security_group_id=LEGACY_ID, name="legacy-renamed")
    assert renamed["changed"] is True and "changes" not in renamed, renamed.get("changes")
    deleted = run(server, security_group_id=LEGACY_ID, state="absent")
    assert deleted["changed"] is True and "changes" not in deleted, deleted.get("changes")


# ---- identity and delete ------------------------------------------------------------------------

def test_two_groups_with_the_name_fail_listing_their_ids_and_send_nothing(server):
    result = run(server, name="shared-sg", rules=[])
    assert result["failed"] is True and all(ident in result["msg"] for ident in SHARED_IDS)
    assert writes(server) == []


def test_an_unknown_id_fails_present_and_is_unchanged_absent(server):
    missing = "5ec0a11e-0000-4000-8000-0000000000ff"
    assert run(server, security_group_id=missing, name="x-1")["failed"] is True
    absent = run(server, security_group_id=missing, state="absent")
    assert absent["changed"] is False and absent["security_group"] is None and writes(server) == []


def test_delete_answers_204_and_a_second_delete_changes_nothing(server):
    result = run(server, name="legacy-sg", state="absent")
    assert result["changed"] is True and result["security_group"] is None and result["tasks"] == []
    assert writes(server) == [("DELETE", V1 + "/" + LEGACY_ID, None)]
    assert result["diff"]["after"] == {"state": "absent"}
    server.log = []
    assert run(server, name="legacy-sg", state="absent")["changed"] is False and writes(server) == []


# ---- bad input ----------------------------------------------------------------------------------

GOOD = dict(SCOPE, name="web")


@pytest.mark.parametrize("args, expected", [
    (dict(GOOD, rules=[dict(direction="ingress", protocol="icmp", port_range_min=8)]),
     "rules[0].port_range_min/port_range_max: ports are only for the protocols tcp, udp, sctp, dccp, udplite, not icmp"),
    (dict(GOOD, rules=[dict(direction="ingress", port_range_min=22)]), "rules[0].port_range_min/port_range_max"),
    (dict(GOOD, rules=[SSH, dict(SSH, port_range_min=90, port_range_max=80)]), "rules[1].port_range_min: 90 is above port_range_max 80"),
    (dict(GOOD, rules=[dict(SSH, port_range_min=65536)]), "rules[0].port_range_min: 65536 is out of range (must be 0 to 65535)"),
    (dict(GOOD, rules=[dict(SSH, port_range_min=-1)]), "rules[0].port_range_min: -1 is out of range"),
    (dict(GOOD, rules=[dict(SSH, port_range_min="nan")]), "port_range_min"),
    (dict(GOOD, rules=[dict(SSH, port_range_min=True)]), "rules[0].port_range_min: a boolean"),
    (dict(GOOD, rules=[dict(SSH, remote_ip_prefix="10.0.0.1/8")]),
     "rules[0].remote_ip_prefix: '10.0.0.1/8' has host bits set; use the network address 10.0.0.0/8"),
    (dict(GOOD, rules=[dict(SSH, remote_ip_prefix="10.0.0.0/33")]), "rules[0].remote_ip_prefix: '10.0.0.0/33' is not a valid CIDR"),
    (dict(GOOD, rules=[dict(SSH, remote_ip_prefix="2001:db8::/64")]),
     "rules[0].remote_ip_prefix: 2001:db8::/64 is an IPv6 network but the rule's ethertype is IPv4"),
    (dict(GOOD, rules=[dict(SSH, ethertype="IPv6")]),
     "rules[0].remote_ip_prefix: 10.0.0.0/8 is an IPv4 network but the rule's ethertype is IPv6"),
    (dict(GOOD, rules=[dict(SSH, remote_group_id=LEGACY_ID)]), "rules[0]: remote_ip_prefix and remote_group_id are mutually exclusive"),
    (dict(GOOD, rules=[dict(direction="ingress", remote_group_id="not-a-uuid")]), "rules[0].remote_group_id: 'not-a-uuid' is not a UUID"),
    (dict(GOOD, rules=[dict(SSH, protocol="TCP")]), "rules[0].protocol: 'TCP' is not a protocol the service knows"),
    (dict(GOOD, rules=[dict(SSH, description="x" * 256)]), "rules[0].description: length 256 is out of range"),
    (dict(GOOD, rules=[dict(SSH, description="a\x00b")]), "rules[0].description: must not hold a NUL character"),
    (dict(GOOD, rules=[SSH, HTTPS, dict(SSH, port_range_max=22, description="again")]),
     "rules[0] and rules[2]: the same rule is listed twice (ingress IPv4 tcp 22-22 10.0.0.0/8)"),
    (dict(GOOD, rules=[dict(direction="egress"), dict(direction="egress", protocol="any")]), "rules[0] and rules[1]"),
    (dict(GOOD, rules=[dict(protocol="tcp")]), "direction"),
    (dict(GOOD, rules=[dict(direction="inbound")]), "direction"),
    (dict(GOOD, rules=[dict(direction="ingress", ethertype="ipv4")]), "ethertype"),
    (dict(GOOD, name="-web"), "name: '-web' does not match"),
    (dict(GOOD, name="we"), "name: length 2 is out of range"),
    (dict(GOOD, name="web\n"), "name: 'web\\n' does not match"),
    (dict(GOOD, description="a\x00b"), "description: must not hold a NUL character"),
    (dict(GOOD, tags={"a b": "1"}), "tags: key 'a b' breaks the rule"),
    (dict(GOOD, tags={"a": " 1"}), "tags.a: ' 1' breaks the rule"),
    (dict(GOOD, security_group_id="nope"), "security_group_id: 'nope' is not a UUID"),
    (dict(SCOPE), "one of the following is required: security_group_id, name"),
    (dict(GOOD, wait_timeout=0), "wait_timeout: 0 is out of range"),
    (dict(GOOD, project_id=0), "project_id: 0 is out of range"),
])
def test_every_bad_input_fails_before_any_request_naming_the_option(args, expected):
    message = harness.fail_message(security_group, args)
    assert expected in message, message


@pytest.mark.parametrize("args, expected", [
    (dict(SCOPE, security_group_id="x"), "security_group_id: 'x' is not a UUID"),
    (dict(SCOPE, name="a\tb"), "name:"),
    (dict(SCOPE, name="web", security_group_id=LEGACY_ID), "mutually exclusive"),
])
def test_the_info_module_checks_its_input_first(args, expected):
    assert expected in harness.fail_message(security_group_info, args)


# ---- security_group_info -------------------------------------------------------------------------

def test_info_by_id_by_exact_name_and_all_over_every_page(server):
    for number in range(12):
        server.call("POST", V2, {"name": "group-%02d" % number, "rules": []})
    server.log = []
    everything = run(server, security_group_info)["security_groups"]
    assert len(everything) == 15 and everything[0]["id"] == LEGACY_ID
    assert "limit=1000" in server.requests()[0]["query"]
    assert [record["id"] for record in run(server, security_group_info, name="shared-sg")["security_groups"]] == SHARED_IDS
    assert run(server, security_group_info, name="shared")["security_groups"] == []
    one = run(server, security_group_info, security_group_id=LEGACY_ID.upper())["security_groups"]
    assert [record["name"] for record in one] == ["legacy-sg"] and len(one[0]["security_group_rules"]) == 3
    assert run(server, security_group_info, security_group_id="5ec0a11e-0000-4000-8000-0000000000ff")["security_groups"] == []
    assert writes(server) == []


def test_info_reads_every_page_when_the_service_answers_short_pages(server, monkeypatch):
    for number in range(12):
        server.call("POST", V2, {"name": "group-%02d" % number, "rules": []})
    monkeypatch.setattr(_cloud, "PAGE_SIZE", 10)
    server.log = []
    assert len(run(server, security_group_info)["security_groups"]) == 15
    assert [entry["query"] for entry in server.requests()] == ["limit=10&offset=0", "limit=10&offset=10"]


# ---- tasks that end in ERROR ----------------------------------------------------------------------

@pytest.mark.parametrize("task_type, args", [
    ("create_security_group", dict(name="web", rules=[SSH])),
    ("update_security_group", dict(name="legacy-sg", rules=[LEGACY_SSH])),
])
def test_a_task_that_ends_in_error_fails_naming_it_and_its_error(server, task_type, args):
    server.configure(task_fail={task_type: "no capacity left"})
    result = run(server, **args)
    assert result["failed"] is True and result["changed"] is True, "the write was accepted"
    task_id = result["tasks"][0]
    assert task_id in result["msg"] and "no capacity left" in result["msg"], result["msg"]
    assert len(writes(server)) == 1, "nothing after the failed task"
    server.configure(task_fail={})
    server.log = []
    again = run(server, **args)
    assert again["changed"] is True and not again.get("failed"), again.get("msg")
    server.log = []
    assert run(server, **args)["changed"] is False and writes(server) == []
