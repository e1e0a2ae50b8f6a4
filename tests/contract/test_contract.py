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

One exemption (``EXEMPTIONS``), narrow and explicit: a member whose value the spec's schema does not allow but the
API documents in words. The request is validated without that member, so everything else in it is still checked.
"""

from __future__ import annotations

import json
import pathlib
import re

import pytest
import requests
from openapi_core import OpenAPI
from openapi_core.contrib.requests import RequestsOpenAPIRequest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SPEC = ROOT / "tests" / "contract" / "gcore-subset.json"
ARCHIVE = ROOT / "tests" / "output" / "requests"
SERVER = "https://api.gcore.com"

# (method, path pattern, body member, the one value accepted outside the schema, why)
EXEMPTIONS = [
    ("PATCH", r"^/cloud/v2/routers/[^/]+/[^/]+/[^/]+$", "external_gateway_info", None,
     "docs/api_reference.md section 11 row 8: null removes the router's gateway. The v2 schema does not allow null, but its "
     "description and the SDK use it (the router module's external_gateway_info.type none)"),
]


def exempted(entry):
    """``entry`` without the member an exemption accepts, and that exemption's reason; (entry, None) when none applies."""
    for method, pattern, member, value, reason in EXEMPTIONS:
        if entry["method"] != method or not re.match(pattern, entry["path"]) or not entry.get("body"):
            continue
        body = json.loads(entry["body"])
        if isinstance(body, dict) and member in body and body[member] == value:
            del body[member]
            return dict(entry, body=json.dumps(body)), reason
    return entry, None


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
    checked, failures, reasons = 0, [], set()
    for entry in entries:
        if entry.get("status") in (400, 422) or entry["path"].startswith("/v1/tasks/"):
            continue
        checked += 1
        try:
            entry, reason = exempted(entry)
            reasons.add(reason)
            validate(spec, entry)
        except Exception as exc:  # pylint: disable=broad-exception-caught
            failures.append("%s %s?%s %s -> %r" % (entry["method"], entry["path"], entry.get("query"), entry.get("body"), exc))
    print("contract: %s requests validated, %s not (refused as invalid by the simulator, or the task path fallback); "
          "exemptions used: %s" % (checked, len(entries) - checked, sorted(reason for reason in reasons if reason)))
    assert not failures, "%s requests break the published spec:\n%s" % (len(failures), "\n".join(failures[:30]))


@pytest.mark.parametrize("entry", [
    {"method": "PUT", "path": "/cloud/v2/client_quotas/1/notification_threshold", "body": '{"threshold": "high"}',
     "content_type": "application/json"},
    {"method": "GET", "path": "/waap/v2/firewall-rules", "query": "limit=500"},
    {"method": "GET", "path": "/cloud/v1/tasks"},
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


def test_the_gateway_removal_breaks_the_schema_so_its_exemption_is_needed(spec):
    """When the spec allows null one day, this fails: drop the exemption then."""
    with pytest.raises(Exception):
        validate(spec, GATEWAY_REMOVED)


def test_the_exemption_accepts_the_gateway_removal_and_still_checks_the_rest(spec):
    entry, reason = exempted(GATEWAY_REMOVED)
    assert "row 8" in reason
    validate(spec, entry)
    entry, reason = exempted(dict(GATEWAY_REMOVED, body='{"external_gateway_info": null, "name": "edge-2"}'))
    validate(spec, entry)


@pytest.mark.parametrize("changes", [
    {"body": '{"external_gateway_info": null, "routes": "10.0.0.0/24"}'},  # the rest is still checked
    {"body": '{"external_gateway_info": "none"}'},  # only null is exempted
    {"path": "/cloud/v2/routers/one/76/ccd5b925-e35c-4611-a511-67ab503104c8"},  # the path is still checked
], ids=["other-member-wrong", "not-null", "path-wrong"])
def test_the_exemption_is_narrow(spec, changes):
    entry, _reason = exempted(dict(GATEWAY_REMOVED, **changes))
    with pytest.raises(Exception):
        validate(spec, entry)
