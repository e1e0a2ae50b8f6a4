#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: file_share_info
short_description: Read Gcore Cloud file shares with their access rules
version_added: 1.2.0
description:
  - Reads the NFS file shares of a Gcore Cloud project and region, each with its access rules, and changes nothing.
  - With O(file_share_id), that share (none when it does not exist); with O(name), every page of
    C(GET /cloud/v1/file_shares/{project_id}/{region_id}) filtered by name, keeping the shares named exactly so (the
    service's filter matches parts of names); with neither, every share of the project and region.
  - Each share's rules are read with C(GET .../{file_share_id}/access_rule) (one request a share).
author:
  - gcore.platform developers (@gcore-platform)
options:
  file_share_id:
    description:
      - ID (UUID) of the file share to read, in any letter case. Mutually exclusive with O(name).
    type: str
  name:
    description:
      - Exact name of the file shares to read, 3 to 63 characters matching
        C(^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$). Names are not unique, so more than one share may be returned.
      - Mutually exclusive with O(file_share_id).
    type: str
  type_name:
    description:
      - Only the shares of this type (the list's C(type_name) filter).
    type: str
    choices: [standard, vast]
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.attributes.INFO_MODULE
seealso:
  - module: gcore.platform.file_share
"""

EXAMPLES = r"""
- name: Every file share of project 1 in region 76
  gcore.platform.file_share_info:
    project_id: 1
    region_id: 76
  register: shares

- name: Where each one is mounted from
  ansible.builtin.debug:
    msg: "{{ shares.file_shares | items2dict(key_name='name', value_name='connection_point') }}"

- name: The share named exactly share-1, with its rules
  gcore.platform.file_share_info:
    project_id: 1
    region_id: 76
    name: share-1
  register: one
"""

RETURN = r"""
file_shares:
  description:
    - The file shares found, as the service returned them (see RV(gcore.platform.file_share#module:file_share) for their
      members), each with its access rules in C(access) (C({id, access_to, access_level, state})), in the service's
      order. Empty when none matches.
  returned: success
  type: list
  elements: dict
  sample:
    - id: f11e5a7e-0000-4000-8000-000000000001
      name: share-1
      protocol: NFS
      size: 10
      status: available
      type_name: standard
      connection_point: "10.254.0.35:/shares/share-f11e5a7e-0000-4000-8000-000000000001"
      access:
        - id: f9a13c2c-e618-4a96-99d3-c8cae6dfd946
          access_to: 10.0.0.0/24
          access_level: rw
          state: active
"""

from ansible_collections.gcore.platform.plugins.module_utils._cloud import PAGE_SIZE, CloudInfo, Filter
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS


class FileShareInfo(CloudInfo):
    kind = KINDS["file_share"]
    filters = (Filter("type_name", dict(type="str", choices=["standard", "vast"]), lambda value: {"type_name": value},
                      lambda record, value: record.get("type_name") == value),)

    def returned(self, record):
        """The share with its access rules (docs/api_reference.md section 19.2: the record does not hold them)."""
        path = (self.kind.paths["item"] + "/access_rule").format(**dict(self.params, id=record["id"]))
        return dict(record, access=list(self.client.paginate(path, page_size=PAGE_SIZE, total_key="count")))


def main():
    FileShareInfo.main()


if __name__ == "__main__":
    main()
