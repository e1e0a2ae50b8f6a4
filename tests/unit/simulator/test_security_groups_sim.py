# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The simulated security groups answer as the published API does: v2 create and PATCH answer tasks, v1 reads pages
of 10, v1 DELETE answers 204; the default egress rules; the PATCH replaces the rule list; locks; validation."""

from __future__ import annotations

import pytest

from simulator.core import Simulator
from simulator.resources.security_groups import LEGACY_ID, SHARED_IDS

V1 = "/cloud/v1/securitygroups/1/76"
V2 = "/cloud/v2/security_groups/1/76"
SSH = {"direction": "ingress", "ethertype": "IPv4", "protocol": "tcp", "port_range_min": 22, "port_range_max": 22,
       "remote_ip_prefix": "0.0.0.0/0"}
RULE_RECORD = {"id", "security_group_id", "created_at", "updated_at", "revision_number", "ethertype", "description",
               "remote_group_id", "port_range_min", "port_range_max", "remote_ip_prefix", "protocol", "direction"}


@pytest.fixture
def sim():
    simulator = Simulator()
    simulator.configure(task_delay=0)  # tasks end at the next request; hold() keeps them running
    return simulator


def finish(sim):
    sim.release()
    sim.advance()


def create(sim, body):
    status, answer = sim.call("POST", V2, body)
    assert status == 200, answer
    finish(sim)
    return sim.tasks[answer["tasks"][0]]["record"]["created_resources"]["security_groups"][0]


def get(sim, group_id):
    status, record = sim.call("GET", V1 + "/" + group_id)
    assert status == 200, record
    return record


def shapes(record):
    return sorted((rule["direction"], rule["ethertype"], rule["protocol"]) for rule in record["security_group_rules"])


def test_create_answers_a_task_and_the_record_has_the_published_shape(sim):
    group_id = create(sim, {"name": "web", "description": "front", "rules": [SSH], "tags": {"env": "prod"}})
    record = get(sim, group_id)
    assert {"id", "name", "project_id", "region_id", "region", "created_at", "updated_at", "revision_number", "tags_v2",
            "description", "security_group_rules"} <= set(record)
    assert record["task_id"] is None
    assert record["tags_v2"] == [{"key": "env", "value": "prod", "read_only": False}]
    assert all(set(rule) == RULE_RECORD for rule in record["security_group_rules"])
    ssh = [rule for rule in record["security_group_rules"] if rule["direction"] == "ingress"]
    assert ssh[0]["port_range_min"] == 22 and ssh[0]["remote_ip_prefix"] == "0.0.0.0/0" and ssh[0]["description"] is None


def test_a_create_without_an_egress_rule_gets_the_default_egress_rules(sim):
    assert shapes(get(sim, create(sim, {"name": "web", "rules": [SSH]}))) == [
        ("egress", "IPv4", "any"), ("egress", "IPv6", "any"), ("ingress", "IPv4", "tcp")]
    assert shapes(get(sim, create(sim, {"name": "bare"}))) == [("egress", "IPv4", "any"), ("egress", "IPv6", "any")]
    egress = dict(SSH, direction="egress")
    assert shapes(get(sim, create(sim, {"name": "out", "rules": [egress]}))) == [("egress", "IPv4", "tcp")]
    assert shapes(get(sim, create(sim, {"name": "none", "rules": []}))) == []


def test_the_group_is_locked_while_its_task_runs_and_a_failed_create_removes_it(sim):
    sim.hold()
    status, answer = sim.call("POST", V2, {"name": "held"})
    task_id = answer["tasks"][0]
    status, listing = sim.call("GET", V1, query="name=held")
    record = listing["results"][0]
    assert record["task_id"] == task_id
    assert sim.call("PATCH", V2 + "/" + record["id"], {"name": "held-2"})[0] == 409
    assert sim.call("DELETE", V1 + "/" + record["id"])[0] == 409
    sim.release(error="boom")
    sim.advance()
    assert sim.call("GET", V1 + "/" + record["id"])[0] == 404


def test_the_patch_replaces_the_rule_list_keeping_the_ids_of_rules_repeated(sim):
    group_id = create(sim, {"name": "web", "rules": [SSH]})
    before = get(sim, group_id)
    ssh_id = [rule["id"] for rule in before["security_group_rules"] if rule["protocol"] == "tcp"][0]
    https = dict(SSH, port_range_min=443, port_range_max=443)
    sim.hold()
    status, answer = sim.call("PATCH", V2 + "/" + group_id, {"rules": [SSH, https], "description": "new"})
    assert status == 200 and len(answer["tasks"]) == 1
    assert get(sim, group_id)["task_id"] == answer["tasks"][0]
    finish(sim)
    after = get(sim, group_id)
    assert after["description"] == "new"
    assert sorted(rule["port_range_min"] for rule in after["security_group_rules"]) == [22, 443]
    assert ssh_id in [rule["id"] for rule in after["security_group_rules"]]


def test_a_patch_that_changes_nothing_answers_no_task(sim):
    group_id = create(sim, {"name": "web", "rules": [SSH], "tags": {"a": "1"}})
    rules = [dict((key, value) for key, value in rule.items() if key in SSH and value is not None)
             for rule in get(sim, group_id)["security_group_rules"]]
    for rule in rules:
        if rule.get("protocol") == "any":
            rule["protocol"] = None  # null is every protocol, as "any" is
    assert sim.call("PATCH", V2 + "/" + group_id, {"name": "web", "rules": rules, "tags": {"a": "1"}}) == (200, {"tasks": []})


def test_tags_are_a_json_merge_patch_and_read_only_tags_stay(sim):
    status, answer = sim.call("PATCH", V2 + "/" + LEGACY_ID, {"tags": {"team": "a"}})
    finish(sim)
    assert get(sim, LEGACY_ID)["tags_v2"] == [
        {"key": "billing", "value": "seeded", "read_only": True}, {"key": "team", "value": "a", "read_only": False}]
    sim.call("PATCH", V2 + "/" + LEGACY_ID, {"tags": {"team": None, "billing": None}})
    finish(sim)
    assert get(sim, LEGACY_ID)["tags_v2"] == [{"key": "billing", "value": "seeded", "read_only": True}]


def test_the_list_pages_by_ten_and_filters_the_exact_name(sim):
    for number in range(12):
        create(sim, {"name": "group-%02d" % number, "rules": []})
    status, first = sim.call("GET", V1)
    assert first["count"] == 15 and len(first["results"]) == 10
    status, rest = sim.call("GET", V1, query="offset=10")
    assert len(rest["results"]) == 5
    status, named = sim.call("GET", V1, query="name=shared-sg")
    assert sorted(record["id"] for record in named["results"]) == SHARED_IDS
    assert sim.call("GET", V1, query="name=shared")[1]["count"] == 0  # a full name, not a substring
    assert sim.call("GET", V1, query="limit=1001")[0] == 422
    assert sim.call("GET", V1, query="limit=0")[0] == 422


def test_delete_answers_204_without_a_body_and_a_missing_group_is_a_404(sim):
    assert sim.call("DELETE", V1 + "/" + LEGACY_ID) == (204, None)
    status, body = sim.call("GET", V1 + "/" + LEGACY_ID)
    assert status == 404 and set(body) == {"exception_class", "message", "request_id"}
    assert sim.call("DELETE", V1 + "/" + LEGACY_ID)[0] == 404
    assert sim.call("PATCH", V2 + "/" + LEGACY_ID, {"name": "x-1"})[0] == 404


@pytest.mark.parametrize("rule, status, text", [
    (dict(SSH, protocol="icmp"), 400, "port ranges are only valid"),
    (dict(SSH, port_range_min=80, port_range_max=22), 400, "is above port_range_max"),
    (dict(SSH, port_range_max=65536), 422, "rules.0.port_range_max"),
    (dict(SSH, remote_ip_prefix="10.0.0.1/8"), 422, "rules.0.remote_ip_prefix"),
    (dict(SSH, remote_ip_prefix="::/0"), 400, "is not an IPv4 network"),
    (dict(SSH, remote_group_id=LEGACY_ID), 400, "mutually exclusive"),
    (dict(SSH, remote_ip_prefix=None, remote_group_id="5ec0a11e-0000-4000-8000-0000000000ff"), 404, "not found"),
    (dict(SSH, protocol="any"), 422, "rules.0.protocol"),
    (dict(SSH, direction="both"), 422, "rules.0.direction"),
    (dict(SSH, colour="red"), 422, "extra fields not permitted"),
    (dict(SSH, description="x" * 256), 422, "rules.0.description"),
])
def test_a_bad_rule_is_refused_and_nothing_is_created(sim, rule, status, text):
    answer = sim.call("POST", V2, {"name": "bad", "rules": [rule]})
    assert answer[0] == status and text in answer[1]["message"], answer
    assert sim.call("GET", V1, query="name=bad")[1]["count"] == 0


def test_a_rule_listed_twice_and_bad_names_and_tags_are_refused(sim):
    assert sim.call("POST", V2, {"name": "dup", "rules": [SSH, dict(SSH)]})[0] == 400
    assert sim.call("POST", V2, {"name": "-bad"})[0] == 422
    assert sim.call("POST", V2, {"name": "web", "tags": {"a b": "1"}})[0] == 422
    assert sim.call("PATCH", V2 + "/" + LEGACY_ID, {"rules": [dict(SSH, port_range_min=None)]})[0] == 422  # not nullable in a PATCH
