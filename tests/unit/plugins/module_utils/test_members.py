# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The members of a resource alone (``_members``): only the members given are compared, a difference sends what the
member sends and the diff shows its view, a member left out of a replaced item takes its reset value, a create-only
member that differs fails naming the option and both values before any write, and what a write says in ``changes``
(no module, no HTTP)."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._members import (Member, create_only, created_view, differences,
                                                                              merge_said, said_by, view)

RECORD = {"id": "n-1", "name": "web", "size": 10, "labels": ["b", "a"], "kind": "ssd"}
MEMBERS = (
    Member("name", said=lambda desired, current: {"renamed": [desired]}),
    Member("size", send=lambda desired, current: {"grow_by": desired - current}, created=1),
    Member("labels", read=lambda record: sorted(record.get("labels") or []), want=lambda value, record: sorted(value),
           reset=[]),
    create_only("kind", lambda record: record.get("kind"), "volume"),
)


def test_only_the_members_given_are_compared_and_a_difference_sends_what_the_member_sends():
    assert differences(MEMBERS, RECORD, {"name": "web"}) == {}, "the same value is no change"
    assert differences(MEMBERS, RECORD, {"size": 30}) == {"size": {"grow_by": 20}}
    assert differences(MEMBERS, RECORD, {"size": 30}, views=True) == {"size": 30}, "the diff shows the view, not the body"
    assert differences(MEMBERS, RECORD, {"labels": ["a", "b"]}) == {}, "compared as the member reads both sides"


def test_a_member_left_out_is_not_managed_unless_a_replaced_item_resets_it():
    assert differences(MEMBERS, RECORD, {}) == {}
    assert differences(MEMBERS, RECORD, {}, replace=True) == {"labels": []}, "only a member that declares a reset value"


def test_a_create_only_member_that_differs_fails_naming_the_option_and_both_values_and_nothing_is_sent():
    assert differences(MEMBERS, RECORD, {"kind": "ssd"}) == {}
    with pytest.raises(ValidationError) as failed:
        differences(MEMBERS, RECORD, {"kind": "hdd"})
    text = str(failed.value)
    assert text.startswith("kind: volume n-1 has kind 'ssd', not 'hdd'") and "nothing was sent" in text, text
    assert created_view(MEMBERS, {"kind": "hdd"})["kind"] == "hdd", "a resource being created has nothing to differ from"


def test_the_views_of_a_record_and_of_a_resource_about_to_be_created():
    assert view(MEMBERS, RECORD) == {"name": "web", "size": 10, "labels": ["a", "b"], "kind": "ssd"}
    assert created_view(MEMBERS, {"name": "db", "labels": ["z", "y"]}) == {"name": "db", "size": 1, "labels": ["y", "z"]}, \
        "a member left out shows its created value when it declares one, else nothing"


def test_what_the_members_written_say_in_changes():
    assert said_by(MEMBERS, None, {"name": "db", "size": 5}) == {"renamed": ["db"]}, "a create: every member given that says"
    assert said_by(MEMBERS, RECORD, {"name": "web"}) == {}, "an update: only those that differ"
    assert said_by(MEMBERS, RECORD, {"name": "api"}) == {"renamed": ["api"]}
    assert merge_said({"created": ["a"]}, {"created": ["b"], "deleted": ["c"]}) == {"created": ["a", "b"], "deleted": ["c"]}
