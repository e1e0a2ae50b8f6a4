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
  - With O(volume_id), reads that volume with C(GET /cloud/v1/volumes/{project_id}/{region_id}/{volume_id}); a volume
    that does not exist gives an empty RV(volumes).
  - With O(name), reads every page of C(GET /cloud/v1/volumes/{project_id}/{region_id}) filtered by C(name_part) and
    keeps the volumes whose name is exactly O(name) (the service's filter matches any name that contains it).
  - With neither, returns every volume of the project and region, reading every page.
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

from ansible_collections.gcore.platform.plugins.module_utils._base import GcoreModule
from ansible_collections.gcore.platform.plugins.module_utils._checks import check_length, check_pattern, check_uuid
from ansible_collections.gcore.platform.plugins.module_utils._router import NAME_PATTERN, NAME_RULE
from ansible_collections.gcore.platform.plugins.module_utils._volumes import PAGE_SIZE, find_instance, is_uuid

LIST = "/cloud/v1/volumes/%s/%s"
ONE = LIST + "/%s"


class VolumeInfo(GcoreModule):
    argument_spec = dict(
        volume_id=dict(type="str"),
        name=dict(type="str"),
        instance=dict(type="str"),
    )
    cloud = True
    module_kwargs = dict(mutually_exclusive=[("volume_id", "name")])

    def validate(self):
        super().validate()
        params = self.params
        check_uuid("volume_id", params["volume_id"])
        if params["volume_id"] is not None:
            params["volume_id"] = params["volume_id"].lower()
        check_length("name", params["name"], 3, 63)
        check_pattern("name", params["name"], NAME_PATTERN, NAME_RULE)
        if params["instance"] is not None and not is_uuid(params["instance"]):
            check_length("instance", params["instance"], 3, 63)
            check_pattern("instance", params["instance"], NAME_PATTERN, "an instance ID (a UUID) or an instance name: " + NAME_RULE)

    def run(self):
        params = self.params
        instance_id = None
        if params["instance"] is not None:
            instance_id, _record = find_instance(self.client, params, params["instance"], required=False)
            if instance_id is None:
                return {"volumes": []}

        def attached(record):
            return instance_id is None or any(item.get("server_id") == instance_id for item in record.get("attachments") or [])

        if params["volume_id"] is not None:
            record = self.client.get_or_none(self.cloud_path(ONE, params["volume_id"]))
            return {"volumes": [record] if record is not None and attached(record) else []}
        query = {}
        if params["name"] is not None:
            query["name_part"] = params["name"]
        if instance_id is not None:
            query["instance_id"] = instance_id
        found = self.client.paginate(self.cloud_path(LIST), query or None, page_size=PAGE_SIZE, total_key="count")
        return {"volumes": [record for record in found if params["name"] is None or record.get("name") == params["name"]]}


def main():
    VolumeInfo.main()


if __name__ == "__main__":
    main()
