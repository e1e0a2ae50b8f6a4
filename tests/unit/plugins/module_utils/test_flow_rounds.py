# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The flow inside a running module (``_fleet.within``), the rounds of writes across many flows (``apply_together``) and
the write that sends them (``Write.sends``)."""

from __future__ import annotations

import types

import pytest

from ansible_collections.gcore.platform.plugins.module_utils._fleet import within
from ansible_collections.gcore.platform.plugins.module_utils._flow import Flow
from ansible_collections.gcore.platform.plugins.module_utils._tasks import apply_together
from ansible_collections.gcore.platform.plugins.module_utils._writes import Write


class Waiter:
    """Every task FINISHED but those named in ``bad``; ``rounds``: the task ids of each ``wait_each``."""

    def __init__(self, bad=()):
        self.bad, self.rounds = set(bad), []

    def deadline(self, timeout):
        return timeout

    def wait_each(self, ids, deadline):
        self.rounds.append(list(ids))
        return dict((ident, {"id": ident, "state": "ERROR" if ident in self.bad else "FINISHED"}) for ident in ids)


class Member(Flow):
    """A flow whose writes answer one task each, named after the write's path; ``sent``: the paths in order."""

    def __init__(self, name, tasks, sent, wait=True, fails=()):
        self.name, self.tasks, self.sent, self.fails = name, tasks, sent, fails
        self.params = {"wait": wait, "wait_timeout": 5}

    def attempt(self, write, wait=True):
        assert wait is False
        if write.path in self.fails:
            raise RuntimeError("refused: %s" % write.path)
        self.sent.append(write.path)
        return True, ({"tasks": ["t-" + write.path]}, [])

    def apply(self, plan):
        self.sent.extend("applied " + write.path for write in plan)


def writes(*paths, then=None):
    return [Write("update", "POST", path, then=then) for path in paths]


def guarded(failed):
    def guard(key, action):
        try:
            return action()
        except RuntimeError as exc:
            failed[key] = str(exc)
            return None
    return guard


def test_the_nth_write_of_every_flow_is_sent_then_their_tasks_are_waited_for_together():
    tasks, sent = Waiter(), []
    plans = dict((name, (Member(name, tasks, sent), writes(name + "1", name + "2"))) for name in ("a", "b"))
    apply_together(plans)
    assert sent == ["a1", "b1", "a2", "b2"]
    assert tasks.rounds == [["t-a1", "t-b1"], ["t-a2", "t-b2"]]


def test_what_a_write_is_followed_by_comes_in_the_next_round():
    tasks, sent, seen = Waiter(), [], []

    def then(accepted, value):
        seen.append((accepted, value[1][0]["id"]))
        return writes("a-then")
    apply_together({"a": (Member("a", tasks, sent), writes("a1", then=then) + writes("a2"))})
    assert sent == ["a1", "a-then", "a2"] and seen == [(True, "t-a1")]


def test_a_task_not_finished_stops_its_flow_alone():
    tasks, sent, untaken = Waiter(bad=["t-a1"]), [], []
    plans = dict((name, (Member(name, tasks, sent), writes(name + "1", name + "2"))) for name in ("a", "b"))
    apply_together(plans, untaken=lambda key, write, task: untaken.append((key, write.path, task["state"])))
    assert sent == ["a1", "b1", "b2"] and untaken == [("a", "a1", "ERROR")]


def test_a_failure_is_kept_by_the_guard_and_the_others_go_on():
    tasks, sent, failed = Waiter(), [], {}
    plans = {"a": (Member("a", tasks, sent, fails=["a1"]), writes("a1", "a2")), "b": (Member("b", tasks, sent), writes("b1", "b2"))}
    apply_together(plans, guard=guarded(failed))
    assert sent == ["b1", "b2"] and failed == {"a": "refused: a1"}


def test_what_a_round_made_is_followed_from_its_record_once_ready():
    tasks, sent, failed, followed = Waiter(), [], {}, []

    def ready(ended, deadline):
        assert sorted(ended) == ["a", "b"] and deadline == 5
        return {"a": {"id": "i-a"}, "b": RuntimeError("instance i-b went away before it was ready")}

    def then(accepted, value):
        followed.append((accepted, value))
        return writes("a-stop")
    plans = dict((name, (Member(name, tasks, sent), writes(name + "-create", then=then))) for name in ("a", "b"))
    apply_together(plans, ready=ready, guard=guarded(failed))
    assert followed == [(False, {"id": "i-a"})] and sent == ["a-create", "b-create", "a-stop"]
    assert failed == {"b": "instance i-b went away before it was ready"}


def test_without_wait_each_plan_is_sent_as_apply_sends_it():
    tasks, sent = Waiter(), []
    plans = dict((name, (Member(name, tasks, sent, wait=False), writes(name + "1", name + "2"))) for name in ("a", "b"))
    apply_together(plans)
    assert sent == ["applied a1", "applied a2", "applied b1", "applied b2"] and tasks.rounds == []


def test_a_flow_within_a_run_shares_the_run_and_has_its_own_params_and_result():
    run = types.SimpleNamespace(module="module", check_mode=True, client="client", tasks="tasks", named_ids={},
                                params={"state": "present", "name": None}, result={"changed": True})
    one = within(Flow, run, name="web-1", state="absent")
    assert (one.module, one.check_mode, one.client, one.tasks, one.named_ids is run.named_ids) == ("module", True, "client", "tasks", True)
    assert one.params == {"state": "absent", "name": "web-1"} and run.params["name"] is None
    assert one.result == {"changed": False} and one.absent is True


class SelfSent:
    """A write that sends itself (``Write.sends``, as a fleet's ``Rounds``): in the ledger when one of its flows wrote."""

    locked = prepare = then = reread = None
    said = {}

    def __init__(self, wrote):
        self.wrote = wrote

    def sends(self, ledger):
        ledger.accepted += [self] if self.wrote else []


@pytest.mark.parametrize("wrote", [True, False])
def test_a_write_that_sends_itself_is_sent_by_itself_and_named_in_no_failure_message(wrote):
    run = types.SimpleNamespace(module=None, check_mode=False, client=None, tasks=None, named_ids={}, params={}, result={})
    one = within(Flow, run)
    one.start()
    one.apply([SelfSent(wrote)])
    assert bool(one.ledger) is wrote
    assert one.outcome("2 of 3 instances failed", None) == "2 of 3 instances failed" and one.result["changed"] is wrote
