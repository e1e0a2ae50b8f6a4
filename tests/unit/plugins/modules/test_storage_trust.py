# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 25 ("Trust in the field") for the storage modules, in process against the simulator over HTTP: a private key
given as a public key is masked in the echoed arguments; a rotated password whose answer was lost is reported; id
and name must agree and the type must be the storage's; a forgotten ``state`` never deletes by name; an unknown
storage is not an absent bucket; a given password for an existing storage is not silently ignored; ``expires`` is
compared as a duration."""

from __future__ import annotations

import json

import pytest

from ansible_collections.gcore.platform.plugins.modules import storage, storage_bucket, storage_ssh_key
from simulator.resources import storage as sim_storage

import harness
from harness import writes

MARK = sim_storage.CREDENTIAL_MARK
PRIVATE_BODY = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQ"
PRIVATE_KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\n%s\n-----END OPENSSH PRIVATE KEY-----\n" % PRIVATE_BODY


def run(server, module=storage, check=False, **args):
    options = {"_ansible_check_mode": True} if check else {}
    return harness.run(server, module, args, **options)


def reads(server):
    return [(entry["method"], entry["path"]) for entry in server.requests() if not entry["write"]]


# ---- 1. a private key given as public_key is masked wherever Ansible prints the module's arguments -----------------

@pytest.mark.parametrize("key", [PRIVATE_KEY, PRIVATE_KEY.strip(), "  " + PRIVATE_KEY])
def test_a_private_key_is_refused_and_masked_in_the_echoed_arguments(key):
    args = dict(name="deploy", public_key=key, api_key="unit-test-key", api_url="http://127.0.0.1:9", **harness.ECHOED)
    result = harness.result_of(storage_ssh_key, args)
    assert result["failed"] is True and "public_key: holds a private key (not shown)" in result["msg"]
    assert "invocation" in result and "public_key" in result["invocation"]["module_args"]
    assert PRIVATE_BODY not in json.dumps(result), result["invocation"]


# ---- 2. a rotated password whose answer was lost ---------------------------------------------------------------------

@pytest.mark.parametrize("fault", [dict(status=500, applied=True), dict(drop=True, applied=True)], ids=["500", "dropped"])
def test_a_rotation_whose_answer_was_lost_is_a_change_with_a_warning(server, fault):
    server.add_fault(method="PATCH", path=r"^/storage/v4/sftp_storages/202$", **fault)
    result = run(server, state="present", type="sftp", storage_id=202, password_mode="auto", update_password="always",
                 api_retries=1)
    assert not result.get("failed"), result["msg"]
    assert result["changed"] is True and result["credentials"] is None
    assert writes(server) == [("PATCH", "/storage/v4/sftp_storages/202", {"password_mode": "auto"})]
    texts = harness.warning_texts(result)
    assert any("new password could not be returned" in text and "update_password: always" in text for text in texts), texts
    assert MARK not in json.dumps(result)


def test_a_first_generated_password_whose_answer_was_lost_is_told(server):
    run(server, state="present", type="sftp", storage_id=202, password_mode="none")
    server.add_fault(method="PATCH", path=r"^/storage/v4/sftp_storages/202$", status=500, applied=True)
    result = run(server, state="present", type="sftp", storage_id=202, password_mode="auto", api_retries=0)
    assert result["changed"] is True and result["credentials"] is None and result["storage"]["has_password"] is True
    texts = harness.warning_texts(result)
    assert any("new password could not be returned" in text and "update_password: always" in text for text in texts), texts


def test_a_rotation_rejected_is_no_change(server):
    server.add_fault(method="PATCH", path=r"^/storage/v4/sftp_storages/202$", status=400, body="injected rejection")
    result = run(server, state="present", type="sftp", storage_id=202, password_mode="auto", update_password="always")
    assert result["failed"] is True and result["changed"] is False and not result.get("warnings")


# ---- 3. storage_id and name agree; the type is the storage's -----------------------------------------------------------

@pytest.mark.parametrize("args", [
    dict(state="absent", type="sftp"),
    dict(state="absent"),  # the v1 path: its record's name carries the client ID prefix
    dict(state="present", type="sftp"),
    dict(type="sftp", check=True, state="absent"),
])
def test_storage_id_and_a_name_that_is_not_its_own_fail_naming_both_and_send_nothing_but_the_read(server, args):
    result = run(server, storage_id=102, name="wrong-name", **args)
    assert result["failed"] is True and result["changed"] is False
    assert "102" in result["msg"] and "'wrong-name'" in result["msg"] and "'" in result["msg"] and "partner-uploads" in result["msg"]
    assert writes(server) == [] and len(reads(server)) == 1, reads(server)
    assert server.storages[102]["provisioning_status"] == "ok"


@pytest.mark.parametrize("state", ["absent", "present"])
def test_storage_id_and_its_own_name_agree(server, state):
    extra = {"location": "s-ed1"} if state == "present" else {}
    result = run(server, state=state, type="sftp", storage_id=102, name="partner-uploads", **extra)
    assert not result.get("failed"), result["msg"]
    assert result["changed"] is (state == "absent")


@pytest.mark.parametrize("args", [
    dict(state="absent"),
    dict(),  # state left out: the original delete form
    dict(state="present", location="s-ed1"),
    dict(state="absent", check=True),
])
def test_an_id_of_the_other_type_fails_saying_so_in_every_state(server, args):
    result = run(server, storage_id=102, type="s3_compatible", **args)
    assert result["failed"] is True and result["changed"] is False
    assert "storage 102 is an sftp storage" in result["msg"] and "type=sftp" in result["msg"]
    assert writes(server) == []


def test_an_unknown_id_is_still_absent(server):
    result = run(server, storage_id=999, type="s3_compatible")
    assert not result.get("failed") and result["changed"] is False and result["storage"] is None


# ---- risk: a forgotten state never deletes a storage found by name ----------------------------------------------------

@pytest.mark.parametrize("args, named", [
    (dict(type="sftp", name="partner-uploads"), "name"),
    (dict(type="sftp", storage_id=102, name="partner-uploads"), "name"),
    (dict(type="sftp", storage_id=102, server_alias=""), "server_alias"),
    (dict(type="s3_compatible", storage_id=101, location="s-ed1"), "location"),
    (dict(type="sftp", storage_id=102, update_password="on_create"), "update_password"),
])
def test_without_state_only_the_delete_by_id_form_is_accepted(server, args, named):
    result = run(server, **args)
    assert result["failed"] is True and "state: not given, and %s given" % named in result["msg"]
    assert "state: present" in result["msg"] and "state: absent" in result["msg"]
    assert server.requests() == []
    assert server.storages[102]["provisioning_status"] == "ok"


def test_without_state_the_delete_by_id_still_deletes(server):
    result = run(server, storage_id=201, type="s3_compatible")
    assert result["changed"] is True and writes(server) == [("DELETE", "/storage/v4/object_storages/201", None)]


# ---- risk: a given password for an existing storage ----------------------------------------------------------------------

def test_a_given_password_for_a_storage_that_has_one_is_not_used_and_a_warning_says_so(server):
    result = run(server, state="present", type="sftp", storage_id=202, password_mode="set", sftp_password="sim-cred-new-one")
    assert result["changed"] is False and writes(server) == []
    texts = harness.warning_texts(result)
    assert len(texts) == 1 and "sftp_password" in texts[0] and "has a password, which it keeps" in texts[0]
    assert "update_password: always" in texts[0] and "sim-cred-new-one" not in json.dumps(result)


# ---- risk: expires compared as a duration --------------------------------------------------------------------------------

@pytest.mark.parametrize("given, sent", [
    ("18 months", None),  # the simulator shows 102's expiry as "1 year 6 months"
    ("1 Year 6 Months", None),
    ("1 year 26 weeks", {"expires": "1 year 26 weeks"}),
    ("2 years 6 months", {"expires": "2 years 6 months"}),
])
def test_expires_is_compared_as_a_duration(server, given, sent):
    result = run(server, state="present", type="sftp", storage_id=102, expires=given)
    assert result["changed"] is (sent is not None)
    assert writes(server) == ([("PATCH", "/storage/v4/sftp_storages/102", sent)] if sent else [])
    assert run(server, state="present", type="sftp", storage_id=102, expires=given)["changed"] is False


def test_durations():
    assert storage.duration("2 years 6 months") == storage.duration("30 months") == (30, 0)
    assert storage.duration("1 week 1 day") == storage.duration("8 days") == storage.duration("192 hours")
    assert storage.duration("") == () and storage.duration("2027-02-05") == "2027-02-05"
    assert storage.duration("1 year and 2 months") == "1 year and 2 months"


# ---- 4. storage_bucket: an unknown storage is not an absent bucket ---------------------------------------------------------

@pytest.mark.parametrize("check", [False, True])
def test_a_bucket_of_an_unknown_storage_fails_naming_it(server, check):
    result = run(server, storage_bucket, check=check, storage_id=999, name="logs")
    assert result["failed"] is True and result["changed"] is False
    assert "storage_id: no S3-compatible storage 999" in result["msg"]
    assert writes(server) == []


def test_a_bucket_of_an_sftp_storage_fails_too(server):
    result = run(server, storage_bucket, storage_id=102, name="logs")
    assert result["failed"] is True and "storage 102" in result["msg"] and writes(server) == []


@pytest.mark.parametrize("check", [False, True])
def test_an_absent_bucket_of_an_unknown_storage_is_no_change_with_a_warning(server, check):
    result = run(server, storage_bucket, check=check, storage_id=999, name="logs", state="absent")
    assert not result.get("failed") and result["changed"] is False and result["bucket"] is None
    texts = harness.warning_texts(result)
    assert len(texts) == 1 and "no S3-compatible storage 999" in texts[0]
    assert writes(server) == []


def test_an_absent_bucket_of_a_known_storage_warns_nothing(server):
    result = run(server, storage_bucket, storage_id=101, name="logs", state="absent")
    assert result["changed"] is False and not result.get("warnings")
