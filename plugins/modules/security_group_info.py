#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: security_group_info
short_description: Read Gcore Cloud security groups and their rules
version_added: 1.0.0
description:
  - Reads the security groups of a Gcore Cloud project and region, with their rules, and changes nothing.
  - Reads one group by O(security_group_id), the groups named exactly O(name), or every group of the project and region.
author:
  - gcore.platform developers (@gcore-platform)
options:
  security_group_id:
    description:
      - ID (UUID) of the security group to read, in any letter case.
      - Mutually exclusive with O(name).
    type: str
  name:
    description:
      - Exact name of the groups to read, 3 to 63 characters matching
        C(^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$) (the pattern every group name follows).
      - Group names are not unique, so more than one group may be returned.
      - Mutually exclusive with O(security_group_id).
    type: str
notes:
  - With O(security_group_id), reads that group with
    C(GET /cloud/v1/securitygroups/{project_id}/{region_id}/{security_group_id}); a group that does not exist gives an
    empty RV(security_groups).
  - With O(name), reads every page of C(GET /cloud/v1/securitygroups/{project_id}/{region_id}) filtered by that name
    and keeps the groups whose name is exactly O(name).
  - With neither, returns every group of the project and region, reading every page (the service answers 10 groups
    a page unless asked for more; the module asks for pages of 1000).
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.attributes.INFO_MODULE
seealso:
  - module: gcore.platform.security_group
"""

EXAMPLES = r"""
- name: Every security group of the project and region
  gcore.platform.security_group_info:
    project_id: 1
    region_id: 76
  register: all_groups

- name: The groups named web
  gcore.platform.security_group_info:
    project_id: 1
    region_id: 76
    name: web
  register: web

- name: One group by ID
  gcore.platform.security_group_info:
    project_id: 1
    region_id: 76
    security_group_id: 5ec0a11e-0000-4000-8000-000000000001
  register: one
"""

RETURN = r"""
security_groups:
  description:
    - The groups found, in the service's order; empty when none matches.
    - Each item is a security group record as M(gcore.platform.security_group) returns in
      RV(gcore.platform.security_group#module:security_group), which documents every member (rules, tags, region and
      timestamps); the members used most are listed here.
  returned: success
  type: list
  elements: dict
  contains:
    id:
      description: Security group ID, to pass as O(gcore.platform.security_group#module:security_group_id).
      type: str
      sample: 2f6c1c64-8c3e-4c2b-9bb5-0a8cbb2f1c11
    name:
      description: Security group name.
      type: str
      sample: web
    security_group_rules:
      description: The rules, each as RV(gcore.platform.security_group#module:security_group.security_group_rules) shows.
      type: list
      elements: dict
      sample:
        - {id: 7d0f4b1e-2c3a-4d5e-8f90-1a2b3c4d5e6f, security_group_id: 2f6c1c64-8c3e-4c2b-9bb5-0a8cbb2f1c11,
           direction: ingress, ethertype: IPv4, protocol: tcp, port_range_min: 22, port_range_max: 22,
           remote_ip_prefix: 10.0.0.0/8, remote_group_id: null, description: ssh, revision_number: 0,
           created_at: "2026-11-22T16:20:00Z", updated_at: "2026-11-22T16:20:00Z"}
"""

from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudInfo
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS


class SecurityGroupInfo(CloudInfo):
    kind = KINDS["security_group"]


def main():
    SecurityGroupInfo.main()


if __name__ == "__main__":
    main()
