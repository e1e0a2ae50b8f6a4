#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: placement_group_info
short_description: Read Gcore Cloud placement groups (server groups)
version_added: 1.0.0
description:
  - Reads the placement groups (server groups) of a Gcore Cloud project and region, with their instances, and changes
    nothing.
  - Reads one group by O(placement_group_id), the groups named exactly O(name), or every group of the project and
    region.
author:
  - gcore.platform developers (@gcore-platform)
options:
  placement_group_id:
    description:
      - ID of the group to read (its C(servergroup_id)), a UUID in any letter case.
      - Mutually exclusive with O(name).
    type: str
  name:
    description:
      - Exact name of the groups to read, 3 to 110 characters matching
        C(^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,108}[a-zA-Z0-9._]$).
      - Group names are not unique, so more than one group may be returned.
      - Mutually exclusive with O(placement_group_id).
    type: str
notes:
  - With O(placement_group_id), reads that group with
    C(GET /cloud/v1/servergroups/{project_id}/{region_id}/{placement_group_id}); a group that does not exist gives an
    empty RV(placement_groups).
  - With O(name), reads every page of C(GET /cloud/v1/servergroups/{project_id}/{region_id}) and keeps the groups whose
    name is exactly O(name) (the listing has no name filter).
  - With neither, returns every group of the project in the region.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.attributes.INFO_MODULE
seealso:
  - module: gcore.platform.placement_group
  - module: gcore.platform.instance_info
"""

EXAMPLES = r"""
- name: Every placement group of project 1 in region 76
  gcore.platform.placement_group_info:
    project_id: 1
    region_id: 76
  register: found

- name: Show each group's instances
  ansible.builtin.debug:
    msg: "{{ item.name }}: {{ item.instances | map(attribute='instance_name') | list }}"
  loop: "{{ found.placement_groups }}"

- name: The groups named exactly web-spread
  gcore.platform.placement_group_info:
    project_id: 1
    region_id: 76
    name: web-spread
  register: named
"""

RETURN = r"""
placement_groups:
  description: The groups found (empty when none matches), as the service returns them.
  returned: success
  type: list
  elements: dict
  contains:
    servergroup_id:
      description: The group's ID, to pass as O(gcore.platform.instance#module:placement_group).
      type: str
      sample: 6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f
    name:
      description: Group name.
      type: str
      sample: web-spread
    policy:
      description: V(affinity), V(anti-affinity) or V(soft-anti-affinity).
      type: str
      sample: anti-affinity
    instances:
      description: The instances in the group, each C({instance_id, instance_name}).
      type: list
      elements: dict
      sample: [{instance_id: 0b3e1e4c-5c3d-4a8e-9d6f-2f6b8e1a7c91, instance_name: web-1}]
"""

from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudInfo
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS


class PlacementGroupInfo(CloudInfo):
    kind = KINDS["placement_group"]


def main():
    PlacementGroupInfo.main()


if __name__ == "__main__":
    main()
