# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""load_balancer's listeners' L7 policies and rules in process against the simulator over HTTP: created after the load
balancer in list order with their rules, a second run that only reads, check mode previews, a changed rule one PUT, an
order change PATCHes of position, a policy left out deleted, and every bad input refused before any request."""

from __future__ import annotations

import copy

import pytest

from ansible_collections.gcore.platform.plugins.modules import load_balancer, load_balancer_info

import harness
from harness import writes

API = {"name": "api", "action": "REDIRECT_TO_POOL", "redirect_pool": "api-pool",
       "rules": [{"type": "PATH", "compare_type": "STARTS_WITH", "value": "/api"}]}
HTTPS = {"name": "to-https", "action": "REDIRECT_PREFIX", "redirect_prefix": "https://shop.example.com", "redirect_http_code": 301}
API_POOL = {"name": "api", "protocol": "HTTP", "protocol_port": 8080, "pool": {"name": "api-pool", "lb_algorithm": "ROUND_ROBIN", "protocol": "HTTP"}}
WEB = {"name": "web", "protocol": "HTTP", "protocol_port": 80, "l7policies": [API, HTTPS],
       "pool": {"name": "web-pool", "lb_algorithm": "ROUND_ROBIN", "protocol": "HTTP"}}
LB = dict(project_id=1, region_id=76, name="l7-lb", listeners=[WEB, API_POOL])


def run(server, args, **options):
    return harness.run(server, load_balancer, args, **options)


def with_policies(*policies):
    return dict(LB, listeners=[dict(WEB, l7policies=list(policies)), API_POOL])


def policies(result, listener="web"):
    found = next(item for item in result["load_balancer"]["listeners"] if item["name"] == listener)
    return [(policy["name"], policy["position"], sorted((rule["type"], rule["compare_type"], rule["value"]) for rule in policy["rules"]))
            for policy in found["l7policies"]]


def created(server, args=None):
    result = run(server, args or LB)
    assert result["changed"] is True and not result.get("failed"), result
    server.log = []
    return result


def test_check_mode_previews_policies_and_rules_and_sends_nothing(server):
    created(server, dict(LB, listeners=[dict(WEB, l7policies=None), API_POOL]))
    result = run(server, LB, _ansible_check_mode=True, _ansible_diff=True)
    assert result["changed"] is True and writes(server) == []
    assert result["diff"]["after"]["l7policies"] == {
        "web/api": {"action": "REDIRECT_TO_POOL", "redirect_pool": "api-pool", "position": 1, "rules": ["PATH STARTS_WITH /api"]},
        "web/to-https": {"action": "REDIRECT_PREFIX", "redirect_prefix": "https://shop.example.com", "redirect_http_code": 301,
                         "position": 2, "rules": []}}
    assert result["changes"]["l7policies"] == {"created": ["web/api", "web/to-https"], "updated": [], "deleted": []}


def test_policies_are_created_after_the_load_balancer_in_order_and_a_second_run_sends_nothing(server):
    result = created(server)
    assert policies(result) == [("api", 1, [("PATH", "STARTS_WITH", "/api")]), ("to-https", 2, [])]
    assert result["changes"]["l7policies"] == {"created": ["web/api", "web/to-https"], "updated": [], "deleted": []}
    assert result["load_balancer"]["provisioning_status"] == "ACTIVE"
    again = run(server, LB, _ansible_diff=True)
    assert again["changed"] is False and writes(server) == [], again["diff"]
    assert again["diff"]["before"]["l7policies"] == again["diff"]["after"]["l7policies"] == {}
    info = harness.run(server, load_balancer_info, dict(project_id=1, region_id=76, name="l7-lb"))
    assert policies(dict(load_balancer=info["load_balancers"][0])) == policies(result)


def test_a_changed_rule_is_one_put_and_order_changes_patch_positions(server):
    created(server)
    api = dict(API, rules=[{"type": "HEADER", "compare_type": "EQUAL_TO", "key": "X-Api", "value": "v2"}])
    result = run(server, with_policies(HTTPS, api), _ansible_diff=True)
    assert result["changed"] is True, result
    sent = [(method, path.split("/")[-1] if method != "PUT" else "rules/id") for method, path, _body in writes(server)]
    assert [method for method, _path in sent] == ["PATCH", "PATCH", "PUT"], sent
    assert policies(result) == [("to-https", 1, []), ("api", 2, [("HEADER", "EQUAL_TO", "v2")])]
    assert result["changes"]["l7policies"] == {"created": [], "updated": ["web/api", "web/to-https"], "deleted": []}
    server.log = []
    assert run(server, with_policies(HTTPS, api))["changed"] is False and writes(server) == []


def test_a_policy_left_out_is_deleted_a_new_one_created_at_its_place(server):
    created(server)
    reject = {"name": "block-admin", "action": "REJECT", "rules": [{"type": "PATH", "compare_type": "STARTS_WITH", "value": "/admin"}]}
    result = run(server, with_policies(reject, API))
    assert [method for method, _path, _body in writes(server)] == ["DELETE", "POST", "POST"]
    assert policies(result) == [("block-admin", 1, [("PATH", "STARTS_WITH", "/admin")]), ("api", 2, [("PATH", "STARTS_WITH", "/api")])]
    assert result["changes"]["l7policies"] == {"created": ["web/block-admin"], "updated": [], "deleted": ["web/to-https"]}


def test_policies_left_out_are_not_managed_and_an_empty_list_deletes_them(server):
    created(server)
    result = run(server, dict(LB, listeners=[dict(WEB, l7policies=None), API_POOL]))
    assert result["changed"] is False and writes(server) == []
    result = run(server, with_policies())
    assert [method for method, _path, _body in writes(server)] == ["DELETE", "DELETE"] and policies(result) == []


def test_a_policy_on_a_listener_created_in_the_run_names_its_id(server):
    created(server, dict(LB, listeners=[dict(WEB, l7policies=None), API_POOL]))
    extra = {"name": "alt", "protocol": "HTTP", "protocol_port": 81, "l7policies": [dict(API, name="alt-api")]}
    result = run(server, dict(LB, listeners=[dict(WEB, l7policies=None), API_POOL, extra]))
    assert result["changed"] is True and not result.get("failed"), result
    assert policies(result, "alt") == [("alt-api", 1, [("PATH", "STARTS_WITH", "/api")])]


BAD = [
    ("a TCP listener", dict(LB, listeners=[dict(WEB, protocol="TCP", pool=dict(WEB["pool"], protocol="TCP")), API_POOL]),
     "listeners[0].l7policies: listener 'web' is TCP: only HTTP and TERMINATED_HTTPS listeners take L7 policies"),
    ("an unknown pool", with_policies(dict(API, redirect_pool="nope")), "listeners[0].l7policies[0].redirect_pool: no pool named 'nope'"),
    ("a URL redirect without its URL", with_policies({"name": "xyz", "action": "REDIRECT_TO_URL"}),
     "listeners[0].l7policies[0].redirect_url: required with action REDIRECT_TO_URL"),
    ("another action's member", with_policies(dict(HTTPS, redirect_url="https://a.example.com")),
     "listeners[0].l7policies[0].redirect_url: not accepted with action REDIRECT_PREFIX"),
    ("a name twice", with_policies(API, dict(HTTPS, name="api")), "listeners[0].l7policies: each L7 policy must have its own name"),
    ("a bad compare_type", with_policies(dict(API, rules=[{"type": "PATH", "compare_type": "LIKE", "value": "/"}])), "compare_type must be one of"),
    ("a header rule without key", with_policies(dict(API, rules=[{"type": "HEADER", "compare_type": "EQUAL_TO", "value": "x"}])),
     "listeners[0].l7policies[0].rules[0].key: required with type HEADER"),
    ("a file type compared by prefix", with_policies(dict(API, rules=[{"type": "FILE_TYPE", "compare_type": "STARTS_WITH", "value": "jp"}])),
     "rules[0].compare_type: a FILE_TYPE rule compares with EQUAL_TO or REGEX only"),
    ("a rule twice", with_policies(dict(API, rules=API["rules"] * 2)), "listeners[0].l7policies[0].rules[1]: the same rule as"),
    ("a code without a redirect", with_policies(dict(API, redirect_http_code=301)), "redirect_http_code: only with action REDIRECT_TO_URL"),
    ("a URL without a host", with_policies(dict(HTTPS, redirect_prefix="/https")), "redirect_prefix: '/https' is not an http:// or https:// URL"),
]


@pytest.mark.parametrize("args, message", [case[1:] for case in BAD], ids=[case[0] for case in BAD])
def test_bad_input_is_refused_before_any_write(server, args, message):
    result = run(server, copy.deepcopy(args))
    assert result.get("failed") and message in result["msg"], result.get("msg")
    assert writes(server) == []


def test_a_listener_taking_the_port_of_one_deleted_says_in_the_diff_that_a_failure_between_leaves_neither(server):
    created(server)
    moved = dict(WEB, name="web-2", l7policies=None)
    result = run(server, dict(LB, listeners=[moved, API_POOL]), _ansible_check_mode=True, _ansible_diff=True)
    note = result["diff"]["after"]["listeners"]["web-2"]["note"]
    assert "listener 'web' holds port 80 and is deleted first" in note and "leaves neither" in note and writes(server) == []


def test_with_purge_listeners_false_a_policy_may_name_the_pool_of_a_listener_left_undeclared(server):
    created(server, dict(LB, listeners=[dict(WEB, l7policies=None), API_POOL]))
    kept = dict(LB, purge_listeners=False, listeners=[dict(WEB, l7policies=[API])])
    result = run(server, kept)
    assert result["changed"] is True and not result.get("failed") and policies(result)[0][0] == "api", result.get("msg")
    server.log = []
    result = run(server, dict(kept, listeners=[dict(WEB, l7policies=[dict(API, redirect_pool="gone-pool")])]))
    assert result.get("failed") and "listeners[0].l7policies[0].redirect_pool: no pool named 'gone-pool'" in result["msg"], result["msg"]
    assert writes(server) == []


def test_a_rule_with_a_key_is_replaced_by_a_create_before_the_delete(server):
    header = dict(API, rules=[{"type": "HEADER", "compare_type": "EQUAL_TO", "key": "X-Api", "value": "v2"}])
    created(server, with_policies(header))
    result = run(server, with_policies(API))
    assert [(method, path.rsplit("/", 2)[-2] if method == "DELETE" else path.rsplit("/", 1)[-1]) for method, path, _body in writes(server)] == [
        ("POST", "rules"), ("DELETE", "rules")]
    assert policies(result) == [("api", 1, [("PATH", "STARTS_WITH", "/api")])]
    assert result["changes"]["l7policies"] == {"created": [], "updated": ["web/api"], "deleted": []}
