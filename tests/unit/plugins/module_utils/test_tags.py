# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.module_utils._members import differences
from ansible_collections.gcore.platform.plugins.module_utils._tags import check_tags, tags_member, user_tags
from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError

RECORD = {"tags": [{"key": "env", "value": "prod", "read_only": False},
                   {"key": "team", "value": "web", "read_only": False},
                   {"key": "os_type", "value": "linux", "read_only": True}]}


def test_user_tags_leave_read_only_out():
    assert user_tags(RECORD) == {"env": "prod", "team": "web"}
    assert user_tags({"tags_v2": RECORD["tags"]}, "tags_v2") == {"env": "prod", "team": "web"}


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
