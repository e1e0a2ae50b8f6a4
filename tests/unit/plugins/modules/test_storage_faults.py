# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault matrix of the storage modules' writes: for each write of a plan (storage create S3 and SFTP, SFTP PATCH,
v4 delete; bucket create, the PATCH after it, PATCH update, DELETE; SSH key create and DELETE) and each fault kind
(a 500 after the service applied the write, a connection dropped after it applied it, a clear 400 ``{error}``
rejection that applied nothing), the run reports the truth (``changed``), sends no write twice, keeps credentials
under ``credentials`` only (null when the create's answer was lost), and a re-run converges with no write left.
The cases are generated from the plans below, not written by hand.

The modules run in-process (their ``main``) against the real simulator over HTTP (the ``server`` fixture)."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from ansible_collections.gcore.platform.plugins.modules import storage, storage_bucket, storage_ssh_key
from simulator.resources import storage as sim_storage

import harness

MARK = sim_storage.CREDENTIAL_MARK
BUCKETS = "/storage/v4/object_storages/101/buckets"
KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB2v0nJ8oVbQ0r3mXq5nYwq9Hh9m2xRr8m4Sx3kQ9aZt deploy@ci"

# A fault kind: the fault added for the write, whether the service applies the write, and whether the run fails.
FAULTS = {
    "500 after applying": (dict(status=500, applied=True), True),
    "dropped after applying": (dict(drop=True, applied=True), True),
    "rejected": (dict(status=400, body="injected rejection"), False),
}


def seed_bucket(sim):
    sim.call("POST", BUCKETS, {"name": "logs"})


# A plan: the module, its arguments, how to seed the simulator, and the writes in the order they are sent (method, path regex).
PLANS = {
    "storage create s3": dict(
        module=storage, seed=None,
        args={"state": "present", "type": "s3_compatible", "name": "media", "location": "s-ed1"},
        writes=[("POST", r"^/storage/v4/object_storages$")]),
    "storage create sftp": dict(
        module=storage, seed=None,
        args={"state": "present", "type": "sftp", "name": "drop", "location": "s-ed1", "password_mode": "auto"},
        writes=[("POST", r"^/storage/v4/sftp_storages$")]),
    "storage sftp patch": dict(
        module=storage, seed=None,
        args={"state": "present", "type": "sftp", "name": "ingest-sftp", "expires": "2 years"},
        writes=[("PATCH", r"^/storage/v4/sftp_storages/202$")]),
    "storage v4 delete": dict(
        module=storage, seed=None,
        args={"state": "absent", "type": "s3_compatible", "storage_id": 201},
        writes=[("DELETE", r"^/storage/v4/object_storages/201$")]),
    "bucket create": dict(
        module=storage_bucket, seed=None,
        args={"storage_id": 101, "name": "logs", "lifecycle": {"expiration_days": 30}},
        writes=[("POST", BUCKETS + "$"), ("PATCH", BUCKETS + "/logs$")]),
    "bucket update": dict(
        module=storage_bucket, seed=seed_bucket,
        args={"storage_id": 101, "name": "logs", "lifecycle": {"expiration_days": 7}},
        writes=[("PATCH", BUCKETS + "/logs$")]),
    "bucket delete": dict(
        module=storage_bucket, seed=seed_bucket,
        args={"storage_id": 101, "name": "logs", "state": "absent"},
        writes=[("DELETE", BUCKETS + "/logs$")]),
    "ssh key create": dict(
        module=storage_ssh_key, seed=None,
        args={"name": "deploy", "public_key": KEY},
        writes=[("POST", r"^/storage/v4/ssh_keys$")]),
    "ssh key delete": dict(
        module=storage_ssh_key, seed=None,
        args={"name": "ci-runner", "state": "absent"},
        writes=[("DELETE", r"^/storage/v4/ssh_keys/12$")]),
}


def run(server, module, args):
    return harness.run(server, module, args, api_retries=1, _ansible_diff=True)


def writes(server):
    """Bodies as sent (text, not parsed like harness.writes): the writes are counted, so they must be hashable."""
    return [(entry["method"], entry["path"], entry["body"]) for entry in server.writes()]


def outside_credentials(result):
    return json.dumps(dict((key, value) for key, value in result.items() if key != "credentials"))


@pytest.mark.parametrize("plan, position, fault", list(harness.fault_cases(PLANS, FAULTS)))
def test_a_fault_at_any_storage_write_reports_the_truth_sends_nothing_twice_and_the_rerun_converges(server, plan, position, fault):
    spec = PLANS[plan]
    server.reset()
    server.configure(task_delay=0)
    if spec["seed"]:
        spec["seed"](server)
    server.log = []
    method, path = spec["writes"][position]
    extra, applied = FAULTS[fault]
    server.add_fault(method=method, path=path, **extra)
    result = run(server, spec["module"], spec["args"])
    sent = writes(server)
    assert [count for count in Counter(sent).values() if count > 1] == [], "a write was sent twice: %s" % sent
    assert len(sent) == (len(spec["writes"]) if applied else position + 1), sent
    for (expected_method, pattern), (sent_method, sent_path, _body) in zip(spec["writes"], sent):
        assert expected_method == sent_method and re.search(pattern, sent_path), "plan order: %s" % sent
    assert MARK not in outside_credentials(result), "credentials outside credentials: %s" % result
    if applied:
        assert not result.get("failed"), result["msg"]
        assert result["changed"] is True
        texts = harness.warning_texts(result)
        assert "shows the change was applied, so it was not sent again" in texts[0], "the write found applied: %s" % texts
        lost = spec["args"].get("type") == "s3_compatible" or spec["args"].get("password_mode") == "auto"
        if method == "POST" and spec["module"] is storage and lost:
            assert result["credentials"] is None, "a lost create answer has no credentials to return"
            assert len(texts) == 2 and "cannot be read again" in texts[1] \
                and re.search(r"to get (new keys|a new one)", texts[1]), \
                "the credentials lost with the create's answer are named, and how to get new ones: %s" % texts
        else:
            assert len(texts) == 1, "one warning, of the write found applied: %s" % texts
    else:
        assert result["failed"] is True and "injected rejection" in result["msg"], result
        assert result["changed"] is (position > 0), "changed means applied"
        assert "could not be confirmed" not in result["msg"], "a clear rejection is not unconfirmed"
        assert result.get("credentials") is None
        assert not result.get("warnings"), result["warnings"]
    # the re-run sends what is left (nothing after an applied fault), then a third run sends nothing
    server.log = []
    again = run(server, spec["module"], spec["args"])
    assert not again.get("failed"), again.get("msg")
    assert not again.get("warnings"), again["warnings"]
    assert again["changed"] is (not applied)
    assert len(writes(server)) == (0 if applied else len(spec["writes"]) - position)
    assert MARK not in outside_credentials(again)
    server.log = []
    third = run(server, spec["module"], spec["args"])
    assert third["changed"] is False and writes(server) == []
