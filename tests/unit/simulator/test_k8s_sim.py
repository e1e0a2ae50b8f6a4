# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The simulated managed Kubernetes (v2) answers as the service does: clusters and pools by name, every write a task
but the pool PATCH, statuses that settle after the task, locks, and the refusals (the last pool, node counts outside
min..max, unknown versions, a lower version, a name taken, a keypair unknown)."""

from __future__ import annotations

import pytest

from sim_api import Api, quick_simulator
from simulator.resources.k8s import KUBECONFIG_MARK

LIST = "/cloud/v2/k8s/clusters/1/76"
ONE = LIST + "/prod"
VERSIONS = "/cloud/v2/k8s/1/76/create_versions"


@pytest.fixture
def sim():
    return quick_simulator()


@pytest.fixture
def api(sim):
    return Api(sim)


def pool(name="workers", **more):
    return dict({"name": name, "flavor_id": "g1-standard-2-4", "min_node_count": 1, "max_node_count": 3,
                 "servergroup_policy": "anti-affinity"}, **more)


def create(api, name="prod", pools=None, **more):
    body = dict({"name": name, "keypair": "deploy", "version": "v1.31.1", "pools": pools or [pool()]}, **more)
    return api.ok("POST", LIST, body)


def ready(api, sim, name="prod"):
    """The cluster once its task finished and its statuses settled."""
    sim.release()
    for _read in range(sim.config["k8s_settle_reads"] + 1):
        record = api.ok("GET", LIST + "/" + name)
    assert record["status"] == "Provisioned" and all(item["status"] == "Running" for item in record["pools"]), record
    return record


def test_create_is_a_task_and_the_cluster_settles_after_it(sim, api):
    sim.hold()
    answer = create(api, pools=[pool(), pool("gpu", flavor_id="g1-standard-4-8", min_node_count=2, max_node_count=2)])
    record = api.ok("GET", ONE)
    assert record["status"] == "Provisioning" and record["task_id"] == answer["tasks"][0] == record["creator_task_id"]
    assert [(item["name"], item["status"], item["node_count"]) for item in record["pools"]] == [("workers", "Creating", 1), ("gpu", "Creating", 2)]
    task = api.finished(answer)
    assert task["created_resources"]["k8s_clusters"] == [record["id"]] and task["task_type"] == "create_k8s_cluster"
    settling = api.ok("GET", ONE)  # the task finished; the cluster shows Provisioning one more read
    assert settling["status"] == "Provisioning" and settling["task_id"] is None
    record = api.ok("GET", ONE)
    assert record["status"] == "Provisioned" and [item["status"] for item in record["pools"]] == ["Running", "Running"]
    assert record["version"] == "v1.31.1" and record["pods_ip_pool"] == "172.16.0.0/18" and record["cni"]["provider"] == "calico"
    assert "_serial" not in record and api.ok("GET", LIST)["count"] == 1


def test_create_refusals(sim, api):
    assert api.refused("POST", LIST, {"name": "prod", "keypair": "deploy", "version": "v1.99.0", "pools": [pool()]})[0] == 400
    status, message = api.refused("POST", LIST, {"name": "prod", "keypair": "nobody", "version": "v1.31.1", "pools": [pool()]})
    assert status == 400 and "Keypair nobody" in message
    assert api.refused("POST", LIST, {"name": "Prod", "keypair": "deploy", "version": "v1.31.1", "pools": [pool()]})[0] == 422
    assert api.refused("POST", LIST, {"name": "prod", "keypair": "deploy", "version": "v1.31.1", "pools": []})[0] == 422
    assert api.refused("POST", LIST, {"name": "prod", "keypair": "deploy", "version": "v1.31.1",
                                      "pools": [pool(min_node_count=4, max_node_count=2)]})[0] == 400
    assert api.refused("POST", LIST, {"name": "prod", "keypair": "deploy", "version": "v1.31.1", "pools": [pool(), pool()]})[0] == 400
    assert api.refused("POST", LIST, {"name": "prod", "keypair": "deploy", "version": "v1.31.1", "pools": [pool(flavor_id="x")]})[0] == 400
    create(api)
    assert api.refused("POST", LIST, {"name": "prod", "keypair": "deploy", "version": "v1.31.1", "pools": [pool()]})[0] == 409
    assert not [entry for entry in sim.writes() if entry["status"] == 200][1:]


def test_a_failed_create_leaves_the_cluster_failed_and_unlocked(sim, api):
    api.failed(create(api))
    record = api.ok("GET", ONE)
    assert record["status"] == "Failed" and record["task_id"] is None and record["pools"][0]["status"] == "Error"
    api.finished(api.ok("DELETE", ONE))
    assert api.refused("GET", ONE)[0] == 404


def test_writes_wait_for_the_lock_and_for_readiness(sim, api):
    sim.hold()
    create(api)
    assert api.refused("PATCH", ONE, {"autoscaler_config": {"scan-interval": "15s"}})[0] == 409
    sim.release()
    status, message = api.refused("POST", ONE + "/pools", pool("more"))
    assert status == 409 and message == "Cluster or pool is not ready"
    ready(api, sim)
    api.finished(api.ok("POST", ONE + "/pools", pool("more")))


def test_pools_create_patch_resize_and_delete(sim, api):
    create(api)
    ready(api, sim)
    created = api.finished(api.ok("POST", ONE + "/pools", pool("gpu", max_node_count=4)))
    assert created["task_type"] == "create_k8s_pool" and len(created["created_resources"]["k8s_pools"]) == 1
    ready(api, sim)
    patched = api.ok("PATCH", ONE + "/pools/gpu", {"labels": {"tier": "gpu"}, "min_node_count": 2, "auto_healing_enabled": True})
    assert (patched["labels"], patched["min_node_count"], patched["node_count"], patched["auto_healing_enabled"]) == ({"tier": "gpu"}, 2, 2, True)
    assert api.refused("PATCH", ONE + "/pools/gpu", {"min_node_count": 5})[0] == 400
    assert api.refused("POST", ONE + "/pools/gpu/resize", {"node_count": 5})[0] == 400
    assert api.refused("POST", ONE + "/pools/gpu/resize", {"node_count": 1})[0] == 400
    sim.hold()
    resized = api.ok("POST", ONE + "/pools/gpu/resize", {"node_count": 4})
    assert api.ok("GET", ONE + "/pools/gpu")["status"] == "Resizing"
    api.finished(resized)
    assert api.ok("GET", ONE + "/pools/gpu")["node_count"] == 4
    ready(api, sim)
    api.finished(api.ok("DELETE", ONE + "/pools/workers"))
    ready(api, sim)
    status, message = api.refused("DELETE", ONE + "/pools/gpu")
    assert status == 400 and "last pool" in message
    assert api.refused("GET", ONE + "/pools/workers")[0] == 404
    assert [item["name"] for item in api.ok("GET", ONE + "/pools")["results"]] == ["gpu"]


def test_versions_upgrade_and_its_refusals(sim, api):
    assert [item["version"] for item in api.ok("GET", VERSIONS)["results"]] == ["v1.30.6", "v1.31.1", "v1.31.2", "v1.32.1"]
    create(api, version="v1.30.6")
    ready(api, sim)
    assert [item["version"] for item in api.ok("GET", ONE + "/upgrade_versions")["results"]] == ["v1.31.1", "v1.31.2"]
    assert api.refused("POST", ONE + "/upgrade", {"version": "v1.32.1"})[0] == 400
    assert api.refused("POST", ONE + "/upgrade", {"version": "v1.29.0"})[0] == 400
    sim.hold()
    answer = api.ok("POST", ONE + "/upgrade", {"version": "v1.31.2"})
    assert api.ok("GET", ONE)["status"] == "Provisioning"
    assert api.finished(answer)["task_type"] == "upgrade_k8s_cluster"
    assert ready(api, sim)["version"] == "v1.31.2"
    assert api.refused("POST", ONE + "/upgrade", {"version": "v1.30.6"})[0] == 400


def test_patch_replaces_blocks_and_keeps_the_cni_provider(sim, api):
    create(api, cni={"provider": "cilium"})
    ready(api, sim)
    assert api.ok("GET", ONE)["cni"]["cilium"]["routing_mode"] == "tunnel"
    assert api.refused("PATCH", ONE, {"cni": {"provider": "calico"}})[0] == 400
    oidc = {"issuer_url": "https://id.example.com", "client_id": "kubernetes", "signing_algs": ["RS256"]}
    api.finished(api.ok("PATCH", ONE, {"authentication": {"oidc": oidc}, "logging": {"enabled": True, "topic_name": "k8s.logs"},
                                       "autoscaler_config": {"scan-interval": "15s"}}))
    record = ready(api, sim)
    assert record["authentication"]["oidc"] == oidc and record["logging"]["enabled"] and record["autoscaler_config"] == {"scan-interval": "15s"}
    assert api.refused("PATCH", ONE, {"version": "v1.31.2"})[0] == 422


def test_the_kubeconfig_holds_the_mark(sim, api):
    create(api)
    assert api.refused("GET", ONE + "/config")[0] == 409
    ready(api, sim)
    config = api.ok("GET", ONE + "/config")
    assert KUBECONFIG_MARK in config["config"] and set(config) == {
        "config", "host", "cluster_ca_certificate", "client_certificate", "client_key", "created_at", "expires_at"}
    assert api.ok("GET", ONE + "/config") == config


def test_delete_is_a_task_and_the_cluster_goes(sim, api):
    create(api)
    ready(api, sim)
    sim.hold()
    answer = api.ok("DELETE", ONE)
    assert api.ok("GET", ONE)["status"] == "Deleting"
    assert api.refused("DELETE", ONE)[0] == 409
    api.finished(answer)
    assert api.refused("GET", ONE)[0] == 404 and api.ok("GET", LIST)["count"] == 0


def test_check_limits_answers_only_what_is_exceeded_and_prices_add_up(sim, api):
    assert api.ok("POST", LIST + "/check_limits", {"pools": [pool(node_count=2)]}) == {}
    exceeded = api.ok("POST", LIST + "/check_limits", {"pools": [pool(node_count=20, min_node_count=1, max_node_count=20)]})
    assert exceeded["vm_count_requested"] == 20 and exceeded["vm_count_limit"] == 10
    assert api.ok("POST", LIST + "/pools/check_limits", {"flavor_id": "g1-standard-1-2", "node_count": 2}) == {}
    price = api.ok("POST", "/cloud/v2/pricing/1/76/k8s/clusters", {"pools": [{"flavor_id": "g1-standard-1-2", "node_count": 2}]})
    assert price["total_price"]["price_per_month"] == round(0.012 * 720 * 2 + 0.1 * 50 * 2, 2)
    assert not sim.writes()
