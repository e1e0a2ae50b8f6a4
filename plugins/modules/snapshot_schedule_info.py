#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: snapshot_schedule_info
short_description: Read Gcore Cloud snapshot schedules (lifecycle policies) with their volumes
version_added: 1.2.0
description:
  - Reads the snapshot schedules (the API's lifecycle policies) of a Gcore Cloud project and region, with their
    schedules and volumes, and changes nothing.
  - With O(snapshot_schedule_id), reads that one with
    C(GET /cloud/v1/lifecycle_policy/{project_id}/{region_id}/{snapshot_schedule_id}); one that does not exist gives an
    empty RV(snapshot_schedules).
  - Otherwise reads C(GET /cloud/v1/lifecycle_policy/{project_id}/{region_id}) and keeps those whose name is exactly
    O(name) when it is given (the service has no name filter). Both ask for the volumes (C(need_volumes=true)).
author:
  - gcore.platform developers (@gcore-platform)
options:
  snapshot_schedule_id:
    description:
      - ID of the snapshot schedule to read (an integer, at least 1). Mutually exclusive with O(name).
    type: int
  name:
    description:
      - Exact name of the snapshot schedules to read, 3 to 63 characters matching
        C(^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$). Mutually exclusive with O(snapshot_schedule_id).
    type: str
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.attributes.INFO_MODULE
seealso:
  - module: gcore.platform.snapshot_schedule
  - module: gcore.platform.volume_snapshot_info
    description: The snapshots they made.
"""

EXAMPLES = r"""
- name: Every snapshot schedule of project 1 in region 76
  gcore.platform.snapshot_schedule_info:
    project_id: 1
    region_id: 76
  register: every

- name: The one named db-nightly
  gcore.platform.snapshot_schedule_info:
    project_id: 1
    region_id: 76
    name: db-nightly
  register: nightly

- name: Show the volumes each one snapshots
  ansible.builtin.debug:
    msg: "{{ every.snapshot_schedules | map(attribute='volumes') | list }}"
"""

RETURN = r"""
snapshot_schedules:
  description: The snapshot schedules found (empty when none matches), as the service returns them, with their volumes.
  returned: success
  type: list
  elements: dict
  contains:
    id:
      description: Snapshot schedule ID.
      type: int
      sample: 4
    name:
      description: Its name.
      type: str
      sample: db-nightly
    status:
      description: V(active) or V(paused).
      type: str
      sample: active
    action:
      description: V(volume_snapshot).
      type: str
      sample: volume_snapshot
    schedules:
      description: Its schedules, each with its C(id), C(type), the members of its kind, C(max_quantity),
        C(retention_time) and C(resource_name_template).
      type: list
      elements: dict
      sample: [{id: 7a1c8a8e-0b8f-4bd4-9a48-5f0a2a1f9b01, type: interval, hours: 6, days: null, weeks: null, minutes: null,
                max_quantity: 8, retention_time: null, resource_name_template: "nightly {volume_id}"}]
    volumes:
      description: Its volumes, each C({volume_id, volume_name}).
      type: list
      elements: dict
      sample: [{volume_id: 0b3e1e4c-5c3d-4a8e-9d6f-2f6b8e1a7c92, volume_name: data-1}]
    project_id:
      description: Project ID.
      type: int
      sample: 1
    region_id:
      description: Region ID.
      type: int
      sample: 76
    user_id:
      description: ID of the user who created it.
      type: int
      sample: 1
"""

from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudInfo
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS


class SnapshotScheduleInfo(CloudInfo):
    kind = KINDS["snapshot_schedule"]


def main():
    SnapshotScheduleInfo.main()


if __name__ == "__main__":
    main()
