# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every module's EXAMPLES block (and each role README's example play), played by ansible-playbook against the simulator.

Modules are found in plugins/modules/ (a new module is picked up without editing this file). One playbook runs the
EXAMPLES of a group of modules (``GROUPS``: each ansible-playbook start costs a second of CPU): one play a module,
on a host of its own (``ex_<module>``, so a failing module does not stop the next), its tasks in order on a freshly
reset simulator (the play's first task). The only changes made to the tasks:

- the documentation's ids become the simulator's seeded ones (``simulator_values``, the one place to
  repoint when the seeds move);
- ``module_defaults`` (``group/gcore.platform.all``) sets ``api_url`` and ``api_key``, and
  ``gcore_api_key`` (which examples may use) is defined;
- around every task of this collection, the simulator's request log is marked before and checked
  after: each example must send at least one request;
- an example that is meant to fail (``EXPECTED_FAILURES``) must fail, with the given message.
"""

from __future__ import annotations

import ast
import re

import pytest
import yaml

from conftest import ROOT, TARGETS
from simulator.resources import routers, storage

MODULES_DIR = ROOT / "plugins" / "modules"
MODULES = sorted(path.stem for path in MODULES_DIR.glob("*.py") if not path.stem.startswith("_"))
PREFIX = "gcore.platform."

# (module, example task name) -> a regex its failure message must match. Keep it short and explicit.
EXPECTED_FAILURES = {
    ("price_preview", "Fail when a bare metal server goes over budget"): r"is above max_price_per_month 600",
}


def simulator_values():
    """The ids the documentation uses, as (option, value in EXAMPLES) -> the simulator's seeded value.

    Values not listed here are used as written (the examples already use ids the simulator serves,
    such as WAAP domain 1001 and the external network of region 76).
    """
    def storages(kind):
        return [storage_id for storage_id, seed in sorted(storage.SEEDED.items()) if seed[1] == kind and seed[2] == "ok"]

    s3, sftp = storages("s3_compatible"), storages("sftp")
    subnets = list(routers.PRIVATE_SUBNETS)
    return {
        ("subnet_id", "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01"): subnets[0],
        ("subnet_id", "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b02"): subnets[1],
        ("project_id", 1): routers.SEED_PROJECT,
        ("region_id", 76): routers.SEED_REGION,
        ("storage_id", 1234): s3[0],
        ("storage_id", 1235): sftp[0],
        ("storage_id", 1236): s3[1],
    }


def examples_of(module):
    """The EXAMPLES of ``plugins/modules/<module>.py`` as a list of tasks (read, not imported)."""
    tree = ast.parse((MODULES_DIR / ("%s.py" % module)).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(target, "id", None) == "EXAMPLES" for target in node.targets):
            return yaml.safe_load(ast.literal_eval(node.value))
    return None


def substitute(value, values, option=None):
    """``value`` with every (option, literal) of ``values`` replaced, at any depth."""
    if isinstance(value, dict):
        return {key: substitute(item, values, key) for key, item in value.items()}
    if isinstance(value, list):
        return [substitute(item, values, option) for item in value]
    if isinstance(value, (int, str)) and not isinstance(value, bool):
        return values.get((option, value), value)
    return value


def collection_module(task):
    return next((key for key in task if key.startswith(PREFIX)), None)


def sim_call(name, call):
    """A call to the simulator's control API (the test-only action tests/integration/action_plugins/sim.py)."""
    return {"name": name, "sim": {"url": "{{ sim_url }}", "call": call}, "changed_when": False}


def play_tasks(module, examples, values):
    """The example tasks, each task of the collection framed by a log mark and a 'sent a request' check."""
    tasks = [sim_call("Simulator: the seeded state for %s" % module, "reset")]
    for number, example in enumerate(examples, 1):
        task = substitute(example, values)
        name = task.get("name", "example %d" % number)
        if collection_module(task) is None:
            tasks.append(task)
            continue
        tasks.append(sim_call("Mark before: %s" % name, "mark"))
        expected = EXPECTED_FAILURES.get((module, name))
        if expected:
            task["ignore_errors"] = True
            task.setdefault("register", "doc_example_result")
        tasks.append(task)
        checks = ["sim_requests | length > 0"]
        if expected:
            checks += ["%s is failed" % task["register"], "%s.msg is search(%r)" % (task["register"], expected)]
        tasks.append({"name": "Checked: %s" % name,
                      "ansible.builtin.assert": {"that": checks, "fail_msg": "the example '%s' did not behave as documented" % name}})
    return tasks


def play_of(module, examples):
    return {
        "name": "EXAMPLES of %s%s" % (PREFIX, module),
        "hosts": "ex_%s" % module,
        "gather_facts": False,
        "vars_files": [str(TARGETS / "sim_vars.yml")],
        "vars": {"gcore_api_key": "{{ lookup('ansible.builtin.env', 'GCORE_API_KEY') }}"},
        "module_defaults": {"group/gcore.platform.all": {"api_url": "{{ sim_url }}", "api_key": "{{ gcore_api_key }}"}},
        "tasks": play_tasks(module, examples, simulator_values()),
    }


def groups():
    """The modules a playbook each: the smoke one alone (the edge cores run it, smoke.txt), the rest in two halves
    (one for each xdist worker), each named by its first and last module."""
    rest = [module for module in MODULES if module not in SMOKE_MODULES]
    halves = (rest[:(len(rest) + 1) // 2], rest[(len(rest) + 1) // 2:])
    found = dict((module, [module]) for module in SMOKE_MODULES)
    found.update(("%s-to-%s" % (half[0], half[-1]), half) for half in halves if half)
    return found


SMOKE_MODULES = ("notification_threshold",)
GROUPS = groups()


def test_every_module_is_found():
    assert len(MODULES) >= 9 and "waap_custom_rule" in MODULES, MODULES
    assert sorted(module for group in GROUPS.values() for module in group) == MODULES


def test_expected_failures_name_real_examples():
    """A renamed example must not silently drop out of EXPECTED_FAILURES."""
    for module, name in EXPECTED_FAILURES:
        assert name in [task.get("name") for task in examples_of(module) or []], (module, name)


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_examples_run(playbook, sim, tmp_path, group):
    modules = GROUPS[group]
    plays = []
    for module in modules:
        examples = examples_of(module)
        assert examples, "plugins/modules/%s.py has no EXAMPLES tasks" % module
        assert any(collection_module(task) == PREFIX + module for task in examples), "no example uses %s%s" % (PREFIX, module)
        plays.append(play_of(module, examples))
    path = tmp_path / group / "main.yml"
    path.parent.mkdir()
    path.write_text(yaml.safe_dump(plays, sort_keys=False), encoding="utf-8")
    inventory = tmp_path / group / "hosts"
    inventory.write_text("".join("ex_%s ansible_connection=local\n" % module for module in modules), encoding="utf-8")
    run = playbook(str(path), inventory=str(inventory))
    # A play whose only host fails ends the playbook: the modules after it have no line in the recap.
    recap = dict(re.findall(r"^ex_(\w+)\s*:\s*(ok=.*)$", run.output, re.M))
    failed = [module for module in modules if module in recap and not re.search(r"unreachable=0\s+failed=0", recap[module])]
    not_run = [module for module in modules if module not in recap]
    assert run.rc == 0 and not failed and not not_run, "the EXAMPLES of %s did not run as documented (not run: %s): %r" % (
        ", ".join(failed), ", ".join(not_run) or "none", run)
    assert len(sim.log) >= len(modules), "the examples sent no request"


ROLES = sorted(path.parent.name for path in (ROOT / "roles").glob("*/README.md"))


@pytest.mark.parametrize("role", ROLES)
def test_role_readme_example_runs(playbook, sim, tmp_path, role):
    """The first YAML block of each role's README is a whole play: it runs as written against the simulator."""
    text = (ROOT / "roles" / role / "README.md").read_text(encoding="utf-8")
    found = re.search(r"```yaml\n(.*?)```", text, re.S)
    assert found, "roles/%s/README.md has no example play" % role
    path = tmp_path / ("readme_%s" % role) / "main.yml"
    path.parent.mkdir()
    path.write_text(found.group(1), encoding="utf-8")
    run = playbook(str(path))
    assert run.rc == 0, run
    assert sim.requests(), "the example of role %s sent no request" % role
