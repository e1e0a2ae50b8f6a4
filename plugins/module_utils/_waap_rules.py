# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""A WAAP domain's rules as a list compared by exact name (``waap_custom_rules``, ``waap_firewall_rules``): the one
declaration of the list flow (``_list``).

This module is internal to the collection: its interface may change at any time.
"""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, ValidationError, check_range, require
from ansible_collections.gcore.platform.plugins.module_utils._list import RuleList
from ansible_collections.gcore.platform.plugins.module_utils._waap import (
    CUSTOM_RULE_MEMBERS,
    MAX_OFFSET,
    PAGE_SIZE,
    STATES,
    custom_rule_body,
    gathered_rule,
    rule_set_argument_spec,
    validate_rule,
)


class WaapRuleSet(RuleList):
    """A domain's WAAP rules as a set compared by exact name (``waap_custom_rules``, ``waap_firewall_rules``).

    A module sets ``collection`` (the path segment), ``firewall``, ``noun`` and ``result_key``; the per-rule
    semantics are the single-rule module's: CUSTOM_RULE_MEMBERS, the same validation and bodies."""

    firewall = False
    collection = "custom-rules"
    module_kwargs = dict(required_if=[("state", state, ["config"]) for state in STATES if state != "gathered"])
    scope = "domain {domain_id}"
    page_size = PAGE_SIZE
    max_offset = MAX_OFFSET
    members = CUSTOM_RULE_MEMBERS
    required_to_create = ("action", "conditions")

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
        """The rule in the config shape, valid as config (the round trip): a rule the module cannot represent fails
        here, naming it, never in a later run that feeds it back."""
        item = gathered_rule(record)
        try:
            validate_rule(item, "", self.firewall)
        except ValidationError as exc:
            raise Refused("%s %r (id %s) of %s cannot be represented as a config item: %s"
                          % (self.noun.capitalize(), record.get("name"), record.get("id"), self.where(), exc))
        return item

    def bulk_body(self, ids):
        return {"rule_ids": ids}
