#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: image_info
short_description: Read Gcore Cloud images, newest first
version_added: 1.0.0
description:
  - Reads the images a Gcore Cloud project can use in a region (its private images, and the public and shared ones),
    and changes nothing. RV(images) is sorted newest first (by C(created_at)), so C(images[0]) is the latest.
  - Reads one image by O(image_id), or every image the project can use, only those named exactly O(name) when it is
    given.
author:
  - gcore.platform developers (@gcore-platform)
options:
  image_id:
    description:
      - ID of the image to read (a UUID, in any letter case). Mutually exclusive with O(name).
    type: str
  name:
    description:
      - Exact name of the images to read, 3 to 63 characters matching
        C(^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$). Image names are not unique. Mutually exclusive with
        O(image_id).
    type: str
  visibility:
    description:
      - Only the images of this visibility, V(private) (the project's own), V(public) or V(shared).
    type: str
    choices: [private, public, shared]
notes:
  - With O(image_id), reads that image with C(GET /cloud/v1/images/{project_id}/{region_id}/{image_id}); an image that
    does not exist gives an empty RV(images).
  - Otherwise reads C(GET /cloud/v1/images/{project_id}/{region_id}) with C(private=true) (the service hides a
    project's private images unless asked), and keeps those named exactly O(name) when it is given (the listing has no
    name filter).
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.attributes.INFO_MODULE
seealso:
  - module: gcore.platform.image
  - module: gcore.platform.instance
"""

EXAMPLES = r"""
- name: The project's own images
  gcore.platform.image_info:
    project_id: 1
    region_id: 76
    visibility: private
  register: own

- name: The latest public ubuntu-22.04 image
  gcore.platform.image_info:
    project_id: 1
    region_id: 76
    name: ubuntu-22.04
    visibility: public
  register: ubuntu

- name: Show its ID
  ansible.builtin.debug:
    msg: "{{ ubuntu.images[0].id }}"
"""

RETURN = r"""
images:
  description: The images found (empty when none matches), newest first, as the service returns them.
  returned: success
  type: list
  elements: dict
  contains:
    id:
      description: Image ID.
      type: str
      sample: 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d
    name:
      description: Image name.
      type: str
      sample: ubuntu-22.04
    status:
      description: V(active) when it can be used.
      type: str
      sample: active
    visibility:
      description: V(private), V(public) or V(shared).
      type: str
      sample: public
    size:
      description: Size in bytes.
      type: int
      sample: 2361393152
    created_at:
      description: Creation time (the sort key).
      type: str
      sample: "2026-11-26T10:00:00Z"
"""

from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudInfo, Filter
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS


class ImageInfo(CloudInfo):
    kind = KINDS["image"]
    filters = (Filter("visibility", dict(type="str", choices=["private", "public", "shared"]), lambda value: {"visibility": value},
                      lambda record, value: record.get("visibility") == value),)

    def run(self):  # newest first: images[0] is the latest (a tie in the reverse of the service's order)
        return {"images": sorted(super().run()["images"][::-1], key=lambda record: record.get("created_at") or "", reverse=True)}


def main():
    ImageInfo.main()


if __name__ == "__main__":
    main()
