# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""k8s_cluster and k8s_cluster_info in-process against the simulator: one create with every pool waited until ready,
pools as children by name (created, patched, resized, purged but never the last, create-only members refused), the
cluster PATCH, upgrades only when asked, the kubeconfig written 0600 and shown nowhere, check mode and diff."""

from __future__ import annotations

import os
import stat

import pytest

from ansible_collections.gcore.platform.plugins.modules import k8s_cluster, k8s_cluster_info
from simulator.resources.k8s import KUBECONFIG_MARK

import harness

LIST = "/cloud/v2/k8s/clusters/1/76"
ONE = LIST + "/prod"
BASE = dict(project_id=1, region_id=76, name="prod")
WORKERS = dict(name="workers", flavor_id="g1-standard-2-4", min_node_count=1, max_node_count=4, node_count=2,
               servergroup_policy="anti-affinity")
BATCH = dict(name="batch", flavor_id="g1-standard-4-8", min_node_count=1, max_node_count=2, taints={"dedicated": "batch:NoSchedule"})
CREATE = dict(BASE, version="1.31.1", keypair="deploy", pools=[WORKERS, BATCH])


def run(server, **args):
    return harness.run(server, k8s_cluster, dict(BASE, **args), _ansible_diff=True)


def sent(server):
    return [(method, path.replace(LIST, "")) for method, path, _body in harness.writes(server)]


def built(server, **more):
    result = run(server, **dict(CREATE, **more))
    assert result["changed"] is True, result
    server.log = []
    return result


def test_one_create_with_every_pool_then_the_resize_and_the_second_run_sends_nothing(server):
    result = run(server, **CREATE)
    assert result["changed"] is True and len(result["tasks"]) == 2
    assert sent(server) == [("POST", ""), ("POST", "/prod/pools/workers/resize")]
    body = harness.writes(server)[0][2]
    assert body["version"] == "v1.31.1" and [pool["name"] for pool in body["pools"]] == ["workers", "batch"]
    assert "node_count" not in body["pools"][0]
    cluster = result["cluster"]
    assert cluster["status"] == "Provisioned" and [(p["name"], p["node_count"], p["status"]) for p in cluster["pools"]] == [
        ("workers", 2, "Running"), ("batch", 1, "Running")]
    assert result["changes"] == {"created": ["prod"], "updated": [], "upgraded": [], "deleted": [],
                                 "pools": {"created": ["batch", "workers"], "updated": [], "resized": ["workers"], "deleted": []}}
    assert result["diff"]["before"] == {"state": "absent"}
    assert set(result["diff"]["after"]["pools"]) == {"batch", "workers"} and result["diff"]["after"]["version"] == "v1.31.1"
    server.log = []
    again = run(server, **CREATE)
    assert again["changed"] is False and server.writes() == []
    assert [entry["path"] for entry in server.log] == [ONE]


def test_check_mode_previews_the_create_and_sends_nothing(server):
    result = run(server, _ansible_check_mode=True, **CREATE)
    assert result["changed"] is True and server.writes() == []
    assert result["changes"]["pools"] == {"created": ["batch", "workers"], "updated": [], "resized": ["workers"], "deleted": []}


def test_pools_created_patched_resized_and_purged(server):
    built(server)
    result = run(server, pools=[dict(name="workers", node_count=3, labels={"tier": "web"}),
                                dict(name="gpu", flavor_id="g1-standard-8-16", min_node_count=1, max_node_count=2, node_count=2)],
                 purge_pools=True)
    assert result["changed"] is True, result
    assert sent(server) == [("POST", "/prod/pools"), ("POST", "/prod/pools/gpu/resize"), ("PATCH", "/prod/pools/workers"),
                            ("POST", "/prod/pools/workers/resize"), ("DELETE", "/prod/pools/batch")]
    assert result["changes"]["pools"] == {"created": ["gpu"], "updated": ["workers"], "resized": ["gpu", "workers"], "deleted": ["batch"]}
    assert sorted(result["diff"]["before"]["pools"]) == ["batch", "workers"] and sorted(result["diff"]["after"]["pools"]) == ["gpu", "workers"]
    assert [(p["name"], p["node_count"]) for p in result["cluster"]["pools"]] == [("workers", 3), ("gpu", 2)]
    server.log = []
    assert run(server, pools=[dict(name="workers", node_count=3, labels={"tier": "web"})])["changed"] is False


def test_a_patch_of_the_minimum_moves_the_count_without_a_resize(server):
    built(server)
    result = run(server, pools=[dict(name="workers", min_node_count=3)])
    assert sent(server) == [("PATCH", "/prod/pools/workers")] and result["cluster"]["pools"][0]["node_count"] == 3


def test_create_only_pool_member_fails_naming_pool_member_and_values(server):
    built(server)
    result = run(server, pools=[dict(name="workers", flavor_id="g1-standard-8-16")])
    assert result["failed"] and server.writes() == []
    assert "pools[0].flavor_id: pool workers of k8s cluster prod has flavor_id 'g1-standard-2-4', not 'g1-standard-8-16'" in result["msg"]
    assert "add a pool under a new name" in result["msg"]


def test_node_count_outside_the_pool_range_fails_before_any_write(server):
    built(server)
    result = run(server, pools=[dict(name="workers", node_count=9)])
    assert result["failed"] and "pools[0].node_count" in result["msg"] and server.writes() == []


def test_cluster_settings_one_patch(server):
    built(server)
    oidc = {"issuer_url": "https://id.example.com", "client_id": "kubernetes"}
    result = run(server, authentication={"oidc": oidc}, autoscaler_config={"scan-interval": "15s"})
    assert sent(server) == [("PATCH", "/prod")]
    assert harness.writes(server)[0][2] == {"authentication": {"oidc": oidc}, "autoscaler_config": {"scan-interval": "15s"}}
    assert result["changes"]["updated"] == ["prod"] and result["cluster"]["authentication"]["oidc"] == oidc
    server.log = []
    assert run(server, authentication={"oidc": {"client_id": "kubernetes"}})["changed"] is False


def test_create_only_cluster_member_fails(server):
    built(server)
    result = run(server, pods_ip_pool="10.10.0.0/16")
    assert result["failed"] and "pods_ip_pool" in result["msg"] and server.writes() == []
    result = run(server, cni={"provider": "cilium"})
    assert result["failed"] and "cni.provider: k8s cluster prod runs calico, not cilium" in result["msg"] and server.writes() == []
    assert run(server, cni={"provider": "calico"})["changed"] is False


def test_upgrades_only_when_asked_within_the_offer_never_lower(server):
    built(server)
    refused = run(server, version="1.31.2")
    assert refused["failed"] and "runs v1.31.1, not 1.31.2; set allow_upgrade: true" in refused["msg"]
    lower = run(server, version="1.30.6", allow_upgrade=True)
    assert lower["failed"] and "never downgraded" in lower["msg"]
    unoffered = run(server, version="1.33.0", allow_upgrade=True)
    assert unoffered["failed"] and "1.33.0 is not one of the upgrade versions (v1.31.2, v1.32.1)" in unoffered["msg"]
    assert server.writes() == []
    result = run(server, version="1.31.2", allow_upgrade=True)
    assert sent(server) == [("POST", "/prod/upgrade")] and harness.writes(server)[0][2] == {"version": "v1.31.2"}
    assert result["changes"]["upgraded"] == ["prod"] and result["cluster"]["version"] == "v1.31.2"
    assert result["diff"]["before"]["version"] == "v1.31.1" and result["diff"]["after"]["version"] == "v1.31.2"
    server.log = []
    assert run(server, version="v1.31.2")["changed"] is False


def test_kubeconfig_written_0600_once_and_never_shown(server, tmp_path):
    path = str(tmp_path / "prod.kubeconfig")
    result = run(server, kubeconfig_path=path, **dict(CREATE))
    assert KUBECONFIG_MARK in open(path, encoding="utf-8").read() and stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert KUBECONFIG_MARK not in repr(result)
    server.log = []
    again = run(server, kubeconfig_path=path)
    assert again["changed"] is False and [entry["path"] for entry in server.log] == [ONE, ONE + "/config"]
    os.chmod(path, 0o644)
    assert run(server, kubeconfig_path=path)["changed"] is True and stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_delete_waits_and_a_second_run_is_unchanged(server):
    built(server)
    result = run(server, state="absent")
    assert result["changed"] is True and result["cluster"] is None and result["changes"]["deleted"] == ["prod"]
    server.log = []
    assert run(server, state="absent")["changed"] is False and server.writes() == []


def info(server, **args):
    return harness.run(server, k8s_cluster_info, dict(project_id=1, region_id=76, **args))


def test_info_by_name_or_all_with_versions_and_the_kubeconfig(server, tmp_path):
    built(server)
    run(server, **dict(CREATE, name="stage", pools=[WORKERS]))
    assert [cluster["name"] for cluster in info(server)["clusters"]] == ["prod", "stage"]
    assert info(server, name="nothing")["clusters"] == []
    result = info(server, name="prod", versions=True)
    assert result["versions"] == ["v1.30.6", "v1.31.1", "v1.31.2", "v1.32.1"] and result["changed"] is False
    assert result["clusters"][0]["upgrade_versions"] == ["v1.31.2", "v1.32.1"]
    path = str(tmp_path / "kubeconfig")
    checked = info(server, name="prod", kubeconfig_path=path, _ansible_check_mode=True)
    assert checked["changed"] is True and not os.path.exists(path)
    written = info(server, name="prod", kubeconfig_path=path)
    assert written["changed"] is True and KUBECONFIG_MARK not in repr(written) and stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert info(server, name="prod", kubeconfig_path=path)["changed"] is False


def test_a_create_names_what_it_lacks_and_a_create_version_must_be_offered(server):
    result = run(server, pools=[WORKERS])
    assert result["failed"] and result["msg"] == "Invalid input: version and keypair: required to create k8s cluster prod (nothing was sent)"
    result = run(server, **dict(CREATE, version="1.29.1"))
    assert result["failed"] and "version: 1.29.1 is not one of the create versions (v1.30.6, v1.31.1, v1.31.2, v1.32.1)" in result["msg"]
    result = run(server, **dict(CREATE, keypair="nobody"))
    assert result["failed"] and "keypair: no SSH key is named 'nobody' in project 1" in result["msg"]
    result = run(server, **dict(CREATE, pools=[dict(name="bare", flavor_id="g1-standard-1-2")]))
    assert result["failed"] and "pools[0].min_node_count: required to create pool bare" in result["msg"]
    assert server.writes() == []


def test_without_waiting_the_create_is_returned_as_null_with_its_task(server):
    result = run(server, wait=False, **CREATE)
    assert result["changed"] is True and result["cluster"] is None and len(result["tasks"]) == 1
    assert [method for method, _path, _body in harness.writes(server)] == ["POST"]
