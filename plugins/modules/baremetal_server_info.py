#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: baremetal_server_info
short_description: List Gcore Cloud bare metal servers, and the region's bare metal flavors with their capacity
version_added: 1.2.0
description:
  - Reads the bare metal servers of a Gcore Cloud project and region - one by O(server_id), those named exactly O(name),
    or all - and changes nothing; an unknown id or name gives an empty list.
  - With O(flavors=true), also the region's bare metal flavors with how many servers of each are free.
seealso:
  - module: gcore.platform.baremetal_server
author:
  - gcore.platform developers (@gcore-platform)
options:
  server_id:
    description:
      - UUID of the server (any case). Mutually exclusive with O(name).
    type: str
  name:
    description:
      - Exact name of the servers to list. Mutually exclusive with O(server_id).
    type: str
  status:
    description:
      - Only servers with this status (sent as the C(status) filter; with O(server_id) compared with the record).
    type: str
    choices: [ACTIVE, BUILD, ERROR, HARD_REBOOT, REBOOT, REBUILD, RESCUE, SHUTOFF, SUSPENDED]
  flavors:
    description:
      - Also return the region's bare metal flavors with their free capacity (RV(flavors)).
    type: bool
    default: false
notes:
  - Reads the bare metal servers of a project and region with C(GET /cloud/v1/bminstances/{project_id}/{region_id}),
    every page, or one server with C(GET /cloud/v1/bminstances/{project_id}/{region_id}/{server_id}).
  - The service matches O(name) as a substring; this module keeps only the servers whose name is exactly O(name). An
    unknown id or name gives an empty list, not a failure.
  - With O(flavors=true), also the region's bare metal flavors with how many servers of each are free
    (C(GET /cloud/v1/bmflavors/{project_id}/{region_id}?include_capacity=true)).
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.attributes.INFO_MODULE
"""

EXAMPLES = r"""
- name: The running bare metal servers, and the flavors free in the region
  gcore.platform.baremetal_server_info:
    status: ACTIVE
    flavors: true
  register: metal

- name: The flavors with a free server
  ansible.builtin.debug:
    msg: "{{ metal.flavors | selectattr('capacity') | map(attribute='flavor_id') | list }}"

- name: One server by its exact name
  gcore.platform.baremetal_server_info:
    name: bm-seed-1
  register: one
"""

RETURN = r"""
servers:
  description:
    - The servers found, as the service shows them (the same members as the RV(gcore.platform.baremetal_server#module:server)
      that M(gcore.platform.baremetal_server) returns).
  returned: success
  type: list
  elements: dict
  sample:
    - id: 8dc30d49-bb34-4920-9bbd-03a2587ec0ad
      name: db-metal-1
      status: ACTIVE
      flavor: {flavor_id: bm1-basic-small, vcpus: 8, ram: 32768}
      addresses: {external: [{addr: 198.51.100.12, type: fixed}]}
      tags: [{key: image_name, value: ubuntu-22.04-x64, read_only: true}]
addresses:
  description:
    - Each server's addresses, by server ID, in the four lists the inventory plugin P(gcore.platform.cloud#inventory)
      sets (C(public_ipv4), C(private_ipv4), C(floating_ipv4), C(public_ipv6)).
  returned: success
  type: dict
  sample: {8dc30d49-bb34-4920-9bbd-03a2587ec0ad: {public_ipv4: [198.51.100.12], private_ipv4: [], floating_ipv4: [], public_ipv6: []}}
flavors:
  description:
    - With O(flavors=true), the region's bare metal flavors; C(capacity) is how many servers of the flavor are free.
  returned: when O(flavors=true)
  type: list
  elements: dict
  sample: [{flavor_id: bm1-basic-small, vcpus: 8, ram: 32768, disabled: false, capacity: 2}]
"""

from ansible_collections.gcore.platform.plugins.module_utils._addresses import address_lists
from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudInfo, Filter
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS
from ansible_collections.gcore.platform.plugins.module_utils._instance import BAREMETAL_STATUSES


class BaremetalServerInfo(CloudInfo):
    kind = KINDS["bare_metal_server"]
    filters = (
        Filter("status", dict(type="str", choices=list(BAREMETAL_STATUSES)), lambda value: {"status": value},
               lambda record, value: record.get("status") == value),
        # not a filter (it selects nothing, queries nothing): what else is returned
        Filter("flavors", dict(type="bool", default=False), lambda value: {}, lambda record, value: True),
    )

    def run(self):
        result = super().run()
        result["addresses"] = dict((record["id"], address_lists(record.get("addresses"))) for record in result["servers"])
        if self.params["flavors"]:
            result["flavors"] = self.client.get(self.kind.paths["flavors"].format(**self.params), {"include_capacity": "true"}).get("results") or []
        return result


def main():
    BaremetalServerInfo.main()


if __name__ == "__main__":
    main()
