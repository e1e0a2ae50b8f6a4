# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault matrix of snapshot_schedule's writes: the create and the volumes added after it, the PATCH (name and
status), the schedules added and removed, the volumes added and removed, and the delete. For each write and each fault
kind (a 500 after the service applied the write, a connection dropped after it applied it, a 400 or 403 rejection that
applied nothing), the run reports the truth (``changed``, the ``changes`` accepted), sends no write twice and makes no
second policy, and a re-run converges with no write left. Every call of this API answers at once: no write starts a
task, so the task fault kinds (a task in ERROR, a lock it leaves) have no row here. Generated from the plans below.

The module runs in-process (its ``main``) against the real simulator over HTTP (the ``server`` fixture)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from ansible_collections.gcore.platform.plugins.modules import snapshot_schedule

import harness

POLICIES = "/cloud/v1/lifecycle_policy/1/76"
ITEM = "^%s/[0-9]+" % POLICIES
BASE = dict(project_id=1, region_id=76)
NIGHTLY = {"type": "cron", "hour": "2", "max_quantity": 7}

FAULTS = {
    "500 after applying": (dict(status=500, applied=True), True),
    "dropped after applying": (dict(drop=True, applied=True), True),
    "rejected 400": (dict(status=400, body="injected rejection"), False),
    "rejected 403": (dict(status=403, body="injected rejection"), False),
}


def seed(server):
    result = run(server, {"name": "fault-policy", "schedules": [NIGHTLY], "volumes": ["data-1"]})
    assert result["changed"] is True, result.get("msg")


PLANS = {
    "create": dict(seed=None, args={"name": "fault-policy", "schedules": [NIGHTLY], "volumes": ["data-1"]},
                   writes=[("POST", "^%s$" % POLICIES), ("PUT", ITEM + "/add_volumes_to_policy$")]),
    "update": dict(seed=seed, args={"name": "fault-policy", "status": "paused", "schedules": [dict(NIGHTLY, hour="3")],
                                    "volumes": ["attached-1"]},
                   writes=[("PATCH", ITEM + "$"), ("POST", ITEM + "/add_schedules$"), ("POST", ITEM + "/remove_schedules$"),
                           ("PUT", ITEM + "/add_volumes_to_policy$"), ("PUT", ITEM + "/remove_volumes_from_policy$")]),
    "delete": dict(seed=seed, args={"name": "fault-policy", "state": "absent"}, writes=[("DELETE", ITEM + "$")]),
}


def run(server, args):
    return harness.run(server, snapshot_schedule, dict(BASE, **args), api_retries=1, _ansible_diff=True)


def writes(server):
    return [(entry["method"], entry["path"], entry["body"]) for entry in server.writes()]


@pytest.mark.parametrize("plan, position, fault", list(harness.fault_cases(PLANS, FAULTS)))
def test_a_fault_at_any_snapshot_schedule_write_reports_the_truth_and_the_rerun_converges(server, plan, position, fault):
    spec = PLANS[plan]
    if spec["seed"]:
        spec["seed"](server)
    server.log = []
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
        said = result["changes"]
        told = [said[key] for key in ("created", "updated", "deleted")] + list(said["schedules"].values()) + list(said["volumes"].values())
        assert any(told) is (position > 0), "changes say what was accepted: %s" % said
    names = [policy["name"] for policy in server.call("GET", POLICIES)[1]["results"]]
    assert names.count("fault-policy") <= 1, "no second policy: %s" % names
    server.log = []
    again = run(server, spec["args"])
    assert not again.get("failed"), again.get("msg")
    assert again["changed"] is (not applied)
    assert len(writes(server)) == (0 if applied else len(spec["writes"]) - position)
    server.log = []
    third = run(server, spec["args"])
    assert third["changed"] is False and writes(server) == []
