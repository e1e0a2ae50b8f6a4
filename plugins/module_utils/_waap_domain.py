# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""A WAAP domain as the record whose parts the domain modules manage, on the resource flow (``_resource``).

This module is internal to the collection: its interface may change at any time.

A domain is never created or deleted here: it is found by ``domain_id`` or by its exact name, and a name matching none
or several fails before any write. ``DomainResource`` is a ``container``: what the modules manage are its parts, its
rules of one kind (``_waap_rules``), its status and settings (``waap_domain``) or its policies (``waap_policies``).
"""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, check_range, require
from ansible_collections.gcore.platform.plugins.module_utils._resource import GcoreResourceModule
from ansible_collections.gcore.platform.plugins.module_utils._waap_tables import DOMAINS, MAX_OFFSET, PAGE_SIZE

DOMAIN = DOMAINS + "/{domain_id}"


def read_domain(get, path, params):
    """A record of the domain (``path``: a template of ``domain_id``; ``get``: a part's reader); a domain that does
    not exist raises ``Refused``."""
    record = get(path.format(domain_id=params["domain_id"]), one=True)
    if record is None:
        raise Refused("WAAP domain %s does not exist (a domain exists once WAAP is switched on for its CDN resource; "
                      "it cannot be created here)" % params["domain_id"])
    return record


class OnDomain:
    """What every module about one WAAP domain declares: the ``domain_id`` option checked, the scope of its messages,
    the WAAP paging. Comes first among a module's bases."""

    scope = "domain {domain_id}"
    page_size = PAGE_SIZE
    max_offset = MAX_OFFSET

    def validate(self):
        super().validate()
        check_range("domain_id", self.params["domain_id"], low=1)
        name = self.params.get("domain")
        require(name is None or (name.strip() and name.isprintable()), "domain",
                "must be the exact name of a WAAP domain: not empty, without control characters")

    def find_domain(self):
        """The domain's id: ``domain_id``, or the domain with the exact name in ``domain`` (or ``name``), case-insensitively
        (every page of the domain listing: its ``name`` filter matches parts of names); none or several fail."""
        params = self.params
        if params.get("domain_id") is not None:
            return params["domain_id"]
        name = params.get("domain") if "domain" in params else params.get("name")
        found = [record for record in self.client.paginate(DOMAINS, {"name": name}, page_size=PAGE_SIZE, max_offset=MAX_OFFSET)
                 if str(record.get("name", "")).lower() == name.lower()]
        if not found:
            raise Refused("No WAAP domain is named %r (a domain exists once WAAP is switched on for its CDN resource; "
                          "it cannot be created here)" % name)
        if len(found) > 1:
            raise Refused("%s WAAP domains are named %r (ids %s); give domain_id" % (len(found), name, ", ".join(str(r["id"]) for r in found)))
        params["domain_id"] = found[0]["id"]
        return params["domain_id"]


class DomainResource(OnDomain, GcoreResourceModule):
    """What one WAAP domain holds, as parts of the domain record (the module docstring): the domain is resolved
    before anything is read, and is never read itself (its parts are)."""

    container = True
    id_option = name_option = None

    def resolve(self):
        """The domain named by ``domain`` (or ``name``) resolved to its id (one paginated lookup), before any part is read."""
        self.find_domain()

    def find(self):
        return {"id": self.params["domain_id"]}
