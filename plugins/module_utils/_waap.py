# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""WAAP helpers shared by the firewall and custom-rule modules.

This module is internal to the collection: its interface may change at any time.

One table, ``CONDITION_KINDS``, describes the 18 custom-rule condition kinds (API_NOTES section 9.2):
the argument spec, the validation before any request and the normalisation before a comparison are
all derived from it, so the three cannot drift apart.
"""

from __future__ import annotations

import ipaddress
import json
import re

from ansible_collections.gcore.platform.plugins.module_utils._base import (
    ValidationError,
    check_length,
    check_not_blank,
    check_pattern,
    check_range,
    require,
    strip_none,
)
from ansible_collections.gcore.platform.plugins.module_utils._resource import SET_STATES, GcoreResourceModule, Member

# WAAP lists: limit 0-100 (we ask for at least 1), offset 0-100000.
PAGE_SIZE = 100
MAX_OFFSET = 100000

ORDERING_FIELDS = ("id", "name", "description", "enabled", "action")
ORDERING = list(ORDERING_FIELDS) + ["-%s" % field for field in ORDERING_FIELDS]
FIREWALL_ACTIONS = ["allow", "block"]
RULE_ACTIONS = ["allow", "block", "captcha", "handshake", "monitor", "tag"]
# A domain's firewall rule (API_NOTES section 12.1): exactly one condition, of one of these kinds.
FIREWALL_CONDITIONS = ("ip", "ip_range")

# Every pattern is matched against the whole value (check_pattern uses re.fullmatch). NAME_PATTERN is matched with
# re.ASCII: its \s means space, tab and line breaks, not the control characters \x1c-\x1f Python counts as whitespace.
NAME_PATTERN = r"^[A-Za-z0-9\s.:'\";<>?&|\\]+$"
NAME_RULE = "the allowed characters (ASCII letters, digits, whitespace and . : ' \" ; < > ? & | \\)"
STATUS_CODES = [403, 405, 418, 429]
DURATION_PATTERN = r"^[1-9][0-9]*[smhd]?$"
HTTP_METHODS = ["CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "TRACE"]
OWNER_TYPES = ["COMMERCIAL", "EDUCATIONAL", "GOVERNMENT", "HOSTING_SERVICES", "ISP", "MOBILE_NETWORK", "NETWORK", "RESERVED"]
HEADER_PATTERN = r"^[a-zA-Z0-9-]+$"
# The spec's pattern for header values, verbatim ("9-_" is a range, as in the service).
HEADER_VALUE_PATTERN = r"^[a-zA-Z0-9-_ :;.\/\"'?!(){}\[\]@<>=\-\+\*#$&`|~^%]+$"
URL_PATTERN = r"^[\w!\$~:#\[\]@\(\)*\+,=\/\-\.\%]+$"
USER_TAG_PATTERN = r"^[a-zA-Z]+[ a-zA-Z0-9]*$"
LOOKAROUND = re.compile(r"\(\?<?[=!]")

# Service defaults filled into conditions (API_NOTES section 9.4).
DEFAULT_MATCH_TYPE = "Contains"
DEFAULT_OWNER_TYPES = ["COMMERCIAL"]
NO_NEGATION = ("request_rate",)


def _member(kind="str", required=False, **rules):
    """One member of a condition kind: its Ansible type plus the rules checked before any request.

    rules: ``length`` (low, high) of a string, ``pattern`` (regex, rule text), ``ip`` (an IP address),
    ``choices``, ``elements`` (list item type), ``items`` (low, high) list size, ``item_length``,
    ``item_pattern``, ``item_ip``, ``range`` (low, high) of an int.
    """
    return dict(rules, type=kind, required=required)


HEADER = _member(required=True, length=(1, 50), pattern=(HEADER_PATTERN, "the header name characters (letters, digits and -)"))
HEADER_VALUE = _member(required=True, length=(1, 100), pattern=(HEADER_VALUE_PATTERN, "the header value characters (printable ASCII)"))

CONDITION_KINDS = {
    "ip": dict(ip_address=_member(required=True, ip=True)),
    "ip_range": dict(lower_bound=_member(required=True, ip=True), upper_bound=_member(required=True, ip=True)),
    "url": dict(url=_member(required=True, length=(1, 500)), match_type=_member(choices=["Exact", "Contains", "Regex"])),
    "user_agent": dict(user_agent=_member(required=True, length=(0, 300)), match_type=_member(choices=["Exact", "Contains"])),
    "header": dict(header=HEADER, value=HEADER_VALUE, match_type=_member(choices=["Exact", "Contains"])),
    "header_exists": dict(header=HEADER),
    "response_header": dict(header=HEADER, value=HEADER_VALUE, match_type=_member(choices=["Exact", "Contains"])),
    "response_header_exists": dict(header=HEADER),
    "http_method": dict(http_method=_member(required=True, choices=HTTP_METHODS)),
    "file_extension": dict(file_extension=_member("list", True, elements="str", items=(1, 20), item_length=(1, 10),
                                                  # the spec's pattern is "[a-z0-9]+$", unanchored at the start: ".pdf" would pass
                                                  item_pattern=(r"^[a-z0-9]+$", "an extension without its dot (lower-case letters and digits)"))),
    "content_type": dict(content_type=_member("list", True, elements="str", items=(1, 10), item_length=(1, 50))),
    "country": dict(country_code=_member("list", True, elements="str", items=(1, 100),
                                         # the spec's "^\w{2}$" also lets "de" or "1_" through; ISO 3166-1 alpha-2 codes are upper case
                                         item_pattern=(r"^[A-Z]{2}$", "an ISO 3166-1 alpha-2 code, two upper-case letters such as DE"))),
    "organization": dict(organization=_member(required=True, length=(0, 100))),
    "owner_types": dict(owner_types=_member("list", elements="str", choices=OWNER_TYPES, items=(1, None))),
    "tags": dict(tags=_member("list", True, elements="str", items=(1, 5))),
    "session_request_count": dict(request_count=_member("int", True, range=(1, None))),
    "user_defined_tags": dict(tags=_member("list", True, elements="str", items=(1, 10), item_length=(1, 50),
                                           item_pattern=(USER_TAG_PATTERN, "the tag pattern (a letter first, then letters, digits and spaces)"))),
    "request_rate": dict(
        path_pattern=_member(required=True, length=(1, 500)),
        requests=_member("int", True, range=(20, None)),
        time=_member("int", True, range=(1, 3600)),
        ips=_member("list", elements="str", items=(0, 10), item_ip=True),
        http_methods=_member("list", elements="str", choices=HTTP_METHODS),
        user_defined_tag=_member(length=(1, 50), pattern=(USER_TAG_PATTERN, "the tag pattern (a letter first, then letters, digits and spaces)")),
    ),
}
MATCH_TYPE_KINDS = tuple(kind for kind, members in CONDITION_KINDS.items() if "match_type" in members)
IP_MEMBERS = ("ip_address", "lower_bound", "upper_bound")


def condition_argument_spec(kinds=None):
    """The Ansible spec of one condition: one optional dict per kind (exactly one is checked later).

    ``kinds``: the kinds allowed (every kind of CONDITION_KINDS by default; a firewall rule takes FIREWALL_CONDITIONS)."""
    spec = {}
    for kind, members in CONDITION_KINDS.items():
        if kinds is not None and kind not in kinds:
            continue
        options = {}
        for name, member in members.items():
            option = dict(type=member["type"])
            if member["required"]:
                option["required"] = True
            if member.get("elements"):
                option["elements"] = member["elements"]
            if member.get("choices"):
                option["choices"] = list(member["choices"])
            options[name] = option
        if kind not in NO_NEGATION:
            options["negation"] = dict(type="bool")
        spec[kind] = dict(type="dict", options=options)
    return spec


def action_argument_spec(kinds=None):
    """The Ansible spec of an action: one optional dict per kind (``kinds``: RULE_ACTIONS by default)."""
    spec = dict(
        allow=dict(type="dict"),
        block=dict(type="dict", options=dict(
            status_code=dict(type="int", choices=list(STATUS_CODES)),
            action_duration=dict(type="str"),
        )),
        captcha=dict(type="dict"),
        handshake=dict(type="dict"),
        monitor=dict(type="dict"),
        tag=dict(type="dict", options=dict(tags=dict(type="list", elements="str", required=True))),
    )
    return dict((kind, option) for kind, option in spec.items() if kind in (kinds or RULE_ACTIONS))


def rule_argument_spec(firewall=False):
    """The options of one rule (a custom rule, or with ``firewall`` a domain's firewall rule): name, description,
    enabled, action, conditions. The single-rule module and the items of the set modules' ``config`` share it."""
    return dict(
        name=dict(type="str"),
        description=dict(type="str"),
        enabled=dict(type="bool"),
        action=dict(type="dict", options=action_argument_spec(FIREWALL_ACTIONS if firewall else RULE_ACTIONS)),
        conditions=dict(type="list", elements="dict", options=condition_argument_spec(FIREWALL_CONDITIONS if firewall else None)),
    )


# ---- validation (before any request) ---------------------------------------------------------

def _check_ip(option, value):
    try:
        ipaddress.ip_address(value)
    except ValueError:
        raise ValidationError("%s: %r is not an IPv4 or IPv6 address" % (option, value))


def _check_member(option, value, member):
    if value is None:
        return
    if member.get("length"):
        check_length(option, value, *member["length"])
    if member.get("pattern"):
        check_pattern(option, value, member["pattern"][0], member["pattern"][1])
    if member.get("ip"):
        _check_ip(option, value)
    if member.get("range"):
        check_range(option, value, *member["range"])
    if member["type"] == "list":
        low, high = member.get("items") or (None, None)
        size = len(value)
        if (low is not None and size < low) or (high is not None and size > high):
            bound = "%s to %s" % (low, high) if high is not None else "at least %s" % low
            raise ValidationError("%s: %s items given (must be %s)" % (option, size, bound))
        for index, item in enumerate(value):
            item_option = "%s[%d]" % (option, index)
            if member.get("item_length"):
                check_length(item_option, item, *member["item_length"])
            if member.get("item_pattern"):
                check_pattern(item_option, item, member["item_pattern"][0], member["item_pattern"][1])
            if member.get("item_ip"):
                _check_ip(item_option, item)


def _given(names):
    return "%s given: %s" % (len(names), ", ".join(names)) if names else "none given"


def validate_condition(option, condition, kinds=None):
    given = [kind for kind, value in (condition or {}).items() if value is not None]
    require(len(given) == 1, option, "exactly one condition kind must be set (%s); kinds are %s"
            % (_given(given), ", ".join(kinds or CONDITION_KINDS)))
    kind = given[0]
    members = condition[kind]
    for name, member in CONDITION_KINDS[kind].items():
        _check_member("%s.%s.%s" % (option, kind, name), members.get(name), member)
    if kind == "url":
        url = members.get("url")
        url_option = "%s.url.url" % option
        if (members.get("match_type") or DEFAULT_MATCH_TYPE) == "Regex":
            require(not LOOKAROUND.search(url), url_option, "a Regex url must not use lookahead or lookbehind")
            try:
                re.compile(url)
            except re.error as exc:
                raise ValidationError("%s: %r is not a valid regular expression (%s)" % (url_option, url, exc))
        else:
            check_pattern(url_option, url, URL_PATTERN,
                          "the URL characters allowed with match_type Exact or Contains (letters, digits and _ ! $ ~ : # [ ] @ ( ) * + , = / - . %)")
    if kind == "ip_range":
        validate_ip_range("%s.ip_range" % option, members.get("lower_bound"), members.get("upper_bound"))
    if kind in NO_NEGATION:
        require("negation" not in members, "%s.%s.negation" % (option, kind), "%s takes no negation" % kind)


def validate_ip_range(option, lower, upper):
    """Both bounds of one family, the lower one not above the upper one (API_NOTES section 12.1)."""
    if lower is None or upper is None:
        return
    low, high = ipaddress.ip_address(lower), ipaddress.ip_address(upper)  # both checked as addresses already
    require(low.version == high.version, option,
            "lower_bound %s and upper_bound %s must be of one family (both IPv4 or both IPv6)" % (lower, upper))
    require(low <= high, option, "lower_bound %s is above upper_bound %s" % (lower, upper))


def validate_conditions(option, conditions, firewall=False):
    """1 to 5 conditions (a firewall rule: exactly one, ip or ip_range), each with exactly one kind."""
    if conditions is None:
        return
    if firewall:
        require(len(conditions) == 1, option, "a firewall rule takes exactly 1 condition, ip or ip_range (%s given)" % len(conditions))
    require(1 <= len(conditions) <= 5, option, "1 to 5 conditions are required (%s given)" % len(conditions))
    for index, condition in enumerate(conditions):
        validate_condition("%s[%d]" % (option, index), condition, FIREWALL_CONDITIONS if firewall else None)


def validate_action(option, action, kinds=None):
    if action is None:
        return
    given = [kind for kind, value in action.items() if value is not None]
    require(len(given) == 1, option, "exactly one of %s must be set (%s)" % (", ".join(kinds or RULE_ACTIONS), _given(given)))
    block = action.get("block")
    if block:
        duration = block.get("action_duration")
        check_length("%s.block.action_duration" % option, duration, 1, 10)
        check_pattern("%s.block.action_duration" % option, duration, DURATION_PATTERN,
                      "^[1-9][0-9]*[smhd]?$ (a number of seconds, or a number followed by s, m, h or d)")
    tag = action.get("tag")
    if tag:
        tags = tag.get("tags") or []
        require(1 <= len(tags) <= 5, "%s.tag.tags" % option, "1 to 5 tags are required (%s given)" % len(tags))


def validate_rule_name(option, name):
    check_length(option, name, 1, 100)
    check_not_blank(option, name)
    check_pattern(option, name, NAME_PATTERN, NAME_RULE, flags=re.ASCII)


def validate_rule(rule, prefix="", firewall=False):
    """Every documented limit of one rule given as options; errors name ``prefix`` + the option
    (``config[3].conditions[0].ip.ip_address``)."""
    validate_rule_name(prefix + "name", rule.get("name"))
    check_length(prefix + "description", rule.get("description"), 0, 100)
    validate_action(prefix + "action", rule.get("action"), FIREWALL_ACTIONS if firewall else RULE_ACTIONS)
    validate_conditions(prefix + "conditions", rule.get("conditions"), firewall)


# ---- normalisation and comparison ------------------------------------------------------------

def _canonical_ip(value):
    try:
        return str(ipaddress.ip_address(value))
    except (TypeError, ValueError):
        return value


def normalise_condition(condition):
    """One condition with the service's defaults filled in and its IP addresses in canonical form.

    ``negation: false`` (every kind but request_rate), ``match_type: Contains`` and
    ``owner_types: [COMMERCIAL]``: what the service stores when they are left out.
    """
    condition = strip_none(condition or {})
    normalised = {}
    for kind, members in condition.items():
        members = dict(members or {})
        if kind not in NO_NEGATION:
            members.setdefault("negation", False)
        if kind in MATCH_TYPE_KINDS:
            members.setdefault("match_type", DEFAULT_MATCH_TYPE)
        if kind == "owner_types":
            members.setdefault("owner_types", list(DEFAULT_OWNER_TYPES))
        for name in IP_MEMBERS:
            if name in members:
                members[name] = _canonical_ip(members[name])
        if isinstance(members.get("ips"), list):
            members["ips"] = [_canonical_ip(item) for item in members["ips"]]
        normalised[kind] = members
    return normalised


def normalise_conditions(conditions):
    return [normalise_condition(condition) for condition in conditions or []]


def _canonical(value):
    """A comparable form: dict keys sorted, lists of scalars sorted (they are sets to the service)."""
    if isinstance(value, dict):
        return dict((key, _canonical(item)) for key, item in value.items())
    if isinstance(value, list):
        items = [_canonical(item) for item in value]
        if all(not isinstance(item, (dict, list)) for item in items):
            return sorted(items, key=lambda item: (type(item).__name__, item))
        return items
    return value


def _key(value):
    return json.dumps(_canonical(value), sort_keys=True)


def same_conditions(desired, current):
    """Whether two condition lists match after normalisation (the order of conditions does not matter)."""
    return (sorted(_key(item) for item in normalise_conditions(desired))
            == sorted(_key(item) for item in normalise_conditions(current)))


def normalise_action(action):
    """The one action member set, as ``{kind: members}`` (null members dropped)."""
    action = strip_none(action or {})
    return dict((kind, dict(members or {})) for kind, members in action.items())


def action_matches(desired, current):
    """Whether the current action satisfies the desired one.

    The kinds must be equal; inside, only the members the user gave are compared (a block action's
    status_code or action_duration left out accepts whatever the service holds).
    """
    desired = normalise_action(desired)
    current = normalise_action(current)
    if set(desired) != set(current):
        return False
    for kind, members in desired.items():
        held = current[kind]
        for name, value in members.items():
            if _key(held.get(name)) != _key(value):
                return False
    return True


def action_to_send(desired, current):
    """The action for a PATCH: the desired one, keeping the unmanaged members the service holds for the same kind."""
    desired = normalise_action(desired)
    current = normalise_action(current)
    return dict((kind, dict(current.get(kind) or {}, **members) if kind == "block" else members)
                for kind, members in desired.items())


def same_description(desired, current):
    """A missing, null and empty description are one value."""
    return (desired or "") == (current or "")


def list_params(params, names):
    """The list-filter query of a WAAP list: only the filters given, booleans as lower-case text."""
    query = {}
    for name in names:
        value = params.get(name)
        if value is None or value == []:
            continue
        query[name] = ("true" if value else "false") if isinstance(value, bool) else value
    return query


# The members of a custom rule: how the service shows them, what the options ask for, how the two compare.
# The single-rule module and the rule-set module both compare through these.
CUSTOM_RULE_MEMBERS = (
    Member("name"),
    Member("description", read=lambda record: record.get("description") or "", same=same_description, reset=""),
    Member("enabled", created=True, reset=True),
    Member("action", read=lambda record: normalise_action(record.get("action")), want=lambda value, record: normalise_action(value),
           same=action_matches, send=action_to_send),
    Member("conditions", read=lambda record: normalise_conditions(record.get("conditions")),
           want=lambda value, record: normalise_conditions(value), same=same_conditions),
)


def custom_rule_body(rule):
    """The create body of one custom rule given as the module's options."""
    body = {
        "name": rule["name"],
        "enabled": True if rule.get("enabled") is None else rule["enabled"],
        "action": strip_none(rule["action"]),
        "conditions": normalise_conditions(rule["conditions"]),
    }
    if rule.get("description") is not None:
        body["description"] = rule["description"]
    return body


def gathered_rule(record):
    """One rule as read, in the shape of a ``config`` item: no id, the service's defaults written out, null members
    left out. Given back as ``config`` it compares equal to the rule."""
    item = {"name": record.get("name")}
    if record.get("description") is not None:
        item["description"] = record["description"]
    item.update(enabled=record.get("enabled"), action=normalise_action(record.get("action")),
                conditions=normalise_conditions(record.get("conditions")))
    return strip_none(item)


def rule_set_argument_spec(firewall=False):
    """The options of a set module: ``domain_id``, ``config`` (items: the options of one rule, ``name`` required), ``state``."""
    item = rule_argument_spec(firewall)
    item["name"] = dict(type="str", required=True)
    return dict(
        domain_id=dict(type="int", required=True),
        config=dict(type="list", elements="dict", options=item),
        state=dict(type="str", choices=list(SET_STATES), default="merged"),
    )


class WaapRuleSet(GcoreResourceModule):
    """A domain's WAAP rules as a set compared by exact name (``waap_custom_rules``, ``waap_firewall_rules``).

    A module sets ``collection`` (the path segment), ``firewall``, ``noun`` and ``result_key``; the per-rule
    semantics are the single-rule module's: CUSTOM_RULE_MEMBERS, the same validation and bodies."""

    firewall = False
    collection = "custom-rules"
    module_kwargs = dict(required_if=[("state", state, ["config"]) for state in SET_STATES if state != "gathered"])
    scope = "domain {domain_id}"
    page_size = PAGE_SIZE
    max_offset = MAX_OFFSET
    members = CUSTOM_RULE_MEMBERS
    required_to_create = ("action", "conditions")
    create_ok = (201,)
    update_ok = (204,)
    set_option = "config"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        root = "/waap/v1/domains/{domain_id}/%s" % cls.collection
        cls.paths = dict(list=root, item=root + "/{id}", bulk_delete=root + "/bulk_delete")
        cls.argument_spec = rule_set_argument_spec(cls.firewall)

    def validate(self):
        super().validate()
        params = self.params
        check_range("domain_id", params["domain_id"], low=1)
        config = params["config"]
        if params["state"] == "deleted":
            require(config, "config", "state=deleted needs the names of the rules to delete (config must not be empty)")
        if params["state"] == "gathered":
            require(not config, "config", "is not used with state=gathered (it reads the domain's rules)")
        for index, item in enumerate(config or []):
            validate_rule(item, "config[%d]." % index, self.firewall)

    def item_body(self, item):
        return custom_rule_body(item)

    def gathered_item(self, record):
        return gathered_rule(record)

    def bulk_body(self, ids):
        return {"rule_ids": ids}


# The docs of each condition kind and member; rendered with CONDITION_KINDS (types, requirements, choices)
# into plugins/doc_fragments/waap_conditions.py by tests/tools/condition_docs.py (a unit test fails when that file drifts).
CONDITION_DOCS = {
    'ip': ('The client IP address is O(conditions[].ip.ip_address).', {
        'ip_address': 'An IPv4 or IPv6 address.',
    }),
    'ip_range': ('The client IP address is within a range.', {
        'lower_bound': 'First IPv4 or IPv6 address of the range.',
        'upper_bound': 'Last IPv4 or IPv6 address of the range, of the same family as O(conditions[].ip_range.lower_bound) and not below it.',
    }),
    'url': ('The request URL matches.', {
        'url': ['The URL or pattern, 1 to 500 characters.',
                'With V(Exact) or V(Contains) only letters, digits and the characters C(_ ! $ ~ : # [ ] @ ( ) * + , = / - . %) are allowed; '
                'with V(Regex) it must be a valid regular expression without lookahead or lookbehind.'],
        'match_type': 'How the URL is matched (service default V(Contains)).',
    }),
    'user_agent': ('The C(User-Agent) header matches.', {
        'user_agent': 'The user agent text, at most 300 characters.',
        'match_type': 'How the text is matched (service default V(Contains)).',
    }),
    'header': ('A request header has a value.', {
        'header': 'Header name, 1 to 50 letters, digits and C(-).',
        'value': 'Header value, 1 to 100 printable ASCII characters.',
        'match_type': 'How the value is matched (service default V(Contains)).',
    }),
    'header_exists': ('A request header is present.', {
        'header': 'Header name, 1 to 50 letters, digits and C(-).',
    }),
    'response_header': ('A response header has a value.', {
        'header': 'Header name, 1 to 50 letters, digits and C(-).',
        'value': 'Header value, 1 to 100 printable ASCII characters.',
        'match_type': 'How the value is matched (service default V(Contains)).',
    }),
    'response_header_exists': ('A response header is present.', {
        'header': 'Header name, 1 to 50 letters, digits and C(-).',
    }),
    'http_method': ('The request uses an HTTP method.', {
        'http_method': 'The method.',
    }),
    'file_extension': ('The requested file has one of the extensions.', {
        'file_extension': '1 to 20 extensions without their dot, each 1 to 10 lower-case letters and digits (V(pdf), not V(.pdf)).',
    }),
    'content_type': ('The request has one of the content types.', {
        'content_type': '1 to 10 content types, each 1 to 50 characters.',
    }),
    'country': ('The request comes from one of the countries.', {
        'country_code': '1 to 100 ISO 3166-1 alpha-2 country codes in upper case, for example V(DE) (V(de) fails validation).',
    }),
    'organization': ('The client IP address belongs to an organization.', {
        'organization': 'Organization name, at most 100 characters.',
    }),
    'owner_types': ('The client IP address belongs to one of the owner types.', {
        'owner_types': 'At least one owner type (service default V([COMMERCIAL])).',
    }),
    'tags': ('The request carries one of the tags the WAAP assigned.', {
        'tags': '1 to 5 tags.',
    }),
    'session_request_count': ('The session has made at least a number of requests.', {
        'request_count': 'The number of requests, at least 1.',
    }),
    'user_defined_tags': ('The request carries one of the user-defined tags.', {
        'tags': '1 to 10 tags, each 1 to 50 characters, a letter first, then letters, digits and spaces.',
    }),
    'request_rate': (['The client exceeds a request rate on a path.', 'This kind takes no C(negation).'], {
        'path_pattern': 'Regular expression of the paths counted, 1 to 500 characters.',
        'requests': 'Number of requests in O(conditions[].request_rate.time) seconds, at least 20.',
        'time': 'Length of the window in seconds, 1 to 3600.',
        'ips': 'Count only requests from these IP addresses (at most 10).',
        'http_methods': 'Count only requests with these methods.',
        'user_defined_tag': 'Count only requests with this user-defined tag (1 to 50 characters, a letter first, then letters, digits and spaces).',
    }),
}
NEGATION_DOC = "Invert the condition (service default V(false))."

# The words of one item of the set modules' ``config`` (the options of one rule); rendered with CONDITION_DOCS into the
# CUSTOM_RULES and FIREWALL_RULES fragments of plugins/doc_fragments/waap_conditions.py by tests/tools/condition_docs.py.
RULE_ITEM_DOCS = {
    "name": ["Exact name of the rule, 1 to 100 characters: ASCII letters, digits, whitespace and the characters "
             "C(. : ' \" ; < > ? & | \\) only, and not only whitespace.",
             "Rules are identified by it: two items with one name fail validation, and so do two rules of the domain "
             "with a name the items use."],
    "description": ["Description of the rule, at most 100 characters. A missing, null and empty description are one value.",
                    "Left out: not managed with O(state=merged); V(\"\") with O(state=replaced) and O(state=overridden)."],
    "enabled": ["Whether the rule is enabled.",
                "Left out: V(true) when the rule is created and with O(state=replaced) and O(state=overridden); "
                "not managed with O(state=merged)."],
    "action": ["What the rule does when all its conditions match. Exactly one member must be set.",
               "Required to create the rule; left out, the action of an existing rule is not managed."],
    "conditions": ["The conditions, 1 to 5; all of them must match for the rule to fire. Each item sets exactly one "
                   "condition kind; the order does not matter.",
                   "Every kind except O(config[].conditions[].request_rate) takes C(negation) (bool, the service's "
                   "default V(false)), which inverts the condition.",
                   "Required to create the rule; when given, the list replaces the rule's conditions; left out, they are "
                   "not managed."],
}
FIREWALL_CONDITIONS_DOC = ["The one condition of the rule: a list of exactly 1 item, which sets O(config[].conditions[].ip) "
                           "or O(config[].conditions[].ip_range).",
                           "Required to create the rule; when given, it replaces the rule's condition; left out, it is not managed."]
ACTION_DOCS = {
    "allow": ("Let the request through. Use V({}).", {}),
    "block": ("Block the request. Use V({}) for the service's defaults.", {
        "status_code": ["HTTP status code returned to a blocked request.", "Not managed when left out."],
        "action_duration": ["How long the block applies to later requests of the client, 1 to 10 characters matching "
                            "C(^[1-9][0-9]*[smhd]?$), for example V(30) (seconds), V(60s), V(10m), V(12h) or V(1d).",
                            "Not managed when left out."],
    }),
    "captcha": ("Ask the client to solve a CAPTCHA. Use V({}).", {}),
    "handshake": ("Ask the client for a JavaScript handshake. Use V({}).", {}),
    "monitor": ("Only log the request. Use V({}).", {}),
    "tag": ("Tag the request with user-defined tags.", {"tags": "The tags, 1 to 5."}),
}
