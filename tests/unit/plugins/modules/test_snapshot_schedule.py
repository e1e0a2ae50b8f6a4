# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""snapshot_schedule and snapshot_schedule_info, in-process against the simulator: the requests each run sends, the
schedules as children (identity: all their members), the volumes as a set, changes, diff and check mode."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.modules import snapshot_schedule, snapshot_schedule_info
from simulator.resources.volumes import SEEDED

import harness

POLICIES = "/cloud/v1/lifecycle_policy/1/76"
BASE = dict(project_id=1, region_id=76)
DATA_1, ATTACHED_1 = SEEDED[0][0], SEEDED[1][0]
NIGHTLY = {"type": "cron", "hour": "2", "max_quantity": 7}
NIGHTLY_LABEL = "cron hour=2, max_quantity=7"
SIX_HOURLY = {"type": "interval", "hours": 6, "retention_time": {"days": 2}}
SIX_LABEL = "interval hours=6, max_quantity=2, retention_time=2d"
EMPTY = {"created": [], "updated": [], "deleted": [], "schedules": {"added": [], "removed": []}, "volumes": {"added": [], "removed": []}}


def run(server, module=snapshot_schedule, **args):
    return harness.run(server, module, dict(BASE, **args), _ansible_diff=True)


def changes(**given):
    result = dict(EMPTY, **dict((key, value) for key, value in given.items() if key not in ("schedules", "volumes")))
    for key in ("schedules", "volumes"):
        result[key] = dict(EMPTY[key], **given.get(key, {}))
    return result


def made(server, **args):
    result = run(server, **dict(dict(name="db-nightly", schedules=[NIGHTLY], volumes=["data-1"]), **args))
    assert result["changed"] is True and not result.get("failed"), result.get("msg")
    server.log = []
    return result["policy"]


def test_create_sends_the_schedules_then_adds_the_volumes_and_the_second_run_sends_nothing(server):
    result = run(server, name="db-nightly", schedules=[NIGHTLY], volumes=["data-1"])
    policy = result["policy"]
    assert result["changed"] is True and "tasks" not in result
    assert harness.writes(server) == [
        ("POST", POLICIES, {"name": "db-nightly", "action": "volume_snapshot", "status": "active", "schedules": [
            {"type": "cron", "minute": "0", "hour": "2", "day": "*", "month": "*", "week": "*", "day_of_week": "*",
             "timezone": "UTC", "max_quantity": 7, "resource_name_template": snapshot_schedule.TEMPLATE}]}),
        ("PUT", "%s/%s/add_volumes_to_policy" % (POLICIES, policy["id"]), {"volume_ids": [DATA_1]})]
    assert policy["volumes"] == [{"volume_id": DATA_1, "volume_name": "data-1"}] and policy["schedules"][0]["hour"] == "2"
    assert result["changes"] == changes(created=["db-nightly"], schedules={"added": [NIGHTLY_LABEL]}, volumes={"added": [DATA_1]})
    assert result["diff"]["before"] == {"state": "absent"}
    assert result["diff"]["after"]["volumes"] == [DATA_1] and result["diff"]["after"]["status"] == "active"
    server.log = []
    again = run(server, name="db-nightly", schedules=[{"type": "cron", "hour": " 2", "minute": "0", "timezone": "UTC",
                                                       "max_quantity": 7}], volumes=[DATA_1.upper()])
    assert again["changed"] is False and server.writes() == [] and again["changes"] == EMPTY
    assert [entry["query"] for entry in server.requests("GET", POLICIES)] == ["need_volumes=true&limit=1000&offset=0"]


def test_check_mode_sends_nothing_and_previews_the_schedules(server):
    result = harness.run(server, snapshot_schedule, dict(BASE, name="db-check", schedules=[NIGHTLY, SIX_HOURLY]),
                         _ansible_check_mode=True, _ansible_diff=True)
    assert result["changed"] is True and result["policy"] is None and server.writes() == []
    assert result["changes"] == changes(created=["db-check"], schedules={"added": sorted([NIGHTLY_LABEL, SIX_LABEL])})
    assert [schedule["type"] for schedule in result["diff"]["after"]["schedules"]] == ["cron", "interval"]


def test_a_changed_schedule_is_added_then_the_old_one_removed_and_name_and_status_are_one_patch(server):
    policy = made(server, name="db-change")
    ident, old = policy["id"], policy["schedules"][0]["id"]
    result = run(server, snapshot_schedule_id=ident, name="db-changed", status="paused", schedules=[dict(NIGHTLY, max_quantity=8)])
    item = "%s/%s" % (POLICIES, ident)
    sent = harness.writes(server)
    assert [(method, path) for method, path, _body in sent] == [("PATCH", item), ("POST", item + "/add_schedules"),
                                                                ("POST", item + "/remove_schedules")]
    assert sent[0][2] == {"name": "db-changed", "status": "paused"} and sent[2][2] == {"schedule_ids": [old]}
    assert result["changes"] == changes(updated=["db-changed"], schedules={"added": ["cron hour=2, max_quantity=8"],
                                                                           "removed": [NIGHTLY_LABEL]})
    assert result["policy"]["volumes"] == [{"volume_id": DATA_1, "volume_name": "data-1"}], "volumes not given: kept"
    assert [schedule["max_quantity"] for schedule in result["policy"]["schedules"]] == [8]


def test_at_the_limit_the_removals_go_between_the_adds(server):
    full = [dict(NIGHTLY, minute=str(minute)) for minute in range(10)]
    ident = made(server, name="db-full", schedules=full)["id"]
    wanted = full[:8] + [dict(SIX_HOURLY, hours=hours) for hours in (1, 2)]
    result = run(server, name="db-full", schedules=wanted)
    assert not result.get("failed"), result["msg"]
    item = "%s/%s" % (POLICIES, ident)
    assert [(method, path) for method, path, _body in harness.writes(server)] == [("POST", item + "/remove_schedules"),
                                                                                  ("POST", item + "/add_schedules")]
    server.log = []
    wanted = full[:7] + [dict(SIX_HOURLY, hours=hours) for hours in (1, 2)]
    result = run(server, name="db-full", schedules=wanted + [dict(SIX_HOURLY, hours=3)])
    assert [(method, path, len(body.get("schedules") or body.get("schedule_ids"))) for method, path, body in harness.writes(server)] == [
        ("POST", item + "/remove_schedules", 1), ("POST", item + "/add_schedules", 1)]
    server.log = []
    result = run(server, name="db-full", schedules=[dict(NIGHTLY, hour="4")])  # full, one new: the removals first
    assert [(method, path) for method, path, _body in harness.writes(server)] == [("POST", item + "/remove_schedules"),
                                                                                  ("POST", item + "/add_schedules")]
    assert [schedule["hour"] for schedule in result["policy"]["schedules"]] == ["4"]


def test_with_room_the_add_goes_first(server):
    ident = made(server, name="db-room", schedules=[NIGHTLY, SIX_HOURLY])["id"]
    result = run(server, name="db-room", schedules=[SIX_HOURLY, dict(NIGHTLY, hour="3")])
    item = "%s/%s" % (POLICIES, ident)
    assert [(method, path) for method, path, _body in harness.writes(server)] == [("POST", item + "/add_schedules"),
                                                                                  ("POST", item + "/remove_schedules")]
    assert result["changes"]["schedules"] == {"added": ["cron hour=3, max_quantity=7"], "removed": [NIGHTLY_LABEL]}


def test_volumes_are_a_set_one_add_and_one_remove_and_purge_volumes_false_only_adds(server):
    ident = made(server, name="db-volumes")["id"]
    item = "%s/%s" % (POLICIES, ident)
    result = run(server, name="db-volumes", volumes=["attached-1"], purge_volumes=False)
    assert harness.writes(server) == [("PUT", item + "/add_volumes_to_policy", {"volume_ids": [ATTACHED_1]})]
    assert result["diff"]["after"]["volumes"] == sorted([DATA_1, ATTACHED_1])
    server.log = []
    result = run(server, name="db-volumes", volumes=[ATTACHED_1])
    assert harness.writes(server) == [("PUT", item + "/remove_volumes_from_policy", {"volume_ids": [DATA_1]})]
    assert result["changes"] == changes(volumes={"removed": [DATA_1]})
    server.log = []
    result = run(server, name="db-volumes", volumes=["data-1"])
    assert harness.writes(server) == [("PUT", item + "/add_volumes_to_policy", {"volume_ids": [DATA_1]}),
                                      ("PUT", item + "/remove_volumes_from_policy", {"volume_ids": [ATTACHED_1]})]
    server.log = []
    assert run(server, name="db-volumes", volumes=[])["changes"]["volumes"] == {"added": [], "removed": [DATA_1]}


def test_volumes_are_resolved_before_any_write(server):
    far = server.call("POST", "/cloud/v1/volumes/1/1", {"source": "new-volume", "name": "far", "size": 1})[1]
    server.release()
    server.advance()
    far_id = next(ident for ident, volume in server.volumes.items() if volume["region_id"] == 1)
    server.log = []
    for volumes, words in ((["data-1", far_id], "volumes[1]: volume %s is not a volume of project 1, region 76" % far_id),
                           (["twin-vol"], "volumes[0]: 2 volumes of project 1, region 76 are named 'twin-vol'"),
                           (["no-such-volume"], "volumes[0]: no volume is named 'no-such-volume'"),
                           (["data-1", DATA_1], "volumes[1]: the same volume as volumes[0]")):
        result = run(server, name="db-bad-volumes", schedules=[NIGHTLY], volumes=volumes)
        assert result["failed"] and words in result["msg"], result["msg"]
    assert far["tasks"] and server.writes() == []
    checked = harness.run(server, snapshot_schedule, dict(BASE, name="db-later", schedules=[NIGHTLY], volumes=["later-vol"]),
                          _ansible_check_mode=True)
    assert checked["changed"] is True and "assumes that an earlier task creates the volume 'later-vol'" in harness.warning_texts(checked)[0]


def test_two_of_a_name_fail_listing_their_ids_and_a_rename_into_a_taken_name_fails(server):
    first = server.call("POST", POLICIES, {"name": "twin-policy", "action": "volume_snapshot"})[1]["id"]
    second = server.call("POST", POLICIES, {"name": "twin-policy", "action": "volume_snapshot"})[1]["id"]
    other = made(server, name="db-other", volumes=None)["id"]
    result = run(server, name="twin-policy", status="paused")
    assert result["failed"] and "2 snapshot schedules of project 1, region 76 are named 'twin-policy' (ids %s, %s)" % (first, second) in result["msg"]
    result = run(server, snapshot_schedule_id=other, name="twin-policy")
    assert result["failed"] and "is already named 'twin-policy'" in result["msg"] and server.writes() == []


def test_a_create_needs_a_schedule_and_an_unknown_id_cannot_be_created(server):
    result = run(server, name="db-none")
    assert result["failed"] and "schedules: at least one schedule is required" in result["msg"]
    result = run(server, snapshot_schedule_id=999, name="db-none", schedules=[NIGHTLY])
    assert result["failed"] and "999 does not exist" in result["msg"] and server.writes() == []


def test_delete_and_delete_again(server):
    ident = made(server, name="db-gone")["id"]
    result = run(server, name="db-gone", state="absent")
    assert result["changed"] is True and result["policy"] is None
    assert harness.writes(server) == [("DELETE", "%s/%s" % (POLICIES, ident), None)]
    server.log = []
    assert run(server, name="db-gone", state="absent")["changed"] is False and server.writes() == []


def test_info_by_id_by_name_and_all_with_volumes(server):
    ident = made(server, name="db-info")["id"]
    by_id = run(server, snapshot_schedule_info, snapshot_schedule_id=ident)["snapshot_schedules"]
    assert [policy["name"] for policy in by_id] == ["db-info"] and by_id[0]["volumes"][0]["volume_id"] == DATA_1
    by_name = run(server, snapshot_schedule_info, name="db-info")["snapshot_schedules"]
    assert by_name == by_id
    assert ident in [policy["id"] for policy in run(server, snapshot_schedule_info)["snapshot_schedules"]]
    assert run(server, snapshot_schedule_info, snapshot_schedule_id=99999)["snapshot_schedules"] == []
    assert server.writes() == []


@pytest.mark.parametrize("args, words", [
    (dict(snapshot_schedule_id=0, name="x-policy"), "snapshot_schedule_id: 0 is out of range (must be at least 1)"),
    (dict(name="x"), "name: length 1 is out of range"),
])
def test_bad_ids_and_names_fail_before_any_request(args, words):
    assert words in harness.fail_message(snapshot_schedule, dict(BASE, **args))
