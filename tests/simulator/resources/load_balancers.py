# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cloud load balancers, their listeners, pools, members and health monitors (docs/api_reference.md section 15).

- ``POST /cloud/v1/loadbalancers/{p}/{r}``: ``CreateLoadbalancerSerializer`` with listeners, their pool (at most one),
  the pool's members and health monitor inline; answers 200 ``{tasks}``. Everything appears at once as
  ``PENDING_CREATE`` and the load balancer is locked (``task_id``) by its ``create_loadbalancer`` task; when it
  finishes, everything is ``ACTIVE``/``ONLINE`` and ``created_resources`` holds ``loadbalancers``, ``listeners``,
  ``pools``, ``members`` and ``healthmonitors``. A failed create task leaves the load balancer in ``ERROR``; the
  setting ``lb_create_error`` makes the task finish with the load balancer in ``ERROR`` all the same.
- ``GET /cloud/v1/loadbalancers/{p}/{r}[/{id}]``: the record (``tags_v2``, ``listeners`` as ``[{id}]``,
  ``provisioning_status``, ``operating_status``, ``task_id``); the list takes ``name`` (a substring match), ``limit``
  (1-1000, default 1000) and ``offset``.
- ``PATCH /cloud/v2/loadbalancers/{p}/{r}/{id}``: ``name``, ``admin_state_up``, ``preferred_connectivity``,
  ``logging`` and ``tags`` (a JSON merge patch; read-only tags kept) → task.
- ``DELETE /cloud/v1/loadbalancers/{p}/{r}/{id}``: a task; the listeners and pools go with it.
- Listeners: ``GET /cloud/v1/lblisteners/{p}/{r}`` (``load_balancer_id``, ``name``, ``limit``, ``offset``), ``GET
  …/{id}``, ``POST`` (``CreateLbListenerSerializer``) → task (``created_resources.listeners``), ``PATCH
  /cloud/v2/lblisteners/{p}/{r}/{id}`` (``protocol``, ``protocol_port`` and ``insert_x_forwarded`` are not
  accepted) → task, ``DELETE …/{id}?delete_default_pool=`` → task (with ``true`` its pool goes too).
  TLS (docs/api_reference.md section 16.2): at create ``secret_id`` is ``""`` or a uuid (never null; the record keeps
  null for ``""``), ``sni_secret_id`` a list and ``user_list`` ``[{username, encrypted_password}]`` (at most 3, the
  username pattern, the hash as sent); the v2 PATCH takes null for each and replaces the lists whole. A
  ``TERMINATED_HTTPS`` listener without a secret (inline, standalone, or a PATCH to ``secret_id: null``) is a 400;
  a ``secret_id`` or ``sni_secret_id`` not a secret of the scope (``secrets.py``) a 404.
- ``vip_port_id`` at create: a free reserved fixed IP of the scope (``reserved_fixed_ips.py``; unknown 404, in use 400,
  with ``vip_network_id`` 400) becomes the VIP (its address, attached to the load balancer).
- Pools: ``GET /cloud/v1/lbpools/{p}/{r}`` (``load_balancer_id``, ``listener_id``, ``name``, ``details``: without it a
  pool's members are only ``[{id}]``), ``GET …/{id}`` (members in full), ``POST`` (``CreateLbPoolSerializer``,
  ``listener_id`` or ``load_balancer_id``) → task (``created_resources.pools``), ``PATCH /cloud/v2/lbpools/{p}/{r}/{id}``
  (``members`` is the full new list: members equal by address and port keep their id; ``healthmonitor`` and
  ``session_persistence`` whole; a PATCH that changes nothing answers ``{"tasks": []}``), ``DELETE …/{id}`` → task.
- Health monitors: ``POST /cloud/v1/lbpools/{p}/{r}/{id}/healthmonitor`` → task (400 when the pool has one);
  ``DELETE`` the same path → 204 at once (404 when the pool has none). SDK 0.59 (docs/api_reference.md section 17):
  ``GET`` the same path → the monitor (404 when none); ``PATCH`` → task (``[]`` when nothing changes), every member
  optional and no ``type``.
- Pool members (SDK 0.59): ``/cloud/v1/loadbalancers/{p}/{r}/pools/{pool_id}/members``: ``GET`` (paged, ``order_by``
  ``address.asc`` by default), ``POST`` one member (``address``, ``protocol_port`` and ``subnet_id`` or
  ``instance_id``) → task (``created_resources.members``), ``PUT`` the whole list (members equal by address and port
  keep their id, the others go) → task or ``[]`` when it matches; ``…/members/{id}``: ``GET``, ``PATCH``
  (``admin_state_up``, ``backup``, ``monitor_address``, ``monitor_port``, ``weight``) → task or ``[]``, ``DELETE`` →
  task. The pool PATCH with a full ``members`` list stays.
- Every write under a load balancer whose ``provisioning_status`` is not ``ACTIVE`` (or ``ERROR``, for a delete)
  answers 409, as the service does; the write's task locks the load balancer (``task_id`` set,
  ``PENDING_UPDATE``) until it finishes. A failed task undoes what it started and unlocks the load balancer.
- Bodies are validated as the spec's serializers (unknown members refused); errors are 422 in the cloud shape
  (``{exception_class, message}``); a health monitor ``timeout`` not below its ``delay``, ``insert_x_forwarded`` on a
  protocol other than HTTP or TERMINATED_HTTPS, a second listener on a port, or a member given twice answer 400.

State: ``sim.load_balancers``, ``sim.lb_listeners``, ``sim.lb_pools`` (id -> record). Seeded (project 1, region 76): a
load balancer ``legacy-lb`` with a listener ``web`` (HTTP 80) whose pool ``web-pool`` has two members and an HTTP health
monitor, and two load balancers both named ``twin-lb``.
"""

from __future__ import annotations

import copy
import ipaddress
import uuid

from simulator import control
from simulator.core import ApiFailure, Response, Route, now_iso, page
from simulator.resources import production
from simulator.resources.production import REGIONS, SEED_PROJECT, SEED_REGION, Collection, in_scope
from simulator.resources.reserved_fixed_ips import reserved_of
from simulator.resources.secrets import known as secret_known
from simulator.validation import Invalid, check_fields, f, invalid

P = r"/(?P<project_id>[^/]+)/(?P<region_id>[^/]+)"
LISTENERS = r"/cloud/v1/lblisteners" + P
LISTENER = LISTENERS + r"/(?P<listener_id>[^/]+)"
LISTENER_PATCH = r"/cloud/v2/lblisteners" + P + r"/(?P<listener_id>[^/]+)"
POOLS = r"/cloud/v1/lbpools" + P
POOL = POOLS + r"/(?P<pool_id>[^/]+)"
POOL_PATCH = r"/cloud/v2/lbpools" + P + r"/(?P<pool_id>[^/]+)"
HEALTHMONITOR = POOL + r"/healthmonitor"
MEMBERS = r"/cloud/v1/loadbalancers" + P + r"/pools/(?P<pool_id>[^/]+)/members"
MEMBER_ONE = MEMBERS + r"/(?P<member_id>[^/]+)"
MEMBER_ORDERS = ("address.asc", "address.desc", "created_at.asc", "created_at.desc")

NAME_PATTERN = r"^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$"
UUID_PATTERN = r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
LISTENER_PROTOCOLS = ["HTTP", "HTTPS", "PROMETHEUS", "TCP", "TERMINATED_HTTPS", "UDP"]
POOL_PROTOCOLS = ["HTTP", "HTTPS", "PROXY", "PROXYV2", "TCP", "UDP"]
ALGORITHMS = ["LEAST_CONNECTIONS", "ROUND_ROBIN", "SOURCE_IP"]
MONITOR_TYPES = ["HTTP", "HTTPS", "K8S", "PING", "TCP", "TLS-HELLO", "UDP-CONNECT"]
HTTP_METHODS = ["CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "TRACE"]
UUID = f("str", nullable=True, pattern=UUID_PATTERN)
# FloatingIPSerializer: a load balancer's floating_ips (the floating IPs family's records on its VIP port).
FLOATING_MEMBERS = ("id", "floating_ip_address", "fixed_ip_address", "port_id", "router_id", "status", "tags", "project_id",
                    "region_id", "region", "created_at", "updated_at", "creator_task_id", "task_id")
TIMEOUT = f("int", nullable=True, ge=0, le=86400000)

MEMBER = {
    "address": f("ip", True), "protocol_port": f("int", True, ge=1, le=65535), "subnet_id": UUID, "instance_id": UUID,
    "weight": f("int", gt=0, le=256), "admin_state_up": f("bool"), "backup": f("bool"),
    "monitor_address": f("ip", nullable=True), "monitor_port": f("int", nullable=True, ge=1, le=65535),
}
MONITOR = {
    "type": f("str", True, enum=MONITOR_TYPES), "delay": f("int", True, ge=1, le=2147483647),
    "max_retries": f("int", True, ge=1, le=10), "timeout": f("int", True, ge=0, le=2147483),
    "max_retries_down": f("int", ge=1, le=10), "url_path": f("str", nullable=True, pattern=r"^/([^/?#%][^?#%]*)?$"),
    "expected_codes": f("str", nullable=True), "http_method": f("str", nullable=True, enum=HTTP_METHODS),
    "http_version": f("str", nullable=True, enum=["1.0", "1.1"]), "domain_name": f("str", nullable=True, pattern=r"^[A-Za-z0-9._-]{1,253}$"),
    "admin_state_up": f("bool"),
}
PATCH_MONITOR = dict(MONITOR, type=f("str", nullable=True, enum=MONITOR_TYPES))
# PATCH .../healthmonitor (SDK 0.59): every member optional, no type (a type never changes).
UPDATE_MONITOR = dict((name, dict(spec, required=False)) for name, spec in MONITOR.items() if name != "type")
# PATCH .../members/{id} (SDK 0.59): what a member can change (not its address, port or subnet).
UPDATE_MEMBER = dict((name, MEMBER[name]) for name in ("admin_state_up", "backup", "monitor_address", "monitor_port", "weight"))
PERSISTENCE = {
    "type": f("str", True, enum=["APP_COOKIE", "HTTP_COOKIE", "SOURCE_IP"]), "cookie_name": f("str", nullable=True, pattern=NAME_PATTERN),
    "persistence_granularity": f("str", nullable=True), "persistence_timeout": f("int", nullable=True),
}
POOL_FIELDS = {
    "name": f("str", True, pattern=NAME_PATTERN), "lb_algorithm": f("str", True, enum=ALGORITHMS),
    "protocol": f("str", True, enum=POOL_PROTOCOLS), "members": f("list", nullable=True, items=f("object", fields=MEMBER)),
    "healthmonitor": f("object", nullable=True, fields=MONITOR),
    "session_persistence": f("object", nullable=True, fields=PERSISTENCE),
    "timeout_member_connect": TIMEOUT, "timeout_member_data": TIMEOUT, "timeout_client_data": TIMEOUT,
    "secret_id": UUID, "ca_secret_id": UUID, "crl_secret_id": UUID,
}
CREATE_POOL = dict(POOL_FIELDS, listener_id=UUID, load_balancer_id=UUID)
PATCH_POOL = dict((name, dict(spec, required=False)) for name, spec in POOL_FIELDS.items())
PATCH_POOL.update(admin_state_up=f("bool"), healthmonitor=f("object", nullable=True, fields=PATCH_MONITOR))
USER = {  # a listener's HTTP Basic user: the crypt(3) hash is kept and answered as sent
    "username": f("str", True, max=32, pattern=r"^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,30}[a-zA-Z0-9._]$"),
    "encrypted_password": f("str", True, max=128),
}
LISTENER_FIELDS = {
    "name": f("str", True, pattern=NAME_PATTERN), "protocol": f("str", True, enum=LISTENER_PROTOCOLS),
    "protocol_port": f("int", True, ge=1, le=65535), "allowed_cidrs": f("list", nullable=True, max_items=100, items=f("str")),
    "connection_limit": f("int", ge=-1, le=1000000), "insert_x_forwarded": f("bool"),
    "secret_id": f("str", pattern=r"^$|" + UUID_PATTERN),  # "" or a uuid at create, never null
    "sni_secret_id": f("list", items=f("str", pattern=UUID_PATTERN)), "timeout_client_data": TIMEOUT,
    "timeout_member_connect": TIMEOUT, "timeout_member_data": TIMEOUT,
    "user_list": f("list", max_items=3, items=f("object", fields=USER)),
}
INLINE_LISTENER = dict(LISTENER_FIELDS, pools=f("list", max_items=1, items=f("object", fields=POOL_FIELDS)))
CREATE_LISTENER = dict(LISTENER_FIELDS, load_balancer_id=f("str", True, pattern=UUID_PATTERN), default_pool_id=UUID)
PATCH_LISTENER = dict((name, dict(LISTENER_FIELDS[name], required=False, nullable=name != "connection_limit")) for name in (
    "name", "allowed_cidrs", "connection_limit", "sni_secret_id", "timeout_client_data",
    "timeout_member_connect", "timeout_member_data", "user_list"))
PATCH_LISTENER.update(admin_state_up=f("bool"), secret_id=UUID, name=f("str", pattern=NAME_PATTERN))
TLS_TERMINATED = "TERMINATED_HTTPS"
CREATE_LB = {
    "name": f("str", True, pattern=NAME_PATTERN), "flavor": f("str"), "vip_network_id": UUID, "vip_subnet_id": UUID,
    "vip_port_id": UUID, "vip_ip_family": f("str", enum=["dual", "ipv4", "ipv6"]), "floating_ip": f("free"),
    "preferred_connectivity": f("str", enum=["L2", "L3"]), "logging": f("free", nullable=True),
    "listeners": f("list", max_items=51, items=f("object", fields=INLINE_LISTENER)), "tags": f("free"),
}
PATCH_LB = {
    "name": f("str", pattern=NAME_PATTERN), "admin_state_up": f("bool"), "logging": f("free", nullable=True),
    "preferred_connectivity": f("str", enum=["L2", "L3"]), "tags": f("free", nullable=True),
}

SEEDED = {
    "legacy_lb": "1b000000-0000-4000-8000-000000000001",
    "legacy_listener": "1b000000-0000-4000-8000-000000000011",
    "legacy_pool": "1b000000-0000-4000-8000-000000000021",
    "twin_lb": ["1b000000-0000-4000-8000-000000000002", "1b000000-0000-4000-8000-000000000003"],
}


def validated(body, fields, required_body=True):
    """The body as the service keeps it; 422 in the cloud shape naming the first bad member otherwise."""
    if body is None and not required_body:
        body = {}
    errors = Invalid()
    kept = check_fields(body, fields, (), errors)
    if errors.errors:
        first = errors.errors[0]
        loc = ".".join(str(part) for part in first["loc"]) or "body"
        raise ApiFailure(422, "%s: %s" % (loc, first["detail"]), errors=errors.errors)
    return kept


def check_monitor(monitor, where):
    if monitor and monitor.get("timeout") is not None and monitor.get("delay") is not None and monitor["timeout"] >= monitor["delay"]:
        invalid(where + ".timeout", "timeout must be less than delay", status=400)


def check_members(members, where):
    seen = set()
    for index, member in enumerate(members or []):
        key = (member["address"], member["protocol_port"])
        if key in seen:
            invalid("%s.%s" % (where, index), "member %s:%s is given twice" % key, status=400)
        seen.add(key)


def check_cidrs(cidrs, where):
    for index, cidr in enumerate(cidrs or []):
        try:
            ipaddress.ip_network(cidr)  # strict, as pydantic's IPvAnyNetwork: no host bits
        except ValueError:
            invalid("%s.%s" % (where, index), "value is not a valid IPv4 or IPv6 network")


def member_record(member, status="PENDING_CREATE", ident=None):
    return {
        "id": ident or str(uuid.uuid4()), "address": member["address"], "protocol_port": member["protocol_port"],
        "weight": member.get("weight", 1), "subnet_id": member.get("subnet_id"), "backup": member.get("backup", False),
        "admin_state_up": member.get("admin_state_up", True), "monitor_address": member.get("monitor_address"),
        "monitor_port": member.get("monitor_port"), "operating_status": "ONLINE" if status == "ACTIVE" else "OFFLINE",
        "provisioning_status": status,
    }


def monitor_record(monitor, status="PENDING_CREATE", ident=None):
    http = monitor.get("type") in ("HTTP", "HTTPS")
    return {
        "id": ident or str(uuid.uuid4()), "type": monitor["type"], "delay": monitor["delay"],
        "max_retries": monitor["max_retries"], "max_retries_down": monitor.get("max_retries_down", 3),
        "timeout": monitor["timeout"], "url_path": monitor.get("url_path", "/" if http else None),
        "expected_codes": monitor.get("expected_codes", "200" if http else None),
        "http_method": monitor.get("http_method", "GET" if http else None), "http_version": monitor.get("http_version"),
        "domain_name": monitor.get("domain_name"), "admin_state_up": monitor.get("admin_state_up", True),
        "operating_status": "ONLINE" if status == "ACTIVE" else "OFFLINE", "provisioning_status": status,
    }


def persistence_record(value):
    if not value:
        return None
    return dict({"cookie_name": None, "persistence_granularity": None, "persistence_timeout": None}, **value)


def activate(record):
    """A record (and its members and health monitor) ACTIVE and ONLINE."""
    record.update(provisioning_status="ACTIVE", operating_status="ONLINE", task_id=None)
    for member in record.get("members") or []:
        member.update(provisioning_status="ACTIVE", operating_status="ONLINE")
    if record.get("healthmonitor"):
        record["healthmonitor"].update(provisioning_status="ACTIVE", operating_status="ONLINE")


class LoadBalancers(Collection):
    """The load balancers as a collection; their listeners, pools and members as routes of their own (``ROUTES``)."""

    NAME, NOUN, COLLECTION, ID_PARAM, ID_CHECK, NAME_QUERY = "load_balancers", "Load balancer", "loadbalancers", "lb_id", None, ("name", None)
    VERSIONS = {"update": "v2"}
    STATE = ("load_balancers", "lb_listeners", "lb_pools")
    TASK_TYPES = tuple("%s_%s" % (verb, noun) for noun in ("loadbalancer", "lblistener", "lbpool", "lbmember", "healthmonitor")
                       for verb in ("create", "update", "delete") if (verb, noun) != ("delete", "healthmonitor"))
    # lb_settle_reads: reads of a load balancer that still show PENDING_UPDATE after an update task ended (the service
    # settles after its task; 0: ACTIVE as the task ends)
    SETTINGS = {"lb_create_error": (False, control.boolean), "lb_settle_reads": (0, control.integer(low=0))}
    SEEDS = dict(SEEDED, project_id=SEED_PROJECT, region_id=SEED_REGION)
    ROUTES = (
        Route("GET", LISTENERS, "list_listeners"),
        Route("POST", LISTENERS, "create_listener"),
        Route("GET", LISTENER, "get_listener"),
        Route("DELETE", LISTENER, "delete_listener"),
        Route("PATCH", LISTENER_PATCH, "patch_listener"),
        Route("GET", POOLS, "list_pools"),
        Route("POST", POOLS, "create_pool"),
        Route("POST", HEALTHMONITOR, "create_monitor"),
        Route("DELETE", HEALTHMONITOR, "delete_monitor"),
        Route("GET", POOL, "get_pool"),
        Route("DELETE", POOL, "delete_pool"),
        Route("PATCH", POOL_PATCH, "patch_pool"),
        Route("GET", HEALTHMONITOR, "get_monitor"),
        Route("PATCH", HEALTHMONITOR, "update_monitor"),
        Route("GET", MEMBERS, "list_members"),
        Route("POST", MEMBERS, "add_member"),
        Route("PUT", MEMBERS, "replace_members"),
        Route("GET", MEMBER_ONE, "get_member"),
        Route("PATCH", MEMBER_ONE, "update_member"),
        Route("DELETE", MEMBER_ONE, "delete_member"),
    )

    # ---- state ----------------------------------------------------------------------------------
    def reset(self):
        self.sim.load_balancers, self.sim.lb_listeners, self.sim.lb_pools = {}, {}, {}
        self.undo = {}  # task id -> what to undo when the task fails
        self.settling = {}  # load balancer id -> reads left that show PENDING_UPDATE after its task ended (lb_settle_reads)
        self.vip_networks = {}  # load balancer id -> the network its VIP port is in (not a member of the record)
        self.vips = 10
        lb = self.new_lb(SEEDED["legacy_lb"], "legacy-lb", SEED_PROJECT, SEED_REGION, None, tags={"env": "legacy"})
        listener = self.new_listener(lb, {"name": "web", "protocol": "HTTP", "protocol_port": 80}, None, SEEDED["legacy_listener"])
        self.new_pool(lb, listener, {"name": "web-pool", "lb_algorithm": "ROUND_ROBIN", "protocol": "HTTP", "members": [
            {"address": "10.0.0.11", "protocol_port": 8080}, {"address": "10.0.0.12", "protocol_port": 8080}],
            "healthmonitor": {"type": "HTTP", "delay": 10, "max_retries": 3, "timeout": 5}}, None, SEEDED["legacy_pool"])
        for ident in SEEDED["twin_lb"]:
            self.new_lb(ident, "twin-lb", SEED_PROJECT, SEED_REGION, None)
        for record in list(self.sim.load_balancers.values()) + list(self.sim.lb_listeners.values()) + list(self.sim.lb_pools.values()):
            activate(record)

    def new_lb(self, ident, name, project_id, region_id, task_id, tags=None):
        stamp = now_iso()
        self.vips += 1
        record = {
            "id": ident, "name": name, "provisioning_status": "PENDING_CREATE", "operating_status": "OFFLINE",
            "admin_state_up": True, "created_at": stamp, "updated_at": stamp, "project_id": project_id,
            "region_id": region_id, "region": REGIONS.get(region_id, "Region %s" % region_id),
            "tags_v2": [{"key": key, "value": value, "read_only": False} for key, value in sorted((tags or {}).items())],
            "vip_address": "203.0.113.%s" % (self.vips % 250), "vip_port_id": str(uuid.uuid4()), "vip_ip_family": "ipv4",
            "vip_fqdn": None, "additional_vips": [], "vrrp_ips": [], "floating_ips": [],
            "flavor": {"flavor_id": "lb1-1-2", "flavor_name": "lb1-1-2", "vcpus": 1, "ram": 2048},
            "logging": None, "preferred_connectivity": "L2", "stats": None, "ddos_profile": None,
            "creator_task_id": task_id, "task_id": task_id,
        }
        self.sim.load_balancers[ident] = record
        return record

    def new_listener(self, lb, body, task_id, ident=None):
        forwarded = body.get("insert_x_forwarded", False)
        record = {
            "id": ident or str(uuid.uuid4()), "name": body["name"], "protocol": body["protocol"],
            "protocol_port": body["protocol_port"], "load_balancer_id": lb["id"],
            "insert_headers": {"X-Forwarded-For": "true", "X-Forwarded-Port": "true"} if forwarded else {},
            "pool_count": 0, "operating_status": "OFFLINE", "provisioning_status": "PENDING_CREATE",
            "allowed_cidrs": copy.deepcopy(body.get("allowed_cidrs")), "connection_limit": body.get("connection_limit", 100000),
            "secret_id": body.get("secret_id") or None, "sni_secret_id": body.get("sni_secret_id"),
            "timeout_client_data": body.get("timeout_client_data", 50000),
            "timeout_member_connect": body.get("timeout_member_connect", 5000),
            "timeout_member_data": body.get("timeout_member_data", 50000), "user_list": body.get("user_list") or [],
            "stats": None, "admin_state_up": True, "creator_task_id": task_id, "task_id": task_id,
        }
        if record["connection_limit"] == -1:
            record["connection_limit"] = 100000
        self.sim.lb_listeners[record["id"]] = record
        return record

    def new_pool(self, lb, listener, body, task_id, ident=None):
        record = {
            "id": ident or str(uuid.uuid4()), "name": body["name"], "lb_algorithm": body["lb_algorithm"],
            "protocol": body["protocol"], "loadbalancers": [{"id": lb["id"]}],
            "listeners": [{"id": listener["id"]}] if listener else [],
            "members": [member_record(member) for member in body.get("members") or []],
            "healthmonitor": monitor_record(body["healthmonitor"]) if body.get("healthmonitor") else None,
            "session_persistence": persistence_record(body.get("session_persistence")),
            "operating_status": "OFFLINE", "provisioning_status": "PENDING_CREATE",
            "timeout_client_data": body.get("timeout_client_data", 50000),
            "timeout_member_connect": body.get("timeout_member_connect", 5000),
            "timeout_member_data": body.get("timeout_member_data", 50000),
            "secret_id": body.get("secret_id"), "ca_secret_id": body.get("ca_secret_id"), "crl_secret_id": body.get("crl_secret_id"),
            "admin_state_up": True, "creator_task_id": task_id, "task_id": task_id,
        }
        self.sim.lb_pools[record["id"]] = record
        return record

    def sync(self):
        """Undo what each failed task started, and unlock its load balancer."""
        for task_id, undo in list(self.undo.items()):
            task = self.sim.tasks.get(task_id)
            if task is None or task["done"]:
                del self.undo[task_id]
                if task is None or task["record"]["state"] == "ERROR":
                    undo()

    def lock(self, lb, task_type, apply, undo=None, data=None, created=None):
        """Start a task under the load balancer: locked and PENDING_UPDATE until it finishes."""
        status = lb["provisioning_status"]

        def finish():
            result = apply()
            if lb["id"] in self.sim.load_balancers and lb["provisioning_status"] != "ERROR":
                lb.update(provisioning_status="ACTIVE", operating_status="ONLINE", updated_at=now_iso())
                if status != "PENDING_CREATE" and self.sim.config["lb_settle_reads"]:
                    lb["provisioning_status"] = "PENDING_UPDATE"  # still settling: ACTIVE after that many reads
                    self.settling[lb["id"]] = self.sim.config["lb_settle_reads"]
            lb["task_id"] = None
            return result or created

        def failed():
            if undo:
                undo()
            if lb["id"] in self.sim.load_balancers and lb["task_id"] == task_id:
                lb.update(provisioning_status="ERROR" if status in ("PENDING_CREATE", "ERROR") else "ACTIVE", task_id=None)

        task_id = self.sim.start_task(task_type, apply=finish, project_id=lb["project_id"], region_id=lb["region_id"], data=data)
        self.undo[task_id] = failed
        lb.update(task_id=task_id, provisioning_status=status if status == "PENDING_CREATE" else "PENDING_UPDATE")
        return task_id

    # ---- lookups ----------------------------------------------------------------------------------
    def lb_of(self, ident, scope):
        """The load balancer ``ident`` of the scope ``(project_id, region_id)`` (404 otherwise)."""
        self.sync()
        return in_scope(self.sim.load_balancers, ident, *scope, self.NOUN)

    def writable(self, lb, deleting=False):
        if lb["provisioning_status"] != "ACTIVE" and not (deleting and lb["provisioning_status"] == "ERROR"):
            raise ApiFailure(409, "Load balancer %s is %s and cannot be changed now; try again when it is ACTIVE"
                             % (lb["id"], lb["provisioning_status"]))
        return lb

    def listener_of(self, request):
        self.sync()
        record = self.sim.lb_listeners.get(request.params["listener_id"])
        lb = self.sim.load_balancers.get(record["load_balancer_id"]) if record else None
        if lb is None or (lb["project_id"], lb["region_id"]) != production.scope(request):
            raise ApiFailure(404, "Listener %s not found" % request.params["listener_id"])
        return record, lb

    def pool_of(self, request):
        self.sync()
        record = self.sim.lb_pools.get(request.params["pool_id"])
        lb = self.sim.load_balancers.get(record["loadbalancers"][0]["id"]) if record else None
        if lb is None or (lb["project_id"], lb["region_id"]) != production.scope(request):
            raise ApiFailure(404, "Pool %s not found" % request.params["pool_id"])
        return record, lb

    def pools_of_listener(self, listener_id):
        return [pool for pool in self.sim.lb_pools.values() if {"id": listener_id} in pool["listeners"]]

    def shown(self, record, _request=None):
        shown = copy.deepcopy(record)
        shown["floating_ips"] = [dict((member, copy.deepcopy(item.get(member))) for member in FLOATING_MEMBERS)
                                 for item in (getattr(self.sim, "floating_ips", None) or {}).values()
                                 if item.get("port_id") == record["vip_port_id"]]
        shown["listeners"] = [{"id": listener["id"]} for listener in self.sim.lb_listeners.values()
                              if listener["load_balancer_id"] == record["id"]]
        return shown

    def listener_view(self, record):
        return dict(copy.deepcopy(record), pool_count=len(self.pools_of_listener(record["id"])))

    # ---- load balancers ---------------------------------------------------------------------------
    def read(self, request):
        lb = self.one(request)
        if lb["id"] in self.settling:
            self.settling[lb["id"]] -= 1
            if not self.settling[lb["id"]]:
                del self.settling[lb["id"]]
                lb["provisioning_status"] = "ACTIVE"
        return self.shown(lb)

    def check_secrets(self, listener, where, scope, protocol=None):
        """A TERMINATED_HTTPS listener needs ``secret_id`` (400); every secret it names must exist in the scope (404)."""
        if (protocol or listener.get("protocol")) == TLS_TERMINATED and not listener.get("secret_id", "kept"):
            invalid(where + ".secret_id", "a TERMINATED_HTTPS listener needs secret_id: the certificate it ends TLS with", status=400)
        for ident in [listener.get("secret_id")] + list(listener.get("sni_secret_id") or []):
            if ident and not secret_known(self.sim, ident, *scope):
                raise ApiFailure(404, "Secret %s not found" % ident)

    def check_listener(self, lb_listeners, listener, where, scope=None):
        check_cidrs(listener.get("allowed_cidrs"), where + ".allowed_cidrs")
        if scope is not None:
            self.check_secrets(dict({"secret_id": ""}, **listener), where, scope)
        if listener.get("insert_x_forwarded") and listener["protocol"] not in ("HTTP", "TERMINATED_HTTPS"):
            invalid(where + ".insert_x_forwarded", "only HTTP and TERMINATED_HTTPS listeners insert X-Forwarded headers", status=400)
        if any(other["protocol_port"] == listener["protocol_port"] for other in lb_listeners):
            invalid(where + ".protocol_port", "another listener of the load balancer uses port %s" % listener["protocol_port"], status=400)

    @staticmethod
    def check_pool(pool, where):
        check_monitor(pool.get("healthmonitor"), where + ".healthmonitor")
        check_members(pool.get("members"), where + ".members")

    def create(self, request):
        project_id, region_id = production.scope(request)
        self.sync()
        body = validated(request.json, CREATE_LB)
        seen = []
        for index, listener in enumerate(body.get("listeners") or []):
            self.check_listener(seen, listener, "listeners.%s" % index, (project_id, region_id))
            seen.append(listener)
            for number, pool in enumerate(listener.get("pools") or []):
                self.check_pool(pool, "listeners.%s.pools.%s" % (index, number))
        tags = body.get("tags") or {}
        if not all(isinstance(value, str) for value in tags.values()):
            invalid("tags", "tag values must be strings")
        vip = None
        if body.get("vip_port_id"):  # a reserved fixed IP as the VIP (reserved_fixed_ips.py)
            if body.get("vip_network_id"):
                invalid("vip_port_id", "vip_port_id and vip_network_id cannot be given together", status=400)
            vip = reserved_of(self.sim).port_for(body["vip_port_id"], project_id, region_id, vip_allowed=True)
        vip_network = self.check_vip(body, (project_id, region_id))
        self.known_subnets([member.get("subnet_id") for listener in body.get("listeners") or []
                            for pool in listener.get("pools") or [] for member in pool.get("members") or []], (project_id, region_id))
        floating = self.check_floating_ip(body.get("floating_ip"), (project_id, region_id))
        ident = str(uuid.uuid4())
        lb = self.new_lb(ident, body["name"], project_id, region_id, None, tags)
        self.vip_networks[ident] = vip_network
        if vip is not None:
            lb.update(vip_port_id=vip["port_id"], vip_address=vip["fixed_ip_address"] or vip["fixed_ipv6_address"])
            reserved_of(self.sim).attach(vip["port_id"], ident, "loadbalancer")
        made = {"loadbalancers": [ident], "listeners": [], "pools": [], "members": [], "healthmonitors": []}
        for listener in body.get("listeners") or []:
            record = self.new_listener(lb, listener, None)
            made["listeners"].append(record["id"])
            for pool in listener.get("pools") or []:
                pool = self.new_pool(lb, record, pool, None)
                made["pools"].append(pool["id"])
                made["members"] += [member["id"] for member in pool["members"]]
                if pool["healthmonitor"]:
                    made["healthmonitors"].append(pool["healthmonitor"]["id"])
        error = self.sim.config.get("lb_create_error")

        def apply():
            for record in self.children(ident):
                activate(record)
                record["creator_task_id"] = task_id
            lb.update(provisioning_status="ERROR" if error else "ACTIVE", operating_status="ERROR" if error else "ONLINE")
            if floating is not None and not error:
                self.assign_floating_ip(lb, floating, task_id)
            return made

        task_id = self.lock(lb, "create_loadbalancer", apply, data=request.json)
        lb["creator_task_id"] = task_id
        for record in self.children(ident):
            record["task_id"] = record["creator_task_id"] = task_id
        return {"tasks": [task_id]}

    # ---- what a body refers to ------------------------------------------------------------------------
    def check_vip(self, body, scope):
        """The VIP's network (``vip_network_id``, or the network of ``vip_subnet_id``): each must exist in the
        project and region (404 as the service answers); None for a public VIP."""
        networks, subnets = getattr(self.sim, "networks", {}), getattr(self.sim, "subnets", {})
        network_id, subnet_id = body.get("vip_network_id"), body.get("vip_subnet_id")
        if network_id is not None:
            network = networks.get(network_id)
            if network is None or (network["project_id"], network["region_id"]) != scope:
                raise ApiFailure(404, "Network %s not found" % network_id)
        if subnet_id is not None:
            self.known_subnets([subnet_id], scope)
            if network_id is not None and subnets[subnet_id]["network_id"] != network_id:
                invalid("vip_subnet_id", "subnet %s is not in network %s" % (subnet_id, network_id), status=400)
            network_id = subnets[subnet_id]["network_id"]
        return network_id

    def known_subnets(self, subnet_ids, scope):
        subnets = getattr(self.sim, "subnets", {})
        for subnet_id in subnet_ids:
            if subnet_id is None:
                continue
            subnet = subnets.get(subnet_id)
            if subnet is None or (subnet["project_id"], subnet["region_id"]) != scope:
                raise ApiFailure(404, "Subnet %s not found" % subnet_id)

    def check_floating_ip(self, value, scope):
        """``floating_ip`` of a create: ``{source: new}`` or ``{source: existing, existing_floating_id}`` (an
        unassigned floating IP of the project and region); the floating IP record to assign, or "new", or None."""
        if value is None:
            return None
        if not isinstance(value, dict) or value.get("source") not in ("new", "existing") \
                or set(value) - {"source", "existing_floating_id"}:
            invalid("floating_ip", "give {source: new} or {source: existing, existing_floating_id}")
        if value["source"] == "new":
            if "existing_floating_id" in value:
                invalid("floating_ip.existing_floating_id", "only with source existing")
            return "new"
        held = getattr(self.sim, "floating_ips", {}).get(value.get("existing_floating_id"))
        if held is None or (held["project_id"], held["region_id"]) != scope:
            raise ApiFailure(404, "Floating IP %s not found" % value.get("existing_floating_id"))
        if held.get("port_id"):
            invalid("floating_ip.existing_floating_id", "floating IP %s is already assigned" % held["id"], status=400)
        return held

    def assign_floating_ip(self, lb, floating, task_id):
        """The load balancer's floating IP on its VIP port: a new one of the floating IPs family, or ``floating``."""
        family = production.family(self.sim, "floating_ips")
        if floating == "new":
            floating = family.new_record(str(uuid.uuid4()), family.new_address(), lb["project_id"], lb["region_id"], task_id=task_id)
            floating["task_id"] = None
            self.sim.floating_ips[floating["id"]] = floating
        floating.update(port_id=lb["vip_port_id"], fixed_ip_address=lb["vip_address"], status="ACTIVE", updated_at=now_iso())

    def on_network(self, network_id):
        """The load balancers whose VIP port is in the network."""
        return [ident for ident, network in self.vip_networks.items() if network == network_id and ident in self.sim.load_balancers]

    def children(self, lb_id):
        return ([record for record in self.sim.lb_listeners.values() if record["load_balancer_id"] == lb_id]
                + [record for record in self.sim.lb_pools.values() if record["loadbalancers"][0]["id"] == lb_id])

    def update(self, request):
        lb = self.writable(self.one(request))
        body = request.json
        kept = validated(body, PATCH_LB)
        tags = body.get("tags") if isinstance(body, dict) else None
        if tags is not None and not all(value is None or isinstance(value, str) for value in tags.values()):
            invalid("tags", "tag values must be strings or null")

        def apply():
            for key in ("name", "admin_state_up", "preferred_connectivity", "logging"):
                if key in kept:
                    lb[key] = kept[key]
            if "tags" in body:
                held = dict((tag["key"], tag["value"]) for tag in lb["tags_v2"] if not tag["read_only"])
                if tags is None:
                    held = {}
                for key, value in (tags or {}).items():
                    if value is None:
                        held.pop(key, None)
                    else:
                        held[key] = value
                lb["tags_v2"] = [tag for tag in lb["tags_v2"] if tag["read_only"]] + [
                    {"key": key, "value": value, "read_only": False} for key, value in sorted(held.items())]

        return {"tasks": [self.lock(lb, "update_loadbalancer", apply, data=body)]}

    def delete(self, request):
        lb = self.writable(self.one(request), deleting=True)

        def apply():
            for record in self.children(lb["id"]):
                self.sim.lb_listeners.pop(record["id"], None)
                self.sim.lb_pools.pop(record["id"], None)
            self.sim.load_balancers.pop(lb["id"], None)
            self.vip_networks.pop(lb["id"], None)
            for item in (getattr(self.sim, "floating_ips", None) or {}).values():  # its floating IPs stay, unassigned
                if item.get("port_id") == lb["vip_port_id"]:
                    item.update(port_id=None, fixed_ip_address=None, router_id=None, status="DOWN", updated_at=now_iso())

        task_id = self.lock(lb, "delete_loadbalancer", apply)
        lb["provisioning_status"] = "PENDING_DELETE"
        return {"tasks": [task_id]}

    # ---- listeners --------------------------------------------------------------------------------
    def list_listeners(self, request):
        scope = production.scope(request)
        self.sync()
        lb_id, name = request.arg("load_balancer_id"), request.arg("name")
        if lb_id is not None:
            self.lb_of(lb_id, scope)
        found = [self.listener_view(record) for record in self.sim.lb_listeners.values()
                 if (lb_id is None or record["load_balancer_id"] == lb_id) and (name is None or name in record["name"])
                 and (self.sim.load_balancers[record["load_balancer_id"]]["project_id"],
                      self.sim.load_balancers[record["load_balancer_id"]]["region_id"]) == scope]
        return page(request, found)

    def get_listener(self, request):
        return self.listener_view(self.listener_of(request)[0])

    def create_listener(self, request):
        scope = production.scope(request)
        body = validated(request.json, CREATE_LISTENER)
        lb = self.writable(self.lb_of(body["load_balancer_id"], scope))
        held = [record for record in self.sim.lb_listeners.values() if record["load_balancer_id"] == lb["id"]]
        self.check_listener(held, body, "body", scope)
        record = self.new_listener(lb, body, None)

        def undo():
            self.sim.lb_listeners.pop(record["id"], None)

        task_id = self.lock(lb, "create_lblistener", lambda: activate(record), undo, request.json, {"listeners": [record["id"]]})
        record["task_id"] = record["creator_task_id"] = task_id
        return {"tasks": [task_id]}

    def patch_listener(self, request):
        record, lb = self.listener_of(request)
        self.writable(lb)
        kept = validated(request.json, PATCH_LISTENER)
        body = request.json
        check_cidrs(kept.get("allowed_cidrs"), "allowed_cidrs")
        if "secret_id" in body or "sni_secret_id" in body:
            secret = body["secret_id"] if "secret_id" in body else record["secret_id"]
            self.check_secrets({"secret_id": secret or "", "sni_secret_id": kept.get("sni_secret_id")}, "body",
                               (lb["project_id"], lb["region_id"]), record["protocol"])

        def apply():
            for key in body:
                record[key] = kept.get(key)
            if record["connection_limit"] in (-1, None):
                record["connection_limit"] = 100000
            if record["user_list"] is None:
                record["user_list"] = []
            activate(record)

        task_id = self.lock(lb, "update_lblistener", apply, lambda: record.update(task_id=None, provisioning_status="ACTIVE"), body)
        record.update(task_id=task_id, provisioning_status="PENDING_UPDATE")
        return {"tasks": [task_id]}

    def delete_listener(self, request):
        record, lb = self.listener_of(request)
        self.writable(lb)
        flag = request.arg("delete_default_pool", "false")
        if flag not in ("true", "false", "True", "False", "1", "0"):
            invalid("delete_default_pool", "value is not a valid boolean")

        def apply():
            self.sim.lb_listeners.pop(record["id"], None)
            for pool in self.pools_of_listener(record["id"]):
                if flag in ("true", "True", "1"):
                    self.sim.lb_pools.pop(pool["id"], None)
                else:
                    pool["listeners"] = []

        task_id = self.lock(lb, "delete_lblistener", apply, lambda: record.update(task_id=None, provisioning_status="ACTIVE"))
        record.update(task_id=task_id, provisioning_status="PENDING_DELETE")
        return {"tasks": [task_id]}

    # ---- pools ------------------------------------------------------------------------------------
    def pool_view(self, record, details=True):
        shown = copy.deepcopy(record)
        if not details:
            shown["members"] = [{"id": member["id"]} for member in record["members"]]
        return shown

    def list_pools(self, request):
        scope = production.scope(request)
        self.sync()
        lb_id, listener_id, name = request.arg("load_balancer_id"), request.arg("listener_id"), request.arg("name")
        details = request.arg("details", "false")
        if details not in ("true", "false", "True", "False", "1", "0"):
            invalid("details", "value is not a valid boolean")
        if lb_id is not None:
            self.lb_of(lb_id, scope)
        found = [self.pool_view(record, details in ("true", "True", "1")) for record in self.sim.lb_pools.values()
                 if (lb_id is None or record["loadbalancers"][0]["id"] == lb_id)
                 and (listener_id is None or {"id": listener_id} in record["listeners"])
                 and (name is None or name in record["name"])
                 and (self.sim.load_balancers[record["loadbalancers"][0]["id"]]["project_id"],
                      self.sim.load_balancers[record["loadbalancers"][0]["id"]]["region_id"]) == scope]
        return page(request, found)

    def get_pool(self, request):
        return self.pool_view(self.pool_of(request)[0])

    def create_pool(self, request):
        scope = production.scope(request)
        self.sync()
        body = validated(request.json, CREATE_POOL)
        listener = None
        if body.get("listener_id"):
            listener = self.sim.lb_listeners.get(body["listener_id"])
            if listener is None:
                raise ApiFailure(404, "Listener %s not found" % body["listener_id"])
            if self.pools_of_listener(listener["id"]):
                invalid("listener_id", "listener %s already has a pool" % listener["id"], status=400)
            lb_id = listener["load_balancer_id"]
        elif body.get("load_balancer_id"):
            lb_id = body["load_balancer_id"]
        else:
            invalid("listener_id", "give listener_id or load_balancer_id", status=400)
        lb = self.writable(self.lb_of(lb_id, scope))
        self.check_pool(body, "body")
        self.known_subnets([member.get("subnet_id") for member in body.get("members") or []], scope)
        record = self.new_pool(lb, listener, body, None)

        def undo():
            self.sim.lb_pools.pop(record["id"], None)

        task_id = self.lock(lb, "create_lbpool", lambda: activate(record), undo, request.json, {"pools": [record["id"]]})
        record["task_id"] = record["creator_task_id"] = task_id
        return {"tasks": [task_id]}

    @staticmethod
    def patched_members(record, members):
        held = dict(((member["address"], member["protocol_port"]), member) for member in record["members"])
        result = []
        for member in members:
            current = held.get((member["address"], member["protocol_port"]))
            fresh = member_record(member, "ACTIVE", current["id"] if current else None)
            result.append(fresh)
        return result

    @staticmethod
    def changes_nothing(record, body, kept):
        for key in body:
            if key == "members":
                if [member_record(member, "ACTIVE", "-") for member in kept.get("members") or []] != \
                        [dict(member, id="-", provisioning_status="ACTIVE", operating_status="ONLINE") for member in record["members"]]:
                    return False
            elif key == "healthmonitor":
                held = record["healthmonitor"]
                wanted = kept.get("healthmonitor")
                if (held is None) != (wanted is None):
                    return False
                if wanted and monitor_record(dict(wanted, type=wanted.get("type") or held["type"]), "ACTIVE", "-") != \
                        dict(held, id="-", provisioning_status="ACTIVE", operating_status="ONLINE"):
                    return False
            elif key == "session_persistence":
                if persistence_record(kept.get(key)) != record[key]:
                    return False
            elif kept.get(key) != record.get(key):
                return False
        return True

    def patch_pool(self, request):
        record, lb = self.pool_of(request)
        self.writable(lb)
        body = request.json
        kept = validated(body, PATCH_POOL)
        self.check_pool(kept, "body")
        self.known_subnets([member.get("subnet_id") for member in kept.get("members") or []], production.scope(request))
        monitor = kept.get("healthmonitor")
        if monitor and record["healthmonitor"] and monitor.get("type") not in (None, record["healthmonitor"]["type"]):
            invalid("healthmonitor.type", "the type of a health monitor cannot change", status=400)
        if monitor and not record["healthmonitor"] and not monitor.get("type"):
            invalid("healthmonitor.type", "a new health monitor needs a type", status=400)
        if self.changes_nothing(record, body, kept):
            return {"tasks": []}
        before = copy.deepcopy(record)

        def apply():
            for key in body:
                if key == "members":
                    record["members"] = self.patched_members(record, kept.get("members") or [])
                elif key == "healthmonitor":
                    held = record["healthmonitor"]
                    record["healthmonitor"] = monitor_record(dict(monitor, type=monitor.get("type") or held["type"]), "ACTIVE",
                                                             held["id"] if held else None) if monitor else None
                elif key == "session_persistence":
                    record[key] = persistence_record(kept.get(key))
                else:
                    record[key] = kept.get(key)
            activate(record)

        def undo():
            record.clear()
            record.update(before)

        task_id = self.lock(lb, "update_lbpool", apply, undo, body)
        record.update(task_id=task_id, provisioning_status="PENDING_UPDATE")
        return {"tasks": [task_id]}

    def delete_pool(self, request):
        record, lb = self.pool_of(request)
        self.writable(lb)

        def apply():
            self.sim.lb_pools.pop(record["id"], None)

        task_id = self.lock(lb, "delete_lbpool", apply, lambda: record.update(task_id=None, provisioning_status="ACTIVE"))
        record.update(task_id=task_id, provisioning_status="PENDING_DELETE")
        return {"tasks": [task_id]}

    def create_monitor(self, request):
        record, lb = self.pool_of(request)
        self.writable(lb)
        body = validated(request.json, MONITOR)
        check_monitor(body, "body")
        if record["healthmonitor"]:
            invalid("body", "pool %s already has a health monitor" % record["id"], status=400)
        record["healthmonitor"] = monitor_record(body)

        def undo():
            record["healthmonitor"] = None

        task_id = self.lock(lb, "create_healthmonitor", lambda: activate(record), undo, request.json,
                            {"healthmonitors": [record["healthmonitor"]["id"]]})
        return {"tasks": [task_id]}

    def delete_monitor(self, request):
        record, lb = self.pool_of(request)
        self.writable(lb)
        if not record["healthmonitor"]:
            raise ApiFailure(404, "Pool %s has no health monitor" % record["id"])
        record["healthmonitor"] = None
        return Response(204, None)

    # ---- health monitor and members, SDK 0.59 -----------------------------------------------------
    def get_monitor(self, request):
        record, _lb = self.pool_of(request)
        if not record["healthmonitor"]:
            raise ApiFailure(404, "Pool %s has no health monitor" % record["id"])
        return copy.deepcopy(record["healthmonitor"])

    def update_monitor(self, request):
        record, lb = self.pool_of(request)
        self.writable(lb)
        held = record["healthmonitor"]
        if not held:
            raise ApiFailure(404, "Pool %s has no health monitor" % record["id"])
        kept = validated(request.json, UPDATE_MONITOR, required_body=False)
        kept = dict((key, kept.get(key)) for key in request.json or {})  # null clears a member
        wanted = dict(held, **kept)
        check_monitor(wanted, "body")
        if wanted == held:
            return {"tasks": []}
        before = copy.deepcopy(held)

        def undo():
            record["healthmonitor"] = before

        def apply():
            held.update(kept)
            activate(record)

        task_id = self.lock(lb, "update_healthmonitor", apply, undo, request.json)
        return {"tasks": [task_id]}

    def member_of(self, request):
        record, lb = self.pool_of(request)
        member = next((item for item in record["members"] if item["id"] == request.params["member_id"]), None)
        if member is None:
            raise ApiFailure(404, "Member %s not found in pool %s" % (request.params["member_id"], record["id"]))
        return member, record, lb

    def list_members(self, request):
        record, _lb = self.pool_of(request)
        order = request.arg("order_by", "address.asc")
        if order not in MEMBER_ORDERS:
            invalid("order_by", "value is not one of %s" % ", ".join(MEMBER_ORDERS))
        members = copy.deepcopy(record["members"])  # kept in the order they were added
        if order.startswith("address"):
            members.sort(key=lambda member: (ipaddress.ip_address(member["address"]).version,
                                             ipaddress.ip_address(member["address"]), member["protocol_port"]))
        if order.endswith(".desc"):
            members.reverse()
        return page(request, members)

    def get_member(self, request):
        return copy.deepcopy(self.member_of(request)[0])

    def add_member(self, request):
        record, lb = self.pool_of(request)
        self.writable(lb)
        body = validated(request.json, MEMBER)
        self.known_subnets([body.get("subnet_id")], production.scope(request))
        check_members(record["members"] + [body], "body")
        member = member_record(body)
        record["members"].append(member)

        def undo():
            record["members"] = [item for item in record["members"] if item["id"] != member["id"]]

        task_id = self.lock(lb, "create_lbmember", lambda: activate(record), undo, request.json, {"members": [member["id"]]})
        return {"tasks": [task_id]}

    # A member is the one CreateLbPoolMemberSerializer everywhere (a pool's create, its v2 PATCH, this family): its text
    # says "either subnet_id or instance_id should be provided", but the schema requires neither, and the pool
    # create and PATCH take members without them; so does this family.
    def replace_members(self, request):
        record, lb = self.pool_of(request)
        self.writable(lb)
        body = request.json if request.raw_body else []
        if not isinstance(body, list):
            invalid("body", "a JSON array of members is required")
        kept = [validated(member, MEMBER) for member in body]
        self.known_subnets([member.get("subnet_id") for member in kept], production.scope(request))
        check_members(kept, "body")
        if self.changes_nothing(record, {"members": kept}, {"members": kept}):
            return {"tasks": []}
        before = copy.deepcopy(record["members"])

        def apply():
            record["members"] = self.patched_members(record, kept)
            activate(record)

        def undo():
            record["members"] = before

        task_id = self.lock(lb, "update_lbpool", apply, undo, body)
        record.update(task_id=task_id, provisioning_status="PENDING_UPDATE")
        return {"tasks": [task_id]}

    def update_member(self, request):
        member, record, lb = self.member_of(request)
        self.writable(lb)
        kept = validated(request.json, UPDATE_MEMBER, required_body=False)
        kept = dict((key, kept.get(key)) for key in request.json or {})  # null clears a member
        if all(member.get(key) == value for key, value in kept.items()):
            return {"tasks": []}
        before = copy.deepcopy(member)

        def apply():
            member.update(kept)
            activate(record)

        task_id = self.lock(lb, "update_lbmember", apply, lambda: member.update(before), request.json)
        return {"tasks": [task_id]}

    def delete_member(self, request):
        member, record, lb = self.member_of(request)
        self.writable(lb)

        def apply():
            record["members"] = [item for item in record["members"] if item["id"] != member["id"]]

        return {"tasks": [self.lock(lb, "delete_lbmember", apply)]}
