#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: waap_custom_rules
short_description: A WAAP domain's custom rules as a set, compared by name
version_added: 1.0.0
description:
  - Keeps the custom rules of one WAAP domain as declared in O(config), in one run, for hundreds of rules at a time.
  - Each item is compared as M(gcore.platform.waap_custom_rule) compares one rule - the service's defaults filled into
    the conditions (C(negation=false) except on C(request_rate), C(match_type=Contains), C(owner_types=[COMMERCIAL])),
    the order of conditions ignored, a O(config[].action.block) action's members left out not managed.
author:
  - gcore.platform developers (@gcore-platform)
notes:
  - Reads and creates on C(/waap/v1/domains/{domain_id}/custom-rules), updates and bulk deletes on
    C(/waap/v2/domains/{domain_id}/custom-rules); the notes below say how the rules are read, matched and
    written.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.waap
  - gcore.platform.waap.SETS
  - gcore.platform.waap_conditions.custom_rules
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.waap_custom_rule
  - module: gcore.platform.waap_custom_rule_info
  - module: gcore.platform.waap_firewall_rules
"""

EXAMPLES = r"""
- name: Keep two custom rules of domain 1001 as declared, leaving its other rules alone
  gcore.platform.waap_custom_rules:
    api_key: "{{ gcore_api_key }}"
    domain_id: 1001
    config:
      - name: Tag mobile app clients
        description: Requests that carry the app's version header
        action:
          tag:
            tags: [mobile-app]
        conditions:
          - header_exists:
              header: X-App-Version
      - name: Captcha for logins from abroad
        action:
          captcha: {}
        conditions:
          - url:
              url: /login
              match_type: Exact
          - country:
              country_code: [DE, FR]
              negation: true
  register: result

- name: Export the domain's rules in the config shape
  gcore.platform.waap_custom_rules:
    api_key: "{{ gcore_api_key }}"
    domain_id: 1001
    state: gathered
  register: exported

- name: Make the domain hold exactly the exported rules (nothing changes, nothing is sent)
  gcore.platform.waap_custom_rules:
    api_key: "{{ gcore_api_key }}"
    domain_id: 1001
    state: overridden
    config: "{{ exported.gathered }}"

- name: Delete two rules by name
  gcore.platform.waap_custom_rules:
    api_key: "{{ gcore_api_key }}"
    domain_id: 1001
    state: deleted
    config:
      - name: Tag mobile app clients
      - name: Captcha for logins from abroad
"""

RETURN = r"""
custom_rules:
  description:
    - The domain's custom rules as read last (listed again after a write), in the service's order.
    - In check mode, the rules as they were read.
  returned: success
  type: list
  elements: dict
  sample:
    - id: 7001
      name: Tag mobile app clients
      description: Requests that carry the app's version header
      enabled: true
      action: {tag: {tags: [mobile-app]}}
      conditions:
        - header_exists: {header: X-App-Version, negation: false}
changes:
  description:
    - What the run did, by rule name - only the writes the service accepted, or that the listing read afterwards
      showed took effect (after a failure too); a write that failed and those never sent are not in it.
    - In check mode, what would be sent.
  returned: when O(state) is not V(gathered)
  type: dict
  contains:
    created:
      description: Names of the rules created, sorted.
      type: list
      elements: str
      sample: [Tag mobile app clients]
    updated:
      description: Names of the rules updated, sorted.
      type: list
      elements: str
      sample: []
    deleted:
      description: Names of the rules deleted, sorted; a name is listed once per rule deleted (several rules may hold it).
      type: list
      elements: str
      sample: [Old rule]
    deleted_ids:
      description: IDs of the rules deleted, sorted.
      type: list
      elements: int
      sample: [7004]
gathered:
  description:
    - The domain's rules in the shape of O(config), in the service's order - no IDs, every member the service returns
      with its defaults written out, members it returns as null left out.
  returned: when O(state=gathered)
  type: list
  elements: dict
  sample:
    - name: Allow office
      enabled: true
      action: {allow: {}}
      conditions:
        - ip_range: {lower_bound: 192.0.2.0, upper_bound: 192.0.2.255, negation: false}
diff:
  description:
    - The rules that change, as mappings from rule name to rule - C(before) as they are, C(after) as they will be; a
      created rule is absent from C(before), a deleted one from C(after), an unchanged one from both.
    - Ansible's stdout callbacks render these mappings with C(--diff).
    - When several deleted rules hold one name, each is keyed C(name (id N)).
  returned: when O(state) is not V(gathered)
  type: dict
  sample:
    before:
      Old rule: {name: Old rule, description: "", enabled: true, action: {block: {}}, conditions: [{url: {url: /old, match_type: Contains, negation: false}}]}
    after:
      Tag mobile app clients: {name: Tag mobile app clients, description: "Requests that carry the app's version header", enabled: true,
        action: {tag: {tags: [mobile-app]}}, conditions: [{header_exists: {header: X-App-Version, negation: false}}]}
"""

from ansible_collections.gcore.platform.plugins.module_utils._waap_rules import CUSTOM, WaapRuleSet


class WaapCustomRules(WaapRuleSet):
    kind = CUSTOM


def main():
    WaapCustomRules.main()


if __name__ == "__main__":
    main()
