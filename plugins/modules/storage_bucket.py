#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: storage_bucket
short_description: Create, change and delete a bucket of a Gcore S3-compatible storage, idempotently
version_added: 1.0.0
description:
  - Manages one bucket of an S3-compatible storage through the v4 API,
    C(/storage/v4/object_storages/{storage_id}/buckets/{name}).
  - Creates the bucket, manages its O(lifecycle), O(cors) and O(policy) (each only when given), and with O(state=absent)
    deletes it and B(every object in it).
author:
  - gcore.platform developers (@gcore-platform)
options:
  storage_id:
    description:
      - ID of the S3-compatible storage holding the bucket, at least V(1) (see M(gcore.platform.storage)).
    type: int
    required: true
  name:
    description:
      - Name of the bucket, its identity. 3 to 63 characters - lower case letters, digits, C(-) and C(.), beginning and
        ending with a letter or a digit, as S3 bucket names.
    type: str
    required: true
  state:
    description:
      - V(present) creates the bucket or brings it to the settings given; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
  lifecycle:
    description:
      - Automatic expiration of the bucket's objects.
    type: dict
    suboptions:
      expiration_days:
        description:
          - Days after upload before an object is deleted, at least V(0). V(0) removes the rule (and is what is sent
            to remove it); a bucket without a rule counts as V(0).
        type: int
        required: true
  cors:
    description:
      - The origins browsers may make requests to the bucket from.
    type: dict
    suboptions:
      allowed_origins:
        description:
          - The allowed origins (such as V(https://app.example.com), or V(*) for any), compared as a set; V([]) removes
            the CORS configuration. Each must be non-empty, without spaces or control characters.
        type: list
        elements: str
        required: true
  policy:
    description:
      - The bucket's access policy.
    type: dict
    suboptions:
      is_public:
        description:
          - V(true) lets anyone download the objects without credentials; V(false) requires S3 authentication.
        type: bool
        required: true
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.attributes
  - gcore.platform.provisioning
notes:
  - "A bucket that does not exist is created (C(POST .../buckets) with its O(name)), then the settings the create
    cannot carry are sent in one C(PATCH). A bucket that exists gets one C(PATCH) holding only the settings that differ."
  - With O(state=absent) the bucket and B(every object in it) are deleted (C(DELETE)); a bucket already absent is no
    change.
  - When the bucket is not found, the storage is read (C(GET /storage/v4/object_storages/{storage_id})); an unknown
    O(storage_id) fails the task naming it (in check mode too), or, with O(state=absent), is no change with a warning.
seealso:
  - module: gcore.platform.storage
"""

EXAMPLES = r"""
- name: A private bucket whose objects expire after 30 days
  gcore.platform.storage_bucket:
    storage_id: 1234
    name: nightly-logs
    lifecycle:
      expiration_days: 30
    policy:
      is_public: false

- name: A public bucket for a web application's assets
  gcore.platform.storage_bucket:
    storage_id: 1234
    name: web-assets
    policy:
      is_public: true
    cors:
      allowed_origins:
        - https://app.example.com
        - https://www.example.com

- name: Keep the logs forever from now on (remove the expiration rule)
  gcore.platform.storage_bucket:
    storage_id: 1234
    name: nightly-logs
    lifecycle:
      expiration_days: 0

- name: Delete a bucket and everything in it
  gcore.platform.storage_bucket:
    storage_id: 1234
    name: web-assets
    state: absent
"""

RETURN = r"""
bucket:
  description:
    - The bucket as read last (C(BucketDetailResV4)); V(null) when it is absent (deleted, or not created in check mode).
    - A setting that is not configured is V(null).
  returned: success
  type: dict
  contains:
    name:
      description: Bucket name.
      type: str
      sample: nightly-logs
    storage_id:
      description: The storage holding the bucket.
      type: int
      sample: 101
    lifecycle:
      description: The expiration rule, C(expiration_days); V(null) without one.
      type: dict
      sample: {expiration_days: 30}
    cors:
      description: The CORS configuration, C(allowed_origins); V(null) without one.
      type: dict
      sample: null
    policy:
      description: The access policy, C(is_public).
      type: dict
      sample: {is_public: false}
diff:
  description: With C(--diff), the bucket's settings before and after, with C(state=present), or just C(state=absent).
  returned: success
  type: dict
  sample:
    before: {state: absent}
    after: {lifecycle: {expiration_days: 30}, policy: {is_public: false}, state: present}
"""

import re

from ansible_collections.gcore.platform.plugins.module_utils._checks import INT64, Refused, check_range, require
from ansible_collections.gcore.platform.plugins.module_utils._client import ApiError
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._resource import GcoreResourceModule

STORAGE_PATH = "/storage/v4/object_storages/{storage_id}"
NAME_PATTERN = r"[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]"
NAME_RULE = "3 to 63 lower case letters, digits, '-' and '.', beginning and ending with a letter or a digit"
ORIGIN_FORBIDDEN = re.compile(r"[\x00-\x20\x7f]")

MEMBERS = (
    Member("lifecycle", read=lambda record: {"expiration_days": (record.get("lifecycle") or {}).get("expiration_days") or 0},
           want=lambda value, record: {"expiration_days": value["expiration_days"]}),
    Member("cors", read=lambda record: {"allowed_origins": sorted(set((record.get("cors") or {}).get("allowed_origins") or []))},
           want=lambda value, record: {"allowed_origins": sorted(set(value["allowed_origins"]))}),
    Member("policy", read=lambda record: {"is_public": bool((record.get("policy") or {}).get("is_public"))},
           want=lambda value, record: {"is_public": value["is_public"]}),
)


class StorageBucket(GcoreResourceModule):
    argument_spec = dict(
        storage_id=dict(type="int", required=True),
        name=dict(type="str", required=True),
        state=dict(type="str", choices=["present", "absent"], default="present"),
        lifecycle=dict(type="dict", options=dict(expiration_days=dict(type="int", required=True))),
        cors=dict(type="dict", options=dict(allowed_origins=dict(type="list", elements="str", required=True))),
        policy=dict(type="dict", options=dict(is_public=dict(type="bool", required=True))),
    )

    # ---- the resource: one bucket, read by its name in the storage ----
    noun = "bucket"
    result_key = "bucket"
    scope = "storage {storage_id}"
    paths = dict(
        list="/storage/v4/object_storages/{storage_id}/buckets",
        item="/storage/v4/object_storages/{storage_id}/buckets/{name}",
    )
    id_option = None
    name_option = None  # the name is in the item path: one GET finds the bucket
    members = MEMBERS
    read_after_update = False  # the PATCH answers the bucket (BucketDetailResV4)

    def validate(self):
        super().validate()
        params = self.params
        check_range("storage_id", params["storage_id"], low=1, high=INT64[1])
        require(re.fullmatch(NAME_PATTERN, params["name"]), "name", "%r is not a bucket name: %s" % (params["name"], NAME_RULE))
        if params["lifecycle"]:
            check_range("lifecycle.expiration_days", params["lifecycle"]["expiration_days"], low=0, high=INT64[1])
        for index, origin in enumerate((params["cors"] or {}).get("allowed_origins") or []):
            require(origin and not ORIGIN_FORBIDDEN.search(origin), "cors.allowed_origins[%d]" % index,
                    "%r must be non-empty, without spaces or control characters" % origin)

    def create_body(self):
        return {"name": self.params["name"]}

    def examine(self, record):
        """A bucket not found may be a storage not found: an unknown storage fails (check mode too), or warns when the
        bucket should be absent anyway."""
        if record is not None or self.storage_exists():
            return
        storage_id = self.params["storage_id"]
        if self.params["state"] == "absent":
            self.module.warn("storage_id: no S3-compatible storage %s was found, so it holds no bucket %r; nothing was "
                             "changed" % (storage_id, self.params["name"]))
            return
        raise Refused("storage_id: no S3-compatible storage %s was found, so bucket %r cannot be created or changed in it; "
                      "nothing was sent" % (storage_id, self.params["name"]))

    def storage_exists(self):
        """Whether the storage of ``storage_id`` exists (and is not being deleted).

        A read (``GET`` of the storage) that the ``examine`` hook needs: to become a declared read of the flow."""
        try:
            found = self.client.get(STORAGE_PATH.format(storage_id=self.params["storage_id"]))
        except ApiError as exc:
            if exc.status == 404:
                return False
            raise
        return (found or {}).get("provisioning_status") not in ("deleting", "deleted")


def main():
    StorageBucket.main()


if __name__ == "__main__":
    main()
