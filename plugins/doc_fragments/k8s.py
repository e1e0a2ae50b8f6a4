# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    # The node pools of a managed Kubernetes cluster (k8s_cluster), as the v2 API takes them (docs/api_reference.md
    # section 19.3).
    DOCUMENTATION = r"""
options:
  pools:
    description:
      - The node pools by O(pools[].name) (at least one; left out, not managed). A missing pool is created at its minimum
        and resized to O(pools[].node_count); O(pools[].min_node_count), O(pools[].max_node_count),
        O(pools[].auto_healing_enabled), O(pools[].labels) and O(pools[].taints) that differ are one C(PATCH), a
        different O(pools[].node_count) one resize.
      - "The other members are create-only: one that differs fails before any write naming the pool, the member and both
        values (add a pool under a new name and remove the old one). Members left out keep what the pool has."
    type: list
    elements: dict
    suboptions:
      name: {description: "The pool's name (2 to 20 characters, as the cluster's), unique in the list.", type: str, required: true}
      flavor_id: {description: "The nodes' flavor. Required to create a pool; create-only.", type: str}
      min_node_count: {description: "1 to 200. Required to create a pool.", type: int}
      max_node_count: {description: "1 to 200, at least O(pools[].min_node_count) (the service's default is the minimum).", type: int}
      node_count: {description: "The nodes wanted, between the minimum and the maximum (a new pool, the minimum).", type: int}
      boot_volume_size: {description: "10 to 2000 GiB; create-only.", type: int}
      boot_volume_type: {description: Create-only., type: str, choices: [cold, ssd_hiiops, ssd_local, ssd_lowlatency, standard, ultra]}
      servergroup_policy: {description: Create-only., type: str, choices: [affinity, anti-affinity, soft-anti-affinity]}
      is_public_ipv4: {description: "A public IPv4 address on each node; create-only.", type: bool}
      kubelet_config: {description: "A map of strings; create-only.", type: dict}
      crio_config: {description: "A map of strings; create-only.", type: dict}
      auto_healing_enabled: {description: "Whether broken nodes are replaced.", type: bool}
      labels: {description: "The nodes' labels (a map of strings).", type: dict}
      taints: {description: "The nodes' taints, each V(value:Effect) (C(NoSchedule), C(PreferNoSchedule) or C(NoExecute)).", type: dict}
  purge_pools:
    description: Whether the pools not listed in O(pools) are deleted (after the new ones are created; never the last).
    type: bool
    default: false
"""
