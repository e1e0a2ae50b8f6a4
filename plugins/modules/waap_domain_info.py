#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: waap_domain_info
short_description: List WAAP domains, or read one
version_added: 1.0.0
description:
  - Reads the WAAP domains of the account - one by O(domain_id) (with its rule quotas), those of O(status), the one
    named exactly O(name) (compared case-insensitively), or all - and changes nothing.
author:
  - gcore.platform developers (@gcore-platform)
options:
  domain_id:
    description: ID of one domain; must be greater than 0. Cannot be combined with O(name) or O(status).
    type: int
  name:
    description: Exact name of one domain, compared case-insensitively.
    type: str
  status:
    description: Only the domains with this status.
    type: str
    choices: [active, monitor, bypass, locked]
notes:
  - With O(domain_id), reads that domain (C(GET /waap/v2/domains/{domain_id}), with its rule quotas); a domain that does
    not exist gives an empty RV(domains).
  - Otherwise lists the account's domains (C(GET /waap/v2/domains), every page), with O(status) sent to the service as a
    filter, and with O(name) only the domain of that exact name (compared case-insensitively).
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.attributes.INFO_MODULE
seealso:
  - module: gcore.platform.waap_domain
"""

EXAMPLES = r"""
- name: Every WAAP domain still in monitor mode
  gcore.platform.waap_domain_info:
    api_key: "{{ gcore_api_key }}"
    status: monitor
  register: monitored

- name: One domain, by name
  gcore.platform.waap_domain_info:
    api_key: "{{ gcore_api_key }}"
    name: blog.example.com
  register: blog
"""

RETURN = r"""
domains:
  description:
    - The domains, in the service's order. Listed ones carry their last 30 days' C(stats); one read by O(domain_id)
      carries its C(quotas) instead.
  returned: success
  type: list
  elements: dict
  sample:
    - {id: 1003, name: blog.example.com, status: monitor, custom_page_set: null, created_at: "2026-01-03T08:00:00Z", aliases: [],
       stats: {total_requests: 0, attacks_detected: 0, attacks_blocked: 0}, cdn_resource_id: 91003}
"""

from ansible_collections.gcore.platform.plugins.module_utils._base import GcoreModule
from ansible_collections.gcore.platform.plugins.module_utils._checks import check_range
from ansible_collections.gcore.platform.plugins.module_utils._client import cap_warning
from ansible_collections.gcore.platform.plugins.module_utils._waap import list_params
from ansible_collections.gcore.platform.plugins.module_utils._waap_domain import DOMAIN
from ansible_collections.gcore.platform.plugins.module_utils._waap_tables import DOMAINS, MAX_OFFSET, PAGE_SIZE


class WaapDomainInfo(GcoreModule):
    argument_spec = dict(
        domain_id=dict(type="int"),
        name=dict(type="str"),
        status=dict(type="str", choices=["active", "monitor", "bypass", "locked"]),
    )
    module_kwargs = dict(mutually_exclusive=[["domain_id", "name"], ["domain_id", "status"]])

    def validate(self):
        super().validate()
        check_range("domain_id", self.params["domain_id"], low=1)

    def run(self):
        params = self.params
        if params["domain_id"] is not None:
            found = self.client.get_or_none(DOMAIN.format(domain_id=params["domain_id"]))
            return {"domains": [found] if found is not None else []}
        domains = list(self.client.paginate(DOMAINS, list_params(params, ("name", "status")), page_size=PAGE_SIZE, max_offset=MAX_OFFSET,
                                            on_cap=cap_warning(self.module.warn, "WAAP domain listing", MAX_OFFSET)))
        if params["name"] is not None:
            domains = [domain for domain in domains if str(domain.get("name", "")).lower() == params["name"].lower()]
        return {"domains": domains}


def main():
    WaapDomainInfo.main()


if __name__ == "__main__":
    main()
