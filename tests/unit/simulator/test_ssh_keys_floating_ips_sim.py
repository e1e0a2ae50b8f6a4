# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The simulated cloud SSH keys and floating IPs answer as the published API does: shapes, status codes, validation,
paging, tasks and locks, and floating IPs on the ports of the simulator's instances."""

from __future__ import annotations

import pytest

from simulator.core import Simulator
from simulator.resources.floating_ips import derived_interfaces
from simulator.resources.ssh_keys import DEPLOY_KEY, PRIVATE_MARK

KEYS = "/cloud/v1/ssh_keys/1"
FIPS = "/cloud/v1/floatingips/1/76"
V2 = "/cloud/v2/floatingips/1/76"


@pytest.fixture
def sim():
    simulator = Simulator()
    simulator.configure(task_delay=0)
    return simulator


def finish(sim):
    sim.release()
    sim.advance()


def port_of(sim, name, project="1", region="76", index=0):
    instance = sim.seeds["instances"]["instances"]["%s/%s/%s" % (name, project, region)]
    status, body = sim.call("GET", "/cloud/v1/instances/%s/%s/%s/interfaces" % (project, region, instance))
    assert status == 200, body
    return body["results"][index]


# ---- SSH keys ---------------------------------------------------------------------------------------------------------

def test_the_key_list_pages_by_10_by_default_and_filters_names_by_substring(sim):
    status, body = sim.call("GET", KEYS)
    assert status == 200 and body["count"] == 12 and len(body["results"]) == 10
    assert sim.call("GET", KEYS, query="offset=10")[1]["results"].__len__() == 2
    names = [record["name"] for record in sim.call("GET", KEYS, query="name=deploy&limit=1000")[1]["results"]]
    assert sorted(names) == ["deploy", "deploy-old"]
    assert sim.call("GET", KEYS, query="limit=0")[0] == 422
    assert sim.call("GET", KEYS, query="order_by=size")[0] == 422
    assert sim.call("GET", "/cloud/v1/ssh_keys/2")[1]["count"] == 0


def test_a_generated_key_answers_its_private_key_once(sim):
    status, body = sim.call("POST", KEYS, {"name": "generated"})
    assert status == 201 and body["private_key"].startswith("-----BEGIN OPENSSH PRIVATE KEY-----") and PRIVATE_MARK in body["private_key"]
    assert body["public_key"].startswith("ssh-ed25519 ") and body["shared_in_project"] is True
    status, again = sim.call("GET", "%s/%s" % (KEYS, body["id"]))
    assert status == 200 and "private_key" not in again
    assert set(again) == {"id", "name", "public_key", "fingerprint", "state", "project_id", "shared_in_project", "created_at"}


def test_an_uploaded_key_has_no_private_key_and_a_taken_name_is_a_409(sim):
    status, body = sim.call("POST", KEYS, {"name": "uploaded", "public_key": DEPLOY_KEY, "shared_in_project": False})
    assert status == 201 and body["private_key"] is None and body["public_key"] == DEPLOY_KEY and body["shared_in_project"] is False
    assert sim.call("POST", KEYS, {"name": "uploaded", "public_key": DEPLOY_KEY})[0] == 409


@pytest.mark.parametrize("body, status", [
    ({}, 422), ({"name": "ab"}, 422), ({"name": "x" * 64}, 422), ({"name": "-lead"}, 422),
    ({"name": "ok-name", "public_key": "not a key"}, 400), ({"name": "ok-name", "shared_in_project": "yes"}, 422),
    ({"name": "ok-name", "extra": 1}, 422),
])
def test_a_bad_create_body_is_refused(sim, body, status):
    assert sim.call("POST", KEYS, body)[0] == status


def test_share_unshare_and_delete_a_key(sim):
    ident = sim.seeds["ssh_keys"]["ssh_keys"]["deploy"]
    status, body = sim.call("PATCH", "%s/%s" % (KEYS, ident), {"shared_in_project": False})
    assert status == 200 and body["shared_in_project"] is False
    assert sim.call("PATCH", "%s/%s" % (KEYS, ident), {})[0] == 422
    assert sim.call("GET", "/cloud/v1/ssh_keys/2/%s" % ident)[0] == 404  # another project's
    assert sim.call("DELETE", "%s/%s" % (KEYS, ident)) == (204, None)
    assert sim.call("DELETE", "%s/%s" % (KEYS, ident))[0] == 404


# ---- floating IPs -----------------------------------------------------------------------------------------------------

def test_the_seeded_floating_ips_sit_on_the_seeded_instances_ports(sim):
    status, body = sim.call("GET", FIPS)
    assert status == 200 and body["count"] == 2
    web = next(record for record in body["results"] if record["floating_ip_address"] == "203.0.113.10")
    assert web["port_id"] == port_of(sim, "web-1")["port_id"] and web["fixed_ip_address"] == "10.0.0.5"
    assert web["status"] == "ACTIVE" and web["instance"]["name"] == "web-1" and web["loadbalancer"] is None
    assert sim.call("GET", FIPS, query="status=DOWN")[1]["count"] == 1
    assert sim.call("GET", FIPS, query="tag_key=env")[1]["count"] == 1
    assert sim.call("GET", FIPS, query='tag_key_value={"env":"prod"}')[1]["count"] == 1
    assert sim.call("GET", FIPS, query="status=UP")[0] == 422


def test_interfaces_are_derived_from_the_fixed_addresses_per_interface():
    instance = {"id": "i-1", "addresses": {"net": [{"addr": "10.0.0.5", "type": "fixed", "interface_name": "eth0"},
                                                   {"addr": "203.0.113.9", "type": "floating"}],
                                           "v6": [{"addr": "2a03::5", "type": "fixed", "interface_name": "eth1"}]}}
    ports = derived_interfaces(instance)
    assert [port["interface_name"] for port in ports] == ["eth0", "eth1"]
    assert ports[0]["ip_assignments"][0]["ip_address"] == "10.0.0.5" and ports[0]["port_id"] != ports[1]["port_id"]
    assert derived_interfaces(instance)[0]["port_id"] == ports[0]["port_id"]  # stable


def test_create_on_a_port_locks_until_the_task_finishes_and_shows_on_the_instance(sim):
    sim.hold()
    port = port_of(sim, "db-1")
    status, body = sim.call("POST", FIPS, {"port_id": port["port_id"], "tags": {"role": "db"}})
    assert status == 200 and len(body["tasks"]) == 1
    listed = sim.call("GET", FIPS)[1]["results"]
    created = next(record for record in listed if record["task_id"])
    assert created["port_id"] == port["port_id"] and created["status"] is None
    assert sim.call("DELETE", "%s/%s" % (FIPS, created["id"]))[0] == 409
    finish(sim)
    task = sim.call("GET", "/cloud/v1/tasks/%s" % body["tasks"][0])[1]
    assert task["state"] == "FINISHED" and task["created_resources"] == {"floatingips": [created["id"]]}
    record = sim.call("GET", "%s/%s" % (FIPS, created["id"]))[1]
    assert record["status"] == "ACTIVE" and record["fixed_ip_address"] == "192.168.10.5" and record["task_id"] is None
    assert record["tags"] == [{"key": "role", "value": "db", "read_only": False}]
    db = next(item for item in sim.instances if item["name"] == "db-1")
    assert {"addr": record["floating_ip_address"], "type": "floating"} in db["addresses"]["private-net"]


def test_a_failed_create_task_removes_the_floating_ip(sim):
    sim.configure(task_fail={"create_floating_ip": "no addresses left"})
    status, body = sim.call("POST", FIPS, {})
    assert status == 200
    sim.advance()
    assert sim.call("GET", FIPS)[1]["count"] == 2


@pytest.mark.parametrize("body, status", [
    ({"port_id": "nope"}, 422), ({"port_id": "5daac328-24a0-5761-b2a4-000000000000"}, 404),
    ({"fixed_ip_address": "10.0.0.5"}, 400), ({"tags": None}, 422), ({"tags": {"a b": "x"}}, 422),
    ({"tags": {"k": " x"}}, 422), ({"extra": 1}, 422),
])
def test_a_bad_create_body_is_refused_and_makes_nothing(sim, body, status):
    assert sim.call("POST", FIPS, body)[0] == status
    assert sim.tasks == {}


def test_a_fixed_address_must_be_the_ports_and_free(sim):
    port = port_of(sim, "web-1")
    assert sim.call("POST", FIPS, {"port_id": port["port_id"], "fixed_ip_address": "10.9.9.9"})[0] == 400
    assert sim.call("POST", FIPS, {"port_id": port["port_id"], "fixed_ip_address": "10.0.0.5"})[0] == 409  # 203.0.113.10 has it
    assert sim.call("POST", FIPS, {"port_id": port["port_id"]})[0] == 409  # its only IPv4 address is taken


def test_the_v2_patch_assigns_moves_unassigns_and_merges_tags_and_answers_no_task_when_nothing_changes(sim):
    free = sim.seeds["floating_ips"]["floating_ips"]["203.0.113.200"]
    db, app = port_of(sim, "db-1")["port_id"], port_of(sim, "app")["port_id"]
    sim.hold()
    status, body = sim.call("PATCH", "%s/%s" % (V2, free), {"port_id": db})
    assert status == 200 and len(body["tasks"]) == 1
    assert sim.call("PATCH", "%s/%s" % (V2, free), {"port_id": app})[0] == 409  # locked by the first
    finish(sim)
    assert sim.call("PATCH", "%s/%s" % (V2, free), {"port_id": db}) == (200, {"tasks": []})
    sim.call("PATCH", "%s/%s" % (V2, free), {"port_id": app, "tags": {"env": None, "new": "1"}})
    finish(sim)
    record = sim.call("GET", "%s/%s" % (FIPS, free))[1]
    assert record["port_id"] == app and record["fixed_ip_address"] == "198.51.100.20"
    assert record["tags"] == [{"key": "owner", "value": "gcore", "read_only": True}, {"key": "new", "value": "1", "read_only": False}]
    db_record = next(item for item in sim.instances if item["name"] == "db-1")
    assert all(entry["type"] == "fixed" for entry in db_record["addresses"]["private-net"])  # moved away
    sim.call("PATCH", "%s/%s" % (V2, free), {"port_id": None})
    finish(sim)
    record = sim.call("GET", "%s/%s" % (FIPS, free))[1]
    assert (record["port_id"], record["fixed_ip_address"], record["status"]) == (None, None, "DOWN")
    assert sim.call("PATCH", "%s/%s" % (V2, free), {"fixed_ip_address": "10.0.0.5"})[0] == 400  # not assigned


def test_delete_is_a_task_and_an_unknown_or_foreign_id_a_404(sim):
    web = sim.seeds["floating_ips"]["floating_ips"]["203.0.113.10"]
    edge = sim.seeds["floating_ips"]["floating_ips"]["203.0.113.70"]
    assert sim.call("GET", "%s/%s" % (FIPS, edge))[0] == 404
    status, body = sim.call("DELETE", "%s/%s" % (FIPS, web))
    assert status == 200 and len(body["tasks"]) == 1
    finish(sim)
    assert sim.call("GET", "%s/%s" % (FIPS, web))[0] == 404
    web_1 = next(item for item in sim.instances if item["name"] == "web-1")
    assert {"addr": "203.0.113.10", "type": "floating"} not in web_1["addresses"]["private-net"]
