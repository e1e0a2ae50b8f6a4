# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The echo of a module's arguments (``invocation``) shows the items of a list option as the task set them: the
suboptions Ansible fills with None for every unset one are left out, at every depth; what the task set, defaults
included, stays. After a success and after a failure."""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.modules import security_group, waap_custom_rules

import harness

RULE = {"name": "Allow office", "action": {"allow": {}}, "conditions": [{"ip": {"ip_address": "10.0.0.1"}}]}
SG_RULE = {"direction": "ingress", "protocol": "tcp", "port_range_min": 22, "port_range_max": 22}


def echoed(result, option):
    return result["invocation"]["module_args"][option]


def test_the_items_of_a_list_option_are_echoed_without_their_unset_suboptions(server):
    domain = server.seeds["waap"]["empty_domain_id"]
    result = harness.run(server, waap_custom_rules, dict(domain_id=domain, state="merged", config=[RULE], **harness.ECHOED))
    assert result["changed"] is True, result
    assert echoed(result, "config") == [RULE]


def test_after_a_failure_too(server):
    result = harness.run(server, security_group, dict(project_id=1, region_id=76, name="sg-echo", rules=[SG_RULE],
                                                      security_group_id="00000000-0000-4000-8000-000000000000", **harness.ECHOED))
    assert "does not exist" in result["msg"], result["msg"]
    assert echoed(result, "rules") == [dict(SG_RULE, ethertype="IPv4")], "the default the option has stays"
