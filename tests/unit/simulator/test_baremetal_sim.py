# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The simulated bare metal servers answer as the published API does (docs/api_reference.md section 19.1): create as a
task (BUILD, locked, then ACTIVE, created_resources.instances), the image as read-only tags, capacity refused, the
synchronous PATCH, power actions on both action paths, rebuild, delete with its floating IPs, and the VM listing that
leaves bare metal out."""

from __future__ import annotations

import pytest

from sim_api import Api, quick_simulator
from simulator.resources.baremetal import Baremetal

LIST = "/cloud/v1/bminstances/1/76"
UBUNTU, DEBIAN = Baremetal.SEEDS["images"]["ubuntu-22.04-x64"], Baremetal.SEEDS["images"]["debian-12-x64"]
WINDOWS, CENTOS = Baremetal.SEEDS["images"]["windows-2022"], Baremetal.SEEDS["images"]["centos-7-x64"]
SEED = Baremetal.SEEDS["servers"]["bm-seed-1"]
MEMBERS = {"id", "name", "status", "vm_state", "task_state", "flavor", "addresses", "fixed_ip_assignments", "ssh_key_name", "tags",
           "blackhole_ports", "ddos_profile", "instance_isolation", "created_at", "creator_task_id", "task_id", "project_id",
           "region_id", "region"}
UNKNOWN = "00000000-0000-4000-8000-000000000000"


@pytest.fixture
def sim():
    return quick_simulator()


@pytest.fixture
def api(sim):
    return Api(sim)


def body(**more):
    return dict({"name": "bm-1", "flavor": "bm1-basic-small", "image_id": UBUNTU, "interfaces": [{"type": "external"}]}, **more)


def server(api, **more):
    return api.created("POST", LIST, body(**more), "instances")


def test_a_server_builds_locked_by_its_task_then_is_active_with_its_image_as_read_only_tags(sim, api):
    sim.hold()
    task = api.task(api.ok("POST", LIST, body(tags={"env": "prod"}, ssh_key_name="deploy")))
    ident = [record["id"] for record in api.ok("GET", LIST, query="name=bm-1")["results"]][0]
    shown = api.ok("GET", LIST + "/" + ident)
    assert set(shown) == MEMBERS
    assert (shown["status"], shown["task_id"], shown["creator_task_id"]) == ("BUILD", task["id"], task["id"])
    assert api.refused("PATCH", LIST + "/" + ident, {"name": "other"})[0] == 409
    assert api.refused("POST", "/cloud/v2/baremetal/1/76/%s/action" % ident, {"action": "stop"})[0] == 409
    sim.release()
    sim.advance()
    assert task["task_type"] == "create_bm" and task["created_resources"]["instances"] == [ident]
    shown = api.ok("GET", LIST + "/" + ident)
    assert (shown["status"], shown["task_id"], shown["ssh_key_name"]) == ("ACTIVE", None, "deploy")
    assert [(tag["key"], tag["value"], tag["read_only"]) for tag in shown["tags"]] == [
        ("image_id", UBUNTU, True), ("image_name", "ubuntu-22.04-x64", True), ("os_distro", "ubuntu", True),
        ("os_version", "22.04", True), ("env", "prod", False)]
    assert shown["flavor"]["flavor_id"] == "bm1-basic-small" and shown["addresses"]["external"][0]["type"] == "fixed"


def test_a_failed_create_leaves_the_server_in_error(sim, api):
    sim.hold()
    answer = api.ok("POST", LIST, body())
    ident = api.ok("GET", LIST, query="name=bm-1")["results"][0]["id"]
    api.failed(answer)
    assert api.ok("GET", LIST + "/" + ident)["status"] == "ERROR"


@pytest.mark.parametrize("change, status, words", [
    ({"flavor": "g1-standard-1-2"}, 400, "not a bare metal flavor"),
    ({"flavor": "bm2-storage-large"}, 400, "No bare metal server of flavor bm2-storage-large"),
    ({"image_id": UNKNOWN}, 404, "Image"),
    ({"image_id": CENTOS}, 404, "Image"),
    ({"image_id": None}, 400, "Either image_id or apptemplate_id"),
    ({"interfaces": []}, 422, "interfaces"),
    ({"interfaces": [{"type": "external", "security_groups": [{"id": UNKNOWN}]}]}, 422, "security_groups"),
    ({"interfaces": [{"type": "external", "port_group": 4}]}, 422, "port_group"),
    ({"user_data": "not base64!"}, 422, "base64"),
    ({"username": "admin"}, 400, "needs password"),
    ({"image_id": WINDOWS, "username": "admin", "password": "x"}, 400, "Windows"),
    ({"volumes": []}, 422, "extra fields"),
    ({"name": "x"}, 422, "name"),
])
def test_a_create_is_refused_as_the_service_refuses_it(sim, api, change, status, words):
    sent = dict((key, value) for key, value in body(**change).items() if value is not None)
    refused = api.refused("POST", LIST, sent)
    assert refused[0] == status and words in refused[1], refused
    assert not sim.tasks


def test_capacity_is_per_flavor_and_region_and_a_server_takes_one(sim, api):
    assert api.ok("GET", "/cloud/v1/bmcapacity/1/76")["capacity"]["bm1-basic-medium"] == 1
    server(api, flavor="bm1-basic-medium")
    assert api.ok("GET", "/cloud/v1/bmcapacity/1/76")["capacity"]["bm1-basic-medium"] == 0
    assert api.ok("GET", "/cloud/v1/bmcapacity/2/1")["capacity"]["bm1-basic-medium"] == 1
    sim.configure(baremetal_capacity={"bm1-basic-medium": 0})
    assert api.ok("GET", "/cloud/v1/bmcapacity/2/1")["capacity"]["bm1-basic-medium"] == 0
    flavors = api.ok("GET", "/cloud/v1/bmflavors/1/76", query="include_capacity=true")["results"]
    assert {"flavor_id", "flavor_name", "capacity", "disabled", "ram", "vcpus"} <= set(flavors[0])
    assert all(flavor["capacity"] is None for flavor in api.ok("GET", "/cloud/v1/bmflavors/1/76")["results"])
    assert all(not flavor["disabled"] for flavor in api.ok("GET", "/cloud/v1/bmflavors/1/76", query="disabled=false")["results"])


def test_patch_is_synchronous_and_keeps_the_read_only_tags(api):
    ident = server(api, tags={"a": "1", "b": "2"})
    shown = api.ok("PATCH", LIST + "/" + ident, {"name": "bm-2", "tags": {"a": None, "c": "3"}})
    assert shown["name"] == "bm-2" and "updated_at" not in shown
    assert [(tag["key"], tag["value"]) for tag in shown["tags"] if not tag["read_only"]] == [("b", "2"), ("c", "3")]
    assert len([tag for tag in shown["tags"] if tag["read_only"]]) == 4


@pytest.mark.parametrize("prefix", ["/cloud/v2/baremetal", "/cloud/v2/bminstances"])
def test_power_actions_on_both_paths(api, prefix):
    ident = server(api)
    path = "%s/1/76/%s/action" % (prefix, ident)
    assert api.refused("POST", path, {"action": "start"})[0] == 400  # ACTIVE: nothing to start
    assert api.refused("POST", path, {"action": "suspend"}) == (400, "Wrong action")
    assert api.finished(api.ok("POST", path, {"action": "stop"}))["task_type"] == "stop_bm"
    assert api.ok("GET", LIST + "/" + ident)["status"] == "SHUTOFF"
    api.finished(api.ok("POST", path, {"action": "start", "activate_profile": False}))
    assert api.ok("GET", LIST + "/" + ident)["status"] == "ACTIVE"


def test_rebuild_rewrites_the_image_tags(sim, api):
    ident = server(api, tags={"env": "prod"})
    sim.hold()
    answer = api.ok("POST", LIST + "/%s/rebuild" % ident, {"image_id": DEBIAN})
    assert api.ok("GET", LIST + "/" + ident)["status"] == "REBUILD"
    api.finished(answer)
    shown = api.ok("GET", LIST + "/" + ident)
    assert shown["status"] == "ACTIVE"
    assert dict((tag["key"], tag["value"]) for tag in shown["tags"]) == {
        "image_id": DEBIAN, "image_name": "debian-12-x64", "os_distro": "debian", "os_version": "12", "env": "prod"}
    assert api.refused("POST", LIST + "/%s/rebuild" % ident, {"image_id": UNKNOWN})[0] == 404


def test_delete_takes_the_floating_ips_asked_for_and_unassigns_the_others(sim, api):
    network = api.created("POST", "/cloud/v1/networks/1/76", {"name": "bm-net"}, "networks")
    subnet = api.created("POST", "/cloud/v1/subnets/1/76", {"name": "bm-sub", "network_id": network, "cidr": "10.90.0.0/24"}, "subnets")
    interfaces = [{"type": "subnet", "network_id": network, "subnet_id": subnet, "floating_ip": {"source": "new"}}]
    kept, gone = server(api, interfaces=interfaces), server(api, name="bm-2", interfaces=interfaces)
    floating = dict((item["instance"]["id"], item["id"]) for item in api.ok("GET", "/cloud/v1/floatingips/1/76")["results"]
                    if item["instance"])
    assert api.refused("DELETE", LIST + "/" + gone, query="all_floating_ips=true&floating_ip_ids=" + floating[gone])[0] == 400
    api.finished(api.ok("DELETE", LIST + "/" + gone, query="floating_ip_ids=" + floating[gone]))
    api.finished(api.ok("DELETE", LIST + "/" + kept))
    left = dict((item["id"], item["status"]) for item in api.ok("GET", "/cloud/v1/floatingips/1/76")["results"])
    assert floating[gone] not in left and left[floating[kept]] == "DOWN"
    assert api.refused("GET", LIST + "/" + kept)[0] == 404


def test_the_listings(api):
    ident = server(api, name="bm-listed", tags={"env": "prod"})
    names = [record["name"] for record in api.ok("GET", LIST)["results"]]
    assert names == ["bm-seed-1", "bm-listed"]
    assert [record["id"] for record in api.ok("GET", LIST, query="name=listed&status=ACTIVE")["results"]] == [ident]
    assert api.ok("GET", LIST, query="uuid=" + ident[:8])["results"][0]["id"] == ident
    assert api.ok("GET", LIST, query="flavor_id=bm1-basic-medium")["results"] == []
    assert api.ok("GET", LIST, query="limit=1&offset=1")["results"][0]["id"] == ident
    assert ident not in [record["id"] for record in api.ok("GET", "/cloud/v1/instances/1/76")["results"]]
    assert ident in [record["id"] for record in api.ok("GET", "/cloud/v1/instances/1/76", query="include_baremetal=true")["results"]]
    assert SEED in [record["id"] for record in api.ok("GET", LIST)["results"]]
    images = api.ok("GET", "/cloud/v1/bmimages/1/76")["results"]
    assert all(image["is_baremetal"] for image in images) and {image["name"] for image in images} >= {"ubuntu-22.04-x64", "windows-2022"}
    assert api.refused("GET", LIST + "/not-a-uuid")[0] == 422
    assert api.refused("GET", "/cloud/v1/bminstances/1/1/" + ident)[0] == 404
