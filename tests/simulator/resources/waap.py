# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""WAAP: firewall rules (docs/api_reference.md sections 8 and 12.1) and the custom rules of each domain (sections 9 and 12.2).

- Firewall rules are one store, kept per domain: ``GET /waap/v2/firewall-rules`` lists the account's
  (each with its ``domain``), ``/waap/v1/domains/{domain_id}/firewall-rules`` one domain's (without it): a
  rule created, changed or deleted per domain shows in the account-wide list. 1,234 rules are seeded
  across domains 1001-1005 (domain 1006 has none).
- Lists: filters (``*`` is a wildcard, a text without one matches as "contains", case-insensitively),
  ``ordering``, ``limit`` 0-100 (dflt 100), ``offset`` 0-100000; ``count`` is the number of items in the
  page (as the spec says, docs/api_reference.md section 11 row 30).
- ``/waap/v1/domains/{domain_id}/firewall-rules``: list, get, create (201, the record with ``id``), patch (204;
  every member optional and nullable, a null is ignored), delete (204), toggle ``…/{rule_id}/enable|disable``
  (204), ``POST …/bulk_delete`` (204). A body as ``FirewallRule`` says: ``enabled`` required, the action's
  ``allow``/``block`` nullable with exactly one set (the record always holds both, the other null, as the
  seeded ones do), exactly one condition, ``ip`` or ``ip_range``. The schema says nothing of a range's
  bounds (order, family), so neither does the simulator.
- ``POST …/custom-rules/bulk_delete`` and ``…/firewall-rules/bulk_delete`` ``{rule_ids: [int], minItems 1}``:
  204. The spec does not say what ids that are not rules of the domain do; the simulator takes the
  call as all or nothing: any such id answers **404** naming them, and nothing is deleted (repeated ids
  count once; no maximum, as the spec gives none).
- Quotas: the setting ``waap_rule_quota`` (``{custom_rules: n, firewall_rules: n}``, per domain, none by
  default) makes a create beyond it answer 403 "Quota limit exceeded", as the spec documents.
- Control call ``POST /_sim/waap_rules`` (``sim_call: waap_rules``): ``{domain_id, custom_rules: n,
  firewall_rules: n}`` replaces that domain's rules of each kind given with n generated rules with
  realistic, unique names (``seed_rules``), e.g. 1,000 for a load story or the bench.
- ``/waap/v1/domains/{domain_id}/custom-rules``: list (same filters and paging), get, create (201),
  patch (204), delete (204), toggle ``…/{rule_id}/enable|disable`` (204). Bodies are validated as the spec
  says, and a little stricter where the service's descriptions say more than its schema: exactly one
  action member and one condition kind, extra members rejected, ISO country codes, no lookaround in a
  Regex url. Errors are problem+json; a 422 carries ``errors[{loc, detail}]``.
- v2 (SDK 0.59, docs/api_reference.md section 18.7): ``PATCH /waap/v2/domains/{domain_id}/{custom,firewall}-rules/{rule_id}``
  answers 200 with the rule, ``…/{rule_id}/enable|disable`` 200 ``{enabled}``, ``POST …/bulk_delete`` 200
  ``{deleted_ids}``; the v1 writes stay served (deprecated; 204 without a body), create, get and list stay on v1.
- Conditions as SDK 0.59 has them: ``asn``, ``ja3``, ``ja4`` accepted (fingerprints kept lower-case);
  ``response_header`` and ``response_header_exists`` only returned (on rules stored before, e.g. seeded by a test),
  refused (422) in every create and update.
- The service fills defaults (``negation: false`` except on ``request_rate``, ``match_type: Contains``,
  ``owner_types: [COMMERCIAL]``), canonicalises IP addresses and echoes the rest as sent, plus ``id``.

State: ``sim.custom_rules`` ({domain_id: [rule, ...]}), ``sim.firewall_rules`` (list, each rule with its
``domain``), ``sim.waap_domains``.
"""

from __future__ import annotations

import copy
import functools
import json
import re

from simulator import control
from simulator.core import ApiFailure, Resource, Response, Route
from simulator.validation import VALIDATION_DETAIL, VALIDATION_TITLE, Invalid, check_fields, enum_text, f

DOMAINS = {1001: "shop.example.com", 1002: "api.example.com", 1003: "blog.example.com",
           1004: "static.example.com", 1005: "admin.example.com", 1006: "rules.example.com"}
FIREWALL_RULE_COUNT = 1234
FIRST_FIREWALL_ID = 100000
FIRST_CUSTOM_ID = 7001
BULK_DOMAIN = 1005
BULK_RULES = 150
EMPTY_DOMAIN = 1006
SEED_MAX = 10000

ORDERING_FIELDS = ("id", "name", "description", "enabled", "action")
ORDERING = ORDERING_FIELDS + tuple("-" + field for field in ORDERING_FIELDS)
TRUE = ("true", "1", "yes", "on", "t", "y")
FALSE = ("false", "0", "no", "off", "f", "n")
ISO_COUNTRIES = frozenset("""
AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC
CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD
GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH
KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW
MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC
SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY
UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW""".split())

# ---- schemas (the spec's, docs/api_reference.md section 9.2) ----------------------------------------------

NAME_PATTERN = r"^[A-Za-z0-9\s.:'\";<>?&|\\]+$"
HTTP_METHODS = ("CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "TRACE")
OWNER_TYPES = ("COMMERCIAL", "EDUCATIONAL", "GOVERNMENT", "HOSTING_SERVICES", "ISP", "MOBILE_NETWORK", "NETWORK", "RESERVED")
USER_TAG = r"^[a-zA-Z]+[ a-zA-Z0-9]*$"
URL_PATTERN = r"^[\w!\$~:#\[\]@\(\)*\+,=\/\-\.\%]+$"


HEADER = f("str", True, min=1, max=50, pattern=r"^[a-zA-Z0-9-]+$")
VALUE = f("str", True, max=100, pattern=r"^[a-zA-Z0-9-_ :;.\/\"'?!(){}\[\]@<>=\-\+\*#$&`|~^%]+$")
NEGATION = f("bool", default=False)


def match_type(*values):
    return f("str", enum=values, default="Contains")


KINDS = {
    "ip": {"negation": NEGATION, "ip_address": f("ip", True)},
    "ip_range": {"negation": NEGATION, "lower_bound": f("ip", True), "upper_bound": f("ip", True)},
    "url": {"negation": NEGATION, "match_type": match_type("Exact", "Contains", "Regex"), "url": f("str", True, min=1, max=500)},
    "user_agent": {"negation": NEGATION, "user_agent": f("str", True, max=300), "match_type": match_type("Exact", "Contains")},
    "header": {"negation": NEGATION, "header": HEADER, "value": VALUE, "match_type": match_type("Exact", "Contains")},
    "header_exists": {"negation": NEGATION, "header": HEADER},
    "response_header": {"negation": NEGATION, "header": HEADER, "value": VALUE, "match_type": match_type("Exact", "Contains")},
    "response_header_exists": {"negation": NEGATION, "header": HEADER},
    "http_method": {"negation": NEGATION, "http_method": f("str", True, enum=HTTP_METHODS)},
    "file_extension": {"negation": NEGATION, "file_extension": f("list", True, min_items=1, max_items=20,
                                                                 items=f("str", min=1, max=10, pattern=r"[a-z0-9]+$"))},
    "content_type": {"negation": NEGATION, "content_type": f("list", True, min_items=1, max_items=10, items=f("str", min=1, max=50))},
    "country": {"negation": NEGATION, "country_code": f("list", True, min_items=1, max_items=100, items=f("str", pattern=r"^\w{2}$"))},
    "organization": {"negation": NEGATION, "organization": f("str", True, max=100)},
    "request_rate": {"ips": f("list", max_items=10, items=f("ip")), "http_methods": f("list", items=f("str", enum=HTTP_METHODS)),
                     "path_pattern": f("str", True, min=1, max=500), "requests": f("int", True, ge=20),
                     "time": f("int", True, ge=1, le=3600), "user_defined_tag": f("str", min=1, max=50, pattern=USER_TAG)},
    "owner_types": {"negation": NEGATION, "owner_types": f("list", min_items=1, items=f("str", enum=OWNER_TYPES), default=["COMMERCIAL"])},
    "tags": {"negation": NEGATION, "tags": f("list", True, min_items=1, max_items=5, items=f("str"))},
    "session_request_count": {"negation": NEGATION, "request_count": f("int", True, gt=0)},
    "user_defined_tags": {"negation": NEGATION, "tags": f("list", True, min_items=1, max_items=10, items=f("str", min=1, max=50, pattern=USER_TAG))},
    # SDK 0.59 (docs/api_reference.md section 18.6); the limits are the inferred ones (the SDK states none)
    "asn": {"negation": NEGATION, "asns": f("list", True, min_items=1, items=f("int", ge=1, le=4294967295))},
    "ja3": {"negation": NEGATION, "ja3_fingerprints": f("list", True, min_items=1, items=f("str", pattern=r"^[0-9a-fA-F]{32}$"))},
    "ja4": {"negation": NEGATION, "ja4_fingerprints": f("list", True, min_items=1,
                                                        items=f("str", pattern=r"^[A-Za-z0-9]{10}_[0-9a-fA-F]{12}_[0-9a-fA-F]{12}$"))},
}
# Returned on rules stored before, refused in every create and update since SDK 0.59 (CustomRuleConditionWritable).
READ_ONLY_KINDS = ("response_header", "response_header_exists")
CONDITION = f("object", fields=dict((kind, f("object", fields=fields)) for kind, fields in KINDS.items() if kind not in READ_ONLY_KINDS))
ACTION = f("object", fields={
    "allow": f("free"), "captcha": f("free"), "handshake": f("free"), "monitor": f("free"),
    "block": f("object", fields={"status_code": f("int", enum=(403, 405, 418, 429)),
                                 "action_duration": f("str", min=1, max=10, pattern=r"^[1-9][0-9]*[smhd]?$")}),
    "tag": f("object", fields={"tags": f("list", True, min_items=1, max_items=5, items=f("str"))}),
})
RULE_FIELDS = {
    "name": f("str", True, min=1, max=100, pattern=NAME_PATTERN),
    "description": f("str", max=100),
    "enabled": f("bool", True),
    "action": dict(ACTION, required=True),
    "conditions": f("list", True, min_items=1, max_items=5, items=CONDITION),
}
UPDATE_FIELDS = dict((name, dict(spec, required=False, nullable=True)) for name, spec in RULE_FIELDS.items())

# FirewallRule / UpdateFirewallRule (docs/api_reference.md section 12.1): the action's members are nullable, one condition.
BLOCK = f("object", fields={"status_code": f("int", enum=(403, 405, 418, 429)),
                            "action_duration": f("str", min=1, max=10, pattern=r"^[1-9][0-9]*[smhd]?$")})
FIREWALL_ACTION = f("object", fields={"allow": f("free", nullable=True), "block": dict(BLOCK, nullable=True)})
FIREWALL_CONDITION = f("object", fields={"ip": f("object", fields=KINDS["ip"]), "ip_range": f("object", fields=KINDS["ip_range"])})
FIREWALL_FIELDS = {
    "name": RULE_FIELDS["name"],
    "description": RULE_FIELDS["description"],
    "enabled": f("bool", True),
    "action": dict(FIREWALL_ACTION, required=True),
    "conditions": f("list", True, min_items=1, max_items=1, items=FIREWALL_CONDITION),
}
FIREWALL_UPDATE_FIELDS = dict((name, dict(spec, required=False, nullable=True)) for name, spec in FIREWALL_FIELDS.items())
BULK_DELETE_FIELDS = {"rule_ids": f("list", True, min_items=1, items=f("int"))}


def check_action(action, loc, invalid):
    if isinstance(action, dict) and len(action) != 1:
        invalid.add(loc, "Value error, exactly one action must be set per rule (%s given)" % len(action))


def check_firewall_action(action, loc, invalid):
    """A firewall action's members are nullable: exactly one of them is set (not null)."""
    if isinstance(action, dict):
        given = [name for name, members in action.items() if members is not None]
        if len(given) != 1:
            invalid.add(loc, "Value error, exactly one action must be set per rule (%s given)" % len(given))


def check_condition(condition, given, loc, invalid):
    """The rules the service's descriptions add to the condition schema."""
    if not isinstance(condition, dict) or not isinstance(given, dict):
        return
    if len(given) != 1:
        invalid.add(loc, "Value error, exactly one condition type must be set per condition (%s given)" % len(given))
        return
    if not condition:
        return  # the one kind given is unknown (or read-only): refused as an extra input
    kind, members = next(iter(condition.items()))
    if not isinstance(members, dict):
        return
    if kind == "url" and isinstance(members.get("url"), str):
        url = members["url"]
        if members.get("match_type") == "Regex":
            try:
                re.compile(url)
                valid = not re.search(r"\(\?<?[=!]", url)
            except re.error:
                valid = False
            if not valid:
                invalid.add(loc + ("url", "url"), "Value error, a valid regular expression without lookahead or lookbehind is required")
        elif not re.search(URL_PATTERN, url):
            invalid.add(loc + ("url", "url"), "Value error, the url holds characters not allowed with match type %s" % members.get("match_type"))
    for name in ("ja3_fingerprints", "ja4_fingerprints"):  # kept lower-case [inferred: as the analytics filters]
        if isinstance(members.get(name), list):
            members[name] = [item.lower() if isinstance(item, str) else item for item in members[name]]
    if kind == "country":
        for index, code in enumerate(members.get("country_code") or []):
            if isinstance(code, str) and re.search(r"^\w{2}$", code) and code not in ISO_COUNTRIES:
                invalid.add(loc + ("country", "country_code", index), "Value error, %r is not an ISO 3166-1 alpha-2 country code" % code)


def validate_rule(body, fields, action_check=check_action):
    """The body of a create (CustomRule, FirewallRule) or a patch (UpdateCustomRule, UpdateFirewallRule), as the
    service keeps it (a firewall action with both members, the one not set null)."""
    invalid = Invalid()
    if not isinstance(body, dict):
        invalid.add(("body",), "Input should be a valid dictionary or object to extract fields from")
        invalid.raise_if_any()
    kept = check_fields(body, fields, ("body",), invalid)
    if body.get("action") is not None:
        action_check(body["action"], ("body", "action"), invalid)
    if isinstance(body.get("conditions"), list):
        for index, condition in enumerate(kept.get("conditions") or []):
            check_condition(condition, body["conditions"][index], ("body", "conditions", index), invalid)
    invalid.raise_if_any()
    if action_check is check_firewall_action and isinstance(kept.get("action"), dict):
        kept["action"] = {"allow": kept["action"].get("allow"), "block": kept["action"].get("block")}
    return kept


def validate_firewall_rule(body, update=False):
    return validate_rule(body, FIREWALL_UPDATE_FIELDS if update else FIREWALL_FIELDS, check_firewall_action)


def validate_bulk_delete(body):
    """``RulesBulkDelete``: the rule ids, as a set."""
    invalid = Invalid()
    kept = check_fields(body, BULK_DELETE_FIELDS, ("body",), invalid)
    invalid.raise_if_any()
    return set(kept["rule_ids"])


# ---- query parameters ------------------------------------------------------------------------

def _query_error(name, detail):
    return ApiFailure(422, VALIDATION_DETAIL, errors=[{"loc": ["query", name], "detail": detail}], title=VALIDATION_TITLE)


def query_int(request, name, default, low, high):
    raw = request.arg(name)
    if raw is None:
        return default
    try:
        number = int(raw)
    except ValueError:
        raise _query_error(name, "Input should be a valid integer, unable to parse string as an integer")
    if number < low:
        raise _query_error(name, "Input should be greater than or equal to %s" % low)
    if number > high:
        raise _query_error(name, "Input should be less than or equal to %s" % high)
    return number


def query_bool(request, name):
    raw = request.arg(name)
    if raw is None:
        return None
    if raw.lower() in TRUE:
        return True
    if raw.lower() in FALSE:
        return False
    raise _query_error(name, "Input should be a valid boolean, unable to interpret input")


def query_enum(request, name, values):
    raw = request.arg(name)
    if raw is not None and raw not in values:
        raise _query_error(name, "Input should be %s" % enum_text(values))
    return raw


def path_int(value, name, low=None):
    try:
        number = int(value)
    except ValueError:
        raise ApiFailure(422, VALIDATION_DETAIL, title=VALIDATION_TITLE,
                         errors=[{"loc": ["path", name], "detail": "Input should be a valid integer, unable to parse string as an integer"}])
    if low is not None and number < low:
        raise ApiFailure(422, VALIDATION_DETAIL, title=VALIDATION_TITLE,
                         errors=[{"loc": ["path", name], "detail": "Input should be greater than %s" % (low - 1)}])
    return number


@functools.lru_cache(maxsize=64)
def wildcard(pattern):
    """A filter text with ``*`` as a compiled, case-insensitive regular expression (once per text, not per rule)."""
    return re.compile(".*".join(re.escape(part) for part in pattern.lower().split("*")), re.S)


def text_matches(pattern, value):
    """The service's text filters: ``*`` is a wildcard; without one, the text may appear anywhere. Case-insensitive."""
    value = (value or "").lower()
    if "*" in pattern:
        return wildcard(pattern).fullmatch(value) is not None
    return pattern.lower() in value


def action_kind(rule):
    return next((kind for kind, members in (rule.get("action") or {}).items() if members is not None), "")


def list_page(request, rules, actions, extra_filter=None, hidden=()):
    """Filter, order and page a rule list as the WAAP lists do: ``{limit, offset, count, results}`` (copies,
    without the ``hidden`` members)."""
    limit = query_int(request, "limit", 100, 0, 100)
    offset = query_int(request, "offset", 0, 0, 100000)
    ordering = query_enum(request, "ordering", ORDERING)
    action = query_enum(request, "action", actions)
    enabled = query_bool(request, "enabled")
    name, description = request.arg("name"), request.arg("description")
    selected = [rule for rule in rules
                if (name is None or text_matches(name, rule.get("name")))
                and (description is None or text_matches(description, rule.get("description")))
                and (action is None or action_kind(rule) == action)
                and (enabled is None or rule.get("enabled") is enabled)
                and (extra_filter is None or extra_filter(rule))]
    if ordering:
        field = ordering.lstrip("-")
        key = {"action": action_kind, "description": lambda rule: rule.get("description") or ""}.get(field, lambda rule: rule.get(field))
        selected = sorted(selected, key=key, reverse=ordering.startswith("-"))
    page = json.loads(json.dumps([dict((key, value) for key, value in rule.items() if key not in hidden)
                                  for rule in selected[offset:offset + limit]]))  # a copy, faster than deepcopy
    return {"limit": limit, "offset": offset, "count": len(page), "results": page}


# ---- seeds -----------------------------------------------------------------------------------

def firewall_rule(index):
    """The seeded firewall rule number ``index`` (deterministic).

    Names: 300 "Allow partner NNNN" (allow), 250 "Block scanner NNNN", the rest "Block abuse NNNN" (block).
    Domains rotate 1001..1005; every 4th rule is disabled; every 7th has no description.
    """
    domain_id = 1001 + index % 5
    if index < 300:
        family, action = "Allow partner", {"allow": {}, "block": None}
    else:
        family = "Block scanner" if index < 550 else "Block abuse"
        block = {"status_code": (403, 405, 418, 429)[index % 4]}
        if index % 3:
            block["action_duration"] = ("30", "60s", "12h", "1d")[index % 4]
        action = {"allow": None, "block": block}
    if index % 3 == 0:
        condition = {"ip_range": {"lower_bound": "198.51.%d.0" % (index % 250), "upper_bound": "198.51.%d.255" % (index % 250),
                                  "negation": index % 10 == 0}}
    elif index % 3 == 1:
        condition = {"ip": {"ip_address": "203.0.%d.%d" % (index // 250, index % 250 + 1), "negation": False}}
    else:
        condition = {"ip": {"ip_address": "2001:db8::%x" % index, "negation": index % 20 == 2}}
    rule = {"id": FIRST_FIREWALL_ID + index, "name": "%s %04d" % (family, index)}
    if index % 7:
        rule["description"] = "Seeded firewall rule %d on %s" % (index, DOMAINS[domain_id])
    rule.update(enabled=index % 4 != 3, action=action, conditions=[condition], domain={"id": domain_id, "name": DOMAINS[domain_id]})
    return rule


def seeded_custom_rules():
    def user_agent(text):
        return {"user_agent": {"user_agent": text, "match_type": "Contains", "negation": False}}
    rules = {domain_id: [] for domain_id in DOMAINS}
    rules[1001] = [
        {"id": 5001, "name": "Block bad bots", "description": "Known bad user agents", "enabled": True,
         "action": {"block": {"status_code": 403, "action_duration": "1h"}}, "conditions": [user_agent("badbot")]},
        {"id": 5002, "name": "Allow office", "enabled": True, "action": {"allow": {}},
         "conditions": [{"ip_range": {"lower_bound": "192.0.2.0", "upper_bound": "192.0.2.255", "negation": False}}]},
        {"id": 5003, "name": "Block scrapers legacy", "description": "Old scraper rule", "enabled": False,
         "action": {"monitor": {}}, "conditions": [user_agent("scrapy"), {"http_method": {"http_method": "GET", "negation": False}}]},
        {"id": 5004, "name": "Tag API clients", "enabled": True, "action": {"tag": {"tags": ["api"]}},
         "conditions": [{"header_exists": {"header": "X-Api-Client", "negation": False}}]},
    ]
    rules[1002] = [
        {"id": 5005, "name": "Rate limit login", "enabled": True, "action": {"captcha": {}},
         "conditions": [{"request_rate": {"path_pattern": "^/login", "requests": 50, "time": 60, "http_methods": ["POST"]}}]},
    ]
    for number in range(1, BULK_RULES + 1):
        rules[BULK_DOMAIN].append({
            "id": 6000 + number, "name": "Bulk rule %03d" % number, "enabled": number % 3 != 0,
            "action": {"block": {"status_code": 403}} if number % 2 else {"allow": {}},
            "conditions": [{"ip": {"ip_address": "198.51.100.%d" % (number % 250), "negation": False}}],
        })
    return rules


def generated_custom_rule(number):
    """The body of generated custom rule ``number`` (``seed_rules``): six families of realistic rules."""
    family = number % 6
    name, action, conditions = [
        ("Block bad bot %04d", {"block": {"status_code": 403, "action_duration": "1h"}},
         [{"user_agent": {"user_agent": "badbot-%d" % number}}]),
        ("Allow office network %04d", {"allow": {}},
         [{"ip_range": {"lower_bound": "10.%d.%d.0" % (number // 250 % 250, number % 250),
                        "upper_bound": "10.%d.%d.255" % (number // 250 % 250, number % 250)}}]),
        ("Captcha login burst %04d", {"captcha": {}},
         [{"request_rate": {"path_pattern": "^/login/%d" % number, "requests": 20 + number % 80, "time": 60}}]),
        ("Monitor country traffic %04d", {"monitor": {}},
         [{"country": {"country_code": [("DE", "FR", "NL", "BR", "JP")[number % 5]]}}, {"http_method": {"http_method": "POST"}}]),
        ("Tag API clients %04d", {"tag": {"tags": ["api"]}}, [{"header": {"header": "X-Client-Id", "value": "client-%d" % number}}]),
        ("Handshake admin path %04d", {"handshake": {}}, [{"url": {"url": "/admin/%d" % number, "match_type": "Exact"}}]),
    ][family]
    body = {"name": name % number, "enabled": number % 5 != 0, "action": action, "conditions": conditions}
    if number % 4:
        body["description"] = "Generated rule %d" % number
    return body


def generated_firewall_rule(number):
    """The body of generated firewall rule ``number`` (``seed_rules``)."""
    if number % 3 == 0:
        name, action = "Allow monitoring probe %04d", {"allow": {}}
    else:
        name, action = "Block attacker %04d", {"block": {"status_code": 403, "action_duration": "%dm" % (number % 59 + 1)}}
    if number % 2:
        condition = {"ip": {"ip_address": "203.0.113.%d" % (number % 254 + 1) if number % 4 == 1 else "2001:db8:1::%x" % number}}
    else:
        condition = {"ip_range": {"lower_bound": "172.16.%d.0" % (number % 250), "upper_bound": "172.16.%d.255" % (number % 250)}}
    body = {"name": name % number, "enabled": number % 7 != 0, "action": action, "conditions": [condition]}
    if number % 4:
        body["description"] = "Generated firewall rule %d" % number
    return body


# ---- routes ----------------------------------------------------------------------------------

RULES_PATH = r"/waap/v1/domains/(?P<domain_id>[^/]+)/custom-rules"
RULE_PATH = RULES_PATH + r"/(?P<rule_id>[^/]+)"
FIREWALL_PATH = r"/waap/v1/domains/(?P<domain_id>[^/]+)/firewall-rules"
FIREWALL_RULE_PATH = FIREWALL_PATH + r"/(?P<rule_id>[^/]+)"
V2_DOMAIN = r"/waap/v2/domains/(?P<domain_id>[^/]+)"
CUSTOM_ACTIONS = ("allow", "block", "captcha", "handshake", "monitor", "tag")
QUOTA_DETAIL = "You have reached the maximum limit allowed for your current plan. Please upgrade your plan to add more."


def without_domain(rule):
    """A firewall rule as a domain's list shows it (``FirewallRuleResponse``: no ``domain``)."""
    return dict((key, copy.deepcopy(value)) for key, value in rule.items() if key != "domain")


def toggle_state(request):
    state = request.params["action"]
    if state not in ("enable", "disable"):
        raise ApiFailure(422, VALIDATION_DETAIL, title=VALIDATION_TITLE,
                         errors=[{"loc": ["path", "action"], "detail": "Input should be 'enable' or 'disable'"}])
    return state == "enable"


from simulator.resources.waap_advanced import WaapAdvancedRules  # noqa: E402  pylint: disable=wrong-import-position  # they read
from simulator.resources.waap_domains import WaapDomains  # noqa: E402  pylint: disable=wrong-import-position  # the helpers above
from simulator.resources.waap_overrides import WaapPolicyOverrides  # noqa: E402  pylint: disable=wrong-import-position


class Waap(WaapDomains, WaapAdvancedRules, WaapPolicyOverrides, Resource):
    NAME = "waap"
    STATE = ("custom_rules", "firewall_rules", "waap_domains", "waap_settings", "waap_policy_modes", "advanced_rules", "policy_overrides")
    SEEDS = {"domains": dict((name, domain_id) for domain_id, name in DOMAINS.items()), "bulk_domain_id": BULK_DOMAIN,
             "empty_domain_id": EMPTY_DOMAIN}
    SETTINGS = {
        # per domain: a create beyond it answers 403 "Quota limit exceeded" (none by default)
        "waap_rule_quota": ({}, control.record({"custom_rules": control.integer(low=0), "firewall_rules": control.integer(low=0)})),
    }
    CONTROLS = {"waap_rules": "seed_rules"}
    ROUTES = (
        Route("GET", r"/waap/v2/firewall-rules", "firewall_rules"),
        Route("GET", RULES_PATH, "list_rules"),
        Route("POST", RULES_PATH, "create_rule"),
        Route("POST", RULES_PATH + "/bulk_delete", "bulk_delete_rules"),
        Route("GET", RULE_PATH, "get_rule"),
        Route("PATCH", RULE_PATH, "patch_rule"),
        Route("DELETE", RULE_PATH, "delete_rule"),
        Route("PATCH", RULE_PATH + r"/(?P<action>[^/]+)", "toggle_rule"),
        Route("GET", FIREWALL_PATH, "list_firewall_rules"),
        Route("POST", FIREWALL_PATH, "create_firewall_rule"),
        Route("POST", FIREWALL_PATH + "/bulk_delete", "bulk_delete_firewall_rules"),
        Route("GET", FIREWALL_RULE_PATH, "get_firewall_rule"),
        Route("PATCH", FIREWALL_RULE_PATH, "patch_firewall_rule"),
        Route("DELETE", FIREWALL_RULE_PATH, "delete_firewall_rule"),
        Route("PATCH", FIREWALL_RULE_PATH + r"/(?P<action>[^/]+)", "toggle_firewall_rule"),
        # v2 (SDK 0.59, docs/api_reference.md section 18.7): update, toggle and bulk delete answer 200 with a body
        Route("PATCH", V2_DOMAIN + r"/custom-rules/(?P<rule_id>[^/]+)", "patch_rule_v2"),
        Route("PATCH", V2_DOMAIN + r"/custom-rules/(?P<rule_id>[^/]+)/(?P<action>[^/]+)", "toggle_rule_v2"),
        Route("POST", V2_DOMAIN + r"/custom-rules/bulk_delete", "bulk_delete_rules_v2"),
        Route("PATCH", V2_DOMAIN + r"/firewall-rules/(?P<rule_id>[^/]+)", "patch_firewall_rule_v2"),
        Route("PATCH", V2_DOMAIN + r"/firewall-rules/(?P<rule_id>[^/]+)/(?P<action>[^/]+)", "toggle_firewall_rule_v2"),
        Route("POST", V2_DOMAIN + r"/firewall-rules/bulk_delete", "bulk_delete_firewall_rules_v2"),
    ) + WaapDomains.DOMAIN_ROUTES + WaapAdvancedRules.ADVANCED_ROUTES + WaapPolicyOverrides.OVERRIDE_ROUTES

    def reset(self):
        self.reset_domains()
        self.reset_advanced()
        self.reset_overrides()
        self.sim.firewall_rules = [firewall_rule(index) for index in range(FIREWALL_RULE_COUNT)]
        self.sim.firewall_rule_next_id = FIRST_FIREWALL_ID + FIREWALL_RULE_COUNT
        self.sim.custom_rules = seeded_custom_rules()
        self.sim.custom_rule_next_id = FIRST_CUSTOM_ID

    # ---- shared ---------------------------------------------------------------------------------
    def domain_of(self, request):
        domain_id = path_int(request.params["domain_id"], "domain_id", low=1)
        if domain_id not in self.sim.waap_domains:
            raise ApiFailure(404, "Domain %s not found" % domain_id, title="Not Found")
        return domain_id

    def check_quota(self, kind, count):
        limit = self.sim.config["waap_rule_quota"].get(kind)
        if limit is not None and count >= limit:
            raise ApiFailure(403, QUOTA_DETAIL, title="Quota limit exceeded")

    @staticmethod
    def check_known(domain_id, rules, rule_ids, what):
        """All or nothing: an id that is not a rule of the domain answers 404 naming every such id."""
        missing = sorted(rule_ids - set(rule["id"] for rule in rules))
        if missing:
            raise ApiFailure(404, "%s %s not found in domain %s" % (what, ", ".join(str(rule_id) for rule_id in missing), domain_id),
                             title="Not Found")

    # ---- account-wide firewall rules ------------------------------------------------------------
    def firewall_rules(self, request):
        raw_ids = request.query.get("domain_ids") or []
        domain_ids = set()
        for index, raw in enumerate(raw_ids):
            try:
                domain_ids.add(int(raw))
            except ValueError:
                raise ApiFailure(422, VALIDATION_DETAIL, title=VALIDATION_TITLE, errors=[
                    {"loc": ["query", "domain_ids", index], "detail": "Input should be a valid integer, unable to parse string as an integer"}])
        return list_page(request, self.sim.firewall_rules, ("allow", "block"),
                         (lambda rule: rule["domain"]["id"] in domain_ids) if domain_ids else None)

    # ---- custom rules ---------------------------------------------------------------------------
    def domain_rules(self, request):
        domain_id = self.domain_of(request)
        return domain_id, self.sim.custom_rules.setdefault(domain_id, [])

    def find_rule(self, request):
        domain_id, rules = self.domain_rules(request)
        rule_id = path_int(request.params["rule_id"], "rule_id")
        for rule in rules:
            if rule["id"] == rule_id:
                return rules, rule
        raise ApiFailure(404, "Custom rule %s not found in domain %s" % (rule_id, domain_id), title="Not Found")

    def list_rules(self, request):
        return list_page(request, self.domain_rules(request)[1], CUSTOM_ACTIONS)

    def get_rule(self, request):
        return copy.deepcopy(self.find_rule(request)[1])

    def create_rule(self, request):
        rules = self.domain_rules(request)[1]
        kept = validate_rule(request.json, RULE_FIELDS)
        self.check_quota("custom_rules", len(rules))
        return Response(201, copy.deepcopy(self.add_custom_rule(rules, kept)))

    def add_custom_rule(self, rules, kept):
        rule = dict(kept, id=self.sim.custom_rule_next_id)
        self.sim.custom_rule_next_id += 1
        rules.append(rule)
        return rule

    def patch_rule(self, request):
        rule = self.find_rule(request)[1]
        kept = validate_rule(request.json, UPDATE_FIELDS)
        rule.update(kept)
        return Response(204)

    def delete_rule(self, request):
        rules, rule = self.find_rule(request)
        rules.remove(rule)
        return Response(204)

    def toggle_rule(self, request):
        enabled = toggle_state(request)
        self.find_rule(request)[1]["enabled"] = enabled
        return Response(204)

    def bulk_delete_rules(self, request):
        self.delete_rules(request)
        return Response(204)

    def delete_rules(self, request):
        """The ids of a bulk delete, deleted (all or nothing); returns them sorted."""
        domain_id, rules = self.domain_rules(request)
        rule_ids = validate_bulk_delete(request.json)
        self.check_known(domain_id, rules, rule_ids, "Custom rules")
        rules[:] = [rule for rule in rules if rule["id"] not in rule_ids]
        return sorted(rule_ids)

    # v2: the same writes, answering what they did (WaapCustomRule, {enabled}, {deleted_ids})
    def patch_rule_v2(self, request):
        self.patch_rule(request)
        return self.get_rule(request)

    def toggle_rule_v2(self, request):
        self.toggle_rule(request)
        return {"enabled": self.find_rule(request)[1]["enabled"]}

    def bulk_delete_rules_v2(self, request):
        return {"deleted_ids": self.delete_rules(request)}

    # ---- a domain's firewall rules (one store with the account-wide list) ------------------------
    def domain_firewall_rules(self, request):
        domain_id = self.domain_of(request)
        return domain_id, [rule for rule in self.sim.firewall_rules if rule["domain"]["id"] == domain_id]

    def find_firewall_rule(self, request):
        domain_id, rules = self.domain_firewall_rules(request)
        rule_id = path_int(request.params["rule_id"], "rule_id")
        for rule in rules:
            if rule["id"] == rule_id:
                return rule
        raise ApiFailure(404, "Firewall rule %s not found in domain %s" % (rule_id, domain_id), title="Not Found")

    def list_firewall_rules(self, request):
        return list_page(request, self.domain_firewall_rules(request)[1], ("allow", "block"), hidden=("domain",))

    def get_firewall_rule(self, request):
        return without_domain(self.find_firewall_rule(request))

    def create_firewall_rule(self, request):
        domain_id, rules = self.domain_firewall_rules(request)
        kept = validate_firewall_rule(request.json)
        self.check_quota("firewall_rules", len(rules))
        return Response(201, without_domain(self.add_firewall_rule(domain_id, kept)))

    def add_firewall_rule(self, domain_id, kept):
        rule = dict(kept, id=self.sim.firewall_rule_next_id, domain={"id": domain_id, "name": self.sim.waap_domains[domain_id]["name"]})
        self.sim.firewall_rule_next_id += 1
        self.sim.firewall_rules.append(rule)
        return rule

    def patch_firewall_rule(self, request):
        rule = self.find_firewall_rule(request)
        rule.update(validate_firewall_rule(request.json, update=True))
        return Response(204)

    def delete_firewall_rule(self, request):
        self.sim.firewall_rules.remove(self.find_firewall_rule(request))
        return Response(204)

    def toggle_firewall_rule(self, request):
        enabled = toggle_state(request)
        self.find_firewall_rule(request)["enabled"] = enabled
        return Response(204)

    def bulk_delete_firewall_rules(self, request):
        self.delete_firewall_rules(request)
        return Response(204)

    def delete_firewall_rules(self, request):
        domain_id, rules = self.domain_firewall_rules(request)
        rule_ids = validate_bulk_delete(request.json)
        self.check_known(domain_id, rules, rule_ids, "Firewall rules")
        self.sim.firewall_rules = [rule for rule in self.sim.firewall_rules
                                   if rule["domain"]["id"] != domain_id or rule["id"] not in rule_ids]
        return sorted(rule_ids)

    def patch_firewall_rule_v2(self, request):
        self.patch_firewall_rule(request)
        return self.get_firewall_rule(request)

    def toggle_firewall_rule_v2(self, request):
        self.toggle_firewall_rule(request)
        return {"enabled": self.find_firewall_rule(request)["enabled"]}

    def bulk_delete_firewall_rules_v2(self, request):
        return {"deleted_ids": self.delete_firewall_rules(request)}

    # ---- control: a domain with many rules on demand --------------------------------------------
    def seed_rules(self, body):
        """``POST /_sim/waap_rules {domain_id, custom_rules: n, firewall_rules: n}``: the domain's rules of each
        kind given become n generated rules (realistic, unique names; new ids). Answers the domain's counts."""
        control.record({"domain_id": control.integer(low=1), "custom_rules": control.integer(low=0),
                        "firewall_rules": control.integer(low=0)}, required=("domain_id",))("waap_rules", body)
        domain_id = body["domain_id"]
        if domain_id not in self.sim.waap_domains:
            raise control.ControlError("waap_rules.domain_id: no WAAP domain %s (known: %s)"
                                       % (domain_id, ", ".join(str(key) for key in sorted(self.sim.waap_domains))))
        if "custom_rules" not in body and "firewall_rules" not in body:
            raise control.ControlError("waap_rules: give custom_rules or firewall_rules (how many rules to seed)")
        for kind in ("custom_rules", "firewall_rules"):
            if body.get(kind, 0) > SEED_MAX:
                raise control.ControlError("waap_rules.%s must be at most %s, not %s" % (kind, SEED_MAX, body[kind]))
        if "custom_rules" in body:
            rules = self.sim.custom_rules[domain_id] = []
            for number in range(1, body["custom_rules"] + 1):
                self.add_custom_rule(rules, validate_rule(generated_custom_rule(number), RULE_FIELDS))
        if "firewall_rules" in body:
            self.sim.firewall_rules = [rule for rule in self.sim.firewall_rules if rule["domain"]["id"] != domain_id]
            for number in range(1, body["firewall_rules"] + 1):
                self.add_firewall_rule(domain_id, validate_firewall_rule(generated_firewall_rule(number)))
        return {"domain_id": domain_id, "custom_rules": len(self.sim.custom_rules.get(domain_id, [])),
                "firewall_rules": sum(1 for rule in self.sim.firewall_rules if rule["domain"]["id"] == domain_id)}
