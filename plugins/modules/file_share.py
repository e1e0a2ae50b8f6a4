#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: file_share
short_description: Create, grow, change and delete a Gcore Cloud file share (NFS) and its access rules
version_added: 1.2.0
description:
  - Makes a Gcore Cloud NFS file share match what you describe, or removes it, and does nothing when it already matches
    (a V(standard) share on a network and subnet of yours, or a V(vast) share); found by O(file_share_id), otherwise by
    its exact O(name) over every page of the file share list.
  - Its size is grown with one C(POST .../extend) task (a share never shrinks); its name, tags and VAST settings change
    with the current update path, C(PATCH /cloud/v3/file_shares/{project_id}/{region_id}/{file_share_id}) (a task; the
    deprecated v1 PATCH is never used); a create and a delete are tasks, waited for until the share is V(available) or gone.
  - Its access rules (who may mount it) are kept as the set O(access) declares, keyed by address; the share is returned
    with them and with the export location a client mounts (RV(file_share.connection_point)).
author:
  - gcore.platform developers (@gcore-platform)
options:
  state:
    description:
      - V(present) creates or changes the file share; V(absent) deletes it (its access rules go with it).
    type: str
    choices: [present, absent]
    default: present
  file_share_id:
    description:
      - ID (UUID) of the file share, in any letter case (sent lower-case).
      - When given, the share is found by this ID and O(name) is its desired name (a rename).
      - With O(state=present), an ID that does not exist fails the module (an ID cannot be created); with
        O(state=absent) it is no change.
      - One of O(file_share_id) and O(name) is required.
    type: str
  name:
    description:
      - Name of the file share, 3 to 63 characters matching C(^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$)
        (letters, digits, spaces, C(.), C(_) and C(-); it starts with a letter or digit and ends with a letter,
        digit, C(.) or C(_)).
      - Without O(file_share_id), the share whose name is exactly this one; it is created when there is none. Required to
        create a share.
    type: str
  protocol:
    description:
      - The share's protocol. B(Create-only); a share of another protocol fails the module before any write.
    type: str
    choices: [NFS]
    default: NFS
  size:
    description:
      - Size in GiB, at least V(1). Required to create a share.
      - A larger size than the share's grows it with one C(POST .../extend) task; the share keeps its data.
      - B(A file share never shrinks.) A smaller size fails the module before any request, naming both sizes.
    type: int
  type_name:
    description:
      - V(standard) (on a network and subnet of yours, with access rules) or V(vast) (on the service's own network, with
        O(share_settings) and no access rules). B(Create-only); compared only when given; a new share is V(standard)
        when it is left out.
    type: str
    choices: [standard, vast]
  network:
    description:
      - The network of a V(standard) share, by ID or exact name (resolved over every page of the network list before any
        write; none or several fail naming the option). B(Create-only), compared with the share's network.
      - Required to create a V(standard) share; refused with O(type_name=vast) (the service's VAST create refuses it).
      - In check mode a network not built yet is assumed to be created by an earlier task (a warning says so).
    type: str
  subnet:
    description:
      - The subnet of O(network) the share is on, by ID or exact name within O(network). B(Create-only), compared with the
        share's subnet. When left out, the service picks one of the network's subnets. Only with O(network).
    type: str
  access:
    description:
      - The share's access rules (the NFS clients that may mount it), as the complete set keyed by
        O(access[].ip_address).
      - A listed address the share has no rule for gets one (C(POST .../access_rule)); a rule for an address not listed
        is deleted; a rule whose O(access[].access_mode) differs is deleted, then created again (said as C(replaced) in
        RV(changes)). A new share is created with its rules in the create request.
      - V([]) deletes every rule; leaving the option out keeps the rules as they are.
      - Not with O(type_name=vast), nor on a VAST share (fails before any request).
    type: list
    elements: dict
    suboptions:
      ip_address:
        description:
          - An IPv4 or IPv6 address, or a network in CIDR notation without host bits (V(10.0.0.0/24), not
            V(10.0.0.1/24)); compared in its canonical form. Each address may be listed once.
        type: str
        required: true
      access_mode: {description: [V(ro) (read only) or V(rw) (read and write).], type: str, choices: [ro, rw], required: true}
  share_settings:
    description:
      - The settings of a V(vast) share, as the API takes them; only the settings given are compared and sent (in the
        create request, then with the v3 PATCH). Refused for a V(standard) share.
    type: dict
    suboptions:
      allowed_characters:
        description: V(LCD) (only the characters every VAST protocol allows) or V(NPL) (the client protocol's limit).
        type: str
        choices: [LCD, NPL]
      path_length: {description: "V(LCD) (255 characters per path component) or V(NPL) (the client protocol's limit).", type: str, choices: [LCD, NPL]}
      root_squash: {description: "Whether the clients' root user is mapped to nobody (the service's default is V(true)).", type: bool}
      trash_access:
        description: Whether clients may move files to the hidden C(.vast_trash) folder; V(true) needs O(share_settings.root_squash=false).
        type: bool
notes:
  - O(wait=false) returns once the service accepted a task, with its ID in RV(tasks); growing a share and changing its
    access rules need it V(available), so a run that changes those after another task waits for that task anyway.
  - A share in a failed status (V(error), V(extending_error), ...) fails the module on every run, naming its ID and
    status, and nothing is sent; O(state=absent) still deletes it.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.gcore.WAIT
  - gcore.platform.gcore.TAGS
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.file_share_info
    description: Read file shares with their access rules.
  - module: gcore.platform.network
    description: The network a standard share is on.
"""

EXAMPLES = r"""
- name: A 10 GiB NFS share for the web tier's uploads, mounted read-write by the app subnet
  gcore.platform.file_share:
    project_id: 1
    region_id: 76
    name: uploads
    size: 10
    network: router-net-1
    subnet: router-subnet-1
    access:
      - {ip_address: 192.168.10.0/24, access_mode: rw}
      - {ip_address: 10.0.0.7, access_mode: ro}
    tags: {tier: web}
  register: share

- name: Show where clients mount it
  ansible.builtin.debug:
    msg: "mount -t nfs {{ share.file_share.connection_point }} /mnt/uploads"

- name: Grow it to 20 GiB and let one host read only (a share never shrinks)
  gcore.platform.file_share:
    project_id: 1
    region_id: 76
    name: uploads
    size: 20
    access:
      - {ip_address: 192.168.10.0/24, access_mode: ro}

- name: A VAST share with root squash off
  gcore.platform.file_share:
    project_id: 1
    region_id: 76
    name: scratch
    size: 5
    type_name: vast
    share_settings: {root_squash: false}

- name: Delete the share (its access rules go with it)
  gcore.platform.file_share:
    project_id: 1
    region_id: 76
    name: uploads
    state: absent
"""

RETURN = r"""
file_share:
  description:
    - The file share as the service showed it when last read, with its access rules in RV(file_share.access).
    - V(null) after a delete, when O(state=absent) found no share, in check mode for a share to be created, and with
      O(wait=false) for a share being created.
  returned: success
  type: dict
  contains:
    id: {description: File share ID., type: str, sample: 1f8f136f-fd6b-4ad1-94e9-f262f2e94ec6}
    name: {description: File share name., type: str, sample: uploads}
    protocol: {description: Protocol., type: str, sample: NFS}
    size: {description: Size in GiB., type: int, sample: 20}
    status: {description: "Status, for example V(available), V(creating), V(extending), V(error) or V(extending_error).", type: str, sample: available}
    type_name: {description: "V(standard) or V(vast).", type: str, sample: standard}
    connection_point:
      description: The NFS export a client mounts (V(null) while the share is being created).
      type: str
      sample: "10.254.0.43:/shares/share-1f8f136f-fd6b-4ad1-94e9-f262f2e94ec6"
    network:
      description: The share's network and subnet, C({network_id, network_name, subnet_id, subnet_name}).
      type: dict
      sample: {network_id: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01, network_name: router-net-1,
               subnet_id: 5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01, subnet_name: router-subnet-1}
    share_settings:
      description: The settings of its type (C({type_name}) for a standard share; the VAST settings for a VAST one).
      type: dict
      sample: {type_name: standard}
    access:
      description: The access rules, each C({id, access_to, access_level, state}) (the service's names for the address and
        the mode).
      type: list
      elements: dict
      sample: [{id: f9a13c2c-e618-4a96-99d3-c8cae6dfd946, access_to: 192.168.10.0/24, access_level: rw, state: active}]
    tags: {description: "Tags, each C({key, value, read_only}).", type: list, elements: dict, sample: []}
    task_id: {description: "ID of the task that locks the share, or V(null).", type: str, sample: null}
changes:
  description:
    - What the run changed (in check mode, what it would change). C(created), C(resized) and C(deleted) name the share
      as the task does (its O(name), or its O(file_share_id)); C(updated) names the members the v3 PATCH changed
      (C(name), C(tags), C(share_settings)); the C(access) lists name addresses.
  returned: success
  type: dict
  sample: {created: [], updated: [], resized: [uploads], deleted: [], access: {created: [10.0.0.7], deleted: [], replaced: [192.168.10.0/24]}}
tasks:
  description: IDs of the tasks the module started (create, update, extend, delete), in order.
  returned: success
  type: list
  elements: str
  sample: [6a1d8f3e-0b2c-4d5e-8f90-1a2b3c4d5e6f]
diff:
  description:
    - The managed members before and after, with C(state); C(size) when O(size) is given and C(access) (a list of
      C({ip_address, access_mode})) when O(access) is given.
  returned: success
  type: dict
  sample:
    before: {state: present, name: uploads, size: 10, access: [{ip_address: 192.168.10.0/24, access_mode: rw}]}
    after: {state: present, name: uploads, size: 20, access: [{ip_address: 192.168.10.0/24, access_mode: ro}]}
"""

import ipaddress

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError, check_range, is_uuid, require, strip_none
from ansible_collections.gcore.platform.plugins.module_utils._children import Children
from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudResource
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS
from ansible_collections.gcore.platform.plugins.module_utils._members import Member, create_only
from ansible_collections.gcore.platform.plugins.module_utils._parents import id_or_name, parent_id
from ansible_collections.gcore.platform.plugins.module_utils._volumes import SHARE_TYPES, Extension

KIND = KINDS["file_share"]
# docs/api_reference.md section 19.2: the statuses on the way to available, and the failed ones.
TRANSIENT = ("creating", "creating_from_snapshot", "extending", "shrinking", "deleting", "migrating", "migrating_to", "reverting",
             "ensuring", "manage_starting", "unmanage_starting", "backup_creating", "backup_restoring", "awaiting_transfer",
             "replication_change")
FAILED = ("error", "error_deleting", "extending_error", "shrinking_error", "shrinking_possible_data_loss_error", "reverting_error",
          "backup_restoring_error", "manage_error", "unmanage_error")
LIMITS = ["LCD", "NPL"]  # a VAST share's characters and path lengths: what every protocol allows, or the client protocol's limit
SETTINGS = dict(allowed_characters=dict(type="str", choices=LIMITS), path_length=dict(type="str", choices=LIMITS),
                root_squash=dict(type="bool"), trash_access=dict(type="bool"))
TRASH = "true needs root_squash: false (the service refuses trash access with root squash on)"
CHANGES = {"created": str, "updated": str, "resized": str, "deleted": str, "access": {"created": str, "deleted": str, "replaced": str}}


def canonical_address(option, value):
    """An address or a network (CIDR, no host bits) in its canonical text; anything else fails naming the option."""
    try:
        return str(ipaddress.ip_network(value, strict=True) if "/" in value else ipaddress.ip_address(value))
    except ValueError:
        raise ValidationError("%s: %r is not an IP address or a network in CIDR notation without host bits (for example "
                              "10.0.0.7 or 10.0.0.0/24)" % (option, value))


def status_of(record):
    """The status the readiness wait reads: a failed one shows as ``error: <status>`` (docs/api_reference.md section 19.2)."""
    status = record.get("status")
    return "error: %s" % status if status in FAILED else status


class AccessRules(Children):
    """A share's access rules: children keyed by address, read from a listing of their own and carried by the share's
    create; a mode that differs (or a rule in error) is replaced, delete then create, undeclared rules are deleted; each
    write once the share is ready."""

    locked = in_create = every = listed = True
    order = ("deletes", "updates", "creates")  # a replacement's delete and create together

    def __init__(self):
        rules = KIND.path("/{parent_id}/access_rule")  # under the share's item path
        super().__init__("access", "access rule", {"list": rules, "item": rules + "/{id}"}, (Member("ip_address"), Member("access_mode")),
                         option="access", key="ip_address", create_only=("access_mode",), mode=lambda params: "overridden",
                         body=lambda item: {"ip_address": item["ip_address"], "access_mode": item["access_mode"]},
                         gathered=lambda rule, params: {"ip_address": rule["ip_address"], "access_mode": rule["access_mode"]})

    def check(self, module):
        """Each address made canonical, then given once."""
        for index, item in enumerate(module.params["access"] or []):
            item["ip_address"] = canonical_address("access[%s].ip_address" % index, item["ip_address"])
        super().check(module)

    def child_of(self, record):
        """A rule as compared: its address (canonical) and mode (the service's ``access_to``, ``access_level``), and as read."""
        return {"id": record.get("id"), "ip_address": canonical_address("access_to", record.get("access_to")),
                "access_mode": record.get("access_level"), "rule": record}

    def differ(self, item, record, params):
        """A rule in error is replaced too."""
        changes = super().differ(item, record, params)
        return dict(changes, access_mode=item["access_mode"]) if record["rule"].get("state") == "error" else changes


ACCESS = AccessRules()


# The size: one extend, said as ``resized`` (a smaller size fails before any request, naming both).
RESIZE = Extension(KIND.paths["item"] + "/extend", noun="file share", said=lambda params: {"resized": [params["name"] or params["file_share_id"]]})


class FileShare(CloudResource):
    kind = KIND
    options = dict(
        protocol=dict(type="str", choices=["NFS"], default="NFS"),
        size=dict(type="int"),
        type_name=dict(type="str", choices=SHARE_TYPES),
        network=dict(type="str"),
        subnet=dict(type="str"),
        access=dict(type="list", elements="dict", options=dict(ip_address=dict(type="str", required=True),
                                                               access_mode=dict(type="str", choices=["ro", "rw"], required=True))),
        share_settings=dict(type="dict", options=SETTINGS),
    )
    tagged = True
    tags_said = True
    create_options = ("name", "protocol", "size")  # and what create_body adds
    ready = (status_of, ("available",), TRANSIENT)
    changes = CHANGES

    parts = (RESIZE, ACCESS)  # grown first, then the access rules

    @property
    def required_to_create(self):
        return ("name", "size") + (("network",) if self.params["type_name"] != "vast" else ())

    def label(self):
        """How ``changes`` names the share: as the task does."""
        return self.params["name"] or self.params["file_share_id"]

    @property
    def members(self):
        def updated(member):
            return lambda desired, current: {"updated": [member]} if current is not None else {}
        name = Member("name", said=lambda desired, current: {"created": [self.label()]} if current is None else {"updated": ["name"]})
        settings = Member("share_settings", read=lambda record: dict((key, value) for key, value in (record.get("share_settings") or {}).items()
                                                                     if key in SETTINGS), want=self.settings_wanted,
                          same=lambda desired, current: all(current.get(key) == value for key, value in desired.items()),
                          send=lambda desired, current: dict((key, value) for key, value in desired.items() if current.get(key) != value),
                          said=updated("share_settings"))
        kind = create_only("type_name", lambda record: record.get("type_name"), self.noun)
        kind.created = "standard"
        network, subnet = (create_only(option, self.placed(option), self.noun) for option in ("network", "subnet"))
        protocol = create_only("protocol", lambda record: record.get("protocol"), self.noun)
        return (name, settings, protocol, kind, network, subnet)

    def placed(self, option):
        """How a share shows its network or subnet: as the option gives it, an id or a name (a name is compared with the
        record's, so an existing share needs no listing; a new share's names are resolved in ``examine``)."""
        def read(record):
            held = dict(record, **(record.get("network") or {}))  # the flat members are deprecated (section 19.2)
            return held.get(option + ("_id" if is_uuid(self.params[option]) else "_name"))
        return read

    def settings_wanted(self, value, record):
        given = dict((key, item) for key, item in value.items() if item is not None)
        if record is not None and record.get("type_name") != "vast":
            raise ValidationError("share_settings: file share %s is a %s share, which has no settings (only a VAST share has "
                                  "them); leave share_settings out (nothing was sent)" % (record.get("id"), record.get("type_name")))
        merged = dict((record or {}).get("share_settings") or {"root_squash": True}, **given)
        require(not (merged.get("trash_access") and merged.get("root_squash")), "share_settings.trash_access", TRASH)
        return given

    def validate(self):
        super().validate()
        params = self.params
        check_range("size", params["size"], low=1)
        for option in ("network", "subnet"):
            id_or_name(option, params[option], option)
        require(params["subnet"] is None or params["network"] is not None, "subnet", "only with network (the subnet is one of its subnets)")
        vast = params["type_name"] == "vast"
        for option in ("network", "access"):
            require(not vast or params[option] is None, option, "not with type_name: vast (the service's VAST create refuses it; "
                    "a VAST share is on the service's own network and has no access rules)")
        require(params["share_settings"] is None or params["type_name"] != "standard", "share_settings",
                "only with type_name: vast (a standard share has no settings)")
        settings = params["share_settings"] or {}
        require(not (settings.get("trash_access") and settings.get("root_squash")), "share_settings.trash_access", TRASH)

    def examine(self, record):
        """To create: ``network`` and ``subnet`` (within it) as the ids they name, before any write (one listing each). A VAST
        share has no access rules."""
        params = self.params
        if record is not None and record.get("type_name") == "vast" and ACCESS.wanted(self) is not None:
            raise ValidationError("access: file share %s is a VAST share, which has no access rules (the service's VAST create "
                                  "refuses them); leave access out (nothing was sent)" % record["id"])
        if record is None and params["state"] == "present":
            require(params["share_settings"] is None or params["type_name"] == "vast", "share_settings",
                    "only with type_name: vast (a new share is standard unless type_name says vast; nothing was sent)")
            params["network"] = parent_id(self, "network", params["network"], "network")
            if params["subnet"] is not None:
                params["subnet"] = parent_id(self, "subnet", params["subnet"], "subnet", query={"network_id": params["network"]})

    def create_body(self):
        """One create task: the share with its network (and subnet), its rules, its settings and its tags."""
        params = self.params
        body = dict(super().create_body(), type_name=params["type_name"] or "standard")
        if params["network"] is not None:
            body["network"] = strip_none({"network_id": params["network"], "subnet_id": params["subnet"]})
        if params["access"]:
            body["access"] = [ACCESS.body(item) for item in params["access"]]
        if params["share_settings"]:
            body["share_settings"] = strip_none(params["share_settings"])
        if params["tags"]:
            body["tags"] = params["tags"]
        return body

    def returned(self, record):
        """The share with its access rules (as read once per record)."""
        if self.exists_after(record):
            record["access"] = [child["rule"] for child in self.part_state(ACCESS, record)]
        return super().returned(record)


def main():
    FileShare.main()


if __name__ == "__main__":
    main()
