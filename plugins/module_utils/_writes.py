# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""A write, the ledger of the writes the service accepted, and the ``changes`` they say.

This module is internal to the collection: its interface may change at any time.

A **plan** is the writes in the order they are sent; the **ledger** holds the writes the service **accepted** (a 2xx)
or the state read afterwards **confirmed**: ``changed`` and ``changes`` come from it, never from the plan. A write that
failed **ambiguously** (``ApiError.ambiguous``) may have been applied: it is read back until it shows (``TaskWaiter.confirm``),
else it stays **unconfirmed**, a change ``changes`` do not name; a **rejection** (any other error) applied nothing.

What a write **says** (``said``) is what it changes, as the result's ``changes`` tells it: ``{key: [labels]}``, a key
naming a list of ``changes`` by its path (``"created"``, ``"listeners.created"``); by default, its kind's ``PAST``
naming its ``names``, and a delete's ``ids`` (``deleted_ids``).
"""

from __future__ import annotations

ACCEPTED = range(200, 300)  # any 2xx: the service accepted the write
CONFLICT_RESENDS = 3  # 409 answers (locked) sent again once the lock is gone; never more than api_retries
GONE = object()  # the state of a delete that found the resource already gone
METHODS = {"create": "POST", "update": "PATCH", "delete": "DELETE", "bulk_create": "POST", "bulk_delete": "POST"}
PAST = {"create": "created", "update": "updated", "delete": "deleted"}  # what a write of a kind says by default
UNSURE = "it may have been applied, but could not be confirmed (not sent again)"  # an unconfirmed write, as a message says it


class Write:
    """One planned write: the request (``method``, ``path``, ``query``, ``body``) of a ``kind`` (create, update, delete,
    attach, detach, extend, action: a power action, rebuild or resize); ``names``/``ids``: what it is about (a bulk
    delete: one per rule); ``said`` (the module docstring); ``reread()``: the state read again after an ambiguous
    failure, ``done(state)``: whether it shows the write took effect; ``locked``: the record whose lock a 409 waits for;
    ``prepare()``: done just before it is sent; ``then(accepted, value)``: what follows (``value``: ``(answer, finished
    tasks)`` when accepted, else the state read again, or ``GONE``), it may return more writes, sent next; ``label``: what
    the message of its rejection names first; ``body_of(state)``: a body made just before it is sent; ``sends(ledger)``:
    a write that sends itself (many flows' writes, ``_fleet.Rounds``: in the ledger once one wrote)."""

    sends = None

    def __init__(self, kind, method, path, body=None, names=(), ids=(), done=None, reread=None, locked=None, then=None,
                 prepare=None, query=None, said=None, label=None, body_of=None):
        self.kind, self.method, self.path, self.body, self.query = kind, method, path, body, query  # the request
        self.names, self.ids = list(names), list(ids)  # what it is about
        self.said = said if said is not None else dict(
            [(PAST[kind], self.names)] if kind in PAST else [], **({"deleted_ids": self.ids} if self.ids else {}))
        self.done, self.reread, self.locked = done or (lambda state: False), reread, locked  # telling what it did
        self.then, self.prepare, self.label, self.body_of = then or (lambda accepted, value: []), prepare, label, body_of  # after and before it

    def __repr__(self):
        query = "&".join("%s=%s" % item for item in (self.query or {}).items())
        return "%s %s%s" % (self.method, self.path, "?" + query if query else "")


def request(paths, which, params, ident=None):
    """``(method, path)`` of ``which``, a ``paths`` key or a write kind (``update``/``delete`` default to ``item``, ``create``
    to ``list``), filled from ``params`` and ``{id}``; the method: ``METHODS``, else GET, unless the template starts with one."""
    template = paths.get(which) or paths[{"update": "item", "create": "list", "delete": "item"}.get(which, which)]
    method, _sep, path = template.rpartition(" ")
    return method or METHODS.get(which, "GET"), path.format(**dict(params, id=ident))


def id_order(ident):
    """Ids sorted numbers by value, then text."""
    return type(ident).__name__, ident


def changes_of(shape, writes, prefix=""):
    """``shape`` (``{key: sort key function, or a nested shape}``, its keys under ``prefix``) filled with what ``writes``
    say: each list sorted, a label once per thing (a deleted one by its id, where said: two of one name, named twice)."""
    result = {}
    for key, order in shape.items():
        if isinstance(order, dict):
            result[key] = changes_of(order, writes, prefix + key + ".")
            continue
        things = []  # (label, the id of a deleted thing or None); a label may be a dict (a security group rule)
        for write in writes:
            said, ids = write.said.get(prefix + key, ()), write.said.get(prefix + "deleted_ids", ()) if key == "deleted" else ()
            things += [thing for thing in ((label, ids[at] if len(ids) == len(said) else None) for at, label in enumerate(said)) if thing not in things]
        result[key] = sorted((label for label, _ident in things), key=order)
    return result


class Ledger:
    """The writes the service accepted, those the state read afterwards confirmed, and the unconfirmed (not in ``writes``)."""

    def __init__(self):
        self.accepted, self.confirmed, self.unconfirmed = [], [], []

    def __bool__(self):
        return bool(self.accepted or self.confirmed or self.unconfirmed)

    def writes(self):
        return self.accepted + self.confirmed
