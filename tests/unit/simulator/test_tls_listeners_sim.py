# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The simulated load-balancer listeners take TLS as the published API does: secret_id ("" or a uuid at create, a
uuid or null in the v2 PATCH), sni_secret_id, timeouts, connection_limit, allowed_cidrs and user_list, inline in the
LB create, in the standalone create and in the PATCH; a TERMINATED_HTTPS listener without a secret is refused, an
unknown secret id is a 404; a reserved fixed IP can be the VIP."""

from __future__ import annotations

import pytest

from sim_api import Api, quick_simulator
from simulator.resources.secrets import SEEDED as SEEDED_SECRETS

LBS = "/cloud/v1/loadbalancers/1/76"
LISTENERS = "/cloud/v1/lblisteners/1/76"
PATCH = "/cloud/v2/lblisteners/1/76/"
SECRETS = "/cloud/v2/secrets/1/76"
CERT = SEEDED_SECRETS["seed_cert"]
UNKNOWN = "00000000-0000-4000-8000-000000000000"
HASH = "$5$isRr.HJ1IrQP38.m$oViu3DJOpUG2ZsjCBtbITV3mqpxxbZfyWJojLPNSPO5"
TLS = {"name": "https", "protocol": "TERMINATED_HTTPS", "protocol_port": 443, "secret_id": CERT}


@pytest.fixture
def sim():
    return quick_simulator()


@pytest.fixture
def api(sim):
    return Api(sim)


def secret(api, name="other-cert"):
    payload = {"certificate": "c", "certificate_chain": "c", "private_key": "k"}
    return api.created("POST", SECRETS, {"name": name, "payload": payload}, "secrets")


def listener(api, lb_id, **body):
    return api.created("POST", LISTENERS, dict(TLS, load_balancer_id=lb_id, **body), "listeners")


@pytest.fixture
def lb_id(sim):
    return sim.seeds["load_balancers"]["legacy_lb"]


def test_a_tls_listener_keeps_every_option_and_fills_the_defaults(sim, api, lb_id):
    sni = secret(api)
    ident = listener(api, lb_id, sni_secret_id=[sni], timeout_client_data=30000, timeout_member_connect=2000,
                     timeout_member_data=40000, connection_limit=-1, allowed_cidrs=["10.0.0.0/8", "2001:db8::/32"],
                     user_list=[{"username": "admin", "encrypted_password": HASH}], insert_x_forwarded=True)
    shown = api.ok("GET", LISTENERS + "/" + ident)
    assert (shown["secret_id"], shown["sni_secret_id"]) == (CERT, [sni])
    assert (shown["timeout_client_data"], shown["timeout_member_connect"], shown["timeout_member_data"]) == (30000, 2000, 40000)
    assert shown["connection_limit"] == 100000 and shown["allowed_cidrs"] == ["10.0.0.0/8", "2001:db8::/32"]
    assert shown["user_list"] == [{"username": "admin", "encrypted_password": HASH}]
    assert shown["insert_headers"] and "insert_x_forwarded" not in shown and isinstance(shown["pool_count"], int)
    plain = api.ok("GET", LISTENERS + "/" + listener(api, lb_id, name="plain", protocol="HTTP", protocol_port=8080, secret_id=""))
    assert plain["secret_id"] is None and plain["user_list"] == [] and plain["connection_limit"] == 100000
    assert (plain["timeout_client_data"], plain["timeout_member_connect"], plain["timeout_member_data"]) == (50000, 5000, 50000)


def test_inline_tls_listeners_in_the_lb_create(sim, api):
    ident = api.created("POST", LBS, {"name": "web-lb", "listeners": [
        dict(TLS, pools=[{"name": "web-pool", "lb_algorithm": "ROUND_ROBIN", "protocol": "HTTP"}]),
        {"name": "http", "protocol": "HTTP", "protocol_port": 80}]}, "loadbalancers")
    listeners = api.ok("GET", LISTENERS, query="load_balancer_id=" + ident)["results"]
    assert sorted((item["protocol"], item["secret_id"]) for item in listeners) == [("HTTP", None), ("TERMINATED_HTTPS", CERT)]


@pytest.mark.parametrize("change, status, start", [
    ({"secret_id": None}, 400, "body.secret_id"),
    ({"secret_id": ""}, 400, "body.secret_id"),
    ({"secret_id": UNKNOWN}, 404, "Secret"),
    ({"sni_secret_id": [UNKNOWN]}, 404, "Secret"),
    ({"secret_id": "not-a-uuid"}, 422, "secret_id"),
    ({"sni_secret_id": None}, 422, "sni_secret_id"),
    ({"user_list": None}, 422, "user_list"),
    ({"user_list": [{"username": "a", "encrypted_password": HASH}]}, 422, "user_list.0.username"),
    ({"user_list": [{"username": "admin"}]}, 422, "user_list.0.encrypted_password"),
    ({"user_list": [{"username": "admin", "encrypted_password": "x" * 129}]}, 422, "user_list.0.encrypted_password"),
    ({"user_list": [{"username": "u%d-x" % number, "encrypted_password": HASH} for number in range(4)]}, 422, "user_list"),
    ({"allowed_cidrs": ["10.0.0.0/33"]}, 422, "body.allowed_cidrs.0"),
    ({"allowed_cidrs": ["10.0.0.1/8"]}, 422, "body.allowed_cidrs.0"),  # host bits: not a network
    ({"allowed_cidrs": ["10.0.0.%d/32" % number for number in range(101)]}, 422, "allowed_cidrs"),
    ({"connection_limit": 1000001}, 422, "connection_limit"),
    ({"timeout_client_data": 86400001}, 422, "timeout_client_data"),
])
def test_standalone_create_refusals(sim, api, lb_id, change, status, start):
    body = dict(TLS, load_balancer_id=lb_id, **change)
    if change.get("secret_id", CERT) is None:
        del body["secret_id"]
    got, message = api.refused("POST", LISTENERS, body)
    assert got == status and message.startswith(start), message
    assert not sim.tasks


def test_a_terminated_https_listener_without_a_secret_is_refused_inline_too(sim, api):
    without = dict(TLS)
    del without["secret_id"]
    status, message = api.refused("POST", LBS, {"name": "web-lb", "listeners": [without]})
    assert status == 400 and message.startswith("listeners.0.secret_id")
    assert api.refused("POST", LBS, {"name": "web-lb", "listeners": [dict(TLS, sni_secret_id=[UNKNOWN])]})[0] == 404
    assert len(sim.load_balancers) == 3 and not sim.tasks


def test_the_v2_patch_rotates_the_certificate_and_replaces_the_lists(sim, api, lb_id):
    ident = listener(api, lb_id, allowed_cidrs=["10.0.0.0/8"], user_list=[{"username": "admin", "encrypted_password": HASH}])
    new = secret(api, "cert-2026")
    sim.hold()
    task = api.task(api.ok("PATCH", PATCH + ident, {"secret_id": new, "sni_secret_id": [CERT], "allowed_cidrs": None,
                                                    "user_list": None, "connection_limit": 500, "timeout_client_data": None}))
    assert api.ok("GET", LISTENERS + "/" + ident)["provisioning_status"] == "PENDING_UPDATE"
    sim.release()
    sim.advance()
    assert task["task_type"] == "update_lblistener"
    shown = api.ok("GET", LISTENERS + "/" + ident)
    assert (shown["secret_id"], shown["sni_secret_id"], shown["allowed_cidrs"], shown["user_list"]) == (new, [CERT], None, [])
    assert shown["connection_limit"] == 500 and shown["provisioning_status"] == "ACTIVE"
    api.finished(api.ok("PATCH", PATCH + ident, {"sni_secret_id": None}))
    api.finished(api.ok("DELETE", "/cloud/v1/secrets/1/76/" + CERT))  # the old certificate, no longer used


@pytest.mark.parametrize("change, status", [
    ({"secret_id": None}, 400), ({"secret_id": UNKNOWN}, 404), ({"sni_secret_id": [UNKNOWN]}, 404),
    ({"secret_id": ""}, 422), ({"protocol": "HTTP"}, 422), ({"protocol_port": 444}, 422), ({"insert_x_forwarded": True}, 422),
    ({"user_list": [{"username": "admin"}]}, 422), ({"connection_limit": None}, 422),
])
def test_patch_refusals(sim, api, lb_id, change, status):
    ident = listener(api, lb_id)
    assert api.refused("PATCH", PATCH + ident, change)[0] == status
    assert api.ok("GET", LISTENERS + "/" + ident)["secret_id"] == CERT


def test_a_plain_listener_may_drop_its_secret(api, lb_id):
    ident = listener(api, lb_id, name="metrics", protocol="PROMETHEUS", protocol_port=9100)
    api.finished(api.ok("PATCH", PATCH + ident, {"secret_id": None}))
    assert api.ok("GET", LISTENERS + "/" + ident)["secret_id"] is None


def test_another_projects_secret_is_unknown(sim, api, lb_id):
    payload = {"certificate": "c", "certificate_chain": "c", "private_key": "k"}
    elsewhere = api.created("POST", "/cloud/v2/secrets/1/1", {"name": "eu", "payload": payload}, "secrets")
    assert api.refused("POST", LISTENERS, dict(TLS, load_balancer_id=lb_id, secret_id=elsewhere))[0] == 404


def test_a_reserved_fixed_ip_is_the_vip(sim, api):
    network = sim.seeds["networks"]["networks"]["router_net_1"]
    body = {"type": "ip_address", "network_id": network, "ip_address": "192.168.10.77"}
    port = api.created("POST", "/cloud/v1/reserved_fixed_ips/1/76", body, "ports")
    ident = api.created("POST", LBS, {"name": "vip-lb", "vip_port_id": port}, "loadbalancers")
    shown = api.ok("GET", LBS + "/" + ident)
    assert (shown["vip_port_id"], shown["vip_address"]) == (port, "192.168.10.77")
    reserved = api.ok("GET", "/cloud/v1/reserved_fixed_ips/1/76/" + port)
    assert reserved["reservation"] == {"resource_id": ident, "resource_type": "loadbalancer", "status": "attached"}
    assert api.refused("POST", LBS, {"name": "vip-lb2", "vip_port_id": port})[0] == 400
    assert api.refused("POST", LBS, {"name": "vip-lb2", "vip_port_id": UNKNOWN})[0] == 404
    assert api.refused("POST", LBS, {"name": "vip-lb2", "vip_port_id": port, "vip_network_id": network})[0] == 400
    api.finished(api.ok("DELETE", LBS + "/" + ident))
    assert api.ok("GET", "/cloud/v1/reserved_fixed_ips/1/76/" + port)["reservation"]["resource_id"] is None
