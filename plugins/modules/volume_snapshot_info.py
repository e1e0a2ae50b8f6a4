#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: volume_snapshot_info
short_description: Read snapshots of Gcore Cloud volumes
version_added: 1.0.0
description:
  - Reads the volume snapshots of a Gcore Cloud project and region, and changes nothing.
  - Reads one snapshot by O(snapshot_id), or those of the project and region (of O(volume) when it is given), only those
    named exactly O(name) when it is given.
author:
  - gcore.platform developers (@gcore-platform)
options:
  snapshot_id:
    description:
      - ID (UUID) of the snapshot to read, in any letter case.
      - Mutually exclusive with O(name).
    type: str
  name:
    description:
      - Exact name of the snapshots to read, 3 to 63 characters matching
        C(^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$). Snapshot names are not unique.
      - Mutually exclusive with O(snapshot_id).
    type: str
  volume:
    description:
      - Only the snapshots of this volume, a volume ID (a UUID) or the exact name of a volume (a name no volume has
        gives an empty RV(snapshots)).
    type: str
notes:
  - With O(snapshot_id), reads that snapshot with C(GET /cloud/v1/snapshots/{project_id}/{region_id}/{snapshot_id}); a
    snapshot that does not exist gives an empty RV(snapshots).
  - Otherwise reads every page of C(GET /cloud/v1/snapshots/{project_id}/{region_id}), with C(volume_id) when
    O(volume) is given, and keeps those whose name is exactly O(name) when it is given (the service has no name filter).
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.attributes.INFO_MODULE
seealso:
  - module: gcore.platform.volume_snapshot
  - module: gcore.platform.volume_info
"""

EXAMPLES = r"""
- name: Every snapshot of project 1 in region 76
  gcore.platform.volume_snapshot_info:
    project_id: 1
    region_id: 76
  register: every

- name: The snapshots of the volume named db-data
  gcore.platform.volume_snapshot_info:
    project_id: 1
    region_id: 76
    volume: db-data
  register: of_db

- name: Show their names and statuses
  ansible.builtin.debug:
    msg: "{{ of_db.snapshots | map(attribute='name') | zip(of_db.snapshots | map(attribute='status')) | list }}"
"""

RETURN = r"""
snapshots:
  description: The snapshots found (empty when none matches), as the service returns them.
  returned: success
  type: list
  elements: dict
  contains:
    id:
      description: Snapshot ID.
      type: str
      sample: c0ffee00-1a2b-4c3d-8e4f-000000000001
    name:
      description: Snapshot name.
      type: str
      sample: db-data-before-upgrade
    volume_id:
      description: ID of the volume it is a snapshot of.
      type: str
      sample: 0b3e1e4c-5c3d-4a8e-9d6f-2f6b8e1a7c92
    size:
      description: Size in GiB.
      type: int
      sample: 10
    status:
      description: V(available) once ready.
      type: str
      sample: available
    tags:
      description: Every tag of the snapshot, each C({key, value, read_only}).
      type: list
      elements: dict
      sample: [{key: reason, value: upgrade, read_only: false}]
"""

from ansible_collections.gcore.platform.plugins.module_utils._checks import check_name, is_uuid
from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudInfo, Filter
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS, find_named


def volume_id(module, value):
    return find_named(module.client, KINDS["volume"], module.params, value, "volume", required=False)[0]


class VolumeSnapshotInfo(CloudInfo):
    kind = KINDS["snapshot"]
    filters = (Filter("volume", dict(type="str"), lambda value: {"volume_id": value}, lambda record, value: record.get("volume_id") == value,
                      check=lambda option, value: value if is_uuid(value) else check_name(option, value, "a volume ID (a UUID) or a volume name") or value,
                      resolve=volume_id),)


def main():
    VolumeSnapshotInfo.main()


if __name__ == "__main__":
    main()
