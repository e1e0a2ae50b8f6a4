# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""A WAAP domain's rules as a list compared by exact name (``waap_custom_rules``, ``waap_firewall_rules``), with the
states of Ansible's network resource modules (merged, replaced, overridden, deleted, gathered), on the one write core
(``_writes``).

This module is internal to the collection: its interface may change at any time.

One listing of every page first; the plan (``plan_list``) is deletes (bulk, at most ``BULK_SIZE`` ids a call),
then updates, then creates, so a list at its quota converges whenever the end state fits it. ``changed`` and
``changes`` come from the ledger (what the service accepted or the listing read again confirmed), never from
the plan, except in check mode, where they tell what would be sent.

``RuleList`` is the flow (its settings: ``Flow``'s table in ``_writes``); ``WaapRuleSet`` is the declaration both WAAP
list modules share.

Hooks (pure: no requests): ``item_body(item)``, ``gathered_item(record)`` (raises ``Refused`` for a record the module
cannot represent) and ``bulk_body(ids)``; ``update_body(changes, record)`` as for one resource.
"""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, ValidationError, check_range, require
from ansible_collections.gcore.platform.plugins.module_utils._waap import (
    CUSTOM_RULE_MEMBERS,
    MAX_OFFSET,
    PAGE_SIZE,
    STATES,
    custom_rule_body,
    gathered_rule,
    rule_set_argument_spec,
    validate_rule,
)
from ansible_collections.gcore.platform.plugins.module_utils._writes import GONE, Flow, Write, changes_of, created_view, differences, view

BULK_SIZE = 100  # ids in one bulk delete


class Plan:
    """What a list needs, by kind: ``deletes`` (records), ``updates`` ((item, record, changes)), ``creates`` (items);
    sent in that order (``RuleList.writes``)."""

    def __init__(self, deletes=(), updates=(), creates=()):
        self.deletes = list(deletes)
        self.updates = list(updates)
        self.creates = list(creates)

    def __bool__(self):
        return bool(self.deletes or self.updates or self.creates)


def by_name(records):
    """``{name: [records]}`` in one pass."""
    found = {}
    for record in records:
        found.setdefault(record.get("name"), []).append(record)
    return found


def plan_list(held, wanted, state, compare):
    """The plan that makes ``held`` (records) what ``wanted`` (items) asks under ``state``.

    ``compare(item, record)``: the changes an existing record needs (``{}``: none). Linear in both lists."""
    held_names = by_name(held)
    if state == "deleted":
        names = dict.fromkeys(item["name"] for item in wanted)
        return Plan(deletes=[record for name in names for record in held_names.get(name, [])])
    plan = Plan()
    for item in wanted:
        records = held_names.get(item["name"])
        if not records:
            plan.creates.append(item)
            continue
        changes = compare(item, records[0])
        if changes:
            plan.updates.append((item, records[0], changes))
    if state == "overridden":
        names = set(item["name"] for item in wanted)
        plan.deletes = [record for record in held if record.get("name") not in names]
    return plan


def check_names(items, noun="item", option="config"):
    """Two items with one name fail naming both indices and the name; returns warnings for names with leading or
    trailing whitespace (a different name to the service)."""
    first, twice, warnings = {}, [], []
    for index, item in enumerate(items):
        name = item["name"]
        if name in first:
            twice.append("%s[%s] and %s[%s] are both named %r" % (option, first[name], option, index, name))
        else:
            first[name] = index
        if isinstance(name, str) and name != name.strip():
            warnings.append("%s[%s].name %r has leading or trailing whitespace: the service keeps it, so it is another "
                            "name than %r" % (option, index, name, name.strip()))
    if twice:
        raise ValidationError("%s: each %s must have its own name; %s" % (option, noun, "; ".join(twice)))
    return warnings


class RuleList(Flow):
    """The flow of a list of rules compared by exact name; a subclass is a declaration (settings: ``Flow``'s table in
    ``_writes``)."""

    def item_body(self, item):
        """The create body of one ``config`` item."""
        raise NotImplementedError

    def update_body(self, changes, record):
        return changes

    def gathered_item(self, record):
        """One record in the ``config`` shape; raises Refused when the module cannot represent it."""
        raise NotImplementedError

    def bulk_body(self, ids):
        raise NotImplementedError

    def differ(self, item, record):
        """The changes the existing ``record`` needs to match ``item`` (``{}``: none)."""
        return differences(self.members, record, item, replace=self.params["state"] in ("replaced", "overridden"))

    def run(self):
        """merged / replaced / overridden / deleted / gathered over one listing of every page."""
        self.start()
        state = self.params["state"]
        wanted = [dict(item) for item in self.params["config"] or []]
        for warning in check_names(wanted, self.noun):
            self.module.warn(warning)
        held = list(self.listing())
        if state == "gathered":
            return {"gathered": [self.gathered_item(record) for record in held], self.result_key: held}
        if state != "deleted":
            names = set(item["name"] for item in wanted)
            clashes = [(name, records) for name, records in sorted(by_name(held).items(), key=lambda pair: str(pair[0]))
                       if name in names and len(records) > 1]
            if clashes:
                raise Refused("; ".join(self.named(name, records) for name, records in clashes)
                              + "; config identifies a %s by its name: rename or delete all but one" % self.noun)
        plan = plan_list(held, wanted, state, self.differ)
        index = dict((item["name"], position) for position, item in enumerate(wanted))
        for item in plan.creates:
            missing = self.missing(item)
            if missing:
                raise ValidationError("config[%d]: %s required to create the %s %r (no %s of %s has that name)" % (
                    index[item["name"]], " and ".join(missing), self.noun, item["name"], self.noun, self.where()))
        self.result["diff"] = self.diff(plan)
        writes = self.writes(plan, held)
        self.result["changes"] = changes_of(writes)  # in check mode: what would be sent
        self.result["changed"] = bool(writes)
        if not writes or self.check_mode:
            return {self.result_key: held}
        self.apply(writes)
        self.result["changes"] = self.ledger.changes()
        self.result["changed"] = bool(self.ledger)
        return {self.result_key: list(self.listing())}

    def diff(self, plan):
        """``{before: {name: rule}, after: {name: rule}}`` of the rules that change (a created rule is absent from
        before, a deleted one from after); a name several deleted rules hold is shown once per rule, with its id."""
        before, after = {}, {}
        names = by_name(plan.deletes)
        for record in plan.deletes:
            name = record.get("name")
            before[name if len(names[name]) == 1 else "%s (id %s)" % (name, record.get("id"))] = view(self.members, record)
        for item, record, changes in plan.updates:
            before[item["name"]] = view(self.members, record)
            after[item["name"]] = dict(view(self.members, record), **changes)
        for item in plan.creates:
            after[item["name"]] = created_view(self.members, item)
        return {"before": before, "after": after}

    def writes(self, plan, held):
        """The plan as writes, in order: deletes (bulk), then updates, then creates; each read again as the listing."""
        held_ids = set(record.get("id") for record in held)
        writes = []
        for start in range(0, len(plan.deletes), BULK_SIZE):
            records = plan.deletes[start:start + BULK_SIZE]
            writes.append(self.deleting([record["id"] for record in records], [record.get("name") for record in records],
                                        bulk=True))
        for item, record, changes in plan.updates:
            method, path = self.request("update", record["id"])
            writes.append(Write("update", method, path, self.update_body(changes, record), names=[item["name"]],
                                done=self.updated(item, record["id"]), reread=self.everything))
        for item in plan.creates:
            method, path = self.request("create")
            writes.append(Write("create", method, path, self.item_body(item), names=[item["name"]], reread=self.everything,
                                done=lambda listing, name=item["name"]: any(
                                    record.get("name") == name and record.get("id") not in held_ids for record in listing)))
        return writes

    def everything(self):
        return list(self.listing())

    def deleting(self, ids, names, bulk=False):
        """A delete of ``ids``; a bulk delete that finds some of them gone (404) is followed by one delete per id left."""
        method, path = ("POST", self.path("bulk_delete")) if bulk else self.request("delete", ids[0])
        return Write("delete", method, path, self.bulk_body(ids) if bulk else None, names=names, ids=ids,
                     reread=self.everything, done=lambda listing: not set(ids) & set(record.get("id") for record in listing),
                     then=lambda _accepted, value: self.left(dict(zip(ids, names))) if bulk and value is GONE else [])

    def left(self, wanted):
        """What is left of a bulk delete answered 404, one delete each (a 404 there: gone too)."""
        return [self.deleting([record["id"]], [wanted[record["id"]]]) for record in self.listing() if record.get("id") in wanted]

    def outcome(self, msg, error):
        if not self.check_mode and self.ledger is not None and "changes" in self.result:
            self.result["changes"] = self.ledger.changes()  # what was accepted before the failure
        return super().outcome(msg, error)

    def updated(self, item, ident):
        def done(listing):
            record = next((record for record in listing if record.get("id") == ident), None)
            return record is not None and not self.differ(item, record)
        return done


class WaapRuleSet(RuleList):
    """A domain's WAAP rules as a set compared by exact name (``waap_custom_rules``, ``waap_firewall_rules``).

    A module sets ``collection`` (the path segment), ``firewall``, ``noun`` and ``result_key``; the per-rule
    semantics are the single-rule module's: CUSTOM_RULE_MEMBERS, the same validation and bodies."""

    firewall = False
    collection = "custom-rules"
    module_kwargs = dict(required_if=[("state", state, ["config"]) for state in STATES if state != "gathered"])
    scope = "domain {domain_id}"
    page_size = PAGE_SIZE
    max_offset = MAX_OFFSET
    members = CUSTOM_RULE_MEMBERS
    required_to_create = ("action", "conditions")

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        root = "/waap/v1/domains/{domain_id}/%s" % cls.collection
        cls.paths = dict(list=root, item=root + "/{id}", bulk_delete=root + "/bulk_delete")
        cls.argument_spec = rule_set_argument_spec(cls.firewall)

    def validate(self):
        super().validate()
        params = self.params
        check_range("domain_id", params["domain_id"], low=1)
        config = params["config"]
        if params["state"] == "deleted":
            require(config, "config", "state=deleted needs the names of the rules to delete (config must not be empty)")
        if params["state"] == "gathered":
            require(not config, "config", "is not used with state=gathered (it reads the domain's rules)")
        for index, item in enumerate(config or []):
            validate_rule(item, "config[%d]." % index, self.firewall)

    def item_body(self, item):
        return custom_rule_body(item)

    def gathered_item(self, record):
        """The rule in the config shape, valid as config (the round trip): a rule the module cannot represent fails
        here, naming it, never in a later run that feeds it back."""
        item = gathered_rule(record)
        try:
            validate_rule(item, "", self.firewall)
        except ValidationError as exc:
            raise Refused("%s %r (id %s) of %s cannot be represented as a config item: %s"
                          % (self.noun.capitalize(), record.get("name"), record.get("id"), self.where(), exc))
        return item

    def bulk_body(self, ids):
        return {"rule_ids": ids}
