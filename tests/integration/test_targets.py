# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every target under tests/integration/targets/ is a story played by ansible-playbook against the simulator."""

from __future__ import annotations

import pytest

from conftest import TARGETS

STORIES = sorted(path.parent.name for path in TARGETS.glob("*/main.yml"))


@pytest.mark.parametrize("target", STORIES)
def test_target(playbook, target):
    run = playbook(target)
    assert run.rc == 0, run
