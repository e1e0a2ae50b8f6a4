# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The image of an existing instance (issue 46): read from its boot volume (``volume_image_metadata``), the image names
resolved on every run, a different image failing as create-only on ``instance`` and on an ``instances`` fleet (naming
the members), and check mode assuming an image an earlier task builds (never a deactivated one)."""

from __future__ import annotations

import json

from ansible_collections.gcore.platform.plugins.modules import instance, instances

import harness
from harness import writes
from simulator.resources.instances import IMAGE_IDS

NET, SUBNET = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01", "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01"
ONE = dict(project_id=1, region_id=76, name="srv-1", flavor="g1-standard-2-4",
           interfaces=[{"type": "subnet", "network_id": NET, "subnet_id": SUBNET}])
FLEET = dict(ONE, name=None, count=2, name_format="node-{index}")
del FLEET["name"]


def boot(image_name):
    return [{"source": "image", "image_name": image_name, "size": 10, "boot_index": 0}]


def run(server, module=instance, image="ubuntu-22.04", **args):
    return harness.run(server, module, dict(FLEET if module is instances else ONE, **dict(dict(volumes=boot(image)), **args)))


def test_an_instance_on_another_image_fails_naming_both_and_the_way_forward(server):
    ident = run(server)["instance"]["id"]
    assert run(server)["changed"] is False
    server.log = []
    for check in (False, True):
        result = run(server, image="ubuntu-22.04-old", _ansible_check_mode=check)
        assert result["failed"] is True and result["changed"] is False and writes(server) == []
        assert "instance srv-1 (%s) boots from the image 'ubuntu-22.04' (%s), not 'ubuntu-22.04-old' (%s)" % (
            ident, IMAGE_IDS["ubuntu-22.04"], IMAGE_IDS["ubuntu-22.04-old"]) in result["msg"], result["msg"]
        assert "create-only" in result["msg"] and "no rebuild" in result["msg"] and "a new instance" in result["msg"]
    by_id = run(server, volumes=[{"source": "image", "image_id": IMAGE_IDS["ubuntu-22.04"], "size": 10}])
    assert by_id["changed"] is False and not by_id.get("failed"), by_id.get("msg")


def test_a_deactivated_image_fails_even_when_nothing_is_to_be_created(server):
    assert not run(server).get("failed")
    for check in (False, True):
        result = run(server, image="centos-7", _ansible_check_mode=check)
        assert result["failed"] is True and "the image 'centos-7' of project 1, region 76 is deactivated" in result["msg"]
    assert writes(server) == [] or all(method == "POST" and path.endswith("/instances/1/76") for method, path, _b in writes(server))


def test_a_fleet_member_on_another_image_fails_naming_the_members_and_create_only(server):
    assert run(server, instances)["changes"]["created"] == ["node-1", "node-2"]
    server.log = []
    result = run(server, instances, image="ubuntu-22.04-old", count=3)
    assert result["failed"] is True and result["changed"] is False and writes(server) == []
    assert "node-1 (" in result["msg"] and "node-2 (" in result["msg"] and "create-only" in result["msg"], result["msg"]
    assert "not 'ubuntu-22.04-old' (%s)" % IMAGE_IDS["ubuntu-22.04-old"] in result["msg"]
    volumes = [entry for entry in server.requests() if entry["path"] == "/cloud/v1/volumes/1/76"]
    assert len(volumes) == 1, "the members' boot volumes are read in one listing"


def test_check_mode_assumes_an_image_an_earlier_task_builds(server):
    result = run(server, image="golden-2026", _ansible_check_mode=True)
    assert result["changed"] is True and not result.get("failed") and writes(server) == [], result.get("msg")
    assert "check mode assumes that an earlier task creates the image 'golden-2026'" in json.dumps(result["warnings"])
    fleet = run(server, instances, image="golden-2026", _ansible_check_mode=True)
    assert fleet["changed"] is True and fleet["changes"]["created"] == ["node-1", "node-2"], fleet.get("msg")
    assert "the image 'golden-2026'" in json.dumps(fleet["warnings"])
    assert run(server, image="golden-2026")["failed"] is True and writes(server) == []
    assert run(server)["changed"] is True
    existing = run(server, image="golden-2026", _ansible_check_mode=True)
    assert existing["failed"] is True and "not 'golden-2026'" in existing["msg"], existing.get("msg")
