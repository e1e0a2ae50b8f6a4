# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The counting of the gcore.platform.plan callback (issue 46), and its summary from results as ansible-playbook
gives them. The callback in real runs: tests/integration/test_plan.py."""

from __future__ import annotations

import types

import pytest

from controller_plugin import controller_plugin

plan = None  # the plugin module, imported by imported_plugin() below


@pytest.fixture(scope="module", autouse=True)
def imported_plugin():
    with controller_plugin("ansible_collections.gcore.platform.plugins.callback.plan") as module:
        globals()["plan"] = module
        yield module


def counts(create=0, change=0, replace=0, delete=0):
    return {"create": create, "change": change, "replace": replace, "delete": delete}


@pytest.mark.parametrize("result, expected", [
    # The names in created, replaced and deleted, one each.
    ({"changed": True, "changes": {"created": ["a", "b"], "updated": [], "deleted": ["c"], "deleted_ids": [7]}},
     counts(create=2, delete=1)),
    # Every other non-empty key counts the task's resource once as changed, however many names it holds.
    ({"changed": True, "changes": {"created": ["web-4"], "updated": ["web-1", "web-2"], "started": ["web-3"], "stopped": [],
                                   "deleted": []}}, counts(create=1, change=1)),
    # A name in replaced is counted neither as created nor as deleted; batches restate the replaced names.
    ({"changed": True, "changes": {"created": ["x", "o"], "deleted": ["o", "d"], "replaced": ["o"], "batches": [["o"]]}},
     counts(create=1, replace=1, delete=1)),
    # Nested keys: the load balancer, existing, gains a listener and a member: changed once.
    ({"changed": True, "changes": {"listeners": {"created": ["http"], "updated": [], "deleted": []},
                                   "members": {"added": ["10.0.0.1:80"], "removed": []}},
      "diff": {"before": {"name": "lb"}, "after": {"name": "lb"}}}, counts(change=1)),
    # The same keys on a load balancer created by the task: one to create (its listeners are part of it).
    ({"changed": True, "changes": {"listeners": {"created": ["http"], "updated": [], "deleted": []}},
      "diff": {"before": {"state": "absent"}, "after": {"name": "lb", "state": "present"}}}, counts(create=1)),
    # A new security group's rules are part of it; so are the default rules its create removed.
    ({"changed": True, "changes": {"created": [{"port": 80}], "deleted": [{"egress": 4}, {"egress": 6}]},
      "diff": {"before": {"state": "absent"}, "after": {"name": "sg", "state": "present"}}}, counts(create=1)),
    # A module of one resource without changes: its diff says what happened.
    ({"changed": True, "diff": {"before": {"state": "absent"}, "after": {"name": "net", "state": "present"}}}, counts(create=1)),
    ({"changed": True, "diff": {"before": {}, "after": {"name": "net"}}}, counts(create=1)),
    ({"changed": True, "diff": {"before": {"name": "net", "state": "present"}, "after": {"state": "absent"}}}, counts(delete=1)),
    ({"changed": True, "diff": {"before": {"name": "net"}, "after": {}}}, counts(delete=1)),
    ({"changed": True, "diff": {"before": {"name": "net", "tags": {}}, "after": {"name": "net", "tags": {"a": "b"}}}},
     counts(change=1)),
    ({"changed": True}, counts(change=1)),  # a change without a diff: changed once
    # A security group's rules are mappings: each distinct one counts.
    ({"changed": True, "changes": {"created": [{"port": 80}, {"port": 443}, {"port": 80}], "deleted": []}}, counts(create=2)),
    # Nothing changed: nothing counted, whatever the diff shows.
    ({"changed": False, "changes": {"created": [], "updated": [], "deleted": []}}, counts()),
    ({"changed": False, "diff": {"before": {"state": "absent"}, "after": {"state": "absent"}}}, counts()),
    ({"changed": False, "diff": {"before": {}, "after": {"name": "net"}}}, counts()),  # check mode of a later run, say
    ({"changed": False, "changes": {"security_groups": {"added": [], "removed": []}}}, counts()),
    # A failed task reports what took effect before the failure.
    ({"failed": True, "changed": True, "changes": {"created": ["a"], "updated": [], "deleted": []}}, counts(create=1)),
    ({"failed": True, "changed": False, "changes": {"created": [], "deleted": []}}, counts()),
])
def test_a_result_is_counted_by_the_rules(result, expected):
    assert plan.tally(result) == expected


def test_the_wording_is_a_plan_in_check_mode_and_the_past_in_a_real_run():
    numbers = counts(create=12, change=3, replace=1, delete=2)
    assert plan.phrase(numbers, True) == "12 to create, 3 to change, 1 to replace, 2 to delete"
    assert plan.phrase(numbers, False) == "12 created, 3 changed, 1 replaced, 2 deleted"


class Display:
    def __init__(self):
        self.lines = []

    def banner(self, text):
        self.lines.append("== %s" % text)

    def display(self, text, **_kwargs):
        self.lines.append(text)


def result(action, host, payload, check_mode=False, name="a task"):
    task = types.SimpleNamespace(resolved_action=action, action=action.rsplit(".", 1)[-1], check_mode=check_mode,
                                 get_name=lambda: name)
    return types.SimpleNamespace(_task=task, _host=types.SimpleNamespace(get_name=lambda: host), _result=payload)


def summary(events, plays=("Build",)):
    callback = plan.CallbackModule()
    callback._display = Display()
    for play in plays:
        callback.v2_playbook_on_play_start(types.SimpleNamespace(get_name=lambda play=play: play))
        for kind, item in events.get(play, []):
            if kind == "ok":
                callback.v2_runner_on_ok(item)
            else:
                callback.v2_runner_on_failed(item, ignore_errors=kind == "ignored")
    callback.v2_playbook_on_stats(None)
    return callback._display.lines


def test_only_the_collections_results_count_per_host_with_loops_and_failures():
    created = {"changed": True, "diff": {"before": {}, "after": {"name": "n"}}}
    events = {"Build": [
        ("ok", result("gcore.platform.network", "localhost", created, check_mode=True)),
        ("ok", result("ansible.builtin.command", "localhost", {"changed": True}, check_mode=True)),  # not ours
        ("ok", result("gcore.platform.volume", "localhost", {"changed": True, "results": [  # a loop: each item
            created, {"changed": False, "diff": {"before": {"name": "v"}, "after": {"name": "v"}}}, {"skipped": True}]}, check_mode=True)),
        ("failed", result("gcore.platform.instances", "localhost", {"failed": True, "changed": False, "changes": {}},
                          check_mode=True, name="Instances - the fleet")),
        ("ignored", result("gcore.platform.instance", "other", {"failed": True, "msg": "no"}, name="Instance - spare")),
        ("failed", result("ansible.builtin.fail", "other", {"failed": True})),  # not ours: not listed
    ]}
    assert summary(events) == [
        "== GCORE PLATFORM PLAN",
        "localhost : 2 to create, 0 to change, 0 to replace, 0 to delete",
        "localhost : failed: Instances - the fleet",
        "other : 0 created, 0 changed, 0 replaced, 0 deleted",
        "other : failed: Instance - spare (ignored)",
        "",
    ]


def test_each_play_has_its_section_and_a_run_without_the_collection_prints_nothing():
    deleted = {"changed": True, "changes": {"created": [], "deleted": ["r1", "r2"], "deleted_ids": [1, 2]}}
    events = {"First": [("ok", result("gcore.platform.waap_custom_rules", "localhost", deleted))],
              "Second": [("ok", result("ansible.builtin.debug", "localhost", {}))]}
    assert summary(events, plays=("First", "Second")) == [
        "== GCORE PLATFORM PLAN", "PLAY [First]", "localhost : 0 created, 0 changed, 0 replaced, 2 deleted", ""]
    assert summary({"Only": [("ok", result("ansible.builtin.debug", "localhost", {}))]}, plays=("Only",)) == []
