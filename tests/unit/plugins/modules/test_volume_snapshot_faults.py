# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault matrix of volume_snapshot's writes (create, the sync PATCH, delete) and of a volume created from a snapshot
by name: for each write and each fault kind (a 500 after the service applied the write, a connection dropped after it
applied it, a 400 or 403 rejection that applied nothing), the run reports the truth (``changed``), sends no write twice
and makes no second snapshot, and a re-run converges with no write left. Generated from the plans below.

The modules run in-process (their ``main``) against the real simulator over HTTP (the ``server`` fixture)."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.modules import volume, volume_snapshot

import harness

SNAPS = "/cloud/v1/snapshots/1/76"
VOLUMES = "/cloud/v1/volumes/1/76"
BASE = dict(project_id=1, region_id=76)


def seed(server):
    harness.run(server, volume_snapshot, dict(BASE, volume="data-1", name="fault-snap", tags={"env": "dev"}))


PLANS = {
    "create": dict(module=volume_snapshot, seed=None, args={"volume": "data-1", "name": "fault-snap", "tags": {"env": "dev"}},
                   writes=[("POST", "^%s$" % SNAPS)]),
    "rename and tags": dict(module=volume_snapshot, seed=seed, args={"volume": "data-1", "name": "fault-snap", "tags": {"env": "prod"}},
                            writes=[("PATCH", "^%s/[^/]+$" % SNAPS)]),
    "delete": dict(module=volume_snapshot, seed=seed, args={"volume": "data-1", "name": "fault-snap", "state": "absent"},
                   writes=[("DELETE", "^%s/[^/]+$" % SNAPS)]),
    "volume from it": dict(module=volume, seed=seed, args={"name": "fault-copy", "source": "snapshot", "snapshot_name": "fault-snap"},
                           writes=[("POST", "^%s$" % VOLUMES)]),
}


def one_snapshot(server, row):
    names = [record["name"] for record in server.call("GET", SNAPS)[1]["results"]]
    assert names.count("fault-snap") <= 1, "no second snapshot: %s" % names


MATRIX = harness.Matrix(PLANS, base=BASE, found=("rename and tags", "delete"), untasked=(("rename and tags", 0),), unique=one_snapshot)


@pytest.mark.parametrize("plan, position, kind", MATRIX.task_cases())
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    MATRIX.check_task_fault(server, plan, position, kind)


@pytest.mark.parametrize("plan, position, fault", MATRIX.cases())
def test_a_fault_at_any_snapshot_write_reports_the_truth_and_the_rerun_converges(server, plan, position, fault):
    MATRIX.check_fault(server, plan, position, fault)
