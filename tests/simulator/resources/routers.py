# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cloud routers (docs/api_reference.md section 2).

- ``GET  /cloud/v1/routers/{p}/{r}``: ``{count, results}``, ``name`` filter (a substring match, so the
  module must compare names itself), ``limit`` 1-1000 (default 1000) and ``offset``.
- ``GET  /cloud/v1/routers/{p}/{r}/{id}``: the router record in the real GET shape (section 2.1: no
  gateway ``type``, ``external_fixed_ips``, ``interfaces``, ``status``, ``task_id`` lock), 404 cloud body.
- ``POST /cloud/v1/routers/{p}/{r}``: the body is validated as ``CreateRouterSerializer``; the router
  appears at once, locked by its ``create_router`` task, and becomes ACTIVE when the task finishes
  (a failed create task removes it). Answers 200 ``{tasks}``.
- ``PATCH /cloud/v2/routers/{p}/{r}/{id}``: ``PatchRouterSerializerV2``; the change is applied when its
  ``update_router`` task finishes, and the router is locked (``task_id``) meanwhile.
  A PATCH that changes nothing answers ``{"tasks": []}`` and starts no task (docs/api_reference.md section 13).
  ``external_gateway_info: null`` removes the gateway (docs/api_reference.md section 11 row 8).
- ``DELETE /cloud/v1/routers/{p}/{r}/{id}``: a ``delete_router`` task; the router goes when it finishes.
- ``POST /cloud/v1/routers/{p}/{r}/{id}/attach`` ``{subnet_id, ip_address?}`` and ``.../detach`` ``{subnet_id}``
  (docs/api_reference.md section 12.3): synchronous, 200 with the router. 404 for an unknown subnet, 400 when the subnet is
  already attached (attach) or not attached (detach), 400 for an address outside the subnet or already in use.
- A PATCH, DELETE, attach or detach of a locked router answers 409.

Every interface is a port of its own: its port id, MAC and address (the next free host of the subnet, unless one
is asked for) differ per router, as they would on the service.

The private subnets are the network family's (``networks.py``, ``sim.subnets``): one store, so a subnet created with
``POST /cloud/v1/subnets`` can be attached; an unknown subnet, or one of another project or region, is a 404.

State: ``sim.routers`` (router id -> record). Seeded: two external networks (``EXTERNAL_NETWORKS``), a router ``legacy-router`` with a gateway, a route
and an interface, and two routers both named ``shared-edge`` (project 1, region 76).
"""

from __future__ import annotations

import copy
import ipaddress
import re
import uuid

from simulator.core import ApiFailure, is_uuid, now_iso
from simulator.resources.networks import SEEDED_SUBNETS
from simulator.resources.production import REGIONS, SEED_PROJECT, SEED_REGION, Collection, scope, unlock_failed
from simulator.validation import check_bool, check_object, invalid

NAME_PATTERN = re.compile(r"^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$")

# External networks the gateways may use (the first is the region's default one).
PUBLIC_NETWORK_ID = "8c4b5f1e-1a3b-4b4e-9d57-2f0a4cb6a001"
PUBLIC_2_NETWORK_ID = "8c4b5f1e-1a3b-4b4e-9d57-2f0a4cb6a002"
EXTERNAL_NETWORKS = {
    PUBLIC_NETWORK_ID: {"subnet_id": "1b5e0f2a-3c4d-4e5f-8a9b-0c1d2e3f4a01", "cidr": "203.0.113.0/24"},
    PUBLIC_2_NETWORK_ID: {"subnet_id": "1b5e0f2a-3c4d-4e5f-8a9b-0c1d2e3f4a02", "cidr": "198.51.100.0/24"},
}
# The seeded private subnets (networks.py seeds them): id -> {network_id, cidr}.
PRIVATE_SUBNETS = SEEDED_SUBNETS
SEEDED = [
    {"id": "e1a7c0de-0000-4000-8000-000000000001", "name": "legacy-router", "gateway": (PUBLIC_NETWORK_ID, True),
     "routes": [{"destination": "10.20.0.0/16", "nexthop": "192.168.10.254"}],
     "subnets": ["5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01"]},
    {"id": "e1a7c0de-0000-4000-8000-000000000002", "name": "shared-edge", "gateway": None, "routes": [], "subnets": []},
    {"id": "e1a7c0de-0000-4000-8000-000000000003", "name": "shared-edge", "gateway": (PUBLIC_2_NETWORK_ID, False),
     "routes": [], "subnets": []},
]


def check_name(value, field="name"):
    if not isinstance(value, str) or not NAME_PATTERN.match(value):
        invalid(field, "string does not match pattern %s" % NAME_PATTERN.pattern)


def check_routes(routes, field="routes"):
    if not isinstance(routes, list):
        invalid(field, "value is not a valid list")
    for index, route in enumerate(routes):
        where = "%s.%s" % (field, index)
        check_object(where, route, ("destination", "nexthop"), ("destination", "nexthop"))
        try:
            destination = ipaddress.ip_network(route["destination"], strict=False)
        except (TypeError, ValueError):
            invalid(where + ".destination", "value is not a valid IPv4 or IPv6 network")
        try:
            ipaddress.ip_network(route["destination"], strict=True)
        except ValueError:
            invalid(where + ".destination", "%s has host bits set" % route["destination"], status=400)
        try:
            nexthop = ipaddress.ip_address(route["nexthop"])
        except (TypeError, ValueError):
            invalid(where + ".nexthop", "value is not a valid IPv4 or IPv6 address")
        if destination.version != nexthop.version:
            invalid(where + ".nexthop", "IP version differs from the destination's", status=400)


def check_manual_gateway(gateway, field="external_gateway_info"):
    check_object(field, gateway, ("network_id",), ("type", "network_id", "enable_snat"))
    if gateway.get("type", "manual") != "manual":
        invalid(field + ".type", "unexpected value; permitted: 'manual'")
    if not is_uuid(gateway["network_id"]):
        invalid(field + ".network_id", "value is not a valid uuid")
    if gateway["network_id"] not in EXTERNAL_NETWORKS:
        raise ApiFailure(404, "External network %s not found" % gateway["network_id"])
    if "enable_snat" in gateway:
        check_bool(field + ".enable_snat", gateway["enable_snat"])


class Routers(Collection):
    NAME, NOUN, COLLECTION, TASK, ID_CHECK, NAME_QUERY = "routers", "Router", "routers", "router", None, ("name", None)
    VERSIONS = {"update": "v2"}
    ACTIONS = (("POST", "/{id}/attach", "attach_subnet"), ("POST", "/{id}/detach", "detach_subnet"))
    TASK_TYPES = ("create_router", "update_router", "delete_router")
    SEEDS = {
        "project_id": SEED_PROJECT, "region_id": SEED_REGION,
        "external_networks": {"public": PUBLIC_NETWORK_ID, "public_2": PUBLIC_2_NETWORK_ID},
        "private_subnets": list(PRIVATE_SUBNETS),
        "private_subnet_cidrs": dict((subnet_id, subnet["cidr"]) for subnet_id, subnet in PRIVATE_SUBNETS.items()),
        "routers": {"legacy_router": SEEDED[0]["id"], "shared_edge": [SEEDED[1]["id"], SEEDED[2]["id"]]},
    }

    def external_ip(self, network_id):
        network = EXTERNAL_NETWORKS[network_id]
        number = self.next_ip.get(network_id, 10)
        self.next_ip[network_id] = number + 1
        address = ipaddress.ip_network(network["cidr"]).network_address + number
        return {"ip_address": str(address), "subnet_id": network["subnet_id"]}

    def gateway_record(self, network_id, enable_snat):
        return {"network_id": network_id, "enable_snat": enable_snat, "external_fixed_ips": [self.external_ip(network_id)]}

    def used_addresses(self, subnet_id):
        return set(assignment["ip_address"] for record in self.sim.routers.values() for interface in record["interfaces"]
                   for assignment in interface["ip_assignments"] if assignment["subnet_id"] == subnet_id)

    def interface_record(self, subnet_id, address=None):
        """A new port of its own in the subnet: the next free host address unless ``address`` is given."""
        subnet = self.sim.subnets[subnet_id]
        if address is None:
            used = self.used_addresses(subnet_id)
            address = next(str(host) for host in ipaddress.ip_network(subnet["cidr"]).hosts() if str(host) not in used)
        self.ports += 1
        return {"port_id": str(uuid.uuid4()), "network_id": subnet["network_id"],
                "ip_assignments": [{"ip_address": address, "subnet_id": subnet_id}],
                "mac_address": "fa:16:3e:%02x:%02x:%02x" % (self.ports >> 16 & 255, self.ports >> 8 & 255, self.ports & 255)}

    def new_record(self, router_id, name, project_id, region_id, gateway=None, routes=None, subnets=(), task_id=None):
        stamp = now_iso()
        return {
            "id": router_id, "name": name, "status": "ACTIVE", "distributed": False,
            "external_gateway_info": self.gateway_record(*gateway) if gateway else None,
            "interfaces": [self.interface_record(subnet_id) for subnet_id in subnets],
            "routes": copy.deepcopy(routes or []), "project_id": project_id, "region_id": region_id,
            "region": REGIONS.get(region_id, "Region %s" % region_id), "created_at": stamp, "updated_at": stamp,
            "task_id": task_id, "creator_task_id": task_id,
        }

    def reset(self):
        self.next_ip = {}  # network id -> the host number of its next external IP
        self.ports = 0  # ports made so far: each gets its own MAC
        super().reset()
        for seed in SEEDED:
            self.sim.routers[seed["id"]] = self.new_record(seed["id"], seed["name"], SEED_PROJECT, SEED_REGION, seed["gateway"],
                                                           seed["routes"], seed["subnets"])

    def sync(self):
        """Release the lock of every router whose task failed (a failed create removes the router)."""
        unlock_failed(self.sim, self.sim.routers, lambda record, task: record["task_id"] == record["creator_task_id"] and record["status"] == "BUILD",
                      unlocked=lambda record: record.update(status="ACTIVE"))

    def create(self, request):
        project_id, region_id = scope(request)
        self.sync()
        body = request.json
        check_object("body", body, ("name",), ("name", "external_gateway_info", "interfaces", "routes"))
        check_name(body["name"])
        gateway = body.get("external_gateway_info")
        if gateway is not None:
            if isinstance(gateway, dict) and gateway.get("type", "manual") == "default":
                check_object("external_gateway_info", gateway, (), ("type", "enable_snat"))
                if "enable_snat" in gateway:
                    check_bool("external_gateway_info.enable_snat", gateway["enable_snat"])
                gateway = (PUBLIC_NETWORK_ID, gateway.get("enable_snat", True))
            else:
                check_manual_gateway(gateway)
                gateway = (gateway["network_id"], gateway.get("enable_snat", True))
        if body.get("routes") is not None:
            check_routes(body["routes"])
        subnets = []
        for index, interface in enumerate(body.get("interfaces") or []):
            where = "interfaces.%s" % index
            check_object(where, interface, ("subnet_id",), ("type", "subnet_id"))
            if interface.get("type", "subnet") != "subnet":
                invalid(where + ".type", "unexpected value; permitted: 'subnet'")
            if not is_uuid(interface["subnet_id"]):
                invalid(where + ".subnet_id", "value is not a valid uuid")
            self.private_subnet(interface["subnet_id"], project_id, region_id)
            subnets.append(interface["subnet_id"])
        router_id = str(uuid.uuid4())

        def apply():
            record = self.sim.routers.get(router_id)
            if record is not None:
                record.update(status="ACTIVE", task_id=None, updated_at=now_iso())
            return {"routers": [router_id]}

        task_id = self.sim.start_task("create_router", apply=apply, project_id=project_id, region_id=region_id, data=body)
        record = self.new_record(router_id, body["name"], project_id, region_id, gateway, body.get("routes"), subnets, task_id)
        record["status"] = "BUILD"
        self.sim.routers[router_id] = record
        return {"tasks": [task_id]}

    @staticmethod
    def changes_nothing(record, body):
        """Whether a valid PATCH body leaves the router as it is."""
        if "name" in body and body["name"] != record["name"]:
            return False
        if "routes" in body and body["routes"] != record["routes"]:
            return False
        if "external_gateway_info" in body:
            gateway, current = body["external_gateway_info"], record["external_gateway_info"]
            if gateway is None:
                return current is None
            if current is None or current["network_id"] != gateway["network_id"] \
                    or current["enable_snat"] != gateway.get("enable_snat", True):
                return False
        return True

    def update(self, request):
        record = self.one(request, unlocked=True)
        body = request.json
        check_object("body", body, (), ("name", "routes", "external_gateway_info"))
        if "name" in body:
            check_name(body["name"])
        if "routes" in body:
            check_routes(body["routes"])
        if body.get("external_gateway_info") is not None:
            check_manual_gateway(body["external_gateway_info"])
        if self.changes_nothing(record, body):
            return {"tasks": []}  # the current SDK documents this answer; no task, no lock

        def apply():
            if "name" in body:
                record["name"] = body["name"]
            if "routes" in body:
                record["routes"] = copy.deepcopy(body["routes"])
            if "external_gateway_info" in body:
                gateway = body["external_gateway_info"]
                if gateway is None:  # the description: null removes the gateway
                    record["external_gateway_info"] = None
                else:
                    current = record["external_gateway_info"]
                    enable_snat = gateway.get("enable_snat", True)
                    if current and current["network_id"] == gateway["network_id"]:
                        current["enable_snat"] = enable_snat
                    else:
                        record["external_gateway_info"] = self.gateway_record(gateway["network_id"], enable_snat)
            record.update(task_id=None, updated_at=now_iso())

        return {"tasks": [self.begin(record, "update", apply, data=body)]}

    def private_subnet(self, subnet_id, project_id, region_id):
        """The subnet record (the network family's store); 404 when there is none in the project and region."""
        subnet = self.sim.subnets.get(subnet_id)
        if subnet is None or subnet["project_id"] != project_id or subnet["region_id"] != region_id:
            raise ApiFailure(404, "Subnet %s not found" % subnet_id)
        return subnet

    def subnet_of(self, record, body, allowed):
        check_object("body", body, ("subnet_id",), allowed)
        if not is_uuid(body["subnet_id"]):
            invalid("subnet_id", "value is not a valid uuid")
        return self.private_subnet(body["subnet_id"], record["project_id"], record["region_id"])

    @staticmethod
    def attached(record, subnet_id):
        return [interface for interface in record["interfaces"]
                if any(assignment["subnet_id"] == subnet_id for assignment in interface["ip_assignments"])]

    def attach_subnet(self, request):
        record = self.one(request, unlocked=True)
        body = request.json
        subnet = self.subnet_of(record, body, ("subnet_id", "ip_address"))
        subnet_id = subnet["id"]
        address = body.get("ip_address")
        if address is not None:
            try:
                address = ipaddress.ip_address(address)
            except (TypeError, ValueError):
                invalid("ip_address", "value is not a valid IPv4 or IPv6 address")
            if address not in ipaddress.ip_network(subnet["cidr"]):
                raise ApiFailure(400, "IP address %s is not in subnet %s (%s)" % (address, subnet_id, subnet["cidr"]))
            address = str(address)
            if address in self.used_addresses(subnet_id):
                raise ApiFailure(400, "IP address %s is already in use in subnet %s" % (address, subnet_id))
        if self.attached(record, subnet_id):
            raise ApiFailure(400, "Router %s already has an interface on subnet %s" % (record["id"], subnet_id))
        record["interfaces"].append(self.interface_record(subnet_id, address))
        record["updated_at"] = now_iso()
        return copy.deepcopy(record)

    def detach_subnet(self, request):
        record = self.one(request, unlocked=True)
        subnet_id = self.subnet_of(record, request.json, ("subnet_id",))["id"]
        if not self.attached(record, subnet_id):
            raise ApiFailure(400, "Router %s has no interface on subnet %s" % (record["id"], subnet_id))
        record["interfaces"] = [interface for interface in record["interfaces"] if interface not in self.attached(record, subnet_id)]
        record["updated_at"] = now_iso()
        return copy.deepcopy(record)
