#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: storage
short_description: Delete a Gcore storage (S3-compatible or SFTP), idempotently
version_added: 0.1.0
description:
  - Deletes a Gcore storage and B(all the data in it). The module reads the storage first and deletes it only
    when it exists; a second run reports no change and sends nothing.
  - B(Deletion is permanent.) An S3-compatible storage can be restored by the service for a short time (two weeks)
    after its deletion; an SFTP storage cannot be restored at all. Run with C(--check --diff) first to see which
    storage would go.
  - With O(type) set, the module uses the current v4 API,
    C(GET)/C(DELETE /storage/v4/object_storages/{storage_id}) for V(s3_compatible) or
    C(GET)/C(DELETE /storage/v4/sftp_storages/{storage_id}) for V(sftp).
  - Without O(type), it uses C(GET)/C(DELETE /storage/provisioning/v1/storage/{storage_id}), an endpoint
    the service marks as deprecated, and returns a deprecation warning that names the O(type) value
    to use for the storage. Only this way of calling the module is deprecated, not the module itself.
  - A storage counts as already absent when the service answers 404, answers 400 with an error saying that
    it does not exist, or reports a C(provisioning_status) of V(deleting) or V(deleted).
    A 404 on the C(DELETE) itself, or a 400 saying the storage does not exist or is already deleted (someone deleted it
    between the read and the delete), is no change, not a failure.
  - The returned record never contains credentials; see RV(storage).
author:
  - gcore.platform developers (@gcore-platform)
options:
  storage_id:
    description:
      - ID of the storage.
      - An integer of at least 1 (the API's storage IDs are 64-bit integers).
    type: int
    required: true
  state:
    description:
      - The desired state; V(absent) is the only one, the module deletes storages and never creates them.
    type: str
    choices: [absent]
    default: absent
  type:
    description:
      - The kind of storage, which selects the v4 API used to read and delete it.
      - V(s3_compatible) uses C(/storage/v4/object_storages/{storage_id}), V(sftp) uses C(/storage/v4/sftp_storages/{storage_id}).
      - If the storage exists under the other kind, the module changes nothing and warns, naming the right value.
      - If not set, the deprecated C(/storage/provisioning/v1/storage/{storage_id}) endpoint is used (for either kind)
        and a deprecation warning is returned. Leaving O(type) out is deprecated and will not be supported from
        version 1.0.0 of this collection; set it to the storage's type (the C(type) member of RV(storage) when
        read through the deprecated endpoint).
    type: str
    choices: [s3_compatible, sftp]
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.attributes
notes:
  - In check mode the module only reads; it reports whether the storage would be deleted and, with C(--diff),
    the record that would go.
  - O(api_retries) never repeats a C(DELETE) whose answer was lost; after such a failure the module reads the storage
    again and reports it deleted when the service shows it deleted or being deleted.
"""

EXAMPLES = r"""
- name: Delete an S3-compatible storage (v4 API)
  gcore.platform.storage:
    storage_id: 1234
    type: s3_compatible

- name: Delete an SFTP storage (v4 API)
  gcore.platform.storage:
    storage_id: 1235
    type: sftp

- name: See what would be deleted, without deleting it
  gcore.platform.storage:
    storage_id: 1234
    type: s3_compatible
  check_mode: true
  diff: true
  register: preview

- name: Deprecated - without type the v1 provisioning API is used, and a deprecation warning names the type to set
  gcore.platform.storage:
    storage_id: 1236
"""

RETURN = r"""
storage:
  description:
    - The storage as read before it was deleted (or, in check mode, the storage that would be deleted).
    - Every credential member is removed, at any depth - C(credentials) (S3 C(access_key)/C(secret_key),
      C(sftp_password), the C(keys) list), C(s3), C(password), C(secret_key), C(access_key) - so the result never
      carries a secret. Flags such as C(has_password) and the C(ssh_key_ids) list of an SFTP storage are kept.
    - Without O(type), the v1 record (C(storage_Storage)); with O(type), the v4 record (C(S3StorageListItemV4) or
      C(SFTPStorageItemV4)). The members below are the common ones; the service's other members are returned as sent.
    - V(null) when the storage was already absent (not found, or C(provisioning_status) V(deleting) or V(deleted)).
  returned: always
  type: dict
  contains:
    id:
      description: Storage ID.
      type: int
      sample: 101
    name:
      description:
        - Storage name. The v1 API returns it with the client ID prefix (C(1-media-archive)), v4 as the user gave it.
      type: str
      sample: 1-media-archive
    type:
      description: V(s3_compatible) or V(sftp). Only in the v1 record (without O(type)).
      type: str
      sample: s3_compatible
    address:
      description: Host name of the storage endpoint.
      type: str
      sample: s-ed1.storage.example.com
    provisioning_status:
      description:
        - Status before the deletion, V(creating), V(updating) or V(ok) (v1) / V(active) (v4).
      type: str
      sample: ok
    created_at:
      description: Creation time.
      type: str
      sample: "2025-08-05T09:17:41Z"
  sample:
    id: 101
    name: 1-media-archive
    type: s3_compatible
    address: s-ed1.storage.example.com
    location: s-ed1
    client_id: 1
    reseller_id: 1
    created_at: "2025-08-05T09:17:41Z"
    provisioning_status: ok
    disable_http: false
    custom_config_file: false
    rewrite_rules: {}
diff:
  description:
    - With C(--diff), the storage before (the sanitised record, with C(state=present)) and after (C(state=absent)).
    - Both sides are just C(state=absent) when nothing was (or would be) deleted.
  returned: always
  type: dict
  contains:
    before:
      description: The storage as read, without credentials, with C(state=present); only C(state=absent) when nothing was deleted.
      type: dict
      sample: {id: 101, name: 1-media-archive, provisioning_status: ok, state: present}
    after:
      description: Always just C(state=absent).
      type: dict
      sample: {state: absent}
"""

import re

from ansible_collections.gcore.platform.plugins.module_utils._base import check_range
from ansible_collections.gcore.platform.plugins.module_utils._client import ApiError
from ansible_collections.gcore.platform.plugins.module_utils._resource import GcoreResourceModule

INT64_MAX = 2 ** 63 - 1
V1_PATH = "/storage/provisioning/v1/storage/{storage_id}"
V4_PATHS = {
    "s3_compatible": "/storage/v4/object_storages/{storage_id}",
    "sftp": "/storage/v4/sftp_storages/{storage_id}",
}
GONE = frozenset(("deleting", "deleted"))
# Members that hold credentials, at any depth of a storage record (compared case-insensitively).
CREDENTIAL_MEMBERS = frozenset((
    "credentials", "s3", "keys", "access_key", "secret_key", "sftp_password", "password", "private_key", "secret", "token",
))
MISSING_TEXT = re.compile(r"does not exist|not found|no such|already (?:being )?delet", re.IGNORECASE)


def without_credentials(value):
    """A copy of ``value`` with every credential member removed, at any depth."""
    if isinstance(value, dict):
        return dict((key, without_credentials(item)) for key, item in value.items()
                    if str(key).lower() not in CREDENTIAL_MEMBERS)
    if isinstance(value, list):
        return [without_credentials(item) for item in value]
    return value


def says_absent(error):
    """A 404, or a 400 whose error says the storage does not exist or is already deleted (v1 documents only 400)."""
    return error.status == 404 or (error.status == 400 and bool(MISSING_TEXT.search(str(error.detail or ""))))


class Storage(GcoreResourceModule):
    argument_spec = dict(
        storage_id=dict(type="int", required=True),
        state=dict(type="str", choices=["absent"], default="absent"),
        type=dict(type="str", choices=["s3_compatible", "sftp"]),
    )

    # ---- the resource: read and deleted by ID, on the v4 path of its type or the v1 path ----
    noun = "storage"
    result_key = "storage"
    id_option = "storage_id"
    name_option = None
    delete_returns = "before"  # the result is the record that went

    def validate(self):
        super().validate()
        check_range("storage_id", self.params["storage_id"], low=1, high=INT64_MAX)

    @property
    def paths(self):
        kind = self.params["type"]
        return {"item": V4_PATHS[kind] if kind else V1_PATH}

    def gone(self, error):
        return says_absent(error)

    def exists(self, record):
        return record is not None and record.get("provisioning_status") not in GONE

    def shown(self, record):
        return without_credentials(record)

    def returned(self, record):
        return without_credentials(record) if record is not None and self.exists(record) else None

    def report(self, record):
        kind = self.params["type"]
        if kind and record is None:
            self.hint_other_kind(kind)
        if not kind:
            self.deprecate_v1(record.get("type") if record else None)

    def hint_other_kind(self, kind):
        """``type`` may be wrong: a storage of the other kind with this ID would be left alone. Say so."""
        other = "sftp" if kind == "s3_compatible" else "s3_compatible"
        try:
            found = self.client.get(V4_PATHS[other].format(**self.params))
        except ApiError as exc:
            if not says_absent(exc):
                raise
            found = None
        if self.exists(found):
            self.module.warn("Storage %s is not an %s storage but an %s one, so nothing was deleted; set type=%s to delete it."
                             % (self.params["storage_id"], kind, other, other))

    def deprecate_v1(self, found_kind):
        advice = "set type=s3_compatible (DELETE /storage/v4/object_storages/{storage_id}) for an S3-compatible storage " \
                 "or type=sftp (DELETE /storage/v4/sftp_storages/{storage_id}) for an SFTP storage"
        if found_kind in V4_PATHS:
            advice += "; storage %s is %s, so set type=%s" % (self.params["storage_id"], found_kind, found_kind)
        self.module.deprecate(
            "gcore.platform.storage without the type option calls the deprecated API DELETE "
            "/storage/provisioning/v1/storage/{storage_id}: %s." % advice,
            version="1.0.0",
            collection_name="gcore.platform",
        )


def main():
    Storage.main()


if __name__ == "__main__":
    main()
