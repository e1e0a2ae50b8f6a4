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


def check_task_fault(server, run, planned, position, kind):
    """One row of a task fault kind: ``run(**extra)`` runs the module on the prepared simulator (``extra``: more module
    arguments), ``planned`` the plan's writes in order ``(method, path regex)``. The run fails naming the failed task's
    error; it sends nothing before a failed lock, and stops at a write whose task failed (changed: it was accepted); a
    re-run (the lock cleared) converges and the third run sends nothing."""
    if kind == TASK_FAULTS[1]:
        ident = record_id(run(_ansible_check_mode=True))
        server.control("POST", "/_sim/failed_lock", {"id": ident, "error": TASK_ERROR})
        server.log = []
        result = run()
        assert result.get("failed") is True and result["changed"] is False, result
        assert ("locked by task %s, which ended in ERROR: %s" % (result["task"]["id"], TASK_ERROR)) in result["msg"], result["msg"]
        assert writes(server) == [], "nothing is sent past a lock that waiting cannot clear"
        server.control("POST", "/_sim/failed_lock", {"id": ident, "error": None})
    else:
        server.add_fault(method=planned[position][0], path=planned[position][1], task_error=TASK_ERROR)
        result = run()
        assert result.get("failed") is True and result["changed"] is True, result
        assert "ended in ERROR: %s" % TASK_ERROR in result["msg"], result["msg"]
        assert any(task["error"] == TASK_ERROR for task in server.tasks.values()), "the write starts no task: list it in untasked"
        sent = writes(server)
        assert len(sent) == position + 1, "the run stops at the write whose task failed: %s" % sent
    server.log = []
    again = run()
    if again.get("failed") and "the service could not finish it" in again["msg"]:
        # what the failed task left is broken (an error status): never ok; deleted as the message says, it is made again
        assert writes(server) == [] and deleted(run)["changed"] is True
        server.log = []
        again = run()
    assert not again.get("failed"), again.get("msg")
    assert again["changed"] is True
    server.log = []
    third = run()
    assert third["changed"] is False and writes(server) == [], writes(server)


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
    """One row of a matrix as its checks see it: ``plan`` (its name), ``spec`` (its declaration), ``args`` (the module
    arguments, formatted), ``planned`` (its writes, formatted), ``position`` and ``applied`` (None for a task fault)."""

    def __init__(self, plan, spec, args, planned, position=None, applied=None):
        self.plan, self.spec, self.args, self.planned, self.position, self.applied = plan, spec, args, planned, position, applied


class Matrix(object):
    """The fault matrix of a module's writes, declared by its plans: ``{name: {module?, seed?, args, writes}}``.

    ``writes`` are the writes a plan sends, in order, each ``(method, path regex)``; ``seed(server)`` makes the simulator
    the plan starts from and may return values that ``{name}`` fields of the args and paths are formatted with (an id it
    made); ``module`` (a plan's, else the matrix's) runs with ``base`` and the plan's args. For every write and fault kind
    the run reports the truth (``changed``; a rejection fails with the service's message, unconfirmed never; an applied
    fault warns once that it found the write applied), sends no write twice and none out of the plan's order, and a
    re-run sends what is left and a third nothing. A fault at a write alike an earlier one of the plan (same method and
    path) lets those pass first. A plan may say ``fails_when_applied`` (a lost answer the run cannot
    recover from: it fails, ``changed``, with that text) or ``warnings_when_applied`` (more than the one).

    What the matrix cannot know is given as hooks: ``unique(server, row)`` asserts nothing was made twice (after every
    run), ``check(server, row, result, stage)`` whatever else a result must say (stage ``first``, ``again``, ``third``).
    ``found`` and ``untasked`` are ``task_fault_cases``'s; ``faults`` the fault kinds (names of ``FAULTS``)."""

    def __init__(self, plans, module=None, base=None, faults=tuple(FAULTS), found=(), untasked=(), unique=None, check=None):
        self.plans, self.module, self.base, self.faults = plans, module, base or {}, faults
        self.found, self.untasked, self.unique, self.check = found, untasked, unique, check

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
        args = dict((key, value.format(**made) if isinstance(value, str) else value) for key, value in spec["args"].items())
        planned = [(method, path.format(**made)) for method, path in spec["writes"]]
        return Row(plan, spec, args, planned, position, applied)

    def check_task_fault(self, server, plan, position, kind):
        """One row of a task fault kind (``check_task_fault``)."""
        row = self.prepare(server, plan)
        check_task_fault(server, lambda **extra: self.run(server, row, **extra), row.planned, position, kind)

    def check_fault(self, server, plan, position, fault):
        """One row of a fault kind of a write: the fault at the plan's write ``position``, then a re-run and a third."""
        extra, applied = FAULTS[fault]
        row = self.prepare(server, plan, position, applied)
        method, path = row.planned[position]  # the alike writes before it (two rule creates) pass: ``skip``
        server.add_fault(method=method, path=path, skip=row.planned[:position].count((method, path)), **extra)
        result = self.run(server, row)
        sent = [(entry["method"], entry["path"], entry["body"]) for entry in server.writes()]
        assert [count for count in Counter(sent).values() if count > 1] == [], "a write was sent twice: %s" % sent
        assert len(sent) == (len(row.planned) if applied else position + 1), sent
        for (expected_method, pattern), (sent_method, sent_path, _body) in zip(row.planned, sent):
            assert expected_method == sent_method and re.search(pattern, sent_path), "plan order: %s" % sent
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
            assert result["changed"] is (position > 0), "changed means applied"
            assert "could not be confirmed" not in result["msg"], "a clear rejection is not unconfirmed"
            assert not texts, texts
        self._checked(server, row, result, "first")
        # the re-run sends what is left (nothing after an applied fault), then a third run sends nothing
        server.log = []
        again = self.run(server, row)
        assert not again.get("failed"), again.get("msg")
        assert not again.get("warnings"), again["warnings"]
        assert again["changed"] is (not applied)
        assert len(server.writes()) == (0 if applied else len(row.planned) - position), server.writes()
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
