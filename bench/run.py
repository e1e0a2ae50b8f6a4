#!/usr/bin/env python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""`make bench`: speed and request figures of the collection against the local simulator.

Prints a table (figure, target, verdict) and writes bench/output/results.json. Nothing here is a
test: the figures are for people to compare between runs (bench/RESULTS.md records a run).
"""

from __future__ import annotations

import json
import os
import pathlib
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from collection_link import collections_path  # noqa: E402  pylint: disable=wrong-import-position
from inventory_output import plain  # noqa: E402  pylint: disable=wrong-import-position
from simulator.core import Simulator  # noqa: E402  pylint: disable=wrong-import-position
from simulator.resources.waap import generated_custom_rule  # noqa: E402  pylint: disable=wrong-import-position

REPEATS = int(os.environ.get("BENCH_REPEATS", "7"))
NETWORK_ID = "8c4b5f1e-1a3b-4b4e-9d57-2f0a4cb6a001"  # the simulator's public network
SET_SIZE = 200  # rules of a domain kept as code (issue 13)
GATHERED = 1000
LOOP = ROOT / "bench" / "waap_policy_loop.yml"  # the per-rule loop waap_policy was, kept as the reference
INSTANCES = 5000  # the inventory side by side (issue 19): 1,250 in each of the simulator's 4 project/region pairs
NETWORK_RULES = 50  # a security group declared with its rules (issue 26), beside a network and a subnet
LB_LISTENERS = 10  # a load balancer declared whole (issue 28): 10 listeners of 10 members each
SHARE_RULES = 20  # a file share declared with its access rules (issue 48)
INVENTORY_REPEATS = int(os.environ.get("BENCH_INVENTORY_REPEATS", "3"))
STACK_MODULE_TASKS = 10  # the module tasks of examples/stack.yml's second run (Bench.stack)
PRODUCTION_MODULE_TASKS = 15  # the module tasks of examples/production.yml's second run (Bench.production)
BOOT_SECONDS = (5.0, 60.0)  # an instance that becomes ACTIVE after this long (issue 27)
FLEET_SIZE, FLEET_BOOT = 20, 30.0  # a fleet of 20 instances, each booting in 30 s of the simulator's clock (issue 35)
# The loop of 20 instance tasks boots each in this many seconds (the simulator has no fast clock: 20 x 30 s would be ten
# minutes); its time at a 30 s boot is extrapolated from it (each task waits for its own boot, one after the other).
FLEET_LOOP_BOOT = float(os.environ.get("BENCH_FLEET_LOOP_BOOT", "3"))
ROLL_SIZE, ROLL_BATCH, ROLL_BOOT = 5, 2, 10.0  # a new image rolled through 5 members, 2 at a time, each booting in 10 s (issue 46)


def kind_of(path):
    """What a request is about: the path's resource kind (``/cloud/v1/instances/1/76/...`` -> ``instances``), with the
    sub-resource of an item (``instances/interfaces``)."""
    parts = path.strip("/").split("/")
    kind = parts[2] if len(parts) > 2 and parts[0] == "cloud" else "/".join(parts[:3])
    tail = [part for part in parts[5:] if not any(char.isdigit() for char in part)]
    return "/".join([kind] + tail[-1:])


def task_polls(log, gap=0.25):
    """(task polls, polling rounds) of a run's request log: the reads of tasks (by id, or the task listing), a round
    being the polls sent with less than ``gap`` seconds between them (the waiter sleeps 0.5 s or more between rounds)."""
    times = [entry["time"] for entry in log if entry["method"] == "GET" and re.match(r"^/(cloud/)?v1/tasks(/|$)", entry["path"])]
    return len(times), sum(1 for index, moment in enumerate(times) if index == 0 or moment - times[index - 1] >= gap)


class Bench:
    def __init__(self):
        self.sim = Simulator()
        self.sim.start()
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="gcore-bench-"))
        self.rows = []
        self.output = ""  # the stdout of the last run

    def play(self, name, tasks):
        path = self.tmp / ("%s.yml" % name)
        path.write_text(json.dumps([{"name": name, "hosts": "localhost", "gather_facts": False, "tasks": tasks}]))
        return path

    def run(self, playbook, check=True, extra_vars=None, inventory="localhost,", flags=()):
        env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=collections_path(), GCORE_API_URL=self.sim.url,
                   GCORE_API_KEY=self.sim.api_key, GCORE_CLOUD_PROJECT_ID="1", GCORE_CLOUD_REGION_ID="76")
        command = [os.path.join(os.path.dirname(sys.executable), "ansible-playbook"), str(playbook), "-i", str(inventory),
                   "-c", "local", "-e", "ansible_python_interpreter=%s" % sys.executable]
        if extra_vars is not None:
            command += ["-e", "@%s" % extra_vars]
        started = time.perf_counter()
        done = subprocess.run(command + list(flags), env=env, capture_output=True, text=True, check=False)
        elapsed = time.perf_counter() - started
        self.output = done.stdout
        if check and done.returncode != 0:
            raise RuntimeError("%s failed:\n%s" % (playbook, done.stdout[-3000:]))
        return elapsed

    def row(self, figure, value, target, ok, unit=""):
        self.rows.append({"figure": figure, "value": value, "unit": unit, "target": target, "ok": ok})

    # ---- 1. whole-run wall time -------------------------------------------------------------------
    def wall_time(self):
        noop = self.play("noop", [{"name": "Nothing", "ansible.builtin.meta": "noop"}])
        uri = self.play("uri", [{"name": "Same request with uri", "ansible.builtin.uri": {
            "url": self.sim.url + "/cloud/v2/client_quotas/1/notification_threshold",
            "headers": {"Authorization": "apikey {{ lookup('ansible.builtin.env', 'GCORE_API_KEY') }}"}}}])
        module = self.play("module", [{"name": "Module", "gcore.platform.notification_threshold_info": {"client_id": 1}}])
        times = {"noop": [], "uri": [], "module": []}
        self.run(module)  # warm caches once
        for repeat in range(REPEATS):
            order = [("noop", noop), ("uri", uri), ("module", module)]
            order = order[repeat % 3:] + order[:repeat % 3]  # paired, in rotating order
            for name, path in order:
                times[name].append(self.run(path))
        median = {name: statistics.median(values) for name, values in times.items()}
        ratio = (median["module"] - median["noop"]) / (median["uri"] - median["noop"])
        for name in ("noop", "uri", "module"):
            self.row("wall time, one task: %s (median of %s)" % (name, REPEATS), round(median[name], 3), "-", None, "s")
        self.row("(module - noop) / (uri - noop)", round(ratio, 3), "<= 0.6", ratio <= 0.6)

    # ---- 2. requests sent by no-op runs -----------------------------------------------------------
    def count(self, playbook):
        self.sim.mark = len(self.sim.log)
        self.run(playbook)
        return len(self.sim.log[self.sim.mark:])

    def request_counts(self):
        self.sim.reset()
        router = {"name": "bench-router", "routes": [{"destination": "10.10.0.0/24", "nexthop": "192.168.0.10"}],
                  "external_gateway_info": {"network_id": NETWORK_ID}}
        by_name = self.play("router_by_name", [{"name": "Router", "gcore.platform.router": router, "register": "r"},
                                               {"name": "Keep id", "ansible.builtin.copy": {
                                                   "content": "{{ r.router.id }}", "dest": str(self.tmp / "router_id")}}])
        self.run(by_name)
        router_id = (self.tmp / "router_id").read_text().strip()
        by_id = self.play("router_by_id", [{"name": "Router", "gcore.platform.router": dict(router, id=router_id)}])
        found = self.count(by_name) - 0
        self.row("requests: no-op router run by name", found, "1 (list)", found == 1)
        found = self.count(by_id)
        self.row("requests: no-op router run by id", found, "1 (get)", found == 1)
        rule = self.play("rule", [{"name": "Rule", "gcore.platform.waap_custom_rule": {
            "domain_id": 1001, "name": "bench rule", "action": {"block": {"status_code": 403}},
            "conditions": [{"ip": {"ip_address": "192.0.2.10"}}]}}])
        self.run(rule)
        found = self.count(rule)
        self.row("requests: no-op waap_custom_rule run", found, "1 (list)", found == 1)
        rules = self.play("firewall", [{"name": "Firewall rules", "gcore.platform.firewall_rules_info": {}, "register": "fw"},
                                       {"name": "Check", "ansible.builtin.assert": {"that": ["fw.count == %s" % self.firewall_total()]}}])
        found = self.count(rules)
        pages = -(-self.firewall_total() // 100) + (1 if self.firewall_total() % 100 == 0 else 0)
        self.row("requests: firewall_rules_info over %s rules" % self.firewall_total(), found, "%s pages" % pages, found == pages)

    def firewall_total(self):
        return len(getattr(self.sim, "firewall_rules", []))

    # ---- 3. task-wait overshoot -------------------------------------------------------------------
    def task_overshoot(self):
        for delay in (1.0, 5.0):
            self.sim.reset()
            create = self.play("router_wait", [{"name": "Router", "gcore.platform.router": {"name": "wait-router"}}])
            self.run(create)
            self.sim.configure(task_delay=delay)
            rename = self.play("router_rename", [{"name": "Rename", "gcore.platform.router": {"name": "wait-router", "routes": [
                {"destination": "10.20.0.0/24", "nexthop": "192.168.0.20"}]}}])
            self.sim.mark = len(self.sim.log)
            self.run(rename)
            log = self.sim.log[self.sim.mark:]
            write = [entry for entry in log if entry["method"] == "PATCH"][0]
            polls = [entry for entry in log if "/tasks/" in entry["path"]]
            finished_at = write["time"] + delay
            overshoot = log[-1]["time"] - finished_at
            self.row("task wait overshoot, %.0f s task" % delay, round(overshoot, 3), "<= 0.5", overshoot <= 0.5, "s")
            self.row("task polls, %.0f s task" % delay, len(polls), "<= 12" if delay == 5.0 else "-",
                     len(polls) <= 12 if delay == 5.0 else None)
        self.sim.configure(task_delay=0.3)

    # ---- 4. firewall listing with latency ---------------------------------------------------------
    def firewall_latency(self):
        self.sim.reset()
        self.sim.configure(latency=0.05)
        rules = self.play("firewall_latency", [{"name": "Firewall rules", "gcore.platform.firewall_rules_info": {}}])
        self.sim.mark = len(self.sim.log)
        self.run(rules)
        log = self.sim.log[self.sim.mark:]
        inside = log[-1]["time"] + 0.05 - log[0]["time"]
        self.row("firewall_rules_info, %s rules, 50 ms latency: time in requests" % self.firewall_total(),
                 round(inside, 3), "<= 0.35", inside <= 0.35, "s")
        self.row("  requests sent (pages past the end included)", len(log), "-", None)
        self.sim.configure(latency=0.0)

    # ---- 5. a domain's rules as code: the set module against the per-rule loop --------------------
    def measure(self, playbook, extra_vars=None, inventory="localhost,", flags=()):
        """Run once: (requests, writes, seconds, the log of the run)."""
        self.sim.mark = len(self.sim.log)
        elapsed = self.run(playbook, extra_vars=extra_vars, inventory=inventory, flags=flags)
        log = self.sim.log[self.sim.mark:]
        return len(log), len(self.sim.writes(log)), elapsed, log

    def rule_sets(self):
        self.sim.reset()
        domain = self.sim.seeds["waap"]["empty_domain_id"]
        rules = [generated_custom_rule(number) for number in range(1, SET_SIZE + 1)]
        variables = self.tmp / "rules.json"
        variables.write_text(json.dumps({"domain_id": domain, "rules": rules, "waap_policy_domain_id": domain,
                                         "waap_policy_rules": rules}))

        def sets(name, state, config, that):
            task = {"name": "Rules", "gcore.platform.waap_custom_rules": {"domain_id": "{{ domain_id }}", "state": state}, "register": "r"}
            if config is not None:
                task["gcore.platform.waap_custom_rules"]["config"] = config
            return self.play(name, [task, {"name": "Check", "ansible.builtin.assert": {"that": that}}])

        label = "%s rules" % SET_SIZE
        first = sets("sets_first", "merged", "{{ rules }}", ["r.changed", "r.changes.created | length == %s" % SET_SIZE])
        requests, writes, elapsed, _log = self.measure(first, variables)
        self.row("waap_custom_rules, first run, %s creates: requests (writes)" % label, "%s (%s)" % (requests, writes), "report", None)
        self.row("waap_custom_rules, first run, %s creates: wall time" % label, round(elapsed, 3), "report", None, "s")

        noop = sets("sets_noop", "merged", "{{ rules }}", ["not r.changed", "r.custom_rules | length == %s" % SET_SIZE])
        single = self.play("single_rule", [{"name": "Rule", "gcore.platform.waap_custom_rule": dict(rules[0], domain_id="{{ domain_id }}"),
                                            "register": "r"}, {"name": "Check", "ansible.builtin.assert": {"that": ["not r.changed"]}}])
        requests, writes, _elapsed, log = self.measure(noop, variables)
        pages = SET_SIZE // 100 + 1
        self.row("waap_custom_rules, %s matching: requests (writes)" % label, "%s (%s)" % (requests, writes),
                 "%s pages, 0" % pages, requests == pages and writes == 0)
        times = {"sets": [], "single": []}
        for repeat in range(REPEATS):
            order = [("sets", noop), ("single", single)]
            for name, path in order[repeat % 2:] + order[:repeat % 2]:
                times[name].append(self.run(path, extra_vars=variables))
        median = {name: statistics.median(values) for name, values in times.items()}
        self.row("wall time, one waap_custom_rule task, no change (median of %s)" % REPEATS, round(median["single"], 3), "-", None, "s")
        self.row("waap_custom_rules, %s matching: wall time (median of %s)" % (label, REPEATS), round(median["sets"], 3),
                 "<= %.3f (2x)" % (2 * median["single"]), median["sets"] <= 2 * median["single"], "s")

        requests, writes, elapsed, _log = self.measure(LOOP, variables)
        self.row("reference: per-rule loop (old waap_policy), %s matching: requests (writes)" % label, "%s (%s)" % (requests, writes),
                 "reference", None)
        self.row("reference: per-rule loop (old waap_policy), %s matching: wall time" % label, round(elapsed, 3), "reference", None, "s")
        self.row("  set module vs loop: wall time ratio", round(median["sets"] / elapsed, 4), "-", None)

        purge = sets("sets_purge", "overridden", [], ["r.changed", "r.changes.deleted | length == %s" % SET_SIZE, "r.custom_rules == []"])
        requests, writes, elapsed, log = self.measure(purge, variables)
        bulk = [entry for entry in log if entry["path"].endswith("/bulk_delete")]
        self.row("waap_custom_rules, purge of %s (overridden, config: []): requests (writes)" % label, "%s (%s)" % (requests, writes),
                 "report", None)
        self.row("  bulk_delete calls", len(bulk), "%s (<= 100 ids a call)" % -(-SET_SIZE // 100), len(bulk) == -(-SET_SIZE // 100))
        self.row("waap_custom_rules, purge of %s: wall time" % label, round(elapsed, 3), "report", None, "s")

        self.sim.control("POST", "/_sim/waap_rules", {"domain_id": domain, "custom_rules": GATHERED, "firewall_rules": GATHERED})
        for module, key in (("waap_custom_rules", "custom_rules"), ("waap_firewall_rules", "firewall_rules")):
            gathered = self.play("gathered_" + key, [
                {"name": "Export", "gcore.platform.%s" % module: {"domain_id": "{{ domain_id }}", "state": "gathered"}, "register": "r"},
                {"name": "Check", "ansible.builtin.assert": {"that": ["not r.changed", "r.gathered | length == %s" % GATHERED]}},
                {"name": "Keep", "ansible.builtin.copy": {"content": "{{ {'domain_id': domain_id, 'exported': r.gathered} | to_json }}",
                                                          "dest": str(self.tmp / ("%s.json" % key))}}])
            requests, writes, elapsed, _log = self.measure(gathered, variables)
            self.row("%s, %s rules gathered: requests" % (module, GATHERED), requests, "<= 11", requests <= 11)
            self.row("%s, %s rules gathered: wall time" % (module, GATHERED), round(elapsed, 3), "report", None, "s")
            back_tasks = [{"name": "Import", "register": "r", "gcore.platform.%s" % module: {
                "domain_id": "{{ domain_id }}", "state": "overridden", "config": "{{ exported }}"}},
                {"name": "Check", "ansible.builtin.assert": {"that": ["not r.changed"]}}]
            back = self.play("roundtrip_" + key, back_tasks)
            requests, writes, elapsed, _log = self.measure(back, self.tmp / ("%s.json" % key))
            self.row("%s, gathered -> overridden, %s rules: requests (writes)" % (module, GATHERED), "%s (%s)" % (requests, writes),
                     "11 (0)", requests == 11 and writes == 0)
            one = self.play("one_task", [{"name": "Module", "gcore.platform.notification_threshold_info": {"client_id": 1}}])
            # timed as a one-task play too: the run above asserted that it changes nothing and sends no write
            alone = self.play("alone_" + key, back_tasks[:1])
            # what ansible-core alone costs for the same data: a ping task given the exported rules and returning them
            ping = self.play("ping_" + key, [{"name": "Ping", "ansible.builtin.ping": {"data": "{{ exported | to_json }}"}}])
            exported = self.tmp / ("%s.json" % key)
            plays = {"set": (alone, exported), "one": (one, None), "loaded": (one, exported), "ping": (ping, exported)}
            times = dict((name, []) for name in plays)
            for repeat in range(REPEATS):  # in rotating order
                names = list(plays)[repeat % len(plays):] + list(plays)[:repeat % len(plays)]
                for name in names:
                    times[name].append(self.run(plays[name][0], extra_vars=plays[name][1]))
            median = dict((name, statistics.median(values)) for name, values in times.items())
            ratio = median["set"] / median["one"]
            self.row("%s, gathered -> overridden, %s rules: wall time / one-task play (medians of %s)" % (module, GATHERED, REPEATS),
                     "%.2f (%.3f s / %.3f s)" % (ratio, median["set"], median["one"]), "<= 1.5", ratio <= 1.5)
            self.row("  reference: the one-task play with the same %s rules loaded as extra variables / one-task play" % GATHERED,
                     "%.2f (%.3f s)" % (median["loaded"] / median["one"], median["loaded"]), "-", None)
            self.row("  reference: ansible.builtin.ping given and returning the same %s rules / one-task play" % GATHERED,
                     "%.2f (%.3f s)" % (median["ping"] / median["one"], median["ping"]), "-", None)

    # ---- a WAAP domain's 100 policies, one of which changes (issue 38) ----------------------------------------
    def policies(self):
        self.sim.reset()
        variables = self.tmp / "policies.json"
        task = {"name": "Policies", "gcore.platform.waap_policies": {"domain_id": 1003, "state": "gathered"}, "register": "r"}
        keep = {"name": "Keep", "ansible.builtin.copy": {"dest": str(variables), "content": (
            "{{ {'policies': r.gathered | "
            "map('dict2items') | map('rejectattr', 'key', 'in', ['rule_set', 'name']) | map('items2dict') | list} | to_json }}")}}
        self.run(self.play("policies_gather", [task, keep]))
        declared = json.loads(variables.read_text())["policies"]
        declared[0]["enabled"] = not declared[0]["enabled"]
        variables.write_text(json.dumps({"policies": declared}))
        one = self.play("policies_one", [{"name": "Policies", "gcore.platform.waap_policies": {
            "domain_id": 1003, "policies": "{{ policies }}"}, "register": "r"},
            {"name": "Check", "ansible.builtin.assert": {"that": ["r.changed"]}}])
        requests, writes, elapsed, _log = self.measure(one, variables)
        self.row("waap_policies, %s policies, one changes: requests (writes)" % len(declared), "%s (%s)" % (requests, writes),
                 "2 (1): one read, one write", requests == 2 and writes == 1)
        self.row("waap_policies, %s policies, one changes: wall time" % len(declared), round(elapsed, 3), "report", None, "s")

    # ---- 200 declared advanced rules with nothing to change (issue 38) ------------------------------------------
    def advanced_rules(self):
        self.sim.reset()
        domain = self.sim.seeds["waap"]["empty_domain_id"]
        rules = [{"name": "Advanced rule %03d" % number, "enabled": True, "action": {"block": {"status_code": 403}}, "phase": "access",
                  "source": "request.headers['x-client'] == 'client-%d' and whois.country == 'DE'" % number}
                 for number in range(1, SET_SIZE + 1)]
        self.sim.advanced_rules[domain] = [dict(rule, id=40000 + index) for index, rule in enumerate(rules)]
        variables = self.tmp / "advanced.json"
        variables.write_text(json.dumps({"domain_id": domain, "rules": rules}))
        noop = self.play("advanced_noop", [{"name": "Advanced rules", "register": "r", "gcore.platform.waap_advanced_rules": {
            "domain_id": "{{ domain_id }}", "config": "{{ rules }}"}}, {"name": "Check", "ansible.builtin.assert": {"that": ["not r.changed"]}}])
        requests, writes, _elapsed, _log = self.measure(noop, variables)
        pages = SET_SIZE // 100 + 1
        self.row("waap_advanced_rules, %s matching: requests (writes)" % SET_SIZE, "%s (%s)" % (requests, writes),
                 "%s pages + 1 descriptor, 0" % pages, requests == pages + 1 and writes == 0)
        one = self.play("advanced_one", [{"name": "Module", "gcore.platform.notification_threshold_info": {"client_id": 1}}])
        times = {"set": [], "one": []}
        for repeat in range(REPEATS):
            order = [("set", noop, variables), ("one", one, None)]
            for name, path, extra in order[repeat % 2:] + order[:repeat % 2]:
                times[name].append(self.run(path, extra_vars=extra))
        median = dict((name, statistics.median(values)) for name, values in times.items())
        self.row("waap_advanced_rules, %s matching: wall time / one-task play (medians of %s)" % (SET_SIZE, REPEATS),
                 "%.2f (%.3f s / %.3f s)" % (median["set"] / median["one"], median["set"], median["one"]), "report", None)

    # ---- 7. a load balancer declared whole: 10 listeners, 100 members (issue 28) --------------------------------
    def load_balancers(self):
        self.sim.reset()
        self.sim.configure(task_delay=0.05)
        listeners = [{"name": "listener-%02d" % number, "protocol": "TCP", "protocol_port": 8000 + number, "pool": {
            "name": "pool-%02d" % number, "lb_algorithm": "ROUND_ROBIN", "protocol": "TCP",
            "healthmonitor": {"type": "TCP", "delay": 10, "max_retries": 3, "timeout": 5},
            "members": [{"address": "10.1.%s.%s" % (number, host), "protocol_port": 9000} for host in range(1, 11)]}}
            for number in range(LB_LISTENERS)]
        variables = self.tmp / "lb.json"
        variables.write_text(json.dumps({"listeners": listeners}))
        more = json.loads(json.dumps(listeners))
        more[0]["pool"]["members"].append({"address": "10.1.0.99", "protocol_port": 9000})
        (self.tmp / "lb_more.json").write_text(json.dumps({"listeners": more}))

        def lb(name, that):
            return self.play(name, [{"name": "Load balancer", "register": "r", "gcore.platform.load_balancer": {
                "name": "bench-lb", "listeners": "{{ listeners }}"}}, {"name": "Check", "ansible.builtin.assert": {"that": that}}])

        label = "load_balancer, %s listeners, %s members" % (LB_LISTENERS, LB_LISTENERS * 10)
        requests, writes, elapsed, _log = self.measure(lb("lb_first", ["r.changed"]), variables)
        self.row("%s, first run: requests (writes)" % label, "%s (%s)" % (requests, writes), "report (1 write)", writes == 1)
        noop = lb("lb_noop", ["not r.changed", "r.load_balancer.listeners | length == %s" % LB_LISTENERS])
        requests, writes, _elapsed, log = self.measure(noop, variables)
        self.row("%s, second run: requests (writes)" % label, "%s (%s)" % (requests, writes), "3 (0)", requests == 3 and writes == 0)
        one = self.play("one_task", [{"name": "Module", "gcore.platform.notification_threshold_info": {"client_id": 1}}])
        times = {"lb": [], "one": []}
        for repeat in range(REPEATS):  # paired, in rotating order
            for name in (("lb", "one") if repeat % 2 else ("one", "lb")):
                times[name].append(self.run(noop, extra_vars=variables) if name == "lb" else self.run(one))
        ratio = statistics.median(times["lb"]) / statistics.median(times["one"])
        self.row("%s, second run: wall time / one-task play (medians of %s)" % (label, REPEATS),
                 "%.2f (%.3f s / %.3f s)" % (ratio, statistics.median(times["lb"]), statistics.median(times["one"])), "report", None)
        requests, writes, elapsed, log = self.measure(lb("lb_member", ["r.changed", "r.changes.members.added == ['10.1.0.99:9000']"]),
                                                      self.tmp / "lb_more.json")
        sent = ["%s %s" % (entry["method"], entry["path"].split("/")[3]) for entry in self.sim.writes(log)]
        self.row("%s, one member added: writes" % label, ", ".join(sent), "PATCH lbpools", sent == ["PATCH lbpools"])
        self.sim.configure(task_delay=0.3)

    def networks(self):
        """A declared network, subnet and security group of 50 rules: the second run's requests and wall time."""
        self.sim.reset()
        self.sim.configure(task_delay=0.05)
        rules = [{"direction": "ingress", "protocol": "tcp", "port_range_min": 1000 + number, "remote_ip_prefix": "10.%s.0.0/16" % number}
                 for number in range(NETWORK_RULES - 1)] + [{"direction": "egress", "protocol": "tcp", "port_range_min": 443}]
        first, variables = self.tmp / "network_first.json", self.tmp / "network.json"
        first.write_text(json.dumps({"rules": rules, "first": True}))
        variables.write_text(json.dumps({"rules": rules, "first": False}))
        stack = self.play("network_stack", [
            {"name": "Network", "register": "net", "gcore.platform.network": {"name": "bench-net"}},
            {"name": "Subnet", "register": "subnet", "gcore.platform.subnet": {
                "name": "bench-subnet", "network_id": "{{ net.network.id }}", "cidr": "10.77.0.0/24"}},
            {"name": "Security group", "register": "group", "gcore.platform.security_group": {"name": "bench-sg", "rules": "{{ rules }}"}},
            {"name": "Check", "ansible.builtin.assert": {"that": [
                "(net.changed or subnet.changed or group.changed) == first", "group.security_group.security_group_rules | length == %s" % NETWORK_RULES]}}])
        label = "network + subnet + security group of %s rules" % NETWORK_RULES
        requests, writes, _elapsed, _log = self.measure(stack, first)
        self.row("%s, first run: requests (writes)" % label, "%s (%s)" % (requests, writes), "report", None)
        requests, writes, _elapsed, log = self.measure(stack, variables)
        reads = ", ".join("%s %s" % (entry["method"], entry["path"].split("/")[3]) for entry in log)
        self.row("%s, second run: requests (writes)" % label, "%s (%s)" % (requests, writes), "3 (0): one read each",
                 requests == 3 and writes == 0)
        self.row("  the reads", reads, "-", None)
        three = self.play("three_tasks", [{"name": "Module %s" % number, "gcore.platform.notification_threshold_info": {"client_id": 1}}
                                          for number in range(3)])
        times = {"stack": [], "three": []}
        for repeat in range(REPEATS):  # paired, in rotating order
            for name in (("stack", "three") if repeat % 2 else ("three", "stack")):
                times[name].append(self.run(stack, extra_vars=variables) if name == "stack" else self.run(three))
        ratio = statistics.median(times["stack"]) / statistics.median(times["three"])
        self.row("%s, second run: wall time / a play of three one-read tasks (medians of %s)" % (label, REPEATS),
                 "%.2f (%.3f s / %.3f s)" % (ratio, statistics.median(times["stack"]), statistics.median(times["three"])), "report", None)
        self.sim.configure(task_delay=0.3)

    def baremetal(self):
        """A declared bare metal server (issue 48): its first run's requests, and its second run's (one read, no write)."""
        self.sim.reset()
        self.sim.configure(task_delay=0.05)
        play = self.play("baremetal", [{"name": "Bare metal server", "gcore.platform.baremetal_server": {
            "name": "bench-metal", "flavor": "bm1-basic-small", "image": "ubuntu-22.04-x64", "interfaces": [{"type": "external"}],
            "tags": {"env": "bench"}, "state": "started"}}])
        requests, writes, _elapsed, _log = self.measure(play)
        self.row("baremetal_server, first run: requests (writes)", "%s (%s)" % (requests, writes), "report", None)
        requests, writes, _elapsed, log = self.measure(play)
        self.row("baremetal_server, second run: requests (writes)", "%s (%s)" % (requests, writes), "1 (0): one read",
                 requests == 1 and writes == 0)
        self.row("  the reads", ", ".join("%s %s" % (entry["method"], kind_of(entry["path"])) for entry in log), "-", None)
        self.sim.configure(task_delay=0.3)

    def file_share(self):
        """A file share declared with its access rules (issue 48): the second run reads the share and its rules, once each."""
        self.sim.reset()
        self.sim.configure(task_delay=0.05)
        rules = [{"ip_address": "10.%s.0.0/16" % number, "access_mode": "rw" if number % 2 else "ro"} for number in range(SHARE_RULES)]
        share = self.play("file_share", [{"name": "File share", "register": "r", "gcore.platform.file_share": {
            "name": "bench-share", "size": 10, "network": "router-net-1", "subnet": "router-subnet-1", "access": rules}},
            {"name": "Check", "ansible.builtin.assert": {"that": ["r.file_share.access | length == %s" % SHARE_RULES]}}])
        label = "file_share with %s access rules" % SHARE_RULES
        requests, writes, _elapsed, _log = self.measure(share)
        self.row("%s, first run: requests (writes)" % label, "%s (%s)" % (requests, writes), "report (1 write)", writes == 1)
        requests, writes, _elapsed, log = self.measure(share)
        reads = ", ".join("%s %s" % (entry["method"], kind_of(entry["path"])) for entry in log)
        self.row("%s, second run: requests (writes)" % label, "%s (%s)" % (requests, writes), "2 (0): the share, its rules",
                 requests == 2 and writes == 0)
        self.row("  the reads", reads, "-", None)
        self.sim.configure(task_delay=0.3)

    def k8s(self):
        """The k8s_cluster story's steps (issue 47): each step's first run's requests, and its second run's: the cluster read
        once (its pools are in its record), the kubeconfig once where the step writes it, no write."""
        self.sim.reset()
        self.sim.configure(task_delay=0.05)
        cluster = {"name": "bench-k8s", "version": "1.30.6", "keypair": "deploy"}
        workers = {"name": "workers", "flavor_id": "g1-standard-2-4", "min_node_count": 1, "max_node_count": 4, "node_count": 2}
        batch = {"name": "batch", "flavor_id": "g1-standard-4-8", "min_node_count": 1, "max_node_count": 2, "taints": {"dedicated": "batch:NoSchedule"}}
        gpu = {"name": "gpu", "flavor_id": "g1-standard-8-16", "min_node_count": 1, "max_node_count": 2}
        steps = (("build, two pools, kubeconfig", dict(pools=[workers, batch], kubeconfig_path=str(self.tmp / "bench.kubeconfig")), 2, 2),
                 ("scale a pool", dict(pools=[dict(workers, node_count=3)]), 1, 1),
                 ("add a pool, label one, purge one", dict(pools=[{"name": "workers", "labels": {"tier": "web"}}, gpu], purge_pools=True), 3, 1),
                 ("upgrade", dict(version="1.31.2", allow_upgrade=True), 1, 1), ("delete", dict(state="absent"), 1, 1))
        for label, options, sent, reads in steps:
            play = self.play("k8s", [{"name": "K8s cluster", "gcore.platform.k8s_cluster": dict(cluster, **options)}])
            requests, writes, _elapsed, _log = self.measure(play)
            self.row("k8s_cluster, %s, first run: requests (writes)" % label, "%s (%s)" % (requests, writes), "report (%s)" % sent, writes == sent)
            requests, writes, _elapsed, log = self.measure(play)
            self.row("  second run: requests (writes)", "%s (%s)" % (requests, writes), "%s (0): %s" % (
                reads, "the cluster, its kubeconfig" if reads == 2 else "the cluster"), requests == reads and writes == 0)
            self.row("    the reads", ", ".join("%s %s" % (entry["method"], kind_of(entry["path"])) for entry in log), "-", None)
        self.sim.configure(task_delay=0.3)

    # ---- 8. compute as code (issue 27): the stack's second run, and the wait for an instance to be ACTIVE -----------
    def stack(self):
        """examples/stack.yml on its inventory file (as tests/integration/test_examples.py runs it), run twice
        (``second_run``); the reference play has STACK_MODULE_TASKS one-read tasks (the preflight role's quota_check and
        price_preview, then network, subnet, router, security_group, ssh_key, instance, volume and floating_ip). The
        stack's inventory plugin (read at the start and at refresh_inventory) is not in the reference play either."""
        self.second_run("stack", ROOT / "examples" / "stack.yml", STACK_MODULE_TASKS, inventory=ROOT / "examples" / "stack.gcore.yml")

    def production(self):
        """examples/production.yml (issue 36), run twice (``second_run``); the reference play has PRODUCTION_MODULE_TASKS
        one-read tasks: the preflight role's instance_info and load_balancer_info (nothing is left to create, so no quota
        check and no price), then the 13 resource tasks (network to reserved_fixed_ip, the snapshot schedule of issue 49
        among them; the load balancer with its L7 policies). The second run's reads by resource show what L7 costs: one
        listing of the region's policies and one of each policy's rules."""
        self.second_run("production", ROOT / "examples" / "production.yml", PRODUCTION_MODULE_TASKS)

    def second_run(self, label, playbook, module_tasks, inventory="localhost,"):
        """An example playbook built once, then run again. The second run's requests, by resource (the path's kind), and its
        writes; then its wall time against a play of ``module_tasks`` one-read tasks, one per module task the example runs.
        Each module task is one process, the bulk of a play's time; the example's controller-side tasks (include_role,
        set_fact, assert, meta) are not in the reference play, so they count against the example."""
        self.sim.reset()
        self.sim.configure(task_delay=0.05)
        requests, writes, elapsed, _log = self.measure(playbook, inventory=inventory)
        self.row("%s (examples/%s), first run: requests (writes)" % (label, playbook.name), "%s (%s)" % (requests, writes), "report", None)
        requests, writes, _elapsed, log = self.measure(playbook, inventory=inventory)
        label = "%s, second run" % label
        self.row("%s: requests (writes)" % label, "%s (%s)" % (requests, writes), "0 writes", writes == 0)
        kinds = {}
        for entry in log:
            kind = "%s %s" % (entry["method"], kind_of(entry["path"]))
            kinds[kind] = kinds.get(kind, 0) + 1
        self.row("  by resource", ", ".join("%s x%s" % item for item in sorted(kinds.items())), "one read each", None)
        one_read = self.play("%s_reference" % label.split(",")[0], [
            {"name": "Module %s" % number, "gcore.platform.notification_threshold_info": {"client_id": 1}} for number in range(module_tasks)])
        times = {"example": [], "reference": []}
        for repeat in range(REPEATS):  # paired, in rotating order
            for name in (("example", "reference") if repeat % 2 else ("reference", "example")):
                times[name].append(self.run(playbook, inventory=inventory) if name == "example" else self.run(one_read))
        median = dict((name, statistics.median(values)) for name, values in times.items())
        ratio = median["example"] / median["reference"]
        self.row("%s: wall time / a play of %s one-read tasks (medians of %s)" % (label, module_tasks, REPEATS),
                 "%.2f (%.3f s / %.3f s)" % (ratio, median["example"], median["reference"]), "report", None)
        self.row("  per module task", "%.3f s / %.3f s" % (median["example"] / module_tasks, median["reference"] / module_tasks),
                 "-", None)
        self.sim.configure(task_delay=0.3)

    def stack_check(self):
        """``ansible-playbook --check --diff examples/stack.yml`` on an empty project (issue 35): of the stack's module
        tasks that build a resource (``gcore.platform.*`` in its build block, the preflight role aside), how many preview
        a create (changed, with a diff), and the writes the run sent (goals: all, 0)."""
        self.sim.reset()
        self.sim.configure(task_delay=0.05)
        playbook, inventory = ROOT / "examples" / "stack.yml", ROOT / "examples" / "stack.gcore.yml"
        build = yaml.safe_load(playbook.read_text())[0]["tasks"][0]["block"]
        names = [task["name"] for task in build if any(key.startswith("gcore.platform.") for key in task)]
        requests, writes, _elapsed, _log = self.measure(playbook, inventory=inventory, flags=("--check", "--diff"))
        sections = dict(re.findall(r"TASK \[([^\]]*)\] \**\n(.*?)(?=\nTASK \[|\nPLAY RECAP)", self.output, re.S))
        previewed = [name for name in names if "changed: [localhost]" in sections.get(name, "") and "+++ after" in sections.get(name, "")]
        self.row("stack --check --diff on an empty project: tasks previewed / tasks", "%s / %s" % (len(previewed), len(names)),
                 "all", len(previewed) == len(names))
        self.row("  its requests (writes)", "%s (%s)" % (requests, writes), "0 writes", writes == 0)
        self.sim.configure(task_delay=0.3)

    def instance_wait(self):
        """The wait overshoot of an instance created with ``wait: true``: the simulator boots it in N seconds of its clock
        (``instances_boot_seconds``; the boot starts at the module's first read of the created instance); the
        overshoot runs from the moment the boot ends (the instance is ACTIVE) to the module's last request (its result
        follows at once). Goals: <= 0.5 s, and <= 10 % of the wait."""
        for seconds in BOOT_SECONDS:
            self.sim.reset()
            self.sim.configure(task_delay=0.05, instances_boot_seconds=seconds)
            create = self.play("instance_wait", [{"name": "Instance", "register": "r", "gcore.platform.instance": {
                "name": "wait-%s" % int(seconds), "flavor": "g1-standard-2-4", "interfaces": [{"type": "external"}],
                "volumes": [{"source": "image", "image_name": "ubuntu-22.04", "size": 10, "boot_index": 0}]}},
                {"name": "Check", "ansible.builtin.assert": {"that": ["r.changed", "r.instance.status == 'ACTIVE'"]}}])
            offset = time.time() - time.monotonic()  # the simulator's task clock (monotonic) as wall time, like its log
            _requests, _writes, elapsed, log = self.measure(create)
            boot = [task for task in self.sim.tasks.values() if task["record"]["task_type"] == "boot_instance"]
            active_at = boot[0]["started"] + boot[0]["delay"] + offset
            polls = [entry for entry in log if entry["method"] == "GET" and entry["time"] >= boot[0]["started"] + offset]
            overshoot = log[-1]["time"] - active_at
            self.row("instance ACTIVE after %.0f s: wait overshoot" % seconds, round(overshoot, 3), "<= 0.5", 0 <= overshoot <= 0.5, "s")
            self.row("  overshoot / wait", "%.1f %%" % (100 * overshoot / seconds), "<= 10 %", 0 <= overshoot <= 0.1 * seconds)
            self.row("  reads while booting (play wall time)", "%s (%.1f s)" % (len(polls), elapsed), "-", None)
        self.sim.configure(task_delay=0.3, instances_boot_seconds=None)

    # ---- 9. a fleet (issue 35): one instances task against one instance task and a loop of instance tasks ---------
    # (issue 46: its tasks polled by one listing a round)
    def fleet(self):
        """FLEET_SIZE instances booting in FLEET_BOOT s each: one ``instances`` task (creates sent together, tasks and
        readiness waited for together) against one ``instance`` task (the floor) and a loop of FLEET_SIZE ``instance``
        tasks (booted in FLEET_LOOP_BOOT s, extrapolated to FLEET_BOOT s). Requests, listings before the first create,
        creates, and wall time. Goal: the fleet within 1.5x one instance, one listing, FLEET_SIZE creates."""
        spec = {"flavor": "g1-standard-2-4", "interfaces": [{"type": "external"}],
                "volumes": [{"source": "image", "image_name": "ubuntu-22.04", "size": 10, "boot_index": 0}]}
        listing, create = "/cloud/v1/instances/1/76", "/cloud/v2/instances/1/76"

        def measured(name, tasks, boot):
            self.sim.reset()
            self.sim.configure(task_delay=0.5, instances_boot_seconds=boot)
            requests, _writes, elapsed, log = self.measure(self.play(name, tasks))
            posts = [index for index, entry in enumerate(log) if (entry["method"], entry["path"]) == ("POST", create)]
            before = sum(1 for entry in log[:posts[0]] if (entry["method"], entry["path"]) == ("GET", listing)) if posts else 0
            return requests, before, len(posts), elapsed, task_polls(log)

        fleet = measured("fleet", [{"name": "Fleet", "gcore.platform.instances": dict(
            spec, count=FLEET_SIZE, name_format="fleet-{index}")}], FLEET_BOOT)
        one = measured("one", [{"name": "One", "gcore.platform.instance": dict(spec, name="solo-1")}], FLEET_BOOT)
        loop = measured("loop", [{"name": "Loop", "gcore.platform.instance": dict(spec, name="loop-{{ item }}"),
                                  "loop": "{{ range(1, %d) | list }}" % (FLEET_SIZE + 1)}], FLEET_LOOP_BOOT)
        loop_at_boot = loop[3] + FLEET_SIZE * (FLEET_BOOT - FLEET_LOOP_BOOT)
        label = "%s instances booting in %.0f s" % (FLEET_SIZE, FLEET_BOOT)
        self.row("%s: one instances task, wall time" % label, round(fleet[3], 1), "<= %.1f (1.5x)" % (1.5 * one[3]),
                 fleet[3] <= 1.5 * one[3], "s")
        self.row("  requests, listings before the first create, creates", "%s, %s, %s" % fleet[:3], "-, 1, %s" % FLEET_SIZE,
                 fleet[1] == 1 and fleet[2] == FLEET_SIZE)
        polls, rounds = fleet[4]
        self.row("  task polls / polling rounds (one listing a round; one read learns its scope)", "%s / %s" % (polls, rounds),
                 "<= rounds + 1", polls <= rounds + 1)
        self.row("  one instance task: wall time (requests)", "%.1f s (%s)" % (one[3], one[0]), "-", None)
        self.row("  loop of %s instance tasks: wall time at %.0f s boots (requests)" % (FLEET_SIZE, FLEET_LOOP_BOOT),
                 "%.1f s (%s)" % (loop[3], loop[0]), "-", None)
        self.row("  loop of %s instance tasks at %.0f s boots (extrapolated)" % (FLEET_SIZE, FLEET_BOOT), round(loop_at_boot), "-", None, "s")
        self.sim.configure(task_delay=0.3, instances_boot_seconds=None)

    # ---- 10. a roll (issue 46): a new image through a fleet, a batch at a time, against one instance's replacement -----
    def roll(self):
        """A new image rolled through ROLL_SIZE members in batches of ROLL_BATCH (``rolling``), each new member booting in
        ROLL_BOOT s, against one instance's replacement (a fleet of one rolled: its delete, its create, its boot). Each
        batch waits until the one before it is ready, so the roll takes about one replacement a batch. Goal: within
        3.5x one replacement (three batches)."""
        spec = {"flavor": "g1-standard-2-4", "interfaces": [{"type": "external"}], "delete_volumes": True}

        def volumes(image):
            return [{"source": "image", "image_name": image, "size": 10, "boot_index": 0}]

        def measured(name, count, batch):
            self.sim.reset()
            self.sim.configure(task_delay=0.05, instances_boot_seconds=None)
            fleet = dict(spec, count=count, name_format=name + "-{index}")
            self.run(self.play(name + "-fleet", [{"name": "Fleet", "gcore.platform.instances": dict(fleet, volumes=volumes("ubuntu-22.04"))}]))
            self.sim.configure(task_delay=0.5, instances_boot_seconds=ROLL_BOOT)
            rolled = self.play(name, [{"name": "Roll", "register": "r", "gcore.platform.instances": dict(
                fleet, volumes=volumes("ubuntu-22.04-old"), rolling={"batch": batch})},
                {"name": "Check", "ansible.builtin.assert": {"that": ["r.changes.replaced | length == %d" % count]}}])
            requests, writes, elapsed, _log = self.measure(rolled)
            return requests, writes, elapsed

        roll = measured("roll", ROLL_SIZE, ROLL_BATCH)
        one = measured("one", 1, 1)
        ratio = roll[2] / one[2]
        label = "roll of %s in batches of %s, booting in %.0f s" % (ROLL_SIZE, ROLL_BATCH, ROLL_BOOT)
        self.row("%s: wall time / one replacement" % label, "%.2f (%.1f s / %.1f s)" % (ratio, roll[2], one[2]), "<= 3.5",
                 ratio <= 3.5)
        self.row("  requests (writes): the roll, one replacement", "%s (%s), %s (%s)" % (roll[0], roll[1], one[0], one[1]),
                 "%s, 2 writes" % (2 * ROLL_SIZE), roll[1] == 2 * ROLL_SIZE and one[1] == 2)
        self.sim.configure(task_delay=0.3, instances_boot_seconds=None)

    # ---- 6. dynamic inventory: gcore.platform.cloud against a static file of the same hosts --------
    def inventory_list(self, source, *args):
        """One ``ansible-inventory --list`` run: (seconds, requests, the inventory)."""
        env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=collections_path(), GCORE_API_URL=self.sim.url,
                   GCORE_API_KEY=self.sim.api_key, ANSIBLE_INVENTORY_UNPARSED_FAILED="1")
        command = [os.path.join(os.path.dirname(sys.executable), "ansible-inventory"), "-i", str(source), "--list"] + list(args)
        mark = len(self.sim.log)
        started = time.perf_counter()
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
        elapsed = time.perf_counter() - started
        if done.returncode != 0:
            raise RuntimeError("ansible-inventory -i %s failed:\n%s" % (source, done.stderr[-3000:]))
        return elapsed, len(self.sim.log) - mark, json.loads(done.stdout)

    def inventory(self):
        self.sim.reset()
        self.sim.control("POST", "/_sim/instances", {"count": INSTANCES})
        config = self.tmp / "bench.gcore.yml"
        config.write_text(json.dumps({"plugin": "gcore.platform.cloud", "projects": [1, 2], "regions": [76, 1], "cache": True,
                                      "cache_plugin": "ansible.builtin.jsonfile", "cache_connection": str(self.tmp / "cache")}))
        _elapsed, _requests, listed = self.inventory_list(config, "--flush-cache")
        hostvars = plain(listed["_meta"]["hostvars"])
        static = self.tmp / "static.yml"
        static.write_text(yaml.safe_dump({"all": {"hosts": hostvars}}, default_flow_style=False))
        times = {"dynamic": [], "cached": [], "static": []}
        requests = {"dynamic": [], "cached": []}
        for repeat in range(INVENTORY_REPEATS):
            order = [("dynamic", (config, "--flush-cache")), ("cached", (config,)), ("static", (static,))]
            for name, args in order[repeat % 3:] + order[:repeat % 3]:
                elapsed, sent, listed = self.inventory_list(*args)
                times[name].append(elapsed)
                if name in requests:
                    requests[name].append(sent)
                if len(listed["_meta"]["hostvars"]) != INSTANCES:
                    raise RuntimeError("%s: %s hosts, not %s" % (name, len(listed["_meta"]["hostvars"]), INSTANCES))
        median = dict((name, statistics.median(values)) for name, values in times.items())
        label = "ansible-inventory --list, %s instances" % INSTANCES
        self.row("%s: static YAML file (median of %s)" % (label, INVENTORY_REPEATS), round(median["static"], 3), "-", None, "s")
        self.row("%s: gcore.platform.cloud (median of %s)" % (label, INVENTORY_REPEATS), round(median["dynamic"], 3),
                 "<= %.3f (2x)" % (2 * median["static"]), median["dynamic"] <= 2 * median["static"], "s")
        self.row("  requests a run", "/".join(map(str, requests["dynamic"])), "8 (2 pages x 4)", set(requests["dynamic"]) == {8})
        self.row("%s: gcore.platform.cloud, fresh cache (median of %s)" % (label, INVENTORY_REPEATS), round(median["cached"], 3),
                 "<= %.3f (1.2x)" % (1.2 * median["static"]), median["cached"] <= 1.2 * median["static"], "s")
        self.row("  requests a cached run", "/".join(map(str, requests["cached"])), "0", set(requests["cached"]) == {0})
        self.constructed(config)
        self.sim.reset()

    def constructed(self, config):
        """The README's ``keyed_groups`` plus a ``compose`` against a static file holding the same groups and variables."""
        options = json.loads(config.read_text())
        options.update(keyed_groups=[{"key": "gcore_tags.env | default('untagged')", "prefix": "env"}],
                       compose={"gcore_env": "gcore_tags.env | default('untagged')"})
        dynamic = self.tmp / "constructed.gcore.yml"
        dynamic.write_text(json.dumps(options))
        _elapsed, _requests, listed = self.inventory_list(dynamic, "--flush-cache")
        hostvars = plain(listed["_meta"]["hostvars"])
        groups = dict((name, {"hosts": dict.fromkeys(members["hosts"], {})}) for name, members in listed.items()
                      if name not in ("_meta", "all") and members.get("hosts"))
        static = self.tmp / "constructed_static.yml"
        static.write_text(yaml.safe_dump({"all": {"hosts": hostvars, "children": groups}}, default_flow_style=False))
        times = {"dynamic": [], "static": []}
        for repeat in range(INVENTORY_REPEATS):
            for name in (("dynamic", "static") if repeat % 2 else ("static", "dynamic")):
                elapsed, _sent, listed = self.inventory_list(*((dynamic, "--flush-cache") if name == "dynamic" else (static,)))
                times[name].append(elapsed)
        median = dict((name, statistics.median(values)) for name, values in times.items())
        label = "ansible-inventory --list, %s instances, keyed_groups + compose" % INSTANCES
        self.row("%s: static YAML, same groups and variables (median of %s)" % (label, INVENTORY_REPEATS),
                 round(median["static"], 3), "-", None, "s")
        self.row("%s: gcore.platform.cloud (median of %s)" % (label, INVENTORY_REPEATS), round(median["dynamic"], 3),
                 "<= %.3f (2x)" % (2 * median["static"]), median["dynamic"] <= 2 * median["static"], "s")

    def report(self):
        width = max(len(row["figure"]) for row in self.rows)
        print("\n%-*s  %10s  %-12s  %s" % (width, "figure", "value", "target", "verdict"))
        print("-" * (width + 40))
        for row in self.rows:
            verdict = "-" if row["ok"] is None else ("met" if row["ok"] else "MISSED")
            print("%-*s  %10s  %-12s  %s" % (width, row["figure"], "%s%s" % (row["value"], row["unit"]), row["target"], verdict))
        machine = {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count(),
                   "processor": platform.processor() or platform.machine()}
        print("\nmachine: %s" % json.dumps(machine))
        out = ROOT / "bench" / "output"
        out.mkdir(parents=True, exist_ok=True)
        (out / "results.json").write_text(json.dumps({"machine": machine, "rows": self.rows}, indent=2))


def main():
    bench = Bench()
    try:
        steps = (bench.wall_time, bench.request_counts, bench.task_overshoot, bench.firewall_latency, bench.rule_sets, bench.policies,
                 bench.advanced_rules,
                 bench.networks, bench.load_balancers, bench.baremetal, bench.file_share, bench.k8s,
                 bench.stack, bench.stack_check, bench.production, bench.instance_wait, bench.fleet, bench.roll, bench.inventory)
        only = os.environ.get("BENCH_ONLY")  # e.g. BENCH_ONLY=rule_sets: one step while working on it
        for step in [step for step in steps if not only or step.__name__ in only.split(",")]:
            started = time.perf_counter()
            step()
            print("%s done in %.1f s" % (step.__name__, time.perf_counter() - started), file=sys.stderr)
    finally:
        bench.sim.stop()
    bench.report()
    return 0


if __name__ == "__main__":
    sys.exit(main())
