# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The simulated secrets answer as the published API does: v2 create as a task naming created_resources.secrets,
v1 reads paged, the payload never answered, delete as a task refused while a listener or pool uses the secret."""

from __future__ import annotations

import json

import pytest

from sim_api import Api, quick_simulator
from simulator.resources.secrets import SEEDED

V2 = "/cloud/v2/secrets/1/76"
V1 = "/cloud/v1/secrets/1/76"
PAYLOAD = {"certificate": "-----BEGIN CERTIFICATE-----\nMIIcert\n-----END CERTIFICATE-----",
           "certificate_chain": "-----BEGIN CERTIFICATE-----\nMIIchain\n-----END CERTIFICATE-----",
           "private_key": "-----BEGIN PRIVATE KEY-----\nMIIkey-sekrit\n-----END PRIVATE KEY-----"}
RECORD_MEMBERS = {"id", "name", "secret_type", "status", "algorithm", "bit_length", "mode", "content_types", "created", "expiration"}


@pytest.fixture
def sim():
    return quick_simulator()


@pytest.fixture
def api(sim):
    return Api(sim)


def create(api, **body):
    return api.created("POST", V2, dict({"name": "web-cert", "payload": PAYLOAD}, **body), "secrets")


def test_create_is_a_task_and_the_secret_appears_when_it_finishes(sim, api):
    sim.hold()
    task = api.task(api.ok("POST", V2, {"name": "web-cert", "payload": PAYLOAD}))
    assert api.ok("GET", V1)["count"] == 1  # only the seeded one meanwhile
    assert task["task_type"] == "create_secret" and task["state"] == "RUNNING"
    sim.release()
    sim.advance()
    ident = task["created_resources"]["secrets"][0]
    record = api.ok("GET", V1 + "/" + ident)
    assert set(record) == RECORD_MEMBERS
    assert record["name"] == "web-cert" and record["status"] == "ACTIVE" and record["secret_type"] == "certificate"
    assert record["created"] and record["expiration"] is None


def test_the_payload_is_never_answered_nor_kept_in_the_task(sim, api):
    ident = create(api)
    answers = json.dumps([api.ok("GET", V1), api.ok("GET", V1 + "/" + ident), [task["record"] for task in sim.tasks.values()]])
    assert "sekrit" not in answers and "MIIchain" not in answers and "MIIcert" not in answers


@pytest.mark.parametrize("given, shown", [
    ("2030-01-02T03:04:05", "2030-01-02T03:04:05+00:00"),
    ("2030-01-02T03:04:05Z", "2030-01-02T03:04:05+00:00"),
    ("2030-01-02T05:04:05+02:00", "2030-01-02T05:04:05+02:00"),
])
def test_expiration_without_a_zone_is_utc(api, given, shown):
    assert api.ok("GET", V1 + "/" + create(api, expiration=given))["expiration"] == shown


def test_names_are_not_unique_and_the_list_pages(api):
    create(api)
    create(api)
    assert [record["name"] for record in api.ok("GET", V1)["results"]].count("web-cert") == 2
    page = api.ok("GET", V1, query="limit=1&offset=1")
    assert page["count"] == 3 and len(page["results"]) == 1
    assert api.refused("GET", V1, query="limit=0")[0] == 422


@pytest.mark.parametrize("body, where", [
    ({"payload": PAYLOAD}, "name"),
    ({"name": "a"}, "payload"),
    ({"name": "a", "payload": dict(PAYLOAD, private_key=None)}, "payload.private_key"),
    ({"name": "a", "payload": {"certificate": "x", "private_key": "y"}}, "payload.certificate_chain"),
    ({"name": "a", "payload": dict(PAYLOAD, extra="x")}, "payload.extra"),
    ({"name": "a", "payload": PAYLOAD, "expiration": "soon"}, "expiration"),
    ({"name": "a", "payload": PAYLOAD, "secret_type": "certificate"}, "secret_type"),
])
def test_bad_create_bodies_are_422_and_make_nothing(sim, api, body, where):
    status, message = api.refused("POST", V2, body)
    assert status == 422 and message.startswith(where + ":")
    assert "sekrit" not in message
    assert not sim.tasks and api.ok("GET", V1)["count"] == 1


def test_a_failed_create_task_makes_nothing(sim, api):
    sim.hold()
    api.failed(api.ok("POST", V2, {"name": "web-cert", "payload": PAYLOAD}))
    assert api.ok("GET", V1)["count"] == 1


def test_unknown_and_malformed_ids_and_no_update(api):
    assert api.refused("GET", V1 + "/00000000-0000-4000-8000-000000000000")[0] == 404
    assert api.refused("GET", V1 + "/not-a-uuid")[0] == 422
    assert api.refused("GET", "/cloud/v1/secrets/1/1/" + SEEDED["seed_cert"])[0] == 404  # another region
    assert api.refused("PATCH", V1 + "/" + SEEDED["seed_cert"], {"name": "x"})[0] == 405
    assert api.refused("PUT", V1 + "/" + SEEDED["seed_cert"], {"name": "x"})[0] == 405


def test_delete_is_a_task(sim, api):
    ident = create(api)
    sim.hold()
    task = api.task(api.ok("DELETE", V1 + "/" + ident))
    assert task["task_type"] == "delete_secret" and api.ok("GET", V1 + "/" + ident)["id"] == ident
    sim.release()
    sim.advance()
    assert api.refused("GET", V1 + "/" + ident)[0] == 404


def test_delete_is_refused_while_a_listener_or_a_pool_uses_the_secret(sim, api):
    ident = create(api)
    lb_id = sim.seeds["load_balancers"]["legacy_lb"]
    listener = api.created("POST", "/cloud/v1/lblisteners/1/76", {
        "name": "tls", "protocol": "TERMINATED_HTTPS", "protocol_port": 443, "load_balancer_id": lb_id,
        "secret_id": SEEDED["seed_cert"], "sni_secret_id": [ident]}, "listeners")
    status, message = api.refused("DELETE", V1 + "/" + ident)
    assert status == 409 and listener in message, "a conflict, as the service answers it"
    api.finished(api.ok("PATCH", "/cloud/v2/lblisteners/1/76/" + listener, {"sni_secret_id": []}))
    sim.lb_pools[sim.seeds["load_balancers"]["legacy_pool"]]["ca_secret_id"] = ident
    assert api.refused("DELETE", V1 + "/" + ident)[0] == 409 and "pool" in api.refused("DELETE", V1 + "/" + ident)[1]
    sim.lb_pools[sim.seeds["load_balancers"]["legacy_pool"]]["ca_secret_id"] = None
    api.finished(api.ok("DELETE", V1 + "/" + ident))


def test_a_dropped_create_answer_still_makes_one_secret(sim, api):
    sim.add_fault(method="POST", path="^/cloud/v2/secrets/", drop=True, applied=True)
    assert sim.call("POST", V2, {"name": "web-cert", "payload": PAYLOAD}) == (None, None)
    sim.advance()
    assert [record["name"] for record in api.ok("GET", V1)["results"]] == ["seed-cert", "web-cert"]


def test_the_deprecated_v1_create_takes_a_base64_bundle(sim, api):
    body = {"name": "legacy", "payload": "UEsDBA==", "payload_content_encoding": "base64",
            "payload_content_type": "application/octet-stream", "secret_type": "opaque", "bit_length": 2048}
    ident = api.created("POST", V1, body, "secrets")
    shown = api.ok("GET", V1 + "/" + ident)
    assert (shown["secret_type"], shown["bit_length"], shown["content_types"]) == ("opaque", 2048, {"default": "application/octet-stream"})
    assert "UEsDBA" not in str(shown)
    for change, where in (({"payload": "not base64!"}, "payload"), ({"payload_content_type": "text/plain"}, "payload_content_type"),
                          ({"secret_type": "x509"}, "secret_type"), ({"payload_content_encoding": "hex"}, "payload_content_encoding"),
                          ({"bit_length": 0}, "bit_length")):
        status, message = api.refused("POST", V1, dict(body, **change))
        assert status == 422 and message.startswith(where + ":")
