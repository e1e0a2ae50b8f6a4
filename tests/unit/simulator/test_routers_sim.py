# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The simulated routers answer as the published API does: shapes, validation, the task lock, pagination."""

from __future__ import annotations

import json

import pytest

from simulator.core import DEFAULT_API_KEY, Request, Simulator
from simulator.resources.routers import PUBLIC_NETWORK_ID

BASE = "/cloud/v1/routers/1/76"


@pytest.fixture
def sim():
    simulator = Simulator()
    simulator.configure(task_delay=0)  # tasks end at the next request; hold() keeps them running
    return simulator


def call(sim, method, path, body=None, query=""):
    raw = json.dumps(body).encode() if body is not None else b""
    request = Request(method, path, query, {"Authorization": "apikey " + DEFAULT_API_KEY}, raw)
    response, _delay = sim.dispatch(request)
    return response.status, response.body


def finish_tasks(sim):
    sim.release()
    sim.advance()


def create(sim, body):
    status, answer = call(sim, "POST", BASE, body)
    assert status == 200, answer
    finish_tasks(sim)
    return sim.tasks[answer["tasks"][0]]["record"]["created_resources"]["routers"][0]


def test_get_has_the_real_shape(sim):
    router_id = create(sim, {"name": "edge", "external_gateway_info": {"network_id": PUBLIC_NETWORK_ID},
                             "routes": [{"destination": "10.0.3.0/24", "nexthop": "10.0.0.13"}]})
    status, router = call(sim, "GET", BASE + "/" + router_id)
    assert status == 200
    assert set(router) == {"id", "name", "status", "distributed", "external_gateway_info", "interfaces", "routes",
                           "project_id", "region_id", "region", "created_at", "updated_at", "task_id", "creator_task_id"}
    assert set(router["external_gateway_info"]) == {"network_id", "enable_snat", "external_fixed_ips"}
    assert router["external_gateway_info"]["enable_snat"] is True
    assert router["task_id"] is None and router["status"] == "ACTIVE"


def test_missing_router_is_a_cloud_404(sim):
    status, body = call(sim, "GET", BASE + "/00000000-0000-4000-8000-000000000000")
    assert status == 404
    assert set(body) == {"exception_class", "message", "request_id"}


@pytest.mark.parametrize("body, status", [
    ({}, 422),
    ({"name": "-bad"}, 422),
    ({"name": "ok-name", "external_gateway_info": {"type": "manual"}}, 422),
    ({"name": "ok-name", "external_gateway_info": {"type": "default", "network_id": PUBLIC_NETWORK_ID}}, 422),
    ({"name": "ok-name", "external_gateway_info": {"network_id": "not-a-uuid"}}, 422),
    ({"name": "ok-name", "routes": [{"destination": "10.0.3.1/24", "nexthop": "10.0.0.1"}]}, 400),
    ({"name": "ok-name", "routes": [{"destination": "nope", "nexthop": "10.0.0.1"}]}, 422),
    ({"name": "ok-name", "routes": [{"destination": "10.0.3.0/24", "nexthop": "nope"}]}, 422),
    ({"name": "ok-name", "colour": "blue"}, 422),
])
def test_create_validates_the_body(sim, body, status):
    assert call(sim, "POST", BASE, body)[0] == status


def test_patch_is_applied_when_its_task_finishes_and_locks_meanwhile(sim):
    router_id = create(sim, {"name": "edge"})
    sim.hold()
    status, answer = call(sim, "PATCH", "/cloud/v2/routers/1/76/" + router_id, {"name": "edge-2"})
    assert status == 200 and len(answer["tasks"]) == 1
    router = call(sim, "GET", BASE + "/" + router_id)[1]
    assert router["name"] == "edge" and router["task_id"] == answer["tasks"][0]
    assert call(sim, "PATCH", "/cloud/v2/routers/1/76/" + router_id, {"name": "edge-3"})[0] == 409
    assert call(sim, "DELETE", BASE + "/" + router_id)[0] == 409
    finish_tasks(sim)
    router = call(sim, "GET", BASE + "/" + router_id)[1]
    assert router["name"] == "edge-2" and router["task_id"] is None


def test_a_failed_task_releases_the_lock_and_changes_nothing(sim):
    router_id = create(sim, {"name": "edge"})
    sim.configure(task_fail={"update_router": "no"})
    call(sim, "PATCH", "/cloud/v2/routers/1/76/" + router_id, {"name": "edge-2"})
    finish_tasks(sim)
    router = call(sim, "GET", BASE + "/" + router_id)[1]
    assert router["name"] == "edge" and router["task_id"] is None


def test_patch_accepts_only_a_manual_gateway(sim):
    router_id = create(sim, {"name": "edge"})
    path = "/cloud/v2/routers/1/76/" + router_id
    assert call(sim, "PATCH", path, {"external_gateway_info": {"type": "default"}})[0] == 422
    assert call(sim, "PATCH", path, {"external_gateway_info": {"network_id": PUBLIC_NETWORK_ID, "enable_snat": False}})[0] == 200


def test_delete_removes_the_router_when_the_task_finishes(sim):
    router_id = create(sim, {"name": "edge"})
    status, answer = call(sim, "DELETE", BASE + "/" + router_id)
    assert status == 200 and answer["tasks"]
    finish_tasks(sim)
    assert call(sim, "GET", BASE + "/" + router_id)[0] == 404


def test_list_filters_by_name_and_pages(sim):
    for index in range(5):
        create(sim, {"name": "page-%s" % index})
    status, page = call(sim, "GET", BASE, query="name=page-&limit=2&offset=2")
    assert status == 200
    assert page["count"] == 5
    assert [router["name"] for router in page["results"]] == ["page-2", "page-3"]
    assert call(sim, "GET", BASE, query="limit=0")[0] == 422
    assert call(sim, "GET", BASE, query="limit=1001")[0] == 422


# ---- interfaces: attach and detach (docs/api_reference.md section 12.3) --------------------------------------
S1, S2, S3 = ("5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b0%s" % n for n in (1, 2, 3))


def subnets_of(router):
    return dict((assignment["subnet_id"], assignment["ip_address"]) for interface in router["interfaces"]
                for assignment in interface["ip_assignments"])


def test_attach_and_detach_answer_the_router_at_once(sim):
    router_id = create(sim, {"name": "edge", "interfaces": [{"type": "subnet", "subnet_id": S1}]})
    status, router = call(sim, "POST", BASE + "/" + router_id + "/attach", {"subnet_id": S2, "ip_address": "192.168.20.7"})
    assert status == 200 and router["id"] == router_id and router["task_id"] is None
    assert subnets_of(router) == {S1: "192.168.10.2", S2: "192.168.20.7"}, "legacy-router holds 192.168.10.1"
    status, router = call(sim, "POST", BASE + "/" + router_id + "/detach", {"subnet_id": S1})
    assert status == 200 and subnets_of(router) == {S2: "192.168.20.7"}
    assert subnets_of(call(sim, "GET", BASE + "/" + router_id)[1]) == {S2: "192.168.20.7"}


def test_two_routers_on_one_subnet_have_their_own_port_address_and_mac(sim):
    first = create(sim, {"name": "one", "interfaces": [{"subnet_id": S3}]})
    second = create(sim, {"name": "two"})
    router = call(sim, "POST", BASE + "/" + second + "/attach", {"subnet_id": S3})[1]
    one, two = call(sim, "GET", BASE + "/" + first)[1]["interfaces"][0], router["interfaces"][0]
    assert one["port_id"] != two["port_id"] and one["mac_address"] != two["mac_address"]
    assert one["ip_assignments"][0]["ip_address"] != two["ip_assignments"][0]["ip_address"]


@pytest.mark.parametrize("path, body, status", [
    ("attach", {"subnet_id": "00000000-0000-4000-8000-000000000000"}, 404),
    ("detach", {"subnet_id": "00000000-0000-4000-8000-000000000000"}, 404),
    ("attach", {"subnet_id": S1}, 400),  # already attached
    ("detach", {"subnet_id": S2}, 400),  # not attached
    ("attach", {"subnet_id": S2, "ip_address": "192.168.99.1"}, 400),  # not in the subnet
    ("attach", {"subnet_id": S2, "ip_address": "not-an-ip"}, 422),
    ("attach", {"subnet_id": "nope"}, 422),
    ("attach", {}, 422),
    ("detach", {"subnet_id": S1, "ip_address": "192.168.10.2"}, 422),  # detach takes only subnet_id
])
def test_attach_and_detach_refuse(sim, path, body, status):
    router_id = create(sim, {"name": "edge", "interfaces": [{"subnet_id": S1}]})
    answer = call(sim, "POST", BASE + "/" + router_id + "/" + path, body)
    assert answer[0] == status, answer
    assert subnets_of(call(sim, "GET", BASE + "/" + router_id)[1]) == {S1: "192.168.10.2"}


def test_an_address_in_use_is_refused(sim):
    router_id = create(sim, {"name": "edge"})
    assert call(sim, "POST", BASE + "/" + router_id + "/attach", {"subnet_id": S1, "ip_address": "192.168.10.1"})[0] == 400


def test_attach_and_detach_of_a_locked_router_answer_409(sim):
    router_id = create(sim, {"name": "edge", "interfaces": [{"subnet_id": S1}]})
    sim.hold()
    assert call(sim, "PATCH", "/cloud/v2/routers/1/76/" + router_id, {"name": "edge-2"})[0] == 200
    assert call(sim, "POST", BASE + "/" + router_id + "/attach", {"subnet_id": S2})[0] == 409
    assert call(sim, "POST", BASE + "/" + router_id + "/detach", {"subnet_id": S1})[0] == 409
    finish_tasks(sim)
    assert call(sim, "POST", BASE + "/" + router_id + "/detach", {"subnet_id": S1})[0] == 200


def test_null_removes_the_gateway_and_a_patch_changing_nothing_answers_no_task(sim):
    router_id = create(sim, {"name": "edge", "external_gateway_info": {"network_id": PUBLIC_NETWORK_ID}})
    patch = "/cloud/v2/routers/1/76/" + router_id
    tasks_before = len(sim.tasks)
    assert call(sim, "PATCH", patch, {"name": "edge", "external_gateway_info": {"network_id": PUBLIC_NETWORK_ID}}) == (200, {"tasks": []})
    assert len(sim.tasks) == tasks_before and call(sim, "GET", BASE + "/" + router_id)[1]["task_id"] is None
    status, answer = call(sim, "PATCH", patch, {"external_gateway_info": None})
    assert status == 200 and len(answer["tasks"]) == 1
    finish_tasks(sim)
    assert call(sim, "GET", BASE + "/" + router_id)[1]["external_gateway_info"] is None
    assert call(sim, "PATCH", patch, {"external_gateway_info": None}) == (200, {"tasks": []})
