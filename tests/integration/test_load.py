# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Load: 20 forks (20 inventory hosts delegating to localhost) against a rate-limited simulator."""

from __future__ import annotations

import json

HOSTS = ["tenant%02d" % number for number in range(1, 21)]


def test_twenty_forks_through_a_rate_limit(playbook, sim, tmp_path):
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[tenants]\n" + "\n".join(HOSTS) + "\n")
    play = tmp_path / "load.yml"
    play.write_text(json.dumps([{
        "name": "Load", "hosts": "tenants", "gather_facts": False,
        "tasks": [
            {"name": "Read the threshold", "delegate_to": "localhost",
             "gcore.platform.notification_threshold_info": {"client_id": 1}},
            {"name": "One rule per tenant", "delegate_to": "localhost", "gcore.platform.waap_custom_rule": {
                "domain_id": 1004, "name": "load {{ inventory_hostname }}", "action": {"block": {}},
                "conditions": [{"ip": {"ip_address": "203.0.113.{{ groups['tenants'].index(inventory_hostname) + 1 }}"}}]}},
        ],
    }]))
    sim.configure(rate_limit={"per_second": 10, "retry_after": 1})
    # Whether 20 forks exceed 10 requests a second depends on how fast the machine runs them (a loaded one spreads
    # them out), so one read and one create are also answered 429 whatever the speed: the retry path always runs.
    sim.add_fault(status=429, method="GET", retry_after=1)
    sim.add_fault(status=429, method="POST", path="/custom-rules$", retry_after=1)
    run = playbook(str(play), inventory=str(inventory), forks=20)
    assert run.rc == 0, run
    limited = [entry for entry in sim.log if entry["status"] == 429]
    creates = [entry for entry in sim.log if entry["method"] == "POST" and entry["status"] == 201]
    assert [(entry["method"], entry["status"]) for entry in sim.log if entry["fault"]] == [("GET", 429), ("POST", 429)]
    assert len(creates) == 20, "one create per tenant, none twice"
    rules = [rule["name"] for rule in sim.custom_rules[1004]]
    for host in HOSTS:
        assert rules.count("load %s" % host) == 1
    print("load: %s requests, %s answered 429 (%s by the rate limit)" % (len(sim.log), len(limited), len(limited) - 2))
