# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The pure parts of the gcore.platform.cloud inventory plugin: address classes, host variables, unique names, filters.

The plugin as a whole runs in tests/integration/test_inventory.py (real ansible-inventory against the simulator)."""

from __future__ import annotations

import json
import re

import pytest

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError
from controller_plugin import controller_plugin  # tests/controller_plugin.py


cloud = None  # the plugin module, imported by imported_plugin() below


@pytest.fixture(scope="module", autouse=True)
def imported_plugin():
    """The plugin, imported only while these tests run (``controller_plugin`` says why)."""
    with controller_plugin("ansible_collections.gcore.platform.plugins.inventory.cloud") as module:
        globals()["cloud"] = module
        yield module


def fixed(addr):
    return {"addr": addr, "type": "fixed", "interface_name": "eth0", "subnet_id": "s", "subnet_name": "n"}


@pytest.mark.parametrize("entries, expected", [
    ([fixed("10.1.2.3")], {"gcore_private_ipv4": ["10.1.2.3"]}),
    ([fixed("172.16.0.1"), fixed("172.31.255.254"), fixed("172.32.0.1")],
     {"gcore_private_ipv4": ["172.16.0.1", "172.31.255.254"], "gcore_public_ipv4": ["172.32.0.1"]}),
    ([fixed("192.168.0.9"), fixed("192.169.0.9")], {"gcore_private_ipv4": ["192.168.0.9"], "gcore_public_ipv4": ["192.169.0.9"]}),
    ([fixed("100.64.0.1"), fixed("100.127.255.1"), fixed("100.128.0.1")],
     {"gcore_private_ipv4": ["100.64.0.1", "100.127.255.1"], "gcore_public_ipv4": ["100.128.0.1"]}),
    ([{"addr": "203.0.113.5", "type": "floating"}], {"gcore_public_ipv4": ["203.0.113.5"], "gcore_floating_ipv4": ["203.0.113.5"]}),
    ([fixed("2a03:90c0::1"), fixed("fd00::1"), fixed("fc00::2")], {"gcore_public_ipv6": ["2a03:90c0::1"]}),
    ([fixed("not-an-address"), {"type": "fixed"}, "junk"], {}),
])
def test_addresses_are_classified_with_ipaddress(entries, expected):
    found = cloud.classify_addresses({"net": entries})
    assert found == dict({"gcore_public_ipv4": [], "gcore_private_ipv4": [], "gcore_floating_ipv4": [], "gcore_public_ipv6": []},
                         **expected)


def test_addresses_keep_the_record_order_across_networks():
    found = cloud.classify_addresses({"b": [fixed("198.51.100.2")], "a": [fixed("198.51.100.1"), {"addr": "203.0.113.9", "type": "floating"}]})
    assert found["gcore_public_ipv4"] == ["198.51.100.2", "198.51.100.1", "203.0.113.9"]
    assert cloud.classify_addresses(None)["gcore_public_ipv4"] == []


def test_host_variables_of_a_record():
    record = {"id": "6c6aa80f-7836-4dc2-a2ae-125e248be476", "name": "web", "status": "ACTIVE", "vm_state": "active",
              "flavor": {"flavor_id": "g1-standard-2-4", "flavor_name": "g1-standard-2-4"}, "project_id": 1, "region_id": 76,
              "region": "Luxembourg-2", "tags": [{"key": "env", "value": "prod", "read_only": False},
                                                 {"key": "managed", "value": "k8s", "read_only": True}],
              "addresses": {"net": [fixed("10.0.0.1")]}, "security_groups": [{"name": "default"}],
              "created_at": "2026-01-15T09:30:00Z", "volumes": [], "ssh_key_name": None}
    assert cloud.host_variables(record) == {
        "gcore_id": record["id"], "gcore_name": "web", "gcore_status": "ACTIVE", "gcore_vm_state": "active",
        "gcore_flavor": "g1-standard-2-4", "gcore_project_id": 1, "gcore_region_id": 76, "gcore_region": "Luxembourg-2",
        "gcore_tags": {"env": "prod", "managed": "k8s"}, "gcore_addresses": record["addresses"],
        "gcore_security_groups": ["default"], "gcore_created_at": "2026-01-15T09:30:00Z",
        "gcore_public_ipv4": [], "gcore_private_ipv4": ["10.0.0.1"], "gcore_floating_ipv4": [], "gcore_public_ipv6": [],
    }


def templatable(text):
    """Whether a playbook would render ``text`` as a template: on 2.19 and later when it is trusted, before when it is
    not marked unsafe."""
    if cloud._DATA_TAGGING:  # pylint: disable=protected-access
        from ansible.template import is_trusted_as_template  # pylint: disable=import-outside-toplevel
        return is_trusted_as_template(text)
    from ansible.utils.unsafe_proxy import AnsibleUnsafe  # pylint: disable=import-outside-toplevel
    return not isinstance(text, AnsibleUnsafe)


def test_only_text_that_may_be_a_template_is_kept_from_templating():
    """Plain text is plain (AWX reads --export with json.loads); text holding a template marker is never rendered."""
    templates = ["{{ lookup('pipe', 'id') }}", "a {% if x %}b{% endif %}", "{# note #}", "#jinja2:variable_start_string:'[%'\n[% 6 * 7 %]"]
    plain = ["web-1", "{x}", "}} {", "%} {", "# jinja2:", "a #jinja2:x", "{ {", ""]
    value = cloud.as_data({"tags": dict(("k%d" % index, text) for index, text in enumerate(templates + plain)),
                           "list": templates + plain, "{{ key }}": 1, "key": None, "flag": True, "port": 22})
    assert value == {"tags": dict(("k%d" % index, text) for index, text in enumerate(templates + plain)),
                     "list": templates + plain, "{{ key }}": 1, "key": None, "flag": True, "port": 22}
    assert [templatable(text) for text in value["list"]] == [False] * len(templates) + [True] * len(plain)
    assert [templatable(value["tags"]["k%d" % index]) for index in range(len(templates + plain))] == \
        [False] * len(templates) + [True] * len(plain)
    assert [templatable(key) for key in value if key.startswith("{")] == [False]
    assert type(value["port"]) is int and value["key"] is None  # pylint: disable=unidiomatic-typecheck


def hosts(*pairs):
    return [{"gcore_name": name, "gcore_id": ident} for name, ident in pairs]


def test_unique_names_rename_every_instance_that_shares_a_name():
    names, renamed = cloud.unique_host_names(hosts(("app", "aaaaaaaa-1111"), ("web", "bbbbbbbb-2222"), ("app", "cccccccc-3333")))
    assert names == ["app_aaaaaaaa", "web", "app_cccccccc"]
    assert renamed == [("app", "aaaaaaaa-1111", "app_aaaaaaaa"), ("app", "cccccccc-3333", "app_cccccccc")]


def test_unique_names_fall_back_to_the_whole_id_when_the_short_name_is_taken():
    names, _renamed = cloud.unique_host_names(hosts(("app_aaaaaaaa", "dddddddd-0000"), ("app", "aaaaaaaa-1111"), ("app", "aaaaaaaa-2222")))
    assert names == ["app_aaaaaaaa", "app_aaaaaaaa-1111", "app_aaaaaaaa-2222"]
    assert len(set(names)) == 3


def test_unique_names_by_id_and_for_a_nameless_instance():
    assert cloud.unique_host_names(hosts(("app", "a-1"), ("app", "b-2")), "id") == (["a-1", "b-2"], [])
    assert cloud.unique_host_names(hosts(("", "a-1"), ("x", "b-2"))) == (["a-1", "x"], [])


def test_filters_become_query_parameters():
    params = cloud.filter_params({"status": "shutoff", "name": "web", "flavor_prefix": "g2-", "tag_key_value": {"env": "prod", "team": "a b"},
                                  "tag_value": "prod"})
    assert params == {"status": "SHUTOFF", "name": "web", "flavor_prefix": "g2-", "tag_key_value": '{"env":"prod","team":"a b"}',
                      "tag_value": ["prod"]}
    assert json.loads(params["tag_key_value"]) == {"env": "prod", "team": "a b"}
    assert cloud.filter_params({}) == {} and cloud.filter_params(None) == {}


@pytest.mark.parametrize("filters, message", [
    ("status=ACTIVE", "filters: a dictionary is required"),
    ({"state": "ACTIVE"}, "filters: unknown key state"),
    ({"status": "RUNNING"}, "filters.status: 'RUNNING' is not one of"),
    ({"name": ""}, "filters.name: a non-empty string"),
    ({"name": "a\nb"}, "filters.name: a non-empty string without control characters"),
    ({"flavor_prefix": 3}, "filters.flavor_prefix"),
    ({"tag_key_value": {}}, "filters.tag_key_value: a non-empty dictionary"),
    ({"tag_key_value": {"a=b": "x"}}, "tag key 'a=b'"),
    ({"tag_key_value": {"env": ""}}, "filters.tag_key_value.env: a tag value is a string of 1 to 255 characters"),
    ({"tag_key_value": {"env": "x" * 256}}, "1 to 255 characters"),
    ({"tag_value": ["ok", "tab\there"]}, "filters.tag_value[1]"),
    ({"tag_value": []}, "filters.tag_value: a non-empty list"),
])
def test_bad_filters_name_the_member_and_the_rule(filters, message):
    with pytest.raises(ValidationError) as err:
        cloud.filter_params(filters)
    assert message in str(err.value)


@pytest.mark.parametrize("value, message", [
    ([], "projects: a non-empty list"), ("1", "projects: a non-empty list"), ([1, "2"], "projects[1]: '2' is not an integer ID"),
    ([1, False], "projects[1]: False is not an integer ID"), ([1, 0], "projects[1]: 0 is out of range"),
])
def test_bad_id_lists(value, message):
    with pytest.raises(ValidationError) as err:
        cloud.check_id_list("projects", value)
    assert message in str(err.value)
    assert cloud.check_id_list("projects", [2, 1, 2]) == [2, 1]


@pytest.mark.parametrize("path, accepted", [
    ("inventory/cloud.gcore.yml", True), ("gcore.yaml", True), ("prod_gcore.yml", True), ("cloud.yml", False),
    ("gcore.yml.bak", False), ("gcore.json", False)])
def test_config_file_names(tmp_path, path, accepted):
    target = tmp_path / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("plugin: gcore.platform.cloud\n")
    assert cloud.InventoryModule().verify_file(str(target)) is accepted


def test_server_types_is_documented_as_the_listings_it_reads():
    import yaml  # pylint: disable=import-outside-toplevel
    option = yaml.safe_load(cloud.DOCUMENTATION)["options"]["server_types"]
    assert (option["type"], option["elements"]) == ("list", "str")
    assert option["choices"] == option["default"] == list(cloud.LISTINGS) == ["instance", "baremetal"]
    assert option["version_added"] == "1.2.0"
    assert [cloud.check_server_types(value) for value in (["baremetal"], ["baremetal", "instance", "baremetal"])] == [
        ["baremetal"], ["baremetal", "instance"]]
    for bad, message in (([], "server_types: a non-empty list"), (["vm"], "server_types[0]: 'vm' is not one of instance, baremetal"),
                         ("instance", "server_types: a non-empty list")):
        with pytest.raises(ValidationError, match=re.escape(message)):
            cloud.check_server_types(bad)
