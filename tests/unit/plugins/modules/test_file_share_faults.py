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

import re
from collections import Counter

import pytest

from ansible_collections.gcore.platform.plugins.modules import file_share
from simulator.resources.file_shares import SEEDED

import harness

V1 = r"^/cloud/v1/file_shares/1/76"
SHARE_1 = SEEDED[0][0]
RULES = V1 + "/" + SHARE_1 + "/access_rule"
KEEP = {"network": "router-net-1"}  # what a share made again after a failed task needs

FAULTS = {
    "500 after applying": (dict(status=500, applied=True), True),
    "dropped after applying": (dict(drop=True, applied=True), True),
    "rejected 400": (dict(status=400, body="injected rejection"), False),
    "rejected 403": (dict(status=403, body="injected rejection"), False),
}

# A plan: the arguments, and the writes in the order they are sent (method, path regex; ``{seeded}``/``{extra}``: the
# ids of share-1's seeded rule 10.0.0.0/24 and of the rule 192.168.0.0/16 the plan adds before it runs).
PLANS = {
    "create": dict(args=dict(KEEP, name="fs-a", size=3, access=[{"ip_address": "10.1.0.0/16", "access_mode": "rw"}], tags={"a": "b"}),
                   writes=[("POST", V1 + "$")]),
    "rename and tags": dict(args={"file_share_id": SHARE_1, "name": "share-2", "tags": {"team": "ops"}},
                            writes=[("PATCH", r"^/cloud/v3/file_shares/1/76/" + SHARE_1 + "$")]),
    "extend": dict(args=dict(KEEP, name="share-1", size=30), writes=[("POST", V1 + "/" + SHARE_1 + "/extend$")]),
    "access": dict(args=dict(KEEP, name="share-1", access=[{"ip_address": "10.0.0.0/24", "access_mode": "ro"},
                                                           {"ip_address": "10.9.0.1", "access_mode": "rw"}]), extra=True,
                   writes=[("DELETE", RULES + "/{extra}$"), ("DELETE", RULES + "/{seeded}$"), ("POST", RULES + "$"), ("POST", RULES + "$")]),
    "extend and a rule": dict(args=dict(KEEP, name="share-1", size=20, access=[{"ip_address": "10.0.0.0/24", "access_mode": "rw"},
                                                                               {"ip_address": "10.5.0.0/16", "access_mode": "ro"}]),
                              writes=[("POST", V1 + "/" + SHARE_1 + "/extend$"), ("POST", RULES + "$")]),
    "delete": dict(args={"name": "share-1", "state": "absent"}, writes=[("DELETE", V1 + "/" + SHARE_1 + "$")]),
}
UNTASKED = tuple((plan, position) for plan, spec in PLANS.items() for position, write in enumerate(spec["writes"]) if "access_rule" in write[1])


def run(server, args):
    return harness.run(server, file_share, dict(args, project_id=1, region_id=76), api_retries=1, _ansible_diff=True)


def writes(server):
    """Bodies as sent (text): the writes are counted, so they must be hashable."""
    return [(entry["method"], entry["path"], entry["body"]) for entry in server.writes()]


def prepare(server, plan):
    """The simulator as the plan starts from (the log empty); returns the plan's writes with the rule ids filled in."""
    spec = PLANS[plan]
    server.reset()
    server.configure(task_delay=0)
    ids = {"seeded": server.access_rules[SHARE_1][0]["id"], "extra": ""}
    if spec.get("extra"):
        ids["extra"] = server.call("POST", "/cloud/v1/file_shares/1/76/%s/access_rule" % SHARE_1,
                                   {"ip_address": "192.168.0.0/16", "access_mode": "ro"})[1]["id"]
    server.log = []
    return [(method, path.format(**ids)) for method, path in spec["writes"]]


def fault_at(planned, position):
    """The fault's method, path and ``skip``: the writes before it that the same method and path would match pass."""
    method, path = planned[position]
    return dict(method=method, path=path, skip=planned[:position].count((method, path)))


@pytest.mark.parametrize("plan, position, kind", list(harness.task_fault_cases(
    PLANS, found=("rename and tags", "extend", "access", "delete"), untasked=UNTASKED)))
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    planned = prepare(server, plan)
    harness.check_task_fault(server, lambda **extra: run(server, dict(PLANS[plan]["args"], **extra)), planned, position, kind)


@pytest.mark.parametrize("plan, position, fault", list(harness.fault_cases(PLANS, FAULTS)))
def test_a_fault_at_any_file_share_write_reports_the_truth_and_the_rerun_converges(server, plan, position, fault):
    planned, args = prepare(server, plan), PLANS[plan]["args"]
    extra, applied = FAULTS[fault]
    server.add_fault(**dict(fault_at(planned, position), **extra))
    result = run(server, args)
    sent = writes(server)
    assert [count for count in Counter(sent).values() if count > 1] == [], "a write was sent twice: %s" % sent
    assert len(sent) == (len(planned) if applied else position + 1), sent
    for (expected_method, pattern), (sent_method, sent_path, _body) in zip(planned, sent):
        assert expected_method == sent_method and re.search(pattern, sent_path), "plan order: %s" % sent
    assert len([record for record in server.file_shares.values() if record["name"] == args.get("name")]) <= 1, "a second share"
    if applied:
        assert not result.get("failed"), result["msg"]
        assert result["changed"] is True
        texts = harness.warning_texts(result)
        assert len(texts) == 1 and "shows the change was applied, so it was not sent again" in texts[0], texts
    else:
        assert result["failed"] is True and "injected rejection" in result["msg"], result
        assert result["changed"] is (position > 0), "changed means applied"
        assert "could not be confirmed" not in result["msg"], "a clear rejection is not unconfirmed"
    server.log = []
    again = run(server, args)
    assert not again.get("failed"), again.get("msg")
    assert again["changed"] is (not applied)
    assert len(writes(server)) == (0 if applied else len(planned) - position)
    server.log = []
    third = run(server, args)
    assert third["changed"] is False and writes(server) == []


def test_a_replaced_rule_whose_create_is_refused_is_said_deleted_not_replaced(server):
    """``replaced`` names only what was both deleted and created; the rule whose new create was refused
    after its delete went out is ``deleted``."""
    planned = prepare(server, "access")
    replace = next(position for position, (method, _path) in enumerate(planned) if method == "POST")
    server.add_fault(**dict(fault_at(planned, replace), status=400, body="injected rejection"))
    result = run(server, PLANS["access"]["args"])
    assert result["failed"] is True and result["changed"] is True
    access = result["changes"]["access"]
    assert access.get("replaced", []) == [], access
    assert "10.0.0.0/24" in access["deleted"], access
