# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Make ``ansible_collections.gcore.platform`` importable from the working tree; run the paginator on a stub clock;
start every module test that uses the simulator from a fresh one."""

from __future__ import annotations

import pathlib
import sys
import time
import types
from unittest import mock

import pytest
from ansible.module_utils.common import warnings as ansible_warnings

TESTS = str(pathlib.Path(__file__).resolve().parents[1])
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)

from collection_link import collections_path  # noqa: E402  pylint: disable=wrong-import-position

COLLECTIONS = collections_path()
if COLLECTIONS not in sys.path:
    sys.path.insert(0, COLLECTIONS)

from ansible_collections.gcore.platform.plugins.module_utils import _client, _tasks  # noqa: E402  pylint: disable=wrong-import-position
from simulator.core import Simulator  # noqa: E402  pylint: disable=wrong-import-position


# What no core changes: the simulator (plain Python, no ansible), the static checks of the tree (declarations, docs
# metadata, self-containment, the contract guards) and the generated fault matrices (the flow's answer to each fault at
# each write: the same code on every core, through the AnsibleModule the other module tests exercise on each core). They
# run once, on the pinned core; the other cores deselect them (tests/tools/core_suite.sh: -m "not core_independent").
CORE_INDEPENDENT = ("simulator/", "test_declarations.py", "test_self_contained.py", "test_contract_guard.py",
                    "test_contract_subset.py", "test_docs_metadata.py", "_faults.py")


def pytest_collection_modifyitems(config, items):  # pylint: disable=unused-argument
    for item in items:
        path = item.path.as_posix()
        if any(path.endswith(name) if name.endswith(".py") else "/unit/%s" % name in path for name in CORE_INDEPENDENT):
            item.add_marker(pytest.mark.core_independent)


@pytest.fixture(autouse=True)
def near_service_clock(monkeypatch):
    """Every unit test runs the paginator on a clock that never advances: a near service, pages read one by one.

    The paginator times its first page (``_client.time.monotonic``) to choose between reading one page at a time
    and reading ahead. A mocked page can take longer than ``SLOW_PAGE`` on a loaded machine, which would make the
    exact page counts the tests assert depend on the machine's speed. A test that wants the far mode passes
    ``slow_page=0`` or installs its own clock (test_client.py pins the threshold itself on a stub clock).
    """
    monkeypatch.setattr(_client, "time", types.SimpleNamespace(monotonic=lambda: 0.0, time=time.time, sleep=time.sleep))


@pytest.fixture(autouse=True)
def quick_polls(request, monkeypatch):
    """The module tests (tests/unit/plugins/modules) poll tasks and locks without the real pauses between polls.

    What a module does while it waits is decided by the simulator there (held tasks, locks released after so many
    requests), never by time, so the pause between polls only costs wall time: ``poll_interval`` becomes a hundredth of
    a second. What it is (growing, capped) is tested in tests/unit/plugins/module_utils/test_tasks.py, which keeps it.
    """
    if _module_test(request):
        monkeypatch.setattr(_tasks, "poll_interval", lambda elapsed: 0.01)


@pytest.fixture(autouse=True)
def fresh(request):
    """A module test (tests/unit/plugins/modules) that uses ``server`` starts on a reset simulator whose tasks finish at
    once (``task_delay=0``), and with none of the warnings an earlier module run left in ansible's process-wide registry
    (a real module runs once per process). A test that wants other settings configures them itself."""
    if not (_module_test(request) and "server" in request.fixturenames):
        yield
        return
    server = request.getfixturevalue("server")
    server.reset()
    server.configure(task_delay=0)
    with mock.patch.dict(ansible_warnings._global_warnings, clear=True):  # pylint: disable=protected-access
        yield


def _module_test(request):
    return pathlib.Path(str(request.fspath)).parent.name == "modules"


@pytest.fixture(scope="module")
def server():
    """A simulator over HTTP on 127.0.0.1, one per test module."""
    simulator = Simulator()
    simulator.start()
    yield simulator
    simulator.stop()
