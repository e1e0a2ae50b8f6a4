# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""The rules of a security group as a set (docs/api_reference.md section 15.3): their checks, their canonical form,
the member that compares them, and what the v2 create and PATCH bodies carry.

This module is internal to the collection: its interface may change at any time.

A rule's canonical form has every field: ``direction``, ``ethertype``, ``protocol`` (``any`` for every protocol: the
v1 record shows ``null`` or ``any``, the v2 bodies take ``null``), ``port_range_min`` and ``port_range_max`` (one
given alone means both), ``remote_ip_prefix`` (as ``ipaddress`` prints it), ``remote_group_id`` (lower-case) and
``description`` (``""`` is null). Two rules are the same rule when everything but the description is equal; that
identity, as text (``ingress IPv4 tcp 22-22 0.0.0.0/0``), keys the diff. The v2 PATCH replaces the whole rule list,
so an update sends every rule the group keeps.
"""

from __future__ import annotations

import ipaddress

from ansible_collections.gcore.platform.plugins.module_utils._parents import assumed, parent_id
from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError, check_uuid
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._networks import CIDR, strict_network

# SecurityGroupProtocolEnumV2 (the v1 record may also show "any", which the bodies send as null)
PROTOCOLS = ("ah", "dccp", "egp", "esp", "gre", "icmp", "igmp", "ipencap", "ipip", "ipv6-encap", "ipv6-frag",
             "ipv6-icmp", "ipv6-nonxt", "ipv6-opts", "ipv6-route", "ospf", "pgm", "rsvp", "sctp", "tcp", "udp",
             "udplite", "vrrp")
PORT_PROTOCOLS = ("tcp", "udp", "sctp", "dccp", "udplite")
DESCRIPTION_MAX = 255

RULE_OPTIONS = dict(
    direction=dict(type="str", required=True, choices=["ingress", "egress"]),
    ethertype=dict(type="str", choices=["IPv4", "IPv6"], default="IPv4"),
    protocol=dict(type="str"),
    port_range_min=dict(type="int"),
    port_range_max=dict(type="int"),
    remote_ip_prefix=dict(type="str"),
    remote_group_id=dict(type="str"),
    remote_group=dict(type="str"),
    description=dict(type="str"),
)


def check_rule(where, rule):
    """One rule as the user wrote it (``where``: ``rules[0]``), checked; returns its canonical form."""
    protocol = rule.get("protocol")
    if protocol is not None and protocol != "any" and protocol not in PROTOCOLS:
        raise ValidationError("%s.protocol: %r is not a protocol the service knows (any, %s)" % (where, protocol, ", ".join(PROTOCOLS)))
    low, high = rule.get("port_range_min"), rule.get("port_range_max")
    for field, value in (("port_range_min", low), ("port_range_max", high)):
        if value is not None and not 0 <= value <= 65535:
            raise ValidationError("%s.%s: %r is out of range (must be 0 to 65535)" % (where, field, value))
    if (low is not None or high is not None) and protocol not in PORT_PROTOCOLS:
        raise ValidationError("%s.port_range_min/port_range_max: ports are only for the protocols %s, not %s"
                              % (where, ", ".join(PORT_PROTOCOLS), protocol or "any"))
    if low is not None and high is not None and low > high:
        raise ValidationError("%s.port_range_min: %s is above port_range_max %s" % (where, low, high))
    prefix, group = rule.get("remote_ip_prefix"), rule.get("remote_group_id")
    if prefix is not None and group is not None:
        raise ValidationError("%s: remote_ip_prefix and remote_group_id are mutually exclusive (give one or neither)" % where)
    if prefix is not None:
        network, ethertype = strict_network(where + ".remote_ip_prefix", prefix, CIDR), rule.get("ethertype") or "IPv4"
        if "IPv%s" % network.version != ethertype:
            raise ValidationError("%s.remote_ip_prefix: %s is an IPv%s network but the rule's ethertype is %s" % (
                where, network, network.version, ethertype))
    if not assumed(group):
        check_uuid(where + ".remote_group_id", group)
    description = rule.get("description")
    if description is not None:
        if len(description) > DESCRIPTION_MAX:
            raise ValidationError("%s.description: length %s is out of range (must be at most %s)" % (where, len(description), DESCRIPTION_MAX))
        if "\x00" in description:
            raise ValidationError("%s.description: must not hold a NUL character" % where)
    return canonical(rule)


def remote_groups(rules):
    """``{index: name}`` of the rules naming their remote group by ``remote_group`` (taken out of the rule: ``resolve``
    puts the group's id in ``remote_group_id``); a rule with both forms, or with a remote_ip_prefix, fails."""
    named = {}
    for index, rule in enumerate(rules or []):
        name = rule.pop("remote_group", None)
        if name is None:
            continue
        for other in ("remote_group_id", "remote_ip_prefix"):
            if rule.get(other) is not None:
                raise ValidationError("rules[%s]: remote_group and %s are mutually exclusive (give one or neither)" % (index, other))
        check_rule("rules[%s]" % index, rule)  # the rest of it checked before any request
        named[index] = name
    return named


def resolve_remote_groups(module, named):
    """The rules' ``remote_group`` names as the groups' ids (``_parents.parent_id``: before any write; check mode assumes
    one not built yet), then every rule checked and made canonical (a rule listed twice fails)."""
    rules = module.params["rules"]
    for index, name in named.items():
        rules[index]["remote_group_id"] = parent_id(module, "security_group", name, "rules[%s].remote_group" % index)
    rules[:] = check_rules(rules)


def check_rules(rules):
    """Every rule checked (``rules[i].field`` named), in canonical form; a rule listed twice fails naming both indices."""
    checked = [check_rule("rules[%s]" % index, rule) for index, rule in enumerate(rules)]
    first = {}
    for index, rule in enumerate(checked):
        key = label(rule)
        if key in first:
            raise ValidationError("rules[%s] and rules[%s]: the same rule is listed twice (%s)" % (first[key], index, key))
        first[key] = index
    return checked


def canonical(rule):
    """A rule (an option item or a record's rule) in canonical form."""
    protocol = rule.get("protocol") or "any"
    low, high = rule.get("port_range_min"), rule.get("port_range_max")
    if protocol in PORT_PROTOCOLS:
        low, high = (high if low is None else low), (low if high is None else high)
    prefix = rule.get("remote_ip_prefix")
    if prefix is not None:
        try:
            prefix = str(ipaddress.ip_network(prefix, strict=False))
        except ValueError:
            pass  # a record's prefix the module cannot read stays as the service wrote it
    group = rule.get("remote_group_id")
    return {"direction": rule.get("direction"), "ethertype": rule.get("ethertype"), "protocol": protocol,
            "port_range_min": low, "port_range_max": high, "remote_ip_prefix": prefix,
            "remote_group_id": group.lower() if isinstance(group, str) and not assumed(group) else group,
            "description": rule.get("description") or None}


def label(rule):
    """The readable identity of a canonical rule: ``ingress IPv4 tcp 22-22 0.0.0.0/0``."""
    parts = [rule["direction"], rule["ethertype"] or "any-ethertype", rule["protocol"]]
    if rule["port_range_min"] is not None or rule["port_range_max"] is not None:
        parts.append("%s-%s" % (rule["port_range_min"], rule["port_range_max"]))
    if rule["remote_ip_prefix"] is not None:
        parts.append(rule["remote_ip_prefix"])
    if rule["remote_group_id"] is not None:
        parts.append("group " + rule["remote_group_id"])
    return " ".join(str(part) for part in parts)


def held(record):
    """The rules a group record holds, as ``{label: canonical rule}``."""
    return dict((label(rule), rule) for rule in (canonical(rule) for rule in (record or {}).get("security_group_rules") or []))


def wanted(rules, record, purge):
    """The rules the group should hold, as ``{label: canonical rule}``: ``rules`` (canonical), plus (without ``purge``)
    the rules the group has; a listed rule without a description keeps the one the group's rule has."""
    current = held(record)
    result = dict(current) if not purge else {}
    for rule in rules:
        key = label(rule)
        if rule["description"] is None and key in current:
            rule = dict(rule, description=current[key]["description"])
        result[key] = rule
    return result


def body_rule(rule):
    """A canonical rule as the v2 bodies carry it: ``any`` sent as null, members without a value left out (the PATCH
    rule does not take null ports or prefix)."""
    body = dict((field, value) for field, value in rule.items() if value is not None and field != "protocol")
    body["protocol"] = None if rule["protocol"] == "any" else rule["protocol"]
    return body


def body_rules(rules):
    """The rules of ``{label: rule}`` as the body's list, in label order."""
    return [body_rule(rules[key]) for key in sorted(rules)]


def differing(desired, current):
    """``(created, deleted)``: the rules of ``desired`` the group does not hold as they are, and the held rules that
    ``desired`` does not keep as they are (a rule whose description changes is in both), each sorted by label."""
    created = [desired[key] for key in sorted(desired) if current.get(key) != desired[key]]
    deleted = [current[key] for key in sorted(current) if desired.get(key) != current[key]]
    return created, deleted


def rules_member(params):
    """The ``rules`` member. Its view is ``{label: rule}``; the value it gives an update is ``{label: rule}`` of the rules
    created or changed (what the diff's ``after`` shows); the module's ``update_body`` sends the whole list."""
    def want(value, record):
        return wanted(value, record, params.get("purge_rules", True))

    def send(desired, current):
        return dict((key, rule) for key, rule in desired.items() if current.get(key) != rule)

    def said(desired, current):
        return dict(zip(("created", "deleted"), differing(desired, current or {})))
    return Member("rules", read=held, want=want, send=send, after=send, said=said)
