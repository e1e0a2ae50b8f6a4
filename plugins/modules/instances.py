#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: instances
short_description: A fleet of identical Gcore Cloud instances in one task, created together and scaled by count
version_added: 1.1.0
description:
  - Makes a fleet of Gcore Cloud virtual machine instances match the task. The fleet is a list of exact O(names), or
    O(count) instances named by O(name_format) (V(web-{index}) gives C(web-1) to C(web-<count>)).
  - Every member is the instance M(gcore.platform.instance) would make of the same options; the fleet only does
    together what that module does one by one.
  - Creates the missing members together, makes the existing ones converge round by round, and with O(purge=true)
    deletes the members above O(count); a fleet of N takes about the time of one instance.
seealso:
  - module: gcore.platform.instance
  - module: gcore.platform.instance_info
  - module: gcore.platform.load_balancer
    description: Pool members may name an instance of the fleet (O(gcore.platform.load_balancer#module:listeners[].pool.members[].instance)).
  - plugin: gcore.platform.cloud
    plugin_type: inventory
author:
  - gcore.platform developers (@gcore-platform)
options:
  state:
    description:
      - V(present) makes every member exist; the power state is not managed.
      - V(started) makes every member exist and run (C(ACTIVE)); V(stopped) exist and stopped (C(SHUTOFF)). The action
        is sent only to the members whose status differs.
      - V(absent) deletes every member (the names in O(names), or O(name_format) with the indices 1 to O(count), and
        with O(purge=true) those above O(count) too); see O(delete_floating_ips) and O(delete_volumes).
    type: str
    choices: [present, started, stopped, absent]
    default: present
  names:
    description:
      - The exact names of the members, each unique, following the name rule of M(gcore.platform.instance)'s
        O(gcore.platform.instance#module:name).
      - Exclusive with O(count) and O(name_format); one of O(names) and O(count) is required.
    type: list
    elements: str
  count:
    description:
      - How many members the fleet has, V(0) to V(1000), named by O(name_format) with the indices 1 to O(count).
      - Required with O(name_format).
    type: int
  name_format:
    description:
      - The members' names, holding V({index}) once, replaced by the member's index (1-based, without leading zeros),
        for example V(web-{index}). Each name it gives must follow the instance name rule.
      - Required with O(count).
    type: str
  purge:
    description:
      - Delete the instances whose name is O(name_format) with an index above O(count) (scaling in), highest index first.
      - Only the fleet's members are deleted - an instance of such a name whose flavor differs from O(flavor), or that
        lacks one of O(tags), is kept and named in a warning. Give each fleet a distinguishing tag.
      - Only with O(count) and O(name_format); with O(names) it fails validation.
    type: bool
    default: false
  rolling:
    description:
      - Replace, a batch at a time, the members that differ in what only a new instance can change - the image of the
        boot volume (read from its C(volume_image_metadata)), its O(volumes[].size) or O(volumes[].type_name) when
        given (for a boot volume from an image), O(ssh_key_name), and the networks O(interfaces[].network) names by
        name (a member with no address on such a network, as its record's C(addresses) show them; networks given by
        ID, and the external network, are not compared). Each batch's members are deleted together, then
        created again with the same names, and the next batch starts once they are ready (C(ACTIVE), or C(SHUTOFF) with
        O(state=stopped)), O(rolling.pause) seconds later. A flavor change with O(allow_resize=true) is rolled the same
        way. So never more than O(rolling.batch) members are away at once. Members to roll are taken in name order.
      - Without it, such a difference fails the task before any write, naming every member that differs and this
        option (and a flavor change with O(allow_resize=true) resizes every member at once).
      - A replaced member's volumes and floating IPs go as with O(state=absent) - set O(delete_volumes=true) so that the
        old boot volumes do not stay behind (a warning names what is left). Load balancer pool members that name an
        instance (O(gcore.platform.load_balancer#module:listeners[].pool.members[].instance)) follow the name; drain a
        batch from the pools first when a dropped connection matters.
      - A batch where a member fails stops the roll; the message names what was replaced and what was not rolled, and
        a re-run replaces what is left. Needs O(wait=true).
    type: dict
    suboptions:
      batch:
        description:
          - How many members are replaced (or resized) at a time, V(1) to V(1000).
        type: int
        required: true
      pause:
        description:
          - Seconds to wait between two batches, V(0) to V(3600).
        type: int
        default: 0
    version_added: 1.2.0
  interfaces:
    description:
      - Network interfaces of each new member, in order; required to create one (at least one); used at create only.
    type: list
    elements: dict
notes:
  - One listing of the project's instances (every page) finds the fleet; names are compared exactly, and two instances
    with a member's name fail the task listing their ids, before any write.
  - The names the options hold (O(placement_group), O(volumes[].image_name), O(volumes[].snapshot_name),
    O(security_groups)) are resolved once for the whole fleet, before any write; the image names at each run.
  - The members' images are read from their boot volumes (one listing of the bootable volumes) and compared with the
    boot volume's image. Members booted from another image fail the task, naming them, before any write, unless
    O(rolling) is given, which replaces them a batch at a time (the image is create-only).
  - Missing instances are created together. Every create request (C(POST /cloud/v2/instances/{project_id}/{region_id}))
    is sent first, then all their tasks are waited for together, then all the new instances until they are ready
    (C(ACTIVE); one listing per poll). A fleet of N takes about the time of one instance, not N.
  - Existing members converge as M(gcore.platform.instance) makes one converge (security groups, tags, O(flavor) with
    O(allow_resize), O(placement_group), the power state of O(state)), the writes sent round by round, each round for
    every member before its tasks are waited for together (twenty instances are stopped in the time of one stop).
    Members found still building (after O(wait=false), a timeout or a cancelled job) are waited for, together, before
    they are compared.
  - O(purge=true) scales in. Instances whose name is O(name_format) with an index above O(count) are deleted, highest
    index first, their delete requests sent together and their tasks waited for together.
  - A value one instance alone can have is refused with O(count) or O(names) above one, before any request, naming
    the option - an O(interfaces[].ip_address), an existing O(interfaces[].floating_ip), a reserved fixed IP
    (O(interfaces[].port_id)), an existing volume (O(volumes[].volume_id)); declare such an instance alone with
    M(gcore.platform.instance).
  - A member that fails leaves the others. The task then fails, saying per member what was done (for example
    C(done, web-1 created and stopped, web-2 moved) - each of created, updated, started, stopped, moved, deleted) and
    naming those that failed, with RV(changes) and RV(instances) as far as the run got. C(changed) is true once any
    write was accepted. A member's write whose answer was lost is read back for that member. A re-run sends only what
    is left.
  - Each member is created with the same body but its name; an interface's O(interfaces[].floating_ip) with
    V(source=new) gives each member its own floating IP.
  - With O(wait=false) the module returns once the service accepted each request, with their task ids in RV(tasks);
    the members just created are not in RV(instances). A later run with O(wait=true) waits for them (together) and
    finishes the build.
  - Names are not unique in Gcore Cloud. Two runs creating the same fleet at the same time can make two instances of a
    name; run the task once per fleet (C(run_once), C(throttle)).
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.instance
  - gcore.platform.gcore.WAIT
  - gcore.platform.gcore.TAGS
  - gcore.platform.interfaces.NAMED
  - gcore.platform.attributes
  - gcore.platform.provisioning
"""

EXAMPLES = r"""
- name: Three web servers, created together, each with its own floating IP
  gcore.platform.instances:
    count: 3
    name_format: web-{index}
    flavor: g1-standard-2-4
    volumes:
      - source: image
        image_name: ubuntu-22.04
        size: 10
        boot_index: 0
    interfaces:
      - type: subnet
        network_id: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01
        subnet_id: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01
        floating_ip:
          source: new
    security_groups: [legacy-sg]
    tags:
      tier: web
  register: web

- name: Their floating IPs
  ansible.builtin.debug:
    msg: "{{ web.addresses | dict2items | map(attribute='value.floating_ipv4') | flatten }}"

- name: Scale out to five (web-4 and web-5 are created; web-1 to web-3 are left as they are)
  gcore.platform.instances:
    count: 5
    name_format: web-{index}
    flavor: g1-standard-2-4
    volumes:
      - source: image
        image_name: ubuntu-22.04
        size: 10
        boot_index: 0
    interfaces:
      - type: subnet
        network_id: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01
        subnet_id: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01
    security_groups: [legacy-sg]
    tags:
      tier: web

- name: Scale in to two (web-5, web-4 and web-3 are deleted, in that order, with their volumes)
  gcore.platform.instances:
    count: 2
    name_format: web-{index}
    purge: true
    delete_volumes: true
    delete_floating_ips: true

- name: Stop two named workers
  gcore.platform.instances:
    names: [web-1, web-2]
    state: stopped

- name: Roll a new image through the fleet, two members at a time (names kept; old boot volumes deleted)
  gcore.platform.instances:
    count: 2
    name_format: web-{index}
    flavor: g1-standard-2-4
    volumes:
      - source: image
        image_name: ubuntu-22.04-old
        size: 10
        boot_index: 0
    interfaces:
      - type: external
    delete_volumes: true
    rolling:
      batch: 2
      pause: 0
  register: roll

- name: What was replaced, batch by batch
  ansible.builtin.debug:
    msg: "{{ roll.changes.batches }} -> {{ roll.changes.replaced }}"

- name: Delete the fleet
  gcore.platform.instances:
    count: 2
    name_format: web-{index}
    state: absent
    delete_volumes: true
    delete_floating_ips: true
"""

RETURN = r"""
instances:
  description:
    - The members as read last, in name order (with O(count), in the order of their index), each as M(gcore.platform.instance)
      returns RV(gcore.platform.instance#module:instance).
    - A member deleted, one a check-mode run would create, and one created with O(wait=false) are not in the list.
  returned: success, and on a failure after the lookup
  type: list
  elements: dict
  sample:
    - {id: 49539562-bb3f-4839-98c6-26cb52aea07f, name: web-1, status: ACTIVE}
    - {id: 6b1c0f9e-4c62-4b59-9a0d-3f7b1e2c9d11, name: web-2, status: ACTIVE}
addresses:
  description:
    - The addresses of each member by name, as M(gcore.platform.instance) returns them (C(public_ipv4),
      C(private_ipv4), C(floating_ipv4), C(public_ipv6)); empty lists for a member that does not exist.
  returned: success, and on a failure after the lookup
  type: dict
  sample:
    web-1: {public_ipv4: [203.0.113.102], private_ipv4: [192.168.10.111], floating_ipv4: [203.0.113.102], public_ipv6: []}
changes:
  description:
    - The names of the members created, updated (tags, security groups, flavor, placement group), started, stopped and
      deleted by the run (in check mode, those that would be); a member created and stopped is in both lists.
    - Only what took effect - a member whose create task ended in C(ERROR) is named among the failed in the message,
      not in C(created).
    - With O(rolling), C(replaced) names the members deleted and created again (a member whose new create failed after
      its delete is in C(deleted)), and C(batches) the roll's batches, a list of lists of names (in check mode the
      batches planned; in a run the batches begun, the same unless a failure stopped the roll). Both are present only
      with O(rolling).
  returned: success, and on a failure after the lookup
  type: dict
  sample:
    created: [web-4, web-5]
    updated: [web-1]
    started: []
    stopped: []
    deleted: []
tasks:
  description: The IDs of the tasks the changes started (also when a later step failed).
  returned: when the module got past the validation of its options
  type: list
  elements: str
  sample: [0b86c0ae-5c1a-4b59-8c81-fb9340d9801a]
diff:
  description:
    - Each member's managed members before and after, keyed by name, as M(gcore.platform.instance)'s RV(gcore.platform.instance#module:diff)
      shows them (C(state) V(absent) for a member that does not exist). Never a password or user data.
  returned: success
  type: dict
  sample:
    before: {web-1: {state: present, name: web-1}, web-2: {state: absent}}
    after: {web-1: {state: present, name: web-1}, web-2: {state: present, name: web-2, flavor: g1-standard-2-4}}
"""

from ansible_collections.gcore.platform.plugins.module_utils._fleet import Fleet


def main():
    Fleet.main()


if __name__ == "__main__":
    main()
