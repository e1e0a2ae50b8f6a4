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
    LISTENER_PATCHED,
    LISTENERS_PATH,
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
    member_body,
    pool_body,
    pool_view,
    wanted_listener,
)
from ansible_collections.gcore.platform.plugins.module_utils._checks import masked
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._parts import Part
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

class Listeners(Part):
    """A load balancer's listeners as a set keyed by name (a ``Part``): read with two listings (``expand``)."""

    name = option = "listeners"

    # ---- the option --------------------------------------------------------------------------
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

    # ---- what a record holds -----------------------------------------------------------------
    def fetch(self, get, record, params):
        return expand(get, params, record)

    def held(self, record):
        if record is None:
            return {}
        listeners = record["listeners"]
        by_name = {}
        for listener in listeners:
            by_name.setdefault(listener["name"], []).append(listener)
        twice = dict((name, found) for name, found in by_name.items() if len(found) > 1)
        if twice:
            name, found = sorted(twice.items())[0]
            ids = ", ".join(item["id"] for item in found)
            raise ValidationError("load balancer %s has %s listeners named %r (ids %s): a listener is found by its name, "
                                  "so rename or delete one of them first" % (record["id"], len(found), name, ids))
        return dict((name, found[0]) for name, found in by_name.items())

    def _changing(self, held, params):
        """``{name: (held view or None, wanted view or None)}`` of the listeners that change."""
        purge = params.get("purge_listeners", True)
        wanted = dict((item["name"], item) for item in params.get(self.option) or [])
        result = {}
        for name, item in wanted.items():
            before = listener_view(held[name]) if name in held else None
            after = wanted_listener(item, before)
            if before != after:
                result[name] = (before, after)
        for name, listener in held.items():
            if name not in wanted and purge:
                result[name] = (listener_view(listener), None)
        return result

    # ---- the diff ----------------------------------------------------------------------------
    def views(self, state, wanted, params):
        """A new listener taking the port of one purged is shown with a ``note``: that one is deleted first (section 15.8)."""
        held = self.held(state)
        changing = sorted(self._changing(held, params).items())
        before, after = tuple(masked(dict((name, sides[index]) for name, sides in changing if sides[index] is not None)) for index in (0, 1))
        ports = dict((listener["protocol_port"], name) for name, listener in held.items() if name not in after)
        for name, view in after.items():
            if name not in held and view["protocol_port"] in ports:
                after[name] = dict(view, note="listener %r holds port %s and is deleted first (one port cannot hold two listeners): a failure "
                                   "between that delete and this create leaves neither" % (ports[view["protocol_port"]], view["protocol_port"]))
        return before, after

    # ---- the plan ----------------------------------------------------------------------------
    def plan(self, record, wanted, params):
        held = self.held(record)
        purge = params.get("purge_listeners", True)
        listed = dict((item["name"], item) for item in wanted)
        for item in wanted:  # create-only options first: nothing is sent when one differs
            listener = held.get(item["name"])
            if listener is None:
                continue
            view = listener_view(listener)
            for option in CREATE_ONLY:
                if item[option] is not None and item[option] != view[option]:
                    raise ValidationError(
                        "listeners[%s].%s: listener %r of load balancer %s has %s %r, not %r, and %s cannot change on an "
                        "existing listener; delete the listener (leave it out with purge_listeners) and create it again, or "
                        "use another name" % (wanted.index(item), option, item["name"], record["id"], option, view[option],
                                              item[option], option))
        purged = [listener for name, listener in sorted(held.items()) if name not in listed and purge]
        new_ports = set(item["protocol_port"] for item in wanted if item["name"] not in held)
        first = [listener for listener in purged if listener["protocol_port"] in new_ports]
        writes = [self.deleting(record, listener, params) for listener in first]
        for item in wanted:
            if item["name"] not in held:
                writes += self.creating(record, item, params)
        for item in wanted:
            if item["name"] in held:
                writes += self.updating(record, held[item["name"]], item, params)
        writes += [self.deleting(record, listener, params) for listener in purged if listener not in first]
        return writes

    # ---- writes ------------------------------------------------------------------------------
    @staticmethod
    def path(params, template, ident=None):
        path = template.format(**params)
        return path if ident is None else "%s/%s" % (path, ident)

    def find(self, found, name):
        """The listener named ``name`` in a record read again (None when there is none)."""
        return self.held(found).get(name) if found is not None else None

    def creating(self, record, item, params):
        name = item["name"]
        body = dict(listener_body(item), load_balancer_id=record["id"])
        body.pop("pools", None)
        members = [_member_key(member) for member in ((item["pool"] or {}).get("members") or [])]
        write = Write("create", "POST", self.path(params, LISTENERS_PATH), body, names=[name], locked=record,
                      done=lambda found: self.find(found, name) is not None)
        write.said = {"listeners.created": [name]}
        writes = [write]
        if item["pool"] is not None:
            def pool_create_body(state):
                listener = self.find(state, name)
                return dict(pool_body(item["pool"]), listener_id=listener["id"] if listener else None)

            pool = Write("create", "POST", self.path(params, POOLS_PATH), names=[item["pool"]["name"]], body_of=pool_create_body,
                         locked=record, done=lambda found: (self.find(found, name) or {}).get("pool") is not None)
            pool.said = {"members.added": members}
            writes.append(pool)
        return writes

    def updating(self, record, listener, item, params):
        name, held = item["name"], listener_view(listener)
        wanted = wanted_listener(item, held)
        if wanted == held:
            return []
        writes = []
        patch = dict((field, wanted[field]) for field in LISTENER_PATCHED if wanted[field] != held[field])  # lists whole
        if patch:
            write = Write("update", "PATCH", KINDS["listener"].paths["update"].format(**dict(params, id=listener["id"])), patch, names=[name], locked=record,
                          done=lambda found: all(listener_view(self.find(found, name) or {}).get(field) == wanted[field]
                                                 for field in patch))
            write.said = {"listeners.updated": [name]}
            writes.append(write)
        return writes + self.pool_writes(record, listener, item, held["pool"], wanted["pool"], params)

    def pool_writes(self, record, listener, item, held, wanted, params):
        name, pool = item["name"], listener.get("pool")
        if held == wanted:
            return []
        if wanted is None:
            write = Write("delete", "DELETE", self.path(params, POOLS_PATH, pool["id"]), names=[pool["name"]], ids=[pool["id"]],
                          locked=record, done=lambda found: (self.find(found, name) or {}).get("pool") is None)
            write.said = {"listeners.updated": [name], "members.removed": sorted(held["members"])}
            return [write]
        if held is None:
            body = dict(pool_body(item["pool"]), listener_id=listener["id"])
            write = Write("create", "POST", self.path(params, POOLS_PATH), body, names=[item["pool"]["name"]], locked=record,
                          done=lambda found: (self.find(found, name) or {}).get("pool") is not None)
            write.said = {"listeners.updated": [name], "members.added": sorted(wanted["members"])}
            return [write]
        writes = []
        monitor_path = self.path(params, POOLS_PATH, pool["id"]) + "/healthmonitor"
        held_monitor, wanted_monitor = held["healthmonitor"], wanted["healthmonitor"]
        retyped = held_monitor is not None and wanted_monitor is not None and held_monitor["type"] != wanted_monitor["type"]

        def pool_now(found):
            return pool_view((self.find(found, name) or {}).get("pool")) or {}

        if held_monitor is not None and (wanted_monitor is None or retyped):
            write = Write("delete", "DELETE", monitor_path, names=[name], locked=record,
                          done=lambda found: (pool_now(found).get("healthmonitor") or {}).get("type") != held_monitor["type"])
            write.said = {"listeners.updated": [name]}
            writes.append(write)
        patch = {}
        for field in ("name", "lb_algorithm", "protocol"):
            if held[field] != wanted[field]:
                patch[field] = wanted[field]
        if held["session_persistence"] != wanted["session_persistence"]:
            persistence = item["pool"]["session_persistence"]
            patch["session_persistence"] = _strip(persistence) if persistence is not None else None
        if wanted_monitor is not None and held_monitor is None:
            patch["healthmonitor"] = _strip(item["pool"]["healthmonitor"])
        if patch:
            compared = list(patch)
            write = Write("update", "PATCH", KINDS["pool"].paths["update"].format(**dict(params, id=pool["id"])), patch, names=[name], locked=record,
                          done=lambda found: all(pool_now(found).get(field) == wanted[field] for field in compared))
            write.said = {"listeners.updated": [name]}
            writes.append(write)
        if wanted_monitor is not None and held_monitor is not None and not retyped and held_monitor != wanted_monitor:
            # only the members that differ, never the type (docs/api_reference.md section 17)
            changed = dict((field, wanted_monitor[field]) for field in MONITOR_FIELDS
                           if field != "type" and wanted_monitor[field] != held_monitor[field])
            write = Write("update", "PATCH", monitor_path, changed, names=[name], locked=record,
                          done=lambda found: pool_now(found).get("healthmonitor") == wanted_monitor)
            write.said = {"listeners.updated": [name]}
            writes.append(write)
        if held["members"] != wanted["members"]:
            # the whole member set in one PUT: members kept by address and port are not recreated (section 17)
            body = [member_body(member) for member in item["pool"]["members"] or []]
            write = Write("update", "PUT", MEMBERS_PATH.format(pool_id=pool["id"], **params), body, names=[name],
                          locked=record, done=lambda found: pool_now(found).get("members") == wanted["members"])
            write.said = {"listeners.updated": [name], "members.added": sorted(set(wanted["members"]) - set(held["members"])),
                          "members.removed": sorted(set(held["members"]) - set(wanted["members"]))}
            writes.append(write)
        if retyped:
            write = Write("create", "POST", monitor_path, _strip(item["pool"]["healthmonitor"]), names=[name], locked=record,
                          done=lambda found: (pool_now(found).get("healthmonitor") or {}).get("type") == wanted_monitor["type"])
            write.said = {"listeners.updated": [name]}
            writes.append(write)
        return writes

    def deleting(self, record, listener, params):
        name = listener["name"]
        write = Write("delete", "DELETE",
                      self.path(params, LISTENERS_PATH, listener["id"]), query={"delete_default_pool": "true"}, names=[name],
                      ids=[listener["id"]], locked=record, done=lambda found: self.find(found, name) is None)
        write.said = {"listeners.deleted": [name], "members.removed": sorted(held_members(listener.get("pool") or {}))}
        return write


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
