# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""Floating IPs have no name: where the ``floating_ip`` module finds one (docs/api_reference.md section 15.4).

This module is internal to the collection: its interface may change at any time.

A floating IP is found by its id, by its address (every page of the listing, compared as ``ipaddress`` prints it), or
by the port it is assigned to: the ``port_id`` given, or an instance's port (the instance by id or exact name, its
port read from ``GET /cloud/v1/instances/{p}/{r}/{id}/interfaces``: the first interface, or the one holding
``fixed_ip_address``).

``OtherFloatingIps``: ``state: absent`` by the port deletes every floating IP assigned to it. The one-resource flow
deletes one record; the others on the port are planned as its before-delete attachment: one DELETE each (each its own
task), sent before the flow's own DELETE.
"""

from __future__ import annotations

import ipaddress

from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, canonical_address
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS, find_named
from ansible_collections.gcore.platform.plugins.module_utils._parents import interfaces_of
from ansible_collections.gcore.platform.plugins.module_utils._parts import Part
from ansible_collections.gcore.platform.plugins.module_utils._writes import Write


def on_port(records, port_id, fixed_ip_address=None):
    """The floating IPs assigned to ``port_id`` (and to ``fixed_ip_address`` when given)."""
    return [record for record in records if record.get("port_id") == port_id
            and (fixed_ip_address is None or canonical_address(record.get("fixed_ip_address")) == fixed_ip_address)]


def with_address(records, address):
    return [record for record in records if canonical_address(record.get("floating_ip_address")) == address]


class OtherFloatingIps(Part):
    """The floating IPs on the port besides the one the flow deletes: planned like an attachment detached before the
    delete (``before_delete``), one ``DELETE`` each. Each write is about its own floating IP (``module``: the floating_ip
    module, for its paths and reads): sent once that one is unlocked and, after an ambiguous failure, read again to tell
    whether it went. No option: never compared or shown as a member (the module's ``shown`` lists the addresses)."""

    name = "floating_ips"
    before_delete = True

    def __init__(self, module, records):
        self.module = module
        self.records = list(records)

    def plan(self, _record, _wanted, _params):
        return [self.deleting(other) for other in self.records]

    def deleting(self, other):
        module, ident = self.module, other["id"]

        def prepare():
            if other.get(module.lock):
                module.wait_unlocked(other)
        return Write("delete", "DELETE", module.path("item", ident), names=[other.get("floating_ip_address")], locked=other,
                     reread=lambda: module.settled(module.read(ident)), done=lambda found: found is None, prepare=prepare)


def addresses(records):
    """The floating addresses of ``records``, sorted as ``ipaddress`` orders them."""
    found = [ipaddress.ip_address(record["floating_ip_address"]) for record in records]
    return [str(address) for address in sorted(found, key=lambda address: (address.version, address))]


def instance_port(client, params):
    """``(instance id, port id)`` of the instance ``params["instance"]`` (an id, or an exact name over every page of the
    listing); None when there is no such instance. Several instances with the name, an instance without interfaces, or
    without ``fixed_ip_address``, raise ``Refused``."""
    scope = dict(project_id=params["project_id"], region_id=params["region_id"])
    wanted = params["instance"]
    where = "project %(project_id)s, region %(region_id)s" % scope
    ident = find_named(client, KINDS["instance"], scope, wanted, "instance", required=False)[0]
    if ident is None:
        return None
    interfaces = interfaces_of(client, scope, ident)
    if interfaces is None:
        return None
    fixed = params["fixed_ip_address"]
    if fixed is not None:
        interfaces = [interface for interface in interfaces
                      if any(canonical_address(item.get("ip_address")) == fixed for item in interface.get("ip_assignments") or [])]
        if not interfaces:
            raise Refused("fixed_ip_address: instance %s of %s has no interface with the address %s" % (wanted, where, fixed))
    if not interfaces:
        raise Refused("instance: instance %s of %s has no network interface to assign a floating IP to" % (wanted, where))
    return ident, interfaces[0]["port_id"]
