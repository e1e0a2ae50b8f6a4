# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The task waiter: FINISHED, ERROR, timeout, several ids, the /v1/tasks fallback. The clock is mocked."""

from __future__ import annotations

import pytest
import responses

from ansible_collections.gcore.platform.plugins.module_utils._client import ApiError, Client
from ansible_collections.gcore.platform.plugins.module_utils._tasks import TaskFailed, TaskTimeout, TaskWaiter, poll_interval

URL = "https://api.test"


class FakeClock:
    def __init__(self):
        self.now = 0.0
        self.sleeps = []

    def clock(self):
        return self.now

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds


def task(task_id, state, error=None):
    return {"id": task_id, "state": state, "error": error, "task_type": "update_router", "user_id": 1, "created_on": None}


@pytest.fixture
def waiter():
    clock = FakeClock()
    waiter = TaskWaiter(Client(api_key="k", api_url=URL), clock=clock.clock, sleep=clock.sleep)
    waiter.fake = clock
    return waiter


def paths():
    return [call.request.path_url for call in responses.calls]


@responses.activate
def test_waits_until_finished(waiter):
    responses.get(URL + "/cloud/v1/tasks/a", json=task("a", "NEW"))
    responses.get(URL + "/cloud/v1/tasks/a", json=task("a", "RUNNING"))
    responses.get(URL + "/cloud/v1/tasks/a", json=task("a", "FINISHED"))
    done = waiter.wait(["a"], timeout=60)
    assert [t["state"] for t in done] == ["FINISHED"]
    assert paths() == ["/cloud/v1/tasks/a"] * 3
    assert waiter.fake.sleeps == [0.5, 0.5]


@responses.activate
def test_every_id_is_polled(waiter):
    responses.get(URL + "/cloud/v1/tasks/a", json=task("a", "RUNNING"))
    responses.get(URL + "/cloud/v1/tasks/b", json=task("b", "FINISHED"))
    responses.get(URL + "/cloud/v1/tasks/a", json=task("a", "FINISHED"))
    done = waiter.wait(["a", "b"], timeout=60)
    assert [t["id"] for t in done] == ["a", "b"]
    assert paths() == ["/cloud/v1/tasks/a", "/cloud/v1/tasks/b", "/cloud/v1/tasks/a"]


@responses.activate
def test_error_fails_with_the_task_error(waiter):
    responses.get(URL + "/cloud/v1/tasks/a", json=task("a", "ERROR", "Quota exceeded"))
    with pytest.raises(TaskFailed) as err:
        waiter.wait(["a"], timeout=60)
    assert str(err.value) == "Task a ended in ERROR: Quota exceeded"
    assert err.value.task["id"] == "a"


@responses.activate
def test_timeout_names_the_task_and_its_last_state(waiter):
    responses.get(URL + "/cloud/v1/tasks/a", json=task("a", "RUNNING"))
    with pytest.raises(TaskTimeout) as err:
        waiter.wait(["a"], timeout=3)
    assert "Task a did not finish within wait_timeout=3s; its last state was RUNNING" == str(err.value)
    assert err.value.task["state"] == "RUNNING"
    assert sum(waiter.fake.sleeps) == pytest.approx(3.0)
    assert len(responses.calls) == 7


@responses.activate
def test_falls_back_to_the_requirements_path_and_keeps_it(waiter):
    responses.get(URL + "/cloud/v1/tasks/a", status=404, json={"message": "Not Found"})
    responses.get(URL + "/v1/tasks/a", json=task("a", "RUNNING"))
    responses.get(URL + "/v1/tasks/a", json=task("a", "FINISHED"))
    responses.get(URL + "/v1/tasks/b", json=task("b", "FINISHED"))
    waiter.wait(["a", "b"], timeout=60)
    assert paths() == ["/cloud/v1/tasks/a", "/v1/tasks/a", "/v1/tasks/b", "/v1/tasks/a"]


@responses.activate
def test_unknown_task_on_both_paths_fails(waiter):
    responses.get(URL + "/cloud/v1/tasks/a", status=404, json={"message": "Not Found"})
    responses.get(URL + "/v1/tasks/a", status=404, json={"message": "Not Found"})
    with pytest.raises(ApiError) as err:
        waiter.wait(["a"], timeout=60)
    assert err.value.status == 404


def test_interval_starts_short_and_grows_to_a_few_seconds():
    assert poll_interval(0) == 0.5
    assert poll_interval(5) == 0.5
    assert 0.5 < poll_interval(20) < 2
    assert poll_interval(3600) == 5.0


def test_polls_for_a_five_second_task_stay_few():
    elapsed, polls = 0.0, 0
    while elapsed < 5.0:
        polls += 1
        elapsed += poll_interval(elapsed)
    assert polls <= 12


# ---- many tasks, one poll (issue 46) ------------------------------------------------------------
def scoped(task_id, state, error=None):
    return dict(task(task_id, state, error), project_id=1, region_id=76, created_on="2026-12-01T10:00:00Z")


def listing(*tasks):
    return {"count": len(tasks), "results": list(tasks)}


LISTED = "/cloud/v1/tasks?project_id=1&region_id=76&from_timestamp=2026-12-01T10%3A00%3A00Z&order_by=asc&limit=1000&offset=0"


@responses.activate
def test_many_tasks_cost_one_listing_a_round(waiter):
    """The first task read by its id gives the scope; then each round is one listing (filtered by project, region and
    the first task's creation time, oldest first) while more than one is pending; tasks of other runs are ignored."""
    responses.get(URL + "/cloud/v1/tasks/a", json=scoped("a", "RUNNING"))
    other = scoped("x", "ERROR", "another run's task")
    responses.get(URL + "/cloud/v1/tasks", json=listing(scoped("a", "RUNNING"), other, scoped("b", "RUNNING"), scoped("c", "NEW")))
    responses.get(URL + "/cloud/v1/tasks", json=listing(scoped("a", "FINISHED"), other, scoped("b", "FINISHED"), scoped("c", "RUNNING")))
    responses.get(URL + "/cloud/v1/tasks/c", json=scoped("c", "FINISHED"))  # the last one pending: read by its id
    done = waiter.wait(["a", "b", "c"], timeout=60)
    assert [(item["id"], item["state"]) for item in done] == [("a", "FINISHED"), ("b", "FINISHED"), ("c", "FINISHED")]
    assert paths() == ["/cloud/v1/tasks/a", LISTED, LISTED, "/cloud/v1/tasks/c"]
    assert waiter.polls == 4 and len(waiter.fake.sleeps) == 2  # three rounds
    # The next wait of the run knows the scope: one listing a round from the first.
    responses.get(URL + "/cloud/v1/tasks", json=listing(scoped("d", "FINISHED"), scoped("e", "ERROR", "no room")))
    found = waiter.wait_each(["d", "e"], deadline=waiter.fake.now + 60)
    assert {key: value["state"] for key, value in found.items()} == {"d": "FINISHED", "e": "ERROR"}
    assert paths()[4:] == [LISTED]


@responses.activate
def test_a_task_the_listing_lacks_is_read_by_its_id_and_an_error_fails(waiter):
    responses.get(URL + "/cloud/v1/tasks/a", json=scoped("a", "RUNNING"))
    responses.get(URL + "/cloud/v1/tasks", json=listing(scoped("b", "RUNNING")))
    responses.get(URL + "/cloud/v1/tasks/c", json=scoped("c", "RUNNING"))
    responses.get(URL + "/cloud/v1/tasks", json=listing(scoped("a", "RUNNING"), scoped("b", "ERROR", "no quota"), scoped("c", "RUNNING")))
    with pytest.raises(TaskFailed, match="Task b ended in ERROR: no quota"):
        waiter.wait(["a", "b", "c"], timeout=60)
    assert paths() == ["/cloud/v1/tasks/a", LISTED, "/cloud/v1/tasks/c", LISTED]


@responses.activate
def test_a_refused_listing_is_not_asked_for_again(waiter):
    for name in "abc":
        responses.get(URL + "/cloud/v1/tasks/" + name, json=scoped(name, "RUNNING"))
    responses.get(URL + "/cloud/v1/tasks", status=403, json={"message": "Forbidden"})
    for name in "abc":
        responses.get(URL + "/cloud/v1/tasks/" + name, json=scoped(name, "FINISHED"))
    assert len(waiter.wait(["a", "b", "c"], timeout=60)) == 3
    assert paths() == ["/cloud/v1/tasks/a", LISTED, "/cloud/v1/tasks/b", "/cloud/v1/tasks/c"] + ["/cloud/v1/tasks/" + name for name in "abc"]


@responses.activate
def test_one_task_is_read_by_its_id(waiter):
    responses.get(URL + "/cloud/v1/tasks/a", json=scoped("a", "RUNNING"))
    responses.get(URL + "/cloud/v1/tasks/a", json=scoped("a", "FINISHED"))
    waiter.wait(["a"], timeout=60)
    assert paths() == ["/cloud/v1/tasks/a"] * 2 and waiter.scope["project_id"] == 1


# ---- a record until ready (``TaskWaiter.ready``) -------------------------------------------------

READY = ("status", ("ACTIVE",), ("BUILD",))


def reads(*statuses):
    """``read(id)`` answering the statuses in turn (None: the record went away); ``calls``: the ids read."""
    answers, calls = list(statuses), []

    def read(ident):
        calls.append(ident)
        status = answers.pop(0)
        return None if status is None else {"id": ident, "status": status}
    read.calls = calls
    return read


def refused(msg, record):
    return RuntimeError(msg, record)


def test_a_record_is_read_again_while_it_shows_a_waiting_value(waiter):
    read = reads("BUILD", "ACTIVE")
    found = waiter.ready(read, {"id": "r-1", "status": "BUILD"}, READY, "Thing", 60, refused)
    assert found == {"id": "r-1", "status": "ACTIVE"} and read.calls == ["r-1", "r-1"]
    assert waiter.ready(read, found, READY, "Thing", 60, refused) is found and len(read.calls) == 2, "a ready record is not read again"


def test_a_function_of_the_record_tells_its_value(waiter):
    ready = (lambda record: record["status"].lower(), ("active",), ("build",))
    assert waiter.ready(reads("ACTIVE"), {"id": "r-1", "status": "BUILD"}, ready, "Thing", 60, refused)["status"] == "ACTIVE"


@pytest.mark.parametrize("statuses, message", [
    (("ERROR",), "Thing r-1 is ERROR, not ACTIVE: the service did not finish setting it up"),
    ((None,), "Thing r-1 went away while it was BUILD"),
    (("BUILD",) * 50, "Thing r-1 is still BUILD after wait_timeout=5s"),
])
def test_another_value_the_record_going_away_or_the_timeout_are_refused_with_the_record_as_read_last(waiter, statuses, message):
    with pytest.raises(RuntimeError) as failed:
        waiter.ready(reads(*statuses), {"id": "r-1", "status": "BUILD"}, READY, "Thing", 5, refused)
    assert failed.value.args[0] == message
    assert failed.value.args[1]["id"] == "r-1"


def test_a_delete_goes_on_from_a_broken_status(waiter):
    read = reads("ERROR")
    assert waiter.ready(read, {"id": "r-1", "status": "BUILD"}, READY, "Thing", 60, refused, broken=False)["status"] == "ERROR"
