# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cloud security groups (docs/api_reference.md section 15.3): created and changed through v2, read and deleted through v1.

- ``GET  /cloud/v1/securitygroups/{p}/{r}``: ``{count, results}``; ``limit`` 1-1000, **default 10** (a page),
  ``offset``; ``name`` matches the full name exactly; ``tag_key`` (repeated) and ``tag_key_value`` (one JSON object).
- ``GET  /cloud/v1/securitygroups/{p}/{r}/{id}``: the group record (``SecurityGroupSerializer``: ``tags_v2``, every rule in
  the ``SecurityGroupRuleSerializer`` shape), plus ``task_id``: the task that locks it (null when unlocked). 404 cloud body.
- ``POST /cloud/v2/security_groups/{p}/{r}``: ``CreateSecurityGroupSerializerV2``; answers 200 ``{tasks}``. The group
  appears at once, locked by its ``create_security_group`` task; the finished task names it in
  ``created_resources.security_groups`` (a failed create task removes it). A body without an egress rule gets the
  default egress rules: one ``IPv4`` and one ``IPv6`` egress rule for every protocol (shown with protocol ``any``,
  as the v1 record may), except when ``rules`` is given empty (the spec: "If rules are explicitly set to empty, no
  rules will be created").
- ``PATCH /cloud/v2/security_groups/{p}/{r}/{id}``: ``UpdateSecurityGroupSerializerV2``: ``name`` and ``description`` when
  given; ``rules`` is the whole rule list (a rule equal to one the group has, description included, is kept with its id;
  the others are added; the group's rules not listed are removed); ``tags`` a JSON merge patch (``null``: every user
  tag removed). A PATCH that changes nothing answers ``{"tasks": []}``; otherwise an ``update_security_group`` task
  applies it when it finishes, the group locked meanwhile.
- ``DELETE /cloud/v1/securitygroups/{p}/{r}/{id}``: 204, no body, no task (the group and its rules go at once).
- A PATCH or DELETE of a locked group answers 409. Deleting a group an instance of its project and region has is
  refused (400; instances name their groups, so a name two groups share is held against neither).

Validation (422 in the cloud shape, ``invalid``): unknown members, types, enums, the NAME pattern, ports 0-65535, a
CIDR (``ipvanynetwork``, host bits refused), uuids, description length, tag patterns. Rules the service checks
beyond the schema answer 400: ports with a protocol that has none, ``port_range_min`` above ``port_range_max``, a
prefix of the other IP version than ``ethertype``, ``remote_ip_prefix`` with ``remote_group_id``, a rule listed
twice. An unknown ``remote_group_id`` answers 404.

State: ``sim.security_groups`` (group id -> record). Seeded (project 1, region 76): ``legacy-sg`` with an SSH rule
and the default egress rules, and two groups both named ``shared-sg``.
"""

from __future__ import annotations

import copy
import ipaddress
import json
import re
import uuid

from simulator.core import ApiFailure, now_iso
from simulator.resources.production import REGIONS, SEED_PROJECT, SEED_REGION, Collection, scope, unlock_failed
from simulator.validation import check_enum, check_int, check_list, check_object, check_str, check_uuid, invalid

NAME_PATTERN = re.compile(r"^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$")
TAG_KEY = re.compile(r"^[^\s=]+$")
TAG_VALUE = re.compile(r"^[^ \t\n\r\f\v]([^\t\n\r\f\v]*[^ \t\n\r\f\v])?$")
PROTOCOLS = ("ah", "dccp", "egp", "esp", "gre", "icmp", "igmp", "ipencap", "ipip", "ipv6-encap", "ipv6-frag", "ipv6-icmp",
             "ipv6-nonxt", "ipv6-opts", "ipv6-route", "ospf", "pgm", "rsvp", "sctp", "tcp", "udp", "udplite", "vrrp")
PORT_PROTOCOLS = ("tcp", "udp", "sctp", "dccp", "udplite")
RULE_FIELDS = ("direction", "ethertype", "protocol", "port_range_min", "port_range_max", "remote_ip_prefix",
               "remote_group_id", "description")
LEGACY_ID = "5ec0a11e-0000-4000-8000-000000000001"
SHARED_IDS = ["5ec0a11e-0000-4000-8000-000000000002", "5ec0a11e-0000-4000-8000-000000000003"]


def default_egress():
    return [{"direction": "egress", "ethertype": ethertype, "protocol": "any"} for ethertype in ("IPv4", "IPv6")]


def rule_key(rule):
    """What makes two rules the same rule to the service: every field, ``null`` protocol equal to ``any``, ``""``
    description equal to null."""
    return tuple(None if (field == "protocol" and rule.get(field) == "any") or (field == "description" and not rule.get(field))
                 else rule.get(field) for field in RULE_FIELDS)


def check_tags(loc, tags, patch=False):
    """``CreateTagsSerializer``, or (``patch``) ``UpdateTagsSerializer``: null for all, a null value removes a key."""
    if tags is None and patch:
        return
    if not isinstance(tags, dict):
        invalid(loc, "a JSON object is required")
    for key, value in tags.items():
        if not (1 <= len(key) <= 255 and TAG_KEY.match(key)):
            invalid("%s.%s" % (loc, key), "key does not match pattern %s" % TAG_KEY.pattern)
        if value is None and patch:
            continue
        if not isinstance(value, str) or not (1 <= len(value) <= 255 and TAG_VALUE.match(value)):
            invalid("%s.%s" % (loc, key), "value does not match pattern %s" % TAG_VALUE.pattern)


def check_rule(loc, rule, create):
    """One rule of a create (``CreateSecurityGroupRuleSerializerV2``) or a PATCH (``UpdateSecurityGroupRuleSerializerV2``:
    ports and prefix not nullable). ``direction`` is required in both: a rule without one has no meaning."""
    check_object(loc, rule, ("direction",), RULE_FIELDS)
    check_enum(loc + ".direction", rule["direction"], ("egress", "ingress"))
    if "ethertype" in rule:
        check_enum(loc + ".ethertype", rule["ethertype"], ("IPv4", "IPv6"))
    if "protocol" in rule:
        check_enum(loc + ".protocol", rule["protocol"], PROTOCOLS, nullable=True)
    for field in ("port_range_min", "port_range_max"):
        if field in rule:
            check_int(loc + "." + field, rule[field], nullable=create, low=0, high=65535)
    if "remote_group_id" in rule:
        check_uuid(loc + ".remote_group_id", rule["remote_group_id"])
    if "description" in rule:
        check_str(loc + ".description", rule["description"], max_length=255)
    prefix = rule.get("remote_ip_prefix")
    if "remote_ip_prefix" in rule and (prefix is not None or not create):
        try:
            network = ipaddress.ip_network(prefix, strict=True) if isinstance(prefix, str) else None
        except ValueError:
            network = None
        if network is None:
            invalid(loc + ".remote_ip_prefix", "value is not a valid IPv4 or IPv6 network")
        if network.version != (6 if rule.get("ethertype") == "IPv6" else 4):
            raise ApiFailure(400, "%s.remote_ip_prefix: %s is not an %s network" % (loc, prefix, rule.get("ethertype", "IPv4")))
    low, high = rule.get("port_range_min"), rule.get("port_range_max")
    if (low is not None or high is not None) and rule.get("protocol") not in PORT_PROTOCOLS:
        raise ApiFailure(400, "%s: port ranges are only valid with the protocols %s" % (loc, ", ".join(PORT_PROTOCOLS)))
    if low is not None and high is not None and low > high:
        raise ApiFailure(400, "%s: port_range_min %s is above port_range_max %s" % (loc, low, high))
    if prefix is not None and rule.get("remote_group_id") is not None:
        raise ApiFailure(400, "%s: remote_ip_prefix and remote_group_id are mutually exclusive" % loc)


class SecurityGroups(Collection):
    NAME, NOUN, COLLECTION, ID_PARAM, ID_CHECK, PAGE = "security_groups", "Security group", "securitygroups", "group_id", None, 10
    VERSIONS = {"create": ("v2", "security_groups"), "update": ("v2", "security_groups")}
    TASK_TYPES = ("create_security_group", "update_security_group")
    SEEDS = {"project_id": SEED_PROJECT, "region_id": SEED_REGION,
             "security_groups": {"legacy_sg": LEGACY_ID, "shared_sg": SHARED_IDS}}

    # ---- records ------------------------------------------------------------------------------
    @staticmethod
    def rule_record(group_id, rule):
        stamp = now_iso()
        record = dict((field, rule.get(field)) for field in RULE_FIELDS)
        record.update(id=str(uuid.uuid4()), security_group_id=group_id, created_at=stamp, updated_at=stamp, revision_number=0)
        return record

    def new_record(self, group_id, name, project_id, region_id, description=None, rules=(), tags=None, task_id=None):
        stamp = now_iso()
        return {
            "id": group_id, "name": name, "description": description or "", "project_id": project_id, "region_id": region_id,
            "region": REGIONS.get(region_id, "Region %s" % region_id), "created_at": stamp, "updated_at": stamp,
            "revision_number": 0, "tags_v2": [{"key": key, "value": value, "read_only": False} for key, value in (tags or {}).items()],
            "security_group_rules": [self.rule_record(group_id, rule) for rule in rules], "task_id": task_id,
        }

    def reset(self):
        super().reset()
        legacy = self.new_record(LEGACY_ID, "legacy-sg", SEED_PROJECT, SEED_REGION, "seeded",
                                 [{"direction": "ingress", "ethertype": "IPv4", "protocol": "tcp", "port_range_min": 22,
                                   "port_range_max": 22, "remote_ip_prefix": "0.0.0.0/0", "description": "ssh"}] + default_egress())
        legacy["tags_v2"].append({"key": "billing", "value": "seeded", "read_only": True})
        self.sim.security_groups[LEGACY_ID] = legacy
        for group_id in SHARED_IDS:
            self.sim.security_groups[group_id] = self.new_record(group_id, "shared-sg", SEED_PROJECT, SEED_REGION)

    def sync(self):
        """Release the lock of every group whose task failed (a failed create removes the group)."""
        unlock_failed(self.sim, self.sim.security_groups, lambda record, task: record.get("_creating"))

    def shown(self, record, _request=None):
        return copy.deepcopy(dict((key, value) for key, value in record.items() if not key.startswith("_")))

    def check_rules(self, loc, rules, project_id, region_id, create):
        check_list(loc, rules)
        seen = {}
        for index, rule in enumerate(rules):
            where = "%s.%s" % (loc, index)
            check_rule(where, rule, create)
            key = rule_key(rule)
            if key in seen:
                raise ApiFailure(400, "%s: the same rule as %s.%s" % (where, loc, seen[key]))
            seen[key] = index
            remote = rule.get("remote_group_id")
            if remote is not None:
                group = self.sim.security_groups.get(remote)
                if group is None or group["project_id"] != project_id or group["region_id"] != region_id:
                    raise ApiFailure(404, "%s.remote_group_id: security group %s not found" % (where, remote))

    # ---- handlers -----------------------------------------------------------------------------
    def filters(self, request):
        name = request.arg("name")  # the whole name
        tag_keys = request.query.get("tag_key") or []
        try:
            tag_values = json.loads(request.arg("tag_key_value", "{}"))
        except ValueError:
            invalid("tag_key_value", "value is not valid JSON")

        def tagged(record):
            tags = dict((tag["key"], tag["value"]) for tag in record["tags_v2"])
            return all(key in tags for key in tag_keys) and all(tags.get(key) == value for key, value in tag_values.items())

        return [lambda record: name is None or record["name"] == name, tagged]

    def refuse_delete(self, record):
        users = self.instances_using(record)
        if users:
            raise ApiFailure(400, "Security group %s is in use by instance %s; remove it from the instance first"
                             % (record["id"], users[0]))

    def instances_using(self, record):
        """The instances of the group's project and region that have it. Instances name their groups (not ids): a
        name two groups of the scope share is not held against either."""
        scope = (record["project_id"], record["region_id"])
        if sum((group["project_id"], group["region_id"], group["name"]) == scope + (record["name"],)
               for group in self.sim.security_groups.values()) > 1:
            return []
        return [instance["id"] for instance in getattr(self.sim, "instances", None) or []
                if (instance.get("project_id"), instance.get("region_id")) == scope
                and record["name"] in [group.get("name") for group in instance.get("security_groups") or []]]

    def create(self, request):
        project_id, region_id = scope(request)
        self.sync()
        body = request.json
        check_object("body", body, ("name",), ("name", "description", "rules", "tags"))
        check_str("name", body["name"])
        if not NAME_PATTERN.match(body["name"]):
            invalid("name", "string does not match pattern %s" % NAME_PATTERN.pattern)
        if "description" in body:
            check_str("description", body["description"])
        if "tags" in body:
            check_tags("tags", body["tags"])
        rules = body.get("rules")
        if "rules" in body:
            self.check_rules("rules", rules, project_id, region_id, create=True)
        if rules is None or (rules and not any(rule["direction"] == "egress" for rule in rules)):
            rules = list(rules or []) + default_egress()
        group_id = str(uuid.uuid4())

        def apply():
            record = self.sim.security_groups.get(group_id)
            if record is not None:
                record.update(task_id=None, updated_at=now_iso())
                record.pop("_creating", None)
            return {"security_groups": [group_id]}

        task_id = self.sim.start_task("create_security_group", apply=apply, project_id=project_id, region_id=region_id, data=body)
        record = self.new_record(group_id, body["name"], project_id, region_id, body.get("description"), rules, body.get("tags"), task_id)
        record["_creating"] = True
        self.sim.security_groups[group_id] = record
        return {"tasks": [task_id]}

    @staticmethod
    def merged_tags(record, patch):
        tags = [dict(tag) for tag in record["tags_v2"]]
        if patch is None:
            return [tag for tag in tags if tag["read_only"]]
        for key, value in patch.items():
            current = next((tag for tag in tags if tag["key"] == key), None)
            if current is not None and current["read_only"]:
                continue
            if value is None:
                tags = [tag for tag in tags if tag["key"] != key]
            elif current is not None:
                current["value"] = value
            else:
                tags.append({"key": key, "value": value, "read_only": False})
        return tags

    def update(self, request):
        record = self.one(request, unlocked=True)
        body = request.json
        check_object("body", body, (), ("name", "description", "rules", "tags"))
        if "name" in body:
            check_str("name", body["name"])
            if not NAME_PATTERN.match(body["name"]):
                invalid("name", "string does not match pattern %s" % NAME_PATTERN.pattern)
        if "description" in body:
            check_str("description", body["description"])
        if "tags" in body:
            check_tags("tags", body["tags"], patch=True)
        if "rules" in body:
            self.check_rules("rules", body["rules"], record["project_id"], record["region_id"], create=False)
        changed = ("name" in body and body["name"] != record["name"]) \
            or ("description" in body and body["description"] != record["description"]) \
            or ("tags" in body and self.merged_tags(record, body["tags"]) != record["tags_v2"]) \
            or ("rules" in body and sorted(map(repr, map(rule_key, body["rules"])))
                != sorted(map(repr, map(rule_key, record["security_group_rules"]))))
        if not changed:
            return {"tasks": []}  # the spec: no change, no task

        def apply():
            if "name" in body:
                record["name"] = body["name"]
            if "description" in body:
                record["description"] = body["description"]
            if "tags" in body:
                record["tags_v2"] = self.merged_tags(record, body["tags"])
            if "rules" in body:
                held = dict((rule_key(rule), rule) for rule in record["security_group_rules"])
                record["security_group_rules"] = [held.get(rule_key(rule)) or self.rule_record(record["id"], rule)
                                                  for rule in body["rules"]]
            record.update(task_id=None, updated_at=now_iso(), revision_number=record["revision_number"] + 1)

        task_id = self.sim.start_task("update_security_group", apply=apply, project_id=record["project_id"],
                                      region_id=record["region_id"], data=body)
        record["task_id"] = task_id
        return {"tasks": [task_id]}
