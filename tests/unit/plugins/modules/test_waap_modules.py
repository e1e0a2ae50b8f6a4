# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The WAAP modules over HTTP: each test lists the exact calls made, in order."""

from __future__ import annotations

import json
from unittest import mock
from urllib.parse import parse_qs, urlsplit

import pytest
import responses
from ansible.module_utils.common import warnings as ansible_warnings
from ansible.module_utils.testing import patch_module_args

from ansible_collections.gcore.platform.plugins.module_utils import _client
from ansible_collections.gcore.platform.plugins.modules import firewall_rules_info, waap_custom_rule, waap_custom_rule_info

URL = "https://api.test"
KEY = "unit-test-key"
RULES = URL + "/waap/v1/domains/1001/custom-rules"
RULES_V2 = URL + "/waap/v2/domains/1001/custom-rules"  # updates (docs/api_reference.md section 18.7)


@pytest.fixture(autouse=True)
def no_sleep():
    with mock.patch("time.sleep"):
        yield


@pytest.fixture(autouse=True)
def fresh_warnings():
    """Ansible keeps a module's warnings in a process-wide registry: start each test without any."""
    with mock.patch.dict(ansible_warnings._global_warnings, clear=True):  # pylint: disable=protected-access
        yield


def warnings(result):
    """The warning texts of a module result (ansible-core 2.19 returns them as structured events)."""
    return [item["event"]["msg"] if isinstance(item, dict) else item for item in result.get("warnings", [])]


def run(module, capsys, **args):
    with patch_module_args(dict(args, api_key=KEY, api_url=URL)):
        with pytest.raises(SystemExit):
            module.main()
    return json.loads(capsys.readouterr().out)


def calls():
    return [(call.request.method, call.request.url.split("?")[0]) for call in responses.calls]


def query(call):
    return parse_qs(urlsplit(call.request.url).query)


@responses.activate
def test_firewall_listing_stops_at_the_offset_cap_and_warns(capsys):
    """The service's cap (offsets up to 100000) is the module's; the walk to it is shown at a cap of 1000 (11 pages, not
    1,001: this test runs on every core)."""
    assert firewall_rules_info.MAX_OFFSET == 100000

    def full_page(request):
        params = parse_qs(urlsplit(request.url).query)
        limit, offset = int(params["limit"][0]), int(params["offset"][0])
        assert offset <= 1000
        items = [{"id": offset + index} for index in range(limit)]
        return 200, {}, json.dumps({"limit": limit, "offset": offset, "count": limit, "results": items})

    responses.add_callback(responses.GET, URL + "/waap/v2/firewall-rules", callback=full_page)
    with mock.patch.object(firewall_rules_info, "MAX_OFFSET", 1000):
        result = run(firewall_rules_info, capsys, enabled=True, domain_ids=[1, 2])
    assert len(responses.calls) == 11  # offsets 0, 100, ..., 1000
    assert query(responses.calls[-1])["offset"] == ["1000"]
    assert query(responses.calls[0]) == {"enabled": ["true"], "domain_ids": ["1", "2"], "limit": ["100"], "offset": ["0"]}
    assert result["count"] == 1100
    assert [warning for warning in warnings(result) if "offset 1100" in warning and "1000" in warning]


@pytest.mark.parametrize("total", [0, 1, 99, 100, 250, 300, 1234])
@responses.activate
def test_every_page_and_one_empty_page_only_after_a_full_last_page(capsys, total):
    """ceil(N/100) requests, plus one empty page when N is a multiple of 100, from a near service."""
    def page(request):
        params = parse_qs(urlsplit(request.url).query)
        limit, offset = int(params["limit"][0]), int(params["offset"][0])
        items = [{"id": index} for index in range(offset, min(offset + limit, total))]
        return 200, {}, json.dumps({"limit": limit, "offset": offset, "count": len(items), "results": items})

    responses.add_callback(responses.GET, URL + "/waap/v2/firewall-rules", callback=page)
    responses.add_callback(responses.GET, URL + "/waap/v1/domains/7/custom-rules", callback=page)
    near = mock.Mock(monotonic=mock.Mock(return_value=0.0))  # every page answers at once: read one by one
    with mock.patch.object(_client, "time", near):
        listed = run(firewall_rules_info, capsys, name="Block*")
        rules = run(waap_custom_rule_info, capsys, domain_id=7)
    pages = -(-total // 100) + (1 if total % 100 == 0 else 0)
    assert listed["count"] == rules["count"] == total
    assert [item["id"] for item in listed["firewall_rules"]] == list(range(total))
    offsets = [int(query(call)["offset"][0]) for call in responses.calls]
    assert offsets == list(range(0, pages * 100, 100)) * 2


@responses.activate
def test_firewall_max_results_asks_only_for_what_is_left(capsys):
    def page(request):
        params = parse_qs(urlsplit(request.url).query)
        limit, offset = int(params["limit"][0]), int(params["offset"][0])
        return 200, {}, json.dumps({"limit": limit, "offset": offset, "count": limit,
                                    "results": [{"id": offset + index} for index in range(limit)]})

    responses.add_callback(responses.GET, URL + "/waap/v2/firewall-rules", callback=page)
    result = run(firewall_rules_info, capsys, page_size=30, max_results=70)
    assert [(query(call)["limit"], query(call)["offset"]) for call in responses.calls] == [
        (["30"], ["0"]), (["30"], ["30"]), (["10"], ["60"])]
    assert result["count"] == 70
    assert warnings(result) == []


def rule(rule_id, name, **members):
    record = {"id": rule_id, "name": name, "enabled": True, "action": {"block": {"status_code": 429, "action_duration": "10m"}},
              "conditions": [{"user_agent": {"user_agent": "scrapy", "match_type": "Contains", "negation": False}}]}
    record.update(members)
    return record


@responses.activate
def test_found_by_exact_name_on_the_second_page_then_only_the_differences_are_patched(capsys):
    decoys = [rule(8000 + index, "Block scrapers %d" % index) for index in range(100)]
    target = rule(9001, "Block scrapers")
    responses.get(RULES, json={"limit": 100, "offset": 0, "count": 100, "results": decoys})
    responses.get(RULES, json={"limit": 100, "offset": 100, "count": 1, "results": [target]})
    responses.patch(RULES_V2 + "/9001", json=dict(target, action={"captcha": {}}))
    responses.get(RULES + "/9001", json=dict(target, action={"captcha": {}}))
    result = run(waap_custom_rule, capsys, domain_id=1001, name="Block scrapers", action={"captcha": {}},
                 conditions=[{"user_agent": {"user_agent": "scrapy"}}], enabled=True)
    assert calls() == [("GET", RULES), ("GET", RULES), ("PATCH", RULES_V2 + "/9001"), ("GET", RULES + "/9001")]
    assert query(responses.calls[0]) == {"name": ["Block scrapers"], "limit": ["100"], "offset": ["0"]}
    assert query(responses.calls[1])["offset"] == ["100"]
    assert json.loads(responses.calls[2].request.body) == {"action": {"captcha": {}}}
    assert result["changed"] is True
    assert result["custom_rule"]["action"] == {"captcha": {}}
    assert result["diff"]["before"]["action"] == {"block": {"status_code": 429, "action_duration": "10m"}}


@responses.activate
def test_nothing_differs_nothing_written(capsys):
    responses.get(RULES, json={"limit": 100, "offset": 0, "count": 1, "results": [rule(9001, "Block scrapers")]})
    result = run(waap_custom_rule, capsys, domain_id=1001, name="Block scrapers", description="",
                 action={"block": {}}, conditions=[{"user_agent": {"user_agent": "scrapy", "negation": False}}])
    assert calls() == [("GET", RULES)]
    assert result["changed"] is False


@responses.activate
def test_create_sends_the_rule_enabled_with_defaults_filled(capsys):
    responses.get(RULES, json={"limit": 100, "offset": 0, "count": 0, "results": []})
    created = rule(9002, "New rule", conditions=[{"ip": {"ip_address": "2001:db8::1", "negation": False}}])
    responses.post(RULES, status=201, json=created)
    result = run(waap_custom_rule, capsys, domain_id=1001, name="New rule", action={"block": {"status_code": 429, "action_duration": "10m"}},
                 conditions=[{"ip": {"ip_address": "2001:DB8::1"}}])
    assert calls() == [("GET", RULES), ("POST", RULES)]
    assert json.loads(responses.calls[1].request.body) == {
        "name": "New rule", "enabled": True, "action": {"block": {"status_code": 429, "action_duration": "10m"}},
        "conditions": [{"ip": {"ip_address": "2001:db8::1", "negation": False}}]}
    assert result["changed"] is True
    assert result["custom_rule"]["id"] == 9002


@responses.activate
def test_a_422_shows_each_field_error_with_its_location(capsys):
    responses.get(RULES, json={"limit": 100, "offset": 0, "count": 0, "results": []})
    responses.post(RULES, status=422, content_type="application/problem+json", json={
        "type": "request-validation-failed", "title": "Request validation error.", "status": 422,
        "detail": "One or more fields have validation errors.",
        "errors": [{"loc": ["body", "conditions", 0, "country", "country_code", 0], "detail": "Invalid country code"},
                   {"loc": ["body", "name"], "detail": "Name taken"}]})
    result = run(waap_custom_rule, capsys, domain_id=1001, name="Geo", action={"monitor": {}},
                 conditions=[{"country": {"country_code": ["ZZ"]}}])
    assert result["failed"] is True
    assert "POST /waap/v1/domains/1001/custom-rules failed with HTTP 422" in result["msg"]
    assert "body.conditions.0.country.country_code.0: Invalid country code" in result["msg"]
    assert "body.name: Name taken" in result["msg"]
    assert len(responses.calls) == 2


@responses.activate
def test_delete_by_id_and_already_gone(capsys):
    responses.get(RULES + "/9001", json=rule(9001, "Gone soon"))
    responses.delete(RULES + "/9001", status=204)
    result = run(waap_custom_rule, capsys, domain_id=1001, id=9001, state="absent")
    assert calls() == [("GET", RULES + "/9001"), ("DELETE", RULES + "/9001")]
    assert result["changed"] is True and result["custom_rule"] is None
    responses.calls.reset()
    responses.replace(responses.GET, RULES + "/9001", status=404, json={"detail": "not found"})
    result = run(waap_custom_rule, capsys, domain_id=1001, id=9001, state="absent")
    assert calls() == [("GET", RULES + "/9001")]
    assert result["changed"] is False
