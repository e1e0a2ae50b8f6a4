#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: quota_check
short_description: Check whether new bare metal servers, instances, a load balancer or a Kubernetes cluster fit the region's quotas
version_added: 1.0.0
description:
  - Asks Gcore Cloud how much quota a planned bare metal server group, virtual machine instance group or load balancer
    would use, next to the region's limits and current usage, and tells which quotas it would exceed.
  - O(resource) chooses what is planned - bare metal servers, instances, a load balancer or a Kubernetes cluster -
    declared as the module that builds it takes it.
  - Nothing is created. The call only reads, so the module never reports a change and runs normally in check mode.
seealso:
  - module: gcore.platform.price_preview
  - module: gcore.platform.instance
author:
  - gcore.platform developers (@gcore-platform)
options:
  resource:
    description:
      - What to check. Options of the other resource are refused.
      - V(baremetal) takes O(flavor), O(interfaces) and at least one of O(names) and O(name_templates), as a
        M(gcore.platform.baremetal_server) task takes them (its networks and subnets by name, its O(interfaces[].port_group)),
        so a play gates with the declaration it builds with.
      - V(instance) takes O(flavor), O(interfaces) (without O(interfaces[].security_groups), which the instance check
        does not have), O(volumes) and at least one of O(names) and O(name_templates). Its answer has only the quotas
        the request concerns (C(vm_count), C(cpu_count), C(ram), C(volume_count), ...).
      - V(loadbalancer) takes O(floating_ip), O(logging), O(vip_network_id) or O(vip_port_id), and O(vip_ip_family).
      - V(k8s_cluster) takes O(pools) (at least one) and O(logging); a cluster counts once in C(cluster_count).
    type: str
    required: true
    choices: [baremetal, instance, loadbalancer, k8s_cluster]
  flavor:
    description:
      - Flavor name, for example V(bm1-basic-medium) (bare metal) or V(g1-standard-2-4) (instance). Only for
        O(resource=baremetal) and O(resource=instance).
    type: str
  names:
    description:
      - Names of the servers to create; one server per name. Only for O(resource=baremetal) and O(resource=instance).
      - At least one of O(names) and O(name_templates) is required for these resources; both may be given.
    type: list
    elements: str
  name_templates:
    description:
      - Name templates of the servers to create, for example V(my-server-{ip_octets}); one server per template.
        Only for O(resource=baremetal) and O(resource=instance).
      - At least one of O(names) and O(name_templates) is required for these resources; both may be given.
    type: list
    elements: str
  interfaces:
    description:
      - Network interfaces of each server, in order. Only for O(resource=baremetal) and O(resource=instance)
        (O(interfaces[].security_groups) and O(interfaces[].port_group) only for O(resource=baremetal)).
      - Each item is one of four variants chosen by O(interfaces[].type), documented in the suboptions;
        a field given for a type that has no such field, or missing where the type requires it, fails validation
        before any request is sent. Only the fields given are sent (O(interfaces[].port_group) never is).
      - Networks and subnets given by name (O(interfaces[].network), O(interfaces[].subnet)) and reserved fixed IPs by
        address are looked up before the check and sent as their IDs. The check needs the IDs, so a name that matches
        nothing fails the task naming the option, in check mode too (after the warning that check mode assumes an
        earlier task creates it), and nothing is checked.
  volumes:
    description:
      - Volumes of each instance, as M(gcore.platform.price_preview) takes them. Only for O(resource=instance).
      - Only the fields given are sent.
    type: list
    elements: dict
    suboptions:
      source:
        description:
          - Where the volume comes from.
        type: str
        required: true
        choices: [new-volume, image, snapshot, apptemplate, existing-volume]
      size:
        description:
          - Size in GiB, at least 1.
        type: int
      type_name:
        description:
          - Volume type.
        type: str
        choices: [standard, ssd_hiiops, ssd_lowlatency, ssd_local, cold, ultra]
      snapshot_id:
        description:
          - UUID of the snapshot. Required when O(volumes[].source=snapshot).
        type: str
      image_id:
        description:
          - UUID of the image (for O(volumes[].source=image)).
        type: str
  floating_ip:
    description:
      - A floating IP for the load balancer. Only for O(resource=loadbalancer).
    type: dict
    suboptions:
      source:
        description:
          - V(new) creates a floating IP; V(existing) attaches O(floating_ip.existing_floating_id).
        type: str
        required: true
        choices: [new, existing]
      existing_floating_id:
        description:
          - UUID of an existing floating IP. Required when O(floating_ip.source=existing), not allowed otherwise.
        type: str
  logging:
    description:
      - Forwarding of the load balancer's (or the cluster's) logs to Logging as a Service. Only for O(resource=loadbalancer)
        and O(resource=k8s_cluster).
      - Only the members given are sent.
    type: dict
    suboptions:
      enabled:
        description:
          - Whether logs are forwarded. When not set, the service uses V(false).
        type: bool
      destination_region_id:
        description:
          - Region the logs are written to.
        type: int
      topic_name:
        description:
          - Topic the logs are written to; 1 to 223 characters.
          - Parts separated by single dots; each part is lower-case letters and digits, with C(-) allowed inside a
            part but not at its start or end, for example V(lb-logs.eu).
        type: str
      retention_policy:
        description:
          - How long the logs are kept.
        type: dict
        suboptions:
          period:
            description:
              - Retention in days, 1 to 1825.
            type: int
            required: true
  vip_network_id:
    description:
      - UUID of the network of the load balancer's virtual IP. Only for O(resource=loadbalancer).
      - Mutually exclusive with O(vip_port_id).
    type: str
  vip_port_id:
    description:
      - UUID of an existing reserved fixed IP port for the virtual IP. Only for O(resource=loadbalancer).
      - Mutually exclusive with O(vip_network_id).
    type: str
  vip_ip_family:
    description:
      - IP family of the subnet chosen in O(vip_network_id). Only for O(resource=loadbalancer).
    type: str
    choices: [ipv4, ipv6, dual]
  pools:
    description:
      - The node pools of a planned Kubernetes cluster (the members of a M(gcore.platform.k8s_cluster) pool that the check
        takes). Only for O(resource=k8s_cluster).
    type: list
    elements: dict
    suboptions:
      name: {description: "The pool's name.", type: str}
      flavor_id: {description: "The nodes' flavor.", type: str, required: true}
      min_node_count: {description: "1 to 200.", type: int}
      max_node_count: {description: "1 to 200.", type: int}
      node_count: {description: "The nodes counted, 1 to 200 (left out, O(pools[].min_node_count))", type: int}
      boot_volume_size: {description: "10 to 2000 GiB.", type: int}
      servergroup_policy: {description: A placement group for the pool., type: str, choices: [affinity, anti-affinity, soft-anti-affinity]}
      is_public_ipv4: {description: "A public IPv4 address on each node.", type: bool}
  fail_on_exceed:
    description:
      - Fail the task when RV(exceeded) is not empty. The message names each exceeded quota with its limit, usage and
        the amount requested; RV(quota), RV(exceeded) and RV(within_limits) are returned all the same.
    type: bool
    default: false
notes:
  - For O(resource=baremetal) calls C(POST /cloud/v1/bminstances/{project_id}/{region_id}/check_limits); for
    O(resource=instance) calls C(POST /cloud/v2/instances/{project_id}/{region_id}/check_limits); for
    O(resource=loadbalancer) calls C(POST /cloud/v1/loadbalancers/{project_id}/{region_id}/check_limits); for
    O(resource=k8s_cluster) calls C(POST /cloud/v2/k8s/clusters/{project_id}/{region_id}/check_limits), whose answer holds
    only the quotas the cluster would exceed (V({}) when it fits).
  - The service does not answer an exceeded quota with an error status; the module computes RV(exceeded) itself.
  - The service may leave quotas out of its answer and may add quotas this module does not know; both are accepted.
    A quota is judged only when its C(_limit) and C(_requested) figures are present (a missing C(_usage) counts as 0).
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.interfaces.CHECKED
  - gcore.platform.attributes.INFO_MODULE
"""

EXAMPLES = r"""
- name: Would two basic bare metal servers fit?
  gcore.platform.quota_check:
    resource: baremetal
    flavor: bm1-basic-medium
    names: [web-1, web-2]
    interfaces:
      - type: external
      - type: subnet
        network_id: 0b3e1e4c-5c3d-4a8e-9d6f-2f6b8e1a7c90
        subnet_id: 7d2f4a1b-3c5e-4f6a-8b9c-0d1e2f3a4b5c
        floating_ip:
          source: new
  register: bm_quota

- name: Show what would be exceeded
  ansible.builtin.debug:
    msg: "{{ item.name }}: {{ item.usage }} used + {{ item.requested }} requested > {{ item.limit }}"
  loop: "{{ bm_quota.exceeded }}"

- name: Gate a bare metal server on its quota with the declaration it is built with
  vars:
    metal_interfaces:  # as gcore.platform.baremetal_server takes them: a network and a subnet by name, trunk groups
      - type: external
        port_group: 0
      - type: subnet
        network: router-net-1
        subnet: router-subnet-1
        port_group: 1
  block:
    - name: Fail unless one more bm1-basic-small server fits
      gcore.platform.quota_check:
        resource: baremetal
        flavor: bm1-basic-small
        names: [metal-1]
        interfaces: "{{ metal_interfaces }}"
        fail_on_exceed: true

    - name: Build it
      gcore.platform.baremetal_server:
        name: metal-1
        flavor: bm1-basic-small
        image: ubuntu-22.04-x64
        interfaces: "{{ metal_interfaces }}"

- name: Would a virtual machine with a boot volume and an extra volume fit?
  gcore.platform.quota_check:
    resource: instance
    flavor: g1-standard-2-4
    names: [web-1]
    interfaces:
      - type: external
    volumes:
      - source: image
        size: 10
      - source: new-volume
        size: 20
        type_name: ssd_hiiops
    fail_on_exceed: true

- name: Stop before creating a load balancer that would not fit
  gcore.platform.quota_check:
    resource: loadbalancer
    vip_network_id: 0b3e1e4c-5c3d-4a8e-9d6f-2f6b8e1a7c90
    vip_ip_family: dual
    floating_ip:
      source: new
    logging:
      enabled: true
      topic_name: lb-logs
      retention_policy:
        period: 45
    fail_on_exceed: true
"""

RETURN = r"""
quota:
  description:
    - The service's answer exactly as it was sent. For each quota C(<base>) it may hold C(<base>_limit),
      C(<base>_usage) and C(<base>_requested) (what the checked request would use), all integers.
    - Bare metal answers cover 50 bases (C(baremetal_basic_count), C(cpu_count), C(ram) in MiB, C(external_ip_count),
      C(floating_count), and so on); instance answers only the bases the request concerns (C(vm_count), C(cpu_count),
      C(ram), C(external_ip_count), C(floating_count), C(volume_count), C(volume_size), ...); load balancer answers
      cover C(external_ip_count), C(floating_count), C(laas_topic_count) and C(loadbalancer_count); Kubernetes cluster
      answers hold only the quotas the cluster would exceed (V({}) when it fits). Any of them may be
      missing.
  returned: success or when O(fail_on_exceed) fails the task
  type: dict
  sample:
    baremetal_basic_count_limit: 2
    baremetal_basic_count_requested: 2
    baremetal_basic_count_usage: 1
    cpu_count_limit: 200
    cpu_count_requested: 16
    cpu_count_usage: 24
    external_ip_count_limit: 10
    external_ip_count_requested: 2
    external_ip_count_usage: 3
exceeded:
  description:
    - Each quota C(<base>) with a requested amount above 0 where usage plus the requested amount is above the limit,
      sorted by name. Empty when everything fits.
  returned: success or when O(fail_on_exceed) fails the task
  type: list
  elements: dict
  contains:
    name:
      description: The quota's base name.
      type: str
      sample: baremetal_basic_count
    limit:
      description: The limit.
      type: int
      sample: 2
    requested:
      description: The amount the checked request would use.
      type: int
      sample: 2
    usage:
      description: The amount in use; V(null) when the service did not send it (then counted as 0).
      type: int
      sample: 1
  sample:
    - name: baremetal_basic_count
      limit: 2
      requested: 2
      usage: 1
within_limits:
  description: Whether RV(exceeded) is empty.
  returned: success or when O(fail_on_exceed) fails the task
  type: bool
  sample: false
"""

from ansible_collections.gcore.platform.plugins.module_utils._base import GcoreModule
from ansible_collections.gcore.platform.plugins.module_utils._checks import (
    Refused,
    ValidationError,
    check_length,
    check_pattern,
    check_range,
    check_uuid,
    strip_none,
)
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS, POLICIES
from ansible_collections.gcore.platform.plugins.module_utils._interfaces import (
    FLOATING_IP_SPEC,
    IP_FAMILIES,
    interfaces_body,
    interfaces_option,
    resolve_interfaces,
    validate_floating_ip,
    validate_interfaces,
)
from ansible_collections.gcore.platform.plugins.module_utils._parents import assumed
from ansible_collections.gcore.platform.plugins.module_utils._volumes import PLANNED, check_planned

PATHS = dict((resource, KINDS[kind].paths["check_limits"]) for resource, kind in dict(
    baremetal="bare_metal_server", instance="instance", loadbalancer="load_balancer", k8s_cluster="k8s_cluster").items())
OPTIONS = {
    "baremetal": ("flavor", "interfaces", "names", "name_templates"),
    "instance": ("flavor", "interfaces", "names", "name_templates", "volumes"),
    "loadbalancer": ("floating_ip", "logging", "vip_network_id", "vip_port_id", "vip_ip_family"),
    "k8s_cluster": ("pools", "logging"),
}
POOL_CHECKED = ("name", "flavor_id", "min_node_count", "max_node_count", "node_count", "boot_volume_size", "servergroup_policy", "is_public_ipv4")
TOPIC_PATTERN = r"^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9](?:[-a-z0-9]*[a-z0-9])*)*$"
SUFFIXES = ("_limit", "_requested", "_usage")


def _integer(value):
    """An integer figure, or None for anything else (null, text, booleans)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value


def exceeded_bases(quota):
    """The quotas a check answer says would be exceeded, sorted by name.

    A base counts when ``requested > 0`` and ``usage + requested > limit``. Keys without one of the
    three suffixes are ignored; a base without a limit or a requested figure is not judged; a
    missing usage counts as 0 (and is reported as None).
    """
    bases = {}
    for key, value in (quota or {}).items():
        for suffix in SUFFIXES:
            if isinstance(key, str) and key.endswith(suffix) and len(key) > len(suffix):
                bases.setdefault(key[:-len(suffix)], {})[suffix[1:]] = _integer(value)
                break
    exceeded = []
    for name in sorted(bases):
        figures = bases[name]
        limit, requested, usage = figures.get("limit"), figures.get("requested"), figures.get("usage")
        if limit is None or requested is None or requested <= 0:
            continue
        if (usage or 0) + requested > limit:
            exceeded.append({"name": name, "limit": limit, "requested": requested, "usage": usage})
    return exceeded


def exceeded_message(resource, exceeded):
    return "Quota check for %s: %d quota(s) would be exceeded: %s" % (resource, len(exceeded), "; ".join(
        "%s (limit %s, usage %s, requested %s)" % (item["name"], item["limit"],
                                                   "unknown" if item["usage"] is None else item["usage"],
                                                   item["requested"]) for item in exceeded))


class QuotaCheck(GcoreModule):
    cloud = True
    noun = "quota check"  # what a parent named by name is for (_parents' warnings)
    argument_spec = dict(
        resource=dict(type="str", required=True, choices=["baremetal", "instance", "loadbalancer", "k8s_cluster"]),
        flavor=dict(type="str"),
        names=dict(type="list", elements="str"),
        name_templates=dict(type="list", elements="str"),
        interfaces=interfaces_option(trunks=True),
        volumes=PLANNED,
        floating_ip=dict(type="dict", options=FLOATING_IP_SPEC),
        logging=dict(type="dict", options=dict(
            enabled=dict(type="bool"),
            destination_region_id=dict(type="int"),
            topic_name=dict(type="str"),
            retention_policy=dict(type="dict", options=dict(period=dict(type="int", required=True))),
        )),
        vip_network_id=dict(type="str"),
        vip_port_id=dict(type="str"),
        vip_ip_family=dict(type="str", choices=list(IP_FAMILIES)),
        pools=dict(type="list", elements="dict", options=dict(
            dict((member, dict(type="int")) for member in ("min_node_count", "max_node_count", "node_count", "boot_volume_size")),
            name=dict(type="str"), flavor_id=dict(type="str", required=True), is_public_ipv4=dict(type="bool"),
            servergroup_policy=dict(type="str", choices=list(POLICIES)))),
        fail_on_exceed=dict(type="bool", default=False),
    )
    module_kwargs = dict(mutually_exclusive=[("vip_network_id", "vip_port_id")])

    def validate(self):
        super().validate()
        resource = self.params["resource"]
        for option in dict.fromkeys(option for options in OPTIONS.values() for option in options):
            if option not in OPTIONS[resource] and self.params[option] is not None:
                having = " or ".join(other for other, options in OPTIONS.items() if option in options)
                raise ValidationError("%s: only for resource %s, not for resource %s" % (option, having, resource))
        if resource == "loadbalancer":
            self._validate_loadbalancer()
        elif resource == "k8s_cluster":
            self._validate_k8s_cluster()
        else:
            self._validate_baremetal()
        if resource == "instance":
            self._validate_instance()

    def _validate_baremetal(self):
        names, templates = self.params["names"], self.params["name_templates"]
        if not names and not templates:
            raise ValidationError("names or name_templates: one of them is required for resource %s, with at least one item"
                                  % self.params["resource"])
        validate_interfaces("interfaces", self.params["interfaces"], named=True)
        for index, item in enumerate(self.params["interfaces"] or []):
            check_range("interfaces[%d].port_group" % index, item.get("port_group"), 0, 3)

    def _validate_instance(self):
        for index, item in enumerate(self.params["interfaces"] or []):
            if item.get("security_groups") is not None:
                raise ValidationError("interfaces[%d].security_groups: not allowed for resource instance (its quota check "
                                      "takes the older interface variants, without security groups)" % index)
            if item.get("port_group") is not None:
                raise ValidationError("interfaces[%d].port_group: only for resource baremetal (a bare metal server's trunk "
                                      "group), not for resource instance" % index)
        check_planned(self.params["volumes"])

    def _validate_k8s_cluster(self):
        pools = self.params["pools"]
        if not pools:
            raise ValidationError("pools: required for resource k8s_cluster, with at least one pool")
        for index, pool in enumerate(pools):
            for member, low, high in (("min_node_count", 1, 200), ("max_node_count", 1, 200), ("node_count", 1, 200), ("boot_volume_size", 10, 2000)):
                check_range("pools[%d].%s" % (index, member), pool[member], low, high)
        self._validate_logging()

    def _validate_loadbalancer(self):
        validate_floating_ip("floating_ip", self.params["floating_ip"])
        check_uuid("vip_network_id", self.params["vip_network_id"])
        check_uuid("vip_port_id", self.params["vip_port_id"])
        self._validate_logging()

    def _validate_logging(self):
        logging = self.params["logging"] or {}
        topic = logging.get("topic_name")
        check_length("logging.topic_name", topic, 1, 223)
        check_pattern("logging.topic_name", topic, TOPIC_PATTERN,
                      "the topic name pattern (lower-case letters and digits, '-' inside a part, '.' between parts)")
        check_range("logging.retention_policy.period", (logging.get("retention_policy") or {}).get("period"), 1, 1825)

    def interfaces(self):
        """The interfaces with the parents they name by name as ids (each looked up once, before the check), without
        ``port_group`` (the check does not take it); a parent not built yet (check mode) fails: the check needs its id."""
        if self.params["interfaces"] is None:
            return None
        resolved = resolve_interfaces(self, "interfaces", self.params["interfaces"], addresses=False)  # the address is the check's to judge
        for index, item in enumerate(resolved):
            for field, option in (("network_id", "network"), ("subnet_id", "subnet"), ("port_id", "ip_address")):
                if assumed(item.get(field)):
                    raise Refused("interfaces[%d].%s: %s is not built yet, and the quota check needs its ID; nothing was "
                                  "checked" % (index, option, item[field].strip("()").replace(", not built yet", "")))
            item.pop("port_group", None)
        return resolved

    def body(self):
        params = self.params
        if params["resource"] == "k8s_cluster":
            body = dict(pools=[dict((member, pool[member]) for member in POOL_CHECKED) for pool in params["pools"]], logging=params["logging"])
        elif params["resource"] != "loadbalancer":
            body = dict(flavor=params["flavor"], names=params["names"], name_templates=params["name_templates"],
                        interfaces=interfaces_body(self.interfaces()), volumes=params["volumes"])
        else:
            body = dict((option, params[option]) for option in OPTIONS["loadbalancer"])
        return strip_none(body)

    def run(self):
        resource = self.params["resource"]
        quota = self.client.request("POST", PATHS[resource].format(**self.params), json=self.body(), safe=True, ok=(200,))
        exceeded = exceeded_bases(quota if isinstance(quota, dict) else {})
        result = dict(quota=quota, exceeded=exceeded, within_limits=not exceeded)
        if exceeded and self.params["fail_on_exceed"]:
            raise Refused(exceeded_message(resource, exceeded), **result)
        return result


def main():
    QuotaCheck.main()


if __name__ == "__main__":
    main()
