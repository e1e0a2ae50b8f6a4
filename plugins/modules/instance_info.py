#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: instance_info
short_description: List Gcore Cloud virtual machine instances, or find one by id or exact name
version_added: 1.0.0
description:
  - Reads the instances of a Gcore Cloud project and region - one by O(instance_id), those named exactly O(name), or all
    - and changes nothing.
  - An unknown id or name gives an empty list, not a failure.
seealso:
  - module: gcore.platform.instance
  - plugin: gcore.platform.cloud
    plugin_type: inventory
author:
  - gcore.platform developers (@gcore-platform)
options:
  instance_id:
    description:
      - UUID of the instance (any case). Mutually exclusive with O(name).
    type: str
  name:
    description:
      - Exact name of the instances to list. Mutually exclusive with O(instance_id).
    type: str
  status:
    description:
      - Only instances with this status (sent to the service as the C(status) filter; with O(instance_id) compared
        with the record).
    type: str
    choices: [ACTIVE, BUILD, ERROR, HARD_REBOOT, MIGRATING, PAUSED, REBOOT, REBUILD, RESIZE, REVERT_RESIZE, SHELVED,
              SHELVED_OFFLOADED, SHUTOFF, SOFT_DELETED, SUSPENDED, VERIFY_RESIZE]
  tags:
    description:
      - Only instances that have every one of these tags (key and value); sent to the service as the C(tag_key_value)
        filter (with O(instance_id) compared with the record).
    type: dict
notes:
  - Reads the instances of a project and region with C(GET /cloud/v1/instances/{project_id}/{region_id}), every
    page, or one instance with C(GET /cloud/v1/instances/{project_id}/{region_id}/{instance_id}).
  - The service matches O(name) as a substring; this module keeps only the instances whose name is exactly O(name).
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.attributes.INFO_MODULE
"""

EXAMPLES = r"""
- name: Every instance of the project and region
  gcore.platform.instance_info:
  register: all_instances

- name: The running production instances
  gcore.platform.instance_info:
    status: ACTIVE
    tags:
      env: prod
  register: prod

- name: One instance by its exact name
  gcore.platform.instance_info:
    name: web-1
  register: web

- name: Show its status
  ansible.builtin.debug:
    msg: "{{ web.instances | map(attribute='status') | list }}"
"""

RETURN = r"""
instances:
  description:
    - The instances found, as the service shows them (the same members as the C(instance) that M(gcore.platform.instance) returns).
    - Empty when none matches.
  returned: success
  type: list
  elements: dict
  sample:
    - id: 49539562-bb3f-4839-98c6-26cb52aea07f
      name: web-1
      status: ACTIVE
      flavor: {flavor_id: g1-standard-2-4, flavor_name: g1-standard-2-4, vcpus: 2, ram: 4096}
      addresses: {external: [{addr: 198.51.100.12, type: fixed}]}
      security_groups: [{name: default}]
      tags: [{key: env, value: prod, read_only: false}]
"""

import json

from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudInfo, Filter
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS
from ansible_collections.gcore.platform.plugins.module_utils._instance import STATUSES
from ansible_collections.gcore.platform.plugins.module_utils._tags import check_tags


def tagged(record, tags):
    held = [(tag.get("key"), tag.get("value")) for tag in record.get("tags") or []]
    return all((key, value) in held for key, value in tags.items())


class InstanceInfo(CloudInfo):
    kind = KINDS["instance"]
    filters = (
        Filter("status", dict(type="str", choices=list(STATUSES)), lambda value: {"status": value}, lambda record, value: record.get("status") == value),
        Filter("tags", dict(type="dict"), lambda value: {"tag_key_value": json.dumps(value, sort_keys=True)} if value else {}, tagged,
               check=lambda option, value: check_tags(value, option) or value),
    )


def main():
    InstanceInfo.main()


if __name__ == "__main__":
    main()
