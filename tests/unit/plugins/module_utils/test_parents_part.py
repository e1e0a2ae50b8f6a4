# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Parents by name (``_parents``) alone, on a stub client: an id is taken as given; a name is matched exactly over one
listing, once per run; several fail listing their ids and none fails naming the option, but check mode assumes a
parent not built yet (with a warning) and ``state: absent`` finds nothing under it (no warning); an image name gives
its one active image. The modules' use of it against the simulator: tests/unit/plugins/modules/test_parents.py."""

from __future__ import annotations

import types

import pytest

from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._parents import active_images, assumed, check_one_of, parent_id

NETWORK_ID = "8c4b5f1e-1a3b-4b4e-9d57-2f0a4cb6a001"


class Client:
    """A listing the way the service answers it (its name filter matches parts of names); counts the reads."""

    def __init__(self, records):
        self.records, self.reads = records, []

    def paginate(self, path, query=None, **_paging):
        self.reads.append((path, query))
        return [record for record in self.records if (query or {}).get("name", "") in record["name"]]

    def get(self, path, params=None):
        self.reads.append((path, params))
        return {"results": self.records}


def module(records, check_mode=False, state="present"):
    warnings = []
    return types.SimpleNamespace(params={"project_id": 1, "region_id": 76, "state": state}, check_mode=check_mode,
                                 client=Client(records), named_ids={}, noun="subnet", warnings=warnings,
                                 module=types.SimpleNamespace(warn=warnings.append))


NETWORKS = [{"id": "n-1", "name": "app-net"}, {"id": "n-2", "name": "app-net-2"}, {"id": "n-3", "name": "twin"},
            {"id": "n-4", "name": "twin"}]


def test_an_id_is_taken_as_given_and_none_stays_none():
    stub = module(NETWORKS)
    assert parent_id(stub, "network", NETWORK_ID.upper(), "network") == NETWORK_ID, "a UUID, canonical"
    assert parent_id(stub, "network", None, "network") is None
    assert stub.client.reads == [], "nothing is read"


def test_a_name_is_matched_exactly_over_one_listing_once_per_run():
    stub = module(NETWORKS)
    assert parent_id(stub, "network", "app-net", "network") == "n-1", "app-net-2 contains the name but is not it"
    assert parent_id(stub, "network", "app-net", "interfaces[0].network") == "n-1"
    assert len(stub.client.reads) == 1, "each name is looked up once per run"


def test_a_name_that_several_or_none_hold_fails_naming_the_option():
    with pytest.raises(Refused, match=r"network: 2 networks of .* are named 'twin' \(ids n-3, n-4\).*nothing was sent"):
        parent_id(module(NETWORKS), "network", "twin", "network")
    with pytest.raises(Refused, match=r"network: no network is named 'gone' in .*nothing was sent"):
        parent_id(module(NETWORKS), "network", "gone", "network")


def test_check_mode_assumes_a_parent_not_built_yet_with_a_warning_and_absent_finds_nothing_under_it():
    preview = module(NETWORKS, check_mode=True)
    ident = parent_id(preview, "network", "new-net", "network")
    assert assumed(ident) and ident == "(network 'new-net', not built yet)"
    assert len(preview.warnings) == 1 and "network: check mode assumes that an earlier task creates the network 'new-net'" in preview.warnings[0]
    reads = len(preview.client.reads)
    assert assumed(parent_id(preview, "subnet", "new-subnet", "subnet", query={"network_id": ident})), "under it: not built either"
    assert len(preview.client.reads) == reads, "nothing is looked for under a parent not built yet"
    teardown = module(NETWORKS, state="absent")
    assert assumed(parent_id(teardown, "network", "new-net", "network")) and teardown.warnings == []


def test_an_id_and_a_name_of_one_parent_are_mutually_exclusive():
    check_one_of({"network_id": None, "network": "app-net"}, "interfaces[0].", [("network_id", "network")])
    with pytest.raises(ValidationError, match=r"interfaces\[0\]\.network_id and network are mutually exclusive"):
        check_one_of({"network_id": NETWORK_ID, "network": "app-net"}, "interfaces[0].", [("network_id", "network")])


IMAGES = [{"id": "i-1", "name": "ubuntu", "status": "active"}, {"id": "i-2", "name": "ubuntu", "status": "deactivated"},
          {"id": "i-3", "name": "old", "status": "deactivated"}, {"id": "i-4", "name": "twin", "status": "active"},
          {"id": "i-5", "name": "twin", "status": "active"}]


def test_an_image_name_gives_its_one_active_image_in_one_listing():
    client = Client(IMAGES)
    assert active_images(client, {"project_id": 1, "region_id": 76}, ["ubuntu", "ubuntu"], "image_name") == {"ubuntu": "i-1"}
    assert len(client.reads) == 1
    with pytest.raises(Refused, match=r"image_name: the image 'old' of .* is deactivated \(id i-3\), not active"):
        active_images(Client(IMAGES), {"project_id": 1, "region_id": 76}, ["old"], "image_name")
    with pytest.raises(Refused, match=r"image_name: 2 active images of .* are named 'twin' \(ids i-4, i-5\)"):
        active_images(Client(IMAGES), {"project_id": 1, "region_id": 76}, ["twin"], "image_name")
    assert active_images(Client(IMAGES), {"project_id": 1, "region_id": 76}, ["new"], "image_name", assume=lambda name: "assumed " + name) \
        == {"new": "assumed new"}, "a name no image has at all: what the caller assumes (check mode)"
