# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""The kinds of rule a WAAP domain holds, and a domain's rules of one kind as a set compared by exact name.

This module is internal to the collection: its interface may change at any time.

- ``RuleKind``: one kind of rule (``CUSTOM``, ``FIREWALL``; the advanced rules and the policy overrides are declared in
  their modules): its paths, the options of one rule, their validation, the members compared, the create body and the
  ``config`` shape. Reads and creates are on v1, updates, toggles and bulk deletes on v2 (docs/api_reference.md
  section 18.7).
- ``WaapRuleSet``: the module of a set: the domain holding the rules as a child collection (``kind.children``).
"""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, ValidationError, check_length, require, strip_none
from ansible_collections.gcore.platform.plugins.module_utils._children import Children
from ansible_collections.gcore.platform.plugins.module_utils._writes import request
from ansible_collections.gcore.platform.plugins.module_utils._waap_domain import DomainResource
from ansible_collections.gcore.platform.plugins.module_utils._waap import (
    action_argument_spec,
    action_matches,
    action_to_send,
    condition_argument_spec,
    normalise_action,
    normalise_conditions,
    same_conditions,
    validate_action,
    validate_conditions,
    validate_rule_name,
    writable_conditions,
)
from ansible_collections.gcore.platform.plugins.module_utils._waap_tables import FIREWALL_ACTIONS, FIREWALL_CONDITIONS, RULE_ACTIONS
from ansible_collections.gcore.platform.plugins.module_utils._members import Member

STATES = ("merged", "replaced", "overridden", "deleted", "gathered")  # the set modules' states
V1 = "/waap/v1/domains/{domain_id}/"
V2 = "/waap/v2/domains/{domain_id}/"

# The members of a custom or firewall rule: how the service shows them, what the options ask for, how the two compare.
# A changed conditions list is sent whole, so it must be writable; an unchanged one is never sent (the round trip).
RULE_MEMBERS = (
    Member("name"),
    Member("description", read=lambda record: record.get("description") or "", reset=""),
    Member("enabled", created=True, reset=True),
    Member("action", read=lambda record: normalise_action(record.get("action")), want=lambda value, record: normalise_action(value),
           same=action_matches, send=action_to_send),
    Member("conditions", read=lambda record: normalise_conditions(record.get("conditions")),
           want=lambda value, record: normalise_conditions(value), same=same_conditions,
           send=lambda desired, current: writable_conditions(desired)),
)


class RuleChildren(Children):
    """A domain's rules of one kind as a child collection: an ``enabled``-only change goes through the toggle where the
    kind has one (``enable``, ``disable`` paths); a create body that fails names the rule by its index in ``config``."""

    def writes(self, plan, held, params):
        writes, records = super().writes(plan, held, params), self.held(held)
        for write in writes if "enable" in self.paths else ():
            if write.kind == "update" and set(write.body) == {"enabled"}:
                toggle = "enable" if write.body["enabled"] else "disable"
                (write.method, write.path), write.body = request(self.paths, toggle, held.scope or params, records[write.names[0]][self.ident]), None
        return writes

    def item_body(self, item, params):
        try:
            return self.body(item)
        except ValidationError as exc:
            index = next(index for index, given in enumerate(params[self.option]) if given[self.key] == item[self.key])
            raise ValidationError("%s[%d].%s" % (self.option, index, exc))


class RuleKind:
    """One kind of rule of a WAAP domain: ``name`` (``custom``), ``actions`` (the action kinds it takes; none: no
    action), ``conditions`` (the condition kinds; None: every kind) and ``count`` (how many conditions, low and high).
    Its rules are a ``children`` part (``_children``): ``create_only`` members only a replacement changes, ``replace``
    says how."""

    members = RULE_MEMBERS
    required_to_create = ("action", "conditions")
    bulk = True  # deleted in bulk (else one DELETE each)
    toggles = False  # an enabled-only change through the toggle
    updates = V2  # the version updates are sent to
    create_only, replace, children = (), None, RuleChildren

    def __init__(self, name, actions, conditions=None, count=(1, 5)):
        self.name, self.actions, self.conditions, self.count = name, actions, conditions, count
        self.collection = "%s-rules" % name  # the path segment
        self.noun = "%s rule" % name
        self.result_key = "%s_rules" % name

    def paths(self):
        """Reads and creates on v1; updates (``updates``), toggles (``toggles``) and bulk deletes (``bulk``) on v2
        (docs/api_reference.md section 18.7)."""
        v1, v2 = V1 + self.collection, V2 + self.collection
        paths = dict(list=v1, item=v1 + "/{id}", update=self.updates + self.collection + "/{id}")
        if self.bulk:
            paths["bulk_delete"] = v2 + "/bulk_delete"
        if self.toggles:
            paths.update(enable="PATCH %s/{id}/enable" % v2, disable="PATCH %s/{id}/disable" % v2)
        return paths

    def argument_spec(self):
        """The options of one rule (the single-rule module's, and a set module's ``config`` item): the kind's own last."""
        spec = dict(name=dict(type="str"), description=dict(type="str"), enabled=dict(type="bool"))
        if self.actions:
            spec["action"] = dict(type="dict", options=action_argument_spec(self.actions))
        return dict(spec, **self.own_spec())

    def own_spec(self):
        """The options of the kind's own members (what decides the action)."""
        return dict(conditions=dict(type="list", elements="dict", options=condition_argument_spec(self.conditions)))

    def item_spec(self):
        """The options of one ``config`` item of a set module: a rule's, ``name`` required."""
        return dict(self.argument_spec(), name=dict(type="str", required=True))

    def validate(self, rule, prefix=""):
        """Every documented limit of one rule given as options; errors name ``prefix`` + the option
        (``config[3].conditions[0].ip.ip_address``)."""
        validate_rule_name(prefix + "name", rule.get("name"))
        check_length(prefix + "description", rule.get("description"), 0, 100)
        validate_action(prefix + "action", rule.get("action"), self.actions)
        self.check(rule, prefix, None)

    def check(self, rule, prefix, descriptor):
        """The kind's own members of one rule checked (``descriptor``: what the service describes, where the kind has one)."""
        validate_conditions(prefix + "conditions", rule.get("conditions"), self.conditions, self.count, self.noun)

    def shape(self, rule, body=False):
        """A rule (given as options, or a record) as a ``config`` item holds it (no id, the service's defaults written
        out, null members left out: given back as ``config`` it compares equal), or as a create ``body``."""
        item = dict(name=rule.get("name"), description=rule.get("description"), enabled=rule.get("enabled"))
        if self.actions:
            item["action"] = normalise_action(rule.get("action"))
        return strip_none(dict(item, **self.own(rule, body)))

    def body(self, rule):
        """The create body of one rule given as options (``enabled`` unless it says)."""
        return dict(self.shape(rule, body=True), enabled=rule.get("enabled") is not False)

    def own(self, rule, body=False):
        """The kind's own members of a rule (given as options, or a record) as a body (``body``) or a config item holds them."""
        conditions = normalise_conditions(rule.get("conditions"))
        return {"conditions": writable_conditions(conditions) if body else conditions}

    def gathered(self, record, where):
        """The rule as a config item, valid as config (the round trip): a rule the module cannot represent fails here,
        naming it, never in a later run that feeds it back."""
        item = self.shape(record)
        try:
            self.validate(item)
        except ValidationError as exc:
            raise Refused("%s %r (id %s) of %s cannot be represented as a config item: %s"
                          % (self.noun.capitalize(), record.get("name"), record.get("id"), where, exc))
        return item


CUSTOM = RuleKind("custom", RULE_ACTIONS)
FIREWALL = RuleKind("firewall", FIREWALL_ACTIONS, FIREWALL_CONDITIONS, count=(1, 1))  # exactly one condition, ip or ip_range


class WaapRuleSet(DomainResource):
    """A domain's rules of one ``kind`` as a set compared by exact name (``waap_custom_rules``, ``waap_firewall_rules``):
    the domain (never read: its rules are) holding them as a child collection; the per-rule semantics are the kind's,
    as in the single-rule module. ``named_domain``: the domain may be given by its exact name (``domain``) instead of
    ``domain_id``, resolved before the listing."""

    module_kwargs = dict(required_if=[("state", state, ["config"]) for state in STATES if state != "gathered"])
    named_domain = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        kind = cls.kind
        cls.noun, cls.result_key, cls.paths = kind.noun, kind.result_key, kind.paths()
        cls.parts = (kind.children("", kind.noun, cls.paths, kind.members, scope=cls.scope, required=kind.required_to_create,
                                   create_only=kind.create_only, replace=kind.replace, body=kind.body, bulk_body=lambda ids: {"rule_ids": ids},
                                   gathered=lambda record, params: kind.gathered(record, cls.scope.format(**params))),)
        cls.changes = cls.parts[0].changes  # what the rules' writes say
        cls.argument_spec = dict(
            domain_id=dict(type="int", required=not cls.named_domain),
            config=dict(type="list", elements="dict", options=kind.item_spec()),
            state=dict(type="str", choices=list(STATES), default="merged"),
        )
        if cls.named_domain:
            cls.argument_spec["domain"] = dict(type="str")
            cls.module_kwargs = dict(cls.module_kwargs, required_one_of=[["domain_id", "domain"]], mutually_exclusive=[["domain_id", "domain"]])

    def validate(self):
        super().validate()
        params = self.params
        config = params["config"]
        if params["state"] == "deleted":
            require(config, "config", "state=deleted needs the names of the rules to delete (config must not be empty)")
        if params["state"] == "gathered":
            require(not config, "config", "is not used with state=gathered (it reads the domain's rules)")
        for index, item in enumerate(config or []):
            self.kind.validate(item, "config[%d]." % index)

    def index(self, name):
        return next(index for index, item in enumerate(self.params["config"]) if item["name"] == name)
