#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: network
short_description: Create, update and delete a Gcore Cloud network
version_added: 1.0.0
description:
  - Makes a Gcore Cloud network match what you describe, or removes it, and does nothing when it already matches.
  - The network is found by O(network_id) when it is given, otherwise by its exact O(name).
  - Creates it, changes its O(name) and O(tags), and with O(state=absent) deletes it (and its subnets).
author:
  - gcore.platform developers (@gcore-platform)
options:
  state:
    description:
      - V(present) creates or updates the network; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
  network_id:
    description:
      - ID (UUID) of the network, in any letter case (sent lower-case).
      - When given, the network is found by this ID and O(name) is its desired name (a rename).
      - With O(state=present), an ID that does not exist fails the module (an ID cannot be created); with
        O(state=absent) it is reported unchanged.
      - One of O(network_id) and O(name) is required.
    type: str
  name:
    description:
      - Name of the network, 3 to 63 characters matching C(^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$)
        (letters, digits, spaces, C(.), C(_) and C(-); it starts with a letter or digit and ends with a letter,
        digit, C(.) or C(_)).
      - Without O(network_id), the network whose name is exactly this one; it is created when there is none.
      - Required to create a network.
    type: str
  type:
    description:
      - The network type. Sent only when given; the service makes V(vxlan) networks by default.
      - Create-only. An existing network of another type fails the module before any write, naming both types; delete
        the network and create it again (or use another name).
    type: str
    choices: [vxlan, vlan]
  create_router:
    description:
      - Whether the service also makes a router for the new network (the service's default is V(true)).
      - Used only when the network is created, and sent only when given; the network record does not show it, so it is
        never compared.
    type: bool
notes:
  - The network is found by O(network_id) when it is given, otherwise by its exact O(name) over every page of
    C(GET /cloud/v1/networks/{project_id}/{region_id}) (the service's name filter is not trusted to match exactly).
    More than one network with that name fails the module, lists their IDs and sends no write.
  - A missing network is created with C(POST /cloud/v1/networks/{project_id}/{region_id}); its ID is read from the
    finished task's C(created_resources.networks).
  - An existing network is updated with C(PATCH /cloud/v2/networks/{project_id}/{region_id}/{network_id}), sending
    only the members that differ (O(name), and O(tags) as a JSON merge patch); the service answers with a task, which
    the module waits for (the v1 PATCH, which answered the network at once, is what older clients use).
  - O(state=absent) deletes the network (and its subnets) with
    C(DELETE /cloud/v1/networks/{project_id}/{region_id}/{network_id}) and waits for the task.
  - With O(wait=false) the module returns once the service accepted each write, with the task IDs in RV(tasks); a
    network being created is then returned as V(null), and after a PATCH RV(network) is the network as read before it.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.gcore.WAIT
  - gcore.platform.gcore.TAGS
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.network_info
    description: Read networks.
  - module: gcore.platform.subnet
    description: The subnets of a network.
  - module: gcore.platform.router
    description: Connects a network's subnets to each other and to the internet.
"""

EXAMPLES = r"""
- name: A private network with two tags
  gcore.platform.network:
    project_id: 1
    region_id: 76
    name: app-net
    create_router: false
    tags:
      env: prod
      team: web
  register: net

- name: Rename it by ID and add a tag, keeping the others
  gcore.platform.network:
    project_id: 1
    region_id: 76
    network_id: "{{ net.network.id }}"
    name: app-net-2
    tags:
      owner: ops
    purge_tags: false

- name: Start creating a VLAN network without waiting for the task
  gcore.platform.network:
    project_id: 1
    region_id: 76
    name: lab-vlan
    type: vlan
    wait: false
  register: started

- name: Delete the networks
  gcore.platform.network:
    project_id: 1
    region_id: 76
    name: "{{ item }}"
    state: absent
  loop: [app-net-2, lab-vlan]
"""

RETURN = r"""
network:
  description:
    - The network as the service returned it when last read.
    - V(null) after a delete, when O(state=absent) found no network, in check mode when the network would be created,
      and with O(wait=false) when it is being created.
  returned: success
  type: dict
  contains:
    id:
      description: Network ID.
      type: str
      sample: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01
    name:
      description: Network name.
      type: str
      sample: app-net
    type:
      description: Network type, V(vxlan) or V(vlan).
      type: str
      sample: vxlan
    mtu:
      description: Maximum transmission unit.
      type: int
      sample: 1450
    segmentation_id:
      description: The network's segmentation ID, or V(null).
      type: int
      sample: 1001
    external:
      description: Whether the network is external.
      type: bool
      sample: false
    default:
      description: Whether this is the project's default network (V(null) when unknown).
      type: bool
      sample: false
    shared:
      description: Whether the network is shared with other projects.
      type: bool
      sample: false
    port_security_enabled:
      description: Whether port security is enabled.
      type: bool
      sample: true
    subnets:
      description: IDs of the network's subnets.
      type: list
      elements: str
      sample: [5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01]
    tags:
      description: Every tag of the network, read-only ones included.
      type: list
      elements: dict
      sample: [{key: env, value: prod, read_only: false}]
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
      sample: "2026-11-26T10:00:00Z"
    updated_at:
      description: Time of the last change.
      type: str
      sample: "2026-11-26T10:05:00Z"
    task_id:
      description: ID of the task that currently locks the network, or V(null).
      type: str
      sample: null
    creator_task_id:
      description: ID of the task that created the network.
      type: str
      sample: 6a1d8f3e-0b2c-4d5e-8f90-1a2b3c4d5e6f
tasks:
  description:
    - IDs of the asynchronous tasks the module started (empty when nothing was sent).
    - With O(wait=true) every one of them has finished when the module returns.
  returned: success
  type: list
  elements: str
  sample: [6a1d8f3e-0b2c-4d5e-8f90-1a2b3c4d5e6f]
diff:
  description:
    - The managed members before and after the change (C(name), C(type), C(tags) as a mapping of the user tags), with
      C(state).
  returned: success
  type: dict
  sample:
    before: {state: present, name: app-net, type: vxlan, tags: {env: dev}}
    after: {state: present, name: app-net, type: vxlan, tags: {env: prod}}
"""

from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudResource
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS
from ansible_collections.gcore.platform.plugins.module_utils._members import Member, create_only


class Network(CloudResource):
    kind = KINDS["network"]
    options = dict(type=dict(type="str", choices=["vxlan", "vlan"]), create_router=dict(type="bool"))
    tagged = True
    create_options = ("name", "type", "create_router", "tags")

    @property
    def members(self):
        return (Member("name"), create_only("type", lambda record: record.get("type"), "network"))


def main():
    Network.main()


if __name__ == "__main__":
    main()
