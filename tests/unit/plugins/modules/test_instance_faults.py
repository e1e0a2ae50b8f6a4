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
from collections import Counter

import pytest

from ansible_collections.gcore.platform.plugins.modules import instance, instances

import harness

CREATE = "/cloud/v2/instances/1/76"
ONE = r"^/cloud/v1/instances/1/76/[^/]+"
ACTION = r"^/cloud/v2/instances/1/76/[^/]+/action$"
NAME = "srv-faults"
BASE_ARGS = dict(project_id=1, region_id=76, name=NAME, flavor="g1-standard-2-4",
                 volumes=[{"source": "image", "image_name": "ubuntu-22.04", "size": 10}], interfaces=[{"type": "external"}])

FAULTS = harness.FAULTS


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
# A fleet plan: how many members to seed first (with the module itself), the arguments, and the writes in the order the
# module sends them, each (method, path regex, how many alike writes come before it: the fault's ``skip``).
FLEET = dict(project_id=1, region_id=76, name_format="fleet-{index}", flavor="g1-standard-2-4",
             volumes=[{"source": "image", "image_name": "ubuntu-22.04", "size": 10}], interfaces=[{"type": "external"}])
FLEET_PLANS = {
    "create stopped": dict(seed=0, args={"count": 2, "state": "stopped"},
                           writes=[("POST", "^%s$" % CREATE, 0), ("POST", "^%s$" % CREATE, 1), ("POST", ACTION, 0), ("POST", ACTION, 1)]),
    "tags": dict(seed=2, args={"count": 2, "tags": {"tier": "web"}}, writes=[("PATCH", ONE + "$", 0), ("PATCH", ONE + "$", 1)]),
    "purge": dict(seed=3, args={"count": 1, "purge": True}, writes=[("DELETE", ONE + "$", 0), ("DELETE", ONE + "$", 1)]),
}


def fleet_run(server, args):
    return harness.run(server, instances, dict(FLEET, **args), api_retries=1)


@pytest.mark.parametrize("plan, position, fault", list(harness.fault_cases(FLEET_PLANS, FAULTS)))
def test_a_fault_at_any_fleet_write_leaves_the_others_names_the_member_and_the_rerun_converges(server, plan, position, fault):
    spec = FLEET_PLANS[plan]
    server.reset()
    server.configure(task_delay=0)
    if spec["seed"]:
        assert not fleet_run(server, {"count": spec["seed"]}).get("failed")
    server.log = []
    method, path, skip = spec["writes"][position]
    extra, applied = FAULTS[fault]
    server.add_fault(method=method, path=path, skip=skip, **extra)
    result = fleet_run(server, spec["args"])
    first = sent(server)
    assert [count for count in Counter(first).values() if count > 1] == [], "a write was sent twice: %s" % first
    assert all(any(sent_method == expected and re.search(pattern, sent_path) for expected, pattern, _skip in spec["writes"])
               for sent_method, sent_path, _body in first), first
    names = ["fleet-%d" % index for index in range(1, 4)]
    assert all(len(instances_named(server, name)) <= 1 for name in names), "a second instance of a name was made"
    assert result["changed"] is True, "a write of another member was accepted: changed"
    if applied:
        assert not result.get("failed"), result["msg"]
        assert len(first) == len(spec["writes"])
    else:
        assert result["failed"] is True and "injected rejection" in result["msg"], result
        assert "1 of " in result["msg"] and "failed: " in result["msg"] and "done: " in result["msg"], result["msg"]
        assert "none" not in result["msg"], result["msg"]
        done = {("create stopped", 0): "fleet-2 (created, stopped)", ("create stopped", 1): "fleet-1 (created, stopped)",
                ("create stopped", 2): "fleet-1 (created), fleet-2 (created, stopped)",
                ("create stopped", 3): "fleet-1 (created, stopped), fleet-2 (created)", ("tags", 0): "fleet-2 (updated)",
                ("tags", 1): "fleet-1 (updated)", ("purge", 0): "fleet-2 (deleted)", ("purge", 1): "fleet-3 (deleted)"}[plan, position]
        assert "done: %s; failed: " % done in result["msg"], result["msg"]
    server.log = []
    again = fleet_run(server, spec["args"])
    assert not again.get("failed"), again.get("msg")
    assert len(first) - (0 if applied else 1) + len(sent(server)) == len(spec["writes"]), "the re-run sends only what is left"
    server.log = []
    assert fleet_run(server, spec["args"])["changed"] is False and sent(server) == []
    assert [len(instances_named(server, name)) for name in names] == [1, 0, 0] if plan == "purge" else [1, 1, 0]


def fleet_ids(server):
    return dict((record["id"], record["name"]) for record in instances_named(server, *["fleet-%d" % index for index in range(1, 4)]))


@pytest.mark.parametrize("plan, position, kind", list(harness.task_fault_cases(
    FLEET_PLANS, found=("tags", "purge"), untasked=(("tags", 0), ("tags", 1)))))
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_the_member_and_the_rerun_converges(server, plan, position, kind):
    """The fleet's rows of the task fault kinds (``harness.check_task_fault`` for one member): a member's task ending in
    ERROR fails the run naming the member and the task's error, the others' accepted writes reported; a member locked by
    a failed task fails the run before any write, naming the task. The re-run converges, the third sends nothing."""
    spec = FLEET_PLANS[plan]
    if spec["seed"]:
        assert not fleet_run(server, {"count": spec["seed"]}).get("failed")
    server.log = []
    if kind == harness.TASK_FAULTS[1]:
        ident = next(ident for ident, name in fleet_ids(server).items() if name == "fleet-2")
        task = server.control("POST", "/_sim/failed_lock", {"id": ident, "error": harness.TASK_ERROR})["task_id"]
        result = fleet_run(server, spec["args"])
        assert result.get("failed") is True and result["changed"] is False, result
        assert "locked by task %s, which ended in ERROR: %s" % (task, harness.TASK_ERROR) in result["msg"], result["msg"]
        assert sent(server) == [], "nothing is sent past a lock that waiting cannot clear"
        server.control("POST", "/_sim/failed_lock", {"id": ident, "error": None})
    else:
        method, path, skip = spec["writes"][position]
        server.add_fault(method=method, path=path, skip=skip, task_error=harness.TASK_ERROR)
        ids = fleet_ids(server)  # before the run: a purged member is gone after it
        result = fleet_run(server, spec["args"])
        first = harness.writes(server)
        hit = [write for write in first if write[0] == method and re.search(path, write[1])][skip]
        ids.update(fleet_ids(server))
        member = (hit[2] or {}).get("name") or ids[hit[1].split("/")[6]]
        assert result.get("failed") is True and result["changed"] is True, result
        named = re.search(r"%s: task (\S+) ended in ERROR: %s;" % (member, harness.TASK_ERROR), result["msg"])
        assert named and server.tasks[named.group(1)]["error"] == harness.TASK_ERROR, result["msg"]
        assert result["msg"].count("ended in ERROR") == 1 and "; failed: %s." % member in result["msg"], result["msg"]
        reported = [name for names in result["changes"].values() for name in names]
        others = set((write[2] or {}).get("name") or ids[write[1].split("/")[6]] for write in first if write is not hit)
        assert others - {member} <= set(reported), "the other members' accepted writes are reported: %s" % result["changes"]
    server.log = []
    again = fleet_run(server, spec["args"])
    if again.get("failed") and "the service could not finish it" in again["msg"]:
        # the instance its failed create task left is broken (ERROR): deleted as the message says, the re-run makes it again
        assert sent(server) == [] and again["instance"]["name"] == member, again
        assert again["msg"].startswith("%s (instance %s) is ERROR" % (member, again["instance"]["id"])), again["msg"]
        assert "gcore.platform.instance with instance_id: %s and state: absent" % again["instance"]["id"] in again["msg"], again["msg"]
        gone = harness.run(server, instance, dict(project_id=1, region_id=76, instance_id=again["instance"]["id"], state="absent"))
        assert gone["changed"] is True, gone
        server.log = []
        again = fleet_run(server, spec["args"])
    assert not again.get("failed"), again.get("msg")
    assert again["changed"] is True
    server.log = []
    assert fleet_run(server, spec["args"])["changed"] is False and sent(server) == []
    names = ["fleet-%d" % index for index in range(1, 4)]
    assert [len(instances_named(server, name)) for name in names] == [1, 0, 0] if plan == "purge" else [1, 1, 0]


@pytest.mark.parametrize("plan, position", [("create stopped", 2), ("purge", 0)])
@pytest.mark.parametrize("fault", ["500 after applying", "dropped after applying"])
def test_a_members_stop_or_delete_whose_answer_was_lost_while_its_task_runs_is_read_back_for_that_member(server, plan, position, fault):
    spec = FLEET_PLANS[plan]
    server.reset()
    server.configure(task_delay=0)
    if spec["seed"]:
        assert not fleet_run(server, {"count": spec["seed"]}).get("failed")
    server.configure(task_delay=0.5)
    server.log = []
    method, path, skip = spec["writes"][position]
    server.add_fault(method=method, path=path, skip=skip, **FAULTS[fault][0])
    result = fleet_run(server, spec["args"])
    assert not result.get("failed"), result["msg"]
    assert result["changed"] is True and len(sent(server)) == len(spec["writes"]), sent(server)
    key = "stopped" if plan == "create stopped" else "deleted"
    assert result["changes"][key] == (["fleet-1", "fleet-2"] if key == "stopped" else ["fleet-3", "fleet-2"]), result["changes"]
    server.log = []
    assert fleet_run(server, spec["args"])["changed"] is False and sent(server) == []
