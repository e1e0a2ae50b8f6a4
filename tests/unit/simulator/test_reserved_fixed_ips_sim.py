# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The simulated reserved fixed IPs answer as the published API does: the five create variants as tasks naming
created_resources.ports, the record keyed by port_id, the list's filters and order, the synchronous is_vip PATCH, the
ports sharing a VIP (PUT replaces, PATCH adds), delete as a task, every refusal, and instances whose interface is a
reserved fixed IP."""

from __future__ import annotations

import pytest

from sim_api import Api, quick_simulator
from simulator.resources.instances import IMAGE_IDS
from simulator.resources.networks import SEEDED as SEEDED_NETWORKS

LIST = "/cloud/v1/reserved_fixed_ips/1/76"
CREATE = "/cloud/v2/instances/1/76"
INSTANCES = "/cloud/v1/instances/1/76"
NET_1, NET_2 = SEEDED_NETWORKS[0][0], SEEDED_NETWORKS[1][0]
SUBNET_1 = SEEDED_NETWORKS[0][2][0][0]
TWIN_NET = SEEDED_NETWORKS[3][0]  # a network without a subnet
UNKNOWN = "00000000-0000-4000-8000-000000000000"
MEMBERS = {"port_id", "name", "fixed_ip_address", "fixed_ipv6_address", "subnet_id", "subnet_v6_id", "network_id", "network",
           "is_external", "is_vip", "status", "reservation", "attachments", "allowed_address_pairs", "created_at",
           "updated_at", "creator_task_id", "task_id", "project_id", "region_id", "region"}


@pytest.fixture
def sim():
    return quick_simulator()


@pytest.fixture
def api(sim):
    return Api(sim)


def reserve(api, address="192.168.10.50", network=NET_1, **body):
    return api.created("POST", LIST, dict({"type": "ip_address", "network_id": network, "ip_address": address}, **body), "ports")


def get(api, ident):
    return api.ok("GET", LIST + "/" + ident)


def server(api, name="web-a", interfaces=None):
    return api.created("POST", CREATE, {
        "flavor": "g1-standard-1-2", "name": name,
        "interfaces": interfaces or [{"type": "subnet", "network_id": NET_1, "subnet_id": SUBNET_1}],
        "volumes": [{"source": "image", "image_id": IMAGE_IDS["ubuntu-22.04"], "size": 10}]}, "instances")


def port_of(api, instance_id, index=0):
    return api.ok("GET", "%s/%s/interfaces" % (INSTANCES, instance_id))["results"][index]


def test_an_ip_address_reservation_is_a_task_locking_the_record_until_it_finishes(sim, api):
    sim.hold()
    task = api.task(api.ok("POST", LIST, {"type": "ip_address", "network_id": NET_1, "ip_address": "192.168.10.50"}))
    ident = next(iter(sim.reserved_fixed_ips))
    shown = get(api, ident)
    assert set(shown) == MEMBERS and "id" not in shown
    assert (shown["fixed_ip_address"], shown["subnet_id"], shown["network_id"]) == ("192.168.10.50", SUBNET_1, NET_1)
    assert shown["network"]["id"] == NET_1 and shown["network"]["name"] == "router-net-1"
    assert (shown["is_vip"], shown["is_external"], shown["status"]) == (False, False, "DOWN")
    assert shown["reservation"] == {"resource_id": None, "resource_type": None, "status": None} and shown["attachments"] == []
    assert shown["name"] == "Reserved fixed ip 192.168.10.50" and shown["task_id"] == shown["creator_task_id"] == task["id"]
    assert api.refused("PATCH", LIST + "/" + ident, {"is_vip": True})[0] == 409
    assert api.refused("DELETE", LIST + "/" + ident)[0] == 409
    sim.release()
    sim.advance()
    assert task["task_type"] == "create_reserved_fixed_ip" and task["created_resources"] == {"ports": [ident]}
    assert get(api, ident)["task_id"] is None


def test_a_failed_create_removes_the_reservation(sim, api):
    sim.hold()
    api.failed(api.ok("POST", LIST, {"type": "ip_address", "network_id": NET_1, "ip_address": "192.168.10.50"}))
    assert api.ok("GET", LIST)["count"] == 0


def test_the_other_variants_allocate_an_address(sim, api):
    by_subnet = get(api, api.created("POST", LIST, {"type": "subnet", "subnet_id": SUBNET_1, "is_vip": True}, "ports"))
    assert by_subnet["fixed_ip_address"] == "192.168.10.2" and by_subnet["is_vip"] is True  # .1 is the gateway
    any_subnet = get(api, api.created("POST", LIST, {"type": "any_subnet", "network_id": NET_1, "ip_family": "ipv4"}, "ports"))
    assert any_subnet["fixed_ip_address"] == "192.168.10.3"
    external = get(api, api.created("POST", LIST, {"type": "external"}, "ports"))
    assert external["is_external"] is True and external["network"]["external"] is True and external["fixed_ip_address"]
    lb = sim.load_balancers[sim.seeds["load_balancers"]["legacy_lb"]]
    kept = get(api, api.created("POST", LIST, {"type": "port", "port_id": lb["vip_port_id"]}, "ports"))
    assert kept["port_id"] == lb["vip_port_id"] and kept["fixed_ip_address"] == lb["vip_address"]
    assert kept["reservation"] == {"resource_id": lb["id"], "resource_type": "loadbalancer", "status": "attached"}


@pytest.mark.parametrize("body, status, start", [
    ({"network_id": NET_1, "ip_address": "192.168.10.50"}, 422, "type"),
    ({"type": "fixed", "network_id": NET_1}, 422, "type"),
    ({"type": "ip_address", "network_id": NET_1}, 422, "ip_address"),
    ({"type": "ip_address", "ip_address": "192.168.10.50"}, 422, "network_id"),
    ({"type": "ip_address", "network_id": NET_1, "ip_address": "192.168.10"}, 422, "ip_address"),
    ({"type": "ip_address", "network_id": "net-1", "ip_address": "192.168.10.5"}, 422, "network_id"),
    ({"type": "ip_address", "network_id": NET_1, "ip_address": "192.168.10.5", "is_vip": "yes"}, 422, "is_vip"),
    ({"type": "ip_address", "network_id": NET_1, "ip_address": "192.168.10.5", "name": "vip"}, 422, "name"),
    ({"type": "port", "port_id": UNKNOWN, "is_vip": True}, 422, "is_vip"),
    ({"type": "external", "ip_family": "ipv5"}, 422, "ip_family"),
    ({"type": "subnet"}, 422, "subnet_id"),
    ({"type": "ip_address", "network_id": NET_1, "ip_address": "192.168.20.5"}, 400, "IP address 192.168.20.5 is not a valid IP"),
    ({"type": "ip_address", "network_id": NET_1, "ip_address": "192.168.10.255"}, 400, "IP address"),
    ({"type": "ip_address", "network_id": NET_1, "ip_address": "192.168.10.1"}, 409, "IP address 192.168.10.1 already allocated"),
    ({"type": "ip_address", "network_id": UNKNOWN, "ip_address": "192.168.10.5"}, 404, "Network"),
    ({"type": "subnet", "subnet_id": UNKNOWN}, 404, "Subnet"),
    ({"type": "any_subnet", "network_id": TWIN_NET}, 400, "Network"),
    ({"type": "any_subnet", "network_id": NET_1, "ip_family": "ipv6"}, 400, "Network"),
    ({"type": "port", "port_id": UNKNOWN}, 404, "Port"),
])
def test_create_refusals(sim, api, body, status, start):
    got, message = api.refused("POST", LIST, body)
    assert got == status and message.startswith(start), message
    assert not sim.reserved_fixed_ips and not sim.tasks


def test_an_address_reserved_twice_is_409(api):
    reserve(api)
    assert api.refused("POST", LIST, {"type": "ip_address", "network_id": NET_1, "ip_address": "192.168.10.50"})[0] == 409
    reserve(api, "192.168.20.50", NET_2)  # the same host part elsewhere is fine


def test_the_list_filters_orders_and_pages(api):
    high = reserve(api, "192.168.10.200")
    low = reserve(api, "192.168.10.9", is_vip=True)
    other = reserve(api, "192.168.20.50", NET_2)
    assert [item["port_id"] for item in api.ok("GET", LIST)["results"]] == [low, high, other]  # fixed_ip_address.asc
    assert [item["port_id"] for item in api.ok("GET", LIST, query="order_by=fixed_ip_address.desc")["results"]] == [other, high, low]
    assert [item["port_id"] for item in api.ok("GET", LIST, query="vip_only=true")["results"]] == [low]
    assert [item["port_id"] for item in api.ok("GET", LIST, query="ip_address=^192\\.168\\.20\\.")["results"]] == [other]
    assert api.ok("GET", LIST, query="internal_only=true")["count"] == 3 and api.ok("GET", LIST, query="external_only=true")["count"] == 0
    page = api.ok("GET", LIST, query="limit=1&offset=1")
    assert page["count"] == 3 and [item["port_id"] for item in page["results"]] == [high]
    assert api.refused("GET", LIST, query="order_by=port_id.asc")[0] == 422
    assert api.refused("GET", LIST, query="vip_only=maybe")[0] == 422


def test_patch_is_vip_answers_the_record(api):
    ident = reserve(api)
    assert api.ok("PATCH", LIST + "/" + ident, {"is_vip": True})["is_vip"] is True
    assert get(api, ident)["is_vip"] is True
    for body in ({}, {"is_vip": "yes"}, {"is_vip": True, "name": "x"}):
        assert api.refused("PATCH", LIST + "/" + ident, body)[0] == 422
    assert api.refused("PATCH", LIST + "/" + UNKNOWN, {"is_vip": True})[0] == 404


def test_ports_share_a_vip_put_replaces_patch_adds(sim, api):
    vip = reserve(api, is_vip=True)
    first, second = server(api, "web-a"), server(api, "web-b")
    port_a, port_b = port_of(api, first)["port_id"], port_of(api, second)["port_id"]
    available = api.ok("GET", LIST + "/" + vip + "/available_devices")
    assert {item["port_id"] for item in available["results"]} == {port_a, port_b}
    shown = api.ok("PUT", LIST + "/" + vip + "/connected_devices", {"port_ids": [port_a]})
    assert shown["count"] == 1 and set(shown["results"][0]) == {"port_id", "instance_id", "instance_name", "ip_assignments", "network"}
    assert (shown["results"][0]["instance_id"], shown["results"][0]["instance_name"]) == (first, "web-a")
    assert shown["results"][0]["ip_assignments"][0]["subnet"]["id"] == SUBNET_1 and shown["results"][0]["network"]["id"] == NET_1
    assert {"ip_address": "192.168.10.50", "mac_address": port_of(api, first)["mac_address"]} in port_of(api, first)["allowed_address_pairs"]
    added = api.ok("PATCH", LIST + "/" + vip + "/connected_devices", {"port_ids": [port_b]})
    assert [item["port_id"] for item in added["results"]] == [port_a, port_b]
    assert api.ok("GET", LIST + "/" + vip + "/connected_devices") == added
    assert len(get(api, vip)["allowed_address_pairs"]) == 2
    assert api.ok("PUT", LIST + "/" + vip + "/connected_devices", {"port_ids": [port_b]})["count"] == 1
    assert port_of(api, first)["allowed_address_pairs"] == []
    assert api.refused("PATCH", LIST + "/" + vip, {"is_vip": False})[0] == 400  # it still has a connected port
    assert api.ok("PUT", LIST + "/" + vip + "/connected_devices", {"port_ids": []})["count"] == 0
    assert api.ok("PATCH", LIST + "/" + vip, {"is_vip": False})["is_vip"] is False


def test_connected_device_refusals(api):
    plain, vip = reserve(api, "192.168.10.60"), reserve(api, is_vip=True)
    port = port_of(api, server(api))["port_id"]
    assert "not a VIP" in api.refused("PUT", LIST + "/" + plain + "/connected_devices", {"port_ids": [port]})[1]
    assert api.refused("PUT", LIST + "/" + vip + "/connected_devices", {"port_ids": [UNKNOWN]})[0] == 404
    assert api.refused("PUT", LIST + "/" + vip + "/connected_devices", {"port_ids": ["nope"]})[0] == 422
    other_vip = reserve(api, "192.168.20.60", NET_2, is_vip=True)
    status, message = api.refused("PUT", LIST + "/" + other_vip + "/connected_devices", {"port_ids": [port]})
    assert status == 400 and "network" in message


def test_an_instance_interface_takes_the_reserved_port(sim, api):
    ident = reserve(api)
    instance = server(api, interfaces=[{"type": "reserved_fixed_ip", "port_id": ident}])
    port = port_of(api, instance)
    assert port["port_id"] == ident and port["network_id"] == NET_1
    assert port["ip_assignments"] == [{"ip_address": "192.168.10.50", "subnet_id": SUBNET_1}]
    shown = get(api, ident)
    assert shown["reservation"] == {"resource_id": instance, "resource_type": "instance", "status": "attached"}
    assert shown["status"] == "ACTIVE" and shown["attachments"] == [{"resource_id": instance, "resource_type": "instance"}]
    assert api.ok("GET", LIST, query="available_only=true")["count"] == 0
    assert [item["port_id"] for item in api.ok("GET", LIST, query="device_id=" + instance)["results"]] == [ident]
    status, message = api.refused("POST", CREATE, {
        "flavor": "g1-standard-1-2", "name": "web-b", "interfaces": [{"type": "reserved_fixed_ip", "port_id": ident}],
        "volumes": [{"source": "image", "image_id": IMAGE_IDS["ubuntu-22.04"], "size": 10}]})
    assert status == 400 and "in use" in message
    api.finished(api.ok("DELETE", INSTANCES + "/" + instance))
    assert get(api, ident)["reservation"]["resource_id"] is None  # it outlives the instance


def test_an_instance_delete_may_take_its_reserved_ips_along(api):
    ident = reserve(api)
    instance = server(api, interfaces=[{"type": "reserved_fixed_ip", "port_id": ident}])
    api.finished(api.ok("DELETE", INSTANCES + "/" + instance, query="reserved_fixed_ips=" + ident))
    assert api.refused("GET", LIST + "/" + ident)[0] == 404


@pytest.mark.parametrize("vip, port_id, status", [(False, UNKNOWN, 404), (True, None, 400)])
def test_instance_interfaces_refuse_unknown_and_vip_ports(sim, api, vip, port_id, status):
    ident = reserve(api, is_vip=vip)
    got, _message = api.refused("POST", CREATE, {
        "flavor": "g1-standard-1-2", "name": "web-a", "interfaces": [{"type": "reserved_fixed_ip", "port_id": port_id or ident}],
        "volumes": [{"source": "image", "image_id": IMAGE_IDS["ubuntu-22.04"], "size": 10}]})
    assert got == status
    assert all(record["name"] != "web-a" for record in sim.instances)


def test_delete_is_a_task(sim, api):
    ident = reserve(api, is_vip=True)
    instance = server(api)
    api.ok("PUT", LIST + "/" + ident + "/connected_devices", {"port_ids": [port_of(api, instance)["port_id"]]})
    assert port_of(api, instance)["allowed_address_pairs"]
    sim.hold()
    task = api.task(api.ok("DELETE", LIST + "/" + ident))
    assert task["task_type"] == "delete_reserved_fixed_ip" and get(api, ident)["task_id"] == task["id"]
    sim.release()
    sim.advance()
    assert api.refused("GET", LIST + "/" + ident)[0] == 404
    assert port_of(api, instance)["allowed_address_pairs"] == []  # the VIP left the ports that shared it
