# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""Router comparison and lookup helpers for the router module.

This module is internal to the collection: its interface may change at any time.

The router's PATCH body and its GET record do not map one to one (docs/api_reference.md section 2.9), so the
module compares canonical views: routes as a set of (destination, nexthop) pairs in the forms
Python's ``ipaddress`` prints (IPv6 compressed, lower case), and the gateway by ``network_id`` and
``enable_snat`` only (GET has no ``type``; ``external_fixed_ips`` are assigned by the service).
Interfaces are the set of subnets the router is attached to (docs/api_reference.md section 12.3), read from
``interfaces[].ip_assignments[]`` and changed through attach and detach, never through the PATCH.
"""

from __future__ import annotations

import ipaddress
import uuid

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError, canonical_ip, check_uuid, require
from ansible_collections.gcore.platform.plugins.module_utils._attachments import Attachments
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._networks import CIDR, address, strict_network
from ansible_collections.gcore.platform.plugins.module_utils._parents import assumed, parent_id


def route_problem(index, route):
    """The validation message for one route as the user wrote it, or None when it is valid."""
    option = "routes[%s]" % index
    try:
        destination = strict_network(option + ".destination", route["destination"], CIDR)
    except ValidationError as exc:
        return str(exc)
    try:
        nexthop = ipaddress.ip_address(route["nexthop"])
    except ValueError:
        return "%s.nexthop: %r is not a valid IP address" % (option, route["nexthop"])
    if destination.version != nexthop.version:
        return "%s.nexthop: %s is an IPv%s address but the destination %s is IPv%s" % (
            option, nexthop, nexthop.version, destination, destination.version)
    return None


def canonical_route(route):
    """(destination, nexthop) in canonical text form."""
    return (str(ipaddress.ip_network(route["destination"], strict=False)), canonical_ip(route["nexthop"]))


def canonical_routes(routes):
    """Routes as a sorted list of unique canonical ``{destination, nexthop}`` dicts.

    Two lists are the same set of routes exactly when their canonical forms are equal.
    """
    pairs = set(canonical_route(route) for route in routes or [])
    ordered = sorted(pairs, key=lambda pair: (ipaddress.ip_network(pair[0]).version, pair))
    return [{"destination": destination, "nexthop": nexthop} for destination, nexthop in ordered]


def gateway_view(gateway):
    """The managed members of a gateway as GET returns it: ``{network_id, enable_snat}`` or None."""
    if not gateway:
        return None
    snat = gateway.get("enable_snat")
    return {"network_id": gateway.get("network_id"), "enable_snat": True if snat is None else bool(snat)}


def desired_gateway(wanted, current):
    """The gateway the user asks for, in the view shape, given the router's current gateway view.

    ``wanted`` is the module option (``type``, ``network_id``, ``enable_snat``). ``type: default``
    lets the platform choose the network: any existing gateway satisfies it (``enable_snat`` is
    compared only when set), and with no gateway the network is unknown (``network_id`` None).
    """
    if wanted.get("type") == "none":
        return None  # no gateway
    snat = True if wanted.get("enable_snat") is None else wanted["enable_snat"]
    if wanted.get("type") == "default":
        if current and wanted.get("enable_snat") is None:
            snat = current["enable_snat"]  # not set: any existing gateway satisfies type default
        return {"network_id": current["network_id"] if current else None, "enable_snat": snat}
    return {"network_id": wanted.get("network_id"), "enable_snat": snat}


class GatewayError(ValidationError, ValueError):
    """``type: default`` asked of a router without a gateway (the API accepts that type only on create)."""


def _wanted_gateway(value, record):
    held = gateway_view(record.get("external_gateway_info")) if record else None
    if record is not None and value.get("type") == "default" and held is None:
        raise GatewayError("external_gateway_info.type: default is accepted only when a router is created; router %s "
                           "has no gateway, so give type manual with a network_id" % record.get("id"))
    return desired_gateway(value, held)


def interface_items(record):
    """The subnets the router is attached to, as ``{subnet_id, ip_address}`` items (one per IP assignment; UUIDs lower-case)."""
    return [{"subnet_id": str(assignment.get("subnet_id") or "").lower(), "ip_address": assignment.get("ip_address")}
            for interface in (record or {}).get("interfaces") or []
            for assignment in interface.get("ip_assignments") or []]


def check_interface(where, item):
    """Validate one item of the ``interfaces`` option; return it canonical (lower-case UUID, ``ipaddress`` form). An item
    naming its subnet by ``subnet`` (and ``network``) keeps them, its ``subnet_id`` None until the module resolves it."""
    subnet, network = item.get("subnet"), item.get("network")
    require(item["subnet_id"] is None or subnet is None, where + ".subnet_id", "subnet_id and subnet are mutually exclusive (give the id or the name)")
    require(item["subnet_id"] is not None or subnet is not None, where + ".subnet_id", "subnet_id or subnet is required")
    require(network is None or subnet is not None, where + ".network", "only with subnet (the network its name is looked up in)")
    if not assumed(item["subnet_id"]):
        check_uuid(where + ".subnet_id", item["subnet_id"])
    ip = item.get("ip_address")
    if ip is not None:
        ip = address(where + ".ip_address", ip)
    if subnet is not None:
        return {"subnet_id": None, "ip_address": ip, "subnet": subnet, "network": network}
    return {"subnet_id": item["subnet_id"] if assumed(item["subnet_id"]) else str(uuid.UUID(item["subnet_id"])), "ip_address": ip}


def resolve_interfaces(module):
    """The subnets named by ``subnet`` (within ``network`` when given) as their ids, before any write (``_parents``)."""
    items = module.params["interfaces"]
    if not any(item.get("subnet") is not None for item in items or []):
        return
    for index, item in enumerate(items):
        if item.get("subnet") is not None:
            where = "interfaces[%d]." % index
            network = parent_id(module, "network", item["network"], where + "network")
            item["subnet_id"] = parent_id(module, "subnet", item["subnet"], where + "subnet", query={"network_id": network} if network else None)
    items[:] = INTERFACES.canonical([{"subnet_id": item["subnet_id"], "ip_address": item["ip_address"]} for item in items])


def same_interface(desired, current):
    """An attached subnet satisfies a listed one; its address counts only when the item gives one."""
    if desired["ip_address"] is None:
        return True
    try:
        return ipaddress.ip_address(current.get("ip_address") or "") == ipaddress.ip_address(desired["ip_address"])
    except ValueError:
        return False


# The router's subnets: attached and detached one by one; on create, those without an address go in the POST body.
INTERFACES = Attachments(
    "interfaces", key="subnet_id", items=interface_items, same=same_interface, check_item=check_interface,
    attach=("POST", KINDS["router"].path("/{id}/attach")),
    detach=("POST", KINDS["router"].path("/{id}/detach")),
    attach_body=lambda item: dict((key, value) for key, value in item.items() if value is not None),
)


def create_interfaces(items):
    """``(the interfaces of the create body, the indices of those attached once the router exists)``: a subnet with an
    ``ip_address`` cannot be in the create body."""
    return ([{"type": "subnet", "subnet_id": item["subnet_id"]} for item in items if item["ip_address"] is None],
            [index for index, item in enumerate(items) if item["ip_address"] is not None])


# The members the router module manages: how GET shows them, what the options ask for, in one view shape.
MEMBERS = (
    Member("name"),
    Member("routes", read=lambda record: canonical_routes(record.get("routes")),
           want=lambda value, record: canonical_routes(value), created=[]),
    Member("external_gateway_info", read=lambda record: gateway_view(record.get("external_gateway_info")),
           want=_wanted_gateway, created=None),
)
