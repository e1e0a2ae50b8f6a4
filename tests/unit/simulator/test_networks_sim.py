# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The simulated networks and subnets answer as the published API does: shapes and server-filled defaults, tasks
with created_resources, the task lock, synchronous PATCH with tags as a merge patch, pagination, validation, and one
store of subnets shared with the routers."""

from __future__ import annotations

import pytest

from simulator.core import Simulator
from simulator.resources.networks import SEEDED

NETS = "/cloud/v1/networks/1/76"
SUBS = "/cloud/v1/subnets/1/76"
ROUTERS = "/cloud/v1/routers/1/76"
NET_1 = SEEDED[0][0]


@pytest.fixture
def sim():
    simulator = Simulator()
    simulator.configure(task_delay=0)  # tasks end at the next request; hold() keeps them running
    return simulator


def finish(sim):
    sim.release()
    sim.advance()


def created(sim, answer, kind):
    finish(sim)
    task = sim.tasks[answer["tasks"][0]]["record"]
    assert task["state"] == "FINISHED", task
    return task["created_resources"][kind][0]


def make_network(sim, **body):
    status, answer = sim.call("POST", NETS, dict({"name": "net-a"}, **body))
    assert status == 200 and set(answer) == {"tasks"}, answer
    return created(sim, answer, "networks")


def make_subnet(sim, network_id, **body):
    status, answer = sim.call("POST", SUBS, dict({"name": "sub-a", "network_id": network_id, "cidr": "10.1.0.0/24"}, **body))
    assert status == 200, answer
    return created(sim, answer, "subnets")


def test_a_network_has_the_real_shape_and_the_server_defaults(sim):
    network_id = make_network(sim, tags={"env": "dev"})
    status, network = sim.call("GET", NETS + "/" + network_id)
    assert status == 200
    assert set(network) == {"id", "name", "type", "mtu", "segmentation_id", "external", "default", "shared",
                            "port_security_enabled", "subnets", "tags", "project_id", "region_id", "region", "created_at",
                            "updated_at", "creator_task_id", "task_id"}
    assert network["type"] == "vxlan" and network["mtu"] == 1450 and network["subnets"] == [] and network["task_id"] is None
    assert network["tags"] == [{"key": "env", "value": "dev", "read_only": False}]
    assert network["creator_task_id"] in sim.tasks


def test_a_subnet_has_the_real_shape_a_picked_gateway_and_joins_its_network(sim):
    network_id = make_network(sim)
    subnet_id = make_subnet(sim, network_id, dns_nameservers=["8.8.8.8"])
    subnet = sim.call("GET", SUBS + "/" + subnet_id)[1]
    assert subnet["gateway_ip"] == "10.1.0.1" and subnet["ip_version"] == 4 and subnet["enable_dhcp"] is True
    assert subnet["dns_nameservers"] == ["8.8.8.8"] and subnet["host_routes"] == []
    assert subnet["has_router"] is True  # connected (the default) to the network's own router (create_router's default)
    assert subnet["total_ips"] == 254 and subnet["tags"] == []
    assert sim.call("GET", NETS + "/" + network_id)[1]["subnets"] == [subnet_id]


def test_a_record_is_locked_by_its_create_task_and_a_failed_create_removes_it(sim):
    sim.hold()
    answer = sim.call("POST", NETS, {"name": "net-held"})[1]
    listed = sim.call("GET", NETS, query="name=net-held")[1]["results"]
    assert [record["task_id"] for record in listed] == answer["tasks"]
    status, body = sim.call("PATCH", NETS + "/" + listed[0]["id"], {"name": "renamed"})
    assert status == 409 and "locked" in body["message"]
    sim.release(error="no capacity")
    assert sim.call("GET", NETS + "/" + listed[0]["id"])[0] == 404
    assert sim.call("GET", "/cloud/v1/tasks/" + answer["tasks"][0])[1]["error"] == "no capacity"


def test_patch_answers_the_record_at_once_and_merges_tags(sim):
    network_id = make_network(sim, tags={"env": "dev", "team": "web"})
    sim.networks[network_id]["tags"].append({"key": "os", "value": "linux", "read_only": True})
    status, network = sim.call("PATCH", NETS + "/" + network_id, {"name": "net-b", "tags": {"env": "prod", "team": None}})
    assert status == 200 and network["name"] == "net-b"
    assert network["tags"] == [{"key": "os", "value": "linux", "read_only": True}, {"key": "env", "value": "prod", "read_only": False}]
    assert sim.call("PATCH", NETS + "/" + network_id, {"tags": None})[1]["tags"] == [{"key": "os", "value": "linux", "read_only": True}]
    assert sim.writes()[-1]["method"] == "PATCH" and not [task for task in sim.tasks.values() if task["record"]["task_type"].startswith("update")]


def test_subnet_patch_changes_the_members_it_names_and_null_lists_stay(sim):
    subnet_id = make_subnet(sim, make_network(sim), dns_nameservers=["8.8.8.8"], host_routes=[{"destination": "10.9.0.0/16", "nexthop": "10.1.0.9"}])
    status, subnet = sim.call("PATCH", SUBS + "/" + subnet_id, {"enable_dhcp": False, "gateway_ip": None, "dns_nameservers": None})
    assert status == 200 and subnet["enable_dhcp"] is False and subnet["gateway_ip"] is None
    assert subnet["dns_nameservers"] == ["8.8.8.8"] and len(subnet["host_routes"]) == 1
    subnet = sim.call("PATCH", SUBS + "/" + subnet_id, {"dns_nameservers": [], "host_routes": [], "gateway_ip": "10.1.0.254"})[1]
    assert subnet["dns_nameservers"] == [] and subnet["host_routes"] == [] and subnet["gateway_ip"] == "10.1.0.254"


def test_delete_is_a_task_and_takes_the_subnets_with_the_network(sim):
    network_id = make_network(sim)
    subnet_id = make_subnet(sim, network_id)
    sim.hold()
    status, answer = sim.call("DELETE", NETS + "/" + network_id)
    assert status == 200 and len(answer["tasks"]) == 1
    assert sim.call("GET", NETS + "/" + network_id)[1]["task_id"] == answer["tasks"][0]
    assert sim.call("DELETE", NETS + "/" + network_id)[0] == 409
    finish(sim)
    assert sim.call("GET", NETS + "/" + network_id)[0] == 404
    assert sim.call("GET", SUBS + "/" + subnet_id)[0] == 404


def test_lists_page_filter_and_order(sim):
    for name in ("page-1", "page-2", "page-3"):
        make_network(sim, name=name)
    status, first = sim.call("GET", NETS, query="limit=2&offset=0&name=page")
    assert status == 200 and first["count"] == 3
    assert [record["name"] for record in first["results"]] == ["page-3", "page-2"]  # newest first
    assert [record["name"] for record in sim.call("GET", NETS, query="limit=2&offset=2&name=page")[1]["results"]] == ["page-1"]
    assert sim.call("GET", NETS, query="name=" + "x" * 62)[0] == 422
    network_id = make_network(sim, name="sorted-net")
    for cidr in ("10.3.0.0/24", "10.1.0.0/24", "fd00::/64"):
        make_subnet(sim, network_id, cidr=cidr)
    listed = sim.call("GET", SUBS, query="network_id=" + network_id)[1]
    assert [record["cidr"] for record in listed["results"]] == ["10.1.0.0/24", "10.3.0.0/24", "fd00::/64"]
    assert sim.call("GET", SUBS, query="network_id=nope")[0] == 422
    assert sim.call("GET", SUBS, query="limit=0")[0] == 422


@pytest.mark.parametrize("path, body, status, words", [
    (NETS, {}, 422, "name: field required"),
    (NETS, {"name": "x"}, 422, "name: string does not match"),
    (NETS, {"name": "net-x", "type": "flat"}, 422, "type"),
    (NETS, {"name": "net-x", "mtu": 9000}, 422, "extra fields not permitted"),
    (NETS, {"name": "net-x", "tags": {"a b": "c"}}, 422, "tags.a b"),
    (SUBS, {"name": "sub-x", "network_id": NET_1, "cidr": "10.0.0.1/24"}, 400, "host bits"),
    (SUBS, {"name": "sub-x", "network_id": NET_1, "cidr": "banana"}, 422, "cidr"),
    (SUBS, {"name": "sub-x", "network_id": NET_1, "cidr": "192.168.10.128/25"}, 400, "overlaps"),
    (SUBS, {"name": "sub-x", "network_id": NET_1, "cidr": "10.5.0.0/24", "gateway_ip": "10.6.0.1"}, 400, "not a host address"),
    (SUBS, {"name": "sub-x", "network_id": NET_1, "cidr": "10.5.0.0/24", "gateway_ip": None}, 422, "must be explicitly false"),
    (SUBS, {"name": "sub-x", "network_id": NET_1, "cidr": "10.5.0.0/24", "connect_to_network_router": False,
            "router_id_to_connect": "e1a7c0de-0000-4000-8000-000000000002"}, 422, "router_id_to_connect"),
    (SUBS, {"name": "sub-x", "network_id": "00000000-0000-4000-8000-000000000000", "cidr": "10.5.0.0/24"}, 404, "Network"),
    (SUBS, {"name": "sub-x", "network_id": NET_1, "cidr": "10.5.0.0/24", "ip_version": 6}, 422, "ip_version"),
])
def test_bad_bodies_are_refused_in_the_cloud_error_shape(sim, path, body, status, words):
    got, answer = sim.call("POST", path, body)
    assert got == status and words in answer["message"], answer
    assert set(answer) >= {"exception_class", "message", "request_id"}
    assert not sim.tasks


def test_unknown_ids_are_404(sim):
    missing = "/00000000-0000-4000-8000-000000000000"
    for method in ("GET", "PATCH", "DELETE"):
        assert sim.call(method, NETS + missing, {} if method == "PATCH" else None)[0] == 404
        assert sim.call(method, SUBS + missing, {} if method == "PATCH" else None)[0] == 404


def test_a_created_subnet_is_attached_by_the_router_and_then_cannot_be_deleted(sim):
    subnet_id = make_subnet(sim, make_network(sim))
    router_id = sim.call("GET", ROUTERS, query="name=legacy-router")[1]["results"][0]["id"]
    status, router = sim.call("POST", ROUTERS + "/" + router_id + "/attach", {"subnet_id": subnet_id})
    assert status == 200
    assert {"ip_address": "10.1.0.1", "subnet_id": subnet_id} in [a for i in router["interfaces"] for a in i["ip_assignments"]]
    status, body = sim.call("DELETE", SUBS + "/" + subnet_id)
    assert status == 400 and router_id in body["message"]
    assert sim.call("POST", ROUTERS + "/" + router_id + "/detach", {"subnet_id": subnet_id})[0] == 200
    assert sim.call("DELETE", SUBS + "/" + subnet_id)[0] == 200


def test_router_id_to_connect_attaches_the_router_at_the_gateway_when_the_task_finishes(sim):
    router_id = sim.call("GET", ROUTERS, query="name=legacy-router")[1]["results"][0]["id"]
    subnet_id = make_subnet(sim, make_network(sim), gateway_ip="10.1.0.254", router_id_to_connect=router_id)
    router = sim.call("GET", ROUTERS + "/" + router_id)[1]
    assert {"ip_address": "10.1.0.254", "subnet_id": subnet_id} in [a for i in router["interfaces"] for a in i["ip_assignments"]]


def test_a_router_cannot_attach_a_subnet_of_another_project(sim):
    router_id = sim.call("GET", ROUTERS, query="name=legacy-router")[1]["results"][0]["id"]
    network_id = created(sim, sim.call("POST", "/cloud/v1/networks/2/76", {"name": "elsewhere"})[1], "networks")
    answer = sim.call("POST", "/cloud/v1/subnets/2/76", {"name": "sub-x", "network_id": network_id, "cidr": "10.7.0.0/24"})[1]
    subnet_id = created(sim, answer, "subnets")
    assert sim.call("POST", ROUTERS + "/" + router_id + "/attach", {"subnet_id": subnet_id})[0] == 404
