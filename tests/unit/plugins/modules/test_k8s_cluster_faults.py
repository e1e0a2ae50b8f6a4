# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault matrix of the k8s_cluster writes: the cluster's create (every pool in it) and the resize that follows, the
pools changed (a create, a PATCH, a resize, a purge), the cluster PATCH, the upgrade, the delete. For each write of a plan
and each fault kind (a 500 after the service applied the write, a connection dropped after it applied it, a 400 or 403
rejection that applied nothing, a task that ends in ERROR, a lock held by a failed task), the run reports the truth
(``changed``), sends no write twice and makes no second cluster, and a re-run converges with no write left. The cases are
generated from the plans below.

The module runs in-process (its ``main``) against the real simulator over HTTP (the ``server`` fixture)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from ansible_collections.gcore.platform.plugins.modules import k8s_cluster

import harness

LIST = "/cloud/v2/k8s/clusters/1/76"
BASE = dict(project_id=1, region_id=76, name="prod")
WORKERS = dict(name="workers", flavor_id="g1-standard-2-4", min_node_count=1, max_node_count=4, node_count=2)
BATCH = dict(name="batch", flavor_id="g1-standard-4-8", min_node_count=1, max_node_count=2)
CREATE = dict(version="v1.30.6", keypair="deploy", pools=[WORKERS, BATCH])

FAULTS = {
    "500 after applying": (dict(status=500, applied=True), True),
    "dropped after applying": (dict(drop=True, applied=True), True),
    "rejected 400": (dict(status=400, body="injected rejection"), False),
    "rejected 403": (dict(status=403, body="injected rejection"), False),
}


def seed(server):
    harness.run(server, k8s_cluster, dict(BASE, **CREATE))


PLANS = {
    "create": dict(seed=None, args=CREATE, writes=[("POST", "^%s$" % LIST), ("POST", "^%s/prod/pools/workers/resize$" % LIST)]),
    "pools": dict(seed=seed, args=dict(pools=[dict(name="gpu", flavor_id="g1-standard-8-16", min_node_count=1),
                                              dict(name="workers", labels={"tier": "web"}, node_count=3)], purge_pools=True),
                  writes=[("POST", "^%s/prod/pools$" % LIST), ("PATCH", "^%s/prod/pools/workers$" % LIST),
                          ("POST", "^%s/prod/pools/workers/resize$" % LIST), ("DELETE", "^%s/prod/pools/batch$" % LIST)]),
    "settings": dict(seed=seed, args=dict(autoscaler_config={"scan-interval": "15s"}, logging={"enabled": True, "topic_name": "k8s.logs"}),
                     writes=[("PATCH", "^%s/prod$" % LIST)]),
    "upgrade": dict(seed=seed, args=dict(version="1.31.2", allow_upgrade=True), writes=[("POST", "^%s/prod/upgrade$" % LIST)]),
    "delete": dict(seed=seed, args=dict(state="absent"), writes=[("DELETE", "^%s/prod$" % LIST)]),
}


def run(server, args):
    return harness.run(server, k8s_cluster, dict(BASE, **args), api_retries=1, _ansible_diff=True)


def writes(server):
    return [(entry["method"], entry["path"], entry["body"]) for entry in server.writes()]


def prepare(server, plan):
    spec = PLANS[plan]
    if spec["seed"]:
        spec["seed"](server)
    server.log = []
    return spec


@pytest.mark.parametrize("plan, position, kind", list(harness.task_fault_cases(
    PLANS, found=("pools", "settings", "upgrade", "delete"), untasked=(("pools", 1),))))
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    spec = prepare(server, plan)
    harness.check_task_fault(server, lambda **extra: run(server, dict(spec["args"], **extra)), spec["writes"], position, kind)


@pytest.mark.parametrize("plan, position, fault", list(harness.fault_cases(PLANS, FAULTS)))
def test_a_fault_at_any_k8s_write_reports_the_truth_and_the_rerun_converges(server, plan, position, fault):
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
    if applied:
        assert not result.get("failed"), result["msg"]
        assert result["changed"] is True
        texts = harness.warning_texts(result)
        assert len(texts) == 1 and "shows the change was applied, so it was not sent again" in texts[0], texts
    else:
        assert result["failed"] is True and "injected rejection" in result["msg"], result
        assert result["changed"] is (position > 0), "changed means applied"
    assert len(server.call("GET", LIST)[1]["results"]) <= 1, "no second cluster"
    server.log = []
    again = run(server, spec["args"])
    assert not again.get("failed"), again.get("msg")
    assert again["changed"] is (not applied)
    assert len(writes(server)) == (0 if applied else len(spec["writes"]) - position)
    server.log = []
    third = run(server, spec["args"])
    assert third["changed"] is False and writes(server) == []
