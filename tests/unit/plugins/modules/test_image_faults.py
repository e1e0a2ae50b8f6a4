# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault matrix of image's writes (an upload from a URL, an image from a volume, the sync PATCH, a delete): for each
write and each fault kind (a 500 after the service applied the write, a connection dropped after it applied it, a 400
or 403 rejection that applied nothing), the run reports the truth (``changed``), sends no write twice and makes no
second image, and a re-run converges with no write left. Generated from the plans below.

The module runs in-process (its ``main``) against the real simulator over HTTP (the ``server`` fixture)."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.modules import image, volume
from simulator.resources.instances import IMAGE_IDS

import harness

IMAGES = "/cloud/v1/images/1/76"
DOWNLOAD = "/cloud/v1/downloadimage/1/76"
BASE = dict(project_id=1, region_id=76)
URL = "https://example.com/debian-12.qcow2"


def seed_image(server):
    harness.run(server, image, dict(BASE, name="fault-image", source="url", url=URL, tags={"env": "dev"}))


def seed_volume(server):
    harness.run(server, volume, dict(BASE, name="boot-vol", source="image", image_id=IMAGE_IDS["ubuntu-22.04"], size=10))


PLANS = {
    "upload": dict(seed=None, args={"name": "fault-image", "source": "url", "url": URL}, writes=[("POST", "^%s$" % DOWNLOAD)]),
    "from a volume": dict(seed=seed_volume, args={"name": "fault-image", "source": "volume", "volume": "boot-vol"},
                          writes=[("POST", "^%s$" % IMAGES)]),
    "patch": dict(seed=seed_image, args={"name": "fault-image", "ssh_key": "deny", "tags": {"env": "prod"}},
                  writes=[("PATCH", "^%s/[^/]+$" % IMAGES)]),
    "delete": dict(seed=seed_image, args={"name": "fault-image", "state": "absent"}, writes=[("DELETE", "^%s/[^/]+$" % IMAGES)]),
}


def one_image(server, row):
    names = [record["name"] for record in server.call("GET", IMAGES, query="visibility=private")[1]["results"]]
    assert names.count("fault-image") <= 1, "no second image: %s" % names


def returned_once_ready(server, row, result, stage):
    if stage == "first" and row.applied and row.planned[0][0] != "DELETE":
        assert result["image"]["status"] == "active" and result["image"]["size"], "returned once ready"


MATRIX = harness.Matrix(PLANS, module=image, base=BASE, found=("patch", "delete"), untasked=(("patch", 0),),
                        unique=one_image, check=returned_once_ready)


@pytest.mark.parametrize("plan, position, kind", MATRIX.task_cases())
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    MATRIX.check_task_fault(server, plan, position, kind)


@pytest.mark.parametrize("plan, position, fault", MATRIX.cases())
def test_a_fault_at_any_image_write_reports_the_truth_and_the_rerun_converges(server, plan, position, fault):
    MATRIX.check_fault(server, plan, position, fault)
