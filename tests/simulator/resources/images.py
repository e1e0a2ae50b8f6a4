# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cloud images (docs/api_reference.md sections 15.10 and 16.3): the one image store (``sim.images``, a list) that
instance and volume creates take their ``image_id`` from.

- ``GET /cloud/v1/images/{p}/{r}``: ``{count, results}`` (no paging in the published copy: every match). Public
  (and shared) images show in every project; a project's own images are ``private`` and show only with ``private``
  (any value) or ``visibility=private`` (the published text: "any value shows private images"; the reading a module
  must survive). ``visibility`` (``private``, ``public``, ``shared``, else 422) keeps only that visibility. Also
  ``tag_key`` / ``tag_key_value``; ``include_prices=true`` fills the price members (null otherwise). The SDK 0.59
  filters (``name``, ``os_distro``, ``os_version``, ``architecture``, ``limit``, ``offset``) are not in the published
  copy and are ignored: every match comes back, so a module matches names on its side. Results in store order (oldest
  first): a module sorts.
- ``GET .../{image_id}``: the record (``ImageSerializer``, every member; the tags under ``tags_v2`` as the service
  shows them today (SDK 0.59), not under the published copy's ``tags``).
- ``POST /cloud/v1/downloadimage/{p}/{r}`` (``ImageDownloadSerializer``) and ``POST /cloud/v1/images/{p}/{r}``
  (``ImageCreateFromVolumeSerializer``; the volume must be of the scope (404), bootable and not locked (400, 409)):
  200 ``{tasks}`` (``download_image`` / ``upload_volume_to_image``). The image appears at once, ``queued`` with
  ``size`` 0, locked by the task (``task_id``). The finished task names it in ``created_resources.images``; the image
  is then ``saving`` (``size`` 0) for ``image_saving_reads`` reads of it (default 1), then ``active`` with its size:
  the task finishing is not the image being ready. A failed task leaves it ``killed``.
- ``PATCH .../{image_id}`` (``UpdateImageSerializer``: ``name``, ``os_type``, ``ssh_key``, ``hw_firmware_type``,
  ``hw_machine_type``, ``is_baremetal``, ``tags`` a merge patch, null removes every user tag): synchronous, the record.
  A public image is not the project's (403); a locked one 409.
- ``DELETE .../{image_id}``: a ``delete_image`` task (status ``deleting``); the image goes when it finishes. A
  ``cow_format`` image some volume was made from is refused (400); a public image 403; a locked one 409.

Control ``POST /_sim/image_status`` ``{image_id, status, size?}`` sets an image's status (``killed``, ``saving`` ...).
State: ``sim.images``. Seeded: the instance family's public images (``instances.IMAGE_IDS``).
"""

from __future__ import annotations

import copy
import re
import uuid

from simulator import control
from simulator.core import ApiFailure, merge_tags, now_iso, tag_list
from simulator.resources.instances import IMAGE_IDS, seeded_images
from simulator.resources.production import Collection, family, region_of, scope, settle_steps
from simulator.validation import check_bool, check_enum, check_name, check_object, check_str, check_tags, check_uuid, invalid

VISIBILITY = ("private", "public", "shared")
ARCHITECTURES = ("aarch64", "x86_64")
OS_TYPES = ("linux", "windows")
SSH_KEY = ("allow", "deny", "required")
FIRMWARE = ("bios", "uefi")
MACHINE = ("i440", "q35")
URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://[^\s/]+\S*$")
COMMON = ("name", "architecture", "os_type", "ssh_key", "hw_firmware_type", "hw_machine_type", "is_baremetal", "tags")
DOWNLOAD_FIELDS = COMMON + ("url", "os_distro", "os_version", "cow_format")
VOLUME_FIELDS = COMMON + ("volume_id", "source")
PATCH_FIELDS = ("name", "os_type", "ssh_key", "hw_firmware_type", "hw_machine_type", "is_baremetal", "tags")
PRICES = ("currency_code", "price_per_hour", "price_per_month", "price_status")
DOWNLOADED_SIZE = 2361393152  # bytes of an image fetched from a URL


def check_common(body):
    check_name("name", body["name"])
    for key, choices in (("architecture", ARCHITECTURES), ("os_type", OS_TYPES), ("ssh_key", SSH_KEY)):
        if key in body:
            check_enum(key, body[key], choices)
    for key, choices in (("hw_firmware_type", FIRMWARE), ("hw_machine_type", MACHINE)):
        if key in body:
            check_enum(key, body[key], choices, nullable=True)
    if "is_baremetal" in body:
        check_bool("is_baremetal", body["is_baremetal"])
    if "tags" in body:
        check_tags("tags", body["tags"])


class Images(Collection):
    NAME, NOUN, COLLECTION, TASK, ID_CHECK = "images", "Image", "images", "image", None
    STEPS = {"delete": ("deleting", None, None)}  # a failed delete leaves the status it had
    ACTIONS = (("POST", "", "download_image", "v1", "downloadimage"),)
    TASK_TYPES = ("download_image", "upload_volume_to_image", "delete_image")
    SETTINGS = {"image_saving_reads": (1, control.integer(low=0))}
    SEEDS = {"images": IMAGE_IDS}
    CONTROLS = {"image_status": "set_status"}

    def reset(self):
        self.sim.images = seeded_images()
        for record in self.sim.images:
            record.update(dict.fromkeys(PRICES), cow_format=False)
        self.saving = {}  # image id -> (reads left showing "saving", final size)
        self.steps = {}  # image id -> (task id, status on failure)

    def set_status(self, body):
        control.record({"image_id": control.text, "status": control.text, "size": control.integer(low=0)},
                       required=("image_id", "status"))("image_status", body)
        record = self.find(body["image_id"])
        if record is None:
            raise control.ControlError("image_id: no image %s" % body["image_id"])
        self.saving.pop(record["id"], None)
        record["status"] = body["status"]
        if "size" in body:
            record["size"] = body["size"]
        return self.shown(record, count=False)

    def find(self, ident):
        return next((record for record in self.sim.images if record["id"] == ident), None)

    def sync(self):
        """A failed task unlocks its image in the failure status."""
        settle_steps(self.sim, self.steps, self.find)

    def shown(self, record, _request=None, count=True, project_id=None, region_id=None, prices=False):
        """The record as a read shows it (a saving image counts the read)."""
        saving = self.saving.get(record["id"])
        if saving is not None and count:
            left, size = saving
            if left <= 0:
                del self.saving[record["id"]]
                record.update(status="active", size=size, updated_at=now_iso())
            else:
                self.saving[record["id"]] = (left - 1, size)
        shown = copy.deepcopy(record)
        shown.pop("cow_format", None)
        shown["tags_v2"] = shown.pop("tags")  # the service's record names them tags_v2 (SDK 0.59), no longer tags
        if record["visibility"] != "private" and project_id is not None:
            shown.update(region_of(project_id, region_id))
        if prices:
            shown.update(currency_code="EUR", price_per_hour=0.0, price_per_month=0.0, price_status="show")
        return shown

    def visible(self, record, project_id, region_id):
        return record["visibility"] != "private" or (record["project_id"], record["region_id"]) == (project_id, region_id)

    def one(self, request, unlocked=False):
        """The image (a public one too); ``unlocked``: the project's own (403 otherwise), no task holding it (409)."""
        project_id, region_id = scope(request)
        self.sync()
        record = self.find(request.params["image_id"])
        if record is None or not self.visible(record, project_id, region_id):
            raise ApiFailure(404, "Image %s not found" % request.params["image_id"])
        if unlocked:
            if record["visibility"] != "private":
                raise ApiFailure(403, "Image %s is %s: only the project's own images can be changed" % (record["id"], record["visibility"]))
            if record["task_id"]:
                raise ApiFailure(409, "Image %s is locked by task %s; try again when it has finished" % (record["id"], record["task_id"]))
        return record

    # ---- reads ----------------------------------------------------------------------------------
    def listing(self, request):
        project_id, region_id = scope(request)
        self.sync()
        visibility = request.arg("visibility")
        if visibility is not None and visibility not in VISIBILITY:
            raise ApiFailure(422, "visibility: value is not a valid enumeration member; permitted: %s" % ", ".join(VISIBILITY),
                             errors=[{"loc": ["query", "visibility"], "detail": "value is not a valid enumeration member"}])
        private = request.arg("private") is not None or visibility == "private"
        tests = [lambda record: self.visible(record, project_id, region_id),
                 lambda record: private or record["visibility"] != "private"]
        if visibility is not None:
            tests.append(lambda record: record["visibility"] == visibility)
        for key in request.query.get("tag_key") or []:
            tests.append(lambda record, key=key: any(tag["key"] == key for tag in record["tags"]))
        for pair in request.query.get("tag_key_value") or []:
            tests.append(lambda record, pair=pair: any("%s=%s" % (tag["key"], tag["value"]) == pair for tag in record["tags"]))
        prices = (request.arg("include_prices") or "").lower() == "true"
        found = [self.shown(record, None, True, project_id, region_id, prices) for record in self.sim.images
                 if all(test(record) for test in tests)]
        return {"count": len(found), "results": found}

    def read(self, request):
        record = self.one(request)
        project_id, region_id = scope(request)
        return self.shown(record, None, True, project_id, region_id, (request.arg("include_prices") or "").lower() == "true")

    # ---- creates --------------------------------------------------------------------------------
    def new_record(self, body, project_id, region_id, disk_format, min_disk, distro, version):
        stamp = now_iso()
        record = {
            "id": str(uuid.uuid4()), "name": body["name"], "status": "queued", "visibility": "private", "size": 0,
            "min_disk": min_disk, "min_ram": 0, "disk_format": disk_format, "os_distro": distro or "",
            "os_version": version or "", "os_type": body.get("os_type", "linux"),
            "architecture": body.get("architecture", "x86_64"), "hw_firmware_type": body.get("hw_firmware_type"),
            "hw_machine_type": body.get("hw_machine_type"), "ssh_key": body.get("ssh_key", "allow"),
            "is_baremetal": body.get("is_baremetal", False), "description": None, "display_order": None,
            "gpu_driver": None, "gpu_driver_type": None, "gpu_driver_version": None, "tags": tag_list(body.get("tags") or {}),
            "created_at": stamp, "updated_at": stamp, "creator_task_id": None, "task_id": None,
            "cow_format": body.get("cow_format", False),
        }
        record.update(region_of(project_id, region_id))
        record.update(dict.fromkeys(PRICES))
        return record

    def start(self, record, task_type, size, data):
        ident = record["id"]

        def apply():
            record["task_id"] = None
            reads = self.sim.config["image_saving_reads"]
            if reads:
                record["status"] = "saving"
                self.saving[ident] = (reads, size)
            else:
                record.update(status="active", size=size)
            record["updated_at"] = now_iso()
            return {"images": [ident]}

        task_id = self.sim.start_task(task_type, apply=apply, project_id=record["project_id"], region_id=record["region_id"], data=data)
        record.update(task_id=task_id, creator_task_id=task_id)
        self.steps[ident] = (task_id, "killed")
        self.sim.images.append(record)
        return {"tasks": [task_id]}

    def download_image(self, request):
        project_id, region_id = scope(request)
        self.sync()
        body = request.json
        check_object("", body, ("name", "url"), DOWNLOAD_FIELDS)
        check_common(body)
        check_str("url", body["url"], min_length=1)
        if not URL.match(body["url"]):
            invalid("url", "invalid or missing URL scheme")
        for key in ("os_distro", "os_version"):
            if key in body:
                check_str(key, body[key], nullable=True)
        if "cow_format" in body:
            check_bool("cow_format", body["cow_format"])
        disk_format = "qcow2" if body["url"].lower().endswith(".qcow2") else "raw"
        record = self.new_record(body, project_id, region_id, disk_format, 0, body.get("os_distro"), body.get("os_version"))
        return self.start(record, "download_image", DOWNLOADED_SIZE, body)

    def create(self, request):
        """An image of a bootable volume."""
        project_id, region_id = scope(request)
        self.sync()
        body = request.json
        check_object("", body, ("name", "volume_id"), VOLUME_FIELDS)
        check_common(body)
        check_uuid("volume_id", body["volume_id"])
        if "source" in body:
            check_enum("source", body["source"], ("volume",))
        volumes = getattr(self.sim, "volumes", None) or {}
        volume = volumes.get(body["volume_id"])
        if volume is None or (volume["project_id"], volume["region_id"]) != (project_id, region_id):
            raise ApiFailure(404, "Volume %s not found" % body["volume_id"])
        if not volume.get("bootable"):
            raise ApiFailure(400, "Volume %s is not bootable: an image is made from a bootable volume" % volume["id"])
        if volume.get("task_id"):
            raise ApiFailure(409, "Volume %s is locked by task %s; try again when it has finished" % (volume["id"], volume["task_id"]))
        metadata = volume.get("volume_image_metadata") or {}
        source = self.find(metadata.get("image_id")) or {}
        record = self.new_record(body, project_id, region_id, "raw", volume["size"], source.get("os_distro"), source.get("os_version"))
        return self.start(record, "upload_volume_to_image", volume["size"] * 1024 ** 3, body)

    # ---- changes --------------------------------------------------------------------------------
    def update(self, request):
        record = self.one(request, unlocked=True)
        body = request.json
        check_object("", body, (), PATCH_FIELDS)
        if "name" in body:
            check_name("name", body["name"])
        for key, choices in (("os_type", OS_TYPES), ("ssh_key", SSH_KEY), ("hw_firmware_type", FIRMWARE), ("hw_machine_type", MACHINE)):
            if key in body:
                check_enum(key, body[key], choices)
        if body.get("is_baremetal") is not None:
            check_bool("is_baremetal", body["is_baremetal"])
        if body.get("tags") is not None:
            check_tags("tags", body["tags"], patch=True)
        for key in PATCH_FIELDS[:-1]:
            if key in body and not (key == "is_baremetal" and body[key] is None):
                record[key] = body[key]
        if "tags" in body:
            merge_tags(record, body["tags"])
        record["updated_at"] = now_iso()
        project_id, region_id = scope(request)
        return self.shown(record, None, True, project_id, region_id)

    def refuse_delete(self, record):
        if record["cow_format"]:
            users = [volume["id"] for volume in (getattr(self.sim, "volumes", None) or {}).values()
                     if (volume.get("volume_image_metadata") or {}).get("image_id") == record["id"]]
            if users:
                raise ApiFailure(400, "Image %s is in cow format and volume %s was made from it" % (record["id"], users[0]))

    def removed(self, record):
        self.sim.images[:] = [item for item in self.sim.images if item["id"] != record["id"]]
        self.saving.pop(record["id"], None)


def images_of(sim):
    """The image family of ``sim``."""
    return family(sim, Images.NAME)
