# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The child collection part (``Children``) alone: its paths, what a replacement sends and in which order, what
``changes`` says of it when both writes, one or none took effect, a create-only member that fails, and a nested
collection's ``changes`` keys (no module, no HTTP)."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._children import CHANGES, Children, Held
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._writes import changes_of

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
