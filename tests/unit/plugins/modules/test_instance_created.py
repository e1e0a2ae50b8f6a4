# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The create diff of ``instance`` and ``instances`` (``_instance_resource.instance_created``) shows names where the task
gave names: the network, subnet, security groups, image and SSH key as given, not the ids they resolve
to. Read as text, as ``--diff`` prints it (each side as sorted, indented JSON, compared line by line)."""

from __future__ import annotations

import difflib
import json

import pytest

from ansible_collections.gcore.platform.plugins.module_utils._instance_resource import instance_created
from ansible_collections.gcore.platform.plugins.modules import instance, instances
from simulator.resources.instances import IMAGE_IDS

import harness

NET, SUBNET = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01", "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01"  # router-net-1, router-subnet-1
NAMED = dict(project_id=1, region_id=76, flavor="g1-standard-2-4", ssh_key_name="deploy", security_groups=["legacy-sg"],
             volumes=[{"source": "image", "image_name": "ubuntu-22.04", "size": 10, "boot_index": 0}],
             interfaces=[{"type": "subnet", "network": "router-net-1", "subnet": "router-subnet-1", "floating_ip": {"source": "new"}}])


def diff_text(diff):
    """The diff as ``--diff`` prints a dict diff: both sides as sorted JSON, four spaces, a unified diff of the lines."""
    sides = [json.dumps(diff[side], sort_keys=True, indent=4).splitlines() for side in ("before", "after")]
    return "\n".join(difflib.unified_diff(sides[0], sides[1], "before", "after", lineterm=""))


def group_ids(server):
    return [group["id"] for group in server.call("GET", "/cloud/v1/securitygroups/1/76")[1]["results"] if group["name"] == "legacy-sg"]


@pytest.mark.parametrize("module, args", [(instance, dict(NAMED, name="named-1")),
                                          (instances, dict(NAMED, count=2, name_format="named-{index}"))], ids=["instance", "instances"])
def test_the_create_diff_shows_the_names_the_task_gave(server, module, args):
    server.reset()
    result = harness.run(server, module, args, _ansible_check_mode=True, _ansible_diff=True)
    assert result["changed"] is True and not result.get("failed"), result.get("msg")
    text = diff_text(result["diff"])
    for name in ('"network": "router-net-1"', '"subnet": "router-subnet-1"', '"name": "legacy-sg"', '"image": "ubuntu-22.04"',
                 '"image_name": "ubuntu-22.04"', '"ssh_key_name": "deploy"'):
        assert "+" in text and name in text, (name, text)
    for ident in [NET, SUBNET, IMAGE_IDS["ubuntu-22.04"]] + group_ids(server):
        assert ident not in text, "an id where the task gave a name: %s\n%s" % (ident, text)


def test_ids_given_are_shown_as_given():
    shown = instance_created(dict(NAMED, user_data=None, password=None, volumes=[{"source": "image", "image_id": IMAGE_IDS["ubuntu-22.04"]}],
                                  interfaces=[{"type": "subnet", "network_id": NET, "subnet_id": SUBNET}]))
    assert shown["image"] == IMAGE_IDS["ubuntu-22.04"] and shown["interfaces"] == [{"type": "subnet", "network_id": NET, "subnet_id": SUBNET}]
