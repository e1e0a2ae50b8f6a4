# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A volume's or a share's size (``_volumes.Extension``) alone: the size is held as such, a larger one is one ``extend``
write saying what its owner says, the same one nothing, a smaller one fails before any write (no module, no HTTP)."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._volumes import Extension

PARAMS = {"project_id": 1, "region_id": 76, "name": "data"}
SIZE = Extension("/volumes/{project_id}/{region_id}/{id}/extend")


def test_a_larger_size_is_one_extend_saying_its_owners_words_and_done_once_the_record_is_as_large():
    record = {"id": "v-1", "size": 10}
    write, = SIZE.plan(record, 20, PARAMS)
    assert (write.kind, write.method, write.path, write.body, write.said) == (
        "extend", "POST", "/volumes/1/76/v-1/extend", {"size": 20}, {"updated": ["size"]})
    assert write.locked is record and write.done({"size": 20}) and not write.done({"size": 10}) and not write.done(None)
    share = Extension("/shares/{id}/extend", noun="file share", said=lambda params: {"resized": [params["name"]]})
    assert share.plan(record, 20, PARAMS)[0].said == {"resized": ["data"]}


def test_the_size_is_shown_as_such_on_both_sides_and_none_before_a_create():
    assert SIZE.views({"id": "v-1", "size": 10}, 20, PARAMS) == (10, 20)
    assert SIZE.views(None, 20, PARAMS) == (None, 20)


def test_the_same_size_is_nothing_and_a_smaller_one_fails_naming_both():
    assert SIZE.plan({"id": "v-1", "size": 10}, 10, PARAMS) == []
    with pytest.raises(ValidationError, match="size: volume v-1 has 10 GiB, more than the 5 GiB asked for"):
        SIZE.plan({"id": "v-1", "size": 10}, 5, PARAMS)
