# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The plan callback's summary of a roll (issue 46): the names an ``instances`` task replaced count as replaced (not as
created and deleted), in check mode (a plan) and in a real run. The roll itself: targets/instances_roll."""

from __future__ import annotations

from conftest import ROOT
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


def test_the_rolling_recipe_drains_each_batch_before_it_is_replaced_and_converges(playbook, sim):
    """examples/rolling_image.yml: the fleet built and put in the pool; then a new image rolled two at a time, each batch
    taken out of the pool before its members are deleted and put back (at their new addresses) before the next batch
    goes; each run made again changes nothing."""
    path = ROOT / "examples" / "rolling_image.yml"
    first = playbook(str(path), verbosity=None)
    assert first.rc == 0, first
    ids = dict((record["name"], record["id"]) for record in sim.instances if record["name"].startswith("example-roll-"))
    assert sorted(ids) == ["example-roll-%d" % index for index in range(1, 5)]
    mark = len(sim.log)
    assert playbook(str(path), verbosity=None).rc == 0 and sim.writes(sim.log[mark:]) == []

    mark = len(sim.log)
    new = {"roll_image": "ubuntu-22.04-old"}
    rolled = playbook(str(path), extra_vars=new, verbosity=None)
    assert rolled.rc == 0, rolled.output[-2500:]
    steps = []  # the pool's writes (P) and the instances' deletes (D) and creates (C), in order
    for entry in sim.writes(sim.log[mark:]):
        if "/lbpools/" in entry["path"] or "/pools/" in entry["path"]:
            steps.append("P")
        elif entry["method"] == "DELETE" and "/instances/" in entry["path"]:
            steps.append("D")
        elif entry["method"] == "POST" and entry["path"] == "/cloud/v2/instances/1/76":
            steps.append("C")
    assert "".join(steps) == "PDDCCPPDDCCP", steps
    now = dict((record["name"], record["id"]) for record in sim.instances if record["name"].startswith("example-roll-"))
    assert sorted(now) == sorted(ids) and not set(now.values()) & set(ids.values())
    mark = len(sim.log)
    again = playbook(str(path), extra_vars=new, verbosity=None)
    assert again.rc == 0 and sim.writes(sim.log[mark:]) == [], again
