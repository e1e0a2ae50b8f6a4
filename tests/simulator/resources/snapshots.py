# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cloud volume snapshots (docs/api_reference.md section 16.4), of the volumes of the volume family (``sim.volumes``).

- ``POST /cloud/v1/snapshots/{p}/{r}`` (``CreateSnapshotSerializer``: ``name*`` NAME, ``volume_id*`` uuid,
  ``description`` string, ``tags``): 200 ``{tasks}``. An unknown volume (of the scope) is a 404; an
  ``ssd_lowlatency`` volume, or one not ``available``/``in-use``, a 400. The snapshot appears at once, ``creating``
  and locked by its ``create_snapshot`` task (``task_id``); when it finishes it is ``available`` (the volume's
  ``snapshot_ids`` gains it) and ``created_resources.snapshots`` names it. A failed task leaves it ``error``, unlocked.
- ``GET /cloud/v1/snapshots/{p}/{r}``: ``{count, results}``, ``limit`` 1-1000 (default 1000), ``offset``; filters
  ``volume_id``, ``instance_id`` (snapshots of the volumes attached to it), ``schedule_id``, ``lifecycle_policy_id``
  (no snapshot here has either); no name or tag filter.
- ``GET .../{snapshot_id}`` (uuid, else 422): ``SnapshotSerializer`` (``size`` GiB of the volume, ``description``
  null when not given, ``tags`` as ``[{key, value, read_only}]``).
- ``PATCH .../{snapshot_id}`` (``name``, ``tags`` a merge patch or null): synchronous, the record.
- ``DELETE .../{snapshot_id}``: a ``delete_snapshot`` task (``deleting``; ``error_deleting`` when it fails).
- A PATCH or DELETE of a locked snapshot answers 409.

For the volume family: ``snapshot(sim, ident)`` gives ``{size, volume_type, status}`` of a snapshot (or None).
Control ``POST /_sim/snapshot_status`` ``{snapshot_id, status}``. State: ``sim.snapshots`` (id -> record).
"""

from __future__ import annotations

import copy
import uuid

from simulator import control
from simulator.core import ApiFailure, now_iso, tag_list
from simulator.resources.production import Collection, in_scope, region_of, scope, settle_steps
from simulator.validation import check_name, check_object, check_str, check_tags, check_uuid, patch_name_and_tags

SNAPSHOTTABLE = ("available", "in-use")


def snapshot(sim, ident):
    """``{size, volume_type, status, project_id, region_id}`` of a snapshot of the family, or None."""
    record = (getattr(sim, "snapshots", None) or {}).get(ident)
    if record is None:
        return None
    return {"size": record["size"], "volume_type": record["_volume_type"], "status": record["status"],
            "project_id": record["project_id"], "region_id": record["region_id"]}


class Snapshots(Collection):
    NAME, NOUN, COLLECTION, TASK, TASK_TYPES = "snapshots", "Snapshot", "snapshots", "snapshot", ("create_snapshot", "delete_snapshot")
    STEPS = {"create": ("creating", "available", "error"), "delete": ("deleting", None, "error_deleting")}
    CONTROLS = {"snapshot_status": "set_status"}

    def reset(self):
        super().reset()
        self.steps = {}  # snapshot id -> (task id, failure status)

    def set_status(self, body):
        control.record({"snapshot_id": control.text, "status": control.text}, required=("snapshot_id", "status"))("snapshot_status", body)
        record = self.sim.snapshots.get(body["snapshot_id"])
        if record is None:
            raise control.ControlError("snapshot_id: no snapshot %s" % body["snapshot_id"])
        record["status"] = body["status"]
        return self.shown(record)

    def shown(self, record, _request=None):
        shown = copy.deepcopy(record)
        del shown["_volume_type"]
        return shown

    def sync(self):
        settle_steps(self.sim, self.steps, self.sim.snapshots.get)

    def filters(self, request):
        tests = []
        volume_id, instance_id = request.arg("volume_id"), request.arg("instance_id")
        if volume_id is not None:
            tests.append(lambda record: record["volume_id"] == volume_id)
        if instance_id is not None:
            attached = set(ident for ident, volume in (getattr(self.sim, "volumes", None) or {}).items()
                           if any(item.get("server_id") == instance_id for item in volume.get("attachments") or []))
            tests.append(lambda record: record["volume_id"] in attached)
        if request.arg("schedule_id") is not None or request.arg("lifecycle_policy_id") is not None:
            tests.append(lambda record: False)  # no snapshot here was made by a schedule
        return tests

    def create(self, request):
        project_id, region_id = scope(request)
        self.sync()
        body = request.json
        check_object("", body, ("name", "volume_id"), ("name", "volume_id", "description", "tags"))
        check_name("name", body["name"])
        check_uuid("volume_id", body["volume_id"])
        if "description" in body:
            check_str("description", body["description"])
        if "tags" in body:
            check_tags("tags", body["tags"])
        volume = in_scope(getattr(self.sim, "volumes", None) or {}, body["volume_id"], project_id, region_id, "Volume")
        if volume["volume_type"] == "ssd_lowlatency":
            raise ApiFailure(400, "Volume %s is ssd_lowlatency: such volumes cannot be snapshotted" % volume["id"])
        if volume["status"] not in SNAPSHOTTABLE:
            raise ApiFailure(400, "Volume %s is %s; only an available or in-use volume can be snapshotted" % (volume["id"], volume["status"]))
        stamp = now_iso()
        record = dict(region_of(project_id, region_id), id=str(uuid.uuid4()), name=body["name"],
                      description=body.get("description"), volume_id=volume["id"], size=volume["size"], status="creating",
                      tags=tag_list(body.get("tags") or {}), created_at=stamp, updated_at=stamp, creator_task_id=None,
                      task_id=None, _volume_type=volume["volume_type"])
        self.sim.snapshots[record["id"]] = record

        def apply():
            if record["id"] not in volume["snapshot_ids"]:
                volume["snapshot_ids"].append(record["id"])
            return {"snapshots": [record["id"]]}

        task_id = self.begin(record, "create", apply, data=body)
        record["creator_task_id"] = task_id
        return {"tasks": [task_id]}

    def update(self, request):
        record = self.one(request, unlocked=True)
        return self.shown(patch_name_and_tags(record, request.json))

    def removed(self, record):
        self.sim.snapshots.pop(record["id"], None)
        volume = (getattr(self.sim, "volumes", None) or {}).get(record["volume_id"])
        if volume is not None and record["id"] in volume["snapshot_ids"]:
            volume["snapshot_ids"].remove(record["id"])
