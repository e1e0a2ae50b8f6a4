# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The simulated snapshot schedules (lifecycle policies) answer as the published API does: synchronous writes answering
the record, integer policy ids and string schedule ids, volumes shown only with need_volumes=true, the service's
defaults for omitted schedule members, and its refusals (cron values, intervals, counts, both kinds of members, more
than 10 schedules, volumes of another region)."""

from __future__ import annotations

import pytest

from sim_api import Api, quick_simulator
from simulator.resources.lifecycle_policies import TEMPLATE

LIST = "/cloud/v1/lifecycle_policy/1/76"
VOLUMES = "/cloud/v1/volumes/1/76"
NIGHTLY = {"type": "cron", "hour": "2", "max_quantity": 7}


@pytest.fixture
def sim():
    return quick_simulator()


@pytest.fixture
def api(sim):
    return Api(sim)


def volume_ids(sim, region=76):
    return sorted(ident for ident, record in sim.volumes.items() if record["region_id"] == region)


def create(api, **body):
    return api.ok("POST", LIST, dict({"name": "nightly", "action": "volume_snapshot", "schedules": [NIGHTLY]}, **body))


def test_create_answers_the_record_at_once_with_the_service_defaults(sim, api):
    record = create(api, schedules=[NIGHTLY, {"type": "interval", "hours": 6, "retention_time": {"days": 2}}])
    assert isinstance(record["id"], int) and record["status"] == "active" and record["volumes"] == [] and not sim.tasks
    cron, interval = record["schedules"]
    assert isinstance(cron["id"], str) and cron["owner_id"] == record["id"] and cron["retention_time"] is None
    assert (cron["minute"], cron["hour"], cron["day"], cron["day_of_week"], cron["timezone"]) == ("0", "2", "*", "*", "UTC")
    assert cron["max_quantity"] == 7 and cron["resource_name_template"] == TEMPLATE
    assert (interval["hours"], interval["days"], interval["max_quantity"]) == (6, None, 2)
    assert interval["retention_time"] == {"weeks": None, "days": 2, "hours": None, "minutes": None}


def test_volumes_show_only_with_need_volumes_and_follow_the_volume_store(sim, api):
    data = volume_ids(sim)[0]
    record = create(api, volume_ids=[data])
    assert record["volumes"] == [] and api.ok("GET", "%s/%s" % (LIST, record["id"]))["volumes"] == []
    shown = api.ok("GET", "%s/%s" % (LIST, record["id"]), query="need_volumes=true")["volumes"]
    assert shown == [{"volume_id": data, "volume_name": sim.volumes[data]["name"]}]
    listed = api.ok("GET", LIST, query="need_volumes=true")
    assert listed["count"] == 1 and listed["results"][0]["volumes"] == shown
    del sim.volumes[data]
    assert api.ok("GET", "%s/%s" % (LIST, record["id"]), query="need_volumes=true")["volumes"] == []


def test_patch_schedules_and_volumes_change_the_policy(sim, api):
    first, second = volume_ids(sim)[:2]
    record = create(api)
    item = "%s/%s" % (LIST, record["id"])
    assert api.ok("PATCH", item, {"name": "nightly-2", "status": "paused"})["status"] == "paused"
    added = api.ok("POST", item + "/add_schedules", {"schedules": [{"type": "interval", "days": 1}]})
    assert len(added["schedules"]) == 2
    removed = api.ok("POST", item + "/remove_schedules", {"schedule_ids": [added["schedules"][0]["id"]]})
    assert [schedule["type"] for schedule in removed["schedules"]] == ["interval"]
    api.ok("PUT", item + "/add_volumes_to_policy", {"volume_ids": [first, second, first]})
    answer = api.ok("PUT", item + "/remove_volumes_from_policy", {"volume_ids": [first]}, query="need_volumes=true")
    assert [volume["volume_id"] for volume in answer["volumes"]] == [second]
    status, _body = sim.call("DELETE", item)
    assert status == 204 and api.refused("GET", item)[0] == 404


@pytest.mark.parametrize("schedule, status, words", [
    ({"type": "cron", "hour": "25"}, 400, "schedules.0.hour: '25' is not a valid cron value"),
    ({"type": "cron", "day_of_week": "mon,funday"}, 400, "day_of_week"),
    ({"type": "cron", "minute": "*/5"}, 400, "minute"),
    ({"type": "cron", "hour": "2", "days": 1}, 422, "schedules.0.days: extra fields not permitted"),
    ({"type": "interval", "hours": 1, "minute": "0"}, 422, "schedules.0.minute: extra fields not permitted"),
    ({"type": "interval"}, 400, "needs a period"),
    ({"type": "interval", "hours": -1}, 422, "schedules.0.hours"),
    ({"type": "cron", "max_quantity": 0}, 422, "schedules.0.max_quantity"),
    ({"type": "cron", "max_quantity": 10001}, 422, "schedules.0.max_quantity"),
    ({"type": "cron", "retention_time": {"days": -2}}, 422, "schedules.0.retention_time.days"),
    ({"type": "cron", "resource_name_template": "snap {name}"}, 400, "unknown placeholder {name}"),
    ({"type": "cron", "timezone": "Not a zone"}, 400, "unknown timezone"),
    ({"type": "weekly"}, 422, "schedules.0.type"),
])
def test_a_schedule_the_service_refuses(api, schedule, status, words):
    got, message = api.refused("POST", LIST, {"name": "bad", "action": "volume_snapshot", "schedules": [schedule]})
    assert got == status and words in message, message


def test_at_most_ten_schedules_and_volumes_of_the_scope(sim, api):
    many = [dict(NIGHTLY, minute=str(minute)) for minute in range(11)]
    assert api.refused("POST", LIST, {"name": "many", "action": "volume_snapshot", "schedules": many})[0] == 422
    record = create(api, schedules=many[:9])
    item = "%s/%s" % (LIST, record["id"])
    status, message = api.refused("POST", item + "/add_schedules", {"schedules": many[9:]})
    assert status == 400 and "limit of 10" in message
    elsewhere = api.ok("POST", "/cloud/v1/volumes/1/1", {"source": "new-volume", "name": "far", "size": 1})
    sim.release()
    sim.advance()
    far = next(ident for ident, volume in sim.volumes.items() if volume["region_id"] == 1)
    assert elsewhere["tasks"] and api.refused("PUT", item + "/add_volumes_to_policy", {"volume_ids": [far]})[0] == 404
    assert api.refused("POST", LIST, {"name": "far", "action": "volume_snapshot", "volume_ids": [far]})[0] == 404
    assert api.refused("POST", LIST, {"name": "far", "action": "volume_snapshot", "volume_ids": ["nope"]})[0] == 422
    assert api.refused("POST", item + "/remove_schedules", {"schedule_ids": ["nope"]})[0] == 400
    assert api.refused("PATCH", item, {"name": "x"})[0] == 422  # the PATCH takes the Cloud name rule
    assert api.refused("GET", LIST + "/abc")[0] == 422 and api.refused("GET", "/cloud/v1/lifecycle_policy/1/1/%s" % record["id"])[0] == 404
