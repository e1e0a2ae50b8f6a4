#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: notification_threshold
short_description: Set or reset a client's quota notification threshold
version_added: 1.0.0
description:
  - Manages the quota notification threshold of a Gcore Cloud client, the usage percentage above which Gcore sends a
    warning email.
  - O(state=present) sets the threshold (creating the client's record when it has none); O(state=absent) sets it back to
    the service default of 80 percent.
author:
  - gcore.platform developers (@gcore-platform)
options:
  threshold:
    description:
      - Usage percentage, 60 to 100, above which a warning email is sent.
      - Required when O(state=present).
    type: int
  state:
    description:
      - V(present) sets O(threshold); it is sent only when it differs from the current one.
      - V(absent) restores the service default of 80 percent; nothing is sent when the threshold is already 80
        (the service does not tell an explicit 80 from the default).
    type: str
    choices: [present, absent]
    default: present
notes:
  - Reads C(GET /cloud/v2/client_quotas/{client_id}/notification_threshold) first, then writes only on a difference,
    with C(PUT) (which creates or updates) for O(state=present) and C(DELETE) (back to the service default of
    80 percent) for O(state=absent).
  - When the service answers the read with 404 (no record for the client), O(state=present) sends the C(PUT), which
    creates the record; if the service does not know the client at all, that C(PUT) fails with its error.
    O(state=absent) has nothing to do then.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLIENT
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.notification_threshold_info
"""

EXAMPLES = r"""
# Replace 1 by your client (account) ID; the local simulator serves client 1.
- name: Warn at 90 % of any quota
  gcore.platform.notification_threshold:
    client_id: 1
    threshold: 90

- name: Back to the service default (80 %)
  gcore.platform.notification_threshold:
    client_id: 1
    state: absent
"""

RETURN = r"""
notification_threshold:
  description:
    - The threshold record as read last - the service's answer to the C(PUT), the record read again after a
      C(DELETE), otherwise the record as read before (in check mode, the record before the change that would be made).
    - V(null) when the service has no record for the client (it answered 404) and nothing was written.
  returned: success
  type: dict
  sample: {client_id: 1, threshold: 90, last_sending: "2026-11-01T08:30:00Z", last_message: null}
  contains:
    threshold:
      description:
        - The usage percentage (60 to 100) above which the client gets a warning email.
        - The record's other members (C(client_id), C(last_sending), C(last_message)) are documented in
          RV(gcore.platform.notification_threshold_info#module:notification_threshold).
      type: int
      sample: 90
diff:
  description: The managed threshold before and after, with C(state) (V(absent) means the service default applies).
  returned: success
  type: dict
  sample:
    before: {threshold: 80, state: present}
    after: {threshold: 90, state: present}
"""

from ansible_collections.gcore.platform.plugins.module_utils._checks import check_range, require
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._resource import GcoreResourceModule

DEFAULT_THRESHOLD = 80
PATH = KINDS["notification_threshold"].paths["item"]


class NotificationThreshold(GcoreResourceModule):
    argument_spec = dict(
        client_id=dict(type="int", required=True),
        threshold=dict(type="int"),
        state=dict(type="str", choices=["present", "absent"], default="present"),
    )
    module_kwargs = dict(required_if=[("state", "present", ("threshold",))])

    # ---- the resource: one record per client, written with PUT ----------------------------
    noun = "notification threshold"
    result_key = "notification_threshold"
    paths = dict(item=PATH, create="PUT " + PATH, update="PUT " + PATH)
    id_option = name_option = None
    members = (Member("threshold"),)
    read_after_update = False  # the PUT answers with the record
    delete_returns = "read"  # a DELETE restores the default: the record read again

    def validate(self):
        super().validate()
        check_range("client_id", self.params["client_id"], low=1)
        check_range("threshold", self.params["threshold"], 60, 100)
        if self.params["state"] == "absent":
            require(self.params["threshold"] is None, "threshold", "only with state present")

    def exists(self, record):
        """Under state absent, the default threshold counts as absent: there is nothing to restore."""
        return record is not None and not (self.params["state"] == "absent" and record.get("threshold") == DEFAULT_THRESHOLD)

    def returned(self, record):
        return record  # the record as read last, whatever the state

    def create_body(self):
        return {"threshold": self.params["threshold"]}

    def update_body(self, changes, record):
        return self.create_body()


def main():
    NotificationThreshold.main()


if __name__ == "__main__":
    main()
