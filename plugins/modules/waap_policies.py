#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: waap_policies
short_description: Switch a WAAP domain's built-in policies on or off
version_added: 1.0.0
description:
  - Switches the built-in policies (the protections of the domain's rule sets - OWASP threats, bots, behaviour) of one
    WAAP domain on or off as listed in O(policies). Policies not listed are left as they are.
  - A policy is named by its O(policies[].id), or by its rule set and name (a name may be in several rule sets).
    One that is not on the domain fails before any write, listing the closest names; two items for one policy fail
    naming both indices.
  - A policy the domain's plan does not allow fails with the service's C(detail), naming the policy; RV(changes) lists
    what was switched before it.
author:
  - gcore.platform developers (@gcore-platform)
options:
  domain_id:
    description:
      - ID of the WAAP domain; must be greater than 0. Exactly one of O(domain_id) and O(domain) is required.
    type: int
  domain:
    description:
      - Exact name of the WAAP domain, compared case-insensitively over every page of the domain listing.
    type: str
  policies:
    description:
      - The policies to set. Required with O(state=present); left out with O(state=gathered).
      - What O(state=gathered) returns is valid here; given back it changes nothing.
    type: list
    elements: dict
    suboptions:
      id:
        description:
          - The policy's ID, such as V(S55075105). Given with O(policies[].rule_set) and O(policies[].name), they must
            name the same policy.
        type: str
      rule_set:
        description: The name of the policy's rule set, such as V(Bot Protection); required with O(policies[].name).
        type: str
      name:
        description: The policy's name, such as V(Traffic via TOR network); required without O(policies[].id).
        type: str
      enabled:
        description: Whether the policy is on.
        type: bool
        required: true
  state:
    description:
      - V(present) sets the listed policies; V(gathered) only reads, returning RV(gathered).
    type: str
    choices: [present, gathered]
    default: present
notes:
  - Reads every policy once (C(GET /waap/v1/domains/{domain_id}/rule-sets), the rule sets with their policies), then
    sends C(PATCH /waap/v2/domains/{domain_id}/policies/{policy_id}) C({mode}) for each listed policy that differs.
    It never uses the v1 C(toggle), which flips a policy instead of setting it (a retry would undo it).
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.waap_domain
  - module: gcore.platform.waap_custom_rules
"""

EXAMPLES = r"""
- name: Block TOR traffic and keep SQL injection protection on for domain 1003
  gcore.platform.waap_policies:
    api_key: "{{ gcore_api_key }}"
    domain_id: 1003
    policies:
      - rule_set: Bot Protection
        name: Traffic via TOR network
        enabled: true
      - id: S55075100
        enabled: true

- name: Export every policy of a domain
  gcore.platform.waap_policies:
    api_key: "{{ gcore_api_key }}"
    domain: blog.example.com
    state: gathered
  register: waap_policies_now
"""

RETURN = r"""
policies:
  description: Every policy of the domain as read last.
  returned: success
  type: list
  elements: dict
  sample:
    - {id: S55075104, name: Traffic via TOR network, rule_set: Bot Protection, rule_set_id: 2, group: BOT, action: Block, enabled: true}
gathered:
  description: Every policy of the domain in the shape of O(policies), in the service's order.
  returned: when O(state=gathered)
  type: list
  elements: dict
  sample:
    - {rule_set: Bot Protection, name: Traffic via TOR network, id: S55075104, enabled: true}
changes:
  description:
    - The policies switched on (C(enabled)) and off (C(disabled)), as C(rule set / name) - only what the service
      accepted, or that the policies read afterwards showed took effect. In check mode, what would be sent.
  returned: when O(state=present)
  type: dict
  sample: {enabled: [Bot Protection / Traffic via TOR network], disabled: []}
diff:
  description: The policies that change, as mappings from C(rule set / name) to whether it is on - as they are
    (C(before)) and as they will be (C(after)).
  returned: when O(state=present)
  type: dict
  sample:
    before: {Bot Protection / Traffic via TOR network: false}
    after: {Bot Protection / Traffic via TOR network: true}
"""

import difflib

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError, require
from ansible_collections.gcore.platform.plugins.module_utils._parts import Values
from ansible_collections.gcore.platform.plugins.module_utils._waap_domain import DOMAIN, DomainResource, read_domain


RULE_SETS = "/waap/v1/domains/{domain_id}/rule-sets"  # every policy in one read (the v2 listing pages them apart)


def label(policy):
    return "%s / %s" % (policy["rule_set"], policy["name"])


class Policies(Values):
    """The domain's policies, each switched on or off (``{label: enabled}``), as read or answered."""

    name = "policies"

    def fetch(self, get, record, params):
        rule_sets = read_domain(get, RULE_SETS, params)  # a bare array, with the policies
        return [{"id": policy["id"], "name": policy["name"], "rule_set": rule_set["name"], "rule_set_id": rule_set["id"],
                 "group": policy.get("group"), "action": policy.get("action"), "enabled": policy["mode"]}
                for rule_set in rule_sets or [] for policy in rule_set.get("rules") or []]

    def held(self, record):
        return dict((label(policy), policy["enabled"]) for policy in record)

    def wants(self, state, params):
        wanted, first = {}, {}
        for index, item in enumerate(params["policies"] or []):
            key = label(resolve(state, index, item, params))
            if key in first:
                raise ValidationError("policies[%d] and policies[%d] both name the policy %r" % (first[key], index, key))
            first[key] = index
            wanted[key] = item["enabled"]
        return wanted

    def requests(self, changes, state, params):
        ids = dict((label(policy), policy["id"]) for policy in state)
        path = DOMAIN.format(domain_id=params["domain_id"]) + "/policies/%s"
        return [("enabled" if enabled else "disabled", [key], "PATCH", path % ids[key], {"mode": enabled}) for key, enabled in changes.items()]

    def answered(self, state, write, answer):
        return [dict(policy, enabled=(answer or {}).get("mode", write.body["mode"])) if label(policy) in write.names else policy
                for policy in state]

    def gathered_all(self, state, params):
        return [dict((key, policy[key]) for key in ("rule_set", "name", "id", "enabled")) for policy in state]


def resolve(found, index, item, params):
    """The policy an item names; one not on the domain fails listing the closest."""
    by_id = dict((policy["id"], policy) for policy in found)
    by_name = dict((label(policy), policy) for policy in found)
    if item["id"] is not None:
        policy = by_id.get(item["id"])
        if policy is None:
            close = difflib.get_close_matches(item["id"], list(by_id), 3)
            raise ValidationError("policies[%d].id: no policy %r on domain %s%s" % (index, item["id"], params["domain_id"], _close(close)))
        if item["name"] is not None and label(item) != label(policy):
            raise ValidationError("policies[%d]: id %s is %r, not %r" % (index, item["id"], label(policy), label(item)))
        return policy
    policy = by_name.get(label(item))
    if policy is None:
        close = difflib.get_close_matches(label(item), list(by_name), 3, 0.5)
        raise ValidationError("policies[%d]: no policy %r on domain %s%s" % (index, label(item), params["domain_id"], _close(close)))
    return policy


class WaapPolicies(DomainResource):
    argument_spec = dict(
        domain_id=dict(type="int"),
        domain=dict(type="str"),
        policies=dict(type="list", elements="dict", options=dict(
            id=dict(type="str"), rule_set=dict(type="str"), name=dict(type="str"), enabled=dict(type="bool", required=True))),
        state=dict(type="str", choices=["present", "gathered"], default="present"),
    )
    module_kwargs = dict(required_one_of=[["domain_id", "domain"]], mutually_exclusive=[["domain_id", "domain"]],
                         required_if=[("state", "present", ["policies"])])
    changes = {"enabled": str, "disabled": str}
    result_key = "policies"
    parts = (Policies(),)

    def validate(self):
        super().validate()
        params = self.params
        if params["state"] == "gathered":
            require(params["policies"] is None, "policies", "is not used with state=gathered (it reads the domain's policies)")
        for index, item in enumerate(params["policies"] or []):
            where = "policies[%d]" % index
            require(item["id"] is not None or item["name"] is not None, where, "give the policy's id, or its rule_set and name")
            require(item["name"] is None or item["rule_set"] is not None, where + ".rule_set",
                    "is required with name (a policy name may be in several rule sets)")


def _close(names):
    return "; the closest: %s" % ", ".join(repr(name) for name in names) if names else ""


def main():
    WaapPolicies.main()


if __name__ == "__main__":
    main()
