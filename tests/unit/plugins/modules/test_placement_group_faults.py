# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault matrix of the placement group writes: the group's create (answering the record) and delete (a task), and an
instance moved between groups (remove_from_servergroup, then put_into_servergroup). For each write of a plan and each
fault kind (a 500 after the service applied the write, a connection dropped after it applied it, a 400 or 403 rejection
that applied nothing), the run reports the truth (``changed``), sends no write twice and makes no second group, and a
re-run converges with no write left. The cases are generated from the plans below, not written by hand.

The modules run in-process (their ``main``) against the real simulator over HTTP (the ``server`` fixture)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from ansible_collections.gcore.platform.plugins.modules import instance, placement_group

import harness

GROUPS = "/cloud/v1/servergroups/1/76"
INSTANCES = "/cloud/v1/instances/1/76"
BASE = dict(project_id=1, region_id=76)
INSTANCE = dict(name="srv-1", flavor="g1-standard-2-4", interfaces=[{"type": "external"}],
                volumes=[{"source": "image", "image_name": "ubuntu-22.04", "size": 10, "boot_index": 0}])

FAULTS = {
    "500 after applying": (dict(status=500, applied=True), True),
    "dropped after applying": (dict(drop=True, applied=True), True),
    "rejected 400": (dict(status=400, body="injected rejection"), False),
    "rejected 403": (dict(status=403, body="injected rejection"), False),
}


def seed_group(server):
    server.call("POST", GROUPS, {"name": "fault-group", "policy": "anti-affinity"})


def seed_member(server):
    """Two groups, and srv-1 in the first."""
    old = server.call("POST", GROUPS, {"name": "old-group", "policy": "affinity"})[1]["servergroup_id"]
    seed_group(server)
    server.release()
    harness.run(server, instance, dict(BASE, placement_group=old, **INSTANCE))


PLANS = {
    "group create": dict(module=placement_group, seed=None, args={"name": "fault-group", "policy": "anti-affinity"},
                         writes=[("POST", "^%s$" % GROUPS)]),
    "group delete": dict(module=placement_group, seed=seed_group, args={"name": "fault-group", "state": "absent"},
                         writes=[("DELETE", "^%s/[^/]+$" % GROUPS)]),
    "instance move": dict(module=instance, seed=seed_member, args=dict(INSTANCE, placement_group="fault-group"),
                          writes=[("POST", "^%s/[^/]+/remove_from_servergroup$" % INSTANCES),
                                  ("POST", "^%s/[^/]+/put_into_servergroup$" % INSTANCES)]),
}


def run(server, module, args):
    return harness.run(server, module, dict(BASE, **args), api_retries=1, _ansible_diff=True)


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


@pytest.mark.parametrize("plan, position, kind", list(harness.task_fault_cases(PLANS, found=("instance move",), untasked=(("group create", 0),))))
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    spec = prepare(server, plan)
    harness.check_task_fault(server, lambda **extra: run(server, spec["module"], dict(spec["args"], **extra)), spec["writes"], position, kind)


@pytest.mark.parametrize("plan, position, fault", list(harness.fault_cases(PLANS, FAULTS)))
def test_a_fault_at_any_placement_group_write_reports_the_truth_and_the_rerun_converges(server, plan, position, fault):
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
    groups = [group["name"] for group in server.call("GET", GROUPS)[1]["results"]]
    assert groups.count("fault-group") <= 1, "no second group: %s" % groups
    server.log = []
    again = run(server, spec["module"], spec["args"])
    assert not again.get("failed"), again.get("msg")
    assert again["changed"] is (not applied)
    assert len(writes(server)) == (0 if applied else len(spec["writes"]) - position)
    server.log = []
    third = run(server, spec["module"], spec["args"])
    assert third["changed"] is False and writes(server) == []


@pytest.mark.parametrize("fault", ["500 after applying", "dropped after applying"])
def test_a_delete_whose_answer_was_lost_while_its_task_runs_is_settled_by_the_task(server, fault):
    spec = prepare(server, "group delete")
    server.configure(task_delay=1)
    server.add_fault(method="DELETE", path=spec["writes"][0][1], **FAULTS[fault][0])
    result = run(server, spec["module"], spec["args"])
    assert not result.get("failed"), result["msg"]
    assert result["changed"] is True and len(writes(server)) == 1
    assert "shows the change was applied" in " ".join(harness.warning_texts(result))
    assert "fault-group" not in [group["name"] for group in server.call("GET", GROUPS)[1]["results"]]
    server.log = []
    again = run(server, spec["module"], spec["args"])
    assert again["changed"] is False and writes(server) == []
