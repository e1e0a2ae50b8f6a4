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
from declared import module_class

from ansible_collections.gcore.platform.plugins.doc_fragments import interfaces as interfaces_fragment
from ansible_collections.gcore.platform.plugins.doc_fragments import waap_conditions
from ansible_collections.gcore.platform.plugins.module_utils._interfaces import CHECKED_SPEC, FLOATING_IP_SPEC, INTERFACE_SPEC
from ansible_collections.gcore.platform.plugins.module_utils._waap_tables import CONDITION_KINDS, RULE_ACTIONS
from ansible_collections.gcore.platform.plugins.modules import price_preview, quota_check

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "tools"))

import condition_docs  # noqa: E402  pylint: disable=wrong-import-position
from waap_docs import CONDITION_DOCS  # noqa: E402  pylint: disable=wrong-import-position


def options(doc):
    return yaml.safe_load(doc)["options"]


def merged(module, fragment, option, literal="DOCUMENTATION"):
    """The option as ansible-doc shows it: the module's entry merged over the fragment's (Ansible's rule)."""
    return dict(options(getattr(fragment.ModuleDocFragment, literal))[option], **options(module.DOCUMENTATION)[option])


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
    from ansible_collections.gcore.platform.plugins.module_utils._waap_rules import CUSTOM, FIREWALL  # pylint: disable=import-outside-toplevel
    from ansible_collections.gcore.platform.plugins.module_utils._waap_tables import FIREWALL_CONDITIONS  # pylint: disable=import-outside-toplevel
    module = importlib.import_module("ansible_collections.gcore.platform.plugins.modules.%s" % name)
    doc = yaml.safe_load(module.DOCUMENTATION)
    assert "gcore.platform.waap_conditions.%s" % fragment.lower() in doc["extends_documentation_fragment"]
    assert "gcore.platform.waap.SETS" in doc["extends_documentation_fragment"], "config and state are worded once"
    assert "options" not in doc, "every option of a set module comes from a fragment"
    item = options(getattr(waap_conditions.ModuleDocFragment, fragment))["config"]["suboptions"]
    spec = (FIREWALL if firewall else CUSTOM).item_spec()
    assert list(item) == list(spec)
    assert list(item["action"]["suboptions"]) == list(spec["action"]["options"])
    assert list(item["conditions"]["suboptions"]) == (list(FIREWALL_CONDITIONS) if firewall else list(CONDITION_KINDS))
    assert "O(conditions[]" not in getattr(waap_conditions.ModuleDocFragment, fragment)


# ---- interfaces: one fragment for quota_check and price_preview ------------------------------
# price_preview documents the plain interfaces (DOCUMENTATION); quota_check, which takes a baremetal_server task's
# interfaces as they are (networks and subnets by name, port_group), the fragment's CHECKED literal, which
# tests/unit/test_doc_fragments.py keeps DOCUMENTATION's words with those fields added. Each documents the spec it
# uses, and neither words a suboption of its own.

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


@pytest.mark.parametrize("module, literal, spec", [(quota_check, "CHECKED", CHECKED_SPEC),
                                                   (price_preview, "DOCUMENTATION", INTERFACE_SPEC)])  # price_preview: required_if instance
def test_both_modules_document_the_shared_interfaces_from_one_fragment(module, literal, spec):
    doc = yaml.safe_load(module.DOCUMENTATION)
    fragment = "gcore.platform.interfaces" + ("" if literal == "DOCUMENTATION" else "." + literal)
    assert [name for name in doc["extends_documentation_fragment"] if name.startswith("gcore.platform.interfaces")] == [fragment]
    assert "suboptions" not in doc["options"]["interfaces"], "the suboptions are documented once, in the fragment"
    option = merged(module, interfaces_fragment, "interfaces", literal)
    assert option.get("required", False) is False
    assert module_class(module).argument_spec["interfaces"]["options"] == spec
    _agrees(option["suboptions"], spec, "interfaces")
    assert set(option["suboptions"]["floating_ip"]["suboptions"]) == set(FLOATING_IP_SPEC)


# ---- roles: their argument specs agree with the modules they call ----------------------------

# (role, option) -> the module whose options each item of that role option holds.
ROLE_ITEMS = {
    ("waap_policy", "waap_policy_rules"): "waap_custom_rules.config",
    ("waap_policy", "waap_policy_policies"): "waap_policies.policies",
    ("waap_policy", "waap_policy_firewall_rules"): "waap_firewall_rules.config",
    ("waap_policy", "waap_policy_advanced_rules"): "waap_advanced_rules.config",
    ("waap_policy", "waap_policy_overrides"): "waap_policy_overrides.config",
    ("preflight", "preflight_baremetal"): "quota_check",
    ("preflight", "preflight_loadbalancers"): "quota_check",
    ("preflight", "preflight_instances"): "price_preview",
}
# Item options a role reads itself and sends to no module as such: (role, option) -> {name: the module option it is}.
ROLE_OWN_ITEMS = {
    ("preflight", "preflight_loadbalancers"): {"name": "load_balancer_info.name"},  # finds the load balancer by name
    # an instance or instances declaration as it is: its names read, its other options accepted and ignored
    ("preflight", "preflight_instances"): dict(
        [(name, "instance." + name) for name in (
            "name", "allow_resize", "delete_floating_ips", "delete_volumes", "instance_id", "password", "placement_group",
            "purge_tags", "security_groups", "ssh_key_name", "state", "tags", "user_data", "username", "wait_timeout")]
        + [(name, "instances." + name) for name in ("count", "name_format", "purge", "rolling")]
        + [(name, "common." + name) for name in (
            "api_key", "api_retries", "api_timeout", "api_url", "project_id", "region_id", "validate_certs", "wait")]),
}


def _role_option(role, option):
    spec = yaml.safe_load((ROOT / "roles" / role / "meta" / "argument_specs.yml").read_text())
    return spec["argument_specs"]["main"]["options"][option]


def _module_spec(name):
    """The argument spec of a module, or with ``module.option`` the options of that list option's items (``common``:
    the options every module has)."""
    if name == "common":
        from ansible_collections.gcore.platform.plugins.module_utils._checks import gcore_argument_spec  # pylint: disable=import-outside-toplevel
        return gcore_argument_spec(cloud=True, waits=True)
    if "." in name:
        name, option = name.split(".")
        return _module_spec(name)[option]["options"]
    module = importlib.import_module("ansible_collections.gcore.platform.plugins.modules.%s" % name)
    return module_class(module).argument_spec


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
    options = dict(entry.get("options") or {})
    for name, module_option in ROLE_OWN_ITEMS.get((role, option), {}).items():
        module, module_name = module_option.split(".")
        _role_agrees({module_name: options.pop(name)}, _module_spec(module), "%s.%s[]" % (role, option))
    _role_agrees(options, _module_spec(ROLE_ITEMS[(role, option)]), "%s.%s[]" % (role, option))


# ---- the settings and hooks of the core: documented in its tables, each used by at least two modules ----------

CORE_FILES = ("_base", "_flow", "_resource", "_cloud")  # the files with settings and hooks


def _core():
    return [importlib.import_module("ansible_collections.gcore.platform.plugins.module_utils.%s" % name) for name in CORE_FILES]


def _settings_table():
    """The first word of every row of the settings tables in the core's docstrings."""
    rows = []
    for module in _core():
        for table in (module.__doc__ or "").split("setting ")[1:]:
            body = table.split("\n", 2)[2]  # below the header and its rule
            for row in body.split("\n\n")[0].splitlines():
                if row.startswith("="):
                    break
                if row and not row.startswith(" "):
                    rows.append(row.split()[0])
    return rows


def _hooks():
    import re  # pylint: disable=import-outside-toplevel
    hooks = []
    for module in _core():
        for paragraph in (module.__doc__ or "").split("Hooks (pure: no requests")[1:]:
            hooks += re.findall(r"``(\w+)\(", paragraph.split("\n\n")[0])
    return list(dict.fromkeys(hooks))


def _flow_classes():
    """The core's classes: the module base, the flow, one resource, and a Cloud resource and reader."""
    from ansible_collections.gcore.platform.plugins.module_utils import (  # pylint: disable=import-outside-toplevel
        _base, _cloud, _flow, _resource)
    return (_base.GcoreModule, _flow.Flow, _resource.GcoreResourceModule, _cloud.CloudResource, _cloud.CloudInfo)


def _declared(cls):
    return set(name for name, value in vars(cls).items() if not name.startswith("_") and not callable(value)
               and not isinstance(value, (classmethod, staticmethod, property)))


def _uses():
    """{name: [modules]}: the settings and hooks each module sets, in its own class or a declaration it inherits
    (``WaapRuleSet``: two modules; ``CloudResource``: every Cloud resource module), the flow's own classes left out.
    Only plugins/modules count."""
    flow = _flow_classes()[:3]
    uses = {}
    for path in sorted((ROOT / "plugins" / "modules").glob("*.py")):
        module = importlib.import_module("ansible_collections.gcore.platform.plugins.modules.%s" % path.stem)
        names = set()
        for base in module_class(module).__mro__:  # the class main() runs, declared in the module or in module_utils
            if base not in flow and base is not object:
                names |= set(vars(base))
        for name in names:
            uses.setdefault(name, []).append(path.stem)
    return uses


def test_every_setting_of_the_core_is_in_its_tables_and_used_by_two_modules():
    table = _settings_table()
    assert len(table) == len(set(table)), "a setting documented twice"
    declared = set()
    for cls in _flow_classes():
        declared |= _declared(cls)
    declared -= {"ledger", "record", "kept"}  # the run's state, not settings
    assert sorted(declared) == sorted(table), "every setting of the core in one of its tables, and only settings"
    uses = _uses()
    lonely = dict((name, uses.get(name, [])) for name in table if len(uses.get(name, [])) < 2)
    assert lonely == ONE_USER_SETTINGS, "a setting with one user (or one listed here that has gained a second): %s" % lonely


# The settings one module alone sets today, each with why it stays in the core.
ONE_USER_SETTINGS = {}


def test_every_hook_of_the_core_is_documented_defined_and_used_by_two_modules():
    hooks = _hooks()
    assert "answered" in hooks and "create_body" in hooks and "find" in hooks
    flow = _flow_classes()
    assert [hook for hook in hooks if not any(callable(getattr(cls, hook, None)) for cls in flow)] == []
    uses = _uses()
    lonely = dict((hook, uses.get(hook, [])) for hook in hooks if len(uses.get(hook, [])) < 2)
    assert lonely == ONE_USER, "a hook with one user (or one listed here that has gained a second): %s" % lonely


# The hooks one module alone overrides, each with why it stays in the core rather than in that module: the test above
# fails on any other, and on one of these once a second module uses it (then it leaves this list).
ONE_USER = {
    "gone": ["storage"],  # the deprecated v1 storage delete says "absent" with a 400, not a 404; the flow asks it on every read
}


def test_the_counting_of_users_sees_a_setting_a_module_sets_and_one_it_inherits():
    uses = _uses()
    assert "router" in uses["lock"] and "waap_custom_rules" in uses["max_offset"]
    assert "quota_check" not in uses.get("lock", [])


def test_one_place_ends_a_run_and_no_file_of_the_flow_is_over_400_lines():
    """Hooks raise typed errors; ``GcoreModule.conclude`` alone calls fail_json/exit_json (the override in
    ``_argspec.ArgSpecModule`` only shapes argument-spec errors)."""
    calls = []
    for path in sorted((ROOT / "plugins").rglob("*.py")):
        text = path.read_text()
        calls += ["%s:%s" % (path.name, number) for number, line in enumerate(text.splitlines(), 1)
                  if ".fail_json(" in line or ".exit_json(" in line]
        if path.parent.name == "module_utils":
            assert len(text.splitlines()) <= 400, "%s has more than 400 lines" % path.name
    assert len(calls) == 3 and sorted(call.split(":")[0] for call in calls) == ["_argspec.py", "_base.py", "_base.py"], calls


def test_no_resource_module_defines_a_flow_method():
    """A resource module is a declaration: it defines settings, hooks and validate(), never a method of the flow."""
    from ansible_collections.gcore.platform.plugins.module_utils._flow import Flow  # pylint: disable=import-outside-toplevel
    flow = _flow_classes()
    allowed = set(_hooks()) | {"validate", "main"}
    flow_methods = set(name for cls in flow for name, value in vars(cls).items() if callable(value)) - allowed
    assert {"run", "plan", "lookup", "apply", "attempt"} <= flow_methods
    flow_methods |= set(RENAMED_HOOKS)  # a module defining a hook by its old name would never be called
    overrides = {}
    for path in sorted((ROOT / "plugins" / "modules").glob("*.py")):
        module = importlib.import_module("ansible_collections.gcore.platform.plugins.modules.%s" % path.stem)
        for cls in vars(module).values():
            if isinstance(cls, type) and issubclass(cls, Flow) and cls not in flow:
                for base in cls.__mro__:
                    if base not in flow and base is not object:
                        found = sorted(set(vars(base)) & flow_methods)
                        if found:
                            overrides["%s (%s)" % (path.stem, base.__name__)] = found
    assert overrides == {}, "flow methods overridden by a declaration: %s" % overrides


# Hooks renamed, by their old names: a declaration still defining one is refused above (the flow no longer calls it).
RENAMED_HOOKS = {"report": "examine"}


def test_the_core_stays_small():
    """The flow and declaration bases (the module base, the flow, a write, one resource, the part protocol, the child
    collection, the members, the attachments, a Cloud resource) hold at most ``CORE_LINES`` together, so that new
    modules (a resource with children among them) are declarations and not core code."""
    lines = dict((name, len((ROOT / "plugins" / "module_utils" / ("%s.py" % name)).read_text().splitlines()))
                 for name in ("_base", "_flow", "_writes", "_resource", "_parts", "_children", "_members", "_attachments", "_cloud"))
    assert sum(lines.values()) <= CORE_LINES, lines


# What the bases hold: the module base, the flow, a write, one resource, the part protocol (the value part in it), the
# child collection, the members, the attachments, and a Cloud resource and reader (``Kind`` with them: the rule every
# Cloud path follows). The kinds table is a declaration that grows with every resource: it is ``_kinds.py``, not
# counted, and so is what only some kinds use (the k8s name rule and version order, ``find_named``). The aim is 1,400
# (issue 44): lower this as the core sheds, never raise it for a new resource (a resource with children declares them).
# 1,884 at eda59a3: 78 lines (the kinds table) moved out, 64 cut; 51 more with the fleet on the flow (the rounds of
# writes across many flows moved to the task waiter, ``_tasks.apply_together``). 1,691 -> 1,399 at the third pass: one-user
# capabilities to their modules, waiting to the waiter, checks to the checks: ~98 lines moved, ~194 removed.
CORE_LINES = 1400


# Engines that still run modules beside the resource flow, each to become a resource with parts on the one flow;
# the test below fails on any other, and once one of these has gone (then it leaves this list).
ENGINES_LEFT = set()


def test_one_flow_runs_every_state_module():
    """No ``run`` is defined in plugins/module_utils but the base's, the resource flow's and the reader's (CloudInfo):
    found by name in the source, whatever the class derives from, so a new engine cannot hide from this test."""
    import ast  # pylint: disable=import-outside-toplevel
    runs = set()
    for path in sorted((ROOT / "plugins" / "module_utils").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            for item in getattr(node, "body", []) if isinstance(node, (ast.ClassDef, ast.Module)) else []:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name == "run":
                    runs.add("%s.%s" % (path.stem, ".".join(filter(None, [getattr(node, "name", None), "run"]))))
    assert runs - ENGINES_LEFT == {"_base.GcoreModule.run", "_resource.GcoreResourceModule.run", "_cloud.CloudInfo.run"}, runs
    assert ENGINES_LEFT <= runs, "an engine has gone: take it out of ENGINES_LEFT"


def test_every_cloud_path_comes_from_its_kind():
    """No ``/cloud/`` string in the code of plugins/ (docstrings and documentation aside) but in ``Kind.path`` and the
    task waiter: a path is derived from its ``Kind`` (collection, version, suffix), the kinds table's too."""
    import ast  # pylint: disable=import-outside-toplevel
    spelt = set()
    for path in sorted(path for path in (ROOT / "plugins").rglob("*.py") if path.parent.name != "doc_fragments"):
        tree = ast.parse(path.read_text())
        documents = set(id(node.body[0].value) for node in ast.walk(tree) if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
                        and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant))
        documents |= set(id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Assign) and any(
            getattr(target, "id", "") in ("DOCUMENTATION", "EXAMPLES", "RETURN") for target in node.targets))
        if any(isinstance(node, ast.Constant) and isinstance(node.value, str) and "/cloud/" in node.value and id(node) not in documents
               for node in ast.walk(tree)):
            spelt.add(path.name)
    assert spelt == {"_cloud.py", "_tasks.py"}, spelt
