#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: floating_ip
short_description: Give an instance or a port a Gcore Cloud floating IP, move, unassign or delete one, idempotently
version_added: 1.0.0
description:
  - Makes a port (an instance's, or the one given) have a floating IP, or a floating IP be as described, or removes
    it, and does nothing when it already is so.
  - "Floating IPs have no name: one is found by O(floating_ip_id), by its O(address), or by the port (of O(instance) or
    O(port_id)) it is assigned to."
  - Creates one already assigned to the port, assigns, moves or unassigns one, manages its tags, and deletes it or every
    floating IP of a port.
author:
  - gcore.platform developers (@gcore-platform)
options:
  state:
    description:
      - V(present) makes the floating IP exist (assigned as asked); V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
  floating_ip_id:
    description:
      - ID (UUID) of an existing floating IP, in any letter case (sent lower-case).
      - With O(state=present), an ID that does not exist fails the module (an ID cannot be created); with
        O(state=absent) it is reported unchanged.
      - Mutually exclusive with O(address).
    type: str
  address:
    description:
      - The public address of an existing floating IP (IPv4 or IPv6, compared as Python's C(ipaddress) prints it).
      - With O(state=present), an address no floating IP of the project and region has fails the module (an address
        cannot be chosen); with O(state=absent) it is reported unchanged.
    type: str
  instance:
    description:
      - The instance whose port gets the floating IP, by ID (a UUID) or exact name (every page of the instance listing;
        two instances with the name fail the module, listing their IDs).
      - The port is the instance's first interface, or the interface holding O(fixed_ip_address) when it is given
        (read from C(GET /cloud/v1/instances/{project_id}/{region_id}/{instance_id}/interfaces)).
      - With O(state=present) an instance that does not exist fails the module; with O(state=absent) there is nothing
        to delete. In check mode (since 1.1.0) an instance name that matches nothing does not fail; the module warns
        that it assumes an earlier task creates that instance, and previews the floating IP on its port.
      - Mutually exclusive with O(port_id).
    type: str
  port_id:
    description:
      - ID (UUID) of the port that gets the floating IP, such as a load balancer's C(vip_port_id).
    type: str
  fixed_ip_address:
    description:
      - Which IPv4 address of the port the floating IP points to; the port's first free IPv4 address otherwise.
      - Needs O(instance) or O(port_id). With it, a floating IP on the port counts only when it points to this
        address.
    type: str
  unassign:
    description:
      - With V(true), the floating IP given by O(floating_ip_id) or O(address) is unassigned from whatever port holds
        it. Not with O(instance), O(port_id) or O(fixed_ip_address).
    type: bool
    default: false
notes:
  - Floating IPs have no name. One is found by O(floating_ip_id), by its O(address) (every page of
    C(GET /cloud/v1/floatingips/{project_id}/{region_id})), or - with neither - by the port it is assigned to.
  - With O(instance) or O(port_id) and no O(floating_ip_id) or O(address), a floating IP already assigned to that port
    (and to O(fixed_ip_address) when given) satisfies the task; otherwise one is created already assigned
    (C(POST /cloud/v1/floatingips/{project_id}/{region_id}) with C(port_id) and C(fixed_ip_address); its ID is read
    from the finished task's C(created_resources.floatingips)). A second run changes nothing.
  - With O(floating_ip_id) or O(address) and O(instance) or O(port_id), that floating IP is assigned to the port (or
    moved there) with C(PATCH /cloud/v2/floatingips/{project_id}/{region_id}/{floating_ip_id}) when it is not there
    already. With neither O(instance) nor O(port_id), the floating IP must exist; its O(tags) are managed and
    O(unassign=true) unassigns it (the same PATCH with C(port_id) V(null)).
  - O(state=absent) deletes the floating IP given by O(floating_ip_id) or O(address), or every floating IP assigned to
    the port of O(instance) or O(port_id) (only the one on O(fixed_ip_address) when it is given), with one
    C(DELETE /cloud/v1/floatingips/{project_id}/{region_id}/{floating_ip_id}) each, each its own task. Already absent
    (none on the port) is no change; after a failure the re-run deletes the ones left.
  - With neither O(floating_ip_id), O(address), O(instance) nor O(port_id) the module fails validation, since nothing
    would find the floating IP on the next run.
  - When several floating IPs are assigned to the port (to different fixed addresses) and O(fixed_ip_address) is not
    given, O(state=present) is satisfied by any of them, and O(state=absent) deletes them all; give
    O(fixed_ip_address) or O(floating_ip_id) to delete one.
  - With O(wait=false) the module returns once the service accepted each write, with the task IDs in RV(tasks); a
    floating IP being created is then returned as V(null).
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.gcore.WAIT
  - gcore.platform.gcore.TAGS
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.instance
    description: The instance whose port gets the floating IP.
  - module: gcore.platform.load_balancer
    description: A load balancer's C(vip_port_id), a port to give a floating IP.
  - module: gcore.platform.floating_ip_info
    description: Find floating IPs by address, instance or status (an unassigned one left behind).
"""

EXAMPLES = r"""
- name: Give instance web-1 a floating IP (a second run finds the one it has)
  gcore.platform.floating_ip:
    project_id: 1
    region_id: 76
    instance: web-1
    tags:
      role: web
  register: fip

- name: Connect to it
  ansible.builtin.debug:
    msg: "ssh ubuntu@{{ fip.floating_ip.floating_ip_address }}"

- name: Move a known floating IP to instance db-1's port
  gcore.platform.floating_ip:
    project_id: 1
    region_id: 76
    address: 203.0.113.200
    instance: db-1

- name: Unassign it, keeping the address
  gcore.platform.floating_ip:
    project_id: 1
    region_id: 76
    address: 203.0.113.200
    unassign: true

- name: Delete every floating IP of instance web-1's port
  gcore.platform.floating_ip:
    project_id: 1
    region_id: 76
    instance: web-1
    state: absent
"""

RETURN = r"""
floating_ip:
  description:
    - The floating IP as the service returned it when last read; its C(floating_ip_address) is what users connect to.
    - V(null) after a delete, when O(state=absent) found none, in check mode when one would be created, and with
      O(wait=false) when it is being created.
  returned: success
  type: dict
  contains:
    id:
      description: Floating IP ID.
      type: str
      sample: 9b2d3c4e-5f60-4a7b-8c9d-0e1f2a3b4c5d
    floating_ip_address:
      description: The public address.
      type: str
      sample: 203.0.113.100
    fixed_ip_address:
      description: The port's address it points to, or V(null) when unassigned.
      type: str
      sample: 10.0.0.5
    port_id:
      description: The port it is assigned to, or V(null).
      type: str
      sample: 5daac328-24a0-5761-b2a4-61c9f3c1e8d0
    router_id:
      description: The router that carries it, or V(null).
      type: str
      sample: null
    status:
      description: V(ACTIVE) (assigned), V(DOWN) (unassigned) or V(ERROR).
      type: str
      sample: ACTIVE
    tags:
      description: Every tag of the floating IP, read-only ones included.
      type: list
      elements: dict
      sample: [{key: role, value: web, read_only: false}]
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
      description: ID of the task that currently locks the floating IP, or V(null).
      type: str
      sample: null
    creator_task_id:
      description: ID of the task that created it.
      type: str
      sample: 6a1d8f3e-0b2c-4d5e-8f90-1a2b3c4d5e6f
    instance:
      description:
        - The instance that holds the port (a short record), or V(null); present when the floating IP was read from
          the listing (found by address or port, and not read again since).
      type: dict
      returned: when found in the listing
      sample: {id: ecb75751-9203-556a-9ade-6721bc8360aa, name: web-1, status: ACTIVE}
    loadbalancer:
      description: The load balancer that holds the port, or V(null); present as RV(floating_ip.instance) is.
      type: dict
      returned: when found in the listing
      sample: null
tasks:
  description:
    - IDs of the asynchronous tasks the module started (empty when nothing was sent). With O(wait=true) every one of
      them has finished when the module returns.
  returned: success
  type: list
  elements: str
  sample: [6a1d8f3e-0b2c-4d5e-8f90-1a2b3c4d5e6f]
diff:
  description:
    - The managed members before and after the change (C(port_id), C(fixed_ip_address) when given, C(tags) as a
      mapping of the user tags), with C(state).
    - With O(state=absent) by O(instance) or O(port_id), C(before) also has C(floating_ip_addresses), the sorted
      addresses of every floating IP on the port (each of them is deleted).
  returned: success
  type: dict
  sample:
    before: {state: absent}
    after: {state: present, port_id: 5daac328-24a0-5761-b2a4-61c9f3c1e8d0}
"""

import functools
import ipaddress

from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, ValidationError, canonical_address, require
from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudResource
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS, find_named
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._parents import interfaces_of, parent_id
from ansible_collections.gcore.platform.plugins.module_utils._parts import Part
from ansible_collections.gcore.platform.plugins.module_utils._writes import Write

NOT_FOUND = object()  # the instance given was not found


class OtherFloatingIps(Part):
    """The floating IPs on the port besides the one the flow deletes, deleted before it (``before_delete``): one
    ``DELETE`` each, about its own floating IP, sent once that one is unlocked (``unlocked(record)``) and, after an
    ambiguous failure, read again (``read(id)``, once settled) to tell whether it went. No option: never compared or shown
    as a member (the module's ``shown`` lists the addresses)."""

    name = "floating_ips"
    before_delete = True

    def __init__(self, records, unlocked, read):
        self.records, self.unlocked, self.read = list(records), unlocked, read

    def plan(self, _record, _wanted, params):
        return [Write("delete", "DELETE", KINDS["floating_ip"].paths["item"].format(**dict(params, id=other["id"])),
                      names=[other.get("floating_ip_address")], locked=other, prepare=functools.partial(self.unlocked, other),
                      reread=functools.partial(self.read, other["id"]), done=lambda found: found is None) for other in self.records]


class FloatingIp(CloudResource):
    kind = KINDS["floating_ip"]
    options = dict(
        address=dict(type="str"),
        instance=dict(type="str"),
        port_id=dict(type="str"),
        fixed_ip_address=dict(type="str"),
        unassign=dict(type="bool", default=False),
    )
    tagged = True
    tags_given = True  # the tags shown in the diff only when given
    uuid_options = ("port_id",)
    create_options = ("fixed_ip_address", "tags")  # and the port
    module_kwargs = dict(mutually_exclusive=[("floating_ip_id", "address"), ("instance", "port_id")])
    ready = ("status", ("ACTIVE", "DOWN"), (None,))
    port = None  # the port the floating IP goes to: port_id, or the instance's (NOT_FOUND: no such instance)
    also_on_port = ()  # state=absent by the port: the floating IPs on it besides the one the flow deletes

    @property
    def parts(self):
        """Deleted before the flow's own DELETE: the other floating IPs on the port (``OtherFloatingIps``)."""
        if not self.also_on_port:
            return ()
        return (OtherFloatingIps(self.also_on_port, self.wait_unlocked, lambda ident: self.settled(self.read(ident))),)

    @property
    def members(self):
        params = self.params
        members = []
        if self.port is not None and self.port is not NOT_FOUND:
            given = "instance" if params["instance"] is not None else "port_id"
            members.append(Member("port_id", option=given, want=lambda value, record: self.port))
            if params["fixed_ip_address"] is not None:
                members.append(Member("fixed_ip_address", read=lambda record: canonical_address(record.get("fixed_ip_address"))))
        if params["unassign"]:
            members.append(Member("port_id", option="unassign", want=lambda value, record: None))
        return tuple(members)

    def validate(self):
        super().validate()
        params = self.params
        if params["instance"] is not None:
            require(params["instance"].strip() and params["instance"].isprintable(), "instance",
                    "must be an instance ID or name, not empty and without control characters")
        for option, versions in (("address", (4, 6)), ("fixed_ip_address", (4,))):
            if params[option] is not None:
                if _version(params[option]) not in versions:
                    raise ValidationError("%s: %r is not an IPv%s address" % (option, params[option], " or IPv".join(map(str, versions))))
                params[option] = canonical_address(params[option])
        targeted = params["instance"] is not None or params["port_id"] is not None
        require(params["fixed_ip_address"] is None or targeted, "fixed_ip_address", "needs instance or port_id (the port it belongs to)")
        require(not (params["unassign"] and targeted), "unassign",
                "cannot be true with instance, port_id or fixed_ip_address (those assign the floating IP)")
        require(not params["unassign"] or params["state"] == "present", "unassign", "is used only with state=present")
        require(targeted or params["floating_ip_id"] is not None or params["address"] is not None, "floating_ip_id",
                "one of floating_ip_id, address, instance or port_id is required (nothing else finds a floating IP on the next run)")
        require(not params["unassign"] or params["floating_ip_id"] is not None or params["address"] is not None, "unassign",
                "needs floating_ip_id or address")

    def resolve(self):
        """The port the task is about: port_id, or the instance's (``instance_port``)."""
        params = self.params
        self.port = params["port_id"] if params["instance"] is None else self.instance_port(params["instance"])

    def instance_port(self, name):
        """The port of the instance (an id, or an exact name over every page of the listing): its first interface, or the
        one holding ``fixed_ip_address``. No such instance: NOT_FOUND, but to create one (check mode: one an earlier task
        creates, standing for its port). An instance without such an interface raises ``Refused``."""
        params, where = self.params, self.where()
        ident = find_named(self.client, KINDS["instance"], params, name, "instance", required=False)[0]
        interfaces = None if ident is None else interfaces_of(self.client, params, ident)
        if interfaces is None and params["state"] == "present":
            if not self.check_mode:
                raise Refused("instance: no instance %r in %s" % (name, where))
            return parent_id(self, "instance", name, "instance")
        if interfaces is None:
            return NOT_FOUND
        fixed = params["fixed_ip_address"]
        if fixed is not None:
            interfaces = [interface for interface in interfaces
                          if any(canonical_address(item.get("ip_address")) == fixed for item in interface.get("ip_assignments") or [])]
            if not interfaces:
                raise Refused("fixed_ip_address: instance %s of %s has no interface with the address %s" % (name, where, fixed))
        if not interfaces:
            raise Refused("instance: instance %s of %s has no network interface to assign a floating IP to" % (name, where))
        return interfaces[0]["port_id"]

    def find(self):
        """By address (every page, compared as ``ipaddress`` prints it), or by the port it is assigned to (floating IPs have no name)."""
        params = self.params
        present = params["state"] == "present"
        port = self.port
        if params["address"] is not None:
            matches = [record for record in self.listing() if canonical_address(record.get("floating_ip_address")) == params["address"]]
            if not matches and present:
                raise Refused("address: no floating IP of %s has the address %s, and an address cannot be chosen: leave "
                              "address out to create one" % (self.where(), params["address"]))
            return matches[0] if matches else None
        if port is None or port is NOT_FOUND:
            return None
        fixed = params["fixed_ip_address"]
        matches = [record for record in self.listing() if record.get("port_id") == port
                   and (fixed is None or canonical_address(record.get("fixed_ip_address")) == fixed)]
        if not present:  # every one on the port is deleted: the first by the flow, the others before it
            self.also_on_port = matches[1:]
        return matches[0] if matches else None

    def shown(self, record):
        """The managed members; deleting by the port, also the address of every floating IP on it (all are deleted)."""
        shown = super().shown(record)
        params = self.params
        if params["state"] == "absent" and params["floating_ip_id"] is None and params["address"] is None:
            found = sorted((ipaddress.ip_address(item["floating_ip_address"]) for item in [record] + list(self.also_on_port)),
                           key=lambda address: (address.version, address))
            shown["floating_ip_addresses"] = [str(address) for address in found]
        return shown

    def create_body(self):
        return dict(super().create_body(), port_id=self.port)

    def update_body(self, changes, record):
        body = dict(changes)
        if "fixed_ip_address" in body and "port_id" not in body:
            body["port_id"] = self.port  # the v2 PATCH names the port with the address
        return body


def _version(address):
    try:
        return ipaddress.ip_address(address).version
    except ValueError:
        return None


def main():
    FloatingIp.main()


if __name__ == "__main__":
    main()
