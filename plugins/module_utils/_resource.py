# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""The one declarative flow of every idempotent gcore.platform module.

This module is internal to the collection: its interface may change at any time.

A module declares its resource kind as class attributes of a ``GcoreResourceModule`` subclass:

- ``paths``: ``{"list": ..., "item": ..., "update": ..., "bulk_delete": ...}`` templates filled from the
  module's parameters and ``{id}``; ``scope``: where the resource lives, for messages ("domain {domain_id}");
- identity: ``id_option`` and/or ``name_option`` (exact name over every page of ``paths["list"]``,
  filtered by ``name_filter``); neither: one record at ``paths["item"]``;
- ``members``: the managed members (``Member``: how a record shows it, what the option asks for, how the
  two compare, what is sent) and ``sets`` (``SetMember``: a list of sub-resources attached and detached);
- the bodies: ``create_body()`` and ``update_body(changes, record)``; ``create_method``/``update_method``;
- waits: ``asynchronous`` (writes answer ``{tasks}``, polled through the one ``TaskWaiter``),
  ``created_key`` (the task's ``created_resources`` member), ``lock`` (the record member naming the task
  that locks it: writes wait until it is clear and a 409 is sent again once it is).

``GcoreResourceModule.run`` owns find -> compare -> create/update/delete for one resource, and
``GcoreResourceModule.run_set`` the same for a list of resources compared by identity. Both own check
mode, diff, ``changed``, the ambiguity and not-found failures, "deleted meanwhile", the offset-cap warning
and the recovery after an ambiguous write (the state is read again, a write is never sent twice).
"""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.module_utils._base import GcoreModule, ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._client import ApiError
from ansible_collections.gcore.platform.plugins.module_utils._tasks import TaskTimeout

UNSET = object()
SET_STATES = ("merged", "replaced", "overridden", "deleted", "gathered")


def _same(desired, current):
    return desired == current


class Member:
    """One managed member of a resource.

    ``read(record)``: the member as a record shows it (the view, compared and shown in the diff);
    ``want(value, record)``: the view the option ``value`` asks for (``record``: the record as read, None when
    the resource is created); ``same(desired, current)``: whether the two views match; ``send(desired,
    current)``: the value sent for a difference. ``created``: the view on create when the option is left out
    (UNSET: not shown); ``reset``: the value a member left out gets when an item is replaced (UNSET: unmanaged).
    """

    def __init__(self, name, option=None, read=None, want=None, same=_same, send=None, created=UNSET, reset=UNSET):
        self.name = name
        self.option = option or name
        self.read = read or (lambda record: record.get(name))
        self.want = want or (lambda value, record: value)
        self.same = same
        self.send = send or (lambda desired, current: desired)
        self.created = created
        self.reset = reset


def differences(members, record, values):
    """``{member: value to send}`` for the members given in ``values`` (``{option: value}``) that differ.

    With ``values["__replace__"]`` a member left out takes its ``reset`` value (when it has one)."""
    changes = {}
    for member in members:
        value = values.get(member.option)
        if value is None and member.reset is not UNSET and values.get("__replace__"):
            value = member.reset
        if value is None:
            continue
        desired, current = member.want(value, record), member.read(record)
        if not member.same(desired, current):
            changes[member.name] = member.send(desired, current)
    return changes


def view(members, record):
    """The managed members of a record, as compared and shown in the diff."""
    return dict((member.name, member.read(record)) for member in members)


def created_view(members, values):
    """The managed members of a resource created from ``values``."""
    result = {}
    for member in members:
        value = values.get(member.option)
        if value is not None:
            result[member.name] = member.want(value, None)
        elif member.created is not UNSET:
            result[member.name] = member.created
    return result


class SetMember:
    """A list of sub-resources managed as a set (for example the subnets attached to a router).

    ``key``: the identity of an item; ``items(record)``: the items the record holds, as
    ``{key: ..., other members}`` dicts; ``same(desired, current)``: whether a held item satisfies a desired one
    (a held item that does not is detached and attached again); ``attach``/``detach``: ``(method, path template)``
    of the requests, whose bodies are ``attach_body(item)``/``detach_body(item)``.

    ``check(where, item)``: validates one item of the option (``where``: ``"interfaces[0]"``; raises
    ValidationError) and returns it in canonical form; the flow then refuses an identity given twice.
    ``in_create_body(item)``: whether the create body carries the item (the module's ``create_body`` puts it
    there); the others are attached once the resource exists, so creating with them needs ``wait: true``
    (``late``: what makes an item one of those, for the message: "an interface with an ip_address").
    """

    def __init__(self, name, key, items, attach, detach, attach_body=None, detach_body=None, same=None, option=None,
                 check=None, in_create_body=None, late="an item the create request cannot carry"):
        self.name = name
        self.option = option or name
        self.key = key
        self.items = items
        self.attach = attach
        self.detach = detach
        self.attach_body = attach_body or (lambda item: item)
        self.detach_body = detach_body or (lambda item: {key: item[key]})
        self.same = same or (lambda desired, current: all(current.get(k) == v for k, v in desired.items() if v is not None))
        self.check = check or (lambda where, item: item)
        self.in_create_body = in_create_body or (lambda item: False)
        self.late = late


def plan(held, wanted, key, same, remove_others=True):
    """Compare two lists by identity: ``(create, update, delete)`` as lists of (wanted, held) items."""
    held_by_key = dict((item[key], item) for item in held)
    wanted_keys = set(item[key] for item in wanted)
    create, update = [], []
    for item in wanted:
        current = held_by_key.get(item[key])
        if current is None:
            create.append(item)
        elif not same(item, current):
            update.append((item, current))
    delete = [item for item in held if item[key] not in wanted_keys] if remove_others else []
    return create, update, delete


def _diff_side(shown):
    if shown is None:
        return {"state": "absent"}
    return dict(shown, state="present")


class GcoreResourceModule(GcoreModule):
    """The flow; a subclass is a declaration (see the module docstring)."""

    noun = "resource"
    title = None  # "Custom rule"; defaults to the noun capitalised
    result_key = "resource"
    scope = ""
    paths = {}
    id_option = "id"
    name_option = "name"
    name_filter = "name"
    page_size = 100
    max_offset = None
    members = ()
    sets = ()
    required_to_create = ()
    create_method = "POST"
    update_method = "PATCH"
    create_ok = update_ok = delete_ok = (200, 201, 202, 204)
    read_after_update = True
    delete_returns = None  # what the result holds after a delete: None, "before" (the record) or "read" (read again)
    asynchronous = False
    created_key = None
    lock = None
    conflict_retries = 3  # 409 answers (locked) sent again once the lock is gone; never more than api_retries
    bulk_size = 100

    # ---- validation -------------------------------------------------------------------------
    def validate(self):
        """The common checks, then each set member's items: checked, made canonical, each identity once."""
        super().validate()
        for member in self.sets:
            items = self.params.get(member.option)
            if items is None:
                continue
            items[:] = [member.check("%s[%s]" % (member.option, index), item) for index, item in enumerate(items)]
            keys = [item[member.key] for item in items]
            twice = sorted(set(str(key) for key in keys if keys.count(key) > 1))
            if twice:
                raise ValidationError("%s: each item must have its own %s; given more than once: %s"
                                      % (member.option, member.key, ", ".join(twice)))

    # ---- declaration hooks (pure: no requests, no flow) --------------------------------------
    def exists(self, record):
        """Whether a record read counts as the resource being there."""
        return record is not None

    def gone(self, error):
        """Whether an API error means the resource is not there."""
        return error.status == 404

    def returned(self, record):
        """The record as the result shows it."""
        return record if record is not None and self.exists(record) else None

    def create_body(self):
        raise NotImplementedError

    def update_body(self, changes, record):
        return changes

    def shown(self, record):
        """The record as the diff shows it: its managed members."""
        return view(self.members, record)

    def report(self, record):
        """Warnings and deprecations about what the lookup found (``self.module.warn``/``deprecate``)."""

    # ---- paths and messages ------------------------------------------------------------------
    def path(self, which, ident=None):
        return self.paths[which].format(**dict(self.params, id=ident))

    def where(self):
        return self.scope.format(**self.params)

    def listing(self, params=None):
        return self.client.paginate(self.path("list"), params, page_size=self.page_size, max_offset=self.max_offset,
                                    on_cap=self.cap_warning("%s listing%s" % (self.noun, self.of_scope()), self.max_offset))

    def of_scope(self):
        return " of %s" % self.where() if self.scope else ""

    def named(self, name, matches):
        return "%s %ss%s are named %r (ids %s)" % (len(matches), self.noun, self.of_scope(), name,
                                                   ", ".join(str(record.get("id")) for record in matches))

    def ambiguous(self, name, matches):
        return "%s; give the id of the one to manage" % self.named(name, matches)

    # ---- reading -----------------------------------------------------------------------------
    def read(self, ident=None):
        try:
            return self.client.get(self.path("item", ident))
        except ApiError as exc:
            if self.gone(exc):
                return None
            raise

    def lookup(self):
        """The record by id, by exact name, or the one record; None when there is none."""
        params = self.params
        if self.id_option and params.get(self.id_option) is not None:
            return self.read(params[self.id_option])
        if self.name_option:
            name = params[self.name_option]
            matches = [record for record in self.listing({self.name_filter: name}) if record.get("name") == name]
            if len(matches) > 1:
                self.module.fail_json(msg=self.ambiguous(name, matches), **self.result)
            return matches[0] if matches else None
        return self.read()

    def wait_unlocked(self, record, deadline=None):
        """Wait while the record is locked by a task; return it as read last (None when it went away).

        The wait goes through the run's one ``TaskWaiter`` (its clock, its intervals)."""
        timeout = self.params["wait_timeout"]
        held = [record, False]  # the record as read last; whether to read it again before looking

        def unlocked():
            if held[1]:
                held[0] = self.read(held[0]["id"])
            held[1] = True
            return not (held[0] and held[0].get(self.lock))

        def timed_out():
            task = self.tasks.get(held[0][self.lock])
            return TaskTimeout("%s %s is locked by task %s, still %s after wait_timeout=%ss" % (
                self.title or self.noun.capitalize(), held[0]["id"], held[0][self.lock], task.get("state"), timeout), task)

        self.tasks.poll(unlocked, deadline or self.tasks.deadline(timeout), timed_out)
        return held[0]

    # ---- writing -----------------------------------------------------------------------------
    def send(self, method, path, body=None, ok=(200, 201, 202, 204), locked=None):
        """One write; returns the answer. ``locked``: the record whose lock a 409 (nothing applied) waits for
        before the write is sent again. UNSET: the resource went away while a DELETE waited for its lock.

        Every write the service accepts is counted: from then on ``changed`` is true, whatever fails later."""
        deadline = None
        resends = min(self.conflict_retries, self.params["api_retries"]) if locked is not None and self.lock else 0
        for attempt in range(resends + 1):
            try:
                answer = self.client.request(method, path, json=body, ok=ok)
                self.accepted.append("%s %s" % (method, path))
                return answer
            except ApiError as exc:
                if exc.status != 409 or attempt == resends:
                    raise
                deadline = deadline or self.tasks.deadline(self.params["wait_timeout"])
                if not self.wait_unlocked(self.read(locked["id"]) or {}, deadline):
                    if method == "DELETE":
                        return UNSET
                    raise
        return None  # not reached

    def task_ids(self, answer):
        ids = list((answer or {}).get("tasks") or []) if self.asynchronous else []
        self.result.setdefault("tasks", [])
        self.result["tasks"].extend(ids)
        return ids

    def recover(self, exc, done):
        """After an ambiguous failure (no answer, or a 5xx) read the state again instead of writing twice.

        Returns the record when the state shows the write took effect; raises ``exc`` otherwise."""
        if exc.status is not None and exc.status < 500:
            raise exc
        found = self.lookup()
        if not done(found):
            raise exc  # the state read again shows the write did not happen
        self.module.warn("%s; the state read afterwards shows the change was applied, so it was not sent again" % exc.message)
        if found is not None and self.lock and found.get(self.lock) and self.params.get("wait", True):
            self.result["tasks"] = self.result.get("tasks") or [found[self.lock]]
            found = self.wait_unlocked(found)
        return found

    def waiting(self):
        return not self.asynchronous or self.params.get("wait", True)

    def exists_after(self, found):
        return found is not None and self.exists(found)

    def do_create(self):
        path = self.path("create" if "create" in self.paths else "list")
        try:
            answer = self.send(self.create_method, path, self.create_body(), ok=self.create_ok)
        except ApiError as exc:
            found = self.recover(exc, self.exists_after)
            return self.apply_sets(found, None) if self.waiting() else found
        ids = self.task_ids(answer)
        if not self.asynchronous:
            return answer
        if not self.waiting():
            return None
        created = [ident for task in self.wait_for(ids) for ident in ((task.get("created_resources") or {}).get(self.created_key) or [])]
        return self.apply_sets(self.read(created[0]) if created else self.lookup(), None)

    def do_update(self, record, changes, set_plans):
        if changes:
            path = self.path("update" if "update" in self.paths else "item", record.get("id"))
            try:
                answer = self.send(self.update_method, path, self.update_body(changes, record), ok=self.update_ok, locked=record)
            except ApiError as exc:
                return self.recover(exc, lambda found: self.exists_after(found) and not any(self.changes(found)))
            ids = self.task_ids(answer)
            if not self.waiting() and not set_plans:
                return record  # not waited for: the record as read before the change
            self.wait_for(ids)
            record = self.read(record.get("id")) if self.read_after_update else answer
        return self.apply_sets(record, set_plans)

    def do_delete(self, record):
        """Delete; return the result record, or UNSET when the resource went away meanwhile."""
        try:
            answer = self.send("DELETE", self.path("item", record.get("id")), ok=self.delete_ok, locked=record)
        except ApiError as exc:
            if self.gone(exc):
                return UNSET
            found = self.recover(exc, lambda found: not self.exists_after(found))
            return record if self.delete_returns == "before" else found
        if answer is UNSET:
            return UNSET
        ids = self.task_ids(answer)
        if not self.waiting():
            return record
        self.wait_for(ids)
        if self.delete_returns == "read":
            return self.read(record.get("id"))
        return record if self.delete_returns == "before" else None

    # ---- sets of sub-resources (router interfaces) --------------------------------------------
    def set_plans(self, record):
        """``{set member: (create, update, delete)}`` for the set members given that differ."""
        plans = {}
        for member in self.sets:
            wanted = self.params.get(member.option)
            if wanted is None:
                continue
            held = member.items(record) if record is not None else []
            create, update, delete = plan(held, wanted, member.key, member.same)
            if create or update or delete:
                plans[member] = (create, update, delete)
        return plans

    def apply_sets(self, record, set_plans):
        """Attach and detach, waiting for the lock like a PATCH; return the record read again."""
        if record is None:
            return None
        set_plans = self.set_plans(record) if set_plans is None else set_plans
        if not set_plans:
            return record
        for member, (create, update, delete) in set_plans.items():
            detach = list(delete) + [current for _wanted, current in update]
            attach = list(create) + [wanted for wanted, _current in update]
            for item, (method, template), body in ([(item, member.detach, member.detach_body(item)) for item in detach]
                                                   + [(item, member.attach, member.attach_body(item)) for item in attach]):
                path = template.format(**dict(self.params, id=record["id"]))
                if self.lock and record.get(self.lock):
                    record = self.wait_unlocked(record)
                self.wait_for(self.task_ids(self.send(method, path, body, locked=record)))
                record = self.read(record["id"])
        return record

    def set_view(self, member, items):
        return sorted(items, key=lambda item: str(item.get(member.key)))

    # ---- comparing ---------------------------------------------------------------------------
    def changes(self, record):
        """(member changes, set plans) of the existing ``record`` against the options."""
        return differences(self.members, record, self.params), self.set_plans(record)

    def wanted_view(self):
        shown = created_view(self.members, self.params)
        for member in self.sets:
            if self.params.get(member.option) is not None:
                shown[member.name] = self.set_view(member, self.params[member.option])
        return shown

    def current_view(self, record):
        shown = self.shown(record)
        for member in self.sets:
            if self.params.get(member.option) is not None:
                shown[member.name] = self.set_view(member, member.items(record))
        return shown

    def check_create(self):
        params = self.params
        if self.id_option and params.get(self.id_option) is not None:
            self.module.fail_json(msg="%s %s does not exist in %s; an id cannot be created: leave %s out to create one by name"
                                  % (self.title or self.noun.capitalize(), params[self.id_option], self.where(),
                                     self.id_option), **self.result)
        missing = [option for option in self.required_to_create if params.get(option) is None]
        if missing:
            name = params.get(self.name_option or "")
            raise ValidationError("%s: required to create the %s %r" % (" and ".join(missing), self.noun, name))
        if not self.waiting():
            for member in self.sets:
                late = [index for index, item in enumerate(params.get(member.option) or []) if not member.in_create_body(item)]
                if late:
                    raise ValidationError(
                        "%s[%s]: %s is attached only once the %s exists, and a create with wait=false does not wait "
                        "for that; set wait=true, or create the %s first and attach it in a later run (nothing was sent)"
                        % (member.option, late[0], member.late, self.noun, self.noun))

    # ---- the flow ----------------------------------------------------------------------------
    def run(self):
        if self.set_option:
            return self.run_set()
        if self.asynchronous:
            self.result["tasks"] = []
        absent = self.params.get("state", "present") == "absent"
        record = self.lookup()
        self.report(record)
        exists = self.exists_after(record)
        changes, set_plans = self.changes(record) if exists and not absent else ({}, {})
        if exists and self.lock and record.get(self.lock) and not self.check_mode and (absent or changes or set_plans):
            record = self.wait_unlocked(record)  # settle first, then compare what the lock left
            exists = self.exists_after(record)
            changes, set_plans = self.changes(record) if exists and not absent else ({}, {})
        before = self.current_view(record) if exists else None
        result_record = record
        if absent:
            after = None
            if exists:
                self.result["changed"] = True
                if not self.check_mode:
                    result_record = self.do_delete(record)
                    if result_record is UNSET:  # deleted by someone else meanwhile: nothing changed here
                        self.result["changed"] = False
                        before, result_record = None, None
        elif not exists:
            self.check_create()
            after = self.wanted_view()
            self.result["changed"] = True
            if not self.check_mode:
                result_record = self.do_create()
        else:
            after = dict(before, **changes)
            for member in set_plans:
                after[member.name] = self.set_view(member, self.params[member.option])
            if changes or set_plans:
                self.result["changed"] = True
                if not self.check_mode:
                    result_record = self.do_update(record, changes, set_plans)
        self.result["diff"] = {"before": _diff_side(before), "after": _diff_side(after)}
        return {self.result_key: self.returned(result_record)}

    def execute(self):
        self.accepted = []  # the writes the service accepted in this run
        super().execute()

    def fail(self, msg, **extra):
        """Changed means sent: once a write was accepted, ``changed`` stays true and ``msg`` says so."""
        if not self.check_mode:
            self.result["changed"] = bool(self.accepted)
        if self.accepted:
            msg = "%s; the change was sent (%s accepted) but could not be confirmed" % (msg, ", ".join(self.accepted))
        super().fail(msg, **extra)

    # ---- a list of resources compared by identity (set modules) --------------------------------
    set_option = None  # the option holding the list of items ("config"): the module manages a set
    key = "name"

    def item_body(self, item):
        """The create body of one ``config`` item."""
        raise NotImplementedError

    def gathered_item(self, record):
        """One record in the ``config`` shape."""
        raise NotImplementedError

    def bulk_body(self, ids):
        raise NotImplementedError

    def run_set(self):
        """merged / replaced / overridden / deleted / gathered over one listing of every page."""
        state = self.params["state"]
        wanted = [dict(item) for item in self.params[self.set_option] or []]
        names = set(item[self.key] for item in wanted)
        twice = sorted(name for name in names if sum(1 for item in wanted if item[self.key] == name) > 1)
        if twice:
            raise ValidationError("%s: each %s must have its own %s; given more than once: %s"
                                  % (self.set_option, self.noun, self.key, ", ".join(map(str, twice))))
        held = list(self.listing())
        result = {}
        if state == "gathered":
            return {"gathered": [self.gathered_item(record) for record in held], self.result_key: held}
        by_name = {}
        for record in held:
            by_name.setdefault(record.get(self.key), []).append(record)
        clashes = [(name, records) for name, records in sorted(by_name.items()) if name in names and len(records) > 1]
        if clashes:
            self.module.fail_json(msg="; ".join(self.named(name, records) for name, records in clashes)
                                  + "; %s identifies a %s by its %s: rename or delete all but one" % (self.set_option, self.noun, self.key),
                                  **self.result)
        current = dict((name, records[0]) for name, records in by_name.items())
        create, update, delete = [], [], []
        if state == "deleted":
            delete = [current[name] for name in sorted(names) if name in current]
        else:
            replace = state in ("replaced", "overridden")
            for index, item in enumerate(wanted):
                record = current.get(item[self.key])
                if record is None:
                    missing = [option for option in self.required_to_create if item.get(option) is None]
                    if missing:
                        raise ValidationError("%s[%d]: %s required to create the %s %r (no %s of %s has that %s)" % (
                            self.set_option, index, " and ".join(missing), self.noun, item[self.key], self.noun, self.where(), self.key))
                    create.append(item)
                    continue
                changes = differences(self.members, record, dict(item, __replace__=replace))
                if changes:
                    update.append((item, record, changes))
            if state == "overridden":
                delete = [record for record in held if record.get(self.key) not in names]
        changes = {"created": sorted(item[self.key] for item in create),
                   "updated": sorted(item[self.key] for item, _record, _changes in update),
                   "deleted": sorted(str(record.get(self.key)) for record in delete)}
        before = [view(self.members, record) for _item, record, _changes in update] + [view(self.members, record) for record in delete]
        after = ([dict(view(self.members, record), **changed) for _item, record, changed in update]
                 + [created_view(self.members, item) for item in create])
        self.result["diff"] = {"before": sorted(before, key=self._by_key), "after": sorted(after, key=self._by_key)}
        self.result["changes"] = changes
        self.result["changed"] = bool(create or update or delete)
        if not self.result["changed"] or self.check_mode:
            result[self.result_key] = held
            return result
        for item in create:
            self.create_item(item)
        for _item, record, changed in update:
            path = self.path("item", record["id"])
            self.send(self.update_method, path, self.update_body(changed, record), ok=self.update_ok)
        ids = [record["id"] for record in delete]
        for start in range(0, len(ids), self.bulk_size):
            self.bulk_delete(ids[start:start + self.bulk_size])
        result[self.result_key] = list(self.listing())
        return result

    def bulk_delete(self, ids):
        """One bulk delete. A 404 means some of the ids were already gone: the listing is read again and what is
        left of them is deleted one by one (a 404 there: gone too)."""
        try:
            self.send("POST", self.path("bulk_delete"), self.bulk_body(ids))
            return
        except ApiError as exc:
            if not self.gone(exc):
                raise
        wanted = set(ids)
        for record in self.listing():
            if record.get("id") in wanted:
                try:
                    self.send("DELETE", self.path("item", record["id"]), ok=self.delete_ok)
                except ApiError as exc:
                    if not self.gone(exc):
                        raise

    def _by_key(self, item):
        return str(item.get(self.key))

    def create_item(self, item):
        """One create; after an ambiguous failure the listing is read again before anything is sent for it."""
        try:
            return self.send(self.create_method, self.path("list"), self.item_body(item), ok=self.create_ok)
        except ApiError as exc:
            if exc.status is not None and exc.status < 500:
                raise
            if not any(record.get(self.key) == item[self.key] for record in self.listing()):
                raise
            self.module.warn("%s; the listing read afterwards shows %r was created, so it was not sent again"
                             % (exc.message, item[self.key]))
            return None
