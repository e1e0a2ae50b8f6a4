# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Load: 20 forks (20 inventory hosts delegating to localhost) against a rate-limited simulator.

The outcome does not depend on how fast the machine runs. The simulator answers 429 (Retry-After: 1 s) above
``PER_SECOND`` requests in any one-second window. A request refused k times waited at least 1 s before each retry,
so the k windows that refused it are disjoint, and each held ``PER_SECOND`` requests that were answered: k refusals
need at least k * PER_SECOND answered requests. With every request answered counted (``answered``) the number of
refusals any one request can meet is at most ``answered // PER_SECOND``, plus one for the fault injected below;
``API_RETRIES`` is set above that bound, and the test asserts the bound holds for the run it made.
"""

from __future__ import annotations

import json

HOSTS = ["tenant%02d" % number for number in range(1, 21)]
PER_SECOND = 10
API_RETRIES = 10  # the option's maximum


def test_twenty_forks_through_a_rate_limit(playbook, sim, tmp_path):
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[tenants]\n" + "\n".join(HOSTS) + "\n")
    play = tmp_path / "load.yml"
    play.write_text(json.dumps([{
        "name": "Load", "hosts": "tenants", "gather_facts": False,
        "module_defaults": {"group/gcore.platform.all": {"api_retries": API_RETRIES}},
        "tasks": [
            {"name": "Read the threshold", "delegate_to": "localhost",
             "gcore.platform.notification_threshold_info": {"client_id": 1}},
            {"name": "One rule per tenant", "delegate_to": "localhost", "gcore.platform.waap_custom_rule": {
                "domain_id": 1004, "name": "load {{ inventory_hostname }}", "action": {"block": {}},
                "conditions": [{"ip": {"ip_address": "203.0.113.{{ groups['tenants'].index(inventory_hostname) + 1 }}"}}]}},
        ],
    }]))
    sim.configure(rate_limit={"per_second": PER_SECOND, "retry_after": 1})
    # Whether 20 forks exceed the limit depends on the machine's speed, so one read and one create are also
    # answered 429 whatever the speed: the retry path always runs.
    sim.add_fault(status=429, method="GET", retry_after=1)
    sim.add_fault(status=429, method="POST", path="/custom-rules$", retry_after=1)
    run = playbook(str(play), inventory=str(inventory), forks=20)
    answered = [entry for entry in sim.log if entry["status"] != 429]
    limited = [entry for entry in sim.log if entry["status"] == 429 and not entry["fault"]]
    bound = len(answered) // PER_SECOND + 1
    print("load: %s requests answered, %s refused by the rate limit; at most %s refusals for any one request, "
          "api_retries %s" % (len(answered), len(limited), bound, API_RETRIES))
    # The derivation above: no request can be refused more often than it may retry, whatever the machine's speed.
    assert bound <= API_RETRIES, "the load outgrew its retries: %s answered requests need api_retries >= %s" % (len(answered), bound)
    assert run.rc == 0, run
    creates = [entry for entry in sim.log if entry["method"] == "POST" and entry["status"] == 201]
    assert [(entry["method"], entry["status"]) for entry in sim.log if entry["fault"]] == [("GET", 429), ("POST", 429)]
    assert len(creates) == 20, "one create per tenant, none twice"
    rules = [rule["name"] for rule in sim.custom_rules[1004]]
    for host in HOSTS:
        assert rules.count("load %s" % host) == 1
