# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault matrix of the instance module's writes: for each write of a plan (create, create then stop, the PATCH of
a rename and tags, a security group added and one removed, stop, start, changeflavor, delete) and each fault kind (a
500 after the service applied the write, a connection dropped after it applied it, a clear 400 or 403 rejection that
applied nothing), the run reports the truth (``changed``), never sends a write twice, never makes a second instance,
and a re-run converges with no write left. The cases are generated from the plans below, not written by hand.

The module runs in-process (its ``main``) against the real simulator over HTTP (the ``server`` fixture)."""

from __future__ import annotations

import re

import pytest

from ansible_collections.gcore.platform.plugins.modules import instance, instances

import harness

CREATE = "/cloud/v2/instances/1/76"
ONE = r"^/cloud/v1/instances/1/76/[^/]+"
ACTION = r"^/cloud/v2/instances/1/76/[^/]+/action$"
NAME = "srv-faults"
BASE_ARGS = dict(project_id=1, region_id=76, name=NAME, flavor="g1-standard-2-4",
                 volumes=[{"source": "image", "image_name": "ubuntu-22.04", "size": 10}], interfaces=[{"type": "external"}])


def seed(status="ACTIVE"):
    """An instance named NAME made through the API (its tasks end at once); stopped when ``status`` is SHUTOFF."""
    def make(sim):
        answer = sim.call("POST", CREATE, {"name": NAME, "flavor": "g1-standard-2-4", "interfaces": [{"type": "external"}],
                                           "volumes": [{"source": "new-volume", "size": 1}], "tags": {"env": "prod"}})[1]
        ident = sim.call("GET", "/cloud/v1/tasks/" + answer["tasks"][0])[1]["created_resources"]["instances"][0]
        sim.call("GET", "/cloud/v1/instances/1/76/" + ident)  # booted
        if status == "SHUTOFF":
            sim.call("POST", "/cloud/v2/instances/1/76/%s/action" % ident, {"action": "stop"})
        return {"id": ident}
    return make


# A plan: the arguments (``{id}``: the seeded instance's id), how to seed, and the writes in order (method, path regex).
PLANS = {
    "create": dict(seed=None, args={}, writes=[("POST", "^%s$" % CREATE)]),
    "create stopped": dict(seed=None, args={"state": "stopped"}, writes=[("POST", "^%s$" % CREATE), ("POST", ACTION)]),
    "rename and tags": dict(seed=seed(), args={"instance_id": "{id}", "name": "srv-renamed", "tags": {"env": "dev"}},
                            writes=[("PATCH", ONE + "$")]),
    "security groups": dict(seed=seed(), args={"security_groups": ["legacy-sg"]},
                            writes=[("POST", ONE + "/addsecuritygroup$"), ("POST", ONE + "/delsecuritygroup$")]),
    "stop": dict(seed=seed(), args={"state": "stopped"}, writes=[("POST", ACTION)]),
    "start": dict(seed=seed("SHUTOFF"), args={"state": "started"}, writes=[("POST", ACTION)]),
    "resize": dict(seed=seed(), args={"flavor": "g1-standard-4-8", "allow_resize": True},
                   writes=[("POST", ONE + "/changeflavor$")]),
    "delete": dict(seed=seed(), args={"state": "absent", "delete_floating_ips": True, "delete_volumes": True}, writes=[("DELETE", ONE + r"$")]),
}


def sent(server):
    return [(entry["method"], entry["path"], entry["body"]) for entry in server.writes()]


def instances_named(server, *names):
    return [record for record in server.instances if record["project_id"] == 1 and record["region_id"] == 76
            and record["name"] in names]


def one_instance(server, row):
    assert len(instances_named(server, NAME, "srv-renamed")) <= 1, "a second instance was made"


def none_left_after_a_delete(server, row, result, stage):
    if stage == "third":
        assert len(instances_named(server, NAME, "srv-renamed")) == (0 if row.args.get("state") == "absent" else 1)


MATRIX = harness.Matrix(PLANS, module=instance, base=BASE_ARGS, found=("stop", "delete"),
                        untasked=(("rename and tags", 0), ("security groups", 0), ("security groups", 1)),
                        unique=one_instance, check=none_left_after_a_delete)


@pytest.mark.parametrize("plan, position, kind", MATRIX.task_cases())
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    MATRIX.check_task_fault(server, plan, position, kind)


@pytest.mark.parametrize("plan, position, fault", MATRIX.cases())
def test_a_fault_at_any_instance_write_reports_the_truth_sends_nothing_twice_and_the_rerun_converges(server, plan, position, fault):
    MATRIX.check_fault(server, plan, position, fault)


# ---- instances: the fleet's writes -----------------------------------------------------------------------------
FLEET = dict(project_id=1, region_id=76, name_format="fleet-{index}", flavor="g1-standard-2-4",
             volumes=[{"source": "image", "image_name": "ubuntu-22.04", "size": 10}], interfaces=[{"type": "external"}])
MEMBERS = ["fleet-%d" % index for index in range(1, 4)]


def fleet_ids(server):
    return dict((record["id"], record["name"]) for record in instances_named(server, *MEMBERS))


def fleet_of(count):
    """``count`` members made first, by the module: their names by id."""
    def make(server):
        assert not harness.run(server, instances, dict(FLEET, count=count)).get("failed")
        return {"ids": fleet_ids(server)}
    return make


def fleet_2(server):
    return next(ident for ident, name in fleet_ids(server).items() if name == "fleet-2")


# A fleet plan: how many members to seed first, the arguments, the writes in the order the module sends them (method,
# path regex), what the message says was done when a write is rejected (by position), the member a lock is put on.
FLEET_PLANS = {
    "create stopped": dict(args={"count": 2, "state": "stopped"}, members=True,
                           writes=[("POST", "^%s$" % CREATE), ("POST", "^%s$" % CREATE), ("POST", ACTION), ("POST", ACTION)],
                           done=["fleet-2 (created, stopped)", "fleet-1 (created, stopped)", "fleet-1 (created), fleet-2 (created, stopped)",
                                 "fleet-1 (created, stopped), fleet-2 (created)"]),
    "tags": dict(seed=fleet_of(2), args={"count": 2, "tags": {"tier": "web"}}, members=True, locked=fleet_2,
                 writes=[("PATCH", ONE + "$"), ("PATCH", ONE + "$")], done=["fleet-2 (updated)", "fleet-1 (updated)"]),
    "purge": dict(seed=fleet_of(3), args={"count": 1, "purge": True}, members=True, locked=fleet_2,
                  writes=[("DELETE", ONE + "$"), ("DELETE", ONE + "$")], done=["fleet-2 (deleted)", "fleet-3 (deleted)"]),
}


def one_instance_a_name(server, row):
    assert all(len(instances_named(server, name)) <= 1 for name in MEMBERS), "a second instance of a name was made"


def the_member_is_named(server, row, result, stage):
    """A rejection names the members done and the one failed; a task ending in ERROR names its member and task, the
    others' accepted writes reported; a member its failed create left broken is named with how to delete it."""
    if stage == "first" and row.applied is False:
        assert "1 of " in result["msg"] and "failed: " in result["msg"] and "done: " in result["msg"], result["msg"]
        assert "none" not in result["msg"], result["msg"]
        assert "done: %s; failed: " % row.spec["done"][row.position] in result["msg"], result["msg"]
    elif stage == "task" and row.position is not None:
        method, path = row.planned[row.position]
        first = harness.writes(server)
        hit = [write for write in first if write[0] == method and re.search(path, write[1])][row.planned[:row.position].count((method, path))]
        ids = dict(row.made.get("ids", {}), **fleet_ids(server))  # a purged member is gone after the run
        member = row.noted["member"] = (hit[2] or {}).get("name") or ids[hit[1].split("/")[6]]
        named = re.search(r"%s: task (\S+) ended in ERROR: %s;" % (member, harness.TASK_ERROR), result["msg"])
        assert named and server.tasks[named.group(1)]["error"] == harness.TASK_ERROR, result["msg"]
        assert result["msg"].count("ended in ERROR") == 1 and "; failed: %s." % member in result["msg"], result["msg"]
        reported = [name for names in result["changes"].values() for name in names]
        others = set((write[2] or {}).get("name") or ids[write[1].split("/")[6]] for write in first if write is not hit)
        assert others - {member} <= set(reported), "the other members' accepted writes are reported: %s" % result["changes"]
    elif stage == "broken":
        ident = result["instance"]["id"]
        assert result["instance"]["name"] == row.noted["member"], result
        assert result["msg"].startswith("%s (instance %s) is ERROR" % (row.noted["member"], ident)), result["msg"]
        assert "gcore.platform.instance with instance_id: %s and state: absent" % ident in result["msg"], result["msg"]
    elif stage == "third":
        assert [len(instances_named(server, name)) for name in MEMBERS] == ([1, 0, 0] if row.plan == "purge" else [1, 1, 0])


def removed_as_the_message_says(server, row, result):
    return harness.run(server, instance, dict(project_id=1, region_id=76, instance_id=result["instance"]["id"], state="absent"))


FLEET_MATRIX = harness.Matrix(FLEET_PLANS, module=instances, base=FLEET, found=("tags", "purge"), untasked=(("tags", 0), ("tags", 1)),
                              unique=one_instance_a_name, check=the_member_is_named, remove=removed_as_the_message_says)


@pytest.mark.parametrize("plan, position, fault", FLEET_MATRIX.cases())
def test_a_fault_at_any_fleet_write_leaves_the_others_names_the_member_and_the_rerun_converges(server, plan, position, fault):
    FLEET_MATRIX.check_fault(server, plan, position, fault)


@pytest.mark.parametrize("plan, position, kind", FLEET_MATRIX.task_cases())
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_the_member_and_the_rerun_converges(server, plan, position, kind):
    FLEET_MATRIX.check_task_fault(server, plan, position, kind)


@pytest.mark.parametrize("plan, position", [("create stopped", 2), ("purge", 0)])
@pytest.mark.parametrize("fault", ["500 after applying", "dropped after applying"])
def test_a_members_stop_or_delete_whose_answer_was_lost_while_its_task_runs_is_read_back_for_that_member(server, plan, position, fault):
    row = FLEET_MATRIX.prepare(server, plan, position)
    server.configure(task_delay=0.5)
    FLEET_MATRIX.fault(server, row, **harness.FAULTS[fault][0])
    result = FLEET_MATRIX.run(server, row)
    assert not result.get("failed"), result["msg"]
    assert result["changed"] is True and len(sent(server)) == len(row.planned), sent(server)
    key = "stopped" if plan == "create stopped" else "deleted"
    assert result["changes"][key] == (["fleet-1", "fleet-2"] if key == "stopped" else ["fleet-3", "fleet-2"]), result["changes"]
    server.log = []
    assert FLEET_MATRIX.run(server, row)["changed"] is False and sent(server) == []
