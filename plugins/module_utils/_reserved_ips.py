# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""Reserved fixed IPs have no name: where one is found, and the instances sharing one as a virtual IP
(docs/api_reference.md section 16.6).

This module is internal to the collection: its interface may change at any time.

- ``addresses_of(record)``, ``with_address(records, network_id, address)``: a reserved fixed IP is identified by its
  address on its network (``fixed_ip_address`` or ``fixed_ipv6_address``, compared as ``ipaddress`` prints them);
  ``address_query(address)``: the listing's ``ip_address`` filter (a regular expression, IPv4 only) for one address.
- ``check_in_subnets``: an address that none of the network's subnets holds (or a subnet's network or broadcast
  address) is refused before any write, as the service would refuse it.
- ``VipPorts``: the instances whose port on the network shares the address (a part, ``_parts.Part``): read from
  ``GET …/{port_id}/connected_devices``, made the wanted set by one ``PUT …/connected_devices`` ``{port_ids}`` with
  the whole list (the instances' ports on the reserved IP's network, read from each instance's interfaces).
"""

from __future__ import annotations

import ipaddress
import re

from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, ValidationError, canonical_ip, check_not_blank, is_uuid
from ansible_collections.gcore.platform.plugins.module_utils._cloud import PAGE_SIZE, check_name
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS
from ansible_collections.gcore.platform.plugins.module_utils._parents import assumed, interfaces_of, parent_id
from ansible_collections.gcore.platform.plugins.module_utils._parts import Part
from ansible_collections.gcore.platform.plugins.module_utils._writes import Write

KIND = KINDS["reserved_fixed_ip"]
DEVICES = KIND.paths["item"] + "/connected_devices"
SUBNETS = KINDS["subnet"].paths["list"]


def addresses_of(record):
    """The addresses a reserved fixed IP holds, canonical."""
    return [canonical_ip(value) for value in (record.get("fixed_ip_address"), record.get("fixed_ipv6_address")) if value]


def address_query(address):
    """The listing's ``ip_address`` filter for exactly ``address`` (the service takes a regular expression, IPv4 only)."""
    return {"ip_address": "^%s$" % re.escape(address)} if ipaddress.ip_address(address).version == 4 else {}


def with_address(records, network_id, address):
    return [record for record in records if record.get("network_id") == network_id and address in addresses_of(record)]


def check_in_subnets(client, params, network_id, address, where):
    """Refuse (before any write) an address that none of the network's subnets holds, or a subnet's network, broadcast or
    gateway address; an unknown network is named as such."""
    scope = dict(project_id=params["project_id"], region_id=params["region_id"])
    subnets = list(client.paginate(SUBNETS.format(**scope), {"network_id": network_id}, page_size=PAGE_SIZE))
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


def check_instances(option, values):
    """The items of ``connected_instances`` checked and canonical (ids lower-case); one given twice fails naming both."""
    first = {}
    for index, value in enumerate(values):
        where = "%s[%s]" % (option, index)
        check_not_blank(where, value)
        if is_uuid(value):
            values[index] = value = value.lower()
        else:
            check_name(where, value, "an instance ID (a UUID) or an instance name")
        if value in first:
            raise ValidationError("%s[%s] and %s: each instance must be listed once; %s is given twice" % (option, first[value], where, value))
        first[value] = index
    return values


class VipPorts(Part):
    """The instances sharing a reserved fixed IP as a virtual IP (a part of one module run, ``module``): ``load(record)``
    reads the ports connected now (``connected``, ``{instance_id: VipPort}``) and, with the option, resolves each item
    (an instance id or exact name) to the instance's one port on the network, before any write. Identity: the instance;
    the write: one ``PUT …/connected_devices`` with the whole list of ports, when the set of ports differs."""

    name = option = "connected_instances"

    def __init__(self, module):
        self.module = module
        self.of = None  # the port id of the reserved IP whose connected ports were read
        self.connected = {}
        self.ports = None  # the wanted items, resolved: [{instance_id, port_id, label}]

    def check(self, module):
        if module.params[self.option] is not None:
            check_instances(self.option, module.params[self.option])

    def read_connected(self, ident):
        module = self.module
        found = module.client.get(DEVICES.format(**dict(module.params, id=ident))) or {}
        return self.keep(ident, found.get("results") or [])

    def keep(self, ident, ports):
        self.of, self.connected = ident, dict((port.get("instance_id"), port) for port in ports)
        return ports

    def names(self):
        return sorted(str(port.get("instance_name")) for port in self.connected.values())

    def load(self, record, network_id):
        """Read the ports sharing ``record`` (a VIP), then resolve the items of the option (reads only)."""
        module = self.module
        params = module.params
        self.keep(None if record is None else record["id"], [])
        if record is not None and record.get("is_vip"):
            self.read_connected(record["id"])
        values = params[self.option]
        if values is None or params["state"] == "absent":
            return
        where = KIND.scope.format(**params)
        resolved = {}
        for index, value in enumerate(values):
            option = "%s[%s]" % (self.option, index)
            ident = parent_id(module, "instance", value, option)  # (check mode: one an earlier task creates, ``_parents``)
            if ident in resolved:
                raise ValidationError("%s and %s: both name instance %s; list each instance once" % (resolved[ident]["option"], option, ident))
            held = self.connected.get(ident)
            if held:
                port = held["port_id"]
            else:  # an instance or network not built yet (check mode): its port is not known, the instance stands for it
                port = ident if assumed(ident) or assumed(network_id) else self.port_of(ident, value, network_id, option, where)
            resolved[ident] = {"instance_id": ident, "port_id": port, "label": held["instance_name"] if held else value, "option": option}
        self.ports = list(resolved.values())

    def port_of(self, ident, value, network_id, option, where):
        """The one port instance ``ident`` has on the network (its interfaces), else ``Refused`` naming the item."""
        module = self.module
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

    def wanted(self, module):
        if module.params[self.option] is None or module.params["state"] == "absent" or self.ports is None:
            return None
        return self.ports

    def held(self, record):
        if record is None or record["id"] != self.of:
            return {}
        return dict((ident, {"instance_id": ident, "port_id": port.get("port_id"), "label": port.get("instance_name")})
                    for ident, port in self.connected.items())

    def shown(self, items):
        return sorted(str(item["label"]) for item in items)

    def wanted_view(self, wanted, record):
        return self.shown(wanted)

    def plan(self, record, wanted, params):
        held = self.held(record)
        ports = [item["port_id"] for item in wanted]
        if set(ports) == set(item["port_id"] for item in held.values()):
            return []
        listed = set(item["instance_id"] for item in wanted)
        said = {"connected_instances.added": [item["label"] for item in wanted if item["instance_id"] not in held],
                "connected_instances.removed": [item["label"] for ident, item in held.items() if ident not in listed]}
        module, ident = self.module, record["id"]

        def prepare():  # the reserved IP unlocked (a PUT while its task runs is refused)
            if module.lock and (module.record or {}).get(module.lock):
                module.record = module.wait_unlocked(module.record)

        def then(accepted, value):
            self.keep(ident, ((value[0] or {}).get("results") or []) if accepted else value)
            module.record = module.read(ident)
        return [Write("attach", "PUT", DEVICES.format(**dict(params, id=ident)), {"port_ids": ports}, locked=record, said=said,
                      prepare=prepare, then=then, reread=lambda: self.read_connected(ident),
                      done=lambda found: set(port.get("port_id") for port in found) == set(ports))]
