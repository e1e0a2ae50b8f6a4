# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""Networks and subnets: option checks, canonical forms and the members the ``network`` and ``subnet`` modules compare
(docs/api_reference.md sections 15.1 and 15.2).

This module is internal to the collection: its interface may change at any time.

Addresses are compared in the form Python's ``ipaddress`` prints; ``dns_nameservers`` is an ordered list, ``host_routes``
a set of (destination, nexthop) pairs. A create-only option that differs from the record fails before any write
(``_members.create_only``), naming the option, both values, and what to do.
"""

from __future__ import annotations

import ipaddress

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError, canonical_ip


CIDR = "is not a valid CIDR"  # what a router's and a security group rule's messages say of text that is no network


def strict_network(option, value, invalid="is not a network in CIDR notation"):
    """A network address in strict CIDR notation (IPv4 or IPv6), as ``ipaddress`` prints it (``invalid``: what the
    message says of text that is no network)."""
    try:
        return ipaddress.ip_network(value, strict=True)
    except ValueError as exc:
        try:
            loose = ipaddress.ip_network(value, strict=False)
        except ValueError:
            raise ValidationError("%s: %r %s (%s)" % (option, value, invalid, exc))
        raise ValidationError("%s: %r has host bits set; use the network address %s" % (option, value, loose))


def address(option, value):
    try:
        return canonical_ip(value)
    except ValueError:
        raise ValidationError("%s: %r is not a valid IPv4 or IPv6 address" % (option, value))


def check_gateway(option, value, network, where):
    """``value`` (canonical) is a host address of ``network`` (the subnet's cidr, ``where`` saying whose)."""
    host = ipaddress.ip_address(value)
    if host not in network or host == network.network_address or (
            network.version == 4 and network.prefixlen < 31 and host == network.broadcast_address):
        raise ValidationError("%s: %s is not a host address of %s %s" % (option, value, where, network))


def check_nameservers(option, values):
    """Each an IP address, each once; returned canonical, in the order given."""
    seen = {}
    result = []
    for index, value in enumerate(values):
        canonical = address("%s[%d]" % (option, index), value)
        if canonical in seen:
            raise ValidationError("%s[%d]: %s is listed twice (also %s[%d])" % (option, index, canonical, option, seen[canonical]))
        seen[canonical] = index
        result.append(canonical)
    return result


def check_routes(option, routes, invalid=CIDR):
    """Each route (a router's, a subnet's host route) ``{destination: strict CIDR, nexthop: IP}`` of one IP version."""
    for index, route in enumerate(routes or []):
        where = "%s[%d]" % (option, index)
        destination = strict_network(where + ".destination", route["destination"], invalid)
        try:
            nexthop = ipaddress.ip_address(route["nexthop"])
        except ValueError:
            raise ValidationError("%s.nexthop: %r is not a valid IP address" % (where, route["nexthop"]))
        if destination.version != nexthop.version:
            raise ValidationError("%s.nexthop: %s is an IPv%s address but the destination %s is IPv%s"
                                  % (where, nexthop, nexthop.version, destination, destination.version))


def canonical_routes(routes):
    """Routes as a sorted list of unique canonical ``{destination, nexthop}`` dicts (as ``ipaddress`` prints them, an
    IPv4-mapped nexthop with its dotted tail): two lists are the same set of routes exactly when these are equal."""
    pairs = set((str(ipaddress.ip_network(route["destination"], strict=False)), canonical_ip(route["nexthop"])) for route in routes or [])
    ordered = sorted(pairs, key=lambda pair: (ipaddress.ip_network(pair[0]).version, pair))
    return [{"destination": destination, "nexthop": nexthop} for destination, nexthop in ordered]


def canonical_cidr(value):
    try:
        return str(ipaddress.ip_network(value, strict=False)) if value else value
    except ValueError:
        return value


def canonical_addresses(values):
    result = []
    for value in values or []:
        try:
            result.append(canonical_ip(value))
        except ValueError:
            result.append(value)
    return result


def canonical_gateway(value):
    return canonical_addresses([value])[0] if value else None
