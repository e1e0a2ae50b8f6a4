#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: notification_threshold_info
short_description: Read a client's quota notification threshold
version_added: 1.0.0
description:
  - Reads the quota notification threshold of a Gcore Cloud client, the usage percentage above which Gcore
    sends a warning email, with the quotas of the last warning sent.
  - Calls C(GET /cloud/v2/client_quotas/{client_id}/notification_threshold).
  - When nothing was ever set, the service applies its default of 80 percent.
author:
  - gcore.platform developers (@gcore-platform)
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLIENT
  - gcore.platform.attributes.INFO_MODULE
seealso:
  - module: gcore.platform.notification_threshold
"""

EXAMPLES = r"""
# Replace 1 by your client (account) ID; the local simulator serves client 1.
- name: Read the threshold of client 1
  gcore.platform.notification_threshold_info:
    api_key: "{{ gcore_api_key }}"
    client_id: 1
  register: result

- name: Show it
  ansible.builtin.debug:
    msg: "Warning emails above {{ result.notification_threshold.threshold }} % of a quota"
  when: result.notification_threshold is not none
"""

RETURN = r"""
notification_threshold:
  description:
    - The threshold record as the service returns it.
    - V(null) when the service answers 404 (no record for this client).
  returned: success
  type: dict
  contains:
    client_id:
      description: Client ID.
      type: int
      sample: 1
    threshold:
      description: Usage percentage (60 to 100) above which a warning email is sent.
      type: int
      sample: 80
    last_sending:
      description: Time of the last successful warning email, or V(null) if none was sent.
      type: str
      sample: "2026-11-01T08:30:00Z"
    last_message:
      description:
        - The quotas reported in the last warning email, or V(null).
        - Holds C(global_quotas) (a dict) and C(regional_quotas) (a list, one item per region with C(region_id),
          C(region_name) and the regional quotas); every quota is a dict C({limit, usage}).
      type: dict
      sample:
        global_quotas:
          project_count_limit: {limit: 10, usage: 9}
        regional_quotas:
          - region_id: 76
            region_name: Luxembourg-2
            cpu_count_limit: {limit: 100, usage: 85}
"""

from ansible_collections.gcore.platform.plugins.module_utils._base import GcoreModule
from ansible_collections.gcore.platform.plugins.module_utils._checks import check_range
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS

PATH = KINDS["notification_threshold"].paths["item"]


class NotificationThresholdInfo(GcoreModule):
    argument_spec = dict(client_id=dict(type="int", required=True))

    def validate(self):
        super().validate()
        check_range("client_id", self.params["client_id"], low=1)

    def run(self):
        return {"notification_threshold": self.client.get_or_none(PATH.format(**self.params))}


def main():
    NotificationThresholdInfo.main()


if __name__ == "__main__":
    main()
