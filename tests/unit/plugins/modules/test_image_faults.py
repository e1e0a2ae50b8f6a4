# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault matrix of image's writes (an upload from a URL, an image from a volume, the sync PATCH, a delete): for each
write and each fault kind (a 500 after the service applied the write, a connection dropped after it applied it, a 400
or 403 rejection that applied nothing), the run reports the truth (``changed``), sends no write twice and makes no
second image, and a re-run converges with no write left. Generated from the plans below.

The module runs in-process (its ``main``) against the real simulator over HTTP (the ``server`` fixture)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from ansible_collections.gcore.platform.plugins.modules import image, volume
from simulator.resources.instances import IMAGE_IDS

import harness

IMAGES = "/cloud/v1/images/1/76"
DOWNLOAD = "/cloud/v1/downloadimage/1/76"
BASE = dict(project_id=1, region_id=76)
URL = "https://example.com/debian-12.qcow2"

FAULTS = {
    "500 after applying": (dict(status=500, applied=True), True),
    "dropped after applying": (dict(drop=True, applied=True), True),
    "rejected 400": (dict(status=400, body="injected rejection"), False),
    "rejected 403": (dict(status=403, body="injected rejection"), False),
}


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


def run(server, args):
    return harness.run(server, image, dict(BASE, **args), api_retries=1, _ansible_diff=True)


def writes(server):
    return [(entry["method"], entry["path"], entry["body"]) for entry in server.writes()]


def prepare(server, plan):
    """The simulator as the plan starts from (the log empty); returns the plan."""
    spec = PLANS[plan]
    if spec["seed"]:
        spec["seed"](server)
        server.release()
    server.log = []
    return spec


@pytest.mark.parametrize("plan, position, kind", list(harness.task_fault_cases(PLANS, found=("patch", "delete"), untasked=(("patch", 0),))))
def test_a_failed_task_or_a_lock_held_by_one_fails_naming_it_and_the_rerun_converges(server, plan, position, kind):
    spec = prepare(server, plan)
    harness.check_task_fault(server, lambda **extra: run(server, dict(spec["args"], **extra)), spec["writes"], position, kind)


@pytest.mark.parametrize("plan, position, fault", list(harness.fault_cases(PLANS, FAULTS)))
def test_a_fault_at_any_image_write_reports_the_truth_and_the_rerun_converges(server, plan, position, fault):
    spec = prepare(server, plan)
    method, path = spec["writes"][position]
    extra, applied = FAULTS[fault]
    server.add_fault(method=method, path=path, **extra)
    result = run(server, spec["args"])
    sent = writes(server)
    assert [count for count in Counter(sent).values() if count > 1] == [], "a write was sent twice: %s" % sent
    assert len(sent) == (len(spec["writes"]) if applied else position + 1), sent
    for (expected_method, pattern), (sent_method, sent_path, _body) in zip(spec["writes"], sent):
        assert expected_method == sent_method and re.search(pattern, sent_path), "plan order: %s" % sent
    if applied:
        assert not result.get("failed"), result["msg"]
        assert result["changed"] is True
        texts = harness.warning_texts(result)
        assert len(texts) == 1 and "shows the change was applied, so it was not sent again" in texts[0], texts
        if method != "DELETE":
            assert result["image"]["status"] == "active" and result["image"]["size"], "returned once ready"
    else:
        assert result["failed"] is True and "injected rejection" in result["msg"], result
        assert result["changed"] is (position > 0), "changed means applied"
    names = [record["name"] for record in server.call("GET", IMAGES, query="visibility=private")[1]["results"]]
    assert names.count("fault-image") <= 1, "no second image: %s" % names
    server.log = []
    again = run(server, spec["args"])
    assert not again.get("failed"), again.get("msg")
    assert again["changed"] is (not applied)
    assert len(writes(server)) == (0 if applied else len(spec["writes"]) - position)
    server.log = []
    third = run(server, spec["args"])
    assert third["changed"] is False and writes(server) == []
