# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""tests/contract/gcore-subset.json is what tests/contract/make_subset.py makes: the same operations as the script's
table (and as tests/contract/README.md lists), without needing the published files the script reads."""

from __future__ import annotations

import importlib.util
import json
import pathlib
import re

import pytest

CONTRACT = pathlib.Path(__file__).resolve().parents[1] / "contract"
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def load_script():
    spec = importlib.util.spec_from_file_location("make_subset", str(CONTRACT / "make_subset.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_subset = load_script()


def committed():
    with open(CONTRACT / "gcore-subset.json", encoding="utf-8") as handle:
        return json.load(handle)


def test_the_committed_subset_holds_exactly_the_operations_of_the_table():
    table = make_subset.operations()
    assert len(table) == len(set(table)), "an operation listed twice in make_subset.OPERATIONS"
    spec = committed()
    kept = [(method, path) for path, item in spec["paths"].items() for method in item if method in METHODS]
    assert sorted(kept) == sorted(table)
    assert kept == table, "the committed file lists the paths in the table's order (regenerating changes no byte)"


def test_the_committed_subset_has_the_header_the_script_writes():
    info = committed()["info"]
    assert {key: info[key] for key in ("title", "description")} == make_subset.INFO
    assert list(info) == ["title", "version", "description"]


def test_every_reference_of_the_committed_subset_resolves_inside_it():
    spec = committed()
    missing = sorted({ref for ref in make_subset.refs(spec) if ref[len(make_subset.REF):].split("/", 1)[1]
                      not in spec["components"].get(ref[len(make_subset.REF):].split("/", 1)[0], {})})
    assert not missing


def test_the_readme_lists_the_operations_of_the_table():
    text = (CONTRACT / "README.md").read_text(encoding="utf-8")
    listed = [(method.lower(), path) for method, path in re.findall(r"^- `([A-Z]+) (/\S+)`$", text, re.MULTILINE)]
    assert listed == make_subset.operations()


def test_the_script_keeps_the_table_and_follows_references_transitively():
    """A miniature published set: the kept operation brings the schemas it reaches, and only those."""
    def document(paths, schemas):
        return {"openapi": "3.1.0", "info": {"version": "v1"}, "servers": [], "security": [{"APIKey": []}],
                "tags": [{"name": "T"}, {"name": "Unused"}], "paths": paths,
                "components": {"schemas": schemas, "securitySchemes": {"APIKey": {"type": "apiKey"}}}}
    ref = {"$ref": "#/components/schemas/A"}
    cloud = document({"/cloud/x": {"get": {"tags": ["T"], "responses": {"200": {"content": {"application/json": {
        "schema": ref}}}}}, "post": {"tags": ["Unused"]}}},
        {"A": {"properties": {"b": {"$ref": "#/components/schemas/B"}}}, "B": {"type": "string"}, "C": {}})
    original = make_subset.OPERATIONS
    make_subset.OPERATIONS = {"one": [("get", "/cloud/x")]}
    try:
        subset = make_subset.build([cloud, document({}, {}), document({}, {})])
        assert list(subset["paths"]) == ["/cloud/x"] and list(subset["paths"]["/cloud/x"]) == ["get"]
        assert subset["components"] == {"schemas": {"A": cloud["components"]["schemas"]["A"], "B": {"type": "string"}},
                                        "securitySchemes": {"APIKey": {"type": "apiKey"}}}
        assert subset["tags"] == [{"name": "T"}]
        make_subset.OPERATIONS = {"one": [("put", "/cloud/x")]}
        with pytest.raises(SystemExit, match="no PUT /cloud/x"):
            make_subset.build([cloud, document({}, {}), document({}, {})])
    finally:
        make_subset.OPERATIONS = original


@pytest.mark.parametrize("schema, expected", [
    ({"type": "array", "items": {"type": "string"}, "example": "CN", "examples": ["CN", "TW"]},
     {"type": "array", "items": {"type": "string"}, "example": ["CN"], "examples": [["CN", "TW"]]}),
    ({"type": "string", "example": {"key": "value"}, "examples": [{"key": "value"}]}, {"type": "string"}),
    ({"enum": ["TCP", "TLS-HELLO"], "examples": ["TCP", "TLS_HELLO"]}, {"enum": ["TCP", "TLS-HELLO"], "examples": ["TCP"]}),
    ({"anyOf": [{"type": "number"}, {"type": "null"}], "examples": ["1.02", 2.5]},
     {"anyOf": [{"type": "number"}, {"type": "null"}], "examples": [2.5]}),
    ({"const": "floating", "example": "fixed"}, {"const": "floating"}),
    ({"type": "integer", "example": 1, "examples": [1]}, {"type": "integer", "example": 1, "examples": [1]}),
    ({"type": "string", "pattern": '^[a-z\\"\\ \\-\\/\\w\\.]+$'}, {"type": "string", "pattern": '^[a-z" \\-\\/\\w\\.]+$'}),
], ids=["array-sample-wrapped", "wrong-type-dropped", "outside-enum-dropped", "string-for-number-dropped",
        "outside-const-dropped", "valid-kept", "needless-escapes"])
def test_samples_are_made_to_agree_with_their_schema(schema, expected):
    make_subset.agree(schema, {})
    assert schema == expected


def test_every_operation_of_the_committed_subset_says_where_it_comes_from():
    """The published 2026-05-15 text or the SDK 0.59 fragments (docs/api_reference.md section 17)."""
    spec = committed()
    marks = {(method, path): operation.get("x-provenance") for path, item in spec["paths"].items()
             for method, operation in item.items() if method in METHODS}
    assert set(marks.values()) == {make_subset.PUBLISHED, "SDK 0.59"}
    for moved in [("patch", "/cloud/v2/networks/{project_id}/{region_id}/{network_id}"),
                  ("put", "/cloud/v1/loadbalancers/{project_id}/{region_id}/pools/{pool_id}/members"),
                  ("patch", "/cloud/v1/lbpools/{project_id}/{region_id}/{pool_id}/healthmonitor"),
                  ("patch", "/storage/v4/sftp_storages/{storage_id}")]:
        assert marks[moved] == "SDK 0.59", moved


def test_adopt_marks_the_unmarked_operations_cuts_a_larger_file_and_refuses_a_missing_operation():
    item = {"get": {"responses": {}}, "put": {"x-provenance": "SDK 0.59", "responses": {}}}
    merged = {"info": {"version": "v"}, "paths": {"/cloud/x": item}, "components": {}}
    original = make_subset.OPERATIONS
    make_subset.OPERATIONS = {"one": [("get", "/cloud/x"), ("put", "/cloud/x")]}
    try:
        subset = make_subset.adopt(merged)
        assert [operation["x-provenance"] for operation in subset["paths"]["/cloud/x"].values()] == [
            "published", "SDK 0.59"]
        assert "x-provenance" not in merged["paths"]["/cloud/x"]["get"], "the input is left as it was"
        make_subset.OPERATIONS = {"one": [("get", "/cloud/x")]}
        assert list(make_subset.adopt(merged)["paths"]["/cloud/x"]) == ["get"], "a merged file holding more is cut to the table"
        make_subset.OPERATIONS = {"one": [("get", "/cloud/x"), ("post", "/cloud/y")]}
        with pytest.raises(SystemExit, match="no POST /cloud/y"):
            make_subset.adopt(merged)
    finally:
        make_subset.OPERATIONS = original
