# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Make ``ansible_collections.gcore.platform`` importable from the working tree; run the paginator on a stub clock."""

from __future__ import annotations

import pathlib
import sys
import time
import types

import pytest

TESTS = str(pathlib.Path(__file__).resolve().parents[1])
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)

from collection_link import collections_path  # noqa: E402  pylint: disable=wrong-import-position

COLLECTIONS = collections_path()
if COLLECTIONS not in sys.path:
    sys.path.insert(0, COLLECTIONS)

from ansible_collections.gcore.platform.plugins.module_utils import _client  # noqa: E402  pylint: disable=wrong-import-position
from simulator.core import Simulator  # noqa: E402  pylint: disable=wrong-import-position


@pytest.fixture(autouse=True)
def near_service_clock(monkeypatch):
    """Every unit test runs the paginator on a clock that never advances: a near service, pages read one by one.

    The paginator times its first page (``_client.time.monotonic``) to choose between reading one page at a time
    and reading ahead. A mocked page can take longer than ``SLOW_PAGE`` on a loaded machine, which would make the
    exact page counts the tests assert depend on the machine's speed. A test that wants the far mode passes
    ``slow_page=0`` or installs its own clock (test_client.py pins the threshold itself on a stub clock).
    """
    monkeypatch.setattr(_client, "time", types.SimpleNamespace(monotonic=lambda: 0.0, time=time.time, sleep=time.sleep))


@pytest.fixture(scope="module")
def server():
    """A simulator over HTTP on 127.0.0.1, one per test module."""
    simulator = Simulator()
    simulator.start()
    yield simulator
    simulator.stop()
