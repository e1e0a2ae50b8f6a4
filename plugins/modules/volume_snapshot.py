#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: volume_snapshot
short_description: Create, rename, tag and delete a snapshot of a Gcore Cloud volume
version_added: 1.0.0
description:
  - Makes a snapshot of a Gcore Cloud volume match what you describe, or removes it, and does nothing when it already
    matches.
  - The snapshot is found by O(snapshot_id) when it is given, otherwise by its exact O(name) among the snapshots of
    O(volume).
  - Creates it (returned once C(available)), renames and tags it, and with O(state=absent) deletes it.
author:
  - gcore.platform developers (@gcore-platform)
options:
  state:
    description:
      - V(present) creates or updates the snapshot; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
  snapshot_id:
    description:
      - ID (UUID) of the snapshot, in any letter case (sent lower-case).
      - When given, the snapshot is found by this ID and O(name) is its desired name (a rename).
      - With O(state=present), an ID that does not exist fails the module; with O(state=absent) it is reported
        unchanged.
      - One of O(snapshot_id) and O(name) is required.
    type: str
  name:
    description:
      - Name of the snapshot, 3 to 63 characters matching C(^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$).
      - Without O(snapshot_id), the snapshot of O(volume) whose name is exactly this one; it is created when there is
        none.
    type: str
  volume:
    description:
      - The volume the snapshot is of, a volume ID (a UUID) or the exact name of a volume (resolved before any write;
        an unknown or ambiguous name fails and nothing is sent).
      - Required to create a snapshot and to find one by O(name).
      - Create-only; a snapshot found by O(snapshot_id) of another volume fails the module before any write.
    type: str
  description:
    description:
      - Description of the snapshot.
      - Create-only (the service cannot change it); an existing snapshot with another description fails the module
        before any write, naming both.
    type: str
notes:
  - The snapshot is found by O(snapshot_id) when it is given, otherwise by its exact O(name) among the snapshots of
    O(volume), every page of C(GET /cloud/v1/snapshots/{project_id}/{region_id}?volume_id=...) (the service has no
    name filter). More than one snapshot of the volume with that name fails the module, lists their IDs and sends no
    write.
  - A missing snapshot is created with C(POST /cloud/v1/snapshots/{project_id}/{region_id}); its ID is read from the
    finished task's C(created_resources.snapshots), and the module then waits until the snapshot is C(available)
    (C(creating) means wait; any other status fails naming the snapshot and the status).
  - An existing snapshot is renamed and tagged with C(PATCH /cloud/v1/snapshots/{project_id}/{region_id}/{snapshot_id}),
    sending only the members that differ (O(tags) as a JSON merge patch); the service answers with the snapshot at
    once (no task).
  - O(state=absent) deletes the snapshot with C(DELETE /cloud/v1/snapshots/{project_id}/{region_id}/{snapshot_id}) and
    waits for the task.
  - With O(wait=false) the module returns once the service accepted each write, with the task IDs in RV(tasks); a
    snapshot being created is then returned as V(null).
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.gcore.WAIT
  - gcore.platform.gcore.TAGS
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.volume_snapshot_info
    description: Read snapshots, of one volume or all.
  - module: gcore.platform.volume
    description: A new volume from a snapshot (O(gcore.platform.volume#module:source=snapshot) with
      O(gcore.platform.volume#module:snapshot_name)).
"""

EXAMPLES = r"""
- name: A data volume to take snapshots of
  gcore.platform.volume:
    project_id: 1
    region_id: 76
    name: db-data
    size: 10

- name: Snapshot it before an upgrade
  gcore.platform.volume_snapshot:
    project_id: 1
    region_id: 76
    volume: db-data
    name: db-data-before-upgrade
    description: before the 2.0 upgrade
    tags:
      reason: upgrade
  register: snap

- name: A new volume from the snapshot, by the snapshot's name
  gcore.platform.volume:
    project_id: 1
    region_id: 76
    name: db-data-copy
    source: snapshot
    snapshot_name: db-data-before-upgrade

- name: Rename the snapshot by ID
  gcore.platform.volume_snapshot:
    project_id: 1
    region_id: 76
    snapshot_id: "{{ snap.snapshot.id }}"
    name: db-data-2-0

- name: Delete the copy and the snapshot
  gcore.platform.volume:
    project_id: 1
    region_id: 76
    name: db-data-copy
    state: absent

- name: Delete the snapshot
  gcore.platform.volume_snapshot:
    project_id: 1
    region_id: 76
    volume: db-data
    name: db-data-2-0
    state: absent
"""

RETURN = r"""
snapshot:
  description:
    - The snapshot as the service returned it when last read.
    - V(null) after a delete, when O(state=absent) found no snapshot, in check mode when the snapshot would be
      created, and with O(wait=false) when it is being created.
  returned: success
  type: dict
  contains:
    id:
      description: Snapshot ID.
      type: str
      sample: c0ffee00-1a2b-4c3d-8e4f-000000000001
    name:
      description: Snapshot name.
      type: str
      sample: db-data-before-upgrade
    description:
      description: Its description, or V(null).
      type: str
      sample: before the 2.0 upgrade
    volume_id:
      description: ID of the volume it is a snapshot of.
      type: str
      sample: 0b3e1e4c-5c3d-4a8e-9d6f-2f6b8e1a7c92
    size:
      description: Size in GiB.
      type: int
      sample: 10
    status:
      description: V(available) once ready; V(creating), V(deleting), V(error) and others on the way.
      type: str
      sample: available
    tags:
      description: Every tag of the snapshot, read-only ones included.
      type: list
      elements: dict
      sample: [{key: reason, value: upgrade, read_only: false}]
    created_at:
      description: Creation time.
      type: str
      sample: "2026-11-26T10:00:00Z"
    updated_at:
      description: Time of the last change.
      type: str
      sample: "2026-11-26T10:05:00Z"
    task_id:
      description: ID of the task that currently locks the snapshot, or V(null).
      type: str
      sample: null
tasks:
  description:
    - IDs of the asynchronous tasks the module started (the create's and the delete's; a PATCH starts none).
    - With O(wait=true) every one of them has finished when the module returns.
  returned: success
  type: list
  elements: str
  sample: [6a1d8f3e-0b2c-4d5e-8f90-1a2b3c4d5e6f]
diff:
  description:
    - The managed members before and after the change (C(name), C(volume), C(description), C(tags) as a mapping of
      the user tags), with C(state).
  returned: success
  type: dict
  sample:
    before: {state: present, name: db-data-before-upgrade, tags: {reason: upgrade}}
    after: {state: present, name: db-data-2-0, tags: {reason: upgrade}}
"""

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudResource
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS
from ansible_collections.gcore.platform.plugins.module_utils._members import Member, create_only
from ansible_collections.gcore.platform.plugins.module_utils._parents import id_or_name, parent_id


class VolumeSnapshot(CloudResource):
    kind = KINDS["snapshot"]
    options = dict(volume=dict(type="str"), description=dict(type="str"))
    tagged = True
    required_to_create = ("name", "volume")
    read_after_update = False  # the PATCH answers the snapshot (docs/api_reference.md section 16.4)
    ready = ("status", ("available",), ("creating",))
    volume_id = None  # the volume, resolved before any write

    @property
    def members(self):
        return (Member("name"), create_only("volume", lambda record: record.get("volume_id"), self.noun, want=lambda value: self.volume_id),
                create_only("description", lambda record: record.get("description"), self.noun))

    def validate(self):
        super().validate()
        params = self.params
        id_or_name("volume", params["volume"] or None, "volume")
        if params["snapshot_id"] is None and not params["volume"]:
            raise ValidationError("volume: required to find a snapshot by name (snapshots are listed by volume)")
        if params["description"] is not None and len(params["description"]) > 255:
            raise ValidationError("description: length %s is out of range (must be 0 to 255)" % len(params["description"]))

    def resolve(self):
        """``volume`` as the one volume id it names (a name is looked up over every page: before any write; one that is
        not there is no snapshot to delete, and in check mode a volume an earlier task creates: ``_parents``)."""
        if self.params["volume"]:
            self.volume_id = parent_id(self, "volume", self.params["volume"], "volume")

    def list_query(self):
        return {"volume_id": self.volume_id}

    def create_body(self):
        params = self.params
        body = dict(name=params["name"], volume_id=self.volume_id)
        for option in ("description", "tags"):
            if params[option] is not None:
                body[option] = params[option]
        return body


def main():
    VolumeSnapshot.main()


if __name__ == "__main__":
    main()
