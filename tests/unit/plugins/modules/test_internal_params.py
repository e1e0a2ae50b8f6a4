# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A declaration keeps what it works out for itself (an instance's power state, flavor and DELETE query; a volume's size
and attachment) out of the task's parameters: ``invocation`` shows the task's parameters only, after a success and
after a failure at any point of the run."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.modules import instance, volume

import harness

SCOPE = dict(project_id=1, region_id=76)
INSTANCE = dict(SCOPE, name="srv-internal", flavor="g1-standard-2-4", state="restarted",
                volumes=[{"source": "image", "image_name": "ubuntu-22.04", "size": 10, "boot_index": 0}],
                interfaces=[{"type": "external"}])


def module_args(result):
    return (result.get("invocation") or {}).get("module_args") or {}


CASES = {
    "instance created": (instance, INSTANCE, None),
    "instance refused after the lookup (an image name matching nothing)": (
        instance, dict(INSTANCE, volumes=[{"source": "image", "image_name": "no-such-image", "size": 10, "boot_index": 0}]), "no-such-image"),
    "instance absent, nothing there": (instance, dict(SCOPE, name="srv-none", state="absent", delete_volumes=True), None),
    "volume created": (volume, dict(SCOPE, name="vol-internal", source="new-volume", size=12, instance=""), None),
    "volume refused after the lookup (an instance name matching nothing)": (
        volume, dict(SCOPE, name="vol-internal", source="new-volume", size=12, instance="no-such-instance"), "no-such-instance"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_invocation_shows_the_task_parameters_only(server, case):
    module, args, failing = CASES[case]
    result = harness.run(server, module, dict(args, **harness.ECHOED))
    assert bool(result.get("failed")) is (failing is not None), result.get("msg")
    if failing:
        assert failing in result["msg"]
    shown = module_args(result)
    assert shown, "the echo is asked for: the arguments are shown"
    assert [name for name in shown if name.startswith("_")] == []
    assert set(args) <= set(shown)
