# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""volume_snapshot, volume_snapshot_info, and volumes from a snapshot by name (volume and instance), in-process against
the simulator: the requests each run sends."""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.modules import instance, volume, volume_snapshot, volume_snapshot_info
from simulator.resources.volumes import SEEDED

import harness

SNAPS = "/cloud/v1/snapshots/1/76"
BASE = dict(project_id=1, region_id=76)
DATA_1 = SEEDED[0][0]


def run(server, module, **args):
    return harness.run(server, module, dict(BASE, **args), _ansible_diff=True)


def snap(server, name="snap-1", **args):
    result = run(server, volume_snapshot, volume="data-1", name=name, **args)
    assert result["changed"] is True and not result.get("failed"), result.get("msg")
    server.log = []
    return result["snapshot"]


def test_create_by_volume_name_waits_until_available_and_the_second_run_sends_nothing(server):
    result = run(server, volume_snapshot, volume="data-1", name="snap-1", description="before", tags={"env": "dev"})
    assert result["changed"] is True and len(result["tasks"]) == 1
    assert result["snapshot"]["status"] == "available" and result["snapshot"]["volume_id"] == DATA_1
    body = {"name": "snap-1", "volume_id": DATA_1, "description": "before", "tags": {"env": "dev"}}
    assert harness.writes(server) == [("POST", SNAPS, body)]
    assert result["diff"]["after"] == {"state": "present", "name": "snap-1", "volume": DATA_1, "description": "before",
                                       "tags": {"env": "dev"}}
    server.log = []
    again = run(server, volume_snapshot, volume="data-1", name="snap-1", description="before", tags={"env": "dev"})
    assert again["changed"] is False and server.writes() == []


def test_check_mode_sends_nothing(server):
    result = harness.run(server, volume_snapshot, dict(BASE, volume="data-1", name="snap-1"), _ansible_check_mode=True)
    assert result["changed"] is True and result["snapshot"] is None and server.writes() == []


def test_rename_and_tags_by_id_are_one_patch_and_a_description_cannot_change(server):
    ident = snap(server, tags={"env": "dev", "team": "db"})["id"]
    result = run(server, volume_snapshot, snapshot_id=ident.upper(), name="snap-2", tags={"env": "prod"})
    assert result["changed"] is True and result["tasks"] == []
    assert harness.writes(server) == [("PATCH", "%s/%s" % (SNAPS, ident), {"name": "snap-2", "tags": {"env": "prod", "team": None}})]
    server.log = []
    result = run(server, volume_snapshot, snapshot_id=ident, description="other")
    assert result["failed"] and "description: snapshot %s has description None, not 'other'" % ident in result["msg"]
    assert server.writes() == []


def test_the_name_is_found_within_the_volume_only(server):
    snap(server)
    result = run(server, volume_snapshot, volume="attached-1", name="snap-1", wait=False)
    assert result["changed"] is True and [entry["method"] for entry in server.writes()] == ["POST"]


def test_a_name_without_a_volume_and_an_unknown_volume_fail_before_any_write(server):
    result = run(server, volume_snapshot, name="snap-1")
    assert result["failed"] and "volume: required to find a snapshot by name" in result["msg"]
    result = run(server, volume_snapshot, name="snap-1", volume="no-such-volume")
    assert result["failed"] and "volume: no volume is named 'no-such-volume'" in result["msg"] and server.writes() == []


def test_delete_waits_for_its_task_then_nothing_to_delete(server):
    snap(server)
    result = run(server, volume_snapshot, volume="data-1", name="snap-1", state="absent")
    assert result["changed"] is True and result["snapshot"] is None and len(result["tasks"]) == 1
    server.log = []
    again = run(server, volume_snapshot, volume="data-1", name="snap-1", state="absent")
    assert again["changed"] is False and server.writes() == []


def test_info_by_id_name_volume_and_all(server):
    one = snap(server)
    run(server, volume_snapshot, volume="attached-1", name="snap-2")
    assert sorted(s["name"] for s in run(server, volume_snapshot_info)["snapshots"]) == ["snap-1", "snap-2"]
    assert [s["name"] for s in run(server, volume_snapshot_info, volume="data-1")["snapshots"]] == ["snap-1"]
    assert run(server, volume_snapshot_info, name="snap-2")["snapshots"][0]["name"] == "snap-2"
    assert run(server, volume_snapshot_info, snapshot_id=one["id"])["snapshots"][0]["id"] == one["id"]
    assert run(server, volume_snapshot_info, volume="no-such-volume")["snapshots"] == []


def test_a_volume_from_a_snapshot_by_name_resolves_it_before_the_create(server):
    ident = snap(server)["id"]
    result = run(server, volume, name="copy-1", source="snapshot", snapshot_name="snap-1")
    assert result["changed"] is True
    assert harness.writes(server)[0][2]["snapshot_id"] == ident
    server.log = []
    again = run(server, volume, name="copy-1", source="snapshot", snapshot_name="snap-1")
    assert again["changed"] is False and server.writes() == []
    result = run(server, volume, name="copy-2", source="snapshot", snapshot_name="no-such-snap")
    assert result["failed"] and "snapshot_name: no snapshot is named 'no-such-snap'" in result["msg"] and server.writes() == []


def test_an_instance_volume_from_a_snapshot_by_name(server):
    ident = snap(server)["id"]
    result = run(server, instance, name="srv-1", flavor="g1-standard-2-4", interfaces=[{"type": "external"}],
                 volumes=[{"source": "snapshot", "snapshot_name": "snap-1", "size": 10, "boot_index": 0}])
    assert result["changed"] is True, result.get("msg")
    assert harness.writes(server)[0][2]["volumes"][0]["snapshot_id"] == ident
    assert "snapshot_name" not in harness.writes(server)[0][2]["volumes"][0]
