#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: image
short_description: Upload, change and delete a Gcore Cloud image
version_added: 1.0.0
description:
  - Makes a private image of a Gcore Cloud project match what you describe, from a URL or from a volume, or removes
    it, and does nothing when it already matches.
  - Found by O(image_id) or by its exact O(name) among the project's private images; made from a URL (O(source=url)) or
    a volume (O(source=volume)) and returned once it is C(active).
  - Changes an existing image's O(name), O(tags) and boot settings, and deletes it; a public image is never changed or
    deleted.
author:
  - gcore.platform developers (@gcore-platform)
options:
  state:
    description:
      - V(present) creates or updates the image; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
  image_id:
    description:
      - ID of the image (a UUID, in any letter case). When given, O(name) is its desired name (a rename).
      - With O(state=present), an ID that does not exist fails the module; with O(state=absent) it is reported
        unchanged. One of O(image_id) and O(name) is required.
    type: str
  name:
    description:
      - Name of the image, 3 to 63 characters matching C(^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$).
      - Without O(image_id), the private image whose name is exactly this one; it is created when there is none.
    type: str
  source:
    description:
      - What a new image is made from, V(url) (O(url)) or V(volume) (O(volume)). Required to create; used only then
        (the image does not show it).
    type: str
    choices: [url, volume]
  url:
    description:
      - Where the service fetches the image from (C(scheme://host/...)). Required with O(source=url), only with it
        (checked before any request).
      - C(no_log) - it may hold credentials or a signature; it appears in no output, and an error about it does not
        show it.
      - Used at create only; the image does not show it, so it is not compared.
    type: str
  volume:
    description:
      - The bootable volume a new image is made from, a volume ID (a UUID) or an exact volume name (resolved before any
        write). Required with O(source=volume), only with it. Used at create only (not compared).
      - The volume must be bootable and not attached to an instance (checked before any write).
    type: str
  architecture:
    description:
      - CPU architecture (the service's default is V(x86_64)). Create-only; an existing image with another
        architecture fails before any write, naming both.
    type: str
    choices: [x86_64, aarch64]
  os_distro:
    description:
      - Operating system distribution (C(Debian), C(Ubuntu) ...). Only with O(source=url) to create. Create-only,
        compared with the image.
    type: str
  os_version:
    description:
      - Operating system version (C(22.04) ...). Only with O(source=url) to create. Create-only, compared with the
        image.
    type: str
  cow_format:
    description:
      - Whether the image is kept while a volume made from it exists (the service's default is V(false)). Only with
        O(source=url). Used at create only; the image does not show it, so it is not compared.
    type: bool
  os_type:
    description:
      - V(linux) (the service's default) or V(windows). Changed on an existing image.
    type: str
    choices: [linux, windows]
  ssh_key:
    description:
      - Whether instances from the image take an SSH key, V(allow) (the service's default), V(deny) or V(required).
        Changed on an existing image.
    type: str
    choices: [allow, deny, required]
  hw_firmware_type:
    description:
      - Firmware, V(bios) or V(uefi). Changed on an existing image.
    type: str
    choices: [bios, uefi]
  hw_machine_type:
    description:
      - Virtual chipset, V(i440) or V(q35). Changed on an existing image.
    type: str
    choices: [i440, q35]
  is_baremetal:
    description:
      - Whether the image is for bare-metal servers. Changed on an existing image.
    type: bool
  wait_timeout:
    description:
      - How many seconds to wait for the tasks and for the image to be ready when O(wait=true), at least V(1).
      - An image still saving after this time fails the task naming its id and status; a later run finds it by its
        name instead of uploading another.
    type: int
    default: 1800
notes:
  - The image is found by O(image_id) when it is given, otherwise by its exact O(name) among the project's private
    images (C(GET /cloud/v1/images/{project_id}/{region_id}?visibility=private); the listing has no name filter). Two
    images with the name fail the module, list their IDs and send no write.
  - A missing image is made with C(POST /cloud/v1/downloadimage/{project_id}/{region_id}) (O(source=url)) or
    C(POST /cloud/v1/images/{project_id}/{region_id}) (O(source=volume)); its ID is read from the finished task's
    C(created_resources.images). The task finishing is not the image being ready, so the module then waits until
    its C(status) is C(active) with a non-zero C(size) (C(queued), C(saving) mean wait; any other status fails naming
    the image and the status).
  - An existing image is changed with C(PATCH /cloud/v1/images/{project_id}/{region_id}/{image_id}), sending only what
    differs of O(name), O(os_type), O(ssh_key), O(hw_firmware_type), O(hw_machine_type), O(is_baremetal) and O(tags)
    (a JSON merge patch); the service answers with the image at once (no task).
  - O(state=absent) deletes the image with C(DELETE /cloud/v1/images/{project_id}/{region_id}/{image_id}) and waits
    for the task.
  - What the records already say is refused before any write, in check mode too, naming the option - a change
    (O(name), O(tags) ...) or a delete of a public image (its C(visibility); an image found by O(image_id) may be one),
    as only the project's own images can be changed; an image made from a volume that is not C(bootable) or is in use
    (attached to an instance).
  - The user tags are read from the image's C(tags_v2), as today's service shows them (or from C(tags) on a record that
    shows them there).
  - With O(wait=false) the module returns once the service accepted each write, with the task IDs in RV(tasks); an
    image being created is then returned as V(null).
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.gcore.WAIT
  - gcore.platform.gcore.TAGS
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.image_info
    description: Read images, newest first.
  - module: gcore.platform.instance
    description: Boots from an image by name (O(gcore.platform.instance#module:volumes[].image_name)).
"""

EXAMPLES = r"""
- name: Upload an image from a URL and wait until it is active
  gcore.platform.image:
    project_id: 1
    region_id: 76
    name: debian-12-custom
    source: url
    url: https://cloud.debian.org/images/cloud/bookworm/latest/debian-12-genericcloud-amd64.qcow2
    os_distro: Debian
    os_version: "12"
    ssh_key: required
    tags:
      built-by: ansible
  register: uploaded

- name: Show its size
  ansible.builtin.debug:
    msg: "{{ uploaded.image.id }} is {{ uploaded.image.size }} bytes"

- name: Require UEFI from now on (one PATCH)
  gcore.platform.image:
    project_id: 1
    region_id: 76
    name: debian-12-custom
    hw_firmware_type: uefi

- name: Delete it
  gcore.platform.image:
    project_id: 1
    region_id: 76
    name: debian-12-custom
    state: absent
"""

RETURN = r"""
image:
  description:
    - The image as the service returned it when last read.
    - V(null) after a delete, when O(state=absent) found no image, in check mode when the image would be created, and
      with O(wait=false) when it is being created.
  returned: success
  type: dict
  contains:
    id:
      description: Image ID.
      type: str
      sample: 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d
    name:
      description: Image name.
      type: str
      sample: debian-12-custom
    status:
      description: V(active) once ready; V(queued), V(saving) on the way.
      type: str
      sample: active
    size:
      description: Size in bytes (0 until the image is active).
      type: int
      sample: 2361393152
    visibility:
      description: V(private) for a project's own image.
      type: str
      sample: private
    architecture:
      description: V(x86_64) or V(aarch64).
      type: str
      sample: x86_64
    os_distro:
      description: Distribution.
      type: str
      sample: Debian
    os_version:
      description: Version.
      type: str
      sample: "12"
    os_type:
      description: V(linux) or V(windows).
      type: str
      sample: linux
    ssh_key:
      description: V(allow), V(deny) or V(required).
      type: str
      sample: required
    hw_firmware_type:
      description: V(bios), V(uefi) or V(null).
      type: str
      sample: uefi
    hw_machine_type:
      description: V(i440), V(q35) or V(null).
      type: str
      sample: null
    is_baremetal:
      description: Whether it is a bare-metal image.
      type: bool
      sample: false
    min_disk:
      description: Smallest disk it boots from, GiB.
      type: int
      sample: 3
    tags_v2:
      description:
        - Every tag of the image, read-only ones included (today's service names them C(tags_v2); the module reads the
          user tags from there, or from C(tags) on a record that shows them there).
      type: list
      elements: dict
      sample: [{key: built-by, value: ansible, read_only: false}]
    created_at:
      description: Creation time.
      type: str
      sample: "2026-11-26T10:00:00Z"
    task_id:
      description: ID of the task that currently locks the image, or V(null).
      type: str
      sample: null
tasks:
  description:
    - IDs of the asynchronous tasks the module started (a PATCH starts none).
    - With O(wait=true) every one of them has finished when the module returns.
  returned: success
  type: list
  elements: str
  sample: [6a1d8f3e-0b2c-4d5e-8f90-1a2b3c4d5e6f]
diff:
  description:
    - The managed members before and after the change (those given of C(name), C(architecture), C(os_distro),
      C(os_version), C(os_type), C(ssh_key), C(hw_firmware_type), C(hw_machine_type), C(is_baremetal), and C(tags) as a
      mapping of the user tags), with C(state).
  returned: success
  type: dict
  sample:
    before: {state: present, name: debian-12-custom, hw_firmware_type: bios}
    after: {state: present, name: debian-12-custom, hw_firmware_type: uefi}
"""

import re

from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudResource
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS, find_named
from ansible_collections.gcore.platform.plugins.module_utils._parents import id_or_name
from ansible_collections.gcore.platform.plugins.module_utils._members import Member, create_only, differences

URL = r"^[a-zA-Z][a-zA-Z0-9+.-]*://[^\s/]+\S*$"
FIXED = ("architecture", "os_distro", "os_version")  # create-only, shown by the record
CHANGED = ("os_type", "ssh_key", "hw_firmware_type", "hw_machine_type", "is_baremetal")  # the PATCH changes them
ONLY = {"url": ("url", "os_distro", "os_version", "cow_format"), "volume": ("volume",)}  # the options of one source


def readiness(record):
    """An image is ready when it is active with a size (docs/api_reference.md section 16.3); ``killed`` (its upload or
    import failed) is an error status."""
    status = record.get("status")
    if status == "killed":
        return "error (killed: its upload failed)"
    return "active without a size" if status == "active" and not record.get("size") else status


class Image(CloudResource):
    kind = KINDS["image"]
    options = dict(
        source=dict(type="str", choices=["url", "volume"]),
        url=dict(type="str", no_log=True),  # it may hold credentials or a signature
        volume=dict(type="str"),
        architecture=dict(type="str", choices=["x86_64", "aarch64"]),
        os_distro=dict(type="str"),
        os_version=dict(type="str"),
        cow_format=dict(type="bool"),
        os_type=dict(type="str", choices=["linux", "windows"]),
        ssh_key=dict(type="str", choices=["allow", "deny", "required"], no_log=False),
        hw_firmware_type=dict(type="str", choices=["bios", "uefi"]),
        hw_machine_type=dict(type="str", choices=["i440", "q35"]),
        is_baremetal=dict(type="bool"),
        wait_timeout=dict(type="int", default=1800),
    )
    tagged = True
    read_after_update = False  # the PATCH answers the image (docs/api_reference.md section 16.3)
    ready = (readiness, ("active",), ("queued", "saving", "active without a size"))
    volume_id = volume = None  # the volume of source=volume (its id and record), resolved before any write

    @property
    def paths(self):
        return dict(self.kind.paths, create=self.kind.paths["download"] if self.params.get("source") == "url" else self.kind.paths["list"])

    @property
    def required_to_create(self):
        return ("name", "source") + ((self.params["source"],) if self.params["source"] else ())

    @property
    def members(self):
        return ((Member("name"),) + tuple(create_only(option, lambda record, option=option: record.get(option), self.noun) for option in FIXED)
                + tuple(Member(option) for option in CHANGED))

    def validate(self):
        super().validate()
        params = self.params
        for source, options in ONLY.items():
            for option in options:
                if params[option] is not None and params["source"] != source:
                    raise ValidationError("%s: only with source=%s" % (option, source))
        if params["source"] and not params[params["source"]]:
            raise ValidationError("%s: required with source=%s (the image is made from it)" % (params["source"], params["source"]))
        if params["url"] is not None and not re.match(URL, params["url"]):
            raise ValidationError("url: is not a URL (scheme://host/path); the value is not shown (it may hold credentials)")
        id_or_name("volume", params["volume"] or None, "volume")
        for option in ("os_distro", "os_version"):
            if params[option] is not None and not 1 <= len(params[option]) <= 255:
                raise ValidationError("%s: length %s is out of range (must be 1 to 255)" % (option, len(params[option])))

    def resolve(self):
        """``volume`` as the one volume id it names, and its record, before any write."""
        if self.params["volume"] and self.params["state"] == "present":
            self.volume_id, self.volume = find_named(self.client, KINDS["volume"], self.params, self.params["volume"], "volume")

    def examine(self, record):
        """What the records say is refused before any write: a change or a delete of a public image (the service
        answers 403), an image made from a volume that cannot boot or is attached."""
        absent = self.params["state"] == "absent"
        if self.exists_after(record) and record.get("visibility") == "public":
            what = "state" if absent else " and ".join(sorted(differences(self.members, record, self.params)))
            if what:
                raise Refused("%s: image %s (%r) is public: only the project's own images can be %s (nothing was sent)"
                              % (what, record.get("id"), record.get("name"), "deleted" if absent else "changed"))
        if not absent and not self.exists_after(record) and self.volume_id:
            volume = self.volume or self.client.get_or_none(KINDS["volume"].paths["item"].format(id=self.volume_id, **self.params))
            if volume is None:
                raise Refused("volume: volume %s does not exist in %s (nothing was sent)" % (self.volume_id, self.where()))
            if not volume.get("bootable"):
                raise Refused("volume: volume %s (%r) is not bootable: an image is made from a bootable volume (nothing was sent)"
                              % (self.volume_id, volume.get("name")))
            if volume.get("status") == "in-use" or volume.get("attachments"):
                raise Refused("volume: volume %s (%r) is in use (attached to an instance): detach it first (nothing was sent)"
                              % (self.volume_id, volume.get("name")))

    def list_query(self):
        return {"visibility": "private"}  # the project's own images (public ones are not managed here)

    def create_body(self):
        params = self.params
        body = {"name": params["name"]}
        if params["source"] == "volume":
            body.update(source="volume", volume_id=self.volume_id)
        for option in ("url", "architecture", "os_distro", "os_version", "cow_format") + CHANGED + ("tags",):
            if params[option] is not None:
                body[option] = params[option]
        return body


def main():
    Image.main()


if __name__ == "__main__":
    main()
