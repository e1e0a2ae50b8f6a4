# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""The one flow under every idempotent module (``Flow``; one resource: ``_resource``): where its resource lives, how it
is read, and the one ``apply`` that sends a plan of writes (``_writes``), waits and recovers.

This module is internal to the collection: its interface may change at any time. Settings (tests/unit/test_declarations.py
keeps the tables true):

=============== =========================================================================================
setting         meaning
=============== =========================================================================================
noun            what the resource is called in messages ("custom rule")
title           the noun at the start of a sentence (default: the noun capitalised)
result_key      the result member holding the record (``router``) or the list (``custom_rules``)
scope           where the resource lives, for messages, filled from the parameters ("domain {domain_id}")
paths           ``{list, item, update, create, bulk_delete}`` templates, each filled from the parameters and ``{id}``
                (``_writes.request``: the defaults, and a template that starts with its method)
page_size       the page size of the listing
max_offset      the largest offset the listing serves (a warning when it is reached)
members         the managed members (``Member``, ``_members``)
required_to_create  the options a create needs (a ValidationError naming them otherwise)
asynchronous    writes answer ``{tasks}``, waited for through the run's one ``TaskWaiter`` (``tasks`` in the result)
lock            the record member naming the task that locks it (writes wait; a 409 is sent again)
changes         the shape of the result's ``changes`` (``_writes.changes_of``; None: none), filled from what the writes
                say: those planned in check mode, else those in the ledger (``_writes``), on a failure too
=============== =========================================================================================

Hooks (pure: no requests): ``gone(error)`` (an error that means "not there") and ``answered(write, answer)`` (what an
accepted write answered, seen once, right after it: one-time secrets are kept in the result here).
"""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.module_utils._base import GcoreModule
from ansible_collections.gcore.platform.plugins.module_utils._checks import Settled
from ansible_collections.gcore.platform.plugins.module_utils._client import ApiError, cap_warning
from ansible_collections.gcore.platform.plugins.module_utils._tasks import Replanned
from ansible_collections.gcore.platform.plugins.module_utils._writes import ACCEPTED, CONFLICT_RESENDS, GONE, UNSURE, Ledger, changes_of, request


class Flow(GcoreModule):
    noun = "resource"
    title = None
    result_key = "resource"
    scope = ""
    paths = {}
    page_size = 100
    max_offset = None
    members = ()
    required_to_create = ()
    asynchronous = False
    lock = None
    changes = None
    ledger = None

    # ---- hooks (pure) ------------------------------------------------------------------------
    def gone(self, error):
        return error.status == 404

    def answered(self, write, answer):
        """What an accepted ``write`` answered, seen once, right after it."""

    # ---- where it lives ----------------------------------------------------------------------
    def called(self):
        return self.title or self.noun.capitalize()

    def request(self, which, ident=None):
        return request(self.paths, which, self.params, ident)

    def path(self, which, ident=None):
        return self.request(which, ident)[1]

    def where(self):
        return self.scope.format(**self.params)

    def of_scope(self):
        return " of %s" % self.where() if self.scope else ""

    def listing(self, params=None):
        return self.pages(self.path("list"), params)

    def pages(self, path, query=None):
        """Every page of the listing at ``path`` (the resource's page size and offset cap)."""
        return self.client.paginate(path, query, page_size=self.page_size, max_offset=self.max_offset,
                                    on_cap=cap_warning(self.module.warn, "%s listing%s" % (self.noun, self.of_scope()), self.max_offset))

    def named(self, name, matches):
        return "%s %ss%s are named %r (ids %s)" % (len(matches), self.noun, self.of_scope(), name,
                                                   ", ".join(str(record.get("id")) for record in matches))

    def missing(self, values):
        return [option for option in self.required_to_create if values.get(option) is None]

    def read(self, ident=None):
        try:
            return self.client.get(self.path("item", ident))
        except ApiError as exc:
            if self.gone(exc):
                return None
            raise

    # ---- the one apply -----------------------------------------------------------------------
    def start(self):
        self.ledger, self.conflicts, self.kept = Ledger(), 0, {}  # the writes accepted, the 409 answers met, what parts read
        if self.asynchronous:
            self.result["tasks"] = []
        self.tell([])  # nothing yet: a failure before any write says so

    def tell(self, writes):
        if self.changes is not None:
            self.result["changes"] = changes_of(self.changes, writes)

    def apply(self, plan):
        """Send every write of ``plan`` in order (``Write``: what its ``then`` returns next); stop at the first failure."""
        plan = list(plan)
        while plan:
            write = plan.pop(0)
            if write.sends:
                write.sends(self.ledger)
                continue
            if write.prepare:
                write.prepare()
            try:
                accepted, value = self.attempt(write)
                plan[:0] = write.then(accepted, value) or []
            except Replanned as again:  # a set written after a conflict is computed again
                plan[:] = again.args[0]

    def attempt(self, write, wait=True):
        """Send ``write``; ``(True, (answer, finished tasks))`` when accepted, ``(False, state)`` when the state read again
        after an ambiguous failure confirms it (with a warning), ``(False, GONE)`` when a delete found nothing to delete. A
        409 (locked, ``CONFLICT_RESENDS``) applied nothing: the rest of the plan is planned again once the lock is gone
        (``Replanned``). A rejection, or an ambiguous failure the state does not confirm, raises (never sent twice).
        ``wait=False``: the caller waits for its tasks (a fleet: every member's together)."""
        try:
            answer = self.client.request(write.method, write.path, params=write.query, json=write.body, ok=ACCEPTED)
        except ApiError as exc:
            conflict = exc.status == 409 and write.locked is not None and self.lock and self.conflicts < min(CONFLICT_RESENDS, self.params["api_retries"])
            if conflict:
                self.conflicts += 1
                fresh = self.wait_unlocked(self.read(write.locked["id"]) or {})  # a failed read raises as itself: nothing was applied
                if fresh:
                    raise Replanned(self.replan(write, fresh))
            if write.kind == "delete" and (conflict or self.gone(exc)):
                return False, GONE
            if not exc.ambiguous:
                exc.rejected = write  # a clear rejection of this write: nothing of it was applied
                raise
            self.ledger.unconfirmed.append(write)  # a change until the state shows otherwise: it may have been applied
            done, state = self.tasks.confirm(write.reread, write.done, self.params.get("wait_timeout"))
            if not done:  # unknown: changed, "could not be confirmed", never sent again (a fleet names the member with it)
                exc.args = ("%s; %s" % (exc.message, UNSURE),)
                raise
            self.module.warn("%s; the state read afterwards shows the change was applied, so it was not sent again" % exc.message)
            self.ledger.confirmed.append(self.ledger.unconfirmed.pop())
            return False, state
        self.ledger.accepted.append(write)  # accepted: from now on ``changed`` is true, whatever fails later
        self.answered(write, answer)
        ids = list((answer or {}).get("tasks") or []) if self.asynchronous else []
        if ids:
            self.result["tasks"].extend(ids)
        return True, (answer, self.tasks.wait(ids, self.params["wait_timeout"]) if ids and wait and self.params.get("wait", True) else [])

    def wait_unlocked(self, record):
        """The record once no task locks it (``TaskWaiter.unlocked``; as it is when the resource has no lock)."""
        return self.tasks.unlocked(self.read, record, self.lock, self.called(), self.params["wait_timeout"]) if self.lock else record

    def outcome(self, msg, error):
        """Changed means sent: once a write was accepted or confirmed, ``changed`` stays true and ``msg`` says so."""
        label = getattr(getattr(error, "rejected", None), "label", None)
        msg = "%s: %s" % (label, msg) if label else msg
        if self.check_mode or self.ledger is None:
            return msg
        self.result["changed"] = bool(self.ledger)
        self.tell(self.ledger.writes())  # what was accepted before the failure
        unsure, said = (", ".join(repr(write) for write in writes if not write.sends) for writes in (self.ledger.unconfirmed, self.ledger.writes()))
        msg = "%s; %s: %s" % (msg, unsure, UNSURE) if unsure and UNSURE not in msg else msg
        if said and (getattr(error, "rejected", None) is not None or isinstance(error, Settled) or unsure):
            return "%s; the writes before it were accepted (%s)" % (msg, said)
        return "%s; the change was sent (%s accepted) but could not be confirmed" % (msg, said) if said else msg
