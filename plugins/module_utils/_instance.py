# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""The parts of the ``instance`` module's declaration that are about instances (docs/api_reference.md section 15.7).

This module is internal to the collection: its interface may change at any time.

- ``VOLUME_SPEC``, ``check_volumes`` and ``volumes_body``: the five volume sources of a new instance, each with the
  fields its variant has (a field of another source, or a missing required one, fails naming ``volumes[i].field``).
- ``Setting``: one setting of an instance changed by a request of its own (the power state through the v2 action, the
  flavor through changeflavor), each a part (``_parts.Part``) so the one flow plans, sends,
  waits for and recovers it like any attachment write: ``plan(record, wanted, params)`` gives at most one write.
- ``SECURITY_GROUPS``: the instance's security groups as a set of names, added and removed one by one (adds first).
- ``Placement``: the placement group the instance is in (read from the groups' ``instances``: the instance record does
  not show it), left with ``remove_from_servergroup`` and joined with ``put_into_servergroup``.
"""

from __future__ import annotations

import base64

from ansible_collections.gcore.platform.plugins.module_utils._checks import (
    Refused,
    ValidationError,
    check_length,
    check_pattern,
    check_range,
    check_uuid,
)
from ansible_collections.gcore.platform.plugins.module_utils._checks import is_uuid
from ansible_collections.gcore.platform.plugins.module_utils._cloud import PAGE_SIZE, check_name
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS, listed
from ansible_collections.gcore.platform.plugins.module_utils._attachments import Attachments
from ansible_collections.gcore.platform.plugins.module_utils._parents import assume
from ansible_collections.gcore.platform.plugins.module_utils._parts import Part
from ansible_collections.gcore.platform.plugins.module_utils._tags import check_tags
from ansible_collections.gcore.platform.plugins.module_utils._volumes import ATTACHMENT_TAG, ATTACHMENT_TAG_RULE, INSTANCE_SOURCES, MAX_SIZE, TYPES
from ansible_collections.gcore.platform.plugins.module_utils._writes import Write

BASE = KINDS["instance"].paths["list"]
ACTION = KINDS["instance"].path("/{id}/action", "v2")
STATUSES = ("ACTIVE", "BUILD", "ERROR", "HARD_REBOOT", "MIGRATING", "PAUSED", "REBOOT", "REBUILD", "RESIZE", "REVERT_RESIZE",
            "SHELVED", "SHELVED_OFFLOADED", "SHUTOFF", "SOFT_DELETED", "SUSPENDED", "VERIFY_RESIZE")  # every status an instance shows
BAREMETAL_STATUSES = ("ACTIVE", "BUILD", "ERROR", "HARD_REBOOT", "REBOOT", "REBUILD", "RESCUE", "SHUTOFF", "SUSPENDED")  # a bare metal server's
SNAPSHOT_TYPES = ("standard", "ssd_hiiops")
COMMON = ("attachment_tag", "delete_on_termination", "tags")
# source -> (the fields it has, the fields it requires); ``image_name`` and ``snapshot_name`` are ours: resolved to ids
VOLUME_FIELDS = {
    "new-volume": (("size", "name", "type_name") + COMMON, ("size",)),
    "image": (("image_id", "image_name", "size", "boot_index", "name", "type_name") + COMMON, ()),
    "snapshot": (("snapshot_id", "snapshot_name", "size", "boot_index", "name", "type_name") + COMMON, ("size",)),
    "apptemplate": (("apptemplate_id", "size", "boot_index", "name", "type_name") + COMMON, ("apptemplate_id",)),
    "existing-volume": (("volume_id", "boot_index") + COMMON, ("volume_id",)),
}
VOLUME_SPEC = dict(
    source=dict(type="str", required=True, choices=list(INSTANCE_SOURCES)),
    size=dict(type="int"),
    name=dict(type="str"),
    type_name=dict(type="str", choices=list(TYPES)),
    image_id=dict(type="str"),
    image_name=dict(type="str"),
    snapshot_id=dict(type="str"),
    snapshot_name=dict(type="str"),
    apptemplate_id=dict(type="str"),
    volume_id=dict(type="str"),
    boot_index=dict(type="int"),
    attachment_tag=dict(type="str"),
    delete_on_termination=dict(type="bool"),
    tags=dict(type="dict"),
)
# The instance's power state: the status each state wants, and the action that gets there from another status.
POWER = {"started": "ACTIVE", "stopped": "SHUTOFF", "restarted": "ACTIVE"}
WAITING = ("BUILD", "REBOOT", "HARD_REBOOT", "RESIZE", "VERIFY_RESIZE", "REVERT_RESIZE", "MIGRATING", "REBUILD", "PASSWORD")


def check_volumes(volumes):
    """Every volume against its source; ``image_id`` and ``image_name`` exclusive, one of them required."""
    if volumes is None:
        return
    if not volumes:
        raise ValidationError("volumes: at least one volume is required (the instance boots from one)")
    for index, item in enumerate(volumes):
        where = "volumes[%d]" % index
        source = item["source"]
        allowed, required = VOLUME_FIELDS[source]
        for field in VOLUME_SPEC:
            if field == "source" or item.get(field) is None or field in allowed:
                continue
            having = [other for other in INSTANCE_SOURCES if field in VOLUME_FIELDS[other][0]]
            raise ValidationError("%s.%s: not allowed for source %s (only for source %s)" % (where, field, source, " or ".join(having)))
        for field in required:
            if item.get(field) is None:
                raise ValidationError("%s.%s: required for source %s" % (where, field, source))
        if source == "image" and (item.get("image_id") is None) == (item.get("image_name") is None):
            raise ValidationError("%s: source image needs exactly one of image_id and image_name" % where)
        if source == "snapshot" and item.get("snapshot_id") is None and item.get("snapshot_name") is None:
            raise ValidationError("%s.snapshot_id: required when source is snapshot (or snapshot_name)" % where)
        if source == "snapshot" and item.get("snapshot_id") is not None and item.get("snapshot_name") is not None:
            raise ValidationError("%s: source snapshot needs exactly one of snapshot_id and snapshot_name" % where)
        check_name("%s.snapshot_name" % where, item.get("snapshot_name"))
        for field in ("image_id", "snapshot_id", "volume_id"):
            check_uuid("%s.%s" % (where, field), item.get(field))
        check_range("%s.size" % where, item.get("size"), 1, MAX_SIZE)
        check_name("%s.name" % where, item.get("name"))
        check_length("%s.image_name" % where, item.get("image_name"), 1, 255)
        check_length("%s.apptemplate_id" % where, item.get("apptemplate_id"), 1, 255)
        check_pattern("%s.attachment_tag" % where, item.get("attachment_tag"), ATTACHMENT_TAG, ATTACHMENT_TAG_RULE)
        if source == "snapshot" and item.get("type_name") not in (None,) + SNAPSHOT_TYPES:
            raise ValidationError("%s.type_name: a snapshot volume is standard or ssd_hiiops, not %s" % (where, item["type_name"]))
        check_tags(item.get("tags"), "%s.tags" % where)
    check_boot(volumes)


def check_boot(volumes):
    """One volume boots: at most one ``boot_index`` 0, at least one volume that can boot (a new-volume is blank; a
    negative ``boot_index`` is not bootable), and no existing volume listed twice (the service refuses each)."""
    first = {}
    for index, item in enumerate(volumes):
        key = ("boot", 0) if item.get("boot_index") == 0 else ("volume", (item.get("volume_id") or "").lower() or None)
        if key[1] is None:
            continue
        if key in first:
            raise ValidationError("volumes[%s] and volumes[%s]: %s" % (first[key], index, "both have boot_index 0; one volume boots"
                                                                       if key[0] == "boot" else "volume %s is listed twice" % key[1]))
        first[key] = index
    if not any(item["source"] != "new-volume" and (item.get("boot_index") or 0) >= 0 for item in volumes):
        raise ValidationError("volumes: no volume is bootable; give one volume of source image, snapshot, apptemplate or "
                              "existing-volume with boot_index 0 (a new-volume is blank, a negative boot_index does not boot)")


def check_credentials(params):
    """``username`` creates a user with ``password``: alone the service refuses it."""
    if params.get("username") is not None and params.get("password") is None:
        raise ValidationError("username: needs password (the new user's password); give both, or neither")


def volumes_body(volumes, images, snapshots=None):
    """The create body's ``volumes``: the fields given, ``image_name`` and ``snapshot_name`` replaced by the ids they
    resolved to (``images``, ``snapshots``)."""
    body = []
    for item in volumes:
        volume = dict((key, value) for key, value in item.items() if value is not None and key not in ("image_name", "snapshot_name"))
        if item.get("image_name") is not None:
            volume["image_id"] = images[item["image_name"]]
        if item.get("snapshot_name") is not None:
            volume["snapshot_id"] = snapshots[item["snapshot_name"]]
        for field in ("image_id", "snapshot_id", "volume_id"):
            if field in volume:
                volume[field] = volume[field].lower()
        body.append(volume)
    return body


def user_data_body(text):
    """``user_data`` as the service takes it: the text, UTF-8, base64-encoded."""
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def flavor_of(record):
    return ((record or {}).get("flavor") or {}).get("flavor_name") or ((record or {}).get("flavor") or {}).get("flavor_id")


class Setting(Part):
    """One setting of an instance changed by a request of its own (a ``Part``): ``name``, the diff member; ``option``,
    the option that asks for it; ``wanted(module)``: the value the task asks for (None: not managed); ``read(record)``:
    the value the record shows; ``write(record, wanted, params)``: the one ``Write`` that makes it ``wanted`` (None:
    the record already satisfies it)."""

    def __init__(self, name, option, wanted, read, write):
        self.name, self.option, self.wanted, self.read, self.write = name, option, wanted, read, write

    def views(self, state, wanted, params):
        return (None if state is None else self.read(state)), wanted

    def plan(self, record, wanted, params):
        return [write for write in [self.write(record, wanted, params)] if write is not None]


def _power_write(record, wanted, params):
    """The v2 action that brings the instance to ``wanted`` (``REBOOT``: restart it), or None when it is there."""
    status = record.get("status")
    if wanted == "REBOOT":
        action, target = ("start", "ACTIVE") if status == "SHUTOFF" else ("reboot", "ACTIVE")
    elif status == wanted or (wanted == "ACTIVE" and status == "BUILD"):
        return None  # there, or becoming it (a new instance boots into ACTIVE)
    else:
        action, target = {"ACTIVE": ("resume" if status == "SUSPENDED" else "start", "ACTIVE"), "SHUTOFF": ("stop", "SHUTOFF")}[wanted]
    said = {{"start": "started", "resume": "started", "stop": "stopped"}.get(action, "updated"): [params.get("name")]}
    return Write("action", "POST", ACTION.format(**dict(params, id=record["id"])), {"action": action}, names=[action], locked=record, said=said,
                 done=(lambda found: False) if action == "reboot" else (lambda found: (found or {}).get("status") == target))


def _resize_write(record, wanted, params):
    """``changeflavor`` to ``wanted`` when the flavor differs: only with ``allow_resize``, else the option fails as create-only."""
    current = flavor_of(record)
    if current == wanted:
        return None
    if not params.get("allow_resize"):
        raise Refused("flavor: instance %s has flavor %r, not %r; the flavor is set when the instance is created: set "
                      "allow_resize: true to resize it (resizing restarts the instance), or delete the instance and create "
                      "it again, or use another name (nothing was sent)" % (record.get("id"), current, wanted))
    return Write("action", "POST", (BASE + "/{id}/changeflavor").format(**dict(params, id=record["id"])), {"flavor_id": wanted},
                 names=[wanted], locked=record, done=lambda found: flavor_of(found) == wanted)


def _power_wanted(module):
    """The status the state asks for (``REBOOT``: a restart); none for an instance created in this run (its ledger holds
    the create), which has just booted."""
    state = module.params["state"]
    if state not in POWER or (state == "restarted" and any(write.kind == "create" for write in module.ledger.writes())):
        return None
    return "REBOOT" if state == "restarted" else POWER[state]


POWER_STATE = Setting("status", "state", _power_wanted, lambda record: record.get("status"), _power_write)
FLAVOR = Setting("flavor", "flavor", lambda module: module.params["flavor"] if module.params["state"] != "absent" else None,
                 flavor_of, _resize_write)


def check_group(where, item):
    check_name(where, item)
    return {"name": item}


# The instance's security groups, by name (the record shows names only; docs/api_reference.md section 15.7).
SECURITY_GROUPS = Attachments(
    "security_groups", key="name", check_item=check_group,
    items=lambda record: [{"name": group.get("name")} for group in record.get("security_groups") or []],
    attach=("POST", BASE + "/{id}/addsecuritygroup"), detach=("POST", BASE + "/{id}/delsecuritygroup"),
    said=("security_groups.added", "security_groups.removed"),
)


class Goes:
    """What goes with an instance that is deleted, and what is left, as the run read it (before any write): its volumes
    (the record's ``volumes``: those created with ``delete_on_termination`` go anyway, the others with ``delete_volumes``)
    and the floating IPs assigned to it (one listing of the floating IPs, each naming its ``instance``; they go with
    ``delete_floating_ips``, else the service unassigns them). The DELETE names exactly these (``query``): a volume
    attached or a floating IP assigned by another task after the run read the instance stays."""

    def __init__(self, client, params, record):
        self.params, self.volumes, self.floating_ips = params, [], []
        self.ident = (record or {}).get("id")
        if record is not None:
            self.volumes = [dict(id=volume.get("id"), goes=bool(volume.get("delete_on_termination") or params.get("delete_volumes")),
                                 anyway=bool(volume.get("delete_on_termination"))) for volume in record.get("volumes") or []]
            self.floating_ips = [dict(id=item.get("id"), address=item.get("floating_ip_address"), goes=bool(params.get("delete_floating_ips")))
                                 for item in client.paginate(KINDS["floating_ip"].paths["list"].format(**params), page_size=PAGE_SIZE)
                                 if (item.get("instance") or {}).get("id") == record.get("id")]

    def query(self, record):
        """The DELETE query: ``floatings`` (the floating IPs read) and ``volumes`` (those read that the instance still has
        and the service would not delete anyway)."""
        query = {}
        floatings = [item["id"] for item in self.floating_ips if item["goes"]]
        if floatings:
            query["floatings"] = ",".join(floatings)
        still = set(volume.get("id") for volume in (record or {}).get("volumes") or [])
        volumes = [volume["id"] for volume in self.volumes if volume["goes"] and not volume["anyway"] and volume["id"] in still]
        if volumes:
            query["volumes"] = ",".join(volumes)
        return query

    def said(self, going):
        return {"volumes": [volume["id"] for volume in self.volumes if volume["goes"] is going],
                "floating_ips": [item["id"] for item in self.floating_ips if item["goes"] is going]}

    def shown(self):
        """What goes with the instance, as the delete's ``diff.before`` lists it."""
        return {"deleted_with_it": self.said(True)} if self.ident else {}

    def tell(self, module):
        """``deleted`` and ``left`` in the result, and a warning naming what is left (when there was an instance)."""
        module.result.update(deleted=self.said(True), left=self.said(False))
        left, ident = module.result["left"], self.ident
        if ident is None or not (left["volumes"] or left["floating_ips"]):
            return
        parts = []
        if left["volumes"]:
            parts.append("volumes %s (delete_volumes: true deletes them with it)" % ", ".join(left["volumes"]))
        if left["floating_ips"]:
            parts.append("floating IPs %s (unassigned; delete_floating_ips: true deletes them with it)" % ", ".join(
                "%s (%s)" % (item["address"], item["id"]) for item in self.floating_ips if not item["goes"]))
        module.module.warn("instance %s %s; left: %s" % (ident, "would be deleted" if module.check_mode else "was deleted", "; ".join(parts)))


GROUP_KIND = KINDS["placement_group"]


class Placement(Part):
    """The placement group an instance is in, by id (``""``: none): a part of one instance, which reads the groups once
    before any write (``load(module)``, with the run's client kept for reading them again) and resolves
    ``placement_group`` (an id or an exact name) to an id; ``joined``: the instance was created in this run, its create
    body carrying the group (``Instance.answered``).
    The instance record does not show its group: membership is read from the groups' ``instances`` (docs/api_reference.md
    section 16.5). On an existing instance a different group is reached by leaving the old one, then joining the new
    one, each a task; a new instance joins through its create body (``servergroup_id``)."""

    name = option = "placement_group"
    by_name = joined = False  # the task named the group: the diff shows its name; created in this run with it
    client = groups = None  # the run's client, the groups as read before any write

    def check(self, module):
        value = module.params[self.option]
        if value and not is_uuid(value):
            check_name(self.option, value, "a placement group ID (a UUID), an exact name or \"\" (none)", longest=GROUP_KIND.name_length)

    def groups_now(self, params):
        return list(listed(self.client, GROUP_KIND, params))

    def load(self, module):
        """The groups read, and ``placement_group`` resolved to a group id (``""``: none), before any write."""
        params, self.client = module.params, module.client
        value = params[self.option]
        if value is None or params["state"] == "absent":
            return
        self.groups = self.groups_now(params)
        if value == "":
            return
        key = "servergroup_id" if is_uuid(value) else "name"
        self.by_name = key == "name"
        wanted = value.lower() if key == "servergroup_id" else value
        found = [group for group in self.groups if group.get(key) == wanted]
        where = GROUP_KIND.scope.format(**params)
        if len(found) > 1:
            raise Refused("%s: %s placement groups of %s are named %r (ids %s); give the id of the one to use (nothing was sent)"
                          % (self.option, len(found), where, value, ", ".join(group["servergroup_id"] for group in found)))
        if not found and key == "name" and module.check_mode:  # a preview: an earlier task builds it
            params[self.option] = assume(module, GROUP_KIND, value, self.option)
            return
        if not found:
            raise Refused("%s: no placement group %s %r in %s (nothing was sent)" % (
                self.option, "has the id" if key == "servergroup_id" else "is named", value, where))
        params[self.option] = found[0]["servergroup_id"]

    def wanted(self, module):
        value = module.params[self.option]
        return None if value is None or module.params["state"] == "absent" or self.groups is None else value

    def holding(self, ident, groups):
        return next((group["servergroup_id"] for group in groups if any(
            item.get("instance_id") == ident for item in group.get("instances") or [])), "")

    def views(self, state, wanted, params):
        return (None if state is None else self.named(self.holding(state["id"], self.groups or []))), self.named(wanted)

    def named(self, ident):
        """A group as the task gave it: its name where the task named one, else its id."""
        return next((group.get("name") for group in self.groups or [] if self.by_name and group["servergroup_id"] == ident), ident)

    def plan(self, record, target, params):  # pylint: disable=arguments-renamed  # the one group wanted
        if self.joined:  # created in this run: its create body carried the group
            return []
        current = self.holding(record["id"], self.groups)
        if current == target:
            return []
        if current and target and not params.get("wait", True):
            raise ValidationError("wait: moving instance %s from placement group %s to %s is two tasks, the second sent once "
                                  "the first has finished, and wait=false does not wait; set wait=true, or take it out "
                                  "(placement_group: \"\") and put it in with two runs (nothing was sent)" % (record["id"], current, target))
        path = (BASE + "/{id}/%s").format(**dict(params, id=record["id"]))
        writes, said = [], {"moved": [params.get("name")]}  # what a fleet's message says of the member
        if current:
            writes.append(Write("detach", "POST", path % "remove_from_servergroup", names=[current], locked=record, said=said,
                                done=lambda found: self.holding(record["id"], self.groups_now(params)) == ""))
        if target:
            writes.append(Write("attach", "POST", path % "put_into_servergroup", {"servergroup_id": target}, names=[target],
                                locked=record, said=said, done=lambda found: self.holding(record["id"], self.groups_now(params)) == target))
        return writes
