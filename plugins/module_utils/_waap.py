# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""The conditions and actions of WAAP rules: their argument spec, their validation before any request, their
normalisation and comparison.

This module is internal to the collection: its interface may change at any time.

One table, ``CONDITION_KINDS`` (``_waap_tables``), describes the condition kinds (docs/api_reference.md sections 9.2 and
18.6): the argument spec, the validation and the normalisation are all derived from it, so the three cannot drift apart.
The kinds of rule a domain holds (custom, firewall, advanced) are ``RuleKind``s in ``_waap_rules``; the words of the docs
are in tests/tools/waap_docs.py (read by the docs generator and the tests, never by a module).
"""

from __future__ import annotations

import ipaddress
import json
import re

from ansible_collections.gcore.platform.plugins.module_utils._checks import (
    ValidationError,
    canonical_ip,
    check_length,
    checked_address,
    check_not_blank,
    check_pattern,
    check_range,
    require,
    strip_none,
)
from ansible_collections.gcore.platform.plugins.module_utils._waap_tables import (
    CONDITION_KINDS,
    DEFAULT_MATCH_TYPE,
    DEFAULT_OWNER_TYPES,
    DURATION_PATTERN,
    FINGERPRINT_MEMBERS,
    IP_MEMBERS,
    LOOKAROUND,
    MATCH_TYPE_KINDS,
    NAME_PATTERN,
    NAME_RULE,
    NO_NEGATION,
    READ_ONLY_CONDITIONS,
    RULE_ACTIONS,
    STATUS_CODES,
    URL_PATTERN,
)


def condition_argument_spec(kinds=None):
    """The Ansible spec of one condition: one optional dict per kind (exactly one is checked later).

    ``kinds``: the kinds allowed (every kind of CONDITION_KINDS by default; a firewall rule takes ip and ip_range)."""
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


# ---- validation (before any request) ---------------------------------------------------------

def _check_member(option, value, member, prefix=""):
    """A member's value against its row of ``CONDITION_KINDS`` (``prefix`` ``item_``: one item of a list against the
    row's ``item_*`` rules)."""
    if value is None:
        return
    if member.get(prefix + "length"):
        check_length(option, value, *member[prefix + "length"])
    if member.get(prefix + "pattern"):
        check_pattern(option, value, *member[prefix + "pattern"])
    if member.get(prefix + "ip"):
        checked_address(option, value)
    if member.get(prefix + "range"):
        check_range(option, value, *member[prefix + "range"])
    if member["type"] == "list" and not prefix:
        low, high = member.get("items") or (None, None)
        size = len(value)
        if (low is not None and size < low) or (high is not None and size > high):
            bound = "%s to %s" % (low, high) if high is not None else "at least %s" % low
            raise ValidationError("%s: %s items given (must be %s)" % (option, size, bound))
        for index, item in enumerate(value):
            _check_member("%s[%d]" % (option, index), item, member, "item_")


def _given(names):
    return "%s given: %s" % (len(names), ", ".join(names)) if names else "none given"


def check_regex(option, value):
    if value is None:
        return
    try:
        re.compile(value)
    except re.error as exc:
        raise ValidationError("%s: %r is not a valid regular expression (%s)" % (option, value, exc))


def validate_condition(option, condition, kinds=None):
    given = [kind for kind, value in (condition or {}).items() if value is not None]
    require(len(given) == 1, option, "exactly one condition kind must be set (%s); kinds are %s"
            % (_given(given), ", ".join(kinds or CONDITION_KINDS)))
    kind = given[0]
    require(kind in (kinds or CONDITION_KINDS), option, "%s is not a condition kind this module knows; kinds are %s"
            % (kind, ", ".join(kinds or CONDITION_KINDS)))
    members = condition[kind]
    for name, member in CONDITION_KINDS[kind].items():
        _check_member("%s.%s.%s" % (option, kind, name), members.get(name), member)
    if kind == "request_rate":
        check_regex("%s.request_rate.path_pattern" % option, members.get("path_pattern"))
    if kind == "url":
        url = members.get("url")
        url_option = "%s.url.url" % option
        if (members.get("match_type") or DEFAULT_MATCH_TYPE) == "Regex":
            require(not LOOKAROUND.search(url), url_option, "a Regex url must not use lookahead or lookbehind")
            check_regex(url_option, url)
        else:
            check_pattern(url_option, url, URL_PATTERN,
                          "the URL characters allowed with match_type Exact or Contains (letters, digits and _ ! $ ~ : # [ ] @ ( ) * + , = / - . %)")
    if kind == "ip_range":
        validate_ip_range("%s.ip_range" % option, members.get("lower_bound"), members.get("upper_bound"))
    if kind in NO_NEGATION:
        require("negation" not in members, "%s.%s.negation" % (option, kind), "%s takes no negation" % kind)


def validate_ip_range(option, lower, upper):
    """Both bounds of one family, the lower one not above the upper one (docs/api_reference.md section 12.1)."""
    if lower is None or upper is None:
        return
    low, high = ipaddress.ip_address(lower), ipaddress.ip_address(upper)  # both checked as addresses already
    require(low.version == high.version, option,
            "lower_bound %s and upper_bound %s must be of one family (both IPv4 or both IPv6)" % (lower, upper))
    require(low <= high, option, "lower_bound %s is above upper_bound %s" % (lower, upper))


def validate_conditions(option, conditions, kinds=None, count=(1, 5), noun="rule"):
    """``count`` (low, high) conditions of the ``kinds`` given (None: every kind), each with exactly one kind."""
    if conditions is None:
        return
    low, high = count
    if low == high:
        require(len(conditions) == low, option, "a %s takes exactly %s condition, %s (%s given)"
                % (noun, low, " or ".join(kinds or CONDITION_KINDS), len(conditions)))
    require(low <= len(conditions) <= high, option, "%s to %s conditions are required (%s given)" % (low, high, len(conditions)))
    for index, condition in enumerate(conditions):
        validate_condition("%s[%d]" % (option, index), condition, kinds)


def writable_conditions(conditions):
    """The conditions of a create or a changed list, as sent: one the service no longer accepts in a write
    (``READ_ONLY_CONDITIONS``) fails before any request, naming it (``conditions[1].response_header``)."""
    for index, condition in enumerate(conditions or []):
        for kind in READ_ONLY_CONDITIONS:
            if (condition or {}).get(kind) is not None:
                raise ValidationError("conditions[%d].%s: the service returns %s conditions on rules stored before, but no "
                                      "longer accepts them in a create or an update; keep the rule's conditions as they are "
                                      "(they are then not sent), or replace this condition" % (index, kind, kind))
    return conditions


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


# ---- normalisation and comparison ------------------------------------------------------------

def _canonical_ip(value):
    try:
        return canonical_ip(value)
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
        for name in FINGERPRINT_MEMBERS:
            if isinstance(members.get(name), list):
                members[name] = [item.lower() if isinstance(item, str) else item for item in members[name]]
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
    desired, current = normalise_conditions(desired), normalise_conditions(current)
    return desired == current or sorted(_key(item) for item in desired) == sorted(_key(item) for item in current)


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


def list_params(params, names):
    """The list-filter query of a WAAP list: only the filters given, booleans as lower-case text."""
    query = {}
    for name in names:
        value = params.get(name)
        if value is None or value == []:
            continue
        query[name] = ("true" if value else "false") if isinstance(value, bool) else value
    return query
