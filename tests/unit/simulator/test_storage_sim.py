# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The simulated v4 storage lifecycle answers as the published API does: shapes, 400 {error}, 409, paging with a
total count, provisioning on the simulator's clock, credentials only on create and PATCH, buckets and SSH keys."""

from __future__ import annotations

import pytest

from simulator.core import Simulator
from simulator.resources.storage import CREDENTIAL_MARK

S3 = "/storage/v4/object_storages"
SFTP = "/storage/v4/sftp_storages"
S3_MEMBERS = {"id", "name", "full_name", "address", "location_name", "created_at", "provisioning_status", "type"}
SFTP_MEMBERS = S3_MEMBERS - {"type"} | {"expires", "server_alias", "has_password", "has_custom_config_file", "is_http_disabled", "ssh_key_ids"}


@pytest.fixture
def sim():
    simulator = Simulator()
    simulator.configure(task_delay=0)  # provisioning ends at the next request; hold() keeps it running
    return simulator


def test_s3_create_answers_keys_once_and_is_creating_until_the_clock_says_so(sim):
    sim.hold()
    status, body = sim.call("POST", S3, {"name": "media", "location_name": "s-ed1"})
    assert status == 201 and set(body) == S3_MEMBERS | {"access_keys"}
    assert body["provisioning_status"] == "creating" and body["full_name"] == "1-media"
    assert all(value.startswith(CREDENTIAL_MARK) for value in body["access_keys"][0].values())
    status, read = sim.call("GET", "%s/%s" % (S3, body["id"]))
    assert status == 200 and set(read) == S3_MEMBERS and read["provisioning_status"] == "creating"
    sim.release()
    assert sim.call("GET", "%s/%s" % (S3, body["id"]))[1]["provisioning_status"] == "active"


def test_a_failed_provisioning_ends_deleted(sim):
    sim.configure(task_fail={"storage_create": "no capacity"})
    _status, body = sim.call("POST", S3, {"name": "media", "location_name": "s-ed1"})
    assert sim.call("GET", "%s/%s" % (S3, body["id"]))[1]["provisioning_status"] == "deleted"


def test_duplicate_name_is_409_and_bad_input_is_400(sim):
    assert sim.call("POST", S3, {"name": "media-archive", "location_name": "s-ed1"}) == (409, {"error": "storage with name 'media-archive' already exists"})
    assert sim.call("POST", S3, {"name": "x", "location_name": "nowhere"})[0] == 400
    assert sim.call("POST", S3, {"location_name": "s-ed1"})[0] == 400
    assert sim.call("POST", SFTP, {"name": "x", "location_name": "s-ed1"})[0] == 400  # password_mode required
    assert sim.call("POST", SFTP, {"name": "x", "location_name": "s-ed1", "password_mode": "set", "sftp_password": "short"})[0] == 400
    assert sim.call("POST", SFTP, {"name": "x", "location_name": "s-ed1", "password_mode": "auto", "sftp_password": "long-enough"})[0] == 400
    assert sim.call("GET", S3, query="limit=0")[0] == 400
    assert sim.call("GET", S3, query="limit=1001")[0] == 400
    assert all(status != 422 for status, _body in [sim.call("POST", SFTP, {"name": "x", "location_name": "s-ed1", "password_mode": "bad"})])


def test_lists_page_with_a_total_count_and_filter_names_by_substring(sim):
    status, first = sim.call("GET", S3, query="name=tenant&limit=100")
    assert status == 200 and first["count"] == 106 and len(first["results"]) == 100
    _status, second = sim.call("GET", S3, query="name=tenant&limit=100&offset=100")
    assert second["count"] == 106 and len(second["results"]) == 6
    assert second["results"][-1]["name"] == "tenant"  # the oldest comes last (created_at.desc)
    assert sim.call("GET", S3)[1]["count"] > 100 and len(sim.call("GET", S3)[1]["results"]) == 10  # default limit
    deleted = sim.call("GET", S3, query="name=old-backups")[1]
    assert deleted["count"] == 0
    assert sim.call("GET", S3, query="name=old-backups&show_deleted=true")[1]["count"] == 1
    assert all(set(item) == SFTP_MEMBERS for item in sim.call("GET", SFTP)[1]["results"])


def test_sftp_create_and_patch(sim):
    status, body = sim.call("POST", SFTP, {"name": "drop", "location_name": "s-darz", "password_mode": "auto", "ssh_key_ids": [11],
                                           "server_alias": "drop.example.com", "expires": "2 years 6 months"})
    assert status == 201 and body["password"].startswith(CREDENTIAL_MARK) and body["has_password"] is True
    path = "%s/%s" % (SFTP, body["id"])
    read = sim.call("GET", path)[1]
    assert "password" not in read and read["ssh_key_ids"] == [11] and read["expires"] == "2 years 6 months"
    status, patched = sim.call("PATCH", path, {"ssh_key_ids": [12, 13], "server_alias": ""})
    assert status == 200 and patched["ssh_key_ids"] == [12, 13] and patched["server_alias"] == "" and "password" not in patched
    status, patched = sim.call("PATCH", path, {"password_mode": "auto"})
    assert patched["password"].startswith(CREDENTIAL_MARK) and patched["password"] != body["password"]
    assert sim.call("PATCH", path, {"password_mode": "none"})[1]["has_password"] is False
    assert sim.call("PATCH", path, {"password_mode": "set"})[0] == 400  # set needs the password
    assert sim.call("PATCH", path, {"password": "sim-cred-given-2"})[0] == 400  # a password needs set
    status, patched = sim.call("PATCH", path, {"password_mode": "set", "password": "sim-cred-given-2"})
    assert status == 200 and patched["password"] == "sim-cred-given-2" and patched["has_password"] is True
    assert sim.call("GET", path)[1]["has_password"] is True
    assert sim.call("PATCH", path, {"ssh_key_ids": [999]}) == (400, {"error": "ssh key 999 not found"})
    assert sim.call("PATCH", "%s/101" % SFTP, {"server_alias": ""})[0] == 404  # an S3 storage


def test_set_password_is_answered_and_none_has_no_password(sim):
    body = sim.call("POST", SFTP, {"name": "a", "location_name": "s-ed1", "password_mode": "set", "password": "sim-cred-given-1"})[1]
    assert body["password"] == "sim-cred-given-1"
    # The published member name, deprecated, is still answered; both at once is refused.
    body = sim.call("POST", SFTP, {"name": "c", "location_name": "s-ed1", "password_mode": "set", "sftp_password": "sim-cred-given-3"})[1]
    assert body["password"] == "sim-cred-given-3"
    assert sim.call("POST", SFTP, {"name": "d", "location_name": "s-ed1", "password_mode": "set", "password": "sim-cred-given-4",
                                   "sftp_password": "sim-cred-given-4"})[0] == 400
    body = sim.call("POST", SFTP, {"name": "b", "location_name": "s-ed1", "password_mode": "none"})[1]
    assert "password" not in body and body["has_password"] is False


def test_buckets(sim):
    base = "%s/101/buckets" % S3
    status, body = sim.call("POST", base, {"name": "logs.2026"})
    assert status == 201 and body == {"name": "logs.2026", "storage_id": 101, "cors": {"allowed_origins": []},
                                      "lifecycle": {"expiration_days": 0}, "policy": {"is_public": False}}
    assert sim.call("POST", base, {"name": "logs.2026"})[0] == 409
    assert sim.call("POST", base, {"name": "Logs"})[0] == 400
    patched = sim.call("PATCH", base + "/logs.2026", {"lifecycle": {"expiration_days": 30}, "cors": {"allowed_origins": ["*"]}})[1]
    assert patched["lifecycle"] == {"expiration_days": 30} and patched["cors"] == {"allowed_origins": ["*"]}
    patched = sim.call("PATCH", base + "/logs.2026", {"lifecycle": {"expiration_days": 0}, "cors": {"allowed_origins": []}})[1]
    assert patched["lifecycle"] == {"expiration_days": 0} and patched["cors"] == {"allowed_origins": []}
    assert sim.call("GET", base)[1]["count"] == 1
    assert sim.call("DELETE", base + "/logs.2026") == (204, None)
    assert sim.call("GET", base + "/logs.2026")[0] == 404
    # SDK 0.59: the create takes the settings too.
    status, body = sim.call("POST", base, {"name": "web", "cors": {"allowed_origins": ["https://a.example"]},
                                           "lifecycle": {"expiration_days": 7}, "policy": {"is_public": True}})
    assert status == 201 and body["cors"] == {"allowed_origins": ["https://a.example"]}
    assert body["lifecycle"] == {"expiration_days": 7} and body["policy"] == {"is_public": True}
    assert sim.call("POST", base, {"name": "web2", "acl": "x"})[0] == 400
    assert sim.call("GET", "%s/102/buckets" % S3)[0] == 404  # an SFTP storage has no buckets


def test_ssh_keys(sim):
    status, key = sim.call("POST", "/storage/v4/ssh_keys", {"name": "deploy", "public_key": "ssh-ed25519 AAAAC3Nza deploy@host"})
    assert status == 201 and set(key) == {"id", "name", "public_key", "created_at"}
    assert sim.call("POST", "/storage/v4/ssh_keys", {"name": "deploy", "public_key": "ssh-ed25519 AAAA x"})[0] == 409
    assert sim.call("POST", "/storage/v4/ssh_keys", {"name": "bad", "public_key": "not a key"})[0] == 400
    assert sim.call("GET", "/storage/v4/ssh_keys", query="name=deploy")[1]["count"] == 1
    assert sim.call("DELETE", "/storage/v4/ssh_keys/%s" % key["id"]) == (204, None)
    assert sim.call("GET", "/storage/v4/ssh_keys/%s" % key["id"])[0] == 404


def test_locations(sim):
    body = sim.call("GET", "/storage/v4/locations")[1]
    assert body["count"] == len(body["results"]) and {"s3_compatible", "sftp"} == set(item["type"] for item in body["results"])


def test_the_v1_and_v4_deletes_are_unchanged(sim):
    assert sim.call("DELETE", "/storage/provisioning/v1/storage/101") == (204, None)
    assert sim.call("DELETE", "/storage/provisioning/v1/storage/101")[0] == 400
    assert sim.call("DELETE", "%s/201" % S3) == (204, None)
    assert sim.call("DELETE", "%s/201" % S3)[0] == 404
