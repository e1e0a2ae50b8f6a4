# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cloud volumes (docs/api_reference.md section 15.6), attached to the instances of the one instance store
(``sim.instances``, ``instances.py``).

- ``GET /cloud/v1/volumes/{p}/{r}``: ``{count, results}``; ``limit`` 1-1000 (default 1000) and ``offset`` >= 0, else
  422. Filters: ``name_part`` (a substring of the name), ``id_part``, ``instance_id`` (attached to it), ``bootable``,
  ``has_attachments``, ``tag_key`` (repeatable: every key must be a tag of the volume); others of the spec are
  accepted and ignored.
- ``POST /cloud/v1/volumes/{p}/{r}`` (``CreateVolumeSerializer``, ``oneOf`` by ``source``): 200 ``{tasks}``. The volume
  appears at once with status ``creating``, locked by its ``create_volume`` task (``task_id``); when the task finishes
  it is ``available`` (or ``in-use``, attached to ``instance_id_to_attach_to``) and the task names it in
  ``created_resources.volumes``. A failed create task leaves it in status ``error``, unlocked. A volume made from an
  image (here, or as an instance's boot volume: ``is_root_volume``) shows it in ``volume_image_metadata``
  (``{image_id, image_name}``), as the service does.
  ``new-volume`` needs ``size``; ``image`` needs ``image_id`` (an image of ``IMAGES`` or of ``sim.images``, 404 else)
  and ``size`` of at least the image's ``min_disk`` (400), an image not ``active`` is a 400; ``snapshot`` needs
  ``snapshot_id`` (``SNAPSHOTS`` or the snapshot family's, ``snapshots.py``; 404 else, 400 when not ``available``)
  and takes ``size`` only equal to the snapshot's (400), the type of the snapshot's volume by default. ``attachment_tag`` only with
  ``instance_id_to_attach_to`` (422); an unknown instance: 404.
- ``GET .../{volume_id}``: the record (``VolumeSerializer``: ``volume_type``, ``attachments``, ``tags`` as
  ``[{key, value, read_only}]``, ``task_id`` lock).
- ``PATCH .../{volume_id}`` (``name``, ``tags`` as a JSON merge patch, ``null`` removes every user tag): synchronous,
  answers the record.
- ``POST .../{volume_id}/extend`` ``{size}``: an ``extend_volume`` task; status ``extending`` meanwhile. A size not
  larger than the volume's is refused (400): a volume never shrinks.
- ``POST /cloud/v2/volumes/{p}/{r}/{volume_id}/attach`` ``{instance_id, attachment_tag?}`` and ``.../detach``
  ``{instance_id}``: ``attach_volume`` / ``detach_volume`` tasks (status ``attaching`` / ``detaching`` meanwhile).
  Attaching needs an ``available`` volume (an attached one: 400) and an instance of the project and region (404)
  that is ``ACTIVE`` or ``SHUTOFF`` (400); detaching needs the volume attached to that instance (400). The instance
  record's ``volumes`` list gains (loses) the volume when the task finishes.
- ``DELETE .../{volume_id}``: a ``delete_volume`` task (status ``deleting``); the volume goes when it finishes. Only an
  ``available`` volume can be deleted: an attached one is refused (400, detach it first), and so is one that still has
  a snapshot of the snapshot family not named in the query ``snapshots`` (comma-separated; those go with it).
- A PATCH, DELETE, extend, attach or detach of a locked volume answers 409; an unknown volume 404; an invalid body 422
  (unknown members too: the published schemas do not forbid them; the simulator is strict so a misspelt member is
  seen). Errors have the cloud body (``{exception_class, message, request_id}``).

Setting ``volume_settle_reads`` (default 0): after its create task has finished, a new volume still shows ``creating``
for that many more reads of it (GET of the volume or of a list holding it), then its final status: a module must wait
for readiness after the create task, not only for the task. (Extend, attach and detach end with their task.)

Control ``POST /_sim/volume_status`` ``{volume_id, status}`` sets a volume's status (``error``, ``creating``, ...).

A volume attached to an instance that is no longer in the instance store is detached (``available``) at the next
request: an instance deleted by its own family leaves its extra volumes behind, as the service does.

For the instance family (``instances.py``): ``volumes_of(sim)`` is this resource; its ``add_volume(...)`` puts a ready
volume in the store (attached to an instance record when one is given: a new instance's volumes) and
``remove_volumes(ids)`` takes volumes out (an instance deleted with its volumes).

State: ``sim.volumes`` (volume id -> record). Seeded (project 1, region 76): ``data-1`` (10 GiB ``standard``, tags
``env: prod`` and a read-only one), ``attached-1`` (20 GiB ``ssd_hiiops``) attached to the seeded instance ``web-1``
when the instance store has it, and two volumes both named ``twin-vol``.
"""

from __future__ import annotations

import copy
import re
import uuid

from simulator import control
from simulator.core import ApiFailure, is_uuid, now_iso, tag_list
from simulator.resources.snapshots import snapshot as snapshot_of
from simulator.resources.production import REGIONS, SEED_PROJECT, SEED_REGION, Collection, family, instances as instance_store, scope, settle_steps
from simulator.validation import check_enum, check_int, check_name, check_object, check_tags, check_uuid, invalid, patch_name_and_tags

ATTACHMENT_TAG = re.compile(r"^[^,/]{1,60}$")
TYPES = ("cold", "ssd_hiiops", "ssd_local", "ssd_lowlatency", "standard", "ultra")
SOURCES = ("new-volume", "image", "snapshot")
COMMON = ("name", "source", "size", "type_name", "instance_id_to_attach_to", "attachment_tag", "lifecycle_policy_ids", "tags")
ATTACHABLE = ("ACTIVE", "SHUTOFF")  # instance statuses a volume can be attached to

# Images a volume can be made from: id -> {name, min_disk GiB} (the instance family's ``sim.images`` are accepted too).
IMAGES = {
    "b5b4d65d-945f-4b98-ab6f-332319c724ef": {"name": "ubuntu-24.04", "min_disk": 5},
    "b5b4d65d-945f-4b98-ab6f-332319c724f0": {"name": "debian-12", "min_disk": 3},
}
# Snapshots a volume can be made from: id -> {size GiB, volume_type}.
SNAPSHOTS = {
    "c0ffee00-1a2b-4c3d-8e4f-000000000001": {"size": 8, "volume_type": "ssd_hiiops"},
    "c0ffee00-1a2b-4c3d-8e4f-000000000002": {"size": 30, "volume_type": "standard"},
}
# (id, name, size, volume type, user tags, read-only tags, attach to the seeded instance named so in project 1 region 76)
SEEDED = [
    ("7e1d0c4a-5b6f-4a8e-9c0d-000000000001", "data-1", 10, "standard", {"env": "prod"}, {"gcore-billing": "on"}, None),
    ("7e1d0c4a-5b6f-4a8e-9c0d-000000000002", "attached-1", 20, "ssd_hiiops", {}, {}, "web-1"),
    ("7e1d0c4a-5b6f-4a8e-9c0d-000000000003", "twin-vol", 5, "standard", {}, {}, None),
    ("7e1d0c4a-5b6f-4a8e-9c0d-000000000004", "twin-vol", 5, "cold", {}, {}, None),
]
# A step's status while it runs, and the statuses it leaves on success and on failure (None: the status before).
STEPS = {
    "create": ("creating", None, "error"),
    "extend": ("extending", None, "error_extending"),
    "attach": ("attaching", "in-use", None),
    "detach": ("detaching", "available", None),
    "delete": ("deleting", None, "error_deleting"),
}


def volumes_of(sim):
    """The volume family of ``sim`` (``Volumes``): what the instance family calls to add or remove volumes."""
    return family(sim, Volumes.NAME)


def boolean_query(request, name):
    value = request.arg(name)
    if value is None:
        return None
    if value.lower() not in ("true", "false"):
        raise ApiFailure(422, "%s: value could not be parsed to a boolean" % name,
                         errors=[{"loc": ["query", name], "detail": "value could not be parsed to a boolean"}])
    return value.lower() == "true"


class Volumes(Collection):
    NAME, NOUN, COLLECTION, TASK, ID_CHECK, NAME_QUERY, STEPS = "volumes", "Volume", "volumes", "volume", None, ("name_part", None), STEPS
    ACTIONS = (("POST", "/{id}/extend", "extend_volume"), ("POST", "/{id}/attach", "attach_volume", "v2"),
               ("POST", "/{id}/detach", "detach_volume", "v2"))
    TASK_TYPES = tuple("%s_volume" % step for step in STEPS)
    SETTINGS = {
        "volume_settle_reads": (0, control.integer(low=0)),
    }
    SEEDS = {
        "project_id": SEED_PROJECT, "region_id": SEED_REGION,
        "volumes": dict((name.replace("-", "_"), ident) for ident, name, *_rest in SEEDED if name != "twin-vol"),
        "twin_vol": [ident for ident, name, *_rest in SEEDED if name == "twin-vol"],
        "images": dict((image["name"], ident) for ident, image in IMAGES.items()),
        "snapshots": list(SNAPSHOTS),
    }
    CONTROLS = {"volume_status": "set_status"}

    # ---- state ----------------------------------------------------------------------------------
    def reset(self):
        super().reset()
        self.steps = {}  # volume id -> (task id, status on failure): the step whose task locks it (Collection.begin)
        self.settling = {}  # volume id -> (final status, reads left showing the step's status)
        self.devices = 0
        for ident, name, size, kind, tags, read_only, instance_name in SEEDED:
            record = self.new_record(ident, name, size, kind, SEED_PROJECT, SEED_REGION, tags)
            record["tags"] = tag_list(read_only, True) + record["tags"]
            record["status"] = "available"
            self.sim.volumes[ident] = record
            instance = self.instance_named(instance_name, SEED_PROJECT, SEED_REGION) if instance_name else None
            if instance is not None:
                self.attach_to(record, instance)

    def new_record(self, ident, name, size, kind, project_id, region_id, tags, task_id=None):
        stamp = now_iso()
        return {
            "id": ident, "name": name, "size": size, "status": "creating", "volume_type": kind, "bootable": False,
            "is_root_volume": False, "tags": tag_list(tags), "attachments": [], "snapshot_ids": [],
            "volume_image_metadata": None, "limiter_stats": None, "created_at": stamp, "updated_at": stamp,
            "project_id": project_id, "region_id": region_id, "region": REGIONS.get(region_id, "Region %s" % region_id),
            "task_id": task_id, "creator_task_id": task_id,
        }

    def set_status(self, body):
        control.record({"volume_id": control.text, "status": control.text}, required=("volume_id", "status"))("volume_status", body)
        record = self.sim.volumes.get(body["volume_id"])
        if record is None:
            raise control.ControlError("volume_id: no volume %s" % body["volume_id"])
        record["status"] = body["status"]
        self.settling.pop(record["id"], None)
        return copy.deepcopy(record)

    # ---- for the instance family ---------------------------------------------------------------------
    def add_volume(self, name, size, project_id, region_id, volume_type="standard", instance=None, image_id=None,
                   root=False, tags=None):
        """A ready volume in the store (``available``, or ``in-use`` on ``instance``, an instance record); its id."""
        ident = str(uuid.uuid4())
        record = self.new_record(ident, name, size, volume_type, project_id, region_id, tags or {})
        image = self.image(image_id) if image_id else None
        metadata = dict(image_id=image_id, **({"image_name": image["name"]} if image else {})) if image_id else None
        record.update(status="available", bootable=image_id is not None, is_root_volume=root, volume_image_metadata=metadata)
        self.sim.volumes[ident] = record
        if instance is not None:
            self.attach_to(record, instance)
        return ident

    def remove_volumes(self, ids):
        for ident in ids:
            self.sim.volumes.pop(ident, None)
            self.steps.pop(ident, None)
            self.settling.pop(ident, None)

    # ---- instances (the one store of instances.py) ------------------------------------------------
    def instance_named(self, name, project_id, region_id):
        return next((record for record in instance_store(self.sim) if record.get("name") == name
                     and record.get("project_id") == project_id and record.get("region_id") == region_id), None)

    def instance(self, instance_id, project_id, region_id):
        return next((record for record in instance_store(self.sim) if record.get("id") == instance_id
                     and record.get("project_id") == project_id and record.get("region_id") == region_id), None)

    def attach_to(self, record, instance):
        self.devices += 1
        record["attachments"] = [{
            "attachment_id": str(uuid.uuid4()), "volume_id": record["id"], "server_id": instance["id"],
            "instance_name": instance.get("name"), "device": "/dev/vd%s" % "bcdefghijklmnopqrstuvwxyz"[(self.devices - 1) % 25],
            "flavor_id": (instance.get("flavor") or {}).get("flavor_id"), "attached_at": now_iso(),
        }]
        record["status"] = "in-use"
        if isinstance(instance.get("volumes"), list) and not any(item.get("id") == record["id"] for item in instance["volumes"]):
            instance["volumes"].append({"id": record["id"], "delete_on_termination": False})

    def detach_from(self, record):
        for attachment in record["attachments"] or []:
            instance = self.instance(attachment["server_id"], record["project_id"], record["region_id"])
            if instance is not None and isinstance(instance.get("volumes"), list):
                instance["volumes"] = [item for item in instance["volumes"] if item.get("id") != record["id"]]
        record["attachments"] = []
        record["status"] = "available"

    # ---- tasks and locks --------------------------------------------------------------------------
    def sync(self):
        """Bring the volumes up to date: a failed step's task unlocks its volume (in the step's failure status), and a
        volume whose instance went away is detached."""
        settle_steps(self.sim, self.steps, self.sim.volumes.get)
        attached = [record for record in self.sim.volumes.values() if record["attachments"]]
        if attached:
            present = set(record.get("id") for record in instance_store(self.sim))
            for record in attached:
                if record["attachments"][0]["server_id"] not in present and not record["task_id"]:
                    self.detach_from(record)

    def begin(self, record, step, apply, data=None):
        """The step's task (``Collection.begin``); a create's volume shows ``creating`` for ``volume_settle_reads`` reads more."""
        def settling():
            created = apply()
            reads = self.sim.config["volume_settle_reads"]
            if reads and step == "create" and record["id"] in self.sim.volumes:
                self.settling[record["id"]] = (record["status"], reads)
                record["status"] = STEPS[step][0]
            return created

        return super().begin(record, step, settling, data)

    def shown(self, record, _request=None):
        """The record as a read shows it (a settling volume counts the read)."""
        settling = self.settling.get(record["id"])
        if settling is not None:
            final, left = settling
            if left <= 0:
                self.settling.pop(record["id"])
                record["status"] = final
            else:
                self.settling[record["id"]] = (final, left - 1)
        return copy.deepcopy(record)

    # ---- requests ---------------------------------------------------------------------------------
    def filters(self, request):
        tests = []
        id_part, instance_id = request.arg("id_part"), request.arg("instance_id")
        if id_part is not None:
            tests.append(lambda record: id_part in record["id"])
        if instance_id is not None:
            if not is_uuid(instance_id):
                raise ApiFailure(422, "instance_id: value is not a valid uuid",
                                 errors=[{"loc": ["query", "instance_id"], "detail": "value is not a valid uuid"}])
            tests.append(lambda record: any(item["server_id"] == instance_id for item in record["attachments"] or []))
        bootable, has_attachments = boolean_query(request, "bootable"), boolean_query(request, "has_attachments")
        if bootable is not None:
            tests.append(lambda record: record["bootable"] is bootable)
        if has_attachments is not None:
            tests.append(lambda record: bool(record["attachments"]) is has_attachments)
        for key in request.query.get("tag_key") or []:
            tests.append(lambda record, key=key: any(tag["key"] == key for tag in record["tags"]))
        return tests

    def create(self, request):
        project_id, region_id = scope(request)
        self.sync()
        body = request.json
        if not isinstance(body, dict):
            invalid("body", "a JSON object is required")
        if "source" not in body:
            invalid("source", "field required")
        check_enum("source", body["source"], SOURCES)
        source = body["source"]
        required = {"new-volume": ("name", "size"), "image": ("name", "image_id", "size"), "snapshot": ("name", "snapshot_id")}[source]
        allowed = COMMON + {"new-volume": (), "image": ("image_id",), "snapshot": ("snapshot_id",)}[source]
        check_object("", body, required, allowed)
        check_name("name", body["name"])
        if "size" in body:
            check_int("size", body["size"], low=1)
        if "type_name" in body:
            check_enum("type_name", body["type_name"], TYPES)
        if "tags" in body:
            check_tags("tags", body["tags"])
        if "lifecycle_policy_ids" in body:
            if not isinstance(body["lifecycle_policy_ids"], list):
                invalid("lifecycle_policy_ids", "a list is required")
            for index, item in enumerate(body["lifecycle_policy_ids"]):
                check_int("lifecycle_policy_ids.%s" % index, item)
        if "attachment_tag" in body:
            if "instance_id_to_attach_to" not in body:
                invalid("attachment_tag", "only used together with instance_id_to_attach_to")
            if not isinstance(body["attachment_tag"], str) or not ATTACHMENT_TAG.match(body["attachment_tag"]):
                invalid("attachment_tag", "string does not match pattern %s" % ATTACHMENT_TAG.pattern)
        instance = None
        if "instance_id_to_attach_to" in body:
            if not isinstance(body["instance_id_to_attach_to"], str):
                invalid("instance_id_to_attach_to", "a string is required")
            instance = self.attachable(body["instance_id_to_attach_to"], project_id, region_id)
        kind = body.get("type_name", "standard")
        size = body.get("size")
        metadata = None
        if source == "image":
            check_uuid("image_id", body["image_id"])
            image = self.image(body["image_id"])
            if image is None:
                raise ApiFailure(404, "Image %s not found" % body["image_id"])
            if image.get("status", "active") != "active":
                raise ApiFailure(400, "Image %s is %s; a volume is made only from an active image" % (body["image_id"], image["status"]))
            if size < image.get("min_disk", 0):
                raise ApiFailure(400, "Volume size %s GiB is smaller than the image's minimum disk of %s GiB" % (size, image["min_disk"]))
            metadata = {"image_id": body["image_id"], "image_name": image.get("name")}
        if source == "snapshot":
            check_uuid("snapshot_id", body["snapshot_id"])
            snapshot = SNAPSHOTS.get(body["snapshot_id"]) or self.snapshot(body["snapshot_id"], project_id, region_id)
            if snapshot is None:
                raise ApiFailure(404, "Snapshot %s not found" % body["snapshot_id"])
            if snapshot.get("status", "available") != "available":
                raise ApiFailure(400, "Snapshot %s is %s; a volume is made only from an available snapshot"
                                 % (body["snapshot_id"], snapshot["status"]))
            if size is not None and size != snapshot["size"]:
                raise ApiFailure(400, "size must equal the snapshot size (%s GiB), not %s" % (snapshot["size"], size))
            size = snapshot["size"]
            kind = body.get("type_name", snapshot["volume_type"])
        ident = str(uuid.uuid4())
        record = self.new_record(ident, body["name"], size, kind, project_id, region_id, body.get("tags") or {})
        record.update(bootable=source == "image", volume_image_metadata=metadata)
        self.sim.volumes[ident] = record

        def apply():
            record["status"] = "available"
            if instance is not None:
                if instance.get("status") in ATTACHABLE:
                    self.attach_to(record, instance)
            return {"volumes": [ident]}

        record["creator_task_id"] = self.begin(record, "create", apply, data=body)
        return {"tasks": [record["creator_task_id"]]}

    def image(self, image_id):
        images = getattr(self.sim, "images", None) or {}
        known = images.get(image_id) if isinstance(images, dict) else next(
            (image for image in images if image.get("id") == image_id), None)
        return known if known is not None else IMAGES.get(image_id)

    def snapshot(self, snapshot_id, project_id, region_id):
        """A snapshot of the snapshot family in the scope (``snapshots.py``), or None."""
        found = snapshot_of(self.sim, snapshot_id)
        return found if found and (found["project_id"], found["region_id"]) == (project_id, region_id) else None

    def attachable(self, instance_id, project_id, region_id):
        check_uuid("instance_id", instance_id)
        instance = self.instance(instance_id, project_id, region_id)
        if instance is None:
            raise ApiFailure(404, "Instance %s not found" % instance_id)
        if instance.get("status") not in ATTACHABLE:
            raise ApiFailure(400, "Instance %s is %s; a volume can be attached only to an ACTIVE or SHUTOFF instance"
                             % (instance_id, instance.get("status")))
        return instance

    def update(self, request):
        record = self.one(request, unlocked=True)
        return self.shown(patch_name_and_tags(record, request.json))

    def extend_volume(self, request):
        record = self.one(request, unlocked=True)
        body = request.json
        check_object("body", body, ("size",), ("size",))
        check_int("size", body["size"], low=1)
        if record["status"] not in ("available", "in-use"):
            raise ApiFailure(400, "Volume %s is %s; only an available or in-use volume can be extended" % (record["id"], record["status"]))
        if body["size"] <= record["size"]:
            raise ApiFailure(400, "New size %s GiB must be larger than the volume's %s GiB: a volume cannot shrink"
                             % (body["size"], record["size"]))
        before = record["status"]

        def apply():
            record.update(size=body["size"], status=before)
        return {"tasks": [self.begin(record, "extend", apply, data=body)]}

    def attach_volume(self, request):
        record = self.one(request, unlocked=True)
        body = request.json
        check_object("body", body, ("instance_id",), ("instance_id", "attachment_tag"))
        if "attachment_tag" in body and (not isinstance(body["attachment_tag"], str) or not ATTACHMENT_TAG.match(body["attachment_tag"])):
            invalid("attachment_tag", "string does not match pattern %s" % ATTACHMENT_TAG.pattern)
        instance = self.attachable(body["instance_id"], record["project_id"], record["region_id"])
        if record["attachments"]:
            raise ApiFailure(400, "Volume %s is already attached to instance %s; detach it first"
                             % (record["id"], record["attachments"][0]["server_id"]))
        if record["status"] != "available":
            raise ApiFailure(400, "Volume %s is %s; only an available volume can be attached" % (record["id"], record["status"]))

        def apply():
            self.attach_to(record, instance)
        return {"tasks": [self.begin(record, "attach", apply, data=body)]}

    def detach_volume(self, request):
        record = self.one(request, unlocked=True)
        body = request.json
        check_object("body", body, ("instance_id",), ("instance_id",))
        check_uuid("instance_id", body["instance_id"])
        if not any(item["server_id"] == body["instance_id"] for item in record["attachments"] or []):
            raise ApiFailure(400, "Volume %s is not attached to instance %s" % (record["id"], body["instance_id"]))

        def apply():
            self.detach_from(record)
        return {"tasks": [self.begin(record, "detach", apply, data=body)]}

    def delete(self, request):
        record = self.one(request, unlocked=True)
        snapshots = [ident for ident in (request.arg("snapshots") or "").split(",") if ident]
        unknown = [ident for ident in snapshots if ident not in record["snapshot_ids"]]
        if unknown:
            raise ApiFailure(400, "snapshots: %s is not a snapshot of volume %s" % (unknown[0], record["id"]))
        kept = [ident for ident in record["snapshot_ids"] if ident not in snapshots and ident in (getattr(self.sim, "snapshots", None) or {})]
        if kept:
            raise ApiFailure(400, "Volume %s still has snapshot %s: delete it first or name it in snapshots" % (record["id"], kept[0]))
        if record["attachments"]:
            raise ApiFailure(400, "Volume %s is attached to instance %s; detach it before deleting it"
                             % (record["id"], record["attachments"][0]["server_id"]))
        if record["status"] not in ("available", "error", "error_extending", "error_deleting"):
            raise ApiFailure(400, "Volume %s is %s; only an available volume can be deleted" % (record["id"], record["status"]))

        def apply():
            self.sim.volumes.pop(record["id"], None)
            self.settling.pop(record["id"], None)
            for ident in snapshots:  # deleted with the volume
                (getattr(self.sim, "snapshots", None) or {}).pop(ident, None)
        return {"tasks": [self.begin(record, "delete", apply)]}
