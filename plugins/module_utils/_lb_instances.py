# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""Load balancer pool members named by their instance (``members[].instance``: an id or an exact name): the
member's address is the instance's fixed address in the member's ``subnet_id``, else in the load
balancer's VIP subnet (``vip_subnet_id``), else its one private address; resolved before any write. In check mode an
instance name that matches nothing is one an earlier task creates (``_parents.assume``): its address is not known yet.

This module is internal to the collection: its interface may change at any time.
"""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.module_utils._addresses import address_lists
from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, ValidationError, canonical_ip, is_uuid
from ansible_collections.gcore.platform.plugins.module_utils._cloud import PAGE_SIZE, check_name
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS
from ansible_collections.gcore.platform.plugins.module_utils._parents import assume

KIND = KINDS["instance"]


def check_member_instance(where, member):
    """``address`` or ``instance``, exactly one of them (before any request)."""
    if (member.get("address") is None) == (member.get("instance") is None):
        raise ValidationError("%s: give exactly one of address and instance (the instance's address is the member's)" % where)
    if member.get("instance") is not None and not is_uuid(member["instance"]):
        check_name(where + ".instance", member["instance"], "an instance ID (a UUID) or an exact instance name")


def _fixed(record):
    """``[(subnet_id, address)]`` of the instance's fixed addresses."""
    assigned = [(item.get("subnet_id"), item.get("ip_address")) for item in record.get("fixed_ip_assignments") or []]
    return assigned or [(entry.get("subnet_id"), entry.get("addr")) for entries in (record.get("addresses") or {}).values()
                        for entry in entries or [] if entry.get("type") == "fixed"]


def member_address(where, record, subnet):
    """The instance's address for a member in ``subnet`` (None: its one private address)."""
    fixed = _fixed(record)
    if subnet is not None:
        found = [address for subnet_id, address in fixed if subnet_id == subnet]
        what = "in subnet %s" % subnet
    else:
        private = set(address_lists(record.get("addresses"))["private_ipv4"])
        found = [address for _subnet, address in fixed if address in private]
        what = "private (give the member's subnet_id, or the load balancer's vip_subnet_id, to choose)"
    found = list(dict.fromkeys(found))
    if len(found) != 1:
        raise Refused("%s.instance: instance %s (%s) has %s addresses %s%s; a member needs exactly one (nothing was sent)" % (
            where, record.get("id"), record.get("name"), len(found), what, " (%s)" % ", ".join(found) if found else ""))
    return canonical_ip(found[0])


def resolve_member_instances(module, listeners):
    """Every member given by ``instance`` gets its ``address`` (and ``instance_id``), before any write: ids read one by
    one, names from one listing of every page, matched exactly (none or several fail naming the member; in check mode a
    name that matches none is assumed built by an earlier task, and stands for the member's address and instance_id)."""
    client, params = module.client, module.params
    named = [("listeners[%s].pool.members[%s]" % (index, number), member) for index, item in enumerate(listeners or [])
             for number, member in enumerate((item.get("pool") or {}).get("members") or []) if member.get("instance") is not None]
    listing, assumed = None, {}
    for where, member in named:
        value = member["instance"]
        if is_uuid(value):
            record = client.get_or_none(KIND.paths["item"].format(**dict(params, id=value.lower())))
            found = [record] if record is not None else []
        else:
            if listing is None:
                listing = list(client.paginate(KIND.paths["list"].format(**params), page_size=PAGE_SIZE))
            found = [record for record in listing if record.get("name") == value]
        if not found and module.check_mode and not is_uuid(value):
            if value not in assumed:  # one warning for each instance assumed
                assumed[value] = assume(module, KIND, value, where + ".instance")
            member["address"], member["instance_id"] = assumed[value], member["instance_id"] or assumed[value]
            continue
        if len(found) != 1:
            raise Refused("%s.instance: %s instances of %s %s %r%s (nothing was sent)" % (
                where, len(found), KIND.scope.format(**params), "have the id" if is_uuid(value) else "are named", value,
                " (ids %s)" % ", ".join(record["id"] for record in found) if found else ""))
        member["address"] = member_address(where, found[0], member["subnet_id"] or params.get("vip_subnet_id"))
        member["instance_id"] = member["instance_id"] or found[0]["id"]
    for index, item in enumerate(listeners or []):
        seen = {}
        for number, member in enumerate((item.get("pool") or {}).get("members") or []):
            key = "%s:%s" % (member["address"], member["protocol_port"])
            if key in seen and named:
                raise Refused("listeners[%s].pool.members[%s] and [%s]: both are %s; each member must have its own address and "
                              "protocol_port (nothing was sent)" % (index, seen[key], number, key))
            seen.setdefault(key, number)
