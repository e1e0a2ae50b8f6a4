# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault matrix of security_group's writes: for each write of a plan (the v2 create, the PATCH after it that removes
the default egress rules, a PATCH of rules and members, the v1 DELETE) and each fault kind (a 500 after the service
applied the write, a connection dropped after it applied it, a 400 or a 403 rejection that applied nothing), the run
reports the truth (``changed``, ``changes``), sends no write twice and creates no second group, and a re-run converges
with no write left. The cases are generated from the plans below, not written by hand.

The module runs in-process (its ``main``) against the real simulator over HTTP (the ``server`` fixture)."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.modules import security_group
from simulator.resources.security_groups import LEGACY_ID

import harness

V2 = r"^/cloud/v2/security_groups/1/76"
SSH = dict(direction="ingress", protocol="tcp", port_range_min=22, remote_ip_prefix="10.0.0.0/8")
HTTPS = dict(direction="ingress", protocol="tcp", port_range_min=443, remote_ip_prefix="0.0.0.0/0")

# A plan: the arguments, the writes in the order they are sent (method, path regex), and the rules ``changes`` reports
# once every write is done (port_range_min of those created, (direction, ethertype) of those deleted).
PLANS = {
    "create removing the default egress rules": dict(
        args={"name": "web", "rules": [SSH, HTTPS], "tags": {"env": "prod"}},
        writes=[("POST", V2 + "$"), ("PATCH", V2 + "/[0-9a-f-]+$")],
        created=[[22, 443], []], deleted=[[], [("egress", "IPv4"), ("egress", "IPv6")]]),
    "create with an egress rule": dict(
        args={"name": "out", "rules": [dict(direction="egress", protocol="udp", port_range_min=53)]},
        writes=[("POST", V2 + "$")], created=[[53]], deleted=[[]]),
    "patch of rules and members": dict(
        args={"name": "legacy-sg", "description": "edge", "rules": [SSH]},
        writes=[("PATCH", V2 + "/" + LEGACY_ID + "$")],
        created=[[22]], deleted=[[("egress", "IPv4"), ("egress", "IPv6"), ("ingress", "IPv4")]]),
    "delete": dict(
        args={"name": "legacy-sg", "state": "absent"},
        writes=[("DELETE", r"^/cloud/v1/securitygroups/1/76/" + LEGACY_ID + "$")], created=[[]], deleted=[[]]),
}


def reported(result):
    """``changes`` in the plan's terms (a run that manages no rules, a delete, returns none)."""
    changes = result.get("changes") or {"created": [], "deleted": []}
    return ([rule["port_range_min"] for rule in changes["created"]],
            sorted((rule["direction"], rule["ethertype"]) for rule in changes["deleted"]))


def expected(spec, upto):
    """What the plan says its first ``upto`` writes did."""
    return (sorted(port for step in spec["created"][:upto] for port in step),
            sorted(pair for step in spec["deleted"][:upto] for pair in step))


def one_group(server, row):
    named = row.args["name"]
    assert len([record for record in server.security_groups.values() if record["name"] == named]) <= 1, "a second group"


def changes_are_what_was_accepted(server, row, result, stage):
    if stage == "first":
        done = len(row.planned) if row.applied else row.position
        assert reported(result) == expected(row.spec, done), "changes: only what the service accepted"


MATRIX = harness.Matrix(PLANS, module=security_group, base=dict(project_id=1, region_id=76), found=("patch of rules and members", "delete"),
                        untasked=(("delete", 0),), unique=one_group, check=changes_are_what_was_accepted)


@pytest.mark.parametrize("plan, position, kind", MATRIX.task_cases())
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    MATRIX.check_task_fault(server, plan, position, kind)


@pytest.mark.parametrize("plan, position, fault", MATRIX.cases())
def test_a_fault_at_any_security_group_write_reports_the_truth_and_the_rerun_converges(server, plan, position, fault):
    MATRIX.check_fault(server, plan, position, fault)


def test_an_ambiguous_patch_whose_task_still_runs_is_judged_once_the_task_has_finished(server):
    """The service applies a PATCH when its task finishes: the state read right after the lost answer still shows the
    old rules, locked by the task. The module waits for the lock before it judges, so the write is confirmed."""
    server.reset()
    server.configure(task_delay=0)
    server.hold()
    server.release(after={"method": "GET", "path": r"^/cloud/v1/securitygroups/1/76$", "times": 2})  # the lookup, then the re-read
    server.add_fault(method="PATCH", path=V2 + "/", status=500, applied=True)
    server.log = []
    result = harness.run(server, security_group, dict(name="legacy-sg", rules=[], project_id=1, region_id=76), api_retries=1, _ansible_diff=True)
    assert not result.get("failed"), result["msg"]
    assert result["changed"] is True and result["security_group"]["security_group_rules"] == []
    assert len(result["changes"]["deleted"]) == 3
    assert [entry["method"] for entry in server.writes()] == ["PATCH"]
    assert len(harness.warning_texts(result)) == 1
