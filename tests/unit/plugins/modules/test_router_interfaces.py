# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The router's interfaces (a set of subnets, attached and detached) and gateway removal, on a router held in
memory: which requests the module plans and sends, in which order, with which bodies (no HTTP)."""

from __future__ import annotations

import copy
import json
from unittest import mock

import pytest
from ansible.module_utils.testing import patch_module_args

from ansible_collections.gcore.platform.plugins.module_utils._client import ApiError
from ansible_collections.gcore.platform.plugins.modules import router
from ansible_collections.gcore.platform.plugins.modules.router import INTERFACES, interface_items, same_interface

CLIENT = "ansible_collections.gcore.platform.plugins.module_utils._base.Client"
NET = "8c4b5f1e-1a3b-4b4e-9d57-2f0a4cb6a001"
S1, S2, S3 = ("5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b0%s" % n for n in (1, 2, 3))
RID = "e1a7c0de-0000-4000-8000-0000000000aa"
BASE = "/cloud/v1/routers/1/76"


def port(subnet_id, address):
    return {"port_id": "p-" + subnet_id[-2:], "network_id": "n-" + subnet_id[-2:], "mac_address": None,
            "ip_assignments": [{"subnet_id": subnet_id, "ip_address": address}]}


class Cloud:
    """One project and region of routers; tasks finish at once; attach/detach answer the router."""

    def __init__(self, routers=()):
        self.routers = dict((item["id"], item) for item in copy.deepcopy(list(routers)))
        self.requests = []
        self.next_host = 50

    def writes(self):
        return [(method, path, body) for method, path, body in self.requests if method != "GET"]

    def paginate(self, path, params=None, **kwargs):
        self.requests.append(("GET", path, None))
        return [copy.deepcopy(item) for item in self.routers.values() if not params or params["name"] in item["name"]]

    def get(self, path, params=None):
        self.requests.append(("GET", path, None))
        if path.startswith("/cloud/v1/tasks/"):
            return {"id": path.rsplit("/", 1)[1], "state": "FINISHED", "created_resources": {"routers": [RID]}}
        ident = path.rsplit("/", 1)[1]
        if ident not in self.routers:
            raise ApiError("GET", path, 404, "Router %s not found" % ident)
        return copy.deepcopy(self.routers[ident])

    def request(self, method, path, params=None, json=None, ok=None):
        self.requests.append((method, path, copy.deepcopy(json)))
        if method == "POST" and path == BASE:
            self.routers[RID] = {"id": RID, "name": json["name"], "task_id": None, "routes": [],
                                 "external_gateway_info": json.get("external_gateway_info"),
                                 "interfaces": [port(item["subnet_id"], self.address()) for item in json.get("interfaces") or []]}
            return {"tasks": ["t-create"]}
        record = self.routers[path.split("/")[6]]
        if method == "PATCH":
            record.update(json)
            return {"tasks": ["t-patch"]}
        if path.endswith("/attach"):
            record["interfaces"].append(port(json["subnet_id"], json.get("ip_address") or self.address()))
        elif path.endswith("/detach"):
            record["interfaces"] = [item for item in record["interfaces"] if item["ip_assignments"][0]["subnet_id"] != json["subnet_id"]]
        return copy.deepcopy(record)

    def address(self):
        self.next_host += 1
        return "192.168.0.%s" % self.next_host


def existing(*ports, gateway=None):
    return {"id": RID, "name": "edge", "task_id": None, "routes": [], "interfaces": list(ports),
            "external_gateway_info": gateway}


def run(cloud, args, check=False):
    args = dict(args, api_key="unit-test-key", project_id=1, region_id=76, _ansible_check_mode=check, _ansible_diff=True)
    with patch_module_args(args), mock.patch("sys.stdout") as stdout, mock.patch(CLIENT, lambda **kwargs: cloud):
        with pytest.raises(SystemExit):
            router.Router.main()
    return json.loads("".join(call.args[0] for call in stdout.write.call_args_list))


def attach(subnet_id, address=None):
    body = {"subnet_id": subnet_id}
    if address:
        body["ip_address"] = address
    return ("POST", "%s/%s/attach" % (BASE, RID), body)


def detach(subnet_id):
    return ("POST", "%s/%s/detach" % (BASE, RID), {"subnet_id": subnet_id})


# ---- the plan -------------------------------------------------------------------------------------
def test_plan_attaches_first_then_moves_an_address_then_detaches_extra():
    record = existing(port(S1, "192.168.1.1"), port(S2, "192.168.2.1"))
    wanted = [{"subnet_id": S2, "ip_address": "192.168.2.9"}, {"subnet_id": S3, "ip_address": None}]
    writes = INTERFACES.plan(record, wanted, {"project_id": 1, "region_id": 76})
    assert [(write.kind, write.names, write.body) for write in writes] == [
        ("attach", [S3], {"subnet_id": S3}),
        ("detach", [S2], {"subnet_id": S2}), ("attach", [S2], {"subnet_id": S2, "ip_address": "192.168.2.9"}),
        ("detach", [S1], {"subnet_id": S1})]


def test_an_address_counts_only_when_given_and_compares_canonically():
    assert same_interface({"subnet_id": S1, "ip_address": None}, {"subnet_id": S1, "ip_address": "192.168.1.7"})
    assert same_interface({"subnet_id": S1, "ip_address": "2001:db8::1"}, {"subnet_id": S1, "ip_address": "2001:DB8:0::1"})
    assert not same_interface({"subnet_id": S1, "ip_address": "192.168.1.8"}, {"subnet_id": S1, "ip_address": "192.168.1.7"})


def test_every_ip_assignment_is_one_attached_subnet():
    record = existing({"port_id": "p", "network_id": "n", "ip_assignments": [
        {"subnet_id": S1, "ip_address": "192.168.1.1"}, {"subnet_id": S2, "ip_address": "2001:db8::1"}]})
    assert interface_items(record) == [{"subnet_id": S1, "ip_address": "192.168.1.1"}, {"subnet_id": S2, "ip_address": "2001:db8::1"}]
    assert interface_items({"interfaces": []}) == [] and interface_items(None) == []


def test_the_attach_body_leaves_out_an_address_not_given():
    params, record = {"project_id": 1, "region_id": 76}, {"id": "r-1"}
    assert INTERFACES.writing("attach", {"subnet_id": S1, "ip_address": None}, record, params).body == {"subnet_id": S1}
    assert INTERFACES.writing("detach", {"subnet_id": S1, "ip_address": "192.168.1.1"}, record, params).body == {"subnet_id": S1}


# ---- the module -----------------------------------------------------------------------------------
def test_create_puts_interfaces_without_an_address_in_the_body_and_attaches_the_others_after():
    cloud = Cloud()
    result = run(cloud, {"name": "edge", "interfaces": [{"subnet_id": S2, "ip_address": "192.168.20.1"}, {"subnet_id": S1}]})
    assert result["changed"] is True, result
    assert cloud.writes() == [("POST", BASE, {"name": "edge", "interfaces": [{"type": "subnet", "subnet_id": S1}]}),
                              attach(S2, "192.168.20.1")]
    assert sorted(item["subnet_id"] for item in interface_items(result["router"])) == [S1, S2]
    assert result["diff"]["after"]["interfaces"] == [{"subnet_id": S1, "ip_address": None},
                                                     {"subnet_id": S2, "ip_address": "192.168.20.1"}]
    cloud.requests = []
    again = run(cloud, {"name": "edge", "interfaces": [{"subnet_id": S1}, {"subnet_id": S2, "ip_address": "192.168.20.1"}]})
    assert again["changed"] is False and cloud.writes() == []
    assert again["diff"]["before"] == again["diff"]["after"]


def test_an_address_interface_on_a_create_without_wait_fails_before_any_write():
    cloud = Cloud()
    result = run(cloud, {"name": "edge", "wait": False, "interfaces": [{"subnet_id": S1}, {"subnet_id": S2, "ip_address": "192.168.20.1"}]})
    assert result["failed"] is True and result["changed"] is False
    assert result["msg"].startswith("Invalid input: interfaces[1]: an interface with an ip_address"), result["msg"]
    assert "wait=true" in result["msg"]
    assert cloud.writes() == []


def test_a_create_without_wait_and_without_addresses_sends_them_in_the_body():
    cloud = Cloud()
    result = run(cloud, {"name": "edge", "wait": False, "interfaces": [{"subnet_id": S1}]})
    assert result["changed"] is True and result["router"] is None
    assert cloud.writes() == [("POST", BASE, {"name": "edge", "interfaces": [{"type": "subnet", "subnet_id": S1}]})]


def test_swap_attaches_first_then_detaches_and_the_diff_is_sorted_by_subnet():
    cloud = Cloud([existing(port(S2, "192.168.2.1"), port(S1, "192.168.1.1"))])
    result = run(cloud, {"name": "edge", "interfaces": [{"subnet_id": S3}, {"subnet_id": S1}]})
    assert result["changed"] is True
    assert cloud.writes() == [attach(S3), detach(S2)]
    assert result["diff"]["before"]["interfaces"] == [{"subnet_id": S1, "ip_address": "192.168.1.1"},
                                                      {"subnet_id": S2, "ip_address": "192.168.2.1"}]
    assert result["diff"]["after"]["interfaces"] == [{"subnet_id": S1, "ip_address": "192.168.1.1"}, {"subnet_id": S3, "ip_address": None}], \
        "a subnet listed without an address shows the one it has: no change"


def test_another_address_is_detached_and_attached_again():
    cloud = Cloud([existing(port(S1, "192.168.1.1"))])
    result = run(cloud, {"name": "edge", "interfaces": [{"subnet_id": S1, "ip_address": "192.168.1.9"}]})
    assert cloud.writes() == [detach(S1), attach(S1, "192.168.1.9")]
    assert interface_items(result["router"]) == [{"subnet_id": S1, "ip_address": "192.168.1.9"}]


def test_an_empty_list_detaches_every_subnet_and_omitted_manages_none():
    cloud = Cloud([existing(port(S1, "192.168.1.1"), port(S2, "192.168.2.1"))])
    assert run(cloud, {"name": "edge"})["changed"] is False and cloud.writes() == []
    result = run(cloud, {"name": "edge", "interfaces": []})
    assert result["changed"] is True and cloud.writes() == [detach(S1), detach(S2)]
    assert result["diff"]["after"]["interfaces"] == []


def test_check_mode_reports_and_sends_nothing():
    cloud = Cloud([existing(port(S1, "192.168.1.1"))])
    result = run(cloud, {"name": "edge", "interfaces": [{"subnet_id": S2}]}, check=True)
    assert result["changed"] is True and cloud.writes() == []
    assert result["diff"]["after"]["interfaces"] == [{"subnet_id": S2, "ip_address": None}]


def test_a_subnet_listed_twice_fails_validation_even_spelled_differently():
    cloud = Cloud()
    result = run(cloud, {"name": "edge", "interfaces": [{"subnet_id": S1}, {"subnet_id": S1.upper(), "ip_address": "192.168.1.5"}]})
    assert result["failed"] is True
    assert result["msg"] == "Invalid input: interfaces[0] and interfaces[1]: each item must have its own subnet_id; %s is given twice" % S1
    assert cloud.requests == []


@pytest.mark.parametrize("item, message", [
    ({"subnet_id": "subnet-1"}, "interfaces[0].subnet_id: 'subnet-1' is not a UUID"),
    ({"subnet_id": S1, "ip_address": "192.168.1.300"}, "interfaces[0].ip_address: '192.168.1.300' is not a valid IPv4 or IPv6 address"),
    ({"subnet_id": S1, "ip_address": "192.168.1.0/24"}, "interfaces[0].ip_address:"),
])
def test_a_bad_interface_fails_validation(item, message):
    cloud = Cloud()
    result = run(cloud, {"name": "edge", "interfaces": [item]})
    assert result["failed"] is True and message in result["msg"], result["msg"]
    assert cloud.requests == []


# ---- the gateway removed --------------------------------------------------------------------------
def test_type_none_removes_a_gateway_with_a_null_patch_and_is_no_change_without_one():
    cloud = Cloud([existing(gateway={"network_id": NET, "enable_snat": True, "external_fixed_ips": []})])
    result = run(cloud, {"name": "edge", "external_gateway_info": {"type": "none"}})
    assert result["changed"] is True
    assert cloud.writes() == [("PATCH", "/cloud/v2/routers/1/76/" + RID, {"external_gateway_info": None})]
    assert result["diff"]["before"]["external_gateway_info"] == {"network_id": NET, "enable_snat": True}
    assert result["diff"]["after"]["external_gateway_info"] is None
    cloud.requests = []
    assert run(cloud, {"name": "edge", "external_gateway_info": {"type": "none"}})["changed"] is False
    assert cloud.writes() == []


def test_type_none_on_create_sends_no_gateway():
    cloud = Cloud()
    result = run(cloud, {"name": "edge", "external_gateway_info": {"type": "none"}})
    assert cloud.writes() == [("POST", BASE, {"name": "edge"})]
    assert result["diff"]["after"]["external_gateway_info"] is None


@pytest.mark.parametrize("gateway, option", [
    ({"type": "none", "network_id": NET}, "external_gateway_info.network_id"),
    ({"type": "none", "enable_snat": False}, "external_gateway_info.enable_snat"),
])
def test_type_none_with_a_network_or_snat_fails_validation(gateway, option):
    cloud = Cloud()
    result = run(cloud, {"name": "edge", "external_gateway_info": gateway})
    assert result["failed"] is True
    assert result["msg"] == "Invalid input: %s: not accepted with external_gateway_info.type none (the router has no gateway)" % option
    assert cloud.requests == []
