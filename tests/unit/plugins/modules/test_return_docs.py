# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every module's RETURN says truthfully when each key is returned: a key documented ``returned: always`` is in the
result of a failed run too - a run refused by validation, and a run whose first request the service answers with a
500 (each module runs the first task of its own EXAMPLES that holds no template). A key returned only on success is
documented ``success`` (or says when). (A task whose example arguments a validation refuses fails the same way.)"""

from __future__ import annotations

import ast
import copy
import importlib
import pathlib

import jinja2
import pytest
import yaml
from ansible.module_utils.common import warnings as ansible_warnings
from unittest import mock

import harness

ROOT = pathlib.Path(__file__).resolve().parents[4]
MODULES = sorted(path.stem for path in (ROOT / "plugins" / "modules").glob("*.py") if path.stem != "__init__")


def block(module, name):
    tree = ast.parse((ROOT / "plugins" / "modules" / ("%s.py" % module)).read_text())
    return next(node.value.value for node in tree.body
                if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == name)


def documented_always(module):
    return sorted(key for key, spec in (yaml.safe_load(block(module, "RETURN")) or {}).items() if spec.get("returned") == "always")


class One(jinja2.ChainableUndefined):
    """A variable the example leaves to its play (or a member of one: net.network.id): 1 (an ID, a count)."""

    def __str__(self):
        return "1"


def rendered(value):
    if isinstance(value, dict):
        return dict((key, rendered(item)) for key, item in value.items())
    if isinstance(value, list):
        return [rendered(item) for item in value]
    if isinstance(value, str) and "{{" in value:
        return jinja2.Environment(undefined=One).from_string(value).render()
    return value


def example_args(module):
    """The arguments of the first task of the module's EXAMPLES, its play's variables rendered as 1."""
    for task in yaml.safe_load(block(module, "EXAMPLES")):
        args = task.get("gcore.platform.%s" % module)
        if isinstance(args, dict):
            return rendered(args)
    raise AssertionError("%s: no EXAMPLES task" % module)


def test_every_module_is_checked():
    assert len(MODULES) >= 15 and "waap_custom_rules" in MODULES and "storage" in MODULES


@pytest.mark.parametrize("module", MODULES)
def test_a_key_documented_as_always_returned_is_in_a_refused_run(module, monkeypatch):
    for name in ("GCORE_CLOUD_PROJECT_ID", "GCORE_CLOUD_REGION_ID"):
        monkeypatch.setenv(name, "1")
    code = importlib.import_module("ansible_collections.gcore.platform.plugins.modules.%s" % module)
    with mock.patch.dict(ansible_warnings._global_warnings, clear=True):  # pylint: disable=protected-access
        result = harness.result_of(code, dict(example_args(module), api_key="unit-test-key", api_url="http://127.0.0.1:9",
                                              api_timeout=0))
    assert result.get("failed") is True and "api_timeout" in result["msg"], result
    missing = [key for key in documented_always(module) if key not in result]
    assert not missing, "%s documents %s as returned: always, but a run refused by validation returns none" % (module, missing)


@pytest.mark.parametrize("module", MODULES)
def test_a_key_documented_as_always_returned_is_in_a_run_the_service_failed(module, server, monkeypatch):
    server.reset()
    server.add_fault(status=500, path=".*", times=1000, body="injected failure")
    for name in ("GCORE_CLOUD_PROJECT_ID", "GCORE_CLOUD_REGION_ID"):
        monkeypatch.setenv(name, "1")
    code = importlib.import_module("ansible_collections.gcore.platform.plugins.modules.%s" % module)
    with mock.patch.dict(ansible_warnings._global_warnings, clear=True):  # pylint: disable=protected-access
        result = harness.run(server, code, copy.deepcopy(example_args(module)), api_retries=0)
    server.clear_faults()
    assert result.get("failed") is True, result
    missing = [key for key in documented_always(module) if key not in result]
    assert not missing, "%s documents %s as returned: always, but a run the service failed returns none" % (module, missing)
