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

import pytest

from ansible_collections.gcore.platform.plugins.modules import k8s_cluster

import harness

LIST = "/cloud/v2/k8s/clusters/1/76"
BASE = dict(project_id=1, region_id=76, name="prod")
WORKERS = dict(name="workers", flavor_id="g1-standard-2-4", min_node_count=1, max_node_count=4, node_count=2)
BATCH = dict(name="batch", flavor_id="g1-standard-4-8", min_node_count=1, max_node_count=2)
CREATE = dict(version="v1.30.6", keypair="deploy", pools=[WORKERS, BATCH])


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


def one_cluster(server, row):
    assert len(server.call("GET", LIST)[1]["results"]) <= 1, "no second cluster"


MATRIX = harness.Matrix(PLANS, module=k8s_cluster, base=BASE, found=("pools", "settings", "upgrade", "delete"), untasked=(("pools", 1),),
                        unique=one_cluster)


@pytest.mark.parametrize("plan, position, kind", MATRIX.task_cases())
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    MATRIX.check_task_fault(server, plan, position, kind)


@pytest.mark.parametrize("plan, position, fault", MATRIX.cases())
def test_a_fault_at_any_k8s_write_reports_the_truth_and_the_rerun_converges(server, plan, position, fault):
    MATRIX.check_fault(server, plan, position, fault)
