#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: router_info
short_description: Read Gcore Cloud routers
version_added: 1.0.0
description:
  - Reads the routers of a Gcore Cloud project and region, and changes nothing.
  - Reads one router by O(id), the routers named exactly O(name), or every router of the project and region.
author:
  - gcore.platform developers (@gcore-platform)
options:
  id:
    description:
      - ID (UUID) of the router to read.
      - Mutually exclusive with O(name).
    type: str
    aliases: [router_id]
  name:
    description:
      - Exact name of the routers to read, 3 to 63 characters matching
        C(^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$) (the pattern every router name follows).
      - Router names are not unique, so more than one router may be returned.
      - Mutually exclusive with O(id).
    type: str
notes:
  - With O(id), reads that router with C(GET /cloud/v1/routers/{project_id}/{region_id}/{router_id}); a router that
    does not exist gives an empty RV(routers).
  - With O(name), reads every page of C(GET /cloud/v1/routers/{project_id}/{region_id}) filtered by that name and keeps
    the routers whose name is exactly O(name) (the service's filter may also return routers whose name only contains
    it).
  - With neither, returns every router of the project and region, reading every page.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.attributes.INFO_MODULE
seealso:
  - module: gcore.platform.router
"""

EXAMPLES = r"""
- name: Every router of project 1 in region 76
  gcore.platform.router_info:
    project_id: 1
    region_id: 76
  register: all_routers

- name: Show their names
  ansible.builtin.debug:
    msg: "{{ all_routers.routers | map(attribute='name') | list }}"

- name: The routers named exactly legacy-router
  gcore.platform.router_info:
    project_id: 1
    region_id: 76
    name: legacy-router
  register: named

- name: One router by its ID (an empty list when it does not exist)
  gcore.platform.router_info:
    project_id: 1
    region_id: 76
    id: "{{ named.routers[0].id }}"
  register: one
  when: named.routers | length > 0

- name: The subnets that router is attached to
  ansible.builtin.debug:
    msg: "{{ one.routers[0].interfaces | map(attribute='ip_assignments') | flatten | map(attribute='subnet_id') | list }}"
  when: one.routers | default([]) | length > 0
"""

RETURN = r"""
routers:
  description:
    - The routers found, as the service returns them, in the service's order (every page read).
    - Empty when no router matches, or when the router O(id) does not exist.
    - Each item is a router record as M(gcore.platform.router) returns in RV(gcore.platform.router#module:router), which
      documents every member (status, gateway, interfaces, routes, region and timestamps); the members used most are
      listed here.
  returned: success
  type: list
  elements: dict
  contains:
    id:
      description: The router's ID, to pass as O(id) or as O(gcore.platform.router#module:id).
      type: str
      sample: 2f6c1c64-8c3e-4c2b-9bb5-0a8cbb2f1c11
    name:
      description: The router's name.
      type: str
      sample: edge-router
    external_gateway_info:
      description: The router's external gateway (C(network_id), C(enable_snat), C(external_fixed_ips)), V(null) without one.
      type: dict
      sample: {network_id: 8c4b5f1e-1a3b-4b4e-9d57-2f0a4cb6a001, enable_snat: true,
               external_fixed_ips: [{ip_address: 203.0.113.10, subnet_id: 1b5e0f2a-3c4d-4e5f-8a9b-0c1d2e3f4a01}]}
    interfaces:
      description: The router's ports in its subnets; each C(ip_assignments) item names an C(ip_address) and its C(subnet_id).
      type: list
      elements: dict
      sample: [{port_id: 0f2b9a4e-6c1d-4f3e-8a5b-7c9d1e2f3a4b, network_id: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01,
                ip_assignments: [{ip_address: 192.168.10.1, subnet_id: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01}],
                mac_address: "fa:16:3e:00:00:01"}]
"""

from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudInfo
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS


class RouterInfo(CloudInfo):
    kind = KINDS["router"]


def main():
    RouterInfo.main()


if __name__ == "__main__":
    main()
