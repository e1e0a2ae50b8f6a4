#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: baremetal_server
short_description: Create, rename, tag, start, stop, rebuild and delete a Gcore Cloud bare metal server
version_added: 1.2.0
description:
  - Makes a Gcore Cloud bare metal server (a whole physical machine) match the task, found by O(server_id) or by its
    exact O(name), or deletes it.
  - Creates it from a flavor and a bare metal image or an application template once the region has capacity for the
    flavor, and waits until it is C(ACTIVE).
  - Renames and tags it, starts or stops it, and rebuilds it from another image only with O(allow_rebuild).
seealso:
  - module: gcore.platform.baremetal_server_info
  - module: gcore.platform.quota_check
  - module: gcore.platform.instance
author:
  - gcore.platform developers (@gcore-platform)
options:
  state:
    description:
      - V(present) makes the server exist; its power state is not managed.
      - V(started) makes it exist and run (C(ACTIVE)); V(stopped) makes it exist and stopped (C(SHUTOFF)). The action is
        sent only when the status differs.
      - V(absent) deletes it and waits for the task; see O(delete_floating_ips).
    type: str
    choices: [present, started, stopped, absent]
    default: present
  server_id:
    description:
      - UUID of the server (any case; sent lower-case). When given it identifies the server, and O(name) renames it.
      - An id that is not found fails the task, except with O(state=absent).
    type: str
  name:
    description:
      - Exact name of the server; required to create one (the NAME rule, 3 to 63 characters). One of O(server_id) and
        O(name) is required.
    type: str
  flavor:
    description:
      - Bare metal flavor name, for example V(bm1-basic-small); required to create a server. See
        M(gcore.platform.baremetal_server_info) with O(gcore.platform.baremetal_server_info#module:flavors=true).
      - Create-only; a server with another flavor fails the task naming both.
    type: str
  image:
    description:
      - The bare metal image, by ID or exact name among the images of C(GET /cloud/v1/bmimages/{project_id}/{region_id})
        with status C(active) (none or several fail, nothing is sent). One of O(image) and O(apptemplate) is required
        to create a server.
      - The server's image is read from its read-only tags C(image_id) and C(image_name) (the record has no image
        member). A different image fails as create-only, unless O(allow_rebuild=true). Where the server shows no image
        (made from an application template), O(image) is used at create only.
    type: str
  allow_rebuild:
    description:
      - When O(image) differs from the server's image, rebuild the server from it (one
        C(POST /cloud/v1/bminstances/{project_id}/{region_id}/{id}/rebuild), waited for until C(ACTIVE)).
      - B(A rebuild wipes the server's disk), everything on it is lost; its name, flavor, addresses and tags stay.
    type: bool
    default: false
  apptemplate:
    description:
      - ID of a marketplace application template to create the server from, instead of O(image). Create-only, not compared.
    type: str
  interfaces:
    description:
      - Network interfaces of the server, in order; required to create one (at least one); used at create only. The
        first is the trunk port.
      - The four types of M(gcore.platform.instance)'s interfaces; bare metal interfaces take no security groups, and
        each may name its O(interfaces[].port_group). A field given for a type that has no such field, or missing
        where the type requires it, fails validation before any request.
    type: list
    elements: dict
    suboptions:
      type:
        description:
          - V(external) (a public address), V(subnet) (an address of a subnet), V(any_subnet) (of the subnet of a network
            with the most free addresses), V(reserved_fixed_ip) (a reserved fixed IP's port).
        type: str
        choices: [external, subnet, any_subnet, reserved_fixed_ip]
        default: external
      interface_name:
        description: Name of the interface, at most 37 characters.
        type: str
      ip_family:
        description: IP family of the address (V(external) and V(any_subnet)); the service uses V(ipv4) when not set.
        type: str
        choices: [ipv4, ipv6, dual]
      network_id:
        description: UUID of the network (V(subnet), V(any_subnet)).
        type: str
      network:
        description:
          - The network by ID or exact name, instead of O(interfaces[].network_id); looked up before any write (in check
            mode one not built yet is assumed, with a warning). With O(interfaces[].ip_address) for V(reserved_fixed_ip).
        type: str
      subnet_id:
        description: UUID of the subnet (V(subnet)).
        type: str
      subnet:
        description: The subnet by ID or exact name within the network, instead of O(interfaces[].subnet_id) (V(subnet)).
        type: str
      port_id:
        description: Port ID of the reserved fixed IP (V(reserved_fixed_ip)).
        type: str
      ip_address:
        description: An address to request (V(any_subnet)), or the reserved fixed IP's address with O(interfaces[].network).
        type: str
      port_group:
        description: The trunk group of the interface, V(0) to V(3); each distinct group is a separate trunk port.
        type: int
      floating_ip:
        description: A floating IP for the interface at create (not for V(external)).
        type: dict
        suboptions:
          source:
            description: V(new), or V(existing) with O(interfaces[].floating_ip.existing_floating_id).
            type: str
            required: true
            choices: [new, existing]
          existing_floating_id:
            description: UUID of the existing floating IP.
            type: str
  ssh_key:
    description:
      - Name of an SSH key of the project (see M(gcore.platform.ssh_key)) installed at create; compared with the
        server's C(ssh_key_name) afterwards (create-only).
    type: str
  username:
    description:
      - Name of a new Linux user, with O(password) (which it needs). Create-only, not compared.
    type: str
  password:
    description:
      - Password of the new user, of the image's default user (Linux) or of the Windows Admin user. Create-only, never
        returned or logged at any verbosity.
    type: str
  user_data:
    description:
      - Plain-text cloud-init (or cloudbase-init) user data, sent base64-encoded. Create-only, never returned or logged.
        The service ignores it on Linux when O(password) is given.
    type: str
  delete_floating_ips:
    description:
      - With O(state=absent), delete the floating IPs assigned to the server with it (those read before the delete,
        named in C(floating_ip_ids)). Without it they are unassigned and stay (RV(left), and a warning names them).
    type: bool
    default: false
  wait_timeout:
    description:
      - Seconds to wait for the tasks and for the server to be C(ACTIVE) when O(wait=true), at least V(1). A server still
        building after this time fails the task naming it; a later run finds it by its name instead of creating another.
    type: int
    default: 3600
notes:
  - Makes a Gcore Cloud bare metal server (a whole physical machine) match the task, found by O(server_id) or by its
    exact O(name). It is created from a flavor and a bare metal image or an application template, then waited for
    until C(ACTIVE); renamed and tagged; started or stopped; rebuilt from another image only with O(allow_rebuild).
  - Before a create, the region's free capacity for O(flavor) is read (C(GET /cloud/v1/bmcapacity/{project_id}/{region_id}));
    none fails the task naming the flavor and the region, and nothing is sent. The create is
    C(POST /cloud/v1/bminstances/{project_id}/{region_id}), a task; provisioning takes minutes.
  - Renames and tags with one C(PATCH /cloud/v1/bminstances/{project_id}/{region_id}/{id}); starts and stops with
    C(POST /cloud/v2/baremetal/{project_id}/{region_id}/{id}/action) only when the status differs; deletes with
    C(DELETE /cloud/v1/bminstances/{project_id}/{region_id}/{id}). Every task is waited for.
  - O(flavor), O(ssh_key) are compared with the server and a difference fails before any write (the service cannot
    change them); O(interfaces), O(apptemplate), O(username), O(password) and O(user_data) are used at create only
    (the record does not show them).
  - With O(wait=false) the module returns once the service accepted each request (RV(tasks)); RV(server) is then
    V(null) after a create. Stopping a new server needs O(wait=true).
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.gcore.WAIT
  - gcore.platform.gcore.TAGS
  - gcore.platform.attributes
  - gcore.platform.provisioning
"""

EXAMPLES = r"""
- name: A private network and subnet for it
  gcore.platform.network:
    name: private-net

- name: Its subnet
  gcore.platform.subnet:
    name: private-subnet
    network: private-net
    cidr: 10.20.0.0/24

- name: A bare metal database server on the private subnet, with a floating IP
  gcore.platform.baremetal_server:
    name: db-metal-1
    flavor: bm1-basic-small
    image: ubuntu-22.04-x64
    interfaces:
      - type: external
      - type: subnet
        network: private-net
        subnet: private-subnet
        floating_ip:
          source: new
    ssh_key: deploy
    user_data: |
      #cloud-config
      packages: [postgresql]
    tags:
      role: db
  register: metal

- name: Its public address
  ansible.builtin.debug:
    msg: "{{ metal.addresses.public_ipv4 }}"

- name: Stop it
  gcore.platform.baremetal_server:
    name: db-metal-1
    state: stopped

- name: Rebuild it from another image (the disk is wiped) and start it
  gcore.platform.baremetal_server:
    name: db-metal-1
    image: debian-12-x64
    allow_rebuild: true
    state: started

- name: Delete it with its floating IPs
  gcore.platform.baremetal_server:
    name: db-metal-1
    state: absent
    delete_floating_ips: true
"""

RETURN = r"""
server:
  description:
    - The server as read last (C(GET /cloud/v1/bminstances/{project_id}/{region_id}/{id})); V(null) after a delete, when
      a check-mode run would create it, and after a create with O(wait=false).
  returned: success
  type: dict
  contains:
    id:
      description: UUID of the server.
      type: str
      sample: 8dc30d49-bb34-4920-9bbd-03a2587ec0ad
    name:
      description: Its name.
      type: str
      sample: db-metal-1
    status:
      description: C(ACTIVE), C(SHUTOFF), C(BUILD), C(REBUILD), C(ERROR) ...
      type: str
      sample: ACTIVE
    flavor:
      description: The flavor (C(flavor_id), C(vcpus), C(ram) in MiB, C(hardware_description) ...).
      type: dict
      sample: {flavor_id: bm1-basic-small, flavor_name: bm1-basic-small, vcpus: 8, ram: 32768}
    addresses:
      description: Addresses by network name, each C({addr, type}) (C(fixed) or C(floating)).
      type: dict
      sample: {external: [{addr: 198.51.100.12, type: fixed}]}
    ssh_key_name:
      description: The SSH key installed at create.
      type: str
      sample: deploy
    tags:
      description: Tags as C([{key, value, read_only}]); the read-only C(image_id) and C(image_name) name its image.
      type: list
      elements: dict
      sample: [{key: image_name, value: ubuntu-22.04-x64, read_only: true}, {key: role, value: db, read_only: false}]
    task_id:
      description: The task that locks the server; V(null) when none does.
      type: str
      sample: null
addresses:
  description:
    - The server's addresses in four lists, classified as for M(gcore.platform.instance) (C(public_ipv4),
      C(private_ipv4), C(floating_ipv4), C(public_ipv6)); empty lists when there is no server.
  returned: success
  type: dict
  sample: {public_ipv4: [198.51.100.12], private_ipv4: [10.0.0.5], floating_ipv4: [], public_ipv6: []}
changes:
  description:
    - What the run changed (in check mode, would change), each a list, empty when nothing; C(created), C(started),
      C(stopped) and C(rebuilt) name the server, C(deleted) too once the service accepted its delete; C(updated) the
      members changed (C(name), C(tags)).
  returned: when the module got past the validation of its options
  type: dict
  sample: {created: [], updated: [tags], started: [], stopped: [db-metal-1], rebuilt: [], deleted: []}
deleted:
  description: With O(state=absent), the floating IPs (ids) the delete takes with the server (C(floating_ips)).
  returned: when O(state=absent)
  type: dict
  sample: {volumes: [], floating_ips: [3f8a2c1d-9e4b-4d7a-b6c5-1a2b3c4d5e6f]}
left:
  description: With O(state=absent), the floating IPs (ids) the delete leaves unassigned.
  returned: when O(state=absent)
  type: dict
  sample: {volumes: [], floating_ips: []}
tasks:
  description: The IDs of the tasks the changes started, in order (also when a later step failed).
  returned: when the module got past the validation of its options
  type: list
  elements: str
  sample: [0b86c0ae-5c1a-4b59-8c81-fb9340d9801a]
diff:
  description:
    - The managed members before and after (C(name), C(flavor), C(ssh_key), C(tags) as a dict of user tags, C(image),
      C(status) for V(started) and V(stopped)) with C(state); a create's after side shows its interfaces as given and
      C(user_data) and C(password) as V(set) or V(not set), never their values.
  returned: success
  type: dict
  sample: {before: {state: present, name: db-metal-1, status: ACTIVE}, after: {state: present, name: db-metal-1, status: SHUTOFF}}
"""

from functools import cached_property

from ansible_collections.gcore.platform.plugins.module_utils._addresses import address_lists
from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, ValidationError, check_length, check_range, is_uuid
from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudResource
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS
from ansible_collections.gcore.platform.plugins.module_utils._instance import POWER, WAITING, Goes, Setting, check_credentials, user_data_body
from ansible_collections.gcore.platform.plugins.module_utils._instance_resource import instance_created
from ansible_collections.gcore.platform.plugins.module_utils._interfaces import NAMED_SPEC, interfaces_body, resolve_interfaces, validate_interfaces
from ansible_collections.gcore.platform.plugins.module_utils._members import Member, create_only
from ansible_collections.gcore.platform.plugins.module_utils._writes import Write

KIND = KINDS["bare_metal_server"]
# The instance interfaces without security groups, each with its trunk group (docs/api_reference.md section 19.1).
INTERFACE_SPEC = dict([(key, value) for key, value in NAMED_SPEC.items() if key != "security_groups"] + [("port_group", dict(type="int"))])
ACTIONS = {"started": "start", "stopped": "stop"}  # the action each power state sends (the status it brings: _instance.POWER)


def read_only_tag(record, key):
    return next((tag.get("value") for tag in record.get("tags") or [] if tag.get("key") == key and tag.get("read_only")), None)


def image_key(value):
    """The read-only tag an ``image`` is compared with: ``image_id`` for an ID, ``image_name`` for a name."""
    return "image_id" if value and is_uuid(value) else "image_name"


class BaremetalServer(CloudResource):
    kind = KIND
    result_key = "server"
    states = ("present", "started", "stopped", "absent")
    options = dict(
        flavor=dict(type="str"),
        image=dict(type="str"),
        allow_rebuild=dict(type="bool", default=False),
        apptemplate=dict(type="str"),
        interfaces=dict(type="list", elements="dict", options=INTERFACE_SPEC),
        ssh_key=dict(type="str", no_log=False),
        username=dict(type="str"),
        password=dict(type="str", no_log=True),
        user_data=dict(type="str", no_log=True),
        delete_floating_ips=dict(type="bool", default=False),
        wait_timeout=dict(type="int", default=3600),
    )
    module_kwargs = dict(required_one_of=[("server_id", "name")], mutually_exclusive=[("image", "apptemplate")])
    tagged = True
    tags_said = True
    required_to_create = ("name", "flavor", "interfaces")
    ready = ("status", ("ACTIVE", "SHUTOFF"), WAITING)
    changes = dict((key, str) for key in ("created", "updated", "started", "stopped", "rebuilt", "deleted"))
    goes = None  # with state absent: the floating IPs that go with the server (_instance.Goes)
    interfaces = None  # the interfaces with their parents resolved to ids (a create only)

    @property
    def members(self):
        return (Member("name", said=lambda desired, current: {"created": [desired]} if current is None else {"updated": ["name"]}),
                create_only("flavor", lambda record: (record.get("flavor") or {}).get("flavor_id"), self.noun),
                create_only("ssh_key", lambda record: record.get("ssh_key_name"), self.noun))

    @property
    def parts(self):
        """The image (a rebuild) before the power state."""
        return (self.image, self.power)

    @cached_property
    def image(self):
        key = image_key(self.params["image"])
        return Setting("image", "image", lambda module: module.params["image"] if module.params["state"] != "absent" else None,
                       lambda record: read_only_tag(record, key), self.rebuild_write)

    @cached_property
    def power(self):
        return Setting("status", "state", lambda module: POWER.get(module.params["state"]),
                       lambda record: record.get("status"), self.power_write)

    def validate(self):
        super().validate()
        params = self.params
        for option in ("flavor", "image", "apptemplate", "ssh_key", "username"):
            check_length(option, params[option], 1, 255)
        check_credentials(params)
        if params["interfaces"] is not None:
            validate_interfaces("interfaces", params["interfaces"], at_least_one=True, named=True)
            for index, item in enumerate(params["interfaces"]):
                check_range("interfaces[%d].port_group" % index, item.get("port_group"), 0, 3)

    # ---- hooks ------------------------------------------------------------------------------
    def examine(self, record):
        """Before any write: with state absent the floating IPs that go (one listing); for a create, the capacity of the
        flavor (one read: none fails naming the flavor and the region) and the interfaces' parents resolved."""
        params = self.params
        if params["state"] == "absent":
            self.goes = Goes(self.client, params, record)
            return
        if record is not None or params["server_id"] is not None:
            return
        if params["image"] is None and params["apptemplate"] is None:
            raise ValidationError("image: required to create the %s %r (or apptemplate)" % (self.noun, params["name"]))
        if params["state"] == "stopped" and not params["wait"]:
            raise ValidationError("state: stopped creates the server and then stops it once it is ACTIVE, which needs wait=true "
                                  "(nothing was sent)")
        if params["flavor"] is not None and not self.client.get(self.path("capacity")).get("capacity", {}).get(params["flavor"]):
            raise Refused("flavor: no bare metal server of flavor %r is free in %s (the region's capacity for it is 0, or it is "
                          "not a bare metal flavor there); nothing was sent" % (params["flavor"], self.where()))
        self.interfaces = resolve_interfaces(self, "interfaces", params["interfaces"])

    def image_id(self):
        """The one active bare metal image ``image`` names (an ID or an exact name; one listing)."""
        value = self.params["image"]
        found = [image for image in self.client.get(self.path("images")).get("results") or []
                 if image.get(image_key(value)[len("image_"):]) == (value.lower() if is_uuid(value) else value) and image.get("status") == "active"]
        if len(found) != 1:
            raise Refused("image: %s active bare metal images of %s are %s %r%s; give the ID of one (nothing was sent)" % (
                len(found), self.where(), "named" if not is_uuid(value) else "of ID", value,
                " (ids %s)" % ", ".join(image["id"] for image in found) if found else ""))
        return found[0]["id"]

    def create_body(self):
        params = self.params
        body = {"name": params["name"], "flavor": params["flavor"], "interfaces": interfaces_body(self.interfaces)}
        for option, key in (("apptemplate", "apptemplate_id"), ("ssh_key", "ssh_key_name"), ("username", "username"),
                            ("password", "password"), ("tags", "tags")):
            if params[option] is not None:
                body[key] = params[option]
        if params["image"] is not None:
            body["image_id"] = self.image_id()
        if params["user_data"] is not None:
            body["user_data"] = user_data_body(params["user_data"])
        return body

    def create_shown(self):
        shown = instance_created(dict(self.params, volumes=None))
        shown.pop("volumes")
        shown["image"] = self.params["image"] or self.params["apptemplate"]
        return shown

    def rebuild_write(self, record, wanted, params):
        """One rebuild when the image the record's read-only tags name differs (only with ``allow_rebuild``)."""
        key = image_key(wanted)
        current = read_only_tag(record, key)
        if current is None or current == (wanted.lower() if key == "image_id" else wanted):
            return None  # the same, or the server shows no image (made from an application template): create-only
        if not params["allow_rebuild"]:
            raise Refused("image: %s %s has image %r, not %r; the image is set when the server is created: set allow_rebuild: "
                          "true to rebuild it (a rebuild wipes its disk), or delete the server and create it again (nothing "
                          "was sent)" % (self.noun, record.get("id"), current, wanted))
        image_id = self.image_id()
        return Write("action", "POST", self.path("rebuild", record["id"]), {"image_id": image_id}, locked=record,
                     said={"rebuilt": [record.get("name")]}, done=lambda found: read_only_tag(found or {}, "image_id") == image_id)

    def power_write(self, record, wanted, params):
        """The action that brings the server to ``wanted`` (None when it is there, or becoming it after a create)."""
        status = record.get("status")
        if status == wanted or (wanted == "ACTIVE" and status in ("BUILD", "REBUILD")):
            return None
        state = params["state"]
        return Write("action", "POST", self.path("action", record["id"]), {"action": ACTIONS[state]}, locked=record,
                     said={state: [record.get("name")]}, done=lambda found: (found or {}).get("status") == wanted)

    def delete_query(self, record):
        floatings = [item["id"] for item in self.goes.floating_ips if item["goes"]]
        return {"floating_ip_ids": ",".join(floatings)} if floatings else None

    def shown(self, record):
        return dict(super().shown(record), **(self.goes.shown() if self.goes else {}))

    def returned(self, record):
        found = super().returned(record)
        if self.goes is not None and "deleted" not in self.result:
            self.goes.tell(self)
        self.result["addresses"] = address_lists((found or {}).get("addresses"))
        return found


def main():
    BaremetalServer.main()


if __name__ == "__main__":
    main()
