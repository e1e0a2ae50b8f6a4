# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""baremetal_server and baremetal_server_info, in-process against the simulator: the requests each run sends."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.modules import baremetal_server, baremetal_server_info
from simulator.resources.baremetal import Baremetal

import harness

LIST = "/cloud/v1/bminstances/1/76"
BASE = dict(project_id=1, region_id=76)
UBUNTU, DEBIAN = Baremetal.SEEDS["images"]["ubuntu-22.04-x64"], Baremetal.SEEDS["images"]["debian-12-x64"]
SERVER = dict(name="bm-1", flavor="bm1-basic-small", image="ubuntu-22.04-x64", interfaces=[{"type": "external"}])
NOTHING = {"created": [], "updated": [], "started": [], "stopped": [], "rebuilt": [], "deleted": []}


def run(server, module=baremetal_server, **args):
    return harness.run(server, module, dict(BASE, **args), _ansible_diff=True)


def changes(**said):
    return dict(NOTHING, **said)


def made(server, **args):
    result = run(server, **dict(SERVER, **args))
    assert result["changed"] is True and not result.get("failed"), result.get("msg")
    server.log = []
    return result["server"]


def test_create_reads_the_capacity_waits_until_active_and_the_second_run_is_one_read(server):
    result = run(server, **dict(SERVER, ssh_key="deploy", user_data="#cloud-config\n", tags={"env": "prod"}))
    assert result["changed"] is True and not result.get("failed"), result.get("msg")
    assert result["server"]["status"] == "ACTIVE" and len(result["tasks"]) == 1
    assert result["changes"] == changes(created=["bm-1"])
    assert result["addresses"]["public_ipv4"] and result["addresses"]["private_ipv4"] == []
    gets = [entry["path"] for entry in server.requests("GET") if not entry["path"].startswith("/cloud/v1/tasks")]
    # the lookup, the capacity, the servers carrying the declared tags (a hand rename: none), the images
    assert gets[:4] == [LIST, "/cloud/v1/bmcapacity/1/76", LIST, "/cloud/v1/bmimages/1/76"]
    assert harness.writes(server) == [("POST", LIST, {
        "name": "bm-1", "flavor": "bm1-basic-small", "interfaces": [{"type": "external"}], "image_id": UBUNTU,
        "ssh_key_name": "deploy", "tags": {"env": "prod"}, "user_data": "I2Nsb3VkLWNvbmZpZwo="})]
    assert result["diff"]["after"]["user_data"] == "set" and result["diff"]["after"]["password"] == "not set"
    assert result["diff"]["after"]["image"] == "ubuntu-22.04-x64"
    server.log = []
    again = run(server, **dict(SERVER, ssh_key="deploy", user_data="#cloud-config\n", tags={"env": "prod"}))
    assert again["changed"] is False and again["changes"] == NOTHING
    assert [(entry["method"], entry["path"]) for entry in server.requests()] == [("GET", LIST)]


def test_no_capacity_fails_naming_the_flavor_and_the_region_and_sends_nothing(server):
    server.configure(baremetal_capacity={"bm1-hf-medium": 0})
    result = run(server, **dict(SERVER, flavor="bm1-hf-medium"))
    assert result["failed"] is True and server.writes() == []
    assert "flavor: no bare metal server of flavor 'bm1-hf-medium' is free in project 1, region 76" in result["msg"]


def test_check_mode_sends_no_write_and_previews_the_create(server):
    result = harness.run(server, baremetal_server, dict(BASE, **SERVER), _ansible_check_mode=True, _ansible_diff=True)
    assert result["changed"] is True and result["server"] is None and server.writes() == []
    assert result["changes"] == changes(created=["bm-1"])
    assert result["diff"]["before"] == {"state": "absent"} and result["diff"]["after"]["interfaces"] == [{"type": "external"}]


def test_rename_and_tags_are_one_patch_by_id(server):
    ident = made(server, tags={"a": "1"})["id"]
    result = run(server, server_id=ident.upper(), name="bm-2", tags={"b": "2"})
    assert result["changed"] is True and result["changes"] == changes(updated=["name", "tags"])
    assert harness.writes(server) == [("PATCH", "%s/%s" % (LIST, ident), {"name": "bm-2", "tags": {"a": None, "b": "2"}})]
    assert result["server"]["name"] == "bm-2"


def test_stopped_and_started_send_the_action_only_when_the_status_differs(server):
    ident = made(server)["id"]
    result = run(server, name="bm-1", state="stopped")
    assert result["changed"] is True and result["changes"] == changes(stopped=["bm-1"]) and result["server"]["status"] == "SHUTOFF"
    assert harness.writes(server) == [("POST", "/cloud/v2/baremetal/1/76/%s/action" % ident, {"action": "stop"})]
    server.log = []
    assert run(server, name="bm-1", state="stopped")["changed"] is False and server.writes() == []
    result = run(server, name="bm-1", state="started")
    assert result["changes"] == changes(started=["bm-1"]) and result["server"]["status"] == "ACTIVE"


def test_a_new_server_in_state_stopped_is_created_then_stopped(server):
    result = run(server, **dict(SERVER, state="stopped"))
    assert result["server"]["status"] == "SHUTOFF" and result["changes"] == changes(created=["bm-1"], stopped=["bm-1"])
    assert [method for method, _path, _body in harness.writes(server)] == ["POST", "POST"]


def test_another_image_fails_as_create_only_unless_allow_rebuild(server):
    ident = made(server)["id"]
    result = run(server, name="bm-1", image="debian-12-x64")
    assert result["failed"] is True and server.writes() == []
    assert "image: bare metal server %s has image 'ubuntu-22.04-x64', not 'debian-12-x64'" % ident in result["msg"]
    assert "allow_rebuild" in result["msg"]
    assert run(server, name="bm-1", image=UBUNTU.upper())["changed"] is False  # by ID, any case
    result = run(server, name="bm-1", image="debian-12-x64", allow_rebuild=True)
    assert result["changed"] is True and result["changes"] == changes(rebuilt=["bm-1"])
    assert harness.writes(server) == [("POST", "%s/%s/rebuild" % (LIST, ident), {"image_id": DEBIAN})]
    assert result["server"]["status"] == "ACTIVE"
    assert result["diff"]["before"]["image"] == "ubuntu-22.04-x64" and result["diff"]["after"]["image"] == "debian-12-x64"
    server.log = []
    assert run(server, name="bm-1", image="debian-12-x64", allow_rebuild=True)["changed"] is False and server.writes() == []


@pytest.mark.parametrize("option, value, words", [
    ("flavor", "bm1-basic-medium", "flavor: bare metal server"),
    ("ssh_key", "other", "ssh_key: bare metal server"),
])
def test_create_only_options_fail_when_they_differ(server, option, value, words):
    made(server, ssh_key="deploy")
    result = run(server, name="bm-1", **{option: value})
    assert result["failed"] is True and words in result["msg"] and server.writes() == []


def test_an_unknown_image_or_network_fails_before_any_write(server):
    result = run(server, **dict(SERVER, image="no-such-image"))
    assert result["failed"] and "image: 0 active bare metal images of project 1, region 76 are named 'no-such-image'" in result["msg"]
    result = run(server, **dict(SERVER, interfaces=[{"type": "any_subnet", "network": "no-such-net"}]))
    assert result["failed"] and "interfaces[0].network: no network is named 'no-such-net'" in result["msg"]
    assert server.writes() == []


def test_absent_deletes_with_the_floating_ips_asked_for(server):
    network = run(server, module=__import__("ansible_collections.gcore.platform.plugins.modules.network", fromlist=["x"]),
                  name="bm-net")["network"]["id"]
    harness.run(server, __import__("ansible_collections.gcore.platform.plugins.modules.subnet", fromlist=["x"]),
                dict(BASE, name="bm-sub", network=network, cidr="10.91.0.0/24"))
    ident = made(server, interfaces=[{"type": "subnet", "network": "bm-net", "subnet": "bm-sub", "floating_ip": {"source": "new"}}])["id"]
    result = run(server, name="bm-1", state="absent", delete_floating_ips=True)
    assert result["changed"] is True and result["server"] is None and result["changes"] == changes(deleted=["bm-1"])
    (method, path, _body), = harness.writes(server)
    assert (method, path) == ("DELETE", "%s/%s" % (LIST, ident)) and len(result["deleted"]["floating_ips"]) == 1
    assert "floating_ip_ids=" + result["deleted"]["floating_ips"][0] == server.requests("DELETE")[0]["query"]
    server.log = []
    again = run(server, name="bm-1", state="absent")
    assert again["changed"] is False and server.writes() == []


def test_a_server_from_an_application_template_shows_no_image_so_image_is_not_compared(server):
    result = run(server, name="bm-app", flavor="bm1-basic-small", apptemplate="wordpress", interfaces=[{"type": "external"}])
    assert result["changed"] is True and harness.writes(server)[0][2]["apptemplate_id"] == "wordpress"
    server.log = []
    assert run(server, name="bm-app", image="debian-12-x64")["changed"] is False and server.writes() == []


def test_info_by_name_status_and_flavors_with_capacity(server):
    ident = made(server)["id"]
    result = run(server, module=baremetal_server_info, name="bm-1")
    assert [item["id"] for item in result["servers"]] == [ident] and "flavors" not in result
    assert result["addresses"][ident]["public_ipv4"]
    assert run(server, module=baremetal_server_info, status="SHUTOFF")["servers"] == []
    assert [item["id"] for item in run(server, module=baremetal_server_info, server_id=ident)["servers"]] == [ident]
    every = run(server, module=baremetal_server_info, flavors=True)
    assert len(every["servers"]) == 2 and every["changed"] is False
    assert dict((flavor["flavor_id"], flavor["capacity"]) for flavor in every["flavors"])["bm1-basic-small"] == 1
