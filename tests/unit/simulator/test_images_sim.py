# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The simulated images answer as the published API does: upload from a URL and from a bootable volume as tasks
naming created_resources.images, then queued -> saving -> active with a size (the task finishing is not the image
being ready), every record member, private images and the visibility filter, the synchronous PATCH, delete as a task,
and every refusal."""

from __future__ import annotations

import pytest

from sim_api import Api, quick_simulator
from simulator.resources.instances import IMAGE_IDS
from simulator.resources.volumes import SEEDED as SEEDED_VOLUMES

LIST = "/cloud/v1/images/1/76"
DOWNLOAD = "/cloud/v1/downloadimage/1/76"
VOLUMES = "/cloud/v1/volumes/1/76"
UBUNTU = IMAGE_IDS["ubuntu-22.04"]
MEMBERS = {"id", "name", "status", "visibility", "size", "min_disk", "min_ram", "disk_format", "os_distro", "os_version",
           "os_type", "architecture", "hw_firmware_type", "hw_machine_type", "ssh_key", "is_baremetal", "description",
           "display_order", "gpu_driver", "gpu_driver_type", "gpu_driver_version", "tags_v2", "created_at",
           "updated_at", "creator_task_id", "task_id", "project_id", "region_id", "region", "currency_code",
           "price_per_hour", "price_per_month", "price_status"}
UPLOAD = {"name": "app-image", "url": "https://example.com/app.qcow2"}


@pytest.fixture
def sim():
    return quick_simulator()


@pytest.fixture
def api(sim):
    return Api(sim)


def get(api, ident):
    return api.ok("GET", LIST + "/" + ident)


def upload(api, **body):
    return api.created("POST", DOWNLOAD, dict(UPLOAD, **body), "images")


def bootable_volume(api, size=5):
    return api.created("POST", VOLUMES, {"source": "image", "name": "boot-vol", "image_id": UBUNTU, "size": size}, "volumes")


def test_an_upload_is_queued_while_its_task_runs_then_saving_then_active_with_its_size(sim, api):
    sim.hold()
    answer = api.ok("POST", DOWNLOAD, dict(UPLOAD, os_distro="ubuntu", os_version="24.04", tags={"env": "prod"}))
    task = api.task(answer)
    record = next(image for image in sim.images if image["name"] == "app-image")
    shown = get(api, record["id"])
    assert set(shown) == MEMBERS
    assert (shown["status"], shown["size"], shown["task_id"], shown["creator_task_id"]) == ("queued", 0, task["id"], task["id"])
    assert shown["visibility"] == "private" and shown["disk_format"] == "qcow2" and shown["os_distro"] == "ubuntu"
    assert (shown["architecture"], shown["os_type"], shown["ssh_key"], shown["is_baremetal"]) == ("x86_64", "linux", "allow", False)
    assert shown["tags_v2"] == [{"key": "env", "value": "prod", "read_only": False}] and "tags" not in shown  # as the service: tags_v2
    assert "url" not in shown and "cow_format" not in shown
    sim.release()
    sim.advance()
    assert task["task_type"] == "download_image" and task["created_resources"] == {"images": [record["id"]]}
    saving = get(api, record["id"])
    assert (saving["status"], saving["size"], saving["task_id"]) == ("saving", 0, None)
    active = get(api, record["id"])
    assert active["status"] == "active" and active["size"] > 0


def test_saving_lasts_the_configured_number_of_reads(sim, api):
    sim.configure(image_saving_reads=3)
    ident = upload(api)
    assert [get(api, ident)["status"] for _read in range(4)] == ["saving", "saving", "saving", "active"]
    sim.configure(image_saving_reads=0)
    assert get(api, upload(api))["status"] == "active"


def test_a_failed_upload_leaves_the_image_killed(sim, api):
    sim.hold()
    api.failed(api.ok("POST", DOWNLOAD, UPLOAD))
    record = next(image for image in sim.images if image["name"] == "app-image")
    shown = get(api, record["id"])
    assert shown["status"] == "killed" and shown["task_id"] is None


def test_image_status_control_sets_any_status(sim, api):
    ident = upload(api)
    sim.control("POST", "/_sim/image_status", {"image_id": ident, "status": "deactivated"})
    assert get(api, ident)["status"] == "deactivated"


def test_from_a_bootable_volume(sim, api):
    volume = bootable_volume(api, size=7)
    ident = api.created("POST", LIST, {"name": "from-vol", "volume_id": volume, "source": "volume", "architecture": "aarch64",
                                       "hw_firmware_type": "uefi", "ssh_key": "required"}, "images")
    task = next(task["record"] for task in sim.tasks.values() if task["record"]["task_type"] == "upload_volume_to_image")
    assert task["created_resources"] == {"images": [ident]}
    get(api, ident)
    shown = get(api, ident)
    assert (shown["status"], shown["size"], shown["min_disk"]) == ("active", 7 * 1024 ** 3, 7)
    assert (shown["architecture"], shown["hw_firmware_type"], shown["ssh_key"]) == ("aarch64", "uefi", "required")


@pytest.mark.parametrize("body, status, text", [
    ({"name": "x-img", "volume_id": "00000000-0000-4000-8000-000000000000"}, 404, "Volume"),
    ({"name": "x-img", "volume_id": SEEDED_VOLUMES[0][0]}, 400, "not bootable"),
    ({"name": "x-img", "volume_id": "nope"}, 422, "volume_id"),
    ({"name": "x-img"}, 422, "volume_id"),
    ({"name": "x-img", "volume_id": SEEDED_VOLUMES[0][0], "url": "https://a/b"}, 422, "url"),
    ({"name": "x-img", "volume_id": SEEDED_VOLUMES[0][0], "source": "url"}, 422, "source"),
])
def test_from_volume_refusals(sim, api, body, status, text):
    assert api.refused("POST", LIST, body)[0] == status and text in api.refused("POST", LIST, body)[1]
    assert not sim.tasks


def test_from_a_locked_volume_is_409(sim, api):
    volume = bootable_volume(api)
    sim.hold()
    api.ok("POST", VOLUMES + "/" + volume + "/extend", {"size": 9})
    assert api.refused("POST", LIST, {"name": "x-img", "volume_id": volume})[0] == 409


@pytest.mark.parametrize("body, where", [
    ({"url": "https://a/b"}, "name"),
    ({"name": "x-img"}, "url"),
    (dict(UPLOAD, url=""), "url"),
    (dict(UPLOAD, url="not a url"), "url"),
    (dict(UPLOAD, name="x"), "name"),
    (dict(UPLOAD, architecture="arm"), "architecture"),
    (dict(UPLOAD, os_type="bsd"), "os_type"),
    (dict(UPLOAD, ssh_key="maybe"), "ssh_key"),
    (dict(UPLOAD, hw_firmware_type="efi"), "hw_firmware_type"),
    (dict(UPLOAD, hw_machine_type="pc"), "hw_machine_type"),
    (dict(UPLOAD, is_baremetal="no"), "is_baremetal"),
    (dict(UPLOAD, cow_format=1), "cow_format"),
    (dict(UPLOAD, min_disk=3), "min_disk"),
    (dict(UPLOAD, tags={"k": ""}), "tags.k"),
])
def test_upload_refusals(sim, api, body, where):
    status, message = api.refused("POST", DOWNLOAD, body)
    assert status == 422 and message.startswith(where + ":")
    assert not sim.tasks


def test_private_images_show_only_when_asked_and_visibility_filters(api):
    ident = upload(api)
    assert ident not in [image["id"] for image in api.ok("GET", LIST)["results"]]
    assert ident in [image["id"] for image in api.ok("GET", LIST, query="private=1")["results"]]
    private = api.ok("GET", LIST, query="visibility=private")["results"]
    assert [image["id"] for image in private] == [ident]
    public = api.ok("GET", LIST, query="visibility=public")["results"]
    assert len(public) == 5 and all(image["visibility"] == "public" for image in public)
    assert api.ok("GET", "/cloud/v1/images/1/1", query="visibility=private")["count"] == 0  # another region's project
    assert api.refused("GET", "/cloud/v1/images/1/1/" + ident)[0] == 404
    assert api.refused("GET", LIST, query="visibility=secret")[0] == 422


def test_the_list_has_no_name_filter_nor_paging_and_fills_prices_when_asked(api):
    assert api.ok("GET", LIST, query="name=debian-12&limit=1")["count"] == 5
    listed = api.ok("GET", LIST, query="include_prices=true")["results"]
    assert all(image["price_status"] == "show" and image["currency_code"] for image in listed)
    assert all(image["price_per_hour"] is None for image in api.ok("GET", LIST)["results"])


def test_tag_filters(api):
    tagged = upload(api, tags={"role": "web"})
    upload(api)
    assert [image["id"] for image in api.ok("GET", LIST, query="private=1&tag_key=role")["results"]] == [tagged]
    assert [image["id"] for image in api.ok("GET", LIST, query="private=1&tag_key_value=role=web")["results"]] == [tagged]


def test_patch_answers_the_record(api):
    ident = upload(api, tags={"a": "1", "b": "2"})
    change = {"name": "renamed", "os_type": "windows", "ssh_key": "deny", "hw_firmware_type": "uefi", "hw_machine_type": "q35",
              "is_baremetal": True, "tags": {"a": None, "c": "3"}}
    shown = api.ok("PATCH", LIST + "/" + ident, change)
    assert (shown["name"], shown["os_type"], shown["ssh_key"], shown["hw_machine_type"], shown["is_baremetal"]) == (
        "renamed", "windows", "deny", "q35", True)
    assert [(tag["key"], tag["value"]) for tag in shown["tags_v2"]] == [("b", "2"), ("c", "3")]
    assert api.ok("PATCH", LIST + "/" + ident, {"tags": None})["tags_v2"] == []
    assert get(api, ident)["name"] == "renamed"


@pytest.mark.parametrize("body, where", [
    ({"architecture": "aarch64"}, "architecture"),
    ({"os_distro": "debian"}, "os_distro"),
    ({"hw_firmware_type": None}, "hw_firmware_type"),
    ({"name": "!"}, "name"),
    ({"ssh_key": "no"}, "ssh_key"),
])
def test_patch_refusals(api, body, where):
    ident = upload(api)
    status, message = api.refused("PATCH", LIST + "/" + ident, body)
    assert status == 422 and message.startswith(where + ":")


def test_public_images_cannot_be_changed_and_locked_ones_409(sim, api):
    assert api.refused("PATCH", LIST + "/" + UBUNTU, {"name": "mine"})[0] == 403
    assert api.refused("DELETE", LIST + "/" + UBUNTU)[0] == 403
    sim.hold()
    api.ok("POST", DOWNLOAD, UPLOAD)
    ident = next(image["id"] for image in sim.images if image["name"] == "app-image")
    assert api.refused("PATCH", LIST + "/" + ident, {"name": "other"})[0] == 409
    assert api.refused("DELETE", LIST + "/" + ident)[0] == 409
    assert api.refused("GET", LIST + "/no-such-image")[0] == 404


def test_delete_is_a_task(sim, api):
    ident = upload(api)
    sim.hold()
    task = api.task(api.ok("DELETE", LIST + "/" + ident))
    assert task["task_type"] == "delete_image" and get(api, ident)["status"] == "deleting"
    sim.release()
    sim.advance()
    assert api.refused("GET", LIST + "/" + ident)[0] == 404


def test_a_cow_format_image_is_not_deleted_while_a_volume_made_from_it_exists(sim, api):
    ident = upload(api, cow_format=True)
    assert [get(api, ident)["status"] for _read in range(2)] == ["saving", "active"]
    volume = api.created("POST", VOLUMES, {"source": "image", "name": "cow-vol", "image_id": ident, "size": 5}, "volumes")
    assert "cow" in api.refused("DELETE", LIST + "/" + ident)[1]
    api.finished(api.ok("DELETE", VOLUMES + "/" + volume))
    api.finished(api.ok("DELETE", LIST + "/" + ident))


def test_volumes_and_instances_take_only_active_images(sim, api):
    sim.configure(image_saving_reads=5)
    ident = upload(api)
    status, message = api.refused("POST", VOLUMES, {"source": "image", "name": "v-img", "image_id": ident, "size": 5})
    assert status == 400 and "active" in message
    status, _message = api.refused("POST", VOLUMES, {"source": "image", "name": "v-img", "image_id": "00000000-0000-4000-8000-000000000009", "size": 5})
    assert status == 404


def test_instances_boot_only_from_active_images_they_can_see(sim, api):
    sim.configure(image_saving_reads=0)
    ident = upload(api)
    body = {"flavor": "g1-standard-1-2", "name": "from-mine", "interfaces": [{"type": "external"}],
            "volumes": [{"source": "image", "image_id": ident, "size": 10}]}
    assert api.refused("POST", "/cloud/v2/instances/1/1", body)[0] == 404  # another region's private image
    sim.control("POST", "/_sim/image_status", {"image_id": ident, "status": "deactivated"})
    assert api.refused("POST", "/cloud/v2/instances/1/76", body)[0] == 404
    sim.control("POST", "/_sim/image_status", {"image_id": ident, "status": "active"})
    api.finished(api.ok("POST", "/cloud/v2/instances/1/76", body))
