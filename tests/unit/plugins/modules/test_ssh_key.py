# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""ssh_key in process against the simulator over HTTP: project-scoped (no region_id), found by exact name over every
page, create (uploaded or generated: the private key only under ``private_key``, once), a second run with no write,
check mode, diff, sharing, and each refusal before any write."""

from __future__ import annotations

import json

import pytest

from ansible_collections.gcore.platform.plugins.modules import ssh_key
from simulator.resources.ssh_keys import DEPLOY_KEY, PRIVATE_MARK

import harness
from harness import writes

KEYS = "/cloud/v1/ssh_keys/1"
OTHER_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOther0nJ8oVbQ0r3mXq5nYwq9Hh9m2xRr8m4Sx3kQ9aZt other@host"


def run(server, **args):
    server.log = []
    return harness.run(server, ssh_key, dict(dict(project_id=1), **args), _ansible_diff=True)


def outside_private_key(result):
    return json.dumps(dict((key, value) for key, value in result.items() if key != "private_key"))


@pytest.mark.parametrize("args, expected", [
    (dict(project_id=1), "missing required arguments: name"),
    (dict(project_id=0, name="abc"), "project_id: 0 is out of range"),
    (dict(project_id=1, name="abc", region_id=76), "Unsupported parameters"),
    (dict(project_id=1, name="ab"), "name: length 2 is out of range"),
    (dict(project_id=1, name="-abc"), "name: "),
    (dict(project_id=1, name="abc\n"), "name: "),
    (dict(project_id=1, name="abc", ssh_key_id="nope"), "ssh_key_id"),
    (dict(project_id=1, name="abc", public_key="ssh-ed25519"), "public_key: is not an OpenSSH public key"),
    (dict(project_id=1, name="abc", public_key="ssh-ed25519 AAAA\nssh-rsa AAAA"), "public_key: is not an OpenSSH public key"),
    (dict(project_id=1, name="abc", public_key="-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY-----"),
     "public_key: holds a private key (not shown)"),
    (dict(project_id=1, name="abc", wait_timeout=0), "wait_timeout: 0 is out of range"),
    (dict(project_id=1, name="abc", state="gone"), "value of state must be one of: present, absent"),
])
def test_every_option_limit_fails_before_any_request(args, expected):
    message = harness.fail_message(ssh_key, args)
    assert expected in message
    assert "b3Blbn" not in message  # a private key given by mistake is never shown


def test_the_project_comes_from_the_environment_and_there_is_no_region(server, monkeypatch):
    monkeypatch.setenv("GCORE_CLOUD_PROJECT_ID", "1")
    server.log = []
    result = harness.run(server, ssh_key, dict(name="deploy", **harness.ECHOED))
    assert result["changed"] is False and result["ssh_key"]["name"] == "deploy"
    assert "region_id" not in result["invocation"]["module_args"]


def test_a_generated_key_returns_its_private_key_only_under_private_key_and_only_once(server):
    result = run(server, name="generated")
    assert result["changed"] is True
    assert result["private_key"].startswith("-----BEGIN OPENSSH PRIVATE KEY-----") and PRIVATE_MARK in result["private_key"]
    assert PRIVATE_MARK not in outside_private_key(result) and "PRIVATE KEY" not in outside_private_key(result)
    assert result["ssh_key"]["name"] == "generated" and "private_key" not in result["ssh_key"]
    assert result["diff"] == {"before": {"state": "absent"}, "after": {"name": "generated", "state": "present"}}
    assert writes(server) == [("POST", KEYS, {"name": "generated"})]
    again = run(server, name="generated")
    assert again["changed"] is False and again["private_key"] is None and writes(server) == []


def test_an_uploaded_key_is_found_by_exact_name_past_the_first_page_and_compared_without_its_comment(server):
    result = run(server, name="uploaded", public_key=OTHER_KEY + "\n", shared_in_project=False)
    assert result["changed"] is True and result["private_key"] is None
    assert writes(server) == [("POST", KEYS, {"name": "uploaded", "public_key": OTHER_KEY, "shared_in_project": False})]
    again = run(server, name="uploaded", public_key=OTHER_KEY.replace("other@host", "laptop"), shared_in_project=False)
    assert again["changed"] is False and writes(server) == []
    assert [entry["query"] for entry in server.requests("GET")] == ["name=uploaded&limit=1000&offset=0"]


def test_deploy_is_told_apart_from_deploy_old(server):
    result = run(server, name="deploy", public_key=DEPLOY_KEY)
    assert result["changed"] is False and result["ssh_key"]["id"] == server.seeds["ssh_keys"]["ssh_keys"]["deploy"]


def test_check_mode_sends_nothing_and_shows_the_diff(server):
    result = run(server, name="checked", public_key=OTHER_KEY, _ansible_check_mode=True)
    assert result["changed"] is True and result["ssh_key"] is None and result["private_key"] is None
    assert result["diff"]["after"] == {"name": "checked", "public_key": OTHER_KEY, "state": "present"}
    deleted = run(server, name="deploy", state="absent", _ansible_check_mode=True)
    assert deleted["changed"] is True and deleted["diff"]["after"] == {"state": "absent"}
    assert writes(server) == []


def test_sharing_changes_with_one_patch(server):
    ident = server.seeds["ssh_keys"]["ssh_keys"]["deploy"]
    result = run(server, name="deploy", shared_in_project=False)
    assert result["changed"] is True and result["ssh_key"]["shared_in_project"] is False
    assert result["diff"]["before"]["shared_in_project"] is True and result["diff"]["after"]["shared_in_project"] is False
    assert writes(server) == [("PATCH", "%s/%s" % (KEYS, ident), {"shared_in_project": False})]
    assert run(server, name="deploy", shared_in_project=False)["changed"] is False and writes(server) == []


def test_another_public_key_under_the_name_fails_saying_to_delete_it_or_use_another_name(server):
    result = run(server, name="deploy", public_key=OTHER_KEY, shared_in_project=False)
    assert result["failed"] is True and result["changed"] is False
    assert "holds another public key" in result["msg"] and "delete it first (state=absent) or use another name" in result["msg"]
    assert writes(server) == []


def test_by_id_the_name_must_be_the_keys(server):
    ident = server.seeds["ssh_keys"]["ssh_keys"]["deploy"]
    assert run(server, ssh_key_id=ident.upper(), name="deploy")["changed"] is False
    result = run(server, ssh_key_id=ident, name="renamed")
    assert result["failed"] is True and "cannot be renamed" in result["msg"] and writes(server) == []
    missing = run(server, ssh_key_id="00000000-0000-4000-8000-000000000000", name="deploy")
    assert missing["failed"] is True and "an id cannot be created" in missing["msg"]


def test_absent_deletes_once(server):
    ident = server.seeds["ssh_keys"]["ssh_keys"]["deploy"]
    result = run(server, name="deploy", state="absent")
    assert result["changed"] is True and result["ssh_key"] is None
    assert writes(server) == [("DELETE", "%s/%s" % (KEYS, ident), None)]
    assert run(server, name="deploy", state="absent")["changed"] is False and writes(server) == []


def test_a_lost_create_answer_of_a_generated_key_fails_changed_naming_the_key_and_how_to_replace_it(server):
    """Issue 34: a generated key whose answer is lost is a key nobody holds: the task fails (the save task after it is
    not run on a green play), changed, with the key's id; a re-run finds the key and sends nothing."""
    server.add_fault(method="POST", path="/cloud/v1/ssh_keys/1$", drop=True, applied=True)
    result = run(server, name="generated", api_retries=1)
    assert result["failed"] is True and result["changed"] is True and result["private_key"] is None, result
    ident = result["ssh_key"]["id"]
    assert result["msg"] == (  # the flow adds the write, confirmed by the state read again
        "SSH key 'generated' (id %s) was created, but the answer holding its generated private key was lost, and a private "
        "key cannot be read again: nobody holds it. Replace it: delete the key (state: absent, ssh_key_id: %s) and run this "
        "task again to generate a new pair, or give public_key; the writes before it were accepted (POST %s)" % (ident, ident, KEYS))
    assert len(writes(server)) == 1
    server.log = []
    again = run(server, name="generated")
    assert not again.get("failed") and again["changed"] is False and writes(server) == []
