# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""secret, secret_info and the load balancer's TLS listeners in process against the simulator over HTTP: a secret
created once with the v2 POST, never compared on its payload, its expiration compared as an instant; secret names
matched exactly over every page; listener secrets resolved from one listing before any write, an ambiguous name
refused; a TLS listener changed by one PATCH with only what differs, lists sent whole."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.modules import load_balancer, secret, secret_info
from simulator.resources.secrets import SEEDED

import harness
import pem
from harness import writes

SCOPE = dict(project_id=1, region_id=76)
CERT = pem.payload()["certificate"]  # a certificate made now (checked before it is uploaded)
PAYLOAD = dict(certificate=CERT, certificate_chain=CERT + CERT, private_key=pem.key_pem())
SEED = SEEDED["seed_cert"]
HTTPS = {"name": "https", "protocol": "TERMINATED_HTTPS", "protocol_port": 443, "secret": "seed-cert"}


def upload(server, name, **extra):
    server.call("POST", "/cloud/v2/secrets/1/76", dict({"name": name, "payload": PAYLOAD}, **extra))
    server.release()
    server.call("GET", "/cloud/v1/secrets/1/76")  # the release applies at the next request
    return next(ident for ident, record in server.secrets.items() if record["name"] == name)


def secret_listings(server):
    return list(server.requests("GET", r"^/cloud/v1/secrets/1/76$"))


def test_a_secret_is_created_once_and_its_payload_never_compared_nor_returned(server):
    args = dict(SCOPE, **PAYLOAD, name="www", expiration="2027-01-31T23:59:59")
    result = harness.run(server, secret, args, _ansible_diff=True)
    assert result["changed"] is True
    assert writes(server) == [("POST", "/cloud/v2/secrets/1/76", {
        "name": "www", "payload": PAYLOAD, "expiration": "2027-01-31T23:59:59+00:00"})]
    assert result["secret"]["name"] == "www" and "payload" not in result["secret"]
    assert result["diff"]["after"] == {"state": "present", "name": "www", "expiration": "2027-01-31T23:59:59+00:00"}
    server.log = []
    again = harness.run(server, secret, dict(args, certificate=pem.payload()["certificate"],
                                             expiration="2027-02-01T01:59:59.000+02:00"))
    assert again["changed"] is False and writes(server) == [] and again["secret"]["id"] == result["secret"]["id"]


def test_an_expiration_of_another_instant_fails_before_any_write(server):
    upload(server, "www", expiration="2027-01-31T23:59:59Z")
    server.log = []
    result = harness.run(server, secret, dict(SCOPE, name="www", expiration="2027-01-31T23:59:59+01:00"))
    assert result["failed"] is True and writes(server) == []
    assert "expiration: secret" in result["msg"] and "'2027-01-31T22:59:59+00:00'" in result["msg"]


def test_a_secret_found_by_id_with_another_name_fails_before_any_write(server):
    result = harness.run(server, secret, dict(SCOPE, secret_id=SEED, name="renamed"))
    assert result["failed"] is True and writes(server) == []
    assert "name: secret %s has name 'seed-cert'" % SEED in result["msg"] and "cannot be renamed" in result["msg"]


def test_creating_needs_the_whole_payload(server):
    result = harness.run(server, secret, dict(SCOPE, name="www", certificate=CERT))
    assert result["failed"] is True and writes(server) == []
    assert "certificate_chain and private_key: required to create" in result["msg"]


def test_two_secrets_with_the_name_fail_listing_their_ids(server):
    first, second = upload(server, "twin"), upload(server, "twin")
    server.log = []
    result = harness.run(server, secret, dict(SCOPE, **PAYLOAD, name="twin"))
    assert result["failed"] is True and writes(server) == []
    assert first in result["msg"] and second in result["msg"]


def test_secret_info_matches_the_name_exactly_over_every_page(server):
    for number in range(3):
        upload(server, "page-%s" % number)
    upload(server, "page-1 ")
    server.log = []
    result = harness.run(server, secret_info, dict(SCOPE, name="page-1"))
    assert [record["name"] for record in result["secrets"]] == ["page-1"]
    assert all("payload" not in record for record in result["secrets"])
    assert harness.run(server, secret_info, dict(SCOPE, secret_id=SEED.upper()))["secrets"][0]["name"] == "seed-cert"
    assert harness.run(server, secret_info, dict(SCOPE, secret_id="0" * 8 + SEED[8:]))["secrets"] == []


def test_a_tls_listener_takes_its_secrets_by_name_from_one_listing_before_any_write(server):
    other = upload(server, "other-cert")
    listener = dict(HTTPS, sni_secrets=["other-cert", SEED.upper(), "seed-cert"], allowed_cidrs=["10.0.0.0/8"],
                    user_list=[{"username": "admin", "encrypted_password": "$5$salt$hash"}], timeout_member_data=1000)
    server.log = []
    result = harness.run(server, load_balancer, dict(SCOPE, name="tls-lb", listeners=[listener]))
    assert result["changed"] is True, result
    assert len(secret_listings(server)) == 1
    first_write = next(index for index, entry in enumerate(server.log) if entry["method"] != "GET")
    assert server.log.index(secret_listings(server)[0]) < first_write
    [(_method, _path, body)] = writes(server)
    sent = body["listeners"][0]
    assert sent["secret_id"] == SEED and sent["sni_secret_id"] == [other, SEED]  # a set: the id named twice sent once
    assert sent["user_list"] == [{"username": "admin", "encrypted_password": "$5$salt$hash"}] and sent["timeout_member_data"] == 1000
    server.log = []
    again = harness.run(server, load_balancer, dict(SCOPE, name="tls-lb", listeners=[dict(listener, sni_secrets=["seed-cert", other])]))
    assert again["changed"] is False and writes(server) == []


def test_a_tls_listener_changes_by_one_patch_of_what_differs(server):
    harness.run(server, load_balancer, dict(SCOPE, name="tls-lb", listeners=[dict(HTTPS, allowed_cidrs=["10.0.0.0/8"])]))
    new = upload(server, "new-cert")
    server.log = []
    changed = dict(HTTPS, secret="new-cert", sni_secrets=["seed-cert"], allowed_cidrs=["10.0.0.0/8", "fd00::/8"],
                   user_list=[{"username": "ops", "encrypted_password": "$5$a"}], timeout_member_connect=2000)
    result = harness.run(server, load_balancer, dict(SCOPE, name="tls-lb", listeners=[changed]), _ansible_diff=True)
    assert result["changed"] is True and result["changes"]["listeners"]["updated"] == ["https"]
    [(method, path, body)] = writes(server)
    assert method == "PATCH" and path.startswith("/cloud/v2/lblisteners/1/76/")
    assert body == {"secret_id": new, "sni_secret_id": [SEED], "allowed_cidrs": ["10.0.0.0/8", "fd00::/8"],
                    "user_list": [{"username": "ops", "encrypted_password": "$5$a"}], "timeout_member_connect": 2000}
    assert result["diff"]["after"]["listeners"]["https"]["secret_id"] == new
    server.log = []
    assert harness.run(server, load_balancer, dict(SCOPE, name="tls-lb", listeners=[changed]))["changed"] is False
    assert writes(server) == []


@pytest.mark.parametrize("value, text", [("twin", "2 secrets of project 1, region 76 are named 'twin'"),
                                         ("missing", "no secret is named 'missing'")])
def test_an_ambiguous_or_unknown_secret_name_fails_before_any_write(server, value, text):
    upload(server, "twin"), upload(server, "twin")
    server.log = []
    result = harness.run(server, load_balancer, dict(SCOPE, name="tls-lb", listeners=[dict(HTTPS, sni_secrets=[value])]))
    assert result["failed"] is True and writes(server) == []
    assert result["msg"].startswith("listeners[0].sni_secrets[0]: " + text), result["msg"]


@pytest.mark.parametrize("given, expected", [
    ("2027-01-31T23:59:59Z", "2027-01-31T23:59:59+00:00"),
    ("2027-01-31T23:59:59", "2027-01-31T23:59:59+00:00"),  # no time zone: UTC
    ("2027-02-01T01:59:59+02:00", "2027-01-31T23:59:59+00:00"),
    ("2025-12-28T19:14:44.180394", "2025-12-28T19:14:44.180394+00:00"),  # the spec's example
    ("2027-01-31T23:59:59.18z", "2027-01-31T23:59:59.180000+00:00"),  # any number of fraction digits
])
def test_an_expiration_is_an_instant_in_utc(given, expected):
    assert secret.instant(given) == expected
