# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The simulated volumes answer as the published API does: the three sources, tasks with created_resources and
statuses, the lock, the sync PATCH with tags as a merge patch, extend (never shrink), v2 attach and detach against the
one instance store, delete refused while attached, pages, 404s and 422s."""

from __future__ import annotations

import pytest

from simulator.core import Simulator
from simulator.resources.volumes import IMAGES, SEEDED, SNAPSHOTS, instance_store, volumes_of

BASE = "/cloud/v1/volumes/1/76"
V2 = "/cloud/v2/volumes/1/76"
DATA_1, ATTACHED_1 = SEEDED[0][0], SEEDED[1][0]
IMAGE_ID = next(iter(IMAGES))
SNAPSHOT_ID = next(iter(SNAPSHOTS))


@pytest.fixture
def sim():
    simulator = Simulator()
    simulator.configure(task_delay=0)  # tasks end at the next request; hold() keeps them running
    return simulator


def instance_id(sim, name, project_id=1, region_id=76):
    return next(record["id"] for record in instance_store(sim)
                if record["name"] == name and record["project_id"] == project_id and record["region_id"] == region_id)


def finished(sim, answer):
    """The task of an accepted write, once finished."""
    sim.release()
    sim.advance()
    task = sim.tasks[answer["tasks"][0]]["record"]
    assert task["state"] == "FINISHED", task
    return task


def create(sim, **body):
    status, answer = sim.call("POST", BASE, dict({"source": "new-volume", "name": "vol-a", "size": 10}, **body))
    assert status == 200, answer
    return finished(sim, answer)["created_resources"]["volumes"][0]


def get(sim, ident):
    status, record = sim.call("GET", BASE + "/" + ident)
    assert status == 200, record
    return record


def test_a_new_volume_is_creating_and_locked_until_its_task_finishes_then_available(sim):
    sim.hold()
    status, answer = sim.call("POST", BASE, {"source": "new-volume", "name": "vol-a", "size": 10, "tags": {"env": "dev"}})
    assert status == 200 and list(answer) == ["tasks"] and len(answer["tasks"]) == 1
    record = next(record for record in sim.volumes.values() if record["name"] == "vol-a")
    shown = get(sim, record["id"])
    assert shown["status"] == "creating" and shown["task_id"] == answer["tasks"][0] == shown["creator_task_id"]
    task = finished(sim, answer)
    assert task["created_resources"] == {"volumes": [record["id"]]} and task["task_type"] == "create_volume"
    shown = get(sim, record["id"])
    assert shown["status"] == "available" and shown["task_id"] is None
    assert shown["size"] == 10 and shown["volume_type"] == "standard" and shown["bootable"] is False
    assert shown["tags"] == [{"key": "env", "value": "dev", "read_only": False}] and shown["attachments"] == []
    assert {"id", "name", "size", "status", "volume_type", "bootable", "is_root_volume", "tags", "created_at", "project_id",
            "region", "region_id", "attachments", "creator_task_id", "task_id"} <= set(shown)


def test_image_and_snapshot_sources(sim):
    from_image = get(sim, create(sim, source="image", image_id=IMAGE_ID, size=8, type_name="ssd_hiiops"))
    assert from_image["bootable"] is True and from_image["volume_type"] == "ssd_hiiops"
    assert from_image["volume_image_metadata"]["image_id"] == IMAGE_ID
    snapshot = SNAPSHOTS[SNAPSHOT_ID]
    from_snapshot = get(sim, create_from_snapshot(sim))
    assert from_snapshot["size"] == snapshot["size"] and from_snapshot["volume_type"] == snapshot["volume_type"]


def create_from_snapshot(sim, **extra):
    status, answer = sim.call("POST", BASE, dict({"source": "snapshot", "name": "restored", "snapshot_id": SNAPSHOT_ID}, **extra))
    assert status == 200, answer
    return finished(sim, answer)["created_resources"]["volumes"][0]


@pytest.mark.parametrize("body, status, text", [
    ({"name": "vol-a", "size": 1}, 422, "source: field required"),
    ({"source": "disk", "name": "vol-a", "size": 1}, 422, "source: value is not one of"),
    ({"source": "new-volume", "name": "vol-a"}, 422, "size: field required"),
    ({"source": "new-volume", "size": 1}, 422, "name: field required"),
    ({"source": "new-volume", "name": "a", "size": 1}, 422, "name: string does not match pattern"),
    ({"source": "new-volume", "name": "vol-a", "size": 0}, 422, "size: value is out of range"),
    ({"source": "new-volume", "name": "vol-a", "size": 1, "image_id": IMAGE_ID}, 422, "image_id: extra fields not permitted"),
    ({"source": "new-volume", "name": "vol-a", "size": 1, "type_name": "fast"}, 422, "type_name: value is not one of"),
    ({"source": "new-volume", "name": "vol-a", "size": 1, "attachment_tag": "data"}, 422, "attachment_tag: only used together"),
    ({"source": "new-volume", "name": "vol-a", "size": 1, "tags": {"a b": "c"}}, 422, "tags.a b: the key"),
    ({"source": "image", "name": "vol-a", "size": 10}, 422, "image_id: field required"),
    ({"source": "image", "name": "vol-a", "size": 10, "image_id": "nope"}, 422, "image_id: value is not a valid uuid"),
    ({"source": "image", "name": "vol-a", "size": 10, "image_id": "00000000-0000-4000-8000-000000000000"}, 404, "not found"),
    ({"source": "image", "name": "vol-a", "size": 1, "image_id": IMAGE_ID}, 400, "minimum disk"),
    ({"source": "snapshot", "name": "vol-a"}, 422, "snapshot_id: field required"),
    ({"source": "snapshot", "name": "vol-a", "snapshot_id": SNAPSHOT_ID, "size": 9}, 400, "must equal the snapshot size"),
    ({"source": "new-volume", "name": "vol-a", "size": 1, "instance_id_to_attach_to": "00000000-0000-4000-8000-000000000000"},
     404, "Instance 00000000-0000-4000-8000-000000000000 not found"),
])
def test_create_validation_in_the_cloud_error_shape(sim, body, status, text):
    answer = sim.call("POST", BASE, body)
    assert answer[0] == status, answer
    assert text in answer[1]["message"] and set(answer[1]) == {"exception_class", "message", "request_id"}
    assert not [record for record in sim.volumes.values() if record["name"] == "vol-a"]


def test_a_failed_create_task_leaves_the_volume_in_error(sim):
    sim.configure(task_fail={"create_volume": "no capacity"})
    status, answer = sim.call("POST", BASE, {"source": "new-volume", "name": "vol-a", "size": 1})
    assert status == 200
    sim.advance()
    record = next(record for record in sim.volumes.values() if record["name"] == "vol-a")
    assert get(sim, record["id"])["status"] == "error" and get(sim, record["id"])["task_id"] is None
    assert sim.tasks[answer["tasks"][0]]["record"]["state"] == "ERROR"


def test_settle_reads_show_the_step_status_after_the_task_has_finished(sim):
    sim.configure(volume_settle_reads=2)
    ident = create(sim)
    assert [get(sim, ident)["status"] for _read in range(3)] == ["creating", "creating", "available"]


def test_patch_is_synchronous_renames_and_merges_tags_keeping_read_only_ones(sim):
    status, record = sim.call("PATCH", BASE + "/" + DATA_1, {"name": "data-2", "tags": {"env": None, "team": "ops"}})
    assert status == 200 and record["name"] == "data-2"
    assert record["tags"] == [{"key": "gcore-billing", "value": "on", "read_only": True},
                              {"key": "team", "value": "ops", "read_only": False}]
    status, record = sim.call("PATCH", BASE + "/" + DATA_1, {"tags": None})
    assert status == 200 and [tag["key"] for tag in record["tags"]] == ["gcore-billing"]
    assert sim.call("PATCH", BASE + "/" + DATA_1, {"name": "x"})[0] == 422
    assert sim.call("PATCH", BASE + "/" + DATA_1, {"size": 5})[0] == 422


def test_extend_grows_by_a_task_and_never_shrinks(sim):
    assert sim.call("POST", BASE + "/" + DATA_1 + "/extend", {"size": 10})[1]["message"].endswith("a volume cannot shrink")
    assert sim.call("POST", BASE + "/" + DATA_1 + "/extend", {"size": 5})[0] == 400
    assert sim.call("POST", BASE + "/" + DATA_1 + "/extend", {"size": "20"})[0] == 422
    sim.hold()
    status, answer = sim.call("POST", BASE + "/" + DATA_1 + "/extend", {"size": 20})
    assert status == 200
    assert get(sim, DATA_1)["status"] == "extending" and get(sim, DATA_1)["task_id"] == answer["tasks"][0]
    assert sim.call("PATCH", BASE + "/" + DATA_1, {"name": "data-x"})[0] == 409
    finished(sim, answer)
    assert (get(sim, DATA_1)["size"], get(sim, DATA_1)["status"]) == (20, "available")


def test_attach_and_detach_by_tasks_against_the_instance_store(sim):
    db_1 = instance_id(sim, "db-1")
    vol = create(sim)
    sim.hold()
    status, answer = sim.call("POST", V2 + "/" + vol + "/attach", {"instance_id": db_1, "attachment_tag": "data"})
    assert status == 200
    assert get(sim, vol)["status"] == "attaching"
    finished(sim, answer)
    record = get(sim, vol)
    assert record["status"] == "in-use" and record["task_id"] is None
    assert [(item["server_id"], item["instance_name"], item["volume_id"]) for item in record["attachments"]] == [(db_1, "db-1", vol)]
    instance = next(item for item in instance_store(sim) if item["id"] == db_1)
    assert {"id": vol, "delete_on_termination": False} in instance["volumes"]
    assert [item["id"] for item in sim.call("GET", BASE, query="instance_id=" + db_1)[1]["results"]] == [vol]
    # attached: a second attach, a delete and a detach from another instance are refused
    assert sim.call("POST", V2 + "/" + vol + "/attach", {"instance_id": instance_id(sim, "app")})[0] == 400
    assert "detach it before deleting it" in sim.call("DELETE", BASE + "/" + vol)[1]["message"]
    assert sim.call("POST", V2 + "/" + vol + "/detach", {"instance_id": instance_id(sim, "app")})[0] == 400
    status, answer = sim.call("POST", V2 + "/" + vol + "/detach", {"instance_id": db_1})
    assert status == 200
    finished(sim, answer)
    record = get(sim, vol)
    assert record["status"] == "available" and record["attachments"] == []
    assert vol not in [item["id"] for item in instance["volumes"]]


@pytest.mark.parametrize("body, status", [
    ({}, 422),
    ({"instance_id": "web-1"}, 422),
    ({"instance_id": "00000000-0000-4000-8000-000000000000"}, 404),
    ({"instance_id": "INSTANCE", "attachment_tag": "a/b"}, 422),
    ({"instance_id": "INSTANCE", "extra": 1}, 422),
])
def test_attach_validation(sim, body, status):
    if body.get("instance_id") == "INSTANCE":
        body = dict(body, instance_id=instance_id(sim, "db-1"))
    assert sim.call("POST", V2 + "/" + DATA_1 + "/attach", body)[0] == status


def test_an_instance_that_is_not_active_or_shutoff_cannot_take_a_volume(sim):
    build = instance_id(sim, "build-1", 2, 1)
    status, answer = sim.call("POST", "/cloud/v1/volumes/2/1", {"source": "new-volume", "name": "vol-b", "size": 1})
    ident = finished(sim, answer)["created_resources"]["volumes"][0]
    status, answer = sim.call("POST", "/cloud/v2/volumes/2/1/" + ident + "/attach", {"instance_id": build})
    assert status == 400 and "BUILD" in answer["message"]


def test_the_seeded_attached_volume_is_in_use_on_web_1_and_create_can_attach(sim):
    record = get(sim, ATTACHED_1)
    assert record["status"] == "in-use" and record["attachments"][0]["server_id"] == instance_id(sim, "web-1")
    ident = create(sim, instance_id_to_attach_to=instance_id(sim, "app"), attachment_tag="logs")
    assert get(sim, ident)["status"] == "in-use" and get(sim, ident)["attachments"][0]["instance_name"] == "app"


def test_a_volume_whose_instance_went_away_is_detached(sim):
    sim.instances[:] = [record for record in sim.instances if record["name"] != "web-1"]
    record = get(sim, ATTACHED_1)
    assert record["status"] == "available" and record["attachments"] == []


def test_delete_is_a_task_and_the_volume_goes_when_it_finishes(sim):
    sim.hold()
    status, answer = sim.call("DELETE", BASE + "/" + DATA_1)
    assert status == 200 and get(sim, DATA_1)["status"] == "deleting"
    assert sim.call("DELETE", BASE + "/" + DATA_1)[0] == 409
    finished(sim, answer)
    assert sim.call("GET", BASE + "/" + DATA_1)[0] == 404
    assert sim.call("DELETE", BASE + "/" + DATA_1)[0] == 404


def test_unknown_ids_and_other_scopes_answer_404(sim):
    unknown = "00000000-0000-4000-8000-000000000000"
    for method, path, body in (("GET", BASE + "/" + unknown, None), ("PATCH", BASE + "/" + unknown, {"name": "abc"}),
                               ("DELETE", BASE + "/" + unknown, None), ("POST", BASE + "/" + unknown + "/extend", {"size": 2}),
                               ("POST", V2 + "/" + unknown + "/detach", {"instance_id": unknown}),
                               ("GET", "/cloud/v1/volumes/1/1/" + DATA_1, None)):
        status, answer = sim.call(method, path, body)
        assert status == 404 and answer["exception_class"] == "NotFound", (method, path)


def test_list_pages_and_filters(sim):
    for number in range(5):
        create(sim, name="bulk-%d" % number)
    status, first = sim.call("GET", BASE, query="limit=3&name_part=bulk")
    assert status == 200 and first["count"] == 5 and len(first["results"]) == 3
    second = sim.call("GET", BASE, query="limit=3&offset=3&name_part=bulk")[1]
    assert [record["name"] for record in first["results"] + second["results"]] == ["bulk-%d" % number for number in range(5)]
    assert sorted(record["name"] for record in sim.call("GET", BASE, query="name_part=twin")[1]["results"]) == ["twin-vol", "twin-vol"]
    assert [record["id"] for record in sim.call("GET", BASE, query="has_attachments=true")[1]["results"]] == [ATTACHED_1]
    assert [record["id"] for record in sim.call("GET", BASE, query="tag_key=env")[1]["results"]] == [DATA_1]
    for query in ("limit=0", "limit=1001", "offset=-1", "bootable=maybe", "instance_id=x"):
        assert sim.call("GET", BASE, query=query)[0] == 422, query


def test_the_instance_family_can_add_and_remove_volumes(sim):
    instance = next(record for record in instance_store(sim) if record["name"] == "app" and record["project_id"] == 1)
    family = volumes_of(sim)
    root = family.add_volume("app-root", 10, 1, 76, instance=instance, image_id=IMAGE_ID, root=True)
    record = get(sim, root)
    assert (record["status"], record["bootable"], record["is_root_volume"]) == ("in-use", True, True)
    assert record["attachments"][0]["server_id"] == instance["id"] and {"id": root, "delete_on_termination": False} in instance["volumes"]
    family.remove_volumes([root])
    assert sim.call("GET", BASE + "/" + root)[0] == 404
