# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The plan callback's summary of a roll (issue 46): the names an ``instances`` task replaced count as replaced (not as
created and deleted), in check mode (a plan) and in a real run. The roll itself: targets/instances_roll."""

from __future__ import annotations

from test_plan import summary

PLAY = """
- name: A roll
  hosts: localhost
  gather_facts: false
  vars:
    image: ubuntu-22.04
  tasks:
    - name: The fleet, on the image of the step
      gcore.platform.instances:
        count: 3
        name_format: plan-roll-{index}
        flavor: g1-standard-2-4
        volumes: [{source: image, image_name: "{{ image }}", size: 10, boot_index: 0}]
        interfaces: [{type: external}]
        delete_volumes: true
        rolling: {batch: 2}
"""


def test_the_plan_summary_counts_the_members_a_roll_replaces(playbook, plan_env, sim, tmp_path):
    play = tmp_path / "roll.yml"
    play.write_text(PLAY, encoding="utf-8")
    first = playbook(str(play), verbosity=None, env=plan_env)
    assert first.rc == 0 and summary(first.output) == ["localhost : 3 created, 0 changed, 0 replaced, 0 deleted"], first

    new = {"image": "ubuntu-22.04-old"}
    check = playbook(str(play), extra_vars=new, check=True, verbosity=None, env=plan_env)
    assert check.rc == 0 and summary(check.output) == ["localhost : 0 to create, 0 to change, 3 to replace, 0 to delete"], check
    done = playbook(str(play), extra_vars=new, verbosity=None, env=plan_env)
    assert done.rc == 0 and summary(done.output) == ["localhost : 0 created, 0 changed, 3 replaced, 0 deleted"], done
    again = playbook(str(play), extra_vars=new, verbosity=None, env=plan_env)
    assert summary(again.output) == ["localhost : 0 created, 0 changed, 0 replaced, 0 deleted"], again
