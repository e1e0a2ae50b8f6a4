#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: waap_custom_rule
short_description: Create, update and delete a WAAP custom rule of a domain
version_added: 1.0.0
description:
  - Keeps one custom rule of a WAAP-protected domain as declared.
  - The rule is found by O(id) when given, otherwise by its exact O(name); a missing rule is created (O(action) and
    O(conditions) then required).
  - An existing rule is compared with the service's defaults filled in, the order of O(conditions) not mattering, and
    only the members that differ are sent.
author:
  - gcore.platform developers (@gcore-platform)
options:
  state:
    description:
      - V(present) creates or updates the rule, V(absent) deletes it.
      - A rule that is already absent is left alone (not changed).
    type: str
    choices: [present, absent]
    default: present
  id:
    description:
      - ID of the rule. When given, the rule is found by ID and O(name) is the name it should have (a rename).
      - With O(state=present), a rule ID that does not exist fails; a new rule gets its ID from the service.
      - One of O(id) and O(name) is required.
    type: int
  name:
    description:
      - 'Name of the rule, 1 to 100 characters: ASCII letters, digits, whitespace and the characters C(. : '' " ; < > ? & | \) only
        (so never C(*)), and not only whitespace.'
      - Without O(id) the rule is the one with exactly this name.
    type: str
  description:
    description:
      - Description of the rule, at most 100 characters.
      - V("") and a missing description are the same.
    type: str
  enabled:
    description:
      - Whether the rule is enabled.
      - When a rule is created without it, it is created enabled.
    type: bool
  action:
    description:
      - What the rule does when all its conditions match. Exactly one member must be set.
      - Required to create the rule.
    type: dict
  conditions:
    description:
      - The conditions, 1 to 5; all of them must match for the rule to fire.
      - Each item sets exactly one condition kind.
      - Every kind except O(conditions[].request_rate) takes C(negation) (bool, the service's default V(false)),
        which inverts the condition.
      - Required to create the rule. When given, the list replaces the rule's conditions.
    type: list
    elements: dict
notes:
  - Reads, creates and deletes on C(/waap/v1/domains/{domain_id}/custom-rules); updates on
    C(/waap/v2/domains/{domain_id}/custom-rules/{rule_id}).
  - When it exists, the desired members are compared after filling the service's defaults into the desired
    conditions (C(negation=false) on every kind except O(conditions[].request_rate),
    C(match_type=Contains), C(owner_types=[COMMERCIAL])); only the members that differ are sent in one
    C(PATCH) on the v2 path, then the rule is read again. An unchanged O(conditions) list is never sent, so a rule holding a
    C(response_header) or C(response_header_exists) condition (which the service returns but no longer accepts in a
    write) can still have its other members changed.
  - The order of O(conditions), and of the values inside a condition list, does not matter.
  - Members left out are not managed; whatever the service holds or fills in for them is accepted. This applies to
    O(description), O(enabled), O(action) and O(conditions), and inside a O(action.block) action to
    O(action.block.status_code) and O(action.block.action_duration). A missing, null and empty description are one value.
  - Deeper field errors than the documented limits come back from the service as HTTP 422; the failure message then
    lists each C(errors[].loc) with its C(detail).
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.waap
  - gcore.platform.waap_conditions
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.waap_custom_rule_info
  - module: gcore.platform.firewall_rules_info
"""

EXAMPLES = r"""
- name: Block scrapers on domain 1001 for ten minutes
  gcore.platform.waap_custom_rule:
    api_key: "{{ gcore_api_key }}"
    domain_id: 1001
    name: Block scrapers
    description: Scrapy and curl on the API
    action:
      block:
        status_code: 429
        action_duration: 10m
    conditions:
      - user_agent:
          user_agent: scrapy
      - url:
          url: /api/
          match_type: Contains
  register: rule

- name: Rename the rule found by its ID, and disable it
  gcore.platform.waap_custom_rule:
    api_key: "{{ gcore_api_key }}"
    domain_id: 1001
    id: "{{ rule.custom_rule.id }}"
    name: "Block scrapers: paused"
    enabled: false

- name: Rate-limit logins, except from the office range
  gcore.platform.waap_custom_rule:
    api_key: "{{ gcore_api_key }}"
    domain_id: 1001
    name: Login rate limit
    action:
      captcha: {}
    conditions:
      - request_rate:
          path_pattern: ^/login
          requests: 50
          time: 60
          http_methods: [POST]
      - ip_range:
          lower_bound: 192.0.2.0
          upper_bound: 192.0.2.255
          negation: true

- name: Delete the rule
  gcore.platform.waap_custom_rule:
    api_key: "{{ gcore_api_key }}"
    domain_id: 1001
    name: Login rate limit
    state: absent
"""

RETURN = r"""
custom_rule:
  description:
    - The rule as the service returned it last (after a create or an update, read again).
    - V(null) when the rule is absent, after a delete, and when a rule would be created in check mode.
  returned: success
  type: dict
  contains:
    id:
      description: Rule ID.
      type: int
      sample: 7001
    name:
      description: Rule name.
      type: str
      sample: Block scrapers
    description:
      description: Rule description; missing when the rule has none.
      type: str
      sample: Scrapy and curl on the API
    enabled:
      description: Whether the rule is enabled.
      type: bool
      sample: true
    action:
      description: The action, one member set (C(allow), C(block), C(captcha), C(handshake), C(monitor) or C(tag)).
      type: dict
      sample: {block: {status_code: 429, action_duration: 10m}}
    conditions:
      description: The conditions with the service's defaults filled in.
      type: list
      elements: dict
      sample:
        - user_agent: {user_agent: scrapy, match_type: Contains, negation: false}
        - url: {url: /api/, match_type: Contains, negation: false}
diff:
  description: The managed members before and after the change (C(state) is V(absent) for a missing rule).
  returned: success
  type: dict
  sample:
    before: {state: present, name: Block scrapers, action: {block: {status_code: 429}}}
    after: {state: present, name: Block scrapers, action: {captcha: {}}}
"""

from ansible_collections.gcore.platform.plugins.module_utils._checks import check_range
from ansible_collections.gcore.platform.plugins.module_utils._resource import GcoreResourceModule
from ansible_collections.gcore.platform.plugins.module_utils._waap_domain import OnDomain
from ansible_collections.gcore.platform.plugins.module_utils._waap_rules import CUSTOM


class WaapCustomRule(OnDomain, GcoreResourceModule):
    argument_spec = dict(
        domain_id=dict(type="int", required=True),
        state=dict(type="str", choices=["present", "absent"], default="present"),
        id=dict(type="int"),
        **CUSTOM.argument_spec()
    )
    module_kwargs = dict(required_one_of=[["id", "name"]])

    # ---- the resource ----------------------------------------------------------------------
    paths, members, required_to_create = CUSTOM.paths(), CUSTOM.members, CUSTOM.required_to_create
    noun = "rule"
    title = "Custom rule"
    result_key = "custom_rule"

    def validate(self):
        super().validate()
        check_range("id", self.params["id"], low=1)
        CUSTOM.validate(self.params)

    def create_body(self):
        return CUSTOM.body(self.params)


def main():
    WaapCustomRule.main()


if __name__ == "__main__":
    main()
