# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault matrix of file_share's writes: for each write of a plan (a create with its rules, the v3 PATCH, an extend,
the access rules' deletes, replace and creates, an extend followed by a rule, a delete) and each fault kind (a 500
after the service applied the write, a connection dropped after it applied it, a 400 or a 403 rejection that applied
nothing, a task that ends in ERROR, a lock left by a failed task), the run reports the truth (``changed``), sends no
write twice and creates no second share, and a re-run converges with no write left. The cases are generated from the
plans below.

The module runs in-process (its ``main``) against the real simulator over HTTP (the ``server`` fixture)."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.modules import file_share
from simulator.resources.file_shares import SEEDED

import harness

V1 = r"^/cloud/v1/file_shares/1/76"
SHARE_1 = SEEDED[0][0]
RULES = V1 + "/" + SHARE_1 + "/access_rule"
KEEP = {"network": "router-net-1"}  # what a share made again after a failed task needs


def seeded(server):
    """The seeded simulator, its tasks finished at once: ``{seeded}`` is the id of share-1's seeded rule 10.0.0.0/24."""
    server.reset()
    server.configure(task_delay=0)
    return {"seeded": server.access_rules[SHARE_1][0]["id"], "extra": ""}


def with_a_rule(server):
    """As ``seeded``, with one more rule on share-1, 192.168.0.0/16: its id is ``{extra}``."""
    ids = seeded(server)
    ids["extra"] = server.call("POST", "/cloud/v1/file_shares/1/76/%s/access_rule" % SHARE_1,
                               {"ip_address": "192.168.0.0/16", "access_mode": "ro"})[1]["id"]
    return ids


PLANS = {
    "create": dict(seed=seeded, args=dict(KEEP, name="fs-a", size=3, access=[{"ip_address": "10.1.0.0/16", "access_mode": "rw"}], tags={"a": "b"}),
                   writes=[("POST", V1 + "$")]),
    "rename and tags": dict(seed=seeded, args={"file_share_id": SHARE_1, "name": "share-2", "tags": {"team": "ops"}},
                            writes=[("PATCH", r"^/cloud/v3/file_shares/1/76/" + SHARE_1 + "$")]),
    "extend": dict(seed=seeded, args=dict(KEEP, name="share-1", size=30), writes=[("POST", V1 + "/" + SHARE_1 + "/extend$")]),
    "access": dict(seed=with_a_rule, args=dict(KEEP, name="share-1", access=[{"ip_address": "10.0.0.0/24", "access_mode": "ro"},
                                                                             {"ip_address": "10.9.0.1", "access_mode": "rw"}]),
                   writes=[("DELETE", RULES + "/{extra}$"), ("DELETE", RULES + "/{seeded}$"), ("POST", RULES + "$"), ("POST", RULES + "$")]),
    "extend and a rule": dict(seed=seeded, args=dict(KEEP, name="share-1", size=20, access=[{"ip_address": "10.0.0.0/24", "access_mode": "rw"},
                                                                                            {"ip_address": "10.5.0.0/16", "access_mode": "ro"}]),
                              writes=[("POST", V1 + "/" + SHARE_1 + "/extend$"), ("POST", RULES + "$")]),
    "delete": dict(seed=seeded, args={"name": "share-1", "state": "absent"}, writes=[("DELETE", V1 + "/" + SHARE_1 + "$")]),
}
UNTASKED = tuple((plan, position) for plan, spec in PLANS.items() for position, write in enumerate(spec["writes"]) if "access_rule" in write[1])


def one_share(server, row):
    assert len([record for record in server.file_shares.values() if record["name"] == row.args.get("name")]) <= 1, "a second share"


MATRIX = harness.Matrix(PLANS, module=file_share, base=dict(project_id=1, region_id=76), found=("rename and tags", "extend", "access", "delete"),
                        untasked=UNTASKED, unique=one_share)


@pytest.mark.parametrize("plan, position, kind", MATRIX.task_cases())
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    MATRIX.check_task_fault(server, plan, position, kind)


@pytest.mark.parametrize("plan, position, fault", MATRIX.cases())
def test_a_fault_at_any_file_share_write_reports_the_truth_and_the_rerun_converges(server, plan, position, fault):
    MATRIX.check_fault(server, plan, position, fault)


def test_a_replaced_rule_whose_create_is_refused_is_said_deleted_not_replaced(server):
    """``replaced`` names only what was both deleted and created; the rule whose new create was refused
    after its delete went out is ``deleted``."""
    row = MATRIX.prepare(server, "access")
    method, path = next(write for write in row.planned if write[0] == "POST")  # the replacement's create, the first POST
    server.add_fault(method=method, path=path, status=400, body="injected rejection")
    result = MATRIX.run(server, row)
    assert result["failed"] is True and result["changed"] is True
    access = result["changes"]["access"]
    assert access.get("replaced", []) == [], access
    assert "10.0.0.0/24" in access["deleted"], access
