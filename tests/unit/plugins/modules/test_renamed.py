# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A hand rename noticed (issue 46): when a create is planned, a resource of the kind carrying every declared user tag
under another name is warned about, naming it and its id, in check mode too; one listing filtered by the tags; nothing
without declared tags; a fleet's own members are not such resources."""

from __future__ import annotations

import json

from ansible_collections.gcore.platform.plugins.modules import instances, network

import harness

BASE = dict(project_id=1, region_id=76)
NETS = "/cloud/v1/networks/1/76"
FLEET = dict(BASE, count=2, name_format="rn-{index}", flavor="g1-standard-2-4", tags={"tier": "web"},
             volumes=[{"source": "image", "image_name": "ubuntu-22.04", "size": 10, "boot_index": 0}],
             interfaces=[{"type": "external"}])


def warned(result):
    return json.dumps(result.get("warnings") or [])


def test_a_network_renamed_by_hand_is_named_before_a_duplicate_is_made(server):
    ident = harness.run(server, network, dict(BASE, name="shop-net", tags={"app": "shop", "env": "prod"}))["network"]["id"]
    assert server.call("PATCH", "%s/%s" % ("/cloud/v2/networks/1/76", ident), {"name": "shop-net-console"})[0] in (200, 201)
    server.log = []
    for check in (True, False):
        result = harness.run(server, network, dict(BASE, name="shop-net", tags={"app": "shop"}), _ansible_check_mode=check)
        assert result["changed"] is True, result
        assert "network 'shop-net-console' (%s) carries every tag this task declares (app=shop)" % ident in warned(result)
        assert "renamed outside Ansible?" in warned(result)
    listings = [entry for entry in server.requests() if entry["method"] == "GET" and entry["path"] == NETS]
    assert any("tag_key_value" in json.dumps(entry.get("query") or entry) for entry in listings)


def test_no_warning_without_declared_tags_or_when_a_tag_differs(server):
    harness.run(server, network, dict(BASE, name="shop-net", tags={"app": "shop"}))
    for args in (dict(name="other-net"), dict(name="other-net", tags={"app": "blog"}), dict(name="shop-net", tags={"app": "shop"})):
        result = harness.run(server, network, dict(BASE, **args), _ansible_check_mode=True)
        assert "renamed outside Ansible" not in warned(result), result


def test_a_fleet_warns_about_a_renamed_member_never_about_its_own(server):
    first = harness.run(server, instances, dict(FLEET, count=1))
    assert first["changes"]["created"] == ["rn-1"] and "renamed outside" not in warned(first)
    grown = harness.run(server, instances, FLEET, _ansible_check_mode=True)
    assert grown["changes"]["created"] == ["rn-2"] and "renamed outside" not in warned(grown), grown
    ident = first["instances"][0]["id"]
    assert server.call("PATCH", "/cloud/v1/instances/1/76/%s" % ident, {"name": "web-console"})[0] == 200
    again = harness.run(server, instances, FLEET, _ansible_check_mode=True)
    assert "instance 'web-console' (%s) carries every tag this task declares (tier=web)" % ident in warned(again), again
