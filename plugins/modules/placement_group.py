#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: placement_group
short_description: Create and delete a Gcore Cloud placement group (server group)
version_added: 1.0.0
description:
  - Makes a Gcore Cloud placement group (the API calls it a server group) exist with the policy you give, or removes
    it, and does nothing when it already matches. Instances join a group with the
    O(gcore.platform.instance#module:placement_group) option of M(gcore.platform.instance).
  - The group is found by O(placement_group_id) when it is given, otherwise by its exact O(name).
  - Creates the group or deletes it (O(state=absent)); a group cannot be changed, so a name or policy that differs
    fails.
author:
  - gcore.platform developers (@gcore-platform)
options:
  state:
    description:
      - V(present) creates the group; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
  placement_group_id:
    description:
      - ID of the group (its C(servergroup_id)), a UUID in any letter case (sent lower-case).
      - With O(state=present), an ID that does not exist fails the module (an ID cannot be created); with
        O(state=absent) it is reported unchanged.
      - One of O(placement_group_id) and O(name) is required.
    type: str
  name:
    description:
      - Name of the group, 3 to 110 characters matching C(^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,108}[a-zA-Z0-9._]$).
      - Without O(placement_group_id), the group whose name is exactly this one; it is created when there is none.
      - Required to create a group. A group cannot be renamed.
    type: str
  policy:
    description:
      - V(affinity) puts the group's instances on the same host, V(anti-affinity) on different hosts (strictly),
        V(soft-anti-affinity) on different hosts when it can.
      - Required to create a group. Create-only; an existing group with another policy fails the module before any
        write, naming both policies.
    type: str
    choices: [affinity, anti-affinity, soft-anti-affinity]
notes:
  - Without O(placement_group_id), O(name) is looked up in C(GET /cloud/v1/servergroups/{project_id}/{region_id}).
  - A missing group is created with C(POST /cloud/v1/servergroups/{project_id}/{region_id}), which answers the group at
    once (no task).
  - O(state=absent) deletes the group with C(DELETE /cloud/v1/servergroups/{project_id}/{region_id}/{placement_group_id})
    and waits for the task. The service refuses to delete a group that still holds instances; its refusal is reported
    as it is (take the instances out first, with O(gcore.platform.instance#module:placement_group="")).
  - The group's create answers at once, so with O(wait=false) RV(placement_group) is the group as created; the delete
    starts a task, whose ID is in RV(tasks).
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.gcore.WAIT
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.placement_group_info
    description: Read placement groups and their instances.
  - module: gcore.platform.instance
    description: Its O(gcore.platform.instance#module:placement_group) puts an instance into a group.
"""

EXAMPLES = r"""
- name: Keep the web instances on different hosts
  gcore.platform.placement_group:
    project_id: 1
    region_id: 76
    name: web-spread
    policy: anti-affinity
  register: group

- name: Show the group's ID and instances
  ansible.builtin.debug:
    msg: "{{ group.placement_group.servergroup_id }} holds {{ group.placement_group.instances | length }} instances"

- name: Delete the group (the service refuses while it holds instances)
  gcore.platform.placement_group:
    project_id: 1
    region_id: 76
    name: web-spread
    state: absent
"""

RETURN = r"""
placement_group:
  description:
    - The group as the service returned it when last read.
    - V(null) after a delete, when O(state=absent) found no group, and in check mode when the group would be created.
  returned: success
  type: dict
  contains:
    servergroup_id:
      description: The group's ID (the record has no C(id) member).
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
tasks:
  description:
    - IDs of the asynchronous tasks the module started (the delete's; the create starts none).
    - With O(wait=true) every one of them has finished when the module returns.
  returned: success
  type: list
  elements: str
  sample: [6a1d8f3e-0b2c-4d5e-8f90-1a2b3c4d5e6f]
diff:
  description:
    - The managed members before and after the change (C(name), C(policy)), with C(state).
  returned: success
  type: dict
  sample:
    before: {state: absent}
    after: {state: present, name: web-spread, policy: anti-affinity}
"""

from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudResource
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS, POLICIES
from ansible_collections.gcore.platform.plugins.module_utils._members import create_only

FIXED = "a %s cannot be changed once it is created"


class PlacementGroup(CloudResource):
    kind = KINDS["placement_group"]
    options = dict(policy=dict(type="str", choices=list(POLICIES)))
    create_options = ("name", "policy")
    required_to_create = ("name", "policy")
    lock = None  # the record has no task_id (docs/api_reference.md section 16.5)
    task_types = {"delete": "delete_servergroup"}
    members = (create_only("name", lambda record: record.get("name"), "placement group", rule=FIXED),
               create_only("policy", lambda record: record.get("policy"), "placement group", rule=FIXED))


def main():
    PlacementGroup.main()


if __name__ == "__main__":
    main()
