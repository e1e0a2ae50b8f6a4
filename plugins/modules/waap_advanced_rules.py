#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: waap_advanced_rules
short_description: A WAAP domain's advanced (CEL) rules as a set, compared by name
version_added: 1.0.0
description:
  - Keeps the advanced rules of one WAAP domain as declared in O(config) - each a CEL expression (O(config[].source))
    deciding an action - with the states of the other set modules.
  - Every expression is parsed and checked against the service's descriptor before any write (the notes say what is
    checked); a reformatted expression is no change.
  - Deletes the undeclared rules first, then updates, then creates.
author:
  - gcore.platform developers (@gcore-platform)
options:
  config:
    description:
      - The rules; O(config[].name) identifies each (two items with one name fail naming both).
      - Required with every O(state) except V(gathered), where it must be left out; with O(state=deleted) only
        O(config[].name) is needed.
    type: list
    elements: dict
  state:
    description:
      - V(merged) creates the rules missing by name and updates the members given that differ; V(replaced) also resets
        the members left out (description V(""), enabled V(true), phase V(access)); V(overridden) is V(replaced) and
        deletes every other rule of the domain; V(deleted) deletes the rules named; V(gathered) only reads and returns
        RV(gathered), valid O(config) that changes nothing when given back with V(overridden).
    type: str
    choices: [merged, replaced, overridden, deleted, gathered]
    default: merged
notes:
  - Every expression is parsed before any write - balanced parentheses, brackets and braces; string literals in single
    quotes; every operator with its operands (no C(== ==), no trailing C(&&)); no name alone (C(foo)); only functions
    called (CEL's own, such as C(size), and methods of a value, such as C(.startsWith)). Against the service's
    descriptor (C(GET /waap/v1/advanced-rules/descriptor), read once a run) every C(object.attribute) names an object
    and one of its attributes; a C(Function) attribute is called with as many arguments as the descriptor lists, a
    literal argument of the type it lists (C(Int) an integer, C(Str) a string, C(IP) an IP address in a string,
    C(List) a list); a C(Var) is not called; a C(Dict) is indexed (C(request.headers['host']); C('host' in
    request.headers) too). A failure names the item, the position (0-based) in the expression and what was expected.
  - O(config[].source) is compared with its whitespace normalised, so reformatting an expression is no change.
  - Reads and creates on C(/waap/v1/domains/{domain_id}/advanced-rules); an update is one C(PATCH
    /waap/v2/domains/{domain_id}/advanced-rules/{rule_id}) with the members that differ, or, when only
    O(config[].enabled) differs, C(PATCH .../{rule_id}/enable) or C(.../disable); a delete is one C(DELETE) per rule
    (advanced rules have no bulk delete). Deletes first, then updates, then creates.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.waap.NAMED
  - gcore.platform.waap_conditions.advanced_rules
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.waap_custom_rules
  - module: gcore.platform.waap_domain
"""

EXAMPLES = r"""
- name: Rate-limit the events API and block an old client on domain 1001
  gcore.platform.waap_advanced_rules:
    api_key: "{{ gcore_api_key }}"
    domain_id: 1001
    config:
      - name: Rate limit events
        action:
          block:
            status_code: 429
        source: request.rate_limit([], '.*events', 5, 200, [], [], '', 'ip')
      - name: Block legacy client
        description: The v1 mobile app is retired
        action:
          block: {}
        source: >-
          request.headers['user-agent'] == 'legacy-app/1.0'
          and request.path.startsWith('/api/')

- name: Export the domain's advanced rules
  gcore.platform.waap_advanced_rules:
    api_key: "{{ gcore_api_key }}"
    domain: shop.example.com  # domain 1001, by its name
    state: gathered
  register: advanced
"""

RETURN = r"""
advanced_rules:
  description: The domain's advanced rules as read last (listed again after a write), in the service's order.
  returned: success
  type: list
  elements: dict
  sample:
    - {id: 30001, name: Rate limit events, description: "", enabled: true, action: {block: {status_code: 429}}, phase: access,
       source: "request.rate_limit([], '.*events', 5, 200, [], [], '', 'ip')"}
changes:
  description:
    - What the run did, by rule name - only the writes the service accepted or the listing read afterwards confirmed.
      In check mode, what would be sent.
  returned: when O(state) is not V(gathered)
  type: dict
  sample: {created: [Block legacy client], updated: [], deleted: [], deleted_ids: []}
gathered:
  description: The domain's rules in the shape of O(config), in the service's order.
  returned: when O(state=gathered)
  type: list
  elements: dict
  sample:
    - {name: Rate limit events, description: "", enabled: true, action: {block: {status_code: 429}}, phase: access,
       source: "request.rate_limit([], '.*events', 5, 200, [], [], '', 'ip')"}
diff:
  description: The rules that change, as mappings from rule name to rule - as they are (C(before)) and as they will be (C(after)).
  returned: when O(state) is not V(gathered)
  type: dict
  sample:
    before: {}
    after: {Block legacy client: {name: Block legacy client, enabled: true, action: {block: {}}, phase: access,
                                  source: "request.headers['user-agent'] == 'legacy-app/1.0'"}}
"""

from ansible_collections.gcore.platform.plugins.module_utils._cel import check_source, descriptor_map, normalised_source
from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError, require
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._waap_rules import RULE_MEMBERS, RuleKind, WaapRuleSet
from ansible_collections.gcore.platform.plugins.module_utils._waap_tables import RULE_ACTIONS

DESCRIPTOR = "/waap/v1/advanced-rules/descriptor"
PHASES = ("access", "header_filter", "body_filter")
DEFAULT_PHASE = "access"


class AdvancedKind(RuleKind):
    """Advanced rules (docs/api_reference.md section 18.5): ``source`` (a CEL expression, ``_cel``) and ``phase`` instead
    of conditions; no bulk delete; the toggle for an ``enabled``-only change."""

    members = RULE_MEMBERS[:4] + (
        Member("source", same=lambda desired, current: normalised_source(desired) == normalised_source(current)),
        Member("phase", read=lambda record: record.get("phase") or DEFAULT_PHASE, created=DEFAULT_PHASE, reset=DEFAULT_PHASE),
    )
    required_to_create = ("action", "source")
    bulk, toggles = False, True

    def own_spec(self):
        return dict(source=dict(type="str"), phase=dict(type="str", choices=list(PHASES)))

    def check(self, rule, prefix, descriptor):
        source = rule.get("source")
        if source is None:
            return
        require(source.strip(), prefix + "source", "must hold an expression")
        try:
            check_source(source, descriptor)
        except ValidationError as exc:
            raise ValidationError("%ssource: %s" % (prefix, exc))

    def own(self, rule, body=False):
        return {"source": rule.get("source"), "phase": rule.get("phase") or DEFAULT_PHASE}


ADVANCED = AdvancedKind("advanced", RULE_ACTIONS)


class WaapAdvancedRules(WaapRuleSet):
    kind = ADVANCED
    named_domain = True

    def resolve(self):
        """The domain by its name, then the descriptor, read once, and every source checked against it before any write."""
        super().resolve()
        items = [item for item in self.params["config"] or [] if item.get("source") is not None]
        if items:
            descriptor = descriptor_map(self.client.get(DESCRIPTOR))
            for item in items:
                ADVANCED.check(item, "config[%d]." % self.index(item["name"]), descriptor)


def main():
    WaapAdvancedRules.main()


if __name__ == "__main__":
    main()
