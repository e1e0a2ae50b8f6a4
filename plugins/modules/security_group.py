#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: security_group
short_description: Create, update and delete a Gcore Cloud security group and its rules
version_added: 1.0.0
description:
  - Makes a Gcore Cloud security group, its rules and its tags match what you describe, or removes the group, and does
    nothing when it already matches.
  - The group is found by O(security_group_id) when it is given, otherwise by its exact O(name).
  - Creates it with its rules (removing the service's default egress rules when O(purge_rules=true)), changes its
    members and rules in one write, and with O(state=absent) deletes it.
author:
  - gcore.platform developers (@gcore-platform)
options:
  state:
    description:
      - V(present) creates or updates the group; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
  security_group_id:
    description:
      - ID (UUID) of the security group, in any letter case (sent lower-case).
      - When given, the group is found by this ID and O(name) is its desired name (a rename).
      - With O(state=present), an ID that does not exist fails the module (an ID cannot be created).
      - One of O(security_group_id) and O(name) is required.
    type: str
  name:
    description:
      - Name of the group, 3 to 63 characters matching C(^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$).
      - Without O(security_group_id), the group whose name is exactly this one; it is created when there is none.
      - Required to create a group.
    type: str
  description:
    description:
      - Description of the group, at most 255 characters. Compared when given; V("") means no description.
    type: str
  rules:
    description:
      - The group's rules, as a set. Leaving the option out keeps the group's rules as they are.
      - With O(purge_rules=true) the group holds exactly these rules after the run (V([]) removes every rule); with
        O(purge_rules=false) the rules listed are added when missing and the others kept.
      - Two rules are the same rule when O(rules[].direction), O(rules[].ethertype), O(rules[].protocol)
        (left out and V(any) are equal), the port range, O(rules[].remote_ip_prefix) (compared in canonical form) and
        O(rules[].remote_group_id) (compared case-insensitively) are equal. A rule listed twice fails the module naming
        both indices.
      - A rule whose O(rules[].description) differs from the group's rule is changed (it is removed and added again by
        the PATCH); a rule listed without a description keeps the description the group's rule has.
      - Every rule is checked before any request, and a failure names the rule (C(rules[2].port_range_min)).
    type: list
    elements: dict
    suboptions:
      direction:
        description:
          - V(ingress) for traffic to the group's ports, V(egress) for traffic from them.
        type: str
        required: true
        choices: [ingress, egress]
      ethertype:
        description:
          - The IP version of the rule.
        type: str
        choices: [IPv4, IPv6]
        default: IPv4
      protocol:
        description:
          - The protocol, one of the service's names
            C(ah), C(dccp), C(egp), C(esp), C(gre), C(icmp), C(igmp), C(ipencap), C(ipip), C(ipv6-encap),
            C(ipv6-frag), C(ipv6-icmp), C(ipv6-nonxt), C(ipv6-opts), C(ipv6-route), C(ospf), C(pgm), C(rsvp),
            C(sctp), C(tcp), C(udp), C(udplite), C(vrrp).
          - Left out or V(any) means every protocol (sent as V(null)).
        type: str
      port_range_min:
        description:
          - The lowest port of the range, 0 to 65535. Only with the protocols V(tcp), V(udp), V(sctp), V(dccp) and
            V(udplite).
          - Given without O(rules[].port_range_max), the range is that one port.
          - Left out together with O(rules[].port_range_max), every port.
        type: int
      port_range_max:
        description:
          - The highest port of the range, 0 to 65535, not below O(rules[].port_range_min). Only with the protocols that
            have ports.
          - Given without O(rules[].port_range_min), the range is that one port.
        type: int
      remote_ip_prefix:
        description:
          - The remote network, in strict CIDR notation of the rule's O(rules[].ethertype) (V(10.0.0.0/8), not
            V(10.0.0.1/8)).
          - Not with O(rules[].remote_group_id). Leaving both out means any address.
        type: str
      remote_group_id:
        description:
          - ID (UUID) of a security group whose ports the rule lets in or out. Not with O(rules[].remote_ip_prefix).
        type: str
      remote_group:
        description:
          - The security group whose ports the rule lets in or out, by its ID or its exact name, as an alternative to
            O(rules[].remote_group_id) (not with it, nor with O(rules[].remote_ip_prefix)).
          - A name is looked up over every page of C(GET /cloud/v1/securitygroups/{project_id}/{region_id}) before any
            write; none or several (their IDs are listed) fail the module and nothing is sent. In check mode a group
            not built yet does not fail; the module warns that it assumes an earlier task creates it.
          - Compared as the group's ID (the record shows C(remote_group_id)).
        type: str
        version_added: 1.1.0
      description:
        description:
          - Description of the rule, at most 255 characters.
          - Compared only when given; V("") is the same as leaving it out (the rule keeps the description it has).
        type: str
  purge_rules:
    description:
      - With V(true), the rules of the group that O(rules) does not list are removed; with V(false) they are kept.
      - Has no effect when O(rules) is left out.
    type: bool
    default: true
notes:
  - The group is found by O(security_group_id) when it is given, otherwise by its exact O(name) over every page of
    C(GET /cloud/v1/securitygroups/{project_id}/{region_id}). More than one group with that name fails the module and
    lists their IDs; nothing is sent.
  - A missing group is created with C(POST /cloud/v2/security_groups/{project_id}/{region_id}), carrying O(name),
    O(description), O(rules) and O(tags); its ID is read from the finished task's C(created_resources.security_groups).
  - The service adds default egress rules (every protocol, IPv4 and IPv6) to a group created without an egress rule.
    When O(rules) is given with O(purge_rules=true), the module removes them in the same run (one PATCH carrying the
    declared rules), so the first run ends with exactly O(rules) and a second run changes nothing.
  - An existing group is updated with one C(PATCH /cloud/v2/security_groups/{project_id}/{region_id}/{security_group_id})
    holding the members that differ (O(name), O(description), O(tags) as a JSON merge patch) and, when the rules differ,
    the whole resulting rule list (the service replaces the group's rules with the list it is sent, so kept rules are
    repeated). The group is read again once the task has finished.
  - O(state=absent) deletes the group with C(DELETE /cloud/v1/securitygroups/{project_id}/{region_id}/{security_group_id})
    (answered at once, no task).
  - With O(wait=false) the module returns the task IDs in RV(tasks) without waiting for them, and RV(security_group) is
    the group as read before the change (V(null) when it is being created). Removing the default egress rules after a
    create needs the created group, so a create with O(rules) and O(purge_rules=true) but no egress rule fails before
    anything is sent when O(wait=false); list an egress rule, set O(wait=true), or create the group first.
  - The v2 PATCH replaces the rule list. When another run's change still locks the group, the PATCH is answered 409,
    and the module waits for the lock, reads the group again and computes the rule list again from what it read, so a rule
    the other run added survives O(purge_rules=false), and a run whose change the other run already made sends nothing
    and reports no change. A rule added between the module's read and its PATCH by a change that no longer locks the
    group is removed by a PATCH that changes the rules, even with O(purge_rules=false).
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.gcore.WAIT
  - gcore.platform.gcore.TAGS
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.security_group_info
    description: Read security groups.
  - module: gcore.platform.instance
    description: Instances name their security groups (O(gcore.platform.instance#module:security_groups)).
"""

EXAMPLES = r"""
- name: A web security group with exactly these rules (the default egress rules are removed)
  gcore.platform.security_group:
    project_id: 1
    region_id: 76
    name: web
    description: Web servers
    rules:
      - direction: ingress
        protocol: tcp
        port_range_min: 443
        remote_ip_prefix: 0.0.0.0/0
        description: https
      - direction: ingress
        protocol: tcp
        port_range_min: 22
        remote_ip_prefix: 10.0.0.0/8
        description: ssh from the office
      - direction: egress
      - direction: egress
        ethertype: IPv6
    tags:
      env: prod
  register: web

- name: Let the web group (named by name) reach a database group on 5432, keeping every other rule
  gcore.platform.security_group:
    project_id: 1
    region_id: 76
    name: db-servers
    rules:
      - direction: ingress
        protocol: tcp
        port_range_min: 5432
        remote_group: web  # the group above, by its name
    purge_rules: false

- name: Rename the web group by ID and add a tag, keeping the other tags and the rules
  gcore.platform.security_group:
    project_id: 1
    region_id: 76
    security_group_id: "{{ web.security_group.id }}"
    name: web-frontend
    tags:
      team: platform
    purge_tags: false

- name: Delete the groups
  gcore.platform.security_group:
    project_id: 1
    region_id: 76
    name: "{{ item }}"
    state: absent
  loop: [db-servers, web-frontend]
"""

RETURN = r"""
security_group:
  description:
    - The security group as the service returned it when last read (C(GET /cloud/v1/securitygroups/...)).
    - V(null) after a delete, and when O(state=absent) found no group.
    - With O(wait=false), the group as read before the change, or V(null) when it is being created.
    - In check mode, the group as it is now (V(null) when it would be created).
  returned: success
  type: dict
  contains:
    id:
      description: Security group ID.
      type: str
      sample: 2f6c1c64-8c3e-4c2b-9bb5-0a8cbb2f1c11
    name:
      description: Security group name.
      type: str
      sample: web
    description:
      description: Description, or V(null).
      type: str
      sample: Web servers
    security_group_rules:
      description:
        - The rules, each with C(id), C(security_group_id), C(direction), C(ethertype), C(protocol) (V(null) or C(any)
          for every protocol), C(port_range_min), C(port_range_max), C(remote_ip_prefix), C(remote_group_id),
          C(description), C(revision_number), C(created_at) and C(updated_at).
      type: list
      elements: dict
      sample:
        - id: 7d0f4b1e-2c3a-4d5e-8f90-1a2b3c4d5e6f
          security_group_id: 2f6c1c64-8c3e-4c2b-9bb5-0a8cbb2f1c11
          direction: ingress
          ethertype: IPv4
          protocol: tcp
          port_range_min: 443
          port_range_max: 443
          remote_ip_prefix: 0.0.0.0/0
          remote_group_id: null
          description: https
          revision_number: 0
          created_at: "2026-11-22T16:20:00Z"
          updated_at: "2026-11-22T16:20:00Z"
    tags_v2:
      description: Tags, each C({key, value, read_only}); read-only tags are set by the service.
      type: list
      elements: dict
      sample: [{key: env, value: prod, read_only: false}]
    project_id:
      description: Project ID.
      type: int
      sample: 1
    region_id:
      description: Region ID.
      type: int
      sample: 76
    region:
      description: Region name.
      type: str
      sample: Luxembourg-2
    revision_number:
      description: How many times the group was changed.
      type: int
      sample: 1
    created_at:
      description: Creation time.
      type: str
      sample: "2026-11-22T16:20:00Z"
    updated_at:
      description: Time of the last change.
      type: str
      sample: "2026-11-22T16:21:30Z"
changes:
  description:
    - The rules created and deleted, as the service accepted them (on failure too, only what it accepted or what the
      state read afterwards confirmed); in check mode, what would be created and deleted.
    - Each rule in canonical form (C(direction), C(ethertype), C(protocol) with C(any) for every protocol,
      C(port_range_min), C(port_range_max), C(remote_ip_prefix), C(remote_group_id), C(description)).
    - A rule whose description changes is in both lists (its old form in C(deleted), its new one in C(created)).
    - When a group is created, C(created) lists O(rules) and C(deleted) the default egress rules the service added
      that the module removed.
  returned: when O(rules) is given and O(state=present)
  type: dict
  sample:
    created:
      - direction: ingress
        ethertype: IPv4
        protocol: tcp
        port_range_min: 443
        port_range_max: 443
        remote_ip_prefix: 0.0.0.0/0
        remote_group_id: null
        description: https
    deleted: []
tasks:
  description:
    - IDs of the asynchronous tasks the module started (empty when nothing was sent, and after a delete, which starts
      none).
    - With O(wait=true) every one of them has finished when the module returns.
  returned: success
  type: list
  elements: str
  sample: [6a1d8f3e-0b2c-4d5e-8f90-1a2b3c4d5e6f]
diff:
  description:
    - The managed members before and after the change, with C(state) (C(name), C(description), C(tags) as a dict of
      the user tags).
    - When O(rules) is given, C(rules) is a mapping from a readable rule identity (C(ingress IPv4 tcp 443-443 0.0.0.0/0),
      C(egress IPv6 any)) to the rule, holding only the rules that change, in C(before) as the group has them and in
      C(after) as they will be (a rule created is absent from C(before), one deleted absent from C(after)).
  returned: success
  type: dict
  sample:
    before:
      state: present
      name: web
      description: Web servers
      tags: {env: prod}
      rules:
        egress IPv4 any: {direction: egress, ethertype: IPv4, protocol: any, port_range_min: null, port_range_max: null,
                          remote_ip_prefix: null, remote_group_id: null, description: null}
    after:
      state: present
      name: web
      description: Web servers
      tags: {env: prod}
      rules: {}
"""

import ipaddress

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError, check_length, check_range, check_uuid
from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudResource
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._networks import CIDR, strict_network
from ansible_collections.gcore.platform.plugins.module_utils._parents import assumed, parent_id

# The rules as a set (docs/api_reference.md section 15.3). A rule's canonical form has every field: ``direction``,
# ``ethertype``, ``protocol`` (``any`` for every protocol: the v1 record shows ``null`` or ``any``, the v2 bodies take
# ``null``), ``port_range_min`` and ``port_range_max`` (one given alone means both), ``remote_ip_prefix`` (as
# ``ipaddress`` prints it), ``remote_group_id`` (lower-case) and ``description`` (``""`` is null). Two rules are the same
# rule when everything but the description is equal; that identity, as text (``ingress IPv4 tcp 22-22 0.0.0.0/0``), keys
# the diff. The v2 PATCH replaces the whole rule list, so an update sends every rule the group keeps.

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
        check_range("%s.%s" % (where, field), value, 0, 65535)
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


def _description(value, record=None):
    return value or None  # "" and null are no description


class SecurityGroup(CloudResource):
    kind = KINDS["security_group"]
    options = dict(
        description=dict(type="str"),
        rules=dict(type="list", elements="dict", options=RULE_OPTIONS),
        purge_rules=dict(type="bool", default=True),
    )
    tagged = True
    create_options = ("name", "description", "tags")  # and the rules

    @property
    def members(self):
        return (Member("name"), Member("description", read=lambda record: _description(record.get("description")), want=_description,
                                       send=lambda desired, current: desired or ""), rules_member(self.params))

    @property
    def changes(self):
        """The rules the writes create and delete (``rules_member`` says which), when the rules are managed and kept."""
        return {"created": label, "deleted": label} if self.params["rules"] is not None and self.params["state"] == "present" else None

    def validate(self):
        super().validate()
        params = self.params
        if params["description"] is not None and "\x00" in params["description"]:
            raise ValidationError("description: must not hold a NUL character")
        check_length("description", params["description"], 0, 255)
        self.named_groups = remote_groups(params["rules"])
        if params["rules"] is not None and not self.named_groups:
            params["rules"][:] = check_rules(params["rules"])

    # ---- bodies ----------------------------------------------------------------------------
    def resolve(self):
        """The rules' ``remote_group`` names as the groups' ids (``_parents.parent_id``: before any write; check mode assumes
        one not built yet), then every rule checked and made canonical (a rule listed twice fails)."""
        if self.named_groups:
            rules = self.params["rules"]
            for index, name in self.named_groups.items():
                rules[index]["remote_group_id"] = parent_id(self, "security_group", name, "rules[%s].remote_group" % index)
            rules[:] = check_rules(rules)

    def desired_rules(self, record):
        return wanted(self.params["rules"], record, self.params["purge_rules"])

    def create_body(self):
        params = self.params
        body = super().create_body()
        if params["rules"] is not None:
            rules = self.desired_rules(None)
            if not self.waiting() and params["purge_rules"] and not any(rule["direction"] == "egress" for rule in rules.values()):
                raise ValidationError(
                    "rules: without an egress rule the service adds its default egress rules, which are removed only once "
                    "the group exists, and a create with wait=false does not wait for that; list an egress rule, set "
                    "wait=true, or create the group first (nothing was sent)")
            body["rules"] = body_rules(rules)
        return body

    def update_body(self, changes, record):
        body = dict(changes)
        if "rules" in changes:
            rules = self.desired_rules(record)
            body["rules"] = body_rules(rules)  # the PATCH replaces the list: every rule the group keeps
        return body

    # ---- what is shown ---------------------------------------------------------------------
    def shown(self, record):
        shown = super().shown(record)
        if self.params["rules"] is None:
            shown.pop("rules")
        else:
            desired = self.desired_rules(record)
            shown["rules"] = dict((key, rule) for key, rule in shown["rules"].items() if desired.get(key) != rule)
        return shown


def main():
    SecurityGroup.main()


if __name__ == "__main__":
    main()
