# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The simulated server groups (placement groups) answer as the published API does: a synchronous create answering
the record (servergroup_id, no id), list and get with the group's instances, delete as a task refused while the
group holds an instance, and the instance side: servergroup_id at create, put_into_servergroup and
remove_from_servergroup as tasks, with their refusals."""

from __future__ import annotations

import pytest

from sim_api import Api, quick_simulator
from simulator.resources.instances import IMAGE_IDS

LIST = "/cloud/v1/servergroups/1/76"
INSTANCES = "/cloud/v1/instances/1/76"
CREATE = "/cloud/v2/instances/1/76"
UNKNOWN = "00000000-0000-4000-8000-000000000000"


@pytest.fixture
def sim():
    return quick_simulator()


@pytest.fixture
def api(sim):
    return Api(sim)


def group(api, name="web-spread", policy="anti-affinity"):
    return api.ok("POST", LIST, {"name": name, "policy": policy})["servergroup_id"]


def instance(api, **body):
    return api.created("POST", CREATE, dict({
        "flavor": "g1-standard-1-2", "name": "web-a", "interfaces": [{"type": "external"}],
        "volumes": [{"source": "image", "image_id": IMAGE_IDS["ubuntu-22.04"], "size": 10}]}, **body), "instances")


def members(api, ident):
    return api.ok("GET", LIST + "/" + ident)["instances"]


def test_create_answers_the_record_at_once_without_a_task(sim, api):
    record = api.ok("POST", LIST, {"name": "web spread.1", "policy": "soft-anti-affinity"})
    assert set(record) == {"servergroup_id", "name", "policy", "instances", "project_id", "region_id", "region"}
    assert (record["name"], record["policy"], record["instances"]) == ("web spread.1", "soft-anti-affinity", [])
    assert not sim.tasks and sim.writes()
    assert api.ok("GET", LIST + "/" + record["servergroup_id"]) == record
    assert api.ok("GET", LIST) == {"count": 1, "results": [record]}


def test_names_up_to_110_characters_and_not_unique(api):
    group(api, "g" * 110)
    group(api, "twin")
    group(api, "twin")
    assert [item["name"] for item in api.ok("GET", LIST)["results"]].count("twin") == 2
    page = api.ok("GET", LIST, query="limit=1&offset=2")
    assert page["count"] == 3 and page["results"][0]["name"] == "twin"


@pytest.mark.parametrize("body, where", [
    ({"policy": "affinity"}, "name"),
    ({"name": "web"}, "policy"),
    ({"name": "g" * 111, "policy": "affinity"}, "name"),
    ({"name": "ab", "policy": "affinity"}, "name"),
    ({"name": "-web", "policy": "affinity"}, "name"),
    ({"name": "web", "policy": "spread"}, "policy"),
    ({"name": "web", "policy": "affinity", "tags": {}}, "tags"),
])
def test_create_refusals(sim, api, body, where):
    status, message = api.refused("POST", LIST, body)
    assert status == 422 and message.startswith(where + ":")
    assert not sim.server_groups


def test_an_instance_created_in_a_group_joins_it_when_its_task_finishes(sim, api):
    ident = group(api)
    sim.hold()
    answer = api.ok("POST", CREATE, {"flavor": "g1-standard-1-2", "name": "web-a", "interfaces": [{"type": "external"}],
                                     "volumes": [{"source": "image", "image_id": IMAGE_IDS["ubuntu-22.04"], "size": 10}],
                                     "servergroup_id": ident})
    assert members(api, ident) == []
    server = api.finished(answer)["created_resources"]["instances"][0]
    assert members(api, ident) == [{"instance_id": server, "instance_name": "web-a"}]
    assert "servergroup_id" not in api.ok("GET", INSTANCES + "/" + server)  # the instance record says nothing of it
    api.ok("PATCH", INSTANCES + "/" + server, {"name": "web-b"})
    assert members(api, ident)[0]["instance_name"] == "web-b"


def test_an_instance_with_an_unknown_group_is_refused(sim, api):
    status, message = api.refused("POST", CREATE, {
        "flavor": "g1-standard-1-2", "name": "web-a", "interfaces": [{"type": "external"}], "servergroup_id": UNKNOWN,
        "volumes": [{"source": "image", "image_id": IMAGE_IDS["ubuntu-22.04"], "size": 10}]})
    assert status == 404 and "Server group" in message
    other = api.ok("POST", "/cloud/v1/servergroups/1/1", {"name": "elsewhere", "policy": "affinity"})["servergroup_id"]
    assert api.refused("POST", CREATE, {
        "flavor": "g1-standard-1-2", "name": "web-a", "interfaces": [{"type": "external"}], "servergroup_id": other,
        "volumes": [{"source": "image", "image_id": IMAGE_IDS["ubuntu-22.04"], "size": 10}]})[0] == 404


def test_put_into_and_remove_from_a_group_are_tasks_locking_the_instance(sim, api):
    first, second = group(api), group(api, "db-together", "affinity")
    server = instance(api)
    sim.hold()
    task = api.task(api.ok("POST", INSTANCES + "/" + server + "/put_into_servergroup", {"servergroup_id": first}))
    assert members(api, first) == [] and api.ok("GET", INSTANCES + "/" + server)["task_id"] == task["id"]
    assert api.refused("POST", INSTANCES + "/" + server + "/remove_from_servergroup")[0] == 409
    sim.release()
    sim.advance()
    assert task["task_type"] == "put_into_servergroup" and [item["instance_id"] for item in members(api, first)] == [server]
    status, message = api.refused("POST", INSTANCES + "/" + server + "/put_into_servergroup", {"servergroup_id": second})
    assert status == 400 and first in message
    api.finished(api.ok("POST", INSTANCES + "/" + server + "/remove_from_servergroup"))
    assert members(api, first) == []
    assert api.refused("POST", INSTANCES + "/" + server + "/remove_from_servergroup")[0] == 400
    api.finished(api.ok("POST", INSTANCES + "/" + server + "/put_into_servergroup", {"servergroup_id": second}))
    assert [item["instance_id"] for item in members(api, second)] == [server]


def test_a_failed_put_leaves_the_instance_out_and_unlocked(sim, api):
    ident = group(api)
    server = instance(api)
    sim.configure(task_fail={"put_into_servergroup": "no host left"})  # how the instance family fails its tasks
    task = api.task(api.ok("POST", INSTANCES + "/" + server + "/put_into_servergroup", {"servergroup_id": ident}))
    sim.advance()
    assert task["state"] == "ERROR"
    assert members(api, ident) == [] and api.ok("GET", INSTANCES + "/" + server)["task_id"] is None


@pytest.mark.parametrize("body, status", [({}, 422), ({"servergroup_id": UNKNOWN}, 404), ({"servergroup_id": 5}, 422),
                                          ({"servergroup_id": UNKNOWN, "x": 1}, 422)])
def test_put_refusals(api, body, status):
    server = instance(api)
    assert api.refused("POST", INSTANCES + "/" + server + "/put_into_servergroup", body)[0] == status


def test_delete_is_refused_while_the_group_holds_an_instance_then_a_task(sim, api):
    ident = group(api)
    server = instance(api, servergroup_id=ident)
    status, message = api.refused("DELETE", LIST + "/" + ident)
    assert status == 400 and server in message
    api.finished(api.ok("DELETE", INSTANCES + "/" + server))
    assert members(api, ident) == []  # a deleted instance leaves its group
    sim.hold()
    task = api.task(api.ok("DELETE", LIST + "/" + ident))
    assert task["task_type"] == "delete_servergroup" and api.ok("GET", LIST + "/" + ident)
    sim.release()
    sim.advance()
    assert api.refused("GET", LIST + "/" + ident)[0] == 404
    assert api.refused("DELETE", LIST + "/" + ident)[0] == 404
