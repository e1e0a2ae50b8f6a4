# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""file_share and file_share_info, in process against the simulator over HTTP: a standard share created with its rules
(network and subnet by name) and waited for until available, a second run that reads the share and its rules once
each and sends nothing, check mode and diff, access rules as a set (created, deleted, replaced), one extend (never a
shrink), name, tags and VAST settings by the v3 PATCH, create-only options, VAST refusals, delete, failed statuses, and
the info module."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.modules import file_share, file_share_info

import harness
from harness import fail_message, writes

BASE = "/cloud/v1/file_shares/1/76"
V3 = "/cloud/v3/file_shares/1/76"
NET, SUBNET = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01", "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01"
SHARE_1 = "f11e5a7e-0000-4000-8000-000000000001"
RULES = [{"ip_address": "192.168.10.0/24", "access_mode": "rw"}, {"ip_address": "10.0.0.7", "access_mode": "ro"}]


def run(server, **args):
    return harness.run(server, file_share, dict(args, project_id=1, region_id=76), _ansible_diff=True)


def info(server, **args):
    return harness.run(server, file_share_info, dict(args, project_id=1, region_id=76))


def reads(server):
    return [(entry["method"], entry["path"]) for entry in server.requests("GET") if "/tasks/" not in entry["path"]]


def test_create_with_rules_by_names_waits_until_available_and_a_second_run_reads_each_once(server):
    server.configure(file_share_settle_reads=1)
    args = dict(name="uploads", size=10, network="router-net-1", subnet="router-subnet-1", access=RULES, tags={"tier": "web"})
    result = run(server, **args)
    assert result["changed"] is True, result
    assert writes(server) == [("POST", BASE, {"name": "uploads", "protocol": "NFS", "size": 10, "type_name": "standard",
                                              "network": {"network_id": NET, "subnet_id": SUBNET}, "access": RULES,
                                              "tags": {"tier": "web"}})]
    share = result["file_share"]
    assert share["status"] == "available" and share["connection_point"].endswith("/shares/share-" + share["id"])
    assert sorted((rule["access_to"], rule["access_level"]) for rule in share["access"]) == [("10.0.0.7", "ro"), ("192.168.10.0/24", "rw")]
    assert result["changes"] == {"created": ["uploads"], "updated": [], "resized": [], "deleted": [],
                                 "access": {"created": ["10.0.0.7", "192.168.10.0/24"], "deleted": [], "replaced": []}}
    assert result["diff"]["after"]["access"] == sorted(RULES, key=lambda item: item["ip_address"])
    server.log = []
    again = run(server, **args)
    assert again["changed"] is False and writes(server) == [] and again["tasks"] == []
    assert reads(server) == [("GET", BASE), ("GET", BASE + "/%s/access_rule" % share["id"])], "the share and its rules, once each"
    assert again["changes"]["access"] == {"created": [], "deleted": [], "replaced": []}


def test_check_mode_sends_nothing_and_previews_the_create(server):
    result = run(server, name="preview", size=5, network=NET, access=RULES[:1], _ansible_check_mode=True)
    assert result["changed"] is True and writes(server) == [] and result["file_share"] is None
    assert result["diff"]["after"] == {"state": "present", "name": "preview", "protocol": "NFS", "type_name": "standard",
                                       "network": NET, "size": 5, "access": RULES[:1]}
    assert result["changes"]["created"] == ["preview"] and result["changes"]["access"]["created"] == ["192.168.10.0/24"]


def test_access_rules_are_a_set_missing_created_undeclared_deleted_a_mode_change_replaced(server):
    wanted = [{"ip_address": "10.0.0.0/24", "access_mode": "ro"}, {"ip_address": "2001:db8::1", "access_mode": "rw"}]
    preview = run(server, name="share-1", access=wanted, _ansible_check_mode=True)
    assert preview["changed"] is True and writes(server) == []
    result = run(server, name="share-1", access=wanted)
    rules = BASE + "/" + SHARE_1 + "/access_rule"
    sent = writes(server)
    assert [(method, path.startswith(rules)) for method, path, _body in sent] == [("DELETE", True), ("POST", True), ("POST", True)]
    assert [body for _m, _p, body in sent] == [None, {"ip_address": "10.0.0.0/24", "access_mode": "ro"},
                                               {"ip_address": "2001:db8::1", "access_mode": "rw"}]
    assert result["changes"]["access"] == {"created": ["2001:db8::1"], "deleted": [], "replaced": ["10.0.0.0/24"]}
    assert preview["changes"] == result["changes"]
    assert result["diff"]["before"]["access"] == [{"ip_address": "10.0.0.0/24", "access_mode": "rw"}]
    server.log = []
    assert run(server, name="share-1", access=[{"ip_address": "2001:DB8:0::1", "access_mode": "rw"}])["changes"]["access"] == {
        "created": [], "deleted": ["10.0.0.0/24"], "replaced": []}
    assert [method for method, _p, _b in writes(server)] == ["DELETE"]
    server.log = []
    assert run(server, name="share-1", size=10)["changed"] is False, "access left out: not managed"
    assert writes(server) == []


def test_size_grows_by_one_extend_and_never_shrinks(server):
    result = run(server, name="share-1", size=12)
    assert writes(server) == [("POST", BASE + "/" + SHARE_1 + "/extend", {"size": 12})]
    assert result["file_share"]["size"] == 12 and result["changes"]["resized"] == ["share-1"]
    assert result["diff"] == {"before": {"state": "present", "name": "share-1", "tags": {}, "share_settings": {}, "protocol": "NFS",
                                         "type_name": "standard", "network": "router-net-1", "subnet": "router-subnet-1", "size": 10},
                              "after": {"state": "present", "name": "share-1", "tags": {}, "share_settings": {}, "protocol": "NFS",
                                        "type_name": "standard", "network": "router-net-1", "subnet": "router-subnet-1", "size": 12}}
    server.log = []
    shrink = run(server, name="share-1", size=5)
    assert shrink["failed"] is True and writes(server) == []
    assert "size: file share %s has 12 GiB, more than the 5 GiB asked for; a file share can never shrink" % SHARE_1 in shrink["msg"]


def test_name_tags_and_settings_by_the_v3_patch_never_the_v1(server):
    result = run(server, file_share_id=SHARE_1, name="share-renamed", tags={"env": "prod"})
    assert writes(server) == [("PATCH", V3 + "/" + SHARE_1, {"name": "share-renamed", "tags": {"env": "prod"}})]
    assert result["file_share"]["name"] == "share-renamed" and result["changes"]["updated"] == ["name", "tags"]
    vast = run(server, name="scratch", size=2, type_name="vast", share_settings={"root_squash": False})
    ident = vast["file_share"]["id"]
    server.log = []
    changed = run(server, name="scratch", share_settings={"trash_access": True, "path_length": "NPL"})
    assert writes(server) == [("PATCH", V3 + "/" + ident, {"share_settings": {"trash_access": True, "path_length": "NPL"}})]
    assert changed["file_share"]["share_settings"]["trash_access"] is True
    server.log = []
    assert run(server, name="scratch", share_settings={"trash_access": True})["changed"] is False and writes(server) == []


@pytest.mark.parametrize("args, words", [
    (dict(name="share-1", type_name="vast"), "type_name: file share %s has type_name 'standard', not 'vast'" % SHARE_1),
    (dict(name="share-1", network="twin-net"), "network: file share %s has network 'router-net-1', not 'twin-net'" % SHARE_1),
    (dict(name="share-1", network=NET, subnet="5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b02"), "subnet: file share %s has subnet" % SHARE_1),
    (dict(name="share-1", share_settings={"root_squash": False}), "share_settings: file share %s is a standard share" % SHARE_1),
    (dict(name="twin-share"), "2 file shares of project 1, region 76 are named 'twin-share'"),
    (dict(name="new-share", size=3), "network: required to create"),
    (dict(name="new-share", size=3, network="no-such-net"), "network: no network is named 'no-such-net'"),
    (dict(name="new-share", size=3, network=NET, share_settings={"root_squash": False}), "share_settings: only with type_name: vast"),
])
def test_refusals_before_any_write(server, args, words):
    result = run(server, **args)
    assert result.get("failed") is True and words in result["msg"], result["msg"]
    assert writes(server) == []


def test_access_on_an_existing_vast_share_fails_before_any_write(server):
    run(server, name="scratch", size=2, type_name="vast")
    server.log = []
    result = run(server, name="scratch", access=RULES)
    assert result["failed"] is True and "is a VAST share, which has no access rules" in result["msg"] and writes(server) == []


@pytest.mark.parametrize("args, words", [
    (dict(name="x-share", size=0, network=NET), "size: 0 is out of range (must be at least 1)"),
    (dict(name="x", size=1, network=NET), "name: length 1 is out of range"),
    (dict(name="x-share", size=1, type_name="vast", network=NET), "network: not with type_name: vast"),
    (dict(name="x-share", size=1, type_name="vast", access=RULES), "access: not with type_name: vast"),
    (dict(name="x-share", size=1, type_name="standard", network=NET, share_settings={"root_squash": False}), "share_settings: only with type_name: vast"),
    (dict(name="x-share", size=1, subnet=SUBNET), "subnet: only with network"),
    (dict(name="x-share", size=1, network="a b!"), "network: 'a b!' does not match a network ID (a UUID) or a network name"),
    (dict(name="x-share", size=1, network=NET, access=[{"ip_address": "10.0.0.1/24", "access_mode": "ro"}]),
     "access[0].ip_address: '10.0.0.1/24' is not an IP address or a network in CIDR notation without host bits"),
    (dict(name="x-share", size=1, network=NET, access=[{"ip_address": "10.0.0.1", "access_mode": "ro"},
                                                       {"ip_address": "10.0.0.01", "access_mode": "rw"}]), "access[1].ip_address"),
    (dict(name="x-share", size=1, network=NET, access=[{"ip_address": "::1", "access_mode": "ro"}, {"ip_address": "0::1", "access_mode": "rw"}]),
     "access: each access rule must have its own ip_address; access[0] and access[1] are both of ip_address '::1'"),
    (dict(name="x-share", size=1, type_name="vast", share_settings={"trash_access": True, "root_squash": True}),
     "share_settings.trash_access: true needs root_squash: false"),
    (dict(file_share_id="not-a-uuid"), "file_share_id: 'not-a-uuid' is not a UUID"),
])
def test_bad_input_fails_before_any_request(args, words):
    message = fail_message(file_share, dict(args, project_id=1, region_id=76))
    assert words in message, message


def test_delete_waits_and_says_it(server):
    result = run(server, name="share-1", state="absent")
    assert result["changed"] is True and result["file_share"] is None and result["changes"]["deleted"] == ["share-1"]
    assert writes(server) == [("DELETE", BASE + "/" + SHARE_1, None)]
    assert SHARE_1 not in server.file_shares
    again = run(server, name="share-1", state="absent")
    assert again["changed"] is False and again["changes"]["deleted"] == []


@pytest.mark.parametrize("status", ["error", "extending_error"])
def test_a_failed_share_fails_naming_its_status_and_can_still_be_deleted(server, status):
    server.control("POST", "/_sim/file_share_status", {"file_share_id": SHARE_1, "status": status})
    result = run(server, name="share-1", size=20)
    assert result["failed"] is True and "file share %s is error: %s" % (SHARE_1, status) in result["msg"].lower()
    assert writes(server) == []
    assert run(server, name="share-1", state="absent")["changed"] is True


def test_wait_false_returns_the_task_of_a_create(server):
    result = run(server, name="later", size=1, network=NET, wait=False)
    assert result["changed"] is True and result["file_share"] is None and len(result["tasks"]) == 1


def test_info_by_id_exact_name_all_and_type(server):
    one = info(server, file_share_id=SHARE_1)["file_shares"]
    assert [record["name"] for record in one] == ["share-1"]
    assert [(rule["access_to"], rule["access_level"]) for rule in one[0]["access"]] == [("10.0.0.0/24", "rw")]
    assert [record["id"] for record in info(server, name="share")["file_shares"]] == [], "names are exact"
    assert len(info(server, name="twin-share")["file_shares"]) == 2
    assert len(info(server)["file_shares"]) == 3
    assert info(server, type_name="vast")["file_shares"] == []
    assert info(server, file_share_id="00000000-0000-4000-8000-000000000000")["file_shares"] == []
