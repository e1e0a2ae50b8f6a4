# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""A load balancer's listeners, their pools, members and health monitors: checks, views, bodies, reading.

This module is internal to the collection: its interface may change at any time.

The load balancer record holds only its listeners' ids (docs/api_reference.md section 15.8): the listeners and pools are
read with one listing each (``GET /cloud/v1/lblisteners/{p}/{r}?load_balancer_id=`` and ``GET
/cloud/v1/lbpools/{p}/{r}?load_balancer_id=&details=true``) and set into the record (``expand``), each listener with its
``pool`` (or None). A view (``listener_view``, ``pool_view``) is what is compared and shown in the diff: members as a
mapping keyed ``address:port``, a health monitor and a session persistence as their compared members. The set and its
writes are the load_balancer module's part (``Listeners``, a child collection), which says ``changes`` by listener name
and member ``address:port``. A listener's certificates (``secret``, ``sni_secrets``: ids or exact names) are turned into
ids before any write (``resolve_secrets``: one listing of the secrets, docs/api_reference.md section 16.2); in check
mode a name no secret has yet is one an earlier task creates (``_parents.assume``).

The listeners' L7 policies (docs/api_reference.md section 19.4): ``read_policies`` sets each listener's ``l7policies``
(one listing of the region's policies, one of each policy's rules), ``RULES`` declares a policy's rules as a child
collection; the policies themselves are the load_balancer module's part (``L7Policies``).
"""

from __future__ import annotations

import ipaddress
import re
import uuid

from ansible_collections.gcore.platform.plugins.module_utils._checks import (
    ValidationError,
    canonical_ip,
    check_length,
    check_pattern,
    check_range,
    check_uuid,
    require,
)
from ansible_collections.gcore.platform.plugins.module_utils._children import Children
from ansible_collections.gcore.platform.plugins.module_utils._lb_instances import check_member_instance
from ansible_collections.gcore.platform.plugins.module_utils._cloud import PAGE_SIZE, check_name
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS, find_named
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._parents import assume

URL_PATH_PATTERN = r"^/([^/?#%][^?#%]*)?$"
DEFAULT_CONNECTION_LIMIT = 100000  # a listener's connection_limit when not given, or given as -1
MAX_LISTENERS = 51  # the create body's maxItems (50 and a Prometheus listener)
CREATE_ONLY = ("protocol", "protocol_port", "insert_x_forwarded")
TIMEOUTS = ("timeout_client_data", "timeout_member_connect", "timeout_member_data")
LISTENER_PATCHED = ("allowed_cidrs", "connection_limit") + TIMEOUTS + ("secret_id", "sni_secret_id", "user_list")
TLS_PROTOCOLS = ("TERMINATED_HTTPS", "PROMETHEUS")  # the listeners that take a certificate (section 16.2)
USERNAME_PATTERN = r"^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,30}[a-zA-Z0-9._]$"
MEMBER_FIELDS = ("address", "protocol_port", "weight", "subnet_id", "instance_id", "backup", "admin_state_up")  # sent
MONITOR_FIELDS = ("type", "delay", "max_retries", "timeout", "max_retries_down", "url_path", "expected_codes", "http_method")

LISTENERS_PATH, POOLS_PATH = KINDS["listener"].paths["list"], KINDS["pool"].paths["list"]
MEMBERS_PATH = KINDS["load_balancer"].path("/pools/{pool_id}/members")


# ---- checking the option ---------------------------------------------------------------------------------------

def _member_key(member):
    return "%s:%s" % (member["address"], member["protocol_port"])


def check_member(where, member):
    check_member_instance(where, member)
    try:
        member["address"] = canonical_ip(member["address"]) if member["address"] is not None else None
    except ValueError:
        raise ValidationError("%s.address: %r is not a valid IPv4 or IPv6 address" % (where, member["address"]))
    check_range(where + ".protocol_port", member["protocol_port"], 1, 65535)
    check_range(where + ".weight", member["weight"], 1, 256)
    for option in ("subnet_id", "instance_id"):
        check_uuid("%s.%s" % (where, option), member[option])
        if member[option] is not None:
            member[option] = str(uuid.UUID(member[option]))


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
    first = {}
    for index, member in enumerate(pool["members"] or []):
        check_member("%s.members[%s]" % (where, index), member)
        key = _member_key(member)
        if key in first and member["address"] is not None:
            raise ValidationError("%s.members[%s] and %s.members[%s]: each member must have its own address and "
                                  "protocol_port; %s is given twice" % (where, first[key], where, index, key))
        first[key] = index
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
    """One item of ``listeners`` checked before any request; returns it canonical (CIDRs and addresses in one form)."""
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
    return listener


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


class _ReadOnce:
    """A client whose listings are read once per path (every secret name resolved from one listing)."""

    def __init__(self, client):
        self.client, self.pages = client, {}

    def paginate(self, path, query=None, **kwargs):
        if path not in self.pages:
            self.pages[path] = list(self.client.paginate(path, query, **kwargs))
        return self.pages[path]


def resolve_secrets(module, listeners):
    """Each listener's ``secret`` and ``sni_secrets`` turned into ids, before any write: an id is taken as given, a name
    matched exactly over every page of the secrets (one listing, however many names); an unknown or ambiguous name
    fails, naming the option (``_kinds.find_named``), but an unknown one in check mode, assumed built by an earlier task."""
    reader, assumed = _ReadOnce(module.client), {}

    def secret_id(value, option):
        ident = find_named(reader, KINDS["secret"], module.params, value, option, required=not module.check_mode)[0]
        if ident is None and value not in assumed:  # check mode: one warning for each secret assumed
            assumed[value] = assume(module, KINDS["secret"], value, option)
        return ident if ident is not None else assumed[value]

    for index, item in enumerate(listeners or []):
        where = "listeners[%s]" % index
        if item["secret"] is not None:
            item["secret"] = secret_id(item["secret"], where + ".secret")
        if item["sni_secrets"] is not None:
            ids = [secret_id(value, "%s.sni_secrets[%s]" % (where, number)) for number, value in enumerate(item["sni_secrets"])]
            item["sni_secrets"] = sorted(set(ids), key=ids.index)  # a set: each id once, in the order given


# ---- views: what is compared, shown in the diff, and sent --------------------------------------------------------

def _cidrs(value):
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


def _users(users):
    """A user list as a set: ``[{username, encrypted_password}]`` sorted by username (the hash compared as given)."""
    return sorted(({"username": user.get("username"), "encrypted_password": user.get("encrypted_password")} for user in users or []),
                  key=lambda user: (user["username"] or "", user["encrypted_password"] or ""))


def listener_view(listener):
    view = {"protocol": listener.get("protocol"), "protocol_port": listener.get("protocol_port"),
            "allowed_cidrs": _cidrs(listener.get("allowed_cidrs")), "connection_limit": listener.get("connection_limit"),
            "insert_x_forwarded": bool((listener.get("insert_headers") or {}).get("X-Forwarded-For")),
            "secret_id": listener.get("secret_id") or None, "sni_secret_id": sorted(set(listener.get("sni_secret_id") or [])),
            "user_list": _users(listener.get("user_list")), "pool": pool_view(listener.get("pool"))}
    view.update((option, listener.get(option)) for option in TIMEOUTS)
    return view


def _given(wanted, held, fields):
    """The wanted values, a member left out (None) taking what is held."""
    return dict((field, wanted[field] if wanted.get(field) is not None else (held or {}).get(field)) for field in fields)


def wanted_pool(pool, held):
    """The view a declared pool asks for, given the view of the pool held (None): a pool is whole."""
    if pool is None:
        return None
    held = held or {}
    members = dict((_member_key(member), dict(member_view(member), subnet_id=member["subnet_id"] if member["subnet_id"]
                                              else held.get("members", {}).get(_member_key(member), {}).get("subnet_id")))
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


def wanted_listener(listener, held):
    """The view a listener item asks for, given the view held (None when it is created)."""
    asked = dict(listener, secret_id=listener["secret"])
    for view, option, canonical in (("allowed_cidrs", "allowed_cidrs", _cidrs), ("sni_secret_id", "sni_secrets", lambda ids: sorted(set(ids))),
                                    ("user_list", "user_list", _users)):
        asked[view] = canonical(listener[option]) if listener[option] is not None else None
    shown = _given(asked, held, ("protocol", "protocol_port", "allowed_cidrs", "connection_limit", "insert_x_forwarded",
                                 "secret_id", "sni_secret_id", "user_list") + TIMEOUTS)
    if held is None:
        for view in ("allowed_cidrs", "sni_secret_id", "user_list"):
            shown[view] = shown[view] or []
        shown["insert_x_forwarded"] = bool(shown["insert_x_forwarded"])
    shown["pool"] = wanted_pool(listener["pool"], (held or {}).get("pool"))
    return shown


def _strip(value):
    return dict((key, item) for key, item in value.items() if item is not None)


def member_body(member):
    return _strip(dict((key, member[key]) for key in MEMBER_FIELDS))


def pool_body(pool):
    body = {"name": pool["name"], "lb_algorithm": pool["lb_algorithm"], "protocol": pool["protocol"],
            "members": [member_body(member) for member in pool["members"] or []]}
    if pool["healthmonitor"] is not None:
        body["healthmonitor"] = _strip(pool["healthmonitor"])
    if pool["session_persistence"] is not None:
        body["session_persistence"] = _strip(pool["session_persistence"])
    return body


def listener_body(listener):
    """A listener's create body (inline in the load balancer's, or for ``POST /cloud/v1/lblisteners``)."""
    sent = dict(listener, secret_id=listener["secret"], sni_secret_id=listener["sni_secrets"])
    keys = ("name", "protocol", "protocol_port", "allowed_cidrs", "connection_limit", "insert_x_forwarded", "secret_id",
            "sni_secret_id", "user_list") + TIMEOUTS
    body = _strip(dict((key, sent[key]) for key in keys))
    if listener["pool"] is not None:
        body["pools"] = [pool_body(listener["pool"])]
    return body


# ---- reading -------------------------------------------------------------------------------------------------------

def expand(client, params, record):
    """The listener records, each with its ``pool`` (or None), set into a load balancer record (two listings, by a Client or
    a part's reader ``get(path, query)``)."""
    if record is None or all("protocol" in listener for listener in record.get("listeners") or []):  # expanded already
        return record
    query, paginate = {"load_balancer_id": record["id"]}, getattr(client, "paginate", None)
    get = (lambda path, query: list(paginate(path, query, page_size=PAGE_SIZE))) if paginate else client
    listeners, pools = get(LISTENERS_PATH.format(**params), dict(query)), get(POOLS_PATH.format(**params), dict(query, details="true"))
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
