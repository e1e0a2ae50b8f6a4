# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The simulated WAAP policy overrides (docs/api_reference.md section 18.4): list (paged, filtered), create, get, PATCH
(200 with the record; targets cannot change), DELETE (no bulk), the validation, and answers that obey the subset spec."""

from __future__ import annotations

import json
import pathlib

import pytest

from simulator.core import Simulator

PATH = "/waap/v1/domains/%s/default-rule-overrides"
EMPTY = 1006
OVERRIDE = {"name": "Admin SQL", "enabled": True, "target_type": "detector", "target_ids": [861, 862],
            "conditions": [{"url": {"url": "/admin/sql"}}], "request_id": "abc"}
SPEC = pathlib.Path(__file__).resolve().parents[2] / "contract" / "gcore-subset.json"


@pytest.fixture
def sim():
    return Simulator()


def test_create_answers_the_record_with_targets_and_no_request_id(sim):
    status, body = sim.call("POST", PATH % EMPTY, OVERRIDE)
    assert status == 201, body
    assert body["domain_id"] == EMPTY and body["stale"] is False and "request_id" not in body and "target_ids" not in body
    assert [(target["detector_id"], target["rule_id"]) for target in body["targets"]] == [(861, None), (862, None)]
    assert body["conditions"] == [{"url": {"url": "/admin/sql", "match_type": "Contains", "negation": False}}]
    assert sim.call("GET", PATH % EMPTY + "/%s" % body["id"]) == (200, body)


def test_the_list_pages_and_filters(sim):
    for number in range(7):
        odd = number % 2
        sim.call("POST", PATH % EMPTY, dict(OVERRIDE, name="o%d" % number, target_type="rule" if odd else "detector",
                                            target_ids=[11, 12] if odd else [861, 862], description="odd" if odd else None))
    status, page = sim.call("GET", PATH % EMPTY, query="limit=3&offset=3")
    assert status == 200 and (page["count"], [item["name"] for item in page["results"]]) == (3, ["o3", "o4", "o5"])
    assert [item["name"] for item in sim.call("GET", PATH % EMPTY, query="target_type=rule")[1]["results"]] == ["o1", "o3", "o5"]
    assert [item["name"] for item in sim.call("GET", PATH % EMPTY, query="search=odd&ordering=-name")[1]["results"]] == ["o5", "o3", "o1"]
    assert sim.call("GET", PATH % EMPTY, query="target_type=bogus")[0] == 422


def test_patch_changes_the_members_sent_and_refuses_targets_delete_is_one_each(sim):
    ident = sim.call("POST", PATH % EMPTY, OVERRIDE)[1]["id"]
    status, body = sim.call("PATCH", PATH % EMPTY + "/%s" % ident, {"enabled": False, "description": None})
    assert status == 200 and body["enabled"] is False and body["name"] == "Admin SQL"
    for refused in ({"target_ids": [1]}, {"target_type": "rule"}):
        assert sim.call("PATCH", PATH % EMPTY + "/%s" % ident, refused)[0] == 422
    assert sim.call("DELETE", PATH % EMPTY + "/%s" % ident) == (204, None)
    assert sim.call("DELETE", PATH % EMPTY + "/%s" % ident)[0] == 404
    assert sim.call("POST", PATH % EMPTY + "/bulk_delete", {"rule_ids": [ident]})[0] in (404, 405)


@pytest.mark.parametrize("change, loc", [
    ({"conditions": [{"ip": {"ip_address": "192.0.2.%d" % n}} for n in range(6)]}, ("body", "conditions")),
    ({"target_type": "policy"}, ("body", "target_type")),
    ({"target_ids": []}, ("body", "target_ids")),
    ({"conditions": [{"asn": {"asns": [64500]}}]}, ("body", "conditions", 0, "asn")),
    ({"conditions": [{"url": {"url": "/a"}, "ip": {"ip_address": "192.0.2.1"}}]}, ("body", "conditions", 0)),
])
def test_a_bad_override_is_refused(sim, change, loc):
    status, body = sim.call("POST", PATH % EMPTY, dict(OVERRIDE, **change))
    assert status == 422 and loc in [tuple(error["loc"]) for error in body["errors"]], body
    assert sim.snapshot()["policy_overrides"].get(EMPTY, []) == []


def test_the_answers_obey_the_subset_spec(sim):
    openapi_core = pytest.importorskip("openapi_core")
    requests = pytest.importorskip("requests")
    from openapi_core.contrib.requests import RequestsOpenAPIRequest, RequestsOpenAPIResponse
    # spec_validator_cls=None: the spec itself is validated once, by the contract test (17 s each time it is loaded)
    spec = openapi_core.OpenAPI.from_file_path(str(SPEC), config=openapi_core.Config(
        extra_media_type_deserializers={"application/problem+json": json.loads}, spec_validator_cls=None))
    ident = sim.call("POST", PATH % EMPTY, OVERRIDE)[1]["id"]
    item = PATH % EMPTY + "/%s" % ident
    for method, path, body, query in [("GET", PATH % EMPTY, None, "limit=5"), ("POST", PATH % EMPTY, dict(OVERRIDE, name="b"), ""),
                                      ("GET", item, None, ""), ("PATCH", item, {"name": "c"}, ""), ("DELETE", item, None, "")]:
        status, answer = sim.call(method, path, body, query=query)
        url = "https://api.gcore.com" + path + ("?" + query if query else "")
        request = requests.Request(method, url, headers={"Authorization": "apikey x", "Content-Type": "application/json"},
                                   data=json.dumps(body) if body is not None else None).prepare()
        response = requests.Response()
        response.status_code = status
        response.headers["Content-Type"] = "application/json"
        response._content = json.dumps(answer).encode() if answer is not None else b""  # pylint: disable=protected-access
        spec.validate_request(RequestsOpenAPIRequest(request))
        spec.validate_response(RequestsOpenAPIRequest(request), RequestsOpenAPIResponse(response))


def test_a_rule_target_is_one_the_owasp_listing_shows_else_nothing_is_created(sim):
    status, page = sim.call("GET", "/waap/v1/domains/%s/policy-override-targets/owasp-top-threats" % EMPTY, query="limit=2&offset=1")
    assert status == 200 and (page["count"], [target["id"] for target in page["results"]]) == (2, [12, 13])
    assert set(page["results"][0]) == {"id", "name", "action", "policy"}
    status, body = sim.call("POST", PATH % EMPTY, dict(OVERRIDE, target_type="rule", target_ids=[12, 99999]))
    assert status == 400 and "Rule 99999 is not a policy-override target" in json.dumps(body)
    assert sim.call("GET", PATH % EMPTY)[1]["count"] == 0
    assert sim.call("POST", PATH % EMPTY, dict(OVERRIDE, target_type="detector", target_ids=[99999]))[0] == 201  # no listing
    assert sim.call("GET", "/waap/v1/domains/999999/policy-override-targets/owasp-top-threats")[0] == 404
