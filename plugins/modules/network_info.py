#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: network_info
short_description: Read Gcore Cloud networks
version_added: 1.0.0
description:
  - Reads the networks of a Gcore Cloud project and region, and changes nothing.
  - Reads one network by O(network_id), the networks named exactly O(name), or every network of the project and region.
author:
  - gcore.platform developers (@gcore-platform)
options:
  network_id:
    description:
      - ID (UUID) of the network to read, in any letter case.
      - Mutually exclusive with O(name).
    type: str
  name:
    description:
      - Exact name of the networks to read, 3 to 63 characters matching
        C(^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$) (the pattern every network name follows).
      - Network names are not unique, so more than one network may be returned.
      - Mutually exclusive with O(network_id).
    type: str
notes:
  - With O(network_id), reads that network with C(GET /cloud/v1/networks/{project_id}/{region_id}/{network_id}); a
    network that does not exist gives an empty RV(networks).
  - With O(name), reads every page of C(GET /cloud/v1/networks/{project_id}/{region_id}) filtered by that name and
    keeps the networks whose name is exactly O(name) (the service's filter is not trusted to match exactly; a name
    longer than 61 characters, the most the filter takes, is looked for in the whole listing).
  - With neither, returns every network the project owns in the region, reading every page.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.attributes.INFO_MODULE
seealso:
  - module: gcore.platform.network
  - module: gcore.platform.subnet_info
"""

EXAMPLES = r"""
- name: Every network of project 1 in region 76
  gcore.platform.network_info:
    project_id: 1
    region_id: 76
  register: all_networks

- name: Show their names
  ansible.builtin.debug:
    msg: "{{ all_networks.networks | map(attribute='name') | list }}"

- name: The networks named exactly router-net-1
  gcore.platform.network_info:
    project_id: 1
    region_id: 76
    name: router-net-1
  register: named

- name: One network by its ID (an empty list when it does not exist)
  gcore.platform.network_info:
    project_id: 1
    region_id: 76
    network_id: "{{ named.networks[0].id }}"
  register: one
  when: named.networks | length > 0
"""

RETURN = r"""
networks:
  description:
    - The networks found, as the service returns them, in the service's order (every page read).
    - Empty when no network matches, or when the network O(network_id) does not exist.
    - Each item is a network record as M(gcore.platform.network) returns in RV(gcore.platform.network#module:network),
      which documents every member; the members used most are listed here.
  returned: success
  type: list
  elements: dict
  contains:
    id:
      description: The network's ID, to pass as O(gcore.platform.subnet#module:network_id).
      type: str
      sample: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01
    name:
      description: The network's name.
      type: str
      sample: app-net
    type:
      description: V(vxlan) or V(vlan).
      type: str
      sample: vxlan
    subnets:
      description: IDs of the network's subnets.
      type: list
      elements: str
      sample: [5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01]
    tags:
      description: Every tag of the network, each C({key, value, read_only}).
      type: list
      elements: dict
      sample: [{key: env, value: prod, read_only: false}]
"""

from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudInfo
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS


class NetworkInfo(CloudInfo):
    kind = KINDS["network"]


def main():
    NetworkInfo.main()


if __name__ == "__main__":
    main()
