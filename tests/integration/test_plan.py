# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The gcore.platform.plan callback in real ansible-playbook runs (issue 46): enabled through ``callbacks_enabled``
in an ansible.cfg, beside the default stdout callback; its summary read as text, in check mode (a plan) and in real runs
(what was done), with a failed task. The counting rules: tests/unit/plugins/callback/test_plan_callback.py. The production
example's summary: tests/integration/test_examples.py; AWX's job output: tests/packaging/test_awx.py."""

from __future__ import annotations

import re

PLAY = """
- name: Plan summary
  hosts: localhost
  gather_facts: false
  vars:
    step: 1
  tasks:
    - name: Network - kept, its tags change on the second step
      gcore.platform.network:
        name: plan-kept
        tags: "{{ {'step': '1'} if step | int == 1 else {'step': '2'} }}"
    - name: Network - deleted on the second step
      gcore.platform.network:
        name: plan-gone
        state: "{{ 'present' if step | int == 1 else 'absent' }}"
    - name: Volume - grown on the second step
      gcore.platform.volume:
        name: plan-data
        size: "{{ step | int + 1 }}"
    - name: Not the collection's - never counted
      ansible.builtin.debug:
        msg: a debug task
      changed_when: true
    - name: Volume - a shrink, refused
      when: step | int == 2
      gcore.platform.volume:
        name: plan-data
        size: 1
      ignore_errors: true
"""


def summary(output):
    """The lines of the plan callback's section, after its banner."""
    assert "GCORE PLATFORM PLAN" in output, output[-3000:]
    section = output.split("GCORE PLATFORM PLAN", 1)[1].split("\n", 1)[1]
    return [line for line in section.split("\n\n", 1)[0].splitlines() if line.strip()]


def test_the_plan_summary_in_check_mode_and_in_real_runs(playbook, plan_env, sim, tmp_path):
    play = tmp_path / "plan.yml"
    play.write_text(PLAY, encoding="utf-8")

    check = playbook(str(play), check=True, diff=True, verbosity=None, env=plan_env)
    assert check.rc == 0 and sim.writes() == [], check
    assert summary(check.output) == ["localhost : 3 to create, 0 to change, 0 to replace, 0 to delete"], check
    # Beside the stdout callback: its recap is there as always, before the summary.
    assert re.search(r"PLAY RECAP \*+\nlocalhost\s*: ok=4\s+changed=4 ", check.output), check

    first = playbook(str(play), verbosity=None, env=plan_env)
    assert first.rc == 0, first
    assert summary(first.output) == ["localhost : 3 created, 0 changed, 0 replaced, 0 deleted"], first

    second = {"step": 2}
    check = playbook(str(play), extra_vars=second, check=True, verbosity=None, env=plan_env)
    assert summary(check.output) == ["localhost : 0 to create, 2 to change, 0 to replace, 1 to delete",
                                     "localhost : failed: Volume - a shrink, refused (ignored)"], check
    mark = len(sim.log)
    done = playbook(str(play), extra_vars=second, verbosity=None, env=plan_env)
    assert done.rc == 0 and sim.writes(sim.log[mark:]), done
    assert summary(done.output) == ["localhost : 0 created, 2 changed, 0 replaced, 1 deleted",
                                    "localhost : failed: Volume - a shrink, refused (ignored)"], done

    again = playbook(str(play), extra_vars=second, verbosity="-v", env=plan_env)
    assert summary(again.output) == ["localhost : 0 created, 0 changed, 0 replaced, 0 deleted",
                                     "localhost : failed: Volume - a shrink, refused (ignored)"], again


def test_beside_another_stdout_callback_and_not_without_being_enabled(playbook, plan_env, sim, tmp_path):
    play = tmp_path / "plan.yml"
    play.write_text(PLAY, encoding="utf-8")
    minimal = playbook(str(play), check=True, verbosity=None, env=dict(plan_env, ANSIBLE_STDOUT_CALLBACK="ansible.builtin.minimal"))
    assert minimal.rc == 0 and "PLAY RECAP" not in minimal.output, minimal  # the minimal callback prints no recap
    assert summary(minimal.output) == ["localhost : 3 to create, 0 to change, 0 to replace, 0 to delete"], minimal
    run = playbook(str(play), check=True, verbosity=None)
    assert run.rc == 0 and "GCORE PLATFORM PLAN" not in run.output, run
