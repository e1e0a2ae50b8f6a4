# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""New-instance network interfaces, shared by quota_check, price_preview, instance and baremetal_server.

This module is internal to the collection: its interface may change at any time.

One definition of the published ``NewVmInterfaceSerializersPydantic`` (docs/api_reference.md section 3): the
argument spec, the validation (which runs before any request) and the request body. The item is a
``oneOf`` chosen by ``type``; ``FIELDS`` says which fields each type has and which it requires. A
field given for a type without it, or missing where its type requires it, fails validation naming
the option, e.g. ``interfaces[1].ip_family``. Only the fields the user gave are sent.

``instance`` takes its parents by name too (``named``): ``network`` and ``subnet`` (an id or an exact name, for
``network_id`` and ``subnet_id``; not both forms), and a ``reserved_fixed_ip`` interface takes ``ip_address`` +
``network`` as well as ``port_id``. ``resolve_interfaces`` turns them into ids before any write (``_parents``: in
check mode a parent not built yet is assumed).
"""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError, check_length, check_uuid, checked_address, strip_none
from ansible_collections.gcore.platform.plugins.module_utils._parents import check_in_subnet, parent_id, reserved_port

INTERFACE_TYPES = ("external", "subnet", "any_subnet", "reserved_fixed_ip")
IP_FAMILIES = ("ipv4", "ipv6", "dual")
FLOATING_IP_SOURCES = ("new", "existing")
INTERFACE_NAME_MAX = 37

# type -> (fields it has, fields it requires); ``type`` itself is always sent.
FIELDS = {
    "external": (("interface_name", "ip_family", "security_groups"), ()),
    "subnet": (("interface_name", "network_id", "subnet_id", "floating_ip", "security_groups"), ("network_id", "subnet_id")),
    "any_subnet": (("interface_name", "network_id", "ip_address", "ip_family", "floating_ip", "security_groups"), ("network_id",)),
    "reserved_fixed_ip": (("interface_name", "port_id", "floating_ip", "security_groups"), ("port_id",)),
}

FLOATING_IP_SPEC = dict(
    source=dict(type="str", required=True, choices=list(FLOATING_IP_SOURCES)),
    existing_floating_id=dict(type="str"),
)

INTERFACE_SPEC = dict(
    type=dict(type="str", default="external", choices=list(INTERFACE_TYPES)),
    interface_name=dict(type="str"),
    ip_family=dict(type="str", choices=list(IP_FAMILIES)),
    network_id=dict(type="str"),
    subnet_id=dict(type="str"),
    port_id=dict(type="str"),
    ip_address=dict(type="str"),
    floating_ip=dict(type="dict", options=FLOATING_IP_SPEC),
    security_groups=dict(type="list", elements="dict", options=dict(id=dict(type="str", required=True))),
)


# By name (``named``): the field each names, and the reserved fixed IP's other identity (ip_address + network).
NAMES = {"network": "network_id", "subnet": "subnet_id"}
NAMED_SPEC = dict(INTERFACE_SPEC, network=dict(type="str"), subnet=dict(type="str"))
# quota_check's: a bare metal server's interfaces as baremetal_server takes them (its trunk ``port_group`` too).
CHECKED_SPEC = dict(NAMED_SPEC, port_group=dict(type="int"))


def interfaces_option(required=False, named=False, trunks=False):
    """The ``interfaces`` entry of a module's argument spec (``named``: with ``network`` and ``subnet``; ``trunks``: and
    ``port_group``)."""
    return dict(type="list", elements="dict", required=required, options=CHECKED_SPEC if trunks else NAMED_SPEC if named else INTERFACE_SPEC)


def _given(value):
    return value is not None


def validate_floating_ip(option, value):
    """``{source: new}`` or ``{source: existing, existing_floating_id: uuid}``."""
    if value is None:
        return
    floating_id = value.get("existing_floating_id")
    if value.get("source") == "existing":
        if not _given(floating_id):
            raise ValidationError("%s.existing_floating_id: required when source is existing" % option)
        check_uuid("%s.existing_floating_id" % option, floating_id)
    elif _given(floating_id):
        raise ValidationError("%s.existing_floating_id: only allowed when source is existing (source is %s)"
                              % (option, value.get("source")))


def _by_name(name, item):
    """A named interface as the checks of ``FIELDS`` see it: ``network``/``subnet`` stand for their ids (both forms
    given fail); a reserved fixed IP found by ``ip_address`` + ``network`` stands for its ``port_id``."""
    for field, ident in NAMES.items():
        if _given(item.get(field)) and _given(item.get(ident)):
            raise ValidationError("%s: %s and %s are mutually exclusive (give the id or the name)" % (name, ident, field))
    seen = dict((field, value) for field, value in item.items() if field not in NAMES)
    seen.update((ident, item[field]) for field, ident in NAMES.items() if _given(item.get(field)))
    if (item.get("type") or "external") == "reserved_fixed_ip" and not _given(item.get("port_id")):
        if _given(item.get("ip_address")) != (_given(item.get("network")) or _given(item.get("network_id"))):
            raise ValidationError("%s: a reserved fixed IP is found by port_id, or by ip_address with network (give both)" % name)
        if _given(item.get("ip_address")):
            seen = dict(seen, port_id="(ip_address on network)", ip_address=None, network_id=None)
    elif (item.get("type") or "external") == "reserved_fixed_ip" and _given(item.get("ip_address")):
        raise ValidationError("%s: port_id and ip_address are mutually exclusive (ip_address with network finds the reserved "
                              "fixed IP; port_id names it)" % name)
    return seen


def validate_interfaces(option, interfaces, at_least_one=False, named=False):
    """Check every interface against its type; raise ValidationError naming ``option[index].field`` (``named``: the
    fields by name stand for their ids)."""
    if interfaces is None:
        if at_least_one:
            raise ValidationError("%s: required, at least one interface" % option)
        return
    if at_least_one and not interfaces:
        raise ValidationError("%s: at least one interface is required" % option)
    for index, item in enumerate(interfaces):
        name = "%s[%d]" % (option, index)
        kind = item.get("type") or "external"
        if named:
            original, item = item, _by_name(name, item)
        allowed, required = FIELDS[kind]
        for field in INTERFACE_SPEC:
            if field == "type" or not _given(item.get(field)) or field in allowed:
                continue
            having = sorted(other for other, (fields, _req) in FIELDS.items() if field in fields)
            given = next((option for option, ident in NAMES.items() if named and ident == field and _given(original.get(option))), field)
            raise ValidationError("%s.%s: not allowed for type %s (only for type %s)" % (name, given, kind, " or ".join(having)))
        for field in required:
            if not _given(item.get(field)) or item.get(field) == "":
                raise ValidationError("%s.%s: required for type %s" % (name, field, kind))
        check_length("%s.interface_name" % name, item.get("interface_name"), 0, INTERFACE_NAME_MAX)
        if named:
            item = original
        check_uuid("%s.network_id" % name, item.get("network_id"))
        check_uuid("%s.subnet_id" % name, item.get("subnet_id"))
        checked_address("%s.ip_address" % name, item.get("ip_address"))
        validate_floating_ip("%s.floating_ip" % name, item.get("floating_ip"))
        for group_index, group in enumerate(item.get("security_groups") or []):
            check_uuid("%s.security_groups[%d].id" % (name, group_index), group.get("id"))


def interfaces_body(interfaces):
    """The request's ``interfaces``: each item with its ``type`` and only the fields given."""
    if interfaces is None:
        return None
    return [dict(strip_none(item), type=item.get("type") or "external") for item in interfaces]


def resolve_interfaces(module, option, interfaces, addresses=True):
    """The interfaces with the parents they name by name as ids (``_parents.parent_id``: each before any write; in check
    mode one not built yet is assumed): ``network``, ``subnet`` (within the interface's network), and a reserved fixed
    IP by ``ip_address`` + ``network`` (its ``port_id``); with ``addresses``, an ``any_subnet`` address checked against
    its network's subnets. Returns new dicts; the ones given are kept for the diff."""
    resolved = []
    for index, given in enumerate(interfaces or []):
        where = "%s[%d]" % (option, index)
        item = dict((field, value) for field, value in given.items() if field not in NAMES)
        if _given(given.get("network")):
            item["network_id"] = parent_id(module, "network", given["network"], where + ".network")
        if _given(given.get("subnet")):
            within = {"network_id": item["network_id"]} if _given(item.get("network_id")) else None
            item["subnet_id"] = parent_id(module, "subnet", given["subnet"], where + ".subnet", query=within)
        if addresses and item.get("type") == "any_subnet" and _given(item.get("ip_address")) and _given(item.get("network_id")):
            check_in_subnet(module, item["network_id"], item["ip_address"], where + ".ip_address")
        if item.get("type") == "reserved_fixed_ip" and not _given(item.get("port_id")):
            item["port_id"] = reserved_port(module, item.pop("network_id"), item.pop("ip_address"), where + ".ip_address")
        resolved.append(item)
    return resolved
