# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""A child collection as a part (``Children``, ``_parts``): records with ids of their own under a parent, read once per
parent, compared by ``key`` (the exact name), planned as deletes (bulk on a ``bulk_delete`` path, ``BULK_SIZE`` ids a
call), updates, creates: a collection at its quota converges whenever the end state fits it. ``mode(params)``:
``merged``, ``replaced`` (members left out reset), ``overridden`` (undeclared children purged) or ``deleted``. A
``create_only`` difference replaces the child (``replace``: "create first" where both may exist at once, "delete first"
where they cannot; ``replaced`` in ``changes`` once both writes took effect) or fails (None). This module is internal
to the collection: its interface may change at any time."""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, ValidationError, check_names
from ansible_collections.gcore.platform.plugins.module_utils._members import UNSET, created_view, differences, view
from ansible_collections.gcore.platform.plugins.module_utils._parts import Part
from ansible_collections.gcore.platform.plugins.module_utils._writes import GONE, PAST, Write, id_order, request

BULK_SIZE = 100  # ids in one bulk delete
CHANGES = {"created": str, "updated": str, "deleted": str, "deleted_ids": id_order}  # names, and the ids deleted


class Plan:
    """``deletes`` (records), ``updates`` ((item, record, changes)), ``creates`` (items), sent in this order."""

    def __init__(self, deletes=(), updates=(), creates=()):
        self.deletes, self.updates, self.creates = list(deletes), list(updates), list(creates)


def by_key(records, key="name"):
    found = {}
    for record in records:
        found.setdefault(record.get(key), []).append(record)
    return found


def plan_children(held, wanted, mode, compare, key="name"):
    """The plan that makes ``held`` (records) what ``wanted`` (items) asks under ``mode``; ``compare(item, record)``:
    the changes an existing record needs (``{}``: none). Linear in both lists."""
    found, keys = by_key(held, key), dict.fromkeys(item[key] for item in wanted)
    if mode == "deleted":
        return Plan(deletes=[record for name in keys for record in found.get(name, [])])
    updates = [(item, found[item[key]][0], compare(item, found[item[key]][0])) for item in wanted if item[key] in found]
    return Plan([record for record in held if record.get(key) not in keys] if mode == "overridden" else [],
                [update for update in updates if update[2]], [item for item in wanted if item[key] not in found])


class Held(list):
    """The children of one parent as read: ``again()`` reads them again, ``scope`` (with ``parent_id``) fills the paths."""

    again = scope = parent = None  # ``parent``: the parent record they were read from


class Children(Part):
    """A child collection (the module docstring); not wanted (None) with ``state=absent``. Declared: ``name`` (the
    ``changes`` prefix; "" at the top), ``noun``, ``scope``, ``paths`` (``_writes.request``; ``{parent_id}``: the parent's
    id), ``members``, ``required``, ``key``, ``option``, ``mode``; hooks ``body(item)`` (a create's; an update sends the
    changes), ``gathered(record, params)``, ``bulk_body(ids)``; the messages ``needs`` (a create that lacks ``required``
    options) and ``fixed`` (a ``create_only`` member that differs where the child cannot be replaced)."""

    inside = None  # the parent record's member that holds the children (read with it, no listing of their own)
    locked = False  # each write waits for the parent's lock and status (``Write.locked``), the parent read again after it
    ident = "id"  # the member of a child its paths take as ``{id}``
    own = ()  # members written by requests of their own (a subclass's ``child_writes``): not sent nor awaited by a child's update
    order = None  # the writes child by child, in the groups named (``group``), each child's together (a replacement's two, its own)
    in_create = False  # the parent's create body carries the children (the create says them)
    every = listed = False  # the diff shows every child held and wanted, not only those that change; ``listed``: as a list
    child_of = staticmethod(lambda record: record)  # a child as read, as compared

    def __init__(self, name, noun, paths, members, scope="", key="name", option="config", required=(), create_only=(),
                 replace="delete first", mode=lambda params: params["state"], body=None, gathered=None, bulk_body=None):
        self.name, self.noun, self.paths, self.members, self.scope, self.key, self.option = name, noun, paths, members, scope, key, option
        self.required, self.create_only, self.replace, self.mode, self.body, self.gathered = required, create_only, replace, mode, body, gathered
        self.bulk_body, self.prefix = bulk_body, name + "." if name else ""
        self.changes = dict(CHANGES, replaced=str) if create_only else CHANGES  # the shape of what its writes say

    def check(self, module):
        for warning in check_names(module.params.get(self.option) or [], self.noun, self.option, self.key):
            module.module.warn(warning)

    def fetch(self, get, record, params):
        """Every child of the parent ``record``: ``inside`` it, or every page of their listing (``get(path)``)."""
        scope = dict(params, parent_id=record.get("id"))
        held = Held(map(self.child_of, (record.get(self.inside) or []) if self.inside else get(request(self.paths, "list", scope)[1])))
        held.again, held.scope, held.parent = None if self.inside else (lambda: self.fetch(get, record, params)), scope, record  # ``inside``: with it
        return held

    def wanted(self, module):  # not managed while the parent goes (``state=absent``)
        return None if module.params.get("state") == "absent" else super().wanted(module)

    def held(self, record):
        return dict((child.get(self.key), child) for child in record)

    def where(self, params):
        return " of %s" % self.scope.format(**params) if self.scope else ""

    def differ(self, item, record, params):  # ``plan_children``'s ``compare``
        return differences(self.members, record, item, replace=self.mode(params) in ("replaced", "overridden"))

    def planned(self, held, wanted, params):
        """The ``Plan`` of the children; a key several children hold, or a create missing a required option, fails."""
        keys = set(item[self.key] for item in wanted) if self.mode(params) != "deleted" else ()
        clashes = ["%s %ss%s are named %r (ids %s)" % (len(records), self.noun, self.where(params), name, ", ".join(str(found.get("id")) for found in records))
                   for name, records in sorted(by_key(held, self.key).items(), key=lambda pair: str(pair[0])) if name in keys and len(records) > 1]
        if clashes:
            raise Refused("; ".join(clashes) + "; %s identifies a %s by its %s: rename or delete all but one" % (self.option, self.noun, self.key))
        plan = plan_children(held, wanted, self.mode(params), lambda item, record: self.differ(item, record, params), self.key)
        index = dict((item[self.key], position) for position, item in enumerate(wanted))
        for item in plan.creates:
            missing = [option for option in self.required if item.get(option) is None]
            if missing:
                raise ValidationError(self.needs(index[item[self.key]], missing, item, params))
        for item, record, changes in plan.updates if self.replace is None else ():
            for member in [member for member in self.create_only if member in changes]:
                raise ValidationError(self.fixed(index[item[self.key]], member, item, record, params))
        return plan

    def needs(self, index, missing, item, params):
        return "%s[%d]: %s required to create the %s %r (no %s%s has that name)" % (
            self.option, index, " and ".join(missing), self.noun, item[self.key], self.noun, self.where(params))

    def fixed(self, index, member, item, record, params):
        return "%s[%d].%s: %s %s cannot change it; delete it and create it again (nothing was sent)" % (
            self.option, index, member, self.noun, record.get("id"))

    def views(self, state, wanted, params):
        """``(before, after)``: ``{key: child}`` of the children that change (a created child absent from before, a
        deleted one from after); a key several deleted children hold is shown once per child, with its id."""
        if self.every:
            return self.every_view(state or [], wanted, params)
        plan = self.planned(state or [], wanted, params)  # none held: the parent is created
        before, after, keys = {}, {}, by_key(plan.deletes, self.key)
        for record in plan.deletes:
            name = record.get(self.key)
            before[name if len(keys[name]) == 1 else "%s (id %s)" % (name, record.get("id"))] = self.shown_child(record)
        for item, record, changes in plan.updates:
            before[item[self.key]] = self.shown_child(record)
            after[item[self.key]] = dict(before[item[self.key]], **changes)
        after.update((item[self.key], self.wanted_child(item, None, params)) for item in plan.creates)
        return before, after

    def every_view(self, held, wanted, params):
        gone, records = set(id(record) for record in self.planned(held, wanted, params).deletes), by_key(held, self.key)
        before = dict((record.get(self.key), self.shown_child(record)) for record in held)
        after = dict((record.get(self.key), self.shown_child(record)) for record in held if id(record) not in gone)
        after.update((item[self.key], self.wanted_child(item, (records.get(item[self.key]) or [None])[0], params)) for item in wanted)
        return self.diffed(before), self.diffed(after)

    def shown_child(self, record):  # the diff's views of a child held, and of one wanted
        return view(self.members, record)

    def wanted_child(self, item, record, params):  # ``record`` None: created
        return created_view(self.members, item) if record is None else dict(view(self.members, record), **differences(
            self.members, record, item, views=True))

    def diffed(self, children):  # ``{key: view}`` in the order of the keys; ``listed``: the views alone, in that order
        return [children[key] for key in sorted(children, key=str)] if self.listed else dict((key, children[key]) for key in sorted(children, key=str))

    def created_said(self, wanted):
        return self.says("create", [item[self.key] for item in wanted]) if self.in_create else {}

    def gathered_all(self, held, params):
        return [self.gathered(record, params) for record in held]

    def plan(self, held, wanted, params):  # pylint: disable=arguments-renamed  # a part's state: the children held
        plan = self.planned(held, wanted, params)
        writes = [write for group in self.order for write in self.group(group, plan, held, params)] if self.order else self.writes(plan, held, params)
        for write in writes if self.locked else ():
            write.locked = held.parent
        return writes

    def group(self, name, plan, held, params):
        """The writes of one group of ``order``: the ``deletes``, or each of the ``updates`` or ``creates`` (``child_writes``); a subclass adds groups."""
        if name == "deletes":
            return self.writes(Plan(deletes=plan.deletes), held, params)
        return [write for child in (plan.updates if name == "updates" else [(item, None, {}) for item in plan.creates])
                for write in self.child_writes(*child, held=held, params=params)]

    def child_writes(self, item, record, changes, held, params):
        """One child's create (``record`` None) or update of the ``changes`` that are not ``own``."""
        rest = dict((member, value) for member, value in changes.items() if member not in self.own)
        return self.writes(Plan(creates=[item]) if record is None else Plan(updates=[(item, record, rest)] if rest else []), held, params)

    def writes(self, plan, held, params):
        params, held_ids, create_only = held.scope or params, set(record.get("id") for record in held), set(self.create_only)
        size = BULK_SIZE if "bulk_delete" in self.paths else 1
        writes = [self.deleting(held, params, plan.deletes[start:start + size], bulk=size > 1) for start in range(0, len(plan.deletes), size)]
        pairs = [(self.deleting(held, params, [record]), self.creating(held, params, item, record, held_ids))
                 for item, record, changes in plan.updates if create_only & set(changes)]
        for pair in pairs:
            self.pair(*(pair if self.replace == "delete first" else reversed(pair)))
        if self.replace == "delete first":
            writes += [delete for delete, _create in pairs]
        for item, record, changes in [update for update in plan.updates if not create_only & set(update[2])]:
            writes.append(Write("update", *request(self.paths, "update", params, record[self.ident]), changes, names=[item[self.key]],
                                said=self.says("update", [item[self.key]]), reread=held.again, done=lambda listing, item=item, ident=record[self.ident]: any(
                                    found.get(self.ident) == ident and not set(self.differ(item, found, params)) - set(self.own) for found in listing)))
        writes += [self.creating(held, params, item, None, held_ids) for item in plan.creates] + [create for _delete, create in pairs]
        return writes + ([delete for delete, _create in pairs] if self.replace == "create first" else [])

    def says(self, kind, names, ids=()):  # ``kind``: a write kind, or ``replaced``
        return dict([(self.prefix + PAST.get(kind, kind), list(names))], **({self.prefix + "deleted_ids": list(ids)} if ids else {}))

    def pair(self, first, second):
        """A replacement's two writes, sent in this order (check mode: both say ``replaced``): once the first took
        effect it says what it did alone, until the second does too."""
        both = self.says("replaced", first.names, first.ids or second.ids)
        alone, first.said, second.said = self.says(first.kind, first.names, first.ids), both, both
        first.then = lambda _accepted, value: setattr(first, "said", both if value is GONE else alone)
        second.then = lambda _accepted, _value: setattr(first, "said", both)

    def creating(self, held, params, item, record, held_ids):
        return Write("create", *request(self.paths, "create", params), self.item_body(self.replacement(item, record, params) if record else item, params),
                     names=[item[self.key]], said=self.says("create", [item[self.key]]), reread=held.again,
                     done=lambda listing, name=item[self.key]: any(found.get(self.key) == name and found.get("id") not in held_ids for found in listing))

    def item_body(self, item, params):
        return self.body(item)

    def replacement(self, item, record, params):
        """The item replacing ``record``: the record's members where the item leaves one out (reset ones reset if replacing)."""
        values = self.gathered(record, params)
        if self.mode(params) in ("replaced", "overridden"):
            values.update((member.option, member.reset) for member in self.members if member.reset is not UNSET)
        values.update((key, value) for key, value in item.items() if value is not None)
        return values

    def deleting(self, held, params, records, bulk=False):
        """A delete of ``records``; a bulk delete that finds some of them gone (404) is followed by one delete per record left."""
        ids, names = [record[self.ident] for record in records], [record.get(self.key) for record in records]
        method, path = request(self.paths, "bulk_delete" if bulk else "delete", params, ids[0])
        wanted = dict(zip(ids, records))

        def left(_accepted, value):
            return [self.deleting(held, params, [wanted[found[self.ident]]]) for found in held.again()
                    if found.get(self.ident) in wanted] if bulk and value is GONE else []
        return Write("delete", method, path, self.bulk_body(ids) if bulk else None, names=names, ids=ids, said=self.says("delete", names, ids),
                     reread=held.again, done=lambda listing: not any(found.get(self.ident) in wanted for found in listing), then=left)
