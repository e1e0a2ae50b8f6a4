# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""The kinds of Gcore Cloud resource (``Kind``, ``_cloud``): a declaration that grows with every resource, read by both
modules of each (``network`` and ``network_info`` hold ``kind = KINDS["network"]``), and what only some kinds use.

This module is internal to the collection: its interface may change at any time.
"""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, is_uuid, uuid_text
from ansible_collections.gcore.platform.plugins.module_utils._cloud import PAGE_SIZE, Kind

# A snapshot schedule (lifecycle policy) shows its volumes only when asked for (docs/api_reference.md section 19.5).
VOLUMES_SHOWN = {"need_volumes": "true"}
V2_UPDATE = dict(update=("/{id}", "v2"))

KINDS = dict((kind.key, kind) for kind in (
    Kind("network", "networks", paths=V2_UPDATE, name_query=("name", 61)),
    Kind("subnet", "subnets", name_query=None),
    Kind("router", "routers", id_option="id", id_aliases=["router_id"], paths=V2_UPDATE),
    Kind("security group", "securitygroups", created_key="security_groups", paths=dict(
        create=("", "v2", "security_groups"), update=("/{id}", "v2", "security_groups"))),
    Kind("floating IP", "floatingips", id_option="floating_ip_id", title="Floating IP", paths=V2_UPDATE, name_query=None, nameless=True),
    Kind("SSH key", "ssh_keys", id_option="ssh_key_id", title="SSH key", regional=False),
    Kind("volume", "volumes", name_query=("name_part", 63), total_key="count"),
    Kind("instance", "instances", paths=dict(create=("", "v2"), check_limits=("/check_limits", "v2"), price=("/instances", "v2", "pricing"))),
    Kind("load balancer", "loadbalancers", paths=dict(V2_UPDATE, check_limits=("/check_limits",))),
    Kind("snapshot", "snapshots", name_query=None, total_key="count"),
    Kind("image", "images", name_query=None, list_params={"private": "true"},  # private images show only when asked for
         paths=dict(download=("", "v1", "downloadimage"))),
    Kind("placement group", "servergroups", id_key="servergroup_id", name_query=None, name_length=110),
    Kind("secret", "secrets", paths=dict(create=("", "v2")), name_query=None, name_length=None),  # no name filter, no name rule
    Kind("reserved fixed IP", "reserved_fixed_ips", id_option="port_id", title="Reserved fixed IP", id_key="port_id",
         name_query=None, created_key="ports", nameless=True),  # no name of its own (the service names it), no tags
    Kind("bare metal server", "bminstances", id_option="server_id", plural="servers", created_key="instances", paths=dict(
        action=("/{id}/action", "v2", "baremetal"), rebuild=("/{id}/rebuild",), check_limits=("/check_limits",),  # action: SDK 0.59's (API 19.1)
        capacity=("", "v1", "bmcapacity"), flavors=("", "v1", "bmflavors"), images=("", "v1", "bmimages"))),
    Kind("snapshot schedule", "lifecycle_policy", integer_id=True, name_query=None, total_key="count", list_params=VOLUMES_SHOWN,
         paths=dict(item=("/{id}?need_volumes=true",), update=("/{id}",), delete=("/{id}",))),
    Kind("file share", "file_shares", paths=dict(update=("/{id}", "v3")), total_key="count"),  # the v1 PATCH is deprecated
    Kind("k8s cluster", "k8s/clusters", plural="clusters", name_query=None, created_key="k8s_clusters", name_length=20, paths=dict(
        list=("", "v2"), item=("/{name}", "v2"), config=("/{name}/config", "v2"), upgrade=("/{name}/upgrade", "v2"),  # v2, by name
        upgrade_versions=("/{name}/upgrade_versions", "v2"), check_limits=("/check_limits", "v2"),  # (docs/api_reference.md 19.3)
        create_versions=("/create_versions", "v2", "k8s"), price=("/k8s/clusters", "v2", "pricing"))),  # pools: the module's ``Pools``
    Kind("listener", "lblisteners", paths=V2_UPDATE),  # a load balancer's, written as its part (load_balancer.Listeners)
    Kind("pool", "lbpools", paths=V2_UPDATE),
    Kind("notification threshold", "client_quotas", owner="{client_id}", paths=dict(item=("/notification_threshold", "v2"))),
    Kind("L7 policy", "l7policies"),  # a listener's, written as a part of its load balancer (load_balancer.L7Policies)
))
POLICIES = ("affinity", "anti-affinity", "soft-anti-affinity")  # where a placement group puts its instances
K8S_NAME = (r"^[a-z][a-z0-9\-]{0,18}[a-z0-9]$", "2 to 20 lower-case letters, digits and '-'; first a letter, last a letter or digit")


def k8s_version(value):
    """A Kubernetes version compared without its leading ``v``, numerically (``v1.31.10`` is above ``1.31.9``)."""
    return tuple(int(part) if part.isdigit() else -1 for part in str(value).lstrip("v").split("."))


def listed(client, kind, params, query=None):
    """Every record of ``kind`` in the scope of ``params``, over every page of its listing (``query``: its filters)."""
    return client.paginate(kind.paths["list"].format(**params), query or None, page_size=PAGE_SIZE, total_key=kind.total_key)


def find_named(client, kind, params, value, option, required=True, query=None, records=None):
    """``(id, record or None)`` of the resource of ``kind`` that the option's ``value`` names: an id (a UUID) taken as
    given, or a name matched exactly over every page of the listing (``query``: more filters it takes; ``records``: the
    whole listing already read by ``listed``, to resolve many names from one). No match: ``(None, None)``, or
    (``required``) ``Refused`` naming the option; several: ``Refused`` listing their ids."""
    if is_uuid(value):
        return uuid_text(option, value), None
    if records is None:
        records = listed(client, kind, params, dict(kind.query(value), **(query or {})))
    matches = [kind.identified(record) for record in records if record.get("name") == value]
    where = kind.scope.format(**params)
    if len(matches) > 1:
        raise Refused("%s: %s %ss of %s are named %r (ids %s); give the id of the one to use (nothing was sent)"
                      % (option, len(matches), kind.noun, where, value, ", ".join(str(record.get("id")) for record in matches)))
    if matches:
        return matches[0]["id"], matches[0]
    if required:
        raise Refused("%s: no %s is named %r in %s (nothing was sent)" % (option, kind.noun, value, where))
    return None, None
