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

import pytest

from ansible_collections.gcore.platform.plugins.modules import instance, placement_group

import harness

GROUPS = "/cloud/v1/servergroups/1/76"
INSTANCES = "/cloud/v1/instances/1/76"
BASE = dict(project_id=1, region_id=76)
INSTANCE = dict(name="srv-1", flavor="g1-standard-2-4", interfaces=[{"type": "external"}],
                volumes=[{"source": "image", "image_name": "ubuntu-22.04", "size": 10, "boot_index": 0}])


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


def one_group(server, row):
    groups = [group["name"] for group in server.call("GET", GROUPS)[1]["results"]]
    assert groups.count("fault-group") <= 1, "no second group: %s" % groups


MATRIX = harness.Matrix(PLANS, base=BASE, found=("instance move",), untasked=(("group create", 0),), unique=one_group)


@pytest.mark.parametrize("plan, position, kind", MATRIX.task_cases())
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    MATRIX.check_task_fault(server, plan, position, kind)


@pytest.mark.parametrize("plan, position, fault", MATRIX.cases())
def test_a_fault_at_any_placement_group_write_reports_the_truth_and_the_rerun_converges(server, plan, position, fault):
    MATRIX.check_fault(server, plan, position, fault)


@pytest.mark.parametrize("fault", ["500 after applying", "dropped after applying"])
def test_a_delete_whose_answer_was_lost_while_its_task_runs_is_settled_by_the_task(server, fault):
    row = MATRIX.prepare(server, "group delete")
    server.configure(task_delay=1)
    server.add_fault(method="DELETE", path=row.planned[0][1], **harness.FAULTS[fault][0])
    result = MATRIX.run(server, row)
    assert not result.get("failed"), result["msg"]
    assert result["changed"] is True and len(server.writes()) == 1
    assert "shows the change was applied" in " ".join(harness.warning_texts(result))
    assert "fault-group" not in [group["name"] for group in server.call("GET", GROUPS)[1]["results"]]
    server.log = []
    again = MATRIX.run(server, row)
    assert again["changed"] is False and server.writes() == []
