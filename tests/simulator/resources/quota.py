# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Quota checks before creation (docs/api_reference.md sections 3, 4 and 6).

- POST /cloud/v1/bminstances/{project_id}/{region_id}/check_limits (bare metal servers)
- POST /cloud/v1/loadbalancers/{project_id}/{region_id}/check_limits (a load balancer)

Both answer 200 with ``<base>_limit``, ``<base>_usage`` and ``<base>_requested`` for each quota base;
an exceeded quota is not an error, it only shows in the figures. ``_requested`` is computed from the
body: the number of names (or templates) times the flavor's class, CPUs and RAM from ``FLAVORS``, one
external IP per server and ``external`` interface, one floating IP per server and ``floating_ip:
{source: new}``; for a load balancer one LB, a floating IP when asked, an external IP when the VIP
is public (neither ``vip_network_id`` nor ``vip_port_id``) and a LaaS topic when logging is enabled.

Bodies are validated as the published schemas say, with extra members refused as the service's
pydantic models do (``ip_family`` on a ``subnet`` interface is a 422); errors are cloud-shaped 422s.

Settings (POST /_sim/config), merged over the defaults below, by base name:
``quota_limits`` {base: int}, ``quota_usage`` {base: int} (over the usage counted from what exists in the project and
region: networks, subnets, routers, security groups as ``firewall_count``, floating IPs, load balancers, instances with
their CPUs and RAM, volumes with their size; ``DEFAULT_USAGE`` for the other bases); ``quota_omit`` [key, ...] leaves those keys
out of the answer (none is required by the spec); ``quota_extra`` {key: value} adds keys we do not know.

The interface and flavor helpers here are shared with ``pricing``.
"""

from __future__ import annotations

import ipaddress
import re

from simulator import control
from simulator.core import Resource, Route
from simulator.resources.production import scope as scope_of
from simulator.validation import body_of, check_enum, check_int, check_list, check_object, check_str, check_uuid, invalid

BM_PATH = r"/cloud/v1/bminstances/(?P<project_id>[^/]+)/(?P<region_id>[^/]+)/check_limits"
LB_PATH = r"/cloud/v1/loadbalancers/(?P<project_id>[^/]+)/(?P<region_id>[^/]+)/check_limits"

# The 50 bases of RegionRequestedQuotasSerializer.
BM_BASES = (
    "baremetal_basic_count", "baremetal_gpu_a100_count", "baremetal_gpu_h100_count", "baremetal_gpu_h200_count",
    "baremetal_gpu_l40s_count", "baremetal_hf_count", "baremetal_infrastructure_count", "baremetal_network_count",
    "baremetal_storage_count", "caas_container_count", "caas_cpu_count", "caas_gpu_count", "caas_ram_size",
    "cluster_count", "cpu_count", "dbaas_postgres_cluster_count", "external_ip_count", "faas_cpu_count",
    "faas_function_count", "faas_namespace_count", "faas_ram_size", "firewall_count", "floating_count", "gpu_count",
    "gpu_virtual_a100_count", "gpu_virtual_h100_count", "gpu_virtual_h200_count", "gpu_virtual_l40s_count",
    "image_count", "image_size", "ipu_count", "laas_topic_count", "loadbalancer_count", "network_count", "ram",
    "registry_count", "registry_storage", "router_count", "secret_count", "servergroup_count", "sfs_count", "sfs_size",
    "shared_vm_count", "snapshot_schedule_count", "subnet_count", "vm_count", "volume_count", "volume_size",
    "volume_snapshots_count", "volume_snapshots_size",
)
# The 4 bases of LoadbalancerQuotaSerializer.
LB_BASES = ("external_ip_count", "floating_count", "laas_topic_count", "loadbalancer_count")

DEFAULT_LIMITS = dict((base, 10) for base in BM_BASES)
DEFAULT_LIMITS.update(
    baremetal_basic_count=5, baremetal_gpu_a100_count=0, baremetal_gpu_h100_count=0, baremetal_gpu_h200_count=0,
    baremetal_gpu_l40s_count=0, baremetal_hf_count=2, cpu_count=200, ram=409600, external_ip_count=10,
    floating_count=10, loadbalancer_count=5, laas_topic_count=5, image_size=107374182400, volume_size=5000,
)
DEFAULT_USAGE = dict((base, 0) for base in BM_BASES)
DEFAULT_USAGE.update(
    baremetal_basic_count=1, cpu_count=24, ram=49152, external_ip_count=3, floating_count=2, loadbalancer_count=1,
    network_count=2, subnet_count=3, router_count=1, volume_count=4, volume_size=120, vm_count=3,
)

# Flavors: the quota base a server of the flavor counts against, its CPUs and RAM (MiB), and its
# hourly price (used by ``pricing``). ``bm`` flavors are bare metal; the others are virtual machines.
FLAVORS = {
    "bm1-basic-small": {"base": "baremetal_basic_count", "vcpus": 8, "ram": 32768, "hour": "0.5"},
    "bm1-basic-medium": {"base": "baremetal_basic_count", "vcpus": 16, "ram": 65536, "hour": "0.8"},
    "bm1-hf-medium": {"base": "baremetal_hf_count", "vcpus": 16, "ram": 65536, "hour": "1.1"},
    "bm1-infrastructure-medium": {"base": "baremetal_infrastructure_count", "vcpus": 32, "ram": 131072, "hour": "1.4"},
    "bm2-network-medium": {"base": "baremetal_network_count", "vcpus": 24, "ram": 98304, "hour": "1.2"},
    "bm2-storage-large": {"base": "baremetal_storage_count", "vcpus": 32, "ram": 262144, "hour": "1.9"},
    "bm3-ai-1xlarge-a100-80-8": {"base": "baremetal_gpu_a100_count", "vcpus": 128, "ram": 1048576, "hour": "14.5"},
    "bm3-ai-1xlarge-h100-80-8": {"base": "baremetal_gpu_h100_count", "vcpus": 192, "ram": 2097152, "hour": "21.0"},
    "bm3-ai-1xlarge-h200-141-8": {"base": "baremetal_gpu_h200_count", "vcpus": 192, "ram": 2097152, "hour": "27.5"},
    "bm3-ai-1xlarge-l40s-48-8": {"base": "baremetal_gpu_l40s_count", "vcpus": 96, "ram": 786432, "hour": "9.0"},
    "g1-standard-1-2": {"base": "vm_count", "vcpus": 1, "ram": 2048, "hour": "0.012"},
    "g1-standard-2-4": {"base": "vm_count", "vcpus": 2, "ram": 4096, "hour": "0.024"},
    "g1-standard-4-8": {"base": "vm_count", "vcpus": 4, "ram": 8192, "hour": "0.048"},
    "g1-standard-8-16": {"base": "vm_count", "vcpus": 8, "ram": 16384, "hour": "0.096"},
}

IP_FAMILIES = ("ipv4", "ipv6", "dual")
TOPIC_PATTERN = re.compile(r"^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9](?:[-a-z0-9]*[a-z0-9])*)*$")

# Interface variants (NewVmInterfaceSerializersPydantic): required and allowed members.
INTERFACE_VARIANTS = {
    "external": ({"type"}, {"type", "interface_name", "ip_family", "security_groups"}),
    "subnet": ({"type", "network_id", "subnet_id"}, {"type", "network_id", "subnet_id", "floating_ip", "interface_name", "security_groups"}),
    "any_subnet": ({"type", "network_id"},
                   {"type", "network_id", "ip_address", "ip_family", "floating_ip", "interface_name", "security_groups"}),
    "reserved_fixed_ip": ({"type", "port_id"}, {"type", "port_id", "floating_ip", "interface_name", "security_groups"}),
}


def check_instance_floating_ip(loc, value):
    """The oneOf by ``source`` of an instance interface's floating IP."""
    if not isinstance(value, dict):
        invalid(loc, "a JSON object is required")
    source = value.get("source")
    if source == "new":
        check_object(loc, value, {"source"}, {"source"})
    elif source == "existing":
        check_object(loc, value, {"source", "existing_floating_id"}, {"source", "existing_floating_id"})
        check_uuid(loc + ".existing_floating_id", value["existing_floating_id"])
    else:
        invalid(loc + ".source", "value is not one of new, existing")


def check_interfaces(interfaces):
    for index, item in enumerate(check_list("interfaces", interfaces)):
        loc = "interfaces.%d" % index
        if not isinstance(item, dict):
            invalid(loc, "a JSON object is required")
        kind = item.get("type")
        if kind not in INTERFACE_VARIANTS:
            invalid(loc + ".type", "no match for discriminator 'type' (allowed: %s)" % ", ".join(INTERFACE_VARIANTS))
        required, allowed = INTERFACE_VARIANTS[kind]
        check_object(loc, item, required, allowed)
        if "interface_name" in item:
            check_str(loc + ".interface_name", item["interface_name"], max_length=37)
        if "ip_family" in item:
            check_enum(loc + ".ip_family", item["ip_family"], IP_FAMILIES, nullable=True)
        for key in ("network_id", "subnet_id"):
            if key in item:
                check_uuid("%s.%s" % (loc, key), item[key])
        if "port_id" in item:
            check_str(loc + ".port_id", item["port_id"])
        if "ip_address" in item:
            try:
                ipaddress.ip_address(item["ip_address"])
            except ValueError:
                invalid(loc + ".ip_address", "value is not a valid IPv4 or IPv6 address")
        if "floating_ip" in item:
            check_instance_floating_ip(loc + ".floating_ip", item["floating_ip"])
        if "security_groups" in item:
            for group_index, group in enumerate(check_list(loc + ".security_groups", item["security_groups"])):
                group_loc = "%s.security_groups.%d" % (loc, group_index)
                check_object(group_loc, group, {"id"}, {"id"})
                check_uuid(group_loc + ".id", group["id"])
    return interfaces


def server_count(body):
    """How many servers the body asks for: one per name, or one per name template."""
    names = body.get("names")
    templates = body.get("name_templates")
    if names is not None:
        for index, name in enumerate(check_list("names", names)):
            check_str("names.%d" % index, name)
    if templates is not None:
        for index, template in enumerate(check_list("name_templates", templates)):
            check_str("name_templates.%d" % index, template, nullable=True)
    if not names and not templates:
        invalid("names", "either names or name_templates must be specified")
    return len(names) if names else len(templates)


# ---- the answers ---------------------------------------------------------------------------------
def records(sim, name, project_id, region_id):
    """The simulator's records of one kind (``sim.<name>``, a dict or a list) in a project and region."""
    held = getattr(sim, name, None) or {}
    return [record for record in (held.values() if isinstance(held, dict) else held)
            if record.get("project_id") == project_id and record.get("region_id") == region_id]


def usage_of(sim, project_id, region_id):
    """The usage of every base the simulator models, counted from what exists in the project and region."""
    servers = records(sim, "instances", project_id, region_id)
    bare = getattr(sim, "baremetal_ids", None) or {}  # bare metal servers (baremetal.py) count against their flavor's base
    instances = [record for record in servers if record["id"] not in bare]
    volumes = records(sim, "volumes", project_id, region_id)
    counted = {}
    for record in servers:
        if record["id"] in bare and record["flavor"]["flavor_id"] in FLAVORS:
            base = FLAVORS[record["flavor"]["flavor_id"]]["base"]
            counted[base] = counted.get(base, 0) + 1
    return dict(counted, **{
        "network_count": len(records(sim, "networks", project_id, region_id)),
        "subnet_count": len(records(sim, "subnets", project_id, region_id)),
        "router_count": len(records(sim, "routers", project_id, region_id)),
        "firewall_count": len(records(sim, "security_groups", project_id, region_id)),
        "floating_count": len(records(sim, "floating_ips", project_id, region_id)),
        "loadbalancer_count": len(records(sim, "load_balancers", project_id, region_id)),
        "vm_count": len(instances),
        "cpu_count": sum(instance["flavor"]["vcpus"] for instance in instances),
        "ram": sum(instance["flavor"]["ram"] for instance in instances),
        "volume_count": len(volumes),
        "volume_size": sum(volume["size"] for volume in volumes),
    })


def answer(sim, bases, requested, scope):
    """The quota answer for ``bases``: usage counted from what exists in ``scope`` (project, region) for the bases the
    simulator models, ``DEFAULT_USAGE`` for the others, the setting ``quota_usage`` over both."""
    limits = dict(DEFAULT_LIMITS, **(sim.config.get("quota_limits") or {}))
    usage = dict(DEFAULT_USAGE, **usage_of(sim, *scope))
    usage.update(sim.config.get("quota_usage") or {})
    result = {}
    for base in bases:
        result[base + "_limit"] = limits.get(base, 0)
        result[base + "_requested"] = requested.get(base, 0)
        result[base + "_usage"] = usage.get(base, 0)
    for key in sim.config.get("quota_omit") or ():
        result.pop(key, None)
    result.update(sim.config.get("quota_extra") or {})
    return result


def bases(values):
    """An object whose keys are quota bases (BM_BASES), each value checked by ``values``."""
    inner = control.mapping(values)

    def check(name, value):
        inner(name, value)
        control.unknown(name, value, BM_BASES)
        return value
    return check


class Quota(Resource):
    NAME = "quota"
    ROUTES = (
        Route("POST", BM_PATH, "baremetal", read_only=True),
        Route("POST", LB_PATH, "loadbalancer", read_only=True),
    )
    SETTINGS = {
        "quota_limits": ({}, bases(control.integer(low=0))),
        "quota_usage": ({}, bases(control.integer(low=0))),
        "quota_omit": ([], control.listing(control.text)),
        "quota_extra": ({}, control.mapping(control.anything)),
    }

    def baremetal(self, request):
        scope = scope_of(request)
        body = body_of(request)
        check_object("", body, set(), {"flavor", "interfaces", "names", "name_templates"})
        flavor = body.get("flavor")
        check_str("flavor", flavor, nullable=True)
        if flavor is not None and (flavor not in FLAVORS or not flavor.startswith("bm")):
            invalid("flavor", "unknown bare metal flavor %s" % flavor)
        interfaces = check_interfaces(body["interfaces"]) if "interfaces" in body else None
        count = server_count(body)
        requested = {}

        def add(base, amount):
            requested[base] = requested.get(base, 0) + amount

        if flavor is not None:
            spec = FLAVORS[flavor]
            add(spec["base"], count)
            add("cpu_count", spec["vcpus"] * count)
            add("ram", spec["ram"] * count)
        for item in interfaces if interfaces is not None else [{"type": "external"}]:
            if item["type"] == "external":
                add("external_ip_count", count)
            if (item.get("floating_ip") or {}).get("source") == "new":
                add("floating_count", count)
        return answer(self.sim, BM_BASES, requested, scope)

    def loadbalancer(self, request):
        scope = scope_of(request)
        body = body_of(request)
        check_object("", body, set(), {"floating_ip", "logging", "vip_ip_family", "vip_network_id", "vip_port_id"})
        requested = {"loadbalancer_count": 1}
        floating_ip = body.get("floating_ip")
        if "floating_ip" in body:
            check_object("floating_ip", floating_ip, {"source"}, {"source", "existing_floating_id"})
            check_enum("floating_ip.source", floating_ip["source"], ("new", "existing"))
            if "existing_floating_id" in floating_ip:
                check_uuid("floating_ip.existing_floating_id", floating_ip["existing_floating_id"])
            elif floating_ip["source"] == "existing":
                invalid("floating_ip.existing_floating_id", "required when source is existing")
            if floating_ip["source"] == "new":
                requested["floating_count"] = 1
        if "logging" in body:
            logging = body["logging"]
            check_object("logging", logging, set(), {"enabled", "destination_region_id", "topic_name", "retention_policy"})
            if "enabled" in logging and not isinstance(logging["enabled"], bool):
                invalid("logging.enabled", "value is not a valid boolean")
            if "destination_region_id" in logging:
                check_int("logging.destination_region_id", logging["destination_region_id"], nullable=True)
            topic = logging.get("topic_name")
            if topic is not None:
                check_str("logging.topic_name", topic, max_length=223, min_length=1)
                if not TOPIC_PATTERN.match(topic):
                    invalid("logging.topic_name", "string does not match the topic name pattern")
            policy = logging.get("retention_policy")
            if policy is not None:
                check_object("logging.retention_policy", policy, {"period"}, {"period"})
                check_int("logging.retention_policy.period", policy["period"], nullable=True, low=1, high=1825)
            if logging.get("enabled"):
                requested["laas_topic_count"] = 1
        for key in ("vip_network_id", "vip_port_id"):
            if key in body:
                check_uuid(key, body[key])
        if "vip_network_id" in body and "vip_port_id" in body:
            invalid("vip_port_id", "vip_network_id and vip_port_id are mutually exclusive")
        if "vip_ip_family" in body:
            check_enum("vip_ip_family", body["vip_ip_family"], IP_FAMILIES)
        if "vip_network_id" not in body and "vip_port_id" not in body:
            requested["external_ip_count"] = 1  # a public VIP on the default external network
        return answer(self.sim, LB_BASES, requested, scope)
