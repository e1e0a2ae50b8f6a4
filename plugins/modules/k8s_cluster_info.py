#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: k8s_cluster_info
short_description: Read Gcore managed Kubernetes clusters, their versions, and write a kubeconfig
version_added: 1.2.0
description:
  - Returns the Gcore managed Kubernetes clusters (v2) of the region, each with its pools, or the one named O(name)
    (C(GET /cloud/v2/k8s/clusters/{project_id}/{region_id}/{name}); none when it does not exist).
  - With O(versions=true), also the versions a cluster can be created with, and a named cluster's C(upgrade_versions).
  - With O(kubeconfig_path), writes the named cluster's kubeconfig there (mode C(0600)) once it is C(Provisioned),
    only when the file differs; the one info module that may report a change. The content is in no output.
author:
  - gcore.platform developers (@gcore-platform)
options:
  name:
    description: The cluster to read (2 to 20 lower-case letters, digits and C(-)); left out, every cluster (every page).
    type: str
  versions:
    description: Whether to read the versions to create with (RV(versions)) and, with O(name), the cluster's C(upgrade_versions).
    type: bool
    default: false
  kubeconfig_path:
    description:
      - Where to write the kubeconfig of the cluster O(name) (needs O(name)). In check mode nothing is written; the task
        reports whether it would be.
    type: path
attributes:
  check_mode:
    description: Runs in check mode; with O(kubeconfig_path) it writes nothing and predicts the change.
    support: full
  diff_mode:
    description: There is no diff (the kubeconfig is never shown).
    support: N/A
  idempotent:
    description: A second run with the same input reports no change.
    support: full
  action_group:
    description: Use C(group/gcore.platform.all) in C(module_defaults) to set defaults for this module.
    support: full
    membership:
      - gcore.platform.all
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
seealso:
  - module: gcore.platform.k8s_cluster
    description: Create, scale, upgrade and delete a cluster.
"""

EXAMPLES = r"""
- name: Every cluster, and the versions a new one can take
  gcore.platform.k8s_cluster_info:
    versions: true
  register: k8s

- name: One cluster with its upgrade versions, and its kubeconfig for the CI
  gcore.platform.k8s_cluster_info:
    name: prod
    versions: true
    kubeconfig_path: /tmp/prod.kubeconfig
"""

RETURN = r"""
clusters:
  description:
    - The clusters as the service returns them (C(K8sClusterV2Serializer)), each with its C(pools); with O(versions) and
      O(name), the cluster also has C(upgrade_versions) (the versions it can be upgraded to).
  returned: success
  type: list
  elements: dict
  sample: [{name: prod, status: Provisioned, version: v1.31.1, pools: [{name: workers, node_count: 2}], upgrade_versions: [v1.31.2]}]
versions:
  description: The versions a cluster can be created with (O(versions=true)).
  returned: when O(versions=true)
  type: list
  elements: str
  sample: [v1.30.6, v1.31.1]
"""

from ansible_collections.gcore.platform.plugins.module_utils._base import GcoreModule
from ansible_collections.gcore.platform.plugins.module_utils._checks import check_pattern, check_secret_path, save_secret
from ansible_collections.gcore.platform.plugins.module_utils._cloud import PAGE_SIZE
from ansible_collections.gcore.platform.plugins.module_utils._kinds import K8S_NAME, KINDS

KIND = KINDS["k8s_cluster"]


class K8sClusterInfo(GcoreModule):
    cloud = True
    argument_spec = dict(name=dict(type="str"), versions=dict(type="bool", default=False), kubeconfig_path=dict(type="path"))
    module_kwargs = dict(required_by={"kubeconfig_path": "name"})

    def validate(self):
        super().validate()
        check_pattern("name", self.params["name"], K8S_NAME[0], K8S_NAME[1])
        check_secret_path("kubeconfig_path", self.params["kubeconfig_path"])

    def path(self, which):
        return KIND.paths[which].format(**self.params)

    def run(self):
        params, result = self.params, {}
        if params["name"] is None:
            clusters = list(self.client.paginate(self.path("list"), page_size=PAGE_SIZE, total_key="count"))
        else:
            clusters = [record for record in [self.client.get_or_none(self.path("item"))] if record is not None]
        if params["versions"]:
            result["versions"] = [item["version"] for item in self.client.get(self.path("create_versions"))["results"]]
            for record in clusters if params["name"] else ():
                record["upgrade_versions"] = [item["version"] for item in self.client.get(self.path("upgrade_versions"))["results"]]
        if params["kubeconfig_path"] and clusters:
            if clusters[0].get("status") != "Provisioned":
                self.module.warn("kubeconfig_path: k8s cluster %s is %s, so its kubeconfig was not written" % (params["name"], clusters[0].get("status")))
            else:
                self.result["changed"] = save_secret(self.module, "kubeconfig_path", params["kubeconfig_path"],
                                                     self.client.get(self.path("config"))["config"], check=self.check_mode)
        return dict(result, clusters=clusters)


def main():
    K8sClusterInfo.main()


if __name__ == "__main__":
    main()
