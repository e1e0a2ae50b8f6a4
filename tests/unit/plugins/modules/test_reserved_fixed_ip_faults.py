# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault matrix of the reserved fixed IP writes: a VIP created and shared by two instances (the create's task, then
one PUT of the ports), an existing address made a VIP (the is_vip PATCH, then the PUT) and a delete (a task). For each
write of a plan and each fault kind (a 500 after the service applied the write, a connection dropped after it applied
it, a 400 or 403 rejection that applied nothing), the run reports the truth (``changed``), sends no write twice and
reserves no second address, and a re-run converges with no write left. The cases are generated from the plans below.

The module runs in-process (its ``main``) against the real simulator over HTTP (the ``server`` fixture)."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.modules import reserved_fixed_ip

from simulator.resources.instances import IMAGE_IDS

import harness

IPS = "/cloud/v1/reserved_fixed_ips/1/76"
BASE = dict(project_id=1, region_id=76)
NET = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01"
SUBNET = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01"
VIP = dict(network="router-net-1", ip_address="192.168.10.50", is_vip=True, connected_instances=["web-a", "web-b"])


def seed_instances(server):
    for name in ("web-a", "web-b"):
        status, answer = server.call("POST", "/cloud/v2/instances/1/76", {
            "name": name, "flavor": "g1-standard-2-4", "interfaces": [{"type": "subnet", "network_id": NET, "subnet_id": SUBNET}],
            "volumes": [{"source": "image", "image_id": IMAGE_IDS["ubuntu-22.04"], "size": 10}]})
        assert status == 200, answer


def seed_address(server):
    seed_instances(server)
    status, answer = server.call("POST", IPS, {"type": "ip_address", "network_id": NET, "ip_address": "192.168.10.50"})
    assert status == 200, answer


PLANS = {
    "vip create": dict(seed=seed_instances, args=VIP, writes=[("POST", "^%s$" % IPS), ("PUT", "^%s/[^/]+/connected_devices$" % IPS)]),
    "vip made": dict(seed=seed_address, args=VIP, writes=[("PATCH", "^%s/[^/]+$" % IPS), ("PUT", "^%s/[^/]+/connected_devices$" % IPS)]),
    "delete": dict(seed=seed_address, args=dict(network=NET, ip_address="192.168.10.50", state="absent"),
                   writes=[("DELETE", "^%s/[^/]+$" % IPS)]),
}


def one_reservation(server, row):
    addresses = [record["fixed_ip_address"] for record in server.call("GET", IPS)[1]["results"]]
    assert addresses.count("192.168.10.50") <= 1, "no second reservation: %s" % addresses


def both_connected(server, row, result, stage):
    if stage == "again" and row.args.get("connected_instances"):
        assert result["connected_instances"] == ["web-a", "web-b"]


MATRIX = harness.Matrix(PLANS, module=reserved_fixed_ip, base=BASE, found=("vip made", "delete"),
                        untasked=(("vip create", 1), ("vip made", 0), ("vip made", 1)), unique=one_reservation, check=both_connected)


@pytest.mark.parametrize("plan, position, kind", MATRIX.task_cases())
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    MATRIX.check_task_fault(server, plan, position, kind)


@pytest.mark.parametrize("plan, position, fault", MATRIX.cases())
def test_a_fault_at_any_reserved_fixed_ip_write_reports_the_truth_and_the_rerun_converges(server, plan, position, fault):
    MATRIX.check_fault(server, plan, position, fault)
