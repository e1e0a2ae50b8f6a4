#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: storage_info
short_description: List Gcore storages (S3-compatible or SFTP), or find one by ID or exact name
version_added: 1.0.0
description:
  - Reads the storages of one O(type) (S3-compatible or SFTP) - one by O(storage_id), those named exactly O(name), or
    all, in O(location) when it is given - and changes nothing.
  - Deleted storages are not listed. The records never contain credentials (the service does not return them after
    creation).
author:
  - gcore.platform developers (@gcore-platform)
options:
  type:
    description:
      - The kind of storage, V(s3_compatible) or V(sftp).
    type: str
    required: true
    choices: [s3_compatible, sftp]
  storage_id:
    description:
      - ID of one storage, at least V(1). Not with O(name).
    type: int
  name:
    description:
      - The exact name of the storages to return (as the user gave it, without the client ID prefix). Not with O(storage_id).
      - Must not be empty or hold control characters.
    type: str
  location:
    description:
      - Only the storages in this location (the service's C(location_name), such as V(s-ed1)).
    type: str
notes:
  - Reads storages of one O(type) through the v4 API, C(GET /storage/v4/object_storages) or
    C(GET /storage/v4/sftp_storages), every page.
  - With O(storage_id), the one storage with that ID (C(GET /storage/v4/.../{storage_id})); with O(name), the storages
    whose name is exactly O(name) (the service filters names by substring; the module keeps exact matches only); with
    neither, every storage of that type. O(location) keeps only the storages in that location.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.attributes.INFO_MODULE
seealso:
  - module: gcore.platform.storage
"""

EXAMPLES = r"""
- name: Every SFTP storage
  gcore.platform.storage_info:
    type: sftp
  register: sftp

- name: The S3-compatible storage named media-archive
  gcore.platform.storage_info:
    type: s3_compatible
    name: media-archive
  register: found

- name: The address of storage 1234
  gcore.platform.storage_info:
    type: s3_compatible
    storage_id: 1234
  register: one

- name: Every S3-compatible storage in s-ed1
  gcore.platform.storage_info:
    type: s3_compatible
    location: s-ed1
"""

RETURN = r"""
storages:
  description:
    - The storages found, as the v4 API returns them (C(S3StorageListItemV4) or C(SFTPStorageItemV4)), without any
      credential; an empty list when none matches.
    - Members the service adds (such as an S3 storage's C(type), V(standard) or V(fast)) are returned as sent.
  returned: success
  type: list
  elements: dict
  sample:
    - id: 101
      name: media-archive
      full_name: 1-media-archive
      address: s-ed1.storage.example.com
      location_name: s-ed1
      created_at: "2025-08-05T09:17:41Z"
      provisioning_status: active
"""

import re

from ansible_collections.gcore.platform.plugins.module_utils._base import GcoreModule
from ansible_collections.gcore.platform.plugins.module_utils._checks import INT64, check_range, require

LISTS = {"s3_compatible": "/storage/v4/object_storages", "sftp": "/storage/v4/sftp_storages"}  # by type
PAGE_SIZE = 100
CONTROL = re.compile(r"[\x00-\x1f\x7f]")
SECRET_MEMBERS = frozenset(("access_keys", "password", "credentials"))


class StorageInfo(GcoreModule):
    argument_spec = dict(
        type=dict(type="str", required=True, choices=list(LISTS)),
        storage_id=dict(type="int"),
        name=dict(type="str"),
        location=dict(type="str"),
    )
    module_kwargs = dict(mutually_exclusive=[("storage_id", "name")])

    def validate(self):
        super().validate()
        params = self.params
        check_range("storage_id", params["storage_id"], low=1, high=INT64[1])
        for option in ("name", "location"):
            if params[option] is not None:
                require(params[option].strip(), option, "must not be empty or only whitespace")
                require(not CONTROL.search(params[option]), option, "must not hold control characters (such as a newline or a tab)")

    def run(self):
        params = self.params
        path = LISTS[params["type"]]
        if params["storage_id"] is not None:
            found = [record for record in [self.client.get_or_none(path + "/" + str(params["storage_id"]))]
                     if record is not None and record.get("provisioning_status") != "deleted"]
        else:
            query = dict((key, value) for key, value in (("name", params["name"]), ("location_name", params["location"])) if value)
            found = list(self.client.paginate(path, query, page_size=PAGE_SIZE))
            if params["name"] is not None:
                found = [record for record in found if record.get("name") == params["name"]]
        if params["location"] is not None:
            found = [record for record in found if record.get("location_name") == params["location"]]
        return {"storages": [dict((key, value) for key, value in record.items() if key not in SECRET_MEMBERS) for record in found]}


def main():
    StorageInfo.main()


if __name__ == "__main__":
    main()
