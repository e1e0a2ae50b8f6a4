# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The simulated WAAP operations for rule sets (docs/api_reference.md sections 12.1, 12.2): a domain's firewall rules (one
store with the account-wide list), bulk deletes, rule quotas, and a domain seeded with many rules on demand."""

from __future__ import annotations

import json
import pathlib
import urllib.error
import urllib.request

import pytest

from simulator.core import DEFAULT_API_KEY, Simulator

FW = "/waap/v1/domains/%s/firewall-rules"
CUSTOM = "/waap/v1/domains/%s/custom-rules"
ACCOUNT = "/waap/v2/firewall-rules"
EMPTY = 1006
RULE = {"name": "Block one host", "description": "from a test", "enabled": True, "action": {"block": {"status_code": 403}},
        "conditions": [{"ip": {"ip_address": "2001:DB8::1"}}]}
CUSTOM_RULE = {"name": "One rule", "enabled": True, "action": {"allow": {}}, "conditions": [{"ip": {"ip_address": "192.0.2.1"}}]}
SPEC = pathlib.Path(__file__).resolve().parents[2] / "contract" / "gcore-subset.json"


@pytest.fixture
def sim():
    return Simulator()


def listing(sim, path, query=""):
    status, body = sim.call("GET", path, query=query)
    assert status == 200, body
    return body


def every_page(sim, path, query=""):
    """Read every page as a client does (until a short page); returns (rules, requests)."""
    rules, offset, calls = [], 0, 0
    while True:
        calls += 1
        page = listing(sim, path, "limit=100&offset=%d%s" % (offset, "&" + query if query else ""))
        rules += page["results"]
        offset += page["count"]
        if page["count"] < 100:
            return rules, calls


def errors_of(answer):
    status, body = answer
    return status, [(tuple(error["loc"]), error["detail"]) for error in body.get("errors", [])]


# ---- a domain's firewall rules ---------------------------------------------------------------

def test_a_domains_firewall_rules_are_its_share_of_the_account_list(sim):
    account, calls = every_page(sim, ACCOUNT)
    assert len(account) == 1234 and calls == 13
    for domain_id in (1001, 1005):
        rules, _calls = every_page(sim, FW % domain_id)
        mine = [rule for rule in account if rule["domain"]["id"] == domain_id]
        assert [rule["id"] for rule in rules] == [rule["id"] for rule in mine] and rules
        assert all("domain" not in rule for rule in rules)
        assert rules[0] == dict((key, value) for key, value in mine[0].items() if key != "domain")
    assert listing(sim, FW % EMPTY) == {"limit": 100, "offset": 0, "count": 0, "results": []}


def test_the_list_pages_filters_and_orders_as_the_other_waap_lists(sim):
    page = listing(sim, FW % 1001, "limit=10&offset=5")
    assert (page["limit"], page["offset"], page["count"], len(page["results"])) == (10, 5, 10, 10)
    assert listing(sim, FW % 1001, "limit=0")["count"] == 0
    tail = listing(sim, FW % 1001, "offset=200")
    assert tail["count"] == len(tail["results"]) == 247 - 200  # count: the items of this page, not a total
    named = listing(sim, FW % 1001, "name=Allow*0005")["results"]
    assert [rule["name"] for rule in named] == ["Allow partner 0005"]
    assert {rule["name"].split()[0] for rule in listing(sim, FW % 1001, "action=allow")["results"]} == {"Allow"}
    assert all(rule["action"]["allow"] is None for rule in listing(sim, FW % 1001, "action=block")["results"])
    assert all(rule["enabled"] is False for rule in listing(sim, FW % 1001, "enabled=false")["results"])
    assert listing(sim, FW % 1001, "description=*shop.example.com")["count"] > 0
    names = [rule["name"] for rule in listing(sim, FW % 1002, "ordering=-name&limit=5")["results"]]
    assert names == sorted(names, reverse=True) and names[0].startswith("Block scanner")


@pytest.mark.parametrize("query, loc, detail", [
    ("limit=101", "limit", "Input should be less than or equal to 100"),
    ("limit=-1", "limit", "Input should be greater than or equal to 0"),
    ("offset=100001", "offset", "Input should be less than or equal to 100000"),
    ("action=captcha", "action", "Input should be 'allow' or 'block'"),
    ("ordering=domain", "ordering", None),
    ("enabled=maybe", "enabled", "Input should be a valid boolean, unable to interpret input"),
])
def test_bad_list_parameters_answer_422(sim, query, loc, detail):
    status, errors = errors_of(sim.call("GET", FW % 1001, query=query))
    assert status == 422 and errors[0][0] == ("query", loc)
    assert detail is None or errors[0][1] == detail


def test_unknown_or_bad_domains(sim):
    assert sim.call("GET", FW % 4242)[0] == 404
    assert errors_of(sim.call("GET", FW % 0)) == (422, [(("path", "domain_id"), "Input should be greater than 0")])
    assert sim.call("POST", FW % 4242 + "/bulk_delete", {"rule_ids": [1]})[0] == 404


def test_create_answers_201_with_the_full_record_and_the_account_list_shows_it(sim):
    status, created = sim.call("POST", FW % EMPTY, RULE)
    assert status == 201
    assert created == {"name": "Block one host", "description": "from a test", "enabled": True,
                       "action": {"allow": None, "block": {"status_code": 403}},
                       "conditions": [{"ip": {"ip_address": "2001:db8::1", "negation": False}}], "id": 100000 + 1234}
    assert sim.call("GET", FW % EMPTY + "/%s" % created["id"]) == (200, created)
    assert listing(sim, FW % EMPTY)["results"] == [created]
    account = listing(sim, ACCOUNT, "domain_ids=%s" % EMPTY)["results"]
    assert account == [dict(created, domain={"id": EMPTY, "name": "rules.example.com"})]
    assert sim.call("GET", FW % 1001 + "/%s" % created["id"])[0] == 404  # another domain's rule
    ip_range = {"ip_range": {"lower_bound": "192.0.2.0", "upper_bound": "192.0.2.9", "negation": True}}
    second = sim.call("POST", FW % EMPTY, dict(RULE, name="Allow a range", action={"allow": {}, "block": None}, conditions=[ip_range]))[1]
    assert second["id"] == created["id"] + 1 and second["action"] == {"allow": {}, "block": None}


@pytest.mark.parametrize("change, expected", [
    ({"enabled": None}, [(("body", "enabled"), "Field required")]),
    ({"name": ""}, [(("body", "name"), "String should have at least 1 character")]),
    ({"name": "a/b"}, [(("body", "name"), "String should match pattern '%s'" % r"^[A-Za-z0-9\s.:'\";<>?&|\\]+$")]),
    ({"description": "x" * 101}, [(("body", "description"), "String should have at most 100 characters")]),
    ({"action": {"block": {}, "allow": {}}}, [(("body", "action"), "Value error, exactly one action must be set per rule (2 given)")]),
    ({"action": {"allow": None, "block": None}}, [(("body", "action"), "Value error, exactly one action must be set per rule (0 given)")]),
    ({"action": {"captcha": {}}}, [(("body", "action", "captcha"), "Extra inputs are not permitted"),
                                   (("body", "action"), "Value error, exactly one action must be set per rule (1 given)")][:1]),
    ({"action": {"block": {"status_code": 404}}}, [(("body", "action", "block", "status_code"), "Input should be 403, 405, 418 or 429")]),
    ({"action": {"block": {"action_duration": "0s"}}},
     [(("body", "action", "block", "action_duration"), "String should match pattern '^[1-9][0-9]*[smhd]?$'")]),
    ({"conditions": []}, [(("body", "conditions"), "List should have at least 1 item after validation, not 0")]),
    ({"conditions": [{"ip": {"ip_address": "192.0.2.1"}}] * 2},
     [(("body", "conditions"), "List should have at most 1 item after validation, not 2")]),
    ({"conditions": [{"url": {"url": "/x"}}]}, [(("body", "conditions", 0, "url"), "Extra inputs are not permitted")]),
    ({"conditions": [{"ip": {"ip_address": "192.0.2.300"}}]},
     [(("body", "conditions", 0, "ip", "ip_address"), "Input is not a valid IPv4 or IPv6 address")]),
    ({"conditions": [{"ip_range": {"lower_bound": "192.0.2.1"}}]}, [(("body", "conditions", 0, "ip_range", "upper_bound"), "Field required")]),
    ({"id": 5}, [(("body", "id"), "Extra inputs are not permitted")]),
])
def test_a_create_body_is_validated_as_the_schema_says(sim, change, expected):
    body = dict((key, value) for key, value in dict(RULE, **change).items() if value is not None or key != "enabled")
    status, errors = errors_of(sim.call("POST", FW % EMPTY, body))
    assert status == 422 and errors[:len(expected)] == expected
    assert listing(sim, FW % EMPTY)["count"] == 0


def test_a_refusal_is_problem_json():
    sim = Simulator()
    response, _delay = sim.dispatch(__import__("simulator.core", fromlist=["Request"]).Request(
        "POST", FW % EMPTY, "", {"Authorization": "apikey " + DEFAULT_API_KEY}, json.dumps({"name": "x"}).encode()))
    assert response.status == 422 and response.content_type == "application/problem+json"
    assert response.body["title"] == "Request validation error." and response.body["status"] == 422 and response.body["errors"]


def test_patch_changes_only_what_is_sent_and_answers_204_without_a_body(sim):
    rule = sim.call("POST", FW % EMPTY, RULE)[1]
    path = FW % EMPTY + "/%s" % rule["id"]
    assert sim.call("PATCH", path, {"description": "changed", "name": None, "enabled": None}) == (204, None)
    assert sim.call("GET", path)[1] == dict(rule, description="changed")
    ip_range = {"ip_range": {"lower_bound": "192.0.2.0", "upper_bound": "192.0.2.255"}}
    assert sim.call("PATCH", path, {"action": {"allow": {}}, "conditions": [ip_range]})[0] == 204
    changed = sim.call("GET", path)[1]
    assert changed["action"] == {"allow": {}, "block": None}
    assert changed["conditions"] == [{"ip_range": {"lower_bound": "192.0.2.0", "upper_bound": "192.0.2.255", "negation": False}}]
    assert sim.call("PATCH", path, {})[0] == 204
    assert errors_of(sim.call("PATCH", path, {"conditions": [{"ip": {"ip_address": "x"}}], "enabled": "yes"}))[0] == 422
    assert errors_of(sim.call("PATCH", path, {"action": {"allow": {}, "block": {}}}))[0] == 422
    assert sim.call("GET", path)[1] == changed
    assert sim.call("PATCH", FW % 1001 + "/%s" % rule["id"], {"enabled": False})[0] == 404


def test_toggle_and_delete(sim):
    rule = sim.call("POST", FW % EMPTY, RULE)[1]
    path = FW % EMPTY + "/%s" % rule["id"]
    assert sim.call("PATCH", path + "/disable") == (204, None)
    assert sim.call("GET", path)[1]["enabled"] is False
    assert sim.call("PATCH", path + "/enable")[0] == 204
    assert sim.call("GET", path)[1]["enabled"] is True
    assert errors_of(sim.call("PATCH", path + "/pause")) == (422, [(("path", "action"), "Input should be 'enable' or 'disable'")])
    assert sim.call("DELETE", path) == (204, None)
    assert sim.call("GET", path)[0] == 404 and sim.call("DELETE", path)[0] == 404
    assert listing(sim, ACCOUNT, "domain_ids=%s" % EMPTY)["count"] == 0


# ---- bulk deletes ----------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["firewall-rules", "custom-rules"])
def test_bulk_delete_removes_the_listed_rules_of_the_domain(sim, kind):
    path = "/waap/v1/domains/%s/%s" % (EMPTY, kind)
    sim.control("POST", "/_sim/waap_rules", {"domain_id": EMPTY, kind.replace("-", "_"): 150})
    ids = [rule["id"] for rule in every_page(sim, path)[0]]
    assert len(ids) == 150
    assert sim.call("POST", path + "/bulk_delete", {"rule_ids": ids[:100]}) == (204, None)
    assert [rule["id"] for rule in every_page(sim, path)[0]] == ids[100:]
    assert sim.call("POST", path + "/bulk_delete", {"rule_ids": ids[100:] + ids[100:101]})[0] == 204  # repeated ids count once
    assert every_page(sim, path)[0] == []


@pytest.mark.parametrize("kind", ["firewall-rules", "custom-rules"])
def test_bulk_delete_with_an_id_not_of_the_domain_deletes_nothing_and_answers_404(sim, kind):
    path = "/waap/v1/domains/%s/%s" % (1001, kind)
    before = every_page(sim, path)[0]
    other = every_page(sim, "/waap/v1/domains/1002/" + kind)[0][0]["id"]
    status, body = sim.call("POST", path + "/bulk_delete", {"rule_ids": [before[0]["id"], other, 999999999]})
    assert status == 404 and body["status"] == 404
    assert body["detail"].endswith("%s, 999999999 not found in domain 1001" % other)
    assert every_page(sim, path)[0] == before


@pytest.mark.parametrize("body, expected", [
    ({"rule_ids": []}, [(("body", "rule_ids"), "List should have at least 1 item after validation, not 0")]),
    ({}, [(("body", "rule_ids"), "Field required")]),
    ({"rule_ids": ["a", True]}, [(("body", "rule_ids", 0), "Input should be a valid integer"),
                                 (("body", "rule_ids", 1), "Input should be a valid integer")]),
    ({"rule_ids": [1], "all": True}, [(("body", "all"), "Extra inputs are not permitted")]),
    ([1, 2], [(("body",), "Input should be a valid dictionary or object to extract fields from")]),
])
@pytest.mark.parametrize("kind", ["firewall-rules", "custom-rules"])
def test_a_bad_bulk_delete_body_answers_422(sim, kind, body, expected):
    assert errors_of(sim.call("POST", "/waap/v1/domains/1001/%s/bulk_delete" % kind, body)) == (422, expected)


def test_bulk_delete_is_a_write_by_its_route_declaration(sim):
    declared = [(route.method, route.pattern.pattern, route.read_only) for route, _handler in sim.routes
                if route.pattern.pattern.endswith("/bulk_delete$")]
    assert [(method, read_only) for method, _pattern, read_only in declared] == [("POST", False)] * 4  # v1 and v2
    sim.call("POST", CUSTOM % 1005 + "/bulk_delete", {"rule_ids": [6001]})
    sim.call("POST", FW % 1001 + "/bulk_delete", {"rule_ids": [100000]})
    sim.call("GET", FW % 1001 + "/bulk_delete")  # a GET is no write (and the rule id "bulk_delete" is no integer)
    assert [(entry["method"], entry["path"], entry["status"]) for entry in sim.writes()] == [
        ("POST", CUSTOM % 1005 + "/bulk_delete", 204), ("POST", FW % 1001 + "/bulk_delete", 204)]
    assert sim.requests("GET")[0]["status"] == 422


# ---- quotas ----------------------------------------------------------------------------------

def test_a_rule_quota_per_domain_refuses_creates_beyond_it_with_403(sim):
    sim.configure(waap_rule_quota={"firewall_rules": 1, "custom_rules": 5})
    assert sim.call("POST", FW % EMPTY, RULE)[0] == 201
    status, body = sim.call("POST", FW % EMPTY, dict(RULE, name="Second"))
    assert status == 403 and body["title"] == "Quota limit exceeded" and "maximum limit" in body["detail"]
    assert sim.call("POST", CUSTOM % 1001, CUSTOM_RULE)[0] == 201  # 4 seeded + 1
    assert sim.call("POST", CUSTOM % 1001, CUSTOM_RULE)[0] == 403
    assert sim.call("POST", CUSTOM % 1002, CUSTOM_RULE)[0] == 201  # per domain
    assert listing(sim, FW % EMPTY)["count"] == 1


# ---- seeding a domain with many rules ----------------------------------------------------------

def test_a_domain_is_seeded_with_a_thousand_rules_of_each_kind(sim):
    answer = sim.control("POST", "/_sim/waap_rules", {"domain_id": 1001, "custom_rules": 1000, "firewall_rules": 1000})
    assert answer == {"domain_id": 1001, "custom_rules": 1000, "firewall_rules": 1000}
    for path in (CUSTOM % 1001, FW % 1001):
        rules, calls = every_page(sim, path)
        assert len(rules) == 1000 and calls == 11  # 10 full pages and the empty one that shows the end
        names = [rule["name"] for rule in rules]
        assert len(set(names)) == 1000 and all(name[-4:].isdigit() for name in names)
    kinds = {next(iter(rule["action"])) for rule in every_page(sim, CUSTOM % 1001)[0]}
    assert kinds == {"allow", "block", "captcha", "handshake", "monitor", "tag"}
    account, calls = every_page(sim, ACCOUNT)
    assert len(account) == 1234 - 247 + 1000  # the domain's seeded firewall rules were replaced
    created = sim.call("POST", CUSTOM % 1001, CUSTOM_RULE)[1]
    assert created["id"] == max(rule["id"] for rule in every_page(sim, CUSTOM % 1001)[0][:-1]) + 1


def test_seeding_leaves_the_kind_not_given_alone(sim):
    custom = every_page(sim, CUSTOM % 1005)[0]
    assert sim.control("POST", "/_sim/waap_rules", {"domain_id": 1005, "firewall_rules": 0}) == {
        "domain_id": 1005, "custom_rules": 150, "firewall_rules": 0}
    assert every_page(sim, CUSTOM % 1005)[0] == custom


def post_control(server, call, body):
    request = urllib.request.Request(server.url + "/_sim/" + call, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


@pytest.mark.parametrize("body, message", [
    ({"custom_rules": 5}, "waap_rules.domain_id is required"),
    ({"domain_id": 77, "custom_rules": 5}, "waap_rules.domain_id: no WAAP domain 77"),
    ({"domain_id": 1001}, "waap_rules: give custom_rules or firewall_rules"),
    ({"domain_id": 1001, "custom_rules": -1}, "custom_rules must be an integer of at least 0"),
    ({"domain_id": 1001, "custom_rules": 10001}, "waap_rules.custom_rules must be at most 10000"),
    ({"domain_id": 1001, "rules": 5}, "waap_rules: unknown key rules"),
])
def test_bad_seeding_is_refused_with_400_and_changes_nothing(server, body, message):
    server.reset()
    status, answer = post_control(server, "waap_rules", body)
    assert status == 400 and message in answer["error"]
    assert len(server.custom_rules[1001]) == 4 and len(server.firewall_rules) == 1234


def test_seeding_over_http_is_not_logged_as_a_request(server):
    server.reset()
    assert post_control(server, "waap_rules", {"domain_id": EMPTY, "custom_rules": 3}) == (
        200, {"domain_id": EMPTY, "custom_rules": 3, "firewall_rules": 0})
    assert server.requests() == [] and len(server.custom_rules[EMPTY]) == 3


# ---- the answers obey the published spec ----------------------------------------------------

def test_the_answers_obey_the_published_spec(sim):
    openapi_core = pytest.importorskip("openapi_core")
    requests = pytest.importorskip("requests")
    from openapi_core.contrib.requests import RequestsOpenAPIRequest, RequestsOpenAPIResponse
    if not SPEC.is_file():
        pytest.fail("the published spec %s is absent" % SPEC, pytrace=False)
    # spec_validator_cls=None: the spec itself is validated once, by the contract test (17 s each time it is loaded)
    config = openapi_core.Config(extra_media_type_deserializers={"application/problem+json": json.loads}, spec_validator_cls=None)
    spec = openapi_core.OpenAPI.from_file_path(str(SPEC), config=config)
    sim.control("POST", "/_sim/waap_rules", {"domain_id": EMPTY, "custom_rules": 12, "firewall_rules": 12})
    created = sim.call("POST", FW % EMPTY, RULE)[1]
    calls = [("GET", FW % EMPTY, None, "limit=5&ordering=-id"), ("POST", FW % EMPTY, dict(RULE, name="Other"), ""),
             ("GET", FW % EMPTY + "/%s" % created["id"], None, ""), ("GET", ACCOUNT, None, "domain_ids=%s" % EMPTY),
             ("PATCH", FW % EMPTY + "/%s" % created["id"], {"enabled": False}, ""),
             ("PATCH", FW % EMPTY + "/%s/enable" % created["id"], None, ""),
             ("POST", FW % EMPTY + "/bulk_delete", {"rule_ids": [created["id"]]}, ""),
             ("GET", CUSTOM % EMPTY, None, "limit=100"),
             ("POST", CUSTOM % EMPTY + "/bulk_delete", {"rule_ids": [listing(sim, CUSTOM % EMPTY)["results"][0]["id"]]}, ""),
             ("POST", FW % EMPTY, {"name": "x"}, ""), ("GET", FW % 4242, None, "")]
    for method, path, body, query in calls:
        status, answer = sim.call(method, path, body, query=query)
        url = "https://api.gcore.com" + path + ("?" + query if query else "")
        request = requests.Request(method, url, headers={"Authorization": "apikey x", "Content-Type": "application/json"},
                                   data=json.dumps(body) if body is not None else None).prepare()
        response = requests.Response()
        response.status_code = status
        content_type = "application/problem+json" if status >= 400 else "application/json"
        response.headers["Content-Type"] = content_type
        response._content = json.dumps(answer).encode() if answer is not None else b""  # pylint: disable=protected-access
        openapi_request = RequestsOpenAPIRequest(request)
        if status < 400:  # the refused ones were sent bad on purpose
            spec.validate_request(openapi_request)
        spec.validate_response(openapi_request, RequestsOpenAPIResponse(response))


# ---- v2 writes and the SDK 0.59 conditions (docs/api_reference.md sections 18.6, 18.7) ------------------------

V2 = "/waap/v2/domains/%s/%s"


@pytest.mark.parametrize("kind, domain, rule_id", [("custom-rules", 1001, 5001), ("firewall-rules", 1001, 100000)])
def test_v2_update_toggle_and_bulk_delete_answer_what_they_did_and_v1_answers_no_body(sim, kind, domain, rule_id):
    status, body = sim.call("PATCH", V2 % (domain, kind) + "/%s" % rule_id, {"description": "via v2"})
    assert status == 200 and body["id"] == rule_id and body["description"] == "via v2"
    assert sim.call("PATCH", V2 % (domain, kind) + "/%s/disable" % rule_id) == (200, {"enabled": False})
    assert sim.call("PATCH", "/waap/v1/domains/%s/%s/%s/enable" % (domain, kind, rule_id)) == (204, None)
    assert sim.call("PATCH", "/waap/v1/domains/%s/%s/%s" % (domain, kind, rule_id), {"description": "via v1"}) == (204, None)
    assert sim.call("POST", V2 % (domain, kind) + "/bulk_delete", {"rule_ids": [rule_id]}) == (200, {"deleted_ids": [rule_id]})
    assert sim.call("GET", "/waap/v1/domains/%s/%s/%s" % (domain, kind, rule_id))[0] == 404
    assert sim.call("POST", V2 % (domain, kind) + "/bulk_delete", {"rule_ids": [rule_id]})[0] == 404  # all or nothing, as v1


def test_asn_ja3_ja4_are_accepted_and_fingerprints_kept_lower_case(sim):
    rule = dict(CUSTOM_RULE, conditions=[{"asn": {"asns": [13335]}}, {"ja3": {"ja3_fingerprints": ["E7D705A3286E19EA42F587B344EE6865"]}},
                                         {"ja4": {"ja4_fingerprints": ["T13D1516H2_8DAAF6152771_02713D6AF862"]}}])
    status, body = sim.call("POST", CUSTOM % EMPTY, rule)
    assert status == 201, body
    assert body["conditions"] == [{"asn": {"asns": [13335], "negation": False}},
                                  {"ja3": {"ja3_fingerprints": ["e7d705a3286e19ea42f587b344ee6865"], "negation": False}},
                                  {"ja4": {"ja4_fingerprints": ["t13d1516h2_8daaf6152771_02713d6af862"], "negation": False}}]


@pytest.mark.parametrize("condition, loc", [
    ({"asn": {"asns": [0]}}, ("asn", "asns", 0)),
    ({"ja3": {"ja3_fingerprints": ["e7d705a3286e19ea42f587b344ee686"]}}, ("ja3", "ja3_fingerprints", 0)),
    ({"ja4": {"ja4_fingerprints": ["t13d1516h2_8daaf6152771"]}}, ("ja4", "ja4_fingerprints", 0)),
    ({"response_header": {"header": "X-Cache", "value": "MISS"}}, ("response_header",)),
    ({"response_header_exists": {"header": "X-Cache"}}, ("response_header_exists",)),
])
def test_bad_new_conditions_and_read_only_ones_are_refused_in_a_create_and_an_update(sim, condition, loc):
    status, body = sim.call("POST", CUSTOM % EMPTY, dict(CUSTOM_RULE, conditions=[condition]))
    assert status == 422 and [tuple(error["loc"]) for error in body["errors"]] == [("body", "conditions", 0) + loc], body
    status, body = sim.call("PATCH", V2 % (1001, "custom-rules") + "/5001", {"conditions": [condition]})
    assert status == 422, body
