# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""WAAP policy overrides (docs/api_reference.md section 18.4; SDK 0.59 only, all on v1).

``/waap/v1/domains/{domain_id}/default-rule-overrides``: list (paged; filters ``enabled``, ``target_type``, ``search``
in names and descriptions, ``ordering``), create (201, the record), get, update ``PATCH`` (200, the record; ``name``,
``enabled``, ``description``, ``conditions`` only: ``target_type`` and ``target_ids`` are refused as extra inputs),
delete (204). No bulk delete. A create takes ``target_ids`` and answers ``targets`` (``{id, ref, snapshot, detector_id,
rule_id}``); at most 5 conditions of the 11 kinds overrides take, each with the custom-rule limits; ``request_id`` is
accepted and never returned. A ``rule`` target must be one of the OWASP Top Threats targets that
``GET /waap/v1/domains/{domain_id}/policy-override-targets/owasp-top-threats`` lists (paged; ``OWASP_TARGETS``, the same
for every domain): another id is refused (400), nothing created. Detector ids have no listing and are taken as given.
"""

from __future__ import annotations

import copy

from simulator.core import ApiFailure, Response, Route
from simulator.resources.waap import KINDS, check_condition, path_int, query_bool, query_enum, query_int, text_matches
from simulator.validation import Invalid, check_fields, f

PATH = r"/waap/v1/domains/(?P<domain_id>[^/]+)/default-rule-overrides"
FIRST_ID = 50001
TARGET_TYPES = ("detector", "rule")
OVERRIDE_KINDS = ("country", "header", "header_exists", "http_method", "ip", "ip_range", "ja3", "ja4", "organization", "url",
                  "user_agent")
CONDITION = f("object", fields=dict((kind, f("object", fields=KINDS[kind])) for kind in OVERRIDE_KINDS))
OVERRIDE = {
    "name": f("str", True, min=1),
    "enabled": f("bool", True),
    "target_type": f("str", True, enum=TARGET_TYPES),
    "target_ids": f("list", True, min_items=1, items=f("int", ge=1)),
    "conditions": f("list", max_items=5, items=CONDITION),
    "description": f("str", nullable=True),
    "request_id": f("str", nullable=True),
}
UPDATE = {
    "name": f("str", nullable=True, min=1),
    "enabled": f("bool", nullable=True),
    "description": f("str", nullable=True),
    "conditions": f("list", nullable=True, max_items=5, items=CONDITION),
}
ORDERING_FIELDS = ("id", "name", "target_type", "enabled", "stale", "created_at", "updated_at")
STAMP = "2026-11-01T00:00:00Z"
OWASP_TARGETS = [{"id": ident, "name": name, "action": "block", "policy": {"id": 5507500 + ident, "name": name}}
                 for ident, name in ((11, "SQL injection"), (12, "Cross-site scripting"), (13, "Remote code execution"),
                                     (14, "Path traversal"), (15, "Server-side request forgery"), (16, "XML external entities"))]


def validated(body, fields):
    invalid = Invalid()
    if not isinstance(body, dict):
        invalid.add(("body",), "Input should be a valid dictionary or object to extract fields from")
        invalid.raise_if_any()
    kept = check_fields(body, fields, ("body",), invalid)
    if isinstance(body.get("conditions"), list):
        for index, condition in enumerate(kept.get("conditions") or []):
            check_condition(condition, body["conditions"][index], ("body", "conditions", index), invalid)
    invalid.raise_if_any()
    kept.pop("request_id", None)  # "has no effect ... and is not returned"
    return kept


def targets(target_type, target_ids):
    """The record's ``targets``: the link's own id, the ref, a snapshot and the id that was sent."""
    return [{"id": 900000 + target_id, "ref": "ID%d" % target_id, "snapshot": {"name": "%s %d" % (target_type, target_id)},
             "detector_id": target_id if target_type == "detector" else None,
             "rule_id": target_id if target_type == "rule" else None} for target_id in target_ids]


class WaapPolicyOverrides:
    """Mixed into the WAAP resource: a domain's policy overrides."""

    OVERRIDE_ROUTES = (
        Route("GET", PATH, "list_overrides"),
        Route("POST", PATH, "create_override"),
        Route("GET", PATH + r"/(?P<override_id>[^/]+)", "get_override"),
        Route("PATCH", PATH + r"/(?P<override_id>[^/]+)", "patch_override"),
        Route("DELETE", PATH + r"/(?P<override_id>[^/]+)", "delete_override"),
        Route("GET", r"/waap/v1/domains/(?P<domain_id>[^/]+)/policy-override-targets/owasp-top-threats", "owasp_targets"),
    )

    def reset_overrides(self):
        self.sim.policy_overrides = {1001: [{
            "id": FIRST_ID - 1, "domain_id": 1001, "name": "Allow admin SQL", "description": "Admins post SQL", "enabled": True,
            "target_type": "detector", "targets": targets("detector", [861]), "stale": False,
            "conditions": [{"url": {"url": "/admin/sql", "match_type": "Contains", "negation": False}}],
            "created_at": STAMP, "updated_at": STAMP}]}
        self.sim.policy_override_next_id = FIRST_ID

    def overrides_of(self, request):
        return self.sim.policy_overrides.setdefault(self.domain_of(request), [])

    def find_override(self, request):
        overrides = self.overrides_of(request)
        override_id = path_int(request.params["override_id"], "policy_override_id")
        for override in overrides:
            if override["id"] == override_id:
                return overrides, override
        raise ApiFailure(404, "Policy override %s not found" % override_id, title="Not Found")

    def list_overrides(self, request):
        limit = query_int(request, "limit", 100, 0, 100)
        offset = query_int(request, "offset", 0, 0, 100000)
        ordering = query_enum(request, "ordering", ORDERING_FIELDS + tuple("-" + field for field in ORDERING_FIELDS))
        enabled = query_bool(request, "enabled")
        target_type = query_enum(request, "target_type", TARGET_TYPES)
        search = request.arg("search")
        selected = [item for item in self.overrides_of(request)
                    if (enabled is None or item["enabled"] is enabled)
                    and (target_type is None or item["target_type"] == target_type)
                    and (search is None or text_matches(search, item["name"]) or text_matches(search, item.get("description")))]
        if ordering:
            selected = sorted(selected, key=lambda item: item.get(ordering.lstrip("-")), reverse=ordering.startswith("-"))
        page = copy.deepcopy(selected[offset:offset + limit])
        return {"limit": limit, "offset": offset, "count": len(page), "results": page}

    def owasp_targets(self, request):
        self.domain_of(request)
        limit = query_int(request, "limit", 100, 0, 100)
        offset = query_int(request, "offset", 0, 0, 100000)
        page = copy.deepcopy(OWASP_TARGETS[offset:offset + limit])
        return {"limit": limit, "offset": offset, "count": len(page), "results": page}

    def create_override(self, request):
        overrides = self.overrides_of(request)
        kept = validated(request.json, OVERRIDE)
        known = set(target["id"] for target in OWASP_TARGETS)
        unknown = [ident for ident in kept["target_ids"] if kept["target_type"] == "rule" and ident not in known]
        if unknown:
            raise ApiFailure(400, "Rule %s is not a policy-override target (see policy-override-targets/owasp-top-threats)"
                             % unknown[0], title="Bad Request")
        override = {"id": self.sim.policy_override_next_id, "domain_id": self.domain_of(request), "name": kept["name"],
                    "description": kept.get("description"), "enabled": kept["enabled"], "target_type": kept["target_type"],
                    "targets": targets(kept["target_type"], list(dict.fromkeys(kept["target_ids"]))), "stale": False,
                    "conditions": kept.get("conditions") or [], "created_at": STAMP, "updated_at": STAMP}
        self.sim.policy_override_next_id += 1
        overrides.append(override)
        return Response(201, copy.deepcopy(override))

    def get_override(self, request):
        return copy.deepcopy(self.find_override(request)[1])

    def patch_override(self, request):
        override = self.find_override(request)[1]
        kept = dict((key, value) for key, value in validated(request.json, UPDATE).items() if value is not None)
        override.update(kept, stale=False)  # an edit publishes it again
        return copy.deepcopy(override)

    def delete_override(self, request):
        overrides, override = self.find_override(request)
        overrides.remove(override)
        return Response(204)
