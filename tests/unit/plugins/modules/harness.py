# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Run a module's ``main()`` in-process, against the simulator or against nothing, and read back what it returned and sent."""

from __future__ import annotations

import copy
import inspect
import json
from unittest import mock

import pytest
from ansible.module_utils import basic
from ansible.module_utils.testing import patch_module_args

# ansible-core 2.21 echoes the module's arguments (``invocation``) only when the controller asks for them (-vvv); older
# cores always do. Tests that check what the echo shows ask for it where the core knows the flag.
ECHOED = {"_ansible_inject_invocation": True} if "_ansible_inject_invocation" in inspect.getsource(basic) else {}


def result_of(module, args):
    """The JSON result ``module.main()`` prints for ``args`` (it must exit, as every Ansible module does)."""
    with patch_module_args(args), mock.patch("sys.stdout") as stdout:
        with pytest.raises(SystemExit):
            module.main()
    return json.loads("".join(call.args[0] for call in stdout.write.call_args_list))


def run(server, module, args, **options):
    """The module's result for ``args`` against ``server``; ``options`` (``_ansible_diff=True``, ...) are added to the arguments."""
    return result_of(module, dict(copy.deepcopy(args), api_key=server.api_key, api_url=server.url, **options))


def writes(server):
    """The writes the simulator received, in order: (method, path, JSON body or None)."""
    return [(entry["method"], entry["path"], json.loads(entry["body"]) if entry["body"] else None) for entry in server.writes()]


def fail_message(module, args):
    """The module's failure message; the test fails if the module gets as far as a request."""
    with mock.patch("requests.Session.request", side_effect=AssertionError("a request was sent")):
        result = result_of(module, dict(args, api_key="unit-test-key", api_url="http://127.0.0.1:9"))
    assert result.get("failed") is True, result
    return result["msg"]


def fault_cases(plans, faults):
    """One case per write position of every plan (``plans[name]["writes"]``, each a tuple led by its kind) and fault kind."""
    for plan, spec in plans.items():
        for position in range(len(spec["writes"])):
            for fault in faults:
                yield pytest.param(plan, position, fault, id="%s-%s%s-%s" % (plan, position, spec["writes"][position][0], fault))


def warning_texts(result):
    """The result's warnings as text: ansible-core 2.19+ returns each as a dict (its text under event.msg), older cores a str."""
    return [item["event"]["msg"] if isinstance(item, dict) else item for item in result.get("warnings") or []]
