# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The child collection part (``Children``) alone: its paths, what a replacement sends and in which order, what
``changes`` says of it when both writes, one or none took effect, a create-only member that fails, and a nested
collection's ``changes`` keys; the declared capabilities: children read with their parent and addressed by name,
writes waiting for the parent, a member written by its own request, creates first, what the parent's create says,
every child in the diff, a child as compared, the message hooks, a replacement's two writes together, a group
declared by a subclass, the view hooks in the diff of the children that change; and the modules' own: the policy's bulk
adds (snapshot_schedule), the writes nested in a listener's pool (load_balancer) (no HTTP)."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._children import CHANGES, Children, Held, Plan
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._writes import Write, changes_of
from ansible_collections.gcore.platform.plugins.modules.load_balancer import nested
from ansible_collections.gcore.platform.plugins.modules.snapshot_schedule import PolicyChildren

PATHS = {"list": "/p/{parent}/kids", "item": "/p/{parent}/kids/{id}"}
MEMBERS = (Member("name"), Member("port"), Member("size"))
SHAPE = dict(CHANGES, replaced=str)


def kids(replace="create first", name="", **more):
    return Children(name, "kid", PATHS, MEMBERS, scope="parent {parent}", create_only=("port",), replace=replace,
                    body=lambda item: dict(item), gathered=lambda record, params: dict(record), mode=lambda params: "merged", **more)


def held(*records):
    listing = Held(records)
    listing.again = lambda: list(records)
    return listing


PARAMS = {"parent": 4, "config": [{"name": "a", "port": 81}]}


def sent(writes):
    """Each write's then run as accepted, in order; ``[(kind, path)]``."""
    for write in writes:
        if write.then:
            write.then(True, ({}, []))
    return [(write.kind, write.path) for write in writes]


@pytest.mark.parametrize("replace, order", [("create first", ["create", "delete"]), ("delete first", ["delete", "create"])])
def test_a_create_only_difference_replaces_in_the_declared_order_and_says_replaced_once_both_took_effect(replace, order):
    part = kids(replace)
    writes = part.plan(held({"id": 1, "name": "a", "port": 80, "size": 1}), PARAMS["config"], PARAMS)
    assert [write.kind for write in writes] == order
    assert changes_of(SHAPE, writes)["replaced"] == ["a"], "check mode: the plan says replaced"
    assert ("delete", "/p/4/kids/1") in sent(writes) and ("create", "/p/4/kids") in sent(writes)
    assert changes_of(SHAPE, writes) == {"created": [], "updated": [], "deleted": [], "deleted_ids": [1], "replaced": ["a"]}
    create = next(write for write in writes if write.kind == "create")
    assert create.body == {"name": "a", "port": 81, "size": 1, "id": 1}, "the record's members where the item leaves one out"


@pytest.mark.parametrize("replace, said", [("create first", {"created": ["a"]}), ("delete first", {"deleted": ["a"], "deleted_ids": [1]})])
def test_a_replacement_whose_second_write_fails_says_only_the_first(replace, said):
    writes = kids(replace).plan(held({"id": 1, "name": "a", "port": 80, "size": 1}), PARAMS["config"], PARAMS)
    writes[0].then(True, ({}, []))  # the first accepted, the second never
    changes = changes_of(SHAPE, writes[:1])
    assert dict((key, value) for key, value in changes.items() if value) == said


def test_a_create_only_difference_fails_naming_the_member_when_the_child_cannot_be_replaced():
    with pytest.raises(ValidationError) as raised:
        kids(None).plan(held({"id": 1, "name": "a", "port": 80}), PARAMS["config"], PARAMS)
    assert "config[0].port: kid 1 cannot change it" in str(raised.value)


def test_a_nested_collection_says_its_changes_under_its_name_and_reads_its_listing_once():
    part = kids(name="listeners")
    reads = []
    listing = part.fetch(lambda path: reads.append(path) or [{"id": 2, "name": "old", "port": 1}], {"id": 4}, PARAMS)
    writes = part.plan(listing, [{"name": "new", "port": 2}], dict(PARAMS, config=[{"name": "new", "port": 2}]))
    assert reads == ["/p/4/kids"] and changes_of({"listeners": SHAPE}, writes)["listeners"]["created"] == ["new"]
    assert writes[0].reread() == [{"id": 2, "name": "old", "port": 1}] and reads == ["/p/4/kids"] * 2, "read again after an ambiguous write"


def test_two_children_of_a_wanted_name_fail_naming_their_ids():
    with pytest.raises(Refused) as raised:
        kids().plan(held({"id": 1, "name": "a"}, {"id": 2, "name": "a"}), PARAMS["config"], PARAMS)
    assert "2 kids of parent 4 are named 'a' (ids 1, 2)" in str(raised.value)


def test_the_paths_of_children_under_a_record_take_its_id_and_a_created_parent_holds_none():
    part = Children("pools", "pool", {"list": "/clusters/{parent_id}/pools", "item": "/clusters/{parent_id}/pools/{id}"}, MEMBERS,
                    body=dict, gathered=lambda record, params: dict(record), mode=lambda params: "overridden")
    reads = []
    listing = part.fetch(lambda path, one=False: reads.append(path) or [{"id": 5, "name": "old"}], {"id": 9}, {})
    writes = part.plan(listing, [{"name": "new"}], {})
    assert reads == ["/clusters/9/pools"] and [(write.method, write.path) for write in writes] == [
        ("DELETE", "/clusters/9/pools/5"), ("POST", "/clusters/9/pools")]
    assert changes_of({"pools": SHAPE}, writes)["pools"] == {"created": ["new"], "updated": [], "deleted": ["old"], "deleted_ids": [5], "replaced": []}
    assert part.views(None, [{"name": "new"}], {}) == ({}, {"new": {"name": "new"}}), "the parent is created: every child is new"


# ---- the declared capabilities (issue 44: a k8s cluster's pools, a file share's access rules) ----------------------------
class Pools(Children):
    """Children read from the parent record, addressed by name, a member written by its own request, creates first."""

    inside, locked, ident, in_create, every = "pools", True, "name", True, True
    own, order = ("count",), ("creates", "updates", "deletes")

    def child_writes(self, item, record, changes, held, params):  # then a resize, a request of its own (as k8s_cluster's)
        count = (changes if record else item).get("count")
        return super().child_writes(item, record, changes, held, params) + ([] if count is None else [Write(
            "update", "POST", "/c/prod/pools/%s/resize" % item["name"], {"count": count}, names=[item["name"]], said={"pools.resized": [item["name"]]},
            done=lambda listing: any(found["name"] == item["name"] and found["count"] == count for found in listing))])

    def __init__(self, **more):
        super().__init__("pools", "pool", {"create": "/c/{name}/pools", "item": "/c/{name}/pools/{id}", "resize": "POST /c/{name}/pools/{id}/resize"},
                         (Member("name"), Member("size"), Member("count")), option="pools", mode=lambda params: "overridden", body=dict, **more)


CLUSTER = {"id": "u-1", "name": "prod", "pools": [{"id": "p-1", "name": "a", "size": 1, "count": 1}, {"id": "p-2", "name": "b", "size": 1, "count": 1}]}


def pools_plan(wanted, part=None):
    part = part or Pools()
    state = part.fetch(lambda path: pytest.fail("no listing: the children are read with the parent"), CLUSTER, {"name": "prod"})
    return state, part.plan(state, wanted, {"name": "prod", "pools": wanted})


def test_children_read_with_the_parent_are_addressed_by_name_and_every_write_waits_for_the_parent():
    state, writes = pools_plan([{"name": "a", "size": 2, "count": None}, {"name": "b", "size": None, "count": None}])
    assert list(state) == CLUSTER["pools"] and state.parent is CLUSTER and state.again is None
    assert [(write.method, write.path, write.body) for write in writes] == [("PATCH", "/c/prod/pools/a", {"size": 2})]
    assert [write.locked for write in writes] == [CLUSTER], "the parent's lock and status are waited for before each"


def test_a_member_of_its_own_request_follows_its_child_creates_first_and_the_update_is_done_without_it():
    state, writes = pools_plan([{"name": "new", "size": 1, "count": 3}, {"name": "a", "size": 2, "count": 4}])
    assert [(write.method, write.path, write.body) for write in writes] == [
        ("POST", "/c/prod/pools", {"name": "new", "size": 1, "count": 3}), ("POST", "/c/prod/pools/new/resize", {"count": 3}),
        ("PATCH", "/c/prod/pools/a", {"size": 2}), ("POST", "/c/prod/pools/a/resize", {"count": 4}), ("DELETE", "/c/prod/pools/b", None)]
    assert changes_of({"pools": {"created": str, "updated": str, "resized": str, "deleted": str}}, writes)["pools"] == {
        "created": ["new"], "updated": ["a"], "resized": ["a", "new"], "deleted": ["b"]}
    patch, resize = writes[2], writes[3]
    patched = [{"id": "p-1", "name": "a", "size": 2, "count": 1}]
    assert patch.done(patched) and not resize.done(patched), "the update is done once its members are, its own write once the count is"


def test_the_parents_create_says_the_children_it_carries_and_their_own_writes():
    assert Pools().created_said([{"name": "a", "count": 2}, {"name": "b", "count": None}]) == {"pools.created": ["a", "b"]}
    assert kids().created_said([{"name": "a"}]) == {}, "children written after their parent's create say nothing of it"


def test_every_child_is_in_the_diff_when_declared_in_the_shape_declared():
    class Listed(Pools):
        def diffed(self, children):
            return [children[key] for key in sorted(children)]
    state = Pools().fetch(None, CLUSTER, {})
    wanted = [{"name": "a", "size": 2, "count": None}]
    assert Pools().views(state, wanted, {"pools": wanted}) == (
        {"a": {"name": "a", "size": 1, "count": 1}, "b": {"name": "b", "size": 1, "count": 1}}, {"a": {"name": "a", "size": 2, "count": 1}})
    assert Listed().views(None, wanted, {"pools": wanted})[1] == [{"name": "a", "size": 2}], "a created parent: every child new"


def test_a_child_is_compared_as_child_of_reads_it_and_the_messages_are_hooks():
    class Rules(Children):
        def child_of(self, record):
            return {"id": record["id"], "name": record["to"].lower(), "port": record["level"]}

        def needs(self, index, missing, item, params):
            return "rules[%s].%s: needed" % (index, missing[0])

        def fixed(self, index, member, item, record, params):
            return "rules[%s].%s is fixed" % (index, member)
    part = Rules("", "rule", PATHS, MEMBERS, create_only=("port",), replace=None, required=("size",), mode=lambda params: "merged")
    state = part.fetch(lambda path: [{"id": 1, "to": "A", "level": 80}], {"id": 4}, {"parent": 4})
    assert list(state) == [{"id": 1, "name": "a", "port": 80}] and part.plan(state, [{"name": "a", "port": 80}], {}) == []
    with pytest.raises(ValidationError, match=r"^rules\[0\]\.port is fixed$"):
        part.plan(state, [{"name": "a", "port": 81}], {})
    with pytest.raises(ValidationError, match=r"^rules\[0\]\.size: needed$"):
        part.plan(state, [{"name": "b", "port": 81}], {})


def test_children_grouped_child_by_child_keep_a_replacements_two_writes_together():
    part = kids("delete first")
    part.order = ("deletes", "updates", "creates")
    writes = part.plan(held({"id": 1, "name": "a", "port": 80}, {"id": 2, "name": "z", "port": 1}), [{"name": "a", "port": 81}, {"name": "b"}],
                       dict(PARAMS, config=[{"name": "a", "port": 81}, {"name": "b"}]))
    assert [(write.kind, write.names) for write in writes] == [("delete", ["a"]), ("create", ["a"]), ("create", ["b"])]


def test_creates_in_one_write_within_the_policys_limit_around_one_bulk_delete_said_in_the_policys_words():
    class Schedules(PolicyChildren):
        inside, order = "schedules", ("room", "deletes", "creates")

        def batch_body(self, items):
            return {"schedules": [item["name"] for item in items]}
    part = Schedules("schedules", "schedule", {"bulk_create": "POST /p/{parent_id}/add", "bulk_delete": "/p/{parent_id}/remove"}, (),
                     mode=lambda params: "overridden", bulk_body=lambda ids: {"ids": ids})
    policy = {"id": 7, "schedules": [{"id": index, "name": "s%s" % index} for index in range(1, 10)]}  # 9: room for one
    writes = part.plan(part.fetch(None, policy, {}), [{"name": "s1"}, {"name": "x"}, {"name": "y"}], {})
    assert [(write.method, write.path, write.body) for write in writes] == [
        ("POST", "/p/7/add", {"schedules": ["x"]}), ("POST", "/p/7/remove", {"ids": list(range(2, 10))}), ("POST", "/p/7/add", {"schedules": ["y"]})]
    assert changes_of({"schedules": {"added": str, "removed": str}}, writes)["schedules"]["added"] == ["x", "y"]
    assert writes[0].done([{"id": 3, "name": "x"}]) and not writes[2].done([{"id": 3, "name": "x"}])


def test_a_group_declared_by_a_subclass_sends_the_deletes_it_takes_first():
    class Listeners(Children):
        inside, order = "listeners", ("taken", "creates", "updates", "deletes")

        def group(self, name, plan, held, params):  # as load_balancer's: a port a new listener takes is freed first
            ports = set(item["port"] for item in plan.creates)
            return super().group("deletes", Plan(deletes=[record for record in plan.deletes if (record["port"] in ports) == (name == "taken")]),
                                 held, params) if name in ("taken", "deletes") else super().group(name, plan, held, params)
    part = Listeners("listeners", "listener", PATHS, MEMBERS, mode=lambda params: "overridden", body=dict)
    balancer = {"id": 4, "listeners": [{"id": 1, "name": "a", "port": 80}, {"id": 2, "name": "b", "port": 81}, {"id": 3, "name": "c", "port": 82}]}
    writes = part.plan(part.fetch(None, balancer, {"parent": 4}), [{"name": "c", "port": 82, "size": 2}, {"name": "d", "port": 81}], {"parent": 4})
    assert [(write.kind, write.names) for write in writes] == [("delete", ["b"]), ("create", ["d"]), ("update", ["c"]), ("delete", ["a"])]
    assert kids().deleting(held(), PARAMS, [{"id": 1, "name": "a"}]).query is None, "no query"


def test_the_writes_of_children_nested_in_a_listeners_pool_say_its_words_and_are_done_by_what_it_holds_of_them():
    part = kids(replace="delete first")
    writes = nested(part.writes(part.planned(held({"id": 1, "name": "a", "port": 80, "size": 1}), [{"name": "a", "size": 2}, {"name": "b"}], PARAMS),
                                held({"id": 1, "name": "a", "port": 80, "size": 1}), PARAMS), {"pools.updated": ["web"]},
                    lambda state: state["web"]["kids"])
    assert [(write.kind, write.said) for write in writes] == [("update", {"pools.updated": ["web"]}), ("create", {"pools.updated": ["web"]})]
    assert writes[0].done({"web": {"kids": [{"id": 1, "name": "a", "port": 80, "size": 2}]}}) and not writes[1].done({"web": {"kids": []}})


def test_the_diff_of_the_children_that_change_shows_them_through_the_view_hooks():
    class Shown(Children):
        shown_child = staticmethod(lambda record: {"shown": record["name"]})
        wanted_child = staticmethod(lambda item, record, params: {"created": item["name"]})
    part = Shown("", "kid", PATHS, MEMBERS, mode=lambda params: "overridden")
    before, after = part.views(held({"id": 1, "name": "a", "port": 80}, {"id": 2, "name": "z"}), [{"name": "a", "port": 81}, {"name": "b"}], PARAMS)
    assert before == {"a": {"shown": "a"}, "z": {"shown": "z"}} and after == {"a": {"shown": "a", "port": 81}, "b": {"created": "b"}}


def test_children_are_not_wanted_while_their_parent_goes_and_a_listed_diff_is_sorted_by_key():
    class Module:
        params = {"state": "absent", "config": [{"name": "a"}]}
    part = kids()
    part.option = "config"
    assert part.wanted(Module) is None
    Module.params = dict(Module.params, state="present")
    assert part.wanted(Module) == [{"name": "a"}]
    assert part.diffed({"b": 2, "a": 1}) == {"a": 1, "b": 2} and list(part.diffed({"b": 2, "a": 1})) == ["a", "b"]
    part.listed = True
    assert part.diffed({"b": 2, "a": 1}) == [1, 2]


def test_a_bulk_delete_takes_its_method_from_its_template_as_a_request_does():
    class Volumes(PolicyChildren):
        inside, ident, order = "volumes", "volume_id", ("creates", "deletes")
        batch_body = staticmethod(lambda items: [item["volume_id"] for item in items])
    part = Volumes("volumes", "volume", {"bulk_create": "PUT /p/{parent_id}/add", "bulk_delete": "PUT /p/{parent_id}/remove"}, (), key="volume_id",
                   mode=lambda params: "overridden", bulk_body=lambda ids: {"volume_ids": ids})
    writes = part.plan(part.fetch(None, {"id": 7, "volumes": [{"volume_id": "a"}]}, {}), [{"volume_id": "b"}], {})
    assert [(write.method, write.path, write.body) for write in writes] == [("PUT", "/p/7/add", ["b"]), ("PUT", "/p/7/remove", {"volume_ids": ["a"]})]
    assert changes_of({"volumes": {"added": str, "removed": str}}, writes) == {"volumes": {"added": ["b"], "removed": ["a"]}}


def test_a_key_given_twice_fails_naming_the_key():
    class Module:
        params = {"access": [{"ip": "a"}, {"ip": "a"}]}
    part = Children("access", "rule", PATHS, (), key="ip", option="access")
    with pytest.raises(ValidationError, match=r"^access: each rule must have its own ip; access\[0\] and access\[1\] are both of ip 'a'$"):
        part.check(Module)
