# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The control API (``/_sim/...``): bad input is refused with a 400 naming the problem, and changes nothing."""

from __future__ import annotations

import json
import pathlib
import re
import urllib.error
import urllib.request

import pytest

from simulator.core import DEFAULT_API_KEY, Request, Simulator

RULES = "/waap/v1/domains/1003/custom-rules"
RULE = {"name": "One rule", "enabled": True, "action": {"block": {}}, "conditions": [{"ip": {"ip_address": "192.0.2.1"}}]}


@pytest.fixture
def sim(server):
    server.reset()
    return server


def http(sim, method, path, body=None, raw=None):
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    request = urllib.request.Request(sim.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json", "Authorization": "apikey " + DEFAULT_API_KEY})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def call(sim, method, path, body=None):
    raw = json.dumps(body).encode() if body is not None else b""
    response, delay = sim.dispatch(Request(method, path, "", {"Authorization": "apikey " + DEFAULT_API_KEY}, raw))
    return response, delay


def test_an_applied_fault_with_only_a_delay_applies_the_request_once():
    sim = Simulator()
    sim.add_fault(method="POST", path="/custom-rules$", delay=0.01, applied=True)
    response, delay = call(sim, "POST", RULES, RULE)
    assert response.status == 201 and delay == pytest.approx(0.01)
    assert [rule["name"] for rule in sim.custom_rules[1003]] == ["One rule"]
    assert len(sim.requests("POST")) == 1


def test_an_applied_fault_with_a_status_applies_once_and_answers_the_status():
    sim = Simulator()
    sim.add_fault(status=502, method="POST", path="/custom-rules$", applied=True)
    response, _delay = call(sim, "POST", RULES, RULE)
    assert response.status == 502
    assert len(sim.custom_rules[1003]) == 1
    assert sim.log[-1]["applied_status"] == 201


@pytest.mark.parametrize("fault, words", [
    ({"status": 503, "path": "(unclosed"}, ["fault.path", "not a valid regular expression"]),
    ({"status": 503, "colour": "red"}, ["fault", "unknown key colour"]),
    ({"status": 99}, ["fault.status", "100 to 599"]),
    ({"status": "503"}, ["fault.status"]),
    ({"status": 503, "method": "get"}, ["fault.method", "GET"]),
    ({"status": 503, "times": 0}, ["fault.times", "at least 1"]),
    ({"delay": -1}, ["fault.delay"]),
    ({"delay": "slow"}, ["fault.delay"]),
    ({"status": 503, "drop": True}, ["status and drop"]),
    ({"method": "GET"}, ["status, drop, delay or task_error"]),
    ({"task_error": "x", "status": 500}, ["task_error", "no status"]),
    ({"drop": "yes"}, ["fault.drop", "true or false"]),
    ({"delay": 1, "retry_after": 1}, ["retry_after needs a status"]),
    ("503", ["JSON object"]),
])
def test_a_bad_fault_is_refused_and_not_added(sim, fault, words):
    status, answer = http(sim, "POST", "/_sim/faults", fault)
    assert status == 400
    for word in words:
        assert word in answer["error"]
    assert sim.faults == []
    assert http(sim, "GET", "/cloud/v2/client_quotas/1/notification_threshold")[0] == 200


def test_a_list_of_faults_is_added_all_or_none(sim):
    status, _answer = http(sim, "POST", "/_sim/faults", [{"status": 503}, {"status": 503, "path": "["}])
    assert status == 400 and sim.faults == []
    status, answer = http(sim, "POST", "/_sim/faults", [{"status": 503, "times": 2}, {"drop": True, "method": "PUT"}])
    assert status == 200 and answer == {"faults": 2}


@pytest.mark.parametrize("settings, words", [
    ({"task_dealy": 1}, ["unknown key task_dealy", "task_delay"]),
    ({"task_delay": "slow"}, ["task_delay", "number"]),
    ({"task_delay": -1}, ["task_delay"]),
    ({"latency": float("inf")}, ["latency"]),
    ({"task_fail": {"update_router": 1}}, ["task_fail.update_router", "string"]),
    ({"rate_limit": {"per_second": 0}}, ["rate_limit.per_second", "at least 1"]),
    ({"rate_limit": {"retry_after": 1}}, ["rate_limit.per_second is required"]),
    ({"rate_limit": {"per_second": 5, "burst": 1}}, ["rate_limit", "unknown key burst"]),
    ({"price_quote_totals": "no"}, ["price_quote_totals", "true or false"]),
    ({"price_discounts": {"flavor": "a lot"}}, ["price_discounts.flavor"]),
    ({"quota_limits": {"cpu_cnt": 5}}, ["quota_limits", "unknown key cpu_cnt"]),
    ({"quota_usage": {"cpu_count": 1.5}}, ["quota_usage.cpu_count", "integer"]),
    ({"legacy_task_path": 1}, ["legacy_task_path"]),
    ([1, 2], ["JSON object"]),
])
def test_bad_settings_are_refused_and_change_nothing(sim, settings, words):
    before = json.dumps(sim.config, sort_keys=True)
    status, answer = http(sim, "POST", "/_sim/config", {"task_delay": 2, **settings} if isinstance(settings, dict) else settings)
    assert status == 400
    for word in words:
        assert word in answer["error"]
    assert json.dumps(sim.config, sort_keys=True) == before


def test_good_settings_are_merged(sim):
    status, config = http(sim, "POST", "/_sim/config", {"task_delay": 2, "rate_limit": {"per_second": 5, "retry_after": 1},
                                                        "price_discounts": {"flavor": "0.25"}})
    assert status == 200
    assert config["task_delay"] == 2 and config["rate_limit"]["per_second"] == 5 and config["latency"] == 0.0


@pytest.mark.parametrize("method, path, raw, words", [
    ("POST", "/_sim/nothing", b"{}", ["unknown control call POST /_sim/nothing"]),
    ("GET", "/_sim/reset", None, ["unknown control call GET /_sim/reset"]),
    ("POST", "/_sim/config", b"{task_delay: 1}", ["not valid JSON"]),
])
def test_unknown_calls_and_bad_json_are_refused(sim, method, path, raw, words):
    status, answer = http(sim, method, path, raw=raw)
    assert status == 400
    for word in words:
        assert word in answer["error"]


def test_configure_and_add_fault_check_in_python_too():
    sim = Simulator()
    with pytest.raises(ValueError, match="unknown key colour"):
        sim.configure(colour="red")
    with pytest.raises(ValueError, match="regular expression"):
        sim.add_fault(status=503, path="(")


def test_pending_faults_are_listed_with_their_remaining_times(sim):
    assert http(sim, "GET", "/_sim/faults") == (200, [])
    http(sim, "POST", "/_sim/faults", [{"status": 503, "method": "GET", "path": "notification_threshold", "times": 2},
                                       {"drop": True, "method": "PUT"}])
    assert http(sim, "GET", "/cloud/v2/client_quotas/1/notification_threshold")[0] == 503
    status, pending = http(sim, "GET", "/_sim/faults")
    assert status == 200
    assert [(fault["status"], fault["method"], fault["drop"], fault["times"]) for fault in pending] == [(503, "GET", False, 1), (None, "PUT", True, 1)]
    assert http(sim, "GET", "/cloud/v2/client_quotas/1/notification_threshold")[0] == 503
    status, pending = http(sim, "GET", "/_sim/faults")
    assert [fault["method"] for fault in pending] == ["PUT"]  # a spent fault is no longer pending
    assert http(sim, "POST", "/_sim/faults", {"status": 500})[1] == {"faults": 2}  # the answer counts pending faults


def test_clearing_the_faults_keeps_everything_else(sim):
    http(sim, "POST", "/_sim/config", {"task_delay": 2})
    assert http(sim, "PUT", "/cloud/v2/client_quotas/1/notification_threshold", {"threshold": 80})[0] == 200
    log = len(sim.log)
    http(sim, "POST", "/_sim/faults", [{"status": 503, "times": 3}, {"drop": True, "method": "PUT"}])
    assert http(sim, "DELETE", "/_sim/faults") == (200, {"cleared": 2})
    assert http(sim, "GET", "/_sim/faults") == (200, [])
    assert http(sim, "DELETE", "/_sim/faults") == (200, {"cleared": 0})
    assert sim.config["task_delay"] == 2 and len(sim.log) == log  # settings and the log are kept
    status, record = http(sim, "GET", "/cloud/v2/client_quotas/1/notification_threshold")
    assert status == 200 and record["threshold"] == 80  # no fault fires: they are gone


def test_pending_faults_and_clearing_in_python():
    sim = Simulator()
    sim.add_fault(status=502, path="/custom-rules$", times=2)
    pending = sim.pending_faults()
    assert len(pending) == 1 and pending[0]["times"] == 2 and pending[0]["path"] == "/custom-rules$"
    pending[0]["times"] = 0  # a copy: changing it changes nothing
    assert sim.pending_faults()[0]["times"] == 2
    assert sim.clear_faults() == 1 and sim.pending_faults() == []
    assert call(sim, "GET", RULES)[0].status == 200


def test_the_simulator_guide_lists_every_setting_with_its_default():
    """docs/docsite/rst/guide_simulator.rst names every setting POST /_sim/config takes (issue 46: the boot and task
    knobs were missing), and the settings' table lists no setting the simulator lacks."""
    guide = (pathlib.Path(__file__).resolve().parents[3] / "docs" / "docsite" / "rst" / "guide_simulator.rst").read_text(encoding="utf-8")
    table = guide.split("Every setting ``POST /_sim/config`` takes", 1)[1].split("Bad control input", 1)[0]
    listed = set(re.findall(r"^  \* - (.+)$", table, re.M)) - {"Setting"}
    names = set(name for row in listed for name in re.findall(r"``(\w+)``", row))
    assert names == set(Simulator().settings), sorted(names ^ set(Simulator().settings))
