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


# ---- instance placement_group ------------------------------------------------------------------

INSTANCE = dict(name="srv-1", flavor="g1-standard-2-4",
                volumes=[{"source": "image", "image_name": "ubuntu-22.04", "size": 10, "boot_index": 0}],
                interfaces=[{"type": "external"}])


def group(server, name, policy="anti-affinity"):
    return run(server, placement_group, name=name, policy=policy)["placement_group"]["servergroup_id"]


def members(server, ident):
    return [item["instance_id"] for item in server.call("GET", "%s/%s" % (GROUPS, ident))[1]["instances"]]


def moves(server):
    return [entry["path"].rsplit("/", 1)[-1] for entry in server.writes()]


def test_an_instance_joins_the_group_named_at_create_sent_as_servergroup_id(server):
    ident = group(server, "web-spread")
    server.log = []
    result = run(server, instance, placement_group="web-spread", **INSTANCE)
    assert result["changed"] is True and members(server, ident) == [result["instance"]["id"]]
    creates = [body for _method, _path, body in harness.writes(server)]
    assert len(creates) == 1 and creates[0]["servergroup_id"] == ident
    assert result["diff"]["after"]["placement_group"] == "web-spread", result["diff"]  # named as the task named it
    assert ident not in str(result["diff"]), result["diff"]
    server.log = []
    again = run(server, instance, placement_group="web-spread", **INSTANCE)
    assert again["changed"] is False and server.writes() == []


def test_the_alias_servergroup_id_takes_an_id(server):
    ident = group(server, "web-spread")
    result = run(server, instance, servergroup_id=ident.upper(), **INSTANCE)
    assert members(server, ident) == [result["instance"]["id"]]


def test_an_existing_instance_moves_out_then_in_and_leaves_with_an_empty_name(server):
    first, second = group(server, "web-spread"), group(server, "db-spread")
    ident = run(server, instance, placement_group="web-spread", **INSTANCE)["instance"]["id"]
    server.log = []
    check = harness.run(server, instance, dict(BASE, placement_group="db-spread", **INSTANCE), _ansible_check_mode=True,
                        _ansible_diff=True)
    assert check["changed"] is True and server.writes() == []
    assert (check["diff"]["before"]["placement_group"], check["diff"]["after"]["placement_group"]) == ("web-spread", "db-spread")
    assert first not in str(check["diff"]) and second not in str(check["diff"]), check["diff"]
    result = run(server, instance, placement_group="db-spread", **INSTANCE)
    assert result["changed"] is True and moves(server) == ["remove_from_servergroup", "put_into_servergroup"]
    assert len(result["tasks"]) == 2 and members(server, first) == [] and members(server, second) == [ident]
    server.log = []
    result = run(server, instance, placement_group="", **INSTANCE)
    assert result["changed"] is True and moves(server) == ["remove_from_servergroup"] and members(server, second) == []
    server.log = []
    result = run(server, instance, placement_group=first, **INSTANCE)
    assert moves(server) == ["put_into_servergroup"] and members(server, first) == [ident]


def test_an_unknown_or_ambiguous_group_fails_before_any_write(server):
    for policy in ("affinity", "anti-affinity"):  # the service does not keep names unique
        server.call("POST", GROUPS, {"name": "twin-group", "policy": policy})
    server.log = []
    result = run(server, instance, placement_group="twin-group", **INSTANCE)
    assert result["failed"] and "placement_group: 2 placement groups" in result["msg"] and server.writes() == []
    result = run(server, instance, placement_group="no-such-group", **INSTANCE)
    assert result["failed"] and "no placement group is named 'no-such-group'" in result["msg"] and server.writes() == []


def test_a_group_holding_an_instance_is_refused_by_the_service_as_is(server):
    group(server, "web-spread")
    run(server, instance, placement_group="web-spread", **INSTANCE)
    server.log = []
    result = run(server, placement_group, name="web-spread", state="absent")
    assert result["failed"] and "still holds instance" in result["msg"] and result["changed"] is False


def test_a_move_without_waiting_fails_before_any_write(server):
    group(server, "web-spread")
    group(server, "db-spread")
    run(server, instance, placement_group="web-spread", **INSTANCE)
    server.log = []
    result = run(server, instance, placement_group="db-spread", wait=False, **INSTANCE)
    assert result["failed"] and "wait: moving instance" in result["msg"] and server.writes() == []
    result = run(server, instance, placement_group="", wait=False, **INSTANCE)
    assert result["changed"] is True and moves(server) == ["remove_from_servergroup"]
