# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault matrix of volume's writes: for each write of a plan (a create, a create attached to an instance, the sync
PATCH, an extend, an attach, a move's detach and attach, a delete, the detach before the delete of an attached volume)
and each fault kind (a 500 after the service applied the write, a connection dropped after it applied it, a 400 or a
403 rejection that applied nothing), the run reports the truth (``changed``), sends no write twice and creates no second
volume, and a re-run converges with no write left. The cases are generated from the plans below, not written by hand.

The module runs in-process (its ``main``) against the real simulator over HTTP (the ``server`` fixture)."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.modules import volume
from simulator.resources.volumes import SEEDED

import harness

V1 = r"^/cloud/v1/volumes/1/76"
V2 = r"^/cloud/v2/volumes/1/76"
DATA_1, ATTACHED_1 = SEEDED[0][0], SEEDED[1][0]

# A plan: the arguments, and the writes in the order they are sent (method, path regex).
PLANS = {
    "create": dict(args={"name": "vol-a", "size": 10, "tags": {"env": "dev"}}, writes=[("POST", V1 + "$")]),
    "create attached": dict(args={"name": "vol-a", "size": 10, "instance": "db-1"}, writes=[("POST", V1 + "$")]),
    "rename and tags": dict(args={"volume_id": DATA_1, "name": "data-2", "tags": {"team": "ops"}},
                            writes=[("PATCH", V1 + "/" + DATA_1 + "$")]),
    "extend": dict(args={"name": "data-1", "size": 30}, writes=[("POST", V1 + "/" + DATA_1 + "/extend$")]),
    "attach": dict(args={"name": "data-1", "instance": "db-1"}, writes=[("POST", V2 + "/" + DATA_1 + "/attach$")]),
    "move": dict(args={"name": "attached-1", "instance": "db-1"},
                 writes=[("POST", V2 + "/" + ATTACHED_1 + "/detach$"), ("POST", V2 + "/" + ATTACHED_1 + "/attach$")]),
    "grow and detach": dict(args={"name": "attached-1", "size": 25, "instance": ""},
                            writes=[("POST", V1 + "/" + ATTACHED_1 + "/extend$"), ("POST", V2 + "/" + ATTACHED_1 + "/detach$")]),
    "delete": dict(args={"name": "data-1", "state": "absent"}, writes=[("DELETE", V1 + "/" + DATA_1 + "$")]),
    "delete attached": dict(args={"name": "attached-1", "state": "absent"},
                            writes=[("POST", V2 + "/" + ATTACHED_1 + "/detach$"), ("DELETE", V1 + "/" + ATTACHED_1 + "$")]),
}


def one_volume(server, row):
    if "name" in row.args and "volume_id" not in row.args:
        assert len([record for record in server.volumes.values() if record["name"] == row.args["name"]]) <= 1, "a second volume"


MATRIX = harness.Matrix(PLANS, module=volume, base=dict(project_id=1, region_id=76), found=("extend", "delete attached"),
                        untasked=(("rename and tags", 0),), unique=one_volume)


@pytest.mark.parametrize("plan, position, kind", MATRIX.task_cases())
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    MATRIX.check_task_fault(server, plan, position, kind)


@pytest.mark.parametrize("plan, position, fault", MATRIX.cases())
def test_a_fault_at_any_volume_write_reports_the_truth_and_the_rerun_converges(server, plan, position, fault):
    MATRIX.check_fault(server, plan, position, fault)
