# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.module_utils._members import Member, differences, said_by
from ansible_collections.gcore.platform.plugins.module_utils._tags import check_tags, tags_member, user_tags, with_tags
from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError

RECORD = {"tags": [{"key": "env", "value": "prod", "read_only": False},
                   {"key": "team", "value": "web", "read_only": False},
                   {"key": "os_type", "value": "linux", "read_only": True}]}


def test_user_tags_leave_read_only_out():
    assert user_tags(RECORD) == {"env": "prod", "team": "web"}
    assert user_tags({"tags_v2": RECORD["tags"]}) == {"env": "prod", "team": "web"}
    assert user_tags({"tags_v2": RECORD["tags"][:1], "tags": RECORD["tags"]}) == {"env": "prod"}  # tags_v2 where shown


@pytest.mark.parametrize("purge, tags, patch", [
    (True, {"env": "prod", "team": "web"}, None),
    (True, {"env": "dev"}, {"env": "dev", "team": None}),
    (True, {}, {"env": None, "team": None}),
    (False, {"env": "dev"}, {"env": "dev"}),
    (False, {"team": "web"}, None),
    (False, {"new": "1"}, {"new": "1"}),
])
def test_merge_patch_holds_only_what_changes(purge, tags, patch):
    member = tags_member({"purge_tags": purge})
    changes = differences([member], RECORD, {"tags": tags})
    assert changes == ({"tags": patch} if patch else {})


def test_tags_left_out_are_not_managed():
    assert differences([tags_member({"purge_tags": True})], RECORD, {"tags": None}) == {}


class Tagged:
    members = with_tags((Member("name"),))

    def __init__(self, tags, **settings):
        self.params = {"tags": tags, "purge_tags": True}
        self.__dict__.update(settings)


def test_the_tags_member_comes_last_and_says_nothing_unless_the_module_says_so():
    assert [member.name for member in Tagged(None).members] == ["name", "tags"]
    assert said_by(Tagged({"env": "dev"}).members, RECORD, {"tags": {"env": "dev"}}) == {}
    members = Tagged({"env": "dev"}, tags_said=True).members
    assert said_by(members, RECORD, {"tags": {"env": "dev"}}) == {"updated": ["tags"]}
    assert said_by(members, None, {"tags": {"env": "dev"}}) == {}  # a create says only what created it


def test_tags_given_keeps_the_member_out_of_a_run_without_tags():
    assert [member.name for member in Tagged(None, tags_given=True).members] == ["name"]
    assert [member.name for member in Tagged({}, tags_given=True).members] == ["name", "tags"]


@pytest.mark.parametrize("tags, named", [
    ({"a b": "x"}, "key 'a b'"), ({"a=b": "x"}, "key 'a=b'"), ({"": "x"}, "key ''"), ({"k" * 256: "x"}, "key"),
    ({"k": ""}, "tags.k"), ({"k": " x"}, "tags.k"), ({"k": "x\n"}, "tags.k"), ({"k": 1}, "tags.k"), ({"k": "v" * 256}, "tags.k"),
])
def test_bad_tags_fail_naming_the_key(tags, named):
    with pytest.raises(ValidationError) as caught:
        check_tags(tags)
    assert named in str(caught.value)


def test_good_tags_pass():
    check_tags({"env": "prod", "k" * 255: "v" * 255, "with:colon": "a value with spaces"})
    check_tags(None)
