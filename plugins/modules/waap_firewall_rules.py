#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: waap_firewall_rules
short_description: A WAAP domain's firewall rules as a set, compared by name
version_added: 1.0.0
description:
  - Keeps the firewall rules of one WAAP domain as declared in O(config), in one run, for hundreds of rules at a time.
  - A firewall rule allows or blocks requests by client IP address - its O(config[].action) is V(allow) or V(block),
    its O(config[].conditions) exactly one O(config[].conditions[].ip) or O(config[].conditions[].ip_range).
  - Each item is compared as M(gcore.platform.waap_custom_rule) compares one rule - the service's default filled into
    the condition (C(negation=false)), IP addresses in canonical form, a O(config[].action.block) action's members left
    out not managed.
author:
  - gcore.platform developers (@gcore-platform)
notes:
  - Reads and creates on C(/waap/v1/domains/{domain_id}/firewall-rules), updates and bulk deletes on
    C(/waap/v2/domains/{domain_id}/firewall-rules); the notes below say how the rules are read, matched and
    written.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.waap
  - gcore.platform.waap.SETS
  - gcore.platform.waap_conditions.firewall_rules
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.firewall_rules_info
  - module: gcore.platform.waap_custom_rules
"""

EXAMPLES = r"""
- name: Allow the office and block a scanner range on domain 1001, leaving its other firewall rules alone
  gcore.platform.waap_firewall_rules:
    api_key: "{{ gcore_api_key }}"
    domain_id: 1001
    config:
      - name: Allow office
        description: Head office egress
        action:
          allow: {}
        conditions:
          - ip:
              ip_address: 192.0.2.10
      - name: Block scanner range
        action:
          block:
            status_code: 403
            action_duration: 12h
        conditions:
          - ip_range:
              lower_bound: 198.51.100.0
              upper_bound: 198.51.100.255

- name: Export the domain's firewall rules in the config shape
  gcore.platform.waap_firewall_rules:
    api_key: "{{ gcore_api_key }}"
    domain_id: 1001
    state: gathered
  register: exported

- name: Preview overriding the domain with the export (check mode and diff; it changes nothing)
  gcore.platform.waap_firewall_rules:
    api_key: "{{ gcore_api_key }}"
    domain_id: 1001
    state: overridden
    config: "{{ exported.gathered }}"
  check_mode: true
  diff: true
  register: preview

- name: Disable one rule, making it match its item exactly
  gcore.platform.waap_firewall_rules:
    api_key: "{{ gcore_api_key }}"
    domain_id: 1001
    state: replaced
    config:
      - name: Block scanner range
        enabled: false
        action:
          block: {}
        conditions:
          - ip_range:
              lower_bound: 198.51.100.0
              upper_bound: 198.51.100.255

- name: Delete a rule by name
  gcore.platform.waap_firewall_rules:
    api_key: "{{ gcore_api_key }}"
    domain_id: 1001
    state: deleted
    config:
      - name: Allow office
"""

RETURN = r"""
firewall_rules:
  description:
    - The domain's firewall rules as read last (listed again after a write), in the service's order.
    - In check mode, the rules as they were read.
  returned: success
  type: list
  elements: dict
  sample:
    - id: 200001
      name: Allow office
      description: Head office egress
      enabled: true
      action: {allow: {}, block: null}
      conditions:
        - ip: {ip_address: 192.0.2.10, negation: false}
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
      sample: [Allow office]
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
      sample: [200007]
gathered:
  description:
    - Every firewall rule of the domain as an item of O(config), in the service's order - no IDs, every member the
      service returns with its defaults written out, members it returns as null left out.
    - Given back as O(config) with O(state=overridden) it changes nothing.
  returned: when O(state=gathered)
  type: list
  elements: dict
  sample:
    - name: Block scanner range
      enabled: true
      action: {block: {status_code: 403, action_duration: 12h}}
      conditions:
        - ip_range: {lower_bound: 198.51.100.0, upper_bound: 198.51.100.255, negation: false}
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
      Old rule: {name: Old rule, description: "", enabled: true, action: {block: {}}, conditions: [{ip: {ip_address: 192.0.2.99, negation: false}}]}
    after:
      Allow office: {name: Allow office, enabled: true, action: {allow: {}}, conditions: [{ip: {ip_address: 192.0.2.10, negation: false}}]}
"""

from ansible_collections.gcore.platform.plugins.module_utils._waap_rules import FIREWALL, WaapRuleSet


class WaapFirewallRules(WaapRuleSet):
    kind = FIREWALL


def main():
    WaapFirewallRules.main()


if __name__ == "__main__":
    main()
