# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""instances ``rolling``, in process against the simulator over HTTP: members that differ in what
only a new instance can change (the image, the boot volume's size or type, the SSH key) are replaced a batch at a time,
names kept, never more members away than a batch; a flavor change with ``allow_resize`` is rolled the same way; check
mode lists the batches; a failed batch stops the roll naming what was replaced (a fault matrix: every write of a roll
under every fault kind, ``changes`` only what took effect); without ``rolling`` such a difference
fails naming the members and the option; bad input is refused before any request."""

from __future__ import annotations

import json
from unittest import mock

import pytest

from ansible_collections.gcore.platform.plugins.modules import instance, instances

import harness

BASE = "/cloud/v1/instances/1/76"
CREATE = "/cloud/v2/instances/1/76"
NAMES = ["roll-%d" % index for index in range(1, 6)]
ARGS = dict(project_id=1, region_id=76, count=5, name_format="roll-{index}", flavor="g1-standard-2-4", delete_volumes=True,
            volumes=[{"source": "image", "image_name": "ubuntu-22.04", "size": 10, "boot_index": 0}], interfaces=[{"type": "external"}])
OLD = [{"source": "image", "image_name": "ubuntu-22.04-old", "size": 10, "boot_index": 0}]
ROLLING = {"batch": 2}


def run(server, **args):
    return harness.run(server, instances, dict(ARGS, **args))


def members(server):
    return dict((record["name"], record) for record in server.call("GET", BASE)[1]["results"] if record["name"] in NAMES)


def away(server, ids):
    """The most members away at once, from the request log: a member is away from its DELETE until the first listing
    that shows its new instance ACTIVE (the simulator's state as each listing answered it is not logged, so the listing
    after the last create of a batch is taken: a batch's next DELETE is only sent after it)."""
    most, gone = 0, set()
    for entry in server.requests():
        if entry["method"] == "DELETE":
            gone.add(ids[entry["path"].rsplit("/", 1)[-1]])
        elif entry["method"] == "POST" and entry["path"] == CREATE:
            gone.add(json.loads(entry["body"])["name"])
        most = max(most, len(gone))
        if entry["method"] == "GET" and entry["path"] == BASE and entry.get("released"):
            gone.clear()
    return most


def ids_of(fleet):
    return dict((name, ident) for ident, name in fleet.items())


@pytest.fixture
def fleet(server):
    server.reset()
    server.configure(task_delay=0)
    assert not run(server).get("failed")
    server.log = []
    return dict((record["id"], name) for name, record in members(server).items())


def test_a_new_image_is_rolled_through_the_fleet_two_at_a_time_names_kept(server, fleet):
    preview = run(server, volumes=OLD, rolling=ROLLING, _ansible_check_mode=True, _ansible_diff=True)
    assert preview["changed"] is True and server.writes() == [], preview.get("msg")
    assert preview["changes"]["batches"] == [["roll-1", "roll-2"], ["roll-3", "roll-4"], ["roll-5"]]
    assert preview["changes"]["replaced"] == NAMES and preview["changes"]["created"] == preview["changes"]["deleted"] == []
    assert preview["diff"]["before"]["roll-1"]["state"] == "present" and preview["diff"]["after"]["roll-1"]["image"] == "ubuntu-22.04-old"
    assert [item["name"] for item in preview["instances"]] == NAMES
    server.log = []
    server.configure(instances_boot_held=True)  # every boot waits for a release: a batch is away until its boots are let go
    for times in (2, 4, 6):  # the listings polled while each batch boots (one listing finds the fleet first)
        server.release(after={"method": "GET", "path": "^%s$" % BASE, "times": times})
    rolled = run(server, volumes=OLD, rolling=ROLLING)
    assert not rolled.get("failed"), rolled.get("msg")
    assert rolled["changes"]["batches"] == preview["changes"]["batches"] and rolled["changes"]["replaced"] == NAMES
    sent = [(entry["method"], entry["path"] == CREATE) for entry in server.writes()]
    assert sent == [("DELETE", False)] * 2 + [("POST", True)] * 2 + [("DELETE", False)] * 2 + [("POST", True)] * 2 + [
        ("DELETE", False), ("POST", True)], sent
    assert away(server, fleet) <= 2
    now = members(server)
    assert sorted(now) == NAMES and not set(record["id"] for record in now.values()) & set(fleet)
    assert all(record["status"] == "ACTIVE" for record in now.values())
    assert [item["name"] for item in rolled["instances"]] == NAMES
    server.configure(instances_boot_held=False)
    server.log = []
    again = run(server, volumes=OLD, rolling=ROLLING)
    assert again["changed"] is False and server.writes() == [] and again["changes"]["batches"] == [], again


def test_without_rolling_a_difference_only_a_new_instance_makes_fails_naming_the_members_and_the_option(server, fleet):
    result = run(server, volumes=OLD, ssh_key_name="deploy")
    assert result["failed"] is True and result["changed"] is False and server.writes() == []
    assert result["msg"].startswith("rolling: roll-1 (") and "roll-5 (" in result["msg"], result["msg"]
    assert "boots from the image 'ubuntu-22.04'" in result["msg"] and "has the SSH key None, not 'deploy'" in result["msg"]
    sized = run(server, volumes=[dict(ARGS["volumes"][0], size=20, type_name="ssd_hiiops")])
    assert "has a boot volume of size 10, not 20 and has a boot volume of type_name 'standard', not 'ssd_hiiops'" in sized["msg"], sized["msg"]


def test_a_flavor_change_with_allow_resize_is_rolled_a_batch_at_a_time(server, fleet):
    result = run(server, flavor="g1-standard-4-8", allow_resize=True, rolling={"batch": 3})
    assert not result.get("failed"), result.get("msg")
    assert result["changes"]["batches"] == [NAMES[:3], NAMES[3:]] and result["changes"]["updated"] == NAMES
    assert result["changes"]["replaced"] == []
    log = [(entry["method"], entry["path"]) for entry in server.requests()]
    resizes = [index for index, (method, path) in enumerate(log) if path.endswith("/changeflavor")]
    assert len(resizes) == 5 and resizes[:3] == list(range(resizes[0], resizes[0] + 3)), "a batch's resizes sent together"
    between = log[resizes[2] + 1:resizes[3]]
    assert ("GET", "%s/%s" % (BASE, ids_of(fleet)["roll-3"])) in between, "the second batch waits until the first is ready"
    assert all(record["flavor"]["flavor_name"] == "g1-standard-4-8" for record in members(server).values())


def test_a_batch_whose_create_fails_stops_the_roll_naming_what_was_replaced_and_the_re_run_finishes(server, fleet):
    server.add_fault(method="POST", path="^%s$" % CREATE, status=400, body="injected rejection", skip=2)  # batch 2's first create
    result = run(server, volumes=OLD, rolling=ROLLING)
    assert result["failed"] is True and result["changed"] is True
    assert result["changes"]["replaced"] == ["roll-1", "roll-2", "roll-4"] and result["changes"]["deleted"] == ["roll-3"], result["changes"]
    assert result["changes"]["batches"] == [["roll-1", "roll-2"], ["roll-3", "roll-4"]]
    assert "the roll stopped at batch 2 of 3 (replaced: roll-1, roll-2, roll-4; not rolled: roll-5)" in result["msg"], result["msg"]
    assert "roll-3 (deleted)" in result["msg"] and "failed: roll-3" in result["msg"]
    assert sorted(members(server)) == ["roll-1", "roll-2", "roll-4", "roll-5"]
    server.log = []
    again = run(server, volumes=OLD, rolling=ROLLING)
    assert not again.get("failed"), again.get("msg")
    assert again["changes"]["created"] == ["roll-3"] and again["changes"]["replaced"] == ["roll-5"], again["changes"]
    assert again["changes"]["batches"] == [["roll-5"]]
    server.log = []
    assert run(server, volumes=OLD, rolling=ROLLING)["changed"] is False and server.writes() == []


@pytest.mark.parametrize("args, message", [
    (dict(rolling={"batch": 0}), "rolling.batch:"),
    (dict(rolling={"batch": 2, "pause": -1}), "rolling.pause:"),
    (dict(rolling={"batch": 2}, wait=False), "rolling: needs wait=true"),
])
def test_bad_rolling_input_is_refused_before_any_request(args, message):
    msg = harness.fail_message(instances, dict(ARGS, **args))
    assert message in msg, msg


# ---- the roll's fault matrix: every write of a roll of three members in batches of two, under every fault kind ------
ONE = r"^%s/[^/]+$" % BASE
ROLL = [("DELETE", ONE, 0), ("DELETE", ONE, 1), ("POST", "^%s$" % CREATE, 0), ("POST", "^%s$" % CREATE, 1),
        ("DELETE", ONE, 2), ("POST", "^%s$" % CREATE, 2)]  # (method, path, alike writes before it): the batches' order
FAULTS = {"500 after applying": dict(status=500, applied=True), "dropped after applying": dict(drop=True, applied=True),
          "400 rejected": dict(status=400, body="injected rejection"), harness.TASK_FAULTS[0]: dict(task_error=harness.TASK_ERROR)}
THREE = NAMES[:3]


def roll_run(server, **args):
    return harness.run(server, instances, dict(ARGS, count=3, volumes=OLD, rolling=ROLLING, **args), api_retries=1)


@pytest.mark.parametrize("position", range(len(ROLL)))
@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_a_fault_at_any_write_of_a_roll_stops_it_reports_only_what_took_effect_and_the_re_run_finishes(server, position, fault):
    server.reset()
    server.configure(task_delay=0)
    assert not run(server, count=3).get("failed")
    before = dict((name, record["id"]) for name, record in members(server).items())
    server.log = []
    method, path, skip = ROLL[position]
    server.add_fault(method=method, path=path, skip=skip, **FAULTS[fault])
    result = roll_run(server)
    sent = [(entry["method"], entry["path"]) for entry in server.writes()]
    others = [write for write in sent if write != ("POST", CREATE)]
    assert len(set(others)) == len(others) and sent.count(("POST", CREATE)) <= 3, "a write was sent twice: %s" % sent
    now = members(server)
    assert sorted(now) == [name for name in THREE if name in now] and all(
        len([record for record in server.call("GET", BASE)[1]["results"] if record["name"] == name]) <= 1 for name in THREE)
    replaced = [name for name in THREE if name in now and now[name]["id"] != before[name] and now[name]["status"] == "ACTIVE"]
    if "applied" in FAULTS[fault]:  # the write was read back: the roll went on
        assert not result.get("failed"), result["msg"]
        assert result["changes"]["replaced"] == THREE and len(sent) == len(ROLL), (result["changes"], sent)
    else:
        assert result["failed"] is True and result["changed"] is True, result  # the other member of the round was accepted
        assert result["changes"]["replaced"] == replaced, (result["changes"], replaced)
        assert result["changes"]["deleted"] == [name for name in THREE if name not in replaced and now.get(name, {}).get("id") != before[name]]
        assert "the roll stopped at batch %d of 2" % (1 if position < 4 else 2) in result["msg"], result["msg"]
        assert len(sent) <= (4 if position < 4 else 6), "no write of a batch after the one that failed: %s" % sent
    server.log = []
    again = roll_run(server)
    if again.get("failed") and "the service could not finish it" in again["msg"]:  # a create task's ERROR left a broken one
        assert server.writes() == []
        gone = harness.run(server, instance, dict(project_id=1, region_id=76, instance_id=again["instance"]["id"], state="absent"))
        assert gone["changed"] is True, gone
        again = roll_run(server)
    assert not again.get("failed"), again.get("msg")
    server.log = []
    assert roll_run(server)["changed"] is False and server.writes() == []
    assert all(record["status"] == "ACTIVE" and record["id"] != before[name] for name, record in members(server).items())
    assert sorted(members(server)) == THREE


def test_members_on_another_network_than_the_one_named_are_replaced_onto_it(server):
    server.reset()
    server.configure(task_delay=0)
    assert not run(server, count=2, interfaces=[{"type": "subnet", "network": "router-net-1", "subnet": "router-subnet-1"}]).get("failed")
    server.log = []
    moved = [{"type": "subnet", "network": "router-net-2", "subnet": "router-subnet-2"}]
    refused = run(server, count=2, interfaces=moved)
    assert refused["failed"] is True and server.writes() == []
    assert "has no interface on the network 'router-net-2' (its networks: router-net-1)" in refused["msg"], refused["msg"]
    rolled = run(server, count=2, interfaces=moved, rolling={"batch": 1})
    assert not rolled.get("failed") and rolled["changes"]["batches"] == [["roll-1"], ["roll-2"]], rolled.get("msg")
    assert all(list(record["addresses"]) == ["router-net-2"] for record in members(server).values())
    server.log = []
    assert run(server, count=2, interfaces=moved, rolling={"batch": 1})["changed"] is False and server.writes() == []


def test_rolling_with_state_absent_deletes_every_member_once(server, fleet):
    gone = run(server, state="absent", flavor="g1-standard-4-8", allow_resize=True, rolling=ROLLING)
    assert not gone.get("failed"), gone.get("msg")
    assert gone["changes"]["deleted"] == NAMES[::-1] and gone["changes"]["batches"] == [] and members(server) == {}
    assert [entry["method"] for entry in server.writes()] == ["DELETE"] * 5


def test_the_pause_is_taken_between_batches_only(server, fleet):
    with mock.patch("ansible_collections.gcore.platform.plugins.module_utils._fleet.time.sleep") as sleep:
        rolled = run(server, volumes=OLD, rolling={"batch": 2, "pause": 30})
    assert not rolled.get("failed") and len(rolled["changes"]["batches"]) == 3, rolled.get("msg")
    assert [call.args for call in sleep.call_args_list if call.args == (30,)] == [(30,), (30,)]
