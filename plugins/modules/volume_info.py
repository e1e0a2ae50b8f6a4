#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: volume_info
short_description: Read Gcore Cloud volumes
version_added: 1.0.0
description:
  - Reads the volumes of a Gcore Cloud project and region, and changes nothing.
  - Reads one volume by O(volume_id), the volumes named exactly O(name), or every volume of the project and region.
  - With O(instance), only the volumes attached to that instance (the list's C(instance_id) filter).
author:
  - gcore.platform developers (@gcore-platform)
options:
  volume_id:
    description:
      - ID (UUID) of the volume to read, in any letter case.
      - Mutually exclusive with O(name).
    type: str
  name:
    description:
      - Exact name of the volumes to read, 3 to 63 characters matching
        C(^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$) (the pattern every volume name follows).
      - Volume names are not unique, so more than one volume may be returned.
      - Mutually exclusive with O(volume_id).
    type: str
  instance:
    description:
      - Only the volumes attached to this instance, given by ID (a UUID) or by exact name. A name is resolved over every
        page of the instance list; no instance of that name gives an empty RV(volumes), and several fail the module
        listing their IDs.
    type: str
notes:
  - With O(volume_id), reads that volume with C(GET /cloud/v1/volumes/{project_id}/{region_id}/{volume_id}); a volume
    that does not exist gives an empty RV(volumes).
  - With O(name), reads every page of C(GET /cloud/v1/volumes/{project_id}/{region_id}) filtered by C(name_part) and
    keeps the volumes whose name is exactly O(name) (the service's filter matches any name that contains it).
  - With neither, returns every volume of the project and region, reading every page.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.attributes.INFO_MODULE
seealso:
  - module: gcore.platform.volume
"""

EXAMPLES = r"""
- name: Every volume of project 1 in region 76
  gcore.platform.volume_info:
    project_id: 1
    region_id: 76
  register: all_volumes

- name: Show their names and sizes
  ansible.builtin.debug:
    msg: "{{ all_volumes.volumes | items2dict(key_name='name', value_name='size') }}"

- name: The volumes named exactly data-1
  gcore.platform.volume_info:
    project_id: 1
    region_id: 76
    name: data-1
  register: named

- name: The volumes attached to the instance web-1
  gcore.platform.volume_info:
    project_id: 1
    region_id: 76
    instance: web-1
  register: attached
"""

RETURN = r"""
volumes:
  description:
    - The volumes found, as the service returned them (see RV(gcore.platform.volume#module:volume) for their members),
      in the service's order. Empty when none matches.
  returned: success
  type: list
  elements: dict
  sample:
    - id: 726ecfcc-7fd0-4e30-a86e-7892524aa483
      name: data-1
      size: 10
      status: available
      volume_type: standard
      bootable: false
      is_root_volume: false
      attachments: []
      tags:
        - key: env
          value: prod
          read_only: false
      project_id: 1
      region_id: 76
      region: Luxembourg-2
      created_at: "2026-11-26T12:00:00Z"
      task_id: null
      creator_task_id: 6a1d8f3e-0b2c-4d5e-8f90-1a2b3c4d5e6f
"""

from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudInfo
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS
from ansible_collections.gcore.platform.plugins.module_utils._parents import parent_filter


class VolumeInfo(CloudInfo):
    kind = KINDS["volume"]
    filters = (parent_filter("instance", "instance", lambda value: {"instance_id": value},
                             lambda record, value: any(item.get("server_id") == value for item in record.get("attachments") or [])),)


def main():
    VolumeInfo.main()


if __name__ == "__main__":
    main()
