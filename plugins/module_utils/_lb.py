# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""A load balancer's listeners, their pools and L7 policies: the checks of the option, the views compared and shown in
the diff, the bodies sent, and the reading. This module is internal to the collection: its interface may change at any time.

The load balancer record holds only its listeners' ids (docs/api_reference.md section 15.8): ``expand`` sets them into it
with one listing of the listeners and one of the pools, each listener with its ``pool`` (or None); ``read_policies``
each listener's ``l7policies`` with their rules (section 19.4). A pool's view (``pool_view``, ``wanted_pool``: what
is compared and shown in the diff) keys its members ``address:port``. Before any write, names become ids: a
listener's certificates (``secret``, ``sni_secrets``: ids or exact names, one listing of the secrets, section 16.2)
and a member's ``instance`` (its fixed address in the member's ``subnet_id``, else in the VIP subnet, else its one
private address); in check mode a name that matches nothing is one an earlier task creates (``_parents.assume``).
"""

from __future__ import annotations

import ipaddress
import re

from ansible_collections.gcore.platform.plugins.module_utils._addresses import address_lists
from ansible_collections.gcore.platform.plugins.module_utils._checks import (
    Refused, ValidationError, canonical_ip, check_length, check_pattern, check_range, is_uuid, require, uuid_text)
from ansible_collections.gcore.platform.plugins.module_utils._children import Children
from ansible_collections.gcore.platform.plugins.module_utils._cloud import check_name
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS, find_named, listed
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._networks import address
from ansible_collections.gcore.platform.plugins.module_utils._parents import assume

URL_PATH_PATTERN = r"^/([^/?#%][^?#%]*)?$"
DEFAULT_CONNECTION_LIMIT = 100000  # a listener's connection_limit when not given, or given as -1
INSTANCE = KINDS["instance"]
MAX_LISTENERS = 51  # the create body's maxItems (50 and a Prometheus listener)
CREATE_ONLY = ("protocol", "protocol_port", "insert_x_forwarded")
TIMEOUTS = ("timeout_client_data", "timeout_member_connect", "timeout_member_data")
TLS_PROTOCOLS = ("TERMINATED_HTTPS", "PROMETHEUS")  # the listeners that take a certificate (section 16.2)
USERNAME_PATTERN = r"^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,30}[a-zA-Z0-9._]$"
MEMBER_FIELDS = ("address", "protocol_port", "weight", "subnet_id", "instance_id", "backup", "admin_state_up")  # sent
MONITOR_FIELDS = ("type", "delay", "max_retries", "timeout", "max_retries_down", "url_path", "expected_codes", "http_method")
MASK = "********"  # as Ansible shows a no_log value
SECRET_MEMBERS = frozenset(("encrypted_password",))  # a listener's user_list[] password hash, answered as the service holds it


def masked(value):
    """``value`` (a record, a list, a view) with every secret member (``SECRET_MEMBERS``, at any depth) that holds
    something replaced by ``MASK``: it never reaches a result, a diff or a log."""
    if isinstance(value, dict):
        return dict((key, MASK if key in SECRET_MEMBERS and item not in (None, "") else masked(item)) for key, item in value.items())
    if isinstance(value, list):
        return [masked(item) for item in value]
    return value


# ---- checking the option ---------------------------------------------------------------------------------------

def member_key(member):
    return "%s:%s" % (member["address"], member["protocol_port"])


def check_member(where, member):
    require((member["address"] is None) != (member["instance"] is None), where,
            "give exactly one of address and instance (the instance's address is the member's)")
    if member["instance"] is not None and not is_uuid(member["instance"]):
        check_name(where + ".instance", member["instance"], "an instance ID (a UUID) or an exact instance name")
    if member["address"] is not None:
        member["address"] = address(where + ".address", member["address"])
    check_range(where + ".protocol_port", member["protocol_port"], 1, 65535)
    check_range(where + ".weight", member["weight"], 1, 256)
    for option in ("subnet_id", "instance_id"):
        member[option] = uuid_text("%s.%s" % (where, option), member[option])


def distinct(where, items, noun, field, key=None):
    """Two ``items`` of one ``key`` (default: their ``field``; None: not compared) fail naming both."""
    first = {}
    for index, item in enumerate(items):
        value = key(item) if key else item[field]
        require(value is None or value not in first, "%s[%s] and %s[%s]" % (where, first.get(value), where, index),
                "each %s must have its own %s; %s is given twice" % (noun, field, value))
        first[value] = index


def check_monitor(where, monitor):
    check_range(where + ".delay", monitor["delay"], 1, 2147483647)
    check_range(where + ".max_retries", monitor["max_retries"], 1, 10)
    check_range(where + ".max_retries_down", monitor["max_retries_down"], 1, 10)
    check_range(where + ".timeout", monitor["timeout"], 0, 2147483)
    require(monitor["timeout"] < monitor["delay"], where + ".timeout",
            "must be below %s.delay (%s), the time between two checks" % (where, monitor["delay"]))
    check_pattern(where + ".url_path", monitor["url_path"], URL_PATH_PATTERN, "a path starting with '/', without '?', '#' or '%'")
    check_length(where + ".expected_codes", monitor["expected_codes"], 1, 64)
    check_codes(where + ".expected_codes", monitor["expected_codes"])
    for option in ("url_path", "expected_codes", "http_method"):
        require(monitor[option] is None or monitor["type"] in ("HTTP", "HTTPS"), "%s.%s" % (where, option),
                "only an HTTP or HTTPS health monitor has it (type is %s)" % monitor["type"])


def check_codes(option, value):
    """HTTP status codes 100-599, comma-separated, each a code or a range (``200``, ``200,202``, ``200-204``)."""
    ranges = [item.partition("-") for item in (value or "").split(",")]  # each (low, "-", high) or (code, "", "")
    fits = re.fullmatch(r"\d{3}(-\d{3})?(,\d{3}(-\d{3})?)*", value or "") and all(100 <= int(low) <= int(high or low) <= 599 for low, _dash, high in ranges)
    require(value is None or fits, option, "%r is not HTTP status codes (100 to 599): one, a comma-separated list or a range such as 200-204" % value)


def check_pool(where, pool):
    check_name(where + ".name", pool["name"])
    for index, member in enumerate(pool["members"] or []):
        check_member("%s.members[%s]" % (where, index), member)
    distinct(where + ".members", pool["members"] or [], "member", "address and protocol_port",
             lambda member: member_key(member) if member["address"] is not None else None)
    if pool["healthmonitor"] is not None:
        check_monitor(where + ".healthmonitor", pool["healthmonitor"])
    persistence = pool["session_persistence"]
    if persistence is not None:
        check_name(where + ".session_persistence.cookie_name", persistence["cookie_name"])
        require(persistence["cookie_name"] is None or persistence["type"] == "APP_COOKIE",
                where + ".session_persistence.cookie_name", "only an APP_COOKIE session persistence has a cookie_name")
        require(persistence["cookie_name"] is not None or persistence["type"] != "APP_COOKIE",
                where + ".session_persistence.cookie_name", "required with type APP_COOKIE")


def check_listener(where, listener):
    """One item of ``listeners`` checked before any request and made canonical (CIDRs and addresses in one form)."""
    check_name(where + ".name", listener["name"])
    check_range(where + ".protocol_port", listener["protocol_port"], 1, 65535)
    check_range(where + ".connection_limit", listener["connection_limit"], -1, 1000000)
    if listener["connection_limit"] == -1:
        listener["connection_limit"] = DEFAULT_CONNECTION_LIMIT  # what the service stores for -1
    for option in TIMEOUTS:
        check_range(where + "." + option, listener[option], 0, 86400000)
    cidrs = listener["allowed_cidrs"]
    if cidrs is not None:
        require(len(cidrs) <= 100, where + ".allowed_cidrs", "at most 100 CIDRs")
        listener["allowed_cidrs"] = [_strict_cidr("%s.allowed_cidrs[%s]" % (where, index), cidr) for index, cidr in enumerate(cidrs)]
    check_tls(where, listener)
    users = listener["user_list"]
    if users is not None:
        require(len(users) <= 3, where + ".user_list", "at most 3 users (%s given)" % len(users))
        for index, user in enumerate(users):
            check_length("%s.user_list[%s].username" % (where, index), user["username"], 3, 32)
            check_pattern("%s.user_list[%s].username" % (where, index), user["username"], USERNAME_PATTERN,
                          "3 to 32 letters, digits, spaces, '.', '_' or '-'; first a letter or digit, last a letter, digit, '.' or '_'")
            check_length("%s.user_list[%s].encrypted_password" % (where, index), user["encrypted_password"], 1, 128)
        names = [user["username"] for user in users]
        twice = sorted(set(name for name in names if names.count(name) > 1))
        require(not twice, where + ".user_list", "each user must have its own username; %r is given twice" % (twice or [""])[0])
    require(not listener["insert_x_forwarded"] or listener["protocol"] in ("HTTP", "TERMINATED_HTTPS"),
            where + ".insert_x_forwarded", "only an HTTP or TERMINATED_HTTPS listener inserts X-Forwarded headers")
    if listener["pool"] is not None:
        check_pool(where + ".pool", listener["pool"])


def _strict_cidr(option, cidr):
    """A CIDR without host bits (the service's rule), in one form."""
    try:
        return str(ipaddress.ip_network(cidr))
    except ValueError:
        try:
            hint = " (host bits are set: the network is %s)" % ipaddress.ip_network(cidr, strict=False)
        except ValueError:
            hint = ""
        raise ValidationError("%s: %r is not a strict CIDR, an IPv4 or IPv6 network without host bits%s" % (option, cidr, hint))


def check_tls(where, listener):
    """``secret`` is required with TERMINATED_HTTPS; ``secret`` and ``sni_secrets`` only with TERMINATED_HTTPS or
    PROMETHEUS. Names and ids are kept as given (resolved before any write: ``resolve_secrets``)."""
    protocol = listener["protocol"]
    for option in ("secret", "sni_secrets"):
        require(listener[option] is None or protocol in TLS_PROTOCOLS, where + "." + option,
                "only a TERMINATED_HTTPS or PROMETHEUS listener takes a certificate (protocol is %s)" % protocol)
    require(listener["secret"] is not None or protocol != "TERMINATED_HTTPS", where + ".secret",
            "required with protocol TERMINATED_HTTPS: the certificate (a secret id or exact name) the listener ends TLS with")
    require(listener["secret"] is None or listener["secret"].strip(), where + ".secret", "must not be empty")
    for index, value in enumerate(listener["sni_secrets"] or []):
        require(value.strip(), "%s.sni_secrets[%s]" % (where, index), "must not be empty")


def resolve_secrets(module, listeners):
    """Each listener's ``secret`` and ``sni_secrets`` turned into ids, before any write: an id is taken as given, a name
    matched exactly over every page of the secrets (one listing, read at the first name); an unknown or ambiguous name
    fails, naming the option (``_kinds.find_named``), but an unknown one in check mode, assumed built by an earlier task."""
    kind, read, assumed = KINDS["secret"], {}, {}

    def secret_id(value, option):
        if not is_uuid(value) and "records" not in read:
            read["records"] = list(listed(module.client, kind, module.params))
        ident = find_named(module.client, kind, module.params, value, option, not module.check_mode, records=read.get("records"))[0]
        if ident is None and value not in assumed:  # check mode: one warning for each secret assumed
            assumed[value] = assume(module, kind, value, option)
        return ident if ident is not None else assumed[value]

    for index, item in enumerate(listeners or []):
        where = "listeners[%s]" % index
        if item["secret"] is not None:
            item["secret"] = secret_id(item["secret"], where + ".secret")
        if item["sni_secrets"] is not None:
            ids = [secret_id(value, "%s.sni_secrets[%s]" % (where, number)) for number, value in enumerate(item["sni_secrets"])]
            item["sni_secrets"] = sorted(set(ids), key=ids.index)  # a set: each id once, in the order given


def _fixed(record):
    """``[(subnet_id, address)]`` of the instance's fixed addresses."""
    assigned = [(item.get("subnet_id"), item.get("ip_address")) for item in record.get("fixed_ip_assignments") or []]
    return assigned or [(entry.get("subnet_id"), entry.get("addr")) for entries in (record.get("addresses") or {}).values()
                        for entry in entries or [] if entry.get("type") == "fixed"]


def member_address(where, record, subnet):
    """The instance's address for a member in ``subnet`` (None: its one private address)."""
    fixed = _fixed(record)
    if subnet is not None:
        found = [address for subnet_id, address in fixed if subnet_id == subnet]
        what = "in subnet %s" % subnet
    else:
        private = set(address_lists(record.get("addresses"))["private_ipv4"])
        found = [address for _subnet, address in fixed if address in private]
        what = "private (give the member's subnet_id, or the load balancer's vip_subnet_id, to choose)"
    found = list(dict.fromkeys(found))
    if len(found) != 1:
        raise Refused("%s.instance: instance %s (%s) has %s addresses %s%s; a member needs exactly one (nothing was sent)" % (
            where, record.get("id"), record.get("name"), len(found), what, " (%s)" % ", ".join(found) if found else ""))
    return canonical_ip(found[0])


def resolve_member_instances(module, listeners):
    """Every member given by ``instance`` gets its ``address`` (and ``instance_id``), before any write: ids read one by
    one, names from one listing of every page, matched exactly (none or several fail naming the member; in check mode a
    name that matches none is assumed built by an earlier task, and stands for the member's address and instance_id)."""
    client, params = module.client, module.params
    named = [("listeners[%s].pool.members[%s]" % (index, number), member) for index, item in enumerate(listeners or [])
             for number, member in enumerate((item.get("pool") or {}).get("members") or []) if member.get("instance") is not None]
    listing, assumed = None, {}
    for where, member in named:
        value = member["instance"]
        if is_uuid(value):
            record = client.get_or_none(INSTANCE.paths["item"].format(**dict(params, id=value.lower())))
            found = [record] if record is not None else []
        else:
            if listing is None:
                listing = list(listed(client, INSTANCE, params))
            found = [record for record in listing if record.get("name") == value]
        if not found and module.check_mode and not is_uuid(value):
            if value not in assumed:  # one warning for each instance assumed
                assumed[value] = assume(module, INSTANCE, value, where + ".instance")
            member["address"], member["instance_id"] = assumed[value], member["instance_id"] or assumed[value]
            continue
        if len(found) != 1:
            raise Refused("%s.instance: %s instances of %s %s %r%s (nothing was sent)" % (
                where, len(found), INSTANCE.scope.format(**params), "have the id" if is_uuid(value) else "are named", value,
                " (ids %s)" % ", ".join(record["id"] for record in found) if found else ""))
        member["address"] = member_address(where, found[0], member["subnet_id"] or params.get("vip_subnet_id"))
        member["instance_id"] = member["instance_id"] or found[0]["id"]
    for index, item in enumerate(listeners if named else ()):
        distinct("listeners[%s].pool.members" % index, (item.get("pool") or {}).get("members") or [], "member", "address and protocol_port",
                 member_key)


# ---- views: what is compared, shown in the diff, and sent --------------------------------------------------------

def cidr_set(value):
    return sorted(set(str(ipaddress.ip_network(cidr, strict=False)) for cidr in value or []))


def member_view(member):
    return {"weight": member.get("weight"), "backup": bool(member.get("backup")),
            "admin_state_up": member.get("admin_state_up", True) is not False, "subnet_id": member.get("subnet_id")}


def held_members(pool):
    return dict(("%s:%s" % (canonical_ip(member["address"]), member["protocol_port"]), member_view(member))
                for member in pool.get("members") or [])


def monitor_view(monitor):
    return None if not monitor else dict((field, monitor.get(field)) for field in MONITOR_FIELDS)


def persistence_view(persistence):
    return None if not persistence else {"type": persistence.get("type"), "cookie_name": persistence.get("cookie_name")}


def pool_view(pool):
    if not pool:
        return None
    return {"name": pool.get("name"), "lb_algorithm": pool.get("lb_algorithm"), "protocol": pool.get("protocol"),
            "members": held_members(pool), "healthmonitor": monitor_view(pool.get("healthmonitor")),
            "session_persistence": persistence_view(pool.get("session_persistence"))}


def user_set(users):
    """A user list as a set: ``[{username, encrypted_password}]`` sorted by username (the hash compared as given)."""
    return sorted(({"username": user.get("username"), "encrypted_password": user.get("encrypted_password")} for user in users or []),
                  key=lambda user: (user["username"] or "", user["encrypted_password"] or ""))


def _given(wanted, held, fields):
    """The wanted values, a member left out (None) taking what is held."""
    return dict((field, wanted[field] if wanted.get(field) is not None else (held or {}).get(field)) for field in fields)


def wanted_pool(pool, held):
    """The view a declared pool asks for, given the view of the pool held (None): a pool is whole."""
    if pool is None:
        return None
    held = held or {}
    members = dict((member_key(member), dict(member_view(member), subnet_id=member["subnet_id"] if member["subnet_id"]
                                             else held.get("members", {}).get(member_key(member), {}).get("subnet_id")))
                   for member in pool["members"] or [])
    monitor = pool["healthmonitor"]
    held_monitor = held.get("healthmonitor")
    if monitor is not None:
        same_type = held_monitor is not None and held_monitor["type"] == monitor["type"]
        monitor = _given(monitor, held_monitor if same_type else None, MONITOR_FIELDS)
    persistence = pool["session_persistence"]
    if persistence is not None:
        persistence = _given(persistence, held.get("session_persistence"), ("type", "cookie_name"))
    return {"name": pool["name"], "lb_algorithm": pool["lb_algorithm"], "protocol": pool["protocol"], "members": members,
            "healthmonitor": monitor, "session_persistence": persistence}


def stripped(value):
    return dict((key, item) for key, item in value.items() if item is not None)


def member_body(member):
    return stripped(dict((key, member[key]) for key in MEMBER_FIELDS))


def pool_body(pool):
    body = {"name": pool["name"], "lb_algorithm": pool["lb_algorithm"], "protocol": pool["protocol"],
            "members": [member_body(member) for member in pool["members"] or []]}
    if pool["healthmonitor"] is not None:
        body["healthmonitor"] = stripped(pool["healthmonitor"])
    if pool["session_persistence"] is not None:
        body["session_persistence"] = stripped(pool["session_persistence"])
    return body


def listener_body(listener):
    """A listener's create body (inline in the load balancer's, or for ``POST /cloud/v1/lblisteners``)."""
    sent = dict(listener, secret_id=listener["secret"], sni_secret_id=listener["sni_secrets"])
    keys = ("name", "protocol", "protocol_port", "allowed_cidrs", "connection_limit", "insert_x_forwarded", "secret_id",
            "sni_secret_id", "user_list") + TIMEOUTS
    body = stripped(dict((key, sent[key]) for key in keys))
    if listener["pool"] is not None:
        body["pools"] = [pool_body(listener["pool"])]
    return body


# ---- reading -------------------------------------------------------------------------------------------------------

def expand(get, params, record):
    """The listener records, each with its ``pool`` (or None), set into a load balancer record (``get(path, query)``:
    every page of a listing; two listings)."""
    if record is None or all("protocol" in listener for listener in record.get("listeners") or []):  # expanded already
        return record
    query = {"load_balancer_id": record["id"]}
    listeners, pools = get(KINDS["listener"].paths["list"].format(**params), dict(query)), get(KINDS["pool"].paths["list"].format(
        **params), dict(query, details="true"))
    for listener in listeners:
        listener["pool"] = next((pool for pool in pools if {"id": listener["id"]} in (pool.get("listeners") or [])), None)
    record["listeners"] = listeners
    return record


# ---- L7 policies and their rules (docs/api_reference.md section 19.4) ------------------------------------------------

L7 = KINDS["l7_policy"]
L7_TARGETS = {"REDIRECT_TO_POOL": "redirect_pool", "REDIRECT_TO_URL": "redirect_url", "REDIRECT_PREFIX": "redirect_prefix", "REJECT": None}
RULE_FIELDS = ("type", "compare_type", "value", "key", "invert")


def rule_text(rule):
    """A rule's identity: the whole rule as one text (``not HEADER[X-Api] EQUAL_TO v2``)."""
    return "%s%s%s %s %s" % ("not " if rule.get("invert") else "", rule.get("type"), "[%s]" % rule["key"] if rule.get("key") else "",
                             rule.get("compare_type"), rule.get("value"))


def read_policies(get, params, record):
    """The load balancer ``record`` expanded (``expand``), each listener with ``l7policies``: its policies in position
    order, each with its ``rules`` read (one listing of the region's policies: it has no filter; one of each policy's rules)."""
    record = expand(get, params, record)
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
