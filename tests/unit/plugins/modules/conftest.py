# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The module tests poll tasks and locks without the real pauses between polls.

What a module does while it waits is decided by the simulator (held tasks, locks released after so many requests),
never by time, so the pause between polls only costs wall time here: ``poll_interval`` (what it is, growing and
capped, is tested in tests/unit/plugins/module_utils/test_tasks.py) becomes a hundredth of a second.
"""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.module_utils import _tasks


@pytest.fixture(autouse=True)
def quick_polls(monkeypatch):
    monkeypatch.setattr(_tasks, "poll_interval", lambda elapsed: 0.01)
