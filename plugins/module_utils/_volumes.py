# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""Volumes: the one table of volume types and sources and of file share types, the volumes of a planned instance
(``PLANNED``), and the parts of a volume (docs/api_reference.md sections 15.6, 15.7 and 19.2): the one instance it is
attached to (``SingleAttachment``: detached first, as the service refuses to attach a volume attached elsewhere) and its
size (``Extension``, a file share's too: a write of its own after the PATCH, waiting for the lock).

This module is internal to the collection: its interface may change at any time.
"""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.module_utils._attachments import Attachments
from ansible_collections.gcore.platform.plugins.module_utils._parents import parent_id
from ansible_collections.gcore.platform.plugins.module_utils._parts import Part
from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError, check_range, check_uuid, strip_none
from ansible_collections.gcore.platform.plugins.module_utils._writes import Write

MAX_SIZE = 102400  # GiB: the largest volume the service takes (the pricing schema's maximum, docs/api_reference.md 15.6)
TYPES = ["standard", "ssd_hiiops", "ssd_lowlatency", "ssd_local", "cold", "ultra"]
SOURCES = ["new-volume", "image", "snapshot"]
SHARE_TYPES = ["standard", "vast"]  # a file share's (docs/api_reference.md section 19.2)
INSTANCE_SOURCES = ("new-volume", "image", "snapshot", "apptemplate", "existing-volume")  # of an instance's volumes
# The volumes of a planned instance, as a quota check and a price preview take them (``check_planned``).
PLANNED = dict(type="list", elements="dict", options=dict(
    source=dict(type="str", required=True, choices=list(INSTANCE_SOURCES)),
    size=dict(type="int"),
    type_name=dict(type="str", choices=list(TYPES)),
    snapshot_id=dict(type="str"),
    image_id=dict(type="str"),
))
ATTACHMENT_TAG = r"[^,/]{1,60}"
ATTACHMENT_TAG_RULE = "1 to 60 characters, without ',' or '/'"
# Statuses a volume passes through on its way to available or in-use (any other one, error* included, stops the wait).
TRANSIENT = ("creating", "extending", "attaching", "detaching", "downloading", "reserved", "retyping", "reverting",
             "restoring-backup", "backing-up", "uploading", "awaiting-transfer", "maintenance")


def check_planned(volumes):
    """The volumes of a planned instance (``PLANNED``): a size at least 1, a snapshot's id, the ids UUIDs."""
    for index, volume in enumerate(volumes or []):
        name = "volumes[%d]" % index
        check_range("%s.size" % name, volume["size"], low=1)
        if volume["source"] == "snapshot" and not volume["snapshot_id"]:
            raise ValidationError("%s.snapshot_id: required when source is snapshot" % name)
        check_uuid("%s.snapshot_id" % name, volume["snapshot_id"])
        check_uuid("%s.image_id" % name, volume["image_id"])


def attached_instances(record):
    return [{"instance_id": item.get("server_id")} for item in (record or {}).get("attachments") or [] if item.get("server_id")]


class SingleAttachment(Attachments):
    """The one instance a volume is attached to: the option holds ``[{instance_id, attachment_tag}]``, or ``[]`` (detached).

    Unlike a list of attachments, a change detaches first, then attaches: moving a volume is a detach from the old
    instance followed by an attach to the new one."""

    before_delete = True  # detached before the volume is deleted (the service refuses otherwise)

    def __init__(self, attach, detach):
        super().__init__("instance_id", "instance_id", attached_instances, attach, detach, attach_body=strip_none, option="instance",
                         same=lambda desired, current: desired["instance_id"] == current["instance_id"])

    def check(self, module):
        """The instance is checked by the module."""

    def wanted(self, module):
        """``[{instance_id, attachment_tag}]`` (the instance an id, or a name resolved once: ``_parents.parent_id``), ``[]``
        for ``""`` (detached), None when not given."""
        instance = module.params["instance"]
        if not instance:
            return None if instance is None else []
        return [{"instance_id": parent_id(module, "instance", instance, "instance"), "attachment_tag": module.params["attachment_tag"]}]

    def plan(self, record, wanted, params):
        held = self.held(record)
        keep = wanted[0]["instance_id"] if wanted else None
        detach = [self.writing("detach", item, record, params) for key, item in held.items() if key != keep]
        attach = [self.writing("attach", wanted[0], record, params)] if wanted and keep not in held else []
        return detach + attach

    def views(self, state, wanted, params):
        return (None if state is None else next(iter(self.held(state)), None)), wanted[0][self.key] if wanted else None


class Extension(Part):
    """The size of a volume (or a file share: ``noun``) as a write of its own: ``POST .../extend {size}`` (kind
    ``extend``, saying ``said(params)``) when the wanted size, the option ``size``, is larger; a failure before any
    write when it is smaller (a volume never shrinks)."""

    name = option = "size"

    def __init__(self, path, noun="volume", said=lambda params: {"updated": ["size"]}):
        self.path, self.noun, self.said = path, noun, said

    def views(self, state, wanted, params):
        return (None if state is None else state.get("size")), wanted

    def plan(self, record, size, params):  # pylint: disable=arguments-renamed  # the one size wanted
        current = record.get("size")
        if size == current:
            return []
        if isinstance(current, int) and size < current:
            raise ValidationError("size: %s %s has %s GiB, more than the %s GiB asked for; a %s can never shrink: ask "
                                  "for %s GiB or more, or create a new %s (nothing was sent)"
                                  % (self.noun, record.get("id"), current, size, self.noun, current, self.noun))
        return [Write("extend", "POST", self.path.format(**dict(params, id=record["id"])), {"size": size}, names=["size"],
                      said=self.said(params), locked=record, done=lambda found: found is not None and (found.get("size") or 0) >= size)]
