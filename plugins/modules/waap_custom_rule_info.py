#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: waap_custom_rule_info
short_description: List the WAAP custom rules of a domain
version_added: 1.0.0
description:
  - Lists the custom rules of one WAAP domain, with the service's filters and ordering.
  - The service serves offsets up to 100000; if that cuts the listing short, the module warns.
author:
  - gcore.platform developers (@gcore-platform)
options:
  action:
    choices: [allow, block, captcha, handshake, monitor, tag]
notes:
  - Calls C(GET /waap/v1/domains/{domain_id}/custom-rules) and reads every page (a page shorter than asked for
    ends the listing; the service's C(count) is the size of one page).
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.waap
  - gcore.platform.waap.FILTERS
  - gcore.platform.attributes.INFO_MODULE
seealso:
  - module: gcore.platform.waap_custom_rule
  - module: gcore.platform.firewall_rules_info
"""

EXAMPLES = r"""
- name: Every custom rule of domain 1001
  gcore.platform.waap_custom_rule_info:
    api_key: "{{ gcore_api_key }}"
    domain_id: 1001
  register: rules

- name: The disabled block rules, newest first
  gcore.platform.waap_custom_rule_info:
    api_key: "{{ gcore_api_key }}"
    domain_id: 1001
    action: block
    enabled: false
    ordering: -id
  register: disabled
"""

RETURN = r"""
count:
  description: How many rules RV(custom_rules) holds.
  returned: success
  type: int
  sample: 3
custom_rules:
  description:
    - The rules, in the order the service returned them.
    - Each item is a custom rule record as M(gcore.platform.waap_custom_rule) returns in
      RV(gcore.platform.waap_custom_rule#module:custom_rule), which documents every member (also C(description),
      C(action) and C(conditions), with the service's defaults filled in); the members to pick a rule by are listed here.
  returned: success
  type: list
  elements: dict
  contains:
    id:
      description:
        - The rule's ID, to pass as O(gcore.platform.waap_custom_rule#module:id).
      type: int
      sample: 5001
    name:
      description:
        - The rule's name (exact; the O(name) filter may match more).
      type: str
      sample: Block bad bots
    enabled:
      description:
        - Whether the rule is on.
      type: bool
      sample: true
  sample:
    - id: 5001
      name: Block bad bots
      description: Known bad user agents
      enabled: true
      action: {block: {status_code: 403, action_duration: 1h}}
      conditions: [{user_agent: {user_agent: badbot, match_type: Contains, negation: false}}]
"""

from ansible_collections.gcore.platform.plugins.module_utils._base import GcoreModule
from ansible_collections.gcore.platform.plugins.module_utils._client import cap_warning
from ansible_collections.gcore.platform.plugins.module_utils._waap import list_params
from ansible_collections.gcore.platform.plugins.module_utils._waap_domain import OnDomain
from ansible_collections.gcore.platform.plugins.module_utils._waap_rules import CUSTOM
from ansible_collections.gcore.platform.plugins.module_utils._waap_tables import MAX_OFFSET, ORDERING, PAGE_SIZE, RULE_ACTIONS

FILTERS = ("name", "description", "action", "enabled", "ordering")


class WaapCustomRuleInfo(OnDomain, GcoreModule):
    argument_spec = dict(
        domain_id=dict(type="int", required=True),
        name=dict(type="str"),
        description=dict(type="str"),
        action=dict(type="str", choices=RULE_ACTIONS),
        enabled=dict(type="bool"),
        ordering=dict(type="str", choices=ORDERING),
    )

    def run(self):
        rules = list(self.client.paginate(CUSTOM.paths()["list"].format(**self.params), list_params(self.params, FILTERS),
                                          page_size=PAGE_SIZE, max_offset=MAX_OFFSET, on_cap=cap_warning(
                                              self.module.warn, "custom rule listing of " + self.scope.format(**self.params), MAX_OFFSET)))
        return {"custom_rules": rules, "count": len(rules)}


def main():
    WaapCustomRuleInfo.main()


if __name__ == "__main__":
    main()
