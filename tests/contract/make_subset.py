# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Regenerate tests/contract/gcore-subset.json from the merged subset of Gcore's published OpenAPI files and the SDK
0.59 fragments.

Usage::

    python tests/contract/make_subset.py MERGED_SUBSET.json [-o tests/contract/gcore-subset.json]

``MERGED_SUBSET.json`` is the published subset (``build``: the operations of ``OPERATIONS`` cut from the published
``cloud_api.yaml``, ``waap_api.yaml`` and ``object_storage_api.yaml``) with the fragments derived from the official
SDK gcore 0.59.0 merged onto it (docs/api_reference.md section 17); a merged file that holds more operations (the
merged subset of every family the fragments describe) is cut to ``OPERATIONS`` first (``cut``). ``adopt`` checks that
it holds exactly the operations of ``OPERATIONS``, marks every operation's provenance (``x-provenance``: ``published`` or ``SDK 0.59``),
writes our ``INFO`` and makes samples agree. Standard library only (``build`` needs PyYAML to load the published
files). What ``build`` does, in order (tests/contract/README.md says why):

1. keeps exactly the operations of ``OPERATIONS`` (each one copied whole from the file that publishes its path);
   a listed operation the files lack is an error;
2. keeps the ``components`` those operations reach, following every ``$ref`` transitively (schemas, and the
   security scheme the top-level ``security`` names), and the tags the operations use, in the files' order;
3. makes the kept schemas' own samples agree with them: an ``example`` (or an item of ``examples``) its schema
   refuses is dropped, or wrapped in a list when the schema is an array of such values; and a regular expression
   (``pattern``) loses the backslash before a character that needs none (``\\"``, ``\\ ``), an escape the
   ECMA-262 Unicode regular expressions of JSON Schema refuse;
4. writes JSON with the ``info`` of ``INFO`` (the version is the published files' ``info.version``).
"""

from __future__ import annotations

import argparse
import copy
import json
import pathlib
import re
import sys

# The operations kept, by the service and resource they belong to: (method, path). The output lists the paths in
# this order (the order of the committed file, so that regenerating it changes no byte).
OPERATIONS = {
    "cloud: routers": [
        ("patch", "/cloud/v2/routers/{project_id}/{region_id}/{router_id}"),
        ("get", "/cloud/v1/routers/{project_id}/{region_id}/{router_id}"),
        ("delete", "/cloud/v1/routers/{project_id}/{region_id}/{router_id}"),
        ("get", "/cloud/v1/routers/{project_id}/{region_id}"),
        ("post", "/cloud/v1/routers/{project_id}/{region_id}"),
        ("post", "/cloud/v1/routers/{project_id}/{region_id}/{router_id}/attach"),
        ("post", "/cloud/v1/routers/{project_id}/{region_id}/{router_id}/detach"),
    ],
    "cloud: tasks": [
        ("get", "/cloud/v1/tasks/{task_id}"),
        ("get", "/cloud/v1/tasks"),
    ],
    "cloud: limits, pricing and quotas": [
        ("post", "/cloud/v1/bminstances/{project_id}/{region_id}/check_limits"),
        ("post", "/cloud/v2/pricing/{project_id}/{region_id}/instances"),
        ("post", "/cloud/v1/loadbalancers/{project_id}/{region_id}/check_limits"),
        ("get", "/cloud/v2/client_quotas/{client_id}/notification_threshold"),
        ("put", "/cloud/v2/client_quotas/{client_id}/notification_threshold"),
        ("delete", "/cloud/v2/client_quotas/{client_id}/notification_threshold"),
    ],
    "cloud: instance list (the inventory plugin)": [
        ("get", "/cloud/v1/instances/{project_id}/{region_id}"),
    ],
    "cloud: networks": [
        ("get", "/cloud/v1/networks/{project_id}/{region_id}"),
        ("post", "/cloud/v1/networks/{project_id}/{region_id}"),
        ("get", "/cloud/v1/networks/{project_id}/{region_id}/{network_id}"),
        ("patch", "/cloud/v1/networks/{project_id}/{region_id}/{network_id}"),
        ("delete", "/cloud/v1/networks/{project_id}/{region_id}/{network_id}"),
    ],
    "cloud: subnets": [
        ("get", "/cloud/v1/subnets/{project_id}/{region_id}"),
        ("post", "/cloud/v1/subnets/{project_id}/{region_id}"),
        ("get", "/cloud/v1/subnets/{project_id}/{region_id}/{subnet_id}"),
        ("patch", "/cloud/v1/subnets/{project_id}/{region_id}/{subnet_id}"),
        ("delete", "/cloud/v1/subnets/{project_id}/{region_id}/{subnet_id}"),
    ],
    "cloud: security groups": [
        ("get", "/cloud/v1/securitygroups/{project_id}/{region_id}"),
        ("get", "/cloud/v1/securitygroups/{project_id}/{region_id}/{group_id}"),
        ("delete", "/cloud/v1/securitygroups/{project_id}/{region_id}/{group_id}"),
        ("post", "/cloud/v2/security_groups/{project_id}/{region_id}"),
        ("patch", "/cloud/v2/security_groups/{project_id}/{region_id}/{group_id}"),
    ],
    "cloud: floating IPs": [
        ("get", "/cloud/v1/floatingips/{project_id}/{region_id}"),
        ("post", "/cloud/v1/floatingips/{project_id}/{region_id}"),
        ("get", "/cloud/v1/floatingips/{project_id}/{region_id}/{floating_ip_id}"),
        ("delete", "/cloud/v1/floatingips/{project_id}/{region_id}/{floating_ip_id}"),
        ("patch", "/cloud/v2/floatingips/{project_id}/{region_id}/{floating_ip_id}"),
    ],
    "cloud: SSH keys": [
        ("get", "/cloud/v1/ssh_keys/{project_id}"),
        ("post", "/cloud/v1/ssh_keys/{project_id}"),
        ("get", "/cloud/v1/ssh_keys/{project_id}/{ssh_key_id}"),
        ("patch", "/cloud/v1/ssh_keys/{project_id}/{ssh_key_id}"),
        ("delete", "/cloud/v1/ssh_keys/{project_id}/{ssh_key_id}"),
    ],
    "cloud: volumes": [
        ("get", "/cloud/v1/volumes/{project_id}/{region_id}"),
        ("post", "/cloud/v1/volumes/{project_id}/{region_id}"),
        ("get", "/cloud/v1/volumes/{project_id}/{region_id}/{volume_id}"),
        ("patch", "/cloud/v1/volumes/{project_id}/{region_id}/{volume_id}"),
        ("delete", "/cloud/v1/volumes/{project_id}/{region_id}/{volume_id}"),
        ("post", "/cloud/v2/volumes/{project_id}/{region_id}/{volume_id}/attach"),
        ("post", "/cloud/v2/volumes/{project_id}/{region_id}/{volume_id}/detach"),
        ("post", "/cloud/v1/volumes/{project_id}/{region_id}/{volume_id}/extend"),
    ],
    "cloud: instances, flavors and images": [
        ("post", "/cloud/v2/instances/{project_id}/{region_id}"),
        ("get", "/cloud/v1/instances/{project_id}/{region_id}/{instance_id}"),
        ("patch", "/cloud/v1/instances/{project_id}/{region_id}/{instance_id}"),
        ("delete", "/cloud/v1/instances/{project_id}/{region_id}/{instance_id}"),
        ("post", "/cloud/v2/instances/{project_id}/{region_id}/{instance_id}/action"),
        ("post", "/cloud/v1/instances/{project_id}/{region_id}/{instance_id}/changeflavor"),
        ("get", "/cloud/v1/instances/{project_id}/{region_id}/{instance_id}/interfaces"),
        ("post", "/cloud/v1/instances/{project_id}/{region_id}/{instance_id}/addsecuritygroup"),
        ("post", "/cloud/v1/instances/{project_id}/{region_id}/{instance_id}/delsecuritygroup"),
        ("post", "/cloud/v2/instances/{project_id}/{region_id}/check_limits"),
        ("get", "/cloud/v1/flavors/{project_id}/{region_id}"),
        ("get", "/cloud/v1/images/{project_id}/{region_id}"),
        ("post", "/cloud/v1/images/{project_id}/{region_id}"),
    ],
    "cloud: load balancers": [
        ("get", "/cloud/v1/loadbalancers/{project_id}/{region_id}"),
        ("post", "/cloud/v1/loadbalancers/{project_id}/{region_id}"),
        ("get", "/cloud/v1/loadbalancers/{project_id}/{region_id}/{load_balancer_id}"),
        ("delete", "/cloud/v1/loadbalancers/{project_id}/{region_id}/{load_balancer_id}"),
        ("patch", "/cloud/v2/loadbalancers/{project_id}/{region_id}/{load_balancer_id}"),
        ("get", "/cloud/v1/lblisteners/{project_id}/{region_id}"),
        ("post", "/cloud/v1/lblisteners/{project_id}/{region_id}"),
        ("get", "/cloud/v1/lblisteners/{project_id}/{region_id}/{listener_id}"),
        ("delete", "/cloud/v1/lblisteners/{project_id}/{region_id}/{listener_id}"),
        ("patch", "/cloud/v2/lblisteners/{project_id}/{region_id}/{listener_id}"),
        ("get", "/cloud/v1/lbpools/{project_id}/{region_id}"),
        ("post", "/cloud/v1/lbpools/{project_id}/{region_id}"),
        ("get", "/cloud/v1/lbpools/{project_id}/{region_id}/{pool_id}"),
        ("delete", "/cloud/v1/lbpools/{project_id}/{region_id}/{pool_id}"),
        ("patch", "/cloud/v2/lbpools/{project_id}/{region_id}/{pool_id}"),
        ("post", "/cloud/v1/lbpools/{project_id}/{region_id}/{pool_id}/healthmonitor"),
        ("delete", "/cloud/v1/lbpools/{project_id}/{region_id}/{pool_id}/healthmonitor"),
        ("get", "/cloud/v1/lbpools/{project_id}/{region_id}/{pool_id}/healthmonitor"),
        ("patch", "/cloud/v1/lbpools/{project_id}/{region_id}/{pool_id}/healthmonitor"),
    ],
    "cloud: L7 policies and rules": [
        ("get", "/cloud/v1/l7policies/{project_id}/{region_id}"),
        ("post", "/cloud/v1/l7policies/{project_id}/{region_id}"),
        ("get", "/cloud/v1/l7policies/{project_id}/{region_id}/{l7policy_id}"),
        ("patch", "/cloud/v1/l7policies/{project_id}/{region_id}/{l7policy_id}"),
        ("delete", "/cloud/v1/l7policies/{project_id}/{region_id}/{l7policy_id}"),
        ("get", "/cloud/v1/l7policies/{project_id}/{region_id}/{l7policy_id}/rules"),
        ("post", "/cloud/v1/l7policies/{project_id}/{region_id}/{l7policy_id}/rules"),
        ("get", "/cloud/v1/l7policies/{project_id}/{region_id}/{l7policy_id}/rules/{l7rule_id}"),
        ("put", "/cloud/v1/l7policies/{project_id}/{region_id}/{l7policy_id}/rules/{l7rule_id}"),
        ("delete", "/cloud/v1/l7policies/{project_id}/{region_id}/{l7policy_id}/rules/{l7rule_id}"),
    ],
    "cloud: secrets": [
        ("post", "/cloud/v2/secrets/{project_id}/{region_id}"),
        ("get", "/cloud/v1/secrets/{project_id}/{region_id}"),
        ("get", "/cloud/v1/secrets/{project_id}/{region_id}/{secret_id}"),
        ("delete", "/cloud/v1/secrets/{project_id}/{region_id}/{secret_id}"),
    ],
    "cloud: images": [
        ("get", "/cloud/v1/images/{project_id}/{region_id}/{image_id}"),
        ("patch", "/cloud/v1/images/{project_id}/{region_id}/{image_id}"),
        ("delete", "/cloud/v1/images/{project_id}/{region_id}/{image_id}"),
        ("post", "/cloud/v1/downloadimage/{project_id}/{region_id}"),
    ],
    "cloud: volume snapshots": [
        ("get", "/cloud/v1/snapshots/{project_id}/{region_id}"),
        ("post", "/cloud/v1/snapshots/{project_id}/{region_id}"),
        ("get", "/cloud/v1/snapshots/{project_id}/{region_id}/{snapshot_id}"),
        ("patch", "/cloud/v1/snapshots/{project_id}/{region_id}/{snapshot_id}"),
        ("delete", "/cloud/v1/snapshots/{project_id}/{region_id}/{snapshot_id}"),
        ("post", "/cloud/v1/volumes/{project_id}/{region_id}/{volume_id}/revert"),
    ],
    "cloud: snapshot schedules": [
        ("get", "/cloud/v1/lifecycle_policy/{project_id}/{region_id}"),
        ("post", "/cloud/v1/lifecycle_policy/{project_id}/{region_id}"),
        ("get", "/cloud/v1/lifecycle_policy/{project_id}/{region_id}/{policy_id}"),
        ("patch", "/cloud/v1/lifecycle_policy/{project_id}/{region_id}/{policy_id}"),
        ("delete", "/cloud/v1/lifecycle_policy/{project_id}/{region_id}/{policy_id}"),
        ("post", "/cloud/v1/lifecycle_policy/{project_id}/{region_id}/{policy_id}/add_schedules"),
        ("post", "/cloud/v1/lifecycle_policy/{project_id}/{region_id}/{policy_id}/remove_schedules"),
        ("put", "/cloud/v1/lifecycle_policy/{project_id}/{region_id}/{policy_id}/add_volumes_to_policy"),
        ("put", "/cloud/v1/lifecycle_policy/{project_id}/{region_id}/{policy_id}/remove_volumes_from_policy"),
    ],
    "cloud: placement groups": [
        ("get", "/cloud/v1/servergroups/{project_id}/{region_id}"),
        ("post", "/cloud/v1/servergroups/{project_id}/{region_id}"),
        ("get", "/cloud/v1/servergroups/{project_id}/{region_id}/{group_id}"),
        ("delete", "/cloud/v1/servergroups/{project_id}/{region_id}/{group_id}"),
        ("post", "/cloud/v1/instances/{project_id}/{region_id}/{instance_id}/put_into_servergroup"),
        ("post", "/cloud/v1/instances/{project_id}/{region_id}/{instance_id}/remove_from_servergroup"),
    ],
    "cloud: reserved fixed IPs": [
        ("get", "/cloud/v1/reserved_fixed_ips/{project_id}/{region_id}"),
        ("post", "/cloud/v1/reserved_fixed_ips/{project_id}/{region_id}"),
        ("get", "/cloud/v1/reserved_fixed_ips/{project_id}/{region_id}/{port_id}"),
        ("patch", "/cloud/v1/reserved_fixed_ips/{project_id}/{region_id}/{port_id}"),
        ("delete", "/cloud/v1/reserved_fixed_ips/{project_id}/{region_id}/{port_id}"),
        ("get", "/cloud/v1/reserved_fixed_ips/{project_id}/{region_id}/{port_id}/connected_devices"),
        ("patch", "/cloud/v1/reserved_fixed_ips/{project_id}/{region_id}/{port_id}/connected_devices"),
        ("put", "/cloud/v1/reserved_fixed_ips/{project_id}/{region_id}/{port_id}/connected_devices"),
        ("get", "/cloud/v1/reserved_fixed_ips/{project_id}/{region_id}/{port_id}/available_devices"),
    ],
    "cloud: network update, v2 (SDK 0.59)": [
        ("patch", "/cloud/v2/networks/{project_id}/{region_id}/{network_id}"),
    ],
    "cloud: pool members (SDK 0.59)": [
        ("get", "/cloud/v1/loadbalancers/{project_id}/{region_id}/pools/{pool_id}/members"),
        ("post", "/cloud/v1/loadbalancers/{project_id}/{region_id}/pools/{pool_id}/members"),
        ("put", "/cloud/v1/loadbalancers/{project_id}/{region_id}/pools/{pool_id}/members"),
        ("get", "/cloud/v1/loadbalancers/{project_id}/{region_id}/pools/{pool_id}/members/{member_id}"),
        ("patch", "/cloud/v1/loadbalancers/{project_id}/{region_id}/pools/{pool_id}/members/{member_id}"),
        ("delete", "/cloud/v1/loadbalancers/{project_id}/{region_id}/pools/{pool_id}/members/{member_id}"),
    ],
    "cloud: bare metal servers, flavors, images and capacity": [
        ("get", "/cloud/v1/bminstances/{project_id}/{region_id}"),
        ("post", "/cloud/v1/bminstances/{project_id}/{region_id}"),
        ("get", "/cloud/v1/bminstances/{project_id}/{region_id}/{server_id}"),
        ("patch", "/cloud/v1/bminstances/{project_id}/{region_id}/{server_id}"),
        ("delete", "/cloud/v1/bminstances/{project_id}/{region_id}/{server_id}"),
        ("post", "/cloud/v1/bminstances/{project_id}/{region_id}/{server_id}/rebuild"),
        ("post", "/cloud/v2/baremetal/{project_id}/{region_id}/{server_id}/action"),
        ("get", "/cloud/v1/bmflavors/{project_id}/{region_id}"),
        ("get", "/cloud/v1/bmimages/{project_id}/{region_id}"),
        ("get", "/cloud/v1/bmcapacity/{project_id}/{region_id}"),
    ],
    "cloud: file shares (SDK 0.59)": [
        ("get", "/cloud/v1/file_shares/{project_id}/{region_id}"),
        ("post", "/cloud/v1/file_shares/{project_id}/{region_id}"),
        ("get", "/cloud/v1/file_shares/{project_id}/{region_id}/{file_share_id}"),
        ("delete", "/cloud/v1/file_shares/{project_id}/{region_id}/{file_share_id}"),
        ("patch", "/cloud/v3/file_shares/{project_id}/{region_id}/{file_share_id}"),
        ("post", "/cloud/v1/file_shares/{project_id}/{region_id}/{file_share_id}/extend"),
        ("get", "/cloud/v1/file_shares/{project_id}/{region_id}/{file_share_id}/access_rule"),
        ("post", "/cloud/v1/file_shares/{project_id}/{region_id}/{file_share_id}/access_rule"),
        ("delete", "/cloud/v1/file_shares/{project_id}/{region_id}/{file_share_id}/access_rule/{access_rule_id}"),
    ],
    "cloud: managed Kubernetes v2 (docs/api_reference.md section 19.3)": [
        ("get", "/cloud/v2/k8s/{project_id}/{region_id}/create_versions"),
        ("get", "/cloud/v2/k8s/clusters/{project_id}/{region_id}"),
        ("post", "/cloud/v2/k8s/clusters/{project_id}/{region_id}"),
        ("post", "/cloud/v2/k8s/clusters/{project_id}/{region_id}/check_limits"),
        ("post", "/cloud/v2/k8s/clusters/{project_id}/{region_id}/pools/check_limits"),
        ("get", "/cloud/v2/k8s/clusters/{project_id}/{region_id}/{cluster_name}"),
        ("patch", "/cloud/v2/k8s/clusters/{project_id}/{region_id}/{cluster_name}"),
        ("delete", "/cloud/v2/k8s/clusters/{project_id}/{region_id}/{cluster_name}"),
        ("get", "/cloud/v2/k8s/clusters/{project_id}/{region_id}/{cluster_name}/config"),
        ("get", "/cloud/v2/k8s/clusters/{project_id}/{region_id}/{cluster_name}/upgrade_versions"),
        ("post", "/cloud/v2/k8s/clusters/{project_id}/{region_id}/{cluster_name}/upgrade"),
        ("get", "/cloud/v2/k8s/clusters/{project_id}/{region_id}/{cluster_name}/pools"),
        ("post", "/cloud/v2/k8s/clusters/{project_id}/{region_id}/{cluster_name}/pools"),
        ("get", "/cloud/v2/k8s/clusters/{project_id}/{region_id}/{cluster_name}/pools/{pool_name}"),
        ("patch", "/cloud/v2/k8s/clusters/{project_id}/{region_id}/{cluster_name}/pools/{pool_name}"),
        ("delete", "/cloud/v2/k8s/clusters/{project_id}/{region_id}/{cluster_name}/pools/{pool_name}"),
        ("post", "/cloud/v2/k8s/clusters/{project_id}/{region_id}/{cluster_name}/pools/{pool_name}/resize"),
        ("post", "/cloud/v2/pricing/{project_id}/{region_id}/k8s/clusters"),
    ],
    "waap: rules": [
        ("get", "/waap/v2/firewall-rules"),
        ("get", "/waap/v1/domains/{domain_id}/custom-rules"),
        ("post", "/waap/v1/domains/{domain_id}/custom-rules"),
        ("get", "/waap/v1/domains/{domain_id}/custom-rules/{rule_id}"),
        ("patch", "/waap/v1/domains/{domain_id}/custom-rules/{rule_id}"),
        ("delete", "/waap/v1/domains/{domain_id}/custom-rules/{rule_id}"),
        ("patch", "/waap/v1/domains/{domain_id}/custom-rules/{rule_id}/{action}"),
        ("post", "/waap/v1/domains/{domain_id}/custom-rules/bulk_delete"),
        ("get", "/waap/v1/domains/{domain_id}/firewall-rules"),
        ("post", "/waap/v1/domains/{domain_id}/firewall-rules"),
        ("get", "/waap/v1/domains/{domain_id}/firewall-rules/{rule_id}"),
        ("patch", "/waap/v1/domains/{domain_id}/firewall-rules/{rule_id}"),
        ("delete", "/waap/v1/domains/{domain_id}/firewall-rules/{rule_id}"),
        ("patch", "/waap/v1/domains/{domain_id}/firewall-rules/{rule_id}/{action}"),
        ("post", "/waap/v1/domains/{domain_id}/firewall-rules/bulk_delete"),
    ],
    "waap: domains, settings, policies and advanced rules": [
        ("get", "/waap/v1/domains"),
        ("get", "/waap/v2/domains"),
        ("get", "/waap/v1/domains/{domain_id}"),
        ("patch", "/waap/v1/domains/{domain_id}"),
        ("get", "/waap/v1/domains/{domain_id}/settings"),
        ("patch", "/waap/v1/domains/{domain_id}/settings"),
        ("get", "/waap/v1/domains/{domain_id}/rule-sets"),
        ("patch", "/waap/v1/domains/{domain_id}/policies/{policy_id}/toggle"),
        ("get", "/waap/v1/domains/{domain_id}/advanced-rules"),
        ("post", "/waap/v1/domains/{domain_id}/advanced-rules"),
        ("get", "/waap/v1/domains/{domain_id}/advanced-rules/{rule_id}"),
        ("patch", "/waap/v1/domains/{domain_id}/advanced-rules/{rule_id}"),
        ("delete", "/waap/v1/domains/{domain_id}/advanced-rules/{rule_id}"),
        ("patch", "/waap/v1/domains/{domain_id}/advanced-rules/{rule_id}/{action}"),
        ("get", "/waap/v1/advanced-rules/descriptor"),
    ],
    "waap: domains v2 and policy overrides (SDK 0.59)": [
        ("get", "/waap/v2/domains/{domain_id}"),
        ("patch", "/waap/v2/domains/{domain_id}"),
        ("delete", "/waap/v2/domains/{domain_id}"),
        ("get", "/waap/v2/domains/{domain_id}/settings"),
        ("patch", "/waap/v2/domains/{domain_id}/settings"),
        ("get", "/waap/v2/domains/{domain_id}/rule-sets"),
        ("get", "/waap/v2/domains/{domain_id}/policies"),
        ("patch", "/waap/v2/domains/{domain_id}/policies/{policy_id}"),
        ("get", "/waap/v1/domains/{domain_id}/default-rule-overrides"),
        ("post", "/waap/v1/domains/{domain_id}/default-rule-overrides"),
        ("get", "/waap/v1/domains/{domain_id}/default-rule-overrides/{policy_override_id}"),
        ("patch", "/waap/v1/domains/{domain_id}/default-rule-overrides/{policy_override_id}"),
        ("delete", "/waap/v1/domains/{domain_id}/default-rule-overrides/{policy_override_id}"),
        ("get", "/waap/v1/domains/{domain_id}/policy-override-targets/owasp-top-threats"),
    ],
    "waap: rules, v2 (SDK 0.59)": [
        ("patch", "/waap/v2/domains/{domain_id}/custom-rules/{rule_id}"),
        ("patch", "/waap/v2/domains/{domain_id}/custom-rules/{rule_id}/{action}"),
        ("post", "/waap/v2/domains/{domain_id}/custom-rules/bulk_delete"),
        ("patch", "/waap/v2/domains/{domain_id}/firewall-rules/{rule_id}"),
        ("patch", "/waap/v2/domains/{domain_id}/firewall-rules/{rule_id}/{action}"),
        ("post", "/waap/v2/domains/{domain_id}/firewall-rules/bulk_delete"),
        ("patch", "/waap/v2/domains/{domain_id}/advanced-rules/{rule_id}"),
        ("patch", "/waap/v2/domains/{domain_id}/advanced-rules/{rule_id}/{action}"),
    ],
    "storage": [
        ("get", "/storage/provisioning/v1/storage/{storage_id}"),
        ("delete", "/storage/provisioning/v1/storage/{storage_id}"),
        ("get", "/storage/v4/object_storages/{storage_id}"),
        ("delete", "/storage/v4/object_storages/{storage_id}"),
        ("get", "/storage/v4/sftp_storages/{storage_id}"),
        ("delete", "/storage/v4/sftp_storages/{storage_id}"),
        ("patch", "/storage/v4/sftp_storages/{storage_id}"),
        ("get", "/storage/v4/object_storages"),
        ("post", "/storage/v4/object_storages"),
        ("get", "/storage/v4/sftp_storages"),
        ("post", "/storage/v4/sftp_storages"),
        ("get", "/storage/v4/locations"),
        ("get", "/storage/v4/object_storages/{storage_id}/buckets"),
        ("post", "/storage/v4/object_storages/{storage_id}/buckets"),
        ("get", "/storage/v4/object_storages/{storage_id}/buckets/{name}"),
        ("patch", "/storage/v4/object_storages/{storage_id}/buckets/{name}"),
        ("delete", "/storage/v4/object_storages/{storage_id}/buckets/{name}"),
        ("get", "/storage/v4/ssh_keys"),
        ("post", "/storage/v4/ssh_keys"),
        ("get", "/storage/v4/ssh_keys/{ssh_key_id}"),
        ("delete", "/storage/v4/ssh_keys/{ssh_key_id}"),
        ("post", "/storage/v4/object_storages/{storage_id}/access_keys"),
    ],
}

# Which published file holds a path, by its first segment (the argument order of the command line).
SOURCES = ("/cloud/", "/waap/", "/storage/")

INFO = {
    "title": "Gcore API subset (cloud networking, compute, load balancers, secrets, images, snapshots, placement "
             "groups, reserved IPs; WAAP domains and rules; storage)",
    "description": "Generated by make_subset.py from Gcore's published cloud_api, waap_api and object_storage_api "
                   "OpenAPI specs, with the fragments derived from the official Python SDK gcore 0.59.0 "
                   "(sdk-0.59-cloud-storage.json, sdk-0.59-waap.json) merged by one rule (docs/api_reference.md "
                   "section 17): what they add or change is marked \"x-provenance\": \"SDK 0.59\", every other operation "
                   "\"x-provenance\": \"published\". Not edited by hand.",
}
# The mark of an operation no fragment touched: it is the published files' text.
PUBLISHED = "published"

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
REF = "#/components/"
# Keywords whose value is a schema, a list of schemas, or a map of schemas (JSON Schema 2020-12).
ONE_SCHEMA = ("items", "additionalProperties", "not", "contentSchema", "propertyNames", "if", "then", "else",
              "unevaluatedProperties", "unevaluatedItems", "contains")
SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "dependentSchemas")
# An escape ECMA-262 Unicode regular expressions accept: a syntax character, '/', '-', or a letter or digit
# (\d, \w, \t, \u00e9...). Any other character after a backslash needs no escape.
NEEDLESS_ESCAPE = re.compile(r"\\([^A-Za-z0-9^$\\.*+?()\[\]{}|/-])")


def operations():
    """Every kept operation, as (method, path), in the table's order."""
    return [operation for group in OPERATIONS.values() for operation in group]


def load(path):
    import yaml  # pylint: disable=import-outside-toplevel  # only the generator needs PyYAML, not the unit test
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with open(path, encoding="utf-8") as handle:
        return yaml.load(handle, Loader=loader)  # nosec: a safe loader


def source_of(path, documents):
    for prefix, document in zip(SOURCES, documents):
        if path.startswith(prefix):
            return document
    raise SystemExit("make_subset: no published file serves %s" % path)


def refs(node):
    """Every '#/components/...' reference inside ``node``."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith(REF):
                yield value
            else:
                yield from refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from refs(item)


def resolve(document, ref):
    node = document
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def keep_components(subset, document, node, reached):
    """Copy into ``subset`` every component ``node`` reaches in ``document``, transitively."""
    pending = list(refs(node))
    while pending:
        ref = pending.pop()
        kind, name = ref[len(REF):].split("/", 1)
        target = resolve(document, ref)
        kept = subset.setdefault("components", {}).setdefault(kind, {})
        if name in kept:
            if kept[name] != target:
                raise SystemExit("make_subset: two published files define %s differently" % ref)
            continue
        kept[name] = copy.deepcopy(target)
        reached.append((kind, name))
        pending.extend(refs(target))


# ---- Step 3: the schemas' samples agree with them -------------------------------------------------------------

TYPES = {"string": str, "object": dict, "array": list, "boolean": bool, "null": type(None)}


def has_type(value, name):
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, TYPES.get(name, object))


def valid(value, schema, components):
    """Whether ``value`` satisfies ``schema`` (the keywords the published schemas use to say what a value is)."""
    if not isinstance(schema, dict):
        return schema is not False
    if "$ref" in schema and not valid(value, resolve({"components": components}, schema["$ref"]), components):
        return False
    types = schema.get("type")
    if types is not None and not any(has_type(value, name) for name in (types if isinstance(types, list) else [types])):
        return False
    if "const" in schema and value != schema["const"]:
        return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    if "anyOf" in schema and not any(valid(value, part, components) for part in schema["anyOf"]):
        return False
    if "oneOf" in schema and sum(valid(value, part, components) for part in schema["oneOf"]) != 1:
        return False
    if "allOf" in schema and not all(valid(value, part, components) for part in schema["allOf"]):
        return False
    if isinstance(value, list) and "items" in schema:
        if not all(valid(item, schema["items"], components) for item in value):
            return False
    if isinstance(value, dict):
        if any(name not in value for name in schema.get("required", ())):
            return False
        properties = schema.get("properties", {})
        if any(name in properties and not valid(item, properties[name], components) for name, item in value.items()):
            return False
        if schema.get("additionalProperties") is False and any(name not in properties for name in value):
            return False
    return True


def is_array(schema, components):
    if not isinstance(schema, dict):
        return False
    if "$ref" in schema:
        return is_array(resolve({"components": components}, schema["$ref"]), components)
    return schema.get("type") == "array"


def agree(schema, components):
    """Make ``schema``'s own ``example``/``examples`` satisfy it, and its ``pattern`` an ECMA-262 Unicode regex."""
    bare = {key: value for key, value in schema.items() if key not in ("example", "examples")}
    if "example" in schema:
        value = schema["example"]
        if not valid(value, bare, components):
            if is_array(bare, components) and valid([value], bare, components):
                schema["example"] = [value]
            else:
                del schema["example"]
    if isinstance(schema.get("examples"), list):
        values = schema["examples"]
        kept = [value for value in values if valid(value, bare, components)]
        if len(kept) < len(values) and is_array(bare, components) and valid(values, bare, components):
            kept = [values]  # a list of items given as one sample of the array
        if kept:
            schema["examples"] = kept
        else:
            del schema["examples"]
    if isinstance(schema.get("pattern"), str):
        schema["pattern"] = NEEDLESS_ESCAPE.sub(r"\1", schema["pattern"])


def walk_schema(schema, components):
    if not isinstance(schema, dict):
        return
    agree(schema, components)
    for key in ONE_SCHEMA:
        walk_schema(schema.get(key), components)
    for key in SCHEMA_LISTS:
        for part in schema.get(key) or ():
            walk_schema(part, components)
    for key in SCHEMA_MAPS:
        for part in (schema.get(key) or {}).values():
            walk_schema(part, components)


def walk_operation(node, components):
    """Every schema of an operation: its parameters', request body's and responses' (headers included)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "schema":
                walk_schema(value, components)
            elif key != "x-codeSamples":
                walk_operation(value, components)
    elif isinstance(node, list):
        for item in node:
            walk_operation(item, components)


def build(documents):
    """The subset of ``documents`` (cloud, waap, storage, each a loaded published file)."""
    cloud = documents[0]
    info = {"title": INFO["title"], "version": cloud["info"]["version"], "description": INFO["description"]}
    subset = {"openapi": cloud["openapi"], "info": info,
              "servers": cloud["servers"], "security": cloud["security"], "tags": [], "paths": {}}
    originals = {}  # (kind, name) -> the document a component came from
    for method, path in operations():
        document = source_of(path, documents)
        operation = document["paths"].get(path, {}).get(method)
        if operation is None:
            raise SystemExit("make_subset: the published files have no %s %s" % (method.upper(), path))
        subset["paths"].setdefault(path, {})[method] = copy.deepcopy(operation)
        reached = []
        keep_components(subset, document, operation, reached)
        originals.update((item, document) for item in reached)
    for name in {name for requirement in subset["security"] for name in requirement}:
        keep_components(subset, cloud, {"$ref": REF + "securitySchemes/" + name}, [])
    used = {tag for operations_ in subset["paths"].values() for method, operation in operations_.items()
            if method in METHODS for tag in operation.get("tags", ())}
    for document in documents:
        subset["tags"].extend(tag for tag in document.get("tags", ()) if tag["name"] in used and tag not in subset["tags"])
    components = subset["components"]
    for operations_ in subset["paths"].values():
        for operation in operations_.values():  # the operations and the path-level parameters
            walk_operation(operation, components)
    for schema in components.get("schemas", {}).values():
        walk_schema(schema, components)
    subset["components"] = {kind: dict(sorted(kept.items())) for kind, kept in sorted(components.items())}
    return subset


def cut(merged):
    """The operations of ``OPERATIONS`` cut from a merged file that holds more (the merged subset of every family the
    fragments describe): each copied whole in the table's order, with the path's own members, the components they
    reach (transitively), the components no operation reaches (a fragment's own) and the tags they use; a listed
    operation the file lacks is an error."""
    subset = dict((key, copy.deepcopy(value)) for key, value in merged.items() if key not in ("paths", "components", "tags"))
    subset.update(tags=[], paths={}, components={})
    for method, path in operations():
        item = merged["paths"].get(path, {})
        if method not in item:
            raise SystemExit("make_subset: the merged file has no %s %s" % (method.upper(), path))
        kept = subset["paths"].setdefault(path, dict((key, copy.deepcopy(value)) for key, value in item.items() if key not in METHODS))
        kept[method] = copy.deepcopy(item[method])
        keep_components(subset, merged, kept, [])
    for name in {name for requirement in subset.get("security", ()) for name in requirement}:
        keep_components(subset, merged, {"$ref": REF + "securitySchemes/" + name}, [])
    used = {tag for item in subset["paths"].values() for method, operation in item.items() if method in METHODS
            for tag in operation.get("tags", ())}
    subset["tags"] = [tag for tag in merged.get("tags", ()) if tag["name"] in used]
    reached = {"components": {}}  # what every operation of the merged file reaches: the rest (a fragment's own) is kept
    keep_components(reached, merged, merged["paths"], [])
    for kind, kept in merged.get("components", {}).items():
        for name, value in kept.items():
            if kind != "securitySchemes" and name not in reached["components"].get(kind, {}):
                subset["components"].setdefault(kind, {})[name] = copy.deepcopy(value)
    subset["components"] = dict((kind, dict(sorted(kept.items()))) for kind, kept in sorted(subset["components"].items()))
    return subset


def adopt(merged):
    """The committed subset made from ``merged``: the published subset with the SDK 0.59 fragments merged onto it
    (docs/api_reference.md section 17 says what the fragments hold), cut to the operations of ``OPERATIONS`` (``cut``),
    which it must hold, in order; every operation no fragment marked is marked ``published``; the
    samples and patterns are made to agree as in ``build``; the header is ours."""
    subset = cut(merged)
    kept = [(method, path) for path, item in subset["paths"].items() for method in item if method in METHODS]
    if kept != operations():
        missing = sorted(set(operations()) - set(kept))
        extra = sorted(set(kept) - set(operations()))
        raise SystemExit("make_subset: the merged file's operations are not the table's (missing %s, extra %s%s)"
                         % (missing, extra, "" if missing or extra else ", order differs"))
    for item in subset["paths"].values():
        for method, operation in item.items():
            if method in METHODS:
                operation.setdefault("x-provenance", PUBLISHED)
    subset["info"] = {"title": INFO["title"], "version": merged["info"]["version"], "description": INFO["description"]}
    components = subset["components"]
    for item in subset["paths"].values():
        walk_operation(item, components)
    for schema in components.get("schemas", {}).values():
        walk_schema(schema, components)
    return subset


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("merged", help="the merged subset: the published subset with the SDK 0.59 fragments merged")
    parser.add_argument("-o", "--output", default=str(pathlib.Path(__file__).with_name("gcore-subset.json")))
    args = parser.parse_args(argv)
    with open(args.merged, encoding="utf-8") as handle:
        subset = adopt(json.load(handle))
    with open(args.output, "w", encoding="utf-8") as handle:
        json.dump(subset, handle, indent=1)
        handle.write("\n")
    count = sum(method in METHODS for item in subset["paths"].values() for method in item)
    marked = sum(operation.get("x-provenance") != PUBLISHED for item in subset["paths"].values()
                 for method, operation in item.items() if method in METHODS)
    print("%s: %s paths, %s operations (%s from SDK 0.59), %s schemas" % (
        args.output, len(subset["paths"]), count, marked, len(subset["components"].get("schemas", {}))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
