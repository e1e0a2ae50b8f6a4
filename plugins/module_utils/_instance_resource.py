# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""The ``Instance`` declaration: one Gcore Cloud instance as a ``CloudResource`` (docs/api_reference.md section 15.7),
the class of the ``instance`` module and of each member of an ``instances`` fleet, and what its create makes as the
diff shows it (``instance_created``: its image, volumes, interfaces, whether ``user_data`` and ``password`` are set).

This module is internal to the collection: its interface may change at any time.
"""

from __future__ import annotations

from functools import cached_property

from ansible_collections.gcore.platform.plugins.module_utils._addresses import address_lists
from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, ValidationError, check_length, is_uuid, require, strip_none
from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudResource
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS, find_named, listed
from ansible_collections.gcore.platform.plugins.module_utils._instance import (
    FLAVOR,
    POWER_STATE,
    Placement,
    SECURITY_GROUPS,
    VOLUME_SPEC,
    WAITING,
    Goes,
    check_credentials,
    check_volumes,
    user_data_body,
    volumes_body,
)
from ansible_collections.gcore.platform.plugins.module_utils._interfaces import interfaces_body, interfaces_option, resolve_interfaces, validate_interfaces
from ansible_collections.gcore.platform.plugins.module_utils._members import Member, create_only
from ansible_collections.gcore.platform.plugins.module_utils._parents import active_images, assume, assumed, parent_id


# A volume's fields the diff shows: what it is made of, its size and type, its name and boot order.
VOLUME_FIELDS = ("source", "image_name", "image_id", "snapshot_name", "snapshot_id", "apptemplate_id", "volume_id", "size",
                 "type_name", "name", "boot_index", "delete_on_termination")
# An interface's fields the diff shows (the network and subnet as given: by name or id; a reserved fixed IP by address).
INTERFACE_FIELDS = ("type", "interface_name", "network", "network_id", "subnet", "subnet_id", "port_id", "ip_address", "ip_family")


def _set(value):
    return "set" if value is not None else "not set"


def instance_created(params):
    """The instance a create makes, beyond its members and parts: ``image``, ``volumes``, ``interfaces``, and whether
    ``user_data`` and ``password`` are set."""
    volumes = [strip_none(dict((field, item.get(field)) for field in VOLUME_FIELDS)) for item in params["volumes"] or []]
    booted = sorted((item for item in volumes if item["source"] == "image"), key=lambda item: item.get("boot_index", 0))
    interfaces = []
    for item in params["interfaces"] or []:
        shown = strip_none(dict((field, item.get(field)) for field in INTERFACE_FIELDS))
        if item.get("floating_ip"):
            shown["floating_ip"] = item["floating_ip"].get("existing_floating_id") or item["floating_ip"]["source"]
        interfaces.append(shown)
    return {"image": (booted[0].get("image_name") or booted[0].get("image_id")) if booted else None, "volumes": volumes,
            "interfaces": interfaces, "user_data": _set(params["user_data"]), "password": _set(params["password"])}


def boot_images(module, query):
    """``{instance id: boot volume}``: the volume each instance boots from (``is_root_volume``), as its record shows it
    (``volume_image_metadata``: ``image_id``, ``image_name``; ``size``, ``volume_type``), from one listing of the
    volumes filtered by ``query``."""
    volumes = listed(module.client, KINDS["volume"], module.params, query)
    return dict((item.get("server_id"), volume) for volume in volumes if volume.get("is_root_volume")
                for item in volume.get("attachments") or [])


def boot_volume(params):
    """The declared boot volume (``boot_index`` 0, else the first), when it is made from an image."""
    volumes = params["volumes"] or []
    boot = next((item for item in volumes if item.get("boot_index") == 0), volumes[0] if volumes else None)
    return boot if boot is not None and boot.get("source") == "image" else None


def image_named(image):
    return "%r (%s)" % (image["image_name"], image["image_id"]) if image.get("image_name") else image["image_id"]


class Instance(CloudResource):
    kind = KINDS["instance"]
    states = ("present", "started", "stopped", "restarted", "absent")
    options = dict(
        flavor=dict(type="str"),
        allow_resize=dict(type="bool", default=False),
        volumes=dict(type="list", elements="dict", options=VOLUME_SPEC),
        interfaces=interfaces_option(named=True),
        security_groups=dict(type="list", elements="str"),
        ssh_key_name=dict(type="str", no_log=False),
        user_data=dict(type="str", no_log=True),
        password=dict(type="str", no_log=True),
        username=dict(type="str"),
        placement_group=dict(type="str", aliases=["servergroup_id"]),
        delete_floating_ips=dict(type="bool", default=False),
        delete_volumes=dict(type="bool", default=False),
        wait_timeout=dict(type="int", default=1200),
    )
    tagged = True
    required_to_create = ("name", "flavor", "volumes", "interfaces")
    ready = ("status", ("ACTIVE", "SHUTOFF"), WAITING)
    goes = None  # with state absent: what goes with the instance and what is left (_instance.Goes)
    boots = None  # {instance id: boot volume} read for a whole fleet at once (``boot_images``), else read per instance

    @property
    def parts(self):
        """Resize first, the placement group before the power state, the power state last."""
        return (FLAVOR, SECURITY_GROUPS, self.placement, POWER_STATE)

    @cached_property
    def placement(self):
        return Placement()

    @property
    def changes(self):
        """The security groups added and removed, when the task lists them."""
        return {"security_groups": {"added": str, "removed": str}} if self.params["security_groups"] is not None else None

    @property
    def members(self):
        return (Member("name"), create_only("ssh_key_name", lambda record: record.get("ssh_key_name"), "instance"))

    def validate(self):
        super().validate()
        params = self.params
        check_length("flavor", params["flavor"], 1, 255)
        check_length("ssh_key_name", params["ssh_key_name"], 1, 255)
        check_volumes(params["volumes"])
        check_credentials(params)
        if params["interfaces"] is not None:
            validate_interfaces("interfaces", params["interfaces"], at_least_one=True, named=True)
        self.resolved = {"images": {}, "snapshots": {}, "groups": [], "interfaces": None}

    # ---- hooks ------------------------------------------------------------------------------
    def resolve(self):
        """The placement group named, resolved to its id before any write (one listing of the groups)."""
        self.placement.load(self)

    def examine(self, record):
        """Before any write: with state absent, what goes with the instance (``Goes``: the delete takes only that); else
        the image names resolved (every run), an existing instance's image compared (``image_differs``: create-only) and
        the security groups it is to join found, and for a create the snapshot and security group names resolved to ids
        (reads only; each must match exactly one)."""
        params = self.params
        if params["state"] == "absent":
            self.goes = Goes(self.client, params, record)  # read before any write: the delete takes only these
            return
        self.resolve_images()
        if record is not None:
            boots = self.boots if self.boots is not None else boot_images(self, {"instance_id": record["id"]})
            differs = self.image_differs(record, boots.get(record["id"]))
            if differs:
                raise Refused("volumes: instance %s (%s) %s; the image is create-only and the instance API has no rebuild: the "
                              "way forward is a new instance (another name, or delete this one first; nothing was sent)"
                              % (params["name"] or record.get("name"), record["id"], differs))
            held = [group.get("name") for group in record.get("security_groups") or []] + ["default"]  # every project has it
            for name in [item["name"] for item in params["security_groups"] or [] if item["name"] not in held]:
                parent_id(self, "security_group", name, "security_groups")  # found before any write (no tag PATCH first)
        if record is not None or params["instance_id"] is not None:
            return
        if params["state"] == "stopped" and not params["wait"]:
            raise ValidationError("state: stopped creates the instance and then stops it once it is ACTIVE, which needs "
                                  "wait=true (nothing was sent)")
        for name in dict.fromkeys(item["snapshot_name"] for item in params["volumes"] or [] if item.get("snapshot_name") is not None):
            self.resolved["snapshots"][name] = find_named(self.client, KINDS["snapshot"], params, name, "volumes[].snapshot_name")[0]
        self.resolved["groups"] = [{"id": parent_id(self, "security_group", item["name"], "security_groups")}
                                   for item in params["security_groups"] or []]
        self.resolved["interfaces"] = resolve_interfaces(self, "interfaces", params["interfaces"])

    def resolve_images(self):
        """``volumes[].image_name`` resolved to ids on every run, once (a fleet's members share the result): an unknown
        or deactivated image fails naming it; in check mode a name no image has is assumed built by an earlier task."""
        if self.resolved.get("images_read"):
            return
        preview = self.check_mode and (lambda name: assume(self, KINDS["image"], name, "volumes[].image_name"))
        self.resolved["images"] = active_images(self.client, self.params, [
            item["image_name"] for item in self.params["volumes"] or [] if item.get("image_name") is not None],
            "volumes", assume=preview or None)
        self.resolved["images_read"] = True

    def image_differs(self, record, volume):
        """How the image of an existing instance (``volume``: its boot volume, whose ``volume_image_metadata`` names it)
        differs from the declared boot volume's, in words (None: the same, or nothing to compare)."""
        boot, found = boot_volume(self.params), (volume or {}).get("volume_image_metadata") or {}
        if boot is None or not found.get("image_id"):
            return None
        wanted = boot.get("image_id") or self.resolved["images"][boot["image_name"]]
        if not assumed(wanted) and wanted.lower() == found["image_id"].lower():
            return None
        return "boots from the image %s, not %s" % (image_named(found), "%r (not built yet)" % boot["image_name"] if assumed(wanted) else image_named(
            {"image_id": wanted, "image_name": boot.get("image_name")}))

    def renewed(self, record, volume):
        """What only a new instance can change, in words ([]: nothing): the image, the size and type of the boot volume
        (``volume``: its record) when the declared one comes from an image, the SSH key, and the networks interfaces name
        by name (the record's ``addresses`` are keyed by network name; a fleet replaces members for these)."""
        boot, key, shown = boot_volume(self.params) or {}, self.params["ssh_key_name"], record.get("addresses") or {}
        why = [self.image_differs(record, volume)] + ["has a boot volume of %s %r, not %r" % (option, volume.get(field), boot[option])
                                                      for option, field in (("size", "size"), ("type_name", "volume_type"))
                                                      if volume and boot.get(option) is not None and volume.get(field) != boot[option]]
        if key is not None and record.get("ssh_key_name") != key:
            why.append("has the SSH key %r, not %r" % (record.get("ssh_key_name"), key))
        named = dict.fromkeys(item["network"] for item in self.params["interfaces"] or [] if item.get("network") and not is_uuid(item["network"]))
        why += ["has no interface on the network %r (its networks: %s)" % (name, ", ".join(sorted(shown))) for name in named if shown and name not in shown]
        return [text for text in why if text]

    def create_body(self):
        params = self.params
        body = {"name": params["name"], "flavor": params["flavor"], "interfaces": interfaces_body(self.resolved["interfaces"]),
                "volumes": volumes_body(params["volumes"], self.resolved["images"], self.resolved["snapshots"])}
        if params["security_groups"]:
            body["security_groups"] = self.resolved["groups"]
        for option in ("ssh_key_name", "password", "username", "tags"):
            if params[option] is not None:
                body[option] = params[option]
        if params["placement_group"]:
            body["servergroup_id"] = params["placement_group"]
        if params["user_data"] is not None:
            body["user_data"] = user_data_body(params["user_data"])
        return body

    def create_shown(self):
        return instance_created(self.params)

    def delete_query(self, record):
        return self.goes.query(record)

    def shown(self, record):
        return dict(super().shown(record), **(self.goes.shown() if self.goes else {}))

    def answered(self, write, answer):
        if write.kind == "create":
            self.placement.joined = True  # a new instance is in its group

    def returned(self, record):
        found = super().returned(record)
        if self.goes is not None and "deleted" not in self.result:
            self.goes.tell(self)
        self.result["addresses"] = address_lists((found or {}).get("addresses"))
        return found


ONE_ONLY = (  # (option, member, what it names, whether an item holds a value one instance alone can have)
    ("interfaces", "ip_address", "fixed address", lambda item: bool(item.get("ip_address")) and item.get("type") != "reserved_fixed_ip"),
    ("interfaces", "floating_ip", "existing floating IP", lambda item: (item.get("floating_ip") or {}).get("source") == "existing"),
    ("interfaces", "port_id", "reserved fixed IP", lambda item: item.get("type") == "reserved_fixed_ip"),
    ("volumes", "volume_id", "existing volume", lambda item: item.get("source") == "existing-volume"))


def one_only(params, many):
    """A value one instance alone can have (a fixed address, an existing floating IP, volume or reserved port) fails
    naming the option when ``many`` instances (above one) are declared."""
    for option, items, noun, given in ONE_ONLY if many > 1 else ():
        for index, item in enumerate(params[option] or []):
            require(not given(item), "%s[%d].%s" % (option, index, items), "names one %s, and %d instances cannot all have it; "
                    "leave it out (each member gets its own), or declare that instance alone with gcore.platform.instance" % (noun, many))


def ready_together(module, ids, deadline):
    """The records of ``ids`` ({name: id}) once none shows a waiting status, read together (one listing of ``module``'s
    instances per poll); ``{name: record or None (gone)}``. At the deadline the records are returned as read last."""
    member, _good, waiting = Instance.ready
    last = {}

    def step():
        records = dict((record.get("id"), record) for record in module.listing())
        last.update((name, records.get(ident)) for name, ident in ids.items())
        return not any(record is not None and record.get(member) in waiting for record in last.values())

    if ids:
        try:
            module.tasks.poll(step, deadline, Refused)
        except Refused:
            pass  # each member's own wait then names its status
    return last
