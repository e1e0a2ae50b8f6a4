# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cloud networks and subnets (docs/api_reference.md sections 15.1 and 15.2), one store of subnets for the whole service:
the subnets a router attaches (``routers.py``) are these.

- ``GET /cloud/v1/networks/{p}/{r}``: ``{count, results}``, newest first (the service's default order
  ``created_at.desc``); ``limit`` 1-1000 (default 1000), ``offset``; ``name`` (at most 61 characters) matches as a
  substring (the published text does not say how it matches: the simulator takes the reading a module must survive).
- ``POST /cloud/v1/networks/{p}/{r}`` (``CreateNetworkSerializer``: ``name``, ``type``, ``create_router``, ``tags``):
  200 ``{tasks}``; the network appears at once, locked by its ``create_network`` task (``task_id``), and the finished
  task names it in ``created_resources.networks``. A failed create task removes it (it is not listed from then on).
  ``create_router`` (default true) gives the network its own router: not a routers-family record, but a subnet created
  with ``connect_to_network_router`` (default true) and a gateway reads ``has_router: true``.
- ``GET .../{network_id}``: the record (``NetworkSerializer``: ``mtu`` 1450, ``type`` vxlan by default, ``subnets``
  the ids of its subnets, ``tags`` as ``[{key, value, read_only}]``).
- ``PATCH .../{network_id}`` (``name``, ``tags`` as a JSON merge patch): synchronous, answers the record. The published
  call, deprecated: the service moved it to v2 (SDK 0.59); still served for other clients.
- ``PATCH /cloud/v2/networks/{p}/{r}/{network_id}`` (same body): ``{tasks}``, an ``update_network`` task that takes
  the network's lock and applies the change when it finishes; ``{"tasks": []}`` when every member sent already
  matches (nothing to do, no task).
- ``DELETE .../{network_id}``: a ``delete_network`` task; the network and its subnets go when it finishes. A network
  with a subnet a router is attached to, or with a port of an instance or a load balancer's VIP, is refused (400).
- ``GET /cloud/v1/subnets/{p}/{r}``: ``{count, results}`` ordered by ``cidr`` (the default ``cidr.asc``), ``limit``,
  ``offset``, ``network_id`` filter; no ``name`` filter.
- ``POST /cloud/v1/subnets/{p}/{r}`` (``CreateSubnetSerializer``): 200 ``{tasks}``, ``created_resources.subnets``.
  ``cidr`` must be a network address (host bits: 400) not overlapping another subnet of the network (400);
  ``gateway_ip`` omitted: the first host; ``null``: no gateway, which needs ``connect_to_network_router: false`` (422);
  a ``gateway_ip`` outside the cidr: 400. ``router_id_to_connect`` (needs ``connect_to_network_router`` true): the
  router is attached to the subnet at its gateway when the task finishes (404 for an unknown router).
- ``PATCH /cloud/v1/subnets/{p}/{r}/{id}`` (``name``, ``enable_dhcp``, ``gateway_ip``, ``dns_nameservers``,
  ``host_routes``, ``tags``): synchronous, answers the record; ``null`` for the two lists leaves them as they are.
- ``DELETE .../{subnet_id}``: a ``delete_subnet`` task; a subnet a router is attached to, or holding an instance's
  address, is refused (400).
- A subnet's ``has_router`` is derived when it is answered: a router of the routers family attached to it, or the
  network's own router (above).
- A PATCH or DELETE of a locked record (``task_id`` set) answers 409. Unknown body members answer 422 (the published
  schemas do not forbid them; the simulator is strict so that a misspelt member is seen).

Two families (``Networks``, ``Subnets``). State: ``sim.networks`` and ``sim.subnets`` (id -> record). Seeded (project 1,
region 76): three networks ``router-net-1..3`` with one subnet each (``router-subnet-1..3``, 192.168.10/20/30.0/24: the
subnets the router stories attach), and two networks both named ``twin-net``.
"""

from __future__ import annotations

import copy
import ipaddress
import uuid

from simulator.core import ApiFailure, is_uuid, merge_tags, now_iso, tag_list
from simulator.resources.production import REGIONS, SEED_PROJECT, SEED_REGION, Collection, family, scope, unlock_failed
from simulator.validation import check_bool, check_enum, check_name, check_object, check_tags, invalid, patch_name_and_tags

MTU = 1450

# (network id, name, [(subnet id, name, cidr)])
SEEDED = [
    ("5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01", "router-net-1", [("5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01", "router-subnet-1", "192.168.10.0/24")]),
    ("5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a02", "router-net-2", [("5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b02", "router-subnet-2", "192.168.20.0/24")]),
    ("5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a03", "router-net-3", [("5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b03", "router-subnet-3", "192.168.30.0/24")]),
    ("5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a11", "twin-net", []),
    ("5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a12", "twin-net", []),
]
# The seeded subnets: id -> {network_id, cidr} (what the router stories attach).
SEEDED_SUBNETS = dict((subnet_id, {"network_id": network_id, "cidr": cidr})
                      for network_id, _name, subnets in SEEDED for subnet_id, _subnet_name, cidr in subnets)


def check_ip(field, value):
    try:
        return ipaddress.ip_address(value)
    except (TypeError, ValueError):
        invalid(field, "value is not a valid IPv4 or IPv6 address")


def check_network_text(field, value):
    try:
        return ipaddress.ip_network(value, strict=False)
    except (TypeError, ValueError):
        invalid(field, "value is not a valid IPv4 or IPv6 network")


def check_ip_list(field, value):
    if not isinstance(value, list):
        invalid(field, "value is not a valid list")
    return [str(check_ip("%s.%s" % (field, index), item)) for index, item in enumerate(value)]


def check_host_routes(field, value):
    if not isinstance(value, list):
        invalid(field, "value is not a valid list")
    routes = []
    for index, route in enumerate(value):
        where = "%s.%s" % (field, index)
        check_object(where, route, ("destination", "nexthop"), ("destination", "nexthop"))
        destination = check_network_text(where + ".destination", route["destination"])
        nexthop = check_ip(where + ".nexthop", route["nexthop"])
        routes.append({"destination": str(destination), "nexthop": str(nexthop)})
    return routes


def tag_set(record):
    """A record's tags, whatever their order."""
    return sorted((tag["key"], tag["value"], tag["read_only"]) for tag in record["tags"])


class Networks(Collection):
    NAME, NOUN, COLLECTION, TASK, ID_CHECK, NAME_QUERY = "networks", "Network", "networks", "network", None, ("name", 61)
    VERSIONS = {"update": "v2"}
    ACTIONS = (("PATCH", "/{id}", "patch_v1"),)  # the published call, deprecated
    TASK_TYPES = ("create_network", "update_network", "delete_network")
    SEEDS = {
        "project_id": SEED_PROJECT, "region_id": SEED_REGION,
        "networks": dict((name.replace("-", "_"), network_id) for network_id, name, _subnets in SEEDED[:3]),
        "twin_net": [network_id for network_id, name, _subnets in SEEDED if name == "twin-net"],
        "subnets": dict((subnet_name.replace("-", "_"), subnet_id)
                        for _network_id, _name, subnets in SEEDED for subnet_id, subnet_name, _cidr in subnets),
    }

    # ---- state ----------------------------------------------------------------------------------
    def reset(self):
        """Both stores: the seeded networks have their subnets (``Subnets`` keeps what is made here)."""
        self.segments = 1000  # the next vxlan segmentation id
        self.own_router = set()  # networks created with create_router (their own router; not a routers-family record)
        self.connected = set()  # subnets created with connect_to_network_router (the default)
        self.sim.networks = {}
        self.sim.subnets = {}
        for network_id, name, subnets in SEEDED:
            self.sim.networks[network_id] = self.network_record(network_id, name, SEED_PROJECT, SEED_REGION, "vxlan", {})
            for subnet_id, subnet_name, cidr in subnets:
                network = ipaddress.ip_network(cidr)
                self.add_subnet(self.subnet_record(subnet_id, subnet_name, network_id, SEED_PROJECT, SEED_REGION, network,
                                                   str(next(network.hosts())), True, [], [], {}))

    def stamp(self, project_id, region_id):
        stamp = now_iso()
        return {"project_id": project_id, "region_id": region_id, "region": REGIONS.get(region_id, "Region %s" % region_id),
                "created_at": stamp, "updated_at": stamp}

    def network_record(self, network_id, name, project_id, region_id, kind, tags, task_id=None):
        self.segments += 1
        return dict(self.stamp(project_id, region_id), id=network_id, name=name, type=kind, mtu=MTU,
                    segmentation_id=self.segments, external=False, default=False, shared=False,
                    port_security_enabled=True, subnets=[], tags=tag_list(tags), task_id=task_id, creator_task_id=task_id)

    def subnet_record(self, subnet_id, name, network_id, project_id, region_id, network, gateway_ip, enable_dhcp,
                      dns_nameservers, host_routes, tags, task_id=None):
        total = network.num_addresses - (2 if network.version == 4 else 1)
        return dict(self.stamp(project_id, region_id), id=subnet_id, name=name, network_id=network_id,
                    ip_version=network.version, enable_dhcp=enable_dhcp, cidr=str(network), gateway_ip=gateway_ip,
                    dns_nameservers=dns_nameservers, host_routes=host_routes, total_ips=total,
                    available_ips=total - (1 if gateway_ip else 0), has_router=False, tags=tag_list(tags),
                    task_id=task_id, creator_task_id=task_id)

    def add_subnet(self, record):
        self.sim.subnets[record["id"]] = record
        self.sim.networks[record["network_id"]]["subnets"].append(record["id"])

    def remove_subnet(self, subnet_id):
        record = self.sim.subnets.pop(subnet_id, None)
        network = self.sim.networks.get(record["network_id"]) if record else None
        if network and subnet_id in network["subnets"]:
            network["subnets"].remove(subnet_id)

    def sync(self):
        """Release the lock of every network and subnet whose task failed; a failed create removes what it made."""
        def created(record, task):
            return record["task_id"] == record["creator_task_id"] and task and task["record"]["task_type"].startswith("create")
        unlock_failed(self.sim, self.sim.subnets, created, self.remove_subnet)
        unlock_failed(self.sim, self.sim.networks, created)

    def routers_on(self, subnet_ids):
        """(router id, subnet id) of every router interface in one of ``subnet_ids``."""
        return [(router["id"], assignment["subnet_id"]) for router in getattr(self.sim, "routers", {}).values()
                for interface in router["interfaces"] for assignment in interface["ip_assignments"]
                if assignment["subnet_id"] in subnet_ids]

    def ports_on(self, network_id=None, subnet_id=None):
        """``(kind, id)`` of what holds a port in the network (or an address in the subnet): instances (their
        interfaces) and load balancers (their VIP)."""
        users = [("instance", ident) for ident, ports in (getattr(self.sim, "instance_ports", None) or {}).items()
                 if any(port["network_id"] == network_id or subnet_id in [item["subnet_id"] for item in port["ip_assignments"]]
                        for port in ports)]
        balancers = family(self.sim, "load_balancers")
        if balancers is not None and network_id is not None:
            users += [("load balancer", ident) for ident in balancers.on_network(network_id)]
        return users

    # ---- networks -------------------------------------------------------------------------------
    def ordered(self, request, records):
        return records[::-1]  # newest first

    def create(self, request):
        project_id, region_id = scope(request)
        self.sync()
        body = request.json
        check_object("body", body, ("name",), ("name", "type", "create_router", "tags"))
        check_name("name", body["name"])
        check_enum("type", body.get("type", "vxlan"), ("vlan", "vxlan"))
        if "create_router" in body:
            check_bool("create_router", body["create_router"])
        check_tags("tags", body.get("tags", {}))
        network_id = str(uuid.uuid4())

        def apply():
            record = self.sim.networks.get(network_id)
            if record is not None:
                record.update(task_id=None, updated_at=now_iso())
            return {"networks": [network_id]}

        task_id = self.sim.start_task("create_network", apply=apply, project_id=project_id, region_id=region_id, data=body)
        self.sim.networks[network_id] = self.network_record(network_id, body["name"], project_id, region_id,
                                                            body.get("type", "vxlan"), body.get("tags", {}), task_id)
        if body.get("create_router", True):
            self.own_router.add(network_id)
        return {"tasks": [task_id]}

    def patch_v1(self, request):
        return copy.deepcopy(patch_name_and_tags(self.one(request, unlocked=True), request.json))

    def update(self, request):
        record = self.one(request, unlocked=True)
        after = patch_name_and_tags(copy.deepcopy(record), request.json or {})
        if after["name"] == record["name"] and tag_set(after) == tag_set(record):
            return {"tasks": []}

        def apply():
            record.update(name=after["name"], tags=after["tags"], task_id=None, updated_at=now_iso())

        return {"tasks": [self.begin(record, "update", apply)]}

    def refuse_delete(self, record):
        in_use = self.routers_on(set(record["subnets"]))
        if in_use:
            raise ApiFailure(400, "Network %s has ports in use: router %s is attached to subnet %s; detach it first"
                             % (record["id"], in_use[0][0], in_use[0][1]))
        users = self.ports_on(network_id=record["id"])
        if users:
            raise ApiFailure(400, "Network %s has ports in use: %s %s has a port in it; delete or detach it first"
                             % ((record["id"],) + users[0]))

    def removed(self, record):
        for subnet_id in list(record["subnets"]):
            self.remove_subnet(subnet_id)
        self.sim.networks.pop(record["id"], None)

    def subnet_view(self, record):
        """A subnet as answered: ``has_router`` follows the routers attached to it (derived, never stored)."""
        own = record["network_id"] in self.own_router and record["id"] in self.connected and record["gateway_ip"] is not None
        return dict(copy.deepcopy(record), has_router=own or bool(self.routers_on({record["id"]})))


class Subnets(Collection):
    """The subnets: their store is made and seeded with the networks' (``Networks``), whose helpers they use."""

    NAME, NOUN, COLLECTION, TASK, ID_CHECK = "subnets", "Subnet", "subnets", "subnet", None
    TASK_TYPES = ("create_subnet", "delete_subnet")

    def reset(self):
        """Nothing: the networks' reset made the store."""

    @property
    def networks(self):
        return family(self.sim, Networks.NAME)

    def sync(self):
        self.networks.sync()

    def shown(self, record, _request=None):
        return self.networks.subnet_view(record)

    def filters(self, request):
        network_id = request.arg("network_id")
        if network_id is not None and not is_uuid(network_id):
            invalid("network_id", "value is not a valid uuid")
        return [lambda record: network_id is None or record["network_id"] == network_id]

    def ordered(self, request, records):
        return sorted(records, key=lambda record: (ipaddress.ip_network(record["cidr"]).version, ipaddress.ip_network(record["cidr"])))

    @staticmethod
    def check_gateway(field, value, network):
        address = check_ip(field, value)
        if address not in network or address in (network.network_address, network.broadcast_address):
            raise ApiFailure(400, "%s: %s is not a host address of %s" % (field, address, network))
        return str(address)

    def create(self, request):
        project_id, region_id = scope(request)
        self.sync()
        body = request.json
        check_object("body", body, ("name", "network_id", "cidr"),
                     ("name", "network_id", "cidr", "ip_version", "enable_dhcp", "gateway_ip", "connect_to_network_router",
                      "router_id_to_connect", "dns_nameservers", "host_routes", "tags"))
        check_name("name", body["name"])
        if not is_uuid(body["network_id"]):
            invalid("network_id", "value is not a valid uuid")
        network = check_network_text("cidr", body["cidr"])
        if "ip_version" in body:
            check_enum("ip_version", body["ip_version"], (4, 6))
            if body["ip_version"] != network.version:
                invalid("ip_version", "does not match the cidr's IP version %s" % network.version)
        for option in ("enable_dhcp", "connect_to_network_router"):
            if option in body:
                check_bool(option, body[option])
        connect = body.get("connect_to_network_router", True)
        router_id = body.get("router_id_to_connect")
        if router_id is not None:
            if not is_uuid(router_id):
                invalid("router_id_to_connect", "value is not a valid uuid")
            if not connect:
                invalid("router_id_to_connect", "requires connect_to_network_router to be true")
        if "gateway_ip" in body and body["gateway_ip"] is None and connect:
            invalid("connect_to_network_router", "must be explicitly false when gateway_ip is null")
        dns = check_ip_list("dns_nameservers", body["dns_nameservers"]) if body.get("dns_nameservers") is not None else []
        routes = check_host_routes("host_routes", body["host_routes"]) if body.get("host_routes") is not None else []
        check_tags("tags", body.get("tags", {}))
        try:
            ipaddress.ip_network(body["cidr"], strict=True)
        except ValueError:
            raise ApiFailure(400, "cidr: %s has host bits set" % body["cidr"])
        networks = self.networks
        parent = self.sim.networks.get(body["network_id"])
        if parent is None or parent["project_id"] != project_id or parent["region_id"] != region_id:
            raise ApiFailure(404, "Network %s not found" % body["network_id"])
        for other in self.sim.subnets.values():
            if other["network_id"] == parent["id"] and ipaddress.ip_network(other["cidr"]).overlaps(network):
                raise ApiFailure(400, "cidr %s overlaps subnet %s (%s) of network %s" % (network, other["id"], other["cidr"], parent["id"]))
        if "gateway_ip" in body:
            gateway = None if body["gateway_ip"] is None else self.check_gateway("gateway_ip", body["gateway_ip"], network)
        else:
            gateway = str(next(network.hosts()))
        routers = getattr(self.sim, "routers", {})
        if router_id is not None and (router_id not in routers or routers[router_id]["project_id"] != project_id):
            raise ApiFailure(404, "Router %s not found" % router_id)
        subnet_id = str(uuid.uuid4())

        def apply():
            record = self.sim.subnets.get(subnet_id)
            if record is not None:
                record.update(task_id=None, updated_at=now_iso())
                if router_id is not None and router_id in routers:
                    routers[router_id]["interfaces"].append(self.router_port(record, gateway))
            return {"subnets": [subnet_id]}

        task_id = self.sim.start_task("create_subnet", apply=apply, project_id=project_id, region_id=region_id, data=body)
        networks.add_subnet(networks.subnet_record(subnet_id, body["name"], parent["id"], project_id, region_id, network, gateway,
                                                   body.get("enable_dhcp", True), dns, routes, body.get("tags", {}), task_id))
        if connect:
            networks.connected.add(subnet_id)
        return {"tasks": [task_id]}

    def router_port(self, subnet, address):
        """A router port in ``subnet`` at ``address`` (the router resource makes them; see routers.py)."""
        return family(self.sim, "routers").interface_record(subnet["id"], address)

    def update(self, request):
        record = self.one(request, unlocked=True)
        body = request.json
        check_object("body", body, (), ("name", "enable_dhcp", "gateway_ip", "dns_nameservers", "host_routes", "tags"))
        changes = {}
        if body.get("name") is not None:
            check_name("name", body["name"])
            changes["name"] = body["name"]
        if "enable_dhcp" in body:
            check_bool("enable_dhcp", body["enable_dhcp"])
            changes["enable_dhcp"] = body["enable_dhcp"]
        if "gateway_ip" in body:
            network = ipaddress.ip_network(record["cidr"])
            changes["gateway_ip"] = None if body["gateway_ip"] is None else self.check_gateway("gateway_ip", body["gateway_ip"], network)
        if body.get("dns_nameservers") is not None:
            changes["dns_nameservers"] = check_ip_list("dns_nameservers", body["dns_nameservers"])
        if body.get("host_routes") is not None:
            changes["host_routes"] = check_host_routes("host_routes", body["host_routes"])
        if body.get("tags") is not None:
            check_tags("tags", body["tags"], patch=True)
        record.update(changes)
        if "tags" in body:
            merge_tags(record, body["tags"])
        record["updated_at"] = now_iso()
        return self.shown(record)

    def refuse_delete(self, record):
        in_use = self.networks.routers_on({record["id"]})
        if in_use:
            raise ApiFailure(400, "Subnet %s has ports in use: router %s is attached to it; detach it first" % (record["id"], in_use[0][0]))
        users = self.networks.ports_on(subnet_id=record["id"])
        if users:
            raise ApiFailure(400, "Subnet %s has ports in use: %s %s has an address in it; delete or detach it first"
                             % ((record["id"],) + users[0]))

    def removed(self, record):
        self.networks.remove_subnet(record["id"])
