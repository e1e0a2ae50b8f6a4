# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The declarative flow of GcoreResourceModule, on a stub resource held in memory (no HTTP)."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from ansible.module_utils.testing import patch_module_args

from ansible_collections.gcore.platform.plugins.module_utils._client import ApiError
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._resource import GcoreResourceModule
from ansible_collections.gcore.platform.plugins.module_utils._tasks import SETTLE_TIMEOUT

VERBS = {"POST": "create", "PATCH": "update", "DELETE": "delete"}


class Store:
    """The service, held in memory: one record at /thing."""

    def __init__(self, stub):
        self.stub = stub

    def request(self, method, path, params=None, json=None, ok=None):
        stub = self.stub
        stub.writes.append(VERBS[method])
        if stub.failures:
            error = stub.failures.pop(0)
            if error.status == 502:  # the service did it, the answer was lost
                self.apply(method, json)
            raise error
        return self.apply(method, json)

    def apply(self, method, body):
        if method == "DELETE":
            self.stub.store.pop("thing")
            return None
        self.stub.store["thing"] = dict(self.stub.store.get("thing") or {}, **body)
        return dict(self.stub.store["thing"])

    def get(self, path, params=None):
        if "thing" not in self.stub.store:
            raise ApiError("GET", path, 404, "not found")
        return dict(self.stub.store["thing"])


class Stub(GcoreResourceModule):
    """A resource with one managed member, ``size``: a declaration, nothing of the flow."""

    argument_spec = dict(state=dict(type="str", choices=["present", "absent"], default="present"), size=dict(type="int"))
    result_key = "thing"
    id_option = name_option = None
    paths = dict(item="/thing", create="/thing")
    members = (Member("size"),)
    store = {}
    writes = []
    failures = []

    def create_body(self):
        return {"size": self.params["size"]}


CLOCK = [0.0]  # the waiter's clock: its sleeps only move it on


def waiter_on_the_clock(client):
    from ansible_collections.gcore.platform.plugins.module_utils._tasks import TaskWaiter

    def sleep(seconds):
        CLOCK[0] += seconds
    return TaskWaiter(client, clock=lambda: CLOCK[0], sleep=sleep)


def run(args, check=False, diff=False, module=None):
    args = dict(args, api_key="k", _ansible_check_mode=check, _ansible_diff=diff)
    with patch_module_args(args), mock.patch("sys.stdout") as stdout, \
            mock.patch("ansible_collections.gcore.platform.plugins.module_utils._base.Client", lambda **kwargs: Store(Stub)), \
            mock.patch("ansible_collections.gcore.platform.plugins.module_utils._base.TaskWaiter", waiter_on_the_clock), \
            mock.patch("time.sleep", side_effect=AssertionError("slept outside the waiter")):
        with pytest.raises(SystemExit) as exited:
            (module or Stub).main()
    output = "".join(call.args[0] for call in stdout.write.call_args_list)
    result = json.loads(output)
    result["rc"] = exited.value.code
    return result


@pytest.fixture(autouse=True)
def empty():
    Stub.store, Stub.writes, Stub.failures = {}, [], []


def test_create_then_nothing_to_do():
    first = run({"size": 3})
    assert first["changed"] is True and first["thing"] == {"size": 3}
    assert first["diff"] == {"before": {"state": "absent"}, "after": {"state": "present", "size": 3}}
    second = run({"size": 3})
    assert second["changed"] is False
    assert Stub.writes == ["create"]


def test_check_mode_predicts_and_writes_nothing():
    result = run({"size": 3}, check=True)
    assert result["changed"] is True and result["thing"] is None
    Stub.store["thing"] = {"size": 3}
    assert run({"size": 5}, check=True)["changed"] is True
    assert run({"state": "absent"}, check=True)["changed"] is True
    assert Stub.writes == [] and Stub.store["thing"] == {"size": 3}


def test_update_only_on_a_difference_with_the_diff():
    Stub.store["thing"] = {"size": 3}
    result = run({"size": 5})
    assert result["changed"] is True and result["thing"] == {"size": 5}
    assert result["diff"] == {"before": {"state": "present", "size": 3}, "after": {"state": "present", "size": 5}}
    assert run({})["changed"] is False, "an option left out is not managed"
    assert Stub.writes == ["update"]


def test_absent_deletes_once():
    Stub.store["thing"] = {"size": 3}
    assert run({"state": "absent"})["changed"] is True
    assert run({"state": "absent"})["changed"] is False
    assert Stub.writes == ["delete"]


def test_an_applied_write_whose_answer_was_lost_is_not_sent_twice():
    Stub.failures.append(ApiError("POST", "/things", 502, "Bad Gateway"))
    result = run({"size": 3})
    assert result["changed"] is True and result["thing"] == {"size": 3}
    assert "not sent again" in json.dumps(result.get("warnings")), result
    assert Stub.writes == ["create"]


def test_a_refused_write_fails_unchanged():
    Stub.failures.append(ApiError("POST", "/things", 403, "Forbidden"))
    result = run({"size": 3})
    assert result["failed"] is True and result["changed"] is False
    assert result["api_error"]["status"] == 403 and "could not be confirmed" not in result["msg"]
    assert Stub.writes == ["create"]


@pytest.mark.parametrize("args, seed", [({"size": 3}, {}), ({"size": 5}, {"size": 3}), ({"state": "absent"}, {"size": 3})],
                         ids=["create", "update", "delete"])
def test_an_ambiguous_write_whose_outcome_stays_unknown_is_changed_and_not_confirmed(args, seed):
    if seed:
        Stub.store["thing"] = dict(seed)
    Stub.failures.append(ApiError("POST", "/thing", 503, "Unavailable"))  # not applied, and never shows
    reads = []
    real_get = Store.get

    def get(store, path, params=None):
        reads.append(CLOCK[0])
        return real_get(store, path, params)
    CLOCK[0] = 0.0
    with mock.patch.object(Store, "get", get):
        result = run(args)
    assert result["failed"] is True and result["changed"] is True, result
    assert "could not be confirmed" in result["msg"] and "not sent again" in result["msg"], result["msg"]
    assert result["api_error"]["status"] == 503
    assert len(Stub.writes) == 1, "never sent twice: %s" % Stub.writes
    assert len(reads) > 3 and reads[-1] >= SETTLE_TIMEOUT, "read again until the time allowed has passed: %s" % reads
    assert Stub.store == ({"thing": {"size": 3}} if seed else {}), "nothing was applied"


def test_an_ambiguous_create_applied_late_is_confirmed_once_its_record_shows():
    Stub.failures.append(ApiError("POST", "/thing", 504, "Gateway Timeout"))
    answers = [ApiError("GET", "/thing", 404, "not found"),  # the lookup
               ApiError("GET", "/thing", 404, "not found"), ApiError("GET", "/thing", 502, "Bad Gateway"),  # read again: not yet
               {"size": 3}, {"size": 3}]
    with mock.patch.object(Store, "get", side_effect=answers):
        result = run({"size": 3})
    assert result.get("failed") is not True and result["changed"] is True, result
    assert result["thing"] == {"size": 3}
    assert "not sent again" in json.dumps(result.get("warnings")), result
    assert Stub.writes == ["create"]


def test_changed_means_sent_when_the_read_after_an_accepted_write_fails():
    Stub.store["thing"] = {"size": 3}
    with mock.patch.object(Store, "get", side_effect=[{"size": 3}, ApiError("GET", "/thing", 403, "Forbidden")]):
        result = run({"size": 5})
    assert result["failed"] is True and result["changed"] is True, result
    assert "the change was sent (PATCH /thing accepted) but could not be confirmed" in result["msg"]
    assert result["api_error"]["status"] == 403
    assert Stub.writes == ["update"] and Stub.store["thing"] == {"size": 5}


def test_deleted_by_someone_else_meanwhile_is_no_change():
    Stub.store["thing"] = {"size": 3}
    Stub.failures.append(ApiError("DELETE", "/thing", 404, "not found"))
    result = run({"state": "absent"}, diff=True)
    assert result["changed"] is False and result.get("failed") is not True, result
    assert result["thing"] is None
    assert result["diff"] == {"before": {"state": "absent"}, "after": {"state": "absent"}}


class Locked(Stub):
    """The stub with a lock member: writes wait until ``task_id`` is clear."""

    lock = "task_id"
    argument_spec = dict(Stub.argument_spec, wait_timeout=dict(type="int", default=60), api_retries=dict(type="int", default=3))


def run_locked(task_state, released_at=3):
    """The Locked stub's run while task ``busy`` (in ``task_state``) locks the thing, released at the given read of it:
    (result, the waiter's sleeps)."""
    Stub.store["thing"] = {"id": "t", "size": 3, "task_id": "busy"}
    reads = []

    def get(_self, path, params=None):
        if path.endswith("/tasks/busy"):
            return {"id": "busy", "state": task_state, "error": "no valid host"}
        reads.append(path)
        if len(reads) == released_at:  # the lock is released while the module waits
            Stub.store["thing"]["task_id"] = None
        return dict(Stub.store["thing"])

    now = [0.0]
    sleeps = []

    def sleep(seconds):
        sleeps.append(seconds)
        now[0] += seconds

    def waiter(client):
        from ansible_collections.gcore.platform.plugins.module_utils._tasks import TaskWaiter
        return TaskWaiter(client, clock=lambda: now[0], sleep=sleep)

    args = dict(size=5, api_key="unit-test-key", _ansible_check_mode=False, _ansible_diff=False)
    with patch_module_args(args), mock.patch("sys.stdout") as stdout, mock.patch.object(Store, "get", get), \
            mock.patch("ansible_collections.gcore.platform.plugins.module_utils._base.Client", lambda **kwargs: Store(Stub)), \
            mock.patch("ansible_collections.gcore.platform.plugins.module_utils._base.TaskWaiter", waiter), \
            mock.patch("time.sleep", side_effect=AssertionError("slept outside the waiter")):
        with pytest.raises(SystemExit):
            Locked.main()
    return json.loads("".join(call.args[0] for call in stdout.write.call_args_list)), sleeps


def test_the_lock_wait_goes_through_the_task_waiters_clock():
    result, sleeps = run_locked("RUNNING")
    assert result["changed"] is True, result
    assert sleeps == [0.5, 0.5], "two waits of the first poll interval, on the injected clock"
    assert Stub.writes == ["update"] and Stub.store["thing"]["size"] == 5


def test_a_lock_held_by_a_task_already_in_error_fails_at_once_naming_the_task_and_its_error():
    result, sleeps = run_locked("ERROR")
    assert result["failed"] is True and result["changed"] is False, result
    assert "is locked by task busy, which ended in ERROR: no valid host" in result["msg"]
    assert result["task"]["id"] == "busy" and sleeps == [] and Stub.writes == [], "no wait, no write"


@pytest.mark.parametrize("status", [503, None], ids=["5xx", "dropped"])
def test_a_409_whose_locked_record_cannot_be_read_again_is_a_refusal_nothing_applied(status):
    Stub.store["thing"] = {"id": "t", "size": 3}
    Stub.failures.append(ApiError("PATCH", "/thing", 409, "Conflict: locked"))
    reads = []
    real_get = Store.get

    def get(store, path, params=None):
        reads.append(path)
        if len(reads) == 2:  # reading the locked record again after the 409 fails
            raise ApiError("GET", path, status, "Unavailable")
        return real_get(store, path, params)
    with mock.patch.object(Store, "get", get):
        result = run({"size": 5}, module=Locked)
    assert result["failed"] is True and result["changed"] is False, result
    assert "could not be confirmed" not in result["msg"] and "may have been applied" not in result["msg"], result["msg"]
    assert result["api_error"]["status"] == status and result["api_error"]["method"] == "GET"
    assert Stub.writes == ["update"] and len(reads) == 2, "sent once, never read again as an ambiguous write: %s" % reads
    assert Stub.store["thing"]["size"] == 3


class Named(Stub):
    """A resource that says what its writes did in ``changes``."""

    changes = {"created": str, "updated": str, "deleted": str}


@pytest.mark.parametrize("check, failure", [(False, None), (True, None), (False, ApiError("DELETE", "/thing", 502, "Bad Gateway"))])
def test_a_delete_names_what_it_deletes_in_changes(check, failure):
    Stub.store["thing"] = {"size": 3, "name": "web", "id": "t1"}
    Stub.failures[:] = [failure] if failure else []
    with mock.patch.object(Stub, "changes", Named.changes):
        result = run({"state": "absent"}, check=check)
    assert result["changed"] is True and result["changes"]["deleted"] == ["web"], result
