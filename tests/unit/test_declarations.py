# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every shared declaration has one source: generated docs do not drift, shared fragments match the argument
specs they document, and the roles' argument specs agree with the modules they call."""

from __future__ import annotations

import importlib
import pathlib
import sys

import pytest
import yaml

from ansible_collections.gcore.platform.plugins.doc_fragments import interfaces as interfaces_fragment
from ansible_collections.gcore.platform.plugins.doc_fragments import waap_conditions
from ansible_collections.gcore.platform.plugins.module_utils._interfaces import FLOATING_IP_SPEC, INTERFACE_SPEC
from ansible_collections.gcore.platform.plugins.module_utils._waap import CONDITION_DOCS, CONDITION_KINDS, RULE_ACTIONS
from ansible_collections.gcore.platform.plugins.modules import price_preview, quota_check

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "tools"))

import condition_docs  # noqa: E402  pylint: disable=wrong-import-position


def options(doc):
    return yaml.safe_load(doc)["options"]


def merged(module, fragment, option):
    """The option as ansible-doc shows it: the module's entry merged over the fragment's (Ansible's rule)."""
    return dict(options(fragment.ModuleDocFragment.DOCUMENTATION)[option], **options(module.DOCUMENTATION)[option])


# ---- WAAP condition kinds: generated from CONDITION_KINDS ------------------------------------

def test_the_condition_docs_fragment_is_what_the_generator_renders():
    committed = (ROOT / "plugins" / "doc_fragments" / "waap_conditions.py").read_text()
    assert committed == condition_docs.render(), "run: python tests/tools/condition_docs.py"


def test_every_condition_kind_and_member_has_its_words():
    assert list(CONDITION_DOCS) == list(CONDITION_KINDS)
    for kind, members in CONDITION_KINDS.items():
        assert list(CONDITION_DOCS[kind][1]) == list(members), kind


def test_the_rule_module_takes_its_condition_docs_from_the_fragment():
    from ansible_collections.gcore.platform.plugins.modules import waap_custom_rule  # pylint: disable=import-outside-toplevel

    doc = yaml.safe_load(waap_custom_rule.DOCUMENTATION)
    assert "gcore.platform.waap_conditions" in doc["extends_documentation_fragment"]
    assert "suboptions" not in doc["options"]["conditions"], "the kinds are documented once, in the fragment"
    kinds = options(waap_conditions.ModuleDocFragment.DOCUMENTATION)["conditions"]["suboptions"]
    assert list(kinds) == list(CONDITION_KINDS)
    assert "suboptions" not in doc["options"]["action"], "the action kinds are documented once, in the fragment"
    actions = options(waap_conditions.ModuleDocFragment.DOCUMENTATION)["action"]["suboptions"]
    assert list(actions) == list(RULE_ACTIONS)


@pytest.mark.parametrize("name, fragment, firewall", [("waap_custom_rules", "CUSTOM_RULES", False),
                                                      ("waap_firewall_rules", "FIREWALL_RULES", True)])
def test_the_set_modules_take_their_config_docs_from_the_generated_fragment(name, fragment, firewall):
    """Ansible merges a fragment's option one level deep: the fragment documents every suboption of config."""
    from ansible_collections.gcore.platform.plugins.module_utils._waap import FIREWALL_CONDITIONS, rule_set_argument_spec
    module = importlib.import_module("ansible_collections.gcore.platform.plugins.modules.%s" % name)
    doc = yaml.safe_load(module.DOCUMENTATION)
    assert "gcore.platform.waap_conditions.%s" % fragment.lower() in doc["extends_documentation_fragment"]
    assert "gcore.platform.waap.SETS" in doc["extends_documentation_fragment"], "config and state are worded once"
    assert "options" not in doc, "every option of a set module comes from a fragment"
    item = options(getattr(waap_conditions.ModuleDocFragment, fragment))["config"]["suboptions"]
    spec = rule_set_argument_spec(firewall)["config"]["options"]
    assert list(item) == list(spec)
    assert list(item["action"]["suboptions"]) == list(spec["action"]["options"])
    assert list(item["conditions"]["suboptions"]) == (list(FIREWALL_CONDITIONS) if firewall else list(CONDITION_KINDS))
    assert "O(conditions[]" not in getattr(waap_conditions.ModuleDocFragment, fragment)


# ---- interfaces: one fragment for quota_check and price_preview ------------------------------

def _agrees(documented, spec, where):
    assert set(documented) == set(spec), where
    for name, entry in spec.items():
        doc = documented[name]
        assert doc["type"] == entry["type"], (where, name)
        assert doc.get("choices") == entry.get("choices"), (where, name)
        assert doc.get("default") == entry.get("default"), (where, name)
        assert doc.get("elements") == entry.get("elements"), (where, name)
        assert bool(doc.get("required")) == bool(entry.get("required")), (where, name)
        if entry.get("options"):
            _agrees(doc["suboptions"], entry["options"], "%s.%s" % (where, name))


@pytest.mark.parametrize("module, required", [(quota_check, False), (price_preview, True)])
def test_both_modules_document_the_shared_interfaces_from_one_fragment(module, required):
    doc = yaml.safe_load(module.DOCUMENTATION)
    assert "gcore.platform.interfaces" in doc["extends_documentation_fragment"]
    assert "suboptions" not in doc["options"]["interfaces"], "the suboptions are documented once, in the fragment"
    option = merged(module, interfaces_fragment, "interfaces")
    assert option.get("required", False) is required
    _agrees(option["suboptions"], INTERFACE_SPEC, "interfaces")
    assert set(option["suboptions"]["floating_ip"]["suboptions"]) == set(FLOATING_IP_SPEC)


# ---- roles: their argument specs agree with the modules they call ----------------------------

# (role, option) -> the module whose options each item of that role option holds.
ROLE_ITEMS = {
    ("waap_policy", "waap_policy_rules"): "waap_custom_rules.config",
    ("preflight", "preflight_baremetal"): "quota_check",
    ("preflight", "preflight_loadbalancers"): "quota_check",
    ("preflight", "preflight_instances"): "price_preview",
}


def _role_option(role, option):
    spec = yaml.safe_load((ROOT / "roles" / role / "meta" / "argument_specs.yml").read_text())
    return spec["argument_specs"]["main"]["options"][option]


def _module_spec(name):
    """The argument spec of a module, or with ``module.option`` the options of that list option's items."""
    if "." in name:
        name, option = name.split(".")
        return _module_spec(name)[option]["options"]
    module = importlib.import_module("ansible_collections.gcore.platform.plugins.modules.%s" % name)
    classes = [value for value in vars(module).values() if isinstance(value, type) and getattr(value, "argument_spec", None)
               and value.__module__ == module.__name__]
    return classes[0].argument_spec


def _role_agrees(role_options, module_options, where):
    for name, entry in role_options.items():
        assert name in module_options, "%s.%s: the module has no such option" % (where, name)
        module_entry = module_options[name]
        for key in ("type", "elements", "choices"):
            if key in entry:
                assert entry[key] == module_entry.get(key), "%s.%s: %s differs from the module's" % (where, name, key)
        if entry.get("options") and module_entry.get("options"):
            _role_agrees(entry["options"], module_entry["options"], "%s.%s" % (where, name))


@pytest.mark.parametrize("role, option", sorted(ROLE_ITEMS))
def test_role_item_options_agree_with_the_module_options(role, option):
    entry = _role_option(role, option)
    assert entry["type"] == "list" and entry["elements"] == "dict"
    _role_agrees(entry.get("options") or {}, _module_spec(ROLE_ITEMS[(role, option)]), "%s.%s[]" % (role, option))


# ---- the settings of the flow: one table, each with a user -----------------------------------

def _settings_table():
    from ansible_collections.gcore.platform.plugins.module_utils import _resource  # pylint: disable=import-outside-toplevel
    rows = _resource.__doc__.split("setting                meaning")[1].split("\n\n")[0].splitlines()
    return [row.split()[0] for row in rows if row and not row.startswith(("=", " "))]


def _declared(cls):
    return set(name for name, value in vars(cls).items() if not name.startswith("_") and not callable(value)
               and not isinstance(value, (classmethod, staticmethod, property)))


def _users():
    """{setting: [classes of the collection that set it in their body]} (the flow's own classes left out)."""
    import ast  # pylint: disable=import-outside-toplevel
    users = {}
    bases = {"GcoreModule", "GcoreResourceModule", "GcoreResourceList", "Writer", "_AnsibleModule"}
    for path in sorted((ROOT / "plugins" / "modules").glob("*.py")) + sorted((ROOT / "plugins" / "module_utils").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and node.name not in bases:
                for statement in node.body:
                    targets = statement.targets if isinstance(statement, ast.Assign) else []
                    for target in targets:
                        for name in target.elts if isinstance(target, ast.Tuple) else [target]:
                            if isinstance(name, ast.Name):
                                users.setdefault(name.id, []).append(node.name)
                    if isinstance(statement, ast.FunctionDef) and statement.name == "paths":
                        users.setdefault("paths", []).append(node.name)
    return users


def test_every_setting_of_the_flow_is_in_the_one_table_and_has_a_user():
    from ansible_collections.gcore.platform.plugins.module_utils._base import GcoreModule  # pylint: disable=import-outside-toplevel
    from ansible_collections.gcore.platform.plugins.module_utils._resource import GcoreResourceModule  # pylint: disable=import-outside-toplevel
    from ansible_collections.gcore.platform.plugins.module_utils._resource_list import GcoreResourceList  # pylint: disable=import-outside-toplevel
    from ansible_collections.gcore.platform.plugins.module_utils._waap_rules import WaapRuleSet  # pylint: disable=import-outside-toplevel
    table = _settings_table()
    assert len(table) == len(set(table)), "a setting documented twice"
    declared = _declared(GcoreModule) | _declared(GcoreResourceModule) | _declared(GcoreResourceList)
    declared |= _declared(WaapRuleSet)  # its own settings; the others it sets are the flow's
    assert sorted(declared) == sorted(table), "every setting in the table of _resource, and only settings"
    users = _users()
    assert [name for name in table if not users.get(name)] == [], "a setting without a user"


def test_one_place_ends_a_run_and_no_file_of_the_flow_is_over_400_lines():
    """Hooks raise typed errors; ``GcoreModule.conclude`` alone calls fail_json/exit_json (the override in
    ``_AnsibleModule`` only shapes argument-spec errors)."""
    calls = []
    for path in sorted((ROOT / "plugins").rglob("*.py")):
        text = path.read_text()
        calls += ["%s:%s" % (path.name, number) for number, line in enumerate(text.splitlines(), 1)
                  if ".fail_json(" in line or ".exit_json(" in line]
        if path.parent.name == "module_utils":
            assert len(text.splitlines()) <= 400, "%s has more than 400 lines" % path.name
    assert len(calls) == 3 and all(call.startswith("_base.py:") for call in calls), calls


def test_every_hook_of_the_flow_is_documented_defined_and_used():
    """The hooks named in the docstring of _resource are methods of the flow, and each has a module that overrides it."""
    import ast  # pylint: disable=import-outside-toplevel
    import re  # pylint: disable=import-outside-toplevel
    from ansible_collections.gcore.platform.plugins.module_utils import _resource  # pylint: disable=import-outside-toplevel
    paragraph = _resource.__doc__.split("Hooks (pure: no requests):")[1].split("\n\n")[0]
    hooks = re.findall(r"``(\w+)\(", paragraph)
    assert "answered" in hooks and len(hooks) == len(set(hooks))
    assert [hook for hook in hooks if not callable(getattr(_resource.GcoreResourceModule, hook, None))] == []
    overridden = set()
    for path in sorted((ROOT / "plugins" / "modules").glob("*.py")) + sorted((ROOT / "plugins" / "module_utils").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and node.name != "GcoreResourceModule":
                overridden |= set(item.name for item in node.body if isinstance(item, ast.FunctionDef))
    assert [hook for hook in hooks if hook not in overridden] == [], "a hook without a user"
