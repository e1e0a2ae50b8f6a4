# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""network, subnet and their _info modules, in process against the simulator over HTTP: every option limit refused before
any request, create then a second run without a write, check mode and diff, one PATCH of the differences (tags as a
merge patch), delete, create-only options refused, names exact (twins refused), locks, wait=false, failed tasks."""

from __future__ import annotations

import json

import pytest

from ansible_collections.gcore.platform.plugins.modules import network, network_info, router, subnet, subnet_info
from simulator.resources.networks import SEEDED

import harness
from harness import writes

BASE = dict(project_id=1, region_id=76)
NETS = "/cloud/v1/networks/1/76"
NETS_V2 = "/cloud/v2/networks/1/76"  # the update moved to v2 (a task)
SUBS = "/cloud/v1/subnets/1/76"
NET_2 = SEEDED[1][0]  # router-net-2, with router-subnet-2 (192.168.20.0/24)
TWIN_NETS = [SEEDED[3][0], SEEDED[4][0]]


def run(server, module, **args):
    return harness.run(server, module, dict(BASE, **args), _ansible_diff=True)


def make_network(server, **args):
    result = run(server, network, **dict({"name": "app-net"}, **args))
    assert result["changed"] is True, result
    return result["network"]["id"]


SUBNET = dict(name="app-subnet", cidr="10.10.0.0/24")


# ---- bad input: refused before any request ---------------------------------------------------------

@pytest.mark.parametrize("module, args, expected", [
    (network, dict(name="ab"), "name: length 2 is out of range"),
    (network, dict(name="bad\nname"), "name:"),
    (network, dict(name="-leading"), "name:"),
    (network, dict(name="x" * 64), "name: length 64"),
    (network, dict(network_id="not-a-uuid"), "network_id: 'not-a-uuid' is not a UUID"),
    (network, dict(name="app-net", type="flat"), "value of type must be one of: vxlan, vlan"),
    (network, dict(name="app-net", tags={"a b": "c"}), "tags: key 'a b'"),
    (network, dict(name="app-net", tags={"k": "x\ty"}), "tags.k"),
    (network, dict(name="app-net", tags={"k": 1}), "tags.k"),
    (network, dict(name="app-net", wait_timeout=float("nan")), "wait_timeout"),
    (network, dict(), "one of the following is required: network_id, name"),
    (subnet, dict(SUBNET), "network_id: required to find a subnet by name"),
    (subnet, dict(SUBNET, network_id=NET_2, cidr="10.10.0.1/24"), "cidr: '10.10.0.1/24' has host bits set; use the network address 10.10.0.0/24"),
    (subnet, dict(SUBNET, network_id=NET_2, cidr="10.10.0.0/33"), "cidr: '10.10.0.0/33' is not a network in CIDR notation"),
    (subnet, dict(SUBNET, network_id=NET_2, cidr="banana"), "cidr:"),
    (subnet, dict(SUBNET, network_id=NET_2, gateway_ip="10.11.0.1"), "gateway_ip: 10.11.0.1 is not a host address of cidr 10.10.0.0/24"),
    (subnet, dict(SUBNET, network_id=NET_2, gateway_ip="10.10.0.0"), "gateway_ip: 10.10.0.0 is not a host address"),
    (subnet, dict(SUBNET, network_id=NET_2, gateway_ip="fd00::1"), "gateway_ip: fd00::1 is not a host address"),
    (subnet, dict(SUBNET, network_id=NET_2, gateway_ip="nowhere"), "gateway_ip: 'nowhere' is not a valid IPv4 or IPv6 address"),
    (subnet, dict(SUBNET, network_id=NET_2, gateway_ip="disable", connect_to_network_router=True), "connect_to_network_router: must not be true"),
    (subnet, dict(SUBNET, network_id=NET_2, gateway_ip="disable", router_id="e1a7c0de-0000-4000-8000-000000000001"), "router_id: not with gateway_ip disable"),
    (subnet, dict(SUBNET, network_id=NET_2, connect_to_network_router=False, router_id="e1a7c0de-0000-4000-8000-000000000001"),
     "router_id: not with connect_to_network_router false"),
    (subnet, dict(SUBNET, network_id=NET_2, router_id="nope"), "router_id: 'nope' is not a UUID"),
    (subnet, dict(SUBNET, network_id=NET_2, dns_nameservers=["8.8.8.8", "1.1.1.999"]), "dns_nameservers[1]: '1.1.1.999' is not a valid"),
    (subnet, dict(SUBNET, network_id=NET_2, dns_nameservers=["8.8.8.8", "1.1.1.1", "8.8.8.8"]),
     "dns_nameservers[2]: 8.8.8.8 is listed twice (also dns_nameservers[0])"),
    (subnet, dict(SUBNET, network_id=NET_2, host_routes=[{"destination": "10.9.0.1/16", "nexthop": "10.10.0.9"}]),
     "host_routes[0].destination: '10.9.0.1/16' has host bits set"),
    (subnet, dict(SUBNET, network_id=NET_2, host_routes=[{"destination": "10.9.0.0/16", "nexthop": "fd00::9"}]),
     "host_routes[0].nexthop: fd00::9 is an IPv6 address but the destination 10.9.0.0/16 is IPv4"),
    (subnet, dict(SUBNET, network_id=NET_2, host_routes=[{"destination": "10.9.0.0/16"}]), "nexthop"),
    (subnet, dict(SUBNET, network_id=NET_2, name="sub\x00net"), "name:"),
    (subnet, dict(SUBNET, network_id=NET_2, tags={"env": " prod"}), "tags.env"),
    (network_info, dict(name="x"), "name: length 1"),
    (network_info, dict(network_id="x", name="abc"), "mutually exclusive"),
    (subnet_info, dict(name="app-subnet"), "missing parameter(s) required by 'name': network_id"),
    (subnet_info, dict(subnet_id="zz"), "subnet_id: 'zz' is not a UUID"),
])
def test_every_option_limit_fails_before_any_request(module, args, expected):
    message = harness.fail_message(module, dict(BASE, **args))
    assert expected in message, message


# ---- network -------------------------------------------------------------------------------------------

def test_network_create_waits_for_its_task_and_a_second_run_sends_nothing(server):
    result = run(server, network, name="app-net", type="vxlan", create_router=False, tags={"env": "dev"})
    assert result["changed"] is True and len(result["tasks"]) == 1
    assert writes(server) == [("POST", NETS, {"name": "app-net", "type": "vxlan", "create_router": False, "tags": {"env": "dev"}})]
    record = result["network"]
    assert record["task_id"] is None and record["mtu"] == 1450 and record["tags"] == [{"key": "env", "value": "dev", "read_only": False}]
    assert result["diff"] == {"before": {"state": "absent"},
                              "after": {"state": "present", "name": "app-net", "type": "vxlan", "tags": {"env": "dev"}}}
    server.log = []
    again = run(server, network, name="app-net", type="vxlan", create_router=True, tags={"env": "dev"})
    assert again["changed"] is False and again["tasks"] == [] and writes(server) == []
    assert again["network"]["id"] == record["id"]
    assert [entry["method"] for entry in server.requests()] == ["GET"], "one read, no write"


def test_network_create_sends_only_what_is_given(server):
    run(server, network, name="plain-net")
    assert writes(server) == [("POST", NETS, {"name": "plain-net"})]


def test_check_mode_predicts_and_sends_nothing(server):
    result = run(server, network, name="app-net", tags={"a": "b"}, _ansible_check_mode=True)
    assert result["changed"] is True and result["network"] is None and writes(server) == []
    network_id = make_network(server, tags={"a": "b"})
    server.log = []
    result = run(server, network, name="app-net-2", network_id=network_id, tags={"a": "c"}, _ansible_check_mode=True)
    assert result["changed"] is True and writes(server) == []
    assert result["diff"]["after"]["name"] == "app-net-2" and result["diff"]["after"]["tags"] == {"a": "c"}
    result = run(server, network, network_id=network_id, state="absent", _ansible_check_mode=True)
    assert result["changed"] is True and writes(server) == []


def test_rename_by_id_and_tags_as_a_merge_patch_keep_read_only_tags(server):
    network_id = make_network(server, tags={"env": "dev", "team": "web"})
    server.networks[network_id]["tags"].append({"key": "os", "value": "linux", "read_only": True})
    server.log = []
    result = run(server, network, network_id=network_id.upper(), name="app-net-2", tags={"env": "prod"})
    assert result["changed"] is True and len(result["tasks"]) == 1, "the v2 PATCH answers a task, waited for"
    assert writes(server) == [("PATCH", NETS_V2 + "/" + network_id, {"name": "app-net-2", "tags": {"env": "prod", "team": None}})]
    assert result["network"]["name"] == "app-net-2"
    assert {"key": "os", "value": "linux", "read_only": True} in result["network"]["tags"]
    assert result["diff"]["before"]["tags"] == {"env": "dev", "team": "web"} and result["diff"]["after"]["tags"] == {"env": "prod"}
    server.log = []
    kept = run(server, network, name="app-net-2", tags={"owner": "ops"}, purge_tags=False)
    assert writes(server) == [("PATCH", NETS_V2 + "/" + network_id, {"tags": {"owner": "ops"}})]
    assert kept["diff"]["after"]["tags"] == {"env": "prod", "owner": "ops"}
    server.log = []
    assert run(server, network, name="app-net-2", tags={"owner": "ops"}, purge_tags=False)["changed"] is False
    assert run(server, network, name="app-net-2")["changed"] is False and writes(server) == []


def test_a_create_only_type_that_differs_fails_naming_both_values(server):
    network_id = make_network(server)
    server.log = []
    result = run(server, network, name="app-net", type="vlan", tags={"x": "y"})
    assert result["failed"] is True and result["changed"] is False and writes(server) == []
    assert ("type: network %s has type 'vxlan', not 'vlan'" % network_id) in result["msg"]
    assert "delete the network and create it again" in result["msg"]


def test_two_networks_with_the_name_fail_listing_their_ids(server):
    result = run(server, network, name="twin-net", tags={"a": "b"})
    assert result["failed"] is True and writes(server) == []
    assert all(network_id in result["msg"] for network_id in TWIN_NETS)
    result = run(server, network, name="twin-net", state="absent")
    assert result["failed"] is True and writes(server) == []


def test_names_are_exact_though_the_filter_matches_substrings(server):
    make_network(server, name="app-net-long")
    result = run(server, network, name="app-net", _ansible_check_mode=True)
    assert result["changed"] is True and result["network"] is None
    assert all("name=app-net" in entry["query"] for entry in server.requests("GET", NETS + "$"))


def test_a_name_longer_than_the_filter_takes_is_searched_unfiltered(server):
    name = "n" * 63
    make_network(server, name=name)
    server.log = []
    assert run(server, network, name=name)["changed"] is False
    assert [entry["query"] for entry in server.requests("GET", NETS + "$")] == ["limit=1000&offset=0"]


def test_wait_false_returns_a_record_still_locked_as_found_with_a_warning_naming_its_task(server):
    server.hold()
    task = run(server, network, name="app-net", wait=False)["tasks"][0]
    server.log = []
    again = run(server, network, name="app-net", wait=False)
    assert again["changed"] is False and writes(server) == [] and again["network"]["name"] == "app-net", again
    assert harness.warning_texts(again) == [
        "Network %s is locked by task %s: with wait: false it is not waited for, and is returned as found" % (again["network"]["id"], task)]
    server.release()
    assert run(server, network, name="app-net")["changed"] is False  # waits for the creation to finish
    assert not run(server, network, name="app-net", wait=False).get("warnings")


def test_delete_waits_for_its_task_and_a_second_delete_changes_nothing(server):
    network_id = make_network(server)
    server.log = []
    result = run(server, network, name="app-net", state="absent")
    assert result["changed"] is True and result["network"] is None and len(result["tasks"]) == 1
    assert writes(server) == [("DELETE", NETS + "/" + network_id, None)] and network_id not in server.networks
    assert result["diff"]["after"] == {"state": "absent"}
    again = run(server, network, name="app-net", state="absent")
    assert again["changed"] is False and len(writes(server)) == 1
    missing = run(server, network, network_id="00000000-0000-4000-8000-000000000000", state="absent")
    assert missing["changed"] is False


def test_an_unknown_id_cannot_be_created(server):
    result = run(server, network, network_id="00000000-0000-4000-8000-000000000000", name="app-net")
    assert result["failed"] is True and "an id cannot be created" in result["msg"] and writes(server) == []


def test_wait_false_returns_the_tasks_at_once(server):
    server.hold()
    result = run(server, network, name="app-net", wait=False)
    assert result["changed"] is True and result["network"] is None and len(result["tasks"]) == 1
    assert server.tasks[result["tasks"][0]]["record"]["state"] in ("NEW", "RUNNING")
    assert not server.requests("GET", "/tasks/")
    server.release()


def test_a_locked_network_is_waited_for_before_the_patch(server):
    server.hold()
    lock = server.call("POST", NETS, {"name": "app-net"})[1]["tasks"][0]  # its create task still runs: the network is locked
    server.log = []
    server.release(after={"method": "GET", "path": NETS + "/", "times": 1})
    result = run(server, network, name="app-net", tags={"a": "b"})
    assert result["changed"] is True and not result.get("failed"), result
    methods = [entry["method"] for entry in server.requests()]
    assert methods.index("PATCH") > methods.index("GET", 1), "read again until unlocked, then the PATCH"
    patches = server.requests("PATCH")
    assert len(patches) == 1 and patches[0]["status"] == 200 and server.tasks[lock]["done"]


def test_a_task_ending_in_error_fails_naming_the_task_and_its_error(server):
    server.configure(task_fail={"create_network": "no free segmentation id"})
    result = run(server, network, name="app-net")
    assert result["failed"] is True and result["changed"] is True
    assert result["tasks"][0] in result["msg"] and "no free segmentation id" in result["msg"]


# ---- subnet --------------------------------------------------------------------------------------------

def test_subnet_create_a_second_run_and_the_shape_sent(server):
    network_id = make_network(server)
    server.log = []
    args = dict(SUBNET, network_id=network_id.upper(), dns_nameservers=["8.8.8.8", "1.1.1.1"], enable_dhcp=True,
                host_routes=[{"destination": "10.20.0.0/16", "nexthop": "10.10.0.254"}, {"destination": "10.20.0.0/16", "nexthop": "10.10.0.254"}],
                tags={"env": "prod"})
    result = run(server, subnet, **args)
    assert result["changed"] is True and len(result["tasks"]) == 1
    assert writes(server) == [("POST", SUBS, {
        "name": "app-subnet", "network_id": network_id, "cidr": "10.10.0.0/24", "enable_dhcp": True,
        "dns_nameservers": ["8.8.8.8", "1.1.1.1"], "host_routes": [{"destination": "10.20.0.0/16", "nexthop": "10.10.0.254"}],
        "tags": {"env": "prod"}})]
    assert result["subnet"]["gateway_ip"] == "10.10.0.1" and result["subnet"]["network_id"] == network_id
    server.log = []
    again = run(server, subnet, **args)
    assert again["changed"] is False and writes(server) == []
    assert [(entry["method"], entry["query"]) for entry in server.requests()] == [("GET", "network_id=%s&limit=1000&offset=0" % network_id)]


def test_subnet_update_sends_only_the_members_that_differ(server):
    network_id = make_network(server)
    run(server, subnet, **dict(SUBNET, network_id=network_id, dns_nameservers=["8.8.8.8", "1.1.1.1"],
                               host_routes=[{"destination": "10.20.0.0/16", "nexthop": "10.10.0.254"}]))
    subnet_id = next(iter(server.networks[network_id]["subnets"]))
    server.log = []
    # the same routes spelled differently and in another order: no change; the DNS order counts
    result = run(server, subnet, **dict(SUBNET, network_id=network_id, dns_nameservers=["1.1.1.1", "8.8.8.8"],
                                        host_routes=[{"destination": "10.20.0.0/16", "nexthop": "10.10.0.254"}]))
    assert writes(server) == [("PATCH", SUBS + "/" + subnet_id, {"dns_nameservers": ["1.1.1.1", "8.8.8.8"]})]
    assert result["changed"] is True and result["tasks"] == [] and result["subnet"]["dns_nameservers"] == ["1.1.1.1", "8.8.8.8"]
    server.log = []
    result = run(server, subnet, subnet_id=subnet_id, name="app-subnet-2", gateway_ip="disable", enable_dhcp=False,
                 dns_nameservers=[], host_routes=[])
    sent = {"name": "app-subnet-2", "gateway_ip": None, "enable_dhcp": False, "dns_nameservers": [], "host_routes": []}
    assert writes(server) == [("PATCH", SUBS + "/" + subnet_id, sent)]
    assert result["diff"]["before"]["gateway_ip"] == "10.10.0.1" and result["diff"]["after"]["gateway_ip"] is None
    server.log = []
    assert run(server, subnet, subnet_id=subnet_id, gateway_ip="disable", dns_nameservers=[], host_routes=[])["changed"] is False
    result = run(server, subnet, subnet_id=subnet_id, gateway_ip="10.10.0.254")
    assert writes(server) == [("PATCH", SUBS + "/" + subnet_id, {"gateway_ip": "10.10.0.254"})]
    assert result["subnet"]["gateway_ip"] == "10.10.0.254"


def test_gateway_disable_on_create_sends_null_and_no_router(server):
    network_id = make_network(server)
    server.log = []
    result = run(server, subnet, name="app-subnet", network_id=network_id, cidr="fd00:10::/64", gateway_ip="disable")
    assert writes(server)[0][2] == {"name": "app-subnet", "network_id": network_id, "cidr": "fd00:10::/64",
                                    "gateway_ip": None, "connect_to_network_router": False}
    assert result["subnet"]["gateway_ip"] is None and result["subnet"]["ip_version"] == 6


@pytest.mark.parametrize("option, value, shown", [
    ("cidr", "10.10.1.0/24", "has cidr '10.10.0.0/24', not '10.10.1.0/24'"),
    ("network_id", NET_2, "has network_id"),
])
def test_a_create_only_subnet_option_that_differs_fails_before_any_write(server, option, value, shown):
    network_id = make_network(server)
    subnet_id = run(server, subnet, **dict(SUBNET, network_id=network_id))["subnet"]["id"]
    server.log = []
    result = run(server, subnet, subnet_id=subnet_id, name="renamed", **{option: value})
    assert result["failed"] is True and result["changed"] is False and writes(server) == []
    assert shown in result["msg"] and option + ":" in result["msg"] and "(nothing was sent)" in result["msg"]


def test_a_gateway_outside_the_existing_subnet_fails_before_any_write(server):
    network_id = make_network(server)
    subnet_id = run(server, subnet, **dict(SUBNET, network_id=network_id))["subnet"]["id"]
    server.log = []
    result = run(server, subnet, subnet_id=subnet_id, gateway_ip="10.99.0.1")
    assert result["failed"] is True and "10.99.0.1 is not a host address of subnet %s" % subnet_id in result["msg"]
    assert writes(server) == []


def test_subnets_are_found_by_name_within_their_network(server):
    first, second = make_network(server, name="net-one"), make_network(server, name="net-two")
    run(server, subnet, **dict(SUBNET, network_id=first))
    server.log = []
    result = run(server, subnet, **dict(SUBNET, network_id=second))
    assert result["changed"] is True and result["subnet"]["network_id"] == second and len(writes(server)) == 1
    server.call("POST", SUBS, {"name": "app-subnet", "network_id": second, "cidr": "10.11.0.0/24"})
    server.log = []
    twins = run(server, subnet, **dict(SUBNET, network_id=second, enable_dhcp=False))
    assert twins["failed"] is True and "2 subnets of network %s" % second in twins["msg"] and writes(server) == []


def test_a_created_subnet_is_attached_by_the_router_module_and_delete_needs_a_detach(server):
    network_id = make_network(server)
    subnet_id = run(server, subnet, **dict(SUBNET, network_id=network_id))["subnet"]["id"]
    attached = harness.run(server, router, dict(BASE, name="new-router", interfaces=[{"subnet_id": subnet_id}]))
    assert attached["changed"] is True, attached
    assert [a["subnet_id"] for i in attached["router"]["interfaces"] for a in i["ip_assignments"]] == [subnet_id]
    refused = run(server, subnet, subnet_id=subnet_id, state="absent")
    assert refused["failed"] is True and refused["changed"] is False and refused["api_error"]["status"] == 400
    harness.run(server, router, dict(BASE, name="new-router", interfaces=[]))
    deleted = run(server, subnet, subnet_id=subnet_id, state="absent")
    assert deleted["changed"] is True and subnet_id not in server.subnets


def test_router_id_connects_the_new_subnet(server):
    network_id = make_network(server)
    router_id = harness.run(server, router, dict(BASE, name="new-router"))["router"]["id"]
    server.log = []
    run(server, subnet, **dict(SUBNET, network_id=network_id, router_id=router_id.upper(), connect_to_network_router=True))
    assert writes(server)[0][2]["router_id_to_connect"] == router_id
    interfaces = server.routers[router_id]["interfaces"]
    assert [a["ip_address"] for i in interfaces for a in i["ip_assignments"]] == ["10.10.0.1"]


def test_subnet_delete_by_name_then_nothing(server):
    network_id = make_network(server)
    subnet_id = run(server, subnet, **dict(SUBNET, network_id=network_id))["subnet"]["id"]
    server.log = []
    result = run(server, subnet, network_id=network_id, name="app-subnet", state="absent")
    assert result["changed"] is True and writes(server) == [("DELETE", SUBS + "/" + subnet_id, None)]
    assert run(server, subnet, network_id=network_id, name="app-subnet", state="absent")["changed"] is False


def test_a_subnet_create_task_ending_in_error_fails_naming_it(server):
    network_id = make_network(server)
    server.configure(task_fail={"create_subnet": "no addresses left"})
    result = run(server, subnet, **dict(SUBNET, network_id=network_id))
    assert result["failed"] is True and result["changed"] is True
    assert result["tasks"][0] in result["msg"] and "no addresses left" in result["msg"]


# ---- info ---------------------------------------------------------------------------------------------

def test_network_info_by_id_by_exact_name_and_all(server):
    make_network(server, name="router-net-1-copy")
    named = harness.run(server, network_info, dict(BASE, name="router-net-1"))
    assert [record["id"] for record in named["networks"]] == [SEEDED[0][0]] and named["changed"] is False
    one = harness.run(server, network_info, dict(BASE, network_id=SEEDED[0][0].upper()))
    assert [record["name"] for record in one["networks"]] == ["router-net-1"]
    assert harness.run(server, network_info, dict(BASE, network_id="00000000-0000-4000-8000-000000000000"))["networks"] == []
    assert len(harness.run(server, network_info, dict(BASE))["networks"]) == len(SEEDED) + 1
    assert writes(server)[-1][0] == "POST"


def test_subnet_info_by_id_by_network_and_name_and_all(server):
    network_id = make_network(server)
    run(server, subnet, **dict(SUBNET, network_id=network_id))
    run(server, subnet, name="other-subnet", cidr="10.10.1.0/24", network_id=network_id)
    of_network = harness.run(server, subnet_info, dict(BASE, network_id=network_id))
    assert [record["name"] for record in of_network["subnets"]] == ["app-subnet", "other-subnet"]
    named = harness.run(server, subnet_info, dict(BASE, network_id=network_id, name="app-subnet"))
    assert [record["cidr"] for record in named["subnets"]] == ["10.10.0.0/24"]
    one = harness.run(server, subnet_info, dict(BASE, subnet_id=named["subnets"][0]["id"]))
    assert one["subnets"] == named["subnets"]
    assert len(harness.run(server, subnet_info, dict(BASE))["subnets"]) == 5
    assert json.dumps(of_network).count("10.10.") >= 2


def test_an_id_and_a_name_that_disagree_delete_nothing(server):
    network_id = make_network(server, name="keep-net")
    server.log = []
    result = run(server, network, network_id=network_id, name="other-net", state="absent")
    assert result["failed"] is True and result["changed"] is False and writes(server) == []
    assert "Network %s is named 'keep-net', not 'other-net'" % network_id in result["msg"]
    assert network_id in server.networks
    assert run(server, network, network_id=network_id, name="keep-net", state="absent")["changed"] is True
