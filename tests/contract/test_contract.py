# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Contract test: the requests our modules sent during the integration tests obey the published spec.

The integration run archives every request the simulator received (tests/output/requests/*.jsonl);
each is validated with openapi-core against tests/contract/gcore-subset.json, the published spec of the operations
we use, kept in the repository (path, method,
parameters, body, security). Not validated, by rule:
- requests the simulator refused as invalid (HTTP 400 or 422): they are the service's own verdict on
  input the tests sent on purpose, and the integration tests assert on those answers;
- GET /v1/tasks/{id}: the path fallback of docs/api_reference.md section 11 row 1, outside the published spec by design.

No exemption is needed any more: the one there was (a router's ``external_gateway_info: null``, which the published
schema refused though its text allowed it) is allowed by the SDK 0.59 schema the subset now holds (section 17).
"""

from __future__ import annotations

import json
import pathlib

import pytest
import requests
from openapi_core import OpenAPI
from openapi_core.contrib.requests import RequestsOpenAPIRequest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SPEC = ROOT / "tests" / "contract" / "gcore-subset.json"
ARCHIVE = ROOT / "tests" / "output" / "requests"
SERVER = "https://api.gcore.com"


@pytest.fixture(scope="module")
def spec():
    # A missing spec fails every test here: a skipped contract test would let a run pass without checking anything.
    if not SPEC.is_file():
        pytest.fail("the published spec %s is absent (it belongs to the repository): "
                    "the contract cannot be checked" % SPEC, pytrace=False)
    return OpenAPI.from_file_path(str(SPEC))


def validate(spec, entry):
    """Raise when the logged request breaks the spec."""
    url = SERVER + entry["path"] + ("?" + entry["query"] if entry.get("query") else "")
    headers = {"Authorization": "apikey ***"}
    if entry.get("content_type"):
        headers["Content-Type"] = entry["content_type"]
    prepared = requests.Request(entry["method"], url, headers=headers, data=entry.get("body")).prepare()
    spec.validate_request(RequestsOpenAPIRequest(prepared))


def archived():
    entries = []
    for path in sorted(ARCHIVE.glob("*.jsonl")):
        with open(path, encoding="utf-8") as handle:
            entries.extend(json.loads(line) for line in handle if line.strip())
    return entries


def test_every_request_of_the_integration_run_obeys_the_spec(spec):
    entries = archived()
    assert entries, "no archived requests in %s: run the integration tests first (make integration)" % ARCHIVE
    checked, failures, seen = 0, [], set()
    for entry in entries:
        if entry.get("status") in (400, 422) or entry["path"].startswith("/v1/tasks/"):
            continue
        checked += 1
        request = tuple(entry.get(key) for key in ("method", "path", "query", "body", "content_type"))
        if request in seen:  # the verdict depends on the request alone: each distinct one is validated once
            continue
        seen.add(request)
        try:
            validate(spec, entry)
        except Exception as exc:  # pylint: disable=broad-exception-caught
            failures.append("%s %s?%s %s -> %r" % (entry["method"], entry["path"], entry.get("query"), entry.get("body"), exc))
    print("contract: %s requests validated (%s distinct), %s not (refused as invalid by the simulator, or the task path "
          "fallback)" % (checked, len(seen), len(entries) - checked))
    assert not failures, "%s requests break the published spec:\n%s" % (len(failures), "\n".join(failures[:30]))


@pytest.mark.parametrize("entry", [
    {"method": "PUT", "path": "/cloud/v2/client_quotas/1/notification_threshold", "body": '{"threshold": "high"}',
     "content_type": "application/json"},
    {"method": "GET", "path": "/waap/v2/firewall-rules", "query": "limit=500"},
    {"method": "GET", "path": "/cloud/v1/tasks/1/76/active"},  # the service has it, the subset does not
    {"method": "PATCH", "path": "/cloud/v2/routers/one/76/ccd5b925-e35c-4611-a511-67ab503104c8", "body": "{}",
     "content_type": "application/json"},
    {"method": "DELETE", "path": "/storage/provisioning/v1/storage/abc"},
], ids=["wrong-body-type", "limit-above-100", "unknown-path", "project-id-not-int", "storage-id-not-int"])
def test_a_wrong_request_fails_the_contract(spec, entry):
    with pytest.raises(Exception):
        validate(spec, entry)


def test_a_right_request_passes_the_contract(spec):
    validate(spec, {"method": "PUT", "path": "/cloud/v2/client_quotas/1/notification_threshold",
                    "body": '{"threshold": 70}', "content_type": "application/json"})


GATEWAY_REMOVED = {"method": "PATCH", "path": "/cloud/v2/routers/1/76/ccd5b925-e35c-4611-a511-67ab503104c8",
                   "body": '{"external_gateway_info": null}', "content_type": "application/json"}


def test_the_gateway_removal_obeys_the_schema_and_the_rest_is_checked(spec):
    """``external_gateway_info: null`` removes a router's gateway (docs/api_reference.md section 11 row 8): the SDK 0.59
    schema allows it; a wrong member beside it, another value or a wrong path still fail."""
    validate(spec, GATEWAY_REMOVED)
    validate(spec, dict(GATEWAY_REMOVED, body='{"external_gateway_info": null, "name": "edge-2"}'))
    for changes in ({"body": '{"external_gateway_info": null, "routes": "10.0.0.0/24"}'},
                    {"body": '{"external_gateway_info": "none"}'},
                    {"path": "/cloud/v2/routers/one/76/ccd5b925-e35c-4611-a511-67ab503104c8"}):
        with pytest.raises(Exception):
            validate(spec, dict(GATEWAY_REMOVED, **changes))
