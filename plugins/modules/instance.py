#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: instance
short_description: Create, change, start, stop, restart and delete a Gcore Cloud virtual machine instance
version_added: 1.0.0
description:
  - Makes a Gcore Cloud virtual machine instance match the task, found by O(instance_id) or by its exact O(name).
  - Creates it and waits until it is C(ACTIVE) (C(SHUTOFF) for O(state=stopped)); renames and tags it; starts, stops and
    reboots it; adds and removes security groups; resizes it with O(allow_resize=true); deletes it.
  - Options the service cannot change on an existing instance (its image, O(flavor) without O(allow_resize),
    O(ssh_key_name)) are compared and a difference fails before any write; the options used only at create are listed in
    the notes.
seealso:
  - module: gcore.platform.instance_info
  - module: gcore.platform.quota_check
  - module: gcore.platform.price_preview
  - plugin: gcore.platform.cloud
    plugin_type: inventory
author:
  - gcore.platform developers (@gcore-platform)
options:
  state:
    description:
      - V(present) makes the instance exist; its power state is not managed.
      - V(started) makes it exist and run (C(ACTIVE)); V(stopped) makes it exist and stopped (C(SHUTOFF)). The
        action is sent only when the status differs.
      - V(restarted) makes it exist and reboots it (or starts it when it is stopped); it reports a change on every
        run. A just-created instance is not rebooted again.
      - V(absent) deletes it; see O(delete_floating_ips) and O(delete_volumes).
    type: str
    choices: [present, started, stopped, restarted, absent]
    default: present
  instance_id:
    description:
      - UUID of the instance (any case; sent lower-case). When given it identifies the instance, and O(name)
        renames it.
      - An id that is not found fails the task, except with O(state=absent) (nothing to do).
    type: str
  name:
    description:
      - Exact name of the instance; required to create one. 3 to 63 characters, letters, digits, spaces, C(.),
        C(_) and C(-); first a letter or a digit, last a letter, a digit, C(.) or C(_).
      - One of O(instance_id) and O(name) is required.
    type: str
  interfaces:
    description:
      - Network interfaces of the instance, in order; required to create an instance (at least one); used at create only.
      - Each item is one of four variants chosen by O(interfaces[].type), documented in the suboptions. A field
        given for a type that has no such field, or missing where the type requires it, fails validation before any
        request. Only the fields given are sent.
      - O(interfaces[].floating_ip) gives the interface a floating IP at create (V(new), or V(existing) with its id).
    type: list
    elements: dict
notes:
  - Creates it with C(POST /cloud/v2/instances/{project_id}/{region_id}) and waits for its task, then until the
    instance is C(ACTIVE) (C(SHUTOFF) for O(state=stopped)); an instance in C(ERROR) fails the task naming its id.
  - Renames it and changes its tags with C(PATCH /cloud/v1/instances/{project_id}/{region_id}/{id}); starts, stops
    and reboots it with C(POST /cloud/v2/instances/{project_id}/{region_id}/{id}/action); adds and removes security
    groups one by one (C(addsecuritygroup), C(delsecuritygroup)); resizes it with C(changeflavor) only when
    O(allow_resize=true); deletes it with C(DELETE /cloud/v1/instances/{project_id}/{region_id}/{id}).
  - Options the service cannot change on an existing instance (O(flavor) without O(allow_resize), O(ssh_key_name))
    are never silently ignored. When they differ from the instance, the task fails before any request that
    changes something, naming the option, the current and the wanted value.
  - The image of an existing instance is read from its boot volume (its C(volume_image_metadata.image_id), one listing
    of the instance's volumes) and compared with the boot volume's O(volumes[].image_id) or O(volumes[].image_name).
    A different image fails the task naming both. The image is create-only and the instance API has no rebuild, so
    the way forward is a new instance. Image names are resolved at each run, so an unknown or deactivated image
    fails even when nothing is to be created.
  - O(volumes) (but the boot image), O(interfaces), O(user_data), O(password) and O(username) are used when the
    instance is created only. The instance record does not show them, so they are not compared afterwards.
  - The service matches names by substring; this module lists every page and compares names exactly. Two
    instances with the name fail the task, listing their ids, and nothing is changed.
  - With O(wait=false) the module returns once the service accepted each request, with their task ids in
    RV(tasks); RV(instance) is then V(null) after a create. Stopping a new instance needs O(wait=true).
  - The inventory plugin P(gcore.platform.cloud#inventory) lists the instances this module creates.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.instance
  - gcore.platform.gcore.WAIT
  - gcore.platform.gcore.TAGS
  - gcore.platform.interfaces.NAMED
  - gcore.platform.attributes
  - gcore.platform.provisioning
attributes:
  idempotent:
    support: partial
    details:
      - O(state=restarted) reboots the instance (or starts it) on every run, so every run reports a change. Every
        other state is idempotent.
"""

EXAMPLES = r"""
- name: A web server booting from Ubuntu, with an extra volume, a floating IP and two security groups
  gcore.platform.instance:
    name: web-1
    flavor: g1-standard-2-4
    volumes:
      - source: image
        image_name: ubuntu-22.04
        size: 10
        boot_index: 0
      - source: new-volume
        size: 20
        type_name: ssd_hiiops
    interfaces:
      - type: subnet
        network_id: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01
        subnet_id: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01
        floating_ip:
          source: new
    security_groups: [legacy-sg]
    ssh_key_name: deploy
    user_data: |
      #cloud-config
      packages: [nginx]
    tags:
      env: prod
  register: web

- name: Connect to it
  ansible.builtin.debug:
    msg: "ssh ubuntu@{{ web.addresses.floating_ipv4 | first }}"

- name: Stop it
  gcore.platform.instance:
    name: web-1
    state: stopped

- name: Resize it (it restarts) and start it again
  gcore.platform.instance:
    name: web-1
    flavor: g1-standard-4-8
    allow_resize: true
    state: started

- name: A placement group that keeps the web servers on different hosts
  gcore.platform.placement_group:
    name: web-spread
    policy: anti-affinity

- name: Move the server into it, by the group's name
  gcore.platform.instance:
    name: web-1
    placement_group: web-spread

- name: Delete it with its floating IPs and volumes
  gcore.platform.instance:
    name: web-1
    state: absent
    delete_floating_ips: true
    delete_volumes: true
"""

RETURN = r"""
instance:
  description:
    - The instance as read last (C(GET /cloud/v1/instances/{project_id}/{region_id}/{id})).
    - V(null) after a delete, when a check-mode run would create it, and after a create with O(wait=false).
  returned: success
  type: dict
  contains:
    id:
      description: UUID of the instance.
      type: str
      sample: 49539562-bb3f-4839-98c6-26cb52aea07f
    name:
      description: Name of the instance.
      type: str
      sample: web-1
    status:
      description: Status, such as C(ACTIVE), C(SHUTOFF), C(BUILD) or C(ERROR).
      type: str
      sample: ACTIVE
    vm_state:
      description: The hypervisor's state, such as C(active) or C(stopped).
      type: str
      sample: active
    flavor:
      description: The flavor (C(flavor_id), C(flavor_name), C(vcpus), C(ram) in MiB, ...).
      type: dict
      sample: {flavor_id: g1-standard-2-4, flavor_name: g1-standard-2-4, vcpus: 2, ram: 4096}
    addresses:
      description: The addresses by network name, each C({addr, type}) with C(type) C(fixed) or C(floating).
      type: dict
      sample: {external: [{addr: 198.51.100.12, type: fixed}]}
    volumes:
      description: The volumes, each C({id, delete_on_termination}).
      type: list
      elements: dict
      sample: [{id: 9a44bfd6-1045-4f64-a611-89f9370d03d0, delete_on_termination: false}]
    security_groups:
      description: The security groups, each C({name}).
      type: list
      elements: dict
      sample: [{name: legacy-sg}]
    ssh_key_name:
      description: The SSH key installed at create.
      type: str
      sample: deploy
    tags:
      description: Tags as C([{key, value, read_only}]).
      type: list
      elements: dict
      sample: [{key: env, value: prod, read_only: false}]
    task_id:
      description: The task that locks the instance; V(null) when none does.
      type: str
      sample: null
  sample:
    id: 49539562-bb3f-4839-98c6-26cb52aea07f
    name: web-1
    status: ACTIVE
addresses:
  description:
    - The instance's addresses in four lists, classified as the inventory plugin P(gcore.platform.cloud#inventory) does.
    - C(floating_ipv4) holds the floating IPv4 addresses; C(private_ipv4) those in 10.0.0.0/8, 172.16.0.0/12,
      192.168.0.0/16 and 100.64.0.0/10; C(public_ipv4) the others (floating ones included); C(public_ipv6) the
      IPv6 addresses outside fc00::/7. Each in the record's order; empty lists when there is no instance.
  returned: success
  type: dict
  sample:
    public_ipv4: [203.0.113.102]
    private_ipv4: [192.168.10.111]
    floating_ipv4: [203.0.113.102]
    public_ipv6: []
changes:
  description:
    - With O(security_groups), the groups added and removed on an existing instance (in check mode, those that
      would be).
  returned: when O(security_groups) is given
  type: dict
  sample:
    security_groups:
      added: [legacy-sg]
      removed: [default]
deleted:
  description:
    - With O(state=absent), what the delete takes with the instance (ids), as the run read the instance before the
      delete; in check mode, what it would take. Empty lists when there was no instance.
    - C(volumes) the volumes created with O(volumes[].delete_on_termination=true), and every other one with
      O(delete_volumes=true); C(floating_ips) the floating IPs assigned to it, with O(delete_floating_ips=true).
  returned: when O(state=absent)
  type: dict
  sample: {volumes: [9a44bfd6-1045-4f64-a611-89f9370d03d0], floating_ips: []}
left:
  description:
    - With O(state=absent), the volumes and floating IPs (ids) the instance had that the delete leaves (detached or
      unassigned, they stay and are billed); a warning names them. Empty lists when nothing is left.
  returned: when O(state=absent)
  type: dict
  sample: {volumes: [], floating_ips: [3f8a2c1d-9e4b-4d7a-b6c5-1a2b3c4d5e6f]}
tasks:
  description: The IDs of the tasks the changes started, in order (also when a later step failed).
  returned: when the module got past the validation of its options
  type: list
  elements: str
  sample: [0b86c0ae-5c1a-4b59-8c81-fb9340d9801a]
diff:
  description:
    - The managed members before and after (C(name), C(ssh_key_name), C(tags) as a dict of user tags, C(flavor),
      C(status) for the power states, C(security_groups) as C({name}) items, C(placement_group) as the group's ID or
      V("") for none), with C(state). Never a password or user data.
    - For a create (in check mode, the create it would make), C(after) also shows what the create makes (since
      1.1.0), C(image) (the boot image's name, or ID, as given), C(volumes) (each with its C(source), C(size),
      C(type_name) and what it is made of, as given), C(interfaces) (each with its C(type) and its network and
      subnet as given, by name or ID), and C(user_data) and C(password) as V(set) or V(not set), never their values.
    - A delete's C(before) lists what goes with the instance under C(deleted_with_it) (C(volumes) and C(floating_ips),
      ids, as in RV(deleted)).
  returned: success
  type: dict
  sample:
    before: {state: present, name: web-1, status: ACTIVE}
    after: {state: present, name: web-1, status: SHUTOFF}
"""

from ansible_collections.gcore.platform.plugins.module_utils._instance_resource import Instance


def main():
    Instance.main()


if __name__ == "__main__":
    main()
