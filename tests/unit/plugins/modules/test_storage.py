# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""storage with state=present, in process against the simulator over HTTP: every option limit refused before any
request, create and wait, one PATCH of the differences, passwords, credentials only under ``credentials``."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from ansible.module_utils.testing import patch_module_args

from ansible_collections.gcore.platform.plugins.modules import storage
from simulator.core import DEFAULT_API_KEY
from simulator.resources import storage as sim_storage

import harness
from harness import writes

MARK = sim_storage.CREDENTIAL_MARK


def run(server, **args):
    return harness.run(server, storage, args)


def fail_message(args):
    return harness.fail_message(storage, args)


SFTP = dict(state="present", type="sftp", name="drop", location="s-ed1")


@pytest.mark.parametrize("args, expected", [
    (dict(state="present", name="x"), "state is present but all of the following are missing: type"),
    (dict(state="present", type="s3_compatible"), "one of the following is required: storage_id, name"),
    (dict(state="absent", name="x"), "type: required to find a storage by name"),
    (dict(storage_id=0, type="sftp"), "storage_id: 0 is out of range"),
    (dict(storage_id=2 ** 63, type="sftp"), "storage_id"),
    (dict(SFTP, name=""), "name: must not be empty"),
    (dict(SFTP, name="  "), "name: must not be only whitespace"),
    (dict(SFTP, name="a\nb"), "name: must not hold control characters"),
    (dict(SFTP, location="s-ed1\t"), "location: must not hold control characters"),
    (dict(SFTP, server_alias="a\x00b"), "server_alias: must not hold control characters"),
    (dict(SFTP, expires=" "), "expires: must not be only whitespace"),
    (dict(SFTP, password_mode="set"), "password_mode is set but all of the following are missing: sftp_password"),
    (dict(SFTP, password_mode="set", sftp_password="short7!"), "sftp_password: length 7 is out of range (must be 8 to 63)"),
    (dict(SFTP, password_mode="set", sftp_password="x" * 64), "sftp_password: length 64 is out of range"),
    (dict(SFTP, password_mode="set", sftp_password="eight\nchars"), "sftp_password: must not hold control characters"),
    (dict(SFTP, password_mode="auto", sftp_password="long-enough"), "sftp_password: only with password_mode=set"),
    (dict(SFTP, password_mode="none", update_password="always"), "update_password: always needs password_mode=auto"),
    (dict(SFTP, password_mode="set", password="short7!"), "sftp_password: length 7 is out of range (must be 8 to 63)"),
    (dict(SFTP, password_mode="sometimes"), "value of password_mode must be one of: auto, set, none"),
    (dict(SFTP, ssh_key_ids=[0]), "ssh_key_ids[0]: 0 is out of range"),
    (dict(SFTP, ssh_key_ids=[True]), "ssh_key_ids[0]: a boolean"),
    (dict(SFTP, is_http_disabled="perhaps"), "is_http_disabled"),
    (dict(SFTP, wait_timeout=0), "wait_timeout: 0 is out of range"),
    (dict(SFTP, type="s3_compatible", server_alias="a.example.com"), "server_alias: only for type=sftp storages"),
    (dict(state="absent", storage_id=5, type="sftp", ssh_key_ids=[1]), "ssh_key_ids: only with state=present"),
    (dict(state="absent", storage_id=5, type="sftp", location="s-ed1"), "location: only with state=present"),
    (dict(SFTP, state="gone"), "value of state must be one of: present, absent"),
])
def test_every_option_limit_fails_before_any_request(args, expected):
    message = fail_message(args)
    assert expected in message
    assert "eight\nchars" not in message and "short7!" not in message  # a given password is never shown


def test_s3_create_waits_for_active_and_returns_the_keys_only_under_credentials(server):
    server.hold()
    server.release(after={"method": "GET", "path": "/storage/v4/object_storages/", "times": 2})
    result = run(server, state="present", type="s3_compatible", name="media", location="s-ed1")
    assert result["changed"] is True and result["storage"]["provisioning_status"] == "active"
    pair = result["credentials"]["access_keys"][0]
    assert pair["secret_key"].startswith(MARK) and pair["access_key"].startswith(MARK)
    rest = json.dumps(dict((key, value) for key, value in result.items() if key != "credentials"))
    assert MARK not in rest
    assert [entry["method"] for entry in server.requests()] == ["GET", "POST", "GET", "GET", "GET"]
    assert writes(server) == [("POST", "/storage/v4/object_storages", {"name": "media", "location_name": "s-ed1"})]
    again = run(server, state="present", type="s3_compatible", name="media", location="s-ed1")
    assert again["changed"] is False and again["credentials"] is None and len(writes(server)) == 1


def test_a_wait_timeout_still_returns_the_credentials_and_says_the_change_was_sent(server):
    server.hold()
    result = run(server, state="present", type="s3_compatible", name="media", location="s-ed1", wait_timeout=1)
    assert result["failed"] is True and result["changed"] is True
    assert "is still creating after wait_timeout=1s" in result["msg"] and "the change was sent" in result["msg"]
    assert result["credentials"]["access_keys"][0]["secret_key"].startswith(MARK)
    assert MARK not in result["msg"]
    server.release()


def test_an_unexpected_status_fails_naming_it(server):
    server.configure(task_fail={"storage_create": "no capacity"})
    result = run(server, state="present", type="sftp", name="drop", location="s-ed1", password_mode="auto")
    assert result["failed"] is True and "is deleted, not active" in result["msg"]
    assert result["credentials"]["password"].startswith(MARK)


def test_found_by_exact_name_on_the_second_page(server):
    result = run(server, state="present", type="s3_compatible", name="tenant", location="s-ed1")
    assert result["changed"] is False and result["storage"]["id"] == 400
    lists = server.requests("GET", r"^/storage/v4/object_storages$")
    assert len(lists) == 2 and all("name=tenant" in entry["query"] for entry in lists)


def test_an_s3_storage_cannot_move(server):
    result = run(server, state="present", type="s3_compatible", name="media-archive", location="s-darz")
    assert result["failed"] is True and "a storage cannot move" in result["msg"] and writes(server) == []


def test_unknown_members_are_kept_and_not_compared(server):
    with mock.patch.object(sim_storage, "s3_view", side_effect=lambda record, view=sim_storage.s3_view: dict(view(record), type="fast")):
        result = run(server, state="present", type="s3_compatible", name="media-archive", location="s-ed1")
    assert result["changed"] is False and result["storage"]["type"] == "fast" and writes(server) == []


@pytest.mark.parametrize("option, value, sent", [
    ("server_alias", "files.example.com", {"server_alias": "files.example.com"}),
    ("server_alias", "", None),  # seeded 202 has none
    ("expires", "2 years", {"expires": "2 years"}),
    ("is_http_disabled", False, {"is_http_disabled": False}),
    ("has_custom_config_file", True, {"has_custom_config_file": True}),
    ("ssh_key_ids", [], {"ssh_key_ids": []}),
    ("ssh_key_ids", [902], None),  # the seeded key, as a set
    ("ssh_key_ids", [11, 902, 11], {"ssh_key_ids": [11, 902]}),
    ("password_mode", "none", {"password_mode": "none"}),
    ("password_mode", "auto", None),
])
def test_every_sftp_option_alone_is_one_patch_with_only_that_member(server, option, value, sent):
    result = run(server, state="present", type="sftp", name="ingest-sftp", **{option: value})
    assert result["changed"] is (sent is not None)
    assert writes(server) == ([("PATCH", "/storage/v4/sftp_storages/202", sent)] if sent else [])
    assert result["credentials"] is None


def test_rotating_the_password_every_run(server):
    for _run in range(2):
        result = run(server, state="present", type="sftp", storage_id=202, password_mode="auto", update_password="always")
        assert result["changed"] is True and result["credentials"]["password"].startswith(MARK)
        assert MARK not in json.dumps(result["storage"]) + json.dumps(result["diff"])
    assert writes(server) == [("PATCH", "/storage/v4/sftp_storages/202", {"password_mode": "auto"})] * 2


def test_a_given_password_is_set_on_a_storage_without_one_and_kept_on_one_that_has_one(server):
    run(server, state="present", type="sftp", storage_id=202, password_mode="none")
    result = run(server, state="present", type="sftp", storage_id=202, password_mode="set", password="sim-cred-given-1")
    assert result["changed"] is True and result["credentials"] is None  # the user's own password is not returned
    assert writes(server)[-1] == ("PATCH", "/storage/v4/sftp_storages/202", {"password_mode": "set", "password": "sim-cred-given-1"})
    assert "sim-cred-given-1" not in json.dumps(result)
    # It has a password now: kept (update_password on_create), nothing sent, and a warning says the given one was not used.
    result = run(server, state="present", type="sftp", storage_id=202, password_mode="set", sftp_password="sim-cred-given-2")
    assert result["changed"] is False and len(writes(server)) == 2
    assert "which it keeps (update_password: on_create)" in json.dumps(result["warnings"])
    # update_password always: the PATCH every run.
    for _run in range(2):
        result = run(server, state="present", type="sftp", storage_id=202, password_mode="set", sftp_password="sim-cred-given-2",
                     update_password="always")
        assert result["changed"] is True and result["credentials"] is None
    assert writes(server)[-2:] == [("PATCH", "/storage/v4/sftp_storages/202", {"password_mode": "set", "password": "sim-cred-given-2"})] * 2


def test_sftp_create_sends_the_options_given(server):
    result = run(server, state="present", type="sftp", name="drop", location="s-darz", password_mode="set",
                 sftp_password="sim-cred-given-2", ssh_key_ids=[12, 11], server_alias="", expires="1 year", is_http_disabled=True)
    assert result["changed"] is True and result["credentials"] is None  # the user's own password is not returned
    assert writes(server) == [("POST", "/storage/v4/sftp_storages", {
        "name": "drop", "location_name": "s-darz", "password_mode": "set", "password": "sim-cred-given-2",
        "is_http_disabled": True, "expires": "1 year", "ssh_key_ids": [11, 12]})]
    assert result["storage"]["ssh_key_ids"] == [11, 12] and result["storage"]["provisioning_status"] == "active"


def test_required_to_create_and_an_id_cannot_be_created(server):
    result = run(server, state="present", type="sftp", name="drop", location="s-ed1")
    assert result["failed"] is True and "password_mode: required to create" in result["msg"]
    result = run(server, state="present", type="s3_compatible", storage_id=999, location="s-ed1")
    assert result["failed"] is True and "an id cannot be created" in result["msg"] and writes(server) == []


def test_a_name_held_by_a_storage_being_deleted_is_a_409(server):
    result = run(server, state="present", type="sftp", name="retired-drop", location="s-darz", password_mode="none")
    assert result["failed"] is True and result["changed"] is False and result["api_error"]["status"] == 409


def test_check_mode_and_diff_send_nothing(server):
    with patch_module_args(dict(SFTP, password_mode="auto", _ansible_check_mode=True, _ansible_diff=True,
                                api_key=DEFAULT_API_KEY, api_url=server.url)), mock.patch("sys.stdout") as stdout:
        with pytest.raises(SystemExit):
            storage.main()
    result = json.loads("".join(call.args[0] for call in stdout.write.call_args_list))
    assert result["changed"] is True and result["credentials"] is None and writes(server) == []
    assert result["diff"] == {"before": {"state": "absent"},
                              "after": {"name": "drop", "location_name": "s-ed1", "has_password": True, "state": "present"}}
