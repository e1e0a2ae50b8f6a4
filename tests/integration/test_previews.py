# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The diff shows what a create makes and what a delete takes (issue 35), as ansible-playbook --diff prints
it: an instance create shows its image, volumes, interfaces (network and subnet by name), security groups, SSH key and
whether user data and a password are set (never their values); a load balancer delete lists its listeners and pools."""

from __future__ import annotations

import re

from conftest import ROOT

USER_DATA = "#cloud-config\nruncmd: [echo preview-user-data-mark]\n"
PASSWORD = "Preview-Password-Mark-1"

INSTANCE = """
- hosts: localhost
  gather_facts: false
  tasks:
    - name: Preview an instance
      gcore.platform.instance:
        name: preview-vm
        flavor: g1-standard-2-4
        volumes:
          - {source: image, image_name: ubuntu-22.04, size: 10, boot_index: 0}
          - {source: new-volume, size: 20, type_name: ssd_hiiops}
        interfaces:
          - {type: subnet, network: router-net-1, subnet: router-subnet-1}
        security_groups: [preview-sg]
        ssh_key_name: preview-key
        user_data: "%s"
        password: "%s"
""" % (USER_DATA.replace("\n", "\\n"), PASSWORD)


def after_of(output, task):
    """The text of the diff the default callback prints for ``task``."""
    section = output.split("TASK [%s]" % task, 1)[1].split("TASK [", 1)[0].split("PLAY RECAP", 1)[0]
    assert "--- before" in section and "+++ after" in section, section
    return section


def test_an_instance_create_diff_shows_what_it_makes_and_no_secret(playbook, sim, tmp_path):
    play = tmp_path / "preview.yml"
    play.write_text(INSTANCE, encoding="utf-8")
    run = playbook(str(play), check=True, diff=True, verbosity=None)
    assert run.rc == 0, run
    shown = after_of(run.output, "Preview an instance")
    for line in ('+    "image": "ubuntu-22.04"', '"source": "image"', '"source": "new-volume"', '"size": 20', '"type_name": "ssd_hiiops"',
                 '"network": "router-net-1"', '"subnet": "router-subnet-1"', '"name": "preview-sg"', '"ssh_key_name": "preview-key"',
                 '+    "user_data": "set"', '+    "password": "set"'):
        assert line in shown, (line, shown)
    assert "preview-user-data-mark" not in run.output and PASSWORD not in run.output
    assert sim.writes() == []


def test_a_load_balancer_delete_diff_lists_its_listeners_and_pools(playbook, sim):
    example = ROOT / "examples" / "load_balancer.yml"
    assert playbook(str(example), verbosity=None).rc == 0
    mark = len(sim.log)
    run = playbook(str(example), extra_vars={"lb_state": "absent"}, check=True, diff=True, verbosity=None)
    assert run.rc == 0, run
    shown = after_of(run.output, "Make the load balancer, its listeners, pools and members match the declaration")
    for line in ('-    "listeners": {', '-        "http": {', '-        "postgres": {', '-                "name": "web-servers"',
                 '-                "name": "database"', '-                    "10.0.0.21:5432": {'):
        assert line in shown, (line, shown)
    assert re.search(r'\+\s+"state": "absent"', shown) and sim.writes(sim.log[mark:]) == []
