# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cloud bare metal servers, their flavors, images and capacity (docs/api_reference.md section 19.1).

A bare metal server is an instance of the one instance store (``sim.instances``, ``instances.py``): its ports, floating
IPs and interfaces are the instance family's, and its id is in ``sim.baremetal_ids``, which the VM listing leaves out
(as the service's ``GET /cloud/v1/instances`` does unless ``include_baremetal=true``).

- ``GET /cloud/v1/bminstances/{p}/{r}``: ``{count, results: [BareMetalServerSerializer]}``, ``limit`` 1-1000
  (default 1000), ``offset``; filters ``name`` (substring), ``uuid`` (substring), ``flavor_id`` (exact), and the
  instance listing's ``status``, ``flavor_prefix``, ``tag_key_value`` and ``tag_value``; the others are ignored.
- ``POST`` same path (``CreateBareMetalServerSerializer``, checked strictly: ``flavor*``, ``interfaces*`` of the four
  bare metal variants, each with ``port_group`` 0-3 and no ``security_groups``; ``image_id`` or ``apptemplate_id``
  (neither: 400); ``user_data`` base64; ``username`` needs ``password``, and a Windows image refuses ``username``):
  200 ``{tasks}``. A flavor that is not a bare metal flavor is a 400, an unknown image (not ``active``) a 404, a flavor
  with no free server in the region (``baremetal_capacity``) a 400. The server appears at once in ``BUILD``, locked by
  its ``create_bm`` task, and is ``ACTIVE`` when the task finishes (``created_resources.instances``); a failed task
  leaves it in ``ERROR``. The image shows only as the read-only tags ``image_id``, ``image_name``, ``os_distro`` and
  ``os_version`` (none for an application template).
- ``GET``/``PATCH``/``DELETE`` ``…/{server_id}`` (uuid, else 422; 404 when not a bare metal server of the scope):
  the record; ``{name, tags}`` (tags a merge patch), answered with the record; a ``delete_bm`` task, query
  ``all_floating_ips`` (bool) or ``floating_ip_ids`` (comma-separated; not both: 400), ``reserved_fixed_ip_ids``,
  ``all_reserved_fixed_ips``. Floating IPs not deleted are unassigned.
- ``POST …/{server_id}/rebuild`` ``{image_id, user_data}`` (both optional; unknown image 404): a ``rebuild_bm`` task,
  ``REBUILD`` meanwhile, then the status it had before (``ACTIVE`` or ``SHUTOFF``) with the new image tags.
- ``POST /cloud/v2/bminstances/{p}/{r}/{id}/action`` (the published path) and ``/cloud/v2/baremetal/…/action`` (the
  path SDK 0.59 posts to): ``{action: start|stop|reboot|reboot_hard}`` (``activate_profile`` with start); another is
  a 400. ``start`` needs ``SHUTOFF``, ``stop`` ``ACTIVE`` or ``SHUTOFF``, ``reboot`` ``ACTIVE``. A ``<action>_bm``
  task locks the server: ``SHUTOFF`` after stop, ``ACTIVE`` after the others.
- Every write to a locked server (``task_id`` set) is a 409.
- ``GET /cloud/v1/bmflavors/{p}/{r}``: the bare metal flavors (``disabled=false`` leaves the disabled one out;
  ``include_capacity=true`` fills ``capacity``); ``GET /cloud/v1/bmimages/{p}/{r}``: the bare metal images;
  ``GET /cloud/v1/bmcapacity/{p}/{r}``: ``{capacity: {flavor: free servers}}`` of the region.

Settings: ``baremetal_capacity`` ``{flavor: servers}`` merged over ``CAPACITY`` (the free ones are those less the
servers of the flavor in the region). Seeds (``SEEDS["baremetal"]``): the images by name, the flavors, one server
``bm-seed-1`` (project 1, region 76, ``ACTIVE``). State: ``sim.baremetal_ids``, ``sim.bm_images``.
"""

from __future__ import annotations

import base64
import binascii
import copy
import uuid

from simulator import control
from simulator.core import ApiFailure, now_iso, page
from simulator.resources.instances import NAMESPACE, image_record
from simulator.resources.production import Collection, boolean_query, family, path_uuid, region_of, scope
from simulator.resources.quota import FLAVORS, check_interfaces
from simulator.validation import body_of, check_bool, check_int, check_object, check_str, check_tags, check_uuid, invalid, patch_name_and_tags

POWER_ACTIONS = ("start", "stop", "reboot", "reboot_hard")
STATUSES = ("ACTIVE", "BUILD", "ERROR", "HARD_REBOOT", "REBOOT", "REBUILD", "RESCUE", "SHUTOFF", "SUSPENDED")
CREATE_FIELDS = ("flavor", "interfaces", "image_id", "apptemplate_id", "app_config", "name", "name_template", "ssh_key_name",
                 "password", "username", "user_data", "tags", "ddos_profile")
BM_FLAVORS = dict((name, spec) for name, spec in FLAVORS.items() if name.startswith("bm"))
DISABLED = ("bm3-ai-1xlarge-h200-141-8",)
CAPACITY = dict((name, 0 if name in DISABLED or "-ai-" in name else 3) for name in BM_FLAVORS)
CAPACITY.update({"bm1-basic-medium": 1, "bm2-storage-large": 0})
# name -> (id, os type, status)
IMAGES = {
    "ubuntu-22.04-x64": ("b3a10000-0000-4000-8000-000000000001", "linux", "active"),
    "debian-12-x64": ("b3a10000-0000-4000-8000-000000000002", "linux", "active"),
    "windows-2022": ("b3a10000-0000-4000-8000-000000000003", "windows", "active"),
    "centos-7-x64": ("b3a10000-0000-4000-8000-000000000004", "linux", "deactivated"),
}
SEED_SERVER = "bm-seed-1"


def flavor_member(name):
    """The ``flavor`` of a server record."""
    spec = BM_FLAVORS[name]
    return {"flavor_id": name, "flavor_name": name, "architecture": "x86_64", "os_type": "linux", "ram": spec["ram"],
            "vcpus": spec["vcpus"], "resource_class": "-".join(name.split("-")[:2]),
            "hardware_description": {"cpu": "%s cores" % spec["vcpus"], "disk": "2 x 960 GB SSD", "license": "",
                                     "network": "2 x 10 Gbit/s", "ram": "%s GiB" % (spec["ram"] // 1024)}}


def image_tags(image):
    return [{"key": key, "value": image[member], "read_only": True}
            for key, member in (("image_id", "id"), ("image_name", "name"), ("os_distro", "os_distro"), ("os_version", "os_version"))]


class Baremetal(Collection):
    """Bare metal servers, records of the one instance store: the collection's declaration gives their routes."""

    NAME, NOUN, COLLECTION, TASK, ID_PARAM = "baremetal", "Bare metal server", "bminstances", "bm", "server_id"
    ACTIONS = (("POST", "/{id}/rebuild", "rebuild"), ("POST", "/{id}/action", "action", "v2"),
               ("POST", "/{id}/action", "action", "v2", "baremetal"), ("GET", "", "list_flavors", "v1", "bmflavors"),
               ("GET", "", "list_images", "v1", "bmimages"), ("GET", "", "capacity", "v1", "bmcapacity"))
    STATE = ("baremetal_ids", "bm_images")
    TASK_TYPES = ("create_bm", "delete_bm", "rebuild_bm") + tuple("%s_bm" % action for action in POWER_ACTIONS)
    SETTINGS = {"baremetal_capacity": ({}, control.mapping(control.integer(low=0)))}
    SEEDS = {"images": dict((name, ident) for name, (ident, _os, _status) in IMAGES.items()), "flavors": sorted(BM_FLAVORS),
             "servers": {SEED_SERVER: str(uuid.uuid5(NAMESPACE, "baremetal/" + SEED_SERVER))}}

    def reset(self):
        self.sim.bm_images = []
        for name, (ident, os_type, status) in IMAGES.items():
            image = image_record(ident, name, status)
            image.update(is_baremetal=True, os_type=os_type, os_distro=name.split("-")[0], os_version=name.split("-")[1])
            self.sim.bm_images.append(image)
        self.sim.baremetal_ids = {}  # id -> True
        self.seeded = False  # the seed server joins the instance store at the first request (it resets after this)

    # ---- scope, lookup, locks -----------------------------------------------------------------
    @property
    def instances(self):
        return family(self.sim, "instances")

    def scope(self, request):
        project_id, region_id = scope(request)
        if not self.seeded:
            self.seeded = True
            seed = self.new_record(SEED_SERVER, project_id=1, region_id=76, flavor="bm1-basic-small",
                                   ident=self.SEEDS["servers"][SEED_SERVER], image=self.sim.bm_images[0])
            self.wire(seed, [{"type": "external"}])
            self.add(seed)
        self.instances.sync()  # a failed task leaves the server as it was (its create: ERROR), unlocked
        return project_id, region_id

    def servers(self, project_id=None, region_id=None):
        return [record for record in self.sim.instances if record["id"] in self.sim.baremetal_ids
                and (project_id is None or (record["project_id"], record["region_id"]) == (project_id, region_id))]

    def one(self, request, unlocked=False):
        project_id, region_id = self.scope(request)
        ident = path_uuid(request, "server_id")
        record = next((record for record in self.servers(project_id, region_id) if record["id"] == ident), None)
        if record is None:
            raise ApiFailure(404, "Bare metal server %s not found" % ident)
        if unlocked and record["task_id"]:
            raise ApiFailure(409, "Bare metal server %s is locked by task %s; try again when it has finished" % (ident, record["task_id"]))
        return record

    def add(self, record):
        self.sim.instances.append(record)
        self.sim.baremetal_ids[record["id"]] = True
        self.instances.by_pair = None

    def new_record(self, name, project_id, region_id, flavor, ident=None, image=None, status="ACTIVE"):
        record = dict(region_of(project_id, region_id), id=ident or str(uuid.uuid4()), name=name, status=status,
                      vm_state="active" if status == "ACTIVE" else "building", task_state=None, flavor=flavor_member(flavor),
                      addresses={}, fixed_ip_assignments=[], ssh_key_name=None, tags=image_tags(image) if image else [],
                      blackhole_ports=[], ddos_profile=None, instance_isolation=None, created_at=now_iso(),
                      creator_task_id=None, task_id=None)
        return record

    # ---- reads --------------------------------------------------------------------------------
    def listing(self, request):
        project_id, region_id = self.scope(request)
        status = request.query.pop("status", [None])[-1]  # the bare metal statuses (BareMetalStatusQueryChoices), not the VM ones
        if status is not None and status not in STATUSES:
            raise ApiFailure(422, "status: value is not a valid enumeration member; permitted: %s" % ", ".join(STATUSES),
                             errors=[{"loc": ["query", "status"], "detail": "value is not a valid enumeration member"}])
        tests = self.instances.filters(request) + ([lambda record: record["status"] == status] if status else [])
        for name, test in (("uuid", lambda value, record: value in record["id"]),
                           ("flavor_id", lambda value, record: record["flavor"]["flavor_id"] == value)):
            value = request.arg(name)
            if value is not None:
                tests.append(lambda record, value=value, test=test: test(value, record))
        return page(request, [record for record in self.servers(project_id, region_id) if all(test(record) for test in tests)])

    def free(self, region_id):
        """``{flavor: free servers}`` of the region: the capacity less the servers of each flavor there."""
        total = dict(CAPACITY, **self.sim.config["baremetal_capacity"])
        for record in self.servers():
            if record["region_id"] == region_id and record["flavor"]["flavor_id"] in total:
                total[record["flavor"]["flavor_id"]] = max(total[record["flavor"]["flavor_id"]] - 1, 0)
        return total

    def capacity(self, request):
        _project_id, region_id = self.scope(request)
        return {"capacity": self.free(region_id)}

    def list_flavors(self, request):
        _project_id, region_id = self.scope(request)
        free = self.free(region_id) if boolean_query(request, "include_capacity") else {}
        flavors = []
        for name in sorted(BM_FLAVORS):
            flavor = flavor_member(name)
            flavor.update(disabled=name in DISABLED, capacity=free.get(name), reserved_capacity=0 if free else None,
                          hardware_description=dict(flavor["hardware_description"]))
            flavors.append(flavor)
        if boolean_query(request, "disabled") is False:
            flavors = [flavor for flavor in flavors if not flavor["disabled"]]
        return page(request, flavors)

    def images_of(self, project_id, region_id):
        return [image for image in self.sim.bm_images if image.get("visibility") != "private"
                or (image["project_id"], image["region_id"]) == (project_id, region_id)]

    def list_images(self, request):
        project_id, region_id = self.scope(request)
        images = self.images_of(project_id, region_id)
        if request.arg("name") is not None:  # the SDK's filter: a case-insensitive substring
            images = [image for image in images if request.arg("name").lower() in image["name"].lower()]
        return page(request, images)

    def image(self, ident, project_id, region_id):
        found = next((image for image in self.images_of(project_id, region_id) if image["id"] == ident and image["status"] == "active"), None)
        if found is None:
            raise ApiFailure(404, "Image %s not found" % ident)
        return found

    # ---- writes -------------------------------------------------------------------------------
    @staticmethod
    def check_interfaces(interfaces):
        """The four bare metal variants: the instance ones without ``security_groups``, each with ``port_group`` 0-3."""
        if not isinstance(interfaces, list) or not interfaces:
            invalid("interfaces", "ensure this value has at least 1 items")
        for index, item in enumerate(interfaces):
            if isinstance(item, dict) and "security_groups" in item:
                invalid("interfaces.%d.security_groups" % index, "extra fields not permitted")
            if isinstance(item, dict) and "port_group" in item:
                check_int("interfaces.%d.port_group" % index, item["port_group"], low=0, high=3)
        check_interfaces([dict((key, value) for key, value in item.items() if key != "port_group") if isinstance(item, dict) else item
                          for item in interfaces])

    @staticmethod
    def check_user_data(body):
        if "user_data" in body:
            check_str("user_data", body["user_data"])
            try:
                base64.b64decode(body["user_data"], validate=True)
            except (binascii.Error, ValueError):
                invalid("user_data", "user_data must be base64-encoded")

    def create(self, request):
        project_id, region_id = self.scope(request)
        body = body_of(request)
        check_object("", body, ("flavor", "interfaces"), CREATE_FIELDS)
        check_str("flavor", body["flavor"])
        self.check_interfaces(body["interfaces"])
        for key in ("name", "name_template", "ssh_key_name", "password", "username", "apptemplate_id"):
            if key in body:
                check_str(key, body[key], nullable=key == "ssh_key_name")
        if "name" in body:
            self.instances_check_name(body["name"])
        if "image_id" in body:
            check_uuid("image_id", body["image_id"])
        if "tags" in body:
            check_tags("tags", body["tags"])
        self.check_user_data(body)
        if "image_id" not in body and "apptemplate_id" not in body:
            raise ApiFailure(400, "Either image_id or apptemplate_id is required")
        if "username" in body and "password" not in body:
            raise ApiFailure(400, "username needs password")
        if body["flavor"] not in BM_FLAVORS or body["flavor"] in DISABLED:
            raise ApiFailure(400, "Flavor %s is not a bare metal flavor of region %s" % (body["flavor"], region_id))
        image = self.image(body["image_id"], project_id, region_id) if "image_id" in body else None
        if image is not None and image["os_type"] == "windows" and "username" in body:
            raise ApiFailure(400, "username cannot be set for a Windows image")
        if not self.free(region_id).get(body["flavor"]):
            raise ApiFailure(400, "No bare metal server of flavor %s is available in region %s" % (body["flavor"], region_id))
        name = body.get("name") or (body.get("name_template") or "bm-{ip_octets}").replace("{ip_octets}", "0-0-10").replace(
            "{two_ip_octets}", "0-10").replace("{one_ip_octet}", "10")
        record = self.new_record(name, project_id, region_id, body["flavor"], image=image, status="BUILD")
        record["tags"] += [{"key": key, "value": value, "read_only": False} for key, value in (body.get("tags") or {}).items()]
        record.update(ssh_key_name=body.get("ssh_key_name"), task_state="spawning")
        ports, floatings = self.wire(record, body["interfaces"])

        def apply():
            if record["id"] not in self.sim.baremetal_ids:
                return None
            record.update(status="ACTIVE", vm_state="active", task_state=None, task_id=None)
            created = {"instances": [record["id"]], "ports": [port["port_id"] for port in ports]}
            if floatings:
                created["floatingips"] = floatings
            return created

        task_id = self.sim.start_task("create_bm", apply=apply, project_id=project_id, region_id=region_id,
                                      data=dict(body, password="***") if "password" in body else body)
        record.update(task_id=task_id, creator_task_id=task_id)
        if self.sim.tasks[task_id]["error"]:
            record.update(status="ERROR", vm_state="error", task_id=None)
        self.add(record)
        return {"tasks": [task_id]}

    @staticmethod
    def instances_check_name(name):
        from simulator.resources.instances import check_name  # pylint: disable=import-outside-toplevel
        check_name("name", name)

    def wire(self, record, interfaces):
        """The server's ports and addresses, made as the instance family makes an instance's (``interface_port``, a
        floating IP by ``floating_for``); returns ``(ports, new floating IP ids)``."""
        family_, ports, floatings = self.instances, [], []
        for index, item in enumerate(interfaces):
            port = family_.interface_port(record["id"], index, item, record["project_id"], record["region_id"])
            ports.append(port)
            network = port["network_details"]["name"]
            for assignment in port["ip_assignments"]:
                record["addresses"].setdefault(network, []).append(
                    {"addr": assignment["ip_address"], "type": "fixed", "interface_name": item.get("interface_name"),
                     "subnet_id": assignment["subnet_id"], "subnet_name": family_.subnet_name(assignment["subnet_id"], network)})
                record["fixed_ip_assignments"].append({"external": port["network_details"]["external"],
                                                       "ip_address": assignment["ip_address"], "subnet_id": assignment["subnet_id"]})
            if item.get("floating_ip"):
                floating_id, address = family_.floating_for(port, item, record["project_id"], record["region_id"])
                floatings.append(floating_id)
                port["floatingip_details"].append({"id": floating_id, "floating_ip_address": address,
                                                   "fixed_ip_address": port["ip_assignments"][0]["ip_address"]})
                record["addresses"][network].append({"addr": address, "type": "floating"})
        self.sim.instance_ports[record["id"]] = ports
        return ports, floatings

    def update(self, request):
        record = self.one(request, unlocked=True)
        patch_name_and_tags(record, body_of(request)).pop("updated_at", None)
        return copy.deepcopy(record)

    def delete(self, request):
        record = self.one(request, unlocked=True)
        every = boolean_query(request, "all_floating_ips")
        listed = [item for item in (request.arg("floating_ip_ids") or "").split(",") if item]
        if every and listed:
            raise ApiFailure(400, "all_floating_ips and floating_ip_ids cannot be given together")
        if boolean_query(request, "all_reserved_fixed_ips") and request.arg("reserved_fixed_ip_ids"):
            raise ApiFailure(400, "all_reserved_fixed_ips and reserved_fixed_ip_ids cannot be given together")
        for ident in listed:
            check_uuid("floating_ip_ids", ident)

        def apply():
            ports = [port["port_id"] for port in self.sim.instance_ports.get(record["id"], [])]
            floating = getattr(self.sim, "floating_ips", None) or {}
            for ident, item in list(floating.items()):  # deleted when asked, else unassigned
                if ident in listed or (every and item.get("port_id") in ports):
                    del floating[ident]
                elif item.get("port_id") in ports:
                    item.update(port_id=None, fixed_ip_address=None, status="DOWN", updated_at=now_iso())
            self.sim.instances[:] = [item for item in self.sim.instances if item["id"] != record["id"]]
            self.sim.instance_ports.pop(record["id"], None)
            self.sim.baremetal_ids.pop(record["id"], None)
            self.instances.by_pair = None

        record["task_id"] = self.sim.start_task("delete_bm", apply=apply, project_id=record["project_id"], region_id=record["region_id"])
        return {"tasks": [record["task_id"]]}

    def rebuild(self, request):
        record = self.one(request, unlocked=True)
        body = body_of(request)
        check_object("", body, (), ("image_id", "user_data"))
        if "image_id" in body:
            check_str("image_id", body["image_id"])
        self.check_user_data(body)
        image = self.image(body["image_id"], record["project_id"], record["region_id"]) if "image_id" in body else None
        tags = [tag for tag in record["tags"] if not (tag["read_only"] and image)] + (image_tags(image) if image else [])
        status, vm_state = record["status"], record["vm_state"]  # a stopped server stays stopped (as Nova rebuilds)
        return self.instances.locking_task(record, "rebuild_bm", {"status": "REBUILD", "task_state": "rebuilding"},
                                           lambda: {"status": status, "vm_state": vm_state, "task_state": None, "tags": tags})

    def action(self, request):
        record = self.one(request, unlocked=True)
        body = body_of(request)
        action = body.get("action")
        if action not in POWER_ACTIONS:
            raise ApiFailure(400, "Wrong action")
        check_object("", body, ("action",), ("action", "activate_profile") if action == "start" else ("action",))
        if body.get("activate_profile") is not None:
            check_bool("activate_profile", body["activate_profile"])
        needs = {"start": ("SHUTOFF",), "stop": ("ACTIVE", "SHUTOFF"), "reboot": ("ACTIVE",), "reboot_hard": ("ACTIVE", "SHUTOFF", "ERROR")}
        if record["status"] not in needs[action]:
            raise ApiFailure(400, "Cannot %s bare metal server %s in status %s" % (action, record["id"], record["status"]))
        status = "SHUTOFF" if action == "stop" else "ACTIVE"
        during = {"reboot": {"status": "REBOOT"}, "reboot_hard": {"status": "HARD_REBOOT"}}.get(action, {})
        return self.instances.locking_task(record, "%s_bm" % action, dict(during, task_state=action), lambda: {
            "status": status, "vm_state": "stopped" if status == "SHUTOFF" else "active", "task_state": None})
