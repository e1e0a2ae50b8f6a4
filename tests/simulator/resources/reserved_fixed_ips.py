# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cloud reserved fixed IPs (docs/api_reference.md section 16.6): ports kept apart from any instance, on the networks
and subnets of the networks family (``sim.networks``, ``sim.subnets``), used by instance interfaces
(``instances.py``) and shared as virtual IPs by instance ports.

- ``POST /cloud/v1/reserved_fixed_ips/{p}/{r}`` (``oneOf`` by ``type``): ``external`` (``ip_family``, ``is_vip``),
  ``subnet`` (``subnet_id*``, ``is_vip``), ``any_subnet`` (``network_id*``, ``ip_family``, ``is_vip``), ``ip_address``
  (``network_id*``, ``ip_address*``, ``is_vip``), ``port`` (``port_id*``: a load balancer's VIP port or an instance
  port). Unknown network, subnet or port: 404. An ``ip_address`` in none of the network's subnets: 400; one already
  taken on the network (a reserved IP, a subnet gateway, an instance port): 409; a network without a subnet (or none of
  the ``ip_family``): 400; a subnet full: 409. Answers 200 ``{tasks}``: the reserved IP appears at once (``status``
  ``DOWN``, locked by its ``create_reserved_fixed_ip`` task, ``task_id``); the finished task names it in
  ``created_resources.ports`` (its ``port_id``). A failed task removes it.
- ``GET /cloud/v1/reserved_fixed_ips/{p}/{r}``: ``{count, results}``, ``limit`` 1-1000 (default 1000), ``offset``;
  ``available_only`` (attached to nothing), ``vip_only``, ``external_only``, ``internal_only``, ``device_id`` (what it
  is attached to), ``ip_address`` (a regular expression), ``order_by`` (``fixed_ip_address``, ``name``, ``status``,
  ``created_at``, ``updated_at`` with ``.asc``/``.desc``; default ``fixed_ip_address.asc``; another value 422).
- ``GET .../{port_id}``: ``ReservedFixedIPSerializer`` (``port_id`` is the id; ``network`` the full network record;
  ``reservation``, ``attachments``, ``allowed_address_pairs``; no tags, no ``id``).
- ``PATCH .../{port_id}`` ``{is_vip*}``: synchronous, the record. Unmaking a VIP that still has connected ports: 400.
- ``GET .../{port_id}/connected_devices``: ``{count, results: [VipPort]}``; ``PUT`` ``{port_ids}`` replaces the set,
  ``PATCH`` adds to it (both synchronous, answer the new set). Only a VIP takes ports (400); each port must be an
  instance port of the scope (404) on the VIP's network (400). A connected port gets the VIP in its
  ``allowed_address_pairs``. ``GET .../available_devices``: the instance ports on the network not yet connected.
- ``DELETE .../{port_id}``: a ``delete_reserved_fixed_ip`` task; the reserved IP goes when it finishes (its VIP pairs
  leave the connected ports).
- A PATCH, PUT or DELETE of a locked reserved IP: 409.
- An instance interface ``{type: reserved_fixed_ip, port_id}`` takes this port (unknown: 404; a VIP or one attached
  elsewhere: 400); the reserved IP is then attached to the instance (``reservation``: ``instance``, ``attached``,
  status ``ACTIVE``) until the instance goes; an instance delete with ``reserved_fixed_ips=<ids>`` deletes them too.
  A load balancer created with ``vip_port_id`` takes it as its VIP.

For the instance and load-balancer families: ``reserved_of(sim)`` (``port_for``, ``attach``, ``remove``).
State: ``sim.reserved_fixed_ips`` (port id -> record).
"""

from __future__ import annotations

import copy
import ipaddress
import re
import uuid

from simulator.core import ApiFailure, now_iso
from simulator.resources.production import Collection, boolean_query, family, in_scope, instances, region_of, scope
from simulator.validation import check_bool, check_enum, check_object, check_uuid, invalid

VARIANTS = {  # type -> (required, allowed)
    "external": ((), ("ip_family", "is_vip")),
    "subnet": (("subnet_id",), ("subnet_id", "is_vip")),
    "any_subnet": (("network_id",), ("network_id", "ip_family", "is_vip")),
    "ip_address": (("network_id", "ip_address"), ("network_id", "ip_address", "is_vip")),
    "port": (("port_id",), ("port_id",)),
}
FAMILIES = ("dual", "ipv4", "ipv6")
ORDER = ("fixed_ip_address", "name", "status", "created_at", "updated_at")
EXTERNAL_NETWORK = "e0e0e0e0-0000-4000-8000-000000000001"
EXTERNAL_SUBNET = "e0e0e0e0-0000-4000-8000-000000000002"
EXTERNAL_CIDR = ipaddress.ip_network("192.0.2.0/24")
FREE = {"resource_id": None, "resource_type": None, "status": None}


class ReservedFixedIps(Collection):
    NAME, NOUN, COLLECTION, TASK = "reserved_fixed_ips", "Reserved fixed IP", "reserved_fixed_ips", "reserved_fixed_ip"
    ID_KEY, ID_PARAM, ID_CHECK = "port_id", "port_id", None
    ACTIONS = (("GET", "/{id}/connected_devices", "connected"), ("PUT", "/{id}/connected_devices", "replace_connected"),
               ("PATCH", "/{id}/connected_devices", "add_connected"), ("GET", "/{id}/available_devices", "available"))
    TASK_TYPES = ("create_reserved_fixed_ip", "delete_reserved_fixed_ip")

    def reset(self):
        super().reset()
        self.connected_ports = {}  # reserved port id -> [instance port ids sharing its address]
        self.creating = {}  # port id -> create task id

    # ---- networks -----------------------------------------------------------------------------------
    def network(self, ident, project_id, region_id):
        return in_scope(getattr(self.sim, "networks", None) or {}, ident, project_id, region_id, "Network")

    def subnets_of(self, network):
        subnets = getattr(self.sim, "subnets", None) or {}
        return [subnets[ident] for ident in network.get("subnets") or [] if ident in subnets]

    def external_network(self, project_id, region_id):
        stamp = "2026-01-15T09:30:00Z"
        return dict(region_of(project_id, region_id), id=EXTERNAL_NETWORK, name="external", type="vlan", mtu=1500,
                    segmentation_id=3, external=True, default=True, shared=True, port_security_enabled=True,
                    subnets=[EXTERNAL_SUBNET], tags=[], created_at=stamp, updated_at=stamp, task_id=None, creator_task_id=None)

    def taken(self, network_id):
        """Every address in use on the network: reserved IPs, gateways, instance ports."""
        used = set()
        for record in self.sim.reserved_fixed_ips.values():
            if record["network_id"] == network_id:
                used.update(address for address in (record["fixed_ip_address"], record["fixed_ipv6_address"]) if address)
        for subnet in (getattr(self.sim, "subnets", None) or {}).values():
            if subnet.get("network_id") == network_id and subnet.get("gateway_ip"):
                used.add(subnet["gateway_ip"])
        for port in self.instance_ports():
            if port["network_id"] == network_id:
                used.update(assignment["ip_address"] for assignment in port["ip_assignments"])
        return used

    def free_address(self, subnet):
        used = self.taken(subnet["network_id"])
        for host in ipaddress.ip_network(subnet["cidr"]).hosts():
            if str(host) not in used:
                return str(host)
        raise ApiFailure(409, "No more IP addresses available on subnet %s" % subnet["id"])

    def instance_ports(self, project_id=None, region_id=None):
        """Every instance port (with ``instance``: its instance record), of the scope when given."""
        owner = family(self.sim, "instances")
        found = []
        for record in instances(self.sim):
            if project_id is not None and (record["project_id"], record["region_id"]) != (project_id, region_id):
                continue
            ports = owner.ports_of(record) if owner is not None else (getattr(self.sim, "instance_ports", {}).get(record["id"]) or [])
            found += [dict(port, instance=record) for port in ports]
        return found

    # ---- records --------------------------------------------------------------------------------------
    def new_record(self, project_id, region_id, network, address, subnet_id, is_vip, external):
        stamp = now_iso()
        v6 = address is not None and ipaddress.ip_address(address).version == 6
        return dict(region_of(project_id, region_id), port_id=str(uuid.uuid4()), name="Reserved fixed ip %s" % address,
                    fixed_ip_address=None if v6 else address, fixed_ipv6_address=address if v6 else None,
                    subnet_id=None if v6 else subnet_id, subnet_v6_id=subnet_id if v6 else None, network_id=network["id"],
                    network=copy.deepcopy(network), is_external=external, is_vip=is_vip, status="DOWN",
                    reservation=dict(FREE), attachments=[], allowed_address_pairs=[], created_at=stamp, updated_at=stamp,
                    creator_task_id=None, task_id=None)

    def sync(self):
        """A failed create removes its reserved IP; an instance or load balancer that went away frees its reserved IP."""
        for ident, task_id in list(self.creating.items()):
            task = self.sim.tasks.get(task_id)
            if task is None or task["done"]:
                del self.creating[ident]
                if task is None or task["record"]["state"] == "ERROR":
                    self.remove([ident])
        for record in self.sim.reserved_fixed_ips.values():
            if record["task_id"] and record["task_id"] not in self.creating.values():
                task = self.sim.tasks.get(record["task_id"])
                if task is None or (task["done"] and task["record"]["state"] == "ERROR"):
                    record["task_id"] = None
            holder = record["reservation"]["resource_id"]
            if holder is None:
                continue
            kind = record["reservation"]["resource_type"]
            present = (any(item["id"] == holder for item in instances(self.sim)) if kind == "instance"
                       else holder in (getattr(self.sim, "load_balancers", None) or {}))
            if not present:
                record.update(reservation=dict(FREE), attachments=[], status="DOWN", updated_at=now_iso())

    # ---- for the instance and load-balancer families ---------------------------------------------
    def port_for(self, port_id, project_id, region_id, vip_allowed=False):
        """The reserved IP an instance interface (or, ``vip_allowed``, a load balancer) takes: 404 unknown; 400 attached
        elsewhere or (for an instance) a VIP."""
        self.sync()
        record = in_scope(self.sim.reserved_fixed_ips, port_id, project_id, region_id, "Reserved fixed IP port")
        if record["is_vip"] and not vip_allowed:
            raise ApiFailure(400, "Reserved fixed IP %s is a VIP and cannot be an instance interface" % port_id)
        if record["reservation"]["resource_id"] is not None or record["task_id"]:
            raise ApiFailure(400, "Reserved fixed IP %s is already in use by %s %s"
                             % (port_id, record["reservation"]["resource_type"], record["reservation"]["resource_id"]))
        return record

    def attach(self, port_id, resource_id, resource_type):
        record = self.sim.reserved_fixed_ips[port_id]
        record.update(reservation={"resource_id": resource_id, "resource_type": resource_type, "status": "attached"},
                      attachments=[{"resource_id": resource_id, "resource_type": resource_type}], status="ACTIVE",
                      updated_at=now_iso())

    def remove(self, port_ids):
        for ident in port_ids:
            self.set_connected(ident, [])
            self.sim.reserved_fixed_ips.pop(ident, None)

    # ---- requests -------------------------------------------------------------------------------------
    def filters(self, request):
        tests = []
        for name, test in (("available_only", lambda record: record["reservation"]["resource_id"] is None),
                           ("vip_only", lambda record: record["is_vip"]),
                           ("external_only", lambda record: record["is_external"]),
                           ("internal_only", lambda record: not record["is_external"])):
            if boolean_query(request, name):
                tests.append(test)
        device, address = request.arg("device_id"), request.arg("ip_address")
        if device is not None:
            tests.append(lambda record: record["reservation"]["resource_id"] == device)
        if address is not None:
            try:
                pattern = re.compile(address)
            except re.error:
                raise ApiFailure(422, "ip_address: not a valid regular expression",
                                 errors=[{"loc": ["query", "ip_address"], "detail": "not a valid regular expression"}])
            tests.append(lambda record: bool(pattern.search(record["fixed_ip_address"] or "")))
        return tests

    def ordered(self, request, records):
        order = request.arg("order_by", "fixed_ip_address.asc")
        field, _dot, direction = order.partition(".")
        if field not in ORDER or direction not in ("asc", "desc"):
            raise ApiFailure(422, "order_by: value is not a valid enumeration member",
                             errors=[{"loc": ["query", "order_by"], "detail": "value is not a valid enumeration member"}])

        def key(record):
            if field == "fixed_ip_address":
                address = record["fixed_ip_address"] or record["fixed_ipv6_address"]
                return (address is None, ipaddress.ip_address(address).version if address else 0,
                        int(ipaddress.ip_address(address)) if address else 0)
            return record[field] or ""

        return sorted(records, key=key, reverse=direction == "desc")

    def create(self, request):
        project_id, region_id = scope(request)
        self.sync()
        body = request.json
        if not isinstance(body, dict):
            invalid("body", "a JSON object is required")
        kind = body.get("type")
        if kind not in VARIANTS:
            invalid("type", "no match for discriminator 'type' (allowed: %s)" % ", ".join(VARIANTS))
        required, allowed = VARIANTS[kind]
        check_object("", body, ("type",) + required, ("type",) + allowed)
        for key in ("subnet_id", "network_id", "port_id"):
            if key in body:
                check_uuid(key, body[key])
        if body.get("ip_family") is not None:
            check_enum("ip_family", body["ip_family"], FAMILIES)
        if "is_vip" in body:
            check_bool("is_vip", body["is_vip"])
        is_vip = body.get("is_vip", False)
        holder = None
        if kind == "external":
            network = self.external_network(project_id, region_id)
            subnet = {"id": EXTERNAL_SUBNET, "network_id": EXTERNAL_NETWORK, "cidr": str(EXTERNAL_CIDR), "ip_version": 4}
            record = self.new_record(project_id, region_id, network, self.free_address(subnet), EXTERNAL_SUBNET, is_vip, True)
        elif kind == "port":
            record, holder = self.from_port(body["port_id"], project_id, region_id)
        else:
            if kind == "subnet":
                subnet = in_scope(getattr(self.sim, "subnets", None) or {}, body["subnet_id"], project_id, region_id, "Subnet")
                network = self.network(subnet["network_id"], project_id, region_id)
                address = self.free_address(subnet)
            else:
                network = self.network(body["network_id"], project_id, region_id)
                subnets = self.subnets_of(network)
                if kind == "any_subnet":
                    version = {"ipv4": 4, "ipv6": 6}.get(body.get("ip_family"))
                    subnets = [subnet for subnet in subnets if version is None or subnet["ip_version"] == version]
                    if not subnets:
                        raise ApiFailure(400, "Network %s has no %ssubnet" % (network["id"], "" if version is None else "IPv%s " % version))
                    subnet = subnets[0]
                    address = self.free_address(subnet)
                else:
                    address, subnet = self.requested_address(body["ip_address"], network, subnets)
            record = self.new_record(project_id, region_id, network, address, subnet["id"], is_vip, False)
        ident = record["port_id"]
        self.sim.reserved_fixed_ips[ident] = record

        def apply():
            if ident not in self.sim.reserved_fixed_ips:
                return None
            record.update(task_id=None, updated_at=now_iso())
            if holder is not None:
                self.attach(ident, *holder)
            return {"ports": [ident]}

        task_id = self.sim.start_task("create_reserved_fixed_ip", apply=apply, project_id=project_id, region_id=region_id, data=body)
        record.update(task_id=task_id, creator_task_id=task_id)
        self.creating[ident] = task_id
        return {"tasks": [task_id]}

    def requested_address(self, value, network, subnets):
        try:
            address = ipaddress.ip_address(value)
        except (TypeError, ValueError):
            invalid("ip_address", "value is not a valid IPv4 or IPv6 address")
        subnet = next((subnet for subnet in subnets if address in ipaddress.ip_network(subnet["cidr"])), None)
        if subnet is None:
            raise ApiFailure(400, "IP address %s is not a valid IP for the specified network %s: it is in none of its subnets"
                             % (address, network["id"]))
        cidr = ipaddress.ip_network(subnet["cidr"])
        if address.version == 4 and address in (cidr.network_address, cidr.broadcast_address):
            raise ApiFailure(400, "IP address %s is the network or broadcast address of subnet %s" % (address, subnet["id"]))
        if str(address) in self.taken(network["id"]):
            raise ApiFailure(409, "IP address %s already allocated in network %s" % (address, network["id"]))
        return str(address), subnet

    def from_port(self, port_id, project_id, region_id):
        """A reserved IP made of an existing port: a load balancer's VIP port, or an instance port."""
        if port_id in self.sim.reserved_fixed_ips:
            raise ApiFailure(400, "Port %s is already a reserved fixed IP" % port_id)
        for lb in (getattr(self.sim, "load_balancers", None) or {}).values():
            if lb.get("vip_port_id") == port_id and (lb["project_id"], lb["region_id"]) == (project_id, region_id):
                record = self.new_record(project_id, region_id, self.external_network(project_id, region_id), lb["vip_address"],
                                         EXTERNAL_SUBNET, False, True)
                record["port_id"] = port_id
                return record, (lb["id"], "loadbalancer")
        for port in self.instance_ports(project_id, region_id):
            if port["port_id"] == port_id:
                networks = getattr(self.sim, "networks", None) or {}
                network = networks.get(port["network_id"]) or dict(
                    self.external_network(project_id, region_id), id=port["network_id"], name=port["network_details"]["name"], external=False)
                assignment = port["ip_assignments"][0]
                record = self.new_record(project_id, region_id, network, assignment["ip_address"], assignment["subnet_id"],
                                         False, bool(port["network_details"].get("external")))
                record["port_id"] = port_id
                return record, (port["instance"]["id"], "instance")
        raise ApiFailure(404, "Port %s not found" % port_id)

    def update(self, request):
        record = self.one(request, unlocked=True)
        body = request.json
        check_object("", body, ("is_vip",), ("is_vip",))
        check_bool("is_vip", body["is_vip"])
        if not body["is_vip"] and self.connected_ports.get(record["port_id"]):
            raise ApiFailure(400, "Reserved fixed IP %s has connected ports; remove them before it stops being a VIP" % record["port_id"])
        if body["is_vip"] and record["reservation"]["resource_type"] == "instance":
            raise ApiFailure(400, "Reserved fixed IP %s is an interface of instance %s and cannot be a VIP"
                             % (record["port_id"], record["reservation"]["resource_id"]))
        record.update(is_vip=body["is_vip"], updated_at=now_iso())
        return copy.deepcopy(record)

    def removed(self, record):
        self.remove([record["port_id"]])

    # ---- ports sharing a VIP ------------------------------------------------------------------------
    def vip_port(self, port):
        subnets = getattr(self.sim, "subnets", None) or {}
        networks = getattr(self.sim, "networks", None) or {}
        return {
            "port_id": port["port_id"], "instance_id": port["instance"]["id"], "instance_name": port["instance"]["name"],
            "ip_assignments": [dict(assignment, subnet=copy.deepcopy(subnets.get(assignment["subnet_id"])))
                               for assignment in port["ip_assignments"]],
            "network": copy.deepcopy(networks.get(port["network_id"])),
        }

    def devices(self, record):
        wanted = self.connected_ports.get(record["port_id"]) or []
        ports = dict((port["port_id"], port) for port in self.instance_ports(record["project_id"], record["region_id"]))
        found = [self.vip_port(ports[ident]) for ident in wanted if ident in ports]
        return {"count": len(found), "results": found}

    def set_connected(self, port_id, port_ids):
        """The instance ports sharing the VIP become ``port_ids``: each gains (or loses) the VIP in its address pairs."""
        record = self.sim.reserved_fixed_ips.get(port_id)
        if record is None:
            return
        address = record["fixed_ip_address"] or record["fixed_ipv6_address"]
        for port in self.instance_ports():
            pairs = port.get("allowed_address_pairs")
            if not isinstance(pairs, list):
                continue
            pairs[:] = [pair for pair in pairs if pair.get("ip_address") != address]  # pairs is the stored port's list
            if port["port_id"] in port_ids:
                pairs.append({"ip_address": address, "mac_address": port.get("mac_address")})
        self.connected_ports[port_id] = list(port_ids)
        ports = dict((port["port_id"], port) for port in self.instance_ports())
        record["allowed_address_pairs"] = [{"ip_address": ports[ident]["ip_assignments"][0]["ip_address"],
                                            "mac_address": ports[ident].get("mac_address")} for ident in port_ids if ident in ports]
        record["updated_at"] = now_iso()

    def connected(self, request):
        return self.devices(self.one(request))

    def checked_ports(self, request, record):
        body = request.json
        check_object("", body, (), ("port_ids",))
        port_ids = body.get("port_ids") or []
        if not isinstance(port_ids, list):
            invalid("port_ids", "a list is required")
        for index, ident in enumerate(port_ids):
            check_uuid("port_ids.%s" % index, ident)
        if not record["is_vip"]:
            raise ApiFailure(400, "Reserved fixed IP %s is not a VIP: make it one (is_vip) before connecting ports" % record["port_id"])
        ports = dict((port["port_id"], port) for port in self.instance_ports(record["project_id"], record["region_id"]))
        for ident in port_ids:
            if ident not in ports:
                raise ApiFailure(404, "Port %s not found" % ident)
            if ports[ident]["network_id"] != record["network_id"]:
                raise ApiFailure(400, "Port %s is not on network %s of the VIP" % (ident, record["network_id"]))
        return list(dict.fromkeys(port_ids))

    def replace_connected(self, request):
        record = self.one(request, unlocked=True)
        self.set_connected(record["port_id"], self.checked_ports(request, record))
        return self.devices(record)

    def add_connected(self, request):
        record = self.one(request, unlocked=True)
        wanted = self.checked_ports(request, record)
        self.set_connected(record["port_id"], list(dict.fromkeys((self.connected_ports.get(record["port_id"]) or []) + wanted)))
        return self.devices(record)

    def available(self, request):
        record = self.one(request)
        held = set(self.connected_ports.get(record["port_id"]) or [])
        found = [self.vip_port(port) for port in self.instance_ports(record["project_id"], record["region_id"])
                 if port["network_id"] == record["network_id"] and port["port_id"] not in held and port["port_id"] != record["port_id"]]
        return {"count": len(found), "results": found}


def reserved_of(sim):
    """The reserved fixed IP family of ``sim`` (None without it)."""
    return family(sim, ReservedFixedIps.NAME)
