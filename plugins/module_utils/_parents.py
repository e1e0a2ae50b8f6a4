# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""Parents named by name: the network of a subnet, the network and subnet of an interface, the group a rule names, the
instance a volume or a floating IP goes to (issue 35); the active image a name gives (``active_images``); a reserved
fixed IP, which has no name, by its address on its network (``with_address``, docs/api_reference.md section 16.6).

This module is internal to the collection: its interface may change at any time.

``parent_id(module, kind, value, option)`` turns an option's value into the id of the resource it names, before the
first write: an id (a UUID) as given, or an exact name over every page of one listing (``_kinds.find_named``; each
name is looked up once per run). A name that matches several fails listing their ids; one that matches nothing fails
naming the option, but in check mode: a preview of a stack that does not exist yet assumes an earlier task of the
play creates that parent. The module then warns, naming the parent, and goes on with an ``Assumed`` id in its place:
nothing can be found under it (a resource under a parent not built yet does not exist either), and the create it
previews shows it. With ``state: absent`` a parent that is not there (check mode or not) means nothing under it to
delete: an ``Assumed`` id, no warning.
"""

from __future__ import annotations

import ipaddress
import re

from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, ValidationError, canonical_ip, check_name, is_uuid
from ansible_collections.gcore.platform.plugins.module_utils._client import ApiError
from ansible_collections.gcore.platform.plugins.module_utils._cloud import PAGE_SIZE, Filter
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS, find_named, listed

RESERVED_IPS = KINDS["reserved_fixed_ip"].paths["list"]
INTERFACES = KINDS["instance"].path("/{id}/interfaces")


class Assumed(str):
    """The id of a parent named but not built yet (check mode only): it reads ``(network 'app-net', not built yet)``."""

    not_built = True  # a listing filtered by it finds nothing (``_cloud.CloudResource.listing`` sends none)

    def __new__(cls, noun, name):
        return super().__new__(cls, "(%s %r, not built yet)" % (noun, name))


def assumed(value):
    """Whether ``value`` (an id) is a parent that check mode assumes an earlier task creates."""
    return isinstance(value, Assumed)


def id_or_name(option, value, noun):
    """``value`` naming a ``noun`` before it is looked up: an id (a UUID, returned lower-case) or a name (checked, as
    ``_checks.check_name`` checks one); None stays None."""
    if value is None or is_uuid(value):
        return value and value.lower()
    check_name(option, value, "%s ID (a UUID) or %s name" % ((("an " if noun[0] in "aeiou" else "a ") + noun,) * 2))
    return value


def parent_filter(option, kind, query, matches):
    """An info module's filter (``_cloud.Filter``) naming a ``kind`` (a ``_kinds.KINDS`` key) by id or exact name: checked
    as ``id_or_name``, turned into its id by one listing before the module's (none of that name: nothing matches)."""
    return Filter(option, dict(type="str"), query, matches, check=lambda option, value: id_or_name(option, value, KINDS[kind].noun),
                  resolve=lambda module, value: find_named(module.client, KINDS[kind], module.params, value, option, required=False)[0])


def parent_id(module, kind, value, option, query=None):
    """The id of the ``kind`` (a ``_kinds.KINDS`` key) that ``option``'s ``value`` names (see the module docstring);
    ``query``: more filters of the listing (a subnet within a network). None stays None."""
    if value is None or assumed(value):
        return value
    if query and any(assumed(filtered) for filtered in query.values()):  # under a parent not built yet: not built either
        return assume(module, KINDS[kind], value, option)
    cache = module.named_ids
    key = (kind, value, tuple(sorted((query or {}).items())))
    if key not in cache:
        scope = dict(project_id=module.params["project_id"], region_id=module.params.get("region_id"))
        absent = module.params.get("state") == "absent"  # nothing under a parent that is not there: nothing to delete
        ident = find_named(module.client, KINDS[kind], scope, value, option, required=not (module.check_mode or absent), query=query)[0]
        cache[key] = ident if ident is not None else Assumed(KINDS[kind].noun, value) if absent else assume(module, KINDS[kind], value, option)
    return cache[key]


def assume(module, kind, value, option):
    """An ``Assumed`` id for ``value`` (a name of the ``kind`` that matches nothing yet, in check mode), with the warning."""
    module.module.warn("%s: check mode assumes that an earlier task creates the %s %r for this %s (there is none yet in %s); "
                       "without --check the task fails unless it exists" % (option, kind.noun, value, module.noun, kind.scope.format(
                           project_id=module.params["project_id"], region_id=module.params.get("region_id"))))
    return Assumed(kind.noun, value)


def check_one_of(params, where, pairs):
    """``pairs``: ``(id option, name option)``; both given fail naming them."""
    for ident, name in pairs:
        if params.get(ident) is not None and params.get(name) is not None:
            raise ValidationError("%s%s and %s are mutually exclusive (give the id or the name)" % (where, ident, name))


def addresses_of(record):
    """The addresses a reserved fixed IP holds, canonical: one is identified by its address on its network."""
    return [canonical_ip(value) for value in (record.get("fixed_ip_address"), record.get("fixed_ipv6_address")) if value]


def address_query(address):
    """The reserved fixed IP listing's ``ip_address`` filter for exactly ``address`` (a regular expression, IPv4 only)."""
    return {"ip_address": "^%s$" % re.escape(address)} if ipaddress.ip_address(address).version == 4 else {}


def with_address(records, network_id, address):
    return [record for record in records if record.get("network_id") == network_id and address in addresses_of(record)]


def reserved_port(module, network_id, ip_address, where):
    """The ``port_id`` of the reserved fixed IP holding ``ip_address`` on the network (one listing, every page);
    none fails naming the option (check mode: assumed built by an earlier task)."""
    what, params, address = "%s on network %s" % (ip_address, network_id), module.params, canonical_ip(ip_address)
    found = [] if assumed(network_id) else with_address(module.client.paginate(
        RESERVED_IPS.format(**params), address_query(address), page_size=PAGE_SIZE, total_key="count"), network_id, address)
    if found:
        return found[0]["port_id"]
    if module.check_mode or assumed(network_id):
        module.module.warn("%s: check mode assumes that an earlier task creates the reserved fixed IP %s for this %s (there is "
                           "none yet)" % (where, what, module.noun))
        return Assumed("reserved fixed IP", what)
    raise Refused("%s: no reserved fixed IP holds %s in project %s, region %s (reserve the address first, or give the "
                  "reserved fixed IP's port id; nothing was sent)" % (where, what, params["project_id"], params["region_id"]))


def check_in_subnet(module, network_id, ip_address, where):
    """An ``ip_address`` given for an interface on a network lies in one of its subnets (one listing); else it fails
    naming the address and the subnets (nothing sent). A network not built yet (check mode) is not read."""
    if assumed(network_id):
        return
    listing = listed(module.client, KINDS["subnet"], module.params, {"network_id": network_id})
    subnets = [record for record in listing if record.get("network_id") in (None, network_id)]
    address = ipaddress.ip_address(ip_address)
    if subnets and not any(address in ipaddress.ip_network(record["cidr"], strict=False) for record in subnets if record.get("cidr")):
        raise Refused("%s: %s is outside every subnet of network %s (%s); give an address inside one of them (nothing was sent)"
                      % (where, ip_address, network_id, ", ".join("subnet %s %s" % (record.get("name"), record.get("cidr")) for record in subnets)))


def interfaces_of(client, params, ident):
    """The network interfaces of instance ``ident`` (one read); None when there is no such instance."""
    try:
        return (client.get(INTERFACES.format(**dict(params, id=ident))) or {}).get("results") or []
    except ApiError as exc:
        if exc.status == 404:
            return None
        raise


def resolve_vip(module):
    """A load balancer's virtual IP by name, before its create: ``vip_network`` and ``vip_subnet`` (within the network)
    as their ids, and ``vip_ip_address`` as the port of the reserved fixed IP holding it (sent as ``vip_port_id``, with no
    network)."""
    params = module.params
    if params["vip_network"] is not None:
        params["vip_network_id"] = parent_id(module, "network", params["vip_network"], "vip_network")
    network = params["vip_network_id"]
    if params["vip_subnet"] is not None:
        params["vip_subnet_id"] = parent_id(module, "subnet", params["vip_subnet"], "vip_subnet", query={"network_id": network} if network else None)
    if params["vip_ip_address"] is not None:
        params["vip_port_id"], params["vip_network_id"] = reserved_port(module, network, params["vip_ip_address"], "vip_ip_address"), None


def active_images(client, params, names, option, assume=None):
    """``{name: id}`` of the one ``active`` image each name has, the project's private images included (one listing),
    before any write; none or several fail naming the option (and the ids), a name only deactivated images hold saying
    so. ``assume(name)``: the id to take for a name no image has at all (check mode: built by an earlier task)."""
    kind, resolved = KINDS["image"], {}
    if not names:
        return resolved
    images = client.get(kind.paths["list"].format(**params), kind.list_params).get("results") or []
    for name in dict.fromkeys(names):
        named = [image for image in images if image.get("name") == name]
        found = [image for image in named if image.get("status") == "active"]
        if not named and assume is not None:
            resolved[name] = assume(name)
            continue
        if not found and named:
            raise Refused("%s: the image %r of %s is %s (id %s), not active: name an active image (nothing was sent)" % (
                option, name, kind.scope.format(**params), named[0].get("status"), named[0].get("id")))
        if len(found) != 1:
            raise Refused("%s: %s active images of %s are named %r%s; give image_id instead (nothing was sent)" % (
                option, len(found), kind.scope.format(**params), name, " (ids %s)" % ", ".join(image["id"] for image in found) if found else ""))
        resolved[name] = found[0]["id"]
    return resolved
