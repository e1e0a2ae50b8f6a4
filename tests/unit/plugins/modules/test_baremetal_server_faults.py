# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault matrix of baremetal_server's writes: the create (and a new server stopped after it), the synchronous PATCH,
the power action, the rebuild and the delete. For each write and each fault kind (a 500 after the service applied the
write, a connection dropped after it applied it, a 400 or 403 rejection that applied nothing, a task that ends in ERROR,
a lock left by a failed task), the run reports the truth (``changed``), sends no write twice and makes no second server,
and a re-run converges with no write left. Generated from the plans below.

The module runs in-process (its ``main``) against the real simulator over HTTP (the ``server`` fixture)."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.modules import baremetal_server

import harness

LIST = "/cloud/v1/bminstances/1/76"
ONE = "^%s/[^/]+$" % LIST
BASE = dict(project_id=1, region_id=76)
SERVER = dict(name="fault-bm", flavor="bm1-basic-small", image="ubuntu-22.04-x64", interfaces=[{"type": "external"}], tags={"env": "dev"})


def seed(server):
    harness.run(server, baremetal_server, dict(BASE, **SERVER))


PLANS = {
    "create": dict(seed=None, args=SERVER, writes=[("POST", "^%s$" % LIST)]),
    "create stopped": dict(seed=None, args=dict(SERVER, state="stopped"),
                           writes=[("POST", "^%s$" % LIST), ("POST", "^/cloud/v2/baremetal/1/76/[^/]+/action$")]),
    "tags": dict(seed=seed, args=dict(SERVER, tags={"env": "prod"}), writes=[("PATCH", ONE)]),
    "stop": dict(seed=seed, args=dict(SERVER, state="stopped"), writes=[("POST", "^/cloud/v2/baremetal/1/76/[^/]+/action$")]),
    "rebuild": dict(seed=seed, args=dict(SERVER, image="debian-12-x64", allow_rebuild=True), writes=[("POST", "^%s/[^/]+/rebuild$" % LIST)]),
    "delete": dict(seed=seed, args=dict(SERVER, state="absent"), writes=[("DELETE", ONE)]),
}


def one_server(server, row):
    names = [record["name"] for record in server.call("GET", LIST)[1]["results"]]
    assert names.count("fault-bm") <= 1, "no second server: %s" % names


MATRIX = harness.Matrix(PLANS, module=baremetal_server, base=BASE, found=("tags", "stop", "rebuild", "delete"), untasked=(("tags", 0),),
                        unique=one_server)


@pytest.mark.parametrize("plan, position, kind", MATRIX.task_cases())
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    MATRIX.check_task_fault(server, plan, position, kind)


@pytest.mark.parametrize("plan, position, fault", MATRIX.cases())
def test_a_fault_at_any_bare_metal_write_reports_the_truth_and_the_rerun_converges(server, plan, position, fault):
    MATRIX.check_fault(server, plan, position, fault)
