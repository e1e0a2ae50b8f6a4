# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""One resource as a declaration: find it, compare it, plan the writes that make it match, apply them (``_flow``).

This module is internal to the collection: its interface may change at any time.

The plan of a resource that exists is its update (the members that differ) and the writes of its parts; of one that
does not, its create, followed (once created and ready) by the plan of the created record: what the create body could
not carry; of one to delete, what its parts must undo first, then the delete. Settings beyond ``Flow``'s (``_flow``):

=================  ===========================================================================================
setting            meaning
=================  ===========================================================================================
id_option          the option holding the id (None: no id)
name_option        the option holding the exact name, looked up over every page of ``list`` (None: no name);
                   neither: the one record at ``paths["item"]``
created_key        the finished create task's ``created_resources`` member holding the new id
ready              ``(member, good values, waiting values)``: with ``wait``, a record just created or updated is
                   read again until ready (``TaskWaiter.ready``)
read_after_update  read the record after an update (False: the update answers it)
delete_returns     the result after a delete: None, "before" (the record) or "read" (read again)
parts              what the resource holds but its bodies cannot set, each written by requests of its own (``Part``,
                   ``_parts``; a child collection: ``Children``, ``_children``), planned after the update in this order
container          the record only holds the parts (a WAAP domain's rules): it is found, never created, changed or
                   deleted; the diff shows the children that change and the result the parts as read last
                   (``{result_key: ...}``); ``state: gathered`` returns them in the shape of their option
=================  ===========================================================================================

Hooks (pure: no requests, but ``resolve``, ``find`` and ``examine``, which may read): ``exists(record)`` (a record read
counts as the resource), ``returned(record)`` (as the result shows it), ``shown(record)`` (as the diff shows it: the
managed members), ``create_body()``, ``update_body(changes, record)`` (built when it is sent), ``list_query()``
(the listing's query for the exact name), ``find()`` (the record when neither an id nor a name is given),
``examine(record)``, ``resolve()``, ``delete_query(record)``, ``create_shown()`` (their docstrings below), and
``Flow``'s. A hook stops the run by raising ``ValidationError`` or ``Refused``.
"""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, Unfinished, ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._members import created_view, differences, merge_said, said_by, view
from ansible_collections.gcore.platform.plugins.module_utils._flow import Flow
from ansible_collections.gcore.platform.plugins.module_utils._writes import GONE, Write


class GcoreResourceModule(Flow):
    id_option = "id"
    name_option = "name"
    created_key = None
    ready = None
    read_after_update = True
    delete_returns = None
    parts = ()
    container = False
    record = None  # the record as read last
    kept = None  # what each part read, ``{part name: (record, what it read)}``

    def validate(self):
        super().validate()
        for part in self.parts:
            part.check(self)

    # ---- declaration hooks (the module docstring) ----------------------------------------------
    def exists(self, record):
        return record is not None

    def returned(self, record):
        if self.container:
            return self.part_state(self.parts[0], record)
        return record if self.exists_after(record) else None

    def create_body(self):
        raise NotImplementedError

    def update_body(self, changes, record):
        return changes

    def shown(self, record):
        return view(self.members, record)

    def examine(self, record):
        """Before anything is planned, the record found (None: none): what it refuses or warns of, the reads it calls for."""

    def delete_query(self, record):
        """The query of the DELETE request (None: none)."""

    def create_shown(self):
        """What a create makes beyond the members (the diff's after side of a create; None: nothing)."""

    def list_query(self):
        return {"name": self.params[self.name_option]}

    # ---- reading -----------------------------------------------------------------------------
    def part_state(self, part, record):
        """What ``part`` holds of ``record``: read once per record (``Part.fetch``) and kept until a write of the part."""
        if part.name not in self.kept or self.kept[part.name][0] is not record:
            self.kept[part.name] = (record, self.fetched(part, record))
        return self.kept[part.name][1]

    def fetched(self, part, record):
        return part.fetch(lambda path, query=None, one=False: self.client.get_or_none(path, query) if one else list(
            self.pages(path, query)), record, self.params)

    def exists_after(self, found):
        return found is not None and self.exists(found)

    def lookup(self):
        """The record by id, by exact name, or the one record; None when there is none."""
        if self.id_option and self.params.get(self.id_option) is not None:
            return self.read(self.params[self.id_option])
        if self.name_option:
            name = self.params[self.name_option]
            matches = [record for record in self.listing(self.list_query()) if record.get("name") == name]
            if len(matches) > 1:
                raise Refused("%s; give the id of the one to manage" % self.named(name, matches))
            return matches[0] if matches else None
        return self.find()

    def resolve(self):
        """Reads before the lookup: another resource an option names, turned into its id."""

    def find(self):
        return self.read()

    def waiting(self):
        return not self.asynchronous or self.params.get("wait", True)

    def reread(self, kind=None):
        """The state after an ambiguous write (of ``kind``), once settled: a write's task shows its effect when finished."""
        return self.settled(self.lookup())

    def settled(self, found):
        """A record read again after an ambiguous write, once its lock (the write's task) is clear."""
        if found is not None and self.lock and found.get(self.lock) and self.params.get("wait", True):
            self.result["tasks"] = self.result.get("tasks") or [found[self.lock]]
            found = self.wait_unlocked(found)
        return found

    def settle(self, found, absent):
        """Before a record is compared: its lock (a task, its creator's too: one that failed leaves nothing) and a status on
        its way to ready waited for (``wait``; else a warning, and the record as found); an error status fails, but for a delete."""
        if self.exists_after(found) and self.waiting() and not self.check_mode:
            found = self.wait_unlocked(found)
        if absent or not self.exists_after(found):
            return found
        member, _good, waiting = self.ready or (lambda record: None, (), ())
        value, lock = member(found) if callable(member) else found.get(member), self.lock and found.get(self.lock)
        if not self.waiting() and (value in waiting or lock):
            self.module.warn("%s %s is %s: with wait: false it is not waited for, and is returned as found" % (
                self.called(), found.get("id"), value if value in waiting else "locked by task %s" % lock))
        if str(value).lower().startswith("error"):
            raise Unfinished("%s %s is %s: the service could not finish it; delete it (state: absent) and create it again "
                             "(nothing was sent)" % (self.called(), found.get("id"), value), **{self.result_key: self.returned(found)})
        return self.until_ready(found) if value in waiting and not self.check_mode else found

    def until_ready(self, record):
        """With ``wait``, a record just written once ``ready`` (``TaskWaiter.ready``)."""
        if not self.ready or record is None or not self.params.get("wait", True):
            return record
        return self.tasks.ready(self.read, record, self.ready, self.called(), self.params["wait_timeout"],
                                lambda msg, last: Refused(msg, **{self.result_key: self.returned(last)}), broken=not self.absent)

    # ---- the plan ----------------------------------------------------------------------------
    def plan(self, record, absent):
        if not self.exists_after(record):
            return [] if absent else [self.creating()]
        if absent and not self.container:  # what must be detached first, then the delete (a container stays)
            return [self.part_write(part, write, record) for part in self.parts if part.before_delete
                    for write in part.plan(self.part_state(part, record), [], self.params)] + [self.deleting(record)]
        attached = [self.part_write(part, write, record) for part, wanted in self.managed()
                    for write in part.plan(self.part_state(part, record), wanted, self.params)]
        changes = differences(self.members, record, self.params)
        return ([self.updating(record, changes, bool(attached))] if changes else []) + attached

    def creating(self):
        self.check_create()
        said = said_by(self.members, None, self.params)
        for part, wanted in self.managed():
            merge_said(said, part.created_said(wanted))
        return Write("create", *self.request("create"), self.create_body(), done=self.exists_after, reread=lambda: self.reread("create"),
                     then=self.created, said=said)

    def created(self, accepted, value):
        """After the create: the new record (by the task's ``created_resources``), ready, and what its body could not carry."""
        if accepted:
            answer, finished = value
            tasked = self.asynchronous and "tasks" in (answer or {})  # a create may answer the record (no task)
            if not self.waiting():
                self.record = None if tasked else answer
                return []
            if tasked:
                ids = [ident for task in finished for ident in ((task.get("created_resources") or {}).get(self.created_key) or [])]
                answer = self.read(ids[0]) if ids else self.lookup()
            value = answer
        self.record = self.until_ready(value)
        return self.plan(self.record, False) if self.exists_after(self.record) else []

    def updating(self, record, changes, followed):
        def then(accepted, value):
            if not accepted:
                self.record = value
            elif self.waiting() or followed:  # not waited for and last: the record as read before the change
                self.record = self.until_ready(self.read(record.get("id")) if self.read_after_update else value[0])
        write = Write("update", *self.request("update", record.get("id")), reread=self.reread, locked=record, then=then,
                      said=said_by(self.members, record, self.params),
                      done=lambda found: self.exists_after(found) and not differences(self.members, found, self.params))
        write.prepare = lambda: setattr(write, "body", self.update_body(changes, record))  # built when it is sent
        return write

    def replan(self, write, fresh):
        """After a 409, once unlocked (``fresh``: the locked record read again): the rest of the plan, from the record."""
        self.record = fresh if write.locked.get("id") == self.record.get("id") else self.read(self.record.get("id"))
        return self.plan(self.record, self.absent)

    def part_write(self, part, write, record):
        """A write of a part. One of the part's own reads (no ``locked`` record: a child, a setting) is settled by what the
        part reads, which an accepted write's answer updates (``Part.answered``) or leaves to be read again; one about
        another record brings its own ``prepare`` (and ``reread``) and is sent as it is."""
        then = write.then
        if write.locked is None:
            def after(accepted, value):
                kept = self.kept.pop(part.name, None)
                state = part.answered(kept[1], write, value[0]) if accepted and kept and kept[0] is record else None
                if state is not None:
                    self.kept[part.name] = (record, state)
                return then(accepted, value)
            write.then, write.reread = after, write.reread or (lambda: self.fetched(part, record))
            return write
        if write.prepare:
            return write
        ident = write.locked["id"]

        def after(accepted, value):  # the record read again, then what the write itself does after (a replacement's said)
            self.record = self.read(ident)
            return then(accepted, value)

        def prepare():  # the record unlocked and ready again (a load balancer refuses a write while it is pending)
            self.record = self.until_ready(self.wait_unlocked(self.record))
            write.locked = self.record
            if write.body_of:  # made from what the part holds now (a pool names the listener created just before)
                write.body = write.body_of(self.part_state(part, self.record))
        write.reread, write.then, write.prepare = (lambda: self.fetched(part, self.settled(self.read(ident)))), after, prepare
        return write

    def deleting(self, record):
        def then(accepted, value):
            if value is GONE:  # deleted by someone else meanwhile: nothing changed here
                self.before = self.record = None
            elif not accepted:
                self.record = record if self.delete_returns == "before" else value
            elif self.waiting():
                self.record = self.read(record.get("id")) if self.delete_returns == "read" else record if self.delete_returns == "before" else None
        return Write("delete", *self.request("delete", record.get("id")), names=[record.get("name") or record.get("id")], reread=lambda: self.reread("delete"),
                     locked=record, then=then, query=self.delete_query(record), done=lambda found: not self.exists_after(found))

    # ---- comparing ---------------------------------------------------------------------------
    def managed(self):
        """``[(part, what it is asked to hold)]`` of the parts this run manages."""
        return [(part, wanted) for part, wanted in ((part, part.wanted(self)) for part in self.parts) if wanted is not None]

    def views(self, record, absent):
        """The diff's sides (None: absent): the managed members, and the parts managed, as held and as wanted."""
        exists = self.exists_after(record)
        parts = [(part.name, part.views(self.part_state(part, record) if exists or self.container else None, wanted, self.params))
                 for part, wanted in self.managed()]
        if self.container:  # what changes of its one part
            return parts[0][1]
        before = dict(self.shown(record), **dict((name, sides[0]) for name, sides in parts)) if exists else None
        if absent:
            return before, None
        after = dict(before, **differences(self.members, record, self.params, views=True)) if exists else dict(
            created_view(self.members, self.params), **(self.create_shown() or {}))
        return before, dict(after, **dict((name, sides[1]) for name, sides in parts))

    def check_create(self):
        params, missing = self.params, self.missing(self.params)
        if self.id_option and params.get(self.id_option) is not None:
            raise Refused("%s %s does not exist in %s; an id cannot be created: leave %s out to create one%s"
                          % (self.called(), params[self.id_option], self.where(), self.id_option, " by name" if self.name_option else ""))
        if missing:
            raise ValidationError("%s: required to create the %s %r" % (" and ".join(missing), self.noun, params.get(self.name_option or "")))

    # ---- the flow ----------------------------------------------------------------------------
    def run(self):
        self.start()
        absent = self.absent = self.params.get("state", "present") == "absent"
        self.resolve()
        record = self.settle(self.lookup(), absent)
        self.examine(record)
        plan = self.plan(record, absent)
        if plan and self.exists_after(record) and self.lock and record.get(self.lock) and not self.check_mode:
            record = self.wait_unlocked(record)  # settle first, then compare what the lock left
            plan = self.plan(record, absent)
        self.record = record
        if self.params.get("state") == "gathered":  # a read: no changes, no diff
            self.result.pop("changes", None)
            return dict(gathered=[item for part in self.parts for item in part.gathered_all(self.part_state(part, record), self.params)],
                        **{self.result_key: self.returned(record)})
        self.before, after = self.views(record, absent)
        if plan and not self.check_mode:
            self.apply(plan)
            if self.ledger and not absent and self.exists_after(self.record):
                self.record = self.until_ready(self.record)  # ready to use after the last write (a load balancer ACTIVE)
        self.result["changed"] = bool(plan if self.check_mode else self.ledger)
        self.tell(plan if self.check_mode else self.ledger.writes())
        self.result["diff"] = {"before": self.before, "after": after} if self.container else dict(
            (side, {"state": "absent"} if shown is None else dict(shown, state="present")) for side, shown in (("before", self.before), ("after", after)))
        return {self.result_key: self.returned(self.record)}
