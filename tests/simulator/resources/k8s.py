# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Managed Kubernetes, v2 (docs/api_reference.md section 19.3): clusters and their pools, addressed by **name**.

- ``GET /cloud/v2/k8s/{p}/{r}/create_versions``: ``{count, results: [{version}]}`` of ``VERSIONS``.
- ``GET /cloud/v2/k8s/clusters/{p}/{r}``: ``{count, results}`` (``limit``/``offset`` when asked: the SDK's).
- ``POST .../clusters/{p}/{r}`` (``K8sClusterCreateV2Serializer``): 200 ``{tasks}``; the cluster shows at once as
  ``Provisioning``, its pools ``Creating`` (each at ``min_node_count`` nodes), locked by the ``create_k8s_cluster``
  task (``task_id``); when it finishes the cluster is ``Provisioned`` and its pools ``Running``, and the task names
  it in ``created_resources.k8s_clusters``. Refused: a name the region already has (409), an unknown version (400,
  naming the create versions), a ``keypair`` that is no SSH key name of the project (400), an unknown flavor (400),
  ``min_node_count`` above ``max_node_count`` (400), two pools of one name (400), a ``fixed_subnet`` without its
  ``fixed_network`` or not in it (400), an unknown network or subnet (404). A failed task leaves it ``Failed``.
- ``GET/PATCH/DELETE .../{cluster_name}``: the record (``K8sClusterV2Serializer``, with its pools); the PATCH
  (``add_ons``, ``authentication``, ``autoscaler_config``, ``cni``, ``ddos_profile``, ``logging``; a member sent
  replaces that block; ``cni.provider`` cannot change: 400) and the DELETE (status ``Deleting``; gone when it
  finishes) answer ``{tasks}``.
- ``GET .../{cluster_name}/config``: the kubeconfig (``K8sClusterConfigV2Serializer``; its text holds
  ``KUBECONFIG_MARK``, so the stories' search of their -vvvv output finds any leak).
- ``GET .../{cluster_name}/upgrade_versions``: the versions of ``VERSIONS`` above the cluster's, at most one minor
  version up; ``POST .../upgrade`` ``{version}``: an ``upgrade_k8s_cluster`` task (``Provisioning`` meanwhile); a
  version not among them (a lower one included) is refused (400).
- Pools: ``GET/POST .../{cluster_name}/pools``, ``GET/PATCH/DELETE .../pools/{pool_name}``, ``POST
  .../pools/{pool_name}/resize`` ``{node_count}``. Create (``create_k8s_pool``, ``Creating``; a failed one leaves no pool), resize
  (``resize_k8s_pool``, ``Resizing``; a count outside min..max is refused, 400) and delete (``delete_k8s_pool``,
  ``Deleting``; the cluster's last pool is refused, 400) answer ``{tasks}``; the PATCH is synchronous and answers the
  pool (a new min or max moves ``node_count`` into the range, as the autoscaler would; min above max: 400).
- Locks: every task of a cluster or its pools sets the cluster's ``task_id``: a write meanwhile answers 409. A write
  while the cluster is not ``Provisioned`` or a pool not ``Running`` answers 409 "Cluster or pool is not ready"
  (but a DELETE of the cluster, or of a pool in ``Error``).
- Setting ``k8s_settle_reads`` (default 1): after a cluster task or a pool task finishes, the cluster (or the pool)
  still shows its transitional status for that many reads of it: the service's "the task finishes before the cluster
  settles" (section 19.3), so a module waits for readiness after a task, not only for the task.
- ``POST .../clusters/{p}/{r}/check_limits`` and ``.../pools/check_limits``: only the exceeded quotas (``{}``: none),
  from the quota family's limits and ``FLAVORS``; ``POST /cloud/v2/pricing/{p}/{r}/k8s/clusters``: the pools' price.

State: ``sim.k8s_clusters`` (``"project/region/name"`` -> record). Nothing is seeded.
"""

from __future__ import annotations

import copy
import re
import uuid
from decimal import Decimal

from simulator import control
from simulator.core import ApiFailure, Route, now_iso, page
from simulator.resources.production import Collection, scope
from simulator.resources.quota import DEFAULT_LIMITS, FLAVORS
from simulator.validation import body_of, check_bool, check_enum, check_int, check_list, check_object, check_str, invalid

SCOPE = r"(?P<project_id>[^/]+)/(?P<region_id>[^/]+)"
LIST = r"/cloud/v2/k8s/clusters/" + SCOPE
POOL = "/{id}/pools/(?P<pool_name>[^/]+)"
NAME = re.compile(r"^[a-z][a-z0-9\-]{0,18}[a-z0-9]$")
VERSIONS = ("v1.30.6", "v1.31.1", "v1.31.2", "v1.32.1")
VOLUME_TYPES = ("cold", "ssd_hiiops", "ssd_local", "ssd_lowlatency", "standard", "ultra")
POLICIES = ("affinity", "anti-affinity", "soft-anti-affinity")
POOL_CREATE = ("name", "flavor_id", "min_node_count", "max_node_count", "boot_volume_size", "boot_volume_type",
               "servergroup_policy", "is_public_ipv4", "auto_healing_enabled", "labels", "taints", "kubelet_config",
               "crio_config", "security_group_ids")
POOL_PATCH = ("auto_healing_enabled", "labels", "taints", "min_node_count", "max_node_count", "node_count", "security_group_ids")
PATCHED = ("add_ons", "authentication", "autoscaler_config", "cni", "ddos_profile", "logging")
CREATE = PATCHED + ("name", "keypair", "version", "pools", "fixed_network", "fixed_subnet", "pods_ip_pool", "services_ip_pool",
                    "pods_ipv6_pool", "services_ipv6_pool", "is_ipv6", "csi")
TASKS = ("create_k8s_cluster", "update_k8s_cluster", "upgrade_k8s_cluster", "delete_k8s_cluster", "create_k8s_pool",
         "resize_k8s_pool", "delete_k8s_pool")
KUBECONFIG_MARK = "SIM-KUBECONFIG-SECRET-"
CILIUM = {"cni_exclusive": True, "encryption": False, "hubble_relay": False, "hubble_ui": False, "lb_acceleration": False,
          "lb_mode": "snat", "mask_size": 24, "mask_size_v6": 120, "routing_mode": "tunnel", "tunnel": "geneve"}
QUOTA_BASES = ("cluster_count", "cpu_count", "ram", "vm_count", "volume_count", "volume_size", "external_ip_count",
               "laas_topic_count", "servergroup_count")
VOLUME_MONTH = {"standard": "0.1", "ssd_hiiops": "0.2", "ssd_lowlatency": "0.25", "ssd_local": "0.15", "cold": "0.05", "ultra": "0.4"}


def version_key(version):
    return tuple(int(part) for part in version.lstrip("v").split("."))


def upgrades(version):
    """The versions a cluster of ``version`` can be upgraded to: higher, at most one minor version up."""
    major, minor = version_key(version)[:2]
    return [item for item in VERSIONS if version_key(item) > version_key(version) and version_key(item)[:2] <= (major, minor + 1)]


def check_map(loc, value):
    """A ``{str: str}`` member (labels, taints, configs, autoscaler_config), null allowed."""
    if value is None:
        return
    if not isinstance(value, dict):
        invalid(loc, "a JSON object is required")
    for key, item in value.items():
        check_str("%s.%s" % (loc, key), item)


def check_pool(loc, pool, known=()):
    check_object(loc, pool, ("name", "flavor_id", "min_node_count"), POOL_CREATE)
    check_str(loc + ".name", pool["name"], max_length=20, min_length=1)
    if not NAME.match(pool["name"]):
        invalid(loc + ".name", "string does not match pattern %s" % NAME.pattern)
    check_str(loc + ".flavor_id", pool["flavor_id"])
    check_int(loc + ".min_node_count", pool["min_node_count"], low=1, high=200)
    check_int(loc + ".max_node_count", pool.get("max_node_count"), nullable=True, low=1, high=200)
    check_int(loc + ".boot_volume_size", pool.get("boot_volume_size"), nullable=True, low=10, high=2000)
    check_enum(loc + ".boot_volume_type", pool.get("boot_volume_type"), VOLUME_TYPES, nullable=True)
    check_enum(loc + ".servergroup_policy", pool.get("servergroup_policy"), POLICIES, nullable=True)
    for flag in ("is_public_ipv4", "auto_healing_enabled"):
        if pool.get(flag) is not None:
            check_bool("%s.%s" % (loc, flag), pool[flag])
    for member in ("labels", "taints", "kubelet_config", "crio_config"):
        check_map("%s.%s" % (loc, member), pool.get(member))
    for index, ident in enumerate(check_list(loc + ".security_group_ids", pool.get("security_group_ids", []))):
        check_str("%s.security_group_ids.%s" % (loc, index), ident)
    if pool["flavor_id"] not in FLAVORS:
        raise ApiFailure(400, "Flavor %s is not available for Kubernetes pools in this region" % pool["flavor_id"])
    if pool.get("max_node_count") is not None and pool["min_node_count"] > pool["max_node_count"]:
        raise ApiFailure(400, "Pool %s: min_node_count %s is above max_node_count %s"
                         % (pool["name"], pool["min_node_count"], pool["max_node_count"]))
    if pool["name"] in known:
        raise ApiFailure(400, "Pool %s already exists in the cluster" % pool["name"])


def check_block(loc, value, allowed):
    """An object member of the create or PATCH body (null allowed): unknown members refused."""
    if value is not None:
        check_object(loc, value, (), allowed)


def check_settings(body):
    """The members a create and a PATCH share (the published schemas, their main rules)."""
    cni = body.get("cni")
    check_block("cni", cni, ("provider", "cilium"))
    if cni:
        check_enum("cni.provider", cni.get("provider", "calico"), ("calico", "cilium"))
        check_block("cni.cilium", cni.get("cilium"), tuple(CILIUM))
    auth = body.get("authentication")
    check_block("authentication", auth, ("oidc",))
    if auth and auth.get("oidc") is not None:
        oidc = auth["oidc"]
        check_block("authentication.oidc", oidc, ("client_id", "groups_claim", "groups_prefix", "issuer_url", "required_claims",
                                                  "signing_algs", "username_claim", "username_prefix"))
        for index, alg in enumerate(oidc.get("signing_algs") or []):
            check_enum("authentication.oidc.signing_algs.%s" % index, alg,
                       ("ES256", "ES384", "ES512", "PS256", "PS384", "PS512", "RS256", "RS384", "RS512"))
        check_map("authentication.oidc.required_claims", oidc.get("required_claims"))
    check_map("autoscaler_config", body.get("autoscaler_config"))
    logging = body.get("logging")
    check_block("logging", logging, ("enabled", "destination_region_id", "topic_name", "retention_policy"))
    if logging:
        check_bool("logging.enabled", logging.get("enabled", False))
        check_int("logging.destination_region_id", logging.get("destination_region_id"), nullable=True)
        check_str("logging.topic_name", logging.get("topic_name"), nullable=True, max_length=223, min_length=1)
    add_ons = body.get("add_ons")
    check_block("add_ons", add_ons, ("slurm",))
    if add_ons and add_ons.get("slurm") is not None:
        check_block("add_ons.slurm", add_ons["slurm"], ("enabled", "file_share_id", "ssh_key_ids", "worker_count"))
        if add_ons["slurm"].get("enabled"):
            raise ApiFailure(400, "The Slurm add-on needs a GPU pool and VAST NFS (csi.nfs.vast_enabled)")
    check_block("ddos_profile", body.get("ddos_profile"), ("enabled", "fields", "profile_template", "profile_template_name"))


class K8sClusters(Collection):
    NAME, NOUN, COLLECTION, VERSION, ID_KEY, ID_PARAM, ID_CHECK = "k8s", "K8s cluster", "k8s/clusters", "v2", "name", "cluster_name", None
    ACTIONS = (("GET", "/{id}/config", "kubeconfig"), ("GET", "/{id}/upgrade_versions", "upgrade_versions"),
               ("POST", "/{id}/upgrade", "upgrade"), ("GET", "/{id}/pools", "list_pools"), ("POST", "/{id}/pools", "create_pool"),
               ("GET", POOL, "get_pool"), ("PATCH", POOL, "patch_pool"), ("DELETE", POOL, "delete_pool"),
               ("POST", POOL + "/resize", "resize_pool"), ("GET", "/create_versions", "create_versions", "v2", "k8s"))
    STATE = ("k8s_clusters",)  # by "<project>/<region>/<name>"
    TASK_TYPES = TASKS
    SETTINGS = {"k8s_settle_reads": (1, control.integer(low=0))}
    CONTROLS = {"k8s_status": "set_status"}
    ROUTES = (  # reads that POST (none a write)
        Route("POST", LIST + r"/check_limits", "check_limits", read_only=True),
        Route("POST", LIST + r"/pools/check_limits", "check_pool_limits", read_only=True),
        Route("POST", r"/cloud/v2/pricing/" + SCOPE + r"/k8s/clusters", "price", read_only=True),
    )

    def reset(self):
        self.sim.k8s_clusters = {}
        self.settling = {}  # key -> {None: (status, reads left)} for the cluster, {pool name: (...)} for its pools
        self.failed = {}  # task id -> what its failure leaves

    # ---- controls ---------------------------------------------------------------------------------
    def set_status(self, body):
        """``{cluster, status, pool?}``: a cluster's (or one of its pools') status, as the service could show it."""
        control.record({"cluster": control.text, "status": control.text, "pool": control.text}, required=("cluster", "status"))("k8s_status", body)
        record = next((item for item in self.sim.k8s_clusters.values() if item["name"] == body["cluster"]), None)
        if record is None:
            raise control.ControlError("cluster: no cluster %s" % body["cluster"])
        target = record if body.get("pool") is None else next((item for item in record["pools"] if item["name"] == body["pool"]), None)
        if target is None:
            raise control.ControlError("pool: cluster %s has no pool %s" % (body["cluster"], body["pool"]))
        target["status"] = body["status"]
        return copy.deepcopy(record)

    # ---- records ------------------------------------------------------------------------------------
    def key(self, request, name=None):
        project_id, region_id = scope(request)
        return "%s/%s/%s" % (project_id, region_id, name or request.params["cluster_name"])

    def sync(self):
        """A failed task unlocks its cluster, leaving what its failure leaves."""
        for record in list(self.sim.k8s_clusters.values()):
            task = self.sim.tasks.get(record["task_id"]) if record["task_id"] else None
            if record["task_id"] and (task is None or (task["done"] and task["record"]["state"] == "ERROR")):
                undo = self.failed.pop(record["task_id"], None)
                record["task_id"] = None
                if undo:
                    undo()

    def one(self, request, unlocked=False):
        self.sync()
        record = self.sim.k8s_clusters.get(self.key(request))
        if record is None:
            raise ApiFailure(404, "K8s cluster %s not found" % request.params["cluster_name"])
        return self.unlocked(record) if unlocked else record

    def pool_of(self, record, name):
        pool = next((item for item in record["pools"] if item["name"] == name), None)
        if pool is None:
            raise ApiFailure(404, "K8s cluster pool %s not found" % name)
        return pool

    def writable(self, record, pool=None):
        """A write needs the cluster unlocked (409) and ready (409 "Cluster or pool is not ready")."""
        self.unlocked(record)
        if record["status"] != "Provisioned" or any(item["status"] != "Running" and item is not pool for item in record["pools"]):
            raise ApiFailure(409, "Cluster or pool is not ready")
        return record

    def shown(self, record, _request=None):
        """The record as a read shows it: a settling cluster or pool counts the read."""
        settling = self.settling.get(self.key_of(record)) or {}
        for name, (status, left) in list(settling.items()):
            target = record if name is None else next((item for item in record["pools"] if item["name"] == name), None)
            if target is None or left <= 0:
                settling.pop(name)
                if target is not None:
                    target["status"] = status
            else:
                settling[name] = (status, left - 1)
        return dict((key, copy.deepcopy(value)) for key, value in record.items() if not key.startswith("_"))

    @staticmethod
    def key_of(record):
        return "%s/%s/%s" % (record["_project_id"], record["_region_id"], record["name"])

    def settle(self, record, pool, status, ready):
        """``pool`` (None: the cluster) shows ``status`` for ``k8s_settle_reads`` more reads, then ``ready``."""
        reads = self.sim.config["k8s_settle_reads"]
        target = record if pool is None else pool
        if reads:
            self.settling.setdefault(self.key_of(record), {})[None if pool is None else pool["name"]] = (ready, reads)
            target["status"] = status
        else:
            target["status"] = ready

    def start(self, record, task_type, apply, undo=None, data=None, created=None):
        def finish():
            record["task_id"] = None
            apply()
            return created
        task_id = self.sim.start_task(task_type, apply=finish, project_id=record["_project_id"], region_id=record["_region_id"], data=data)
        record["task_id"] = task_id
        if undo:
            self.failed[task_id] = undo
        return {"tasks": [task_id]}

    @staticmethod
    def new_pool(body, status="Creating"):
        flavor = body["flavor_id"]
        bare_metal = flavor.startswith("bm")
        return {
            "id": str(uuid.uuid4()), "name": body["name"], "flavor_id": flavor, "min_node_count": body["min_node_count"],
            "max_node_count": body.get("max_node_count") or body["min_node_count"], "node_count": body["min_node_count"],
            "status": status, "auto_healing_enabled": bool(body.get("auto_healing_enabled")),
            "is_public_ipv4": bool(body.get("is_public_ipv4")),
            "boot_volume_size": 0 if bare_metal else body.get("boot_volume_size") or 50,
            "boot_volume_type": "" if bare_metal else body.get("boot_volume_type") or "standard",
            "labels": body.get("labels") or {}, "taints": body.get("taints") or {},
            "kubelet_config": body.get("kubelet_config") or {}, "crio_config": body.get("crio_config") or {},
            "security_group_ids": body.get("security_group_ids") or [], "created_at": now_iso(),
            "servergroup_id": str(uuid.uuid4()) if body.get("servergroup_policy") else "",
            "servergroup_name": "%s-%s" % (body["name"], body["servergroup_policy"]) if body.get("servergroup_policy") else "",
            "servergroup_policy": body.get("servergroup_policy") or "",
        }

    # ---- versions and the kubeconfig ----------------------------------------------------------------
    def create_versions(self, request):
        scope(request)
        return page(request, [{"version": item} for item in VERSIONS])

    def upgrade_versions(self, request):
        record = self.one(request)
        return page(request, [{"version": item} for item in upgrades(record["version"])])

    def kubeconfig(self, request):
        record = self.one(request)
        if record["status"] not in ("Provisioned",):
            raise ApiFailure(409, "Cluster or pool is not ready")
        host = "https://%s.k8s.sim.invalid:6443" % record["id"]
        secret = KUBECONFIG_MARK + record["_serial"]
        config = ("apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: %s\n  name: %s\nusers:\n- name: admin\n"
                  "  user:\n    token: %s\n" % (host, record["name"], secret))
        return {"config": config, "host": host, "cluster_ca_certificate": "Q0EtQ0VSVA==", "client_certificate": "Q0xJRU5U",
                "client_key": secret, "created_at": record["created_at"], "expires_at": "2027-12-01T00:00:00Z"}

    # ---- clusters -----------------------------------------------------------------------------------
    def listing(self, request):
        project_id, region_id = scope(request)
        self.sync()
        found = [record for record in self.sim.k8s_clusters.values() if (record["_project_id"], record["_region_id"]) == (project_id, region_id)]
        return page(request, found, show=self.shown)

    def create(self, request):
        project_id, region_id = scope(request)
        self.sync()
        body = body_of(request, required_body=True)
        check_object("", body, ("name", "keypair", "version", "pools"), CREATE)
        check_str("name", body["name"], max_length=20, min_length=1)
        if not NAME.match(body["name"]):
            invalid("name", "string does not match pattern %s" % NAME.pattern)
        check_str("keypair", body["keypair"], max_length=255, min_length=1)
        check_str("version", body["version"])
        pools = check_list("pools", body["pools"])
        if not pools:
            invalid("pools", "ensure this value has at least 1 items")
        names = []
        for index, pool in enumerate(pools):
            check_pool("pools.%s" % index, pool, names)
            names.append(pool["name"])
        check_settings(body)
        for member in ("fixed_network", "fixed_subnet", "pods_ip_pool", "services_ip_pool"):
            check_str(member, body.get(member), nullable=True)
        if body["version"] not in VERSIONS:
            raise ApiFailure(400, "Version %s is not supported; the create versions are %s" % (body["version"], ", ".join(VERSIONS)))
        if not any(key["name"] == body["keypair"] and key["project_id"] == project_id for key in (getattr(self.sim, "ssh_keys", None) or {}).values()):
            raise ApiFailure(400, "Keypair %s not found in project %s" % (body["keypair"], project_id))
        network, subnet = self.fixed(body, project_id, region_id)
        if self.key(request, body["name"]) in self.sim.k8s_clusters:
            raise ApiFailure(409, "K8s cluster %s already exists" % body["name"])
        cni = dict({"provider": "calico", "cilium": None}, **(body.get("cni") or {}))
        if cni["provider"] == "cilium":
            cni["cilium"] = dict(CILIUM, **(cni.get("cilium") or {}))
        record = {
            "id": str(uuid.uuid4()), "name": body["name"], "status": "Provisioning", "version": body["version"],
            "keypair": body["keypair"], "is_public": True, "pools": [self.new_pool(pool) for pool in pools],
            "add_ons": {"slurm": {"enabled": False, "file_share_id": None, "ssh_key_ids": None, "worker_count": None}},
            "csi": {"nfs": {"vast_enabled": False, "ddn_enabled": False}},
            "logging": self.logging(body.get("logging")), "created_at": now_iso(),
            "authentication": {"kubeconfig_created_at": None, "kubeconfig_expires_at": None,
                               "oidc": (body.get("authentication") or {}).get("oidc")},
            "autoscaler_config": body.get("autoscaler_config") or {}, "cni": cni, "ddos_profile": body.get("ddos_profile"),
            "fixed_network": network, "fixed_subnet": subnet, "is_ipv6": bool(body.get("is_ipv6")),
            "pods_ip_pool": body.get("pods_ip_pool") or "172.16.0.0/18", "services_ip_pool": body.get("services_ip_pool") or "172.24.0.0/18",
            "pods_ipv6_pool": body.get("pods_ipv6_pool"), "services_ipv6_pool": body.get("services_ipv6_pool"),
            "creator_task_id": None, "task_id": None, "_project_id": project_id, "_region_id": region_id,
            "_serial": uuid.uuid4().hex,
        }
        self.sim.k8s_clusters[self.key_of(record)] = record

        def apply():
            record["authentication"].update(kubeconfig_created_at=now_iso(), kubeconfig_expires_at="2027-12-01T00:00:00Z")
            for pool in record["pools"]:
                self.settle(record, pool, "Creating", "Running")
            self.settle(record, None, "Provisioning", "Provisioned")

        def undo():
            record["status"] = "Failed"
            for pool in record["pools"]:
                pool["status"] = "Error"
        answer = self.start(record, "create_k8s_cluster", apply, undo, data=body, created={"k8s_clusters": [record["id"]]})
        record["creator_task_id"] = record["task_id"]
        return answer

    def fixed(self, body, project_id, region_id):
        """The fixed network and subnet (ids): given ones checked, else the service makes them."""
        network, subnet = body.get("fixed_network") or None, body.get("fixed_subnet") or None
        networks, subnets = getattr(self.sim, "networks", None) or {}, getattr(self.sim, "subnets", None) or {}
        if subnet and not network:
            raise ApiFailure(400, "fixed_subnet needs fixed_network")
        for ident, store, noun in ((network, networks, "Network"), (subnet, subnets, "Subnet")):
            record = store.get(ident) if ident else None
            if ident and (record is None or (record["project_id"], record["region_id"]) != (project_id, region_id)):
                raise ApiFailure(404, "%s %s not found" % (noun, ident))
        if subnet and subnets[subnet]["network_id"] != network:
            raise ApiFailure(400, "Subnet %s is not in network %s" % (subnet, network))
        return network or str(uuid.uuid4()), subnet or str(uuid.uuid4())

    @staticmethod
    def logging(value):
        value = value or {}
        return {"enabled": bool(value.get("enabled")), "destination_region_id": value.get("destination_region_id"),
                "topic_name": value.get("topic_name"), "retention_policy": value.get("retention_policy")}

    def update(self, request):
        record = self.writable(self.one(request))
        body = body_of(request, required_body=True)
        check_object("", body, (), PATCHED)
        check_settings(body)
        cni = body.get("cni")
        if cni and cni.get("provider", "calico") != record["cni"]["provider"]:
            raise ApiFailure(400, "The CNI provider of a cluster cannot change (it is %s)" % record["cni"]["provider"])

        def apply():
            for member in ("autoscaler_config", "ddos_profile"):
                if member in body:
                    record[member] = body[member] if body[member] is not None or member == "ddos_profile" else {}
            if "cni" in body and cni is not None:
                record["cni"] = dict(cni, cilium=dict(CILIUM, **(cni.get("cilium") or {})) if cni.get("provider") == "cilium" else None)
            if "authentication" in body:
                record["authentication"]["oidc"] = (body["authentication"] or {}).get("oidc")
            if "logging" in body:
                record["logging"] = self.logging(body["logging"])
            self.settle(record, None, "Provisioning", "Provisioned")
        return self.start(record, "update_k8s_cluster", apply, data=body)

    def delete(self, request):
        record = self.one(request, unlocked=True)
        before = record["status"]
        record["status"] = "Deleting"

        def apply():
            self.sim.k8s_clusters.pop(self.key_of(record), None)
            self.settling.pop(self.key_of(record), None)

        def undo():
            record["status"] = before
        return self.start(record, "delete_k8s_cluster", apply, undo)

    def upgrade(self, request):
        record = self.writable(self.one(request))
        body = body_of(request, required_body=True)
        check_object("", body, ("version",), ("version",))
        check_str("version", body["version"])
        allowed = upgrades(record["version"])
        if body["version"] not in allowed:
            raise ApiFailure(400, "Cluster %s (version %s) cannot be upgraded to %s; its upgrade versions are %s" % (
                record["name"], record["version"], body["version"], ", ".join(allowed) or "none"))
        record["status"] = "Provisioning"

        def apply():
            record["version"] = body["version"]
            self.settle(record, None, "Provisioning", "Provisioned")

        def undo():
            record["status"] = "Provisioned"
        return self.start(record, "upgrade_k8s_cluster", apply, undo, data=body)

    # ---- pools --------------------------------------------------------------------------------------
    def list_pools(self, request):
        record = self.shown(self.one(request))
        return page(request, record["pools"])

    def get_pool(self, request):
        record = self.shown(self.one(request))
        return self.pool_of(record, request.params["pool_name"])

    def create_pool(self, request):
        record = self.writable(self.one(request))
        body = body_of(request, required_body=True)
        check_pool("", body, [item["name"] for item in record["pools"]])
        pool = self.new_pool(body)
        record["pools"].append(pool)

        def apply():
            self.settle(record, pool, "Creating", "Running")

        def undo():  # a failed create leaves no pool
            record["pools"] = [item for item in record["pools"] if item is not pool]
        return self.start(record, "create_k8s_pool", apply, undo, data=body, created={"k8s_pools": [pool["id"]]})

    def patch_pool(self, request):
        record = self.one(request)
        pool = self.pool_of(record, request.params["pool_name"])
        self.writable(record)
        body = body_of(request, required_body=True)
        check_object("", body, (), POOL_PATCH)
        for member in ("min_node_count", "max_node_count", "node_count"):
            check_int(member, body.get(member), nullable=True, low=1, high=200)
        for member in ("labels", "taints"):
            check_map(member, body.get(member))
        if body.get("auto_healing_enabled") is not None:
            check_bool("auto_healing_enabled", body["auto_healing_enabled"])
        low = body.get("min_node_count") or pool["min_node_count"]
        high = body.get("max_node_count") or pool["max_node_count"]
        if low > high:
            raise ApiFailure(400, "Pool %s: min_node_count %s is above max_node_count %s" % (pool["name"], low, high))
        for member in ("auto_healing_enabled", "labels", "taints", "security_group_ids"):
            if body.get(member) is not None:
                pool[member] = body[member]
        pool.update(min_node_count=low, max_node_count=high)
        pool["node_count"] = min(max(body.get("node_count") or pool["node_count"], low), high)  # the autoscaler's range
        return copy.deepcopy(pool)

    def resize_pool(self, request):
        record = self.one(request)
        pool = self.pool_of(record, request.params["pool_name"])
        self.writable(record)
        body = body_of(request, required_body=True)
        check_object("", body, ("node_count",), ("node_count",))
        check_int("node_count", body["node_count"], low=1, high=200)
        if not pool["min_node_count"] <= body["node_count"] <= pool["max_node_count"]:
            raise ApiFailure(400, "Pool %s: node_count %s is outside min_node_count %s and max_node_count %s" % (
                pool["name"], body["node_count"], pool["min_node_count"], pool["max_node_count"]))
        pool["status"] = "Resizing"

        def apply():
            pool["node_count"] = body["node_count"]
            self.settle(record, pool, "Resizing", "Running")

        def undo():
            pool["status"] = "Running"
        return self.start(record, "resize_k8s_pool", apply, undo, data=body)

    def delete_pool(self, request):
        record = self.one(request)
        pool = self.pool_of(record, request.params["pool_name"])
        self.writable(record, pool if pool["status"] == "Error" else None)
        if len(record["pools"]) == 1:
            raise ApiFailure(400, "Pool %s is the last pool of cluster %s: a cluster keeps at least one pool" % (pool["name"], record["name"]))
        before = pool["status"]
        pool["status"] = "Deleting"

        def apply():
            record["pools"] = [item for item in record["pools"] if item is not pool]

        def undo():
            pool["status"] = before
        return self.start(record, "delete_k8s_pool", apply, undo)

    # ---- quota and price ----------------------------------------------------------------------------
    def requested(self, pools, loc):
        """The quota bases the pools take (their ``node_count``, or their minimum)."""
        requested = {}
        for index, pool in enumerate(pools):
            where = "%s.%s" % (loc, index)
            check_object(where, pool, ("flavor_id",), ("flavor_id", "name", "min_node_count", "max_node_count", "node_count",
                                                       "boot_volume_size", "boot_volume_type", "servergroup_policy", "is_public_ipv4"))
            for member in ("min_node_count", "max_node_count", "node_count"):
                check_int("%s.%s" % (where, member), pool.get(member), nullable=True, low=1, high=200)
            check_int(where + ".boot_volume_size", pool.get("boot_volume_size"), nullable=True, low=10, high=2000)
            flavor = FLAVORS.get(pool["flavor_id"])
            if flavor is None:
                raise ApiFailure(400, "Flavor %s is not available for Kubernetes pools in this region" % pool["flavor_id"])
            count = pool.get("node_count") or pool.get("min_node_count") or 1
            for base, amount in ((flavor["base"], count), ("cpu_count", flavor["vcpus"] * count), ("ram", flavor["ram"] * count)):
                requested[base] = requested.get(base, 0) + amount
            if flavor["base"] == "vm_count":
                requested["volume_count"] = requested.get("volume_count", 0) + count
                requested["volume_size"] = requested.get("volume_size", 0) + count * (pool.get("boot_volume_size") or 50)
            if pool.get("is_public_ipv4"):
                requested["external_ip_count"] = requested.get("external_ip_count", 0) + count
            if pool.get("servergroup_policy"):
                requested["servergroup_count"] = requested.get("servergroup_count", 0) + 1
        return requested

    def exceeded(self, requested, project_id, region_id):
        """Only the exceeded quotas (section 19.3): ``{}`` when everything fits."""
        limits = dict(DEFAULT_LIMITS, cluster_count=10, **(self.sim.config.get("quota_limits") or {}))
        usage = dict(self.sim.config.get("quota_usage") or {})
        clusters = [record for record in self.sim.k8s_clusters.values() if (record["_project_id"], record["_region_id"]) == (project_id, region_id)]
        usage["cluster_count"] = usage.get("cluster_count", 0) + len(clusters)
        result = {}
        for base, amount in sorted(requested.items()):
            limit = limits.get(base, 10 ** 9 if base in ("cpu_count", "ram", "volume_size") else 10)
            if usage.get(base, 0) + amount > limit:
                result.update({base + "_limit": limit, base + "_requested": amount, base + "_usage": usage.get(base, 0)})
        return result

    def check_limits(self, request):
        project_id, region_id = scope(request)
        self.sync()
        body = body_of(request)
        check_object("", body, (), ("pools", "logging"))
        requested = self.requested(check_list("pools", body.get("pools") or []), "pools")
        requested["cluster_count"] = 1
        if (body.get("logging") or {}).get("enabled"):
            requested["laas_topic_count"] = 1
        return self.exceeded(requested, project_id, region_id)

    def check_pool_limits(self, request):
        project_id, region_id = scope(request)
        self.sync()
        body = body_of(request, required_body=True)
        return self.exceeded(self.requested([body], "body"), project_id, region_id)

    def price(self, request):
        scope(request)
        body = body_of(request, required_body=True)
        check_object("", body, ("pools",), ("pools",))
        instances, volumes, ips = [], [], []
        for index, pool in enumerate(check_list("pools", body["pools"])):
            where = "pools.%s" % index
            check_object(where, pool, ("flavor_id",), ("flavor_id", "node_count", "boot_volume_size", "boot_volume_type", "is_public_ipv4"))
            check_int(where + ".node_count", pool.get("node_count", 1), low=1, high=200)
            check_int(where + ".boot_volume_size", pool.get("boot_volume_size"), nullable=True, low=10, high=2000)
            check_enum(where + ".boot_volume_type", pool.get("boot_volume_type"), VOLUME_TYPES, nullable=True)
            flavor = FLAVORS.get(pool["flavor_id"])
            if flavor is None:
                raise ApiFailure(400, "Flavor %s is not available for Kubernetes pools in this region" % pool["flavor_id"])
            count = pool.get("node_count", 1)
            instances.append(Decimal(flavor["hour"]) * 720 * count)
            if flavor["base"] == "vm_count":
                kind = pool.get("boot_volume_type") or "standard"
                volumes.append(Decimal(VOLUME_MONTH[kind]) * (pool.get("boot_volume_size") or 50) * count)
            if pool.get("is_public_ipv4"):
                ips.append(Decimal("0.02") * 720 * count)
        return {"instances": [self.item(value) for value in instances], "volumes": [self.item(value) for value in volumes],
                "publicips": [self.item(value) for value in ips], "total_price": self.item(sum(instances + volumes + ips, Decimal(0)))}

    @staticmethod
    def item(month):
        month = month.quantize(Decimal("0.01"))
        return {"currency_code": "USD", "discount_percent": 0.0, "price_per_hour": float((month / 720).quantize(Decimal("0.0001"))),
                "price_per_month": float(month), "price_status": "show", "price_without_discount_per_month": float(month),
                "tax_percent": 0.0}
