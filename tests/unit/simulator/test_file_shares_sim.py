# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The simulated file shares answer as the published API does: create as a task (creating, no export, then available
with its connection point), the two create variants and their refusals (VAST with network or access), the v3 PATCH as a
task (settings only on VAST), the deprecated v1 PATCH, extend (only larger), delete, access rules (sync, 204), locks."""

from __future__ import annotations

import pytest

from sim_api import Api, quick_simulator

LIST = "/cloud/v1/file_shares/1/76"
V3 = "/cloud/v3/file_shares/1/76"
NET, SUBNET = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01", "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01"
OTHER_SUBNET = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b02"
SHARE_1 = "f11e5a7e-0000-4000-8000-000000000001"
UNKNOWN = "00000000-0000-4000-8000-000000000000"
MEMBERS = {"id", "name", "protocol", "size", "status", "type_name", "volume_type", "connection_point", "network", "network_id",
           "network_name", "subnet_id", "subnet_name", "share_network_name", "share_settings", "tags", "created_at",
           "creator_task_id", "task_id", "project_id", "region_id", "region"}


@pytest.fixture
def sim():
    return quick_simulator()


@pytest.fixture
def api(sim):
    return Api(sim)


def standard(**more):
    return dict({"name": "fs-a", "protocol": "NFS", "size": 5, "type_name": "standard", "network": {"network_id": NET}}, **more)


def test_a_share_is_creating_without_export_until_its_task_finishes(sim, api):
    sim.hold()
    task = api.task(api.ok("POST", LIST, standard(access=[{"ip_address": "10.1.0.0/16", "access_mode": "ro"}], tags={"k": "v"})))
    ident = next(key for key, record in sim.file_shares.items() if record["name"] == "fs-a")
    shown = api.ok("GET", LIST + "/" + ident)
    assert set(shown) == MEMBERS
    assert (shown["status"], shown["connection_point"], shown["task_id"]) == ("creating", None, task["id"])
    assert shown["network"] == {"network_id": NET, "network_name": "router-net-1", "subnet_id": SUBNET, "subnet_name": "router-subnet-1"}
    assert api.refused("POST", LIST + "/" + ident + "/extend", {"size": 9})[0] == 409
    sim.release()
    sim.advance()
    assert task["task_type"] == "create_file_share" and task["created_resources"] == {"file_shares": [ident]}
    shown = api.ok("GET", LIST + "/" + ident)
    assert shown["status"] == "available" and shown["connection_point"].endswith(":/shares/share-" + ident)
    rules = api.ok("GET", LIST + "/" + ident + "/access_rule")
    assert [(rule["access_to"], rule["access_level"], rule["state"]) for rule in rules["results"]] == [("10.1.0.0/16", "ro", "active")]


def test_a_failed_create_leaves_error(sim, api):
    sim.hold()
    api.failed(api.ok("POST", LIST, standard()))
    shown = api.ok("GET", LIST, query="name=fs-a")["results"]
    assert [(record["status"], record["task_id"]) for record in shown] == [("error", None)]


def test_a_vast_share_has_its_settings_and_no_share_network(api):
    ident = api.created("POST", LIST, {"name": "fs-v", "protocol": "NFS", "size": 3, "type_name": "vast",
                                       "share_settings": {"root_squash": False, "trash_access": True}}, "file_shares")
    shown = api.ok("GET", LIST + "/" + ident)
    assert shown["share_settings"] == {"type_name": "vast", "allowed_characters": None, "path_length": None,
                                       "root_squash": False, "trash_access": True}
    assert shown["share_network_name"] is None and shown["volume_type"] == "vast_share_type"


@pytest.mark.parametrize("body, status, where", [
    ({"name": "fs-v", "protocol": "NFS", "size": 3, "type_name": "vast", "network": {"network_id": NET}}, 422, "network"),
    ({"name": "fs-v", "protocol": "NFS", "size": 3, "type_name": "vast", "access": []}, 422, "access"),
    ({"name": "fs-v", "protocol": "NFS", "size": 3, "type_name": "vast", "share_settings": {"trash_access": True}}, 400, "root_squash"),
    ({"name": "fs-v", "protocol": "NFS", "size": 3, "share_settings": {"colour": "red"}}, 422, "colour"),
    (standard(share_settings={}), 422, "share_settings"),
    (standard(size=0), 422, "size"),
    (standard(protocol="CIFS"), 422, "protocol"),
    (standard(name="x"), 422, "name"),
    (standard(network={"network_id": UNKNOWN}), 404, "Network"),
    (standard(network={"network_id": NET, "subnet_id": OTHER_SUBNET}), 400, "not a subnet"),
    (standard(access=[{"ip_address": "10.0.0.1/8", "access_mode": "rw"}]), 422, "ip_address"),
    (standard(access=[{"ip_address": "10.0.0.1", "access_mode": "rx"}]), 422, "access_mode"),
])
def test_create_refusals(api, body, status, where):
    got, message = api.refused("POST", LIST, body)
    assert got == status and where in message, message


def test_list_filters_by_part_of_the_name_and_type_and_pages(api):
    assert sorted(record["name"] for record in api.ok("GET", LIST, query="name=twin")["results"]) == ["twin-share", "twin-share"]
    assert api.ok("GET", LIST, query="type_name=vast")["results"] == []
    assert len(api.ok("GET", LIST, query="limit=1&offset=1")["results"]) == 1
    assert api.refused("GET", LIST, query="type_name=gold")[0] == 422


def test_the_v3_patch_is_a_task_and_the_v1_patch_is_synchronous(sim, api):
    sim.hold()
    task = api.task(api.ok("PATCH", V3 + "/" + SHARE_1, {"name": "share-2", "tags": {"env": "prod"}}))
    assert api.ok("GET", LIST + "/" + SHARE_1)["name"] == "share-1"  # applied when the task finishes
    assert api.refused("PATCH", V3 + "/" + SHARE_1, {"name": "share-3"})[0] == 409
    sim.release()
    sim.advance()
    assert task["task_type"] == "update_file_share"
    shown = api.ok("GET", LIST + "/" + SHARE_1)
    assert shown["name"] == "share-2" and shown["tags"] == [{"key": "env", "value": "prod", "read_only": False}]
    assert api.ok("PATCH", LIST + "/" + SHARE_1, {"name": "share-4"})["name"] == "share-4"
    assert "only a VAST share" in api.refused("PATCH", V3 + "/" + SHARE_1, {"share_settings": {"root_squash": False}})[1]


def test_extend_only_grows_and_a_failed_extend_leaves_extending_error(sim, api):
    assert "larger" in api.refused("POST", LIST + "/" + SHARE_1 + "/extend", {"size": 10})[1]
    api.finished(api.ok("POST", LIST + "/" + SHARE_1 + "/extend", {"size": 12}))
    assert api.ok("GET", LIST + "/" + SHARE_1)["size"] == 12
    sim.hold()
    api.failed(api.ok("POST", LIST + "/" + SHARE_1 + "/extend", {"size": 20}))
    shown = api.ok("GET", LIST + "/" + SHARE_1)
    assert (shown["size"], shown["status"], shown["task_id"]) == (12, "extending_error", None)
    assert api.refused("POST", LIST + "/" + SHARE_1 + "/extend", {"size": 30})[0] == 400


def test_access_rules_are_synchronous_keyed_by_address_and_deleted_with_204(sim, api):
    rules = LIST + "/" + SHARE_1 + "/access_rule"
    made = api.ok("POST", rules, {"ip_address": "192.168.1.7", "access_mode": "ro"})
    assert set(made) == {"id", "access_to", "access_level", "state"} and made["state"] == "queued_to_apply"
    assert "already exists" in api.refused("POST", rules, {"ip_address": "192.168.1.7", "access_mode": "rw"})[1]
    listed = api.ok("GET", rules)
    assert listed["count"] == 2 and {rule["state"] for rule in listed["results"]} == {"active"}
    assert sim.call("DELETE", rules + "/" + made["id"]) == (204, None)
    assert api.refused("DELETE", rules + "/" + made["id"])[0] == 404
    assert api.refused("POST", rules, {"ip_address": "10.0.0.1/8", "access_mode": "ro"})[0] == 422


def test_delete_is_a_task_and_takes_the_rules(sim, api):
    api.finished(api.ok("DELETE", LIST + "/" + SHARE_1))
    assert api.refused("GET", LIST + "/" + SHARE_1)[0] == 404
    assert SHARE_1 not in sim.access_rules
    sim.configure(task_fail={"delete_file_share": "boom"})
    other = next(ident for ident, record in sim.file_shares.items() if record["name"] == "twin-share")
    api.ok("DELETE", LIST + "/" + other)
    sim.advance()
    assert api.ok("GET", LIST + "/" + other)["status"] == "error_deleting"


def test_a_new_share_settles_after_its_task_with_the_setting(sim, api):
    sim.configure(file_share_settle_reads=1)
    ident = api.created("POST", LIST, standard(), "file_shares")
    assert api.ok("GET", LIST + "/" + ident)["status"] == "creating"
    assert api.ok("GET", LIST + "/" + ident)["status"] == "available"
