# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The gcore.platform.cloud inventory plugin, run by the real ``ansible-inventory`` (and ``ansible-playbook``) against
the simulator: requests on the wire, hosts, variables, groups, cache, errors."""

from __future__ import annotations

import ast
import json
import os
import pathlib
import re
import subprocess
import sys
from urllib.parse import parse_qs

import pytest
import requests
import yaml

from collection_link import collections_path
from conftest import ROOT, SECRETS

# Only the stories that touch what differs between cores are in the smoke set (marked below): host variables as data,
# constructed groups, the cache plugin, the key at -vvvv, a playbook on the inventory, vaulted and templated options.
# The option checks run in process on every core: tests/unit/plugins/inventory/test_cloud_options.py.
BIN = pathlib.Path(sys.executable).parent
LIST = "/cloud/v1/instances/"
BM_LIST = "/cloud/v1/bminstances/"  # the bare metal listing, read beside the instance one (the option server_types)
ALL_PAIRS = {"projects": [1, 2], "regions": [76, 1]}
PAIRS = ("1/76", "1/1", "2/76", "2/1")  # ALL_PAIRS in the order they are listed
SEEDED = ("web-1", "db-1", "stopped-1", "batch-1", "v6-only", "edge-1", "build-1")  # and two named "app"
BM_SEED = "bm-seed-1"  # the simulator's one bare metal server (project 1, region 76, ACTIVE, an external interface)
HOSTS = 10  # SEEDED, the two "app" and BM_SEED


class Run:
    def __init__(self, completed, requests):
        self.rc = completed.returncode
        self.stdout = completed.stdout
        self.stderr = completed.stderr
        self.requests = requests

    @property
    def inventory(self):
        """The output as AWX reads it (a plain json.loads): only a string that may be a template stays marked."""
        return json.loads(self.stdout)

    @property
    def hostvars(self):
        return self.inventory["_meta"]["hostvars"]

    @property
    def messages(self):
        """Standard error as one line: cores before 2.19 wrap warnings at 80 columns (after a hyphen too)."""
        return " ".join(re.sub(r"-\n", "-", self.stderr).split())

    def group(self, name):
        return sorted(self.inventory.get(name, {}).get("hosts", []))

    def __repr__(self):
        return "Run(rc=%s)\n%s\n%s" % (self.rc, self.stdout[-3000:], self.stderr[-3000:])


@pytest.fixture
def inventory(sim, tmp_path):
    """Run ``ansible-inventory`` (or another command, with ``tool``) on a config file written from ``config``.

    Credentials come from GCORE_API_KEY and GCORE_API_URL, as AWX's credential injects them; no
    GCORE_CLOUD_* variable is set unless ``env`` sets it. Every run's output is searched for the key.
    """
    def run(config, *args, env=None, name="cloud.gcore.yml", tool="ansible-inventory", failed_fails=True):
        path = tmp_path / name
        path.write_text(config if isinstance(config, str) else yaml.safe_dump(dict({"plugin": "gcore.platform.cloud"}, **config)))
        environment = dict((key, value) for key, value in os.environ.items() if not key.startswith(("GCORE_", "ANSIBLE_")))
        environment.update(ANSIBLE_COLLECTIONS_PATH=collections_path(), GCORE_API_URL=sim.url, GCORE_API_KEY=sim.api_key,
                           ANSIBLE_NOCOLOR="1", ANSIBLE_FORCE_COLOR="0", ANSIBLE_LOCAL_TEMP=str(tmp_path / "tmp"),
                           ANSIBLE_INVENTORY_UNPARSED_FAILED="1" if failed_fails else "0")
        environment.update(env or {})
        command = [str(BIN / tool), "-i", str(path)] + list(args or ["--list"])
        mark = len(sim.log)
        completed = subprocess.run(command, env=environment, capture_output=True, text=True, check=False, timeout=300)
        for secret in (sim.api_key,) + SECRETS:
            assert secret not in completed.stdout + completed.stderr, "a secret (%s...) appears in the output" % secret[:6]
        return Run(completed, list(sim.log[mark:]))

    return run


def query(entry):
    return parse_qs(entry["query"], keep_blank_values=True)


def app_hosts(hostvars):
    return sorted(name for name in hostvars if name.startswith("app_"))


# ---- hosts, variables, groups ---------------------------------------------------------------------

@pytest.mark.every_core
def test_every_pair_is_listed_with_host_variables_and_default_groups(inventory, sim):
    run = inventory(ALL_PAIRS)
    assert run.rc == 0, run
    assert [(entry["method"], entry["path"], entry["query"]) for entry in run.requests] == [
        ("GET", path + pair, "limit=1000&offset=0") for pair in PAIRS for path in (LIST, BM_LIST)]
    hostvars = run.hostvars
    assert sorted(hostvars) == sorted(SEEDED + tuple(app_hosts(hostvars)) + (BM_SEED,))
    web = hostvars["web-1"]
    ids = sim.seeds["instances"]["instances"]
    assert web == {
        "ansible_host": "203.0.113.10",
        "gcore_id": ids["web-1/1/76"], "gcore_name": "web-1", "gcore_status": "ACTIVE", "gcore_vm_state": "active",
        "gcore_flavor": "g1-standard-2-4", "gcore_project_id": 1, "gcore_region_id": 76, "gcore_region": "Luxembourg-2",
        "gcore_tags": {"env": "prod", "role": "web"}, "gcore_addresses": web["gcore_addresses"],
        "gcore_public_ipv4": ["203.0.113.10"], "gcore_private_ipv4": ["10.0.0.5"], "gcore_floating_ipv4": ["203.0.113.10"],
        "gcore_public_ipv6": ["2a03:90c0:999::5"], "gcore_security_groups": ["default", "web"],
        "gcore_created_at": "2026-01-15T09:30:00Z",
    }
    assert [entry["addr"] for entry in web["gcore_addresses"]["private-net"]] == ["10.0.0.5", "203.0.113.10"]
    assert hostvars["batch-1"]["gcore_private_ipv4"] == ["100.64.0.5"]  # CGNAT space is private
    assert hostvars["batch-1"]["gcore_tags"] == {"env": "prod", "gcore-managed": "k8s"}
    assert sorted(run.group("gcore")) == sorted(hostvars)
    assert run.group("gcore_region_1") == sorted(["stopped-1", "edge-1", "build-1"] + [
        name for name in app_hosts(hostvars) if hostvars[name]["gcore_region_id"] == 1])
    assert run.group("gcore_status_shutoff") == ["stopped-1"]
    assert run.group("gcore_status_build") == ["build-1"]
    assert run.group("baremetal") == [BM_SEED] and run.group("instance") == sorted(set(hostvars) - {BM_SEED})
    server = hostvars[BM_SEED]  # the same variables as an instance's, from its record
    assert sorted(server) == sorted(web) and server["gcore_id"] == sim.seeds["baremetal"]["servers"][BM_SEED]
    assert (server["gcore_flavor"], server["gcore_status"], server["gcore_region"]) == ("bm1-basic-small", "ACTIVE", "Luxembourg-2")
    assert server["ansible_host"] == server["gcore_public_ipv4"][0] and server["gcore_private_ipv4"] == []
    assert BM_SEED in run.group("gcore_region_76") and BM_SEED in run.group("gcore_status_active")


def test_duplicate_names_become_unique_with_a_warning(inventory, sim):
    run = inventory(ALL_PAIRS)
    assert run.rc == 0, run
    ids = sim.seeds["instances"]["instances"]
    first, second = ids["app/1/76"], ids["app/1/1"]
    assert app_hosts(run.hostvars) == sorted(["app_" + first[:8], "app_" + second[:8]])
    assert run.hostvars["app_" + first[:8]]["gcore_name"] == "app"
    warning = run.messages
    assert "host names were made unique: app (id %s) as app_%s, app (id %s) as app_%s" % (first, first[:8], second, second[:8]) in warning


def test_hosts_without_an_address_of_the_kind_stay_and_are_named(inventory, sim):
    run = inventory(ALL_PAIRS)
    ids = sim.seeds["instances"]["instances"]
    for name in ("db-1", "v6-only", "build-1"):
        assert "ansible_host" not in run.hostvars[name]
    warning = run.messages
    assert "3 hosts without a public_ipv4 address, so without ansible_host: db-1 (id %s), v6-only (id %s), build-1 (id %s)" % (
        ids["db-1/1/76"], ids["v6-only/2/76"], ids["build-1/2/1"]) in warning


@pytest.mark.parametrize("connect_with, expected", [
    ("public_ipv4", {"web-1": "203.0.113.10", "app@76": "198.51.100.20", "app@1": "198.51.100.21", "stopped-1": "198.51.100.30",
                     "batch-1": "198.51.100.40", "edge-1": "203.0.113.70", BM_SEED: "198.51.100.12"}),
    ("private_ipv4", {"web-1": "10.0.0.5", "db-1": "192.168.10.5", "batch-1": "100.64.0.5", "edge-1": "172.16.5.10"}),
    ("floating_ipv4", {"web-1": "203.0.113.10", "edge-1": "203.0.113.70"}),
    ("public_ipv6", {"web-1": "2a03:90c0:999::5", "app@76": "2a03:90c0:999::20", "v6-only": "2a03:90c0:999::60"}),
    ("name", dict([(name, name) for name in SEEDED + (BM_SEED,)] + [("app@76", "app"), ("app@1", "app")])),
])
def test_connect_with_sets_ansible_host(inventory, connect_with, expected):
    run = inventory(dict(ALL_PAIRS, connect_with=connect_with))
    assert run.rc == 0, run
    found = {}
    for name, variables in run.hostvars.items():
        if "ansible_host" in variables:
            label = "app@%s" % variables["gcore_region_id"] if variables["gcore_name"] == "app" else name
            found[label] = variables["ansible_host"]
    assert found == expected
    unreachable = len(run.hostvars) - len(expected)
    if unreachable:
        assert "%s host%s without a %s address" % (unreachable, "s" if unreachable > 1 else "", connect_with) in run.messages
    else:
        assert "without ansible_host" not in run.stderr


def test_hostname_id_names_hosts_by_id_without_renaming(inventory, sim):
    run = inventory(dict(ALL_PAIRS, hostname="id"))
    assert run.rc == 0, run
    assert sorted(run.hostvars) == sorted(list(sim.seeds["instances"]["instances"].values()) + [sim.seeds["baremetal"]["servers"][BM_SEED]])
    assert "made unique" not in run.stderr


@pytest.mark.smoke
def test_keyed_groups_on_tags_compose_and_groups(inventory):
    config = dict(ALL_PAIRS, keyed_groups=[{"key": "gcore_tags.env | default('untagged')", "prefix": "env"},
                                           {"key": "gcore_tags.role", "prefix": "role"}],
                  compose={"ansible_host": "gcore_private_ipv4[0] | default(gcore_name)", "ansible_user": "'deploy'"},
                  groups={"shut": "gcore_status == 'SHUTOFF'"})
    run = inventory(config, "--graph")
    assert run.rc == 0, run
    graph = run.stdout
    for group, hosts in {"@env_prod": ["web-1", "db-1", "batch-1", "edge-1"], "@env_untagged": ["v6-only", BM_SEED],
                         "@role_web": ["web-1"], "@role_db": ["db-1"], "@shut": ["stopped-1"]}.items():
        block = graph.split("--" + group + ":")[1].split("--@")[0]
        assert sorted(line.strip(" |-") for line in block.splitlines() if line.strip(" |-")) == sorted(hosts), group
    run = inventory(config)
    assert run.hostvars["web-1"]["ansible_host"] == "10.0.0.5"  # compose wins over connect_with
    assert run.hostvars["v6-only"]["ansible_host"] == "v6-only"
    assert run.hostvars["web-1"]["ansible_user"] == "deploy"


def test_strict_fails_on_a_broken_compose(inventory):
    run = inventory(dict(ALL_PAIRS, strict=True, compose={"ansible_host": "gcore_public_ipv4[0]"}))
    assert run.rc != 0, run
    run = inventory(dict(ALL_PAIRS, strict=False, compose={"ansible_host": "gcore_public_ipv4[0]"}))
    assert run.rc == 0, run


# ---- requests: pages and filters ----------------------------------------------------------------

def test_every_page_of_every_pair_is_read(inventory, sim):
    sim.control("POST", "/_sim/instances", {"count": 2200, "pairs": [[1, 76], [2, 1]], "replace": False})
    run = inventory(ALL_PAIRS)
    assert run.rc == 0, run
    assert [(entry["path"], entry["query"]) for entry in run.requests] == [
        (LIST + "1/76", "limit=1000&offset=0"), (LIST + "1/76", "limit=1000&offset=1000"), (BM_LIST + "1/76", "limit=1000&offset=0"),
        (LIST + "1/1", "limit=1000&offset=0"), (BM_LIST + "1/1", "limit=1000&offset=0"),
        (LIST + "2/76", "limit=1000&offset=0"), (BM_LIST + "2/76", "limit=1000&offset=0"),
        (LIST + "2/1", "limit=1000&offset=0"), (LIST + "2/1", "limit=1000&offset=1000"), (BM_LIST + "2/1", "limit=1000&offset=0")]
    assert len(run.hostvars) == 2200 + HOSTS
    assert "host-02200" in run.hostvars and run.hostvars["host-01100"]["gcore_project_id"] == 1


def test_filters_are_sent_as_query_parameters(inventory):
    filters = {"status": "active", "name": "-1", "flavor_prefix": "g1-", "tag_key_value": {"env": "prod"}, "tag_value": ["prod"]}
    run = inventory(dict(ALL_PAIRS, filters=filters))
    assert run.rc == 0, run
    assert [entry["path"] for entry in run.requests] == [path + pair for pair in PAIRS for path in (LIST, BM_LIST)]
    for entry in run.requests:  # both listings take the same filters (bm-seed-1 has the name, not the flavor)
        assert query(entry) == {"status": ["ACTIVE"], "name": ["-1"], "flavor_prefix": ["g1-"], "tag_key_value": ['{"env":"prod"}'],
                                "tag_value": ["prod"], "limit": ["1000"], "offset": ["0"]}
    assert sorted(run.hostvars) == ["db-1", "edge-1", "web-1"]


def test_a_server_error_is_retried(inventory, sim):
    sim.add_fault(status=503, path=LIST + "1/76", retry_after=0)
    run = inventory(ALL_PAIRS)
    assert run.rc == 0, run
    assert [entry["status"] for entry in run.requests][:2] == [503, 200]
    assert len(run.hostvars) == HOSTS


# ---- cache --------------------------------------------------------------------------------------

@pytest.mark.smoke
def test_a_fresh_cache_answers_without_a_request(inventory, tmp_path):
    config = dict(ALL_PAIRS, cache=True, cache_plugin="ansible.builtin.jsonfile", cache_connection=str(tmp_path / "cache"),
                  cache_timeout=600)
    first = inventory(config)
    assert first.rc == 0, first
    assert len(first.requests) == 2 * len(PAIRS)
    assert list((tmp_path / "cache").iterdir())
    second = inventory(config)
    assert second.rc == 0, second
    assert second.requests == []
    assert second.inventory == first.inventory
    assert "made unique" in second.messages  # the same warnings, from the cached listing
    for path in (tmp_path / "cache").iterdir():  # gone (or --flush-cache, which cores before 2.17 lack): read again
        path.unlink()
    again = inventory(config)
    assert len(again.requests) == 2 * len(PAIRS)
    narrowed = inventory(dict(config, filters={"status": "SHUTOFF"}))  # another request: the cache is not for it
    assert len(narrowed.requests) == 2 * len(PAIRS) and sorted(narrowed.hostvars) == ["stopped-1"]
    only = inventory(dict(config, server_types=["baremetal"]))  # nor for other server types
    assert [entry["path"] for entry in only.requests] == [BM_LIST + pair for pair in PAIRS] and sorted(only.hostvars) == [BM_SEED]


def test_a_fresh_cache_needs_no_key_and_checks_none(inventory, tmp_path):
    """As the plugin's notes say: a fresh cache answers without the key, and with a wrong one."""
    config = dict(ALL_PAIRS, cache=True, cache_plugin="ansible.builtin.jsonfile", cache_connection=str(tmp_path / "cache"))
    assert inventory(config).rc == 0
    for key in ("", "not-the-right-key"):
        run = inventory(config, env={"GCORE_API_KEY": key})
        assert run.rc == 0, run
        assert run.requests == [] and len(run.hostvars) == HOSTS


# ---- errors -------------------------------------------------------------------------------------

@pytest.mark.smoke
def test_a_bad_key_fails_the_source_without_showing_it(inventory):
    run = inventory(ALL_PAIRS, "--list", "-vvvv", env={"GCORE_API_KEY": "not-the-right-key"})
    assert run.rc != 0, run
    output = run.messages
    assert "listing the instances of project 1, region 76 failed: GET /cloud/v1/instances/1/76 failed with HTTP 401: " \
           "Invalid or missing API key" in output
    assert len(run.requests) == 1 and run.requests[0]["authorization"] == "invalid"


def test_an_unreachable_api_fails_the_source(inventory):
    run = inventory(dict(ALL_PAIRS, api_url="http://127.0.0.1:9", api_timeout=2))
    assert run.rc != 0, run
    assert "connection to http://127.0.0.1:9 failed" in run.messages


def test_a_forbidden_pair_fails_the_source_by_default(inventory):
    run = inventory({"projects": [1, 3], "regions": [76]})
    assert run.rc != 0, run
    output = run.messages
    assert "project 3, region 76 failed: GET /cloud/v1/instances/3/76 failed with HTTP 403: " \
           "You do not have permission to access project 3" in output
    assert "strict_permissions: false" in output


def test_a_forbidden_pair_is_skipped_with_a_warning_when_permissions_are_not_strict(inventory):
    run = inventory({"projects": [1, 3], "regions": [76, 1], "strict_permissions": False})
    assert run.rc == 0, run
    # a pair the key may not see is skipped whole: its bare metal listing is not asked
    assert [(entry["path"], entry["status"]) for entry in run.requests] == [
        (LIST + "1/76", 200), (BM_LIST + "1/76", 200), (LIST + "1/1", 200), (BM_LIST + "1/1", 200), (LIST + "3/76", 403), (LIST + "3/1", 403)]
    assert sorted(name for name in run.hostvars if not name.startswith("app")) == [BM_SEED, "db-1", "stopped-1", "web-1"]
    output = run.messages
    for region in (76, 1):
        assert "project 3, region %s skipped (strict_permissions is false)" % region in output


def test_a_forbidden_bare_metal_listing_fails_or_is_skipped_alone(inventory, sim):
    sim.add_fault(status=403, path=BM_LIST + "1/76", times=2)
    run = inventory({"projects": [1], "regions": [76]})
    assert run.rc != 0, run
    assert "listing the bare metal servers of project 1, region 76 failed: GET /cloud/v1/bminstances/1/76 failed with HTTP 403" \
        in run.messages
    run = inventory({"projects": [1], "regions": [76], "strict_permissions": False})
    assert run.rc == 0, run
    assert "the bare metal servers of project 1, region 76 skipped (strict_permissions is false)" in run.messages
    assert BM_SEED not in run.hostvars and "web-1" in run.hostvars and run.group("baremetal") == []


def test_a_failed_source_fails_a_playbook_only_with_any_unparsed_is_failed(inventory, tmp_path):
    """As the plugin's notes say: by Ansible's default a failed source is a warning, no host matches and the run exits
    with 0; ANSIBLE_INVENTORY_ANY_UNPARSED_IS_FAILED=true makes it fail with the source's message."""
    play = tmp_path / "play.yml"
    play.write_text(yaml.safe_dump([{"name": "Every instance", "hosts": "gcore", "connection": "local", "gather_facts": False,
                                     "tasks": [{"name": "Show", "ansible.builtin.debug": {"msg": "id={{ gcore_id }}"}}]}]))
    bad_key = {"GCORE_API_KEY": "not-the-right-key"}
    run = inventory(ALL_PAIRS, str(play), tool="ansible-playbook", env=bad_key, failed_fails=False)
    assert run.rc == 0, run
    assert "skipping: no hosts matched" in run.stdout and "HTTP 401" in run.messages
    run = inventory(ALL_PAIRS, str(play), tool="ansible-playbook", failed_fails=False,
                    env=dict(bad_key, ANSIBLE_INVENTORY_ANY_UNPARSED_IS_FAILED="true"))
    assert run.rc != 0, run
    assert "listing the instances of project 1, region 76 failed" in run.messages and "PLAY [" not in run.stdout


def test_a_file_not_named_gcore_yml_is_not_taken(inventory):
    run = inventory(ALL_PAIRS, name="cloud.yml", failed_fails=False)
    assert run.requests == []
    assert "Unable to parse" in run.stderr


# ---- vaulted and templated options (their types differ between cores) ------------------------------

@pytest.mark.smoke
def test_a_vaulted_key_and_a_templated_url_work(inventory, sim, tmp_path):
    from ansible.parsing.vault import VaultLib, VaultSecret  # pylint: disable=import-outside-toplevel
    password = b"integration-vault-password"
    (tmp_path / "vault-password").write_bytes(password)
    vaulted = VaultLib([("default", VaultSecret(password))]).encrypt(sim.api_key).decode()
    config = "\n".join(["plugin: gcore.platform.cloud", "projects: [1, 2]", "regions: [76, 1]", "api_key: !vault |"]
                       + ["  " + line for line in vaulted.splitlines()]
                       + ["api_url: \"{{ lookup('ansible.builtin.env', 'MY_GCORE_URL') }}\""]) + "\n"
    run = inventory(config, "--list", "--vault-password-file", str(tmp_path / "vault-password"),
                    env={"GCORE_API_KEY": "", "GCORE_API_URL": "http://127.0.0.1:9", "MY_GCORE_URL": sim.url})
    assert run.rc == 0, run
    assert len(run.requests) == 2 * len(PAIRS) and all(entry["status"] == 200 for entry in run.requests)
    assert len(run.hostvars) == HOSTS


# ---- the inventory in use: AWX's import, a playbook -------------------------------------------------

# Tags set through the API, as anyone with access to the project can set them: text a template engine would run (the
# seeded edge-1 also has note: "{{ 7 * 6 }}"), and text that only looks like it (a key holding a marker is a plain key).
TEMPLATE_TAGS = {"cmd": "{{ lookup('pipe', 'id') }}", "block": "{% if true %}yes{% endif %}", "comment": "{# hidden #}",
                 "header": "#jinja2:variable_start_string:'[%'"}
PLAIN_TAGS = {"braces": "{x} }} %} #}", "{{key}}": "plain"}


def tag_edge(sim, tags):
    """Add ``tags`` to edge-1 (project 2, region 1) with the API's own PATCH."""
    ident = sim.seeds["instances"]["instances"]["edge-1/2/1"]
    answer = requests.patch("%s/cloud/v1/instances/2/1/%s" % (sim.url, ident), json={"tags": tags}, timeout=30,
                            headers={"Authorization": "apikey %s" % sim.api_key})
    assert answer.status_code == 200, answer.text


def marked(value, path=()):
    """Every value of the parsed output that is not plain JSON data but a mark ({"__ansible_unsafe": ...}), by path."""
    if isinstance(value, dict):
        if "__ansible_unsafe" in value or "__ansible_vault" in value:
            return {path: value}
        return dict(item for key, member in value.items() for item in marked(member, path + (key,)).items())
    if isinstance(value, list):
        return dict(item for index, member in enumerate(value) for item in marked(member, path + (index,)).items())
    return {}


@pytest.mark.smoke
def test_awx_imports_every_host_variable_as_plain_json(inventory, sim):
    """AWX's inventory import runs ``ansible-inventory --list --export`` and reads it with a plain json.loads: strings
    are strings; only one that may be a template stays marked unsafe ({"__ansible_unsafe": text})."""
    tag_edge(sim, dict(TEMPLATE_TAGS, **PLAIN_TAGS))
    # Composed variables are data too (issue 46): plain, but for one that holds what may be a template.
    compose = {"ansible_user": "gcore_tags.user | default('ubuntu')", "gcore_note": "gcore_tags.note | default('none')",
               "gcore_labels": "[gcore_tags.role | default('none'), gcore_status | lower]"}
    run = inventory(dict(ALL_PAIRS, compose=compose), "--list", "--export")
    assert run.rc == 0, run
    exported = json.loads(run.stdout)  # as AWX reads it: no Ansible decoder, nothing unwrapped
    hostvars = exported["_meta"]["hostvars"]
    assert marked(exported) == dict([(("_meta", "hostvars", "edge-1", "gcore_tags", key), {"__ansible_unsafe": text})
                                     for key, text in dict(TEMPLATE_TAGS, note="{{ 7 * 6 }}").items()]
                                    + [(("_meta", "hostvars", "edge-1", "gcore_note"), {"__ansible_unsafe": "{{ 7 * 6 }}"})])
    assert [hostvars["web-1"][key] for key in compose] == ["ubuntu", "none", ["web", "active"]]
    assert hostvars["edge-1"]["gcore_tags"]["braces"] == PLAIN_TAGS["braces"]
    assert hostvars["edge-1"]["gcore_tags"]["{{key}}"] == "plain"
    web = hostvars["web-1"]  # what AWX's enabled_var and instance_id_var read, and its UI shows
    assert (web["gcore_status"], web["gcore_id"], web["ansible_host"]) == (
        "ACTIVE", sim.seeds["instances"]["instances"]["web-1/1/76"], "203.0.113.10")
    assert web["gcore_tags"] == {"env": "prod", "role": "web"} and web["gcore_public_ipv4"] == ["203.0.113.10"]
    assert web["gcore_addresses"]["private-net"][1] == {"addr": "203.0.113.10", "type": "floating"}
    assert sorted(exported["gcore"]["hosts"]) == sorted(hostvars)


@pytest.mark.every_core
def test_a_playbook_runs_against_the_inventory(inventory, tmp_path, sim):
    tag_edge(sim, TEMPLATE_TAGS)
    play = tmp_path / "play.yml"
    tag_tasks = [{"name": "A tag is data, not a template (%s)" % key, "ansible.builtin.debug": {"msg": "%s={{ gcore_tags.%s }}" % (key, key)},
                  "when": "gcore_name == 'edge-1'"} for key in ["note"] + sorted(TEMPLATE_TAGS)]
    play.write_text(yaml.safe_dump([{"name": "Every instance", "hosts": "gcore:&gcore_status_active", "connection": "local",
                                     "gather_facts": False,
                                     "tasks": [{"name": "Show", "ansible.builtin.debug": {"msg": "id={{ gcore_id }}"}}] + tag_tasks
                                     + [{"name": "Every tag", "ansible.builtin.debug": {"var": "gcore_tags"},
                                         "when": "gcore_name == 'edge-1'"}]}]))
    run = inventory(ALL_PAIRS, str(play), tool="ansible-playbook")
    assert run.rc == 0, run
    shown = sorted(line.split("id=")[1].strip('" ') for line in run.stdout.splitlines() if '"msg": "id=' in line)
    ids = sim.seeds["instances"]["instances"]
    active = ("web-1/1/76", "db-1/1/76", "app/1/76", "app/1/1", "batch-1/2/76", "v6-only/2/76", "edge-1/2/1")
    assert shown == sorted([ids[key] for key in active] + [sim.seeds["baremetal"]["servers"][BM_SEED]])
    assert '"msg": "note={{ 7 * 6 }}"' in run.stdout and "note=42" not in run.stdout
    for key, text in TEMPLATE_TAGS.items():
        assert '"msg": "%s=%s"' % (key, text) in run.stdout, key
        assert '"%s": "%s"' % (key, text) in run.stdout, key
    assert "uid=" not in run.stdout and '"msg": "block=yes"' not in run.stdout  # the lookup never ran, the block never rendered
    assert "failed=0" in run.stdout and "failed=1" not in run.stdout


def examples():
    source = (ROOT / "plugins" / "inventory" / "cloud.py").read_text()
    tree = ast.parse(source)
    text = next(node.value.value for node in tree.body if isinstance(node, ast.Assign) and node.targets[0].id == "EXAMPLES")
    # One YAML document (ansible-test's yamllint on 2.16 takes no other), one example file per "# <name>.gcore.yml" comment.
    return [yaml.safe_load(part) for part in re.split(r"(?m)^(?=# \S+\.gcore\.ya?ml )", text) if part.strip()]


@pytest.mark.parametrize("index", range(len(examples())))
def test_the_documented_examples_run(inventory, tmp_path, index):
    config = examples()[index]
    if "cache_connection" in config:
        config["cache_connection"] = str(tmp_path / "cache")
    run = inventory(config)
    assert run.rc == 0, run
    assert run.requests and all(entry["status"] == 200 for entry in run.requests)
    assert run.hostvars


def guide_block(marker):
    """The first code block after ``.. gcore-test: <marker>`` in the AWX guide, dedented."""
    text = (ROOT / "docs" / "docsite" / "rst" / "guide_awx.rst").read_text()
    lines = text[text.index(".. gcore-test: %s" % marker):].split(".. code-block::", 1)[1].splitlines()[1:]
    block = []
    for line in lines:
        if line and not line.startswith(" "):
            break
        block.append(line[4:])
    return "\n".join(block)


def test_the_awx_inventory_source_runs_and_the_guide_shows_it(inventory, sim):
    source = (ROOT / "docs" / "awx" / "inventory.gcore.yml").read_text()
    shown = yaml.safe_load(guide_block("inventory-source"))
    assert shown == dict((key, value) for key, value in yaml.safe_load(source).items() if key != "strict_permissions")
    # what AWX's credential injects, the project and region included (an empty API URL field becomes the default)
    run = inventory(source, env={"GCORE_CLOUD_PROJECT_ID": "1", "GCORE_CLOUD_REGION_ID": "76"}, name="inventory.gcore.yml")
    assert run.rc == 0, run
    assert [(entry["path"], entry["query"]) for entry in run.requests] == [
        (path + "1/76", "status=ACTIVE&limit=1000&offset=0") for path in (LIST, BM_LIST)]
    assert sorted(run.group("env_prod")) == ["db-1", "web-1"] and run.group("role_web") == ["web-1"]
    assert run.hostvars["web-1"]["ansible_user"] == "ubuntu"
