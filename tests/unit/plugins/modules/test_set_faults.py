# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault matrix of every set: for each write position of a plan (create, PATCH, bulk delete, attach, detach)
and each fault kind (a 500 after the service applied the write, a connection dropped after it applied it, a clear
rejection that applied nothing), the run reports the truth (``changed``, ``changes``), sends no write twice, and a
re-run converges with no write left. The cases are generated from the plans below, not written by hand.

The modules run in-process (their ``main``) against the real simulator over HTTP (the ``server`` fixture)."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from ansible_collections.gcore.platform.plugins.modules import (
    router,
    waap_advanced_rules,
    waap_custom_rules,
    waap_domain,
    waap_firewall_rules,
    waap_policies,
    waap_policy_overrides,
)

import harness

DOMAIN = 1006  # the simulator's domain without rules
ROUTER = "e1a7c0de-0000-4000-8000-000000000001"  # legacy-router, attached to subnet ...b01
S1, S2 = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01", "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b02"
ROUTERS = "/cloud/v1/routers/1/76/%s" % ROUTER

# A fault kind: the fault added for the write, whether the service applies the write, and whether the run fails.
FAULTS = {
    "500 after applying": (dict(status=500, applied=True), True),
    "dropped after applying": (dict(drop=True, applied=True), True),
    "rejected": (dict(status=403), False),
}


def rule(name, ip):
    return {"name": name, "enabled": True, "action": {"block": {}}, "conditions": [{"ip": {"ip_address": ip}}]}


def custom(name, extension):
    return {"name": name, "enabled": True, "action": {"block": {}}, "conditions": [{"file_extension": {"file_extension": [extension]}}]}


def advanced(name, method):
    return {"name": name, "enabled": True, "action": {"block": {}}, "phase": "access", "source": "request.method == '%s'" % method}


def override(name, url, targets=(861,)):
    return {"name": name, "enabled": True, "target_type": "detector", "targets": list(targets), "conditions": [{"url": {"url": url}}]}


def seed_overrides(sim):
    def record(ident, name, url, targets=(861,)):
        return dict(override(name, url), id=ident, domain_id=DOMAIN, stale=False, description=None,
                    targets=[{"id": 900000 + t, "ref": "ID%d" % t, "snapshot": {"name": "d"}, "detector_id": t, "rule_id": None} for t in targets],
                    conditions=[{"url": {"url": url, "match_type": "Contains", "negation": False}}])
    sim.policy_overrides[DOMAIN] = [record(1, "old", "/a"), record(2, "keep", "/b"), record(3, "swap", "/c")]


def seed_firewall(sim):
    sim.firewall_rules = [r for r in sim.firewall_rules if r["domain"]["id"] != DOMAIN] + [
        dict(rule("old", "192.0.2.1"), id=90001, domain={"id": DOMAIN}), dict(rule("keep", "192.0.2.9"), id=90002, domain={"id": DOMAIN})]


# A plan: the module, its arguments, how to seed the simulator, the writes in the order they are sent
# (kind, method, path regex, the names ``changes`` reports for it) and the result member holding ``changes``.
PLANS = {
    "waap_custom_rules": dict(
        module=waap_custom_rules.WaapCustomRules,
        seed=lambda sim: sim.custom_rules.__setitem__(DOMAIN, [dict(custom("old", "exe"), id=1), dict(custom("keep", "pdf"), id=2)]),
        args={"domain_id": DOMAIN, "state": "overridden", "config": [custom("keep", "doc"), custom("new", "zip")]},
        writes=[("deleted", "POST", r"/custom-rules/bulk_delete$", "old"), ("updated", "PATCH", r"/custom-rules/2$", "keep"),
                ("created", "POST", r"/custom-rules$", "new")]),
    "waap_firewall_rules": dict(
        module=waap_firewall_rules.WaapFirewallRules,
        seed=seed_firewall,
        args={"domain_id": DOMAIN, "state": "overridden", "config": [rule("keep", "192.0.2.2"), rule("new", "192.0.2.3")]},
        writes=[("deleted", "POST", r"/firewall-rules/bulk_delete$", "old"), ("updated", "PATCH", r"/firewall-rules/\d+$", "keep"),
                ("created", "POST", r"/firewall-rules$", "new")]),
    "waap_advanced_rules": dict(
        module=waap_advanced_rules.WaapAdvancedRules,
        seed=lambda sim: sim.advanced_rules.__setitem__(DOMAIN, [dict(advanced("old", "GET"), id=1), dict(advanced("keep", "PUT"), id=2)]),
        args={"domain_id": DOMAIN, "state": "overridden", "config": [advanced("keep", "POST"), advanced("new", "DELETE")]},
        writes=[("deleted", "DELETE", r"/advanced-rules/1$", "old"), ("updated", "PATCH", r"/waap/v2/domains/\d+/advanced-rules/2$", "keep"),
                ("created", "POST", r"/advanced-rules$", "new")]),
    "waap_policy_overrides": dict(
        module=waap_policy_overrides.WaapPolicyOverrides,
        seed=seed_overrides,
        args={"domain_id": DOMAIN, "state": "overridden",
              "config": [override("keep", "/b2"), override("new", "/d"), override("swap", "/c", targets=(861, 862))]},
        changes=("created", "updated", "deleted", "replaced"),
        writes=[("deleted", "DELETE", r"/default-rule-overrides/1$", "old"), ("updated", "PATCH", r"/default-rule-overrides/2$", "keep"),
                ("created", "POST", r"/default-rule-overrides$", "new"), ("replaced", "POST", r"/default-rule-overrides$", "swap"),
                ("replaced", "DELETE", r"/default-rule-overrides/3$", "swap")]),  # replaced create first
    "waap_policies": dict(
        module=waap_policies.WaapPolicies,
        seed=lambda sim: None,
        args={"domain_id": 1003, "policies": [{"id": "S55075103", "enabled": True}, {"id": "S55075104", "enabled": False}]},
        changes=("enabled", "disabled"),
        writes=[("enabled", "PATCH", r"/waap/v2/domains/1003/policies/S55075103$", "OWASP Top Threats / Path traversal"),
                ("disabled", "PATCH", r"/waap/v2/domains/1003/policies/S55075104$", "Bot Protection / Traffic via TOR network")]),
    "waap_domain": dict(
        module=waap_domain.WaapDomain,
        seed=lambda sim: None,
        args={"domain_id": 1003, "status": "active", "ddos_burst_threshold": 1500},
        changes=("updated",),
        writes=[("updated", "PATCH", r"/waap/v2/domains/1003$", "status"),
                ("updated", "PATCH", r"/waap/v2/domains/1003/settings$", "ddos_burst_threshold")]),
    "router interfaces": dict(
        module=router.Router,
        seed=lambda sim: None,
        args={"id": ROUTER, "project_id": 1, "region_id": 76, "interfaces": [{"subnet_id": S2}]},
        writes=[("attached", "POST", ROUTERS + "/attach$", S2), ("detached", "POST", ROUTERS + "/detach$", S1)]),
    "router interface moved": dict(
        module=router.Router,
        seed=lambda sim: None,
        args={"id": ROUTER, "project_id": 1, "region_id": 76,
              "interfaces": [{"subnet_id": S1, "ip_address": "192.168.10.77"}, {"subnet_id": S2}]},
        writes=[("attached", "POST", ROUTERS + "/attach$", S2), ("detached", "POST", ROUTERS + "/detach$", S1),
                ("attached", "POST", ROUTERS + "/attach$", S1)]),
}


def run(server, module, args):
    return harness.run(server, module, args, api_retries=1, _ansible_diff=True)


def writes(server):
    """Bodies as sent (text, not parsed like harness.writes): the writes are counted, so they must be hashable."""
    return [(entry["method"], entry["path"], entry["body"]) for entry in server.writes()]


@pytest.mark.parametrize("plan, position, fault", list(harness.fault_cases(PLANS, FAULTS)))
def test_a_fault_at_any_write_reports_the_truth_sends_nothing_twice_and_the_rerun_converges(server, plan, position, fault):
    spec = PLANS[plan]
    server.reset()
    spec["seed"](server)
    kind, method, path, name = spec["writes"][position]
    extra, applied = FAULTS[fault]
    earlier = [w for w in spec["writes"][:position] if (w[1], w[2]) == (method, path)]
    for _write in earlier:  # the same request earlier in the plan: let it through (a tiny delay), fault the one at position
        server.add_fault(method=method, path=path, delay=0.001)
    server.add_fault(method=method, path=path, **extra)
    result = run(server, spec["module"], spec["args"])
    sent = writes(server)
    assert [count for count in Counter(sent).values() if count > 1] == [], "a write was sent twice: %s" % sent
    expected = [(m, p) for _k, m, p, _n in spec["writes"]]
    assert len(sent) == (len(expected) if applied else position + 1), sent
    for (m, pattern), (sent_method, sent_path, _body) in zip(expected, sent):
        assert m == sent_method and re.search(pattern, sent_path), "plan order: %s" % sent
    done = spec["writes"] if applied else spec["writes"][:position]
    if applied:
        assert not result.get("failed"), result["msg"]
        assert result["changed"] is True
        assert "shows the change was applied, so it was not sent again" in json.dumps(result.get("warnings")), result
    else:
        assert result["failed"] is True and "HTTP 403" in result["msg"]
        assert result["changed"] is (position > 0), "changed means sent"
        assert "could not be confirmed" not in result["msg"], "a clear rejection is not unconfirmed"
    if not plan.startswith("router"):
        changes = result["changes"]
        # a name is replaced once both its writes took effect; a replacement's delete alone is a delete, its create alone a create
        whole = set(n for k, _m, _p, n in done if k == "replaced" and _m == "POST") & set(n for k, _m, _p, n in done if k == "replaced" and _m == "DELETE")
        said = [({"POST": "created", "DELETE": "deleted"}[_m] if k == "replaced" and n not in whole else k, n) for k, _m, _p, n in done]
        for key in spec.get("changes", ("created", "updated", "deleted")):
            assert changes[key] == sorted(set(n for k, n in said if k == key)), (key, changes)
        if "deleted" in changes:  # a replacement's delete (an override whose targets changed) names its id too
            assert len(changes["deleted_ids"]) == len([w for w in done if w[0] == "deleted" or w[:2] == ("replaced", "DELETE")])
    # the re-run sends what is left (nothing after an applied fault), then a third run sends nothing
    server.log = []
    again = run(server, spec["module"], spec["args"])
    assert not again.get("failed"), again.get("msg")
    assert again["changed"] is (not applied)
    assert len(writes(server)) == (0 if applied else len(expected) - position)
    server.log = []
    third = run(server, spec["module"], spec["args"])
    assert third["changed"] is False and writes(server) == []
