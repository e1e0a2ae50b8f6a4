# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""Volumes: the members and the one-by-one writes the ``volume`` module declares, and finding an instance by id or exact
name (docs/api_reference.md sections 15.6 and 15.7).

This module is internal to the collection: its interface may change at any time.

- ``SingleAttachment``: a volume is attached to at most one instance. It is an ``Attachments`` (``_attachments``) whose
  plan detaches first (the service refuses to attach a volume that is still attached elsewhere), and whose diff shows
  the instance id (or null), not a list.
- ``Extension``: the volume's size, grown with its own request (``POST .../extend`` → task), never shrunk. It is planned
  like an attachment (one write of its own, after the PATCH, waiting for the lock), through the same interface.
- ``create_only``: a member the service cannot change: a differing value fails before any write, naming the option,
  both values and what to do.
- ``find_instance``: an instance by id (kept as given) or by exact name over every page of the instance list.
"""

from __future__ import annotations

import uuid

from ansible_collections.gcore.platform.plugins.module_utils._attachments import Attachments
from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._writes import Write

PAGE_SIZE = 1000  # the largest page the volume and instance listings serve (docs/api_reference.md section 15.11)
TYPES = ["standard", "ssd_hiiops", "ssd_lowlatency", "ssd_local", "cold", "ultra"]
SOURCES = ["new-volume", "image", "snapshot"]
ATTACHMENT_TAG = r"[^,/]{1,60}"
ATTACHMENT_TAG_RULE = "1 to 60 characters, without ',' or '/'"
INSTANCES = "/cloud/v1/instances/{project_id}/{region_id}"
# Statuses a volume passes through on its way to available or in-use (any other one, error* included, stops the wait).
TRANSIENT = ("creating", "extending", "attaching", "detaching", "downloading", "reserved", "retyping", "reverting",
             "restoring-backup", "backing-up", "uploading", "awaiting-transfer", "maintenance")


def is_uuid(value):
    try:
        uuid.UUID(value)
    except (TypeError, ValueError, AttributeError):
        return False
    return True


def attached_instances(record):
    return [{"instance_id": item.get("server_id")} for item in (record or {}).get("attachments") or [] if item.get("server_id")]


class SingleAttachment(Attachments):
    """The one instance a volume is attached to: the option holds ``[{instance_id, attachment_tag}]``, or ``[]`` (detached).

    Unlike a list of attachments, a change detaches first, then attaches: moving a volume is a detach from the old
    instance followed by an attach to the new one."""

    def __init__(self, option, attach, detach):
        super().__init__("instance_id", "instance_id", attached_instances, attach, detach, option=option,
                         attach_body=lambda item: dict((key, value) for key, value in item.items() if value is not None),
                         same=lambda desired, current: desired["instance_id"] == current["instance_id"],
                         before_delete=True)

    def plan(self, record, wanted, params):
        held = self.held(record)
        keep = wanted[0]["instance_id"] if wanted else None
        detach = [self.detaching(item, record, params) for key, item in held.items() if key != keep]
        attach = [self.attaching(wanted[0], record, params)] if wanted and keep not in held else []
        return detach + attach

    def shown(self, items):
        return items[0][self.key] if items else None


class Extension:
    """The size of a volume as a write of its own: ``POST .../extend {size}`` when the wanted size is larger, a failure
    before any write when it is smaller (a volume never shrinks). The option holds ``[size]``. Planned like an
    attachment (``GcoreResourceModule.attachments``): ``plan``, ``held``, ``shown``, ``wanted_view``."""

    name = "size"

    def __init__(self, option, path, noun="volume"):
        self.option = option
        self.path = path
        self.noun = noun

    @staticmethod
    def canonical(items):
        return items

    @staticmethod
    def held(record):
        return {"size": record.get("size")} if record is not None else {}

    @staticmethod
    def shown(items):
        return items[0] if items else None

    @staticmethod
    def wanted_view(wanted, _record):
        return wanted[0] if wanted else None

    def plan(self, record, wanted, params):
        size, current = wanted[0], record.get("size")
        if size == current:
            return []
        if isinstance(current, int) and size < current:
            raise ValidationError("size: %s %s has %s GiB, more than the %s GiB asked for; a volume can never shrink: ask "
                                  "for %s GiB or more, or create a new volume (nothing was sent)"
                                  % (self.noun, record.get("id"), current, size, current))
        return [Write("update", "POST", self.path.format(**dict(params, id=record["id"])), {"size": size}, names=["size"],
                      locked=record, done=lambda found: found is not None and (found.get("size") or 0) >= size)]


def find_instance(client, params, value, option="instance", required=True):
    """The instance ``value`` names in the project and region: ``(id, record or None)``. An id (a UUID) is taken as given;
    a name must match exactly one instance over every page of the instance list (its ``name`` filter matches
    substrings), else ``Refused`` naming the option (no match: ``(None, None)`` when not ``required``) or the ids of the
    matches (several)."""
    if is_uuid(value):
        return str(uuid.UUID(value)), None
    path = INSTANCES.format(**params)
    matches = [record for record in client.paginate(path, {"name": value}, page_size=PAGE_SIZE, total_key="count")
               if record.get("name") == value]
    where = "project %s, region %s" % (params["project_id"], params["region_id"])
    if not matches and not required:
        return None, None
    if not matches:
        raise Refused("%s: no instance is named %r in %s (nothing was sent)" % (option, value, where))
    if len(matches) > 1:
        raise Refused("%s: %s instances of %s are named %r (ids %s); give the id of the one to use (nothing was sent)"
                      % (option, len(matches), where, value, ", ".join(str(record.get("id")) for record in matches)))
    return matches[0]["id"], matches[0]
