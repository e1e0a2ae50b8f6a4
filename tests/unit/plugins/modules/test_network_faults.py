# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault matrix of the network and subnet modules' writes: for each write of a plan (network create, PATCH, delete;
subnet create, PATCH, delete) and each fault kind (a 500 after the service applied the write, a connection dropped after
it applied it, a 400 or 403 rejection that applied nothing), the run reports the truth (``changed``), sends no write
twice, warns once when it found an ambiguous write applied, and a re-run converges with no write left. The cases are
generated from the plans below, not written by hand.

The modules run in-process (their ``main``) against the real simulator over HTTP (the ``server`` fixture)."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.modules import network, subnet
from simulator.resources.networks import SEEDED

import harness

NETS = "/cloud/v1/networks/1/76"
SUBS = "/cloud/v1/subnets/1/76"
NET_2 = SEEDED[1][0]
BASE = dict(project_id=1, region_id=76)


def seed_network(sim):
    sim.call("POST", NETS, {"name": "fault-net", "tags": {"env": "dev"}})


def seed_subnet(sim):
    sim.call("POST", SUBS, {"name": "fault-subnet", "network_id": NET_2, "cidr": "10.50.0.0/24", "dns_nameservers": ["8.8.8.8"]})


# A plan: the module, its arguments, how to seed the simulator, and the writes in the order they are sent (method, path regex).
PLANS = {
    "network create": dict(
        module=network, seed=None, args={"name": "fault-net", "tags": {"env": "dev"}},
        writes=[("POST", "^%s$" % NETS)]),
    "network update": dict(
        module=network, seed=seed_network, args={"name": "fault-net", "tags": {"env": "prod"}},
        writes=[("PATCH", "^%s/[^/]+$" % NETS.replace("/v1/", "/v2/"))]),
    "network delete": dict(
        module=network, seed=seed_network, args={"name": "fault-net", "state": "absent"},
        writes=[("DELETE", "^%s/[^/]+$" % NETS)]),
    "subnet create": dict(
        module=subnet, seed=None,
        args={"name": "fault-subnet", "network_id": NET_2, "cidr": "10.50.0.0/24", "dns_nameservers": ["8.8.8.8"]},
        writes=[("POST", "^%s$" % SUBS)]),
    "subnet update": dict(
        module=subnet, seed=seed_subnet,
        args={"name": "fault-subnet", "network_id": NET_2, "dns_nameservers": ["1.1.1.1"], "gateway_ip": "disable"},
        writes=[("PATCH", "^%s/[^/]+$" % SUBS)]),
    "subnet delete": dict(
        module=subnet, seed=seed_subnet, args={"name": "fault-subnet", "network_id": NET_2, "state": "absent"},
        writes=[("DELETE", "^%s/[^/]+$" % SUBS)]),
}


def returned_once_settled(server, row, result, stage):
    if stage == "first" and row.applied and row.planned[0][0] != "DELETE":
        assert result[row.spec["module"].__name__.rsplit(".", 1)[-1]]["task_id"] is None, "returned once settled"


MATRIX = harness.Matrix(PLANS, base=BASE, found=("network delete", "subnet update"), untasked=(("subnet update", 0),),
                        check=returned_once_settled)


@pytest.mark.parametrize("plan, position, kind", MATRIX.task_cases())
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    MATRIX.check_task_fault(server, plan, position, kind)


@pytest.mark.parametrize("plan, position, fault", MATRIX.cases())
def test_a_fault_at_any_network_write_reports_the_truth_sends_nothing_twice_and_the_rerun_converges(server, plan, position, fault):
    MATRIX.check_fault(server, plan, position, fault)
