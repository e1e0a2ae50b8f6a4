# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A property test of the child collection's planner (``plan_children``) and the attachment planner: for random current and desired
sets (names, members, a quota), applying the plan in its order reaches the desired set, deletes come before
creates (detaches after attaches), and the count never exceeds a quota the end state fits. A seeded ``random``
loop: every run checks the same cases, a failure prints its seed."""

from __future__ import annotations

import random

import pytest

from ansible_collections.gcore.platform.plugins.module_utils._attachments import Attachments
from ansible_collections.gcore.platform.plugins.module_utils._members import Member, differences
from ansible_collections.gcore.platform.plugins.module_utils._children import CHANGES, Children, Held
from ansible_collections.gcore.platform.plugins.module_utils._children import plan_children as plan_list
from ansible_collections.gcore.platform.plugins.module_utils._writes import changes_of
from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError, check_names

MEMBERS = (Member("name"), Member("size"), Member("enabled", reset=True))
NAMES = ["r%d" % number for number in range(12)]


def random_case(rng):
    held = [{"id": ident, "name": name, "size": rng.randint(0, 2), "enabled": rng.random() < 0.5}
            for ident, name in enumerate(rng.sample(NAMES, rng.randint(0, 8)), start=1)]
    wanted = [dict(name=name, size=rng.choice([None, 0, 1, 2]), enabled=rng.choice([None, True, False]))
              for name in rng.sample(NAMES, rng.randint(0, 8))]
    return held, wanted


RULES = Children("", "rule", {"list": "/rules", "item": "/rules/{id}", "bulk_delete": "/rules/bulk_delete"}, MEMBERS,
                 body=lambda item: dict((key, value) for key, value in item.items() if value is not None),
                 bulk_body=lambda ids: {"ids": ids}, mode=lambda params: "merged")


def writes(plan, held):
    """The writes the child collection makes of ``plan`` (the order the flow sends)."""
    return RULES.writes(plan, Held(held), {})


def apply(held, plan, quota):
    """Send the writes the list flow makes of ``plan``, in their order, to a copy of ``held``; returns the end state,
    the count after every write and the kinds in the order sent."""
    state = dict((record["id"], dict(record)) for record in held)
    counts, next_id, kinds = [], 1000, []
    for write in writes(plan, held):
        if write.kind == "delete":
            for ident in write.body["ids"]:
                del state[ident]
        elif write.kind == "update":
            state[int(write.path.rsplit("/", 1)[1])].update(write.body)
        else:
            assert len(state) < quota, "a create beyond the quota"
            next_id += 1
            state[next_id] = dict(write.body, id=next_id)
            state[next_id].setdefault("enabled", True)
        counts.append(len(state))
        kinds.append(write.kind)
    return list(state.values()), counts, kinds


@pytest.mark.parametrize("state", ["merged", "replaced", "overridden", "deleted"])
def test_the_plan_reaches_the_desired_set_deletes_first_and_never_exceeds_a_quota_the_end_state_fits(state):
    replace = state in ("replaced", "overridden")
    for seed in range(400):
        rng = random.Random(seed)
        held, wanted = random_case(rng)
        plan = plan_list(held, wanted, state, lambda item, record: differences(MEMBERS, record, item, replace=replace))
        names = set(item["name"] for item in wanted)
        end_names = (set(r["name"] for r in held) | names if state in ("merged", "replaced") else
                     names if state == "overridden" else set(r["name"] for r in held) - names)
        quota = max(len(held), len(end_names))  # the end state fits, and so does the start
        end, counts, kinds = apply(held, plan, quota)
        assert max(counts or [0]) <= quota, seed
        assert kinds == sorted(kinds, key=["delete", "update", "create"].index), "deletes, then updates, then creates (seed %s)" % seed
        assert sorted(record["name"] for record in end) == sorted(end_names), seed
        for item in wanted if state != "deleted" else ():
            record = next(record for record in end if record["name"] == item["name"])
            assert differences(MEMBERS, record, item, replace=replace) == {}, "seed %s: %s is not as asked" % (seed, item)
        again = plan_list(end, wanted, state, lambda item, record: differences(MEMBERS, record, item, replace=replace))
        assert not (again.deletes or again.updates or again.creates), "seed %s: a second plan is empty" % seed


def test_a_name_several_rules_hold_is_deleted_in_every_rule():
    held = [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}, {"id": 3, "name": "a"}]
    plan = plan_list(held, [{"name": "a"}], "deleted", None)
    assert [record["id"] for record in plan.deletes] == [1, 3]
    assert changes_of(CHANGES, writes(plan, held)) == {"created": [], "updated": [], "deleted": ["a", "a"], "deleted_ids": [1, 3]}


def test_duplicate_names_are_found_in_linear_time_naming_both_indices():
    items = [{"name": "n%d" % number} for number in range(20000)] + [{"name": "n7"}]
    with pytest.raises(ValidationError) as raised:
        check_names(items)
    assert "config[7] and config[20000] are both named 'n7'" in str(raised.value)
    assert check_names([{"name": " padded"}, {"name": "fine"}]) == [
        "config[0].name ' padded' has leading or trailing whitespace: the service keeps it, so it is another name than 'padded'"]


PORTS = Attachments("ports", key="subnet_id", items=lambda record: record["ports"],
                    attach=("POST", "/boxes/{id}/attach"), detach=("POST", "/boxes/{id}/detach"))


def test_the_attachment_plan_attaches_first_and_reaches_the_listed_set():
    for seed in range(300):
        rng = random.Random(seed)
        held = [{"subnet_id": key, "ip": rng.choice(["a", "b"])} for key in rng.sample("stuvwxyz", rng.randint(0, 5))]
        wanted = [{"subnet_id": key, "ip": rng.choice([None, "a", "b"])} for key in rng.sample("stuvwxyz", rng.randint(0, 5))]
        record = {"id": "r", "ports": [dict(item) for item in held]}
        writes = PORTS.plan(record, wanted, {})
        kinds = [write.kind for write in writes]
        first_detach_of_unlisted = next((index for index, write in enumerate(writes) if write.kind == "detach"
                                         and write.names[0] not in set(item["subnet_id"] for item in wanted)), len(writes))
        assert "attach" not in kinds[first_detach_of_unlisted:], "seed %s: an unlisted subnet is detached before an attach" % seed
        new = [w for w in writes if w.kind == "attach" and w.names[0] not in set(item["subnet_id"] for item in held)]
        assert writes[:len(new)] == new, "seed %s: new subnets are attached first" % seed
        ports = dict((item["subnet_id"], dict(item)) for item in held)
        for write in writes:
            if write.kind == "attach":
                ports[write.names[0]] = {"subnet_id": write.names[0], "ip": write.body.get("ip") or "z"}
            else:
                del ports[write.names[0]]
        record["ports"] = list(ports.values())
        assert sorted(ports) == sorted(item["subnet_id"] for item in wanted), seed
        assert PORTS.plan(record, wanted, {}) == [], "seed %s: nothing left to do" % seed
        assert all(write.done(record) for write in writes if write.kind == "attach"), "the state confirms every attach"


def test_deleted_ids_are_in_numeric_order():
    held = [{"id": ident, "name": "n%d" % ident} for ident in (10, 9, 100)]
    assert changes_of(CHANGES, writes(plan_list(held, [], "overridden", None), held))["deleted_ids"] == [9, 10, 100]
