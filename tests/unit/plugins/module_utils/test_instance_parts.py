# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The instance's parts without a service: what only a new instance can change (``Instance.renewed``, which a fleet's
roll replaces members for), the boot volume read from a volume listing (``boot_images``), a value one instance alone
can have (``one_only``), the power and flavor settings' writes, and what a delete takes (``Goes``)."""

from __future__ import annotations

import types

import pytest

from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._instance import FLAVOR, POWER_STATE, Goes
from ansible_collections.gcore.platform.plugins.module_utils._tasks import task_ids
from ansible_collections.gcore.platform.plugins.module_utils._instance_resource import Instance, boot_images, one_only

IMAGE, OTHER = "1a6e0c3e-0000-4000-8000-000000000001", "1a6e0c3e-0000-4000-8000-000000000005"
PARAMS = dict(project_id=1, region_id=76, name="web-1", ssh_key_name=None, interfaces=[{"type": "external"}],
              volumes=[{"source": "image", "image_id": IMAGE, "size": 10, "boot_index": 0}], allow_resize=False)
RECORD = {"id": "i-1", "name": "web-1", "status": "ACTIVE", "ssh_key_name": "deploy", "flavor": {"flavor_name": "g1-standard-2-4"},
          "addresses": {"private-net": [{"addr": "10.0.0.5", "type": "fixed"}]}}


def boot(image=IMAGE, size=10, kind="standard"):
    return {"size": size, "volume_type": kind, "volume_image_metadata": {"image_id": image, "image_name": "ubuntu-22.04"}}


def instance(**params):
    one = Instance.__new__(Instance)
    one.params, one.resolved = dict(PARAMS, **params), {"images": {}}
    return one


@pytest.mark.parametrize("params, volume, why", [
    ({}, boot(), []),
    ({}, None, []),  # nothing to compare: no boot volume read
    ({}, boot(image=OTHER), ["boots from the image 'ubuntu-22.04' (%s), not %s" % (OTHER, IMAGE)]),
    ({"volumes": [{"source": "image", "image_id": IMAGE, "boot_index": 0}]}, boot(size=20, kind="ssd_hiiops"), []),  # not declared
    ({"volumes": [dict(PARAMS["volumes"][0], size=20, type_name="ssd_hiiops")]}, boot(),
     ["has a boot volume of size 10, not 20", "has a boot volume of type_name 'standard', not 'ssd_hiiops'"]),
    ({"ssh_key_name": "other"}, boot(), ["has the SSH key 'deploy', not 'other'"]),
    ({"interfaces": [{"type": "subnet", "network": "private-net"}]}, boot(), []),
    ({"interfaces": [{"type": "subnet", "network": "public-net"}]}, boot(), ["has no interface on the network 'public-net' (its networks: private-net)"]),
    ({"interfaces": [{"type": "subnet", "network": OTHER}]}, boot(), []),  # a network by id is not compared
])
def test_what_only_a_new_instance_can_change(params, volume, why):
    assert instance(**params).renewed(RECORD, volume) == why


def test_the_boot_volume_of_each_instance_from_one_listing():
    volumes = [dict(boot(), id="v-1", is_root_volume=True, attachments=[{"server_id": "i-1"}]),
               dict(boot(), id="v-2", is_root_volume=False, attachments=[{"server_id": "i-1"}])]
    client = types.SimpleNamespace(paginate=lambda path, query, **options: volumes)
    module = types.SimpleNamespace(client=client, params=PARAMS)
    assert boot_images(module, {"bootable": "true"}) == {"i-1": volumes[0]}


def test_a_value_for_one_instance_is_refused_for_many():
    one_only(dict(PARAMS, interfaces=[{"type": "any_subnet", "ip_address": "10.0.0.9"}]), 1)
    with pytest.raises(ValidationError, match=r"interfaces\[0\]\.ip_address: names one fixed address, and 3 instances"):
        one_only(dict(PARAMS, interfaces=[{"type": "any_subnet", "ip_address": "10.0.0.9"}]), 3)


def test_the_tasks_a_write_started():
    assert task_ids((True, ({"tasks": ["t-1"]}, []))) == ["t-1"] and task_ids((False, {"task_id": "t-2"})) == ["t-2"]
    assert task_ids((False, {"task_id": None})) == [] and task_ids((False, "gone")) == []


def test_the_power_and_flavor_settings_write_only_what_differs():
    assert POWER_STATE.plan(RECORD, "ACTIVE", PARAMS) == []
    stop = POWER_STATE.plan(RECORD, "SHUTOFF", PARAMS)[0]
    assert stop.body == {"action": "stop"} and stop.said == {"stopped": ["web-1"]} and stop.path.endswith("/i-1/action")
    assert FLAVOR.plan(RECORD, "g1-standard-2-4", PARAMS) == []
    with pytest.raises(Refused, match="allow_resize"):
        FLAVOR.plan(RECORD, "g1-standard-4-8", PARAMS)
    resize = FLAVOR.plan(RECORD, "g1-standard-4-8", dict(PARAMS, allow_resize=True))[0]
    assert resize.body == {"flavor_id": "g1-standard-4-8"} and resize.path.endswith("/i-1/changeflavor")


def test_a_delete_takes_only_what_it_read():
    record = dict(RECORD, volumes=[{"id": "v-1", "delete_on_termination": True}, {"id": "v-2", "delete_on_termination": False}])
    floating = {"id": "f-1", "floating_ip_address": "203.0.113.9", "instance": {"id": "i-1"}}
    client = types.SimpleNamespace(paginate=lambda path, **options: [floating])
    goes = Goes(client, dict(PARAMS, delete_volumes=True, delete_floating_ips=False), record)
    assert goes.query(record) == {"volumes": "v-2"}  # v-1 goes anyway (delete_on_termination)
    assert goes.said(False) == {"volumes": [], "floating_ips": ["f-1"]}
    assert goes.query(dict(record, volumes=[])) == {}  # a volume detached since is not named
