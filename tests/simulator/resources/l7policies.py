# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""L7 policies and rules of load balancer listeners (docs/api_reference.md section 19.4).

- ``GET /cloud/v1/l7policies/{p}/{r}``: every policy of the scope (``limit`` 1-1000, ``offset``; no filter), each with
  ``rules`` as ``[{id, project_id, region_id, region}]`` (ids only); ``GET …/{id}``: one.
- ``POST /cloud/v1/l7policies/{p}/{r}``: ``CreateL7PolicySerializer``, a ``oneOf`` by ``action`` (the action's target
  required: ``redirect_url``, ``redirect_prefix`` or ``redirect_pool_id``; ``redirect_http_code`` only with a URL or a
  prefix, default 302) → task ``create_l7policy`` (``created_resources.l7polices``, sic). ``position`` inserts the
  policy there (none, or past the end: appended); positions are renumbered 1..n after every write.
- ``PATCH …/{id}``: ``UpdateL7PolicySerializer`` (no ``listener_id``; ``action`` and its target required) → task
  ``update_l7policy``; a new ``position`` moves the policy. ``DELETE …/{id}`` → task ``delete_l7policy`` (its rules go).
- Rules under ``…/{id}/rules``: ``GET`` (paged), ``POST`` (``CreateL7RuleSerializer``) → task ``create_l7rule``
  (``created_resources.l7rules``), ``GET``/``PUT`` (``UpdateL7RuleSerializer``, every member optional) → task
  ``put_l7rule`` /``DELETE …/rules/{rule_id}`` → task ``delete_l7rule``.
- Refusals: a listener that is not ``HTTP`` or ``TERMINATED_HTTPS`` (400), a ``redirect_pool_id`` that is no pool of
  the listener's load balancer (400), an unknown listener (404), a rule ``key`` missing for ``COOKIE``/``HEADER``
  (400), a ``FILE_TYPE`` rule compared other than ``EQUAL_TO``/``REGEX`` (400); bodies as the serializers (422).
- Every write is a task of the listener's load balancer (``load_balancers.py``'s ``lock``): 409 while it is not
  ``ACTIVE``, ``PENDING_UPDATE`` and locked until the task ends; a failed task undoes what it started. Policies of a
  listener that is gone are gone with it.

State: ``sim.l7policies`` (id -> record, with ``rules`` as full records in order).
"""

from __future__ import annotations

import copy
import uuid

from simulator.core import ApiFailure, page
from simulator.resources import production
from simulator.resources.load_balancers import NAME_PATTERN, REGIONS, activate, validated
from simulator.resources.production import Collection
from simulator.validation import f, invalid

RULE = "/{id}/rules/(?P<rule_id>[^/]+)"
TARGETS = {"REDIRECT_TO_POOL": "redirect_pool_id", "REDIRECT_TO_URL": "redirect_url", "REDIRECT_PREFIX": "redirect_prefix", "REJECT": None}
RULE_TYPES = ["COOKIE", "FILE_TYPE", "HEADER", "HOST_NAME", "PATH", "SSL_CONN_HAS_CERT", "SSL_DN_FIELD", "SSL_VERIFY_RESULT"]
COMPARE_TYPES = ["CONTAINS", "ENDS_WITH", "EQUAL_TO", "REGEX", "STARTS_WITH"]
L7_PROTOCOLS = ("HTTP", "TERMINATED_HTTPS")
POLICY_FIELDS = {
    "action": f("str", True, enum=sorted(TARGETS)), "name": f("str", pattern=NAME_PATTERN), "position": f("int", gt=0),
    "redirect_pool_id": f("str"), "redirect_url": f("str"), "redirect_prefix": f("str"),
    "redirect_http_code": f("int", enum=[301, 302, 303, 307, 308]), "tags": f("list", items=f("str")),
}
CREATE_POLICY = dict(POLICY_FIELDS, listener_id=f("str", True))
RULE_FIELDS = {
    "type": f("str", True, enum=RULE_TYPES), "compare_type": f("str", True, enum=COMPARE_TYPES),
    "value": f("str", True, min=1, max=255), "key": f("str", max=255), "invert": f("bool"),
    "tags": f("list", items=f("str")),
}
UPDATE_RULE = dict((name, dict(spec, required=False)) for name, spec in RULE_FIELDS.items())


class L7Policies(Collection):
    NAME, NOUN, COLLECTION, ID_PARAM, ID_CHECK = "l7policies", "L7 policy", "l7policies", "policy_id", None
    ACTIONS = (("GET", "/{id}/rules", "list_rules"), ("POST", "/{id}/rules", "create_rule"), ("GET", RULE, "get_rule"),
               ("PUT", RULE, "put_rule"), ("DELETE", RULE, "delete_rule"))
    TASK_TYPES = ("create_l7policy", "update_l7policy", "delete_l7policy", "create_l7rule", "put_l7rule", "delete_l7rule")

    @property
    def lbs(self):
        return production.family(self.sim, "load_balancers")

    # ---- lookups -------------------------------------------------------------------------------
    def sync(self):
        """The load balancers' tasks settled; the policies whose listener is gone go (a listener's delete takes them)."""
        self.lbs.sync()
        for ident, record in list(self.sim.l7policies.items()):
            if record["listener_id"] not in self.sim.lb_listeners:
                del self.sim.l7policies[ident]

    def policy_of(self, request):
        found = self.one(request)
        return found, self.sim.load_balancers[self.sim.lb_listeners[found["listener_id"]]["load_balancer_id"]]

    def rule_of(self, request):
        policy, lb = self.policy_of(request)
        rule = next((rule for rule in policy["rules"] if rule["id"] == request.params["rule_id"]), None)
        if rule is None:
            raise ApiFailure(404, "L7 rule %s not found" % request.params["rule_id"])
        return rule, policy, lb

    def siblings(self, listener_id):
        return sorted((record for record in self.sim.l7policies.values() if record["listener_id"] == listener_id), key=lambda record: record["position"])

    def place(self, policy, position):
        """``policy`` at ``position`` on its listener (past the end: last), the others renumbered 1..n."""
        others = [record for record in self.siblings(policy["listener_id"]) if record is not policy]
        others.insert(min(position or len(others) + 1, len(others) + 1) - 1, policy)
        for number, record in enumerate(others, 1):
            record["position"] = number

    def shown(self, record, _request=None):
        shown = copy.deepcopy(record)
        shown["rules"] = [{"id": rule["id"], "project_id": record["project_id"], "region_id": record["region_id"], "region": record["region"]}
                          for rule in record["rules"]]
        return shown

    # ---- checks --------------------------------------------------------------------------------
    def checked_policy(self, body, lb, listener_id):
        """Only the action's target and (for a URL or a prefix) ``redirect_http_code``; a pool of the load balancer."""
        target = TARGETS[body["action"]]
        if target and body.get(target) is None:
            invalid(target, "field required")
        for member in ("redirect_pool_id", "redirect_url", "redirect_prefix", "redirect_http_code"):
            allowed = member == target or (member == "redirect_http_code" and body["action"] in ("REDIRECT_TO_URL", "REDIRECT_PREFIX"))
            if member in body and not allowed:
                invalid(member, "extra fields not permitted")
        if target == "redirect_pool_id":
            pool = self.sim.lb_pools.get(body["redirect_pool_id"])
            if pool is None or pool["loadbalancers"][0]["id"] != lb["id"]:
                invalid("redirect_pool_id", "pool %s is not a pool of load balancer %s" % (body["redirect_pool_id"], lb["id"]), status=400)
        return body

    @staticmethod
    def checked_rule(rule):
        if rule.get("type") in ("COOKIE", "HEADER") and not rule.get("key"):
            invalid("key", "required for the %s rule type" % rule["type"], status=400)
        if rule.get("type") == "FILE_TYPE" and rule.get("compare_type") not in ("EQUAL_TO", "REGEX"):
            invalid("compare_type", "a FILE_TYPE rule compares with EQUAL_TO or REGEX only", status=400)
        return rule

    # ---- policies ------------------------------------------------------------------------------
    def create(self, request):
        scope = production.scope(request)
        body = validated(request.json, CREATE_POLICY)
        self.sync()
        listener = self.sim.lb_listeners.get(body["listener_id"])
        lb = self.sim.load_balancers.get(listener["load_balancer_id"]) if listener else None
        if lb is None or (lb["project_id"], lb["region_id"]) != scope:
            raise ApiFailure(404, "Listener %s not found" % body["listener_id"])
        if listener["protocol"] not in L7_PROTOCOLS:
            invalid("listener_id", "L7 policies need an HTTP or TERMINATED_HTTPS listener; listener %s is %s" % (listener["id"], listener["protocol"]),
                    status=400)
        self.checked_policy(body, self.lbs.writable(lb), listener["id"])
        url = body["action"] in ("REDIRECT_TO_URL", "REDIRECT_PREFIX")
        record = {
            "id": str(uuid.uuid4()), "name": body.get("name", ""), "listener_id": listener["id"], "action": body["action"], "position": 0,
            "redirect_pool_id": body.get("redirect_pool_id"), "redirect_url": body.get("redirect_url"), "redirect_prefix": body.get("redirect_prefix"),
            "redirect_http_code": body.get("redirect_http_code", 302) if url else None, "rules": [], "tags": body.get("tags") or [],
            "provisioning_status": "PENDING_CREATE", "operating_status": "OFFLINE", "project_id": scope[0], "region_id": scope[1],
            "region": REGIONS.get(scope[1], "Region %s" % scope[1]), "task_id": None,
        }
        self.sim.l7policies[record["id"]] = record
        self.place(record, body.get("position"))

        def undo():
            self.sim.l7policies.pop(record["id"], None)
            self.place_all(listener["id"])

        record["task_id"] = self.lbs.lock(lb, "create_l7policy", lambda: activate(record), undo, request.json, {"l7polices": [record["id"]]})
        return {"tasks": [record["task_id"]]}

    def place_all(self, listener_id):
        for number, record in enumerate(self.siblings(listener_id), 1):
            record["position"] = number

    def update(self, request):
        record, lb = self.policy_of(request)
        body = self.checked_policy(validated(request.json, POLICY_FIELDS), self.lbs.writable(lb), record["listener_id"])
        before = copy.deepcopy(record)

        def apply():
            url = body["action"] in ("REDIRECT_TO_URL", "REDIRECT_PREFIX")
            record.update(action=body["action"], redirect_pool_id=None, redirect_url=None, redirect_prefix=None,
                          redirect_http_code=body.get("redirect_http_code", record["redirect_http_code"] or 302) if url else None)
            record.update((key, value) for key, value in body.items() if key not in ("position", "redirect_http_code"))
            if "position" in body:
                self.place(record, body["position"])
            activate(record)

        def undo():
            record.update(before)
            self.place(record, before["position"])

        record["task_id"] = self.lbs.lock(lb, "update_l7policy", apply, undo, request.json)
        record["provisioning_status"] = "PENDING_UPDATE"
        return {"tasks": [record["task_id"]]}

    def delete(self, request):
        record, lb = self.policy_of(request)
        self.lbs.writable(lb)

        def apply():
            self.sim.l7policies.pop(record["id"], None)
            self.place_all(record["listener_id"])

        record["task_id"] = self.lbs.lock(lb, "delete_l7policy", apply, lambda: record.update(task_id=None, provisioning_status="ACTIVE"))
        record["provisioning_status"] = "PENDING_DELETE"
        return {"tasks": [record["task_id"]]}

    # ---- rules ---------------------------------------------------------------------------------
    def rule_view(self, rule, policy):
        return dict(copy.deepcopy(rule), project_id=policy["project_id"], region_id=policy["region_id"], region=policy["region"])

    def list_rules(self, request):
        policy = self.policy_of(request)[0]
        return page(request, [self.rule_view(rule, policy) for rule in policy["rules"]])

    def get_rule(self, request):
        rule, policy, _lb = self.rule_of(request)
        return self.rule_view(rule, policy)

    def create_rule(self, request):
        policy, lb = self.policy_of(request)
        body = self.checked_rule(validated(request.json, RULE_FIELDS))
        self.lbs.writable(lb)
        rule = {"id": str(uuid.uuid4()), "type": body["type"], "compare_type": body["compare_type"], "value": body["value"],
                "key": body.get("key"), "invert": body.get("invert", False), "tags": body.get("tags") or [],
                "provisioning_status": "PENDING_CREATE", "operating_status": "OFFLINE", "task_id": None}
        policy["rules"].append(rule)

        def undo():
            policy["rules"] = [item for item in policy["rules"] if item["id"] != rule["id"]]

        rule["task_id"] = self.lbs.lock(lb, "create_l7rule", lambda: activate(rule), undo, request.json, {"l7rules": [rule["id"]]})
        return {"tasks": [rule["task_id"]]}

    def put_rule(self, request):
        rule, _policy, lb = self.rule_of(request)
        body = validated(request.json, UPDATE_RULE, required_body=False)
        self.checked_rule(dict(rule, **body))
        self.lbs.writable(lb)
        before = copy.deepcopy(rule)

        def apply():
            rule.update(body)
            activate(rule)

        rule["task_id"] = self.lbs.lock(lb, "put_l7rule", apply, lambda: rule.update(before), request.json)
        rule["provisioning_status"] = "PENDING_UPDATE"
        return {"tasks": [rule["task_id"]]}

    def delete_rule(self, request):
        rule, policy, lb = self.rule_of(request)
        self.lbs.writable(lb)

        def apply():
            policy["rules"] = [item for item in policy["rules"] if item["id"] != rule["id"]]

        rule["task_id"] = self.lbs.lock(lb, "delete_l7rule", apply, lambda: rule.update(task_id=None, provisioning_status="ACTIVE"))
        rule["provisioning_status"] = "PENDING_DELETE"
        return {"tasks": [rule["task_id"]]}
