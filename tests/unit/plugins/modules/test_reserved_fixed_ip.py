# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""reserved_fixed_ip and reserved_fixed_ip_info, in-process against the simulator: the requests each run sends (create
a task found by network + address, is_vip by PATCH, the VIP's instances as one PUT of the whole port list), and the
refusals before any write (an address outside the network's subnets, an instance without a port on the network, a VIP
still shared made not a VIP)."""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.modules import instance, reserved_fixed_ip, reserved_fixed_ip_info

import harness

IPS = "/cloud/v1/reserved_fixed_ips/1/76"
BASE = dict(project_id=1, region_id=76)
NET = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01"  # router-net-1, subnet 192.168.10.0/24
SUBNET = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01"
VIP = dict(network="router-net-1", ip_address="192.168.10.50", is_vip=True)


def run(server, module, **args):
    return harness.run(server, module, dict(BASE, **args), _ansible_diff=True)


def web(server, *names, network=NET, subnet=SUBNET):
    for name in names:
        result = run(server, instance, name=name, flavor="g1-standard-2-4", interfaces=[{"type": "subnet", "network_id": network, "subnet_id": subnet}],
                     volumes=[{"source": "image", "image_name": "ubuntu-22.04", "size": 10, "boot_index": 0}])
        assert not result.get("failed"), result["msg"]
    server.log = []


def sent(server):
    return [(entry["method"], entry["path"].replace(IPS, "")) for entry in server.writes()]


def test_create_by_network_name_and_address_then_the_second_run_sends_nothing(server):
    result = run(server, reserved_fixed_ip, network="router-net-1", ip_address="192.168.10.60")
    assert result["changed"] is True and len(result["tasks"]) == 1, result
    record = result["reserved_fixed_ip"]
    assert record["fixed_ip_address"] == "192.168.10.60" and record["network_id"] == NET and "id" not in record
    assert harness.writes(server) == [("POST", IPS, {"type": "ip_address", "network_id": NET, "ip_address": "192.168.10.60"})]
    assert result["connected_instances"] == [] and "changes" not in result
    assert result["diff"] == {"before": {"state": "absent"},
                              "after": {"state": "present", "network": NET, "ip_address": "192.168.10.60"}}
    server.log = []
    again = run(server, reserved_fixed_ip, network=NET.upper(), ip_address="192.168.10.60")
    assert again["changed"] is False and server.writes() == []
    assert again["reserved_fixed_ip"]["port_id"] == record["port_id"]
    by_id = run(server, reserved_fixed_ip, port_id=record["port_id"], ip_address="192.168.10.61")
    assert by_id["failed"] and "ip_address: reserved fixed IP %s has ip_address '192.168.10.60', not '192.168.10.61'" % record["port_id"] in by_id["msg"]
    assert server.writes() == []


def test_a_vip_shared_by_two_instances_is_one_put_and_changes_name_them(server):
    web(server, "web-a", "web-b", "web-c")
    check = run(server, reserved_fixed_ip, connected_instances=["web-a", "web-b"], _ansible_check_mode=True, **VIP)
    assert check["changed"] is True and server.writes() == [] and check["reserved_fixed_ip"] is None
    assert check["diff"]["after"]["connected_instances"] == ["web-a", "web-b"]
    result = run(server, reserved_fixed_ip, connected_instances=["web-b", "web-a"], **VIP)
    assert result["changed"] is True, result
    assert [method for method, _path in sent(server)] == ["POST", "PUT"]
    port_id = result["reserved_fixed_ip"]["port_id"]
    put = harness.writes(server)[1]
    assert put[1] == "%s/%s/connected_devices" % (IPS, port_id) and len(put[2]["port_ids"]) == 2
    assert result["connected_instances"] == ["web-a", "web-b"]
    assert result["changes"] == {"connected_instances": {"added": ["web-a", "web-b"], "removed": []}}
    assert result["reserved_fixed_ip"]["is_vip"] is True and len(result["reserved_fixed_ip"]["allowed_address_pairs"]) == 2
    server.log = []
    again = run(server, reserved_fixed_ip, connected_instances=["web-a", "web-b"], **VIP)
    assert again["changed"] is False and server.writes() == [] and again["connected_instances"] == ["web-a", "web-b"]
    moved = run(server, reserved_fixed_ip, port_id=port_id, connected_instances=["web-c", "web-a"], is_vip=True)
    assert moved["changed"] is True and sent(server) == [("PUT", "/%s/connected_devices" % port_id)]
    assert moved["changes"] == {"connected_instances": {"added": ["web-c"], "removed": ["web-b"]}}
    assert moved["diff"]["before"]["connected_instances"] == ["web-a", "web-b"]
    assert moved["diff"]["after"]["connected_instances"] == ["web-a", "web-c"]
    assert moved["connected_instances"] == ["web-a", "web-c"]
    server.log = []
    refused = run(server, reserved_fixed_ip, port_id=port_id, is_vip=False)
    assert refused["failed"] and "is_vip: reserved fixed IP %s is shared by instances web-a, web-c" % port_id in refused["msg"]
    emptied = run(server, reserved_fixed_ip, port_id=port_id, is_vip=True, connected_instances=[])
    assert emptied["changed"] is True and emptied["connected_instances"] == [] and harness.writes(server)[-1][2] == {"port_ids": []}
    server.log = []
    plain = run(server, reserved_fixed_ip, port_id=port_id, is_vip=False)
    assert plain["changed"] is True and sent(server) == [("PATCH", "/" + port_id)] and plain["reserved_fixed_ip"]["is_vip"] is False
    assert harness.writes(server)[0][2] == {"is_vip": False}


def test_refusals_before_any_write(server):
    web(server, "web-a")
    web(server, "web-far", network="5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a02", subnet="5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b02")
    cases = [
        (dict(network="router-net-1", ip_address="192.168.20.5"),
         "ip_address: 192.168.20.5 is in none of the subnets of network %s (192.168.10.0/24)" % NET),
        (dict(network="router-net-1", ip_address="192.168.10.255"), "ip_address: 192.168.10.255 is the broadcast address"),
        (dict(network="router-net-1", ip_address="192.168.10.1"),
         "ip_address: 192.168.10.1 is the gateway address of subnet router-subnet-1 (192.168.10.0/24) and cannot be reserved"),
        (dict(network="twin-net", ip_address="10.0.0.5"), "network: 2 networks of project 1, region 76 are named 'twin-net'"),
        (dict(network="no-such-net", ip_address="10.0.0.5"), "network: no network is named 'no-such-net'"),
        (dict(network="0b3e1e4c-5c3d-4a8e-9d6f-2f6b8e1a7c90", ip_address="10.0.0.5"), "network: no network 0b3e1e4c-5c3d-4a8e-9d6f-2f6b8e1a7c90"),
        (dict(VIP, connected_instances=["web-a", "web-far"]),
         "connected_instances[1]: instance web-far ("),
        (dict(VIP, connected_instances=["nobody"]), "connected_instances[0]: no instance is named 'nobody'"),
        (dict(VIP, connected_instances=["web-a"], wait=False), "connected_instances: the instances' ports are connected once"),
        (dict(port_id="0b3e1e4c-5c3d-4a8e-9d6f-2f6b8e1a7c90"), "does not exist"),
    ]
    far = [record["id"] for record in server.instances if record["name"] == "web-far"][0]
    cases[6] = (cases[6][0], "connected_instances[1]: instance web-far (%s) has no port on network %s" % (far, NET))
    for args, text in cases:
        result = run(server, reserved_fixed_ip, **args)
        assert result.get("failed") and result["changed"] is False, (args, result)
        assert text in result["msg"], (text, result["msg"])
        assert server.writes() == [], args


def test_delete_by_address_waits_for_its_task_then_is_unchanged(server):
    run(server, reserved_fixed_ip, network="router-net-1", ip_address="192.168.10.60")
    server.log = []
    result = run(server, reserved_fixed_ip, network="router-net-1", ip_address="192.168.10.60", state="absent")
    assert result["changed"] is True and len(result["tasks"]) == 1 and result["reserved_fixed_ip"] is None
    assert [method for method, _path in sent(server)] == ["DELETE"]
    server.log = []
    again = run(server, reserved_fixed_ip, network="router-net-1", ip_address="192.168.10.60", state="absent")
    assert again["changed"] is False and server.writes() == []


def test_info_by_id_by_network_and_address_and_with_the_service_filters(server):
    plain = run(server, reserved_fixed_ip, network="router-net-1", ip_address="192.168.10.60")["reserved_fixed_ip"]
    vip = run(server, reserved_fixed_ip, network="router-net-1", ip_address="192.168.10.61", is_vip=True)["reserved_fixed_ip"]
    other = run(server, reserved_fixed_ip, network="router-net-2", ip_address="192.168.20.60")["reserved_fixed_ip"]

    def ids(**args):
        result = run(server, reserved_fixed_ip_info, **args)
        assert result["changed"] is False, result
        return [record["port_id"] for record in result["reserved_fixed_ips"]]
    assert ids() == [plain["port_id"], vip["port_id"], other["port_id"]]
    assert ids(port_id=vip["port_id"].upper()) == [vip["port_id"]]
    assert ids(network="router-net-1", ip_address="192.168.10.61") == [vip["port_id"]]
    assert ids(network="router-net-2") == [other["port_id"]]
    assert ids(vip_only=True) == [vip["port_id"]] and ids(vip_only=False, available_only=True) == [plain["port_id"], vip["port_id"], other["port_id"]]
    assert ids(network="no-such-net") == [] and ids(port_id="0b3e1e4c-5c3d-4a8e-9d6f-2f6b8e1a7c90") == []
    server.log = []
    ids(network="router-net-1", ip_address="192.168.10.61", vip_only=True)
    listing = [entry for entry in server.log if entry["path"] == IPS]
    assert len(listing) == 1 and "ip_address=%5E192%5C.168%5C.10%5C.61%24" in listing[0]["query"] and "vip_only=true" in listing[0]["query"]
