# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""New-instance network interfaces, shared by quota_check and price_preview.

This module is internal to the collection: its interface may change at any time.

One definition of the published ``NewVmInterfaceSerializersPydantic`` (docs/api_reference.md section 3): the
argument spec, the validation (which runs before any request) and the request body. The item is a
``oneOf`` chosen by ``type``; ``FIELDS`` says which fields each type has and which it requires. A
field given for a type without it, or missing where its type requires it, fails validation naming
the option, e.g. ``interfaces[1].ip_family``. Only the fields the user gave are sent.
"""

from __future__ import annotations

import ipaddress

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError, check_length, check_uuid, strip_none

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


def interfaces_option(required=False):
    """The ``interfaces`` entry of a module's argument spec."""
    return dict(type="list", elements="dict", required=required, options=INTERFACE_SPEC)


def floating_ip_option():
    """The ``floating_ip`` entry of an argument spec (load balancer quota check)."""
    return dict(type="dict", options=FLOATING_IP_SPEC)


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


def validate_interfaces(option, interfaces, at_least_one=False):
    """Check every interface against its type; raise ValidationError naming ``option[index].field``."""
    if interfaces is None:
        if at_least_one:
            raise ValidationError("%s: required, at least one interface" % option)
        return
    if at_least_one and not interfaces:
        raise ValidationError("%s: at least one interface is required" % option)
    for index, item in enumerate(interfaces):
        name = "%s[%d]" % (option, index)
        kind = item.get("type") or "external"
        allowed, required = FIELDS[kind]
        for field in INTERFACE_SPEC:
            if field == "type" or not _given(item.get(field)) or field in allowed:
                continue
            having = sorted(other for other, (fields, _req) in FIELDS.items() if field in fields)
            raise ValidationError("%s.%s: not allowed for type %s (only for type %s)" % (name, field, kind, " or ".join(having)))
        for field in required:
            if not _given(item.get(field)) or item.get(field) == "":
                raise ValidationError("%s.%s: required for type %s" % (name, field, kind))
        check_length("%s.interface_name" % name, item.get("interface_name"), 0, INTERFACE_NAME_MAX)
        check_uuid("%s.network_id" % name, item.get("network_id"))
        check_uuid("%s.subnet_id" % name, item.get("subnet_id"))
        if _given(item.get("ip_address")):
            try:
                ipaddress.ip_address(item["ip_address"])
            except ValueError:
                raise ValidationError("%s.ip_address: %r is not an IPv4 or IPv6 address" % (name, item["ip_address"]))
        validate_floating_ip("%s.floating_ip" % name, item.get("floating_ip"))
        for group_index, group in enumerate(item.get("security_groups") or []):
            check_uuid("%s.security_groups[%d].id" % (name, group_index), group.get("id"))


def interfaces_body(interfaces):
    """The request's ``interfaces``: each item with its ``type`` and only the fields given."""
    if interfaces is None:
        return None
    return [dict(strip_none(item), type=item.get("type") or "external") for item in interfaces]
