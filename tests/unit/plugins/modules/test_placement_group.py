# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""placement_group, placement_group_info and instance ``placement_group``, in-process against the simulator: the
requests each run sends (create answers the record, no task; delete a task; an instance moved out then in)."""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.modules import instance, placement_group, placement_group_info

import harness

GROUPS = "/cloud/v1/servergroups/1/76"
BASE = dict(project_id=1, region_id=76)


def run(server, module, **args):
    return harness.run(server, module, dict(BASE, **args), _ansible_diff=True)


def test_create_answers_the_record_without_a_task_and_the_second_run_sends_nothing(server):
    result = run(server, placement_group, name="web-spread", policy="anti-affinity")
    assert result["changed"] is True and result["tasks"] == []
    group = result["placement_group"]
    assert group["name"] == "web-spread" and group["policy"] == "anti-affinity" and "id" not in group
    assert [(entry["method"], entry["path"]) for entry in server.writes()] == [("POST", GROUPS)]
    assert result["diff"]["after"] == {"state": "present", "name": "web-spread", "policy": "anti-affinity"}
    server.log = []
    again = run(server, placement_group, name="web-spread", policy="anti-affinity")
    assert again["changed"] is False and server.writes() == [] and len(server.log) == 1
    assert again["placement_group"]["servergroup_id"] == group["servergroup_id"]


def test_without_waiting_the_create_still_returns_the_group(server):
    result = run(server, placement_group, name="web-spread", policy="affinity", wait=False)
    assert result["changed"] is True and result["placement_group"]["policy"] == "affinity"


def test_another_policy_fails_before_any_write(server):
    run(server, placement_group, name="web-spread", policy="affinity")
    server.log = []
    result = run(server, placement_group, name="web-spread", policy="anti-affinity")
    assert result["failed"] and "policy: placement group" in result["msg"] and "'affinity', not 'anti-affinity'" in result["msg"]
    assert server.writes() == []


def test_by_id_a_name_cannot_change(server):
    ident = run(server, placement_group, name="web-spread", policy="affinity")["placement_group"]["servergroup_id"]
    server.log = []
    result = run(server, placement_group, placement_group_id=ident.upper(), name="web-other")
    assert result["failed"] and "name: placement group %s has name 'web-spread'" % ident in result["msg"]
    assert server.writes() == []


def test_delete_waits_for_its_task_and_then_is_unchanged(server):
    run(server, placement_group, name="web-spread", policy="affinity")
    server.log = []
    result = run(server, placement_group, name="web-spread", state="absent")
    assert result["changed"] is True and len(result["tasks"]) == 1 and result["placement_group"] is None
    assert [entry["method"] for entry in server.writes()] == ["DELETE"]
    server.log = []
    again = run(server, placement_group, name="web-spread", state="absent")
    assert again["changed"] is False and server.writes() == []


def test_info_by_id_name_and_all(server):
    one = run(server, placement_group, name="web-spread", policy="affinity")["placement_group"]
    run(server, placement_group, name="db-spread", policy="soft-anti-affinity")
    assert [g["name"] for g in run(server, placement_group_info)["placement_groups"]] == ["web-spread", "db-spread"]
    assert run(server, placement_group_info, name="db-spread")["placement_groups"][0]["policy"] == "soft-anti-affinity"
    assert run(server, placement_group_info, placement_group_id=one["servergroup_id"])["placement_groups"] == [one]
    assert run(server, placement_group_info, name="nope-group")["placement_groups"] == []
