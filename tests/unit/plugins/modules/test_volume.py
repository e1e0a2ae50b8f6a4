# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""volume and volume_info, in process against the simulator over HTTP: create from each source and wait until ready, a
second run sends nothing, check mode and diff, rename and tags in one PATCH, extend (never shrink), create-only
options, attach / move / detach by instance id or exact name, delete of an attached volume (detached first), locks,
``wait: false``, and the info module's id / exact name / all / instance filters."""

from __future__ import annotations

import copy
from unittest import mock

import pytest

from ansible_collections.gcore.platform.plugins.module_utils import _cloud
from ansible_collections.gcore.platform.plugins.modules import volume, volume_info
from simulator.resources.volumes import IMAGES, SEEDED, SNAPSHOTS, instance_store

import harness
from harness import writes

BASE = "/cloud/v1/volumes/1/76"
V2 = "/cloud/v2/volumes/1/76"
DATA_1, ATTACHED_1 = SEEDED[0][0], SEEDED[1][0]
TWINS = [SEEDED[2][0], SEEDED[3][0]]
IMAGE_ID = next(iter(IMAGES))
SNAPSHOT_ID = next(iter(SNAPSHOTS))


def run(server, **args):
    return harness.run(server, volume, dict(args, project_id=1, region_id=76), _ansible_diff=True)


def info(server, **args):
    return harness.run(server, volume_info, dict(args, project_id=1, region_id=76))


def instance_id(server, name, project_id=1, region_id=76):
    return next(record["id"] for record in instance_store(server)
                if record["name"] == name and record["project_id"] == project_id and record["region_id"] == region_id)


def add_instance(server, like, new_id):
    """One more instance in the one instance store (a list, or a dict by id), a copy of ``like`` with another id."""
    record = dict(copy.deepcopy(next(item for item in instance_store(server) if item["id"] == like)), id=new_id)
    if isinstance(server.instances, dict):
        server.instances[new_id] = record
    else:
        server.instances.append(record)
    for resource in server.resources:  # the instance family may keep an index of its list (instances.py: by_pair)
        if getattr(resource, "by_pair", None) is not None:
            resource.by_pair = None


def by_name(server, name):
    return [record for record in server.volumes.values() if record["name"] == name]


def test_create_sends_one_post_waits_until_available_and_a_second_run_sends_nothing(server):
    server.configure(volume_settle_reads=2)  # still "creating" for two reads after its task: the ready wait reads on
    args = dict(name="vol-a", size=10, tags={"env": "dev"})
    result = run(server, **args)
    assert result["changed"] is True, result
    assert writes(server) == [("POST", BASE, {"source": "new-volume", "name": "vol-a", "size": 10, "tags": {"env": "dev"}})]
    record = result["volume"]
    assert record["status"] == "available" and record["size"] == 10 and record["volume_type"] == "standard"
    assert len(result["tasks"]) == 1 and record["creator_task_id"] == result["tasks"][0]
    assert result["diff"] == {"before": {"state": "absent"}, "after": {
        "state": "present", "name": "vol-a", "tags": {"env": "dev"}, "type_name": "standard", "size": 10}}
    reads = server.requests("GET", BASE + "/" + record["id"] + "$")
    assert len(reads) == 3, "the record read once after the task, then twice more while it said creating"
    server.log = []
    again = run(server, **args)
    assert again["changed"] is False and writes(server) == [] and again["tasks"] == []
    assert again["volume"]["id"] == record["id"]
    assert [entry["query"] for entry in server.requests("GET", BASE + "$")] == ["name_part=vol-a&limit=1000&offset=0"]


def test_check_mode_sends_nothing_and_shows_the_diff(server):
    result = run(server, name="vol-a", size=10, _ansible_check_mode=True)
    assert result["changed"] is True and result["volume"] is None and writes(server) == []
    assert result["diff"]["after"]["size"] == 10
    result = run(server, name="data-1", size=30, type_name="standard", _ansible_check_mode=True)
    assert result["changed"] is True and writes(server) == [] and result["volume"]["size"] == 10
    assert (result["diff"]["before"]["size"], result["diff"]["after"]["size"]) == (10, 30)
    result = run(server, name="data-1", size=5, _ansible_check_mode=True)
    assert result["failed"] is True and "never shrink" in result["msg"] and writes(server) == []


@pytest.mark.parametrize("args, body", [
    (dict(name="boot", source="image", image_id=IMAGE_ID.upper(), size=8, type_name="ssd_hiiops"),
     {"source": "image", "name": "boot", "image_id": IMAGE_ID, "size": 8, "type_name": "ssd_hiiops"}),
    (dict(name="restored", source="snapshot", snapshot_id=SNAPSHOT_ID),
     {"source": "snapshot", "name": "restored", "snapshot_id": SNAPSHOT_ID}),
])
def test_image_and_snapshot_sources_send_their_own_body(server, args, body):
    result = run(server, **args)
    assert result["changed"] is True and writes(server) == [("POST", BASE, body)]
    server.log = []
    assert run(server, **args)["changed"] is False and writes(server) == []


def test_a_snapshot_copy_shows_the_snapshot_type_and_size(server):
    result = run(server, name="restored", source="snapshot", snapshot_id=SNAPSHOT_ID)
    snapshot = SNAPSHOTS[SNAPSHOT_ID]
    assert (result["volume"]["size"], result["volume"]["volume_type"]) == (snapshot["size"], snapshot["volume_type"])
    assert "type_name" not in result["diff"]["after"] and "size" not in result["diff"]["after"], "the snapshot's: not known before"


def test_rename_by_id_and_tags_in_one_sync_patch_keeping_read_only_tags(server):
    result = run(server, volume_id=DATA_1.upper(), name="data-2", tags={"team": "ops"})
    assert result["changed"] is True and result["tasks"] == []
    assert writes(server) == [("PATCH", BASE + "/" + DATA_1, {"name": "data-2", "tags": {"team": "ops", "env": None}})]
    assert result["volume"]["name"] == "data-2"
    assert {"key": "gcore-billing", "value": "on", "read_only": True} in result["volume"]["tags"]
    assert result["diff"]["before"]["tags"] == {"env": "prod"}
    server.log = []
    run(server, volume_id=DATA_1, tags={"env": "prod"}, purge_tags=False)
    assert writes(server) == [("PATCH", BASE + "/" + DATA_1, {"tags": {"env": "prod"}})]
    assert [tag["key"] for tag in server.volumes[DATA_1]["tags"]] == ["gcore-billing", "team", "env"]


def test_the_diff_shows_the_user_tags_after_the_change_not_the_merge_patch(server):
    result = run(server, name="data-1", tags={"team": "ops"})
    assert result["diff"]["before"]["tags"] == {"env": "prod"} and result["diff"]["after"]["tags"] == {"team": "ops"}
    kept = run(server, name="data-1", tags={"env": "prod"}, purge_tags=False)
    assert kept["diff"]["after"]["tags"] == {"team": "ops", "env": "prod"}


def test_extend_grows_with_one_task_and_a_smaller_size_fails_before_any_write(server):
    result = run(server, name="data-1", size=25)
    assert result["changed"] is True and writes(server) == [("POST", BASE + "/" + DATA_1 + "/extend", {"size": 25})]
    assert result["volume"]["size"] == 25 and result["volume"]["status"] == "available" and len(result["tasks"]) == 1
    server.log = []
    assert run(server, name="data-1", size=25)["changed"] is False and writes(server) == []
    shrink = run(server, name="data-1", size=24)
    assert shrink["failed"] is True and shrink["changed"] is False and writes(server) == []
    assert "size: volume %s has 25 GiB, more than the 24 GiB asked for; a volume can never shrink" % DATA_1 in shrink["msg"]


@pytest.mark.parametrize("args, text", [
    (dict(name="data-1", type_name="ssd_hiiops"),
     "type_name: volume %s has type_name 'standard', not 'ssd_hiiops'; it can only be set when the volume is created" % DATA_1),
    (dict(name="data-1", source="image", image_id=IMAGE_ID), "image_id: volume %s has image_id None, not %r" % (DATA_1, IMAGE_ID)),
])
def test_a_differing_create_only_option_fails_naming_it_before_any_write(server, args, text):
    result = run(server, size=30, **args)
    assert result["failed"] is True and text in result["msg"] and "delete the volume and create it again" in result["msg"]
    assert writes(server) == [] and result["changed"] is False


def test_attach_by_name_move_and_detach(server):
    db_1, app = instance_id(server, "db-1"), instance_id(server, "app")
    result = run(server, name="data-1", instance="db-1", attachment_tag="data")
    assert result["changed"] is True and writes(server) == [("POST", V2 + "/" + DATA_1 + "/attach", {"instance_id": db_1, "attachment_tag": "data"})]
    assert result["volume"]["status"] == "in-use" and result["volume"]["attachments"][0]["server_id"] == db_1
    assert (result["diff"]["before"]["instance_id"], result["diff"]["after"]["instance_id"]) == (None, db_1)
    lookups = server.requests("GET", r"^/cloud/v1/instances/1/76$")
    assert len(lookups) == 1 and "name=db-1" in lookups[0]["query"]
    server.log = []
    assert run(server, name="data-1", instance=db_1.upper())["changed"] is False and writes(server) == []
    server.log = []
    moved = run(server, name="data-1", instance="app")
    assert moved["changed"] is True and len(moved["tasks"]) == 2
    assert writes(server) == [("POST", V2 + "/" + DATA_1 + "/detach", {"instance_id": db_1}),
                              ("POST", V2 + "/" + DATA_1 + "/attach", {"instance_id": app})]
    assert moved["volume"]["attachments"][0]["server_id"] == app
    server.log = []
    detached = run(server, name="data-1", instance="")
    assert writes(server) == [("POST", V2 + "/" + DATA_1 + "/detach", {"instance_id": app})]
    assert detached["volume"]["status"] == "available" and detached["volume"]["attachments"] == []
    assert detached["diff"]["after"]["instance_id"] is None
    server.log = []
    assert run(server, name="data-1", instance="")["changed"] is False and writes(server) == []


def test_create_attached_in_the_create_request(server):
    app = instance_id(server, "app")
    result = run(server, name="vol-a", size=1, instance="app", attachment_tag="logs")
    assert writes(server) == [("POST", BASE, {"source": "new-volume", "name": "vol-a", "size": 1,
                                              "instance_id_to_attach_to": app, "attachment_tag": "logs"})]
    assert result["volume"]["status"] == "in-use" and result["diff"]["after"]["instance_id"] == app


def test_an_instance_name_that_matches_none_or_several_fails_before_any_write(server):
    result = run(server, name="data-1", instance="no-such-vm")
    assert result["failed"] is True and "instance: no instance is named 'no-such-vm' in project 1, region 76" in result["msg"]
    add_instance(server, instance_id(server, "db-1"), "0d0d0d0d-0000-4000-8000-000000000001")
    result = run(server, name="data-1", instance="db-1")
    assert result["failed"] is True and "instance: 2 instances of project 1, region 76 are named 'db-1'" in result["msg"]
    assert "0d0d0d0d-0000-4000-8000-000000000001" in result["msg"] and writes(server) == []


def test_delete_of_an_attached_volume_detaches_it_first_and_a_second_run_sends_nothing(server):
    web_1 = instance_id(server, "web-1")
    result = run(server, name="attached-1", state="absent")
    assert result["changed"] is True and result["volume"] is None and len(result["tasks"]) == 2
    assert writes(server) == [("POST", V2 + "/" + ATTACHED_1 + "/detach", {"instance_id": web_1}),
                              ("DELETE", BASE + "/" + ATTACHED_1, None)]
    assert result["diff"]["after"] == {"state": "absent"} and ATTACHED_1 not in server.volumes
    server.log = []
    again = run(server, name="attached-1", state="absent")
    assert again["changed"] is False and writes(server) == [] and again["diff"]["before"] == {"state": "absent"}


def test_wait_false_returns_the_tasks_and_refuses_a_run_that_needs_two_tasks(server):
    server.hold()
    result = run(server, name="vol-a", size=1, wait=False)
    assert result["changed"] is True and result["volume"] is None and len(result["tasks"]) == 1
    assert server.tasks[result["tasks"][0]]["record"]["state"] in ("NEW", "RUNNING")
    server.release()
    server.log = []
    refused = run(server, name="attached-1", state="absent", wait=False)
    assert refused["failed"] is True and writes(server) == []
    assert "wait: this run needs 2 tasks, each started once the one before has finished (POST %s/%s/detach, then DELETE %s/%s)" % (
        V2, ATTACHED_1, BASE, ATTACHED_1) in refused["msg"]
    refused = run(server, name="attached-1", size=30, instance="", wait=False)
    assert refused["failed"] is True and "(POST %s/%s/extend, then POST %s/%s/detach)" % (BASE, ATTACHED_1, V2, ATTACHED_1) in refused["msg"]
    assert writes(server) == []


def test_a_locked_volume_is_waited_for_before_the_change(server):
    server.hold()
    status, _answer = server.call("POST", BASE + "/" + DATA_1 + "/extend", {"size": 12})
    assert status == 200
    server.release(after={"method": "GET", "path": BASE + "/" + DATA_1 + "$", "times": 1})
    server.log = []
    result = run(server, name="data-1", size=15)
    assert not result.get("failed"), result["msg"]
    assert writes(server) == [("POST", BASE + "/" + DATA_1 + "/extend", {"size": 15})] and result["volume"]["size"] == 15


def test_a_volume_in_error_fails_naming_its_id_and_status_and_nothing_is_sent(server):
    server.volumes[DATA_1]["status"] = "error_extending"
    result = run(server, name="data-1", tags={})
    assert result["failed"] is True and result["changed"] is False and writes(server) == []
    assert "Volume %s is error_extending: the service could not finish it" % DATA_1 in result["msg"]
    assert run(server, name="data-1", state="absent")["changed"] is True, "a volume in error can still be deleted"


def test_identity_rules(server):
    missing = "00000000-0000-4000-8000-0000000000aa"
    result = run(server, volume_id=missing, name="vol-a", size=1)
    assert result["failed"] is True and "does not exist" in result["msg"] and writes(server) == []
    assert run(server, volume_id=missing, state="absent")["changed"] is False
    twins = run(server, name="twin-vol", size=5)
    assert twins["failed"] is True and "2 volumes of project 1, region 76 are named 'twin-vol'" in twins["msg"]
    assert all(ident in twins["msg"] for ident in TWINS) and writes(server) == []
    missing_size = run(server, name="vol-new")
    assert missing_size["failed"] is True and "size: required to create the volume 'vol-new'" in missing_size["msg"]


def test_info_by_id_name_all_and_instance(server):
    assert [record["id"] for record in info(server, volume_id=DATA_1.upper())["volumes"]] == [DATA_1]
    assert info(server, volume_id="00000000-0000-4000-8000-0000000000aa")["volumes"] == []
    assert sorted(record["id"] for record in info(server, name="twin-vol")["volumes"]) == sorted(TWINS)
    assert info(server, name="twin")["volumes"] == []
    assert [record["id"] for record in info(server, instance="web-1")["volumes"]] == [ATTACHED_1]
    assert info(server, instance="no-such-vm")["volumes"] == []
    assert info(server, volume_id=DATA_1, instance="web-1")["volumes"] == []
    with mock.patch.object(_cloud, "PAGE_SIZE", 3):
        everything = info(server)["volumes"]
    assert sorted(record["id"] for record in everything) == sorted(ident for ident, *_rest in SEEDED)
    assert len(server.requests("GET", BASE + "$")) == 5  # twin, twin, instance, then two pages of three
    assert writes(server) == []


def test_a_create_still_running_at_wait_timeout_fails_naming_its_task_and_the_rerun_finds_the_volume(server):
    server.hold()
    result = run(server, name="vol-a", size=1, wait_timeout=1)
    assert result["failed"] is True and result["changed"] is True, result
    task_id = result["tasks"][0]
    assert task_id in result["msg"] and "the change was sent" in result["msg"]
    server.release()
    server.log = []
    again = run(server, name="vol-a", size=1)
    assert again["changed"] is False and writes(server) == [] and len(by_name(server, "vol-a")) == 1
    assert again["volume"]["status"] == "available"


def test_a_failed_create_task_fails_naming_it_and_the_rerun_fails_on_the_volume_in_error(server):
    server.configure(task_fail={"create_volume": "no capacity left"})
    result = run(server, name="vol-a", size=1)
    assert result["failed"] is True and result["changed"] is True and "no capacity left" in result["msg"]
    server.log = []
    again = run(server, name="vol-a", size=1)
    assert again["changed"] is False and writes(server) == [] and len(by_name(server, "vol-a")) == 1
    ident = by_name(server, "vol-a")[0]["id"]
    assert again["failed"] is True and "Volume %s is error: the service could not finish it" % ident in again["msg"]


def test_a_volume_still_creating_after_its_task_at_wait_timeout_fails_naming_its_id_and_status(server):
    server.configure(volume_settle_reads=10 ** 6)
    result = run(server, name="vol-a", size=1, wait_timeout=1)
    ident = by_name(server, "vol-a")[0]["id"]
    assert result["failed"] is True and result["changed"] is True
    assert "Volume %s is still creating after wait_timeout=1s" % ident in result["msg"]
