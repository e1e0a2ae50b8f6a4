# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The set flow of GcoreResourceModule (a list of resources compared by name; sub-resources attached and
detached), on stub declarations served from memory (no HTTP)."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from ansible.module_utils.testing import patch_module_args

from ansible_collections.gcore.platform.plugins.module_utils._checks import strip_none
from ansible_collections.gcore.platform.plugins.module_utils._client import ApiError
from ansible_collections.gcore.platform.plugins.module_utils._attachments import Attachments
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._resource import GcoreResourceModule
from ansible_collections.gcore.platform.plugins.module_utils._tasks import TaskWaiter
from ansible_collections.gcore.platform.plugins.module_utils import _children
from ansible_collections.gcore.platform.plugins.module_utils._children import Children

CLIENT = "ansible_collections.gcore.platform.plugins.module_utils._base.Client"


class Service:
    """Rules of one domain, in memory; records every request."""

    def __init__(self, rules, failures=()):
        self.rules = rules
        self.requests = []
        self.failures = list(failures)
        self.next_id = 100

    def paginate(self, path, params=None, **kwargs):
        self.requests.append(("GET", path, None))
        return [dict(rule) for rule in self.rules]

    def request(self, method, path, params=None, json=None, ok=None):
        self.requests.append((method, path, json))
        failure = self.failures.pop(0) if self.failures else None
        if failure is None:
            return self.apply(method, path, json)
        error = ApiError(failure.method, failure.path, failure.status, failure.detail)
        if failure.status is None or failure.status >= 500:
            self.apply(method, path, json)  # applied, the answer was lost
        raise error

    def apply(self, method, path, body):
        if path.endswith("/bulk_delete"):
            self.rules[:] = [rule for rule in self.rules if rule["id"] not in body["rule_ids"]]
        elif method == "POST":
            self.next_id += 1
            self.rules.append(dict(body, id=self.next_id))
        elif method == "PATCH":
            rule_id = int(path.rsplit("/", 1)[1])
            next(rule for rule in self.rules if rule["id"] == rule_id).update(body)
        return None

    def writes(self):
        return [(method, path, body) for method, path, body in self.requests if method != "GET"]


class RuleSet(GcoreResourceModule):
    """A declaration of a set of rules: the domain (never read) holding them as a child collection, identity by exact
    name, two members."""

    argument_spec = dict(
        domain_id=dict(type="int", required=True),
        state=dict(type="str", default="merged", choices=["merged", "replaced", "overridden", "deleted", "gathered"]),
        config=dict(type="list", elements="dict", default=[], options=dict(
            name=dict(type="str", required=True), size=dict(type="int"), enabled=dict(type="bool"))),
    )
    noun = "rule"
    result_key = "rules"
    scope = "domain {domain_id}"
    container = True
    id_option = name_option = None
    parts = (Children("", "rule", dict(list="/d/{domain_id}/rules", item="/d/{domain_id}/rules/{id}", bulk_delete="/d/{domain_id}/rules/bulk_delete"),
                      (Member("name"), Member("size"), Member("enabled", created=True, reset=True)), scope="domain {domain_id}",
                      body=lambda item: dict(strip_none(item), enabled=item["enabled"] is not False),
                      gathered=lambda record, params: {"name": record["name"], "size": record.get("size"), "enabled": record.get("enabled")},
                      bulk_body=lambda ids: {"rule_ids": ids}),)

    @property
    def changes(self):
        return None if self.params["state"] == "gathered" else self.parts[0].changes

    def find(self):
        return {"id": self.params["domain_id"]}


def run(module, service, args, check=False, diff=True):
    args = dict(args, api_key="k", _ansible_check_mode=check, _ansible_diff=diff)
    now = [0.0]  # the waiter's clock: its sleeps only move it on

    def waiter(client):
        return TaskWaiter(client, clock=lambda: now[0], sleep=lambda seconds: now.__setitem__(0, now[0] + seconds))
    with patch_module_args(args), mock.patch("sys.stdout") as stdout, mock.patch(CLIENT, lambda **kwargs: service), \
            mock.patch("ansible_collections.gcore.platform.plugins.module_utils._base.TaskWaiter", waiter):
        with pytest.raises(SystemExit):
            module.main()
    return json.loads("".join(call.args[0] for call in stdout.write.call_args_list))


def held():
    return [{"id": 1, "name": "b", "size": 2, "enabled": True},
            {"id": 2, "name": "a", "size": 1, "enabled": False},
            {"id": 3, "name": "c", "size": 3, "enabled": True}]


def test_merged_creates_and_updates_only_what_differs_with_the_diff_a_mapping_by_name():
    service = Service(held())
    config = [{"name": "z", "size": 9}, {"name": "b", "size": 5}, {"name": "a", "size": 1}]
    result = run(RuleSet, service, {"domain_id": 7, "config": config})
    assert result["changed"] is True
    assert result["changes"] == {"created": ["z"], "updated": ["b"], "deleted": [], "deleted_ids": []}
    assert service.writes() == [("PATCH", "/d/7/rules/1", {"size": 5}),
                                ("POST", "/d/7/rules", {"name": "z", "size": 9, "enabled": True})], "updates before creates"
    assert result["diff"]["before"] == {"b": {"name": "b", "size": 2, "enabled": True}}
    assert result["diff"]["after"] == {"b": {"name": "b", "size": 5, "enabled": True}, "z": {"name": "z", "size": 9, "enabled": True}}
    assert [rule["name"] for rule in result["rules"]] == ["b", "a", "c", "z"], "listed once more after the writes"
    again = Service(service.rules)
    assert run(RuleSet, again, {"domain_id": 7, "config": config})["changed"] is False
    assert again.requests == [("GET", "/d/7/rules", None)], "nothing to change: only the listing"


def test_check_mode_reports_and_sends_nothing():
    service = Service(held())
    result = run(RuleSet, service, {"domain_id": 7, "state": "overridden", "config": [{"name": "a", "size": 1}]}, check=True)
    assert result["changed"] is True
    assert result["changes"] == {"created": [], "updated": ["a"], "deleted": ["b", "c"], "deleted_ids": [1, 3]}
    assert service.writes() == []


def test_replaced_resets_members_left_out_and_overridden_deletes_the_rest_in_chunks_first(monkeypatch):
    monkeypatch.setattr(_children, "BULK_SIZE", 2)
    service = Service(held() + [{"id": 4, "name": "d", "size": 4, "enabled": True}])
    result = run(RuleSet, service, {"domain_id": 7, "state": "overridden", "config": [{"name": "a", "size": 1}]})
    assert result["changes"] == {"created": [], "updated": ["a"], "deleted": ["b", "c", "d"], "deleted_ids": [1, 3, 4]}
    assert service.writes() == [("POST", "/d/7/rules/bulk_delete", {"rule_ids": [1, 3]}),
                                ("POST", "/d/7/rules/bulk_delete", {"rule_ids": [4]}),
                                ("PATCH", "/d/7/rules/2", {"enabled": True})]
    assert [rule["name"] for rule in result["rules"]] == ["a"]


def test_deleted_removes_only_the_named_rules():
    service = Service(held())
    result = run(RuleSet, service, {"domain_id": 7, "state": "deleted", "config": [{"name": "c"}, {"name": "nope"}]})
    assert result["changes"] == {"created": [], "updated": [], "deleted": ["c"], "deleted_ids": [3]}
    assert service.writes() == [("POST", "/d/7/rules/bulk_delete", {"rule_ids": [3]})]


def test_gathered_round_trips_through_overridden_without_a_write():
    service = Service(held())
    gathered = run(RuleSet, service, {"domain_id": 7, "state": "gathered"})
    assert gathered["changed"] is False and [rule["name"] for rule in gathered["gathered"]] == ["b", "a", "c"]
    result = run(RuleSet, service, {"domain_id": 7, "state": "overridden", "config": gathered["gathered"]})
    assert result["changed"] is False and service.writes() == []


def test_a_name_twice_in_config_fails_before_any_request():
    service = Service(held())
    result = run(RuleSet, service, {"domain_id": 7, "config": [{"name": "x"}, {"name": "y"}, {"name": "x"}]})
    assert result["failed"] is True and "config[0] and config[2] are both named 'x'" in result["msg"]
    assert service.requests == []


def test_two_rules_with_a_configured_name_fail_listing_their_ids():
    service = Service(held() + [{"id": 9, "name": "a", "size": 1}])
    result = run(RuleSet, service, {"domain_id": 7, "config": [{"name": "a", "size": 5}]})
    assert result["failed"] is True and "2 rules of domain 7 are named 'a' (ids 2, 9)" in result["msg"]
    assert service.writes() == []


def test_an_ambiguous_create_is_listed_again_and_never_sent_twice():
    service = Service(held(), failures=[ApiError("POST", "/d/7/rules", 502, "Bad Gateway")])
    result = run(RuleSet, service, {"domain_id": 7, "config": [{"name": "z", "size": 9}]})
    assert result["changed"] is True and "not sent again" in json.dumps(result["warnings"])
    assert [method for method, _path, _body in service.requests] == ["GET", "POST", "GET", "GET"]
    lost = Service(held(), failures=[ApiError("POST", "/d/7/rules", None, "connection dropped")])
    lost.apply = lambda *args: None  # the create never reached the service
    failed = run(RuleSet, lost, {"domain_id": 7, "config": [{"name": "z", "size": 9}, {"name": "y"}]})
    assert failed["failed"] is True and failed["changed"] is True, "it may yet have been applied"
    assert "could not be confirmed" in failed["msg"] and failed["changes"]["created"] == [], failed
    methods = [method for method, _path, _body in lost.requests]
    assert methods[:2] == ["GET", "POST"] and set(methods[2:]) == {"GET"} and len(methods) > 3, "read again until the time allowed passed, nothing more sent"


def test_a_failure_after_an_accepted_write_keeps_changed():
    service = Service(held(), failures=[None, ApiError("PATCH", "/d/7/rules/1", 422, "bad")])
    result = run(RuleSet, service, {"domain_id": 7, "config": [{"name": "z"}, {"name": "b", "size": 5}, {"name": "a", "size": 3}]})
    assert result["failed"] is True and result["changed"] is True
    assert "the writes before it were accepted (PATCH /d/7/rules/1)" in result["msg"]
    assert "could not be confirmed" not in result["msg"], "a 422 is a clear rejection"
    assert result["changes"] == {"created": [], "updated": ["b"], "deleted": [], "deleted_ids": []}, "only what was accepted"


# ---- a set of sub-resources on one resource (router interfaces: attach / detach) --------------

class Box:
    """A resource whose ``ports`` are attached and detached by their own requests."""

    def __init__(self):
        self.record = {"id": "r1", "name": "box", "ports": [{"subnet_id": "s1", "ip": "10.0.0.1"}, {"subnet_id": "s2", "ip": "10.1.0.1"}]}
        self.requests = []

    def paginate(self, path, params=None, **kwargs):
        self.requests.append(("GET", path, None))
        return [dict(self.record)]

    def get(self, path, params=None):
        self.requests.append(("GET", path, None))
        return json.loads(json.dumps(self.record))

    def request(self, method, path, params=None, json=None, ok=None):
        self.requests.append((method, path, json))
        ports = self.record["ports"]
        if path.endswith("/attach"):
            ports.append({"subnet_id": json["subnet_id"], "ip": json.get("ip") or "10.9.0.1"})
        elif path.endswith("/detach"):
            ports[:] = [port for port in ports if port["subnet_id"] != json["subnet_id"]]
        return dict(self.record)


class BoxModule(GcoreResourceModule):
    argument_spec = dict(
        name=dict(type="str"),
        ports=dict(type="list", elements="dict", options=dict(subnet_id=dict(type="str", required=True), ip=dict(type="str"))),
    )
    noun = "box"
    result_key = "box"
    id_option = None
    paths = dict(list="/boxes", item="/boxes/{id}")
    members = (Member("name"),)
    parts = (Attachments("ports", key="subnet_id", items=lambda record: record["ports"],
                         attach=("POST", "/boxes/{id}/attach"), detach=("POST", "/boxes/{id}/detach")),)


def test_sub_resources_are_attached_and_detached_as_a_set():
    box = Box()
    ports = [{"subnet_id": "s2", "ip": "10.1.0.9"}, {"subnet_id": "s3", "ip": None}]
    check = run(BoxModule, box, {"name": "box", "ports": ports}, check=True)
    assert check["changed"] is True and [m for m, _p, _b in box.requests] == ["GET"]
    assert check["diff"]["after"]["ports"] == [{"subnet_id": "s2", "ip": "10.1.0.9"}, {"subnet_id": "s3", "ip": None}]
    unchanged = run(BoxModule, box, {"name": "box", "ports": [{"subnet_id": "s1", "ip": None}, {"subnet_id": "s2", "ip": None}]}, check=True)
    assert unchanged["changed"] is False and unchanged["diff"]["before"] == unchanged["diff"]["after"], "no address given: no change shown"
    box.requests = []
    result = run(BoxModule, box, {"name": "box", "ports": ports})
    assert result["changed"] is True
    assert [(m, p, b) for m, p, b in box.requests if m == "POST"] == [
        ("POST", "/boxes/r1/attach", {"subnet_id": "s3", "ip": None}),
        ("POST", "/boxes/r1/detach", {"subnet_id": "s2"}),
        ("POST", "/boxes/r1/attach", {"subnet_id": "s2", "ip": "10.1.0.9"}),
        ("POST", "/boxes/r1/detach", {"subnet_id": "s1"}),
    ], "attach first, then move, then detach"
    assert sorted(port["subnet_id"] for port in result["box"]["ports"]) == ["s2", "s3"]
    box.requests = []
    assert run(BoxModule, box, {"name": "box", "ports": ports})["changed"] is False
    assert [m for m, _p, _b in box.requests] == ["GET"]


class Empty(Box):
    """No box yet: a create answers the new box; ``ports`` of the body are attached by the create itself."""

    def __init__(self):
        super().__init__()
        self.record = None

    def paginate(self, path, params=None, **kwargs):
        self.requests.append(("GET", path, None))
        return [dict(self.record)] if self.record else []

    def request(self, method, path, params=None, json=None, ok=None):
        if method == "POST" and path == "/boxes":
            self.requests.append((method, path, json))
            self.record = {"id": "r1", "name": json["name"], "ports": [dict(port, ip="10.9.0.2") for port in json.get("ports", [])]}
            return {"tasks": []}  # no task to wait for: the box is found by name
        return super().request(method, path, params=params, json=json, ok=ok)


class CheckedBoxModule(BoxModule):
    """Ports checked and made canonical by the declaration; a port without ``ip`` goes in the create body."""

    argument_spec = dict(BoxModule.argument_spec, wait=dict(type="bool", default=True))
    paths = dict(BoxModule.paths, create="/boxes")
    asynchronous = True
    parts = (Attachments("ports", key="subnet_id", items=lambda record: record["ports"],
                         attach=("POST", "/boxes/{id}/attach"), detach=("POST", "/boxes/{id}/detach"),
                         check_item=lambda where, item: dict(item, subnet_id=item["subnet_id"].lower())),)

    def create_body(self):
        return {"name": self.params["name"], "ports": [{"subnet_id": port["subnet_id"]} for port in self.params["ports"] if port["ip"] is None]}


def test_set_items_are_made_canonical_before_an_identity_given_twice_is_refused():
    box = Box()
    result = run(CheckedBoxModule, box, {"name": "box", "ports": [{"subnet_id": "S1"}, {"subnet_id": "s1", "ip": "10.0.0.1"}]})
    assert result["failed"] is True
    assert result["msg"] == "Invalid input: ports[0] and ports[1]: each item must have its own subnet_id; s1 is given twice"
    assert box.requests == []


def test_set_items_the_create_body_cannot_carry_are_attached_after_the_create():
    empty = Empty()
    result = run(CheckedBoxModule, empty, {"name": "box", "ports": [{"subnet_id": "S1"}, {"subnet_id": "s2", "ip": "10.1.0.9"}]})
    assert result["changed"] is True
    assert [(m, p, b) for m, p, b in empty.requests if m == "POST"] == [
        ("POST", "/boxes", {"name": "box", "ports": [{"subnet_id": "s1"}]}),
        ("POST", "/boxes/r1/attach", {"subnet_id": "s2", "ip": "10.1.0.9"}),
    ]


def test_a_bulk_delete_answered_404_is_listed_again_and_the_rest_deleted_one_by_one():
    """docs/api_reference.md 12.2: a 404 means some of the ids were already gone (the call is refused whole)."""
    service = Service(held(), failures=[ApiError("POST", "/d/7/rules/bulk_delete", 404, "Rule 3 not found")])
    refused = service.request

    def request(method, path, params=None, json=None, ok=None):
        if path.endswith("/bulk_delete"):
            service.rules[:] = [rule for rule in service.rules if rule["id"] != 3]  # "c" went meanwhile
        return refused(method, path, params, json, ok)

    service.request = request
    result = run(RuleSet, service, {"domain_id": 7, "state": "overridden", "config": [{"name": "a", "size": 1, "enabled": False}]})
    assert result["changed"] is True and result["changes"]["deleted"] == ["b"], "c was deleted by someone else"
    assert result["changes"]["deleted_ids"] == [1]
    assert [(method, path) for method, path, _body in service.requests] == [
        ("GET", "/d/7/rules"), ("POST", "/d/7/rules/bulk_delete"), ("GET", "/d/7/rules"), ("DELETE", "/d/7/rules/1"),
        ("GET", "/d/7/rules")], "only what is left of the refused ids is deleted, one by one"
