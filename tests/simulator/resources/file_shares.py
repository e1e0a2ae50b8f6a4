# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cloud file shares (NFS) and their access rules (docs/api_reference.md section 19.2), on the networks and subnets of
the network family (``sim.networks``, ``sim.subnets``).

- ``POST /cloud/v1/file_shares/{p}/{r}`` (``CreateFileShareSerializer``: a ``oneOf`` of a standard and a VAST variant
  without a discriminator, each with ``additionalProperties: false``): 200 ``{tasks}``. Standard: ``name*``,
  ``protocol*`` ``NFS``, ``size*`` >= 1, ``network*`` ``{network_id*, subnet_id}`` (a network of the scope, 404; a
  subnet of that network, 400; no subnet: the network's first), ``access`` (rules made with the share), ``type_name``
  ``standard``, ``volume_type``, ``tags``. VAST: the same without ``network`` and ``access`` (either is an unknown
  member of the VAST variant: 422), ``share_settings`` ``{allowed_characters, path_length: LCD|NPL, root_squash
  (default true), trash_access}`` (``trash_access: true`` needs ``root_squash: false``: 400); a body without
  ``network`` and ``type_name`` is the VAST variant (the one it matches). Names are not checked for uniqueness (the
  published text does not say they are; Terraform's documentation does: a module finds a share by its exact name before
  it creates one). The share appears at once, ``creating`` with ``connection_point: null``, locked by its ``create_file_share``
  task; when it finishes it is ``available`` with its export, and ``created_resources.file_shares`` names it; a
  failed create leaves it ``error``, unlocked.
- ``GET /cloud/v1/file_shares/{p}/{r}``: ``{count, results}``, ``limit`` 1-1000, ``offset``; ``name`` a substring
  filter, ``type_name`` ``standard|vast|ddn``. ``GET .../{file_share_id}`` (uuid, else 422): the record
  (``FileShareSerializer`` as SDK 0.59 reads it: ``network {network_id, network_name, subnet_id, subnet_name}`` and
  the four flat members, ``share_settings`` by ``type_name``). The access rules are not in the record.
- ``PATCH /cloud/v3/file_shares/{p}/{r}/{file_share_id}`` (``name``, ``tags`` a merge patch or null,
  ``share_settings``: VAST only, 400 on a standard share): an ``update_file_share`` task, applied when it finishes.
  ``PATCH /cloud/v1/...`` (deprecated; name and tags) is served synchronously for other clients.
- ``POST .../{file_share_id}/extend`` ``{size}``: an ``extend_file_share`` task (``extending``; ``extending_error``
  when it fails); a size not larger than the share's is refused (400): the path only grows a share.
- ``DELETE .../{file_share_id}``: a ``delete_file_share`` task (``deleting``; ``error_deleting`` when it fails); the
  share and its rules go when it finishes.
- ``GET .../{file_share_id}/access_rule``: ``{count, results}`` (``limit``, ``offset`` as SDK 0.59 sends them) of
  ``{id, access_to, access_level, state}``; ``POST`` ``{ip_address*, access_mode* ro|rw}``: synchronous, the rule
  answered ``queued_to_apply``, listed ``active``; an address or network already given a rule: 400;
  ``DELETE .../access_rule/{access_rule_id}``: 204 (404 when unknown). Rules are written only on an ``available``
  share (400 otherwise).
- A PATCH, extend, DELETE or rule write of a locked share answers 409; an unknown share 404; a share not ``available``
  refuses an extend or an update (400).

Setting ``file_share_settle_reads`` (default 0): a share whose create task finished still shows ``creating`` for that
many more reads of it. Control ``POST /_sim/file_share_status`` ``{file_share_id, status}``. State:
``sim.file_shares`` (id -> record), ``sim.access_rules`` (share id -> [rule]). Seeded (project 1, region 76):
``share-1`` (standard, 10 GiB, on ``router-net-1``, rule ``10.0.0.0/24`` rw) and two shares named ``twin-share``.
"""

from __future__ import annotations

import copy
import ipaddress
import uuid

from simulator import control
from simulator.core import ApiFailure, Response, now_iso, page, tag_list
from simulator.resources.production import Collection, in_scope, path_uuid, region_of, scope, settle_steps
from simulator.validation import check_bool, check_enum, check_int, check_name, check_object, check_tags, check_uuid, invalid, patch_name_and_tags

STANDARD = ("name", "protocol", "size", "network", "access", "type_name", "volume_type", "tags")
VAST = ("name", "protocol", "size", "share_settings", "type_name", "volume_type", "tags")
VAST_SETTINGS = ("allowed_characters", "path_length", "root_squash", "trash_access")
VOLUME_TYPES = {"standard": "default_share_type", "vast": "vast_share_type"}
VAST_NETWORK = ("0faa5700-0000-4000-8000-00000000a571", "vast-service-network", "0faa5700-0000-4000-8000-00000000b571", "vast-service-subnet")
SEED_NETWORK, SEED_SUBNET = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01", "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01"
SEEDED = [("f11e5a7e-0000-4000-8000-000000000001", "share-1", [("10.0.0.0/24", "rw")]),
          ("f11e5a7e-0000-4000-8000-000000000002", "twin-share", []),
          ("f11e5a7e-0000-4000-8000-000000000003", "twin-share", [])]


def check_rule(loc, rule):
    check_object(loc, rule, ("ip_address", "access_mode"), ("ip_address", "access_mode"))
    check_enum(loc + ".access_mode", rule["access_mode"], ("ro", "rw"))
    value = rule["ip_address"]
    try:
        return str(ipaddress.ip_network(value, strict=True) if "/" in str(value) else ipaddress.ip_address(value))
    except ValueError:
        invalid(loc + ".ip_address", "value is not a valid IPv4 or IPv6 address or network")


class FileShares(Collection):
    NAME, NOUN, COLLECTION, TASK, NAME_QUERY = "file_shares", "File share", "file_shares", "file_share", ("name", None)
    VERSIONS = {"update": "v3"}  # the v1 PATCH is deprecated
    STEPS = {"create": ("creating", None, "error"), "extend": ("extending", None, "extending_error"), "update": (None, None, None),
             "delete": ("deleting", None, "error_deleting")}
    ACTIONS = (("PATCH", "/{id}", "patch_v1"), ("POST", "/{id}/extend", "extend_share"), ("GET", "/{id}/access_rule", "list_rules"),
               ("POST", "/{id}/access_rule", "create_rule"), ("DELETE", "/{id}/access_rule/(?P<access_rule_id>[^/]+)", "delete_rule"))
    STATE = ("file_shares", "access_rules")
    SEEDS = {"file_shares": {"share_1": SEEDED[0][0]}, "twin_share": [ident for ident, name, _rules in SEEDED if name == "twin-share"]}
    TASK_TYPES = ("create_file_share", "extend_file_share", "update_file_share", "delete_file_share")
    SETTINGS = {"file_share_settle_reads": (0, control.integer(low=0))}
    CONTROLS = {"file_share_status": "set_status"}

    def reset(self):
        self.sim.file_shares, self.sim.access_rules = {}, {}  # the access rules: share id -> [rule]
        self.steps, self.settling = {}, {}  # share id -> (task id, failure status); share id -> reads left
        for ident, name, rules in SEEDED:
            record = self.make(1, 76, ident, name, 10, "standard", self.network_of(SEED_NETWORK, SEED_SUBNET), {}, None)
            record.update(status="available", connection_point=self.export(record), creator_task_id=str(uuid.uuid4()))
            self.sim.access_rules[ident] = [self.rule(address, mode, "active") for address, mode in rules]

    # ---- records ------------------------------------------------------------------------------
    def network_of(self, network_id, subnet_id):
        """The ``network`` member of a share on a subnet of the network family (seeded: ``router-net-1``, whose family
        may be reset after this one)."""
        network, subnet = getattr(self.sim, "networks", {}).get(network_id) or {}, getattr(self.sim, "subnets", {}).get(subnet_id) or {}
        return {"network_id": network_id, "network_name": network.get("name", "router-net-1"), "subnet_id": subnet_id,
                "subnet_name": subnet.get("name", "router-subnet-1")}

    @staticmethod
    def export(record):
        host = "10.254.0.%s" % (int(uuid.UUID(record["id"])) % 200 + 10)
        return ("%s:/shares/share-%s" % (host, record["id"]) if record["type_name"] == "standard"
                else "vast.%s.gcore.example:/share-%s" % (record["region_id"], record["id"]))

    @staticmethod
    def rule(address, mode, state):
        return {"id": str(uuid.uuid4()), "access_to": address, "access_level": mode, "state": state}

    def make(self, project_id, region_id, ident, name, size, type_name, network, settings, tags):
        stamp = now_iso()
        share_settings = {"type_name": "standard"} if type_name == "standard" else dict(
            {"type_name": "vast", "allowed_characters": None, "path_length": None, "root_squash": True, "trash_access": False},
            **settings)
        record = dict(region_of(project_id, region_id), id=ident, name=name, protocol="NFS", size=size, status="creating",
                      type_name=type_name, volume_type=VOLUME_TYPES[type_name], connection_point=None, network=network,
                      share_network_name="share-network-%s" % network["subnet_id"][:8] if type_name == "standard" else None,
                      share_settings=share_settings, tags=tag_list(tags or {}), created_at=stamp, creator_task_id=None,
                      task_id=None, **dict((key, network[key]) for key in ("network_id", "network_name", "subnet_id", "subnet_name")))
        self.sim.file_shares[ident] = record
        return record

    def sync(self):
        settle_steps(self.sim, self.steps, self.sim.file_shares.get)

    def shown(self, record, _request=None):
        left = self.settling.get(record["id"], 0)
        if left:
            self.settling[record["id"]] = left - 1
            return dict(copy.deepcopy(record), status="creating", connection_point=None)
        return copy.deepcopy(record)

    def one(self, request, unlocked=False, available=False):
        record = super().one(request, unlocked)
        if available and record["status"] != "available":
            raise ApiFailure(400, "File share %s is %s; it must be available" % (record["id"], record["status"]))
        return record

    def set_status(self, body):
        control.record({"file_share_id": control.text, "status": control.text}, required=("file_share_id", "status"))("file_share_status", body)
        record = self.sim.file_shares.get(body["file_share_id"])
        if record is None:
            raise control.ControlError("file_share_id: no file share %s" % body["file_share_id"])
        record["status"] = body["status"]
        return copy.deepcopy(record)

    # ---- shares -------------------------------------------------------------------------------
    def filters(self, request):
        type_name = request.arg("type_name")
        if type_name is not None:
            check_enum("type_name", type_name, ("standard", "vast", "ddn"))
        return [lambda record: type_name is None or record["type_name"] == type_name]

    def create(self, request):
        project_id, region_id = scope(request)
        self.sync()
        body = request.json
        if not isinstance(body, dict):
            invalid("body", "a JSON object is required")
        vast = body.get("type_name") == "vast" or ("network" not in body and body.get("type_name") != "standard")
        check_object("", body, ("name", "protocol", "size") + (() if vast else ("network",)), VAST if vast else STANDARD)
        check_name("name", body["name"])
        check_enum("protocol", body["protocol"], ("NFS",))
        check_int("size", body["size"], low=1)
        type_name = "vast" if vast else "standard"
        check_enum("type_name", body.get("type_name", type_name), (type_name,))
        check_enum("volume_type", body.get("volume_type", VOLUME_TYPES[type_name]), (VOLUME_TYPES[type_name],))
        if "tags" in body:
            check_tags("tags", body["tags"])
        settings, network, rules = {}, None, []
        if vast:
            settings = body.get("share_settings") or {}
            check_object("share_settings", settings, (), VAST_SETTINGS)
            for key in ("allowed_characters", "path_length"):
                if key in settings:
                    check_enum("share_settings." + key, settings[key], ("LCD", "NPL"))
            for key in ("root_squash", "trash_access"):
                if key in settings:
                    check_bool("share_settings." + key, settings[key])
            if settings.get("trash_access") and settings.get("root_squash", True):
                raise ApiFailure(400, "share_settings.trash_access needs root_squash: false")
            network = dict(zip(("network_id", "network_name", "subnet_id", "subnet_name"), VAST_NETWORK))
        else:
            given = body["network"]
            check_object("network", given, ("network_id",), ("network_id", "subnet_id"))
            check_uuid("network.network_id", given["network_id"])
            in_scope(self.sim.networks, given["network_id"], project_id, region_id, "Network")
            subnets = [record for record in self.sim.subnets.values() if record.get("network_id") == given["network_id"]]
            if "subnet_id" in given:
                check_uuid("network.subnet_id", given["subnet_id"])
                subnets = [record for record in subnets if record["id"] == given["subnet_id"]]
                if not subnets:
                    raise ApiFailure(400, "Subnet %s is not a subnet of network %s" % (given["subnet_id"], given["network_id"]))
            if not subnets:
                raise ApiFailure(400, "Network %s has no subnet for the file share" % given["network_id"])
            network = self.network_of(given["network_id"], subnets[0]["id"])
            if not isinstance(body.get("access", []), list):
                invalid("access", "value is not a valid list")
            rules = [(check_rule("access.%s" % index, rule), rule["access_mode"]) for index, rule in enumerate(body.get("access", []))]
            if len(set(address for address, _mode in rules)) < len(rules):
                raise ApiFailure(400, "access: an address or network is given twice")
        record = self.make(project_id, region_id, str(uuid.uuid4()), body["name"], body["size"], type_name, network, settings,
                           body.get("tags"))
        self.sim.access_rules[record["id"]] = [self.rule(address, mode, "active") for address, mode in rules]

        def apply():
            record.update(status="available", connection_point=self.export(record))
            if self.sim.config["file_share_settle_reads"]:
                self.settling[record["id"]] = self.sim.config["file_share_settle_reads"]
            return {"file_shares": [record["id"]]}

        record["creator_task_id"] = self.begin(record, "create", apply, data=body)
        return {"tasks": [record["creator_task_id"]]}

    def patch_v1(self, request):
        """Deprecated (use v3): synchronous, name and tags."""
        return copy.deepcopy(patch_name_and_tags(self.one(request, unlocked=True), request.json))

    def update(self, request):
        record = self.one(request, unlocked=True)
        body = request.json
        check_object("body", body, (), ("name", "tags", "share_settings"))
        if "name" in body:
            check_name("name", body["name"])
        if body.get("tags") is not None:
            check_tags("tags", body["tags"], patch=True)
        settings = body.get("share_settings")
        if settings is not None:
            check_object("share_settings", settings, (), VAST_SETTINGS)
            if record["type_name"] != "vast":
                raise ApiFailure(400, "share_settings: file share %s is %s; only a VAST share has settings" % (record["id"], record["type_name"]))
            merged = dict(record["share_settings"], **settings)
            if merged["trash_access"] and merged["root_squash"]:
                raise ApiFailure(400, "share_settings.trash_access needs root_squash: false")
        if record["status"] != "available":
            raise ApiFailure(400, "File share %s is %s; it must be available" % (record["id"], record["status"]))

        def apply():
            patch_name_and_tags(record, dict((key, value) for key, value in body.items() if key != "share_settings"))
            if settings:
                record["share_settings"].update(settings)
        return {"tasks": [self.begin(record, "update", apply, data=body)]}

    def extend_share(self, request):
        record = self.one(request, unlocked=True, available=True)
        body = request.json
        check_object("body", body, ("size",), ("size",))
        check_int("size", body["size"], low=1)
        if body["size"] <= record["size"]:
            raise ApiFailure(400, "New size %s GiB must be larger than the file share's %s GiB" % (body["size"], record["size"]))

        def apply():
            record.update(size=body["size"], status="available")
        return {"tasks": [self.begin(record, "extend", apply, data=body)]}

    def removed(self, record):
        self.sim.file_shares.pop(record["id"], None)
        self.sim.access_rules.pop(record["id"], None)

    # ---- access rules -------------------------------------------------------------------------
    def list_rules(self, request):
        record = self.one(request)
        rules = self.sim.access_rules.setdefault(record["id"], [])
        for rule in rules:
            if rule["state"] == "queued_to_apply":
                rule["state"] = "active"  # applied once answered
        return page(request, rules)

    def create_rule(self, request):
        record = self.one(request, unlocked=True, available=True)
        address = check_rule("body", request.json)
        rules = self.sim.access_rules.setdefault(record["id"], [])
        if any(rule["access_to"] == address for rule in rules):
            raise ApiFailure(400, "Access rule for %s already exists on file share %s" % (address, record["id"]))
        rule = self.rule(address, request.json["access_mode"], "queued_to_apply")
        rules.append(rule)
        return copy.deepcopy(rule)

    def delete_rule(self, request):
        record = self.one(request, unlocked=True)
        ident = path_uuid(request, "access_rule_id")
        rules = self.sim.access_rules.setdefault(record["id"], [])
        if not any(rule["id"] == ident for rule in rules):
            raise ApiFailure(404, "Access rule %s not found" % ident)
        rules[:] = [rule for rule in rules if rule["id"] != ident]
        return Response(204, None)
