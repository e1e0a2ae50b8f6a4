# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every target under tests/integration/targets/ is a story played by ansible-playbook against the simulator."""

from __future__ import annotations

import types

import pytest

from conftest import TARGETS, PlaybookRun

STORIES = sorted(path.parent.name for path in TARGETS.glob("*/main.yml"))
# What a story must print besides passing: the messages of tasks that pass, which the story itself cannot read.
PRINTED = {
    "role_preflight": ["Already there, so not counted: instances web-1, db-1; load balancers legacy-lb.",
                       "Nothing to create (already there: instances web-1, db-1; load balancers legacy-lb): "
                       "no quota or price is checked."],
}


@pytest.mark.parametrize("target", STORIES)
def test_target(playbook, target):
    run = playbook(target)
    assert run.rc == 0, run
    for text in PRINTED.get(target, []):
        assert text in run.output, text


def test_a_failed_run_names_its_failed_task_and_fatal_line():
    output = "\n".join(["PLAY [x] ***", "TASK [Ignored one] ***", "fatal: [localhost]: FAILED! => {\"msg\": \"ignored\"}",
                        "...ignoring", "TASK [Create the rule] ****", "fatal: [tenant07 -> localhost]: FAILED! => {\"msg\": \"429\"}"]
                       + ["noise %s" % number for number in range(2000)] + ["PLAY RECAP ***"])
    run = PlaybookRun(types.SimpleNamespace(returncode=2), output)
    text = repr(run)
    assert text.startswith("PlaybookRun(rc=2)\n---- failed tasks (1) ----\nTASK [Create the rule]\n  fatal: [tenant07 -> localhost]")
    assert "Ignored one" not in text.split("---- end of the output ----")[0]


def test_a_failed_run_at_vvvv_names_the_message_of_its_indented_result():
    output = "\n".join(["TASK [Refuse a bad budget] ***", "fatal: [localhost]: FAILED! => {", '    "changed": false,',
                        '    "msg": "budget must be finite"', "}", "...ignoring", "TASK [Create] ***",
                        "fatal: [localhost]: FAILED! => {", '    "msg": "name \'inf\' is not defined"', "}", "PLAY RECAP ***"])
    text = repr(PlaybookRun(types.SimpleNamespace(returncode=2), output)).split("---- end of the output ----")[0]
    assert "---- failed tasks (1) ----\nTASK [Create]\n  fatal: [localhost]: FAILED! => {\"msg\": \"name 'inf' is not defined\"" in text
    assert "Refuse a bad budget" not in text


def test_a_run_leaves_its_module_payloads_to_the_next_runs_of_the_session(playbook, ansiballz_cache, tmp_path):
    """The test-only callback (callback_plugins/ansiballz_cache.py) links each run's AnsiballZ cache to the session's."""
    play = tmp_path / "one_module.yml"
    play.write_text("- hosts: localhost\n  gather_facts: false\n  tasks:\n"
                    "    - gcore.platform.notification_threshold_info: {client_id: 1}\n", encoding="utf-8")
    run = playbook(str(play))
    assert run.rc == 0, run
    payloads = [path.name for path in ansiballz_cache.iterdir() if not path.name.endswith((".lock", "-part"))]
    assert any(name.startswith("ansible_collections.gcore.platform.plugins.modules.notification_threshold_info-") for name in payloads), payloads
