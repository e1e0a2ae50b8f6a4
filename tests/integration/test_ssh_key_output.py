# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""At -vvvv, a generated SSH private key is printed only as the ``private_key`` member of the task's result.

The story (targets/ssh_key) runs its generating task with ``no_log``, and the ``playbook`` fixture proves no output
shows the key. Here the task runs without ``no_log`` (as a careless playbook would), so the fixture's search finds the
key's mark and fails the run on purpose; the output it wrote is then read: every line with the key must be the
``private_key`` line of the module's result (not ``ssh_key``, ``diff``, ``invocation``, a warning or a message).
"""

from __future__ import annotations

import json

import pytest

from conftest import OUTPUT
from simulator.resources.ssh_keys import PRIVATE_MARK

PLAY = [{"name": "A generated key, printed", "hosts": "localhost", "gather_facts": False, "tasks": [
    {"name": "Generate it", "gcore.platform.ssh_key": {"name": "vvvv-generated"}, "diff": True},
    {"name": "Run it again", "gcore.platform.ssh_key": {"name": "vvvv-generated"}},
]}]


def test_at_vvvv_a_generated_private_key_is_printed_only_under_private_key(playbook, tmp_path):
    path = tmp_path / "ssh_key_vvvv" / "main.yml"
    path.parent.mkdir()
    path.write_text(json.dumps(PLAY), encoding="utf-8")
    with pytest.raises(AssertionError, match="a secret"):  # the fixture finds the key in the output: shown on purpose
        playbook(str(path))
    output = (OUTPUT / "playbooks" / "ssh_key_vvvv.log").read_text(encoding="utf-8")
    assert "PLAY RECAP" in output and "failed=0" in output, output[-3000:]
    shown = [line.strip() for line in output.splitlines() if PRIVATE_MARK in line]
    assert len(shown) == 1, shown  # once: the second run has no private key
    assert shown[0].startswith('"private_key": "-----BEGIN OPENSSH PRIVATE KEY-----'), shown
