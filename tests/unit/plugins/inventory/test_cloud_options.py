# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The gcore.platform.cloud inventory plugin's options, in process: the plugin is loaded by Ansible's own plugin loader
(its documented options, get_option, the templar) and parses a config file against the simulator over HTTP.

``api_key`` and ``api_url`` may be templates or vaulted values; every option is checked before any request, and a
message says what was given (a template, a vaulted value, an environment variable) without showing the key. The
stories that touch what differs between cores (ansible-inventory and ansible-playbook themselves) stay in
tests/integration/test_inventory.py."""

from __future__ import annotations

import ast
import pathlib
import sys
import time
import types

import pytest
import yaml

from collection_link import collections_path

ROOT = pathlib.Path(__file__).resolve().parents[4]
PLUGIN = ROOT / "plugins" / "inventory" / "cloud.py"
LIST = "/cloud/v1/instances/"
BM_LIST = "/cloud/v1/bminstances/"
PAIRS = {"projects": [1, 2], "regions": [76, 1]}
HOSTS = 10  # the simulator's nine seeded instances of PAIRS and its one seeded bare metal server (project 1, region 76)
REQUESTS = 8  # two listings (instances, bare metal servers) of each of the four pairs
VAULT_PASSWORD = b"unit-test-vault-password"


@pytest.fixture(scope="module")
def loader():
    """Ansible's inventory plugin loader with this collection, installed only while these tests run (see test_cloud.py
    for the controller switch, undone afterwards)."""
    try:
        from ansible.module_utils import _internal as switch  # pylint: disable=import-outside-toplevel
    except ImportError:
        switch = None
    if not hasattr(switch, "is_controller"):
        switch = types.SimpleNamespace(is_controller=False)
    before = switch.is_controller
    from ansible.plugins.loader import init_plugin_loader, inventory_loader  # pylint: disable=import-outside-toplevel
    from ansible.utils.collection_loader._collection_finder import _AnsibleCollectionFinder  # pylint: disable=import-outside-toplevel
    # The other unit tests import the collection from sys.path; the plugin loader imports it through Ansible's collection
    # finder (with its metadata). Each gets its own copy of the modules, put back afterwards.
    ours = [name for name in sys.modules if name == "ansible_collections" or name.startswith("ansible_collections.")]
    saved = dict((name, sys.modules.pop(name)) for name in ours)
    init_plugin_loader([collections_path()])
    inventory_loader.get("gcore.platform.cloud")
    yield inventory_loader
    _AnsibleCollectionFinder._remove()  # pylint: disable=protected-access
    for name in [name for name in sys.modules if name == "ansible_collections" or name.startswith("ansible_collections.")]:
        del sys.modules[name]
    sys.modules.update(saved)
    switch.is_controller = before


@pytest.fixture(autouse=True)
def near_service(loader, monkeypatch):
    """The plugin's own copy of the client reads pages one by one, as conftest.py makes the other copy do."""
    client = sys.modules["ansible_collections.gcore.platform.plugins.module_utils._client"]
    monkeypatch.setattr(client, "time", types.SimpleNamespace(monotonic=lambda: 0.0, time=time.time, sleep=time.sleep))


@pytest.fixture
def parse(loader, server, tmp_path, monkeypatch):
    """Parse ``config`` (a dict, or YAML text) as ``cloud.gcore.yml``; the key and URL from the environment, as AWX's
    credential injects them. Returns the inventory data; ``server.requests()`` holds what was sent."""
    from ansible.errors import AnsibleError  # pylint: disable=import-outside-toplevel
    from ansible.inventory.data import InventoryData  # pylint: disable=import-outside-toplevel
    from ansible.parsing.dataloader import DataLoader  # pylint: disable=import-outside-toplevel
    from ansible.parsing.vault import VaultSecret  # pylint: disable=import-outside-toplevel

    server.reset()
    server.log = []
    for name in ("GCORE_API_KEY", "GCORE_API_URL", "GCORE_BASE_URL", "GCORE_CLOUD_PROJECT_ID", "GCORE_CLOUD_REGION_ID"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GCORE_API_URL", server.url)
    monkeypatch.setenv("GCORE_API_KEY", server.api_key)

    def run(config, fails=False):
        path = tmp_path / "cloud.gcore.yml"
        text = config if isinstance(config, str) else yaml.safe_dump(dict({"plugin": "gcore.platform.cloud"}, **config))
        path.write_text(text)
        data_loader = DataLoader()
        secrets = [("default", VaultSecret(VAULT_PASSWORD))]
        data_loader.set_vault_secrets(secrets)
        try:  # ansible-core 2.19 and later decrypt through one process-wide context, which the CLI sets
            from ansible.parsing.vault import VaultSecretsContext  # pylint: disable=import-outside-toplevel
        except ImportError:
            pass
        else:
            monkeypatch.setattr(VaultSecretsContext, "_current", VaultSecretsContext(secrets))
        plugin = loader.get("gcore.platform.cloud")
        data = InventoryData()
        if fails:
            with pytest.raises(AnsibleError) as error:
                plugin.parse(data, data_loader, str(path), cache=False)
            message = str(error.value)
            assert server.api_key not in message
            return message
        plugin.parse(data, data_loader, str(path), cache=False)
        return data

    return run


def vaulted(text):
    from ansible.parsing.vault import VaultLib, VaultSecret  # pylint: disable=import-outside-toplevel
    return VaultLib([("default", VaultSecret(VAULT_PASSWORD))]).encrypt(text).decode()


def config_text(**members):
    """A config file's text; a member given as ("vault", text) is written as a !vault value."""
    lines = ["plugin: gcore.platform.cloud", "projects: [1, 2]", "regions: [76, 1]"]
    for name, value in members.items():
        if isinstance(value, tuple):
            lines.append("%s: !vault |\n%s" % (name, "\n".join("  " + line for line in vaulted(value[1]).splitlines())))
        else:
            lines.append("%s: %s" % (name, value))
    return "\n".join(lines) + "\n"


def listed(server):
    return [entry["path"] for entry in server.requests()]


# ---- api_key and api_url: templates and vaulted values -------------------------------------------------------------

def test_the_plugin_does_not_import_the_module_base():
    tree = ast.parse(PLUGIN.read_text())
    imported = [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert not [name for name in imported if name.endswith(("._base", "module_utils.basic"))], imported


def test_a_templated_key_is_rendered(parse, server, monkeypatch):
    monkeypatch.setenv("MY_GCORE_KEY", server.api_key)
    monkeypatch.setenv("GCORE_API_KEY", "")
    data = parse(config_text(api_key="\"{{ lookup('ansible.builtin.env', 'MY_GCORE_KEY') }}\""))
    assert len(data.hosts) == HOSTS
    assert [entry["status"] for entry in server.requests()] == [200] * REQUESTS


def test_a_vaulted_key_is_decrypted(parse, server, monkeypatch):
    monkeypatch.setenv("GCORE_API_KEY", "")
    data = parse(config_text(api_key=("vault", server.api_key)))
    assert len(data.hosts) == HOSTS and len(server.requests()) == REQUESTS


def test_a_templated_url_is_rendered(parse, server, monkeypatch):
    monkeypatch.setenv("MY_GCORE_URL", server.url)
    monkeypatch.setenv("GCORE_API_URL", "http://127.0.0.1:9")
    data = parse(config_text(api_url="\"{{ lookup('ansible.builtin.env', 'MY_GCORE_URL') }}\""))
    assert len(data.hosts) == HOSTS


@pytest.mark.parametrize("given, said", [
    ("\"{{ 'not the key' }}\"", "api_key: the value the template gave holds a space"),
    (("vault", "not the key"), "api_key: the vaulted value holds a space"),
    ("\"{{ '' }}\"", "api_key: the value the template gave is empty"),
    ("\"{{ lookup('ansible.builtin.env', 'NOT_SET_ANYWHERE', default=undef()) }}\"", "api_key: a template was given and could not be rendered"),
    ("\"{{ ['a', 'b'] }}\"", "api_key: a string is required, and the value the template gave is a list (the value is not shown)"),
])
def test_a_bad_key_says_what_was_given_and_never_shows_it(parse, server, given, said):
    message = parse(config_text(api_key=given), fails=True)
    assert said in message and "not the key" not in message
    assert server.requests() == []


def test_a_bad_key_from_the_environment_says_so(parse, server, monkeypatch):
    monkeypatch.setenv("GCORE_API_KEY", "not the key")
    message = parse(PAIRS, fails=True)
    assert "api_key: GCORE_API_KEY holds a space" in message and "not the key" not in message
    assert server.requests() == []


def test_a_bad_templated_url_says_it_came_from_a_template(parse, server):
    message = parse(config_text(api_url="\"{{ 'https://api.gcore.com/cloud' }}\""), fails=True)
    assert "api_url: 'https://api.gcore.com/cloud' has a path" in message and "(the value the template gave)" in message
    assert server.requests() == []


# ---- api_retries, as the modules have it ---------------------------------------------------------------------------

@pytest.mark.parametrize("retries, sent", [(0, 1), (2, 3)])
def test_api_retries_is_how_often_a_failed_listing_is_sent_again(parse, server, retries, sent):
    server.add_fault(method="GET", path=r"^/cloud/v1/instances/1/76$", status=503, retry_after=0, times=sent)
    message = parse(dict(PAIRS, api_retries=retries), fails=True)
    assert "HTTP 503" in message
    assert listed(server) == [LIST + "1/76"] * sent


def test_api_retries_default_retries_three_times(parse, server):
    server.add_fault(method="GET", path=r"^/cloud/v1/instances/1/76$", status=503, retry_after=0, times=3)
    data = parse(PAIRS)
    assert len(data.hosts) == HOSTS and listed(server).count(LIST + "1/76") == 4


# ---- every option checked before any request (moved here from the ansible-inventory stories) ------------------------

@pytest.mark.parametrize("config, message", [
    ({"filters": {"colour": "blue"}}, "filters: unknown key colour"),
    ({"filters": {"status": "RUNNING"}}, "filters.status: 'RUNNING' is not one of"),
    ({"filters": {"tag_key_value": {"env prod": "x"}}}, "tag key 'env prod' must be 1 to 255 characters without whitespace"),
    ({"filters": {"tag_value": [" padded"]}}, "filters.tag_value[0]"),
    ({"projects": [0]}, "projects[0]: 0 is out of range"),
    ({"regions": [True]}, "regions[0]: True is not an integer ID"),
    ({"api_url": "https://api.gcore.com/cloud"}, "api_url: 'https://api.gcore.com/cloud' has a path"),
    ({"api_url": ""}, "api_url: must not be empty"),
    ({"api_timeout": 0}, "api_timeout: 0 is out of range"),
    ({"api_timeout": True}, "api_timeout: True is not an integer number"),
    ({"api_retries": 11}, "api_retries: 11 is out of range (must be 0 to 10)"),
    ({"api_retries": -1}, "api_retries: -1 is out of range"),
    ({"api_retries": True}, "api_retries: True is not an integer number"),
    ({"api_url": 8080}, "api_url: a string is required, not a number"),
    ({"api_key": ["not-the-right-key"]}, "api_key: a string is required"),
    ({"api_key": {"key": "not-the-right-key"}}, "api_key: a string is required"),
    ({"connect_with": "ssh"}, "connect_with"),
    ({"server_types": ["vm"]}, "server_types"),
    ({"server_types": ["instance", "bare_metal"]}, "server_types"),
    ({"server_types": []}, "server_types: a non-empty list of instance and baremetal is required"),
])
def test_bad_options_fail_before_any_request(parse, server, config, message):
    text = parse(dict(PAIRS, **config), fails=True)
    assert message in text and "not-the-right-key" not in text
    assert server.requests() == []


def test_scope_and_url_come_from_the_environment_and_an_empty_variable_is_not_set(parse, server, monkeypatch):
    monkeypatch.setenv("GCORE_CLOUD_PROJECT_ID", "2")
    monkeypatch.setenv("GCORE_CLOUD_REGION_ID", "1")
    monkeypatch.setenv("GCORE_API_URL", "")
    monkeypatch.setenv("GCORE_BASE_URL", server.url)
    data = parse({})
    assert listed(server) == [LIST + "2/1", BM_LIST + "2/1"] and sorted(data.hosts) == ["build-1", "edge-1"]
    monkeypatch.delenv("GCORE_CLOUD_PROJECT_ID")
    assert "projects: not set, and GCORE_CLOUD_PROJECT_ID is not set either" in parse({}, fails=True)


def test_the_first_url_variable_set_wins(parse, server, monkeypatch):
    monkeypatch.setenv("GCORE_BASE_URL", "http://127.0.0.1:9")
    assert len(parse(PAIRS).hosts) == HOSTS and len(server.requests()) == REQUESTS


# ---- server_types: instances and bare metal servers ----------------------------------------------------------------

def group_hosts(data, name):
    return sorted(host.name for host in data.groups[name].get_hosts()) if name in data.groups else None


def test_both_listings_by_default_each_host_in_its_type_group(parse, server):
    data = parse(PAIRS)
    assert listed(server) == [path + pair for pair in ("1/76", "1/1", "2/76", "2/1") for path in (LIST, BM_LIST)]
    assert group_hosts(data, "baremetal") == ["bm-seed-1"]
    assert len(group_hosts(data, "instance")) == HOSTS - 1 and "bm-seed-1" not in group_hosts(data, "instance")
    assert sorted(group_hosts(data, "gcore")) == sorted(data.hosts)
    server_vars, instance_vars = data.hosts["bm-seed-1"].vars, data.hosts["web-1"].vars
    assert sorted(server_vars) == sorted(instance_vars)  # the same host variables, ansible_host among them
    assert server_vars["gcore_flavor"] == "bm1-basic-small" and server_vars["gcore_status"] == "ACTIVE"
    assert server_vars["gcore_public_ipv4"] and server_vars["ansible_host"] == server_vars["gcore_public_ipv4"][0]
    assert server_vars["gcore_security_groups"] == [] and server_vars["gcore_tags"]["image_name"] == "ubuntu-22.04-x64"
    assert "bm-seed-1" in group_hosts(data, "gcore_region_76") and "bm-seed-1" in group_hosts(data, "gcore_status_active")


@pytest.mark.parametrize("server_types, path, hosts", [(["instance"], LIST, HOSTS - 1), (["baremetal"], BM_LIST, 1),
                                                       (["baremetal", "instance", "baremetal"], None, HOSTS)])
def test_server_types_lists_only_what_it_names(parse, server, server_types, path, hosts):
    data = parse(dict(PAIRS, server_types=server_types))
    assert len(data.hosts) == hosts
    if path:
        assert listed(server) == [path + pair for pair in ("1/76", "1/1", "2/76", "2/1")]
        other = "baremetal" if path == LIST else "instance"
        assert group_hosts(data, other) is None and len(group_hosts(data, server_types[0])) == hosts
    else:  # each type once, instances first
        assert len(server.requests()) == REQUESTS and listed(server)[:2] == [LIST + "1/76", BM_LIST + "1/76"]


@pytest.mark.parametrize("status, paths", [("SHELVED", [LIST]), ("RESCUE", [BM_LIST]), ("ACTIVE", [LIST, BM_LIST])])
def test_a_status_no_server_of_a_type_has_skips_its_listing(parse, server, status, paths):
    parse({"projects": [1], "regions": [76], "filters": {"status": status}})
    assert listed(server) == [path + "1/76" for path in paths]
    assert all("status=%s" % status in entry["query"] for entry in server.requests())
