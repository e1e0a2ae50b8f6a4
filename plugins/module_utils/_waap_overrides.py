# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""A WAAP domain's policy overrides (``default-rule-overrides``, docs/api_reference.md section 18.4): their kind
(``OVERRIDE``) and the set flow's one addition, the replacement of an override whose targets change.

This module is internal to the collection: its interface may change at any time.

An override names what it suppresses (``target_type``, ``targets``: detector or rule ids) and where (``conditions``, of
``OVERRIDE_CONDITIONS``). Every operation is on v1; an update (``PATCH``, 200 with the record) takes ``name``,
``enabled``, ``description`` and ``conditions`` only, so an override whose ``target_type`` or ``targets`` differ is
replaced (the kind's ``create_only``, ``_children``): the service lets two overrides share a name, so the new one is
created first and the old one deleted after it (a failure between the two leaves the old one working, never
neither); ``replaced`` in ``changes`` once both writes took effect, the delete's id in ``deleted_ids`` too; a create
alone says ``created``. A replacement interrupted between its writes leaves two overrides of the name: the next run
finishes it (``Overrides.planned``). No bulk delete: one ``DELETE`` each.
"""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError, check_range, require, strip_none
from ansible_collections.gcore.platform.plugins.module_utils._children import Children, Held, by_key
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._waap import condition_argument_spec, normalise_conditions, validate_conditions
from ansible_collections.gcore.platform.plugins.module_utils._waap_rules import RULE_MEMBERS, V1, RuleKind, WaapRuleSet
from ansible_collections.gcore.platform.plugins.module_utils._waap_tables import OVERRIDE_CONDITIONS, TARGET_TYPES

CREATE_ONLY = ("target_type", "targets")  # not in the update body: a difference replaces the override
RULE_TARGETS = V1 + "policy-override-targets/owasp-top-threats"  # the rule ids a ``rule`` override may target


def target_ids(record):
    """The ids an override's ``targets`` link to (the one sent: ``detector_id`` or ``rule_id``), sorted, once each."""
    key = "rule_id" if record.get("target_type") == "rule" else "detector_id"
    return sorted(set(target.get(key) for target in record.get("targets") or [] if target.get(key) is not None))


class OverrideKind(RuleKind):
    """Policy overrides: no action; ``target_type`` and ``targets`` instead, which only a replacement changes; every path
    on v1; no bulk delete, no toggle."""

    members = (RULE_MEMBERS[0], RULE_MEMBERS[1], RULE_MEMBERS[2],
               Member("target_type"),
               Member("targets", read=target_ids, want=lambda value, record: sorted(set(value))),
               RULE_MEMBERS[4])
    required_to_create = ("target_type", "targets", "conditions")
    bulk = False
    create_only = CREATE_ONLY

    def __init__(self):
        super().__init__("override", (), OVERRIDE_CONDITIONS)
        self.collection, self.noun, self.result_key = "default-rule-overrides", "policy override", "policy_overrides"

    def paths(self):
        path = V1 + self.collection
        return dict(list=path, item=path + "/{id}")

    def argument_spec(self):
        return dict(
            name=dict(type="str"),
            description=dict(type="str"),
            enabled=dict(type="bool"),
            target_type=dict(type="str", choices=list(TARGET_TYPES)),
            targets=dict(type="list", elements="int"),
            conditions=dict(type="list", elements="dict", options=condition_argument_spec(self.conditions)),
        )

    def validate(self, rule, prefix=""):
        name = rule.get("name")
        if name is not None:
            require(name.strip(), prefix + "name", "must not be empty or only whitespace")
        if rule.get("target_type") is not None:
            require(rule["target_type"] in TARGET_TYPES, prefix + "target_type",
                    "must be one of %s, not %r" % (", ".join(TARGET_TYPES), rule["target_type"]))
        targets = rule.get("targets")
        if targets is not None:
            require(targets, prefix + "targets", "at least one detector or rule id is required")
            for index, ident in enumerate(targets):
                check_range("%stargets[%d]" % (prefix, index), ident, low=1)
        validate_conditions(prefix + "conditions", rule.get("conditions"), self.conditions, self.count, self.noun)

    def body(self, rule):
        body = {"name": rule["name"], "enabled": True if rule.get("enabled") is None else rule["enabled"],
                "target_type": rule["target_type"], "target_ids": sorted(set(rule["targets"])),
                "conditions": normalise_conditions(rule["conditions"])}
        if rule.get("description") is not None:
            body["description"] = rule["description"]
        return body

    def gathered(self, record):
        item = {"name": record.get("name")}
        if record.get("description") is not None:
            item["description"] = record["description"]
        item.update(enabled=record.get("enabled"), target_type=record.get("target_type"), targets=target_ids(record),
                    conditions=normalise_conditions(record.get("conditions")))
        return strip_none(item)


OVERRIDE = OverrideKind()


class Overrides(Children):
    """The rule set's children (``part``), replaced create first; two overrides of a declared name, one holding the
    declared targets, are what a replacement interrupted before its delete left: the other one is deleted."""

    def __init__(self, part):  # pylint: disable=super-init-not-called  # a copy of the rule set's own part
        self.__dict__.update(vars(part))
        self.replace = "create first"

    def planned(self, held, wanted, params):
        if self.mode(params) == "deleted":
            return super().planned(held, wanted, params)
        items, left = dict((item[self.key], item) for item in wanted), []
        for name, records in by_key(held, self.key).items():
            kept = [record for record in records if name in items and not set(self.create_only) & set(self.differ(items[name], record, params))]
            if len(records) > 1 and len(kept) == 1:
                left += [record for record in records if record is not kept[0]]
        rest = Held(record for record in held if not any(record is gone for gone in left))
        rest.again, rest.scope = getattr(held, "again", None), getattr(held, "scope", None)
        plan = super().planned(rest, wanted, params)
        plan.deletes += left
        return plan


class WaapOverrideSet(WaapRuleSet):
    """A domain's policy overrides as a set (``waap_policy_overrides``): the rule-set flow, with the targets
    create-only (a difference replaces the override, create first: ``Overrides``)."""

    kind = OVERRIDE

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.parts = (Overrides(cls.parts[0]),)

    def report(self, record):
        """Before any write (check mode too): the ``rule`` targets of every override to create (a replacement's too) are
        rule ids the domain's OWASP Top Threats listing shows (read once, only then); detector ids have no listing."""
        super().report(record)
        part, params = self.parts[0], self.params
        if part.mode(params) not in ("merged", "replaced", "overridden"):
            return
        plan = part.planned(self.part_state(part, record), part.wanted(self), params)
        made = [(item, item) for item in plan.creates] + [(item, part.replacement(item, held, params)) for item, held, changes in plan.updates
                                                          if set(CREATE_ONLY) & set(changes)]
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
