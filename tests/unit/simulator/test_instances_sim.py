# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The simulated instance listing answers as the published API does: record shape, filters, paging, 403, seeding."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest

from simulator.control import ControlError
from simulator.core import Simulator

LIST = "/cloud/v1/instances/%s/%s"
REQUIRED = ("id", "name", "created_at", "status", "vm_state", "volumes", "flavor", "tags", "instance_description", "addresses",
            "security_groups", "ssh_key_name", "creator_task_id", "task_state", "task_id", "blackhole_ports", "ddos_profile",
            "fixed_ip_assignments", "instance_isolation", "region", "region_id", "project_id")


@pytest.fixture
def sim():
    return Simulator()


def listing(sim, project_id=1, region_id=76, **query):
    return sim.call("GET", LIST % (project_id, region_id), query=urlencode(query, doseq=True))


def names(body):
    return [record["name"] for record in body["results"]]


def test_two_projects_by_two_regions_are_seeded(sim):
    seen = {}
    for project_id, region_id in sim.seeds["instances"]["pairs"]:
        status, body = listing(sim, project_id, region_id)
        assert status == 200 and body["count"] == len(body["results"])
        seen[(project_id, region_id)] = names(body)
    assert seen == {(1, 76): ["web-1", "db-1", "app"], (1, 1): ["app", "stopped-1"], (2, 76): ["batch-1", "v6-only"],
                    (2, 1): ["edge-1", "build-1"]}
    assert len(sim.seeds["instances"]["instances"]) == 9


def test_records_have_the_spec_shape(sim):
    _status, body = listing(sim)
    web = body["results"][0]
    assert set(REQUIRED) <= set(web)
    assert web["addresses"]["private-net"][1] == {"addr": "203.0.113.10", "type": "floating"}
    assert set(web["addresses"]["private-net"][0]) == {"addr", "type", "interface_name", "subnet_id", "subnet_name"}
    assert web["tags"][0] == {"key": "env", "value": "prod", "read_only": False}
    assert web["flavor"]["flavor_name"] == "g1-standard-2-4" and set(web["flavor"]["hardware_description"]) == {"vcpus", "ram"}
    assert web["security_groups"] == [{"name": "default"}, {"name": "web"}]
    assert (web["project_id"], web["region_id"], web["region"]) == (1, 76, "Luxembourg-2")


@pytest.mark.parametrize("query, expected", [
    ({"name": "-1"}, ["web-1", "db-1"]),
    ({"status": "ACTIVE"}, ["web-1", "db-1", "app"]),
    ({"flavor_prefix": "g2-"}, ["app"]),
    ({"tag_key_value": json.dumps({"env": "prod", "role": "db"})}, ["db-1"]),
    ({"tag_key_value": json.dumps({"env": "staging"})}, ["app"]),
    ({"tag_value": ["prod", "web"]}, ["web-1"]),
    ({"tag_value": ["prod"]}, ["web-1", "db-1"]),
    ({"name": "web", "status": "SHUTOFF"}, []),
])
def test_filters(sim, query, expected):
    status, body = listing(sim, **query)
    assert status == 200
    assert names(body) == expected and body["count"] == len(expected)


@pytest.mark.parametrize("query, field", [({"status": "RUNNING"}, "status"), ({"tag_key_value": "env=prod"}, "tag_key_value"),
                                          ({"tag_key_value": "[1]"}, "tag_key_value"), ({"limit": "1001"}, "limit"),
                                          ({"limit": "0"}, "limit"), ({"offset": "-1"}, "offset")])
def test_bad_queries_answer_422(sim, query, field):
    status, body = listing(sim, **query)
    assert status == 422 and field in body["message"]


def test_a_project_the_key_cannot_see_answers_403_in_every_region(sim):
    for region_id in (76, 1):
        status, body = listing(sim, 3, region_id)
        assert status == 403 and body["message"] == "You do not have permission to access project 3"
    sim.configure(instances_forbidden_projects=[])
    assert listing(sim, 3, 76) == (200, {"count": 0, "results": []})


def test_thousands_are_seeded_and_paged_at_the_limit(sim):
    answer = sim.control("POST", "/_sim/instances", {"count": 5000})
    assert answer == {"instances": 5000, "per_pair": {"1/76": 1250, "1/1": 1250, "2/76": 1250, "2/1": 1250}}
    first = listing(sim, 1, 76, limit=1000)[1]
    second = listing(sim, 1, 76, limit=1000, offset=1000)[1]
    assert (first["count"], len(first["results"]), second["count"], len(second["results"])) == (1250, 1000, 1250, 250)
    assert len(set(names(first) + names(second))) == 1250
    assert listing(sim, 1, 76)[1]["results"].__len__() == 1000  # the default limit is the largest
    ids = [record["id"] for pair in ((1, 76), (1, 1), (2, 76), (2, 1)) for page in (0, 1000)
           for record in listing(sim, *pair, offset=page)[1]["results"]]
    assert len(set(ids)) == 5000


def test_seeding_can_add_to_chosen_pairs(sim):
    sim.control("POST", "/_sim/instances", {"count": 3, "pairs": [[2, 1]], "replace": False})
    assert names(listing(sim, 2, 1)[1]) == ["edge-1", "build-1", "host-00001", "host-00002", "host-00003"]
    sim.reset()
    assert listing(sim, 2, 1)[1]["count"] == 2


@pytest.mark.parametrize("body", [{}, {"count": -1}, {"count": 1, "pairs": [[1]]}, {"count": 1, "pairs": []}, {"count": 1, "colour": 1}])
def test_bad_seeding_is_refused(sim, body):
    with pytest.raises(ControlError):
        sim.control("POST", "/_sim/instances", body)
    assert listing(sim)[1]["count"] == 3
