#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: reserved_fixed_ip
short_description: Reserve a private address on a Gcore Cloud network, and share it as a virtual IP
version_added: 1.1.0
description:
  - Makes a Gcore Cloud reserved fixed IP (a private address kept apart from any instance) exist on a network, or
    removes it, and does nothing when it already matches. Use it for a virtual IP shared by several instances
    (keepalived-style failover, with O(is_vip) and O(connected_instances)), or for an instance interface that must
    keep its address (an M(gcore.platform.instance) interface of type V(reserved_fixed_ip)).
  - "The reserved IP has no name and no tags: it is found by O(port_id) (its ID) when given, otherwise by its address
    O(ip_address) on O(network)."
  - Creates it (checking first that a subnet of the network holds the address), switches O(is_vip), sets the instances
    that share it (O(connected_instances)) and deletes it.
author:
  - gcore.platform developers (@gcore-platform)
options:
  state:
    description:
      - V(present) creates the reserved IP and makes it match; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
  port_id:
    description:
      - ID of the reserved IP (the service's C(port_id) - a reserved IP has no other ID), a UUID in any letter case
        (sent lower-case).
      - With O(state=present), an ID that does not exist fails the module (an ID cannot be created); with
        O(state=absent) it is reported unchanged.
      - Either O(port_id), or O(network) with O(ip_address), is required.
    type: str
  network:
    description:
      - The network of the address, a network ID (a UUID) or the exact name of a network (looked up over every page;
        two networks with the name fail the module, listing their IDs).
      - With O(ip_address), the identity of the reserved IP; required to create one.
      - Create-only; with O(port_id), a reserved IP on another network fails the module before any write.
    type: str
  ip_address:
    description:
      - The address to reserve, IPv4 or IPv6, in one of the subnets of O(network) (compared as C(ipaddress) prints it).
      - With O(network), the identity of the reserved IP; required to create one.
      - Create-only; with O(port_id), a reserved IP of another address fails the module before any write.
    type: str
  is_vip:
    description:
      - Whether the address is a virtual IP that instance ports may share (O(connected_instances)). When not given,
        not managed (a new reserved IP is not a VIP).
      - The service refuses to stop a VIP that ports still share; with O(is_vip=false) such a VIP fails the module
        before any write, naming the instances (empty O(connected_instances) first).
    type: bool
  connected_instances:
    description:
      - The instances whose port on O(network) shares the address, each an instance ID (a UUID) or the exact name of an
        instance (two instances with the name fail the module). A set; only with O(is_vip=true).
      - Each instance must have exactly one interface on the network. The ports of the others are taken off the VIP;
        V([]) takes every port off. When not given, not managed.
    type: list
    elements: str
notes:
  - The reserved IP has no name and no tags. It is found by O(port_id) (its ID) when it is given, otherwise by its
    address O(ip_address) on O(network) (one listing,
    C(GET /cloud/v1/reserved_fixed_ips/{project_id}/{region_id}) with the C(ip_address) filter, every page).
  - "A missing one is created with C(POST /cloud/v1/reserved_fixed_ips/{project_id}/{region_id})
    C({type: ip_address, network_id, ip_address, is_vip}); its ID is read from the finished task's
    C(created_resources.ports). Before any write, an O(ip_address) that none of the network's subnets holds (or a
    subnet's network, broadcast or gateway address) fails the module, listing the subnets."
  - O(is_vip) is changed with C(PATCH /cloud/v1/reserved_fixed_ips/{project_id}/{region_id}/{port_id}) C({is_vip}),
    which answers at once.
  - O(connected_instances) is the set of instances whose port on the network shares the address. The ports connected
    now are read from C(GET …/{port_id}/connected_devices); when the set differs, one
    C(PUT …/{port_id}/connected_devices) C({port_ids}) sends the whole list (each instance's port on the network,
    read from its interfaces). Every instance name is resolved before any write.
  - O(state=absent) deletes the reserved IP with C(DELETE /cloud/v1/reserved_fixed_ips/{project_id}/{region_id}/{port_id})
    and waits for the task; the service takes the address off the ports that shared it.
  - With O(wait=false) the module returns once the service accepted each write, with the task IDs in RV(tasks); a
    reserved IP being created is then returned as V(null), and O(connected_instances) cannot be set in the same run
    (the ports are connected once the create's task has finished).
  - A second run with the same options sends no write.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.gcore.WAIT
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.reserved_fixed_ip_info
    description: Read reserved fixed IPs, with the service's C(vip_only) and C(available_only) filters.
  - module: gcore.platform.instance
    description: An interface of type V(reserved_fixed_ip) gives an instance the reserved address.
  - module: gcore.platform.network
    description: The networks and subnets the addresses come from.
"""

EXAMPLES = r"""
- name: Two web instances on router-net-1
  gcore.platform.instance:
    project_id: 1
    region_id: 76
    name: "{{ item }}"
    flavor: g1-standard-2-4
    volumes: [{source: image, image_name: ubuntu-22.04, size: 10, boot_index: 0}]
    interfaces: [{type: subnet, network_id: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01, subnet_id: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01}]
  loop: [web-a, web-b]

- name: A virtual IP that web-a and web-b share (keepalived moves it between them)
  gcore.platform.reserved_fixed_ip:
    project_id: 1
    region_id: 76
    network: router-net-1
    ip_address: 192.168.10.50
    is_vip: true
    connected_instances: [web-a, web-b]
  register: vip

- name: Show its ID and the instances sharing it
  ansible.builtin.debug:
    msg: "{{ vip.reserved_fixed_ip.port_id }} is shared by {{ vip.connected_instances | join(', ') }}"

- name: An address kept for an instance interface (not a VIP)
  gcore.platform.reserved_fixed_ip:
    project_id: 1
    region_id: 76
    network: router-net-1
    ip_address: 192.168.10.60
  register: kept

- name: Delete the virtual IP (by its ID)
  gcore.platform.reserved_fixed_ip:
    project_id: 1
    region_id: 76
    port_id: "{{ vip.reserved_fixed_ip.port_id }}"
    state: absent
"""

RETURN = r"""
reserved_fixed_ip:
  description:
    - The reserved IP as the service returned it when last read.
    - V(null) after a delete, when O(state=absent) found none, and in check mode when it would be created.
  returned: success
  type: dict
  contains:
    port_id:
      description: The reserved IP's ID (the record has no C(id) member).
      type: str
      sample: 7a1c3e5f-2b4d-4c6e-8f0a-1b2c3d4e5f60
    name:
      description: The name the service gives it.
      type: str
      sample: Reserved fixed ip 192.168.10.50
    fixed_ip_address:
      description: Its IPv4 address (V(null) for an IPv6 one).
      type: str
      sample: 192.168.10.50
    fixed_ipv6_address:
      description: Its IPv6 address, if any.
      type: str
      sample: null
    network_id:
      description: ID of its network.
      type: str
      sample: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01
    subnet_id:
      description: ID of the subnet of its IPv4 address.
      type: str
      sample: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01
    is_vip:
      description: Whether it is a virtual IP.
      type: bool
      sample: true
    status:
      description: The port's status (V(DOWN) while nothing uses it).
      type: str
      sample: DOWN
    reservation:
      description: What it is attached to, C({resource_id, resource_type, status}) (all V(null) when free).
      type: dict
      sample: {resource_id: null, resource_type: null, status: null}
    allowed_address_pairs:
      description: The addresses of the ports that share it as a VIP.
      type: list
      elements: dict
      sample: [{ip_address: 192.168.10.11, mac_address: "fa:16:3e:00:00:01"}]
connected_instances:
  description:
    - The names of the instances whose port shares the address (a VIP's), sorted, as read last; V([]) for a reserved
      IP that is not a VIP, after a delete, and when there is none.
  returned: success
  type: list
  elements: str
  sample: [web-a, web-b]
changes:
  description:
    - With O(connected_instances), the instances added to and removed from the VIP (in check mode, those that would
      be on an existing reserved IP), as listed in O(connected_instances) or named by the service.
  returned: when O(connected_instances) is given
  type: dict
  sample:
    connected_instances:
      added: [web-b]
      removed: [web-c]
tasks:
  description:
    - IDs of the asynchronous tasks the module started (the create's and the delete's; the PATCH and the PUT answer
      at once).
    - With O(wait=true) every one of them has finished when the module returns.
  returned: success
  type: list
  elements: str
  sample: [6a1d8f3e-0b2c-4d5e-8f90-1a2b3c4d5e6f]
diff:
  description:
    - The managed members before and after the change (C(network) as an ID, C(ip_address), C(is_vip), and with
      O(connected_instances) the instances sharing it, sorted), with C(state).
  returned: success
  type: dict
  sample:
    before: {state: present, network: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01, ip_address: 192.168.10.50, is_vip: true,
             connected_instances: [web-a]}
    after: {state: present, network: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01, ip_address: 192.168.10.50, is_vip: true,
            connected_instances: [web-a, web-b]}
"""

import ipaddress
from functools import cached_property

from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, ValidationError, check_not_blank, checked_address, require
from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudResource
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS, listed
from ansible_collections.gcore.platform.plugins.module_utils._members import Member, create_only
from ansible_collections.gcore.platform.plugins.module_utils._parents import address_query, assumed, id_or_name, interfaces_of, parent_id, with_address
from ansible_collections.gcore.platform.plugins.module_utils._parts import Part
from ansible_collections.gcore.platform.plugins.module_utils._writes import Write

KIND = KINDS["reserved_fixed_ip"]
DEVICES = KIND.paths["item"] + "/connected_devices"  # the instances' ports sharing a VIP (docs/api_reference.md 16.6)


def check_in_subnets(client, params, network_id, address, where):
    """Refuse (before any write) an address that none of the network's subnets holds, or a subnet's network, broadcast or
    gateway address; an unknown network is named as such."""
    scope = dict(project_id=params["project_id"], region_id=params["region_id"])
    subnets = list(listed(client, KINDS["subnet"], scope, {"network_id": network_id}))
    if not subnets and client.get_or_none(KINDS["network"].paths["item"].format(id=network_id, **scope)) is None:
        raise Refused("network: no network %s in %s (nothing was sent)" % (network_id, where))
    wanted = ipaddress.ip_address(address)
    cidrs = [ipaddress.ip_network(subnet["cidr"], strict=False) for subnet in subnets if subnet.get("cidr")]
    holding = [cidr for cidr in cidrs if wanted.version == cidr.version and wanted in cidr]
    if not holding:
        raise Refused("ip_address: %s is in none of the subnets of network %s (%s); give an address of one of them "
                      "(nothing was sent)" % (address, network_id, ", ".join(str(cidr) for cidr in cidrs) or "it has none"))
    cidr = holding[0]
    if cidr.version == 4 and cidr.prefixlen < 31 and wanted in (cidr.network_address, cidr.broadcast_address):
        raise Refused("ip_address: %s is the %s address of subnet %s and cannot be reserved (nothing was sent)" % (
            address, "network" if wanted == cidr.network_address else "broadcast", cidr))
    gateways = [subnet for subnet in subnets if subnet.get("gateway_ip") and subnet.get("cidr")
                and ipaddress.ip_network(subnet["cidr"], strict=False) == cidr and ipaddress.ip_address(subnet["gateway_ip"]) == wanted]
    if gateways:
        raise Refused("ip_address: %s is the gateway address of subnet %s (%s) and cannot be reserved (nothing was sent)" % (
            address, gateways[0].get("name") or gateways[0].get("id"), cidr))


class VipPorts(Part):
    """The instances sharing a reserved fixed IP as a virtual IP. Held: the ports connected now (read from the VIP's
    ``connected_devices``); wanted: each item of the option (an instance id or exact name) resolved to the instance's one
    port on the network before any write (``resolve``). Identity: the instance; the write: one ``PUT
    …/connected_devices`` with the whole list of ports, when the set of ports differs."""

    name = option = "connected_instances"
    ports = None  # the wanted items, resolved: [{instance_id, port_id, label}]

    def check(self, module):
        """Each item an instance id (made lower-case) or name, listed once."""
        values, first = module.params[self.option] or [], {}
        for index, value in enumerate(values):
            where = "%s[%s]" % (self.option, index)
            check_not_blank(where, value)
            values[index] = value = id_or_name(where, value, "instance")
            if value in first:
                raise ValidationError("%s[%s] and %s: each instance must be listed once; %s is given twice" % (self.option, first[value], where, value))
            first[value] = index

    def fetch(self, get, record, params):
        """The record, with the ports connected to it now (``connected``; none unless it is a VIP)."""
        if record is None or not record.get("is_vip"):
            return record and dict(record, connected=[])
        return dict(record, connected=(get(DEVICES.format(**dict(params, id=record["id"])), one=True) or {}).get("results") or [])

    def resolve(self, module, state, network_id):
        """The items of the option resolved to ports (reads only): a port connected now is kept, another read from the
        instance's interfaces (an instance or network check mode assumes built: the instance stands for its port)."""
        params, held = module.params, self.held(state)
        if params[self.option] is None or params["state"] == "absent":
            return
        where, resolved = KIND.scope.format(**params), {}
        for index, value in enumerate(params[self.option]):
            option = "%s[%s]" % (self.option, index)
            ident = parent_id(module, "instance", value, option)
            if ident in resolved:
                raise ValidationError("%s and %s: both name instance %s; list each instance once" % (resolved[ident]["option"], option, ident))
            item = held.get(ident) or {"instance_id": ident, "label": value, "port_id": ident if assumed(ident) or assumed(network_id)
                                       else port_of(module, ident, value, network_id, option, where)}
            resolved[ident] = dict(item, option=option)
        self.ports = list(resolved.values())

    def wanted(self, module):
        return None if module.params["state"] == "absent" else self.ports

    def held(self, record):
        return dict((port.get("instance_id"), {"instance_id": port.get("instance_id"), "port_id": port.get("port_id"),
                                               "label": port.get("instance_name")}) for port in (record or {}).get("connected") or [])

    def shown(self, items):
        return sorted(str(item["label"]) for item in items)

    def views(self, state, wanted, params):
        return (None if state is None else self.shown(self.held(state).values())), self.shown(wanted)

    def plan(self, record, wanted, params):
        held, ports = self.held(record), [item["port_id"] for item in wanted]
        if set(ports) == set(item["port_id"] for item in held.values()):
            return []
        listed = set(item["instance_id"] for item in wanted)
        said = {"connected_instances.added": [item["label"] for item in wanted if item["instance_id"] not in held],
                "connected_instances.removed": [item["label"] for ident, item in held.items() if ident not in listed]}
        return [Write("attach", "PUT", DEVICES.format(**dict(params, id=record["id"])), {"port_ids": ports}, locked=record, said=said,
                      done=lambda found: set(item["port_id"] for item in self.held(found).values()) == set(ports))]


def port_of(module, ident, value, network_id, option, where):
    """The one port instance ``ident`` has on the network (its interfaces), else ``Refused`` naming the item."""
    interfaces = interfaces_of(module.client, module.params, ident)
    if interfaces is None:
        raise Refused("%s: no instance %s in %s (nothing was sent)" % (option, value, where))
    ports = [item.get("port_id") for item in interfaces if item.get("network_id") == network_id]
    if len(ports) != 1:
        named = value if value == ident else "%s (%s)" % (value, ident)
        raise Refused("%s: instance %s has %s on network %s, the reserved fixed IP's; it needs exactly one interface "
                      "there to share the address (nothing was sent)" % (option, named, "ports %s" % ", ".join(ports) if ports
                                                                         else "no port", network_id))
    return ports[0]


class ReservedFixedIp(CloudResource):
    kind = KIND
    options = dict(network=dict(type="str"), ip_address=dict(type="str"), is_vip=dict(type="bool"),
                   connected_instances=dict(type="list", elements="str"))
    network_id = None  # ``network`` resolved to an id before any write (None: no such network)

    @cached_property
    def vip_ports(self):
        return VipPorts()

    @property
    def parts(self):
        return (self.vip_ports,)

    @property
    def changes(self):
        return {"connected_instances": {"added": str, "removed": str}} if self.params["connected_instances"] is not None else None

    @property
    def members(self):
        return (create_only("network", lambda record: record.get("network_id"), self.noun, want=lambda value: self.network_id),
                create_only("ip_address", self.address_of, self.noun), Member("is_vip"))

    def address_of(self, record):
        """The record's address of the version of ``ip_address`` (IPv4 when not given)."""
        wanted = self.params["ip_address"]
        six = wanted is not None and ipaddress.ip_address(wanted).version == 6
        return checked_address("ip_address", record.get("fixed_ipv6_address" if six else "fixed_ip_address"))

    def validate(self):
        super().validate()
        params = self.params
        params["ip_address"] = checked_address("ip_address", params["ip_address"])
        params["network"] = id_or_name("network", params["network"], "network")
        require(params["port_id"] is not None or (params["network"] is not None and params["ip_address"] is not None),
                "network" if params["ip_address"] is not None else "ip_address" if params["network"] is not None else "port_id",
                "give port_id, or network with ip_address (a reserved fixed IP is found by its ID or by its address on its network)")
        require(params["connected_instances"] is None or params["is_vip"] is True, "connected_instances",
                "only with is_vip: true (instances share a reserved fixed IP as a virtual IP)")

    def resolve(self):
        """``network`` as the one network id it names (a name is looked up over every page), before any write; one that is
        not there holds nothing to delete, and in check mode is one an earlier task creates (``_parents``)."""
        if self.params["network"] is not None:
            self.network_id = parent_id(self, "network", self.params["network"], "network")

    def find(self):
        """By the address on the network (reserved IPs have no name)."""
        if self.network_id is None or assumed(self.network_id):
            return None
        address = self.params["ip_address"]
        matches = with_address(self.listing(address_query(address)), self.network_id, address)
        if len(matches) > 1:
            raise Refused("%s reserved fixed IPs%s hold %s on network %s (ids %s); give the port_id of the one to manage" % (
                len(matches), self.of_scope(), address, self.network_id, ", ".join(record["id"] for record in matches)))
        return matches[0] if matches else None

    def examine(self, record):
        """Reads before any write: the ports sharing the VIP, the instances named resolved to their ports, and (to create)
        the address checked against the network's subnets."""
        params = self.params
        present = params["state"] != "absent"
        if present and record is None and params["port_id"] is None:
            if params["connected_instances"] and not params["wait"]:
                raise ValidationError("connected_instances: the instances' ports are connected once the create's task has "
                                      "finished, which needs wait=true (nothing was sent)")
            if not assumed(self.network_id):  # (a network check mode assumes built: its subnets are not known yet)
                check_in_subnets(self.client, params, self.network_id, params["ip_address"], self.where())
        state = self.part_state(self.vip_ports, record)
        if record is not None or params["port_id"] is None:  # (an unknown port_id fails in the plan)
            self.vip_ports.resolve(self, state, record["network_id"] if record else self.network_id)
        if present and record is not None and params["is_vip"] is False and record.get("is_vip") and state["connected"]:
            raise Refused("is_vip: reserved fixed IP %s is shared by instances %s; the service keeps it a VIP while ports "
                          "share it: set connected_instances: [] with is_vip: true first (nothing was sent)"
                          % (record["id"], ", ".join(self.vip_ports.shown(self.vip_ports.held(state).values()))))

    def create_body(self):
        params = self.params
        body = {"type": "ip_address", "network_id": self.network_id, "ip_address": params["ip_address"]}
        if params["is_vip"] is not None:
            body["is_vip"] = params["is_vip"]
        return body

    def returned(self, record):
        found = super().returned(record)
        held = self.vip_ports.held(self.part_state(self.vip_ports, record) if found is not None else None)
        self.result["connected_instances"] = self.vip_ports.shown(held.values())
        return found


def main():
    ReservedFixedIp.main()


if __name__ == "__main__":
    main()
