# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""WAAP advanced rules and the CEL descriptor (docs/api_reference.md sections 18.5 and 18.7).

- ``GET /waap/v1/advanced-rules/descriptor``: ``{version, objects: [{name, type, description, attrs: [{name, type,
  hint, description, args}]}]}`` - the objects of the public docs' table (request, whois, session, response, tags,
  user_defined_tags, user_agent, client_data).
- ``/waap/v1/domains/{domain_id}/advanced-rules``: list (paged, ``count`` of the page), create (201, the rule), get,
  delete (204); update ``PATCH`` v1 (204) and v2 (200, the rule); toggle ``…/{rule_id}/enable|disable`` v1 (204) and
  v2 (200 ``{enabled}``). No bulk delete. Bodies as ``AdvancedRule``/``UpdateAdvancedRule``: name (the rule-name
  pattern), description (<= 100), enabled, action (one member), source (>= 1 character; an unbalanced bracket or a
  double-quoted string answers 422, as the service's CEL compiler would [inferred]), phase (``access``,
  ``header_filter``, ``body_filter``, null: ``access``).
"""

from __future__ import annotations

import copy

from simulator.core import ApiFailure, Response, Route
from simulator.resources.waap import ACTION, NAME_PATTERN, check_action, list_page, path_int, toggle_state
from simulator.validation import Invalid, check_fields, f

V1 = r"/waap/v1/domains/(?P<domain_id>[^/]+)/advanced-rules"
V2 = r"/waap/v2/domains/(?P<domain_id>[^/]+)/advanced-rules"
FIRST_ID = 30001


def _attr(name, kind, args=None):
    attr = {"name": name, "type": kind, "hint": None, "description": "%s %s" % (kind, name)}
    if args is not None:
        attr["args"] = [{"name": arg, "type": kind_of, "description": None} for arg, kind_of in args]
    return attr


DESCRIPTOR = {"version": "2026.10.1", "objects": [
    {"name": "request", "type": "Container", "description": "The request", "attrs": [
        _attr("method", "Var"), _attr("uri", "Var"), _attr("path", "Var"), _attr("ip", "Var"), _attr("headers", "Dict"),
        _attr("query", "Dict"), _attr("cookies", "Dict"), _attr("ip_in_range", "Function", [("from_ip", "IP"), ("to_ip", "IP")]),
        _attr("rate_limit", "Function", [("ip_list", "List"), ("url", "Str"), ("interval", "Int"), ("requests", "Int"),
                                         ("method_list", "List"), ("status_list", "List"), ("content_type", "Str"), ("scope", "Str")])]},
    {"name": "whois", "type": "Container", "description": "WHOIS of the client IP", "attrs": [
        _attr("country", "Var"), _attr("org", "Var"), _attr("asn", "Var"), _attr("owner_type", "Var")]},
    {"name": "session", "type": "Container", "description": "The session", "attrs": [_attr("request_count", "Var"), _attr("id", "Var")]},
    {"name": "response", "type": "Container", "description": "The origin's response", "attrs": [_attr("headers", "Dict"), _attr("status", "Var")]},
    {"name": "tags", "type": "Container", "description": "WAAP tags", "attrs": [_attr("exists", "Function", [("tag", "Str")])]},
    {"name": "user_defined_tags", "type": "Container", "description": "User tags", "attrs": [_attr("exists", "Function", [("tag", "Str")])]},
    {"name": "user_agent", "type": "Container", "description": "The user agent", "attrs": [
        _attr("client", "Var"), _attr("client_type", "Var"), _attr("device_type", "Var"), _attr("os", "Var")]},
    {"name": "client_data", "type": "Container", "description": "Client data", "attrs": [_attr("fingerprint", "Dict")]},
]}
RULE = {
    "name": f("str", True, min=1, max=100, pattern=NAME_PATTERN),
    "description": f("str", max=100),
    "enabled": f("bool", True),
    "action": dict(ACTION, required=True),
    "source": f("str", True, min=1),
    "phase": f("str", nullable=True, enum=("access", "header_filter", "body_filter")),
}
UPDATE = dict((name, dict(spec, required=False, nullable=True)) for name, spec in RULE.items())


def validated(body, fields):
    invalid = Invalid()
    if not isinstance(body, dict):
        invalid.add(("body",), "Input should be a valid dictionary or object to extract fields from")
        invalid.raise_if_any()
    kept = check_fields(body, fields, ("body",), invalid)
    if body.get("action") is not None:
        check_action(body["action"], ("body", "action"), invalid)
    source = kept.get("source")
    if isinstance(source, str):
        depth, quoted = 0, False
        for char in source:
            if char == "'":
                quoted = not quoted
            elif not quoted and char == '"':
                invalid.add(("body", "source"), "Value error, invalid expression: string literals take single quotes")
                break
            elif not quoted and char in "([{":
                depth += 1
            elif not quoted and char in ")]}":
                depth -= 1
        if depth or quoted:
            invalid.add(("body", "source"), "Value error, invalid expression: unbalanced brackets or quotes")
    invalid.raise_if_any()
    return kept


class WaapAdvancedRules:
    """Mixed into the WAAP resource: advanced rules and the descriptor."""

    ADVANCED_ROUTES = (
        Route("GET", r"/waap/v1/advanced-rules/descriptor", "advanced_descriptor"),
        Route("GET", V1, "list_advanced"),
        Route("POST", V1, "create_advanced"),
        Route("GET", V1 + r"/(?P<rule_id>[^/]+)", "get_advanced"),
        Route("DELETE", V1 + r"/(?P<rule_id>[^/]+)", "delete_advanced"),
        Route("PATCH", r"/waap/(?P<version>v[12])/domains/(?P<domain_id>[^/]+)/advanced-rules/(?P<rule_id>[^/]+)", "patch_advanced"),
        Route("PATCH", r"/waap/(?P<version>v[12])/domains/(?P<domain_id>[^/]+)/advanced-rules/(?P<rule_id>[^/]+)/(?P<action>[^/]+)",
              "toggle_advanced"),
    )

    def reset_advanced(self):
        self.sim.advanced_rules = {1001: [{"id": FIRST_ID - 1, "name": "Rate limit events", "description": "", "enabled": True,
                                           "action": {"block": {"status_code": 429}}, "phase": "access",
                                           "source": "request.rate_limit([], '.*events', 5, 200, [], [], '', 'ip')"}]}
        self.sim.advanced_rule_next_id = FIRST_ID

    def advanced_descriptor(self, _request):
        return copy.deepcopy(DESCRIPTOR)

    def advanced_of(self, request):
        return self.sim.advanced_rules.setdefault(self.domain_of(request), [])

    def find_advanced(self, request):
        rules = self.advanced_of(request)
        rule_id = path_int(request.params["rule_id"], "rule_id")
        for rule in rules:
            if rule["id"] == rule_id:
                return rules, rule
        raise ApiFailure(404, "Advanced rule %s not found" % rule_id, title="Not Found")

    def list_advanced(self, request):
        return list_page(request, self.advanced_of(request), ("allow", "block", "captcha", "handshake", "monitor", "tag"))

    def create_advanced(self, request):
        rules = self.advanced_of(request)
        kept = validated(request.json, RULE)
        rule = dict(kept, id=self.sim.advanced_rule_next_id, phase=kept.get("phase") or "access")
        self.sim.advanced_rule_next_id += 1
        rules.append(rule)
        return Response(201, copy.deepcopy(rule))

    def get_advanced(self, request):
        return copy.deepcopy(self.find_advanced(request)[1])

    def delete_advanced(self, request):
        rules, rule = self.find_advanced(request)
        rules.remove(rule)
        return Response(204)

    def patch_advanced(self, request):
        rule = self.find_advanced(request)[1]
        rule.update(validated(request.json, UPDATE))
        return Response(204) if request.params["version"] == "v1" else copy.deepcopy(rule)

    def toggle_advanced(self, request):
        enabled = toggle_state(request)
        self.find_advanced(request)[1]["enabled"] = enabled
        return Response(204) if request.params["version"] == "v1" else {"enabled": enabled}
