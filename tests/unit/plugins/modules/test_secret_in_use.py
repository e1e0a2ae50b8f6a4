# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A secret a listener uses: the simulator refuses its delete with a 409, as the service does, and the
module - which refuses first, naming the listener - does not take that 409 for a lock when a listener starts using the
secret after the module read the listeners: one DELETE, reported as the service worded it, nothing sent again."""

from __future__ import annotations

from unittest import mock

from ansible_collections.gcore.platform.plugins.modules import secret
from simulator.resources.secrets import SEEDED

import harness

BASE = dict(project_id=1, region_id=76)


def tls_listener(server):
    lb = server.seeds["load_balancers"]["legacy_lb"]
    body = {"name": "tls", "protocol": "TERMINATED_HTTPS", "protocol_port": 443, "load_balancer_id": lb, "secret_id": SEEDED["seed_cert"]}
    status, answer = server.call("POST", "/cloud/v1/lblisteners/1/76", body)
    assert status == 200, answer
    server.release()


def test_the_module_refuses_first_naming_the_listener(server):
    server.reset()
    tls_listener(server)
    server.log = []
    result = harness.run(server, secret, dict(BASE, name="seed-cert", state="absent"))
    assert result["failed"] is True and result["changed"] is False and "listener tls" in result["msg"], result
    assert server.writes() == []


def test_the_services_409_for_a_secret_in_use_is_reported_once_not_waited_for(server):
    server.reset()
    tls_listener(server)
    server.log = []
    with mock.patch.object(secret.Secret, "examine", lambda self, record: None):  # the listener came after the module's read
        result = harness.run(server, secret, dict(BASE, name="seed-cert", state="absent"))
    assert result["failed"] is True and result["changed"] is False, result
    assert result["api_error"]["status"] == 409 and "in use by listener" in result["msg"], result["msg"]
    assert [entry["method"] for entry in server.writes()] == ["DELETE"], "a 409 for a secret in use is not sent again"
    assert SEEDED["seed_cert"] in server.secrets
