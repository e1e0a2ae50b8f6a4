#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: k8s_cluster
short_description: Create, scale, upgrade and delete a Gcore managed Kubernetes cluster and its pools
version_added: 1.2.0
description:
  - Makes a Gcore managed Kubernetes cluster (v2, found by its O(name)) and its node pools match what you describe (one
    create with every pool, then pools created, changed, resized or deleted one request each), waited for until the
    cluster is C(Provisioned) and every pool C(Running).
  - Upgrades the cluster only when asked (O(allow_upgrade)), and never to a lower version.
  - Writes the cluster's kubeconfig to O(kubeconfig_path) (mode C(0600)) without ever showing it.
author:
  - gcore.platform developers (@gcore-platform)
options:
  state:
    description: "V(present) creates or updates the cluster; V(absent) deletes it (none found: unchanged)."
    type: str
    choices: [present, absent]
    default: present
  name:
    description:
      - "The cluster's identity (the API addresses a cluster by name): 2 to 20 lower-case letters, digits and C(-), first a
        letter, last a letter or digit."
    type: str
    required: true
  version:
    description:
      - "The Kubernetes version, with or without its leading C(v). Required to create: one the service creates clusters with
        (M(gcore.platform.k8s_cluster_info) lists them)."
      - On an existing cluster a different version fails naming both, unless O(allow_upgrade=true); a lower one always fails.
    type: str
  allow_upgrade:
    description:
      - Whether a higher O(version) upgrades the cluster (one task, waited for); it must be one of the cluster's
        C(upgrade_versions), else the module fails listing them before any write.
    type: bool
    default: false
  keypair: {description: "Name of the project's SSH key on the nodes. Required to create; create-only.", type: str}
  fixed_network: {description: "The nodes' network (ID or exact name); create-only. Left out, the service makes one.", type: str}
  fixed_subnet: {description: "The nodes' subnet (ID or exact name, in O(fixed_network), which it needs); create-only.", type: str}
  pods_ip_pool: {description: "The pods' IPv4 network (CIDR); create-only (the service's default is V(172.16.0.0/18)).", type: str}
  services_ip_pool: {description: "The services' IPv4 network (CIDR); create-only (the service's default is V(172.24.0.0/18)).", type: str}
  cni: {description: "The API's C(cni) (C(provider) V(calico) or V(cilium), create-only; C(cilium) settings).", type: dict}
  authentication: {description: "The API's C(authentication) (C(oidc) with C(issuer_url), C(client_id), ...).", type: dict}
  autoscaler_config: {description: "The cluster-autoscaler overrides, a map of strings compared whole.", type: dict}
  logging: {description: "The API's C(logging) (C(enabled), C(destination_region_id), C(topic_name), C(retention_policy.period)).", type: dict}
  add_ons: {description: "The API's C(add_ons) (C(slurm) with C(enabled), C(file_share_id), C(ssh_key_ids), C(worker_count)).", type: dict}
  kubeconfig_path:
    description:
      - Where to write the kubeconfig (mode C(0600)) once the cluster is ready, only when the file differs; its content is
        in no output, diff or error. Left out, it is not read.
    type: path
  wait_timeout: {description: "How many seconds to wait for every task and for the cluster and its pools to be ready.", type: int, default: 3600}
notes:
  - A finished task is not a ready cluster; before each write and before it returns, the module reads the cluster until it
    is C(Provisioned) and every pool C(Running), and fails naming the cluster or pool and its status on an error status.
  - With O(wait=false) a new cluster is returned as V(null) and its pools are not resized; a kubeconfig is written only
    for a ready cluster.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.gcore.WAIT
  - gcore.platform.k8s
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.k8s_cluster_info
    description: Read clusters, the versions to create with and to upgrade to, and write a kubeconfig.
  - module: gcore.platform.ssh_key
    description: The SSH key a cluster's nodes take.
"""

EXAMPLES = r"""
- name: A cluster with two pools, its kubeconfig written for the CI
  gcore.platform.k8s_cluster:
    name: prod
    version: v1.31.1
    keypair: deploy
    pools:
      - {name: workers, flavor_id: g1-standard-2-4, min_node_count: 1, max_node_count: 5, node_count: 2, servergroup_policy: anti-affinity}
      - {name: batch, flavor_id: g1-standard-4-8, min_node_count: 1, max_node_count: 2, taints: {dedicated: "batch:NoSchedule"}}
    kubeconfig_path: /tmp/prod.kubeconfig

- name: Scale the workers, label them, and remove every pool not listed
  gcore.platform.k8s_cluster:
    name: prod
    pools:
      - {name: workers, node_count: 4, labels: {tier: web}}
    purge_pools: true

- name: Upgrade when asked to
  gcore.platform.k8s_cluster:
    name: prod
    version: 1.31.2
    allow_upgrade: true

- name: Delete the cluster
  gcore.platform.k8s_cluster:
    name: prod
    state: absent
"""

RETURN = r"""
cluster:
  description:
    - The cluster as read last (C(K8sClusterV2Serializer)), with C(pools) (each pool's record); V(null) after a delete,
      when none was found, or (O(wait=false)) while it is created. Addressed by C(name); C(id) is the service's UUID.
  returned: success
  type: dict
  sample: {name: prod, status: Provisioned, version: v1.31.1, keypair: deploy, pools: [{name: workers, node_count: 2, status: Running}]}
changes:
  description: The writes the service accepted (in check mode, planned), by cluster and pool name.
  returned: success
  type: dict
  sample: {created: [], updated: [], upgraded: [], deleted: [], pools: {created: [batch], updated: [workers], resized: [workers], deleted: []}}
tasks: {description: "IDs of the tasks the module started (with O(wait=true) each has finished).", returned: success, type: list, elements: str}
diff:
  description: The managed members, C(version) and the C(pools) (by name) before and after; never the kubeconfig.
  returned: success
  type: dict
  sample:
    before: {state: present, version: v1.31.1, pools: {workers: {name: workers, node_count: 2}}}
    after: {state: present, version: v1.31.1, pools: {workers: {name: workers, node_count: 4}}}
"""

import functools
import ipaddress
import re

from ansible.module_utils.common.warnings import warn

from ansible_collections.gcore.platform.plugins.module_utils._checks import (
    ValidationError, check_pattern, check_range, check_secret_path, check_uuid, require, save_secret, strip_none)
from ansible_collections.gcore.platform.plugins.module_utils._children import Children
from ansible_collections.gcore.platform.plugins.module_utils._cloud import REGION, check_name
from ansible_collections.gcore.platform.plugins.module_utils._kinds import K8S_NAME, KINDS, POLICIES, k8s_version
from ansible_collections.gcore.platform.plugins.module_utils._members import Member, create_only
from ansible_collections.gcore.platform.plugins.module_utils._parents import parent_id
from ansible_collections.gcore.platform.plugins.module_utils._parts import Part
from ansible_collections.gcore.platform.plugins.module_utils._resource import GcoreResourceModule
from ansible_collections.gcore.platform.plugins.module_utils._volumes import TYPES as VOLUME_TYPES
from ansible_collections.gcore.platform.plugins.module_utils._writes import Write, request

KIND = KINDS["k8s_cluster"]
READY = "Provisioned"
MAPS = ("labels", "taints", "kubelet_config", "crio_config")
POOL_PATCHED = ("min_node_count", "max_node_count", "auto_healing_enabled", "labels", "taints")
POOL_FIXED = ("flavor_id", "boot_volume_size", "boot_volume_type", "servergroup_policy", "is_public_ipv4", "kubelet_config", "crio_config")
POOL_SPEC = dict(
    name=dict(type="str", required=True), flavor_id=dict(type="str"), is_public_ipv4=dict(type="bool"), auto_healing_enabled=dict(type="bool"),
    min_node_count=dict(type="int"), max_node_count=dict(type="int"), node_count=dict(type="int"), boot_volume_size=dict(type="int"),
    boot_volume_type=dict(type="str", choices=list(VOLUME_TYPES)),
    servergroup_policy=dict(type="str", choices=list(POLICIES)),
    **dict((member, dict(type="dict")) for member in MAPS))
BLOCKS = ("cni", "authentication", "logging", "add_ons")
CHANGES = {"created": str, "updated": str, "upgraded": str, "deleted": str, "pools": {"created": str, "updated": str, "resized": str, "deleted": str}}
TAINT = re.compile(r"^[^:]*:(NoSchedule|PreferNoSchedule|NoExecute)$")
TOPIC = r"^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9](?:[-a-z0-9]*[a-z0-9])*)*$"


def subset(desired, current):
    """Whether ``current`` holds everything ``desired`` gives (maps compared member by member, the rest whole)."""
    if isinstance(desired, dict) and isinstance(current, dict):
        return all(subset(value, current.get(key)) for key, value in desired.items())
    return desired == current


def merged(current, desired):
    """``current`` with ``desired`` written over it (maps member by member): a PATCH replaces the blocks it sends."""
    if not isinstance(desired, dict) or not isinstance(current, dict):
        return desired
    return dict(current, **dict((key, merged(current.get(key), value)) for key, value in desired.items()))


def readiness(record):
    """The cluster's status, which pool is not ``Running`` yet once it is ``Provisioned``, or an ``error`` naming either."""
    pending = [pool for pool in record.get("pools") or [] if pool.get("status") != "Running"]
    if record.get("status") == "Failed" or (pending and str(pending[0].get("status")).lower().startswith(("error", "fail"))):
        return "error (%s)" % ("Failed" if record.get("status") == "Failed" else "pool %s is %s" % (pending[0]["name"], pending[0]["status"]))
    if record.get("status") != READY or not pending:
        return record.get("status")
    return "%s but pool %s is %s" % (READY, pending[0].get("name"), pending[0].get("status"))


class Waiting:
    """The statuses on their way to ready: a cluster being provisioned, or a pool not ``Running`` yet."""

    def __contains__(self, value):
        return value in ("Provisioning", "Pending", "Unknown") or str(value).startswith(READY + " but")


def wanted_block(value, record):
    """A cluster block as given (unset members left out); the CNI provider is create-only: another one fails before any write."""
    provider, current = (value or {}).get("provider"), ((record or {}).get("cni") or {}).get("provider")
    require(record is None or provider in (None, current), "cni.provider", "k8s cluster %s runs %s, not %s, and the CNI provider is set only "
            "when a cluster is created (nothing was sent)" % ((record or {}).get("name"), current, provider))
    return strip_none(value)


def check_map(option, value, pattern=None, rule=""):
    for key, item in (value or {}).items():
        require(isinstance(item, str), "%s.%s" % (option, key), "must be a string (quote it)")
        require(pattern is None or pattern.match(item), "%s.%s" % (option, key), rule)


def pool_body(item):
    return dict((member, value) for member, value in item.items() if value is not None and member != "node_count")


def fixed_value(pool, member):
    """A create-only member of a pool as compared (a map left out reads as none)."""
    return pool.get(member) or ({} if member in MAPS else pool.get(member))


def pool_after(item, pool):
    """A pool as it will be: what the record holds (nothing for a new one), with the listed members; ``node_count`` as asked,
    or moved into the new range (a PATCH of the minimum or maximum moves it, docs/api_reference.md section 19.3)."""
    after = dict(pool or {}, **dict((member, value) for member, value in item.items() if value is not None))
    low, high = after["min_node_count"], after.get("max_node_count") or after["min_node_count"]
    after["node_count"] = item["node_count"] or (min(max(pool["node_count"], low), high) if pool else low)
    return dict((member, after.get(member)) for member in sorted(POOL_SPEC) if member in after or pool)


class Pools(Children):
    """The pools: children keyed (and addressed) by name, read with the cluster and carried by its create; created first
    (a purge never leaves none), patched, resized by a request of their own and (``purge_pools``) deleted, each write
    once the cluster is ready."""

    inside, locked, ident, in_create, every = "pools", True, "name", True, True
    own, order = ("node_count",), ("creates", "updates", "deletes")

    def __init__(self):
        pools = KIND.path("/{name}/pools", "v2")  # under the cluster's item path
        members = [Member(member) for member in POOL_PATCHED] + [Member(member, read=lambda pool, member=member: fixed_value(pool, member))
                                                                 for member in POOL_FIXED]
        super().__init__("pools", "pool", {"create": pools, "item": pools + "/{id}", "resize": "POST %s/{id}/resize" % pools}, members, option="pools",
                         body=pool_body, required=("flavor_id", "min_node_count"), create_only=POOL_FIXED, replace=None,
                         mode=lambda params: "overridden" if params["purge_pools"] else "merged")

    def check(self, module):
        items, names = module.params["pools"], {}
        require(items is None or items, "pools", "a cluster keeps at least one pool: give one, or leave pools out")
        for index, item in enumerate(items or []):
            where, low, high, count = "pools[%s]" % index, item["min_node_count"], item["max_node_count"], item["node_count"]
            check_pattern(where + ".name", item["name"], K8S_NAME[0], K8S_NAME[1])
            require(item["name"] not in names, where + ".name", "pool %s is given twice (pools[%s])" % (item["name"], names.get(item["name"])))
            names[item["name"]] = index
            for member, bounds in (("min_node_count", (1, 200)), ("max_node_count", (1, 200)), ("node_count", (1, 200)), ("boot_volume_size", (10, 2000))):
                check_range("%s.%s" % (where, member), item[member], *bounds)
            require(None in (low, high) or low <= high, where + ".max_node_count", "must be at least min_node_count (%s)" % low)
            require(count is None or (low or 1) <= count <= (high or 200), where + ".node_count", "must be between min_node_count and max_node_count")
            for member in MAPS:
                check_map("%s.%s" % (where, member), item[member], TAINT if member == "taints" else None, "a taint is 'value:Effect' (Effect "
                          "NoSchedule, PreferNoSchedule or NoExecute)")

    def differ(self, item, record, params):
        """The members that differ, and ``node_count`` where it differs from where the PATCH moves it (a resize)."""
        changes, after = super().differ(item, record, params), pool_after(item, record)
        require(after["min_node_count"] <= after["max_node_count"] and after["min_node_count"] <= after["node_count"] <= after["max_node_count"],
                "pools[%s].node_count" % params["pools"].index(item), "pool %s would have %s nodes outside min_node_count %s and "
                "max_node_count %s" % (item["name"], after["node_count"], after["min_node_count"], after["max_node_count"]))
        if after["node_count"] != pool_after(dict(item, node_count=None), record)["node_count"]:
            changes["node_count"] = after["node_count"]
        return changes

    @staticmethod
    def after_create(item):
        """A new pool has ``min_node_count`` nodes: another ``node_count`` is a resize."""
        return {"node_count": item["node_count"]} if (item["node_count"] or item["min_node_count"]) != item["min_node_count"] else {}

    def child_writes(self, item, record, changes, held, params):
        """A pool's create or PATCH, then its resize: a request of its own, done once the pool has that many nodes."""
        name, count = item["name"], (changes if record else self.after_create(item)).get("node_count")
        method, path = request(self.paths, "resize", held.scope or params, name)
        return super().child_writes(item, record, changes, held, params) + ([] if count is None else [Write(
            "update", method, path, {"node_count": count}, names=[name], said={"pools.resized": [name]}, reread=held.again,
            done=lambda listing: any(found.get("name") == name and found.get("node_count") == count for found in listing))])

    def created_said(self, wanted):
        """The cluster's create says the pools it carries, and those it resizes after."""
        return dict(super().created_said(wanted), **{"pools.resized": [item["name"] for item in wanted if self.after_create(item)]})

    def needs(self, index, missing, item, params):
        return "pools[%s].%s: required to create pool %s" % (index, missing[0], item["name"])

    def fixed(self, index, member, item, record, params):
        return ("pools[%s].%s: pool %s of k8s cluster %s has %s %r, not %r, and %s can only be set when a pool is created; add a pool under "
                "a new name and remove this one (purge_pools), nothing was sent" % (
                    index, member, item["name"], params["name"], member, fixed_value(record, member), item[member], member))

    def shown_child(self, record):
        return pool_after(dict.fromkeys(POOL_SPEC), record)

    def wanted_child(self, item, record, params):
        return pool_after(item, record)


class Upgrade(Part):
    """The version: one upgrade when it differs (``examine`` allowed it before any write)."""

    name = option = "version"

    def wanted(self, module):
        return None if module.params["state"] == "absent" else module.params["version"]

    def views(self, state, wanted, params):
        """The version held, and the one wanted (as held when it is the same)."""
        held = (state or {}).get("version")
        return held, held if held and k8s_version(held) == k8s_version(wanted) else wanted

    def plan(self, record, wanted, params):
        if k8s_version(record["version"]) == k8s_version(wanted):
            return []
        return [Write("upgrade", "POST", KIND.paths["upgrade"].format(**params), {"version": wanted}, locked=record, said={"upgraded": [params["name"]]},
                      done=lambda found: k8s_version((found or {}).get("version", "0")) == k8s_version(wanted))]


class Kubeconfig(Part):
    """The kubeconfig written to a file once the cluster is ready: read with a ready cluster, planned (a GET: the file is
    written from its answer, once the cluster is ready) only when the file differs; shown nowhere."""

    name = option = "kubeconfig_path"

    def wanted(self, module):
        """The file, as the writer of its content (``save_secret``: the content masked in every output first)."""
        path = module.params["kubeconfig_path"]
        return None if module.params["state"] == "absent" or path is None else functools.partial(save_secret, module.module, self.option, path)

    views = staticmethod(lambda *_views: (None, None))  # the content is shown nowhere

    def fetch(self, get, record, params):
        """The cluster, with its ``kubeconfig`` once it is ready (None: not read)."""
        if record is None or readiness(record) != READY:
            return record and dict(record, kubeconfig=None)
        return dict(record, kubeconfig=(get(KIND.paths["config"].format(**params), one=True) or {}).get("config"))

    def plan(self, record, wanted, params):
        status = readiness(record)
        if status == READY and record["kubeconfig"] is not None and not wanted(record["kubeconfig"], check=True):
            return []
        if status != READY and not params["wait"]:
            warn("kubeconfig_path: k8s cluster %s is %s: with wait: false its kubeconfig is not written" % (params["name"], status))
            return []

        def then(accepted, value):
            if accepted:
                wanted(value[0]["config"])
        return [Write("kubeconfig", "GET", KIND.paths["config"].format(**params), names=[params["kubeconfig_path"]], locked=record, said={},
                      then=then)]


class K8sCluster(GcoreResourceModule):
    argument_spec = dict(
        name=dict(type="str", required=True), state=dict(type="str", choices=["present", "absent"], default="present"),
        version=dict(type="str"), allow_upgrade=dict(type="bool", default=False), keypair=dict(type="str", no_log=False),
        fixed_network=dict(type="str"), fixed_subnet=dict(type="str"), pods_ip_pool=dict(type="str"), services_ip_pool=dict(type="str"),
        autoscaler_config=dict(type="dict"), pools=dict(type="list", elements="dict", options=POOL_SPEC),
        purge_pools=dict(type="bool", default=False), kubeconfig_path=dict(type="path"), wait_timeout=dict(type="int", default=3600),
        **dict((block, dict(type="dict")) for block in BLOCKS))
    cloud = waits = asynchronous = True
    noun, result_key, scope, paths, lock = KIND.noun, "cluster", REGION, KIND.paths, "task_id"
    id_option = name_option = None  # the name is in the path: one GET finds the cluster, its pools in it
    created_key = KIND.created_key
    required_to_create = ("version", "keypair", "pools")
    ready = (readiness, (READY,), Waiting())
    changes = CHANGES

    @property
    def title(self):
        return "K8s cluster %s" % self.params["name"]

    @property
    def members(self):
        name, told = self.params["name"], []  # fresh members for each write: its first member that differs says it, once

        def said(desired, current):
            told.append(name)
            return {"created" if current is None else "updated": told[:1] if len(told) == 1 else []}
        fixed = [create_only(option, lambda record, option=option: record.get(option), self.noun)
                 for option in ("keypair", "fixed_network", "fixed_subnet", "pods_ip_pool", "services_ip_pool")]
        fixed[0].said = said
        blocks = [Member(block, read=read, want=wanted_block, same=subset, send=lambda desired, current: merged(current, desired),
                         after=lambda desired, current: merged(current, desired), said=said) for block, read in (
            ("cni", None), ("authentication", lambda record: {"oidc": (record.get("authentication") or {}).get("oidc")}), ("logging", None), ("add_ons", None))]
        return tuple(fixed + blocks + [Member("autoscaler_config", read=lambda record: record.get("autoscaler_config") or {}, said=said)])

    parts = (Upgrade(), Pools(), Kubeconfig())

    def validate(self):
        super().validate()
        params = self.params
        check_pattern("name", params["name"], K8S_NAME[0], K8S_NAME[1])
        check_pattern("version", params["version"], r"^v?\d+(\.\d+){1,2}$", "a Kubernetes version such as v1.31.2")
        check_name("keypair", params["keypair"])
        require(params["fixed_subnet"] is None or params["fixed_network"] is not None, "fixed_subnet", "needs fixed_network")
        for option in ("pods_ip_pool", "services_ip_pool"):
            if params[option] is not None:
                try:
                    params[option] = str(ipaddress.IPv4Network(params[option]))
                except ValueError as exc:
                    raise ValidationError("%s: %s is not an IPv4 network in CIDR notation (%s)" % (option, params[option], exc))
        check_map("autoscaler_config", params["autoscaler_config"])
        for option, takes in (("cni", ("provider", "cilium")), ("authentication", ("oidc",)), ("add_ons", ("slurm",)),
                              ("logging", ("enabled", "destination_region_id", "topic_name", "retention_policy"))):
            require(set(params[option] or {}) <= set(takes), option, "takes %s" % ", ".join(takes))
        cni, oidc, logging = params["cni"] or {}, (params["authentication"] or {}).get("oidc") or {}, params["logging"] or {}
        require(cni.get("provider", "calico") in ("calico", "cilium") and (not cni.get("cilium") or cni.get("provider") == "cilium"),
                "cni.provider", "is calico or cilium (cilium settings need cilium)")
        require(not oidc.get("issuer_url") or str(oidc["issuer_url"]).startswith("https://"), "authentication.oidc.issuer_url", "must be an https URL")
        check_pattern("logging.topic_name", logging.get("topic_name"), TOPIC, "lower-case DNS-like labels separated by dots")
        check_range("logging.retention_policy.period", (logging.get("retention_policy") or {}).get("period"), 1, 1825)
        slurm = (params["add_ons"] or {}).get("slurm") or {}
        for ident in [slurm.get("file_share_id")] + list(slurm.get("ssh_key_ids") or []):
            check_uuid("add_ons.slurm", ident)
        check_secret_path("kubeconfig_path", params["kubeconfig_path"])

    # ---- hooks ------------------------------------------------------------------------------
    def resolve(self):
        """The network and subnet by name, before the lookup (their ids are what the cluster holds)."""
        params = self.params
        if params["state"] == "present":
            params["fixed_network"] = parent_id(self, "network", params["fixed_network"], "fixed_network")
            params["fixed_subnet"] = parent_id(self, "subnet", params["fixed_subnet"], "fixed_subnet", query={"network_id": params["fixed_network"]})

    def examine(self, record):
        """Before any write: the version among the create versions (a create: its SSH key found too), or another version of
        a cluster only as an upgrade asked for and offered; the service's spelling is what is sent."""
        params, current = self.params, (record or {}).get("version")
        wanted, which = params["version"], "upgrade_versions" if record else "create_versions"
        missing = self.missing(params) if record is None and params["state"] == "present" else []
        require(not missing, " and ".join(missing), "required to create k8s cluster %s (nothing was sent)" % params["name"])
        if params["state"] == "absent" or wanted is None or (current and k8s_version(current) == k8s_version(wanted)):
            return
        if record is not None:
            require(k8s_version(wanted) > k8s_version(current), "version", "k8s cluster %s runs %s and %s is lower: a cluster is never "
                    "downgraded (nothing was sent)" % (params["name"], current, wanted))
            require(params["allow_upgrade"], "version", "k8s cluster %s runs %s, not %s; set allow_upgrade: true to upgrade it (nothing "
                    "was sent)" % (params["name"], current, wanted))
        offered = [item["version"] for item in self.client.get(KIND.paths[which].format(**params))["results"]]
        found = [version for version in offered if k8s_version(version) == k8s_version(wanted)]
        require(found, "version", "%s is not one of the %s (%s); nothing was sent" % (wanted, which.replace("_", " "), ", ".join(offered) or "none now"))
        params["version"] = found[0]
        if record is None:
            parent_id(self, "ssh_key", params["keypair"], "keypair")

    def create_body(self):
        params = self.params
        body = dict((option, params[option]) for option in ("name", "keypair", "version", "fixed_network", "fixed_subnet", "pods_ip_pool",
                                                            "services_ip_pool", "autoscaler_config") if params[option] is not None)
        body.update((block, strip_none(params[block])) for block in BLOCKS if params[block] is not None)
        self.parts[1].planned([], params["pools"], params)  # every pool a create: what one lacks fails, nothing sent
        return dict(body, pools=[pool_body(item) for item in params["pools"]])


def main():
    K8sCluster.main()


if __name__ == "__main__":
    main()
