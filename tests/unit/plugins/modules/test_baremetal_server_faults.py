# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault matrix of baremetal_server's writes: the create (and a new server stopped after it), the synchronous PATCH,
the power action, the rebuild and the delete. For each write and each fault kind (a 500 after the service applied the
write, a connection dropped after it applied it, a 400 or 403 rejection that applied nothing, a task that ends in ERROR,
a lock left by a failed task), the run reports the truth (``changed``), sends no write twice and makes no second server,
and a re-run converges with no write left. Generated from the plans below.

The module runs in-process (its ``main``) against the real simulator over HTTP (the ``server`` fixture)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from ansible_collections.gcore.platform.plugins.modules import baremetal_server

import harness

LIST = "/cloud/v1/bminstances/1/76"
ONE = "^%s/[^/]+$" % LIST
BASE = dict(project_id=1, region_id=76)
SERVER = dict(name="fault-bm", flavor="bm1-basic-small", image="ubuntu-22.04-x64", interfaces=[{"type": "external"}], tags={"env": "dev"})

FAULTS = {
    "500 after applying": (dict(status=500, applied=True), True),
    "dropped after applying": (dict(drop=True, applied=True), True),
    "rejected 400": (dict(status=400, body="injected rejection"), False),
    "rejected 403": (dict(status=403, body="injected rejection"), False),
}


def seed(server):
    harness.run(server, baremetal_server, dict(BASE, **SERVER))


PLANS = {
    "create": dict(seed=None, args=SERVER, writes=[("POST", "^%s$" % LIST)]),
    "create stopped": dict(seed=None, args=dict(SERVER, state="stopped"),
                           writes=[("POST", "^%s$" % LIST), ("POST", "^/cloud/v2/baremetal/1/76/[^/]+/action$")]),
    "tags": dict(seed=seed, args=dict(SERVER, tags={"env": "prod"}), writes=[("PATCH", ONE)]),
    "stop": dict(seed=seed, args=dict(SERVER, state="stopped"), writes=[("POST", "^/cloud/v2/baremetal/1/76/[^/]+/action$")]),
    "rebuild": dict(seed=seed, args=dict(SERVER, image="debian-12-x64", allow_rebuild=True), writes=[("POST", "^%s/[^/]+/rebuild$" % LIST)]),
    "delete": dict(seed=seed, args=dict(SERVER, state="absent"), writes=[("DELETE", ONE)]),
}


def run(server, args):
    return harness.run(server, baremetal_server, dict(BASE, **args), api_retries=1, _ansible_diff=True)


def writes(server):
    return [(entry["method"], entry["path"], entry["body"]) for entry in server.writes()]


def prepare(server, plan):
    """The simulator as the plan starts from (the log empty); returns the plan."""
    spec = PLANS[plan]
    if spec["seed"]:
        spec["seed"](server)
        server.release()
    server.log = []
    return spec


@pytest.mark.parametrize("plan, position, kind", list(harness.task_fault_cases(
    PLANS, found=("tags", "stop", "rebuild", "delete"), untasked=(("tags", 0),))))
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    spec = prepare(server, plan)
    harness.check_task_fault(server, lambda **extra: run(server, dict(spec["args"], **extra)), spec["writes"], position, kind)


@pytest.mark.parametrize("plan, position, fault", list(harness.fault_cases(PLANS, FAULTS)))
def test_a_fault_at_any_bare_metal_write_reports_the_truth_and_the_rerun_converges(server, plan, position, fault):
    spec = prepare(server, plan)
    method, path = spec["writes"][position]
    extra, applied = FAULTS[fault]
    server.add_fault(method=method, path=path, **extra)
    result = run(server, spec["args"])
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
    names = [record["name"] for record in server.call("GET", LIST)[1]["results"]]
    assert names.count("fault-bm") <= 1, "no second server: %s" % names
    server.log = []
    again = run(server, spec["args"])
    assert not again.get("failed"), again.get("msg")
    assert again["changed"] is (not applied)
    assert len(writes(server)) == (0 if applied else len(spec["writes"]) - position)
    server.log = []
    third = run(server, spec["args"])
    assert third["changed"] is False and writes(server) == []
