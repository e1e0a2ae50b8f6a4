# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cloud instances, read-only (docs/api_reference.md section 14.4): what the ``gcore.platform.cloud`` inventory lists.

- ``GET /cloud/v1/instances/{p}/{r}``: ``{count, results: [InstanceSerializer]}``; ``count`` is the total
  matching. ``limit`` 1-1000 (default 1000) and ``offset`` >= 0, else 422. Filters: ``name`` (a substring),
  ``status`` (``InstanceStatusQuery``, else 422), ``flavor_prefix`` (of the flavor id), ``tag_key_value`` (a
  JSON object sent as one value: every pair must be a tag of the instance; not a JSON object: 422) and
  ``tag_value`` (repeatable: every value must be the value of one of its tags; the spec does not say whether
  several values are "all" or "any": the simulator takes "all"). Other query parameters of the spec are
  accepted and ignored.
- A project the key cannot see (``instances_forbidden_projects``, default ``[3]``) answers 403 with the cloud
  error body, in every region.

Seeded (``SEEDS["instances"]``): nine instances over two projects (1, 2) x two regions (76, 1): fixed and
floating IPv4, public IPv6, a CGNAT (100.64.0.0/10) address, instances with no public address and one with no
address at all, the name ``app`` in two regions, tags (one read-only, one that looks like a template: data, never
run), statuses ACTIVE, SHUTOFF and BUILD.

Control ``POST /_sim/instances`` ``{count, pairs?: [[project, region], ...], replace?: true}``: ``count``
generated instances (``host-00001`` ...) spread evenly over the pairs (default: the four seeded pairs), replacing
every instance unless ``replace`` is false. Answers ``{"instances": total, "per_pair": {"p/r": n}}``.
"""

from __future__ import annotations

import copy
import json
import uuid

from simulator import control
from simulator.core import ApiFailure, Resource, Route, int_param

LIST = r"/cloud/v1/instances/(?P<project_id>[^/]+)/(?P<region_id>[^/]+)"
REGIONS = {76: "Luxembourg-2", 1: "Luxembourg"}
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


class Instances(Resource):
    NAME = "instances"
    STATE = ("instances",)
    SETTINGS = {
        "instances_forbidden_projects": ([FORBIDDEN_PROJECT], control.listing(control.integer(low=1))),
    }
    SEEDS = {
        "pairs": [list(pair) for pair in PAIRS],
        "forbidden_project": FORBIDDEN_PROJECT,
        "regions": dict((str(key), value) for key, value in REGIONS.items()),
        "instances": dict(("%s/%s/%s" % (name, project_id, region_id), instance_id(name, project_id, region_id))
                          for name, project_id, region_id, *_rest in SEEDED),
    }
    CONTROLS = {"instances": "seed_instances"}
    ROUTES = (
        Route("GET", LIST, "list_instances"),
    )

    def reset(self):
        self.sim.instances = [instance_record(name, project_id, region_id, status, flavor, addresses, tags, groups)
                              for name, project_id, region_id, status, flavor, addresses, tags, groups in SEEDED]
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

    def list_instances(self, request):
        project_id = int_param(request.params["project_id"], "project_id")
        region_id = int_param(request.params["region_id"], "region_id")
        limit = int_param(request.arg("limit", "1000"), "limit", low=1, high=1000)
        offset = int_param(request.arg("offset", "0"), "offset", low=0)
        if project_id in self.sim.config["instances_forbidden_projects"]:
            raise ApiFailure(403, "You do not have permission to access project %s" % project_id)
        matches = self.pairs().get((project_id, region_id), [])
        tests = self.filters(request)
        if tests:
            matches = [record for record in matches if all(test(record) for test in tests)]
        return {"count": len(matches), "results": copy.deepcopy(matches[offset:offset + limit])}

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
