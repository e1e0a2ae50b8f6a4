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


def seeded(args):
    """The load balancer made first, by the module, with ``args``."""
    def seed(server):
        assert not harness.run(server, load_balancer, args).get("failed")
    return seed


CHANGED_API = dict(API, rules=[{"type": "PATH", "compare_type": "STARTS_WITH", "value": "/v2"}])
# A plan: how the load balancer is made first, the arguments of the run, and its writes in order (method, path regex,
# what ``changes.l7policies`` says once it took effect).
PLANS = {
    "policy add": dict(seed=seeded(policies()), args=policies(dict(API, rules=API["rules"][:1])), writes=[
        ("POST", POLICIES + "$", ("created", "web/api")), ("POST", POLICIES + ITEM + "/rules$", ("created", "web/api"))]),
    "policy change": dict(seed=seeded(policies(API, HTTPS)), args=policies(CHANGED_API, dict(HTTPS, redirect_http_code=308)), writes=[
        ("PATCH", POLICIES + ITEM + "$", ("updated", "web/to-https")), ("PUT", POLICIES + ITEM + "/rules" + ITEM + "$", ("updated", "web/api")),
        ("DELETE", POLICIES + ITEM + "/rules" + ITEM + "$", ("updated", "web/api"))]),
    "policy delete": dict(seed=seeded(policies(API, HTTPS)), args=policies(HTTPS),
                          writes=[("DELETE", POLICIES + ITEM + "$", ("deleted", "web/api"))]),
}


def no_duplicates(server, row):
    """No listener holds two policies of one name, no policy two equal rules."""
    names = Counter((item["listener_id"], item["name"]) for item in server.l7policies.values())
    assert [key for key, count in names.items() if count > 1] == []
    for policy in server.l7policies.values():
        rules = Counter((rule["type"], rule["compare_type"], rule["key"], rule["value"], rule["invert"]) for rule in policy["rules"])
        assert [key for key, count in rules.items() if count > 1] == []


def said(planned):
    found = {"created": [], "updated": [], "deleted": []}
    for _method, _path, (kind, name) in planned:
        if name not in found[kind]:
            found[kind].append(name)
    return dict((kind, sorted(names)) for kind, names in found.items())


def changes_name_only_what_took_effect(server, row, result, stage):
    if stage == "first":
        done = row.spec["writes"] if row.applied else row.spec["writes"][:row.position]
        assert result["changes"]["l7policies"] == said(done), "only what took effect"


MATRIX = harness.Matrix(PLANS, module=load_balancer, faults=("500 after applying", "dropped after applying", "rejected 400"),
                        found=("policy add",), unique=no_duplicates, check=changes_name_only_what_took_effect)


@pytest.mark.parametrize("plan, position, fault", MATRIX.cases())
def test_a_fault_at_any_l7_write_reports_the_truth_sends_nothing_twice_and_the_rerun_converges(server, plan, position, fault):
    MATRIX.check_fault(server, plan, position, fault)


@pytest.mark.parametrize("plan, position, kind", MATRIX.task_cases())
def test_a_failed_l7_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    MATRIX.check_task_fault(server, plan, position, kind)
