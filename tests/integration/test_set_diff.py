# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""``--diff`` of a set module rendered by ansible-core's ``default`` stdout callback: the changed rule names show,
and no callback warning (the diff was two lists before, which the callbacks cannot render)."""

from __future__ import annotations

from conftest import TARGETS


def test_the_diff_of_a_rule_set_renders_through_the_default_callback(playbook):
    run = playbook(str(TARGETS / "waap_custom_rules" / "diff.yml"), diff=True, verbosity=None,
                   env={"ANSIBLE_STDOUT_CALLBACK": "default"})
    assert run.rc == 0, run
    assert "Callback dispatch" not in run.output and "splitlines" not in run.output, run
    removed = [line for line in run.output.splitlines() if line.startswith("-")]
    added = [line for line in run.output.splitlines() if line.startswith("+")]
    assert any("Diff Alpha" in line for line in removed), run
    assert any("Diff Gamma" in line for line in added), run
    assert any("captcha" in line for line in added) and any("allow" in line for line in removed), "Beta's change shows"
    assert "--- before" in run.output and "+++ after" in run.output


def test_the_diff_of_security_group_rules_renders_keyed_by_rule_identity(playbook):
    run = playbook(str(TARGETS / "security_group" / "diff.yml"), diff=True, verbosity=None,
                   env={"ANSIBLE_STDOUT_CALLBACK": "default"})
    assert run.rc == 0, run
    assert "Callback dispatch" not in run.output, run
    second = run.output.split("TASK [Replace the ssh rule", 1)[1]
    removed = [line for line in second.splitlines() if line.startswith("-")]
    added = [line for line in second.splitlines() if line.startswith("+")]
    assert any("ingress IPv4 tcp 22-22 10.0.0.0/8" in line for line in removed), run
    assert any("ingress IPv4 udp 53-53 192.0.2.0/24" in line for line in added), run
    assert any("all out" in line for line in removed) and any("everything out" in line for line in added), "a description change shows"
    assert "--- before" in second and "+++ after" in second
