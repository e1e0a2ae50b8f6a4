# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Run a module's ``main()`` in-process, against the simulator or against nothing, and read back what it returned and sent;
the one helper of the fault matrices (``Matrix``: a matrix declares its plans, the helper runs and checks every row)."""

from __future__ import annotations

import copy
import inspect
import json
import re
from collections import Counter
from unittest import mock

import pytest
from ansible.module_utils import basic
from ansible.module_utils.common import warnings
from ansible.module_utils.testing import patch_module_args

# ansible-core 2.21 echoes the module's arguments (``invocation``) only when the controller asks for them (-vvv); older
# cores always do. Tests that check what the echo shows ask for it where the core knows the flag.
ECHOED = {"_ansible_inject_invocation": True} if "_ansible_inject_invocation" in inspect.getsource(basic) else {}


def result_of(module, args):
    """The JSON result ``module.main()`` prints for ``args`` (it must exit, as every Ansible module does). Each run starts
    with no warning or deprecation of an earlier one, as a module process does in Ansible."""
    warnings._global_warnings.clear()  # pylint: disable=protected-access
    warnings._global_deprecations.clear()  # pylint: disable=protected-access
    with patch_module_args(args), mock.patch("sys.stdout") as stdout:
        with pytest.raises(SystemExit):
            module.main()
    return json.loads("".join(call.args[0] for call in stdout.write.call_args_list))


def run(server, module, args, **options):
    """The module's result for ``args`` against ``server``; ``options`` (``_ansible_diff=True``, ...) are added to the arguments."""
    return result_of(module, dict(copy.deepcopy(args), api_key=server.api_key, api_url=server.url, **options))


def writes(server):
    """The writes the simulator received, in order: (method, path, JSON body or None)."""
    return [(entry["method"], entry["path"], json.loads(entry["body"]) if entry["body"] else None) for entry in server.writes()]


def fail_message(module, args):
    """The module's failure message; the test fails if the module gets as far as a request."""
    with mock.patch("requests.Session.request", side_effect=AssertionError("a request was sent")):
        result = result_of(module, dict(args, api_key="unit-test-key", api_url="http://127.0.0.1:9"))
    assert result.get("failed") is True, result
    return result["msg"]


def fault_cases(plans, faults):
    """One case per write position of every plan (``plans[name]["writes"]``, each a tuple led by its kind) and fault kind."""
    for plan, spec in plans.items():
        for position in range(len(spec["writes"])):
            for fault in faults:
                yield pytest.param(plan, position, fault, id="%s-%s%s-%s" % (plan, position, spec["writes"][position][0], fault))


def warning_texts(result):
    """The result's warnings as text: ansible-core 2.19+ returns each as a dict (its text under event.msg), older cores a str."""
    return [item["event"]["msg"] if isinstance(item, dict) else item for item in result.get("warnings") or []]


# ---- the two task fault kinds (a task that ends in ERROR, a lock it leaves), shared by every fault matrix ---------------------------------

TASK_ERROR = "injected task failure"
TASK_FAULTS = ("task ends in ERROR", "locked by a failed task")


def task_fault_cases(plans, found=(), untasked=()):
    """The matrix rows of the task fault kinds: "task ends in ERROR" at each write of a plan that starts a task (all but
    the ``(plan, position)`` pairs in ``untasked``), and "locked by a failed task" once per plan in ``found`` (those that
    find their record locked by a ``task_id``): it fails before any write."""
    for plan, spec in plans.items():
        for position, write in enumerate(spec["writes"]):
            if (plan, position) not in untasked:
                yield pytest.param(plan, position, TASK_FAULTS[0], id="%s-%s%s-%s" % (plan, position, write[0], TASK_FAULTS[0]))
        if plan in found:
            yield pytest.param(plan, None, TASK_FAULTS[1], id="%s-%s" % (plan, TASK_FAULTS[1]))


def record_id(result):
    """The id of the record a (check mode) run found (a reserved fixed IP's ``port_id``)."""
    return next(value.get("id") or value["port_id"] for key, value in result.items()
                if isinstance(value, dict) and (value.get("id") or value.get("port_id")) and key != "invocation")


def deleted(run):
    """The module's run with state=absent, the options that only go with state=present left out."""
    extra = {"state": "absent"}
    while True:
        result = run(**extra)
        refused = re.match(r"Invalid input: (\w+): only with state=present", result.get("msg") or "")
        if not refused or refused.group(1) in extra:
            return result
        extra[refused.group(1)] = None


# ---- one fault matrix: a test file declares its plans, the matrix runs every row ----------------------------------------------------------

# A fault kind: the fault added for the write, and whether the service applies the write.
FAULTS = {
    "500 after applying": (dict(status=500, applied=True), True),
    "dropped after applying": (dict(drop=True, applied=True), True),
    "rejected 400": (dict(status=400, body="injected rejection"), False),
    "rejected 403": (dict(status=403, body="injected rejection"), False),
}
APPLIED = "shows the change was applied, so it was not sent again"


class Row(object):  # pylint: disable=too-few-public-methods
    """One row of a matrix as its checks see it: ``plan`` (its name), ``spec`` (its declaration), ``made`` (what its seed
    returned), ``args`` (the module arguments, formatted), ``planned`` (its writes ``(method, path regex)``, formatted),
    ``position`` and ``applied`` (None for a task fault), ``noted`` (what a check noted for a later stage)."""

    def __init__(self, plan, spec, made, args, planned, position=None, applied=None):
        self.plan, self.spec, self.made, self.args, self.planned = plan, spec, made, args, planned
        self.position, self.applied, self.noted = position, applied, {}


class Matrix(object):
    """The fault matrix of a module's writes, declared by its plans: ``{name: {module?, seed?, args, writes}}``.

    ``writes`` are the writes a plan sends, in order, each ``(method, path regex, ...)`` (what follows is the plan's own:
    what its checks read of the write); ``seed(server)`` makes the simulator the plan starts from and may return values
    that ``{name}`` fields of the args and paths are formatted with (an id it made; a seed that returns none leaves them as
    written); ``module`` (a plan's, else the matrix's) runs with ``base`` and the plan's args. For every write and fault
    kind the run reports the truth (``changed``; a rejection fails with the service's message, unconfirmed never; an
    applied fault warns once that it found the write applied), sends no write twice and none out of the plan's order,
    and a re-run sends what is left and a third nothing. A fault at a write alike an earlier one of the plan (same
    method and path) lets those pass first. A plan may say ``fails_when_applied`` (a lost answer the run cannot recover
    from: it fails, ``changed``, with that text), ``warnings_when_applied`` (more than the one) or ``members`` (its
    writes are those of several records, each on its own: a rejected or failed write stops its record only, the others'
    go on in any order, so the run is changed once another write was accepted).

    For every task fault kind the run fails naming the failed task (before any write past a lock; stopping at the
    write whose task failed), a re-run converges (what the failed task left broken first removed as the message says,
    by ``remove(server, row, result)``, the module with state=absent unless given) and a third sends nothing. A plan's
    ``locked(server)`` is the id of the record a lock is put on (else the record a check-mode run finds).

    What the matrix cannot know is given as hooks: ``unique(server, row)`` asserts nothing was made twice (after every
    run), ``check(server, row, result, stage)`` whatever else a result must say (stage ``first``, ``again``, ``third``;
    ``task`` and ``broken`` for the task fault kinds' first run and a re-run that finds the record broken).
    ``found`` and ``untasked`` are ``task_fault_cases``'s; ``faults`` the fault kinds (names of ``FAULTS``)."""

    def __init__(self, plans, module=None, base=None, faults=tuple(FAULTS), found=(), untasked=(), unique=None, check=None,
                 remove=None):
        self.plans, self.module, self.base, self.faults = plans, module, base or {}, faults
        self.found, self.untasked, self.unique, self.check, self.remove = found, untasked, unique, check, remove

    def cases(self):
        """The rows of the fault kinds of a write (pytest params ``plan, position, fault``)."""
        return list(fault_cases(self.plans, self.faults))

    def task_cases(self):
        """The rows of the task fault kinds (pytest params ``plan, position, kind``)."""
        return list(task_fault_cases(self.plans, self.found, self.untasked))

    def run(self, server, row, **extra):
        """The module's result for the row's arguments (and ``extra``): one attempt per request, diff on."""
        module = row.spec.get("module", self.module)
        return run(server, module, dict(self.base, **dict(row.args, **extra)), api_retries=1, _ansible_diff=True)

    def prepare(self, server, plan, position=None, applied=None):
        """The simulator as the plan starts from (seeded, its tasks finished, the log empty): the row."""
        spec = self.plans[plan]
        made = (spec["seed"](server) if spec.get("seed") else None) or {}
        server.release()
        server.log = []

        def formatted(value):
            return value.format(**made) if made and isinstance(value, str) else value
        args = dict((key, formatted(value)) for key, value in spec["args"].items())
        planned = [(write[0], formatted(write[1])) for write in spec["writes"]]
        return Row(plan, spec, made, args, planned, position, applied)

    def fault(self, server, row, **fault):
        """The fault at the row's write (the alike writes before it pass: ``skip``)."""
        method, path = row.planned[row.position]
        server.add_fault(method=method, path=path, skip=row.planned[:row.position].count((method, path)), **fault)

    def sent(self, server, row):
        """The writes sent, each once, in the plan's order (a plan of ``members``: each one of the plan's)."""
        sent = [(entry["method"], entry["path"], entry["query"], entry["body"]) for entry in server.writes()]
        assert [count for count in Counter(sent).values() if count > 1] == [], "a write was sent twice: %s" % sent
        if row.spec.get("members"):
            assert all(any(method == planned and re.search(pattern, path) for planned, pattern in row.planned)
                       for method, path, _query, _body in sent), "not in the plan: %s" % sent
        else:
            for (expected_method, pattern), (sent_method, sent_path, _query, _body) in zip(row.planned, sent):
                assert expected_method == sent_method and re.search(pattern, sent_path), "plan order: %s" % sent
        return sent

    def check_task_fault(self, server, plan, position, kind):
        """One row of a task fault kind: the run fails naming the failed task's error; it sends nothing past a failed
        lock, and stops at a write whose task failed (changed: it was accepted); a re-run (the lock cleared) converges
        and the third run sends nothing."""
        row = self.prepare(server, plan, position)
        if kind == TASK_FAULTS[1]:
            locked = row.spec.get("locked") or (lambda server: record_id(self.run(server, row, _ansible_check_mode=True)))
            ident = locked(server)
            task = server.control("POST", "/_sim/failed_lock", {"id": ident, "error": TASK_ERROR})["task_id"]
            server.log = []
            result = self.run(server, row)
            assert result.get("failed") is True and result["changed"] is False, result
            assert ("locked by task %s, which ended in ERROR: %s" % (task, TASK_ERROR)) in result["msg"], result["msg"]
            assert writes(server) == [], "nothing is sent past a lock that waiting cannot clear"
            server.control("POST", "/_sim/failed_lock", {"id": ident, "error": None})
        else:
            self.fault(server, row, task_error=TASK_ERROR)
            result = self.run(server, row)
            assert result.get("failed") is True and result["changed"] is True, result
            assert "ended in ERROR: %s" % TASK_ERROR in result["msg"], result["msg"]
            assert any(task["error"] == TASK_ERROR for task in server.tasks.values()), "the write starts no task: list it in untasked"
            sent = self.sent(server, row)
            assert row.spec.get("members") or len(sent) == position + 1, "the run stops at the write whose task failed: %s" % sent
        self._checked(server, row, result, "task")
        server.log = []
        again = self.run(server, row)
        if again.get("failed") and "the service could not finish it" in again["msg"]:
            # what the failed task left is broken (an error status): never ok; deleted as the message says, it is made again
            assert writes(server) == []
            self._checked(server, row, again, "broken")
            removed = self.remove(server, row, again) if self.remove else deleted(lambda **extra: self.run(server, row, **extra))
            assert removed["changed"] is True, removed
            server.log = []
            again = self.run(server, row)
        assert not again.get("failed"), again.get("msg")
        assert again["changed"] is True
        self._checked(server, row, again, "again")
        server.log = []
        third = self.run(server, row)
        assert third["changed"] is False and writes(server) == [], writes(server)
        self._checked(server, row, third, "third")

    def check_fault(self, server, plan, position, fault):
        """One row of a fault kind of a write: the fault at the plan's write ``position``, then a re-run and a third."""
        extra, applied = FAULTS[fault]
        row = self.prepare(server, plan, position, applied)
        self.fault(server, row, **extra)
        result = self.run(server, row)
        sent = self.sent(server, row)
        if applied or not row.spec.get("members"):
            assert len(sent) == (len(row.planned) if applied else position + 1), sent
        texts = warning_texts(result)
        if applied:
            fails = row.spec.get("fails_when_applied")
            if fails:
                assert result.get("failed") is True and fails in result["msg"], result
            else:
                assert not result.get("failed"), result["msg"]
            assert result["changed"] is True
            assert len(texts) == row.spec.get("warnings_when_applied", 1) and APPLIED in texts[0], \
                "one warning, of the write found applied: %s" % texts
        else:
            assert result.get("failed") is True and "injected rejection" in result["msg"], result
            assert result["changed"] is (len(sent) > 1), "changed means applied: a write before (or beside) the rejected one"
            assert "could not be confirmed" not in result["msg"], "a clear rejection is not unconfirmed"
            assert not texts, texts
        self._checked(server, row, result, "first")
        # the re-run sends what is left (nothing after an applied fault), then a third run sends nothing
        server.log = []
        again = self.run(server, row)
        assert not again.get("failed"), again.get("msg")
        assert not again.get("warnings"), again["warnings"]
        assert again["changed"] is (not applied)
        assert len(sent) - (0 if applied else 1) + len(server.writes()) == len(row.planned), "the re-run sends what is left"
        self._checked(server, row, again, "again")
        server.log = []
        third = self.run(server, row)
        assert third["changed"] is False and server.writes() == [], server.writes()
        self._checked(server, row, third, "third")

    def _checked(self, server, row, result, stage):
        if self.unique:
            self.unique(server, row)
        if self.check:
            self.check(server, row, result, stage)
