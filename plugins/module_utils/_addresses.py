# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""An instance's addresses, classified one way for the ``gcore.platform.cloud`` inventory and the ``instance`` module.

This module is internal to the collection: its interface may change at any time.
"""

from __future__ import annotations

import ipaddress

PRIVATE_NETWORKS = tuple(ipaddress.ip_network(net) for net in
                         ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7"))


def classify_addresses(addresses):
    """The four address lists of an instance's ``addresses`` (network name -> entries), in the record's order.

    Floating: ``type`` is ``floating``. Private: in 10/8, 172.16/12, 192.168/16, 100.64/10 or fc00::/7. Public:
    otherwise, floating ones included. An entry that is not an address is left out of every list.
    """
    found = {"gcore_public_ipv4": [], "gcore_private_ipv4": [], "gcore_floating_ipv4": [], "gcore_public_ipv6": []}
    for entries in (addresses or {}).values():
        for entry in entries or []:
            text = entry.get("addr") if isinstance(entry, dict) else None
            try:
                address = ipaddress.ip_address(text)
            except ValueError:
                continue
            private = any(address in network for network in PRIVATE_NETWORKS if network.version == address.version)
            if address.version == 4:
                if entry.get("type") == "floating":
                    found["gcore_floating_ipv4"].append(text)
                found["gcore_private_ipv4" if private else "gcore_public_ipv4"].append(text)
            elif not private:
                found["gcore_public_ipv6"].append(text)
    return found


def address_lists(addresses):
    """``{public_ipv4, private_ipv4, floating_ipv4, public_ipv6}``: the lists the inventory sets as ``gcore_*`` variables."""
    return dict((key[len("gcore_"):], value) for key, value in classify_addresses(addresses).items())
