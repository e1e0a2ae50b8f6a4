# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""The flow of one resource: find -> compare -> create / update / delete, on the one write core (``_writes``).

This module is internal to the collection: its interface may change at any time.

A module declares its resource as class attributes (settings) of a ``GcoreResourceModule`` subclass; the flow
owns check mode, diff, ``changed``, the ambiguity and not-found failures, "deleted meanwhile", the offset-cap
warning and the recovery after an ambiguous write (the state is read again, a write is never sent twice).
A list of resources compared by name is ``GcoreResourceList`` (``_resource_list``); the sub-resources
attached to one record are ``Attachments`` (``_attachments``).

Settings (every one documented here; tests/unit/test_declarations.py keeps this table true: no setting
without a user, no setting missing from it):

=====================  =========================================================================================
setting                meaning
=====================  =========================================================================================
argument_spec          the module's own options (``GcoreModule``; the common ones are added)
cloud                  the module has ``project_id`` and ``region_id`` (``GcoreModule``)
waits                  the module has ``wait`` and ``wait_timeout`` (``GcoreModule``)
module_kwargs          more AnsibleModule arguments, such as ``required_if`` (``GcoreModule``)
noun                   what the resource is called in messages ("custom rule")
title                  the noun at the start of a sentence (default: the noun capitalised)
result_key             the result member holding the record (``router``) or the list (``custom_rules``)
scope                  where the resource lives, for messages, filled from the parameters ("domain {domain_id}")
paths                  ``{list, item, update, create, bulk_delete}`` path templates filled from the parameters and
                       ``{id}``; ``update``/``create`` default to ``item``/``list``
id_option              the option holding the id (None: no id)
name_option            the option holding the exact name, looked up over every page of ``list`` (None: no name);
                       neither: the one record at ``paths["item"]``
page_size              the page size of the listing
max_offset             the largest offset the listing serves (a warning when reached)
members                the managed members (``Member``)
attachments            the sub-resources attached and detached (``Attachments``; was ``sets``)
required_to_create     the options a create needs (a ValidationError naming them otherwise)
create_method          the create request's method (POST)
update_method          the update request's method (PATCH)
create_ok              the statuses a create answers (200, 201, 202, 204)
update_ok              the statuses an update answers
delete_ok              the statuses a delete answers
read_after_update      read the record after an update (False: the update answers it)
delete_returns         the result after a delete: None, "before" (the record) or "read" (read again)
asynchronous           writes answer ``{tasks}``, polled through the run's one ``TaskWaiter``
created_key            the finished create task's ``created_resources`` member holding the new id
lock                   the record member naming the task that locks it (writes wait; a 409 is sent again)
ready                  ``(member, good values, waiting values)``: with ``wait``, a record just created or updated is
                       read again while its member shows a waiting value; any other value or ``wait_timeout`` fails
update_after_create    after the create, one update of the members the created record does not have yet (the create
                       body cannot carry them); the create is never sent again
collection             the rules' path segment, ``custom-rules`` or ``firewall-rules`` (``WaapRuleSet``)
firewall               the rules are a domain's firewall rules: their fields and conditions (``WaapRuleSet``)
=====================  =========================================================================================

Hooks (pure: no requests): ``exists(record)``, ``gone(error)``, ``returned(record)``, ``list_query()`` (the query of the
listing searched by exact name: ``{name}`` by default), ``create_body()``,
``update_body(changes, record)``, ``shown(record)``, ``report(record)`` (warnings about what was found),
``answered(write, answer)`` (what an accepted write answered, before anything else is read: one-time secrets are
kept in the result here, so a later failure, such as the ``ready`` wait's, still returns them). A hook
that must stop the run raises ``ValidationError`` (bad input) or ``Refused``; ``GcoreModule.execute`` turns
every typed error into the result.
"""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.module_utils._base import GcoreModule, Refused, ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._client import ApiError
from ansible_collections.gcore.platform.plugins.module_utils._members import (  # noqa: F401  pylint: disable=unused-import
    UNSET,
    Member,
    created_view,
    differences,
    view,
)
from ansible_collections.gcore.platform.plugins.module_utils._writes import GONE, Write, Writer


def _diff_side(shown):
    if shown is None:
        return {"state": "absent"}
    return dict(shown, state="present")


class GcoreResourceModule(Writer, GcoreModule):
    """The flow of one resource; a subclass is a declaration (see the module docstring)."""

    noun = "resource"
    title = None
    result_key = "resource"
    scope = ""
    paths = {}
    id_option = "id"
    name_option = "name"
    page_size = 100
    max_offset = None
    members = ()
    attachments = ()
    required_to_create = ()
    create_method = "POST"
    update_method = "PATCH"
    create_ok = update_ok = delete_ok = (200, 201, 202, 204)
    read_after_update = True
    delete_returns = None
    asynchronous = False
    created_key = None
    lock = None
    ready = None
    update_after_create = False

    # ---- validation -------------------------------------------------------------------------
    def validate(self):
        """The common checks, then each attachment option's items: checked, canonical, each identity once."""
        super().validate()
        for member in self.attachments:
            items = self.params.get(member.option)
            if items is not None:
                items[:] = member.canonical(items)

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

    def list_query(self):
        """The query of the listing ``lookup`` searches by exact name (the service's filter; names are compared after)."""
        return {"name": self.params[self.name_option]}

    def create_body(self):
        raise NotImplementedError

    def update_body(self, changes, record):
        return changes

    def shown(self, record):
        """The record as the diff shows it: its managed members."""
        return view(self.members, record)

    def report(self, record):
        """Warnings and deprecations about what the lookup found (``self.module.warn``/``deprecate``)."""

    def answered(self, write, answer):
        """What an accepted ``write`` answered, seen once, right after it (the result may keep what cannot be read again)."""

    # ---- paths and messages ------------------------------------------------------------------
    def path(self, which, ident=None):
        template = self.paths.get(which) or self.paths[{"update": "item", "create": "list"}.get(which, which)]
        return template.format(**dict(self.params, id=ident))

    def where(self):
        return self.scope.format(**self.params)

    def of_scope(self):
        return " of %s" % self.where() if self.scope else ""

    def listing(self, params=None):
        return self.client.paginate(self.path("list"), params, page_size=self.page_size, max_offset=self.max_offset,
                                    on_cap=self.cap_warning("%s listing%s" % (self.noun, self.of_scope()), self.max_offset))

    def named(self, name, matches):
        return "%s %ss%s are named %r (ids %s)" % (len(matches), self.noun, self.of_scope(), name,
                                                   ", ".join(str(record.get("id")) for record in matches))

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
            matches = [record for record in self.listing(self.list_query()) if record.get("name") == name]
            if len(matches) > 1:
                raise Refused("%s; give the id of the one to manage" % self.named(name, matches))
            return matches[0] if matches else None
        return self.read()

    # ---- writing (through the write core) ----------------------------------------------------
    def waiting(self):
        return not self.asynchronous or self.params.get("wait", True)

    def exists_after(self, found):
        return found is not None and self.exists(found)

    def task_ids(self, answer):
        ids = list((answer or {}).get("tasks") or []) if self.asynchronous else []
        self.result.setdefault("tasks", [])
        self.result["tasks"].extend(ids)
        return ids

    def settled(self, found):
        """A record read again after an ambiguous write, once its lock (the write's task) is clear."""
        if found is not None and self.lock and found.get(self.lock) and self.params.get("wait", True):
            if not self.result.get("tasks"):
                self.result["tasks"] = [found[self.lock]]
            found = self.wait_unlocked(found)
        return found

    def write(self, write, reread):
        """One write of the flow: ``(True, answer)`` when accepted, ``(False, the record settled)`` when the state
        read again confirms it."""
        accepted, value = self.attempt(write, reread)
        if accepted:
            self.answered(write, value)
        return (True, value) if accepted else (False, self.settled(value))

    def do_create(self):
        """The create, then (settings) the wait until ready and the update of what the create body could not carry."""
        write = Write("create", self.create_method, self.path("create"), self.create_body(), ok=self.create_ok,
                      done=self.exists_after)
        accepted, record = self.write(write, self.lookup)
        if accepted and self.asynchronous:
            ids = self.task_ids(record)
            if not self.waiting():
                return None
            created = [ident for task in self.wait_for(ids) for ident in ((task.get("created_resources") or {}).get(self.created_key) or [])]
            record = self.read(created[0]) if created else self.lookup()
        elif not self.waiting():
            return record
        record = self.until_ready(record)
        changes = differences(self.members, record, self.params) if self.update_after_create and record is not None else {}
        return self.do_update(record, changes, None) if changes else self.attach(record, None)

    def do_update(self, record, changes, plans):
        if changes:
            write = Write("update", self.update_method, self.path("update", record.get("id")), self.update_body(changes, record),
                          ok=self.update_ok, locked=record,
                          done=lambda found: self.exists_after(found) and not differences(self.members, found, self.params))
            accepted, answer = self.write(write, self.lookup)
            if not accepted:
                return answer
            ids = self.task_ids(answer)
            if not self.waiting() and not plans:
                return record  # not waited for: the record as read before the change
            self.wait_for(ids)
            record = self.until_ready(self.read(record.get("id")) if self.read_after_update else answer)
        return self.attach(record, plans)

    def do_delete(self, record):
        """Delete; return the result record, or GONE when the resource went away meanwhile."""
        write = Write("delete", "DELETE", self.path("item", record.get("id")), ok=self.delete_ok, locked=record,
                      done=lambda found: not self.exists_after(found))
        try:
            accepted, answer = self.write(write, self.lookup)
        except ApiError as exc:
            if self.gone(exc):
                return GONE
            raise
        if answer is GONE or not accepted:
            return record if not accepted and self.delete_returns == "before" else answer
        ids = self.task_ids(answer)
        if not self.waiting():
            return record
        self.wait_for(ids)
        if self.delete_returns == "read":
            return self.read(record.get("id"))
        return record if self.delete_returns == "before" else None

    # ---- attachments (router interfaces) -----------------------------------------------------
    def plans(self, record):
        """``{attachments: writes}`` for the attachment options given that differ."""
        plans = {}
        for member in self.attachments:
            wanted = self.params.get(member.option)
            if wanted is not None:
                writes = member.plan(record, wanted, self.params)
                if writes:
                    plans[member] = writes
        return plans

    def attach(self, record, plans):
        """Attach and detach, waiting for the lock like a PATCH; return the record read again."""
        if record is None:
            return None
        plans = self.plans(record) if plans is None else plans
        for writes in plans.values():
            for write in writes:
                if self.lock and record.get(self.lock):
                    record = self.wait_unlocked(record)
                write.locked = record
                accepted, answer = self.write(write, lambda: self.read(record["id"]))
                if accepted:
                    self.wait_for(self.task_ids(answer))
                record = self.read(record["id"])
        return record

    # ---- comparing ---------------------------------------------------------------------------
    def changes(self, record):
        """(member changes, attachment plans) of the existing ``record`` against the options."""
        return differences(self.members, record, self.params), self.plans(record)

    def wanted_view(self, record=None):
        shown = created_view(self.members, self.params) if record is None else {}
        for member in self.attachments:
            if self.params.get(member.option) is not None:
                shown[member.name] = member.wanted_view(self.params[member.option], record)
        return shown

    def current_view(self, record):
        shown = self.shown(record)
        for member in self.attachments:
            if self.params.get(member.option) is not None:
                shown[member.name] = member.shown(list(member.held(record).values()))
        return shown

    def check_create(self):
        params = self.params
        if self.id_option and params.get(self.id_option) is not None:
            raise Refused("%s %s does not exist in %s; an id cannot be created: leave %s out to create one by name"
                          % (self.called(), params[self.id_option], self.where(), self.id_option))
        missing = [option for option in self.required_to_create if params.get(option) is None]
        if missing:
            name = params.get(self.name_option or "")
            raise ValidationError("%s: required to create the %s %r" % (" and ".join(missing), self.noun, name))
        if not self.waiting():
            for member in self.attachments:
                late = [index for index, item in enumerate(params.get(member.option) or []) if not member.in_create_body(item)]
                if late:
                    raise ValidationError(
                        "%s[%s]: %s is attached only once the %s exists, and a create with wait=false does not wait "
                        "for that; set wait=true, or create the %s first and attach it in a later run (nothing was sent)"
                        % (member.option, late[0], member.late, self.noun, self.noun))

    # ---- the flow ----------------------------------------------------------------------------
    def compare(self, record, absent):
        exists = self.exists_after(record)
        changes, plans = self.changes(record) if exists and not absent else ({}, {})
        return exists, changes, plans

    def run(self):
        self.start_ledger()
        if self.asynchronous:
            self.result["tasks"] = []
        absent = self.params.get("state", "present") == "absent"
        record = self.lookup()
        self.report(record)
        exists, changes, plans = self.compare(record, absent)
        if exists and self.lock and record.get(self.lock) and not self.check_mode and (absent or changes or plans):
            record = self.wait_unlocked(record)  # settle first, then compare what the lock left
            exists, changes, plans = self.compare(record, absent)
        before = self.current_view(record) if exists else None
        result_record = record
        if absent:
            after = None
            if exists and not self.check_mode:
                result_record = self.do_delete(record)
                if result_record is GONE:  # deleted by someone else meanwhile: nothing changed here
                    before, result_record = None, None
            self.result["changed"] = bool(self.ledger) if not self.check_mode else exists
        elif not exists:
            self.check_create()
            after = self.wanted_view()
            self.result["changed"] = True
            if not self.check_mode:
                result_record = self.do_create()
                self.result["changed"] = bool(self.ledger)
        else:
            after = dict(before, **changes)
            after.update(self.wanted_view(record))
            if changes or plans:
                self.result["changed"] = True
                if not self.check_mode:
                    result_record = self.do_update(record, changes, plans)
                    self.result["changed"] = bool(self.ledger)
        self.result["diff"] = {"before": _diff_side(before), "after": _diff_side(after)}
        return {self.result_key: self.returned(result_record)}

    def outcome(self, msg, error):
        """Changed means sent: once a write was accepted or confirmed, ``changed`` stays true and ``msg`` says so."""
        if not self.check_mode and getattr(self, "ledger", None) is not None:
            self.result["changed"] = bool(self.ledger)
            return self.failed(msg, error)
        return msg
