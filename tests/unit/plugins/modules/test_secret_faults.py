# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault matrix of the secret writes (create, delete) and of a certificate rotation (the load balancer's listener
PATCH that points a TERMINATED_HTTPS listener at another secret): for each write and each fault kind (a 500 after the
service applied it, a connection dropped after it applied it, a 400 or 403 rejection that applied nothing), the run
reports the truth (``changed``), sends no write twice (no duplicate secret), warns once when it found an ambiguous
write applied, and a re-run converges with no write left. Generated from the plans below (``harness.fault_cases``).

The modules run in-process (their ``main``) against the real simulator over HTTP (the ``server`` fixture)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from ansible_collections.gcore.platform.plugins.modules import load_balancer, secret
from simulator.resources.secrets import SEEDED

import harness
import pem

SECRETS = "/cloud/v1/secrets/1/76"
BASE = dict(project_id=1, region_id=76)
PAYLOAD = pem.payload()  # a certificate made now (checked before it is uploaded)
FAULTS = {
    "500 after applying": (dict(status=500, applied=True), True),
    "dropped after applying": (dict(drop=True, applied=True), True),
    "rejected 400": (dict(status=400, body="injected rejection"), False),
    "rejected 403": (dict(status=403, body="injected rejection"), False),
}
HTTPS = {"name": "https", "protocol": "TERMINATED_HTTPS", "protocol_port": 443}


def seed_secret(sim, name="fault-cert"):
    sim.call("POST", "/cloud/v2/secrets/1/76", {"name": name, "payload": PAYLOAD})


def seed_tls_lb(sim):
    seed_secret(sim, "fault-cert-new")
    sim.call("POST", "/cloud/v1/loadbalancers/1/76", {"name": "fault-tls-lb", "listeners": [
        dict(HTTPS, secret_id=SEEDED["seed_cert"])]})


PLANS = {
    "secret create": dict(module=secret, seed=None, args=dict(PAYLOAD, name="fault-cert", expiration="2027-01-31T23:59:59Z"),
                          writes=[("POST", "^/cloud/v2/secrets/1/76$")]),
    "secret delete": dict(module=secret, seed=seed_secret, args={"name": "fault-cert", "state": "absent"},
                          writes=[("DELETE", "^%s/[^/]+$" % SECRETS)]),
    "listener rotation": dict(module=load_balancer, seed=seed_tls_lb,
                              args={"name": "fault-tls-lb", "listeners": [dict(HTTPS, secret="fault-cert-new")]},
                              writes=[("PATCH", "^/cloud/v2/lblisteners/1/76/[^/]+$")]),
}


def run(server, module, args):
    return harness.run(server, module, dict(BASE, **args), api_retries=1, _ansible_diff=True)


def writes(server):
    return [(entry["method"], entry["path"], entry["body"]) for entry in server.writes()]


def test_every_secret_write_is_in_the_matrix():
    assert {plan: [method for method, _path in spec["writes"]] for plan, spec in PLANS.items()} == {
        "secret create": ["POST"], "secret delete": ["DELETE"], "listener rotation": ["PATCH"]}


def prepare(server, plan):
    """The simulator as the plan starts from (the log empty); returns the plan."""
    spec = PLANS[plan]
    server.reset()
    server.configure(task_delay=0)
    if spec["seed"]:
        spec["seed"](server)
        server.release()
    server.log = []
    return spec


@pytest.mark.parametrize("plan, position, kind", list(harness.task_fault_cases(PLANS, found=("listener rotation",))))
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    spec = prepare(server, plan)
    harness.check_task_fault(server, lambda **extra: run(server, spec["module"], dict(spec["args"], **extra)), spec["writes"], position, kind)


@pytest.mark.parametrize("plan, position, fault", list(harness.fault_cases(PLANS, FAULTS)))
def test_a_fault_at_any_secret_write_reports_the_truth_sends_nothing_twice_and_the_rerun_converges(server, plan, position, fault):
    spec = prepare(server, plan)
    method, path = spec["writes"][position]
    extra, applied = FAULTS[fault]
    server.add_fault(method=method, path=path, **extra)
    result = run(server, spec["module"], spec["args"])
    sent = writes(server)
    assert [count for count in Counter(sent).values() if count > 1] == [], "a write was sent twice: %s" % sent
    assert len(sent) == (len(spec["writes"]) if applied else position + 1), sent
    for (expected_method, pattern), (sent_method, sent_path, _body) in zip(spec["writes"], sent):
        assert expected_method == sent_method and re.search(pattern, sent_path), "plan order: %s" % sent
    if applied:
        assert not result.get("failed"), result["msg"]
        assert result["changed"] is True
        texts = harness.warning_texts(result)
        assert len(texts) == 1 and "shows the change was applied, so it was not sent again" in texts[0], texts
    else:
        assert result["failed"] is True and "injected rejection" in result["msg"], result
        assert result["changed"] is (position > 0), "changed means applied"
        assert not result.get("warnings"), result["warnings"]
    named = [record for record in server.secrets.values() if record["name"] == "fault-cert"]
    assert len(named) == {"secret create": int(applied), "secret delete": int(not applied), "listener rotation": 0}[plan], named
    if plan == "listener rotation" and applied:
        held = [record["secret_id"] for record in server.lb_listeners.values() if record["name"] == "https"]
        assert held == [next(ident for ident, record in server.secrets.items() if record["name"] == "fault-cert-new")]
    server.log = []
    again = run(server, spec["module"], spec["args"])
    assert not again.get("failed"), again.get("msg")
    assert not again.get("warnings"), again["warnings"]
    assert again["changed"] is (not applied)
    assert len(writes(server)) == (0 if applied else len(spec["writes"]) - position)
    server.log = []
    third = run(server, spec["module"], spec["args"])
    assert third["changed"] is False and writes(server) == []
    assert len([record for record in server.secrets.values() if record["name"] == "fault-cert"]) == (plan == "secret create")


@pytest.mark.parametrize("plan", ["secret create", "secret delete"])
@pytest.mark.parametrize("fault", ["500 after applying", "dropped after applying"])
def test_a_write_whose_answer_was_lost_while_its_task_runs_is_settled_by_the_task_never_sent_twice(server, plan, fault):
    """A secret's record appears (or goes) only when its task finishes: one listing right after a lost answer cannot
    tell; the task can."""
    spec = prepare(server, plan)
    server.configure(task_delay=1)
    method, path = spec["writes"][0]
    server.add_fault(method=method, path=path, **FAULTS[fault][0])
    result = run(server, spec["module"], spec["args"])
    assert not result.get("failed"), result["msg"]
    assert result["changed"] is True and len(writes(server)) == 1, writes(server)
    assert "shows the change was applied" in " ".join(harness.warning_texts(result))
    assert len([record for record in server.secrets.values() if record["name"] == "fault-cert"]) == (plan == "secret create")
    server.log = []
    again = run(server, spec["module"], spec["args"])
    assert again["changed"] is False and writes(server) == []


@pytest.mark.parametrize("check", [False, True])
def test_a_secret_a_listener_uses_is_not_deleted_and_the_listener_is_named(server, check):
    prepare(server, "listener rotation")
    result = harness.run(server, secret, dict(BASE, name="seed-cert", state="absent"), _ansible_check_mode=check)
    assert result["failed"] is True and result["changed"] is False, result
    assert "listener https" in result["msg"] and "nothing was sent" in result["msg"], result["msg"]
    assert writes(server) == [] and SEEDED["seed_cert"] in server.secrets


def test_a_409_on_a_secret_delete_is_not_waited_for_as_a_lock(server):
    spec = prepare(server, "secret delete")
    server.add_fault(method="DELETE", path=spec["writes"][0][1], status=409, body="Secret is in use", times=5)
    result = run(server, secret, spec["args"])
    assert result["failed"] is True and result["changed"] is False and "in use" in result["msg"], result
    assert len(writes(server)) == 1, writes(server)
