# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""storage_bucket, storage_ssh_key and storage_info in process against the simulator over HTTP: every option limit
refused before any request, the requests made, one PATCH of only what differs."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.modules import storage_bucket, storage_info, storage_ssh_key

import harness
from harness import fail_message, writes

BUCKETS = "/storage/v4/object_storages/101/buckets"
KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB2v0nJ8oVbQ0r3mXq5nYwq9Hh9m2xRr8m4Sx3kQ9aZt deploy@ci"


def run(server, module, **args):
    return harness.run(server, module, args)


BUCKET = dict(storage_id=101, name="logs")


@pytest.mark.parametrize("args, expected", [
    (dict(BUCKET, storage_id=0), "storage_id: 0 is out of range"),
    (dict(BUCKET, name="ab"), "name: 'ab' is not a bucket name"),
    (dict(BUCKET, name="a" * 64), "is not a bucket name"),
    (dict(BUCKET, name="Logs"), "is not a bucket name"),
    (dict(BUCKET, name="-logs"), "is not a bucket name"),
    (dict(BUCKET, name="logs\n"), "is not a bucket name"),
    (dict(BUCKET, name="logs_2026"), "is not a bucket name"),
    (dict(BUCKET, lifecycle={"expiration_days": -1}), "lifecycle.expiration_days: -1 is out of range"),
    (dict(BUCKET, lifecycle={"expiration_days": True}), "lifecycle.expiration_days: a boolean"),
    (dict(BUCKET, lifecycle={}), "missing required arguments: expiration_days"),
    (dict(BUCKET, cors={"allowed_origins": [""]}), "cors.allowed_origins[0]"),
    (dict(BUCKET, cors={"allowed_origins": ["https://a.example.com", "https://b example.com"]}), "cors.allowed_origins[1]"),
    (dict(BUCKET, cors={"allowed_origins": ["https://a.example.com\t"]}), "cors.allowed_origins[0]"),
    (dict(BUCKET, policy={"is_public": "perhaps"}), "is_public"),
    (dict(BUCKET, state="gone"), "value of state must be one of: present, absent"),
])
def test_bucket_limits_fail_before_any_request(args, expected):
    assert expected in fail_message(storage_bucket.StorageBucket, args)


def test_bucket_create_then_one_patch_of_what_the_create_did_not_set(server):
    result = run(server, storage_bucket, **dict(BUCKET, lifecycle={"expiration_days": 30}, policy={"is_public": False}))
    assert result["changed"] is True
    assert writes(server) == [("POST", BUCKETS, {"name": "logs"}), ("PATCH", BUCKETS + "/logs", {"lifecycle": {"expiration_days": 30}})]
    assert result["bucket"] == {"name": "logs", "storage_id": 101, "cors": {"allowed_origins": []}, "lifecycle": {"expiration_days": 30},
                                "policy": {"is_public": False}}
    again = run(server, storage_bucket, **dict(BUCKET, lifecycle={"expiration_days": 30}, policy={"is_public": False}))
    assert again["changed"] is False and len(writes(server)) == 2


def test_bucket_create_alone_is_one_post(server):
    result = run(server, storage_bucket, **BUCKET)
    assert result["changed"] is True and writes(server) == [("POST", BUCKETS, {"name": "logs"})]


@pytest.mark.parametrize("option, value, sent", [
    ("lifecycle", {"expiration_days": 7}, {"lifecycle": {"expiration_days": 7}}),
    ("lifecycle", {"expiration_days": 0}, {"lifecycle": {"expiration_days": 0}}),
    ("cors", {"allowed_origins": ["*"]}, {"cors": {"allowed_origins": ["*"]}}),
    ("cors", {"allowed_origins": ["https://b.example.com", "https://a.example.com"]}, None),  # a set
    ("cors", {"allowed_origins": []}, {"cors": {"allowed_origins": []}}),
    ("policy", {"is_public": True}, {"policy": {"is_public": True}}),
    ("policy", {"is_public": False}, None),
])
def test_bucket_each_setting_alone_is_one_patch_with_only_it(server, option, value, sent):
    server.call("POST", BUCKETS, {"name": "logs"})
    server.call("PATCH", BUCKETS + "/logs", {"lifecycle": {"expiration_days": 30},
                                             "cors": {"allowed_origins": ["https://a.example.com", "https://b.example.com"]}})
    server.log.clear()
    result = run(server, storage_bucket, **dict(BUCKET, **{option: value}))
    assert result["changed"] is (sent is not None)
    assert writes(server) == ([("PATCH", BUCKETS + "/logs", sent)] if sent else [])


def test_bucket_absent_twice(server):
    server.call("POST", BUCKETS, {"name": "logs"})
    server.log.clear()
    assert run(server, storage_bucket, **dict(BUCKET, state="absent"))["changed"] is True
    again = run(server, storage_bucket, **dict(BUCKET, state="absent"))
    assert again["changed"] is False and again["bucket"] is None
    assert writes(server) == [("DELETE", BUCKETS + "/logs", None)]


def test_bucket_409_is_reported_with_the_service_error(server):
    server.add_fault(status=409, method="POST", path=BUCKETS, body="bucket 'logs' already exists")
    result = run(server, storage_bucket, **BUCKET)
    assert result["failed"] is True and result["changed"] is False and "already exists" in result["msg"]


@pytest.mark.parametrize("args, expected", [
    (dict(name=""), "name: must not be empty"),
    (dict(name="a\tb"), "name: must not hold control characters"),
    (dict(name="deploy", public_key="ssh-ed25519"), "public_key: is not an OpenSSH public key"),
    (dict(name="deploy", public_key="ssh-dsa AAAA x"), "public_key: is not an OpenSSH public key"),
    (dict(name="deploy", public_key="ssh-ed25519 AAAA\nssh-rsa BBBB"), "public_key: is not an OpenSSH public key"),
    (dict(name="deploy", public_key="-----BEGIN OPENSSH PRIVATE KEY-----\nsim-secret-body\n-----END OPENSSH PRIVATE KEY-----"),
     "public_key: holds a private key (not shown)"),
])
def test_ssh_key_limits_fail_before_any_request(args, expected):
    message = fail_message(storage_ssh_key.StorageSshKey, args)
    assert expected in message and "sim-secret-body" not in message


def test_ssh_key_create_again_and_a_different_key_fails(server):
    result = run(server, storage_ssh_key, name="deploy", public_key=KEY)
    assert result["changed"] is True and result["ssh_key"]["name"] == "deploy"
    assert writes(server) == [("POST", "/storage/v4/ssh_keys", {"name": "deploy", "public_key": KEY})]
    assert run(server, storage_ssh_key, name="deploy", public_key=KEY.replace("deploy@ci", "other comment"))["changed"] is False
    result = run(server, storage_ssh_key, name="deploy", public_key="ssh-rsa AAAAB3NzaC1yc2E other")
    assert result["failed"] is True and "cannot be changed in place" in result["msg"] and len(writes(server)) == 1


def test_ssh_key_absent_twice_and_required_to_create(server):
    assert run(server, storage_ssh_key, name="ci-runner", state="absent")["changed"] is True
    assert run(server, storage_ssh_key, name="ci-runner", state="absent")["changed"] is False
    assert writes(server) == [("DELETE", "/storage/v4/ssh_keys/12", None)]
    result = run(server, storage_ssh_key, name="new-key")
    assert result["failed"] is True and "public_key: required to create" in result["msg"]


def test_info_every_page_exact_name_and_location(server):
    every = run(server, storage_info, type="s3_compatible")["storages"]
    assert len(every) > 100 and all("access_keys" not in item for item in every)
    assert [item["id"] for item in run(server, storage_info, type="s3_compatible", name="tenant")["storages"]] == [400]
    assert run(server, storage_info, type="sftp", location="s-darz")["storages"]
    assert all(item["location_name"] == "s-darz" for item in run(server, storage_info, type="sftp", location="s-darz")["storages"])
    assert run(server, storage_info, type="sftp", storage_id=101)["storages"] == []  # an S3 storage
    assert [item["id"] for item in run(server, storage_info, type="sftp", storage_id=102)["storages"]] == [102]
    assert run(server, storage_info, type="s3_compatible", storage_id=103)["storages"] == []  # deleted
    assert server.writes() == []


@pytest.mark.parametrize("args, expected", [
    (dict(type="sftp", storage_id=0), "storage_id: 0 is out of range"),
    (dict(type="sftp", name=" "), "name: must not be empty"),
    (dict(type="sftp", location="s-ed1\n"), "location: must not hold control characters"),
    (dict(type="sftp", storage_id=1, name="x"), "mutually exclusive"),
    (dict(), "missing required arguments: type"),
])
def test_info_limits_fail_before_any_request(args, expected):
    assert expected in fail_message(storage_info.StorageInfo, args)
