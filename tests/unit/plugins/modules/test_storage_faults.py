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

import pytest

from ansible_collections.gcore.platform.plugins.modules import storage, storage_bucket, storage_ssh_key
from simulator.resources import storage as sim_storage

import harness

MARK = sim_storage.CREDENTIAL_MARK
BUCKETS = "/storage/v4/object_storages/101/buckets"
KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB2v0nJ8oVbQ0r3mXq5nYwq9Hh9m2xRr8m4Sx3kQ9aZt deploy@ci"


def seed_bucket(sim):
    sim.call("POST", BUCKETS, {"name": "logs"})


# A plan: the module, its arguments, how to seed the simulator, and the writes in the order they are sent (method, path regex).
PLANS = {
    "storage create s3": dict(
        module=storage, seed=None,
        args={"state": "present", "type": "s3_compatible", "name": "media", "location": "s-ed1"},
        writes=[("POST", r"^/storage/v4/object_storages$")], warnings_when_applied=2),
    "storage create sftp": dict(
        module=storage, seed=None,
        args={"state": "present", "type": "sftp", "name": "drop", "location": "s-ed1", "password_mode": "auto"},
        writes=[("POST", r"^/storage/v4/sftp_storages$")], warnings_when_applied=2),
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


def outside_credentials(result):
    return json.dumps(dict((key, value) for key, value in result.items() if key != "credentials"))


def credentials_under_credentials_only(server, row, result, stage):
    """A create whose answer was lost has no credentials to return: its second warning says how to get new ones."""
    assert MARK not in outside_credentials(result), "credentials outside credentials: %s" % result
    if stage == "first" and row.applied and row.spec.get("warnings_when_applied"):
        assert result["credentials"] is None, "a lost create answer has no credentials to return"
        texts = harness.warning_texts(result)
        assert "cannot be read again" in texts[1] and re.search(r"to get (new keys|a new one)", texts[1]), texts
    elif stage == "first" and not row.applied:
        assert result.get("credentials") is None


# One rejection kind: the storage API's 400 {error}.
MATRIX = harness.Matrix(PLANS, faults=("500 after applying", "dropped after applying", "rejected 400"),
                        check=credentials_under_credentials_only)


@pytest.mark.parametrize("plan, position, fault", MATRIX.cases())
def test_a_fault_at_any_storage_write_reports_the_truth_sends_nothing_twice_and_the_rerun_converges(server, plan, position, fault):
    MATRIX.check_fault(server, plan, position, fault)
