# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A WAAP domain as the record the domain modules' parts hang on (``_waap_domain``) alone, on a stub client: found by
``domain_id`` (nothing read) or by its exact name, case-insensitively, over the listing; a name none or several
domains hold fails before any write, a domain that does not exist is refused saying it cannot be created here, and
``domain_id``/``domain`` are checked before any request. The modules against the simulator:
tests/unit/plugins/modules/test_waap_domain.py."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._waap_domain import OnDomain, read_domain

DOMAINS = [{"id": 1001, "name": "Shop.example.com"}, {"id": 1002, "name": "shop.example.com.au"},
           {"id": 1003, "name": "twin.example"}, {"id": 1004, "name": "TWIN.example"}]


class Client:
    def __init__(self, records):
        self.records, self.reads = records, []

    def paginate(self, path, query=None, **_paging):
        self.reads.append((path, query))
        return [record for record in self.records if (query or {}).get("name", "").lower() in record["name"].lower()]


class Base:
    def validate(self):
        """What the module's other bases check."""


class Domain(OnDomain, Base):
    def __init__(self, domain_id=None, domain=None):
        self.params, self.client = {"domain_id": domain_id, "domain": domain}, Client(DOMAINS)


def test_a_domain_id_is_taken_as_given_and_nothing_is_read():
    domain = Domain(domain_id=1003)
    assert domain.find_domain() == 1003 and domain.client.reads == []


def test_a_name_finds_the_one_domain_it_names_exactly_whatever_its_case():
    domain = Domain(domain="shop.example.com")
    assert domain.find_domain() == 1001, "shop.example.com.au contains the name but is not it"
    assert domain.params["domain_id"] == 1001 and len(domain.client.reads) == 1


def test_a_name_none_or_several_domains_hold_fails_before_any_write():
    with pytest.raises(Refused, match=r"No WAAP domain is named 'nowhere.example'.*cannot be created here"):
        Domain(domain="nowhere.example").find_domain()
    with pytest.raises(Refused, match=r"2 WAAP domains are named 'twin.example' \(ids 1003, 1004\); give domain_id"):
        Domain(domain="twin.example").find_domain()


def test_a_domain_that_does_not_exist_is_refused_saying_it_cannot_be_created_here():
    asked = []

    def get(path, one=False):
        asked.append((path, one))
        return {"id": 1001, "status": "active"} if path.endswith("/1001/settings") else None
    assert read_domain(get, "/waap/v2/domains/{domain_id}/settings", {"domain_id": 1001}) == {"id": 1001, "status": "active"}
    with pytest.raises(Refused, match=r"WAAP domain 9 does not exist .*it cannot be created here"):
        read_domain(get, "/waap/v2/domains/{domain_id}/settings", {"domain_id": 9})
    assert asked[-1] == ("/waap/v2/domains/9/settings", True)


@pytest.mark.parametrize("domain_id, domain, option", [(0, None, "domain_id"), (None, " ", "domain"), (None, "shop\n", "domain")])
def test_the_domain_options_are_checked_before_any_request(domain_id, domain, option):
    probe = Domain(domain_id=domain_id, domain=domain)
    with pytest.raises(ValidationError) as failed:
        probe.validate()
    assert str(failed.value).startswith(option), str(failed.value)
    assert probe.client.reads == []
