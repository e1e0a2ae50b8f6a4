# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    # Every module that works on the rules of one WAAP domain.
    DOCUMENTATION = r"""
options:
  domain_id:
    description:
      - ID of the WAAP domain; must be greater than 0.
    type: int
    required: true
"""

    # The modules that also find the domain by its exact name (waap_policy_overrides, waap_advanced_rules).
    NAMED = r"""
options:
  domain_id:
    description:
      - ID of the WAAP domain; must be greater than 0. Exactly one of O(domain_id) and O(domain) is required.
    type: int
  domain:
    description:
      - Exact name of the WAAP domain (for example V(shop.example.com)), compared case-insensitively and looked up
        before any other request. Exactly one of O(domain_id) and O(domain) is required.
    type: str
"""

    # The set modules of a domain's rules (waap_custom_rules, waap_firewall_rules): how O(config) and O(state) work.
    # The suboptions of config (one rule) come from the CUSTOM_RULES or FIREWALL_RULES variant of waap_conditions.
    SETS = r"""
options:
  config:
    description:
      - The rules, each with the options of one rule (the suboptions below); O(config[].name) is required, an C(id) is
        not accepted.
      - Required with every O(state) except V(gathered), where it must be left out.
      - With O(state=deleted) only O(config[].name) is needed, and the list must not be empty.
    type: list
    elements: dict
  state:
    description:
      - V(merged) creates the rules of O(config) that are missing and updates the members given that differ;
        rules not in O(config) are untouched.
      - V(replaced) is V(merged), but each listed rule that exists is made to match its item exactly -
        O(config[].description) left out means V(""), O(config[].enabled) left out means V(true)
        (O(config[].action) and O(config[].conditions) left out, and a block action's members left out, are not managed).
      - V(overridden) is V(replaced), and every rule of the domain not in O(config) is deleted;
        O(config=[]) deletes every rule of the domain.
      - V(deleted) deletes the rules named in O(config); a name that several rules of the domain hold deletes all of them.
      - V(gathered) only reads, and returns RV(gathered) - the domain's rules in the shape of O(config). Given back as
        O(config) with O(state=overridden), it changes nothing and sends no write.
    type: str
    choices: [merged, replaced, overridden, deleted, gathered]
    default: merged
notes:
  - The domain's rules are read once (every page); a run with nothing to change sends only that read, and after a
    write they are read once more for the result.
  - Rules are identified by their exact name. Two items of O(config) with one name fail naming both items
    (C(config[0]) and C(config[2])); two rules of the domain holding a name that O(config) uses fail listing their IDs,
    and nothing is sent (except with O(state=deleted)). A name with leading or trailing whitespace gets a warning - it
    is another name to the service.
  - The writes go in this order - deletions (one bulk delete per 100 IDs), then updates (one each, with only the
    members that differ; an unchanged conditions list is never sent), then creates (one each; O(config[].action) and
    O(config[].conditions) are then required, checked before any write) - so a domain at its plan's rule limit
    converges whenever the end state fits the limit.
  - RV(changes) lists only the writes the service accepted or a new read of the rules confirmed, after a failure too.
  - Errors name the item, for example C(config[3].conditions[0].ip.ip_address); deeper field errors come back from
    the service as HTTP 422. Validation is never stricter than the service for values it returns, so RV(gathered) is
    always valid O(config); a rule the module cannot represent fails O(state=gathered) naming the rule.
"""

    # The filters of the WAAP rule listings (waap_custom_rule_info, firewall_rules_info); each module gives the
    # choices of O(action), the action kinds its rules can have.
    FILTERS = r"""
options:
  name:
    description:
      - Only rules whose name matches; C(*) is a wildcard, for example V(Block*).
      - The service may also match names that merely contain the text; filter the result for an exact name.
    type: str
  description:
    description:
      - Only rules whose description matches; C(*) is a wildcard.
    type: str
  action:
    description:
      - Only rules with this action.
    type: str
  enabled:
    description:
      - Only enabled (V(true)) or disabled (V(false)) rules.
    type: bool
  ordering:
    description:
      - The field the service orders the rules by; a leading C(-) orders descending.
      - Without it the service's own order is kept.
    type: str
    choices: [id, name, description, enabled, action, -id, -name, -description, -enabled, -action]
"""
