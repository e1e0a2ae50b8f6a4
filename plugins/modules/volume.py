#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: volume
short_description: Create, grow, attach, detach and delete a Gcore Cloud volume
version_added: 1.0.0
description:
  - Makes a Gcore Cloud block volume match what you describe, or removes it, and does nothing when it already matches.
  - The volume is found by O(volume_id) when it is given, otherwise by its exact O(name).
  - Creates it from the O(source) you choose, renames and tags it, grows it, attaches it to an instance or detaches it,
    and with O(state=absent) detaches and deletes it.
author:
  - gcore.platform developers (@gcore-platform)
options:
  state:
    description:
      - V(present) creates the volume or brings it to the options given; V(absent) detaches and deletes it.
    type: str
    choices: [present, absent]
    default: present
  volume_id:
    description:
      - ID (UUID) of the volume, in any letter case (sent lower-case).
      - When given, the volume is found by this ID and O(name) is its desired name (a rename).
      - With O(state=present), a volume ID that does not exist fails the module (an ID cannot be created); with
        O(state=absent) it is no change.
      - One of O(volume_id) and O(name) is required.
    type: str
  name:
    description:
      - Name of the volume, 3 to 63 characters matching C(^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$)
        (letters, digits, spaces, C(.), C(_) and C(-); it starts with a letter or digit and ends with a letter,
        digit, C(.) or C(_)).
      - Without O(volume_id), the volume whose name is exactly this one; it is created when there is none.
      - With O(volume_id), the name the volume should have (a rename).
      - Required to create a volume.
    type: str
  source:
    description:
      - What a new volume is made of, B(create-only) and used only when the volume is created (the volume does not show
        it, so it is not compared).
      - V(new-volume) is an empty volume of O(size) GiB; V(image) is a bootable volume holding the image O(image_id);
        V(snapshot) is a copy of the snapshot O(snapshot_id).
    type: str
    choices: [new-volume, image, snapshot]
    default: new-volume
  image_id:
    description:
      - ID (UUID) of the image a V(image) volume is made of. With O(source=image) one of O(image_id) and O(image_name)
        is required; accepted only with it.
      - B(Create-only.) An existing volume that shows another image (its C(volume_image_metadata.image_id)) fails the
        module before any write, naming both IDs.
    type: str
  image_name:
    description:
      - The exact name of the image a V(image) volume is made of, instead of O(image_id) (see
        M(gcore.platform.image)). Resolved among the C(active) images (the project's private ones included) before any
        write, only when the volume is to be created; no such image, or several, fails and nothing is sent.
      - Used only when the volume is created (not compared).
    type: str
  snapshot_id:
    description:
      - ID (UUID) of the snapshot a V(snapshot) volume is a copy of. With O(source=snapshot) one of O(snapshot_id) and
        O(snapshot_name) is required; accepted only with it.
      - Used only when the volume is created; the volume does not show it, so it is not compared.
    type: str
  snapshot_name:
    description:
      - The exact name of the snapshot a V(snapshot) volume is a copy of, instead of O(snapshot_id) (see
        M(gcore.platform.volume_snapshot)). Resolved over every page of the snapshots before any write, only when the
        volume is to be created; no snapshot or more than one with the name fails and nothing is sent.
      - Used only when the volume is created, like O(snapshot_id).
    type: str
  size:
    description:
      - Size of the volume in GiB, V(1) to V(102400) (the service's largest volume). Required to create a V(new-volume) or V(image) volume; a V(snapshot)
        volume takes the snapshot's size, and a size given with it must equal that size (the service refuses another).
      - A size larger than the volume's grows it (C(POST .../extend), a task); the volume keeps its data.
      - B(A volume never shrinks.) A size smaller than the volume's fails the module before any write.
    type: int
  type_name:
    description:
      - The volume type. B(Create-only.) Compared with the volume's C(volume_type); a different one fails the module
        before any write, naming the current and the wanted type (delete the volume and create it again, or use
        another name).
      - When left out, a new volume is V(standard) (a V(snapshot) volume gets the type of the snapshot's volume), and
        an existing volume's type is not compared.
    type: str
    choices: [standard, ssd_hiiops, ssd_lowlatency, ssd_local, cold, ultra]
  instance:
    description:
      - The instance the volume should be attached to, by ID (a UUID) or by exact name (resolved over every page of
        the instance list of the project and region to exactly one instance; none or several fail the module before
        any write, the latter listing their IDs).
      - A volume not attached is attached (C(POST /cloud/v2/.../attach)); a volume attached to another instance is
        detached from it first, then attached to this one (a move, two tasks one after the other).
      - V("") (an empty string) detaches the volume from whatever instance it is attached to.
      - When a new volume is created, it is attached by the create request itself (C(instance_id_to_attach_to)).
      - In check mode an instance name that matches nothing does not fail the module (since 1.1.0); it warns that it
        assumes an earlier task creates that instance, and previews the attach.
      - Leaving the option out keeps the volume attached or detached as it is. Only with O(state=present).
      - The instance must be C(ACTIVE) or C(SHUTOFF) (the service refuses others). An instance ID that does not exist
        fails at the attach request (HTTP 404).
    type: str
  attachment_tag:
    description:
      - The block device tag of the attachment, 1 to 60 characters without C(,) or C(/).
      - Sent with the attach (or the create that attaches); the volume does not show it, so it is not compared.
      - Only with a non-empty O(instance).
    type: str
notes:
  - The volume is found by O(volume_id) when it is given, otherwise by its exact O(name) over every page of the volume
    list (the service's C(name_part) filter matches substrings; the module compares names itself). More than one volume
    with that name fails the module and lists their IDs; nothing is sent.
  - A missing volume is created with C(POST /cloud/v1/volumes/{project_id}/{region_id}) from the O(source) you choose;
    its ID is read from the finished task's C(created_resources.volumes), then the module waits until the volume is
    V(available) (or V(in-use) when it was attached).
  - An existing volume is renamed and its tags changed with C(PATCH /cloud/v1/volumes/{project_id}/{region_id}/{volume_id})
    (synchronous), grown with C(POST .../{volume_id}/extend) and attached or detached with
    C(POST /cloud/v2/volumes/{project_id}/{region_id}/{volume_id}/attach) and C(.../detach); each of those three starts a
    task, which is waited for.
  - O(state=absent) detaches the volume from its instance first, when it is attached, then deletes it with
    C(DELETE /cloud/v1/volumes/{project_id}/{region_id}/{volume_id}).
  - "O(wait=false): the module returns once the service accepted the write, with the task IDs in RV(tasks), and
    RV(volume) is the volume as read before the change (V(null) when it is being created). A run that needs the result
    of an earlier task of its own (a move: detach then attach; a grow and an attach; deleting an attached volume) fails
    with O(wait=false) before it sends anything."
  - The readiness wait after a create treats every status on the way (V(creating), V(downloading), ...) as one to wait
    for; a status starting with V(error) fails the module, naming the volume ID and the status.
  - O(wait_timeout) covers the tasks and the readiness wait together.
  - A volume found in a status starting with V(error) (a step the service could not finish) fails the module on every
    run, naming its ID and status, and nothing is sent; O(state=absent) still deletes it. A volume found on its way to
    ready (V(creating), V(extending), ...) is waited for before it is compared (with O(wait=true)).
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.gcore.WAIT
  - gcore.platform.gcore.TAGS
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.volume_info
"""

EXAMPLES = r"""
- name: A 20 GiB SSD volume for data, attached to the instance db-1
  gcore.platform.volume:
    project_id: 1
    region_id: 76
    name: app-data
    size: 20
    type_name: ssd_hiiops
    instance: db-1
    attachment_tag: data
    tags:
      env: prod
  register: created

- name: Grow it to 40 GiB (a volume never shrinks)
  gcore.platform.volume:
    project_id: 1
    region_id: 76
    name: app-data
    size: 40

- name: Move it to the instance named app (detached from db-1, then attached)
  gcore.platform.volume:
    project_id: 1
    region_id: 76
    name: app-data
    instance: app

- name: Detach it, and rename it by ID
  gcore.platform.volume:
    project_id: 1
    region_id: 76
    volume_id: "{{ created.volume.id }}"
    name: app-data-old
    instance: ""

- name: A bootable volume from an image
  gcore.platform.volume:
    project_id: 1
    region_id: 76
    name: boot-disk
    source: image
    image_id: b5b4d65d-945f-4b98-ab6f-332319c724ef
    size: 10

- name: A copy of a snapshot, created without waiting
  gcore.platform.volume:
    project_id: 1
    region_id: 76
    name: restored
    source: snapshot
    snapshot_id: c0ffee00-1a2b-4c3d-8e4f-000000000001
    wait: false
  register: started

- name: Delete the volume (detached first when it is attached)
  gcore.platform.volume:
    project_id: 1
    region_id: 76
    name: app-data-old
    state: absent
"""

RETURN = r"""
volume:
  description:
    - The volume as the service returned it when last read.
    - V(null) after a delete, and when O(state=absent) found no volume.
    - With O(wait=false), the volume as read before the change, or V(null) when it is being created.
    - In check mode, the volume as it is now (V(null) when it would be created).
  returned: success
  type: dict
  contains:
    id:
      description: Volume ID.
      type: str
      sample: 726ecfcc-7fd0-4e30-a86e-7892524aa483
    name:
      description: Volume name.
      type: str
      sample: app-data
    size:
      description: Size in GiB.
      type: int
      sample: 40
    status:
      description: Status, for example V(available), V(in-use), V(creating), V(extending) or V(error).
      type: str
      sample: in-use
    volume_type:
      description: The volume type (the create request's C(type_name)).
      type: str
      sample: ssd_hiiops
    bootable:
      description: Whether the volume is bootable (a volume made from an image is).
      type: bool
      sample: false
    is_root_volume:
      description: Whether the volume is an instance's root volume.
      type: bool
      sample: false
    attachments:
      description:
        - The instance the volume is attached to, as a list of at most one item with C(server_id) (the instance ID),
          C(instance_name), C(device), C(attachment_id), C(volume_id), C(flavor_id) and C(attached_at). Empty or
          V(null) when the volume is not attached.
      type: list
      elements: dict
      sample:
        - server_id: 8dc30d49-bb34-4920-9bbd-03a2587ec0ad
          instance_name: app-1
          device: /dev/vdb
          attachment_id: f2ed59d9-8068-400c-be4b-c4501ef6f33c
          volume_id: 726ecfcc-7fd0-4e30-a86e-7892524aa483
          flavor_id: g1-standard-2-4
          attached_at: "2026-11-26T12:00:00Z"
    tags:
      description: Tags, each C({key, value, read_only}); read-only ones are set by the service.
      type: list
      elements: dict
      sample:
        - key: env
          value: prod
          read_only: false
    volume_image_metadata:
      description: For a volume made from an image, what the service keeps of the image (its C(image_id) among others).
      type: dict
      sample:
        image_id: b5b4d65d-945f-4b98-ab6f-332319c724ef
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
    created_at:
      description: Creation time.
      type: str
      sample: "2026-11-26T12:00:00Z"
    task_id:
      description: ID of the task that currently locks the volume, or V(null) when it is not locked.
      type: str
      sample: null
    creator_task_id:
      description: ID of the task that created the volume.
      type: str
      sample: 6a1d8f3e-0b2c-4d5e-8f90-1a2b3c4d5e6f
tasks:
  description:
    - IDs of the asynchronous tasks the module started (create, extend, attach, detach, delete), in order; empty when
      nothing was sent.
    - With O(wait=true) every one of them has finished when the module returns.
  returned: success
  type: list
  elements: str
  sample: [6a1d8f3e-0b2c-4d5e-8f90-1a2b3c4d5e6f]
diff:
  description:
    - The managed members before and after the change, with C(state) - C(name), C(tags) (a mapping of the user tags),
      C(type_name) (the volume's C(volume_type)) and C(image_id) (the image a volume was made of, or V(null)); C(size)
      when O(size) is given, and C(instance_id) (the instance the volume is attached to, V(null) when it is not) when
      O(instance) is given.
  returned: success
  type: dict
  sample:
    before:
      state: present
      name: app-data
      size: 20
      instance_id: 8dc30d49-bb34-4920-9bbd-03a2587ec0ad
    after:
      state: present
      name: app-data
      size: 40
      instance_id: 169942e0-9b53-42df-95ef-1a8b6525c2bd
"""

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError, check_length, check_pattern, check_range, require
from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudResource, check_name
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS, find_named
from ansible_collections.gcore.platform.plugins.module_utils._parents import active_images, id_or_name
from ansible_collections.gcore.platform.plugins.module_utils._members import UNSET, Member, create_only
from ansible_collections.gcore.platform.plugins.module_utils._volumes import (
    ATTACHMENT_TAG,
    ATTACHMENT_TAG_RULE,
    MAX_SIZE,
    SOURCES,
    TRANSIENT,
    TYPES,
    Extension,
    SingleAttachment,
)

ITEM = KINDS["volume"].paths["item"]
V2_ITEM = KINDS["volume"].path("/{id}", "v2")
# The instance the volume is attached to, and its size: writes of their own (docs/api_reference.md section 15.6).
ATTACHMENT = SingleAttachment(("POST", V2_ITEM + "/attach"), ("POST", V2_ITEM + "/detach"))
EXTENSION = Extension(ITEM + "/extend")


class Volume(CloudResource):
    kind = KINDS["volume"]
    options = dict(
        source=dict(type="str", choices=SOURCES, default="new-volume"),
        image_id=dict(type="str"),
        image_name=dict(type="str"),
        snapshot_id=dict(type="str"),
        snapshot_name=dict(type="str"),
        size=dict(type="int"),
        type_name=dict(type="str", choices=TYPES),
        instance=dict(type="str"),
        attachment_tag=dict(type="str"),
    )
    tagged = True
    uuid_options = ("image_id", "snapshot_id")
    create_options = ("source", "name", "size", "image_id", "snapshot_id", "type_name", "tags")
    read_after_update = False  # the PATCH answers the volume, synchronously (docs/api_reference.md section 15.6)
    ready = ("status", ("available", "in-use"), TRANSIENT)
    parts = (EXTENSION, ATTACHMENT)  # grown first, then detached and attached

    @property
    def members(self):
        kind = create_only("type_name", lambda record: record.get("volume_type"), self.noun)
        kind.created = "standard" if self.params["source"] != "snapshot" else UNSET  # a snapshot's copy: the snapshot's type
        image = create_only("image_id", lambda record: (record.get("volume_image_metadata") or {}).get("image_id"), self.noun)
        return (Member("name"), kind, image)

    @property
    def required_to_create(self):
        return ("name", "size") if self.params["source"] != "snapshot" else ("name",)

    def validate(self):
        super().validate()
        params = self.params
        instance = params["instance"]
        check_range("size", params["size"], 1, MAX_SIZE)
        source = params["source"]
        for option, needs in (("image_id", "image"), ("snapshot_id", "snapshot")):
            by_name = option.replace("_id", "_name")
            require(not (params[option] and params[by_name] is not None), option, "mutually exclusive with %s" % by_name)
            require(params[option] is not None or params[by_name] is not None or source != needs, option,
                    "required with source=%s (or %s)" % (needs, by_name))
            for given in (option, by_name):
                require(params[given] is None or source == needs, given, "only with source=%s" % needs)
        check_name("snapshot_name", params["snapshot_name"], "a snapshot name")
        check_length("image_name", params["image_name"], 1, 255)
        absent = params["state"] == "absent"
        require(not absent or instance is None, "instance", "only with state=present (a deleted volume is detached first)")
        id_or_name("instance", instance or None, "instance")
        require(params["attachment_tag"] is None or instance, "attachment_tag", "only with a non-empty instance")
        check_pattern("attachment_tag", params["attachment_tag"], ATTACHMENT_TAG, ATTACHMENT_TAG_RULE)

    def resolve(self):
        """``instance`` resolved to the one instance id it names before any request about the volume (a name over every
        page, once per run: ``_parents.parent_id``, which the attachment's ``wanted`` asks again; check mode: one not built
        yet is assumed)."""
        ATTACHMENT.wanted(self)

    def examine(self, record):
        """A volume's own rule: with ``wait=false`` at most one task is started (a later one would need its result)."""
        tasks = [] if record is None or self.waiting() else [
            write for write in self.plan(record, self.params["state"] == "absent") if write.method != "PATCH"]
        if len(tasks) > 1:
            raise ValidationError("wait: this run needs %s tasks, each started once the one before has finished (%s), and "
                                  "wait=false does not wait; set wait=true, or make one change per run (nothing was sent)"
                                  % (len(tasks), ", then ".join(repr(write) for write in tasks)))
        if record is None and self.params["state"] == "present":  # only to create: the names resolved before any write
            if self.params["snapshot_name"] is not None:
                self.params["snapshot_id"] = find_named(self.client, KINDS["snapshot"], self.params, self.params["snapshot_name"],
                                                        "snapshot_name")[0]
            if self.params["image_name"] is not None:
                self.params["image_id"] = active_images(self.client, self.params, [self.params["image_name"]], "image_name")[self.params["image_name"]]

    def create_body(self):
        body = super().create_body()
        attached = ATTACHMENT.wanted(self)
        if attached:
            body["instance_id_to_attach_to"] = attached[0]["instance_id"]
            if self.params["attachment_tag"] is not None:
                body["attachment_tag"] = self.params["attachment_tag"]
        return body


def main():
    Volume.main()


if __name__ == "__main__":
    main()
