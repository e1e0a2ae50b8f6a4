# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault matrix of load_balancer's L7 writes: for each write of a plan (a policy created and its rule, a policy
PATCHed and a rule PUT and deleted, a policy deleted) and each fault kind (a 500 after the service applied the write, a
connection dropped after it applied it, a clear 400 rejection, a task that ends in ERROR), the run reports the truth
(``changed``, ``changes`` naming only what took effect), sends no write twice, leaves no duplicate policy or rule, and
a re-run converges with no write left. The cases are generated from the plans below."""

from __future__ import annotations

import copy
import re
from collections import Counter

import pytest

from ansible_collections.gcore.platform.plugins.modules import load_balancer

import harness

API = {"name": "api", "action": "REDIRECT_TO_POOL", "redirect_pool": "api-pool",
       "rules": [{"type": "PATH", "compare_type": "STARTS_WITH", "value": "/api"}, {"type": "HOST_NAME", "compare_type": "EQUAL_TO", "value": "a.example"}]}
HTTPS = {"name": "to-https", "action": "REDIRECT_PREFIX", "redirect_prefix": "https://shop.example.com"}
LB = {"project_id": 1, "region_id": 76, "name": "l7-fault-lb", "listeners": [
    {"name": "web", "protocol": "HTTP", "protocol_port": 80, "pool": {"name": "web-pool", "lb_algorithm": "ROUND_ROBIN", "protocol": "HTTP"}},
    {"name": "api", "protocol": "HTTP", "protocol_port": 8080, "pool": {"name": "api-pool", "lb_algorithm": "ROUND_ROBIN", "protocol": "HTTP"}}]}
POLICIES = r"/cloud/v1/l7policies/1/76"
ITEM = r"/[0-9a-f-]{36}"


def policies(*items):
    args = copy.deepcopy(LB)
    args["listeners"][0]["l7policies"] = list(items)
    return args


CHANGED_API = dict(API, rules=[{"type": "PATH", "compare_type": "STARTS_WITH", "value": "/v2"}])
# A plan: the arguments the load balancer is made with first, the arguments of the run, and its writes in order
# (method, path regex, what ``changes.l7policies`` says once it took effect).
PLANS = {
    "policy add": dict(seed=policies(), args=policies(dict(API, rules=API["rules"][:1])), writes=[
        ("POST", POLICIES + "$", ("created", "web/api")), ("POST", POLICIES + ITEM + "/rules$", ("created", "web/api"))]),
    "policy change": dict(seed=policies(API, HTTPS), args=policies(CHANGED_API, dict(HTTPS, redirect_http_code=308)), writes=[
        ("PATCH", POLICIES + ITEM + "$", ("updated", "web/to-https")), ("PUT", POLICIES + ITEM + "/rules" + ITEM + "$", ("updated", "web/api")),
        ("DELETE", POLICIES + ITEM + "/rules" + ITEM + "$", ("updated", "web/api"))]),
    "policy delete": dict(seed=policies(API, HTTPS), args=policies(HTTPS), writes=[("DELETE", POLICIES + ITEM + "$", ("deleted", "web/api"))]),
}
FAULTS = {
    "500 after applying": (dict(status=500, applied=True), True),
    "dropped after applying": (dict(drop=True, applied=True), True),
    "rejected 400": (dict(status=400, body="injected rejection"), False),
}


def run(server, args, **extra):
    return harness.run(server, load_balancer, dict(args, **extra), api_retries=1, _ansible_diff=True)


def writes(server):
    return [(entry["method"], entry["path"], entry["query"], entry["body"]) for entry in server.writes()]


def no_duplicates(server):
    """No listener holds two policies of one name, no policy two equal rules."""
    names = Counter((item["listener_id"], item["name"]) for item in server.l7policies.values())
    assert [key for key, count in names.items() if count > 1] == []
    for policy in server.l7policies.values():
        rules = Counter((rule["type"], rule["compare_type"], rule["key"], rule["value"], rule["invert"]) for rule in policy["rules"])
        assert [key for key, count in rules.items() if count > 1] == []


def prepare(server, plan):
    spec = PLANS[plan]
    server.reset()
    server.configure(task_delay=0)
    assert not run(server, spec["seed"]).get("failed")
    server.log = []
    return spec


def said(planned):
    found = {"created": [], "updated": [], "deleted": []}
    for _method, _path, (kind, name) in planned:
        if name not in found[kind]:
            found[kind].append(name)
    return dict((kind, sorted(names)) for kind, names in found.items())


@pytest.mark.parametrize("plan, position, fault", list(harness.fault_cases(PLANS, FAULTS)))
def test_a_fault_at_any_l7_write_reports_the_truth_sends_nothing_twice_and_the_rerun_converges(server, plan, position, fault):
    spec = prepare(server, plan)
    method, path, _said = spec["writes"][position]
    extra, applied = FAULTS[fault]
    server.add_fault(method=method, path=path, **extra)
    result = run(server, spec["args"])
    sent = writes(server)
    assert [count for count in Counter(sent).values() if count > 1] == [], "a write was sent twice: %s" % sent
    assert len(sent) == (len(spec["writes"]) if applied else position + 1), sent
    for (expected_method, pattern, _said), (sent_method, sent_path, _query, _body) in zip(spec["writes"], sent):
        assert expected_method == sent_method and re.search(pattern, sent_path), "plan order: %s" % sent
    no_duplicates(server)
    if applied:
        assert not result.get("failed"), result["msg"]
        assert result["changed"] is True and result["changes"]["l7policies"] == said(spec["writes"])
        texts = harness.warning_texts(result)
        assert len(texts) == 1 and "shows the change was applied, so it was not sent again" in texts[0], texts
    else:
        assert result["failed"] is True and "injected rejection" in result["msg"], result
        assert result["changed"] is (position > 0), "changed means applied"
        assert result["changes"]["l7policies"] == said(spec["writes"][:position]), "only what took effect"
    server.clear_faults()
    server.log = []
    again = run(server, spec["args"])
    assert not again.get("failed"), again.get("msg")
    assert again["changed"] is (not applied)
    server.log = []
    assert run(server, spec["args"])["changed"] is False and writes(server) == []
    no_duplicates(server)


@pytest.mark.parametrize("plan, position, kind", list(harness.task_fault_cases(PLANS, found=("policy add",))))
def test_a_failed_l7_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    spec = prepare(server, plan)
    harness.check_task_fault(server, lambda **extra: run(server, spec["args"], **extra), [write[:2] for write in spec["writes"]], position, kind)
    no_duplicates(server)
