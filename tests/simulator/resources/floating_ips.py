# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cloud floating IPs (docs/api_reference.md section 15.4), attached to the ports of the simulator's instances.

- ``GET /cloud/v1/floatingips/{p}/{r}``: ``{count, results: [FloatingIPDetailed]}`` (each with ``instance``, the
  instance that holds the port with every member ``InstanceInFloatingSerializer`` requires, and ``loadbalancer``:
  null). ``limit`` 1-1000 (default 1000), ``offset``, ``status`` (``ACTIVE``, ``DOWN``, ``ERROR``), ``tag_key``
  (repeatable: every key), ``tag_key_value`` (a JSON object);
  anything else invalid is a 422.
- ``POST /cloud/v1/floatingips/{p}/{r}`` ``{port_id?, fixed_ip_address?, tags?}`` (``{}`` is valid): the floating IP
  appears at once (on its port, status null), locked by its ``create_floating_ip`` task; when the task finishes it is ``ACTIVE`` on the port (or
  ``DOWN`` without one) and the task's ``created_resources`` is ``{"floatingips": [id]}``. A failed create task
  removes it. Answers 200 ``{tasks}``.
- ``GET /cloud/v1/floatingips/{p}/{r}/{id}``: the record (``FloatingIPSerializer``).
- ``PATCH /cloud/v2/floatingips/{p}/{r}/{id}`` ``{port_id?, fixed_ip_address?, tags?}``: ``port_id`` assigns or moves
  it, ``port_id: null`` unassigns it, ``tags`` is a JSON merge patch; applied when its ``update_floating_ip`` task
  finishes (locked meanwhile). A PATCH that changes nothing answers ``{"tasks": []}`` and starts no task.
- ``DELETE /cloud/v1/floatingips/{p}/{r}/{id}``: a ``delete_floating_ip`` task; the address goes when it finishes.
- A PATCH or DELETE of a locked floating IP answers 409; an unknown id (or one of another project or region) 404.

Ports. A port is one interface of an instance of the simulator (``sim.instances``): the port ids, addresses and networks
are read through whatever route answers ``GET /cloud/v1/instances/{p}/{r}/{id}/interfaces``. When no other resource
serves that route, this module adds one (after every other route) that derives an instance's interfaces from its
``addresses``: one port per ``interface_name``, its id ``uuid5`` of the instance id and that name, its addresses the
fixed ones of that interface. A ``port_id`` that no instance of the project and region has answers 404; a
``fixed_ip_address`` that is not an IPv4 address of the port answers 400, and one that another floating IP already
uses 409. Without ``fixed_ip_address`` the port's first IPv4 address is used.

Assigning a floating IP adds ``{addr, type: "floating"}`` to the instance's ``addresses`` (next to the fixed address);
unassigning or deleting it removes that entry (the inventory plugin reads these).

State: ``sim.floating_ips`` (id -> record). Seeded (``SEEDS["floating_ips"]``): in project 1, region 76, ``203.0.113.10``
on ``web-1``'s first port (the address the seeded instance shows) and ``203.0.113.200``, unassigned, with tag
``env: prod``; in project 2, region 1, ``203.0.113.70`` on ``edge-1``'s first port.
"""

from __future__ import annotations

import copy
import ipaddress
import json
import uuid

from simulator.core import ApiFailure, Request, Route, is_uuid, merge_tags, now_iso
from simulator.resources.production import REGIONS, Collection, instances as instances_of, scope, unlock_failed
from simulator.validation import check_object, check_str, invalid

INTERFACES = r"/cloud/v1/instances/(?P<project_id>[^/]+)/(?P<region_id>[^/]+)/(?P<instance_id>[^/]+)/interfaces"
NAMESPACE = uuid.UUID("7a1e4c2b-5d3f-4e6a-9b8c-0d1e2f3a4b5c")
POOL = ipaddress.ip_network("203.0.113.0/24")
# The members of the instance a floating IP names (InstanceInFloatingSerializer: every one required), and of its flavor.
INSTANCE_MEMBERS = ("id", "name", "created_at", "status", "vm_state", "volumes", "flavor", "tags", "instance_description",
                    "addresses", "security_groups", "ssh_key_name", "creator_task_id", "task_state", "task_id", "region",
                    "region_id", "project_id")
FLAVOR_MEMBERS = ("flavor_id", "flavor_name", "vcpus", "ram")
FIRST_FREE = 100  # new addresses are POOL's hosts from .100 on
STATUSES = ("ACTIVE", "DOWN", "ERROR")
CREATED_AT = "2026-01-15T09:30:00Z"
# address, project, region, instance name (its first port) or None, tags
SEEDED = [
    ("203.0.113.10", 1, 76, "web-1", []),
    ("203.0.113.200", 1, 76, None, [("env", "prod", False), ("owner", "gcore", True)]),
    ("203.0.113.70", 2, 1, "edge-1", []),
]


def port_id_of(instance_id, interface_name):
    """The id of a derived port: stable for an instance and its interface name."""
    return str(uuid.uuid5(NAMESPACE, "%s/%s" % (instance_id, interface_name)))


def derived_interfaces(instance):
    """An instance's interfaces as ``.../interfaces`` answers them, derived from its fixed ``addresses``."""
    found = {}
    for network, entries in (instance.get("addresses") or {}).items():
        for entry in entries:
            if entry.get("type") != "fixed":
                continue
            name = entry.get("interface_name") or "eth0"
            port = found.get(name)
            if port is None:
                network_id = str(uuid.uuid5(NAMESPACE, "network/" + network))
                port = found[name] = {
                    "port_id": port_id_of(instance["id"], name), "interface_name": name, "network_id": network_id,
                    "mac_address": "fa:16:3e:%s" % ":".join(port_id_of(instance["id"], name)[index:index + 2] for index in (0, 2, 4)),
                    "ip_assignments": [], "port_security_enabled": True, "allowed_address_pairs": [], "sub_ports": [],
                    "network_details": {"id": network_id, "name": network}, "floatingip_details": [],
                }
            port["ip_assignments"].append({"ip_address": entry["addr"],
                                           "subnet_id": entry.get("subnet_id") or str(uuid.uuid5(NAMESPACE, "subnet/" + network))})
    return list(found.values())


class FloatingIps(Collection):
    NAME, NOUN, COLLECTION, TASK, ID_CHECK = "floating_ips", "Floating IP", "floatingips", "floating_ip", None
    VERSIONS = {"update": "v2"}
    TASK_TYPES = ("create_floating_ip", "update_floating_ip", "delete_floating_ip")
    SEEDS = {
        "floating_ips": dict((address, str(uuid.uuid5(NAMESPACE, "fip/" + address))) for address, *_rest in SEEDED),
        "pool": str(POOL),
    }

    def __init__(self, sim):
        super().__init__(sim)
        self.fallback = None

    # ---- ports --------------------------------------------------------------------------------
    def serve_interfaces(self):
        """Add the derived interfaces route when no other resource serves it (once, after every resource is loaded)."""
        if self.fallback is None:
            probe = "/cloud/v1/instances/1/76/%s/interfaces" % uuid.uuid4()
            self.fallback = self.sim.route_of("GET", probe) is None
            if self.fallback:
                self.sim.routes.append((Route("GET", INTERFACES, "list_interfaces"), self.list_interfaces))

    def list_interfaces(self, request):
        """The fallback ``GET .../instances/{p}/{r}/{id}/interfaces`` (the module docstring)."""
        self.sync()
        instance = self.instance(*scope(request), request.params["instance_id"])
        if instance is None:
            raise ApiFailure(404, "Instance %s not found" % request.params["instance_id"])
        ports = derived_interfaces(instance)
        for port in ports:
            port["floatingip_details"] = [copy.deepcopy(record) for record in self.sim.floating_ips.values()
                                          if record["port_id"] == port["port_id"]]
        return {"count": len(ports), "results": ports}

    def instance(self, project_id, region_id, instance_id):
        return next((record for record in instances_of(self.sim) if record.get("id") == instance_id
                     and record.get("project_id") == project_id and record.get("region_id") == region_id), None)

    def interfaces(self, instance):
        """An instance's interfaces, as the route that serves them answers (an error: none)."""
        path = "/cloud/v1/instances/%s/%s/%s/interfaces" % (instance["project_id"], instance["region_id"], instance["id"])
        for route, handler in self.sim.routes:
            match = route.pattern.match(path)
            if route.method == "GET" and match:
                request = Request("GET", path, "", {}, b"")
                request.params = match.groupdict()
                try:
                    answer = handler(request)
                except ApiFailure:
                    return []
                answer = getattr(answer, "body", answer)
                return list((answer or {}).get("results") or [])
        return []

    def port(self, project_id, region_id, port_id):
        """``(instance, interface)`` of a port of the project and region; None when no instance has it."""
        for instance in instances_of(self.sim):
            if instance.get("project_id") != project_id or instance.get("region_id") != region_id:
                continue
            for interface in self.interfaces(instance):
                if interface.get("port_id") == port_id:
                    return instance, interface
        return None

    # ---- records ------------------------------------------------------------------------------
    def reset(self):
        self.serve_interfaces()
        self.next_host = FIRST_FREE
        super().reset()
        self.seeded = False  # the seeds are placed on their ports at the first request (the instances reset after this)

    def seed(self):
        self.seeded = True
        for address, project_id, region_id, instance_name, tags in SEEDED:
            ident = str(uuid.uuid5(NAMESPACE, "fip/" + address))
            record = self.new_record(ident, address, project_id, region_id, [{"key": key, "value": value, "read_only": read_only}
                                                                             for key, value, read_only in tags])
            instance = next((item for item in instances_of(self.sim) if item.get("name") == instance_name
                             and item.get("project_id") == project_id and item.get("region_id") == region_id), None)
            if instance is not None:
                ports = self.interfaces(instance)
                if ports:
                    fixed = next((item["ip_address"] for item in ports[0]["ip_assignments"]
                                  if ipaddress.ip_address(item["ip_address"]).version == 4), None)
                    record.update(port_id=ports[0]["port_id"], fixed_ip_address=fixed, status="ACTIVE",
                                  router_id=str(uuid.uuid5(NAMESPACE, "router/%s" % project_id)))
            self.sim.floating_ips.setdefault(ident, record)

    def new_record(self, ident, address, project_id, region_id, tags=None, task_id=None):
        stamp = now_iso() if task_id else CREATED_AT
        return {
            "id": ident, "floating_ip_address": address, "fixed_ip_address": None, "port_id": None, "router_id": None,
            "status": "DOWN", "tags": tags or [], "project_id": project_id, "region_id": region_id,
            "region": REGIONS.get(region_id, "Region %s" % region_id), "created_at": stamp, "updated_at": stamp,
            "creator_task_id": task_id, "task_id": task_id,
        }

    def new_address(self):
        used = set(record["floating_ip_address"] for record in self.sim.floating_ips.values())
        while True:
            address = str(POOL.network_address + self.next_host)
            self.next_host += 1
            if address not in used:
                return address

    def sync(self):
        """Release the lock of every floating IP whose task failed (a failed create removes it)."""
        if not self.seeded:
            self.seed()
        unlock_failed(self.sim, self.sim.floating_ips, lambda record, task: record["task_id"] == record["creator_task_id"] and record["status"] is None)

    def read(self, request):
        return copy.deepcopy(self.one(request))  # a listing shows more (``shown``)

    def shown(self, record, _request=None):
        found = self.port(record["project_id"], record["region_id"], record["port_id"]) if record["port_id"] else None
        instance = None
        if found:
            holder = found[0]
            instance = dict((member, copy.deepcopy(holder.get(member))) for member in INSTANCE_MEMBERS)
            instance["flavor"] = dict((member, (holder.get("flavor") or {}).get(member)) for member in FLAVOR_MEMBERS)
        return dict(copy.deepcopy(record), instance=instance, loadbalancer=None)

    # ---- checks -------------------------------------------------------------------------------
    def check_body(self, body, creating):
        check_object("body", body, (), ("port_id", "fixed_ip_address", "tags"))
        if body.get("port_id") is not None and not is_uuid(body["port_id"]):
            invalid("port_id", "value is not a valid uuid")
        address = body.get("fixed_ip_address")
        if address is not None:
            try:
                ipaddress.IPv4Address(address)
            except (TypeError, ValueError):
                invalid("fixed_ip_address", "value is not a valid IPv4 address")
        if "tags" not in body:
            return
        tags = body["tags"]
        if tags is None:
            if creating:
                invalid("tags", "none is not an allowed value")
            return
        if not isinstance(tags, dict):
            invalid("tags", "a JSON object is required")
        for key, value in tags.items():
            if not key or len(key) > 255 or any(char.isspace() or char == "=" for char in key):
                invalid("tags.%s" % key, "key must be 1-255 characters without whitespace or '='")
            if value is None and not creating:
                continue
            check_str("tags.%s" % key, value, min_length=1, max_length=255)
            if value != value.strip(" ") or any(char in value for char in "\t\n\r\f\v"):
                invalid("tags.%s" % key, "value must not hold tabs or line breaks, nor start or end with a space")

    def assignment(self, project_id, region_id, body, current=None):
        """``(port_id, fixed_ip_address)`` a body with a ``port_id`` asks for (404, 400 or 409 when it cannot be)."""
        found = self.port(project_id, region_id, body["port_id"])
        if found is None:
            raise ApiFailure(404, "Port %s not found" % body["port_id"])
        addresses = [item["ip_address"] for item in found[1].get("ip_assignments") or []
                     if ipaddress.ip_address(item["ip_address"]).version == 4]
        taken = set(record["fixed_ip_address"] for record in self.sim.floating_ips.values()
                    if record["port_id"] == body["port_id"] and record is not current)
        fixed = body.get("fixed_ip_address")
        if fixed is not None:
            if fixed not in addresses:
                raise ApiFailure(400, "Fixed IP %s is not an IPv4 address of port %s" % (fixed, body["port_id"]))
            if fixed in taken:
                raise ApiFailure(409, "Fixed IP %s of port %s already has a floating IP" % (fixed, body["port_id"]))
            return body["port_id"], fixed
        if current is not None and current["port_id"] == body["port_id"]:
            return body["port_id"], current["fixed_ip_address"]
        free = [address for address in addresses if address not in taken]
        if not free:
            raise ApiFailure(409, "Port %s has no IPv4 address without a floating IP" % body["port_id"])
        return body["port_id"], free[0]

    # ---- the instance's addresses ---------------------------------------------------------------
    def show_on_instance(self, record):
        """Add the floating address next to its fixed one in the instance's ``addresses``."""
        found = self.port(record["project_id"], record["region_id"], record["port_id"])
        if found is None or not isinstance(found[0].get("addresses"), dict):
            return
        for entries in found[0]["addresses"].values():
            if any(entry.get("addr") == record["fixed_ip_address"] and entry.get("type") == "fixed" for entry in entries):
                if {"addr": record["floating_ip_address"], "type": "floating"} not in entries:
                    entries.append({"addr": record["floating_ip_address"], "type": "floating"})
                return

    def hide_on_instance(self, record):
        for instance in instances_of(self.sim):
            for entries in (instance.get("addresses") or {}).values():
                entries[:] = [entry for entry in entries
                              if not (entry.get("type") == "floating" and entry.get("addr") == record["floating_ip_address"])]

    # ---- handlers -----------------------------------------------------------------------------
    def filters(self, request):
        status = request.arg("status")
        if status is not None and status not in STATUSES:
            invalid("status", "value is not one of %s" % ", ".join(STATUSES), root=("query",))
        keys = request.query.get("tag_key") or []
        pairs = {}
        if request.arg("tag_key_value") is not None:
            try:
                pairs = json.loads(request.arg("tag_key_value"))
            except ValueError:
                pairs = None
            if not isinstance(pairs, dict):
                invalid("tag_key_value", "value is not a valid JSON object", root=("query",))

        def matches(record):
            tags = dict((tag["key"], tag["value"]) for tag in record["tags"])
            return (status is None or record["status"] == status) and all(key in tags for key in keys) \
                and all(tags.get(key) == value for key, value in pairs.items())
        return [matches]

    def create(self, request):
        project_id, region_id = scope(request)
        self.sync()
        body = request.json if request.raw_body else {}
        self.check_body(body, creating=True)
        port_id = fixed = None
        if body.get("port_id") is not None:
            port_id, fixed = self.assignment(project_id, region_id, body)
        elif body.get("fixed_ip_address") is not None:
            invalid("fixed_ip_address", "needs a port_id", status=400)
        ident = str(uuid.uuid4())

        def apply():
            record = self.sim.floating_ips.get(ident)
            if record is not None:
                record.update(status="ACTIVE" if port_id else "DOWN", port_id=port_id, fixed_ip_address=fixed, task_id=None,
                              router_id=str(uuid.uuid5(NAMESPACE, "router/%s" % project_id)) if port_id else None,
                              updated_at=now_iso())
                if port_id:
                    self.show_on_instance(record)
            return {"floatingips": [ident]}

        task_id = self.sim.start_task("create_floating_ip", apply=apply, project_id=project_id, region_id=region_id, data=body)
        record = self.new_record(ident, self.new_address(), project_id, region_id,
                                 [{"key": key, "value": value, "read_only": False} for key, value in (body.get("tags") or {}).items()],
                                 task_id)
        record.update(status=None, port_id=port_id, fixed_ip_address=fixed)  # being created: on its port, locked
        self.sim.floating_ips[ident] = record
        return {"tasks": [task_id]}

    def update(self, request):
        record = self.one(request, unlocked=True)
        body = request.json if request.raw_body else {}
        self.check_body(body, creating=False)
        port_id, fixed = record["port_id"], record["fixed_ip_address"]
        if "port_id" in body:
            if body["port_id"] is None:
                port_id = fixed = None
            else:
                port_id, fixed = self.assignment(record["project_id"], record["region_id"], body, current=record)
        elif body.get("fixed_ip_address") is not None:
            if record["port_id"] is None:
                invalid("fixed_ip_address", "needs a port_id: the floating IP is not assigned", status=400)
            port_id, fixed = self.assignment(record["project_id"], record["region_id"], dict(body, port_id=record["port_id"]),
                                             current=record)
        patched = {"tags": copy.deepcopy(record["tags"])}
        if "tags" in body:
            merge_tags(patched, body["tags"])
        tags = patched["tags"]
        if (port_id, fixed) == (record["port_id"], record["fixed_ip_address"]) and tags == record["tags"]:
            return {"tasks": []}  # already as asked: no task (docs/api_reference.md section 15.4)

        def apply():
            if (port_id, fixed) != (record["port_id"], record["fixed_ip_address"]):
                if record["port_id"]:
                    self.hide_on_instance(record)
                record.update(port_id=port_id, fixed_ip_address=fixed, status="ACTIVE" if port_id else "DOWN",
                              router_id=str(uuid.uuid5(NAMESPACE, "router/%s" % record["project_id"])) if port_id else None)
                if port_id:
                    self.show_on_instance(record)
            record.update(tags=tags, task_id=None, updated_at=now_iso())

        return {"tasks": [self.begin(record, "update", apply, data=body)]}

    def removed(self, record):
        if self.sim.floating_ips.pop(record["id"], None) is not None:
            self.hide_on_instance(record)
