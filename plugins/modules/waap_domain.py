#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: waap_domain
short_description: Set a WAAP domain's mode and its API and DDoS settings
version_added: 1.0.0
description:
  - Sets the status of one WAAP domain (V(monitor) logs and enforces nothing, V(active) enforces every policy and
    rule), its API discovery (O(is_api)) and base paths, and its DDoS thresholds. Only what differs is sent.
  - A WAAP domain exists once WAAP is switched on for a CDN resource; this module finds it and sets it. It never creates,
    renames or deletes one.
  - A domain whose status is C(bypass) (WAAP switched off on its CDN resource) or C(locked) (the trial ended or payment
    failed) cannot be set - neither its status nor its settings; the task fails naming the status, and nothing is sent.
author:
  - gcore.platform developers (@gcore-platform)
options:
  domain_id:
    description:
      - ID of the WAAP domain; must be greater than 0. Exactly one of O(domain_id) and O(name) is required.
    type: int
  name:
    description:
      - Exact name of the domain (its CDN resource's CNAME), compared case-insensitively over every page of the domain
        listing. No domain or several with the name fail before any write.
    type: str
  status:
    description:
      - V(monitor) inspects and logs traffic without blocking (new domains start there); V(active) enforces every
        policy and rule. Left out, not managed.
    type: str
    choices: [active, monitor]
  api_urls:
    description:
      - The domain's API base paths, as the service takes them (for example V(api/v1/.*)); compared as a set, sent as
        given. Each must contain a letter or a digit - V(/) alone would make the whole domain an API domain, which the
        service refuses - and be a valid regular expression (checked before any request); to make the whole domain an
        API domain, set O(is_api=true). Left out, not managed; V([]) clears them.
    type: list
    elements: str
  is_api:
    description:
      - Whether the whole domain is an API domain (API discovery on) - every request to it is treated as an API
        request, and the service then ignores O(api_urls). V(false) makes only the paths of O(api_urls) API paths. Left
        out, not managed.
    type: bool
    version_added: 1.2.0
  ddos_burst_threshold:
    description:
      - Requests in a 2-second interval that, when also five times the previous one, start DDoS mode; 30 to 10000 (the
        service's default is 1000). Left out, not managed.
    type: int
  ddos_global_threshold:
    description:
      - Requests in a 10-second window that, when also twice the previous one, start DDoS mode; 250 to 50000 (the
        service's default is 5000). Left out, not managed.
    type: int
notes:
  - Reads C(GET /waap/v2/domains/{domain_id}) and C(GET /waap/v2/domains/{domain_id}/settings); writes C(PATCH
    /waap/v2/domains/{domain_id}) with O(status) and C(PATCH /waap/v2/domains/{domain_id}/settings) with only the settings
    that differ (both DDoS thresholds together when one changes).
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.waap_domain_info
  - module: gcore.platform.waap_policies
  - module: gcore.platform.waap_custom_rules
  - module: gcore.platform.waap_firewall_rules
"""

EXAMPLES = r"""
- name: Start protecting domain 1003, with its API paths and DDoS thresholds
  gcore.platform.waap_domain:
    api_key: "{{ gcore_api_key }}"
    domain_id: 1003
    status: active
    api_urls:
      - api/v1/.*
      - api/v2/.*
    ddos_burst_threshold: 1500
    ddos_global_threshold: 8000

- name: Treat every request to domain 1003 as an API request (API discovery on)
  gcore.platform.waap_domain:
    api_key: "{{ gcore_api_key }}"
    domain_id: 1003
    is_api: true

- name: Put a domain found by name back in monitor mode
  gcore.platform.waap_domain:
    api_key: "{{ gcore_api_key }}"
    name: blog.example.com
    status: monitor
"""

RETURN = r"""
domain:
  description: The domain as read last, with its settings.
  returned: success
  type: dict
  contains:
    id:
      description: Domain ID.
      type: int
      sample: 1003
    name:
      description: Domain name.
      type: str
      sample: blog.example.com
    status:
      description: V(active), V(monitor), V(bypass) or V(locked).
      type: str
      sample: active
    quotas:
      description: How many rules of each kind the domain holds and may hold.
      type: dict
      sample: {custom-rules: {current: 4, allowed: 1000}, firewall-rules: {current: 247, allowed: 1000}}
    settings:
      description: The API and DDoS settings.
      type: dict
      sample: {api: {is_api: false, api_urls: [api/v1/.*]}, ddos: {global_threshold: 8000, burst_threshold: 1500, sub_second_threshold: 50}}
changes:
  description:
    - The parts that were set (V(status), V(api_urls), V(is_api), V(ddos_burst_threshold), V(ddos_global_threshold)) - only what
      the service accepted, or that the domain read afterwards showed took effect. In check mode, what would be sent.
  returned: success
  type: dict
  sample: {updated: [ddos_burst_threshold, status]}
diff:
  description: The parts that change, as they are (C(before)) and as they will be (C(after)).
  returned: success
  type: dict
  sample:
    before: {status: monitor, ddos_burst_threshold: 1000}
    after: {status: active, ddos_burst_threshold: 1500}
"""

import re

from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, check_range, require
from ansible_collections.gcore.platform.plugins.module_utils._parts import Values
from ansible_collections.gcore.platform.plugins.module_utils._waap import check_regex
from ansible_collections.gcore.platform.plugins.module_utils._waap_domain import DOMAIN, DomainResource, read_domain

SETTABLE = ("active", "monitor")
THRESHOLDS = {"ddos_burst_threshold": ("burst_threshold", 30, 10000), "ddos_global_threshold": ("global_threshold", 250, 50000)}


class Settings(Values):
    """The domain's status and its API and DDoS settings: the domain record with its ``settings``, as read or answered."""

    name = "settings"

    def fetch(self, get, record, params):
        return dict(read_domain(get, DOMAIN, params), settings=read_domain(get, DOMAIN + "/settings", params))

    def held(self, record):
        api, ddos = record["settings"].get("api") or {}, record["settings"].get("ddos") or {}
        held = {"status": record.get("status"), "api_urls": sorted(set(api.get("api_urls") or [])),
                "is_api": bool(api.get("is_api"))}  # false when left out (the read schema's default)
        held.update((option, ddos.get(member)) for option, (member, _low, _high) in THRESHOLDS.items())
        return held

    def wants(self, state, params):
        wanted = dict((option, params[option]) for option in ("status", "is_api") + tuple(THRESHOLDS) if params[option] is not None)
        if params["api_urls"] is not None:
            wanted["api_urls"] = sorted(set(params["api_urls"]))
        return wanted

    def requests(self, changes, state, params):
        held = self.held(state)
        if changes and held["status"] not in SETTABLE:
            why = "switch WAAP on for its CDN resource first" if held["status"] == "bypass" else "the plan must be renewed first"
            raise Refused("WAAP domain %s is %s: neither its status nor its settings can be set (%s); nothing was sent"
                          % (state["id"], held["status"], why))
        path = DOMAIN.format(domain_id=state["id"])
        requests = [("updated", ["status"], "PATCH", path, {"status": changes["status"]})] if "status" in changes else []
        body, keys = {}, [key for key in ("api_urls", "is_api") + tuple(THRESHOLDS) if key in changes]
        if "api_urls" in changes:
            body["api"] = {"api_urls": list(dict.fromkeys(params["api_urls"]))}
        if "is_api" in changes:  # a member of api, sent alone when api_urls do not change (omitted members stay)
            body.setdefault("api", {})["is_api"] = changes["is_api"]
        if any(option in changes for option in THRESHOLDS):  # both together: a nested member may replace its object
            body["ddos"] = dict((member, changes.get(option, held[option])) for option, (member, _low, _high) in THRESHOLDS.items())
        return requests + ([("updated", keys, "PATCH", path + "/settings", body)] if body else [])

    def answered(self, state, write, answer):
        if not isinstance(answer, dict):  # v2 answers the domain, or its settings
            return state
        return dict(state, **answer) if write.names == ["status"] else dict(state, settings=answer)


class WaapDomain(DomainResource):
    argument_spec = dict(
        domain_id=dict(type="int"),
        name=dict(type="str"),
        status=dict(type="str", choices=list(SETTABLE)),
        api_urls=dict(type="list", elements="str"),
        is_api=dict(type="bool"),
        ddos_burst_threshold=dict(type="int"),
        ddos_global_threshold=dict(type="int"),
    )
    module_kwargs = dict(required_one_of=[["domain_id", "name"]], mutually_exclusive=[["domain_id", "name"]])
    changes = {"updated": str}
    result_key = "domain"
    parts = (Settings(),)

    def validate(self):
        super().validate()
        params = self.params
        for index, url in enumerate(params["api_urls"] or []):
            require(re.search(r"[A-Za-z0-9]", url), "api_urls[%d]" % index,
                    "%r must contain a letter or a digit (an entry matching the whole domain, such as /, is refused by the "
                    "service: to make the whole domain an API domain, set is_api: true)" % url)
            check_regex("api_urls[%d]" % index, url)  # the service matches paths with it
        for option, (_member, low, high) in THRESHOLDS.items():
            check_range(option, params[option], low, high)


def main():
    WaapDomain.main()


if __name__ == "__main__":
    main()
