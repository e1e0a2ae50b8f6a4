#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: subnet_info
short_description: Read subnets of Gcore Cloud networks
version_added: 1.0.0
description:
  - Reads the subnets of a Gcore Cloud project and region, and changes nothing.
  - Reads one subnet by O(subnet_id), the subnets of O(network_id) (those named exactly O(name) with it), or every
    subnet of the project and region.
author:
  - gcore.platform developers (@gcore-platform)
options:
  subnet_id:
    description:
      - ID (UUID) of the subnet to read, in any letter case.
      - Mutually exclusive with O(network_id) and O(name).
    type: str
  network_id:
    description:
      - ID (UUID) of the network whose subnets to read, in any letter case.
    type: str
  name:
    description:
      - Exact name of the subnets to read within O(network_id) (required with it), 3 to 63 characters matching
        C(^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$).
      - Subnet names are not unique, so more than one subnet may be returned.
    type: str
notes:
  - With O(subnet_id), reads that subnet with C(GET /cloud/v1/subnets/{project_id}/{region_id}/{subnet_id}); a subnet
    that does not exist gives an empty RV(subnets).
  - With O(network_id), reads every page of C(GET /cloud/v1/subnets/{project_id}/{region_id}?network_id=...), the
    subnets of that network, and with O(name) only those whose name is exactly O(name) (the service has no name filter
    for subnets).
  - With neither, returns every subnet the project owns in the region, reading every page.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.attributes.INFO_MODULE
seealso:
  - module: gcore.platform.subnet
  - module: gcore.platform.network_info
"""

EXAMPLES = r"""
- name: The network router-net-1
  gcore.platform.network_info:
    project_id: 1
    region_id: 76
    name: router-net-1
  register: net

- name: Every subnet of that network
  gcore.platform.subnet_info:
    project_id: 1
    region_id: 76
    network_id: "{{ net.networks[0].id }}"
  register: of_network

- name: Show their ranges
  ansible.builtin.debug:
    msg: "{{ of_network.subnets | map(attribute='cidr') | list }}"

- name: The subnet of that network named exactly router-subnet-1
  gcore.platform.subnet_info:
    project_id: 1
    region_id: 76
    network_id: "{{ net.networks[0].id }}"
    name: router-subnet-1
  register: named

- name: One subnet by its ID (an empty list when it does not exist)
  gcore.platform.subnet_info:
    project_id: 1
    region_id: 76
    subnet_id: "{{ named.subnets[0].id }}"
  when: named.subnets | length > 0

- name: Every subnet of project 1 in region 76
  gcore.platform.subnet_info:
    project_id: 1
    region_id: 76
  register: all_subnets
"""

RETURN = r"""
subnets:
  description:
    - The subnets found, as the service returns them, in the service's order (every page read).
    - Empty when no subnet matches, or when the subnet O(subnet_id) does not exist.
    - Each item is a subnet record as M(gcore.platform.subnet) returns in RV(gcore.platform.subnet#module:subnet),
      which documents every member; the members used most are listed here.
  returned: success
  type: list
  elements: dict
  contains:
    id:
      description: The subnet's ID, to pass as O(gcore.platform.router#module:interfaces[].subnet_id).
      type: str
      sample: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01
    name:
      description: The subnet's name.
      type: str
      sample: app-subnet
    network_id:
      description: ID of the subnet's network.
      type: str
      sample: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01
    cidr:
      description: The subnet's address range.
      type: str
      sample: 10.10.0.0/24
    gateway_ip:
      description: The gateway address, or V(null) without a gateway.
      type: str
      sample: 10.10.0.1
"""

from ansible_collections.gcore.platform.plugins.module_utils._checks import uuid_text
from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudInfo, Filter
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS


class SubnetInfo(CloudInfo):
    kind = KINDS["subnet"]
    filters = (Filter("network_id", dict(type="str"), lambda value: {"network_id": value},
                      lambda record, value: record.get("network_id") == value,
                      check=uuid_text),)
    module_kwargs = dict(mutually_exclusive=[("subnet_id", "name"), ("subnet_id", "network_id")], required_by={"name": "network_id"})


def main():
    SubnetInfo.main()


if __name__ == "__main__":
    main()
