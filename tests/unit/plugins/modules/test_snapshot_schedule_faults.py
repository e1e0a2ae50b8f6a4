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

import pytest

from ansible_collections.gcore.platform.plugins.modules import snapshot_schedule

import harness

POLICIES = "/cloud/v1/lifecycle_policy/1/76"
ITEM = "^%s/[0-9]+" % POLICIES
BASE = dict(project_id=1, region_id=76)
NIGHTLY = {"type": "cron", "hour": "2", "max_quantity": 7}


def seed(server):
    result = harness.run(server, snapshot_schedule, dict(BASE, name="fault-policy", schedules=[NIGHTLY], volumes=["data-1"]))
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


def one_policy(server, row):
    names = [policy["name"] for policy in server.call("GET", POLICIES)[1]["results"]]
    assert names.count("fault-policy") <= 1, "no second policy: %s" % names


def changes_are_what_was_accepted(server, row, result, stage):
    if stage == "first" and row.applied is False:
        said = result["changes"]
        told = [said[key] for key in ("created", "updated", "deleted")] + list(said["schedules"].values()) + list(said["volumes"].values())
        assert any(told) is (row.position > 0), "changes say what was accepted: %s" % said


MATRIX = harness.Matrix(PLANS, module=snapshot_schedule, base=BASE, unique=one_policy, check=changes_are_what_was_accepted)


@pytest.mark.parametrize("plan, position, fault", MATRIX.cases())
def test_a_fault_at_any_snapshot_schedule_write_reports_the_truth_and_the_rerun_converges(server, plan, position, fault):
    MATRIX.check_fault(server, plan, position, fault)
