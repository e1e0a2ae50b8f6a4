# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""The one write core of every idempotent module: a plan is an ordered list of writes; applying it records
what the service accepted; an ambiguous failure is followed by a read, never by the same write again.

This module is internal to the collection: its interface may change at any time.

Words used everywhere in the flow:

- a **write** (``Write``): one request that changes state, of one ``kind``: ``create``, ``update``,
  ``delete``, ``attach`` or ``detach``; it knows how to tell, from the state read again, that it took
  effect (``done``);
- a **plan**: the writes in the order they are sent (``ORDER``: deletes, then updates, then creates; for
  attachments: attaches, then re-attaches, then detaches);
- the **ledger** (``Ledger``): the writes the service **accepted** (a 2xx) or that the state read
  afterwards **confirmed**; ``changed`` and ``changes`` come from it, never from the plan;
- **ambiguous**: a 5xx, a timeout or a dropped connection after the write was sent: the service may have
  applied it. A **rejection** (any other error, such as 400, 403 or 404) applied nothing.
"""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.module_utils._base import Refused
from ansible_collections.gcore.platform.plugins.module_utils._client import ApiError
from ansible_collections.gcore.platform.plugins.module_utils._tasks import TaskTimeout

KINDS = ("delete", "update", "create", "attach", "detach")
CONFLICT_RESENDS = 3  # 409 answers (locked) sent again once the lock is gone; never more than api_retries
GONE = object()  # what ``send`` answers when the resource went away while a delete waited for its lock


def sorted_ids(ids):
    """IDs in order: numbers by value (10 after 9), text by text."""
    return sorted(ids, key=lambda ident: (type(ident).__name__, ident))


def ambiguous(error):
    """Whether the service may have applied a write that failed with ``error`` (no answer, or a 5xx)."""
    return error.status is None or error.status >= 500


class Write:
    """One planned write.

    ``kind``: one of KINDS; ``method``, ``path``, ``body``, ``ok``: the request; ``names``: the names it
    changes, as ``changes`` reports them (a bulk delete: one per rule); ``ids``: the ids it deletes;
    ``done(state)``: whether the state read again shows it took effect (``state``: what the flow's ``reread``
    returns); ``locked``: the record whose lock a 409 waits for before the write is sent again.
    """

    def __init__(self, kind, method, path, body=None, ok=(200, 201, 202, 204), names=(), ids=(), done=None, locked=None):
        self.kind = kind
        self.method = method
        self.path = path
        self.body = body
        self.ok = ok
        self.names = list(names)
        self.ids = list(ids)
        self.done = done or (lambda state: False)
        self.locked = locked

    def __repr__(self):
        return "%s %s" % (self.method, self.path)


class Ledger:
    """The writes the service accepted, and those the state read afterwards confirmed."""

    def __init__(self):
        self.accepted = []
        self.confirmed = []

    def __bool__(self):
        return bool(self.accepted or self.confirmed)

    def record(self, write, confirmed=False):
        (self.confirmed if confirmed else self.accepted).append(write)

    def writes(self):
        return self.accepted + self.confirmed

    def changes(self):
        """``{created, updated, deleted: [names], deleted_ids: [ids]}`` of what happened, each list sorted."""
        done = self.writes()
        names = dict((kind, sorted(str(name) for write in done if write.kind == kind for name in write.names))
                     for kind in ("create", "update", "delete"))
        return {"created": names["create"], "updated": names["update"], "deleted": names["delete"],
                "deleted_ids": sorted_ids(ident for write in done for ident in write.ids)}

    def said(self):
        return ", ".join(repr(write) for write in self.writes())


class Writer:
    """Sends writes and records them; the flows (``_resource``, ``_resource_list``, ``_attachments``) share it.

    A flow provides ``client``, ``module``, ``params``, ``tasks``, ``read(id)`` and the ``lock`` and ``ready``
    settings; ``send`` a 409 (locked) waits for the lock through ``wait_unlocked``. Both waits on a record
    (``wait_unlocked``, ``until_ready``) go through the run's one ``TaskWaiter`` (its clock, its intervals)."""

    def called(self):
        return getattr(self, "title", None) or self.noun.capitalize()

    def wait_unlocked(self, record, deadline=None):
        """Wait while the record is locked by a task; return it as read last (None when it went away)."""
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
                self.called(), held[0]["id"], held[0][self.lock], task.get("state"), timeout), task)

        self.tasks.poll(unlocked, deadline or self.tasks.deadline(timeout), timed_out)
        return held[0]

    def until_ready(self, record):
        """With ``wait``, poll a record just written while its ``ready`` member (``(member, good values, waiting
        values)``) shows a waiting value; return it as read last. Any other value, the record going away, or
        ``wait_timeout`` raise ``Refused`` naming the id and the last value, with the record as read last in the result
        (what the write answered, such as one-time secrets, was already kept by the ``answered`` hook)."""
        ready = getattr(self, "ready", None)
        if not ready or record is None or not self.params.get("wait", True):
            return record
        member, good, waiting = tuple(ready)
        timeout = self.params["wait_timeout"]
        held = [record]

        def stop(why):
            return Refused("%s %s %s" % (self.called(), held[0].get("id"), why), **{self.result_key: self.returned(held[0])})

        def judged():
            value = held[0].get(member)
            if value not in good and value not in waiting:
                raise stop("is %s, not %s: the service did not finish setting it up" % (value, " or ".join(good)))
            return value in good

        def settled():
            if judged():
                return True
            found = self.read(held[0]["id"])
            if found is None:
                raise stop("went away while it was %s" % held[0].get(member))
            held[0] = found
            return judged()

        self.tasks.poll(settled, self.tasks.deadline(timeout),
                        lambda: stop("is still %s after wait_timeout=%ss" % (held[0].get(member), timeout)))
        return held[0]

    def start_ledger(self):
        self.ledger = Ledger()

    def send(self, write):
        """One write; returns the answer, or GONE when the resource went away while a delete waited for its lock.

        Every write the service accepts is recorded: from then on ``changed`` is true, whatever fails later."""
        deadline = None
        lock = getattr(self, "lock", None)
        resends = min(CONFLICT_RESENDS, self.params["api_retries"]) if write.locked is not None and lock else 0
        for attempt in range(resends + 1):
            try:
                answer = self.client.request(write.method, write.path, json=write.body, ok=write.ok)
            except ApiError as exc:
                if exc.status != 409 or attempt == resends:
                    raise
                deadline = deadline or self.tasks.deadline(self.params["wait_timeout"])
                if not self.wait_unlocked(self.read(write.locked["id"]) or {}, deadline):
                    if write.kind == "delete":
                        return GONE
                    raise
                continue
            self.ledger.record(write)
            return answer
        return None  # not reached

    def attempt(self, write, reread):
        """Send ``write``; after an ambiguous failure read the state again (``reread()``) instead of sending it twice.

        Returns ``(True, answer)`` when accepted, ``(False, state)`` when the state read again confirms the write
        took effect (with a warning); raises the error otherwise (a rejection, or an ambiguous failure the state
        does not confirm)."""
        try:
            return True, self.send(write)
        except ApiError as exc:
            if not ambiguous(exc):
                exc.rejected = write  # a clear rejection of this write: nothing of it was applied
                raise
            state = reread()
            if not write.done(state):
                raise  # the state read again shows the write did not happen
            self.module.warn("%s; the state read afterwards shows the change was applied, so it was not sent again" % exc.message)
            self.ledger.record(write, confirmed=True)
            return False, state

    def apply(self, plan, reread):
        """Send every write of ``plan`` in order through ``attempt``; stop at the first failure."""
        for write in plan:
            self.attempt(write, reread)

    def failed(self, msg, error=None):
        """The failure message: what was accepted before it (changed means sent), said once."""
        if not self.ledger:
            return msg
        if getattr(error, "rejected", None) is not None:
            return "%s; the writes before it were accepted (%s)" % (msg, self.ledger.said())
        return "%s; the change was sent (%s accepted) but could not be confirmed" % (msg, self.ledger.said())
