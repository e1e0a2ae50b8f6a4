# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""instances (a fleet of instances in one task), in process against the simulator over HTTP: one listing, names resolved
once, every create sent before any wait, the tasks and the readiness waited for together, a second run that sends
nothing, check mode, scaling out and in (purge, highest index first), power states, a partial failure named by
member, the re-run that finishes a build left by wait: false, and bad input refused before any request."""

from __future__ import annotations

import json

import pytest

from ansible_collections.gcore.platform.plugins.modules import instance, instances

import harness
from harness import writes

BASE = "/cloud/v1/instances/1/76"
CREATE = "/cloud/v2/instances/1/76"
NET, SUBNET = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01", "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01"
ARGS = dict(project_id=1, region_id=76, count=3, name_format="node-{index}", flavor="g1-standard-2-4",
            volumes=[{"source": "image", "image_name": "ubuntu-22.04", "size": 10, "boot_index": 0}],
            interfaces=[{"type": "subnet", "network_id": NET, "subnet_id": SUBNET}], security_groups=["legacy-sg"])


def run(server, **args):
    return harness.run(server, instances, dict(ARGS, **args))


def requests(server):
    return [(entry["method"], entry["path"]) for entry in server.requests()]


def fleet(server):
    return sorted(record["name"] for record in server.call("GET", BASE)[1]["results"] if record["name"].startswith("node-"))


def test_a_fleet_is_created_together_then_a_second_run_sends_nothing(server):
    result = run(server)
    assert not result.get("failed"), result.get("msg")
    assert result["changed"] is True and result["changes"]["created"] == ["node-1", "node-2", "node-3"]
    assert [item["name"] for item in result["instances"]] == ["node-1", "node-2", "node-3"]
    assert all(item["status"] == "ACTIVE" for item in result["instances"])
    assert set(result["addresses"]) == {"node-1", "node-2", "node-3"}
    order = requests(server)
    posts = [index for index, item in enumerate(order) if item == ("POST", CREATE)]
    assert len(posts) == 3 and posts == list(range(posts[0], posts[0] + 3)), "every create sent before any wait"
    assert order.count(("GET", "/cloud/v1/images/1/76")) == 1 and order.count(("GET", "/cloud/v1/securitygroups/1/76")) == 1
    assert [item for item in order[:posts[0]] if item[1] == BASE] == [("GET", BASE)], "one listing finds the fleet"
    server.log = []
    again = run(server)
    assert again["changed"] is False and writes(server) == [], again
    # one listing of the fleet, its image names resolved again, its images read from one listing of the boot volumes
    assert requests(server) == [("GET", BASE), ("GET", "/cloud/v1/images/1/76"), ("GET", "/cloud/v1/volumes/1/76")]
    assert again["diff"]["before"] == again["diff"]["after"]


def test_check_mode_sends_no_write_and_previews_every_member(server):
    result = run(server, _ansible_check_mode=True, _ansible_diff=True)
    assert result["changed"] is True and writes(server) == []
    assert result["changes"]["created"] == ["node-1", "node-2", "node-3"] and result["instances"] == []
    assert result["diff"]["before"]["node-2"] == {"state": "absent"}
    assert result["diff"]["after"]["node-2"]["state"] == "present" and result["diff"]["after"]["node-2"]["name"] == "node-2"


def test_scale_out_creates_only_the_missing_and_purge_scales_in_from_the_highest_index(server):
    assert not run(server, count=2).get("failed")
    server.log = []
    out = run(server, count=4)
    assert out["changes"] == {"created": ["node-3", "node-4"], "updated": [], "started": [], "stopped": [], "deleted": []}
    assert [path for method, path, _body in writes(server)] == [CREATE, CREATE]
    server.log = []
    kept = run(server, count=1)
    assert kept["changed"] is False and writes(server) == [] and fleet(server) == ["node-1", "node-2", "node-3", "node-4"]
    ids = dict((item["name"], item["id"]) for item in out["instances"])
    scaled = run(server, count=1, purge=True, delete_volumes=True)
    assert scaled["changes"]["deleted"] == ["node-4", "node-3", "node-2"], scaled.get("msg")
    deletes = [path for method, path, _body in writes(server) if method == "DELETE"]
    assert deletes == ["%s/%s" % (BASE, ids[name]) for name in ("node-4", "node-3", "node-2")]
    assert fleet(server) == ["node-1"] and [item["name"] for item in scaled["instances"]] == ["node-1"]


def test_power_state_and_tags_converge_per_member_and_absent_deletes_every_one(server):
    assert not run(server, count=2).get("failed")
    server.log = []
    stopped = run(server, count=2, state="stopped", tags={"tier": "web"})
    assert stopped["changes"]["stopped"] == ["node-1", "node-2"] and stopped["changes"]["updated"] == ["node-1", "node-2"]
    assert all(item["status"] == "SHUTOFF" for item in stopped["instances"])
    order = [(method, path.rsplit("/", 1)[-1]) for method, path in requests(server) if "/tasks/" in path or method != "GET"]
    assert order[:4] == [("PATCH", stopped["instances"][0]["id"]), ("PATCH", stopped["instances"][1]["id"]),
                         ("POST", "action"), ("POST", "action")], "each round sent for every member before any wait"
    server.log = []
    assert run(server, count=2, state="stopped", tags={"tier": "web"})["changed"] is False and writes(server) == []
    gone = run(server, count=2, state="absent")
    assert gone["changes"]["deleted"] == ["node-2", "node-1"] and fleet(server) == [] and gone["instances"] == []


def test_a_failed_create_leaves_the_others_and_the_re_run_creates_only_what_is_missing(server):
    server.add_fault(method="POST", path="^%s$" % CREATE, status=400, skip=1)  # the second create is refused
    result = run(server)
    assert result["failed"] is True and result["changed"] is True
    assert "done: node-1 (created), node-3 (created); failed: node-2" in result["msg"], result["msg"]
    assert result["changes"]["created"] == ["node-1", "node-3"] and fleet(server) == ["node-1", "node-3"]
    server.log = []
    again = run(server)
    assert not again.get("failed") and again["changes"]["created"] == ["node-2"]
    assert [path for _method, path, _body in writes(server)] == [CREATE] and fleet(server) == ["node-1", "node-2", "node-3"]


def test_a_member_whose_boot_fails_is_named_and_the_others_are_returned(server):
    server.configure(task_fail={"create_vm": "no capacity"})
    result = run(server, count=2)
    assert result["failed"] is True and result["changed"] is True
    assert "node-1: task" in result["msg"] and "no capacity" in result["msg"] and "failed: node-1, node-2" in result["msg"]


def test_a_create_whose_task_ends_in_error_is_failed_not_created(server):
    server.add_fault(method="POST", path="^%s$" % CREATE, task_error="no capacity", skip=1)  # the second create's task fails
    result = run(server)
    assert result["failed"] is True and result["changed"] is True, "changed means sent"
    assert result["changes"]["created"] == ["node-1", "node-3"] and "failed: node-2" in result["msg"], result["msg"]


def test_purge_keeps_an_instance_of_another_flavor_or_without_the_fleets_tags_with_a_warning(server):
    assert not run(server, count=3, tags={"fleet": "a"}).get("failed")
    other = dict((key, value) for key, value in ARGS.items() if key not in ("count", "name_format"))
    assert not harness.run(server, instances, dict(other, names=["node-4"], tags={"fleet": "b"})).get("failed")
    server.log = []
    scaled = run(server, count=1, purge=True, tags={"fleet": "a"})
    assert scaled["changes"]["deleted"] == ["node-3", "node-2"], scaled.get("msg")
    assert fleet(server) == ["node-1", "node-4"]
    assert any("purge: instance node-4" in str(warning) and "lacks the fleet's tags" in str(warning) for warning in scaled["warnings"]), scaled["warnings"]


def test_a_409_on_a_members_write_waits_for_its_lock_and_plans_that_member_again(server):
    assert not run(server, count=2).get("failed")
    server.add_fault(method="POST", path="/action$", status=409, times=1)
    result = run(server, count=2, state="stopped")
    assert not result.get("failed"), result.get("msg")
    assert result["changes"]["stopped"] == ["node-1", "node-2"]
    assert all(item["status"] == "SHUTOFF" for item in result["instances"])


def test_the_re_run_after_wait_false_finishes_the_build(server):
    server.configure(instances_boot_held=True)
    first = run(server, wait=False)
    assert first["changed"] is True and first["instances"] == [] and len(first["tasks"]) == 3
    assert all(record["status"] == "BUILD" for record in server.call("GET", BASE)[1]["results"] if record["name"].startswith("node-"))
    server.log = []
    server.release(after={"method": "GET", "path": "^%s$" % BASE, "times": 2})  # the boots end once the re-run has looked twice
    again = run(server, state="started")
    assert not again.get("failed"), again.get("msg")
    assert again["changed"] is False and writes(server) == []
    assert [item["status"] for item in again["instances"]] == ["ACTIVE"] * 3


@pytest.mark.parametrize("args, message", [
    (dict(name_format="web"), "name_format: must hold {index}"),
    (dict(count=1001), "count:"),
    (dict(count=-1), "count:"),
    (dict(names=["a-1", "a-2"], purge=True), "purge: only with count and name_format"),
    (dict(names=["a-1", "a-1"]), "names[1]: 'a-1' is listed twice"),
    (dict(name_format="{index}{index}-x"), "name_format: must hold {index} once"),
    (dict(name_format="-bad-{index}"), "name_format"),
    (dict(volumes=[{"source": "image", "size": 10}]), "volumes[0]"),
])
def test_bad_input_is_refused_before_any_request(args, message):
    given = dict(ARGS, **args)
    if "names" in args:
        del given["count"], given["name_format"]
    msg = harness.fail_message(instances, given)
    assert message in msg, msg


def test_a_create_only_difference_fails_before_any_write_and_allow_resize_resizes_every_member(server):
    assert not run(server, count=2).get("failed")
    server.log = []
    refused = run(server, count=2, flavor="g1-standard-4-8")
    assert refused["failed"] is True and refused["changed"] is False and writes(server) == []
    assert "flavor: instance" in refused["msg"] and "allow_resize" in refused["msg"], refused["msg"]
    resized = run(server, count=2, flavor="g1-standard-4-8", allow_resize=True, security_groups=[])
    assert not resized.get("failed"), resized.get("msg")
    assert resized["changes"]["updated"] == ["node-1", "node-2"]
    assert sorted(path.rsplit("/", 1)[-1] for _method, path, _body in writes(server)) == ["changeflavor"] * 2 + ["delsecuritygroup"] * 2
    assert [item["flavor"]["flavor_name"] for item in resized["instances"]] == ["g1-standard-4-8"] * 2
    assert all(item["status"] == "ACTIVE" and not item["security_groups"] for item in resized["instances"])


def test_instances_are_returned_in_name_order(server):
    args = dict(((key, value) for key, value in ARGS.items() if key not in ("count", "name_format")), names=["node-c", "node-a", "node-b"])
    first = harness.run(server, instances, args)
    assert [item["name"] for item in first["instances"]] == ["node-a", "node-b", "node-c"], first.get("msg")
    again = harness.run(server, instances, args)
    assert again["changed"] is False and [item["name"] for item in again["instances"]] == ["node-a", "node-b", "node-c"]


@pytest.mark.parametrize("option, interface, volume", [
    ("interfaces[0].ip_address", {"type": "any_subnet", "network_id": NET, "ip_address": "10.0.0.5"}, None),
    ("interfaces[0].floating_ip", {"type": "subnet", "network_id": NET, "subnet_id": SUBNET,
                                   "floating_ip": {"source": "existing", "existing_floating_id": NET}}, None),
    ("interfaces[0].port_id", {"type": "reserved_fixed_ip", "port_id": NET}, None),
    ("volumes[1].volume_id", None, {"source": "existing-volume", "volume_id": NET}),
])
def test_a_value_for_one_instance_is_not_given_to_many(server, option, interface, volume):
    args = dict(count=2)
    if interface:
        args["interfaces"] = [interface]
    if volume:
        args["volumes"] = ARGS["volumes"] + [volume]
    result = run(server, **args)
    assert result["failed"] is True and (option + ": names one") in result["msg"] and "2 instances" in result["msg"], result["msg"]
    assert server.writes() == [] and requests(server) == []
    assert (option + ": names one") not in run(server, **dict(args, count=1)).get("msg", ""), "one instance may have it"


@pytest.mark.parametrize("module", ["instance", "instances"])
def test_an_ip_address_outside_its_subnet_fails_naming_both_before_any_write(server, module):
    interface = {"type": "any_subnet", "network_id": NET, "ip_address": "10.99.0.5"}
    args = dict(((key, value) for key, value in ARGS.items() if key not in ("count", "name_format")), interfaces=[interface])
    args.update(name="node-1") if module == "instance" else args.update(count=1, name_format="node-{index}")
    result = harness.run(server, {"instance": instance, "instances": instances}[module], args)
    assert result["failed"] is True and result["changed"] is False, result
    assert "interfaces[0].ip_address: 10.99.0.5" in result["msg"] and "192.168.10.0/24" in result["msg"], result["msg"]
    assert server.writes() == []


@pytest.mark.parametrize("check", [False, True])
def test_an_unknown_security_group_on_an_existing_instance_fails_before_the_first_write(server, check):
    args = dict(((key, value) for key, value in ARGS.items() if key not in ("count", "name_format")), name="node-1")
    assert not harness.run(server, instance, args).get("failed")
    server.log = []
    result = harness.run(server, instance, dict(args, tags={"tier": "web"}, security_groups=["legacy-sg", "no-such-group"]),
                         _ansible_check_mode=check)
    assert "no-such-group" in (json.dumps(result.get("warnings")) if check else result["msg"]), result
    assert result.get("failed") is (None if check else True) and server.writes() == [], server.writes()


def test_a_member_moved_to_another_placement_group_is_said_moved_when_another_fails(server):
    group = server.call("POST", "/cloud/v1/servergroups/1/76", {"name": "fleet-group", "policy": "affinity"})[1]["servergroup_id"]
    assert not run(server, count=2).get("failed")
    server.add_fault(method="POST", path="/put_into_servergroup$", status=400, body="injected rejection", skip=1)
    result = run(server, count=2, placement_group=group)
    assert result["failed"] is True and result["changes"]["updated"] == ["node-1"], result
    assert "done: node-1 (moved); failed: node-2" in result["msg"], result["msg"]
