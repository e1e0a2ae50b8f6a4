# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault matrix of every set: for each write position of a plan (create, PATCH, bulk delete, attach, detach)
and each fault kind (a 500 after the service applied the write, a connection dropped after it applied it, a clear
rejection that applied nothing), the run reports the truth (``changed``, ``changes``), sends no write twice, and a
re-run converges with no write left. The cases are generated from the plans below, not written by hand.

The modules run in-process (their ``main``) against the real simulator over HTTP (the ``server`` fixture)."""

from __future__ import annotations

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
# (method, path regex, kind, the name ``changes`` reports for it under the kind) and the kinds of ``changes`` to check.
PLANS = {
    "waap_custom_rules": dict(
        module=waap_custom_rules.WaapCustomRules,
        seed=lambda sim: sim.custom_rules.__setitem__(DOMAIN, [dict(custom("old", "exe"), id=1), dict(custom("keep", "pdf"), id=2)]),
        args={"domain_id": DOMAIN, "state": "overridden", "config": [custom("keep", "doc"), custom("new", "zip")]},
        writes=[("POST", r"/custom-rules/bulk_delete$", "deleted", "old"), ("PATCH", r"/custom-rules/2$", "updated", "keep"),
                ("POST", r"/custom-rules$", "created", "new")]),
    "waap_firewall_rules": dict(
        module=waap_firewall_rules.WaapFirewallRules,
        seed=seed_firewall,
        args={"domain_id": DOMAIN, "state": "overridden", "config": [rule("keep", "192.0.2.2"), rule("new", "192.0.2.3")]},
        writes=[("POST", r"/firewall-rules/bulk_delete$", "deleted", "old"), ("PATCH", r"/firewall-rules/\d+$", "updated", "keep"),
                ("POST", r"/firewall-rules$", "created", "new")]),
    "waap_advanced_rules": dict(
        module=waap_advanced_rules.WaapAdvancedRules,
        seed=lambda sim: sim.advanced_rules.__setitem__(DOMAIN, [dict(advanced("old", "GET"), id=1), dict(advanced("keep", "PUT"), id=2)]),
        args={"domain_id": DOMAIN, "state": "overridden", "config": [advanced("keep", "POST"), advanced("new", "DELETE")]},
        writes=[("DELETE", r"/advanced-rules/1$", "deleted", "old"), ("PATCH", r"/waap/v2/domains/\d+/advanced-rules/2$", "updated", "keep"),
                ("POST", r"/advanced-rules$", "created", "new")]),
    "waap_policy_overrides": dict(
        module=waap_policy_overrides.WaapPolicyOverrides,
        seed=seed_overrides,
        args={"domain_id": DOMAIN, "state": "overridden",
              "config": [override("keep", "/b2"), override("new", "/d"), override("swap", "/c", targets=(861, 862))]},
        changes=("created", "updated", "deleted", "replaced"),
        writes=[("DELETE", r"/default-rule-overrides/1$", "deleted", "old"), ("PATCH", r"/default-rule-overrides/2$", "updated", "keep"),
                ("POST", r"/default-rule-overrides$", "created", "new"), ("POST", r"/default-rule-overrides$", "replaced", "swap"),
                ("DELETE", r"/default-rule-overrides/3$", "replaced", "swap")]),  # replaced create first
    "waap_policies": dict(
        module=waap_policies.WaapPolicies,
        args={"domain_id": 1003, "policies": [{"id": "S55075103", "enabled": True}, {"id": "S55075104", "enabled": False}]},
        changes=("enabled", "disabled"),
        writes=[("PATCH", r"/waap/v2/domains/1003/policies/S55075103$", "enabled", "OWASP Top Threats / Path traversal"),
                ("PATCH", r"/waap/v2/domains/1003/policies/S55075104$", "disabled", "Bot Protection / Traffic via TOR network")]),
    "waap_domain": dict(
        module=waap_domain.WaapDomain,
        args={"domain_id": 1003, "status": "active", "ddos_burst_threshold": 1500},
        changes=("updated",),
        writes=[("PATCH", r"/waap/v2/domains/1003$", "updated", "status"),
                ("PATCH", r"/waap/v2/domains/1003/settings$", "updated", "ddos_burst_threshold")]),
    "router interfaces": dict(
        module=router.Router,
        args={"id": ROUTER, "project_id": 1, "region_id": 76, "interfaces": [{"subnet_id": S2}]},
        writes=[("POST", ROUTERS + "/attach$", "attached", S2), ("POST", ROUTERS + "/detach$", "detached", S1)]),
    "router interface moved": dict(
        module=router.Router,
        args={"id": ROUTER, "project_id": 1, "region_id": 76,
              "interfaces": [{"subnet_id": S1, "ip_address": "192.168.10.77"}, {"subnet_id": S2}]},
        writes=[("POST", ROUTERS + "/attach$", "attached", S2), ("POST", ROUTERS + "/detach$", "detached", S1),
                ("POST", ROUTERS + "/attach$", "attached", S1)]),
}


def changes_are_what_was_accepted(server, row, result, stage):
    """``changes`` names what took effect: a name is replaced once both its writes did; a replacement's delete alone is a
    delete, its create alone a create. A rejection's message names the service's answer."""
    if stage != "first":
        return
    if row.applied is False:
        assert "HTTP 403" in result["msg"], result["msg"]
    if row.plan.startswith("router"):
        return
    done = row.spec["writes"] if row.applied else row.spec["writes"][:row.position]
    whole = set(n for m, _p, k, n in done if k == "replaced" and m == "POST") & set(n for m, _p, k, n in done if k == "replaced" and m == "DELETE")
    said = [({"POST": "created", "DELETE": "deleted"}[m] if k == "replaced" and n not in whole else k, n) for m, _p, k, n in done]
    changes = result["changes"]
    for key in row.spec.get("changes", ("created", "updated", "deleted")):
        assert changes[key] == sorted(set(n for k, n in said if k == key)), (key, changes)
    if "deleted" in changes:  # a replacement's delete (an override whose targets changed) names its id too
        assert len(changes["deleted_ids"]) == len([w for w in done if w[2] == "deleted" or (w[2], w[0]) == ("replaced", "DELETE")])


# One rejection kind: a 403.
MATRIX = harness.Matrix(PLANS, faults=("500 after applying", "dropped after applying", "rejected 403"), check=changes_are_what_was_accepted)


@pytest.mark.parametrize("plan, position, fault", MATRIX.cases())
def test_a_fault_at_any_write_reports_the_truth_sends_nothing_twice_and_the_rerun_converges(server, plan, position, fault):
    MATRIX.check_fault(server, plan, position, fault)
