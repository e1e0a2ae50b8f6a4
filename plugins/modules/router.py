#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: router
short_description: Create, update and delete a Gcore Cloud router
version_added: 1.0.0
description:
  - Makes a Gcore Cloud router match what you describe, or removes it, and does nothing when it already matches.
  - The router is found by O(id) when it is given, otherwise by its exact O(name).
  - Creates it, changes its members and the subnets it is attached to (O(interfaces)), and with O(state=absent) deletes
    it.
author:
  - gcore.platform developers (@gcore-platform)
options:
  state:
    description:
      - V(present) creates or updates the router; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
  id:
    description:
      - ID (UUID) of the router, in any letter case (sent lower-case).
      - When given, the router is found by this ID and O(name) is its desired name.
      - With O(state=present), a router ID that does not exist fails the module (an ID cannot be created).
      - One of O(id) and O(name) is required.
    type: str
    aliases: [router_id]
  name:
    description:
      - Name of the router, 3 to 63 characters matching C(^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$)
        (letters, digits, spaces, C(.), C(_) and C(-); it starts with a letter or digit and ends with a letter,
        digit, C(.) or C(_)).
      - Without O(id), the router whose name is exactly this one; it is created when there is none.
      - With O(id), the name the router should have (a rename).
    type: str
  routes:
    description:
      - The router's custom routes, as the complete list.
      - Compared as a set of (destination, nexthop) pairs in canonical form, so order, duplicates and the spelling
        of an address (for example an uncompressed IPv6 address) do not count as a difference.
      - V([]) removes every route; leaving the option out keeps the routes the router has.
    type: list
    elements: dict
    suboptions:
      destination:
        description:
          - Destination network in CIDR notation, IPv4 or IPv6, for example V(10.0.3.0/24).
          - Must be a network address (no host bits set), for example V(10.0.3.0/24), not V(10.0.3.1/24).
        type: str
        required: true
      nexthop:
        description:
          - IP address to forward the traffic to, of the same IP version as O(routes[].destination).
        type: str
        required: true
  external_gateway_info:
    description:
      - The router's external gateway.
      - Compared by O(external_gateway_info.network_id) and O(external_gateway_info.enable_snat); the external IPs are
        assigned by the service and are not managed.
      - Leaving the option out keeps the router's gateway as it is.
    type: dict
    suboptions:
      type:
        description:
          - V(manual) connects the router to the external network O(external_gateway_info.network_id).
          - V(default) lets the platform choose the external network of the region. The API accepts it only when a
            router is created; on an existing router any gateway satisfies it (O(external_gateway_info.enable_snat)
            is compared only when it is set), and a router without a gateway fails the module.
          - V(none) means the router has no external gateway. A new router is created without one; a router that has
            one gets a C(PATCH) with C(external_gateway_info) set to V(null), which removes it.
        type: str
        choices: [manual, default, none]
        default: manual
      network_id:
        description:
          - ID (UUID) of the external network.
          - Required when O(external_gateway_info.type=manual); not accepted with V(default) or V(none).
        type: str
      enable_snat:
        description:
          - Whether source NAT is enabled on the gateway.
          - When not set, V(true) (the service's default) for a V(manual) gateway and when the router is created;
            with V(default) on an existing router, the current setting is kept.
          - Not accepted with O(external_gateway_info.type=none).
        type: bool
  interfaces:
    description:
      - The subnets the router is attached to, as the complete set.
      - A listed subnet the router is not attached to is attached; an attached subnet that is not listed is detached.
        V([]) detaches every subnet; leaving the option out keeps the router's subnets as they are.
      - The attached subnets are read from the router's C(interfaces[].ip_assignments[].subnet_id). Order does not count.
      - Each subnet may be listed only once (subnet IDs compare case-insensitively and are sent lower-case).
      - New subnets are attached first, then each subnet whose O(interfaces[].ip_address) changes is detached and
        attached again, then the subnets not listed are detached; so a failed attach (an unknown subnet, HTTP 404, or an
        address outside the subnet, HTTP 400) leaves every subnet that was attached still attached.
      - When a new router is created, the subnets without O(interfaces[].ip_address) are part of the create request;
        the others are attached once the router exists, so such a create needs O(wait=true) (with O(wait=false) the
        module fails before sending anything).
    type: list
    elements: dict
    suboptions:
      subnet_id:
        description:
          - ID (UUID) of the subnet. This or O(interfaces[].subnet) is required (not both).
        type: str
      subnet:
        description:
          - The subnet by its ID or its exact name, as an alternative to O(interfaces[].subnet_id) (not with it).
          - A name is looked up over every page of C(GET /cloud/v1/subnets/{project_id}/{region_id}) (within
            O(interfaces[].network) when it is given) before any write; none, or several (their IDs are listed; give
            O(interfaces[].network) when two networks hold a subnet of that name), fails the module and nothing is sent.
          - In check mode a subnet not built yet does not fail the module; it warns that it assumes an earlier task
            creates it, and previews the attach.
        type: str
        version_added: 1.1.0
      network:
        description:
          - The network (its ID or exact name) whose subnet O(interfaces[].subnet) names; only with
            O(interfaces[].subnet).
        type: str
        version_added: 1.1.0
      ip_address:
        description:
          - IPv4 or IPv6 address of the router in the subnet; an IPv4-mapped IPv6 address is sent in its dotted form
            (V(::ffff:10.0.0.1)).
          - When not given, the service picks one, and whatever address the router has in the subnet is accepted.
          - When given and the router is attached to the subnet with another address, the subnet is detached and
            attached again with this one.
        type: str
notes:
  - A missing router is created with C(POST /cloud/v1/routers/{project_id}/{region_id}); its ID is read from the
    finished task's C(created_resources.routers).
  - An existing router is updated with C(PATCH /cloud/v2/routers/{project_id}/{region_id}/{router_id}), sending only
    the members that differ, and read again once every task has finished.
  - O(state=absent) deletes the router with C(DELETE /cloud/v1/routers/{project_id}/{region_id}/{router_id}).
  - The subnets the router is attached to (O(interfaces)) are changed with
    C(POST /cloud/v1/routers/{project_id}/{region_id}/{router_id}/attach) and C(.../detach), one subnet per request,
    after any PATCH; they answer at once (no task) and, like a PATCH or the delete, wait for the router's lock first
    (also with O(wait=false)).
  - With O(wait=false) the module returns the task IDs in RV(tasks) without waiting for them, and RV(router) is the
    router as read before the change (V(null) when it is being created). Attaching and detaching subnets needs the
    router unlocked, so when O(interfaces) changes too the module waits for the PATCH task anyway.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.gcore.WAIT
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.router_info
    description: Read routers.
  - module: gcore.platform.subnet
    description: The subnets a router attaches.
  - module: gcore.platform.network
    description: The networks of those subnets.
"""

EXAMPLES = r"""
- name: A router connected to an external network, with one custom route
  gcore.platform.router:
    project_id: 1
    region_id: 76
    name: edge-router
    external_gateway_info:
      network_id: 8c4b5f1e-1a3b-4b4e-9d57-2f0a4cb6a001
    routes:
      - destination: 10.0.3.0/24
        nexthop: 10.0.0.13
  register: result

- name: Rename it by ID and remove every custom route
  gcore.platform.router:
    id: "{{ result.router.id }}"
    name: edge-router-2
    routes: []

- name: A router on the region's default external network, SNAT off
  gcore.platform.router:
    name: lab-router
    external_gateway_info:
      type: default
      enable_snat: false

- name: A router attached to two private subnets, the second at a fixed address
  gcore.platform.router:
    name: app-router
    external_gateway_info:
      network_id: 8c4b5f1e-1a3b-4b4e-9d57-2f0a4cb6a001
    interfaces:
      - subnet_id: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01
      - subnet_id: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b02
        ip_address: 192.168.20.1

- name: A router attached to subnets named by name (router-subnet-3 looked up within router-net-3)
  gcore.platform.router:
    name: named-router
    interfaces:
      - subnet: router-subnet-1
      - subnet: router-subnet-3
        network: router-net-3

- name: Keep only the first subnet and remove the gateway
  gcore.platform.router:
    name: app-router
    external_gateway_info:
      type: none
    interfaces:
      - subnet_id: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01

- name: Detach every subnet
  gcore.platform.router:
    name: app-router
    interfaces: []

- name: Delete app-router
  gcore.platform.router:
    name: app-router
    state: absent

- name: Start a change without waiting for it
  gcore.platform.router:
    name: lab-router
    routes:
      - destination: 2001:db8:10::/64
        nexthop: 2001:db8::1
    wait: false
  register: started

- name: Delete the router
  gcore.platform.router:
    name: edge-router-2
    state: absent
"""

RETURN = r"""
router:
  description:
    - The router as the service returned it when last read.
    - V(null) after a delete, and when O(state=absent) found no router.
    - With O(wait=false), the router as read before the change, or V(null) when it is being created.
    - In check mode, the router as it is now (V(null) when it would be created).
  returned: success
  type: dict
  contains:
    id:
      description: Router ID.
      type: str
      sample: 2f6c1c64-8c3e-4c2b-9bb5-0a8cbb2f1c11
    name:
      description: Router name.
      type: str
      sample: edge-router
    status:
      description: Router status as the service reports it (a free-form string, for example C(ACTIVE)).
      type: str
      sample: ACTIVE
    distributed:
      description: Whether the router is distributed.
      type: bool
      sample: false
    external_gateway_info:
      description:
        - The external gateway, or V(null) when the router has none.
        - Holds C(network_id), C(enable_snat) and C(external_fixed_ips) (a list of C({ip_address, subnet_id})).
          It has no C(type).
      type: dict
      sample:
        network_id: 8c4b5f1e-1a3b-4b4e-9d57-2f0a4cb6a001
        enable_snat: true
        external_fixed_ips:
          - ip_address: 203.0.113.10
            subnet_id: 1b5e0f2a-3c4d-4e5f-8a9b-0c1d2e3f4a01
    interfaces:
      description:
        - Ports of the router in its subnets, each with C(port_id), C(network_id), C(ip_assignments) (a list of
          C({ip_address, subnet_id})) and C(mac_address).
      type: list
      elements: dict
      sample:
        - port_id: 0f2b9a4e-6c1d-4f3e-8a5b-7c9d1e2f3a4b
          network_id: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01
          ip_assignments:
            - ip_address: 192.168.10.1
              subnet_id: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01
          mac_address: fa:16:3e:00:00:01
    routes:
      description: Custom routes, each with C(destination) and C(nexthop).
      type: list
      elements: dict
      sample:
        - destination: 10.0.3.0/24
          nexthop: 10.0.0.13
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
      sample: "2026-11-22T16:20:00Z"
    updated_at:
      description: Time of the last change.
      type: str
      sample: "2026-11-22T16:21:30Z"
    task_id:
      description: ID of the task that currently locks the router, or V(null) when it is not locked.
      type: str
      sample: null
    creator_task_id:
      description: ID of the task that created the router, or V(null).
      type: str
      sample: 6a1d8f3e-0b2c-4d5e-8f90-1a2b3c4d5e6f
tasks:
  description:
    - IDs of the asynchronous tasks the module started (empty when nothing was sent).
    - With O(wait=true) every one of them has finished when the module returns.
  returned: success
  type: list
  elements: str
  sample: [6a1d8f3e-0b2c-4d5e-8f90-1a2b3c4d5e6f]
diff:
  description:
    - The managed members before and after the change (C(name), C(routes) in canonical order,
      C(external_gateway_info) as C({network_id, enable_snat}) or V(null) without a gateway), with C(state).
    - When the platform chooses the external network (V(default)) for a new router, C(network_id) is V(null) in
      C(after).
    - When O(interfaces) is given, C(interfaces) is the list of C({subnet_id, ip_address}) sorted by C(subnet_id),
      in C(before) as the router has them and in C(after) as listed (a subnet listed without C(ip_address) shows the
      address the router has in it, so it shows no change; V(null) for a subnet not attached yet).
  returned: success
  type: dict
  sample:
    before:
      state: present
      name: edge-router
      routes: []
      external_gateway_info:
        network_id: 8c4b5f1e-1a3b-4b4e-9d57-2f0a4cb6a001
        enable_snat: true
      interfaces:
        - subnet_id: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01
          ip_address: 192.168.10.1
    after:
      state: present
      name: edge-router
      routes:
        - destination: 10.0.3.0/24
          nexthop: 10.0.0.13
      external_gateway_info:
        network_id: 8c4b5f1e-1a3b-4b4e-9d57-2f0a4cb6a001
        enable_snat: true
      interfaces:
        - subnet_id: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01
          ip_address: 192.168.10.1
"""

import ipaddress

from ansible_collections.gcore.platform.plugins.module_utils._attachments import Attachments
from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError, check_uuid, require, strip_none, uuid_text
from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudResource
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._networks import address, canonical_routes, check_routes
from ansible_collections.gcore.platform.plugins.module_utils._parents import assumed, parent_id

# The router's PATCH body and its GET record do not map one to one (docs/api_reference.md section 2.9): the gateway is
# compared by ``network_id`` and ``enable_snat`` only (GET has no ``type``; ``external_fixed_ips`` are the service's),
# the routes as a set (``_networks.canonical_routes``); the interfaces are the subnets the router is attached to
# (section 12.3), read from ``interfaces[].ip_assignments[]`` and changed through attach and detach, never the PATCH.


def gateway_view(gateway):
    """The managed members of a gateway as GET returns it: ``{network_id, enable_snat}`` or None."""
    if not gateway:
        return None
    snat = gateway.get("enable_snat")
    return {"network_id": gateway.get("network_id"), "enable_snat": True if snat is None else bool(snat)}


def desired_gateway(wanted, current):
    """The gateway the user asks for, in the view shape, given the router's current gateway view.

    ``wanted`` is the module option (``type``, ``network_id``, ``enable_snat``). ``type: default``
    lets the platform choose the network: any existing gateway satisfies it (``enable_snat`` is
    compared only when set), and with no gateway the network is unknown (``network_id`` None).
    """
    if wanted.get("type") == "none":
        return None  # no gateway
    snat = True if wanted.get("enable_snat") is None else wanted["enable_snat"]
    if wanted.get("type") == "default":
        if current and wanted.get("enable_snat") is None:
            snat = current["enable_snat"]  # not set: any existing gateway satisfies type default
        return {"network_id": current["network_id"] if current else None, "enable_snat": snat}
    return {"network_id": wanted.get("network_id"), "enable_snat": snat}


class GatewayError(ValidationError, ValueError):
    """``type: default`` asked of a router without a gateway (the API accepts that type only on create)."""


def _wanted_gateway(value, record):
    held = gateway_view(record.get("external_gateway_info")) if record else None
    if record is not None and value.get("type") == "default" and held is None:
        raise GatewayError("external_gateway_info.type: default is accepted only when a router is created; router %s "
                           "has no gateway, so give type manual with a network_id" % record.get("id"))
    return desired_gateway(value, held)


def interface_items(record):
    """The subnets the router is attached to, as ``{subnet_id, ip_address}`` items (one per IP assignment; UUIDs lower-case)."""
    return [{"subnet_id": str(assignment.get("subnet_id") or "").lower(), "ip_address": assignment.get("ip_address")}
            for interface in (record or {}).get("interfaces") or []
            for assignment in interface.get("ip_assignments") or []]


def check_interface(where, item):
    """Validate one item of the ``interfaces`` option; return it canonical (lower-case UUID, ``ipaddress`` form). An item
    naming its subnet by ``subnet`` (and ``network``) keeps them, its ``subnet_id`` None until the module resolves it."""
    subnet, network = item.get("subnet"), item.get("network")
    require(item["subnet_id"] is None or subnet is None, where + ".subnet_id", "subnet_id and subnet are mutually exclusive (give the id or the name)")
    require(item["subnet_id"] is not None or subnet is not None, where + ".subnet_id", "subnet_id or subnet is required")
    require(network is None or subnet is not None, where + ".network", "only with subnet (the network its name is looked up in)")
    subnet_id = item["subnet_id"] if assumed(item["subnet_id"]) else uuid_text(where + ".subnet_id", item["subnet_id"])
    ip = item.get("ip_address")
    if ip is not None:
        ip = address(where + ".ip_address", ip)
    if subnet is not None:
        return {"subnet_id": None, "ip_address": ip, "subnet": subnet, "network": network}
    return {"subnet_id": subnet_id, "ip_address": ip}


def same_interface(desired, current):
    """An attached subnet satisfies a listed one; its address counts only when the item gives one."""
    if desired["ip_address"] is None:
        return True
    try:
        return ipaddress.ip_address(current.get("ip_address") or "") == ipaddress.ip_address(desired["ip_address"])
    except ValueError:
        return False


# The router's subnets: attached and detached one by one; on create, those without an address go in the POST body.
INTERFACES = Attachments(
    "interfaces", key="subnet_id", items=interface_items, same=same_interface, check_item=check_interface,
    attach=("POST", KINDS["router"].path("/{id}/attach")),
    detach=("POST", KINDS["router"].path("/{id}/detach")), attach_body=strip_none,
)


class Router(CloudResource):
    kind = KINDS["router"]
    options = dict(
        id=dict(type="str", aliases=["router_id"]),
        routes=dict(type="list", elements="dict", options=dict(
            destination=dict(type="str", required=True),
            nexthop=dict(type="str", required=True),
        )),
        external_gateway_info=dict(type="dict", options=dict(
            type=dict(type="str", choices=["manual", "default", "none"], default="manual"),
            network_id=dict(type="str"),
            enable_snat=dict(type="bool"),
        )),
        interfaces=dict(type="list", elements="dict", options=dict(
            subnet_id=dict(type="str"),
            subnet=dict(type="str"),
            network=dict(type="str"),
            ip_address=dict(type="str"),
        )),
    )
    members = (
        Member("name"),
        Member("routes", read=lambda record: canonical_routes(record.get("routes")), want=lambda value, record: canonical_routes(value), created=[]),
        Member("external_gateway_info", read=lambda record: gateway_view(record.get("external_gateway_info")), want=_wanted_gateway, created=None),
    )
    parts = (INTERFACES,)

    def validate(self):
        super().validate()
        params = self.params
        check_routes("routes", params["routes"])
        gateway = params["external_gateway_info"]
        if gateway:
            check_uuid("external_gateway_info.network_id", gateway["network_id"])
            require(gateway["type"] != "manual" or gateway["network_id"], "external_gateway_info.network_id",
                    "required when external_gateway_info.type is manual")
            require(gateway["type"] != "default" or not gateway["network_id"], "external_gateway_info.network_id",
                    "not accepted with external_gateway_info.type default (the platform chooses the network)")
            for option in ("network_id", "enable_snat"):
                require(gateway["type"] != "none" or gateway[option] is None, "external_gateway_info.%s" % option,
                        "not accepted with external_gateway_info.type none (the router has no gateway)")

    def resolve(self):
        """The subnets named by ``subnet`` (within ``network`` when given) as their ids, before any write (``_parents``)."""
        items = self.params["interfaces"]
        if not any(item.get("subnet") is not None for item in items or []):
            return
        for index, item in enumerate(items):
            if item.get("subnet") is not None:
                where = "interfaces[%d]." % index
                network = parent_id(self, "network", item["network"], where + "network")
                item["subnet_id"] = parent_id(self, "subnet", item["subnet"], where + "subnet", query={"network_id": network} if network else None)
        items[:] = INTERFACES.canonical([{"subnet_id": item["subnet_id"], "ip_address": item["ip_address"]} for item in items])

    def create_body(self):
        params = self.params
        items = params["interfaces"] or []  # a subnet with an ip_address cannot be in the create body: attached once it exists
        interfaces = [{"type": "subnet", "subnet_id": item["subnet_id"]} for item in items if item["ip_address"] is None]
        late = [index for index, item in enumerate(items) if item["ip_address"] is not None]
        if late and not params["wait"]:
            raise ValidationError("interfaces[%s]: an interface with an ip_address is attached only once the router exists, "
                                  "and a create with wait=false does not wait for that; set wait=true, or create the router "
                                  "first and attach it in a later run (nothing was sent)" % late[0])
        body = {"name": params["name"]}
        if params["routes"] is not None:
            body["routes"] = canonical_routes(params["routes"])
        gateway = params["external_gateway_info"]
        if gateway and gateway["type"] != "none":
            body["external_gateway_info"] = dict((key, value) for key, value in gateway.items() if value is not None)
            body["external_gateway_info"].setdefault("enable_snat", True)
        if interfaces:
            body["interfaces"] = interfaces
        return body

    def update_body(self, changes, record):
        gateway = changes.get("external_gateway_info")
        if gateway is not None:
            return dict(changes, external_gateway_info=dict(gateway, type="manual"))
        return changes  # no gateway change, or null: it removes the gateway (docs/api_reference.md section 11 row 8)


def main():
    Router.main()


if __name__ == "__main__":
    main()
