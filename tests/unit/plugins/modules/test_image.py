# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""image and image_info in-process against the simulator: an upload waited for until active with a size, an image from
a volume, a PATCH of what differs, create-only options, a delete, and image_info newest first."""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.modules import image, image_info, volume
from simulator.resources.instances import IMAGE_IDS

import harness

IMAGES = "/cloud/v1/images/1/76"
DOWNLOAD = "/cloud/v1/downloadimage/1/76"
BASE = dict(project_id=1, region_id=76)
URL = "https://example.com/debian-12.qcow2"


def run(server, module, **args):
    return harness.run(server, module, dict(BASE, **args), _ansible_diff=True)


def upload(server, name="deb-12", **args):
    result = run(server, image, name=name, source="url", url=URL, **args)
    assert result["changed"] is True and not result.get("failed"), result.get("msg")
    server.log = []
    return result["image"]


def test_an_upload_waits_until_active_with_a_size_and_the_second_run_sends_nothing(server):
    server.configure(image_saving_reads=3)
    result = run(server, image, name="deb-12", source="url", url=URL, os_distro="Debian", os_version="12", tags={"by": "ansible"})
    assert result["changed"] is True and len(result["tasks"]) == 1
    assert result["image"]["status"] == "active" and result["image"]["size"] > 0
    assert harness.writes(server) == [("POST", DOWNLOAD, {"name": "deb-12", "url": URL, "os_distro": "Debian", "os_version": "12",
                                                          "tags": {"by": "ansible"}})]
    reads = [entry for entry in server.log if entry["method"] == "GET" and entry["path"] == "%s/%s" % (IMAGES, result["image"]["id"])]
    assert len(reads) >= 3, "read while saving"
    server.log = []
    again = run(server, image, name="deb-12", source="url", url="https://example.com/other.qcow2", os_distro="Debian", tags={"by": "ansible"})
    assert again["changed"] is False and server.writes() == [], "the URL is not compared"


def test_an_image_that_ends_killed_fails_naming_it_and_its_status(server):
    server.configure(task_fail={"download_image": "fetch failed"})
    result = run(server, image, name="deb-12", source="url", url=URL)
    assert result["failed"] is True and result["changed"] is True and "fetch failed" in result["msg"]


def test_check_mode_sends_nothing(server):
    result = harness.run(server, image, dict(BASE, name="deb-12", source="url", url=URL), _ansible_check_mode=True, _ansible_diff=True)
    assert result["changed"] is True and result["image"] is None and server.writes() == []
    assert result["diff"]["after"] == {"state": "present", "name": "deb-12"}


def test_what_differs_is_one_patch_and_create_only_options_fail_before_any_write(server):
    ident = upload(server, tags={"a": "1"})["id"]
    result = run(server, image, name="deb-12", hw_firmware_type="uefi", ssh_key="required", tags={"b": "2"})
    assert result["changed"] is True and result["tasks"] == []
    patch = {"hw_firmware_type": "uefi", "ssh_key": "required", "tags": {"a": None, "b": "2"}}
    assert harness.writes(server) == [("PATCH", "%s/%s" % (IMAGES, ident), patch)]
    server.log = []
    result = run(server, image, name="deb-12", architecture="aarch64")
    assert result["failed"] and "architecture: image %s has architecture 'x86_64', not 'aarch64'" % ident in result["msg"]
    assert server.writes() == []


def test_an_image_from_a_volume_by_the_volume_name(server):
    run(server, volume, name="boot-vol", source="image", image_id=next(iter(IMAGE_IDS.values())), size=10)
    vol = run(server, volume, name="boot-vol")["volume"]["id"]
    server.log = []
    result = run(server, image, name="from-vol", source="volume", volume="boot-vol", architecture="x86_64")
    assert result["changed"] is True and result["image"]["status"] == "active"
    assert harness.writes(server) == [("POST", IMAGES, {"name": "from-vol", "source": "volume", "volume_id": vol, "architecture": "x86_64"})]


def test_delete_waits_for_its_task_then_nothing_to_delete(server):
    upload(server)
    result = run(server, image, name="deb-12", state="absent")
    assert result["changed"] is True and result["image"] is None and len(result["tasks"]) == 1
    server.log = []
    assert run(server, image, name="deb-12", state="absent")["changed"] is False and server.writes() == []


def test_a_public_image_of_the_same_name_is_not_the_one_managed(server):
    name = next(iter(IMAGE_IDS))
    result = run(server, image, name=name, source="url", url=URL)
    assert result["changed"] is True and result["image"]["visibility"] == "private"


def test_info_newest_first_with_the_private_images_and_the_visibility_filter(server):
    first, second = upload(server, "deb-a"), upload(server, "deb-b")
    every = run(server, image_info)["images"]
    ours = [record["id"] for record in every if record["visibility"] == "private"]
    assert ours == [second["id"], first["id"]], "newest first"
    assert [record["created_at"] for record in every] == sorted((record["created_at"] for record in every), reverse=True)
    private = run(server, image_info, visibility="private")["images"]
    assert [record["id"] for record in private] == [second["id"], first["id"]]
    assert all(record["visibility"] == "public" for record in run(server, image_info, visibility="public")["images"])
    assert run(server, image_info, name="deb-a")["images"][0]["id"] == first["id"]
    assert run(server, image_info, image_id=second["id"])["images"][0]["name"] == "deb-b"


def test_a_volume_and_an_instance_take_an_uploaded_private_image_by_name(server):
    from ansible_collections.gcore.platform.plugins.modules import instance  # pylint: disable=import-outside-toplevel
    ident = upload(server, "deb-own")["id"]
    result = run(server, volume, name="from-own", source="image", image_name="deb-own", size=10)
    assert result["changed"] is True and harness.writes(server)[0][2]["image_id"] == ident
    server.log = []
    assert run(server, volume, name="from-own", source="image", image_name="deb-own", size=10)["changed"] is False
    assert server.writes() == []
    result = run(server, instance, name="srv-own", flavor="g1-standard-2-4", interfaces=[{"type": "external"}],
                 volumes=[{"source": "image", "image_name": "deb-own", "size": 10, "boot_index": 0}])
    assert result["changed"] is True and harness.writes(server)[0][2]["volumes"][0]["image_id"] == ident
    server.log = []
    result = run(server, volume, name="from-none", source="image", image_name="no-such-image", size=10)
    assert result["failed"] and "image_name: 0 active images" in result["msg"] and server.writes() == []
