# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""A WAAP domain's parts, each set by its own request (``waap_domain``: its status and settings; ``waap_policies``: its
policies), on the one write core (``_flow``).

This module is internal to the collection: its interface may change at any time.

A domain is never created or deleted here: it is found by ``domain_id`` or by its exact name (compared case-insensitively,
every page of ``GET /waap/v2/domains``), and a name matching none or several fails before any write. Its parts are read
once as ``{key: view}``; the parts the options ask for that differ are sent, one write per request the declaration
groups them in; what an accepted write answers updates the result (``answered``: no read afterwards); after an
ambiguous failure the parts are read again and a write is never sent twice (a policy is set, never flipped).
``changed`` and ``changes`` come from the ledger (in check mode: from the plan): each write says its verb (a key
of the ``changes`` shape: ``updated``; ``enabled``, ``disabled``) and the keys it sets. The diff holds the parts that change,
as mappings from key to view.

Hooks (pure: no requests, but ``held``, which reads): ``held(ident)`` (the parts of domain ``ident`` read, as ``{key:
view}``; a domain that does not exist raises ``Refused``), ``wanted(held)`` (``{key: view}``: the parts the options ask
for), ``requests(changes, held)`` (``[(verb, keys, method, path, body)]``: the requests that send ``changes``, ``{key:
view}``; a verb of ``changes``), ``returned()`` (the result members, from what was read and answered last) and
``Flow``'s ``answered``.
"""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused
from ansible_collections.gcore.platform.plugins.module_utils._flow import Flow
from ansible_collections.gcore.platform.plugins.module_utils._waap_rules import OnDomain
from ansible_collections.gcore.platform.plugins.module_utils._waap_tables import DOMAINS
from ansible_collections.gcore.platform.plugins.module_utils._writes import Write

DOMAIN = DOMAINS + "/{domain_id}"


class DomainParts(OnDomain, Flow):
    """The flow of a domain's parts; a subclass is a declaration (see the module docstring)."""

    # ---- hooks ---------------------------------------------------------------------------------
    def held(self, ident):
        raise NotImplementedError

    def wanted(self, held):
        raise NotImplementedError

    def requests(self, changes, held):
        raise NotImplementedError

    def returned(self):
        raise NotImplementedError

    # ---- the flow ------------------------------------------------------------------------------
    def read_domain(self, path):
        """A record of the domain (``path``: a template of ``domain_id``); a domain that does not exist raises ``Refused``."""
        record = self.client.get_or_none(path.format(domain_id=self.params["domain_id"]))
        if record is None:
            raise Refused("WAAP domain %s does not exist (a domain exists once WAAP is switched on for its CDN resource; "
                          "it cannot be created here)" % self.params["domain_id"])
        return record

    def again(self):
        return self.held(self.params["domain_id"])

    def run(self):
        self.start()
        held = self.held(self.find_domain())
        wanted = self.wanted(held)
        changes = dict((key, view) for key, view in wanted.items() if held.get(key) != view)
        self.result["diff"] = {"before": dict((key, held.get(key)) for key in changes), "after": changes}
        writes = [self.writing(verb, keys, method, path, body, changes) for verb, keys, method, path, body in self.requests(changes, held)]
        self.tell(writes)  # in check mode: what would be sent
        self.result["changed"] = bool(writes)
        if writes and not self.check_mode:
            self.apply(writes)
            self.tell(self.ledger.writes())
            self.result["changed"] = bool(self.ledger)
        return self.returned()

    def writing(self, verb, keys, method, path, body, changes):
        return Write("update", method, path, body, names=keys, said={verb: keys}, reread=self.again,
                     done=lambda state: all(state.get(key) == changes[key] for key in keys))

    def outcome(self, msg, error):
        rejected = getattr(error, "rejected", None)
        if rejected is not None:
            msg = "%s: %s" % (", ".join(rejected.names), msg)
        return super().outcome(msg, error)
