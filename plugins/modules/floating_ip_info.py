#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: floating_ip_info
short_description: Read Gcore Cloud floating IPs
version_added: 1.1.0
description:
  - Reads the floating IPs of a Gcore Cloud project and region, and changes nothing.
  - With O(floating_ip_id), reads that floating IP with C(GET /cloud/v1/floatingips/{project_id}/{region_id}/{floating_ip_id});
    one that does not exist gives an empty RV(floating_ips).
  - Otherwise reads every page of C(GET /cloud/v1/floatingips/{project_id}/{region_id}) (with its C(status) filter when
    O(status) is given) and keeps those that match O(address), O(instance) and O(status); with none of them, every
    floating IP of the project and region.
author:
  - gcore.platform developers (@gcore-platform)
options:
  floating_ip_id:
    description:
      - ID (UUID) of the floating IP to read, in any letter case.
    type: str
  address:
    description:
      - Only the floating IP with this public address (IPv4 or IPv6, compared as Python's C(ipaddress) prints it).
    type: str
  instance:
    description:
      - Only the floating IPs assigned to this instance, given by ID (a UUID) or by exact name. A name is resolved over
        every page of the instance list; no instance of that name gives an empty RV(floating_ips), and several fail the
        module listing their IDs.
      - Matched on the listing's C(instance) member, so it does not narrow a floating IP read by O(floating_ip_id).
    type: str
  status:
    description:
      - Only the floating IPs in this status. V(ACTIVE) is assigned to a port, V(DOWN) unassigned, V(ERROR) failed.
    type: str
    choices: [ACTIVE, DOWN, ERROR]
notes:
  - Floating IPs have no name. This is how to find one left behind, for example an unassigned one (O(status=DOWN))
    whose instance went away while it was being created.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.attributes.INFO_MODULE
seealso:
  - module: gcore.platform.floating_ip
  - module: gcore.platform.instance
"""

EXAMPLES = r"""
- name: Every floating IP of project 1 in region 76
  gcore.platform.floating_ip_info:
    project_id: 1
    region_id: 76
  register: all_floating_ips

- name: Show their addresses and statuses
  ansible.builtin.debug:
    msg: "{{ all_floating_ips.floating_ips | items2dict(key_name='floating_ip_address', value_name='status') }}"

- name: The unassigned ones (left behind, and billed)
  gcore.platform.floating_ip_info:
    project_id: 1
    region_id: 76
    status: DOWN
  register: unassigned

- name: Delete them
  gcore.platform.floating_ip:
    project_id: 1
    region_id: 76
    floating_ip_id: "{{ item.id }}"
    state: absent
  loop: "{{ unassigned.floating_ips }}"
  loop_control:
    label: "{{ item.floating_ip_address }}"

- name: The floating IPs of the instance web-1
  gcore.platform.floating_ip_info:
    project_id: 1
    region_id: 76
    instance: web-1
  register: of_web

- name: The floating IP with a given address
  gcore.platform.floating_ip_info:
    project_id: 1
    region_id: 76
    address: 203.0.113.10
  register: by_address
"""

RETURN = r"""
floating_ips:
  description:
    - The floating IPs found, as the service returned them (see RV(gcore.platform.floating_ip#module:floating_ip) for
      their members), in the service's order. Empty when none matches.
    - Those from the listing also hold C(instance) (the instance the floating IP is assigned to, or V(null)) and
      C(loadbalancer) (the load balancer, or V(null)).
  returned: success
  type: list
  elements: dict
  sample:
    - id: 9b2d3c4e-5f60-4a7b-8c9d-0e1f2a3b4c5d
      floating_ip_address: 203.0.113.200
      fixed_ip_address: null
      port_id: null
      router_id: null
      status: DOWN
      instance: null
      loadbalancer: null
      tags: [{key: env, value: prod, read_only: false}]
      project_id: 1
      region_id: 76
      region: Luxembourg-2
      created_at: "2026-11-26T10:00:00Z"
      updated_at: "2026-11-26T10:05:00Z"
      task_id: null
      creator_task_id: 6a1d8f3e-0b2c-4d5e-8f90-1a2b3c4d5e6f
"""

import ipaddress

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError, canonical_address
from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudInfo, Filter
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS
from ansible_collections.gcore.platform.plugins.module_utils._parents import parent_filter


def check_address(option, value):
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        raise ValidationError("%s: %r is not an IPv4 or IPv6 address" % (option, value))


def _assigned_to(record, ident):
    """Assigned to the instance ``ident``, as the listing says (a record read by id does not say: it passes)."""
    return "instance" not in record or (record["instance"] or {}).get("id") == ident


class FloatingIpInfo(CloudInfo):
    kind = KINDS["floating_ip"]
    filters = (
        Filter("address", dict(type="str"), lambda value: {}, lambda record, value: canonical_address(record.get("floating_ip_address")) == value,
               check=check_address),
        parent_filter("instance", "instance", lambda value: {}, _assigned_to),
        Filter("status", dict(type="str", choices=["ACTIVE", "DOWN", "ERROR"]), lambda value: {"status": value},
               lambda record, value: record.get("status") == value),
    )


def main():
    FloatingIpInfo.main()


if __name__ == "__main__":
    main()
