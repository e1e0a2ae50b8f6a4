# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""A load balancer's listeners as a set, for the load_balancer module: a part (``_parts.Part``).

This module is internal to the collection: its interface may change at any time.

The plan (docs/api_reference.md section 15.8): a purged listener whose port a new listener takes is deleted first,
then new listeners are created (each followed by the create of its pool), then each listener that differs gets one
v2 PATCH with only what differs and its pool the writes below, then the other purged listeners are deleted. A declared
pool is whole: missing, it is created; left out, the listener's pool is deleted; otherwise a health monitor to remove
(or whose type changes) is deleted first, then one v2 PATCH carries the pool's own members that differ (``name``,
``lb_algorithm``, ``protocol``, ``session_persistence`` whole, a new ``healthmonitor``), a health monitor of the same
type is changed by its own PATCH (the members that differ, never ``type``), the member set by one PUT of the whole list
(members kept by address and port are not recreated), and a health monitor whose type changed is created again.
``protocol``, ``protocol_port`` and ``insert_x_forwarded`` cannot change: a listener whose record
differs fails before any write, naming the listener and the option.

The listeners' L7 policies (docs/api_reference.md section 19.4): ``read_policies`` sets each listener's ``l7policies``
(one listing of the region's policies, one of each policy's rules), ``RULES`` declares a policy's rules as a child
collection; the policies themselves are the load_balancer module's part (``L7Policies``).
"""

from __future__ import annotations

import ipaddress

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError, require
from ansible_collections.gcore.platform.plugins.module_utils._children import Children
from ansible_collections.gcore.platform.plugins.module_utils._cloud import KINDS, PAGE_SIZE
from ansible_collections.gcore.platform.plugins.module_utils._lb import (
    CREATE_ONLY,
    MEMBERS_PATH,
    MONITOR_FIELDS,
    MAX_LISTENERS,
    POOLS_PATH,
    _member_key,
    _strip,
    check_listener,
    expand,
    held_members,
    listener_body,
    listener_view,
    wanted_pool,
    member_body,
    pool_body,
    pool_view,
    wanted_listener,
)
from ansible_collections.gcore.platform.plugins.module_utils._masks import masked
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._writes import Write

POOL_FITS = {"HTTP": ("HTTP", "PROXY", "PROXYV2"), "HTTPS": ("HTTPS", "PROXY", "PROXYV2", "TCP"), "UDP": ("UDP",), "PROMETHEUS": (),
             "TCP": ("HTTP", "HTTPS", "PROXY", "PROXYV2", "TCP"), "TERMINATED_HTTPS": ("HTTP", "PROXY", "PROXYV2")}  # section 15.8

# The load_balancer module's ``changes``: what its writes say (each write of the set says its part of it).
CHANGES = {"listeners": {"created": str, "updated": str, "deleted": str}, "members": {"added": str, "removed": str},
           "l7policies": {"created": str, "updated": str, "deleted": str}}


def check_pool_fits(where, protocol, pool):
    """A listener takes a pool of the protocols ``POOL_FITS`` names (a PROMETHEUS listener none): "an HTTP", "a UDP"."""
    fits, given = POOL_FITS[protocol], (pool or {}).get("protocol", "")

    def article(name):
        return "an" if name.startswith("HTTP") else "a"
    require(pool is None or fits, where + ".pool", "a %s listener has no pool (it serves the load balancer's metrics); leave pool out" % protocol)
    require(pool is None or given in fits, where + ".pool.protocol", "%s %s pool does not fit %s %s listener (it takes %s)" % (
        article(given), given, article(protocol), protocol, " or ".join((", ".join(fits[:-1]), fits[-1]) if len(fits) > 1 else fits)))


def check_member_subnets(client, params, listeners):
    """Each member's address of the IP version of its ``subnet_id`` (the service refuses an IPv6 member on an IPv4
    subnet): every subnet named read once, before any write; an unknown subnet fails naming the member."""
    versions = {}
    for index, item in enumerate(listeners or []):
        for number, member in enumerate((item["pool"] or {}).get("members") or []):
            subnet = member["subnet_id"]
            if subnet is None:
                continue
            where = "listeners[%s].pool.members[%s]" % (index, number)
            if subnet not in versions:
                record = client.get_or_none(KINDS["subnet"].paths["item"].format(**dict(params, id=subnet)))
                require(record is not None, where + ".subnet_id", "no subnet %s in project %s, region %s (nothing was sent)"
                        % (subnet, params["project_id"], params["region_id"]))
                versions[subnet] = ipaddress.ip_network(record["cidr"], strict=False).version
            require(ipaddress.ip_address(member["address"]).version == versions[subnet], where + ".address",
                    "%s is an IPv%s address but subnet %s is IPv%s (nothing was sent)" % (
                        member["address"], ipaddress.ip_address(member["address"]).version, subnet, versions[subnet]))


# ---- the set --------------------------------------------------------------------------------------------------------

def find(found, name):
    """The listener named ``name`` in the listeners read again (None when there is none)."""
    return next((listener for listener in found or () if listener.get("name") == name), None)


def pool_now(found, name):
    return pool_view((find(found, name) or {}).get("pool")) or {}


class Listeners(Children):
    """A load balancer's listeners as a child collection keyed by name, inside the record once read with two listings
    (``expand``); each listener's pool is written by requests of its own (``child_writes``, ``pool_writes``)."""

    inside, locked, own, order, delete_query = "listeners", True, {"pool": ("pools", "updated")}, ("taken", "creates", "updates", "deletes"), {
        "delete_default_pool": "true"}
    taken = staticmethod(lambda record, plan: record.get("protocol_port") in set(item["protocol_port"] for item in plan.creates))

    def __init__(self):
        super().__init__("listeners", "listener", KINDS["listener"].paths, [], option="listeners", create_only=CREATE_ONLY, replace=None,
                         mode=lambda params: "overridden" if params.get("purge_listeners", True) else "merged",
                         update_body=lambda changes, record: changes)

    def check(self, module):
        items = module.params.get(self.option)
        if items is not None:
            items[:] = self.canonical(items)

    def wanted(self, module):
        """Not managed by a delete (its diff lists every listener it takes: the module's ``shown``)."""
        return None if module.params["state"] == "absent" else super().wanted(module)

    def created_said(self, wanted):
        """The load balancer's create carries every listener and member declared."""
        return {"listeners.created": [item["name"] for item in wanted],
                "members.added": [_member_key(member) for item in wanted for member in ((item["pool"] or {}).get("members") or [])]}

    def canonical(self, items):
        require(len(items) <= MAX_LISTENERS, "listeners", "at most %s listeners (50 and a PROMETHEUS one)" % MAX_LISTENERS)
        checked = [check_listener("listeners[%s]" % index, item) for index, item in enumerate(items)]
        for index, item in enumerate(checked):
            check_pool_fits("listeners[%s]" % index, item["protocol"], item["pool"])
        for field, what in (("name", "name"), ("protocol_port", "protocol_port")):
            first = {}
            for index, item in enumerate(checked):
                if item[field] in first:
                    raise ValidationError("listeners[%s] and listeners[%s]: each listener must have its own %s; %s is given "
                                          "twice" % (first[item[field]], index, what, item[field]))
                first[item[field]] = index
        return checked

    def fetch(self, get, record, params):
        """The listeners, each with its pool, in the order of their names."""
        held = super().fetch(get, expand(get, params, record), params)
        held.sort(key=lambda listener: str(listener.get("name")))
        return held

    def differ(self, item, record, params):
        held = listener_view(record)
        wanted = wanted_listener(item, held)
        return dict((field, value) for field, value in wanted.items() if value != held[field])

    def planned(self, held, wanted, params):
        return super().planned(held, wanted, dict(params, parent_id=(getattr(held, "parent", None) or {}).get("id")))

    def fixed(self, index, member, item, record, params):
        return ("listeners[%s].%s: listener %r of load balancer %s has %s %r, not %r, and %s cannot change on an existing listener; delete "
                "the listener (leave it out with purge_listeners) and create it again, or use another name" % (
                    index, member, item["name"], params["parent_id"], member,
                    listener_view(record)[member], item[member], member))

    # ---- the diff ----------------------------------------------------------------------------
    def views(self, state, wanted, params):
        """A new listener taking the port of one purged is shown with a ``note``: that one is deleted first (section 15.8)."""
        (before, after), held = (masked(side) for side in super().views(state, wanted, params)), self.held(state or [])
        ports = dict((listener["protocol_port"], name) for name, listener in held.items() if name not in after)
        for name, view in after.items():
            if name not in held and view["protocol_port"] in ports:
                after[name] = dict(view, note="listener %r holds port %s and is deleted first (one port cannot hold two listeners): a failure "
                                   "between that delete and this create leaves neither" % (ports[view["protocol_port"]], view["protocol_port"]))
        return before, after

    shown_child = staticmethod(listener_view)
    wanted_child = staticmethod(lambda item, record, params: wanted_listener(item, None))  # a listener created

    # ---- writes ------------------------------------------------------------------------------
    def item_body(self, item, params):
        body = dict(listener_body(item), load_balancer_id=params["parent_id"])
        body.pop("pools", None)
        return body

    def writes(self, plan, held, params):
        """A delete says the members it takes with the listener's pool."""
        writes = super().writes(plan, held, params)
        for write, record in zip(writes, plan.deletes):
            write.said = dict(write.said, **{"members.removed": sorted(held_members(record.get("pool") or {}))})
        return writes

    def child_writes(self, item, record, changes, held, params):
        """A listener's create then its pool's, or its PATCH then the writes of its pool (``pool_writes``)."""
        writes, name = super().child_writes(item, record, dict((key, value) for key, value in changes.items() if key != "pool"), held, params), item["name"]
        if record is not None:
            return writes + (self.pool_writes(record, item, params) if "pool" in changes else [])
        if item["pool"] is not None:
            def pool_create_body(state):
                listener = find(state, name)
                return dict(pool_body(item["pool"]), listener_id=listener["id"] if listener else None)
            writes.append(Write("create", "POST", POOLS_PATH.format(**params), names=[item["pool"]["name"]], body_of=pool_create_body,
                                said={"members.added": [_member_key(member) for member in item["pool"]["members"] or []]},
                                done=lambda found: (find(found, name) or {}).get("pool") is not None))
        return writes

    def pool_writes(self, listener, item, params):
        name, pool = item["name"], listener.get("pool")
        held = pool_view(pool)
        wanted = wanted_pool(item["pool"], held)
        updated = {"listeners.updated": [name]}
        if wanted is None:
            return [Write("delete", "DELETE", "%s/%s" % (POOLS_PATH.format(**params), pool["id"]), names=[pool["name"]], ids=[pool["id"]],
                          said=dict(updated, **{"members.removed": sorted(held["members"])}),
                          done=lambda found: (find(found, name) or {}).get("pool") is None)]
        if held is None:
            body = dict(pool_body(item["pool"]), listener_id=listener["id"])
            return [Write("create", "POST", POOLS_PATH.format(**params), body, names=[item["pool"]["name"]], said=dict(
                updated, **{"members.added": sorted(wanted["members"])}), done=lambda found: (find(found, name) or {}).get("pool") is not None)]
        writes = []
        monitor_path = "%s/%s/healthmonitor" % (POOLS_PATH.format(**params), pool["id"])
        held_monitor, wanted_monitor = held["healthmonitor"], wanted["healthmonitor"]
        retyped = held_monitor is not None and wanted_monitor is not None and held_monitor["type"] != wanted_monitor["type"]
        if held_monitor is not None and (wanted_monitor is None or retyped):
            writes.append(Write("delete", "DELETE", monitor_path, names=[name], said=updated, done=lambda found: (
                pool_now(found, name).get("healthmonitor") or {}).get("type") != held_monitor["type"]))
        patch = dict((field, wanted[field]) for field in ("name", "lb_algorithm", "protocol") if held[field] != wanted[field])
        if held["session_persistence"] != wanted["session_persistence"]:
            persistence = item["pool"]["session_persistence"]
            patch["session_persistence"] = _strip(persistence) if persistence is not None else None
        if wanted_monitor is not None and held_monitor is None:
            patch["healthmonitor"] = _strip(item["pool"]["healthmonitor"])
        if patch:
            writes.append(Write("update", "PATCH", KINDS["pool"].paths["update"].format(**dict(params, id=pool["id"])), patch, names=[name],
                                said=updated, done=lambda found, compared=list(patch): all(
                                    pool_now(found, name).get(field) == wanted[field] for field in compared)))
        if wanted_monitor is not None and held_monitor is not None and not retyped and held_monitor != wanted_monitor:
            # only the members that differ, never the type (docs/api_reference.md section 17)
            changed = dict((field, wanted_monitor[field]) for field in MONITOR_FIELDS if field != "type" and wanted_monitor[field] != held_monitor[field])
            writes.append(Write("update", "PATCH", monitor_path, changed, names=[name], said=updated,
                                done=lambda found: pool_now(found, name).get("healthmonitor") == wanted_monitor))
        if held["members"] != wanted["members"]:
            # the whole member set in one PUT: members kept by address and port are not recreated (section 17)
            writes.append(Write("update", "PUT", MEMBERS_PATH.format(pool_id=pool["id"], **params), [member_body(member) for member in item[
                "pool"]["members"] or []], names=[name], said=dict(updated, **{"members.added": sorted(set(wanted["members"]) - set(held["members"])),
                                                                               "members.removed": sorted(set(held["members"]) - set(wanted["members"]))}),
                done=lambda found: pool_now(found, name).get("members") == wanted["members"]))
        if retyped:
            writes.append(Write("create", "POST", monitor_path, _strip(item["pool"]["healthmonitor"]), names=[name], said=updated,
                                done=lambda found: (pool_now(found, name).get("healthmonitor") or {}).get("type") == wanted_monitor["type"]))
        return writes


# ---- L7 policies and their rules (docs/api_reference.md section 19.4) ------------------------------------------------

L7 = KINDS["l7_policy"]
L7_TARGETS = {"REDIRECT_TO_POOL": "redirect_pool", "REDIRECT_TO_URL": "redirect_url", "REDIRECT_PREFIX": "redirect_prefix", "REJECT": None}
RULE_FIELDS = ("type", "compare_type", "value", "key", "invert")


def rule_text(rule):
    """A rule's identity: the whole rule as one text (``not HEADER[X-Api] EQUAL_TO v2``)."""
    return "%s%s%s %s %s" % ("not " if rule.get("invert") else "", rule.get("type"), "[%s]" % rule["key"] if rule.get("key") else "",
                             rule.get("compare_type"), rule.get("value"))


def read_policies(client, params, record):
    """The load balancer ``record`` expanded (``expand``), each listener with ``l7policies``: its policies in position
    order, each with its ``rules`` read (one listing of the region's policies: it has no filter; one of each policy's rules)."""
    paginate = getattr(client, "paginate", None)
    get = (lambda path: list(paginate(path, None, page_size=PAGE_SIZE))) if paginate else client
    record = expand(client, params, record)
    if record is None:
        return None
    listeners = dict((listener["id"], dict(listener, l7policies=[])) for listener in record["listeners"])
    for policy in sorted(get(L7.paths["list"].format(**params)), key=lambda policy: policy.get("position") or 0):
        if policy.get("listener_id") in listeners:
            policy["rules"] = get(RULES.paths["list"].format(**dict(params, parent_id=policy["id"])))
            listeners[policy["listener_id"]]["l7policies"].append(policy)
    return dict(record, listeners=list(listeners.values()))


RULES = Children("", "L7 rule", dict(list=L7.path("/{parent_id}/rules"), item=L7.path("/{parent_id}/rules/{id}"), update="PUT " + L7.path(
    "/{parent_id}/rules/{id}")), [Member(field) for field in RULE_FIELDS], key="rule", mode=lambda params: "overridden",
    body=lambda item: dict((field, item[field]) for field in RULE_FIELDS if item[field] is not None))
