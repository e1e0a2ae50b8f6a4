#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: load_balancer_info
short_description: List Gcore Cloud load balancers with their listeners and pools
version_added: 1.0.0
description:
  - Returns the load balancers of a project and region, each with its listeners and their pools, as
    M(gcore.platform.load_balancer) returns one.
  - By O(load_balancer_id), by exact O(name) (every page of the list is read and the names compared exactly), or every
    load balancer when neither is given. An unknown ID or name returns an empty list.
  - Each load balancer's listeners and pools are read with one listing each
    (C(GET /cloud/v1/lblisteners/{project_id}/{region_id}?load_balancer_id=) and
    C(GET /cloud/v1/lbpools/{project_id}/{region_id}?load_balancer_id=&details=true)).
author:
  - gcore.platform developers (@gcore-platform)
options:
  load_balancer_id:
    description:
      - ID (UUID) of the load balancer, in any letter case. Not with O(name).
    type: str
  name:
    description:
      - Exact name of the load balancers to return. Not with O(load_balancer_id).
    type: str
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.attributes.INFO_MODULE
seealso:
  - module: gcore.platform.load_balancer
    description: Create, change and delete load balancers.
"""

EXAMPLES = r"""
- name: Every load balancer of the project and region
  gcore.platform.load_balancer_info:
    project_id: 1
    region_id: 76
  register: all_lbs

- name: One load balancer by name, with its listeners and pools
  gcore.platform.load_balancer_info:
    project_id: 1
    region_id: 76
    name: legacy-lb
  register: found

- name: Show the members of its first listener's pool
  ansible.builtin.debug:
    msg: "{{ found.load_balancers[0].listeners[0].pool.members | map(attribute='address') | list }}"
  when: found.load_balancers | length > 0
"""

RETURN = r"""
load_balancers:
  description:
    - The load balancers found (empty when none), each as the service returns it with C(listeners) holding the listener
      records, each with its C(pool) record (members and health monitor included) or V(null).
    - A listener's C(user_list[].encrypted_password) (a password hash) is masked, V(********).
    - Each listener has C(l7policies) (since 1.2.0), its L7 policies in C(position) order, each with C(rules), its
      rule records (one listing of the region's L7 policies, one of each policy's rules).
  returned: success
  type: list
  elements: dict
  sample:
    - id: 5b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d
      name: web-lb
      provisioning_status: ACTIVE
      operating_status: ONLINE
      listeners:
        - name: http
          protocol: HTTP
          protocol_port: 80
          pool:
            name: web-pool
            members: [{address: 10.0.0.11, protocol_port: 8080, weight: 1}]
"""

from ansible_collections.gcore.platform.plugins.module_utils._cloud import PAGE_SIZE, CloudInfo
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS
from ansible_collections.gcore.platform.plugins.module_utils._lb import masked, read_policies


class LoadBalancerInfo(CloudInfo):
    kind = KINDS["load_balancer"]

    def returned(self, record):
        return masked(read_policies(lambda path, query=None: list(self.client.paginate(path, query, page_size=PAGE_SIZE)), self.params, record))


def main():
    LoadBalancerInfo.main()


if __name__ == "__main__":
    main()
