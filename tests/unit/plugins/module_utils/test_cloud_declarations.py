# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The Cloud declarations (``_cloud``): what ``Kind.declare`` derives for a resource and for a reader, what a declaration
says itself standing, the identity checks, and the Cloud name rule (``_checks.check_name``)."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError, check_name
from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudInfo, CloudResource, Filter, Kind
from ansible_collections.gcore.platform.plugins.module_utils._members import Member

THING = Kind("thing", "things", paths=dict(update=("/{id}", "v2")), name_query=("name_part", 30))
KEY = Kind("key", "keys", regional=False)
SPOT = Kind("spot", "spots", id_key="spot_id", integer_id=True, name_length=None, nameless=True)


class Thing(CloudResource):
    kind = THING
    options = dict(size=dict(type="int"))
    tagged = True
    members = (Member("name"),)


class Key(CloudResource):
    kind = KEY
    module_kwargs = dict(required_one_of=[("key_id", "name")], mutually_exclusive=[("key_id", "public_key")])
    title = "SSH key"


class ThingInfo(CloudInfo):
    kind = THING
    filters = (Filter("size", dict(type="int"), lambda value: {"size": value}, lambda record, value: record.get("size") == value),)


class NamelessInfo(CloudInfo):
    kind = SPOT


def test_a_resource_gets_its_options_paths_and_identity_rule_from_its_kind():
    assert list(Thing.argument_spec) == ["state", "thing_id", "name", "size", "tags", "purge_tags"]
    assert Thing.module_kwargs == dict(required_one_of=[("thing_id", "name")])
    assert (Thing.noun, Thing.result_key, Thing.id_option, Thing.created_key, Thing.cloud) == ("thing", "thing", "thing_id", "things", True)
    assert Thing.paths["item"] == "/cloud/v1/things/{project_id}/{region_id}/{id}"
    assert Thing.paths["update"] == "/cloud/v2/things/{project_id}/{region_id}/{id}"


def test_a_tagged_resource_compares_its_tags_after_the_declared_members():
    thing = Thing.__new__(Thing)
    thing.params = {"tags": {"env": "prod"}, "purge_tags": True}
    assert [member.name for member in thing.members] == ["name", "tags"]


def test_what_a_declaration_says_itself_stands_and_a_project_scoped_kind_has_a_project_option():
    assert Key.title == "SSH key" and Key.module_kwargs["mutually_exclusive"] == [("key_id", "public_key")]
    assert "project_id" in Key.argument_spec and "region_id" not in Key.argument_spec and Key.cloud is False
    assert Key.scope == "project {project_id}" and Key.paths["list"] == "/cloud/v1/keys/{project_id}"


def test_a_reader_takes_the_id_or_the_name_and_its_filters():
    assert list(ThingInfo.argument_spec) == ["thing_id", "name", "size"]
    assert ThingInfo.module_kwargs == dict(mutually_exclusive=[("thing_id", "name")])
    assert list(NamelessInfo.argument_spec) == ["spot_id"] and NamelessInfo.argument_spec["spot_id"]["type"] == "int"
    assert NamelessInfo.module_kwargs == {}


def test_the_identity_checks():
    params = {"thing_id": "0C6E2BAD-0000-4000-8000-000000000001", "name": "web-1"}
    THING.check(params)
    assert params["thing_id"] == "0c6e2bad-0000-4000-8000-000000000001"
    with pytest.raises(ValidationError, match="thing_id: 'nope' is not a UUID"):
        THING.check({"thing_id": "nope", "name": None})
    with pytest.raises(ValidationError, match="project_id"):
        KEY.check({"project_id": 0, "key_id": None, "name": None})
    with pytest.raises(ValidationError, match="spot_id"):
        SPOT.check({"spot_id": 0})


def test_records_with_the_id_under_another_member_are_identified():
    assert SPOT.identified({"spot_id": 7, "name": "a"}) == {"spot_id": 7, "name": "a", "id": 7}
    assert THING.identified({"id": "x"}) == {"id": "x"} and SPOT.identified(None) is None


@pytest.mark.parametrize("name, query", [(None, {}), ("web-1", {"name_part": "web-1"}), ("x" * 31, {})])
def test_the_listing_name_filter_takes_names_up_to_its_longest(name, query):
    assert THING.query(name) == query


def test_the_cloud_name_rule():
    check_name("name", "web-1")
    check_name("name", "a" * 110, longest=110)
    with pytest.raises(ValidationError, match=r"name: length 64 is out of range \(must be 3 to 63\)"):
        check_name("name", "a" * 64)
    with pytest.raises(ValidationError, match=r"volume: .-bad. does not match a volume ID \(a UUID\) or a volume name: \^.*\(3 to 63 letters"):
        check_name("volume", "-bad", "a volume ID (a UUID) or a volume name")
    with pytest.raises(ValidationError, match="name: must not be empty"):
        check_name("name", "  ", longest=None)
    check_name("name", "any name at all: no rule", longest=None)
