# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault matrix of the secret writes (create, delete) and of a certificate rotation (the load balancer's listener
PATCH that points a TERMINATED_HTTPS listener at another secret): for each write and each fault kind (a 500 after the
service applied it, a connection dropped after it applied it, a 400 or 403 rejection that applied nothing), the run
reports the truth (``changed``), sends no write twice (no duplicate secret), warns once when it found an ambiguous
write applied, and a re-run converges with no write left. Generated from the plans below (``harness.Matrix``).

The modules run in-process (their ``main``) against the real simulator over HTTP (the ``server`` fixture)."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.modules import load_balancer, secret
from simulator.resources.secrets import SEEDED

import harness
import pem

SECRETS = "/cloud/v1/secrets/1/76"
BASE = dict(project_id=1, region_id=76)
PAYLOAD = pem.payload()  # a certificate made now (checked before it is uploaded)
HTTPS = {"name": "https", "protocol": "TERMINATED_HTTPS", "protocol_port": 443}


def seed_secret(sim, name="fault-cert"):
    sim.call("POST", "/cloud/v2/secrets/1/76", {"name": name, "payload": PAYLOAD})


def seed_tls_lb(sim):
    seed_secret(sim, "fault-cert-new")
    sim.call("POST", "/cloud/v1/loadbalancers/1/76", {"name": "fault-tls-lb", "listeners": [
        dict(HTTPS, secret_id=SEEDED["seed_cert"])]})


PLANS = {
    "secret create": dict(module=secret, args=dict(PAYLOAD, name="fault-cert", expiration="2027-01-31T23:59:59Z"),
                          writes=[("POST", "^/cloud/v2/secrets/1/76$")]),
    "secret delete": dict(module=secret, seed=seed_secret, args={"name": "fault-cert", "state": "absent"},
                          writes=[("DELETE", "^%s/[^/]+$" % SECRETS)]),
    "listener rotation": dict(module=load_balancer, seed=seed_tls_lb,
                              args={"name": "fault-tls-lb", "listeners": [dict(HTTPS, secret="fault-cert-new")]},
                              writes=[("PATCH", "^/cloud/v2/lblisteners/1/76/[^/]+$")]),
}


def writes(server):
    return [(entry["method"], entry["path"], entry["body"]) for entry in server.writes()]


def named(server):
    return [record for record in server.secrets.values() if record["name"] == "fault-cert"]


def no_second_secret(server, row, result, stage):
    """The secret is there exactly when the plan's write took effect; a rotation points the listener at the new one."""
    if stage == "first":
        assert len(named(server)) == {"secret create": int(row.applied), "secret delete": int(not row.applied), "listener rotation": 0}[row.plan]
        if row.plan == "listener rotation" and row.applied:
            held = [record["secret_id"] for record in server.lb_listeners.values() if record["name"] == "https"]
            assert held == [next(ident for ident, record in server.secrets.items() if record["name"] == "fault-cert-new")]
    elif stage == "third":
        assert len(named(server)) == (row.plan == "secret create")


MATRIX = harness.Matrix(PLANS, base=BASE, found=("listener rotation",), check=no_second_secret)


def test_every_secret_write_is_in_the_matrix():
    assert {plan: [method for method, _path in spec["writes"]] for plan, spec in PLANS.items()} == {
        "secret create": ["POST"], "secret delete": ["DELETE"], "listener rotation": ["PATCH"]}


@pytest.mark.parametrize("plan, position, kind", MATRIX.task_cases())
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    MATRIX.check_task_fault(server, plan, position, kind)


@pytest.mark.parametrize("plan, position, fault", MATRIX.cases())
def test_a_fault_at_any_secret_write_reports_the_truth_sends_nothing_twice_and_the_rerun_converges(server, plan, position, fault):
    MATRIX.check_fault(server, plan, position, fault)


@pytest.mark.parametrize("plan", ["secret create", "secret delete"])
@pytest.mark.parametrize("fault", ["500 after applying", "dropped after applying"])
def test_a_write_whose_answer_was_lost_while_its_task_runs_is_settled_by_the_task_never_sent_twice(server, plan, fault):
    """A secret's record appears (or goes) only when its task finishes: one listing right after a lost answer cannot
    tell; the task can."""
    row = MATRIX.prepare(server, plan, 0)
    server.configure(task_delay=1)
    MATRIX.fault(server, row, **harness.FAULTS[fault][0])
    result = MATRIX.run(server, row)
    assert not result.get("failed"), result["msg"]
    assert result["changed"] is True and len(writes(server)) == 1, writes(server)
    assert "shows the change was applied" in " ".join(harness.warning_texts(result))
    assert len(named(server)) == (plan == "secret create")
    server.log = []
    again = MATRIX.run(server, row)
    assert again["changed"] is False and writes(server) == []


@pytest.mark.parametrize("check", [False, True])
def test_a_secret_a_listener_uses_is_not_deleted_and_the_listener_is_named(server, check):
    MATRIX.prepare(server, "listener rotation")
    result = harness.run(server, secret, dict(BASE, name="seed-cert", state="absent"), _ansible_check_mode=check)
    assert result["failed"] is True and result["changed"] is False, result
    assert "listener https" in result["msg"] and "nothing was sent" in result["msg"], result["msg"]
    assert writes(server) == [] and SEEDED["seed_cert"] in server.secrets


def test_a_409_on_a_secret_delete_is_not_waited_for_as_a_lock(server):
    row = MATRIX.prepare(server, "secret delete", 0)
    MATRIX.fault(server, row, status=409, body="Secret is in use", times=5)
    result = MATRIX.run(server, row)
    assert result["failed"] is True and result["changed"] is False and "in use" in result["msg"], result
    assert len(writes(server)) == 1, writes(server)
