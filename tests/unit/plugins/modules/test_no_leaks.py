# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""issue 45: no hash or fragment of a secret leaks. A service error (an HTTP error or a task's ERROR) that quotes a
``no_log`` value, escaped or not, or one line of it (a private key quoted in part) shows ``***`` in its place; the
whole result is searched, ``invocation`` included."""

from __future__ import annotations

import json

import pytest

from ansible_collections.gcore.platform.plugins.module_utils._client import Client
from ansible_collections.gcore.platform.plugins.modules import load_balancer, load_balancer_info, secret

import harness
import pem

SCOPE = dict(project_id=1, region_id=76, name="www")


def quoting(payload):
    key = payload["private_key"]
    return "bad payload: %s; near line %s; sent %s" % (json.dumps(key), key.splitlines()[2], payload["certificate"].splitlines()[3])


@pytest.mark.parametrize("fault", ["status", "task_error"])
def test_a_service_error_quoting_a_key_or_a_line_of_it_is_scrubbed(server, fault):
    payload = pem.payload()
    text = quoting(payload)
    server.add_fault(method="POST", path=r"^/cloud/v2/secrets/1/76$",
                     **(dict(status=400, body=text) if fault == "status" else dict(task_error=text)))
    result = harness.run(server, secret, dict(SCOPE, **payload))
    assert result["failed"] is True and "bad payload: " in result["msg"] and "***" in result["msg"], result["msg"]
    shown = json.dumps(result)
    for line in payload["private_key"].splitlines()[1:-1] + payload["certificate"].splitlines()[1:-1]:
        assert line not in shown, "a line of a no_log value is shown: %s" % result["msg"]


def test_the_client_scrubs_every_secret_value_and_its_lines_but_no_short_word():
    key = pem.key_pem()
    client = Client(api_key="the-api-key", api_url="http://127.0.0.1:9", secrets={key, "pw", None})
    text = "key %s, %s, %r; the line %s; pw and -----END PRIVATE KEY----- stay; the-api-key" % (key, json.dumps(key), key, pem.KEY_LINE)
    scrubbed = client.scrub({"detail": [text]})["detail"][0]
    assert pem.KEY_LINE not in scrubbed and "the-api-key" not in scrubbed
    assert "pw and -----END PRIVATE KEY----- stay" in scrubbed


def test_a_listener_password_hash_is_masked_in_every_result(server):
    listener = {"name": "https", "protocol": "HTTP", "protocol_port": 8080,
                "user_list": [{"username": "admin", "encrypted_password": "$5$salt$hash-of-the-password"}]}
    created = harness.run(server, load_balancer, dict(project_id=1, region_id=76, name="tls-lb", listeners=[listener]))
    assert created["changed"] is True, created
    info = harness.run(server, load_balancer_info, dict(project_id=1, region_id=76, name="tls-lb"))
    read = harness.run(server, load_balancer, dict(project_id=1, region_id=76, name="tls-lb"))  # listeners not managed here
    for result in (created, info, read):
        assert "hash-of-the-password" not in json.dumps(result)
    assert info["load_balancers"][0]["listeners"][0]["user_list"] == [{"username": "admin", "encrypted_password": "********"}]
    assert read["load_balancer"]["listeners"][0]["user_list"] == [{"username": "admin", "encrypted_password": "********"}]
    assert read["changed"] is False


@pytest.mark.parametrize("check", [True, False])
def test_a_listener_password_hash_is_masked_in_the_diff_before_and_after(server, check):
    listener = {"name": "web", "protocol": "HTTP", "protocol_port": 8080,
                "user_list": [{"username": "admin", "encrypted_password": "$5$salt$old-hash"}]}
    args = dict(project_id=1, region_id=76, name="hash-lb", listeners=[listener])
    assert harness.run(server, load_balancer, args)["changed"] is True
    changed = dict(listener, user_list=[{"username": "admin", "encrypted_password": "$5$salt$new-hash"}])
    result = harness.run(server, load_balancer, dict(args, listeners=[changed]), _ansible_diff=True, _ansible_check_mode=check)
    assert result["changed"] is True, result
    assert "old-hash" not in json.dumps(result) and "new-hash" not in json.dumps(result), result["diff"]
    assert result["diff"]["before"]["listeners"]["web"]["user_list"] == [{"username": "admin", "encrypted_password": "********"}]
    assert result["diff"]["after"]["listeners"]["web"]["user_list"] == [{"username": "admin", "encrypted_password": "********"}]
    gone = harness.run(server, load_balancer, dict(args, state="absent"), _ansible_diff=True, _ansible_check_mode=True)
    assert "old-hash" not in json.dumps(gone["diff"]) and "********" in json.dumps(gone["diff"]), gone["diff"]
