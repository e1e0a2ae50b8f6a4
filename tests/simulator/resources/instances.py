# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cloud instances (docs/api_reference.md sections 14.4 and 15.7), with the images and flavors their create names
(section 15.10): one store of instances, so that what the ``instance`` module creates is what the
``gcore.platform.cloud`` inventory lists.

- ``GET /cloud/v1/instances/{p}/{r}``: ``{count, results: [InstanceSerializer]}``; ``count`` is the total
  matching. ``limit`` 1-1000 (default 1000) and ``offset`` >= 0, else 422. Filters: ``name`` (a substring),
  ``status`` (``InstanceStatusQuery``, else 422), ``flavor_prefix`` (of the flavor id), ``tag_key_value`` (a
  JSON object sent as one value: every pair must be a tag of the instance; not a JSON object: 422) and
  ``tag_value`` (repeatable: every value must be the value of one of its tags; the spec does not say whether
  several values are "all" or "any": the simulator takes "all"). Other query parameters of the spec are
  accepted and ignored.
- A project the key cannot see (``instances_forbidden_projects``, default ``[3]``) answers 403 with the cloud
  error body, in every region.
- ``POST /cloud/v2/instances/{p}/{r}``: ``CreateInstanceSerializerV2`` checked strictly (unknown members, the
  interface and volume ``oneOf`` variants, the NAME pattern, ``user_data`` must be base64, tags); an unknown flavor
  answers 400, an unknown image or security group 404, and with the networks family (``networks.py``) an unknown
  network, or a subnet not of the interface's network, 404 (an ``any_subnet`` network without a subnet: 400; its
  fixed ``ip_address`` in none of the network's subnets: 400, one already held on the network - another instance's
  port, a reserved IP, a gateway - 409: one address is given to one instance). Answers 200 ``{tasks}``. The instance
  appears at once in ``BUILD``, locked by its ``create_vm`` task; the finished task names it in
  ``created_resources.instances`` (and its volumes and ports). It then boots: a ``boot_instance`` task (not locking
  the record) brings it to ``ACTIVE``; ``instances_boot_held: true`` starts that task held (the instance stays in
  ``BUILD`` until ``release``), ``instances_boot_seconds: N`` makes that task take N seconds (default:
  ``task_delay``), and ``task_fail: {boot_instance: ...}`` ends it in ``ERROR``. A failed ``create_vm`` task leaves
  the instance in ``ERROR``.
- ``GET /cloud/v1/instances/{p}/{r}/{id}``: the record; 404 cloud body. ``PATCH`` same path: ``{name, tags}``
  (tags a JSON merge patch), answered with the record (synchronous).
- ``DELETE`` same path, query ``delete_floatings`` (bool), ``floatings``, ``reserved_fixed_ips``, ``volumes``
  (comma-separated ids; ``delete_floatings`` with ``floatings`` is a 400): a ``delete_vm`` task; the instance goes
  when it finishes. The volumes it deleted are kept in ``sim.deleted_volumes``. With the volume family
  (``volumes.py``), a new instance's volumes are records of its store, attached to the instance (an
  ``existing-volume`` must be there and available, else 404 or 400), and a delete removes the volumes it deletes from
  that store (the others are detached by the volume family).
- ``POST /cloud/v2/instances/{p}/{r}/{id}/action``: ``{action: start|stop|reboot|reboot_hard|suspend|resume}``
  (``activate_profile`` with start); another action is a 400 "Wrong action". ``start`` needs ``SHUTOFF``, ``stop``
  ``ACTIVE`` or ``SHUTOFF``, ``reboot`` ``ACTIVE`` (else 400). A task applies it: ``SHUTOFF`` after stop, ``ACTIVE``
  after start and reboot (``REBOOT`` meanwhile).
- ``POST /cloud/v1/instances/{p}/{r}/{id}/changeflavor`` ``{flavor_id}``: a ``resize_vm`` task; ``RESIZE`` meanwhile,
  then the new flavor and the status it had before.
- ``POST …/{id}/addsecuritygroup`` / ``delsecuritygroup`` ``{name}`` and/or the per-port form
  ``{ports_security_group_names: [{port_id, security_group_names}]}``: 204, synchronous; an unknown group or port is a
  404, adding a group the instance has or removing one it has not a 400 (groups are kept instance-wide).
- ``GET …/{id}/interfaces``: one port per interface (``port_id``, ``network_id``, ``ip_assignments``,
  ``floatingip_details`` ...); ``sim.instance_ports`` (instance id -> interfaces) keeps them. A seeded instance's ports
  are derived from its addresses as the floating IPs family derives them (``floating_ips.derived_interfaces``), and
  ``floatingip_details`` are the floating IPs family's records on the port. An interface created with
  ``floating_ip`` gets a record of that family on its port (``created_resources.floatingips``); a DELETE with
  ``delete_floatings=true`` (or ``floatings``) deletes the instance's floating IPs, otherwise they are unassigned.
- ``GET /cloud/v1/flavors/{p}/{r}``: every flavor. The images an instance boots from are the image family's
  (``images.py``, ``sim.images``), seeded from ``IMAGE_IDS`` here.
- ``servergroup_id`` at create: a server group of the scope (``server_groups.py``; unknown: 404), joined when the
  create task finishes. ``POST …/{id}/put_into_servergroup`` ``{servergroup_id}`` (an instance already in a group: 400)
  and ``…/remove_from_servergroup`` (in none: 400) are tasks locking the instance.
- An interface ``{type: reserved_fixed_ip, port_id}`` takes that reserved fixed IP's port (``reserved_fixed_ips.py``:
  unknown 404, a VIP or one in use 400); a volume ``{source: snapshot}`` needs a known snapshot (404). A delete with
  ``reserved_fixed_ips`` deletes those reserved IPs with the instance.
- A PATCH, DELETE, action, changeflavor or security-group change of a locked instance (``task_id`` set) is a 409.
- Without the security groups family (``security_groups``), a read-only listing
  ``GET /cloud/v1/securitygroups/{p}/{r}`` (exact ``name`` filter, pages of 10) serves the groups seeded here.

Seeded (``SEEDS["instances"]``): nine instances over two projects (1, 2) x two regions (76, 1): fixed and
floating IPv4, public IPv6, a CGNAT (100.64.0.0/10) address, instances with no public address and one with no
address at all, the name ``app`` in two regions, tags (one read-only, one that looks like a template: data, never
run), statuses ACTIVE, SHUTOFF and BUILD. Images (``SEEDS["images"]``): ``ubuntu-22.04`` (one active), ``debian-12``
(two active images of that name), ``centos-7`` (deactivated), ``ubuntu-22.04-old`` (active).

Control ``POST /_sim/instances`` ``{count, pairs?: [[project, region], ...], replace?: true}``: ``count``
generated instances (``host-00001`` ...) spread evenly over the pairs (default: the four seeded pairs), replacing
every instance unless ``replace`` is false. Answers ``{"instances": total, "per_pair": {"p/r": n}}``.

Control ``POST /_sim/instance_address`` ``{instance_id, addr}``: one more fixed IPv4 address on the instance's first
port (its ``ip_assignments`` and the instance's ``addresses``), so that the port can hold two floating IPs. Answers
``{"port_id": ...}``.
"""

from __future__ import annotations

import base64
import binascii
import copy
import importlib.util
import ipaddress
import json
import re
import uuid

from simulator import control
from simulator.core import ApiFailure, Response, Route, int_param, is_uuid, merge_tags, now_iso
from simulator.resources.floating_ips import derived_interfaces
from simulator.resources.production import REGIONS, Collection, family
from simulator.resources.quota import FLAVORS as QUOTA_FLAVORS
from simulator.resources.quota import check_interfaces
from simulator.resources.reserved_fixed_ips import reserved_of
from simulator.resources.routers import PRIVATE_SUBNETS
from simulator.resources.server_groups import groups_of
from simulator.resources.snapshots import snapshot
from simulator.resources.volumes import SNAPSHOTS
from simulator.validation import body_of, check_bool, check_enum, check_int, check_list, check_object, check_str, check_uuid, invalid

CHECK_LIMITS = r"/cloud/v2/instances/(?P<project_id>[^/]+)/(?P<region_id>[^/]+)/check_limits"
GROUPS = r"/cloud/v1/securitygroups/(?P<project_id>[^/]+)/(?P<region_id>[^/]+)"
NAME_PATTERN = re.compile(r"^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$")
TEMPLATE_PATTERN = re.compile(r"^[a-zA-Z0-9{][a-zA-Z 0-9._\-}{]{1,61}[a-zA-Z0-9._}]$")
TAG_KEY = re.compile(r"^[^\s=]+$")
TAG_VALUE = re.compile(r"^[^ \t\n\r\f\v]([^\t\n\r\f\v]*[^ \t\n\r\f\v])?$")
ATTACHMENT_TAG = re.compile(r"^[^,/]{1,60}$")
VOLUME_TYPES = ("cold", "ssd_hiiops", "ssd_local", "ssd_lowlatency", "standard", "ultra")
POWER_ACTIONS = ("start", "stop", "reboot", "reboot_hard", "suspend", "resume")
CREATE_FIELDS = ("flavor", "interfaces", "volumes", "name", "name_template", "ssh_key_name", "password", "username",
                 "user_data", "security_groups", "servergroup_id", "allow_app_ports", "configuration", "tags")
# source -> (required, allowed) members of an instance volume (CreateInstanceVolumeSerializer)
_COMMON = {"source", "attachment_tag", "delete_on_termination", "tags"}
VOLUME_VARIANTS = {
    "new-volume": ({"source", "size"}, _COMMON | {"size", "name", "type_name"}),
    "image": ({"source", "image_id"}, _COMMON | {"image_id", "size", "boot_index", "name", "type_name"}),
    "snapshot": ({"source", "snapshot_id", "size"}, _COMMON | {"snapshot_id", "size", "boot_index", "name", "type_name"}),
    "apptemplate": ({"source", "apptemplate_id"}, _COMMON | {"apptemplate_id", "size", "boot_index", "name", "type_name"}),
    "existing-volume": ({"source", "volume_id"}, _COMMON | {"volume_id", "boot_index"}),
}
# Virtual machine flavors (the quota family's g1 flavors and a few more): name -> (vcpus, ram MiB, disabled)
VM_FLAVORS = dict((name, (spec["vcpus"], spec["ram"], False)) for name, spec in QUOTA_FLAVORS.items() if not name.startswith("bm"))
VM_FLAVORS.update({"g2-standard-2-8": (2, 8192, False), "g2-cpu-4-8": (4, 8192, False), "g0-old-1-1": (1, 1024, True)})
IMAGE_IDS = {
    "ubuntu-22.04": "1a6e0c3e-0000-4000-8000-000000000001",
    "debian-12": ["1a6e0c3e-0000-4000-8000-000000000002", "1a6e0c3e-0000-4000-8000-000000000003"],
    "centos-7": "1a6e0c3e-0000-4000-8000-000000000004",
    "ubuntu-22.04-old": "1a6e0c3e-0000-4000-8000-000000000005",
}
# Security groups served by the fallback listing (the same as the security groups family seeds)
FALLBACK_GROUPS = [("5ec0a11e-0000-4000-8000-000000000001", "legacy-sg"), ("5ec0a11e-0000-4000-8000-000000000002", "shared-sg"),
                   ("5ec0a11e-0000-4000-8000-000000000003", "shared-sg")]
HAS_GROUP_FAMILY = importlib.util.find_spec("simulator.resources.security_groups") is not None
FIXED_NETWORK = "instances-net"
PAIRS = [(1, 76), (1, 1), (2, 76), (2, 1)]
FORBIDDEN_PROJECT = 3
STATUS_QUERY = ("ACTIVE", "BUILD", "ERROR", "HARD_REBOOT", "MIGRATING", "PAUSED", "REBOOT", "REBUILD", "RESIZE",
                "REVERT_RESIZE", "SHELVED", "SHELVED_OFFLOADED", "SHUTOFF", "SOFT_DELETED", "SUSPENDED", "VERIFY_RESIZE")
VM_STATES = {"ACTIVE": "active", "SHUTOFF": "stopped", "BUILD": "building", "ERROR": "error"}
NAMESPACE = uuid.UUID("0b7c6a52-61f4-4c1a-9f0e-5a1d2c3b4e5f")
CREATED_AT = "2026-01-15T09:30:00Z"


def fixed(addr, subnet="private-subnet", interface="eth0"):
    return {"addr": addr, "type": "fixed", "interface_name": interface, "subnet_id": str(uuid.uuid5(NAMESPACE, subnet)),
            "subnet_name": subnet}


def floating(addr):
    return {"addr": addr, "type": "floating"}


# name, project, region, status, flavor, addresses, tags [(key, value, read_only)], security groups
SEEDED = [
    ("web-1", 1, 76, "ACTIVE", "g1-standard-2-4",
     {"private-net": [fixed("10.0.0.5"), floating("203.0.113.10")], "public-v6": [fixed("2a03:90c0:999::5", "v6-subnet", "eth1")]},
     [("env", "prod", False), ("role", "web", False)], ["default", "web"]),
    ("db-1", 1, 76, "ACTIVE", "g1-standard-4-8", {"private-net": [fixed("192.168.10.5")]},
     [("env", "prod", False), ("role", "db", False)], ["default"]),
    ("app", 1, 76, "ACTIVE", "g2-standard-2-8",
     {"external": [fixed("198.51.100.20", "ext-subnet"), fixed("2a03:90c0:999::20", "ext-v6", "eth0")]},
     [("env", "staging", False)], ["default"]),
    ("app", 1, 1, "ACTIVE", "g2-standard-2-8", {"external": [fixed("198.51.100.21", "ext-subnet")]},
     [("env", "staging", False)], ["default"]),
    ("stopped-1", 1, 1, "SHUTOFF", "g1-standard-1-2", {"external": [fixed("198.51.100.30", "ext-subnet")]},
     [("env", "dev", False)], ["default"]),
    ("batch-1", 2, 76, "ACTIVE", "g2-cpu-4-8",
     {"cgnat": [fixed("100.64.0.5", "cgnat-subnet")], "external": [fixed("198.51.100.40", "ext-subnet", "eth1")]},
     [("env", "prod", False), ("gcore-managed", "k8s", True)], ["default", "batch"]),
    ("v6-only", 2, 76, "ACTIVE", "g1-standard-1-2", {"public-v6": [fixed("2a03:90c0:999::60", "v6-subnet")]},
     [], ["default"]),
    ("edge-1", 2, 1, "ACTIVE", "g1-standard-2-4",
     {"private-net": [fixed("172.16.5.10"), floating("203.0.113.70")]},
     [("env", "prod", False), ("role", "edge", False), ("note", "{{ 7 * 6 }}", False)],
     ["default"]),
    ("build-1", 2, 1, "BUILD", "g1-standard-1-2", {}, [("env", "dev", False)], []),
]


def instance_id(name, project_id, region_id, number=0):
    return str(uuid.uuid5(NAMESPACE, "%s/%s/%s/%s" % (name, project_id, region_id, number)))


def instance_record(name, project_id, region_id, status="ACTIVE", flavor="g1-standard-2-4", addresses=None, tags=(),
                    security_groups=("default",), number=0):
    """An instance as ``InstanceSerializer`` has it (every required member)."""
    ident = instance_id(name, project_id, region_id, number)
    vcpus, ram = (flavor.split("-")[2:4] + ["1", "1"])[:2] if flavor.count("-") >= 3 else ("1", "1")
    fixed_ips = [{"external": not entry["addr"].startswith(("10.", "192.168.", "172.16.", "100.64.")),
                  "ip_address": entry["addr"], "subnet_id": entry["subnet_id"]}
                 for entries in (addresses or {}).values() for entry in entries if entry["type"] == "fixed"]
    return {
        "id": ident, "name": name, "created_at": CREATED_AT, "status": status, "vm_state": VM_STATES.get(status, "active"),
        "volumes": [{"id": str(uuid.uuid5(NAMESPACE, ident + "/volume")), "delete_on_termination": True}],
        "flavor": {"flavor_id": flavor, "flavor_name": flavor, "vcpus": int(vcpus), "ram": int(ram) * 1024,
                   "hardware_description": {"vcpus": "%s vCPU" % vcpus, "ram": "%s GiB" % ram}, "os_type": "linux",
                   "architecture": "x86_64"},
        "tags": [{"key": key, "value": value, "read_only": read_only} for key, value, read_only in tags],
        "instance_description": None, "addresses": copy.deepcopy(addresses or {}),
        "security_groups": [{"name": group} for group in security_groups], "ssh_key_name": "deploy",
        "creator_task_id": str(uuid.uuid5(NAMESPACE, ident + "/task")), "task_state": None, "task_id": None,
        "blackhole_ports": [], "ddos_profile": None, "fixed_ip_assignments": fixed_ips, "instance_isolation": None,
        "region": REGIONS.get(region_id, "Region %s" % region_id), "region_id": region_id, "project_id": project_id,
    }


def generated_instance(number, project_id, region_id):
    """The ``number``-th generated instance: a private address and, for most, a floating one; tags env and tier."""
    addresses = {"private-net": [fixed("10.%d.%d.%d" % (number // 65536 % 256, number // 256 % 256, number % 256))]}
    if number % 10:
        addresses["private-net"].append(floating("203.0.%d.%d" % (number // 256 % 256, number % 256)))
    tags = [("env", ("prod", "staging", "dev")[number % 3], False), ("tier", "t%d" % (number % 4), False)]
    return instance_record("host-%05d" % number, project_id, region_id, status="SHUTOFF" if number % 50 == 0 else "ACTIVE",
                           addresses=addresses, tags=tags, number=number)


def pair_list(name, value):
    control.listing(control.listing(control.integer(low=1)))(name, value)
    for index, pair in enumerate(value):
        if len(pair) != 2:
            raise control.ControlError("%s[%s] must be [project_id, region_id], not %r" % (name, index, pair))
    return value


def image_record(image_id, name, status="active", project_id=1, region_id=76):
    """An image as ``GET /cloud/v1/images`` has it (every required member; its tags as ``tags``, the published name,
    and ``tags_v2``, the name the service uses since, docs/api_reference.md section 17)."""
    return {
        "id": image_id, "name": name, "status": status, "visibility": "public", "min_disk": 2, "min_ram": 0,
        "os_distro": name.split("-")[0], "os_version": name.split("-")[1] if "-" in name else "", "os_type": "linux",
        "architecture": "x86_64", "disk_format": "qcow2", "size": 2361393152, "ssh_key": "allow", "hw_firmware_type": "bios",
        "hw_machine_type": "q35", "is_baremetal": False, "description": None, "display_order": None, "gpu_driver": None,
        "gpu_driver_version": None, "gpu_driver_type": None, "tags": [], "tags_v2": [], "created_at": CREATED_AT, "updated_at": CREATED_AT,
        "creator_task_id": None, "task_id": None, "project_id": project_id, "region_id": region_id,
        "region": REGIONS.get(region_id, "Region %s" % region_id),
    }


def seeded_images():
    images = []
    for name, ids in IMAGE_IDS.items():
        for image_id in ids if isinstance(ids, list) else [ids]:
            images.append(image_record(image_id, name, "deactivated" if name == "centos-7" else "active"))
    return images


def flavor_record(name):
    vcpus, ram, disabled = VM_FLAVORS[name]
    return {"flavor_id": name, "flavor_name": name, "vcpus": vcpus, "ram": ram, "disabled": disabled,
            "hardware_description": {"vcpus": "%s vCPU" % vcpus, "ram": "%s GiB" % (ram // 1024)}, "os_type": "linux",
            "architecture": "x86_64"}


def record_flavor(name):
    """The ``flavor`` member of an instance record."""
    flavor = flavor_record(name)
    flavor.pop("disabled")
    return flavor


def check_tags(loc, tags, patch=False):
    """``CreateTagsSerializer``, or (``patch``) ``UpdateTagsSerializer``: null for all, a null value removes a key."""
    if tags is None and patch:
        return
    if not isinstance(tags, dict):
        invalid(loc, "a JSON object is required")
    for key, value in tags.items():
        if not 1 <= len(key) <= 255 or not TAG_KEY.match(key):
            invalid("%s.%s" % (loc, key), "the key must be 1 to 255 characters without whitespace or '='")
        if value is None and patch:
            continue
        if not isinstance(value, str) or not 1 <= len(value) <= 255 or not TAG_VALUE.match(value):
            invalid("%s.%s" % (loc, key), "the value must be a string of 1 to 255 characters without tabs or line breaks")


def check_volumes(volumes):
    check_list("volumes", volumes)
    if not volumes:
        invalid("volumes", "ensure this value has at least 1 items")
    for index, volume in enumerate(volumes):
        loc = "volumes.%d" % index
        if not isinstance(volume, dict):
            invalid(loc, "a JSON object is required")
        source = volume.get("source")
        if source not in VOLUME_VARIANTS:
            invalid(loc + ".source", "no match for discriminator 'source' (allowed: %s)" % ", ".join(VOLUME_VARIANTS))
        required, allowed = VOLUME_VARIANTS[source]
        check_object(loc, volume, required, allowed)
        for key in ("image_id", "snapshot_id", "volume_id"):
            if key in volume:
                check_uuid("%s.%s" % (loc, key), volume[key])
        if "apptemplate_id" in volume:
            check_str(loc + ".apptemplate_id", volume["apptemplate_id"])
        if "size" in volume:
            check_int(loc + ".size", volume["size"], low=1)
        if "boot_index" in volume:
            check_int(loc + ".boot_index", volume["boot_index"])
        if "name" in volume and (not isinstance(volume["name"], str) or not NAME_PATTERN.match(volume["name"])):
            invalid(loc + ".name", "string does not match pattern %s" % NAME_PATTERN.pattern)
        if "type_name" in volume:
            check_enum(loc + ".type_name", volume["type_name"], ("ssd_hiiops", "standard") if source == "snapshot" else VOLUME_TYPES)
        if "attachment_tag" in volume and (not isinstance(volume["attachment_tag"], str) or not ATTACHMENT_TAG.match(volume["attachment_tag"])):
            invalid(loc + ".attachment_tag", "string does not match pattern %s" % ATTACHMENT_TAG.pattern)
        if "delete_on_termination" in volume:
            check_bool(loc + ".delete_on_termination", volume["delete_on_termination"])
        if "tags" in volume:
            check_tags(loc + ".tags", volume["tags"])
    return volumes


def check_name(loc, value, pattern=NAME_PATTERN):
    if not isinstance(value, str) or not pattern.match(value):
        invalid(loc, "string does not match pattern %s" % pattern.pattern)


class Instances(Collection):
    NAME, NOUN, COLLECTION, ID_CHECK = "instances", "Instance", "instances", None
    VERSIONS = {"create": "v2"}
    ACTIONS = (("POST", "/{id}/action", "action", "v2"), ("POST", "/{id}/changeflavor", "change_flavor"),
               ("POST", "/{id}/addsecuritygroup", "add_group"), ("POST", "/{id}/delsecuritygroup", "remove_group"),
               ("GET", "/{id}/interfaces", "interfaces"), ("POST", "/{id}/put_into_servergroup", "put_into_group"),
               ("POST", "/{id}/remove_from_servergroup", "remove_from_group"), ("GET", "", "list_flavors", "v1", "flavors"))
    TASK_TYPES = ("create_vm", "boot_instance", "delete_vm", "resize_vm", "put_into_servergroup", "remove_from_servergroup") + tuple(
        "%s_vm" % action for action in POWER_ACTIONS)
    SETTINGS = {
        "instances_forbidden_projects": ([FORBIDDEN_PROJECT], control.listing(control.integer(low=1))),
        "instances_boot_held": (False, control.boolean),
        "instances_boot_seconds": (None, control.optional(control.number(high=3600))),
    }
    SEEDS = {
        "pairs": [list(pair) for pair in PAIRS],
        "forbidden_project": FORBIDDEN_PROJECT,
        "regions": dict((str(key), value) for key, value in REGIONS.items()),
        "instances": dict(("%s/%s/%s" % (name, project_id, region_id), instance_id(name, project_id, region_id))
                          for name, project_id, region_id, *_rest in SEEDED),
        "images": IMAGE_IDS,
        "flavors": sorted(VM_FLAVORS),
    }
    CONTROLS = {"instances": "seed_instances", "instance_address": "add_address"}
    ROUTES = (Route("POST", CHECK_LIMITS, "check_limits", read_only=True),) + (
        () if HAS_GROUP_FAMILY else (Route("GET", GROUPS, "list_groups"),))

    def reset(self):
        self.sim.instances = [instance_record(name, project_id, region_id, status, flavor, addresses, tags, groups)
                              for name, project_id, region_id, status, flavor, addresses, tags, groups in SEEDED]
        self.sim.instance_ports = {}
        self.sim.deleted_volumes = []
        self.booting = {}  # instance id -> its boot task id (None: to be started)
        self.restore = {}  # task id -> the members its instance had before it (put back when the task fails)
        self.ports = 0
        self.by_pair = None

    def pairs(self):
        """The instances by (project, region), in the service's order (built once after each change)."""
        if self.by_pair is None:
            self.by_pair = {}
            for record in self.sim.instances:
                self.by_pair.setdefault((record["project_id"], record["region_id"]), []).append(record)
        return self.by_pair

    def seed_instances(self, body):
        control.record({"count": control.integer(low=0), "pairs": pair_list, "replace": control.boolean},
                       required=("count",))("instances", body)
        if body.get("pairs") == []:
            raise control.ControlError("instances.pairs must not be empty (leave it out for the four seeded pairs)")
        pairs = [tuple(pair) for pair in body.get("pairs") or PAIRS]
        if body.get("replace", True):
            self.sim.instances = []
        per_pair = {}
        for number in range(1, body["count"] + 1):
            project_id, region_id = pairs[(number - 1) * len(pairs) // body["count"]]
            self.sim.instances.append(generated_instance(number, project_id, region_id))
            key = "%s/%s" % (project_id, region_id)
            per_pair[key] = per_pair.get(key, 0) + 1
        self.by_pair = None
        return {"instances": len(self.sim.instances), "per_pair": per_pair}

    def add_address(self, body):
        """Control ``instance_address``: one more fixed IPv4 address on the instance's first port (the module docstring)."""
        control.record({"instance_id": control.text, "addr": control.text}, required=("instance_id", "addr"))("instance_address", body)
        record = self.find(body["instance_id"])
        if record is None:
            raise control.ControlError("instance_id: no instance %s" % body["instance_id"])
        try:
            ipaddress.IPv4Address(body["addr"])
        except ValueError:
            raise control.ControlError("addr: %r is not an IPv4 address" % body["addr"]) from None
        ports = self.ports_of(record)
        if not ports:
            raise control.ControlError("instance_id: instance %s has no interface" % body["instance_id"])
        port = ports[0]
        subnet_id = (port["ip_assignments"] or [{}])[0].get("subnet_id")
        port["ip_assignments"].append({"ip_address": body["addr"], "subnet_id": subnet_id})
        record["addresses"].setdefault(port["network_details"]["name"], []).append(
            {"addr": body["addr"], "type": "fixed", "interface_name": port.get("interface_name") or "eth0", "subnet_id": subnet_id})
        return {"port_id": port["port_id"]}

    # ---- scope, lookup, locks -----------------------------------------------------------------
    def scope(self, request):
        project_id = int_param(request.params["project_id"], "project_id")
        region_id = int_param(request.params["region_id"], "region_id")
        if project_id in self.sim.config["instances_forbidden_projects"]:
            raise ApiFailure(403, "You do not have permission to access project %s" % project_id)
        return project_id, region_id

    def sync(self):
        """Start the boot of every instance whose create task finished; judge the boots that ended; unlock an
        instance whose task failed (as it was before it; one whose create failed is in ERROR)."""
        for record in self.sim.instances:
            task = self.sim.tasks.get(record.get("task_id")) if record.get("task_id") else None
            if task is not None and task["done"] and task["record"]["state"] == "ERROR":
                record.update(self.restore.pop(record["task_id"], {}), task_id=None)
                if task["record"]["id"] == record.get("creator_task_id"):
                    record.update(status="ERROR", vm_state="error", task_state=None)
        for ident, task_id in list(self.booting.items()):
            record = self.find(ident)
            if record is None:
                del self.booting[ident]
                continue
            if task_id is None:
                def boot(record=record):
                    record.update(status="ACTIVE", vm_state="active", task_state=None)
                task_id = self.booting[ident] = self.sim.start_task("boot_instance", apply=boot, project_id=record["project_id"],
                                                                    region_id=record["region_id"])
                if self.sim.config["instances_boot_held"]:
                    self.sim.tasks[task_id]["held"] = True
                if self.sim.config["instances_boot_seconds"] is not None:
                    self.sim.tasks[task_id]["delay"] = self.sim.config["instances_boot_seconds"]
                self.sim.advance()  # a boot with no delay is over at once
            task = self.sim.tasks[task_id]
            if task["done"]:
                del self.booting[ident]
                if task["record"]["state"] == "ERROR":
                    record.update(status="ERROR", vm_state="error", task_state=None)

    def find(self, ident):
        return next((record for record in self.sim.instances if record["id"] == ident), None)

    def one(self, request, unlocked=False):
        """The instance of the scope (403 for a forbidden project; 404), ``unlocked``: 409 while a task holds it."""
        project_id, region_id = self.scope(request)
        self.sync()
        record = self.find(request.params["instance_id"])
        if record is None or record["project_id"] != project_id or record["region_id"] != region_id:
            raise ApiFailure(404, "Instance %s not found" % request.params["instance_id"])
        return self.unlocked(record) if unlocked else record

    def group_names(self, project_id, region_id):
        """Security groups of the scope, ``[(id, name)]``: the security groups family's, else the fallback seeds."""
        groups = getattr(self.sim, "security_groups", None)
        if isinstance(groups, dict):
            return [(ident, group["name"]) for ident, group in groups.items()
                    if group.get("project_id", project_id) == project_id and group.get("region_id", region_id) == region_id]
        return list(FALLBACK_GROUPS) if (project_id, region_id) == (1, 76) else []

    # ---- reads --------------------------------------------------------------------------------
    def listing(self, request):
        project_id, region_id = self.scope(request)
        self.sync()
        limit = int_param(request.arg("limit", "1000"), "limit", low=1, high=1000)
        offset = int_param(request.arg("offset", "0"), "offset", low=0)
        matches = self.pairs().get((project_id, region_id), [])
        if request.arg("include_baremetal", "false").lower() != "true":  # bare metal servers (baremetal.py) only when asked
            matches = [record for record in matches if record["id"] not in (getattr(self.sim, "baremetal_ids", None) or {})]
        tests = self.filters(request)
        if tests:
            matches = [record for record in matches if all(test(record) for test in tests)]
        return {"count": len(matches), "results": copy.deepcopy(matches[offset:offset + limit])}

    def list_flavors(self, request):
        self.scope(request)
        flavors = [flavor_record(name) for name in sorted(VM_FLAVORS)]
        if request.arg("disabled", "true").lower() == "false":
            flavors = [flavor for flavor in flavors if not flavor["disabled"]]
        return {"count": len(flavors), "results": flavors}

    def list_groups(self, request):
        project_id, region_id = self.scope(request)
        limit = int_param(request.arg("limit", "10"), "limit", low=1, high=1000)
        offset = int_param(request.arg("offset", "0"), "offset", low=0)
        name = request.arg("name")
        matches = [{"id": ident, "name": group, "description": None, "security_group_rules": [], "tags_v2": [],
                    "project_id": project_id, "region_id": region_id, "region": REGIONS.get(region_id), "revision_number": 1,
                    "created_at": CREATED_AT, "updated_at": CREATED_AT, "task_id": None}
                   for ident, group in self.group_names(project_id, region_id) if name is None or group == name]
        return {"count": len(matches), "results": matches[offset:offset + limit]}

    def interfaces(self, request):
        record = self.one(request)
        ports = copy.deepcopy(self.ports_of(record))
        floating = getattr(self.sim, "floating_ips", None)
        for port in ports:
            if isinstance(floating, dict):  # the floating IPs family's records on this port
                port["floatingip_details"] = [copy.deepcopy(item) for item in floating.values() if item.get("port_id") == port["port_id"]]
            port["network_details"] = self.network_details(port["network_details"], record)
        return {"count": len(ports), "results": ports}

    def network_details(self, short, record):
        """A port's ``network_details`` with every member of the network record: the networks family's record (its
        subnets in full) when it holds the network; else (the modelled external network, a seeded instance's derived
        one) a record built from the port's ``{id, name}``."""
        network = (getattr(self.sim, "networks", None) or {}).get(short["id"])
        if network is not None:
            networks = family(self.sim, "networks")
            return dict(copy.deepcopy(network), subnets=[networks.subnet_view(self.sim.subnets[ident])
                                                         for ident in network["subnets"] if ident in self.sim.subnets])
        external = short.get("external", short["name"] == "external")
        return {"id": short["id"], "name": short["name"], "external": external, "shared": external, "default": False,
                "type": "vlan" if external else "vxlan", "mtu": 1500 if external else 1450, "segmentation_id": None,
                "port_security_enabled": True, "subnets": [], "tags": [], "project_id": record["project_id"],
                "region_id": record["region_id"], "region": REGIONS.get(record["region_id"], "Region %s" % record["region_id"]),
                "created_at": CREATED_AT, "updated_at": CREATED_AT, "creator_task_id": None, "task_id": None}

    def ports_of(self, record):
        """The instance's interfaces (one port each); those of a seeded instance are derived from its addresses, as the
        floating IPs family derives them (one port per interface name, stable ids)."""
        if record["id"] not in self.sim.instance_ports:
            self.sim.instance_ports[record["id"]] = derived_interfaces(record)
        return self.sim.instance_ports[record["id"]]

    def volume_family(self):
        """The volumes resource, when the simulator has it."""
        return family(self.sim, "volumes")

    def volumes_for(self, body, name, project_id, region_id):
        """The new instance's ``volumes`` (``[{id, delete_on_termination}]``). With the volume family, every volume but an
        ``existing-volume`` is one of its records (made ready by ``attach_volumes``); an existing volume must be there."""
        family = self.volume_family()
        found = []
        for index, volume in enumerate(body["volumes"]):
            ident = volume.get("volume_id")
            if ident is not None and family is not None:
                existing = self.sim.volumes.get(ident)
                if existing is None or existing["project_id"] != project_id or existing["region_id"] != region_id:
                    raise ApiFailure(404, "Volume %s not found" % ident)
                if existing["attachments"] or existing["status"] != "available":
                    raise ApiFailure(400, "Volume %s is %s, not available" % (ident, existing["status"]))
            found.append({"id": ident or str(uuid.uuid4()), "delete_on_termination": volume.get("delete_on_termination", False)})
        return found

    def attach_volumes(self, record, volumes):
        """With the volume family: the new instance's volumes in its store, attached to the instance."""
        family = self.volume_family()
        if family is None:
            return
        held = record["volumes"]
        record["volumes"] = []
        for index, (volume, item) in enumerate(zip(volumes, held)):
            if volume["source"] == "existing-volume":
                family.attach_to(self.sim.volumes[volume["volume_id"]], record)
                continue
            ident = family.add_volume(volume.get("name") or "%s-volume-%d" % (record["name"], index), volume.get("size") or 10,
                                      record["project_id"], record["region_id"], volume.get("type_name") or "standard",
                                      image_id=volume.get("image_id"), root=index == 0, tags=volume.get("tags"))
            self.sim.volumes[ident]["id"] = item["id"]
            self.sim.volumes[item["id"]] = self.sim.volumes.pop(ident)
            family.attach_to(self.sim.volumes[item["id"]], record)
        record["volumes"] = held

    def floating_family(self):
        """The floating IPs resource, when the simulator has it."""
        return family(self.sim, "floating_ips")

    def floating_for(self, port, item, project_id, region_id):
        """The floating IP an interface asks for at create: a new one, or an existing one moved to its port. With the
        floating IPs family it is one of its records (``sim.floating_ips``); returns ``(id, address)``."""
        fixed = next((assignment["ip_address"] for assignment in port["ip_assignments"]
                      if ipaddress.ip_address(assignment["ip_address"]).version == 4), None)
        family = self.floating_family()
        wanted = item["floating_ip"]
        if family is None:
            return str(uuid.uuid4()), "203.0.113.%d" % (100 + self.ports % 150)
        family.sync()
        if wanted["source"] == "existing":
            record = self.sim.floating_ips.get(wanted["existing_floating_id"])
            if record is None or record["project_id"] != project_id or record["region_id"] != region_id:
                raise ApiFailure(404, "Floating IP %s not found" % wanted["existing_floating_id"])
        else:
            record = family.new_record(str(uuid.uuid4()), family.new_address(), project_id, region_id)
            self.sim.floating_ips[record["id"]] = record
        record.update(port_id=port["port_id"], fixed_ip_address=fixed, status="ACTIVE", updated_at=now_iso())
        return record["id"], record["floating_ip_address"]

    def new_port(self, network_id, network_name, assignments, interface_name=None):
        self.ports += 1
        return {"port_id": str(uuid.uuid4()), "network_id": network_id, "interface_name": interface_name,
                "ip_assignments": [{"ip_address": address, "subnet_id": subnet_id} for address, subnet_id in assignments],
                "mac_address": "fa:16:3e:%02x:%02x:%02x" % (self.ports >> 16 & 255, self.ports >> 8 & 255, self.ports & 255),
                "port_security_enabled": True, "floatingip_details": [], "allowed_address_pairs": [], "sub_ports": [],
                "network_details": {"id": network_id, "name": network_name, "external": network_name == "external"}}

    # ---- create -------------------------------------------------------------------------------
    def check_create(self, body, project_id, region_id):
        check_object("", body, ("flavor", "interfaces", "volumes"), CREATE_FIELDS)
        check_str("flavor", body["flavor"])
        interfaces = check_interfaces(body["interfaces"])
        if not interfaces:
            invalid("interfaces", "ensure this value has at least 1 items")
        check_volumes(body["volumes"])
        if "name" in body:
            check_name("name", body["name"])
        if "name_template" in body:
            check_name("name_template", body["name_template"], TEMPLATE_PATTERN)
        for key in ("ssh_key_name", "password", "username"):
            if key in body:
                check_str(key, body[key], nullable=key == "ssh_key_name")
        if "user_data" in body:
            check_str("user_data", body["user_data"])
            try:
                base64.b64decode(body["user_data"], validate=True)
            except (binascii.Error, ValueError):
                invalid("user_data", "user_data must be base64-encoded")
        if "servergroup_id" in body:
            check_uuid("servergroup_id", body["servergroup_id"])
            groups_of(self.sim).group(body["servergroup_id"], project_id, region_id)  # 404 for an unknown group
        if "allow_app_ports" in body:
            check_bool("allow_app_ports", body["allow_app_ports"])
        if "tags" in body:
            check_tags("tags", body["tags"])
        groups = dict(self.group_names(project_id, region_id))
        for index, group in enumerate(check_list("security_groups", body.get("security_groups", []))):
            check_object("security_groups.%d" % index, group, ("id",), ("id",))
            check_uuid("security_groups.%d.id" % index, group["id"])
        for group in list(body.get("security_groups", [])) + [group for item in interfaces for group in item.get("security_groups", [])]:
            if group["id"] not in groups:
                raise ApiFailure(404, "Security group %s not found" % group["id"])
        if body["flavor"] not in VM_FLAVORS or VM_FLAVORS[body["flavor"]][2]:
            raise ApiFailure(400, "Flavor %s is not available in region %s" % (body["flavor"], region_id))
        active = set(image["id"] for image in self.sim.images if image["status"] == "active" and (
            image.get("visibility") != "private" or (image["project_id"], image["region_id"]) == (project_id, region_id)))
        for index, volume in enumerate(body["volumes"]):
            if volume["source"] == "image" and volume["image_id"] not in active:
                raise ApiFailure(404, "Image %s not found" % volume["image_id"])
            if volume["source"] == "snapshot" and volume["snapshot_id"] not in SNAPSHOTS:
                found = snapshot(self.sim, volume["snapshot_id"])
                if found is None or (found["project_id"], found["region_id"]) != (project_id, region_id):
                    raise ApiFailure(404, "Snapshot %s not found" % volume["snapshot_id"])
        if "name" not in body and "name_template" not in body:
            invalid("name", "either name or name_template must be specified")
        return groups

    def create(self, request):
        project_id, region_id = self.scope(request)
        self.sync()
        body = body_of(request)
        groups = self.check_create(body, project_id, region_id)
        ident = str(uuid.uuid4())
        name = body.get("name") or body["name_template"].replace("{ip_octets}", "0-0-10").replace(
            "{two_ip_octets}", "0-10").replace("{one_ip_octet}", "10")
        addresses, ports, floatings = {}, [], []
        for index, item in enumerate(body["interfaces"]):
            port = self.interface_port(ident, index, item, project_id, region_id)
            ports.append(port)
            network = port["network_details"]["name"]
            for assignment in port["ip_assignments"]:
                addresses.setdefault(network, []).append(
                    {"addr": assignment["ip_address"], "type": "fixed", "interface_name": item.get("interface_name"),
                     "subnet_id": assignment["subnet_id"], "subnet_name": self.subnet_name(assignment["subnet_id"], network)})
            if item.get("floating_ip"):
                floating_id, address = self.floating_for(port, item, project_id, region_id)
                floatings.append(floating_id)
                port["floatingip_details"].append({"id": floating_id, "floating_ip_address": address,
                                                   "fixed_ip_address": port["ip_assignments"][0]["ip_address"]})
                addresses[network].append({"addr": address, "type": "floating"})
        wanted_groups = [groups[group["id"]] for group in body.get("security_groups", [])] or ["default"]
        volumes = self.volumes_for(body, name, project_id, region_id)
        record = instance_record(name, project_id, region_id, status="BUILD", flavor=body["flavor"], addresses=addresses,
                                 tags=[(key, value, False) for key, value in (body.get("tags") or {}).items()],
                                 security_groups=dict.fromkeys(wanted_groups))
        record.update(id=ident, volumes=volumes, ssh_key_name=body.get("ssh_key_name"), created_at=now_iso(), task_state="spawning")
        record["fixed_ip_assignments"] = [{"subnet_id": assignment["subnet_id"], "ip_address": assignment["ip_address"],
                                           "external": port["network_details"]["external"]}
                                          for port in ports for assignment in port["ip_assignments"]]

        def apply():
            if self.find(ident) is None:
                return None
            record["task_id"] = None
            self.booting[ident] = None  # boots from the next request on (see sync)
            if "servergroup_id" in body:
                groups_of(self.sim).join(body["servergroup_id"], record)
            created = {"instances": [ident], "volumes": [volume["id"] for volume in volumes], "ports": [port["port_id"] for port in ports]}
            if floatings:
                created["floatingips"] = floatings
            return created

        task_id = self.sim.start_task("create_vm", apply=apply, project_id=project_id, region_id=region_id,
                                      data=dict(body, password="***") if "password" in body else body)
        record.update(task_id=task_id, creator_task_id=task_id)
        if self.sim.tasks[task_id]["error"]:
            record.update(status="ERROR", vm_state="error", task_id=None)
        self.sim.instances.append(record)
        for item in body["interfaces"]:
            if item["type"] == "reserved_fixed_ip":
                reserved_of(self.sim).attach(item["port_id"], ident, "instance")
        self.attach_volumes(record, body["volumes"])
        self.sim.instance_ports[ident] = ports
        self.by_pair = None
        return {"tasks": [task_id]}

    def subnet_name(self, subnet_id, network):
        """The name of the subnet an address is in: the subnet's own (the networks family's store); the modelled
        external and reserved subnets, outside that store, are named after their network."""
        subnet = (getattr(self.sim, "subnets", None) or {}).get(subnet_id)
        return subnet["name"] if subnet else "%s-subnet" % network

    def interface_port(self, ident, index, item, project_id=1, region_id=76):
        """The port an interface of a new instance gets: an address of its subnet (or of the external network)."""
        kind = item["type"]
        host = 10 + sum(len(ports) for ports in self.sim.instance_ports.values()) + index
        if kind == "external":
            external = str(uuid.uuid5(NAMESPACE, "external"))
            return self.new_port(external, "external", [(self.free_host(external, lambda number: "198.51.100.%d" % (number % 250 + 2), host),
                                                         str(uuid.uuid5(NAMESPACE, "ext-subnet")))], item.get("interface_name"))
        if kind == "reserved_fixed_ip":  # the reserved IP's own port (404 unknown, 400 a VIP or in use)
            reserved = reserved_of(self.sim).port_for(item["port_id"], project_id, region_id)
            address = reserved["fixed_ip_address"] or reserved["fixed_ipv6_address"]
            port = self.new_port(reserved["network_id"], reserved["network"]["name"],
                                 [(address, reserved["subnet_id"] or reserved["subnet_v6_id"])], item.get("interface_name"))
            port["network_details"]["external"] = reserved["is_external"]
            return dict(port, port_id=item["port_id"])
        subnet_id, name, cidr = item.get("subnet_id"), "net-%s" % item["network_id"][:8], None
        networks, subnets = getattr(self.sim, "networks", None), getattr(self.sim, "subnets", None)
        if isinstance(networks, dict) and isinstance(subnets, dict):  # the networks family: they must be there
            network = networks.get(item["network_id"])
            if network is None or (network.get("project_id"), network.get("region_id")) != (project_id, region_id):
                raise ApiFailure(404, "Network %s not found" % item["network_id"])
            held = [subnets[ident] for ident in network.get("subnets") or [] if ident in subnets]
            if kind == "subnet" and subnet_id not in [subnet["id"] for subnet in held]:
                raise ApiFailure(404, "Subnet %s not found in network %s" % (subnet_id, item["network_id"]))
            if kind == "any_subnet":
                if not held:
                    raise ApiFailure(400, "Network %s has no subnet" % item["network_id"])
                subnet_id = held[0]["id"]
                if item.get("ip_address"):  # a fixed address: in one of the subnets, held by no other port of the network
                    subnet_id = self.fixed_address_subnet(item["ip_address"], item["network_id"], held)
            name, cidr = network["name"], subnets[subnet_id]["cidr"]
        elif subnet_id in PRIVATE_SUBNETS:
            cidr = PRIVATE_SUBNETS[subnet_id]["cidr"]
        network = ipaddress.ip_network(cidr or "10.%d.0.0/24" % (int(uuid.UUID(item["network_id"])) % 200))
        address = item.get("ip_address") or self.free_host(item["network_id"], lambda number: str(network.network_address + 100 + number % 100), host)
        return self.new_port(item["network_id"], name, [(address, subnet_id or str(uuid.uuid5(NAMESPACE, item["network_id"])))],
                             item.get("interface_name"))

    def free_host(self, network_id, address_of, host):
        """``address_of(host)``, or of the next host number whose address no port of the network holds (an address
        freed by a deleted instance is given again, never one in use)."""
        taken = set(assignment["ip_address"] for ports in self.sim.instance_ports.values() for port in ports
                    if port["network_id"] == network_id for assignment in port["ip_assignments"])
        for number in range(host, host + 250):
            if address_of(number) not in taken:
                return address_of(number)
        raise ApiFailure(409, "No more IP addresses available on network %s" % network_id)

    def fixed_address_subnet(self, address, network_id, subnets):
        """The subnet holding a fixed ``address`` of a new instance's interface: 400 in none, 409 taken (one address is one
        port's: another instance's, a reserved IP's, a gateway)."""
        found = next((subnet for subnet in subnets if ipaddress.ip_address(address) in ipaddress.ip_network(subnet["cidr"])), None)
        if found is None:
            raise ApiFailure(400, "IP address %s is not a valid IP for the specified network %s: it is in none of its subnets"
                             % (address, network_id))
        if address in reserved_of(self.sim).taken(network_id):
            raise ApiFailure(409, "IP address %s already allocated in network %s" % (address, network_id))
        return found["id"]

    # ---- changes ------------------------------------------------------------------------------
    def update(self, request):
        record = self.one(request, unlocked=True)
        body = body_of(request)
        check_object("", body, (), ("name", "tags"))
        if "name" in body:
            check_name("name", body["name"])
        if "tags" in body:
            check_tags("tags", body["tags"], patch=True)
        if "name" in body:
            record["name"] = body["name"]
        if "tags" in body:
            merge_tags(record, body["tags"])
        return copy.deepcopy(record)

    def delete(self, request):
        record = self.one(request, unlocked=True)
        flag = request.arg("delete_floatings")
        if flag is not None and flag not in ("true", "false"):
            invalid("delete_floatings", "value could not be parsed to a boolean")
        if flag == "true" and request.arg("floatings"):
            raise ApiFailure(400, "delete_floatings and floatings cannot be given together")
        volumes = [item for item in (request.arg("volumes") or "").split(",") if item]
        for volume in volumes:
            if not is_uuid(volume):
                invalid("volumes", "%s is not a valid uuid" % volume)

        listed = [item for item in (request.arg("floatings") or "").split(",") if item]
        reserved = [item for item in (request.arg("reserved_fixed_ips") or "").split(",") if item]

        def apply():
            ports = [port["port_id"] for port in self.ports_of(record)]
            floating = getattr(self.sim, "floating_ips", None)
            for ident, item in list((floating or {}).items()):  # its floating IPs: deleted when asked, else unassigned
                if ident in listed or (flag == "true" and item.get("port_id") in ports):
                    del floating[ident]
                elif item.get("port_id") in ports:
                    item.update(port_id=None, fixed_ip_address=None, status="DOWN", updated_at=now_iso())
            self.sim.instances[:] = [item for item in self.sim.instances if item["id"] != record["id"]]
            self.sim.instance_ports.pop(record["id"], None)
            reserved_of(self.sim).remove(reserved)
            gone = volumes + [volume["id"] for volume in record["volumes"] if volume["delete_on_termination"]]
            self.sim.deleted_volumes.extend(gone)
            family = self.volume_family()
            if family is not None:
                family.remove_volumes(gone)  # the others are detached by the volume family (their instance went away)
            self.by_pair = None

        task_id = self.sim.start_task("delete_vm", apply=apply, project_id=record["project_id"], region_id=record["region_id"])
        record["task_id"] = task_id
        return {"tasks": [task_id]}

    def locking_task(self, record, task_type, during, after):
        """A task locking the record: ``during`` (the record members meanwhile), ``after`` (those once it finished)."""
        before = dict((key, record[key]) for key in during)

        def apply():
            record.update(after(), task_id=None)

        task_id = self.sim.start_task(task_type, apply=apply, project_id=record["project_id"], region_id=record["region_id"])
        record.update(during, task_id=task_id)
        self.restore[task_id] = before  # a failed task leaves the instance as it was, unlocked (see sync)
        return {"tasks": [task_id]}

    def action(self, request):
        record = self.one(request, unlocked=True)
        body = body_of(request)
        action = body.get("action")
        if action not in POWER_ACTIONS:
            raise ApiFailure(400, "Wrong action")
        check_object("", body, ("action",), ("action", "activate_profile") if action == "start" else ("action",))
        if "activate_profile" in body and body["activate_profile"] is not None:
            check_bool("activate_profile", body["activate_profile"])
        needs = {"start": ("SHUTOFF",), "stop": ("ACTIVE", "SHUTOFF"), "reboot": ("ACTIVE",), "reboot_hard": ("ACTIVE", "SHUTOFF", "ERROR"),
                 "suspend": ("ACTIVE", "SHUTOFF"), "resume": ("SUSPENDED",)}[action]
        if record["status"] not in needs:
            raise ApiFailure(400, "Cannot %s instance %s in status %s" % (action, record["id"], record["status"]))
        status = {"stop": "SHUTOFF", "suspend": "SUSPENDED"}.get(action, "ACTIVE")
        during = {"reboot": {"status": "REBOOT"}, "reboot_hard": {"status": "HARD_REBOOT"}}.get(action, {})
        return self.locking_task(record, "%s_vm" % action, dict(during, task_state=action),
                                 lambda: {"status": status, "vm_state": VM_STATES.get(status, status.lower()), "task_state": None})

    def change_flavor(self, request):
        record = self.one(request, unlocked=True)
        body = body_of(request)
        check_object("", body, ("flavor_id",), ("flavor_id",))
        check_str("flavor_id", body["flavor_id"])
        if body["flavor_id"] not in VM_FLAVORS or VM_FLAVORS[body["flavor_id"]][2]:
            raise ApiFailure(400, "Flavor %s is not available in region %s" % (body["flavor_id"], record["region_id"]))
        status = record["status"]
        return self.locking_task(record, "resize_vm", {"status": "RESIZE", "task_state": "resize_migrating"},
                                 lambda: {"status": status, "flavor": record_flavor(body["flavor_id"]), "task_state": None})

    def group_change(self, request):
        """``(record, names, held)``: the group names a body names (``name``, applied to every port, and/or the
        documented per-port form ``ports_security_group_names: [{port_id, security_group_names}]``, a null
        ``port_id`` meaning every port) and the instance's groups. A port the instance does not have is a 404, as
        is a group the project does not have. The simulator keeps an instance's groups instance-wide: a per-port
        change changes them for the instance."""
        record = self.one(request, unlocked=True)
        body = body_of(request)
        check_object("", body, (), ("name", "ports_security_group_names"))
        if "name" not in body and "ports_security_group_names" not in body:
            invalid("name", "give name or ports_security_group_names")
        names = []
        if "name" in body:
            check_name("name", body["name"])
            names.append(body["name"])
        ports = set(port["port_id"] for port in self.ports_of(record))
        for index, item in enumerate(check_list("ports_security_group_names", body.get("ports_security_group_names", []))):
            where = "ports_security_group_names.%d" % index
            check_object(where, item, ("port_id", "security_group_names"), ("port_id", "security_group_names"))
            if item["port_id"] is not None:
                check_uuid(where + ".port_id", item["port_id"])
                if item["port_id"] not in ports:
                    raise ApiFailure(404, "Port %s not found on instance %s" % (item["port_id"], record["id"]))
            for number, name in enumerate(check_list(where + ".security_group_names", item["security_group_names"])):
                check_name("%s.security_group_names.%d" % (where, number), name)
                names.append(name)
        known = set(name for _ident, name in self.group_names(record["project_id"], record["region_id"])) | {"default"}
        held = [group["name"] for group in record["security_groups"]]
        for name in names:
            if name not in known | set(held):
                raise ApiFailure(404, "Security group %s not found" % name)
        return record, list(dict.fromkeys(names)), held

    def add_group(self, request):
        record, names, held = self.group_change(request)
        for name in names:
            if name in held:
                raise ApiFailure(400, "Instance %s already has security group %s" % (record["id"], name))
        record["security_groups"] += [{"name": name} for name in names]
        return Response(204)

    def remove_group(self, request):
        record, names, held = self.group_change(request)
        for name in names:
            if name not in held:
                raise ApiFailure(400, "Instance %s has no security group %s" % (record["id"], name))
        record["security_groups"] = [group for group in record["security_groups"] if group["name"] not in names]
        return Response(204)

    def put_into_group(self, request):
        record = self.one(request, unlocked=True)
        body = body_of(request)
        check_object("", body, ("servergroup_id",), ("servergroup_id",))
        check_str("servergroup_id", body["servergroup_id"])
        groups = groups_of(self.sim)
        groups.group(body["servergroup_id"], record["project_id"], record["region_id"])  # 404 for an unknown group
        held = groups.group_holding(record["id"])
        if held is not None:
            raise ApiFailure(400, "Instance %s is already in server group %s; remove it first" % (record["id"], held["servergroup_id"]))
        return self.locking_task(record, "put_into_servergroup", {"task_state": "migrating"},
                                 lambda: groups.join(body["servergroup_id"], record) or {"task_state": None})

    def remove_from_group(self, request):
        record = self.one(request, unlocked=True)
        body_of(request)
        groups = groups_of(self.sim)
        if groups.group_holding(record["id"]) is None:
            raise ApiFailure(400, "Instance %s is in no server group" % record["id"])
        return self.locking_task(record, "remove_from_servergroup", {"task_state": "migrating"},
                                 lambda: groups.leave(record["id"]) or {"task_state": None})

    # ---- quota --------------------------------------------------------------------------------
    def check_limits(self, request):
        from simulator.resources import quota  # pylint: disable=import-outside-toplevel
        from simulator.resources.pricing import check_volumes as check_pricing_volumes  # pylint: disable=import-outside-toplevel
        self.scope(request)
        body = body_of(request)
        check_object("", body, set(), {"flavor", "interfaces", "names", "name_templates", "volumes"})
        flavor = body.get("flavor")
        check_str("flavor", flavor, nullable=True)
        if flavor is not None and flavor not in VM_FLAVORS:
            invalid("flavor", "unknown flavor %s" % flavor)
        interfaces = body.get("interfaces")
        if interfaces is not None:
            for index, item in enumerate(check_list("interfaces", interfaces)):
                if isinstance(item, dict) and "security_groups" in item:
                    invalid("interfaces.%d.security_groups" % index, "extra fields not permitted")
            check_interfaces(interfaces)
        volumes = check_pricing_volumes(body["volumes"]) if "volumes" in body else []
        count = quota.server_count(body)
        requested = {}

        def add(base, amount):
            requested[base] = requested.get(base, 0) + amount

        if flavor is not None:
            vcpus, ram, _disabled = VM_FLAVORS[flavor]
            add("vm_count", count)
            add("cpu_count", vcpus * count)
            add("ram", ram * count)
        for item in interfaces if interfaces is not None else [{"type": "external"}]:
            if item["type"] == "external":
                add("external_ip_count", count)
            if (item.get("floating_ip") or {}).get("source") == "new":
                add("floating_count", count)
        for volume in volumes:
            if volume["source"] != "existing-volume":
                add("volume_count", count)
                add("volume_size", (volume.get("size") or 10) * count)
        return quota.answer(self.sim, sorted(set(requested) | {"vm_count", "cpu_count", "ram"}), requested, self.scope(request))

    @staticmethod
    def filters(request):
        tests = []
        name = request.arg("name")
        if name is not None:
            tests.append(lambda record: name in record["name"])
        status = request.arg("status")
        if status is not None:
            if status not in STATUS_QUERY:
                raise ApiFailure(422, "status: value is not a valid enumeration member; permitted: %s" % ", ".join(STATUS_QUERY),
                                 errors=[{"loc": ["query", "status"], "detail": "value is not a valid enumeration member"}])
            tests.append(lambda record: record["status"] == status)
        prefix = request.arg("flavor_prefix")
        if prefix is not None:
            tests.append(lambda record: record["flavor"]["flavor_id"].startswith(prefix))
        key_value = request.arg("tag_key_value")
        if key_value is not None:
            try:
                wanted = json.loads(key_value)
            except ValueError:
                wanted = None
            if not isinstance(wanted, dict) or not all(isinstance(value, str) for value in wanted.values()):
                raise ApiFailure(422, "tag_key_value: value is not a valid JSON object of strings",
                                 errors=[{"loc": ["query", "tag_key_value"], "detail": "value is not a valid JSON object"}])
            tests.append(lambda record: all({"key": key, "value": value} in [{"key": tag["key"], "value": tag["value"]}
                                                                             for tag in record["tags"]]
                                            for key, value in wanted.items()))
        values = request.query.get("tag_value")
        if values:
            tests.append(lambda record: all(value in [tag["value"] for tag in record["tags"]] for value in values))
        return tests
