# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""The one waiter: asynchronous cloud tasks, a record while it is locked or not ready (``watch``), and many flows' writes
sent in rounds, their tasks waited for together (``apply_together``).

Many tasks, one poll: a round of polls for more than one task reads the task listing once (``GET /cloud/v1/tasks``,
filtered by the project and region of the run's tasks and by the creation time of the first task the run waited for,
oldest first, every page), not each task. The scope comes from the first task the run reads by itself (its record
names its project, region and creation time, on the service's clock): until then, and for a task the listing does not
show, a task is read by its id. A listing the service refuses is not asked for again in the run.

This module is internal to the collection: its interface may change at any time.
"""

from __future__ import annotations

import time

from ansible_collections.gcore.platform.plugins.module_utils._client import ApiError

TASK_PATHS = ("/cloud/v1/tasks/%s", "/v1/tasks/%s")
TASK_LIST = "/cloud/v1/tasks"
TASK_PAGE = 1000  # the largest page the listing serves
FIRST_INTERVAL = 0.5
MAX_INTERVAL = 5.0
INTERVAL_GROWTH = 0.08  # the interval is this share of the time waited so far
SETTLE_TIMEOUT = 10  # seconds an ambiguous write is read back for in a module without wait_timeout (a synchronous API)


class TaskError(Exception):
    """Base of the typed task failures; carries the task record."""

    def __init__(self, message, task):
        super().__init__(message)
        self.task = task


class TaskFailed(TaskError):
    """A task ended in ERROR."""


class TaskTimeout(TaskError):
    """A task did not end within wait_timeout."""


class Replanned(Exception):
    """A write met a 409 and the lock was waited for: ``args[0]``, the writes planned again, replace the rest of the plan."""


class Due(Exception):
    """The deadline of ``wait_each`` passed (caught there)."""


def poll_interval(elapsed):
    """Short at first (0.5 s), growing with the time waited, capped at a few seconds."""
    return min(max(FIRST_INTERVAL, elapsed * INTERVAL_GROWTH), MAX_INTERVAL)


class TaskWaiter:
    """Polls every task id until all are FINISHED (fails on the first ERROR or on timeout), or a record (``watch``)."""

    def __init__(self, client, clock=time.monotonic, sleep=time.sleep):
        self.client = client
        self.clock = clock
        self.sleep = sleep
        self.path = TASK_PATHS[0]
        self.polls = 0
        self.scope = None  # the listing's filter: the project, region and creation time of the run's first task read
        self.listing = True  # False once the service refused the listing

    def learn(self, task):
        """Keep the scope of a task this run started (the first one read by its id)."""
        if self.scope is None and task.get("project_id") is not None and task.get("region_id") is not None and task.get("created_on"):
            self.scope = {"project_id": task["project_id"], "region_id": task["region_id"], "from_timestamp": task["created_on"]}

    def read(self, task_ids):
        """``{id: task}`` of the run's tasks ``task_ids`` (in order, the first created first): one listing when more
        than one and the scope is known (the first is read by its id when it is not), one get for a task it lacks."""
        found = {}
        if len(task_ids) > 1 and self.scope is None:
            found[task_ids[0]] = self.get(task_ids[0])
            self.polls += 1
            self.learn(found[task_ids[0]])
        rest = [task_id for task_id in task_ids if task_id not in found]
        if len(rest) > 1 and self.scope and self.listing and self.path == TASK_PATHS[0]:
            wanted = set(rest)
            try:
                for task in self.client.paginate(TASK_LIST, dict(self.scope, order_by="asc"), page_size=TASK_PAGE, total_key="count"):
                    if task.get("id") in wanted:
                        found[task["id"]] = task
            except ApiError:
                self.listing = False  # not served here: each task by its id from now on
            self.polls += 1
        for task_id in task_ids:
            if task_id not in found:
                found[task_id] = self.get(task_id)
                self.polls += 1
                self.learn(found[task_id])
        return found

    def get(self, task_id):
        """Read one task at /cloud/v1/tasks/{id}; on 404 try /v1/tasks/{id} and keep whichever answered."""
        try:
            task = self.client.get(self.path % task_id)
        except ApiError as exc:
            if exc.status != 404 or self.path != TASK_PATHS[0]:
                raise
            task = self.client.get(TASK_PATHS[1] % task_id)
            self.path = TASK_PATHS[1]
        scrub = getattr(self.client, "scrub", None)  # its error may quote what was sent (a stand-in client has none)
        return scrub(task) if scrub else task

    def deadline(self, timeout):
        """The clock reading ``timeout`` seconds from now."""
        return self.clock() + timeout

    def poll(self, step, deadline, on_timeout):
        """The one polling loop: call ``step()`` until it returns True, sleeping a growing interval between
        calls (``poll_interval``); once ``deadline`` has passed, raise ``on_timeout()`` instead."""
        start = self.clock()
        while not step():
            now = self.clock()
            if now >= deadline:
                raise on_timeout()
            self.sleep(min(poll_interval(now - start), max(deadline - now, 0.0)))

    def confirm(self, read, done, timeout=None):
        """After an ambiguous write: its state ``read()`` until ``done(state)`` shows the write took effect, for at most
        ``timeout`` seconds (``SETTLE_TIMEOUT`` without one: a module that waits for no task); a read answered with a 5xx
        or not at all is read again. ``(whether done, the state as read last)``: not done, its outcome is unknown."""
        held = [None]

        def step():
            try:
                held[0] = read()
            except ApiError as exc:
                if not exc.ambiguous:
                    raise
                return False
            return done(held[0])
        try:
            self.poll(step, self.deadline(timeout or SETTLE_TIMEOUT), Due)
        except Due:
            return False, held[0]
        return True, held[0]

    def watch(self, read, record, waiting, stop, deadline):
        """The one wait on a record: read it again (``read(id)``) while ``waiting(record)`` (which may raise), up to
        ``deadline``, then raise ``stop(record as read last)``. Returns the record as read last (None: it went away)."""
        held = [record, False]  # the record as read last; whether to read it again before looking

        def step():
            if held[1]:
                held[0] = read(held[0]["id"])
            held[1] = True
            return held[0] is None or not waiting(held[0])

        self.poll(step, deadline, lambda: stop(held[0]))
        return held[0]

    def unlocked(self, read, record, lock, called, timeout):
        """The record once no task locks it (its ``lock`` member clear), as read last (None: it went away). A lock held
        by a task already in ERROR fails at once, naming the task and its error: nothing will clear it by waiting."""
        def locked(found):
            task = self.get(found[lock]) if found.get(lock) else None
            if task is not None and task.get("state") == "ERROR":
                raise TaskFailed("%s %s is locked by task %s, which ended in ERROR: %s; waiting does not clear such a lock, "
                                 "so the run stopped there" % (called, found.get("id"), found[lock],
                                                               task.get("error") or "the service gave no reason"), task)
            return task is not None

        def stop(last):
            task = self.get(last[lock])
            return TaskTimeout("%s %s is locked by task %s, still %s after wait_timeout=%ss" % (
                called, last.get("id"), last[lock], task.get("state"), timeout), task)
        return self.watch(read, record, locked, stop, self.deadline(timeout))

    def ready(self, read, record, ready, called, timeout, refused, broken=True):
        """The record once ready (``ready``: ``(member, good values, waiting values)``, the member a key or a function of
        the record): read again while it shows a waiting value; as read last. Another value (``broken``), the record going
        away, or ``timeout`` raise ``refused(message, the record as read last)``, the message naming its id and the value."""
        member, good, waiting = ready
        value_of, seen = member if callable(member) else (lambda found: found.get(member)), [record]

        def stop(why):
            return refused("%s %s %s" % (called, seen[0].get("id"), why), seen[0])

        def pending(found):
            seen[0], value = found, value_of(found)
            if value not in good and value not in waiting and broken:  # a delete goes on from a broken status
                raise stop("is %s, not %s: the service did not finish setting it up" % (value, " or ".join(good)))
            return value not in good and value in waiting

        found = self.watch(read, record, pending, lambda last: stop("is still %s after wait_timeout=%ss" % (value_of(last), timeout)),
                           self.deadline(timeout))
        if found is None:
            raise stop("went away while it was %s" % value_of(seen[0]))
        return found

    def settle(self, params, task_type):
        """After a write whose answer was lost (its record names no task): wait for the unfinished tasks of ``task_type``
        in the run's project and region whose ``data`` names ``params["name"]`` (or names nothing), what the write may
        have started (one page, newest first); return their ids."""
        query = dict(project_id=params["project_id"], region_id=params.get("region_id"), state=["NEW", "RUNNING"], task_type=task_type,
                     limit=TASK_PAGE)
        tasks = (self.client.get(TASK_LIST, params=query) or {}).get("results") or []
        ids = [task["id"] for task in tasks if (task.get("data") or {}).get("name") in (None, params.get("name"))]
        self.wait(ids, params["wait_timeout"])
        return ids

    def wait(self, task_ids, timeout):
        """The finished task records, in the order of ``task_ids`` (``wait_each``, stopping at the first ERROR); a task in
        ERROR raises ``TaskFailed``, one still running after ``timeout`` seconds ``TaskTimeout``."""
        last = self.wait_each(task_ids, self.deadline(timeout), stop="ERROR")
        for task_id in sorted(task_ids, key=lambda task_id: last[task_id].get("state") != "ERROR"):
            task = last[task_id]
            if task.get("state") == "ERROR":
                raise TaskFailed("Task %s ended in ERROR: %s" % (task_id, task.get("error") or "the service gave no reason"), task)
            if task.get("state") != "FINISHED":
                raise TaskTimeout("Task %s did not finish within wait_timeout=%ss; its last state was %s"
                                  % (task_id, timeout, task.get("state")), task)
        return [last[task_id] for task_id in task_ids]

    def wait_each(self, task_ids, deadline, stop=None):
        """Wait for many tasks together, each to its own end: ``{id: task as read last}`` once every one is FINISHED
        or ERROR (or one is in the state ``stop``), or at ``deadline`` (a task still running then is returned as read
        last). Never raises for a task's state: a fleet reports each member's task by itself."""
        last, pending = {}, list(dict.fromkeys(task_ids))

        def step():
            last.update(self.read(pending))
            for task_id in list(pending):
                if last[task_id].get("state") in ("FINISHED", "ERROR"):
                    pending.remove(task_id)
            return not pending or (stop is not None and any(task.get("state") == stop for task in last.values()))

        try:
            self.poll(step, deadline, Due)
        except Due:
            pass  # the tasks still running are returned as read last
        return last


def task_ids(outcome):
    """The tasks a write sent without waiting (``Flow.attempt(wait=False)``: ``outcome``) started: its answer's when
    accepted, else (confirmed after an ambiguous failure) the lock the state shows."""
    accepted, value = outcome
    if accepted:
        return list((value[0] or {}).get("tasks") or [])
    return [value["task_id"]] if isinstance(value, dict) and value.get("task_id") else []


def apply_together(plans, ready=None, guard=lambda key, action: action(), untaken=lambda key, write, task: None):
    """Many flows of one run sent in rounds (``plans``: ``{key: (flow, plan)}``): the first write of every plan
    (``attempt(wait=False)``), all their tasks waited for together (``wait_each``; ``untaken(key, write, task)``: one not
    FINISHED stops its flow), each followed (what its ``then`` returns; ``ready(ended, deadline)``: ``{key: record, or
    the error of one gone}`` of creates read ready together, each followed from its record), the rest of its plan the
    next round. Without ``wait`` each plan is sent as ``apply`` sends it (``ready``: its first write).
    ``guard(key, action)``: one flow's step, None when it failed (``guard`` keeps why) while the others go on."""
    wait, sent, following = all(flow.params.get("wait", True) for flow, _plan in plans.values()), {}, {}
    for key, (flow, plan) in plans.items():
        write = plan[0]
        if not wait and not ready:
            guard(key, lambda: flow.apply(plan))
        elif write.prepare is None or guard(key, lambda: (write.prepare(), True)[1]):  # the record unlocked and ready first
            try:
                sent[key] = (flow, write, guard(key, lambda: flow.attempt(write, wait=False)))
            except Replanned as again:  # a 409: its lock waited for, the flow planned again from what it left
                following[key] = (flow, list(again.args[0]))
    sent = dict((key, sent[key]) for key in sent if sent[key][2] is not None)
    if wait and sent:
        some = next(iter(sent.values()))[0]
        deadline = some.tasks.deadline(some.params["wait_timeout"])
        ids = dict((key, task_ids(outcome)) for key, (_flow, _write, outcome) in sent.items())
        tasks = some.tasks.wait_each([ident for idents in ids.values() for ident in idents], deadline)
        ended = {}
        for key, idents in ids.items():
            bad = [tasks[ident] for ident in idents if tasks[ident].get("state") != "FINISHED"]
            if bad:
                untaken(key, sent[key][1], bad[0])
            else:
                ended[key] = sent[key] + ([tasks[ident] for ident in idents],)
        records = ready(ended, deadline) if ready else {}
        for key, (flow, write, outcome, finished) in ended.items():
            rest = plans[key][1][1:]
            follow = guard(key, lambda: _followed(write, (False, records.get(key)) if ready else outcome, finished))
            if follow is not None and (follow or rest):
                following[key] = (flow, follow + rest)
    if following:
        apply_together(following, guard=guard, untaken=untaken)


def _followed(write, outcome, finished):
    """What follows ``write`` sent by ``attempt(wait=False)``, its tasks ``finished``: the writes its ``then`` returns."""
    accepted, value = outcome
    if isinstance(value, Exception):  # a create gone before it was ready
        raise value
    return list(write.then(accepted, (value[0], list(finished)) if accepted else value) or [])
