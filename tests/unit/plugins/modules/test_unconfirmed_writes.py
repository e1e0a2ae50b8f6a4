# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""An ambiguous write whose outcome stays unknown (a 5xx the service did not act on, so the state read again never shows
it) is read back until ``wait_timeout`` (``_tasks.SETTLE_TIMEOUT`` without one); then the module fails with ``changed:
true`` and a message saying the change "could not be confirmed" - never ``changed: false`` after a write that may have
been applied, never the write a second time, ``changes`` naming only what took effect - and the re-run converges. One
row per kind of write: a Cloud create and delete settled by their tasks (secret, placement group), a WAAP set's create
(no ``wait_timeout``), a fleet member's create (the message names the member).

The modules run in-process (their ``main``) against the real simulator over HTTP (the ``server`` fixture)."""

from __future__ import annotations

from unittest import mock

import pytest

from ansible_collections.gcore.platform.plugins.module_utils import _tasks
from ansible_collections.gcore.platform.plugins.modules import instances, placement_group, secret, waap_custom_rules

import harness
import pem

CLOUD = dict(project_id=1, region_id=76)
SECRET = dict(pem.payload(), name="unsure-cert", expiration="2027-01-31T23:59:59Z")
CUSTOM = {"name": "unsure", "enabled": True, "action": {"block": {}}, "conditions": [{"file_extension": {"file_extension": ["exe"]}}]}
FLEET = dict(CLOUD, count=2, name_format="unsure-{index}", flavor="g1-standard-2-4",
             volumes=[{"source": "image", "image_name": "ubuntu-22.04", "size": 10, "boot_index": 0}],
             interfaces=[{"type": "subnet", "network_id": "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01",
                          "subnet_id": "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01"}])

# A row: the module, its arguments, the seed (what exists first), the write that fails (method, path regex) and how
# many records of the name exist once it did (the re-run's work).
ROWS = {
    "secret create": (secret, dict(CLOUD, wait_timeout=2, **SECRET), None, ("POST", "^/cloud/v2/secrets/1/76$")),
    "secret delete": (secret, dict(CLOUD, wait_timeout=2, name="unsure-cert", state="absent"), dict(CLOUD, **SECRET),
                      ("DELETE", "^/cloud/v1/secrets/1/76/[^/]+$")),
    "placement group create": (placement_group, dict(CLOUD, wait_timeout=2, name="unsure-group", policy="anti-affinity"), None,
                               ("POST", "^/cloud/v1/servergroups/1/76$")),
    "waap set create": (waap_custom_rules, {"domain_id": 1006, "config": [CUSTOM]}, None, ("POST", "/custom-rules$")),
}


def writes(server):
    return [(entry["method"], entry["path"]) for entry in server.writes()]


@pytest.mark.parametrize("row", list(ROWS))
def test_an_unapplied_5xx_is_read_back_until_the_time_allowed_then_changed_and_not_confirmed(server, row):
    module, args, seed, (method, path) = ROWS[row]
    server.reset()
    server.configure(task_delay=0)
    if seed:
        assert not harness.run(server, module, seed).get("failed")
    server.log = []
    server.add_fault(method=method, path=path, status=500, body="injected, not applied")
    with mock.patch.object(_tasks, "SETTLE_TIMEOUT", 1):  # a module without wait_timeout reads back for a second here
        result = harness.run(server, module, args, api_retries=1)
    assert result["failed"] is True and result["changed"] is True, result
    assert "could not be confirmed" in result["msg"] and "not sent again" in result["msg"], result["msg"]
    sent = writes(server)
    assert len(sent) == 1 and sent[0][0] == method, "sent once: %s" % sent
    assert len([entry for entry in server.requests("GET")]) > 2, "read again more than once"
    changes = result.get("changes") or {}
    assert not any(changes.get(key) for key in ("created", "deleted", "updated")), changes
    server.log = []
    again = harness.run(server, module, args)
    assert not again.get("failed") and again["changed"] is True, again.get("msg")
    assert writes(server) == sent, "the re-run sends what did not happen"
    server.log = []
    assert harness.run(server, module, args)["changed"] is False and writes(server) == []


def test_a_fleet_member_whose_create_stays_unconfirmed_is_named_and_the_fleet_changed(server):
    server.reset()
    server.add_fault(method="POST", path="^/cloud/v2/instances/1/76$", status=500, skip=1, body="injected, not applied")
    result = harness.run(server, instances, dict(FLEET, wait_timeout=3))
    assert result["failed"] is True and result["changed"] is True, result
    assert "unsure-2: POST /cloud/v2/instances/1/76 failed with HTTP 500" in result["msg"], result["msg"]
    assert "could not be confirmed" in result["msg"] and result["changes"]["created"] == ["unsure-1"], result
    assert len(writes(server)) == 2, "each member's create sent once: %s" % writes(server)
