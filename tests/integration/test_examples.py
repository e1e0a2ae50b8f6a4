# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every playbook of examples/, played as it is by ansible-playbook against the simulator.

A user runs them with only the GCORE_* variables set (the ``playbook`` fixture sets them, as AWX would): no
id is swapped. Each play must send its requests, leave the simulated service as it says, and a second run
must report ``changed=0`` and send no write. The stack (examples/stack.yml, from quota to host) runs on its
inventory file twice, then is torn down with ``stack_state=absent``; the production tier (examples/production.yml)
likewise, with ``production_state=absent``. The demo (examples/demo.yml, what ``make demo`` runs) runs once
on a fresh simulator. No ad hoc command in the docs passes the API key on the command line.
"""

from __future__ import annotations

import copy
import json
import re

import pytest
import requests

import pem
from conftest import ROOT
from test_plan import summary

EXAMPLES = ROOT / "examples"
# stack.yml runs on its inventory file (stack.gcore.yml, not a playbook) and is torn down, and so is production.yml: their own
# tests below.
PLAYS = sorted(path.name for path in EXAMPLES.glob("*.yml")
               if path.name not in ("demo.yml", "stack.yml", "production.yml") and not path.name.endswith(".gcore.yml"))
RECAP = re.compile(r"localhost\s*:\s*ok=\d+\s+changed=(\d+)\s+unreachable=0\s+failed=0")


def names(rules):
    return sorted(rule["name"] for rule in rules)


def firewall_rules_of(sim, domain_id):
    return [rule for rule in sim.firewall_rules if rule["domain"]["id"] == domain_id]


def router_named(sim, name):
    found = [router for router in sim.routers.values() if router["name"] == name]
    assert len(found) == 1, found
    return found[0]


def listener_secrets(sim, lb_name):
    """{listener name: the name of its secret (None: none)} of the load balancer named ``lb_name``."""
    return dict((listener["name"], (sim.secrets.get(listener["secret_id"]) or {}).get("name"))
                for listener in sim.lb_listeners.values() if sim.load_balancers[listener["load_balancer_id"]]["name"] == lb_name)


def pem_dir(tmp_path):
    """The certificate files tls_rotation.yml reads (a certificate made now, its own chain, its key)."""
    folder = tmp_path / "tls"
    folder.mkdir(exist_ok=True)
    made = pem.payload()  # a certificate made now: a certificate is checked before it is uploaded
    for name, text in (("www.crt", made["certificate"]), ("chain.crt", made["certificate_chain"]), ("www.key", made["private_key"])):
        (folder / name).write_text(text, encoding="utf-8")
    return {"cert_dir": str(folder)}


def addresses(router):
    """{subnet_id: ip_address} of a router's interfaces."""
    return dict((assignment["subnet_id"], assignment["ip_address"])
                for port in router["interfaces"] for assignment in port["ip_assignments"])


# What the first run of each example sends (method, path regex, how many) and leaves in the service.
FIRST_RUN = {
    "waap_custom_rules.yml": (
        [("POST", r"^/waap/v1/domains/1001/custom-rules$", 3)],
        lambda sim: {"Example: tag mobile app clients", "Example: captcha for logins from abroad",
                     "Example: block scrapers on the API"} <= set(names(sim.custom_rules[1001])),
    ),
    "waap_firewall_rules.yml": (
        [("POST", r"^/waap/v1/domains/1001/firewall-rules$", 2)],
        lambda sim: {"Example: allow the office", "Example: block a scanner range"} <= set(names(firewall_rules_of(sim, 1001))),
    ),
    "waap_domain.yml": (
        [("PATCH", r"^/waap/v2/domains/1006$", 1), ("PATCH", r"^/waap/v2/domains/1006/settings$", 1),
         ("PATCH", r"^/waap/v2/domains/1006/policies/S5507510[34]$", 1), ("POST", r"^/waap/v1/domains/1006/custom-rules$", 2),
         ("POST", r"^/waap/v1/domains/1006/firewall-rules$", 1), ("POST", r"^/waap/v1/domains/1006/advanced-rules$", 1),
         ("POST", r"^/waap/v1/domains/1006/default-rule-overrides$", 1)],
        lambda sim: sim.waap_domains[1006]["status"] == "active" and sim.waap_settings[1006]["ddos"]["burst_threshold"] == 1500
        and sim.waap_policy_modes[1006]["S55075103"] is True and sim.waap_policy_modes[1006]["S55075104"] is True
        and names(sim.custom_rules[1006]) == ["Example: block a known bad TLS client", "Example: captcha for a scraping network"]
        and names(sim.policy_overrides[1006]) == ["Example: admin SQL console"],
    ),
    "waap_policy.yml": (
        [("POST", r"^/waap/v1/domains/1002/custom-rules$", 2)],
        lambda sim: {"Example: block admin from outside", "Example: captcha for curl"} <= set(names(sim.custom_rules[1002])),
    ),
    "load_balancer.yml": (
        [("POST", r"^/cloud/v1/loadbalancers/1/76$", 1)],
        lambda sim: sorted((listener["name"], listener["protocol_port"]) for listener in sim.lb_listeners.values()
                           if sim.load_balancers[listener["load_balancer_id"]]["name"] == "example-web-lb")
        == [("http", 80), ("postgres", 5432)],
    ),
    "storage.yml": (
        [("POST", r"^/storage/v4/object_storages$", 1), ("POST", r"^/storage/v4/object_storages/\d+/buckets$", 1),
         ("PATCH", r"^/storage/v4/object_storages/\d+/buckets/example-nightly-logs$", 1), ("POST", r"^/storage/v4/ssh_keys$", 1),
         ("POST", r"^/storage/v4/sftp_storages$", 1)],
        lambda sim: sorted(record["name"] for record in sim.storages.values() if record["name"].startswith("1-example-"))
        == ["1-example-media", "1-example-partner-drop"],
    ),
    "network.yml": (
        [("POST", r"^/cloud/v1/networks/1/76$", 1), ("POST", r"^/cloud/v1/subnets/1/76$", 1)],
        lambda sim: [subnet["cidr"] for subnet in sim.subnets.values() if subnet["name"] == "example-app-subnet"] == ["10.42.0.0/24"]
        and [network["subnets"] for network in sim.networks.values() if network["name"] == "example-app-net"]
        == [[subnet_id for subnet_id, subnet in sim.subnets.items() if subnet["name"] == "example-app-subnet"]],
    ),
    "file_share.yml": (
        [("POST", r"^/cloud/v1/networks/1/76$", 1), ("POST", r"^/cloud/v1/subnets/1/76$", 1), ("POST", r"^/cloud/v1/file_shares/1/76$", 1)],
        lambda sim: [(record["size"], record["status"], record["network"]["subnet_name"]) for record in sim.file_shares.values()
                     if record["name"] == "example-uploads"] == [(50, "available", "example-web-subnet")]
        and sorted((rule["access_to"], rule["access_level"]) for record in sim.file_shares.values() if record["name"] == "example-uploads"
                   for rule in sim.access_rules[record["id"]]) == [("10.43.0.0/24", "rw"), ("10.43.0.250", "ro")],
    ),
    "router_interfaces.yml": (
        [("POST", r"^/cloud/v1/routers/1/76$", 1)],
        lambda sim: addresses(router_named(sim, "example-app-router")).get("5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b02") == "192.168.20.1"
        and "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01" in addresses(router_named(sim, "example-app-router")),
    ),
    "tls_rotation.yml": (
        [("POST", r"^/cloud/v2/secrets/1/76$", 1), ("POST", r"^/cloud/v1/loadbalancers/1/76$", 1)],
        lambda sim: listener_secrets(sim, "example-tls-lb") == {"https": "example-www-2026", "http": None},
    ),
    "baremetal_server.yml": (
        [("GET", r"^/cloud/v1/bmcapacity/1/76$", 1), ("POST", r"^/cloud/v1/bminstances/1/76$", 1)],
        lambda sim: [record["status"] for record in sim.instances if record["name"] == "example-metal-1"
                     and record["id"] in sim.baremetal_ids] == ["ACTIVE"],
    ),
    "restore_volume.yml": (
        [("POST", r"^/cloud/v1/volumes/1/76$", 2), ("POST", r"^/cloud/v1/snapshots/1/76$", 1)],
        lambda sim: [record["size"] for record in sim.volumes.values() if record["name"] == "example-restore-data-restored"] == [2]
        and [(body["source"], body.get("snapshot_id")) for body in map(json.loads, bodies(sim, "POST", r"^/cloud/v1/volumes/1/76$"))][1]
        == ("snapshot", next(ident for ident, record in sim.snapshots.items() if record["name"] == "example-restore-data-nightly")),
    ),
    "adopt.yml": (
        [("PATCH", r"^/cloud/v\d/networks/1/76/", 1), ("PATCH", r"^/cloud/v\d/volumes/1/76/", 1)],
        lambda sim: [network["name"] for network in sim.networks.values()
                     if {"key": "managed-by", "value": "ansible", "read_only": False} in network["tags"]] == ["router-net-1"]
        and not [entry for entry in sim.writes() if entry["method"] in ("POST", "DELETE")],
    ),
    "drift.yml": (
        [("POST", r"^/cloud/v1/networks/1/76$", 1), ("POST", r"^/cloud/v2/security_groups/1/76$", 1)],
        lambda sim: [network["name"] for network in sim.networks.values() if network["name"] == "example-drift-net"] == ["example-drift-net"],
    ),
    "blue_green.yml": (
        [("POST", r"^/cloud/v2/instances/1/76$", 2), ("POST", r"^/cloud/v1/loadbalancers/1/76$", 1)],
        lambda sim: bg_members(sim) == bg_addresses(sim, "blue"),
    ),
    "snapshot_schedule.yml": (
        [("POST", r"^/cloud/v1/volumes/1/76$", 1), ("POST", r"^/cloud/v1/lifecycle_policy/1/76$", 1),
         ("PUT", r"^/cloud/v1/lifecycle_policy/1/76/\d+/add_volumes_to_policy$", 1)],
        lambda sim: [([schedule["hour"] for schedule in policy["schedules"]], [schedule["max_quantity"] for schedule in policy["schedules"]],
                      [sim.volumes[ident]["name"] for ident in policy["volumes"]])
                     for policy in sim.lifecycle_policies.values() if policy["name"] == "example-db-nightly"] == [(["2"], [7], ["example-db-data"])],
    ),
    "kubernetes.yml": (
        [("POST", r"^/cloud/v2/k8s/clusters/1/76$", 1), ("POST", r"^/cloud/v2/k8s/clusters/1/76/example-k8s/pools/web/resize$", 1)],
        lambda sim: [(pool["name"], pool["node_count"], pool["status"]) for cluster in sim.k8s_clusters.values()
                     for pool in cluster["pools"]] == [("web", 3, "Running"), ("batch", 1, "Running")],
    ),
    "security_group.yml": (
        [("POST", r"^/cloud/v2/security_groups/1/76$", 2), ("PATCH", r"^/cloud/v2/security_groups/1/76/", 1)],
        lambda sim: sorted((rule["direction"], rule["ethertype"], rule["port_range_min"])
                           for group in sim.security_groups.values() if group["name"] == "example-web"
                           for rule in group["security_group_rules"])
        == [("egress", "IPv4", 443), ("ingress", "IPv4", 22), ("ingress", "IPv4", 443), ("ingress", "IPv6", 443)],
    ),
}


def bodies(sim, method, path):
    """The bodies of the requests of ``method`` to paths matching ``path``."""
    return [entry["body"] for entry in sim.requests(method, path)]


def bg_members(sim):
    """The addresses of the blue/green example's pool members."""
    return sorted(member["address"] for pool in sim.lb_pools.values() if pool["name"] == "example-bg-http" for member in pool["members"])


def bg_addresses(sim, generation):
    """The private addresses of the instances of one generation of the blue/green example."""
    return sorted(port["ip_assignments"][0]["ip_address"] for record in sim.instances if record["name"].startswith("example-bg-%s-" % generation)
                  for port in sim.instance_ports[record["id"]])


def run_ok(playbook, path, **options):
    run = playbook(str(path), **options)
    assert run.rc == 0, run
    recap = RECAP.search(run.output)
    assert recap, run
    return run, int(recap.group(1))


def test_every_set_example_exists():
    assert set(FIRST_RUN) <= set(PLAYS), sorted(set(FIRST_RUN) - set(PLAYS))


# Variables a user may set, pointed at the test's own directory (credentials_dir: where storage.yml keeps the S3 keys).
EXTRA_VARS = {"storage.yml": lambda tmp_path: {"credentials_dir": str(tmp_path / "credentials")}, "tls_rotation.yml": pem_dir,
              "kubernetes.yml": lambda tmp_path: {"kubeconfig_dir": str(tmp_path / "kube")}}


@pytest.mark.parametrize("play", PLAYS)
def test_example_runs_and_converges(playbook, sim, play, tmp_path):
    extra_vars = EXTRA_VARS[play](tmp_path) if play in EXTRA_VARS else None
    run, changed = run_ok(playbook, EXAMPLES / play, extra_vars=extra_vars)
    assert sim.requests(), "examples/%s sent no request" % play
    expected = FIRST_RUN.get(play)
    if expected:
        requests, state = expected
        assert changed > 0, run
        for method, path, count in requests:
            sent = sim.requests(method, path)
            assert len(sent) == count, (method, path, [entry["path"] for entry in sim.writes()])
        assert state(sim), "examples/%s did not leave the service as it says" % play

    if play == "storage.yml":  # the S3 keys, stored at once in a file only the owner can read
        keys = tmp_path / "credentials" / "example-media-keys.json"
        assert keys.stat().st_mode & 0o777 == 0o600 and "secret_key" in keys.read_text()

    if play == "kubernetes.yml":  # the kubeconfig, in a file only the owner can read
        assert (tmp_path / "kube" / "example-k8s.kubeconfig").stat().st_mode & 0o777 == 0o600

    mark = len(sim.log)
    run, changed = run_ok(playbook, EXAMPLES / play, extra_vars=extra_vars)
    assert changed == 0, run
    assert sim.writes(sim.log[mark:]) == [], "the second run of examples/%s wrote" % play
    assert sim.log[mark:], "the second run of examples/%s sent no request" % play


def test_the_tls_example_rotates_the_certificate_and_converges(playbook, sim, tmp_path):
    """A renewal: the new secret uploaded, the listener pointed at it by one PATCH, the old secret deleted; then nothing."""
    files = pem_dir(tmp_path)
    run_ok(playbook, EXAMPLES / "tls_rotation.yml", extra_vars=files)
    old = next(ident for ident, record in sim.secrets.items() if record["name"] == "example-www-2026")
    renewal = dict(files, cert_name="example-www-2027", old_cert_name="example-www-2026")
    mark = len(sim.log)
    run, changed = run_ok(playbook, EXAMPLES / "tls_rotation.yml", extra_vars=renewal)
    assert changed == 3, run
    sent = [(entry["method"], entry["path"].rsplit("/", 1)[0] if entry["method"] != "POST" else entry["path"])
            for entry in sim.writes(sim.log[mark:])]
    assert sent == [("POST", "/cloud/v2/secrets/1/76"), ("PATCH", "/cloud/v2/lblisteners/1/76"),
                    ("DELETE", "/cloud/v1/secrets/1/76")], sent
    assert sim.writes(sim.log[mark:])[2]["path"].endswith(old)
    assert listener_secrets(sim, "example-tls-lb") == {"https": "example-www-2027", "http": None}
    assert sorted(record["name"] for record in sim.secrets.values() if record["name"].startswith("example-")) == ["example-www-2027"]
    mark = len(sim.log)
    run, changed = run_ok(playbook, EXAMPLES / "tls_rotation.yml", extra_vars=renewal)
    assert changed == 0 and sim.writes(sim.log[mark:]) == [], run


def test_the_drift_example_shows_a_hand_edit_and_repairs_it(playbook, sim):
    """examples/drift.yml (issue 46): a tag edited and a rule added by hand show in --check --diff (nothing sent), a run
    writes back only those, and the next run changes nothing."""
    path = EXAMPLES / "drift.yml"
    run_ok(playbook, path)
    network = next(record for record in sim.networks.values() if record["name"] == "example-drift-net")
    edited = requests.patch("%s/cloud/v1/networks/1/76/%s" % (sim.url, network["id"]), json={"tags": {"env": "staging"}},
                            headers={"Authorization": "apikey %s" % sim.api_key}, timeout=30)
    assert edited.status_code == 200, edited.text
    group = next(record for record in sim.security_groups.values() if record["name"] == "example-drift-web")
    extra = copy.deepcopy(next(rule for rule in group["security_group_rules"] if rule.get("port_range_min") == 443))
    extra.update(id="3f0e6a59-1d5e-4c37-9a53-5d0b9e7c2a11", port_range_min=22, port_range_max=22, description="quick test")
    group["security_group_rules"].append(extra)  # a rule added by hand in the Customer Portal

    mark = len(sim.log)
    check = playbook(str(path), check=True, diff=True, verbosity=None)
    assert check.rc == 0 and sim.writes(sim.log[mark:]) == [], check
    sections = task_sections(check.output)
    tags, rules = sections["Network - its tags as declared (a tag edited by hand is set back)"], \
        sections["Security group - exactly these rules (a rule added by hand is removed)"]
    assert "changed: [localhost]" in tags and '-        "env": "staging"' in tags and '+        "env": "production"' in tags, tags
    assert "changed: [localhost]" in rules and "quick test" in rules, rules
    mark = len(sim.log)
    run, changed = run_ok(playbook, path)
    assert changed == 2, run
    assert [(entry["method"], entry["path"].split("/")[3]) for entry in sim.writes(sim.log[mark:])] == [
        ("PATCH", "networks"), ("PATCH", "security_groups")], sim.writes(sim.log[mark:])
    mark = len(sim.log)
    run, changed = run_ok(playbook, path)
    assert changed == 0 and sim.writes(sim.log[mark:]) == [], run


def test_the_blue_green_example_switches_the_pool_before_the_old_generation_goes(playbook, sim):
    """examples/blue_green.yml (issue 46): blue live, then green built, the pool switched to it, and blue deleted after
    the switch; the switch made again changes nothing."""
    path = EXAMPLES / "blue_green.yml"
    run_ok(playbook, path)
    blue = bg_addresses(sim, "blue")
    mark = len(sim.log)
    green = {"bg_live": "green"}
    run, changed = run_ok(playbook, path, extra_vars=green)
    writes = [(entry["method"], entry["path"].split("/")[3]) for entry in sim.writes(sim.log[mark:])]
    switched = writes.index(("PUT", "loadbalancers")) if ("PUT", "loadbalancers") in writes else len(writes)
    assert writes[:switched].count(("POST", "instances")) == 2 and ("DELETE", "instances") not in writes[:switched], writes
    assert [write for write in writes[switched:] if write[1] != "loadbalancers"] == [("DELETE", "instances")] * 2, writes
    assert bg_members(sim) == bg_addresses(sim, "green") and len(bg_members(sim)) == 2 and not set(blue) & set(bg_members(sim))
    assert sorted(record["name"] for record in sim.instances if record["name"].startswith("example-bg-")) == [
        "example-bg-green-1", "example-bg-green-2"]
    mark = len(sim.log)
    run, changed = run_ok(playbook, path, extra_vars=green)
    assert changed == 0 and sim.writes(sim.log[mark:]) == [], run


STACK = "example-stack"


def stack_left(sim):
    """What the stack left in the simulator, by store: the names (or ids) of its records."""
    def named(records):
        return sorted(record["name"] for record in records if record["name"].startswith(STACK))

    return {
        "networks": named(sim.networks.values()), "subnets": named(sim.subnets.values()),
        "routers": named(sim.routers.values()), "security_groups": named(sim.security_groups.values()),
        "ssh_keys": named(sim.ssh_keys.values()), "instances": named(sim.instances), "volumes": named(sim.volumes.values()),
        "floating_ips": sorted(record["id"] for record in sim.floating_ips.values()
                               if ("stack", "example") in [(tag["key"], tag["value"]) for tag in record.get("tags") or []]),
    }


def test_the_stack_builds_converges_and_tears_down(playbook, sim):
    inventory = str(EXAMPLES / "stack.gcore.yml")
    run, changed = run_ok(playbook, EXAMPLES / "stack.yml", inventory=inventory)
    assert changed > 0, run
    # The preflight asked for the instance's quota and price before anything was written.
    first_write = sim.log.index(sim.writes()[0])
    assert [entry["path"] for entry in sim.log[:first_write] if entry["path"].endswith(("check_limits", "/instances"))
            and entry["method"] == "POST"] == ["/cloud/v2/instances/1/76/check_limits", "/cloud/v2/pricing/1/76/instances"]
    left = stack_left(sim)
    assert {key: value for key, value in left.items() if key != "floating_ips"} == {
        "networks": [STACK + "-net"], "subnets": [STACK + "-subnet"], "routers": [STACK + "-router"],
        "security_groups": [STACK + "-ssh"], "ssh_keys": [STACK + "-key"], "instances": [STACK + "-web"],
        "volumes": [STACK + "-web-boot", STACK + "-web-data"]}, left
    assert len(left["floating_ips"]) == 1, left
    instance = next(record for record in sim.instances if record["name"] == STACK + "-web")
    floating = sim.floating_ips[left["floating_ips"][0]]
    data = next(record for record in sim.volumes.values() if record["name"] == STACK + "-web-data")
    router = router_named(sim, STACK + "-router")
    subnet_id = next(key for key, record in sim.subnets.items() if record["name"] == STACK + "-subnet")
    assert instance["status"] == "ACTIVE" and instance["ssh_key_name"] == STACK + "-key"
    assert [group["name"] for group in instance["security_groups"]] == [STACK + "-ssh"]
    assert [attachment["server_id"] for attachment in data["attachments"]] == [instance["id"]]
    assert floating["port_id"] == sim.instance_ports[instance["id"]][0]["port_id"]
    assert subnet_id in addresses(router) and router["external_gateway_info"]
    # refresh_inventory: the inventory plugin lists the new host on its floating IP.
    shown = "%s is in the inventory, ansible_host %s" % (STACK + "-web", floating["floating_ip_address"])
    assert shown in run.output, run

    mark = len(sim.log)
    run, changed = run_ok(playbook, EXAMPLES / "stack.yml", inventory=inventory)
    assert changed == 0, run
    assert sim.writes(sim.log[mark:]) == [], [(entry["method"], entry["path"]) for entry in sim.writes(sim.log[mark:])]
    assert shown in run.output, run
    # The preflight found the instance by its name: nothing to create, so no quota check and no price.
    assert "Nothing to create (already there: instances %s-web)" % STACK in run.output, run
    assert not [entry for entry in sim.log[mark:] if entry["path"].endswith(("check_limits", "/pricing/1/76/instances"))]

    mark = len(sim.log)
    run, changed = run_ok(playbook, EXAMPLES / "stack.yml", inventory=inventory, extra_vars={"stack_state": "absent"})
    assert changed > 0, run
    assert stack_left(sim) == {key: [] for key in left}, stack_left(sim)
    assert floating["id"] not in sim.floating_ips
    boot = [volume["id"] for volume in instance["volumes"]]
    assert boot and set(boot) <= set(sim.deleted_volumes), (boot, sim.deleted_volumes)
    deletes = [entry["path"].split("/")[3] for entry in sim.writes(sim.log[mark:]) if entry["method"] == "DELETE"]
    assert deletes == ["floatingips", "volumes", "instances", "ssh_keys", "securitygroups", "routers", "subnets",
                       "networks"], deletes

    mark = len(sim.log)
    run, changed = run_ok(playbook, EXAMPLES / "stack.yml", inventory=inventory, extra_vars={"stack_state": "absent"})
    assert changed == 0, run
    assert sim.writes(sim.log[mark:]) == [], "a second teardown wrote"


# The resource tasks of examples/stack.yml (the words their names start with), in order.
STACK_TASKS = ("Network - ", "Subnet - ", "Router - ", "Security group - ", "SSH key - ", "Instance - ", "Volume - ", "Floating IP - ")


def task_sections(output):
    """{task name: its output} of a run (the text between its TASK header and the next)."""
    return dict((name, body) for name, body in re.findall(r"TASK \[([^\]]*)\] \**\n(.*?)(?=\nTASK \[|\nPLAY RECAP)", output, re.S))


def assert_previews(run, sim, tasks):
    """A --check --diff run on an empty project: it sent no write, and each resource task (``tasks``: the words their names
    start with, in order) reported the create it would make (changed, a diff); the tasks' names in order."""
    assert run.rc == 0, run
    assert sim.writes() == [], [(entry["method"], entry["path"]) for entry in sim.writes()]
    sections = task_sections(run.output)
    previewed = [name for name in sections if name.startswith(tasks) and "skipping: " not in sections[name]]
    assert [name.split(" - ")[0] + " - " for name in previewed] == list(tasks), previewed
    for name in previewed:
        assert "changed: [localhost]" in sections[name] and "+++ after" in sections[name], (name, sections[name])
    assert re.search(r"localhost\s*:\s*ok=\d+\s+changed=%d\s+unreachable=0\s+failed=0" % len(tasks), run.output), run
    return sections, previewed


def assumed_parents(output):
    """(option, parent, module noun) of each warning that check mode assumes an earlier task creates a parent."""
    return sorted(re.findall(r"\[WARNING\]: (\S+): check mode assumes that an earlier task creates the (.+?) for this ([\w ]+?) \(", output))


def test_the_stack_check_on_an_empty_project_previews_every_resource_and_writes_nothing(playbook, sim):
    """Issue 35: --check --diff before anything exists: every resource task reports the create it would make
    (changed, a diff), the tasks whose parents are not built yet warn which parent they assume; no write is sent."""
    run = playbook(str(EXAMPLES / "stack.yml"), inventory=str(EXAMPLES / "stack.gcore.yml"), check=True, diff=True, verbosity=None)
    sections, previewed = assert_previews(run, sim, STACK_TASKS)
    # The instance's create diff shows what it makes: its image, and its network and subnet by the names the task gives.
    for line in ('"image": "ubuntu-22.04"', '"network": "example-stack-net"', '"subnet": "example-stack-subnet"', '"user_data": "not set"'):
        assert line in sections[previewed[5]], (line, sections[previewed[5]])
    # Each task whose parent is not built yet says which parent it assumes an earlier task creates.
    assert assumed_parents(run.output) == sorted([
        ("network", "network 'example-stack-net'", "subnet"),
        ("interfaces[0].subnet", "subnet 'example-stack-subnet'", "router"),
        ("interfaces[0].network", "network 'example-stack-net'", "instance"),
        ("interfaces[0].subnet", "subnet 'example-stack-subnet'", "instance"),
        ("security_groups", "security group 'example-stack-ssh'", "instance"),
        ("instance", "instance 'example-stack-web'", "volume"),
        ("instance", "instance 'example-stack-web'", "floating IP")]), run.output


PRODUCTION = "example-prod"
PRODUCTION_KEY = "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQghd316v1zCuB9njoU"  # a line of production.yml's example key


def production_left(sim):
    """What the production tier left in the simulator, by store: the names of its records (the reserved IPs: their address)."""
    def named(records):
        return sorted(record["name"] for record in records if record["name"].startswith(PRODUCTION))

    networks = [ident for ident, record in sim.networks.items() if record["name"].startswith(PRODUCTION)]
    return {
        "networks": named(sim.networks.values()), "subnets": named(sim.subnets.values()), "routers": named(sim.routers.values()),
        "security_groups": named(sim.security_groups.values()), "ssh_keys": named(sim.ssh_keys.values()),
        "placement_groups": named(sim.server_groups.values()), "instances": named(sim.instances),
        "volumes": named(sim.volumes.values()), "snapshots": named(sim.snapshots.values()), "secrets": named(sim.secrets.values()),
        "load_balancers": named(sim.load_balancers.values()), "snapshot_schedules": named(sim.lifecycle_policies.values()),
        "reserved_fixed_ips": sorted(record["fixed_ip_address"] for record in sim.reserved_fixed_ips.values() if record["network_id"] in networks),
    }


def test_the_production_tier_builds_converges_and_tears_down(playbook, sim, plan_env):
    """Issue 36: examples/production.yml builds the tier, a second run sends no write, the teardown deletes it all in
    reverse order and a second teardown sends nothing. The example private key is in no output (at -vvvv). Issue 46:
    a scale-in drains the instance it deletes first (the pools and the virtual IP drop it), the plan callback sums up
    each run."""
    path = EXAMPLES / "production.yml"
    run, changed = run_ok(playbook, path, env=plan_env)
    assert changed > 0 and PRODUCTION_KEY not in run.output, run
    assert summary(run.output) == ["localhost : 14 created, 0 changed, 0 replaced, 0 deleted"], run
    web = [PRODUCTION + "-web-1", PRODUCTION + "-web-2"]
    left = production_left(sim)
    assert left == {
        "networks": [PRODUCTION + "-net"], "subnets": [PRODUCTION + "-subnet"], "routers": [PRODUCTION + "-router"],
        "security_groups": [PRODUCTION + "-web"], "ssh_keys": [PRODUCTION + "-key"], "placement_groups": [PRODUCTION + "-web-spread"],
        "instances": web, "volumes": [PRODUCTION + "-data"] + [name + "-volume-0" for name in web],
        "snapshots": [PRODUCTION + "-data-baseline"], "secrets": [PRODUCTION + "-www"], "load_balancers": [PRODUCTION + "-lb"],
        "snapshot_schedules": [PRODUCTION + "-data-nightly"], "reserved_fixed_ips": ["10.78.0.250"]}, left
    instances = dict((record["name"], record) for record in sim.instances if record["name"] in web)
    ports = dict((name, sim.instance_ports[record["id"]][0]) for name, record in instances.items())
    # One instances task: both creates sent before either task was waited on.
    creates = [index for index, entry in enumerate(sim.log) if entry["method"] == "POST" and entry["path"] == "/cloud/v2/instances/1/76"]
    assert len(creates) == 2 and creates[1] == creates[0] + 1, creates
    group = next(record for record in sim.server_groups.values() if record["name"] == PRODUCTION + "-web-spread")
    assert group["policy"] == "anti-affinity" and sorted(item["instance_name"] for item in group["instances"]) == web, group
    data = next(record for record in sim.volumes.values() if record["name"] == PRODUCTION + "-data")
    assert [attachment["server_id"] for attachment in data["attachments"]] == [instances[web[0]]["id"]]
    assert [record["volume_id"] for record in sim.snapshots.values() if record["name"].startswith(PRODUCTION)] == [data["id"]]
    assert listener_secrets(sim, PRODUCTION + "-lb") == {"https": PRODUCTION + "-www", "http": None, "api": None}
    routes = sorted((sim.lb_listeners[policy["listener_id"]]["name"], policy["name"], policy["action"]) for policy in sim.l7policies.values())
    assert routes == [("http", "to-https", "REDIRECT_PREFIX"), ("https", "api", "REDIRECT_TO_POOL")], routes
    lb = next(ident for ident, record in sim.load_balancers.items() if record["name"] == PRODUCTION + "-lb")
    members = sorted((pool["name"], member["address"], member["protocol_port"]) for pool in sim.lb_pools.values()
                     if pool["loadbalancers"][0]["id"] == lb for member in pool["members"])
    private = sorted(port["ip_assignments"][0]["ip_address"] for port in ports.values())
    assert members == sorted((PRODUCTION + "-" + pool, address, 80) for pool in ("api", "http", "https") for address in private), members
    vip = next(ident for ident, record in sim.reserved_fixed_ips.items() if record["fixed_ip_address"] == "10.78.0.250")
    shared = next(family for family in sim.resources if family.NAME == "reserved_fixed_ips").connected_ports[vip]
    assert sim.reserved_fixed_ips[vip]["is_vip"] and sorted(shared) == sorted(port["port_id"] for port in ports.values()), shared

    mark = len(sim.log)
    run, changed = run_ok(playbook, path, env=plan_env)
    assert changed == 0, run
    assert sim.writes(sim.log[mark:]) == [], [(entry["method"], entry["path"]) for entry in sim.writes(sim.log[mark:])]
    assert "Nothing to create (already there: instances %s; load balancers %s-lb)" % (", ".join(web), PRODUCTION) in run.output, run
    assert summary(run.output) == ["localhost : 0 created, 0 changed, 0 replaced, 0 deleted"], run

    # Drain before scale-in (issue 46): to one web instance, the pools and the virtual IP drop web-2 before it is deleted.
    one = {"production_web_count": 1}
    mark = len(sim.log)
    check = playbook(str(path), extra_vars=one, check=True, diff=True, verbosity=None, env=plan_env)
    assert check.rc == 0 and sim.writes(sim.log[mark:]) == [], check
    assert summary(check.output) == ["localhost : 0 to create, 2 to change, 0 to replace, 1 to delete"], check
    scale_in = task_sections(check.output)["Scale in - the web instances above production_web_count deleted, once drained above"]
    assert "changed: [localhost]" in scale_in and web[1] in scale_in, scale_in
    mark = len(sim.log)
    run, changed = run_ok(playbook, path, extra_vars=one, env=plan_env)
    writes = [(entry["method"], entry["path"].split("/")[3]) for entry in sim.writes(sim.log[mark:])]
    deleted = writes.index(("DELETE", "instances"))
    assert {kind for _method, kind in writes[:deleted]} == {"loadbalancers", "reserved_fixed_ips"}, writes
    assert [write for write in writes[deleted:] if write[1] != "volumes"] == [("DELETE", "instances")], writes
    assert production_left(sim)["instances"] == web[:1]
    members = [member["address"] for pool in sim.lb_pools.values() if pool["name"].startswith(PRODUCTION) for member in pool["members"]]
    assert sorted(members) == [ports[web[0]]["ip_assignments"][0]["ip_address"]] * 3, members
    assert summary(run.output) == ["localhost : 0 created, 2 changed, 0 replaced, 1 deleted"], run
    mark = len(sim.log)
    run, changed = run_ok(playbook, path, extra_vars=one)
    assert changed == 0 and sim.writes(sim.log[mark:]) == [], run

    mark = len(sim.log)
    run, changed = run_ok(playbook, path, extra_vars={"production_state": "absent"}, env=plan_env)
    assert changed > 0, run
    assert summary(run.output) == ["localhost : 0 created, 0 changed, 0 replaced, 13 deleted"], run
    assert production_left(sim) == {key: [] for key in left}, production_left(sim)
    deletes = [entry["path"].split("/")[3] for entry in sim.writes(sim.log[mark:]) if entry["method"] == "DELETE"]
    assert deletes == ["reserved_fixed_ips", "loadbalancers", "secrets", "lifecycle_policy", "snapshots", "volumes", "instances",
                       "servergroups", "ssh_keys", "securitygroups", "routers", "subnets", "networks"], deletes

    mark = len(sim.log)
    run, changed = run_ok(playbook, path, extra_vars={"production_state": "absent"})
    assert changed == 0, run
    assert sim.writes(sim.log[mark:]) == [], "a second teardown wrote"


# The resource tasks of examples/production.yml (the words their names start with), in order.
PRODUCTION_TASKS = ("Network - ", "Subnet - ", "Router - ", "Security group - ", "SSH key - ", "Placement group - ", "Instances - ",
                    "Volume - ", "Snapshot schedule - ", "Volume snapshot - ", "Secret - ", "Load balancer - ", "Reserved fixed IP - ")


def test_the_production_check_on_an_empty_project_previews_every_resource_and_writes_nothing(playbook, sim, plan_env):
    """Issue 36: --check --diff of examples/production.yml before anything exists previews every
    resource, each task whose parents are not built yet warning which it assumes; no write is sent, no key shown.
    Issue 46: the plan callback's summary counts every create."""
    run = playbook(str(EXAMPLES / "production.yml"), check=True, diff=True, env=plan_env)
    sections, previewed = assert_previews(run, sim, PRODUCTION_TASKS)
    assert PRODUCTION_KEY not in run.output, run
    assert summary(run.output) == ["localhost : 14 to create, 0 to change, 0 to replace, 0 to delete"], run
    # The diffs name what is not built yet: the instances' placement group, the HTTPS listener's certificate, the members.
    for task, line in ((6, "\"placement_group\": \"(placement group 'example-prod-web-spread', not built yet)\""),
                       (11, "\"secret_id\": \"(secret 'example-prod-www', not built yet)\""),
                       (11, "\"(instance 'example-prod-web-2', not built yet):80\": {"),
                       (11, "\"https/api\": {"),
                       (12, "\"ip_address\": \"10.78.0.250\"")):
        assert line in sections[previewed[task]], (line, sections[previewed[task]])
    web = ["instance 'example-prod-web-1'", "instance 'example-prod-web-2'"]
    assert assumed_parents(run.output) == sorted([
        ("network", "network 'example-prod-net'", "subnet"),
        ("interfaces[0].subnet", "subnet 'example-prod-subnet'", "router"),
        ("placement_group", "placement group 'example-prod-web-spread'", "instance"),
        ("security_groups", "security group 'example-prod-web'", "instance"),
        ("interfaces[0].network", "network 'example-prod-net'", "instance"),
        ("interfaces[0].subnet", "subnet 'example-prod-subnet'", "instance"),
        ("instance", web[0], "volume"),
        ("volume", "volume 'example-prod-data'", "snapshot"),
        ("volumes[0]", "volume 'example-prod-data'", "snapshot schedule"),
        ("listeners[0].secret", "secret 'example-prod-www'", "load balancer"),
        ("listeners[0].pool.members[0].instance", web[0], "load balancer"),
        ("listeners[0].pool.members[1].instance", web[1], "load balancer"),
        ("network", "network 'example-prod-net'", "reserved fixed IP"),
        ("connected_instances[0]", web[0], "reserved fixed IP"),
        ("connected_instances[1]", web[1], "reserved fixed IP")]), run.output


def test_the_stack_guide_shows_the_stack_as_it_is():
    """Every YAML block of the guide "From quota to host" (up to its fleet section, which shows ``instances``, not
    the stack) is a part of examples/stack.yml or stack.gcore.yml."""
    guide = (ROOT / "docs" / "docsite" / "rst" / "guide_quota_to_host.rst").read_text(encoding="utf-8")
    guide = guide.split("\nA fleet instead of one host\n")[0]
    blocks = re.findall(r"\.\. code-block:: yaml\n\n((?:(?: {2}.*)?\n)+)", guide)
    assert len(blocks) == 4, blocks

    def lines(text):
        return [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]

    sources = [lines((EXAMPLES / name).read_text(encoding="utf-8")) for name in ("stack.yml", "stack.gcore.yml")]
    for block in blocks:
        wanted = lines(block)
        assert any(source[index:index + len(wanted)] == wanted for source in sources for index in range(len(source))), block


ADHOC = re.compile(r"^\s*(\$\s*)?ansible\s+\S+\s+-m\s")  # a command line: [$ ]ansible <pattern> -m <module> ...
KEY_ARGUMENT = re.compile(r"\s-a\s*['\"]?[^'\"]*\bapi_key=")


def test_no_adhoc_command_in_the_docs_passes_the_api_key():
    """ansible-core prints ad hoc arguments when a task fails: ad hoc examples take the key from GCORE_API_KEY."""
    docs = [ROOT / "README.md"] + sorted((ROOT / "docs" / "docsite" / "rst").glob("*.rst")) + sorted((ROOT / "roles").glob("*/README.md"))
    docs += sorted((ROOT / "plugins").glob("*/*.py"))
    commands = []
    for path in docs:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if ADHOC.search(line):
                commands.append((path.name, number, line))
                assert not KEY_ARGUMENT.search(line), "%s:%s passes api_key on the command line: %s" % (path.name, number, line)
    assert len(commands) >= 2, commands  # the README and the authentication guide show one each
