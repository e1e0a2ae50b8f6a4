# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The flow's settings for what follows a create: ``ready`` (wait on a status member through the one waiter),
the ``answered`` hook (one-time secrets kept even when a later step fails) and the compare after a create (one update
of what the create body could not carry; the create never sent again)."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from ansible.module_utils.testing import patch_module_args

from ansible_collections.gcore.platform.plugins.module_utils._client import ApiError
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._resource import GcoreResourceModule
from ansible_collections.gcore.platform.plugins.module_utils._tasks import TaskWaiter

VERBS = {"POST": "create", "PATCH": "update", "DELETE": "delete"}


class Service:
    """One record at /thing; a create answers a one-time ``secret``; each read may move ``status`` on."""

    store = {}
    writes = []
    failures = []  # (method, applied): that write fails with a 502
    statuses = []  # the status each read sets, in turn (the last one stays)

    def __init__(self, **kwargs):
        pass

    def request(self, method, path, params=None, json=None, ok=None):
        Service.writes.append((VERBS[method], json))
        failure = Service.failures.pop(0) if Service.failures and Service.failures[0][0] == method else None
        if failure and not failure[1]:
            raise ApiError(method, path, 502, "Bad Gateway")  # not applied
        answer = self.apply(method, json)
        if failure:
            raise ApiError(method, path, 502, "Bad Gateway")  # applied, the answer lost
        return answer

    @staticmethod
    def apply(method, body):
        if method == "POST":
            Service.store["thing"] = dict(body, id=1, status="starting", size=0)
            return dict(Service.store["thing"], secret="s3cr3t-once")
        Service.store["thing"].update(body)
        return dict(Service.store["thing"])

    def get(self, path, params=None):
        if "thing" not in Service.store:
            raise ApiError("GET", path, 404, "not found")
        if Service.statuses:
            Service.store["thing"]["status"] = Service.statuses.pop(0) if len(Service.statuses) > 1 else Service.statuses[0]
        return dict(Service.store["thing"])


class Thing(GcoreResourceModule):
    """A declaration only: settings and pure hooks."""

    argument_spec = dict(name=dict(type="str", required=True), size=dict(type="int"))
    waits = True
    result_key = "thing"
    id_option = name_option = None
    paths = dict(item="/thing", create="/thing")
    members = (Member("size"),)
    ready = ("status", ("up",), ("starting", "updating"))

    def create_body(self):
        return {"name": self.params["name"]}  # the create cannot carry the size

    def answered(self, write, answer):
        if (answer or {}).get("secret"):
            self.result["credentials"] = {"secret": answer["secret"]}

    def returned(self, record):
        return dict((key, value) for key, value in record.items() if key != "secret") if record else None


@pytest.fixture(autouse=True)
def fresh():
    Service.store, Service.writes, Service.failures, Service.statuses = {}, [], [], []


def run(**args):
    now, sleeps = [0.0], []

    def sleep(seconds):
        sleeps.append(seconds)
        now[0] += seconds

    args = dict(args, api_key="unit-test-api-key", _ansible_check_mode=False, _ansible_diff=False)
    with patch_module_args(args), mock.patch("sys.stdout") as stdout, \
            mock.patch("ansible_collections.gcore.platform.plugins.module_utils._base.Client", Service), \
            mock.patch("ansible_collections.gcore.platform.plugins.module_utils._base.TaskWaiter",
                       lambda client: TaskWaiter(client, clock=lambda: now[0], sleep=sleep)), \
            mock.patch("time.sleep", side_effect=AssertionError("slept outside the waiter")):
        with pytest.raises(SystemExit):
            Thing.main()
    result = json.loads("".join(call.args[0] for call in stdout.write.call_args_list))
    result["sleeps"] = sleeps
    return result


def test_create_waits_until_ready_then_one_update_of_what_the_create_could_not_carry():
    Service.statuses = ["starting", "up"]
    result = run(name="a", size=5)
    assert result["changed"] is True and result.get("failed") is not True, result
    assert Service.writes == [("create", {"name": "a"}), ("update", {"size": 5})]
    assert result["thing"] == {"id": 1, "name": "a", "status": "up", "size": 5}
    assert result["credentials"] == {"secret": "s3cr3t-once"}
    assert "s3cr3t-once" not in json.dumps(dict((key, value) for key, value in result.items() if key != "credentials"))
    assert result["sleeps"] == [0.5, 0.5], ("one wait for the task, one for readiness (a record showing a waiting value "
                                            "is read again only after a wait), on the injected clock of the one waiter")
    again = run(name="a", size=5)
    assert again["changed"] is False and "credentials" not in again and len(Service.writes) == 2


def test_nothing_left_to_update_is_the_create_alone():
    Service.statuses = ["up"]
    result = run(name="a", size=0)
    assert result["changed"] is True and Service.writes == [("create", {"name": "a"})]


def test_a_wait_timeout_keeps_the_secret_says_the_change_was_sent_and_sends_nothing_more():
    Service.statuses = ["starting"]
    result = run(name="a", size=5, wait_timeout=3)
    assert result["failed"] is True and result["changed"] is True
    assert "Resource 1 is still starting after wait_timeout=3s" in result["msg"]
    assert "the change was sent (POST /thing accepted)" in result["msg"]
    assert result["credentials"] == {"secret": "s3cr3t-once"} and "s3cr3t" not in result["msg"]
    assert result["thing"]["status"] == "starting" and "secret" not in result["thing"]
    assert Service.writes == [("create", {"name": "a"})], "the update waits for a ready record"


def test_a_status_neither_good_nor_waiting_fails_naming_it():
    Service.statuses = ["broken"]
    result = run(name="a")
    assert result["failed"] is True and result["changed"] is True
    assert "Resource 1 is broken, not up" in result["msg"] and result["credentials"]["secret"] == "s3cr3t-once"


def test_without_wait_the_answer_is_returned_as_it_is():
    result = run(name="a", size=5, wait=False)
    assert result["changed"] is True and result["thing"]["status"] == "starting"
    assert Service.writes == [("create", {"name": "a"}), ("update", {"size": 5})]


def test_an_ambiguous_create_is_not_sent_again_and_the_update_still_follows():
    Service.failures = [("POST", True)]
    Service.statuses = ["up"]
    result = run(name="a", size=5)
    assert result["changed"] is True and result.get("failed") is not True, result
    assert Service.writes == [("create", {"name": "a"}), ("update", {"size": 5})]
    assert "credentials" not in result, "the answer was lost: nothing to return"
    assert "not sent again" in json.dumps(result.get("warnings"))


@pytest.mark.parametrize("applied", [True, False])
def test_an_ambiguous_update_after_create_is_read_again_never_sent_twice(applied):
    Service.failures = [("PATCH", applied)]
    Service.statuses = ["up"]
    result = run(name="a", size=5)
    assert result["changed"] is True and result["credentials"] == {"secret": "s3cr3t-once"}
    assert Service.writes == [("create", {"name": "a"}), ("update", {"size": 5})]
    if applied:
        assert result.get("failed") is not True and result["thing"]["size"] == 5, result
    else:
        assert result["failed"] is True and "PATCH /thing: it may have been applied, but could not be confirmed (not sent again)" in result["msg"]
        assert "the writes before it were accepted (POST /thing)" in result["msg"]
