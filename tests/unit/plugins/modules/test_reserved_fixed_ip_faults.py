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

import re
from collections import Counter

import pytest

from ansible_collections.gcore.platform.plugins.modules import reserved_fixed_ip

from simulator.resources.instances import IMAGE_IDS

import harness

IPS = "/cloud/v1/reserved_fixed_ips/1/76"
BASE = dict(project_id=1, region_id=76)
NET = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01"
SUBNET = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01"
VIP = dict(network="router-net-1", ip_address="192.168.10.50", is_vip=True, connected_instances=["web-a", "web-b"])

FAULTS = {
    "500 after applying": (dict(status=500, applied=True), True),
    "dropped after applying": (dict(drop=True, applied=True), True),
    "rejected 400": (dict(status=400, body="injected rejection"), False),
    "rejected 403": (dict(status=403, body="injected rejection"), False),
}


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


def run(server, args):
    return harness.run(server, reserved_fixed_ip, dict(BASE, **args), api_retries=1, _ansible_diff=True)


def writes(server):
    return [(entry["method"], entry["path"], entry["body"]) for entry in server.writes()]


def prepare(server, plan):
    """The simulator as the plan starts from (seeded, the log empty); returns the plan."""
    spec = PLANS[plan]
    spec["seed"](server)
    server.release()
    server.log = []
    return spec


# the is_vip PATCH and the PUT of the connected ports answer at once (no task)
@pytest.mark.parametrize("plan, position, kind", list(harness.task_fault_cases(
    PLANS, found=("vip made", "delete"), untasked=(("vip create", 1), ("vip made", 0), ("vip made", 1)))))
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    spec = prepare(server, plan)
    harness.check_task_fault(server, lambda **extra: run(server, dict(spec["args"], **extra)), spec["writes"], position, kind)


@pytest.mark.parametrize("plan, position, fault", list(harness.fault_cases(PLANS, FAULTS)))
def test_a_fault_at_any_reserved_fixed_ip_write_reports_the_truth_and_the_rerun_converges(server, plan, position, fault):
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
    addresses = [record["fixed_ip_address"] for record in server.call("GET", IPS)[1]["results"]]
    assert addresses.count("192.168.10.50") <= 1, "no second reservation: %s" % addresses
    server.log = []
    again = run(server, spec["args"])
    assert not again.get("failed"), again.get("msg")
    assert again["changed"] is (not applied)
    assert len(writes(server)) == (0 if applied else len(spec["writes"]) - position)
    if spec["args"].get("connected_instances"):
        assert again["connected_instances"] == ["web-a", "web-b"]
    server.log = []
    third = run(server, spec["args"])
    assert third["changed"] is False and writes(server) == []
