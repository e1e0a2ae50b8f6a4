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

import re
from collections import Counter

import pytest

from ansible_collections.gcore.platform.plugins.modules import network, subnet
from simulator.resources.networks import SEEDED

import harness

NETS = "/cloud/v1/networks/1/76"
SUBS = "/cloud/v1/subnets/1/76"
NET_2 = SEEDED[1][0]
BASE = dict(project_id=1, region_id=76)

# A fault kind: the fault added for the write, and whether the service applies the write.
FAULTS = {
    "500 after applying": (dict(status=500, applied=True), True),
    "dropped after applying": (dict(drop=True, applied=True), True),
    "rejected 400": (dict(status=400, body="injected rejection"), False),
    "rejected 403": (dict(status=403, body="injected rejection"), False),
}


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


def run(server, module, args):
    return harness.run(server, module, dict(BASE, **args), api_retries=1, _ansible_diff=True)


def writes(server):
    """Bodies as sent (text, not parsed like harness.writes): the writes are counted, so they must be hashable."""
    return [(entry["method"], entry["path"], entry["body"]) for entry in server.writes()]


def prepare(server, plan):
    """The simulator as the plan starts from (seeded, its tasks finished, the log empty); returns the plan."""
    spec = PLANS[plan]
    server.reset()
    server.configure(task_delay=0)
    if spec["seed"]:
        spec["seed"](server)
        server.release()
    server.log = []
    return spec


@pytest.mark.parametrize("plan, position, kind", list(harness.task_fault_cases(
    PLANS, found=("network delete", "subnet update"), untasked=(("subnet update", 0),))))
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    spec = prepare(server, plan)
    harness.check_task_fault(server, lambda **extra: run(server, spec["module"], dict(spec["args"], **extra)), spec["writes"], position, kind)


@pytest.mark.parametrize("plan, position, fault", list(harness.fault_cases(PLANS, FAULTS)))
def test_a_fault_at_any_network_write_reports_the_truth_sends_nothing_twice_and_the_rerun_converges(server, plan, position, fault):
    spec = prepare(server, plan)
    method, path = spec["writes"][position]
    extra, applied = FAULTS[fault]
    server.add_fault(method=method, path=path, **extra)
    result = run(server, spec["module"], spec["args"])
    sent = writes(server)
    assert [count for count in Counter(sent).values() if count > 1] == [], "a write was sent twice: %s" % sent
    assert len(sent) == (len(spec["writes"]) if applied else position + 1), sent
    for (expected_method, pattern), (sent_method, sent_path, _body) in zip(spec["writes"], sent):
        assert expected_method == sent_method and re.search(pattern, sent_path), "plan order: %s" % sent
    if applied:
        assert not result.get("failed"), result["msg"]
        assert result["changed"] is True
        texts = harness.warning_texts(result)
        assert len(texts) == 1 and "shows the change was applied, so it was not sent again" in texts[0], \
            "one warning, of the write found applied: %s" % texts
        if method != "DELETE":
            assert result[spec["module"].__name__.rsplit(".", 1)[-1]]["task_id"] is None, "returned once settled"
    else:
        assert result["failed"] is True and "injected rejection" in result["msg"], result
        assert result["changed"] is (position > 0), "changed means applied"
        assert "could not be confirmed" not in result["msg"], "a clear rejection is not unconfirmed"
        assert not result.get("warnings"), result["warnings"]
    # the re-run sends what is left (nothing after an applied fault), then a third run sends nothing
    server.log = []
    again = run(server, spec["module"], spec["args"])
    assert not again.get("failed"), again.get("msg")
    assert not again.get("warnings"), again["warnings"]
    assert again["changed"] is (not applied)
    assert len(writes(server)) == (0 if applied else len(spec["writes"]) - position)
    server.log = []
    third = run(server, spec["module"], spec["args"])
    assert third["changed"] is False and writes(server) == []
