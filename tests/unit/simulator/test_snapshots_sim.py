# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The simulated volume snapshots answer as the published API does: create as a task (creating -> available,
created_resources.snapshots), the list as {count, results} with the volume_id and instance_id filters, the
synchronous PATCH (name, tags), delete as a task, the lock, and volumes (and instance volumes) made from them."""

from __future__ import annotations

import pytest

from sim_api import Api, quick_simulator
from simulator.resources.volumes import SEEDED as SEEDED_VOLUMES

LIST = "/cloud/v1/snapshots/1/76"
VOLUMES = "/cloud/v1/volumes/1/76"
DATA_1, ATTACHED_1 = SEEDED_VOLUMES[0][0], SEEDED_VOLUMES[1][0]
MEMBERS = {"id", "name", "description", "volume_id", "size", "status", "tags", "created_at", "updated_at", "creator_task_id",
           "task_id", "project_id", "region_id", "region"}
UNKNOWN = "00000000-0000-4000-8000-000000000000"


@pytest.fixture
def sim():
    return quick_simulator()


@pytest.fixture
def api(sim):
    return Api(sim)


def get(api, ident):
    return api.ok("GET", LIST + "/" + ident)


def snap(api, volume=DATA_1, **body):
    return api.created("POST", LIST, dict({"name": "snap-1", "volume_id": volume}, **body), "snapshots")


def test_a_snapshot_is_creating_and_locked_until_its_task_finishes_then_available(sim, api):
    sim.hold()
    task = api.task(api.ok("POST", LIST, {"name": "snap-1", "volume_id": DATA_1, "description": "nightly", "tags": {"k": "v"}}))
    ident = next(iter(sim.snapshots))
    shown = get(api, ident)
    assert set(shown) == MEMBERS
    assert (shown["status"], shown["task_id"], shown["creator_task_id"]) == ("creating", task["id"], task["id"])
    assert (shown["size"], shown["volume_id"], shown["description"]) == (10, DATA_1, "nightly")
    assert shown["tags"] == [{"key": "k", "value": "v", "read_only": False}]
    assert api.refused("PATCH", LIST + "/" + ident, {"name": "other"})[0] == 409
    assert api.refused("DELETE", LIST + "/" + ident)[0] == 409
    sim.release()
    sim.advance()
    assert task["task_type"] == "create_snapshot" and task["created_resources"] == {"snapshots": [ident]}
    shown = get(api, ident)
    assert shown["status"] == "available" and shown["task_id"] is None
    assert ident in api.ok("GET", VOLUMES + "/" + DATA_1)["snapshot_ids"]


def test_description_is_null_when_not_given(api):
    assert get(api, snap(api))["description"] is None


def test_a_failed_create_leaves_error(sim, api):
    sim.hold()
    api.failed(api.ok("POST", LIST, {"name": "snap-1", "volume_id": DATA_1}))
    shown = get(api, next(iter(sim.snapshots)))
    assert shown["status"] == "error" and shown["task_id"] is None


@pytest.mark.parametrize("body, status, where", [
    ({"volume_id": DATA_1}, 422, "name"),
    ({"name": "snap-1"}, 422, "volume_id"),
    ({"name": "s", "volume_id": DATA_1}, 422, "name"),
    ({"name": "snap-1", "volume_id": "nope"}, 422, "volume_id"),
    ({"name": "snap-1", "volume_id": DATA_1, "description": None}, 422, "description"),
    ({"name": "snap-1", "volume_id": DATA_1, "tags": {"a b": "c"}}, 422, "tags"),
    ({"name": "snap-1", "volume_id": DATA_1, "size": 3}, 422, "size"),
    ({"name": "snap-1", "volume_id": UNKNOWN}, 404, "Volume"),
])
def test_create_refusals(sim, api, body, status, where):
    got, message = api.refused("POST", LIST, body)
    assert got == status and message.startswith(where)
    assert not sim.snapshots and not sim.tasks


def test_a_low_latency_volume_or_a_busy_one_cannot_be_snapshotted(sim, api):
    low = api.created("POST", VOLUMES, {"source": "new-volume", "name": "fast", "size": 5, "type_name": "ssd_lowlatency"}, "volumes")
    assert "ssd_lowlatency" in api.refused("POST", LIST, {"name": "snap-1", "volume_id": low})[1]
    sim.hold()
    api.ok("POST", VOLUMES + "/" + DATA_1 + "/extend", {"size": 20})
    status, message = api.refused("POST", LIST, {"name": "snap-1", "volume_id": DATA_1})
    assert status == 400 and "extending" in message


def test_the_list_filters_by_volume_and_instance_and_pages(sim, api):
    first = snap(api)
    second = snap(api, ATTACHED_1, name="snap-2")
    assert api.ok("GET", LIST)["count"] == 2
    assert [item["id"] for item in api.ok("GET", LIST, query="volume_id=" + DATA_1)["results"]] == [first]
    web_1 = sim.seeds["instances"]["instances"]["web-1/1/76"]
    assert [item["id"] for item in api.ok("GET", LIST, query="instance_id=" + web_1)["results"]] == [second]
    assert api.ok("GET", LIST, query="schedule_id=x")["count"] == 0
    page = api.ok("GET", LIST, query="limit=1&offset=1")
    assert page["count"] == 2 and [item["id"] for item in page["results"]] == [second]
    assert api.ok("GET", "/cloud/v1/snapshots/1/1")["count"] == 0


def test_patch_renames_and_merges_tags_synchronously(api):
    ident = snap(api, tags={"a": "1", "b": "2"})
    shown = api.ok("PATCH", LIST + "/" + ident, {"name": "renamed", "tags": {"a": None, "c": "3"}})
    assert shown["name"] == "renamed" and [(tag["key"], tag["value"]) for tag in shown["tags"]] == [("b", "2"), ("c", "3")]
    assert api.ok("PATCH", LIST + "/" + ident, {"tags": None})["tags"] == []
    status, message = api.refused("PATCH", LIST + "/" + ident, {"description": "x"})
    assert status == 422 and "description" in message


def test_unknown_and_malformed_ids(api):
    assert api.refused("GET", LIST + "/" + UNKNOWN)[0] == 404
    assert api.refused("GET", LIST + "/nope")[0] == 422
    assert api.refused("DELETE", LIST + "/" + UNKNOWN)[0] == 404


def test_delete_is_a_task_deleting_meanwhile(sim, api):
    ident = snap(api)
    sim.hold()
    task = api.task(api.ok("DELETE", LIST + "/" + ident))
    assert task["task_type"] == "delete_snapshot" and get(api, ident)["status"] == "deleting"
    sim.release()
    sim.advance()
    assert api.refused("GET", LIST + "/" + ident)[0] == 404
    assert ident not in api.ok("GET", VOLUMES + "/" + DATA_1)["snapshot_ids"]


def test_a_failed_delete_leaves_error_deleting(sim, api):
    ident = snap(api)
    sim.hold()
    api.failed(api.ok("DELETE", LIST + "/" + ident))
    assert get(api, ident)["status"] == "error_deleting"


def test_volumes_are_made_only_from_known_available_snapshots(sim, api):
    ident = snap(api)
    volume = api.created("POST", VOLUMES, {"source": "snapshot", "name": "restored", "snapshot_id": ident}, "volumes")
    restored = api.ok("GET", VOLUMES + "/" + volume)
    assert (restored["size"], restored["volume_type"]) == (10, "standard")
    assert "size" in api.refused("POST", VOLUMES, {"source": "snapshot", "name": "restored", "snapshot_id": ident, "size": 11})[1]
    assert api.refused("POST", VOLUMES, {"source": "snapshot", "name": "restored", "snapshot_id": UNKNOWN})[0] == 404
    sim.control("POST", "/_sim/snapshot_status", {"snapshot_id": ident, "status": "error"})
    status, message = api.refused("POST", VOLUMES, {"source": "snapshot", "name": "restored", "snapshot_id": ident})
    assert status == 400 and "available" in message


def test_instance_volumes_need_a_known_snapshot(sim, api):
    body = {"flavor": "g1-standard-1-2", "name": "from-snap", "interfaces": [{"type": "external"}],
            "volumes": [{"source": "snapshot", "snapshot_id": UNKNOWN, "size": 10}]}
    status, message = api.refused("POST", "/cloud/v2/instances/1/76", body)
    assert status == 404 and "Snapshot" in message
    body["volumes"][0]["snapshot_id"] = snap(api)
    api.finished(api.ok("POST", "/cloud/v2/instances/1/76", body))


def test_a_volume_with_snapshots_is_deleted_only_with_them(sim, api):
    volume = api.created("POST", VOLUMES, {"source": "new-volume", "name": "scratch", "size": 5}, "volumes")
    first, second = snap(api, volume), snap(api, volume, name="snap-2")
    status, message = api.refused("DELETE", VOLUMES + "/" + volume)
    assert status == 400 and first in message
    assert api.refused("DELETE", VOLUMES + "/" + volume, query="snapshots=" + first)[0] == 400
    api.finished(api.ok("DELETE", VOLUMES + "/" + volume, query="snapshots=%s,%s" % (first, second)))
    assert api.ok("GET", LIST)["count"] == 0


def test_writes_under_an_applied_fault_happen_once(sim, api):
    sim.add_fault(method="POST", path="^/cloud/v1/snapshots/", status=504, applied=True)
    assert api.refused("POST", LIST, {"name": "snap-1", "volume_id": DATA_1})[0] == 504
    sim.advance()
    assert api.ok("GET", LIST)["count"] == 1  # the service did the work; a blind retry would make a second one
