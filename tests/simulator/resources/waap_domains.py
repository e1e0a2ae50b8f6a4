# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""WAAP domains: their status, settings, rule sets and policies (docs/api_reference.md sections 18.1-18.3).

- Domains are the rule resource's (``sim.waap_domains``), each with ``status``, ``created_at``, ``custom_page_set``
  and ``aliases``. There is no create (a domain appears when WAAP is switched on for a CDN resource). Seeded statuses:
  1001, 1002 and 1005 ``active``; 1003, 1004 and 1006 ``monitor``; 1007 ``bypass``; 1008 ``locked``.
- ``GET /waap/v1/domains`` and ``/waap/v2/domains`` (``status``, ``name`` with ``*`` wildcards, ``ids``, ``ordering``,
  paging; v2 items add ``stats`` and ``cdn_resource_id``); ``GET /waap/v1|v2/domains/{id}`` (the detailed record with
  ``quotas``); ``PATCH`` ``{status: active|monitor}`` (extra members 422): v1 answers 204 without a body, v2 200 with
  the record. A ``bypass`` or ``locked`` domain refuses it (400 [inferred]).
- Settings ``GET``/``PATCH /waap/v1|v2/domains/{id}/settings``: ``{api: {is_api, api_urls}, ddos: {global_threshold
  250-50000, burst_threshold 30-10000, sub_second_threshold (read only)}}``; a PATCH changes only the members sent; an
  ``api_urls`` entry without a letter or digit (``/``) is refused (422, SDK 0.59); v1 answers 204, v2 200 + settings.
- Rule sets and policies: every domain has the same five rule sets (ids 1-5) and 100 policies (ids ``S5507xxxx``, the
  same on every domain; one policy name, "Repeated violations", is in two rule sets), each domain its own modes.
  ``GET /waap/v1/domains/{id}/rule-sets``: a bare array of rule sets with their policies (``rules``);
  ``GET /waap/v2/domains/{id}/rule-sets``: paged, without them; ``GET /waap/v2/domains/{id}/policies`` (paged,
  ``rule_set_id``). ``PATCH /waap/v2/domains/{id}/policies/{policy_id}`` ``{mode: bool}`` sets it, answers ``{mode}``;
  the v1 ``PATCH …/policies/{policy_id}/toggle`` flips it, answers ``{mode}``. Switching on a policy of a rule set the
  domain's plan lacks (``API protection`` on every domain but 1001) answers 400 ``{type: feature-check, status: 401,
  title: Feature check fail, detail}``, as the published copy documents.
"""

from __future__ import annotations

import copy
import re

from simulator.core import ApiFailure, Response, Route
from simulator.resources.waap import DOMAINS, query_enum, query_int, text_matches
from simulator.validation import VALIDATION_DETAIL, VALIDATION_TITLE, Invalid, check_fields, f

STATUSES = {1001: "active", 1002: "active", 1003: "monitor", 1004: "monitor", 1005: "active", 1006: "monitor",
            1007: "bypass", 1008: "locked"}
MORE_DOMAINS = {1007: "legacy.example.com", 1008: "trial.example.com"}
SETTABLE = ("active", "monitor")
PRO_DOMAINS = (1001,)
RULE_SETS = [  # (id, name, group, policies: names)
    (1, "OWASP Top Threats", "WAF", ["SQL injection", "Cross-site scripting", "Remote code execution", "Path traversal"]),
    (2, "Bot Protection", "BOT", ["Traffic via TOR network", "Known bad bots", "Headless browsers", "Scrapers"]),
    (3, "Behavioral WAF", "BEHAVIOR", ["Brute force", "Repeated violations", "Credential stuffing"]),
    (4, "Anti-automation", "AUTOMATION", ["Traffic anomaly", "Repeated violations", "Rate abuse"]),
    (5, "API protection", "API", ["Schema violations", "Broken object level authorization"]),
]
POLICY_COUNT = 100
DOMAIN_UPDATE = {"status": f("str", True, enum=SETTABLE)}
SETTINGS_UPDATE = {
    "api": f("object", nullable=True, fields={"is_api": f("bool"), "api_urls": f("list", items=f("str"))}),
    "ddos": f("object", nullable=True, fields={"global_threshold": f("int", ge=250, le=50000), "burst_threshold": f("int", ge=30, le=10000)}),
}
FEATURE_DETAIL = "The feature %s is not available under your current plan. Please upgrade your plan."


def policies():
    """The 100 policies of every domain: (id, rule set id, name, action, default mode). Each rule set's named policies
    first, then numbered ones so that the total is 100."""
    listed = [(rule_set, name) for rule_set, _name, _group, names in RULE_SETS for name in names]
    extra = POLICY_COUNT - len(listed)
    listed += [(1 + index % 4, "%s rule %02d" % (("Injection", "Bot", "Behavior", "Automation")[index % 4], index)) for index in range(extra)]
    return [("S%08d" % (55075100 + index), rule_set, name, ("Block", "Captcha", "Monitor", "Handshake")[index % 4], index % 5 != 3)
            for index, (rule_set, name) in enumerate(listed)]


POLICIES = policies()


def _problem(status, detail, title="Bad Request"):
    return ApiFailure(status, detail, title=title)


def _validated(body, fields):
    invalid = Invalid()
    if not isinstance(body, dict):
        invalid.add(("body",), "Input should be a valid dictionary or object to extract fields from")
        invalid.raise_if_any()
    kept = check_fields(body, fields, ("body",), invalid)
    invalid.raise_if_any()
    return kept


class WaapDomains:
    """Mixed into the WAAP resource (``simulator.resources.waap.Waap``): the routes and handlers of domains."""

    DOMAIN_ROUTES = (
        Route("GET", r"/waap/(?P<version>v[12])/domains", "list_domains"),
        Route("GET", r"/waap/(?P<version>v[12])/domains/(?P<domain_id>[^/]+)", "get_domain"),
        Route("PATCH", r"/waap/(?P<version>v[12])/domains/(?P<domain_id>[^/]+)", "patch_domain"),
        Route("GET", r"/waap/(?P<version>v[12])/domains/(?P<domain_id>[^/]+)/settings", "get_settings"),
        Route("PATCH", r"/waap/(?P<version>v[12])/domains/(?P<domain_id>[^/]+)/settings", "patch_settings"),
        Route("GET", r"/waap/(?P<version>v[12])/domains/(?P<domain_id>[^/]+)/rule-sets", "list_rule_sets"),
        Route("GET", r"/waap/v2/domains/(?P<domain_id>[^/]+)/policies", "list_policies"),
        Route("PATCH", r"/waap/v2/domains/(?P<domain_id>[^/]+)/policies/(?P<policy_id>[^/]+)", "set_policy"),
        Route("PATCH", r"/waap/v1/domains/(?P<domain_id>[^/]+)/policies/(?P<policy_id>[^/]+)/toggle", "toggle_policy"),
    )

    def reset_domains(self):
        names = dict(list(DOMAINS.items()) + list(MORE_DOMAINS.items()))
        self.sim.waap_domains = dict((domain_id, {
            "id": domain_id, "name": name, "status": STATUSES[domain_id], "custom_page_set": None,
            "created_at": "2026-01-%02dT08:00:00Z" % (domain_id - 1000), "aliases": ["www." + name] if domain_id == 1001 else [],
        }) for domain_id, name in names.items())
        self.sim.waap_settings = dict((domain_id, {"api": {"is_api": False, "api_urls": ["api/v1/.*"] if domain_id == 1002 else []},
                                                   "ddos": {"global_threshold": 5000, "burst_threshold": 1000, "sub_second_threshold": 50}})
                                      for domain_id in names)
        self.sim.waap_policy_modes = dict((domain_id, dict((policy[0], policy[4] and (policy[1] != 5 or domain_id in PRO_DOMAINS))
                                                           for policy in POLICIES)) for domain_id in names)  # off where the plan lacks it

    # ---- domains ---------------------------------------------------------------------------------
    def summary(self, domain, version):
        record = dict((key, copy.deepcopy(value)) for key, value in domain.items())
        if version == "v2":
            record.update(stats={"total_requests": 0, "attacks_detected": 0, "attacks_blocked": 0}, cdn_resource_id=domain["id"] + 90000)
        return record

    def detailed(self, domain_id):
        record = copy.deepcopy(self.sim.waap_domains[domain_id])
        record["quotas"] = {"custom-rules": {"current": len(self.sim.custom_rules.get(domain_id, [])), "allowed": 1000},
                            "firewall-rules": {"current": sum(1 for rule in self.sim.firewall_rules if rule["domain"]["id"] == domain_id),
                                               "allowed": 1000}}
        return record

    def list_domains(self, request):
        limit = query_int(request, "limit", 100, 0, 100)
        offset = query_int(request, "offset", 0, 0, 100000)
        status = query_enum(request, "status", ("active", "bypass", "monitor", "locked"))
        fields = ("id", "name", "status", "created_at")
        ordering = query_enum(request, "ordering", fields + tuple("-" + field for field in fields))
        name = request.arg("name")
        ids = set()
        for index, raw in enumerate(request.query.get("ids") or []):
            if not re.fullmatch(r"[0-9]+", raw) or int(raw) < 1:
                raise ApiFailure(422, VALIDATION_DETAIL, title=VALIDATION_TITLE,
                                 errors=[{"loc": ["query", "ids", index], "detail": "Input should be greater than 0"}])
            ids.add(int(raw))
        found = [domain for domain in self.sim.waap_domains.values()
                 if (status is None or domain["status"] == status) and (name is None or text_matches(name, domain["name"]))
                 and (not ids or domain["id"] in ids)]
        if ordering:
            found.sort(key=lambda domain: domain[ordering.lstrip("-")], reverse=ordering.startswith("-"))
        page = [self.summary(domain, request.params["version"]) for domain in found[offset:offset + limit]]
        return {"limit": limit, "offset": offset, "count": len(page), "results": page}  # as the rule lists: the page's count

    def get_domain(self, request):
        return self.detailed(self.domain_of(request))

    def patch_domain(self, request):
        domain_id = self.domain_of(request)
        kept = _validated(request.json, DOMAIN_UPDATE)
        domain = self.sim.waap_domains[domain_id]
        if domain["status"] not in SETTABLE:
            raise _problem(400, "Domain %s is %s: its status cannot be changed through the API" % (domain_id, domain["status"]))
        domain["status"] = kept["status"]
        return Response(204) if request.params["version"] == "v1" else self.detailed(domain_id)

    # ---- settings --------------------------------------------------------------------------------
    def get_settings(self, request):
        return copy.deepcopy(self.sim.waap_settings[self.domain_of(request)])

    def patch_settings(self, request):
        domain_id = self.domain_of(request)
        kept = _validated(request.json, SETTINGS_UPDATE)
        urls = (kept.get("api") or {}).get("api_urls")
        if urls is not None:
            invalid = Invalid()
            for index, url in enumerate(urls):
                if isinstance(url, str) and not re.search(r"[A-Za-z0-9]", url):
                    invalid.add(("body", "api", "api_urls", index), "Value error, an API URL must contain at least one letter or "
                                "digit; a value matching the whole domain is rejected: set is_api instead")
            invalid.raise_if_any()
        settings = self.sim.waap_settings[domain_id]
        for part in ("api", "ddos"):
            settings[part].update(kept.get(part) or {})
        return Response(204) if request.params["version"] == "v1" else copy.deepcopy(settings)

    # ---- rule sets and policies ------------------------------------------------------------------
    def policy_record(self, domain_id, policy):
        ident, rule_set, name, action, _default = policy
        return {"id": ident, "name": name, "description": "%s (%s)" % (name, RULE_SETS[rule_set - 1][1]),
                "group": RULE_SETS[rule_set - 1][2], "rule_set_id": rule_set, "action": action,
                "mode": self.sim.waap_policy_modes[domain_id][ident]}

    def rule_set_record(self, domain_id, rule_set, with_rules):
        ident, name, group, _names = rule_set
        record = {"id": ident, "name": name, "description": "%s policies" % name, "is_active": ident != 5 or domain_id in PRO_DOMAINS,
                  "tags": [{"id": ident, "name": group.lower(), "description": group}], "resource_slug": None}
        if with_rules:
            record["rules"] = [self.policy_record(domain_id, policy) for policy in POLICIES if policy[1] == ident]
        return record

    def list_rule_sets(self, request):
        domain_id = self.domain_of(request)
        if request.params["version"] == "v1":  # a bare array, with the policies
            return [self.rule_set_record(domain_id, rule_set, True) for rule_set in RULE_SETS]
        limit, offset = query_int(request, "limit", 100, 0, 100), query_int(request, "offset", 0, 0, 100000)
        sets = [self.rule_set_record(domain_id, rule_set, False) for rule_set in RULE_SETS]
        return {"limit": limit, "offset": offset, "count": len(sets), "results": sets[offset:offset + limit]}

    def list_policies(self, request):
        domain_id = self.domain_of(request)
        limit, offset = query_int(request, "limit", 100, 0, 100), query_int(request, "offset", 0, 0, 100000)
        rule_set = request.arg("rule_set_id")
        found = [self.policy_record(domain_id, policy) for policy in POLICIES if rule_set is None or str(policy[1]) == rule_set]
        page = found[offset:offset + limit]
        return {"limit": limit, "offset": offset, "count": len(page), "results": page}

    def find_policy(self, request):
        domain_id = self.domain_of(request)
        for policy in POLICIES:
            if policy[0] == request.params["policy_id"]:
                return domain_id, policy
        raise ApiFailure(404, "Policy %s not found in domain %s" % (request.params["policy_id"], domain_id), title="Not Found")

    def switch(self, domain_id, policy, mode):
        if mode and policy[1] == 5 and domain_id not in PRO_DOMAINS:
            # the body's status differs from the HTTP status, as the copy's example shows
            return Response(400, {"type": "feature-check", "status": 401, "title": "Feature check fail",
                                  "detail": FEATURE_DETAIL % RULE_SETS[4][1]}, content_type="application/problem+json")
        self.sim.waap_policy_modes[domain_id][policy[0]] = mode
        return {"mode": mode}

    def set_policy(self, request):
        domain_id, policy = self.find_policy(request)
        kept = _validated(request.json, {"mode": f("bool", True)})
        return self.switch(domain_id, policy, kept["mode"])

    def toggle_policy(self, request):
        domain_id, policy = self.find_policy(request)
        return self.switch(domain_id, policy, not self.sim.waap_policy_modes[domain_id][policy[0]])
