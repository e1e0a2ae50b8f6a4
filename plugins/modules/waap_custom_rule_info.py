#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: waap_custom_rule_info
short_description: List the WAAP custom rules of a domain
version_added: 0.1.0
description:
  - Lists the custom rules of one WAAP domain, with the service's filters and ordering.
  - Calls C(GET /waap/v1/domains/{domain_id}/custom-rules) and reads every page (a page shorter than asked for
    ends the listing; the service's C(count) is the size of one page).
  - The service serves offsets up to 100000; if that cuts the listing short, the module warns.
author:
  - gcore.platform developers (@gcore-platform)
options:
  name:
    description:
      - Only rules whose name matches; C(*) is a wildcard, for example V(Block*).
      - The service may also match names that merely contain the text; filter the result for an exact name.
    type: str
  description:
    description:
      - Only rules whose description matches; C(*) is a wildcard.
    type: str
  action:
    description:
      - Only rules with this action.
    type: str
    choices: [allow, block, captcha, handshake, monitor, tag]
  enabled:
    description:
      - Only enabled (V(true)) or disabled (V(false)) rules.
    type: bool
  ordering:
    description:
      - The field the service orders the rules by; a leading C(-) orders descending.
    type: str
    choices: [id, name, description, enabled, action, -id, -name, -description, -enabled, -action]
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.waap
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
custom_rules:
  description: The rules, in the order the service returned them.
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description: Rule ID.
      type: int
      sample: 5001
    name:
      description: Rule name.
      type: str
      sample: Block bad bots
    description:
      description: Rule description; missing when the rule has none.
      type: str
      sample: Known bad user agents
    enabled:
      description: Whether the rule is enabled.
      type: bool
      sample: true
    action:
      description: The action, one member set (C(allow), C(block), C(captcha), C(handshake), C(monitor) or C(tag)).
      type: dict
      sample: {block: {status_code: 403, action_duration: 1h}}
    conditions:
      description: The conditions, with the service's defaults filled in.
      type: list
      elements: dict
      sample: [{user_agent: {user_agent: badbot, match_type: Contains, negation: false}}]
count:
  description: How many rules RV(custom_rules) holds.
  returned: always
  type: int
  sample: 3
"""

from ansible_collections.gcore.platform.plugins.module_utils._base import GcoreModule, check_range
from ansible_collections.gcore.platform.plugins.module_utils._waap import MAX_OFFSET, ORDERING, PAGE_SIZE, RULE_ACTIONS, list_params

PATH = "/waap/v1/domains/%s/custom-rules"
FILTERS = ("name", "description", "action", "enabled", "ordering")


class WaapCustomRuleInfo(GcoreModule):
    argument_spec = dict(
        domain_id=dict(type="int", required=True),
        name=dict(type="str"),
        description=dict(type="str"),
        action=dict(type="str", choices=RULE_ACTIONS),
        enabled=dict(type="bool"),
        ordering=dict(type="str", choices=ORDERING),
    )

    def validate(self):
        super().validate()
        check_range("domain_id", self.params["domain_id"], low=1)

    def run(self):
        rules = list(self.client.paginate(PATH % self.params["domain_id"], list_params(self.params, FILTERS),
                                          page_size=PAGE_SIZE, max_offset=MAX_OFFSET,
                                          on_cap=self.cap_warning("custom rule listing of domain %s" % self.params["domain_id"], MAX_OFFSET)))
        return {"custom_rules": rules, "count": len(rules)}


def main():
    WaapCustomRuleInfo.main()


if __name__ == "__main__":
    main()
