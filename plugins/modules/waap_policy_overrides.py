#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: waap_policy_overrides
short_description: A WAAP domain's policy overrides (exceptions to built-in policies) as a set, compared by name
version_added: 1.0.0
description:
  - Keeps the policy overrides of one WAAP domain as declared in O(config), with the states of the other set modules.
    An override tells the WAAP not to apply chosen detectors or rules (O(config[].targets)) to the requests that match
    its conditions - false-positive suppression kept in version control.
  - Every operation is on C(/waap/v1/domains/{domain_id}/default-rule-overrides). An update is one C(PATCH
    .../{policy_override_id}) with the members that differ (name, enabled, description, conditions). The service cannot
    change O(config[].target_type) or O(config[].targets) of an override, so a difference there replaces the override
    (a new id), shown in RV(changes.replaced) - the new one is created first and the old one deleted after it, so a
    failure between the two leaves the old override in force, never neither (the next run deletes the old one). A delete
    is one C(DELETE) per override (overrides have no bulk delete). Deletes first, then updates, then creates.
  - An override the service reports C(stale) (a target was deleted, disabled or became invalid) suppresses nothing until
    it is edited; the C(stale) member of each record in RV(policy_overrides) shows it.
author:
  - gcore.platform developers (@gcore-platform)
options:
  config:
    description:
      - The overrides; O(config[].name) identifies each (two items with one name fail naming both).
      - Required with every O(state) except V(gathered), where it must be left out; with O(state=deleted) only
        O(config[].name) is needed.
    type: list
    elements: dict
  state:
    description:
      - V(merged) creates the overrides missing by name and updates the members given that differ; V(replaced) also
        resets the members left out (description V(""), enabled V(true)); V(overridden) is V(replaced) and deletes every
        other override of the domain; V(deleted) deletes the overrides named; V(gathered) only reads and returns
        RV(gathered), valid O(config) that changes nothing when given back with V(overridden).
    type: str
    choices: [merged, replaced, overridden, deleted, gathered]
    default: merged
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.waap.NAMED
  - gcore.platform.waap_conditions.policy_overrides
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.waap_policies
  - module: gcore.platform.waap_custom_rules
  - module: gcore.platform.waap_advanced_rules
"""

EXAMPLES = r"""
- name: Let admins post SQL to the admin console of domain 1001 without the SQL-injection detector
  gcore.platform.waap_policy_overrides:
    api_key: "{{ gcore_api_key }}"
    domain_id: 1001
    config:
      - name: Admin SQL console
        description: Admins run queries here
        target_type: detector
        targets: [861, 862]
        conditions:
          - url:
              url: /admin/sql
          - ip_range:
              lower_bound: 192.0.2.0
              upper_bound: 192.0.2.255

- name: Export the domain's policy overrides
  gcore.platform.waap_policy_overrides:
    api_key: "{{ gcore_api_key }}"
    domain: shop.example.com  # domain 1001, by its name
    state: gathered
  register: overrides
"""

RETURN = r"""
policy_overrides:
  description: The domain's policy overrides as read last (listed again after a write), in the service's order.
  returned: success
  type: list
  elements: dict
  sample:
    - {id: 50001, domain_id: 1001, name: Admin SQL console, description: Admins run queries here, enabled: true,
       target_type: detector, stale: false,
       targets: [{id: 900861, ref: ID861, snapshot: {name: SQL injection}, detector_id: 861, rule_id: null}],
       conditions: [{url: {url: /admin/sql, match_type: Contains, negation: false}}],
       created_at: "2026-11-01T00:00:00Z", updated_at: "2026-11-01T00:00:00Z"}
changes:
  description:
    - What the run did, by override name - only the writes the service accepted or the listing read afterwards
      confirmed. In check mode, what would be sent.
  returned: when O(state) is not V(gathered)
  type: dict
  sample: {created: [Admin SQL console], updated: [], deleted: [], deleted_ids: [50000], replaced: [Allow admin SQL]}
  contains:
    created:
      description: The overrides created.
      type: list
      elements: str
      returned: always
    updated:
      description: The overrides changed by a C(PATCH).
      type: list
      elements: str
      returned: always
    deleted:
      description: The overrides deleted.
      type: list
      elements: str
      returned: always
    deleted_ids:
      description: The ids of the overrides deleted, the replaced ones' old ids included.
      type: list
      elements: int
      returned: always
    replaced:
      description:
        - The overrides created again and then deleted because their target type or targets changed (a new id); they
          are not in RV(changes.created) or RV(changes.deleted). Named once both writes took effect; a replacement whose
          delete failed is in RV(changes.created).
      type: list
      elements: str
      returned: always
gathered:
  description: The domain's overrides in the shape of O(config), in the service's order.
  returned: when O(state=gathered)
  type: list
  elements: dict
  sample:
    - {name: Admin SQL console, description: Admins run queries here, enabled: true, target_type: detector,
       targets: [861, 862], conditions: [{url: {url: /admin/sql, match_type: Contains, negation: false}}]}
diff:
  description: The overrides that change, as mappings from name to override - as they are (C(before)) and as they will be
    (C(after)).
  returned: when O(state) is not V(gathered)
  type: dict
  sample:
    before: {}
    after: {Admin SQL console: {name: Admin SQL console, enabled: true, target_type: detector, targets: [861, 862],
                                conditions: [{url: {url: /admin/sql, match_type: Contains, negation: false}}]}}
"""

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError, check_range, require
from ansible_collections.gcore.platform.plugins.module_utils._children import by_key
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._waap_rules import RULE_MEMBERS, V1, RuleChildren, RuleKind, WaapRuleSet
from ansible_collections.gcore.platform.plugins.module_utils._waap_tables import OVERRIDE_CONDITIONS, TARGET_TYPES

RULE_TARGETS = V1 + "policy-override-targets/owasp-top-threats"  # the rule ids a ``rule`` override may target


def target_ids(record):
    """The ids an override's ``targets`` link to (the one sent: ``detector_id`` or ``rule_id``), sorted, once each."""
    key = "rule_id" if record.get("target_type") == "rule" else "detector_id"
    return sorted(set(target.get(key) for target in record.get("targets") or [] if target.get(key) is not None))


class Overrides(RuleChildren):
    """Two overrides of a declared name, one holding the declared targets, are what a replacement interrupted before
    its delete left: the other one is deleted."""

    def planned(self, held, wanted, params):
        items, left = dict((item[self.key], item) for item in wanted), []
        for name, records in by_key(held, self.key).items() if self.mode(params) != "deleted" else ():
            kept = [record for record in records if name in items and not set(self.create_only) & set(self.differ(items[name], record, params))]
            if len(records) > 1 and len(kept) == 1:
                left += [record for record in records if record is not kept[0]]
        plan = super().planned([record for record in held if not any(record is gone for gone in left)], wanted, params)
        plan.deletes += left
        return plan


class OverrideKind(RuleKind):
    """An override (docs/api_reference.md section 18.4): no action; what it suppresses, ``target_type`` and ``targets``,
    which the update does not take: a difference replaces the override, the new one created before the old one is
    deleted (the service lets two share a name); every path on v1; one DELETE each."""

    members = RULE_MEMBERS[:3] + (Member("target_type"), Member("targets", read=target_ids, want=lambda value, record: sorted(set(value))),
                                  RULE_MEMBERS[-1])
    required_to_create = ("target_type", "targets", "conditions")
    bulk, updates, create_only, replace, children = False, V1, ("target_type", "targets"), "create first", Overrides

    def __init__(self):
        super().__init__("override", (), OVERRIDE_CONDITIONS)
        self.collection, self.noun, self.result_key = "default-rule-overrides", "policy override", "policy_overrides"

    def own_spec(self):
        return dict(target_type=dict(type="str", choices=list(TARGET_TYPES)), targets=dict(type="list", elements="int"), **super().own_spec())

    def validate(self, rule, prefix=""):
        require(rule.get("name") is None or rule["name"].strip(), prefix + "name", "must not be empty or only whitespace")
        require(rule.get("target_type") in (None,) + TARGET_TYPES, prefix + "target_type",
                "must be one of %s, not %r" % (", ".join(TARGET_TYPES), rule.get("target_type")))
        require(rule.get("targets") != [], prefix + "targets", "at least one detector or rule id is required")
        for index, ident in enumerate(rule.get("targets") or []):
            check_range("%stargets[%d]" % (prefix, index), ident, low=1)
        self.check(rule, prefix, None)

    def own(self, rule, body=False):
        """The targets as a create sends them (``target_ids``: the ids given) or as a config item holds them."""
        targets = {"target_ids": sorted(set(rule["targets"]))} if body else {"targets": target_ids(rule)}
        return dict(target_type=rule.get("target_type"), **targets, **super().own(rule, body))


OVERRIDE = OverrideKind()


class WaapPolicyOverrides(WaapRuleSet):
    kind = OVERRIDE
    named_domain = True

    def examine(self, record):
        """Before any write (check mode too): the ``rule`` targets of every override to create (a replacement's too) are
        rule ids the domain's OWASP Top Threats listing shows (read once, only then); detector ids have no listing."""
        super().examine(record)
        part, params = self.parts[0], self.params
        if part.mode(params) in ("deleted", "gathered"):
            return
        plan = part.planned(self.part_state(part, record), part.wanted(self), params)
        made = [(item, item) for item in plan.creates] + [(item, part.replacement(item, held, params)) for item, held, changes in plan.updates
                                                          if set(part.create_only) & set(changes)]
        wanted = [(item, made) for item, made in made if made.get("target_type") == "rule"]
        if not wanted:
            return
        known = set(target.get("id") for target in self.pages(RULE_TARGETS.format(**params)))
        for item, made in wanted:
            unknown = sorted(set(ident for ident in made["targets"] if ident not in known))
            if unknown:
                raise ValidationError("config[%d].targets: %s %s not among the rule ids the domain's OWASP Top Threats targets "
                                      "list (%s), which a target_type=rule override takes (nothing was sent)" % (
                                          self.index(item["name"]), ", ".join(str(ident) for ident in unknown),
                                          "is" if len(unknown) == 1 else "are", ", ".join(str(ident) for ident in sorted(known)) or "none"))


def main():
    WaapPolicyOverrides.main()


if __name__ == "__main__":
    main()
