#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: reserved_fixed_ip_info
short_description: Read Gcore Cloud reserved fixed IPs
version_added: 1.1.0
description:
  - Reads the reserved fixed IPs (private addresses kept apart from any instance, virtual IPs among them) of a Gcore
    Cloud project and region, and changes nothing.
  - Reads one reserved IP by O(port_id), or those of the project and region, filtered by O(network), O(ip_address) and
    the service's VIP and availability filters.
  - Reserved IPs have no name of their own; find one by its ID, or by O(network) and O(ip_address).
author:
  - gcore.platform developers (@gcore-platform)
options:
  port_id:
    description:
      - ID of the reserved IP to read (its C(port_id)), a UUID in any letter case.
    type: str
  network:
    description:
      - Only the reserved IPs of this network, a network ID (a UUID) or the exact name of a network (a name no network
        has gives an empty RV(reserved_fixed_ips); two networks with the name fail the module).
    type: str
  ip_address:
    description:
      - Only the reserved IP holding this address (IPv4 or IPv6, compared as C(ipaddress) prints it). With O(network),
        the one reserved IP that has that address on that network.
    type: str
  vip_only:
    description:
      - V(true) reads only the virtual IPs (C(is_vip)); V(false) or not given, all.
    type: bool
  available_only:
    description:
      - V(true) reads only the reserved IPs attached to nothing (free for an instance interface); V(false) or not
        given, all.
    type: bool
notes:
  - With O(port_id), reads that reserved IP with
    C(GET /cloud/v1/reserved_fixed_ips/{project_id}/{region_id}/{port_id}); one that does not exist gives an empty
    RV(reserved_fixed_ips).
  - Otherwise reads every page of C(GET /cloud/v1/reserved_fixed_ips/{project_id}/{region_id}), with the service's
    C(vip_only), C(available_only) and C(ip_address) filters when they are given, and keeps those on O(network) when it
    is given (the listing has no network filter).
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.attributes.INFO_MODULE
seealso:
  - module: gcore.platform.reserved_fixed_ip
  - module: gcore.platform.network_info
"""

EXAMPLES = r"""
- name: Reserve an address to read back
  gcore.platform.reserved_fixed_ip:
    project_id: 1
    region_id: 76
    network: router-net-1
    ip_address: 192.168.10.70

- name: Every virtual IP of project 1 in region 76
  gcore.platform.reserved_fixed_ip_info:
    project_id: 1
    region_id: 76
    vip_only: true
  register: vips

- name: The reserved IP holding 192.168.10.70 on router-net-1
  gcore.platform.reserved_fixed_ip_info:
    project_id: 1
    region_id: 76
    network: router-net-1
    ip_address: 192.168.10.70
  register: found

- name: Show its ID
  ansible.builtin.debug:
    msg: "{{ found.reserved_fixed_ips[0].port_id }}"

- name: The free reserved IPs, for instance interfaces
  gcore.platform.reserved_fixed_ip_info:
    project_id: 1
    region_id: 76
    available_only: true
  register: free
"""

RETURN = r"""
reserved_fixed_ips:
  description: The reserved IPs found (empty when none matches), as the service returns them, by address.
  returned: success
  type: list
  elements: dict
  contains:
    port_id:
      description: The reserved IP's ID, to pass as O(gcore.platform.reserved_fixed_ip#module:port_id).
      type: str
      sample: 7a1c3e5f-2b4d-4c6e-8f0a-1b2c3d4e5f60
    name:
      description: The name the service gives it.
      type: str
      sample: Reserved fixed ip 192.168.10.70
    fixed_ip_address:
      description: Its IPv4 address.
      type: str
      sample: 192.168.10.70
    network_id:
      description: ID of its network.
      type: str
      sample: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01
    is_vip:
      description: Whether it is a virtual IP.
      type: bool
      sample: false
    reservation:
      description: What it is attached to, C({resource_id, resource_type, status}) (all V(null) when free).
      type: dict
      sample: {resource_id: null, resource_type: null, status: null}
"""

from ansible_collections.gcore.platform.plugins.module_utils._checks import checked_address
from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudInfo, Filter
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS
from ansible_collections.gcore.platform.plugins.module_utils._parents import address_query, addresses_of, parent_filter


def flag(option, test):
    """A boolean filter the service takes (``true``: only the records that pass ``test``; ``false``: no filter)."""
    return Filter(option, dict(type="bool"), lambda value: {option: "true"} if value else {}, lambda record, value: not value or test(record))


class ReservedFixedIpInfo(CloudInfo):
    kind = KINDS["reserved_fixed_ip"]
    filters = (
        parent_filter("network", "network", lambda value: {}, lambda record, value: record.get("network_id") == value),
        Filter("ip_address", dict(type="str"), address_query, lambda record, value: value in addresses_of(record), check=checked_address),
        flag("vip_only", lambda record: record.get("is_vip")),
        flag("available_only", lambda record: (record.get("reservation") or {}).get("resource_id") is None),
    )


def main():
    ReservedFixedIpInfo.main()


if __name__ == "__main__":
    main()
