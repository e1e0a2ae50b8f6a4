# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault matrix of the ssh_key and floating_ip writes: for each write of a plan (key upload, key generation, the
sharing PATCH, the key DELETE; floating IP create for an instance, assign, unassign and tags with the v2 PATCH, DELETE,
and the two DELETEs of a port with two floating IPs)
and each fault kind (a 500 after the service applied the write, a connection dropped after it applied it, a clear 400
or 403 rejection that applied nothing), the run reports the truth (``changed``), sends no write twice, never makes a
second key or floating IP, keeps a generated private key under ``private_key`` only (a create whose answer was
lost fails, ``changed``, naming the key's id and how to replace it: issue 34), and a re-run converges with no write
left. The cases are generated from the plans below.

The modules run in-process (their ``main``) against the real simulator over HTTP (the ``server`` fixture)."""

from __future__ import annotations

import copy
import json
import re
from collections import Counter

import pytest

from ansible_collections.gcore.platform.plugins.modules import floating_ip, ssh_key
from simulator.resources.floating_ips import FloatingIps, port_id_of
from simulator.resources.ssh_keys import PRIVATE_MARK

import harness

KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOther0nJ8oVbQ0r3mXq5nYwq9Hh9m2xRr8m4Sx3kQ9aZt other@host"
FREE = FloatingIps.SEEDS["floating_ips"]["203.0.113.200"]
CLOUD = dict(project_id=1, region_id=76)

# A fault kind: the fault added for the write, and whether the service applies the write.
FAULTS = {
    "500 after applying": (dict(status=500, applied=True), True),
    "dropped after applying": (dict(drop=True, applied=True), True),
    "400 rejection": (dict(status=400, body="injected rejection"), False),
    "403 rejection": (dict(status=403, body="injected rejection"), False),
}

MULTI = {"id": "22222222-2222-4222-8222-222222222222", "name": "multi", "project_id": 1, "region_id": 76, "status": "ACTIVE",
         "addresses": {"net": [{"addr": "10.1.0.5", "type": "fixed", "interface_name": "eth0"},
                               {"addr": "10.1.0.6", "type": "fixed", "interface_name": "eth0"}]}}


def two_on_one_port(server):
    """Instance ``multi``, one port with two fixed addresses, a floating IP on each: ``{first, second}`` (their ids)."""
    server.instances.append(copy.deepcopy(MULTI))
    made = {}
    for name, fixed in (("first", "10.1.0.5"), ("second", "10.1.0.6")):
        body = {"port_id": port_id_of(MULTI["id"], "eth0"), "fixed_ip_address": fixed}
        status, answer = server.call("POST", "/cloud/v1/floatingips/1/76", body)
        assert status == 200, answer
        made[name] = server.call("GET", "/cloud/v1/tasks/%s" % answer["tasks"][0])[1]["created_resources"]["floatingips"][0]
    return made


# A plan: the module, its arguments, and the writes in the order they are sent (method, path regex).
PLANS = {
    "key upload": dict(module=ssh_key, args=dict(project_id=1, name="uploaded", public_key=KEY),
                       writes=[("POST", r"^/cloud/v1/ssh_keys/1$")]),
    "key generation": dict(module=ssh_key, args=dict(project_id=1, name="generated"),
                           writes=[("POST", r"^/cloud/v1/ssh_keys/1$")]),
    "key sharing": dict(module=ssh_key, args=dict(project_id=1, name="deploy", shared_in_project=False),
                        writes=[("PATCH", r"^/cloud/v1/ssh_keys/1/[0-9a-f-]+$")]),
    "key delete": dict(module=ssh_key, args=dict(project_id=1, name="deploy", state="absent"),
                       writes=[("DELETE", r"^/cloud/v1/ssh_keys/1/[0-9a-f-]+$")]),
    "fip create": dict(module=floating_ip, args=dict(CLOUD, instance="db-1", tags={"role": "db"}),
                       writes=[("POST", r"^/cloud/v1/floatingips/1/76$")]),
    "fip assign": dict(module=floating_ip, args=dict(CLOUD, floating_ip_id=FREE, instance="db-1"),
                       writes=[("PATCH", r"^/cloud/v2/floatingips/1/76/%s$" % FREE)]),
    "fip unassign": dict(module=floating_ip, args=dict(CLOUD, address="203.0.113.10", unassign=True),
                         writes=[("PATCH", r"^/cloud/v2/floatingips/1/76/[0-9a-f-]+$")]),
    "fip tags": dict(module=floating_ip, args=dict(CLOUD, floating_ip_id=FREE, tags={"env": "dev"}),
                     writes=[("PATCH", r"^/cloud/v2/floatingips/1/76/%s$" % FREE)]),
    "fip delete": dict(module=floating_ip, args=dict(CLOUD, instance="web-1", state="absent"),
                       writes=[("DELETE", r"^/cloud/v1/floatingips/1/76/[0-9a-f-]+$")]),
    # two floating IPs on one port: each deleted (the one listed second first), one DELETE each
    "fip delete two": dict(module=floating_ip, args=dict(CLOUD, instance="multi", state="absent"),
                           setup=two_on_one_port,
                           writes=[("DELETE", r"^/cloud/v1/floatingips/1/76/{second}$"), ("DELETE", r"^/cloud/v1/floatingips/1/76/{first}$")]),
}


def run(server, module, args):
    return harness.run(server, module, args, api_retries=1, _ansible_diff=True)


def writes(server):
    """Bodies as sent (text, not parsed): the writes are counted, so they must be hashable."""
    return [(entry["method"], entry["path"], entry["body"]) for entry in server.writes()]


def outside_private_key(result):
    return json.dumps(dict((key, value) for key, value in result.items() if key != "private_key"))


def no_duplicates(server):
    names = Counter(record["name"] for record in server.ssh_keys.values() if record["project_id"] == 1)
    assert [name for name, count in names.items() if count > 1] == [], "a second key: %s" % names
    ports = Counter((record["port_id"], record["fixed_ip_address"]) for record in server.floating_ips.values() if record["port_id"])
    assert [port for port, count in ports.items() if count > 1] == [], "a second floating IP on a port: %s" % ports


def prepare(server, plan):
    """The simulator as the plan starts from (set up, the log empty): the plan and its writes as they are sent."""
    spec = PLANS[plan]
    server.reset()
    server.configure(task_delay=0)
    made = spec["setup"](server) if "setup" in spec else {}
    server.log = []
    return spec, [(method, path.format(**made)) for method, path in spec["writes"]]


# SSH keys start no task and have no lock: the task fault kinds are the floating IPs' (whose writes all start one)
@pytest.mark.parametrize("plan, position, kind", list(harness.task_fault_cases(
    dict((plan, spec) for plan, spec in PLANS.items() if plan.startswith("fip")),
    found=("fip assign", "fip delete"))))
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    spec, planned = prepare(server, plan)
    harness.check_task_fault(server, lambda **extra: run(server, spec["module"], dict(spec["args"], **extra)), planned, position, kind)


@pytest.mark.parametrize("plan, position, fault", list(harness.fault_cases(PLANS, FAULTS)))
def test_a_fault_at_any_write_reports_the_truth_sends_nothing_twice_and_the_rerun_converges(server, plan, position, fault):
    spec, planned = prepare(server, plan)
    method, path = planned[position]
    extra, applied = FAULTS[fault]
    server.add_fault(method=method, path=path, **extra)
    result = run(server, spec["module"], spec["args"])
    sent = writes(server)
    assert [count for count in Counter(sent).values() if count > 1] == [], "a write was sent twice: %s" % sent
    assert len(sent) == (len(spec["writes"]) if applied else position + 1), sent
    for (expected_method, pattern), (sent_method, sent_path, _body) in zip(planned, sent):
        assert expected_method == sent_method and re.search(pattern, sent_path), "plan order: %s" % sent
    no_duplicates(server)
    assert PRIVATE_MARK not in outside_private_key(result), "a private key outside private_key: %s" % result
    texts = harness.warning_texts(result)
    if applied and plan == "key generation":  # issue 34: a key nobody holds fails the task, saying how to replace it
        assert result["failed"] is True and result["changed"] is True, result
        assert result["private_key"] is None, "a lost create answer has no private key to return"
        ident = server.call("GET", "/cloud/v1/ssh_keys/1", query="name=generated")[1]["results"][0]["id"]
        assert result["ssh_key"]["id"] == ident and "(id %s)" % ident in result["msg"], result
        assert "private key cannot be read again" in result["msg"] and "state: absent" in result["msg"], result["msg"]
        assert len(texts) == 1 and "shows the change was applied, so it was not sent again" in texts[0], texts
    elif applied:
        assert not result.get("failed"), result["msg"]
        assert result["changed"] is True
        assert "shows the change was applied, so it was not sent again" in texts[0], texts
        assert len(texts) == 1, "one warning, of the write found applied: %s" % texts
    else:
        assert result["failed"] is True and "injected rejection" in result["msg"], result
        assert result["changed"] is (position > 0), "changed means applied"
        assert "could not be confirmed" not in result["msg"], "a clear rejection is not unconfirmed"
        assert result.get("private_key") is None
        assert not texts, texts
    # the re-run sends what is left (nothing after an applied fault), then a third run sends nothing
    server.log = []
    again = run(server, spec["module"], spec["args"])
    assert not again.get("failed"), again.get("msg")
    assert not again.get("warnings"), again["warnings"]
    assert again["changed"] is (not applied)
    assert len(writes(server)) == (0 if applied else len(spec["writes"]) - position)
    assert PRIVATE_MARK not in outside_private_key(again)
    no_duplicates(server)
    server.log = []
    third = run(server, spec["module"], spec["args"])
    assert third["changed"] is False and writes(server) == []
