# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Referential truth in the simulator (docs/api_reference.md section 17.6): an unknown id in a body is refused as the
service refuses it, derived members are computed from what exists, what is in use cannot be deleted, a load
balancer's floating_ip and a network's create_router are honoured, quota usage follows what exists, a failed
creator task leaves nothing listed, a failed action unlocks its instance, task_fail names a task that exists."""

from __future__ import annotations

import pytest

from simulator.control import ControlError
from simulator.core import Simulator
from simulator.resources.instances import IMAGE_IDS

NETS, SUBS, ROUTERS = "/cloud/v1/networks/1/76", "/cloud/v1/subnets/1/76", "/cloud/v1/routers/1/76"
INSTANCES, LBS, FIPS = "/cloud/v2/instances/1/76", "/cloud/v1/loadbalancers/1/76", "/cloud/v1/floatingips/1/76"
SGS = "/cloud/v1/securitygroups/1/76"
UBUNTU = IMAGE_IDS["ubuntu-22.04"]
UNKNOWN = "00000000-0000-4000-8000-00000000abcd"


@pytest.fixture
def sim():
    simulator = Simulator()
    simulator.configure(task_delay=0)
    return simulator


def created(sim, answer, kind):
    sim.advance()
    task = sim.tasks[answer["tasks"][0]]["record"]
    assert task["state"] == "FINISHED", task
    return task["created_resources"][kind][0]


def network(sim, name="sim-net", **extra):
    return created(sim, sim.call("POST", NETS, dict({"name": name}, **extra))[1], "networks")


def subnet(sim, network_id, cidr="10.60.0.0/24", name="sim-subnet", **extra):
    return created(sim, sim.call("POST", SUBS, dict({"name": name, "network_id": network_id, "cidr": cidr}, **extra))[1], "subnets")


def instance_body(network_id, subnet_id, **extra):
    return dict({"name": "sim-vm", "flavor": "g1-standard-2-4",
                 "interfaces": [{"type": "subnet", "network_id": network_id, "subnet_id": subnet_id}],
                 "volumes": [{"source": "image", "image_id": UBUNTU, "size": 10, "boot_index": 0}]}, **extra)


def instance(sim, network_id, subnet_id, **extra):
    return created(sim, sim.call("POST", INSTANCES, instance_body(network_id, subnet_id, **extra))[1], "instances")


@pytest.mark.parametrize("change, status, words", [
    ({"interfaces": [{"type": "subnet", "network_id": UNKNOWN, "subnet_id": UNKNOWN}]}, 404, "Network"),
    ("subnet", 404, "Subnet"),
    ({"volumes": [{"source": "image", "image_id": UNKNOWN, "size": 10, "boot_index": 0}]}, 404, "Image"),
    ({"security_groups": [{"id": UNKNOWN}]}, 404, "Security group"),
])
def test_an_unknown_id_in_an_instance_body_is_refused(sim, change, status, words):
    network_id = network(sim)
    subnet_id = subnet(sim, network_id)
    body = instance_body(network_id, subnet_id)
    if change == "subnet":
        body["interfaces"][0]["subnet_id"] = UNKNOWN
    else:
        body.update(change)
    answer = sim.call("POST", INSTANCES, body)
    assert answer[0] == status and words in answer[1]["message"] and UNKNOWN in answer[1]["message"]


@pytest.mark.parametrize("change, words", [
    ({"vip_network_id": UNKNOWN}, "Network"),
    ({"vip_subnet_id": UNKNOWN}, "Subnet"),
    ({"floating_ip": {"source": "existing", "existing_floating_id": UNKNOWN}}, "Floating IP"),
    ({"listeners": [{"name": "tcp-80", "protocol": "TCP", "protocol_port": 80, "pools": [
        {"name": "tcp-pool", "lb_algorithm": "ROUND_ROBIN", "protocol": "TCP",
         "members": [{"address": "10.0.0.5", "protocol_port": 80, "subnet_id": UNKNOWN}]}]}]}, "Subnet"),
])
def test_an_unknown_id_in_a_load_balancer_body_is_refused(sim, change, words):
    status, answer = sim.call("POST", LBS, dict({"name": "sim-lb"}, **change))
    assert status == 404 and words in answer["message"] and UNKNOWN in answer["message"]
    assert sim.call("GET", LBS, query="name=sim-lb")[1]["count"] == 0


def test_derived_members_follow_what_exists(sim):
    network_id = network(sim, create_router=False)
    subnet_id = subnet(sim, network_id, name="app-subnet")
    # An address's subnet_name is its subnet's own name.
    vm = sim.call("GET", "/cloud/v1/instances/1/76/" + instance(sim, network_id, subnet_id))[1]
    assert [address["subnet_name"] for address in vm["addresses"]["sim-net"]] == ["app-subnet"]
    # has_router follows a router's attachments (the network has no router of its own).
    assert sim.call("GET", SUBS + "/" + subnet_id)[1]["has_router"] is False
    router_id = created(sim, sim.call("POST", ROUTERS, {"name": "sim-router"})[1], "routers")
    assert sim.call("POST", "%s/%s/attach" % (ROUTERS, router_id), {"subnet_id": subnet_id})[0] == 200
    assert sim.call("GET", SUBS + "/" + subnet_id)[1]["has_router"] is True
    assert [item["has_router"] for item in sim.call("GET", SUBS, query="network_id=" + network_id)[1]["results"]] == [True]
    assert sim.call("POST", "%s/%s/detach" % (ROUTERS, router_id), {"subnet_id": subnet_id})[0] == 200
    assert sim.call("GET", SUBS + "/" + subnet_id)[1]["has_router"] is False


def test_create_router_gives_connected_subnets_a_router(sim):
    with_router = network(sim, "with-router")  # create_router defaults to true
    assert sim.call("GET", SUBS + "/" + subnet(sim, with_router))[1]["has_router"] is True
    unconnected = subnet(sim, with_router, "10.61.0.0/24", connect_to_network_router=False)
    assert sim.call("GET", SUBS + "/" + unconnected)[1]["has_router"] is False
    without = network(sim, "without-router", create_router=False)
    assert sim.call("GET", SUBS + "/" + subnet(sim, without, "10.62.0.0/24"))[1]["has_router"] is False


def test_a_network_a_subnet_and_a_security_group_in_use_are_not_deleted(sim):
    network_id = network(sim)
    subnet_id = subnet(sim, network_id)
    group = sim.call("POST", "/cloud/v2/security_groups/1/76", {"name": "web-sg"})[1]
    group_id = created(sim, group, "security_groups")
    vm_id = instance(sim, network_id, subnet_id, security_groups=[{"id": group_id}])
    for path, words in ((NETS + "/" + network_id, "instance " + vm_id), (SUBS + "/" + subnet_id, "instance " + vm_id),
                        (SGS + "/" + group_id, "instance " + vm_id)):
        status, answer = sim.call("DELETE", path)
        assert status == 400 and "in use" in answer["message"] and words in answer["message"]
    sim.call("DELETE", "/cloud/v1/instances/1/76/" + vm_id)
    sim.advance()
    assert sim.call("DELETE", SGS + "/" + group_id)[0] == 204
    assert sim.call("DELETE", NETS + "/" + network_id)[0] == 200


def test_a_load_balancer_vip_holds_its_network_and_its_floating_ip_is_honoured(sim):
    network_id = network(sim)
    subnet_id = subnet(sim, network_id)
    lb_id = created(sim, sim.call("POST", LBS, {"name": "sim-lb", "vip_network_id": network_id, "vip_subnet_id": subnet_id,
                                                "floating_ip": {"source": "new"}})[1], "loadbalancers")
    lb = sim.call("GET", LBS + "/" + lb_id)[1]
    assert [(item["fixed_ip_address"], item["status"]) for item in lb["floating_ips"]] == [(lb["vip_address"], "ACTIVE")]
    floating_id = lb["floating_ips"][0]["id"]
    assert sim.call("GET", FIPS + "/" + floating_id)[1]["port_id"] == lb["vip_port_id"]
    status, answer = sim.call("DELETE", NETS + "/" + network_id)
    assert status == 400 and "load balancer " + lb_id in answer["message"]
    # An existing floating IP already assigned is refused; the load balancer's goes DOWN with it.
    taken = sim.call("POST", LBS, {"name": "sim-lb-2", "floating_ip": {"source": "existing", "existing_floating_id": floating_id}})
    assert taken[0] == 400 and "already assigned" in taken[1]["message"]
    sim.call("DELETE", LBS + "/" + lb_id)
    sim.advance()
    assert sim.call("GET", FIPS + "/" + floating_id)[1]["status"] == "DOWN"
    lb2 = created(sim, sim.call("POST", LBS, {"name": "sim-lb-2", "floating_ip": {"source": "existing",
                                                                                  "existing_floating_id": floating_id}})[1], "loadbalancers")
    assert [item["id"] for item in sim.call("GET", LBS + "/" + lb2)[1]["floating_ips"]] == [floating_id]


def test_quota_usage_follows_what_exists(sim):
    def usage(base):
        return sim.call("POST", "/cloud/v1/bminstances/1/76/check_limits", {"names": ["bm-1"]})[1][base + "_usage"]

    networks, vms, groups = usage("network_count"), usage("vm_count"), usage("firewall_count")
    assert networks == sim.call("GET", NETS)[1]["count"]
    network_id = network(sim)
    subnet_id = subnet(sim, network_id)
    instance(sim, network_id, subnet_id)
    assert (usage("network_count"), usage("vm_count"), usage("firewall_count")) == (networks + 1, vms + 1, groups)
    sim.configure(quota_usage={"vm_count": 42})  # a usage set for a test is taken as given
    assert usage("vm_count") == 42


def test_a_network_whose_create_task_failed_is_not_listed(sim):
    sim.hold()
    answer = sim.call("POST", NETS, {"name": "doomed"})[1]
    assert sim.call("GET", NETS, query="name=doomed")[1]["count"] == 1  # present, locked by its task
    sim.release(error="no free segmentation id")
    assert sim.call("GET", NETS, query="name=doomed")[1] == {"count": 0, "results": []}
    assert sim.tasks[answer["tasks"][0]]["record"]["state"] == "ERROR"


def test_a_failed_action_unlocks_the_instance_as_it_was(sim):
    network_id = network(sim)
    vm_id = instance(sim, network_id, subnet(sim, network_id))
    path = "/cloud/v1/instances/1/76/" + vm_id
    sim.advance()
    assert sim.call("GET", path)[1]["status"] == "ACTIVE"
    sim.hold()
    answer = sim.call("POST", "/cloud/v2/instances/1/76/%s/action" % vm_id, {"action": "stop"})[1]
    assert sim.call("GET", path)[1]["task_id"] == answer["tasks"][0]
    sim.release(error="hypervisor refused")
    record = sim.call("GET", path)[1]
    assert record["task_id"] is None and record["status"] == "ACTIVE"
    assert sim.call("PATCH", path, {"name": "sim-vm-2"})[0] == 200  # writable again


def test_task_fail_names_a_task_type_that_exists(sim):
    with pytest.raises(ControlError, match="creat_vm: no task of that type exists"):
        sim.configure(task_fail={"creat_vm": "no capacity"})
    assert sim.config["task_fail"] == {}
    with pytest.raises(ControlError, match="update_networks"):
        sim.control("POST", "/_sim/config", {"task_fail": {"update_networks": "x"}})
    sim.configure(task_fail={"create_vm": "no capacity"})
    assert sim.config["task_fail"] == {"create_vm": "no capacity"}
