#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: subnet
short_description: Create, update and delete a subnet of a Gcore Cloud network
version_added: 1.0.0
description:
  - Makes a subnet of a Gcore Cloud network match what you describe, or removes it, and does nothing when it already
    matches.
  - The subnet is found by O(subnet_id) when it is given, otherwise by its exact O(name) among the subnets of
    O(network_id).
  - Creates it, changes its name, DHCP, gateway, DNS servers, host routes and tags, and with O(state=absent) deletes it.
author:
  - gcore.platform developers (@gcore-platform)
options:
  state:
    description:
      - V(present) creates or updates the subnet; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
  subnet_id:
    description:
      - ID (UUID) of the subnet, in any letter case (sent lower-case).
      - When given, the subnet is found by this ID and O(name) is its desired name (a rename).
      - With O(state=present), an ID that does not exist fails the module (an ID cannot be created); with
        O(state=absent) it is reported unchanged.
      - One of O(subnet_id) and O(name) is required.
    type: str
  name:
    description:
      - Name of the subnet, 3 to 63 characters matching C(^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$).
      - Without O(subnet_id), the subnet of O(network_id) whose name is exactly this one; it is created when there is
        none.
      - Required to create a subnet.
    type: str
  network_id:
    description:
      - ID (UUID) of the network the subnet belongs to, in any letter case (sent lower-case).
      - O(network_id) or O(network) is required to create a subnet and to find one by O(name).
      - A subnet cannot move to another network; with O(subnet_id), a subnet of another network fails the module before any
        write.
    type: str
  network:
    description:
      - The network the subnet belongs to, by its ID or its exact name (the alternative to O(network_id); not with
        it).
      - A name is looked up over every page of C(GET /cloud/v1/networks/{project_id}/{region_id}) before any write;
        no network with that name, or several (their IDs are listed), fails the module and nothing is sent.
      - In check mode a network that does not exist yet does not fail the module; it warns that it assumes an
        earlier task creates that network, and reports the subnet as to be created (a preview of a whole stack).
    type: str
    version_added: 1.1.0
  cidr:
    description:
      - The subnet's address range, a network address in strict CIDR notation, IPv4 or IPv6, for example
        V(192.168.10.0/24) or V(fd00:10::/64). V(192.168.10.1/24) (host bits set) fails validation.
      - Required to create a subnet. Create-only; an existing subnet with another range fails the module before any
        write, naming both; delete the subnet and create it again (or use another name).
    type: str
  enable_dhcp:
    description:
      - Whether DHCP is enabled in the subnet. The service enables it by default.
    type: bool
  gateway_ip:
    description:
      - The gateway address, a host address inside O(cidr), or V(disable) for no gateway.
      - Left out when the subnet is created, the service picks one; left out on an existing subnet, the gateway is not
        compared.
      - V(disable) on a new subnet sends C(gateway_ip) V(null) and C(connect_to_network_router) V(false); on an
        existing one, C(gateway_ip) V(null).
    type: str
  dns_nameservers:
    description:
      - The DNS servers handed out by DHCP, as IP addresses, in order (the order counts; each address once).
      - V([]) removes them all; leaving the option out keeps them as they are.
    type: list
    elements: str
  host_routes:
    description:
      - Static routes handed out by DHCP, as the complete list.
      - Compared as a set of (destination, nexthop) pairs in canonical form, so order, duplicates and the spelling of an
        address do not count as a difference.
      - V([]) removes them all; leaving the option out keeps them as they are.
    type: list
    elements: dict
    suboptions:
      destination:
        description:
          - Destination network in strict CIDR notation, IPv4 or IPv6.
        type: str
        required: true
      nexthop:
        description:
          - IP address to send the traffic to, of the same IP version as the destination.
        type: str
        required: true
  connect_to_network_router:
    description:
      - Whether the new subnet is connected to a router (O(router_id), or else the router made with the network). The
        service's default is V(true).
      - Used only when the subnet is created and sent only when given; the subnet record does not show it, so it is
        never compared.
      - Must not be V(true) with O(gateway_ip=disable).
    type: bool
  router_id:
    description:
      - ID (UUID) of a router to connect the new subnet to (sent as C(router_id_to_connect)); the router gets an
        interface at the subnet's gateway.
      - Used only when the subnet is created; the subnet record does not show it, so it is never compared. To attach
        an existing subnet to a router, use O(gcore.platform.router#module:interfaces).
      - Not with O(gateway_ip=disable) nor O(connect_to_network_router=false).
    type: str
notes:
  - The subnet is found by O(subnet_id) when it is given, otherwise by its exact O(name) among the subnets of
    O(network_id), reading every page of C(GET /cloud/v1/subnets/{project_id}/{region_id}?network_id=...) (the service
    has no name filter for subnets). More than one subnet with that name in the network fails the module, lists their
    IDs and sends no write.
  - A missing subnet is created with C(POST /cloud/v1/subnets/{project_id}/{region_id}); its ID is read from the
    finished task's C(created_resources.subnets).
  - An existing subnet is updated with C(PATCH /cloud/v1/subnets/{project_id}/{region_id}/{subnet_id}), sending only
    the members that differ among O(name), O(enable_dhcp), O(gateway_ip), O(dns_nameservers), O(host_routes) and
    O(tags) (as a JSON merge patch); the service answers with the subnet at once (no task).
  - O(state=absent) deletes the subnet with C(DELETE /cloud/v1/subnets/{project_id}/{region_id}/{subnet_id}) and waits
    for the task. A subnet a router is attached to cannot be deleted; detach it first (M(gcore.platform.router),
    O(gcore.platform.router#module:interfaces)).
  - With O(wait=false) the module returns once the service accepted each write, with the task IDs in RV(tasks); a
    subnet being created is then returned as V(null), and after a PATCH RV(subnet) is the subnet as read before it.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.gcore.WAIT
  - gcore.platform.gcore.TAGS
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.subnet_info
    description: Read subnets.
  - module: gcore.platform.network
    description: The network a subnet belongs to.
  - module: gcore.platform.router
    description: Attaches subnets (O(gcore.platform.router#module:interfaces)).
"""

EXAMPLES = r"""
- name: A network for the application
  gcore.platform.network:
    project_id: 1
    region_id: 76
    name: app-net
    create_router: false
  register: net

- name: A subnet with two DNS servers and a static route
  gcore.platform.subnet:
    project_id: 1
    region_id: 76
    network_id: "{{ net.network.id }}"
    name: app-subnet
    cidr: 10.10.0.0/24
    dns_nameservers: [8.8.8.8, 1.1.1.1]
    host_routes:
      - destination: 10.20.0.0/16
        nexthop: 10.10.0.254
    tags:
      env: prod
  register: sub

- name: An IPv6 subnet without a gateway and without DHCP
  gcore.platform.subnet:
    project_id: 1
    region_id: 76
    network_id: "{{ net.network.id }}"
    name: app-subnet-v6
    cidr: fd00:10::/64
    gateway_ip: disable
    enable_dhcp: false

- name: Change the DNS servers and drop the routes
  gcore.platform.subnet:
    project_id: 1
    region_id: 76
    network_id: "{{ net.network.id }}"
    name: app-subnet
    dns_nameservers: [1.1.1.1]
    host_routes: []

- name: A subnet of the network named app-net (a name needs no registered ID; --check previews it before the network exists)
  gcore.platform.subnet:
    project_id: 1
    region_id: 76
    network: app-net
    name: app-subnet-2
    cidr: 10.11.0.0/24

- name: Delete the subnets by name
  gcore.platform.subnet:
    project_id: 1
    region_id: 76
    network: app-net
    name: "{{ item }}"
    state: absent
  loop: [app-subnet, app-subnet-v6, app-subnet-2]
"""

RETURN = r"""
subnet:
  description:
    - The subnet as the service returned it when last read.
    - V(null) after a delete, when O(state=absent) found no subnet, in check mode when the subnet would be created,
      and with O(wait=false) when it is being created.
  returned: success
  type: dict
  contains:
    id:
      description: Subnet ID.
      type: str
      sample: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01
    name:
      description: Subnet name.
      type: str
      sample: app-subnet
    network_id:
      description: ID of the subnet's network.
      type: str
      sample: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01
    cidr:
      description: The subnet's address range.
      type: str
      sample: 10.10.0.0/24
    ip_version:
      description: V(4) or V(6).
      type: int
      sample: 4
    enable_dhcp:
      description: Whether DHCP is enabled.
      type: bool
      sample: true
    gateway_ip:
      description: The gateway address, or V(null) without a gateway.
      type: str
      sample: 10.10.0.1
    dns_nameservers:
      description: DNS servers, in order.
      type: list
      elements: str
      sample: [8.8.8.8, 1.1.1.1]
    host_routes:
      description: Static routes, each with C(destination) and C(nexthop).
      type: list
      elements: dict
      sample: [{destination: 10.20.0.0/16, nexthop: 10.10.0.254}]
    total_ips:
      description: How many addresses the subnet has.
      type: int
      sample: 254
    available_ips:
      description: How many of them are free.
      type: int
      sample: 253
    tags:
      description: Every tag of the subnet, read-only ones included.
      type: list
      elements: dict
      sample: [{key: env, value: prod, read_only: false}]
    project_id:
      description: Project ID.
      type: int
      sample: 1
    region_id:
      description: Region ID.
      type: int
      sample: 76
    region:
      description: Region name.
      type: str
      sample: Luxembourg-2
    created_at:
      description: Creation time.
      type: str
      sample: "2026-11-26T10:00:00Z"
    updated_at:
      description: Time of the last change.
      type: str
      sample: "2026-11-26T10:05:00Z"
    task_id:
      description: ID of the task that currently locks the subnet, or V(null).
      type: str
      sample: null
    creator_task_id:
      description: ID of the task that created the subnet.
      type: str
      sample: 6a1d8f3e-0b2c-4d5e-8f90-1a2b3c4d5e6f
tasks:
  description:
    - IDs of the asynchronous tasks the module started (empty when nothing was sent, and after a PATCH alone, which
      starts none).
    - With O(wait=true) every one of them has finished when the module returns.
  returned: success
  type: list
  elements: str
  sample: [6a1d8f3e-0b2c-4d5e-8f90-1a2b3c4d5e6f]
diff:
  description:
    - The managed members before and after the change, with C(state) (C(name), C(network_id) (and for a create,
      C(network) as O(network) gives it, since 1.1.0), C(cidr),
      C(enable_dhcp), C(gateway_ip) (V(null) without a gateway), C(dns_nameservers) in order, C(host_routes) in
      canonical order, C(tags) as a mapping of the user tags).
  returned: success
  type: dict
  sample:
    before: {state: present, name: app-subnet, cidr: 10.10.0.0/24, dns_nameservers: [8.8.8.8], host_routes: []}
    after: {state: present, name: app-subnet, cidr: 10.10.0.0/24, dns_nameservers: [1.1.1.1], host_routes: []}
"""

import ipaddress

from ansible_collections.gcore.platform.plugins.module_utils._checks import require
from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudResource
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS
from ansible_collections.gcore.platform.plugins.module_utils._members import Member, create_only
from ansible_collections.gcore.platform.plugins.module_utils._networks import (
    address,
    canonical_addresses,
    canonical_cidr,
    canonical_gateway,
    canonical_routes,
    check_gateway,
    check_routes,
    check_nameservers,
    strict_network,
)
from ansible_collections.gcore.platform.plugins.module_utils._parents import check_one_of, parent_id

DISABLE = "disable"


class Subnet(CloudResource):
    kind = KINDS["subnet"]
    options = dict(
        network_id=dict(type="str"),
        network=dict(type="str"),
        cidr=dict(type="str"),
        enable_dhcp=dict(type="bool"),
        gateway_ip=dict(type="str"),
        dns_nameservers=dict(type="list", elements="str"),
        host_routes=dict(type="list", elements="dict", options=dict(
            destination=dict(type="str", required=True),
            nexthop=dict(type="str", required=True),
        )),
        connect_to_network_router=dict(type="bool"),
        router_id=dict(type="str"),
    )
    tagged = True
    uuid_options = ("network_id", "router_id")
    create_options = ("name", "network_id", "cidr", "enable_dhcp", "dns_nameservers", "connect_to_network_router", "tags")
    required_to_create = ("name", "network_id", "cidr")
    read_after_update = False  # the PATCH answers the subnet (docs/api_reference.md section 15.2)

    @property
    def scope(self):
        where = "project {project_id}, region {region_id}"
        return ("network {network_id} of " + where) if self.params["network_id"] else where

    @property
    def members(self):
        return (
            Member("name"),
            create_only("network_id", lambda record: record.get("network_id"), "subnet",
                        rule="a %s cannot move to another network"),
            create_only("cidr", lambda record: canonical_cidr(record.get("cidr")), "subnet", want=canonical_cidr),
            Member("enable_dhcp"),
            Member("gateway_ip", read=lambda record: canonical_gateway(record.get("gateway_ip")), want=self.wanted_gateway),
            Member("dns_nameservers", read=lambda record: canonical_addresses(record.get("dns_nameservers"))),
            Member("host_routes", read=lambda record: canonical_routes(record.get("host_routes")),
                   want=lambda value, record: canonical_routes(value)),
        )

    def validate(self):
        super().validate()
        params = self.params
        check_one_of(params, "", [("network_id", "network")])
        require(params["subnet_id"] is not None or params["network_id"] is not None or params["network"] is not None, "network_id",
                "required to find a subnet by name, or network (subnets are listed per network)")
        network = None
        if params["cidr"] is not None:
            network = strict_network("cidr", params["cidr"])
            params["cidr"] = str(network)
        gateway = params["gateway_ip"]
        if gateway is not None and gateway != DISABLE:
            params["gateway_ip"] = address("gateway_ip", gateway)
            if network is not None:
                check_gateway("gateway_ip", params["gateway_ip"], network, "cidr")
        if gateway == DISABLE:
            require(params["connect_to_network_router"] is not True, "connect_to_network_router",
                    "must not be true with gateway_ip disable (a subnet without a gateway cannot be connected to a router)")
            require(params["router_id"] is None, "router_id", "not with gateway_ip disable (the router connects at the gateway)")
        require(params["router_id"] is None or params["connect_to_network_router"] is not False, "router_id",
                "not with connect_to_network_router false")
        if params["dns_nameservers"] is not None:
            params["dns_nameservers"] = check_nameservers("dns_nameservers", params["dns_nameservers"])
        check_routes("host_routes", params["host_routes"], "is not a network in CIDR notation")

    def wanted_gateway(self, value, record):
        """The canonical gateway (None for ``disable``); one outside the existing subnet's range fails before any write."""
        if value == DISABLE:
            return None
        if record is not None and record.get("cidr"):
            check_gateway("gateway_ip", value, ipaddress.ip_network(record["cidr"], strict=False), "subnet %s" % record.get("id"))
        return value

    def resolve(self):
        """``network`` (an id or an exact name) as the network id, before any write (``_parents``)."""
        if self.params["network"] is not None:
            self.params["network_id"] = parent_id(self, "network", self.params["network"], "network")

    def list_query(self):
        return {"network_id": self.params["network_id"]}  # the subnet listing has no name filter

    def create_shown(self):
        """A create shows the network as the task names it (by name: a reviewer reads it; check mode may not have its id)."""
        return {"network": self.params["network"]} if self.params["network"] is not None else {}

    def create_body(self):
        params = self.params
        body = super().create_body()
        if params["gateway_ip"] == DISABLE:
            body.update(gateway_ip=None, connect_to_network_router=False)
        elif params["gateway_ip"] is not None:
            body["gateway_ip"] = params["gateway_ip"]
        if params["host_routes"] is not None:
            body["host_routes"] = canonical_routes(params["host_routes"])
        if params["router_id"] is not None:
            body["router_id_to_connect"] = params["router_id"]
        return body


def main():
    Subnet.main()


if __name__ == "__main__":
    main()
