# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The simulated instance lifecycle answers as the published API does: v2 create (tasks, BUILD then ACTIVE through a
task a test holds and releases), v1 reads, the v1 PATCH, DELETE with its query, v2 actions, changeflavor, security
groups by name, interfaces with ports, images and flavors, quota check, locks, validation; no sleeps."""

from __future__ import annotations

import base64
import json

import pytest

from simulator.control import ControlError
from simulator.core import Simulator
from simulator.resources.instances import FALLBACK_GROUPS, IMAGE_IDS

CREATE = "/cloud/v2/instances/1/76"
LIST = "/cloud/v1/instances/1/76"
UBUNTU = IMAGE_IDS["ubuntu-22.04"]
NET, SUBNET = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01", "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01"
LEGACY_SG = FALLBACK_GROUPS[0][0]


def body(**extra):
    base = {"name": "vm-1", "flavor": "g1-standard-2-4",
            "interfaces": [{"type": "external"}, {"type": "subnet", "network_id": NET, "subnet_id": SUBNET, "floating_ip": {"source": "new"}}],
            "volumes": [{"source": "image", "image_id": UBUNTU, "size": 10, "boot_index": 0}]}
    base.update(extra)
    return base


@pytest.fixture
def sim():
    simulator = Simulator()
    simulator.configure(task_delay=0)  # without a hold, every task ends at the next request
    return simulator


def task(sim, task_id):
    return sim.call("GET", "/cloud/v1/tasks/" + task_id)[1]


def created(sim, **extra):
    status, answer = sim.call("POST", CREATE, body(**extra))
    assert status == 200, answer
    finished = task(sim, answer["tasks"][0])
    assert finished["state"] == "FINISHED"
    return finished["created_resources"]["instances"][0]


def get(sim, ident):
    return sim.call("GET", "%s/%s" % (LIST, ident))


def test_a_created_instance_builds_then_is_active_and_listed_for_the_inventory(sim):
    sim.hold()
    status, answer = sim.call("POST", CREATE, body(tags={"env": "dev"}))
    assert status == 200 and list(answer) == ["tasks"]
    listed = [record for record in sim.call("GET", LIST)[1]["results"] if record["name"] == "vm-1"]
    assert [(record["status"], record["task_id"]) for record in listed] == [("BUILD", answer["tasks"][0])]
    sim.configure(instances_boot_held=True)
    sim.release()
    resources = task(sim, answer["tasks"][0])["created_resources"]
    ident = resources["instances"][0]
    assert len(resources["volumes"]) == 1 and len(resources["ports"]) == 2
    record = get(sim, ident)[1]
    assert (record["status"], record["task_id"]) == ("BUILD", None)  # booting: held, not locking
    sim.release()
    record = get(sim, ident)[1]
    assert record["status"] == "ACTIVE" and record["vm_state"] == "active"
    assert record["tags"] == [{"key": "env", "value": "dev", "read_only": False}]
    assert record["security_groups"] == [{"name": "default"}]
    types = sorted(entry["type"] for entries in record["addresses"].values() for entry in entries)
    assert types == ["fixed", "fixed", "floating"]
    assert ident in [item["id"] for item in sim.call("GET", "/cloud/v1/instances/1/76", query="name=vm-1")[1]["results"]]


def test_a_failed_boot_leaves_the_instance_in_error(sim):
    sim.configure(task_fail={"boot_instance": "no valid host"})
    ident = created(sim)
    assert get(sim, ident)[1]["status"] == "ERROR"


@pytest.mark.parametrize("change, field", [
    ({"flavor": None}, "flavor"),
    ({"interfaces": []}, "interfaces"),
    ({"volumes": []}, "volumes"),
    ({"volumes": [{"source": "new-volume", "size": 1, "boot_index": 0}]}, "volumes.0.boot_index"),
    ({"volumes": [{"source": "snapshot", "snapshot_id": UBUNTU}]}, "volumes.0.size"),
    ({"volumes": [{"source": "existing-volume", "volume_id": UBUNTU, "size": 3}]}, "volumes.0.size"),
    ({"volumes": [{"source": "snapshot", "snapshot_id": UBUNTU, "size": 3, "type_name": "cold"}]}, "volumes.0.type_name"),
    ({"interfaces": [{"type": "subnet", "network_id": NET}]}, "interfaces.0.subnet_id"),
    ({"name": "-bad"}, "name"),
    ({"user_data": "not base64!"}, "user_data"),
    ({"tags": {"a b": "c"}}, "tags.a b"),
    ({"count": 2}, "count"),
])
def test_create_bodies_are_validated(sim, change, field):
    status, answer = sim.call("POST", CREATE, body(**change))
    assert status == 422 and answer["message"].startswith(field + ":"), answer
    assert not [record for record in sim.instances if record["name"] == "vm-1"]


def test_unknown_flavor_image_and_group_are_refused(sim):
    assert sim.call("POST", CREATE, body(flavor="g9-huge"))[0] == 400
    assert sim.call("POST", CREATE, body(volumes=[{"source": "image", "image_id": IMAGE_IDS["centos-7"]}]))[0] == 404
    assert sim.call("POST", CREATE, body(security_groups=[{"id": "5ec0a11e-0000-4000-8000-0000000000ff"}]))[0] == 404
    ident = created(sim, security_groups=[{"id": LEGACY_SG}], user_data=base64.b64encode(b"#!/bin/sh").decode())
    assert get(sim, ident)[1]["security_groups"] == [{"name": "legacy-sg"}]


def test_actions_stop_start_reboot_and_wrong_ones(sim):
    ident = created(sim)
    action = "/cloud/v2/instances/1/76/%s/action" % ident
    assert sim.call("POST", action, {"action": "powercycle"})[0] == 400
    assert sim.call("POST", action, {"action": "start"})[0] == 400  # already running
    sim.hold()
    status, answer = sim.call("POST", action, {"action": "stop"})
    assert status == 200
    assert get(sim, ident)[1]["task_id"] == answer["tasks"][0]
    assert sim.call("POST", action, {"action": "start"})[0] == 409  # locked
    sim.release()
    assert (get(sim, ident)[1]["status"], get(sim, ident)[1]["vm_state"]) == ("SHUTOFF", "stopped")
    assert sim.call("POST", action, {"action": "reboot"})[0] == 400
    assert sim.call("POST", action, {"action": "start", "activate_profile": True})[0] == 200
    assert get(sim, ident)[1]["status"] == "ACTIVE"
    sim.hold()
    sim.call("POST", action, {"action": "reboot"})
    assert get(sim, ident)[1]["status"] == "REBOOT"
    sim.release()
    assert get(sim, ident)[1]["status"] == "ACTIVE"
    assert sim.call("POST", "/cloud/v2/instances/1/76/%s/action" % UBUNTU, {"action": "stop"})[0] == 404


def test_changeflavor_resizes_and_returns_to_the_status_it_had(sim):
    ident = created(sim)
    path = "%s/%s/changeflavor" % (LIST, ident)
    assert sim.call("POST", path, {"flavor_id": "g9-huge"})[0] == 400
    assert sim.call("POST", path, {})[0] == 422
    sim.hold()
    assert sim.call("POST", path, {"flavor_id": "g1-standard-4-8"})[0] == 200
    assert get(sim, ident)[1]["status"] == "RESIZE"
    sim.release()
    record = get(sim, ident)[1]
    assert (record["status"], record["flavor"]["flavor_name"], record["flavor"]["vcpus"]) == ("ACTIVE", "g1-standard-4-8", 4)


def test_security_groups_are_added_and_removed_by_name(sim):
    ident = created(sim)
    add, remove = "%s/%s/addsecuritygroup" % (LIST, ident), "%s/%s/delsecuritygroup" % (LIST, ident)
    assert sim.call("POST", add, {"name": "legacy-sg"}) == (204, None)
    assert sim.call("POST", add, {"name": "legacy-sg"})[0] == 400
    assert sim.call("POST", add, {"name": "nope-sg"})[0] == 404
    assert sim.call("POST", remove, {"name": "default"}) == (204, None)
    assert sim.call("POST", remove, {"name": "default"})[0] == 400
    assert get(sim, ident)[1]["security_groups"] == [{"name": "legacy-sg"}]


def test_patch_renames_and_merges_tags_synchronously(sim):
    ident = created(sim, tags={"a": "1", "b": "2"})
    status, record = sim.call("PATCH", "%s/%s" % (LIST, ident), {"name": "vm-2", "tags": {"a": None, "c": "3"}})
    assert status == 200 and record["name"] == "vm-2"
    assert [(tag["key"], tag["value"]) for tag in record["tags"]] == [("b", "2"), ("c", "3")]
    assert sim.call("PATCH", "%s/%s" % (LIST, ident), {"flavor": "x"})[0] == 422


def test_delete_takes_its_query_and_the_instance_goes_when_the_task_ends(sim):
    ident = created(sim)
    volume = get(sim, ident)[1]["volumes"][0]["id"]
    path = "%s/%s" % (LIST, ident)
    assert sim.call("DELETE", path, query="delete_floatings=true&floatings=x")[0] == 400
    assert sim.call("DELETE", path, query="volumes=not-a-uuid")[0] == 422
    sim.hold()
    status, answer = sim.call("DELETE", path, query="delete_floatings=true&volumes=" + volume)
    assert status == 200 and get(sim, ident)[1]["task_id"] == answer["tasks"][0]
    assert sim.call("DELETE", path)[0] == 409
    sim.release()
    assert get(sim, ident)[0] == 404
    assert sim.deleted_volumes == [volume]
    assert ident not in sim.instance_ports


def test_interfaces_list_one_port_per_interface_also_for_seeded_instances(sim):
    ident = created(sim)
    ports = sim.call("GET", "%s/%s/interfaces" % (LIST, ident))[1]["results"]
    assert len(ports) == 2 and all(port["port_id"] and port["ip_assignments"] for port in ports)
    assert ports[1]["ip_assignments"][0]["subnet_id"] == SUBNET
    assert ports[1]["ip_assignments"][0]["ip_address"].startswith("192.168.10.")
    assert ports[1]["floatingip_details"]
    seeded = sim.seeds["instances"]["instances"]["web-1/1/76"]
    seeded_ports = sim.call("GET", "%s/%s/interfaces" % (LIST, seeded))[1]["results"]
    assert [port["network_details"]["name"] for port in seeded_ports] == ["private-net", "public-v6"]
    assert sim.call("GET", "%s/%s/interfaces" % (LIST, seeded))[1] == {"count": 2, "results": seeded_ports}  # stable ids


def test_images_and_flavors_are_listed_whole(sim):
    images = sim.call("GET", "/cloud/v1/images/1/76", query="name=debian-12")[1]
    assert images["count"] == 5  # no name filter: every image
    assert sorted((image["name"], image["status"]) for image in images["results"])[:2] == [("centos-7", "deactivated"), ("debian-12", "active")]
    flavors = sim.call("GET", "/cloud/v1/flavors/1/76")[1]["results"]
    assert all(flavor["flavor_id"] == flavor["flavor_name"] for flavor in flavors)
    assert "g0-old-1-1" not in [flavor["flavor_id"] for flavor in sim.call("GET", "/cloud/v1/flavors/1/76", query="disabled=false")[1]["results"]]


def test_quota_check_for_instances_is_read_only_and_counts_the_request(sim):
    status, answer = sim.call("POST", CREATE + "/check_limits", {
        "flavor": "g1-standard-4-8", "names": ["a", "b"], "interfaces": [{"type": "external"}],
        "volumes": [{"source": "image", "size": 20}]})
    assert status == 200
    assert (answer["vm_count_requested"], answer["cpu_count_requested"], answer["volume_size_requested"]) == (2, 8, 40)
    assert sim.writes() == []
    status, answer = sim.call("POST", CREATE + "/check_limits", {
        "flavor": "g1-standard-4-8", "names": ["a"], "interfaces": [{"type": "external", "security_groups": [{"id": LEGACY_SG}]}]})
    assert status == 422 and "security_groups" in answer["message"]


def test_the_fallback_security_group_listing_filters_by_exact_name_in_pages_of_ten(sim):
    answer = sim.call("GET", "/cloud/v1/securitygroups/1/76", query="name=shared-sg")[1]
    assert [group["name"] for group in answer["results"]] == ["shared-sg", "shared-sg"]
    assert sim.call("GET", "/cloud/v1/securitygroups/1/76", query="name=shared")[1]["count"] == 0
    assert json.dumps(sim.call("GET", "/cloud/v1/securitygroups/1/1")[1]) == json.dumps({"count": 0, "results": []})


def test_a_new_instance_s_volumes_are_the_volume_family_s_records_attached_to_it(sim):
    ident = created(sim, volumes=[{"source": "image", "image_id": UBUNTU, "size": 10, "boot_index": 0},
                                  {"source": "new-volume", "size": 5, "name": "data-vol", "delete_on_termination": True}])
    volumes = get(sim, ident)[1]["volumes"]
    assert [volume["delete_on_termination"] for volume in volumes] == [False, True]
    records = [sim.call("GET", "/cloud/v1/volumes/1/76/" + volume["id"])[1] for volume in volumes]
    assert [(record["status"], record["size"], record["attachments"][0]["server_id"]) for record in records] == [
        ("in-use", 10, ident), ("in-use", 5, ident)]
    assert records[0]["bootable"] and records[1]["name"] == "data-vol"
    sim.call("DELETE", "%s/%s" % (LIST, ident))
    assert get(sim, ident)[0] == 404
    kept = sim.call("GET", "/cloud/v1/volumes/1/76/" + volumes[0]["id"])[1]
    assert kept["status"] == "available" and kept["attachments"] == []  # left behind, detached
    assert sim.call("GET", "/cloud/v1/volumes/1/76/" + volumes[1]["id"])[0] == 404  # deleted with the instance


def test_an_existing_volume_must_be_available_to_boot_a_new_instance(sim):
    data = sim.seeds["volumes"]["volumes"]["data_1"]
    ident = created(sim, volumes=[{"source": "existing-volume", "volume_id": data, "boot_index": 0}])
    assert sim.call("GET", "/cloud/v1/volumes/1/76/" + data)[1]["attachments"][0]["server_id"] == ident
    status, answer = sim.call("POST", CREATE, body(name="vm-2", volumes=[{"source": "existing-volume", "volume_id": data}]))
    assert status == 400 and "not available" in answer["message"]
    assert sim.call("POST", CREATE, body(name="vm-3", volumes=[{"source": "existing-volume", "volume_id": LEGACY_SG}]))[0] == 404


def test_a_new_instance_s_floating_ip_is_the_floating_ip_family_s_record_on_its_port(sim):
    ident = created(sim)
    ports = sim.call("GET", "%s/%s/interfaces" % (LIST, ident))[1]["results"]
    floating = [item for item in sim.call("GET", "/cloud/v1/floatingips/1/76")[1]["results"] if item["port_id"] == ports[1]["port_id"]]
    assert len(floating) == 1 and floating[0]["status"] == "ACTIVE"
    assert floating[0]["fixed_ip_address"] == ports[1]["ip_assignments"][0]["ip_address"]
    assert [item["id"] for item in ports[1]["floatingip_details"]] == [floating[0]["id"]]
    addresses = [entry["addr"] for entries in get(sim, ident)[1]["addresses"].values() for entry in entries if entry["type"] == "floating"]
    assert addresses == [floating[0]["floating_ip_address"]]
    sim.call("DELETE", "%s/%s" % (LIST, ident))
    assert sim.call("GET", "/cloud/v1/floatingips/1/76/" + floating[0]["id"])[1]["status"] == "DOWN"  # unassigned, kept
    other = created(sim, name="vm-2")
    port = sim.call("GET", "%s/%s/interfaces" % (LIST, other))[1]["results"][1]
    (fip,) = port["floatingip_details"]
    sim.call("DELETE", "%s/%s" % (LIST, other), query="delete_floatings=true")
    assert sim.call("GET", "/cloud/v1/floatingips/1/76/" + fip["id"])[0] == 404


def test_interfaces_need_the_networks_family_s_network_and_subnet(sim):
    other_net = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a02"
    status, answer = sim.call("POST", CREATE, body(interfaces=[{"type": "subnet", "network_id": other_net, "subnet_id": SUBNET}]))
    assert status == 404 and "Subnet %s not found" % SUBNET in answer["message"]
    assert sim.call("POST", CREATE, body(interfaces=[{"type": "any_subnet", "network_id": UBUNTU}]))[0] == 404
    assert sim.call("POST", CREATE, body(interfaces=[{"type": "any_subnet", "network_id": "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a11"}]))[0] == 400
    ident = created(sim, interfaces=[{"type": "any_subnet", "network_id": other_net}])
    (address,) = get(sim, ident)[1]["addresses"]["router-net-2"]
    assert address["addr"].startswith("192.168.20.") and address["subnet_id"] == "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b02"


def test_a_boot_takes_instances_boot_seconds_when_set(sim):
    sim.configure(instances_boot_seconds=600)
    ident = created(sim)
    assert get(sim, ident)[1]["status"] == "BUILD"  # the boot task started at this read, 600 s long
    boots = [value for value in sim.tasks.values() if value["record"]["task_type"] == "boot_instance"]
    assert [(boot["delay"], boot["done"]) for boot in boots] == [(600, False)]
    sim.configure(instances_boot_seconds=None)
    get(sim, created(sim, name="vm-2"))
    boots = [value for value in sim.tasks.values() if value["record"]["task_type"] == "boot_instance"]
    assert [boot["delay"] for boot in boots] == [600, 0], "unset: the boot takes task_delay"


def test_a_second_fixed_address_on_the_first_port(sim):
    ident = created(sim)
    port = sim.call("GET", "%s/%s/interfaces" % (LIST, ident))[1]["results"][0]
    answer = sim.control("POST", "/_sim/instance_address", {"instance_id": ident, "addr": "10.0.0.77"})
    assert answer == {"port_id": port["port_id"]}
    again = sim.call("GET", "%s/%s/interfaces" % (LIST, ident))[1]["results"][0]
    assert [item["ip_address"] for item in again["ip_assignments"]][-1] == "10.0.0.77"
    added = get(sim, ident)[1]["addresses"][port["network_details"]["name"]][-1]
    assert (added["addr"], added["type"], added["interface_name"]) == ("10.0.0.77", "fixed", port["interface_name"] or "eth0")
    for bad in ({"instance_id": ident, "addr": "nope"}, {"instance_id": "no-such", "addr": "10.0.0.78"}, {"addr": "10.0.0.78"}):
        with pytest.raises(ControlError):
            sim.control("POST", "/_sim/instance_address", bad)


def test_instances_boot_concurrently_each_boot_task_on_its_own_clock(sim):
    """As the service does: three instances created one after the other boot at once (three boot tasks in progress
    together), each boot its own task with its own start, and ending one does not end the others."""
    sim.configure(instances_boot_seconds=600)
    sent = [sim.call("POST", CREATE, body(name="vm-%d" % number))[1]["tasks"][0] for number in (1, 2, 3)]
    assert [task(sim, task_id)["state"] for task_id in sent] == ["FINISHED"] * 3
    listed = [record for record in sim.call("GET", LIST)[1]["results"] if record["name"].startswith("vm-")]
    assert [record["status"] for record in listed] == ["BUILD"] * 3  # one listing started the three boots
    boots = [value for value in sim.tasks.values() if value["record"]["task_type"] == "boot_instance"]
    assert len(boots) == 3 and not any(boot["done"] for boot in boots), "three boots in progress together"
    assert len(set(id(boot) for boot in boots)) == 3 and all(boot["delay"] == 600 for boot in boots)
    sim.release(boots[1]["record"]["id"])
    statuses = dict((record["name"], record["status"]) for record in sim.call("GET", LIST)[1]["results"] if record["name"].startswith("vm-"))
    assert statuses == {"vm-1": "BUILD", "vm-2": "ACTIVE", "vm-3": "BUILD"}, "each boot ends on its own"
