# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""issue 45: what an image's records already say is refused before any write, in check mode too: a public image is not
renamed, tagged or deleted (read from its ``visibility``); an image is not made from a volume that cannot boot or is
attached; a ``source`` without its ``url`` or ``volume`` fails before any request. The ``url`` (it may hold credentials
or a signature) is ``no_log``; the user tags are read from ``tags_v2``, as today's service shows them."""

from __future__ import annotations

import json

import pytest

from ansible_collections.gcore.platform.plugins.modules import image, volume
from simulator.resources.instances import IMAGE_IDS

import harness

BASE = dict(project_id=1, region_id=76)
PUBLIC = next(iter(IMAGE_IDS.values()))


def run(server, module, check=False, **args):
    return harness.run(server, module, dict(BASE, **args), _ansible_diff=True, _ansible_check_mode=check, **harness.ECHOED)


@pytest.mark.parametrize("check", [False, True], ids=["real", "check"])
@pytest.mark.parametrize("args, text", [
    (dict(name="renamed-ubuntu"), "name: image %s ('ubuntu-22.04') is public: only the project's own images can be changed"),
    (dict(tags={"env": "prod"}), "tags: image %s ('ubuntu-22.04') is public"),
    (dict(state="absent"), "state: image %s ('ubuntu-22.04') is public: only the project's own images can be deleted"),
], ids=["rename", "tags", "delete"])
def test_a_public_image_is_not_changed_nor_deleted(server, check, args, text):
    result = run(server, image, check=check, image_id=PUBLIC, **args)
    name = server.call("GET", "/cloud/v1/images/1/76/" + PUBLIC)[1]["name"]
    assert result["failed"] is True and text.replace("'ubuntu-22.04'", repr(name)) % PUBLIC in result["msg"], result["msg"]
    assert server.writes() == []


def test_a_public_image_declared_as_it_is_is_no_change(server):
    assert run(server, image, image_id=PUBLIC)["changed"] is False and server.writes() == []


def test_an_image_is_not_made_from_a_volume_that_cannot_boot_or_is_attached(server):
    run(server, volume, name="data-vol", source="new-volume", size=10)
    attached = next(key for key, record in server.volumes.items() if record["name"] == "attached-1")  # seeded, on an instance
    server.volumes[attached]["bootable"] = True
    server.log = []
    for given, text in (("data-vol", "volume: volume %s ('data-vol') is not bootable"),
                        (attached, "volume: volume %s ('attached-1') is in use (attached to an instance): detach it first")):
        for check in (True, False):
            result = run(server, image, check=check, name="from-vol", source="volume", volume=given)
            ident = given if given == attached else next(key for key, record in server.volumes.items() if record["name"] == "data-vol")
            assert result.get("failed") is True and text % ident in result["msg"], result
    assert server.writes() == []


@pytest.mark.parametrize("source", ["url", "volume"])
def test_a_source_without_what_it_is_made_from_fails_before_any_request(source):
    message = harness.fail_message(image, dict(BASE, name="img", source=source))
    assert "Invalid input: %s: required with source=%s" % (source, source) in message


def test_the_url_is_never_shown_and_tags_are_read_from_tags_v2(server):
    url = "https://user:s3cr3t-pass@example.com/img.qcow2?X-Signature=abcdef0123456789"
    created = run(server, image, name="signed", source="url", url=url, tags={"env": "dev"})
    assert created["changed"] is True and "invocation" in created or not harness.ECHOED
    assert "s3cr3t-pass" not in json.dumps(created) and "abcdef0123456789" not in json.dumps(created)
    assert "tags" not in created["image"] and created["image"]["tags_v2"][0]["key"] == "env"
    server.log = []
    again = run(server, image, name="signed", source="url", url=url, tags={"env": "dev"})
    assert again["changed"] is False and server.writes() == []
    bad = harness.fail_message(image, dict(BASE, name="signed", source="url", url="user:s3cr3t-pass@nowhere"))
    assert "url: is not a URL" in bad and "s3cr3t-pass" not in bad
