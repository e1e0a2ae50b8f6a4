# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The ``exceeded`` rule of quota_check: requested > 0 and usage + requested > limit, sorted by name."""

from __future__ import annotations

import json

import pytest

from ansible_collections.gcore.platform.plugins.modules.quota_check import exceeded_bases, exceeded_message


def figures(base, limit, requested, usage):
    return {base + "_limit": limit, base + "_requested": requested, base + "_usage": usage}


def test_over_the_limit_is_exceeded():
    assert exceeded_bases(figures("cpu_count", 10, 4, 7)) == [{"name": "cpu_count", "limit": 10, "requested": 4, "usage": 7}]


@pytest.mark.parametrize("limit, requested, usage", [
    (10, 3, 7),   # exactly at the limit
    (10, 0, 12),  # already over, but nothing requested
    (0, 0, 0),
    (5, -1, 7),   # a negative request is not a request
])
def test_not_exceeded(limit, requested, usage):
    assert exceeded_bases(figures("cpu_count", limit, requested, usage)) == []


def test_a_zero_limit_with_a_request_is_exceeded():
    assert exceeded_bases(figures("baremetal_gpu_h100_count", 0, 1, 0)) == [
        {"name": "baremetal_gpu_h100_count", "limit": 0, "requested": 1, "usage": 0}]


def test_sorted_by_name_over_every_base():
    quota = {}
    quota.update(figures("ram", 100, 50, 60))
    quota.update(figures("baremetal_basic_count", 1, 2, 0))
    quota.update(figures("external_ip_count", 10, 1, 1))
    quota.update(figures("floating_count", 2, 1, 2))
    assert [item["name"] for item in exceeded_bases(quota)] == ["baremetal_basic_count", "floating_count", "ram"]


def test_missing_keys_are_tolerated():
    quota = {"cpu_count_limit": 10, "cpu_count_requested": 11,  # no usage: counts as 0, reported as None
             "ram_requested": 5, "ram_usage": 100,  # no limit: not judged
             "gpu_count_limit": 0, "gpu_count_usage": 5,  # no requested: not judged
             "vm_count_limit": 3}
    assert exceeded_bases(quota) == [{"name": "cpu_count", "limit": 10, "requested": 11, "usage": None}]


def test_unknown_keys_are_tolerated_and_unknown_bases_judged():
    quota = {"note": "beta", "regional": {"x": 1}, "_limit": 3, "laas_topic_count_limit": None,
             "laas_topic_count_requested": 1, "laas_topic_count_usage": 0,
             "inference_public_model_api_key_count_limit": 1, "inference_public_model_api_key_count_requested": 1,
             "inference_public_model_api_key_count_usage": 1, "cpu_count_limit": "ten", "cpu_count_requested": 5}
    assert exceeded_bases(quota) == [
        {"name": "inference_public_model_api_key_count", "limit": 1, "requested": 1, "usage": 1}]


def test_empty_or_missing_answer():
    assert exceeded_bases({}) == []
    assert exceeded_bases(None) == []


def test_message_names_each_base_with_its_figures():
    message = exceeded_message("baremetal", [{"name": "baremetal_basic_count", "limit": 2, "requested": 2, "usage": 1},
                                             {"name": "cpu_count", "limit": 10, "requested": 11, "usage": None}])
    assert message == ("Quota check for baremetal: 2 quota(s) would be exceeded: baremetal_basic_count (limit 2, usage 1, "
                       "requested 2); cpu_count (limit 10, usage unknown, requested 11)")


# ---- resource instance, in process against the simulator ----------------------------------------------------------

INSTANCE = dict(project_id=1, region_id=76, resource="instance", flavor="g1-standard-4-8", names=["web-1", "web-2"],
                interfaces=[{"type": "external"}, {"type": "any_subnet", "network_id": "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01",
                                                   "floating_ip": {"source": "new"}}],
                volumes=[{"source": "image", "size": 10}, {"source": "new-volume", "size": 20, "type_name": "ssd_hiiops"}])


def test_an_instance_check_sends_the_v2_body_and_judges_the_answer(server):
    import harness  # pylint: disable=import-outside-toplevel
    from ansible_collections.gcore.platform.plugins.modules import quota_check  # pylint: disable=import-outside-toplevel

    server.reset()
    server.configure(quota_usage={"vm_count": 9})
    result = harness.run(server, quota_check, INSTANCE)
    (entry,) = server.requests(method="POST")
    assert entry["path"] == "/cloud/v2/instances/1/76/check_limits" and not entry["write"]
    assert json.loads(entry["body"]) == {key: INSTANCE[key] for key in ("flavor", "names", "interfaces", "volumes")}
    assert result["changed"] is False and result["within_limits"] is False
    assert result["exceeded"] == [{"name": "vm_count", "limit": 10, "requested": 2, "usage": 9}]
    assert (result["quota"]["cpu_count_requested"], result["quota"]["volume_size_requested"]) == (8, 60)
    failed = harness.run(server, quota_check, dict(INSTANCE, fail_on_exceed=True))
    assert failed["failed"] is True and "vm_count (limit 10, usage 9, requested 2)" in failed["msg"]


def test_a_k8s_cluster_check_sends_its_pools_and_reads_an_answer_of_exceeded_quotas_only(server):
    import harness  # pylint: disable=import-outside-toplevel
    from ansible_collections.gcore.platform.plugins.modules import quota_check  # pylint: disable=import-outside-toplevel

    pools = [{"name": "web", "flavor_id": "g1-standard-2-4", "min_node_count": 1, "max_node_count": 6, "node_count": 3}]
    server.reset()
    fits = harness.run(server, quota_check, dict(project_id=1, region_id=76, resource="k8s_cluster", pools=pools))
    (entry,) = server.requests(method="POST")
    assert entry["path"] == "/cloud/v2/k8s/clusters/1/76/check_limits" and not entry["write"]
    assert json.loads(entry["body"]) == {"pools": pools}
    assert fits["quota"] == {} and fits["exceeded"] == [] and fits["within_limits"] is True
    server.configure(quota_usage={"vm_count": 9})
    over = harness.run(server, quota_check, dict(project_id=1, region_id=76, resource="k8s_cluster", pools=pools, fail_on_exceed=True))
    assert over["failed"] is True and over["exceeded"] == [{"name": "vm_count", "limit": 10, "requested": 3, "usage": 9}]
    refused = harness.run(server, quota_check, dict(project_id=1, region_id=76, resource="k8s_cluster", pools=[]))
    assert refused["failed"] is True and "pools: required for resource k8s_cluster" in refused["msg"]
    other = harness.run(server, quota_check, dict(project_id=1, region_id=76, resource="instance", flavor="g1-standard-1-2",
                                                  names=["a"], pools=pools))
    assert other["failed"] is True and "pools: only for resource k8s_cluster, not for resource instance" in other["msg"]


# ---- resource baremetal: a baremetal_server task's flavor, interfaces and names, as they are -----------------------

NET, SUBNET = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01", "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01"  # the simulator's router-net-1
BAREMETAL = dict(project_id=1, region_id=76, resource="baremetal", flavor="bm1-basic-medium", names=["metal-1"],
                 interfaces=[{"type": "external", "port_group": 0},
                             {"type": "subnet", "network": "router-net-1", "subnet": "router-subnet-1", "port_group": 1},
                             {"type": "any_subnet", "network": NET}])


def test_a_bare_metal_check_resolves_names_first_and_sends_ids_without_trunk_groups(server):
    import harness  # pylint: disable=import-outside-toplevel
    from ansible_collections.gcore.platform.plugins.modules import quota_check  # pylint: disable=import-outside-toplevel

    server.reset()
    result = harness.run(server, quota_check, BAREMETAL)
    assert result["changed"] is False and result["within_limits"] is True, result
    requests = server.requests()
    assert [entry["method"] for entry in requests][-1] == "POST" and not any(entry["write"] for entry in requests)
    assert [entry["path"] for entry in requests if entry["method"] == "GET"] == [
        "/cloud/v1/networks/1/76", "/cloud/v1/subnets/1/76"]  # the network once (by name; the id needs no lookup), its subnet
    (check,) = server.requests(method="POST")
    assert check["path"] == "/cloud/v1/bminstances/1/76/check_limits"
    assert json.loads(check["body"]) == {"flavor": "bm1-basic-medium", "names": ["metal-1"], "interfaces": [
        {"type": "external"}, {"type": "subnet", "network_id": NET, "subnet_id": SUBNET}, {"type": "any_subnet", "network_id": NET}]}
    assert result["quota"]["baremetal_basic_count_requested"] == 1


@pytest.mark.parametrize("interfaces, check_mode, message", [
    ([{"type": "any_subnet", "network": "twin-net"}], False, "interfaces[0].network: 2 networks"),
    ([{"type": "any_subnet", "network": "not-built"}], False, "interfaces[0].network"),
    ([{"type": "subnet", "network": "not-built", "subnet": "later"}], True,
     "interfaces[0].network: network 'not-built' is not built yet, and the quota check needs its ID; nothing was checked"),
])
def test_a_name_that_finds_no_one_network_fails_before_the_check(server, interfaces, check_mode, message):
    import harness  # pylint: disable=import-outside-toplevel
    from ansible_collections.gcore.platform.plugins.modules import quota_check  # pylint: disable=import-outside-toplevel

    server.reset()
    result = harness.run(server, quota_check, dict(BAREMETAL, interfaces=interfaces), _ansible_check_mode=check_mode)
    assert result["failed"] is True and message in result["msg"], result
    assert server.requests(method="POST") == []


@pytest.mark.parametrize("params, message", [
    (dict(BAREMETAL, interfaces=[{"type": "external", "port_group": 4}]), "interfaces[0].port_group: 4 is out of range"),
    (dict(BAREMETAL, interfaces=[{"type": "external", "network": "router-net-1"}]), "interfaces[0].network: not allowed for type external"),
    (dict(BAREMETAL, interfaces=[{"type": "subnet", "network": "router-net-1", "network_id": NET, "subnet": "x"}]),
     "network_id and network are mutually exclusive"),
    (dict(INSTANCE, interfaces=[{"type": "external", "port_group": 0}]), "interfaces[0].port_group: only for resource baremetal"),
])
def test_bad_bare_metal_interfaces_are_refused_before_any_request(server, params, message):
    import harness  # pylint: disable=import-outside-toplevel
    from ansible_collections.gcore.platform.plugins.modules import quota_check  # pylint: disable=import-outside-toplevel

    server.reset()
    result = harness.run(server, quota_check, params)
    assert result["failed"] is True and message in result["msg"], result
    assert server.requests() == []
