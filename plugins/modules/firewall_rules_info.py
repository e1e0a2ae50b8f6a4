#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: firewall_rules_info
short_description: List the WAAP firewall rules of every domain of the account
version_added: 1.0.0
description:
  - Lists the WAAP firewall rules across all domains of the account, with the service's filters and ordering.
  - The service serves offsets up to 100000; if that cuts the listing short, the module warns. Narrow the listing
    with the filters then.
author:
  - gcore.platform developers (@gcore-platform)
options:
  action:
    choices: [allow, block]
  domain_ids:
    description:
      - Only rules of these domains (sent as a repeated C(domain_ids) query parameter).
    type: list
    elements: int
  page_size:
    description:
      - How many rules to ask for in each request, 1 to 100.
    type: int
    default: 100
  max_results:
    description:
      - Stop after this many rules (at least 1). Without it every page is read.
    type: int
notes:
  - Calls C(GET /waap/v2/firewall-rules) and reads every page. The service's C(count) is the number of items in
    one page, not a total, so the listing ends with a page shorter than O(page_size). From a distant service (a full
    first page slower than 40 ms) up to 8 pages are asked for at once, so up to 7 pages past the end may be read;
    otherwise the pages are read one by one. The set modules (M(gcore.platform.waap_firewall_rules) and the others)
    always read their listing page by page, so their requests do not depend on how fast the service answers.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.waap.FILTERS
  - gcore.platform.attributes.INFO_MODULE
seealso:
  - module: gcore.platform.waap_custom_rule_info
"""

EXAMPLES = r"""
- name: Every firewall rule of the account
  gcore.platform.firewall_rules_info:
    api_key: "{{ gcore_api_key }}"
  register: all_rules

- name: Disabled block rules of two domains, by name
  gcore.platform.firewall_rules_info:
    api_key: "{{ gcore_api_key }}"
    action: block
    enabled: false
    domain_ids: [1001, 1002]
    ordering: name
  register: disabled

- name: The first 10 rules whose name starts with Block
  gcore.platform.firewall_rules_info:
    api_key: "{{ gcore_api_key }}"
    name: Block*
    max_results: 10
  register: some
"""

RETURN = r"""
firewall_rules:
  description:
    - The rules, in the order the service returned them.
    - Each item holds the members of a rule record of M(gcore.platform.waap_custom_rule) (see
      RV(gcore.platform.waap_custom_rule#module:custom_rule)) - C(id), C(name), C(description) (missing when the rule
      has none) and C(enabled) - with firewall values for C(action) and C(conditions), and the rule's C(domain).
  returned: success
  type: list
  elements: dict
  contains:
    action:
      description: The action; one of C(allow) (an empty dict) and C(block) (C(status_code), C(action_duration)) is set, the other is null.
      type: dict
      sample: {allow: null, block: {status_code: 418, action_duration: 12h}}
    conditions:
      description: One condition, C(ip) (C(ip_address), C(negation)) or C(ip_range) (C(lower_bound), C(upper_bound), C(negation)).
      type: list
      elements: dict
      sample: [{ip: {ip_address: "2001:db8::12e", negation: true}}]
    domain:
      description: The domain the rule belongs to.
      type: dict
      sample: {id: 1003, name: blog.example.com}
  sample:
    - {id: 100302, name: Block scanner 0302, description: Seeded firewall rule 302 on blog.example.com, enabled: true,
       action: {allow: null, block: {status_code: 418, action_duration: 12h}},
       conditions: [{ip: {ip_address: "2001:db8::12e", negation: true}}], domain: {id: 1003, name: blog.example.com}}
count:
  description: How many rules RV(firewall_rules) holds.
  returned: success
  type: int
  sample: 250
"""

from ansible_collections.gcore.platform.plugins.module_utils._base import GcoreModule
from ansible_collections.gcore.platform.plugins.module_utils._checks import check_range
from ansible_collections.gcore.platform.plugins.module_utils._client import cap_warning
from ansible_collections.gcore.platform.plugins.module_utils._waap import list_params
from ansible_collections.gcore.platform.plugins.module_utils._waap_tables import FIREWALL_ACTIONS, MAX_OFFSET, ORDERING

PATH = "/waap/v2/firewall-rules"
FILTERS = ("name", "description", "action", "enabled", "domain_ids", "ordering")


class FirewallRulesInfo(GcoreModule):
    argument_spec = dict(
        name=dict(type="str"),
        description=dict(type="str"),
        action=dict(type="str", choices=FIREWALL_ACTIONS),
        enabled=dict(type="bool"),
        domain_ids=dict(type="list", elements="int"),
        ordering=dict(type="str", choices=ORDERING),
        page_size=dict(type="int", default=100),
        max_results=dict(type="int"),
    )

    def validate(self):
        super().validate()
        check_range("page_size", self.params["page_size"], 1, 100)
        check_range("max_results", self.params["max_results"], low=1)

    def run(self):
        rules = list(self.client.paginate(PATH, list_params(self.params, FILTERS), page_size=self.params["page_size"],
                                          max_offset=MAX_OFFSET, max_results=self.params["max_results"], read_ahead=True,
                                          on_cap=cap_warning(self.module.warn, "firewall rule listing", MAX_OFFSET)))
        return {"firewall_rules": rules, "count": len(rules)}


def main():
    FirewallRulesInfo.main()


if __name__ == "__main__":
    main()
