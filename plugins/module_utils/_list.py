# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""The flow of a list compared by exact name, with the states of Ansible's network resource modules (merged, replaced,
overridden, deleted, gathered), on the one write core (``_writes``). Its declaration: ``WaapRuleSet`` (``_waap_rules``).

This module is internal to the collection: its interface may change at any time.

One listing of every page; the plan (``plan_list``) is deletes (bulk, at most ``BULK_SIZE`` ids a call), then updates,
then creates, so a list at its quota converges whenever the end state fits it. ``changed`` and ``changes`` come from
the ledger, never from the plan, except in check mode, where they tell what would be sent. Settings: ``Flow``'s table.

Without a ``bulk_delete`` path, each record is deleted by its own request; with ``enable``/``disable`` paths, an update
that changes only ``enabled`` is sent there (no body); one that changes a ``create_only`` member is a replacement.

Hooks (pure: no requests, but ``resolve``, which may read): ``item_body(item)`` (the create body of one ``config``
item), ``gathered_item(record)`` (the record in the ``config`` shape; raises ``Refused`` for one the module cannot
represent), ``bulk_body(ids)``, ``resolve()`` (reads before the listing, as for one resource: what ``config`` must be
checked against) and ``update_body(changes, record)`` as for one resource.
"""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._members import UNSET, created_view, differences, view
from ansible_collections.gcore.platform.plugins.module_utils._flow import Flow
from ansible_collections.gcore.platform.plugins.module_utils._writes import GONE, Write, id_order

BULK_SIZE = 100  # ids in one bulk delete
CHANGES = {"created": str, "updated": str, "deleted": str, "deleted_ids": id_order}  # names, and the ids deleted


class Plan:
    """What a list needs, sent in this order: ``deletes`` (records), ``updates`` ((item, record, changes)), ``creates``
    (items)."""

    def __init__(self, deletes=(), updates=(), creates=()):
        self.deletes, self.updates, self.creates = list(deletes), list(updates), list(creates)

    def __bool__(self):
        return bool(self.deletes or self.updates or self.creates)


def by_name(records):
    found = {}
    for record in records:
        found.setdefault(record.get("name"), []).append(record)
    return found


def plan_list(held, wanted, state, compare):
    """The plan that makes ``held`` (records) what ``wanted`` (items) asks under ``state``; ``compare(item, record)``:
    the changes an existing record needs (``{}``: none). Linear in both lists."""
    held_names = by_name(held)
    if state == "deleted":
        names = dict.fromkeys(item["name"] for item in wanted)
        return Plan(deletes=[record for name in names for record in held_names.get(name, [])])
    plan = Plan()
    for item in wanted:
        records = held_names.get(item["name"])
        changes = compare(item, records[0]) if records else None
        if not records:
            plan.creates.append(item)
        elif changes:
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
        first.setdefault(name, index)
        if isinstance(name, str) and name != name.strip():
            warnings.append("%s[%s].name %r has leading or trailing whitespace: the service keeps it, so it is another "
                            "name than %r" % (option, index, name, name.strip()))
    if twice:
        raise ValidationError("%s: each %s must have its own name; %s" % (option, noun, "; ".join(twice)))
    return warnings


class RuleList(Flow):
    """The flow of a list compared by exact name; a subclass is a declaration (see the module docstring)."""

    create_only = ()

    @property
    def changes(self):
        """What the writes created, updated, deleted (``replaced``, with ``create_only``) by name, the ids deleted; none when gathered."""
        return None if self.params["state"] == "gathered" else dict(CHANGES, replaced=str) if self.create_only else CHANGES

    def item_body(self, item):
        raise NotImplementedError

    def gathered_item(self, record):
        raise NotImplementedError

    def bulk_body(self, ids):
        raise NotImplementedError

    def resolve(self):
        """Reads before the listing (what ``config`` must be checked against)."""

    def differ(self, item, record):
        """The changes the existing ``record`` needs to match ``item`` (``{}``: none)."""
        return differences(self.members, record, item, replace=self.params["state"] in ("replaced", "overridden"))

    def run(self):
        self.start()
        state = self.params["state"]
        wanted = [dict(item) for item in self.params["config"] or []]
        for warning in check_names(wanted, self.noun):
            self.module.warn(warning)
        self.resolve()
        held = self.everything()
        if state == "gathered":
            return {"gathered": [self.gathered_item(record) for record in held], self.result_key: held}
        names = set(item["name"] for item in wanted) if state != "deleted" else ()
        clashes = [self.named(name, records) for name, records in sorted(by_name(held).items(), key=lambda pair: str(pair[0]))
                   if name in names and len(records) > 1]
        if clashes:
            raise Refused("; ".join(clashes) + "; config identifies a %s by its name: rename or delete all but one" % self.noun)
        plan = plan_list(held, wanted, state, self.differ)
        index = dict((item["name"], position) for position, item in enumerate(wanted))
        for item in plan.creates:
            missing = self.missing(item)
            if missing:
                raise ValidationError("config[%d]: %s required to create the %s %r (no %s of %s has that name)" % (
                    index[item["name"]], " and ".join(missing), self.noun, item["name"], self.noun, self.where()))
        self.result["diff"] = self.diff(plan)
        writes = self.writes(plan, held)
        self.tell(writes)  # in check mode: what would be sent
        self.result["changed"] = bool(writes)
        if not writes or self.check_mode:
            return {self.result_key: held}
        self.apply(writes)
        self.tell(self.ledger.writes())
        self.result["changed"] = bool(self.ledger)
        return {self.result_key: self.everything()}

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
            after[item["name"]] = dict(before[item["name"]], **changes)
        for item in plan.creates:
            after[item["name"]] = created_view(self.members, item)
        return {"before": before, "after": after}

    def writes(self, plan, held):
        """The plan as writes: deletes (bulk), replaced records' deletes, updates, creates, replacements; each read again as the listing."""
        held_ids, replace = set(record.get("id") for record in held), set(self.create_only)
        replaced = [(item, record) for item, record, changes in plan.updates if replace & set(changes)]
        if "bulk_delete" in self.paths:
            writes = [self.deleting([record["id"] for record in chunk], [record.get("name") for record in chunk], bulk=True)
                      for chunk in (plan.deletes[start:start + BULK_SIZE] for start in range(0, len(plan.deletes), BULK_SIZE))]
        else:
            writes = [self.deleting([record["id"]], [record.get("name")]) for record in plan.deletes]
        for item, record in replaced:
            writes.append(self.deleting([record["id"]], [item["name"]]))
            writes[-1].said = {"replaced": [item["name"]], "deleted_ids": [record["id"]]}
        for item, record, changes in [update for update in plan.updates if not replace & set(update[2])]:
            toggle = ("enable" if changes.get("enabled") else "disable") if set(changes) == {"enabled"} else None
            method, path = self.request(toggle if toggle in self.paths else "update", record["id"])
            body = None if toggle in self.paths else self.update_body(changes, record)
            writes.append(Write("update", method, path, body, names=[item["name"]], reread=self.everything,
                                done=lambda listing, item=item, ident=record["id"]: any(
                                    found.get("id") == ident and not self.differ(item, found) for found in listing)))
        for item, record in [(item, None) for item in plan.creates] + replaced:
            method, path = self.request("create")
            writes.append(Write("create", method, path, self.item_body(self.replacement(item, record) if record else item),
                                names=[item["name"]], said={"replaced": [item["name"]]} if record else None, reread=self.everything,
                                done=lambda listing, name=item["name"]: any(
                                    found.get("name") == name and found.get("id") not in held_ids for found in listing)))
        return writes

    def replacement(self, item, record):
        """The item replacing ``record``: the record's members where the item leaves one out (reset ones reset if replacing)."""
        values = self.gathered_item(record)
        if self.params["state"] in ("replaced", "overridden"):
            values.update((member.option, member.reset) for member in self.members if member.reset is not UNSET)
        values.update((key, value) for key, value in item.items() if value is not None)
        return values

    def everything(self):
        return list(self.listing())

    def deleting(self, ids, names, bulk=False):
        """A delete of ``ids``; a bulk delete that finds some of them gone (404) is followed by one delete per id left."""
        method, path = ("POST", self.path("bulk_delete")) if bulk else self.request("delete", ids[0])
        wanted = dict(zip(ids, names))
        return Write("delete", method, path, self.bulk_body(ids) if bulk else None, names=names, ids=ids,
                     reread=self.everything, done=lambda listing: not any(found.get("id") in wanted for found in listing),
                     then=lambda _accepted, value: self.left(wanted) if bulk and value is GONE else [])

    def left(self, wanted):
        """What is left of a bulk delete answered 404, one delete each (a 404 there: gone too)."""
        return [self.deleting([found["id"]], [wanted[found["id"]]]) for found in self.everything() if found.get("id") in wanted]
