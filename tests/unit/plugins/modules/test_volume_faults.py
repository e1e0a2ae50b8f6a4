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

import re
from collections import Counter

import pytest

from ansible_collections.gcore.platform.plugins.modules import volume
from simulator.resources.volumes import SEEDED

import harness

V1 = r"^/cloud/v1/volumes/1/76"
V2 = r"^/cloud/v2/volumes/1/76"
DATA_1, ATTACHED_1 = SEEDED[0][0], SEEDED[1][0]

# A fault kind: the fault added for the write, and whether the service applies the write.
FAULTS = {
    "500 after applying": (dict(status=500, applied=True), True),
    "dropped after applying": (dict(drop=True, applied=True), True),
    "rejected 400": (dict(status=400, body="injected rejection"), False),
    "rejected 403": (dict(status=403, body="injected rejection"), False),
}

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


def run(server, args):
    return harness.run(server, volume, dict(args, project_id=1, region_id=76), api_retries=1, _ansible_diff=True)


def writes(server):
    """Bodies as sent (text): the writes are counted, so they must be hashable."""
    return [(entry["method"], entry["path"], entry["body"]) for entry in server.writes()]


def prepare(server, plan):
    """The simulator as the plan starts from (the log empty); returns the plan."""
    spec = PLANS[plan]
    server.reset()
    server.configure(task_delay=0)
    server.log = []
    return spec


@pytest.mark.parametrize("plan, position, kind", list(harness.task_fault_cases(PLANS, found=("extend", "delete attached"), untasked=(("rename and tags", 0),))))
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    spec = prepare(server, plan)
    harness.check_task_fault(server, lambda **extra: run(server, dict(spec["args"], **extra)), spec["writes"], position, kind)


@pytest.mark.parametrize("plan, position, fault", list(harness.fault_cases(PLANS, FAULTS)))
def test_a_fault_at_any_volume_write_reports_the_truth_and_the_rerun_converges(server, plan, position, fault):
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
    if "name" in spec["args"] and "volume_id" not in spec["args"]:
        assert len([record for record in server.volumes.values() if record["name"] == spec["args"]["name"]]) <= 1, "a second volume"
    if applied:
        assert not result.get("failed"), result["msg"]
        assert result["changed"] is True
        texts = harness.warning_texts(result)
        assert len(texts) == 1 and "shows the change was applied, so it was not sent again" in texts[0], texts
    else:
        assert result["failed"] is True and "injected rejection" in result["msg"], result
        assert result["changed"] is (position > 0), "changed means applied"
        assert "could not be confirmed" not in result["msg"], "a clear rejection is not unconfirmed"
        assert not result.get("warnings"), result["warnings"]
    # the re-run sends what is left (nothing after an applied fault), then a third run sends nothing
    server.log = []
    again = run(server, spec["args"])
    assert not again.get("failed"), again.get("msg")
    assert not again.get("warnings"), again["warnings"]
    assert again["changed"] is (not applied)
    assert len(writes(server)) == (0 if applied else len(spec["writes"]) - position)
    server.log = []
    third = run(server, spec["args"])
    assert third["changed"] is False and writes(server) == []
