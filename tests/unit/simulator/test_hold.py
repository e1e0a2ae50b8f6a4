# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Holding and releasing tasks: a test decides when a task ends, not the clock (no sleeps here)."""

from __future__ import annotations

import email.utils
import json
import time
import urllib.error
import urllib.request

import pytest

from simulator.core import Simulator

BASE = "/cloud/v1/routers/1/76"


@pytest.fixture
def sim():
    simulator = Simulator()
    simulator.configure(task_delay=0)  # without a hold, every task ends at the next request
    return simulator


def create(sim, name):
    status, answer = sim.call("POST", BASE, {"name": name})
    assert status == 200
    return answer["tasks"][0]


def task(sim, task_id):
    return sim.call("GET", "/cloud/v1/tasks/" + task_id)[1]


def router_named(sim, name):
    return next(router for router in sim.call("GET", BASE)[1]["results"] if router["name"] == name)


def test_a_held_task_stays_running_and_its_router_locked(sim):
    sim.hold()
    task_id = create(sim, "held")
    assert [task(sim, task_id)["state"] for poll in range(3)] == ["RUNNING"] * 3
    router = router_named(sim, "held")
    assert router["task_id"] == task_id and router["status"] == "BUILD"
    assert sim.call("DELETE", BASE + "/" + router["id"])[0] == 409
    assert sim.task_list() == [{"id": task_id, "task_type": "create_router", "state": "RUNNING", "held": True}]


def test_release_one_task_keeps_holding_the_others(sim):
    sim.hold()
    first, second = create(sim, "first"), create(sim, "second")
    assert sim.release(first) == [first]
    assert task(sim, first)["state"] == "FINISHED"
    assert task(sim, second)["state"] == "RUNNING"
    third = create(sim, "third")
    assert task(sim, third)["state"] == "RUNNING"


def test_release_all_finishes_every_task_and_ends_the_hold(sim):
    sim.hold()
    tasks = [create(sim, "r-%s" % index) for index in range(3)]
    assert sorted(sim.release()) == sorted(tasks)
    assert [task(sim, task_id)["state"] for task_id in tasks] == ["FINISHED"] * 3
    assert task(sim, create(sim, "after"))["state"] == "FINISHED"
    assert not sim.holding


def test_release_with_an_error_ends_in_error_and_unlocks(sim):
    create(sim, "edge")
    router_id = router_named(sim, "edge")["id"]
    sim.hold()
    status, answer = sim.call("PATCH", "/cloud/v2/routers/1/76/" + router_id, {"name": "edge-2"})
    assert status == 200
    sim.release(answer["tasks"][0], error="Neutron said no")
    record = task(sim, answer["tasks"][0])
    assert record["state"] == "ERROR" and record["error"] == "Neutron said no"
    router = sim.call("GET", BASE + "/" + router_id)[1]
    assert router["name"] == "edge" and router["task_id"] is None


def test_a_deferred_release_lets_go_after_the_named_requests(sim):
    sim.hold()
    task_id = create(sim, "later")
    assert sim.release(after={"method": "GET", "path": "^/cloud/v1/tasks/", "times": 2}) == []
    sim.call("GET", BASE)  # not a match
    assert task(sim, task_id)["state"] == "RUNNING"
    assert task(sim, task_id)["state"] == "RUNNING"  # the second match is still answered RUNNING ...
    assert sim.log[-1]["released"] == [task_id]  # ... and its log entry shows the release
    assert task(sim, task_id)["state"] == "FINISHED"
    assert not sim.releases and not sim.holding


def test_reset_forgets_holds_and_pending_releases(sim):
    sim.hold()
    sim.release(after={"times": 5})
    sim.reset()
    assert not sim.holding and sim.releases == []


# ---- over HTTP: the control calls and their refusals --------------------------------------------

def http(server, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(server.url + path, data=data, method=method, headers={"Authorization": "apikey " + server.api_key})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read() or b"null"), answer.headers
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null"), exc.headers


def test_hold_release_and_tasks_over_http(server):
    server.reset()
    assert http(server, "POST", "/_sim/hold", {})[:2] == (200, {"holding": True})
    task_id = http(server, "POST", BASE, {"name": "over-http"})[1]["tasks"][0]
    assert http(server, "GET", "/_sim/tasks")[1] == [{"id": task_id, "task_type": "create_router", "state": "RUNNING", "held": True}]
    assert http(server, "POST", "/_sim/release", {"task_id": task_id})[1] == {"released": [task_id], "holding": True, "pending": 0}
    assert http(server, "POST", "/_sim/release", {})[1]["holding"] is False


@pytest.mark.parametrize("path, body, words", [
    ("/_sim/release", {"task_id": "nope"}, ["task_id", "no unfinished task nope"]),
    ("/_sim/release", {"colour": 1}, ["unknown key colour"]),
    ("/_sim/release", {"after": {"path": "("}}, ["release.after.path", "regular expression"]),
    ("/_sim/release", {"after": {"times": 0}}, ["release.after.times"]),
    ("/_sim/release", {"error": 5}, ["release.error", "string"]),
    ("/_sim/hold", {"tasks": 1}, ["hold", "unknown key tasks"]),
])
def test_bad_hold_or_release_is_a_400(server, path, body, words):
    server.reset()
    status, answer, _headers = http(server, "POST", path, body)
    assert status == 400
    for word in words:
        assert word in answer["error"]
    assert not server.holding and not server.releases


def test_retry_after_as_a_date_is_computed_when_answering(server):
    server.reset()
    assert http(server, "POST", "/_sim/faults", {"status": 429, "method": "GET", "retry_after": 30, "retry_after_date": True})[0] == 200
    before = time.time()
    status, _answer, headers = http(server, "GET", "/cloud/v2/client_quotas/1/notification_threshold")
    after = time.time()
    assert status == 429
    named = email.utils.parsedate_to_datetime(headers["Retry-After"]).timestamp()
    assert before + 29 <= named <= after + 30, "30 s after the answer, in whole seconds, however long the call took"
    assert http(server, "POST", "/_sim/faults", {"status": 429, "retry_after": "soon", "retry_after_date": True})[0] == 400


# ---- a task that ends in ERROR, a lock the service leaves, another client's request ---------------------

def test_a_task_error_fault_answers_the_write_and_ends_its_task_in_error(sim):
    sim.add_fault(method="POST", path="^%s$" % BASE, task_error="no capacity")
    task_id = create(sim, "failing")
    assert sim.log[-1]["status"] == 200 and task(sim, task_id)["state"] == "ERROR"
    assert task(sim, task_id)["error"] == "no capacity"
    assert [router for router in sim.call("GET", BASE)[1]["results"] if router["name"] == "failing"] == [], "a failed create leaves nothing"


def test_a_failed_lock_stays_until_cleared_and_refuses_writes(sim):
    router = sim.call("GET", BASE)[1]["results"][0]
    task_id = sim.control("POST", "/_sim/failed_lock", {"id": router["id"], "error": "hypervisor lost"})["task_id"]
    sim.release()
    for _poll in range(2):
        assert task(sim, task_id)["state"] == "ERROR" and task(sim, task_id)["error"] == "hypervisor lost"
        assert router_named(sim, router["name"])["task_id"] == task_id, "waiting never clears it"
    assert sim.call("DELETE", BASE + "/" + router["id"])[0] == 409
    assert sim.control("POST", "/_sim/failed_lock", {"id": router["id"], "error": None}) == {"task_id": None}
    assert router_named(sim, router["name"])["task_id"] is None
    with pytest.raises(ValueError, match="no record"):
        sim.control("POST", "/_sim/failed_lock", {"id": "nothing-of-that-id", "error": "x"})


def test_another_clients_request_is_injected_after_the_matching_answer_and_not_logged(sim):
    sim.control("POST", "/_sim/inject", {"after": {"method": "GET", "path": "^%s$" % BASE, "times": 2},
                                         "request": {"method": "POST", "path": BASE, "body": {"name": "injected"}}})
    sim.call("GET", BASE)
    assert not any(router["name"] == "injected" for router in sim.call("GET", BASE)[1]["results"]), "not before the second answer"
    assert router_named(sim, "injected")["name"] == "injected"
    assert [entry["method"] for entry in sim.log] == ["GET", "GET", "GET"] and sim.log[1]["injected"][0]["status"] == 200
    with pytest.raises(ValueError, match="inject.request"):
        sim.control("POST", "/_sim/inject", {"after": {}, "request": {"path": BASE}})
