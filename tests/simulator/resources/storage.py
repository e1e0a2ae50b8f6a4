# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Storage: the deprecated v1 provisioning API and its v4 replacements (docs/api_reference.md section 10).

One store, ``sim.storages`` (id -> record), serves three views of the same storages, as the service
does (S3 and SFTP storages share one id space):

- ``/storage/provisioning/v1/storage/{id}`` (GET, DELETE): ``storage_Storage``, credentials included.
  A storage that does not exist is a 400 ``{"error": "storage N does not exist"}`` (the only error the
  spec documents). Deleted storages stay readable with ``provisioning_status: deleted`` and
  ``deleted_at`` (S3 ones also ``can_restore``). Statuses ``creating, ok, updating, deleting, deleted``.
- ``/storage/v4/object_storages/{id}`` (GET, DELETE): ``S3StorageListItemV4`` of S3 storages.
- ``/storage/v4/sftp_storages/{id}`` (GET, DELETE): ``SFTPStorageItemV4`` of SFTP storages (GET never
  returns the password). v4 says ``active`` where v1 says ``ok``; a missing storage (or one of the
  other kind) is a 404 ``{"error"}``.

A storage id that is not an int64 is a 400 ``{"error"}`` on every path. DELETE answers 204 and marks
the storage deleted; deleting a storage that is already ``deleting``/``deleted`` is a 400 (v1) or a
404 (v4).

The v4 lifecycle (docs/api_reference.md section 14): the lists (``{count, results}``, ``count`` the total; ``name`` a
substring filter; ``limit`` 1-1000, default 10; ``order_by`` ``created_at.desc``; deleted storages only with
``show_deleted``), create (201; S3 answers ``access_keys`` once, SFTP the ``password`` when generated or set;
409 on a name already used by a storage of that kind that is not deleted), SFTP ``PATCH`` (merge patch:
``ssh_key_ids`` replaces, ``""`` removes ``server_alias``/``expires``, ``password_mode`` ``auto``
regenerates, ``set`` sets ``password``, ``none`` removes; the create takes the password in ``password``, SDK 0.59,
or in the published ``sftp_password``, deprecated), buckets (``cors`` and ``lifecycle`` always objects: no origin
is ``{"allowed_origins": []}``, no expiry ``{"expiration_days": 0}``), ``/storage/v4/locations``, buckets of S3 storages and SSH keys. A created
storage is ``creating`` until its provisioning finishes on the simulator's clock: it runs as a simulator
task of type ``storage_create`` (``task_delay``; ``hold``/``release`` and ``task_fail`` apply; a failed one
ends ``deleted``). Bad input is ``400 {error}`` (storage never answers 422).

Every seeded credential value comes from ``FAKE_CREDENTIALS`` below (and only from there); all of them
start with ``CREDENTIAL_MARK`` so that tests can search any output for a leak.
"""

from __future__ import annotations

import copy

import itertools
import re

from simulator.core import ApiFailure, Resource, Response, Route, now_iso

CLIENT_ID = 1
RESELLER_ID = 1
INT64_MAX = 2 ** 63 - 1
V1_PATH = r"/storage/provisioning/v1/storage/(?P<storage_id>[^/]+)"
S3_PATH = r"/storage/v4/object_storages/(?P<storage_id>[^/]+)"
SFTP_PATH = r"/storage/v4/sftp_storages/(?P<storage_id>[^/]+)"
GONE = ("deleting", "deleted")

# Fake, recognisable credential values: the one place they are defined. Not real secrets.
CREDENTIAL_MARK = "sim-cred-"
FAKE_CREDENTIALS = {
    "s3": lambda storage_id: {"s3": {"access_key": "%ss3-access-%03d" % (CREDENTIAL_MARK, storage_id),
                                     "secret_key": "%ss3-secret-%03d" % (CREDENTIAL_MARK, storage_id)}},
    "sftp": lambda storage_id: {"sftp_password": "%ssftp-password-%03d" % (CREDENTIAL_MARK, storage_id),
                                "keys": [{"id": 700 + storage_id, "name": "%sssh-key-%03d" % (CREDENTIAL_MARK, storage_id),
                                          "created_at": "2025-08-05T09:15:00Z"}]},
}

# id: (name, type, v1 status, location, extra members)
SEEDED = {
    101: ("media-archive", "s3_compatible", "ok", "s-ed1", {}),
    102: ("partner-uploads", "sftp", "ok", "s-ed1", {"server_alias": "uploads.example.net", "expires": "2027-02-05T09:17:02Z"}),
    103: ("old-backups", "s3_compatible", "deleted", "s-ed1", {"deleted_at": "2026-05-01T10:30:15Z"}),
    104: ("retired-drop", "sftp", "deleting", "s-darz", {}),
    105: ("fresh-bucket", "s3_compatible", "creating", "s-ed1", {}),
    106: ("logs-s3", "s3_compatible", "updating", "s-darz", {}),
    201: ("reports-s3", "s3_compatible", "ok", "s-ed1", {}),
    202: ("ingest-sftp", "sftp", "ok", "s-darz", {"disable_http": True}),
    203: ("staging-s3", "s3_compatible", "ok", "s-ed1", {}),
    204: ("staging-sftp", "sftp", "ok", "s-ed1", {}),
    # The demo's storages (examples/demo/50_storage.yml).
    301: ("demo-legacy", "s3_compatible", "ok", "s-ed1", {}),
    302: ("demo-objects", "s3_compatible", "ok", "s-ed1", {}),
    303: ("demo-transfer", "sftp", "ok", "s-darz", {}),
    # More than one page of S3 storages whose names hold "tenant" (a name filter matches substrings): the oldest,
    # named exactly "tenant", comes last in the default order (created_at.desc).
    400: ("tenant", "s3_compatible", "ok", "s-ed1", {"created_at": "2025-06-01T08:00:00Z"}),
}
SEEDED.update((400 + number, ("tenant-%03d" % number, "s3_compatible", "ok", "s-ed1",
                              {"created_at": "2025-07-01T%02d:%02d:00Z" % (number // 60, number % 60)}))
              for number in range(1, 106))
# The SSH keys (SSHKeyV4) and the locations (LocationV4) the service starts with.
SEEDED_SSH_KEYS = {
    11: ("ops-laptop", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOpsLaptopKeyForTheSimulator0000000000000 ops@laptop"),
    12: ("ci-runner", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICiRunnerKeyForTheSimulator00000000000000 ci@runner"),
    13: ("partner-upload", "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQPartnerUploadKeyForTheSimulator partner@example.net"),
}
LOCATIONS = [
    {"name": "s-ed1", "technical_name": "s-ed1", "title": "Luxembourg", "address": "s-ed1.cloud.gcore.lu", "type": "s3_compatible"},
    {"name": "s-ed1", "technical_name": "s-ed1", "title": "Luxembourg", "address": "s-ed1.cloud.gcore.lu", "type": "sftp"},
    {"name": "s-darz", "technical_name": "s-darz", "title": "Darmstadt", "address": "s-darz.cloud.gcore.lu", "type": "s3_compatible"},
    {"name": "s-darz", "technical_name": "s-darz", "title": "Darmstadt", "address": "s-darz.cloud.gcore.lu", "type": "sftp"},
]
STATUSES = ("active", "creating", "updating", "deleting", "deleted")
BUCKET_NAME = re.compile(r"[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")
PUBLIC_KEY = re.compile(r"(ssh-rsa|ssh-ed25519|ecdsa-sha2-nistp(256|384|521)) [A-Za-z0-9+/=]+( .*)?")


def seeded_record(storage_id, name, kind, status, location, extra):
    """The stored record: the v1 shape (credentials included); the v4 views are derived from it."""
    record = {
        "id": storage_id,
        "name": "%s-%s" % (CLIENT_ID, name),
        "address": "%s.storage.example.com" % location,
        "client_id": CLIENT_ID,
        "reseller_id": RESELLER_ID,
        "created_at": "2025-08-05T09:17:%02dZ" % (storage_id % 60),
        "location": location,
        "type": kind,
        "provisioning_status": status,
        "disable_http": False,
        "custom_config_file": False,
        "rewrite_rules": {},
        "credentials": FAKE_CREDENTIALS["s3" if kind == "s3_compatible" else "sftp"](storage_id),
    }
    record.update(copy.deepcopy(extra))
    if kind == "s3_compatible" and status == "deleted":
        record["can_restore"] = True
    return record


def storage_id_of(request):
    """The path's storage_id as the service parses it: an int64, else 400 {error}."""
    raw = request.params["storage_id"]
    try:
        value = int(raw, 10)
    except ValueError:
        raise ApiFailure(400, "invalid storage_id %r: must be an integer" % raw)
    if not -INT64_MAX - 1 <= value <= INT64_MAX:
        raise ApiFailure(400, "invalid storage_id %r: out of int64 range" % raw)
    return value


def v4_status(record):
    return "active" if record["provisioning_status"] == "ok" else record["provisioning_status"]


def s3_view(record):
    """S3StorageListItemV4: every member required, no credentials; ``type`` the performance tier (SDK 0.59: required,
    ``standard`` or ``fast``; the simulator's S3 storages are all ``standard``)."""
    return dict(common_view(record), type=record.get("tier", "standard"))


def common_view(record):
    """The members S3 and SFTP storage records share."""
    return {
        "id": record["id"],
        "name": record["name"].split("-", 1)[1],
        "full_name": record["name"],
        "address": record["address"],
        "location_name": record["location"],
        "created_at": record["created_at"],
        "provisioning_status": v4_status(record),
    }


def sftp_view(record):
    """SFTPStorageItemV4 as GET answers it (never the password)."""
    view = common_view(record)
    view.update({
        "expires": record.get("expires_text", "1 year 6 months" if record.get("expires") else ""),
        "server_alias": record.get("server_alias", ""),
        "has_password": bool(record["credentials"].get("sftp_password")),
        "has_custom_config_file": record["custom_config_file"],
        "is_http_disabled": record["disable_http"],
        "ssh_key_ids": [key["id"] for key in record["credentials"].get("keys", [])],
    })
    return view


def mark_deleted(record):
    record["provisioning_status"] = "deleted"
    record["deleted_at"] = now_iso()
    if record["type"] == "s3_compatible":
        record["can_restore"] = True  # restorable for two weeks


class Storage(Resource):
    NAME = "storage"
    STATE = ("storages",)
    TASK_TYPES = ("storage_create",)
    SEEDS = {"storages": dict((seed[0], storage_id) for storage_id, seed in SEEDED.items()),
             "ssh_keys": dict((seed[0], key_id) for key_id, seed in SEEDED_SSH_KEYS.items())}
    ROUTES = (
        Route("GET", r"/storage/v4/object_storages", "s3_list"),
        Route("POST", r"/storage/v4/object_storages", "s3_create"),
        Route("GET", r"/storage/v4/sftp_storages", "sftp_list"),
        Route("POST", r"/storage/v4/sftp_storages", "sftp_create"),
        Route("PATCH", SFTP_PATH, "sftp_patch"),
        Route("GET", r"/storage/v4/locations", "locations"),
        Route("GET", S3_PATH + r"/buckets", "bucket_list"),
        Route("POST", S3_PATH + r"/buckets", "bucket_create"),
        Route("GET", S3_PATH + r"/buckets/(?P<name>[^/]+)", "bucket_get"),
        Route("PATCH", S3_PATH + r"/buckets/(?P<name>[^/]+)", "bucket_patch"),
        Route("DELETE", S3_PATH + r"/buckets/(?P<name>[^/]+)", "bucket_delete"),
        Route("GET", r"/storage/v4/ssh_keys", "ssh_key_list"),
        Route("POST", r"/storage/v4/ssh_keys", "ssh_key_create"),
        Route("GET", r"/storage/v4/ssh_keys/(?P<ssh_key_id>[^/]+)", "ssh_key_get"),
        Route("DELETE", r"/storage/v4/ssh_keys/(?P<ssh_key_id>[^/]+)", "ssh_key_delete"),
        Route("GET", V1_PATH, "v1_get"),
        Route("DELETE", V1_PATH, "v1_delete"),
        Route("GET", S3_PATH, "s3_get"),
        Route("DELETE", S3_PATH, "s3_delete"),
        Route("GET", SFTP_PATH, "sftp_get"),
        Route("DELETE", SFTP_PATH, "sftp_delete"),
    )

    def reset(self):
        self.sim.storages = dict((storage_id, seeded_record(storage_id, *seed)) for storage_id, seed in SEEDED.items())
        # Kept on the simulator (not in STATE): the buckets by storage id and name, the SSH keys by id.
        self.sim.storage_buckets = {}
        self.sim.storage_ssh_keys = dict((key_id, {"id": key_id, "name": name, "public_key": public_key,
                                                   "created_at": "2025-08-05T09:15:%02dZ" % key_id})
                                         for key_id, (name, public_key) in SEEDED_SSH_KEYS.items())
        self.provisioning = {}  # task id -> storage id, for the storages being created
        self.numbers = itertools.count(1)  # for fresh ids and credentials

    # ---- v1 (deprecated) ----------------------------------------------------------------------
    def v1_record(self, request):
        self.settle()
        storage_id = storage_id_of(request)
        record = self.sim.storages.get(storage_id)
        if record is None:
            raise ApiFailure(400, "storage %s does not exist" % storage_id)
        return record

    def v1_get(self, request):
        return copy.deepcopy(self.v1_record(request))

    def v1_delete(self, request):
        record = self.v1_record(request)
        if record["provisioning_status"] in GONE:
            raise ApiFailure(400, "storage %s is already %s" % (record["id"], record["provisioning_status"]))
        mark_deleted(record)
        return Response(204)

    # ---- v4 -------------------------------------------------------------------------------------
    def v4_record(self, request, kind):
        self.settle()
        storage_id = storage_id_of(request)
        record = self.sim.storages.get(storage_id)
        if record is None or record["type"] != kind:
            raise ApiFailure(404, "storage %s not found" % storage_id)
        return record

    def v4_delete(self, request, kind):
        record = self.v4_record(request, kind)
        if record["provisioning_status"] in GONE:
            raise ApiFailure(404, "storage %s not found" % record["id"])
        mark_deleted(record)
        return Response(204)

    def s3_delete(self, request):
        return self.v4_delete(request, "s3_compatible")

    def sftp_delete(self, request):
        return self.v4_delete(request, "sftp")

    # ---- v4 lifecycle: lists, create, SFTP patch, provisioning on the clock -----------------------
    def settle(self):
        """Storages whose provisioning task ended: FINISHED made them active (its apply), ERROR leaves them deleted."""
        for task_id, storage_id in list(self.provisioning.items()):
            task = self.sim.tasks.get(task_id)
            if task is None or not task["done"]:
                continue
            del self.provisioning[task_id]
            record = self.sim.storages.get(storage_id)
            if record is not None and task["error"] and record["provisioning_status"] == "creating":
                mark_deleted(record)

    def listing(self, request, kind, view):
        self.settle()
        limit = paging(request, "limit", 10, low=1, high=1000)
        offset = paging(request, "offset", 0, low=0)
        status = request.arg("provisioning_status")
        if status is not None and status not in STATUSES:
            raise ApiFailure(400, "invalid provisioning_status %r: must be one of %s" % (status, ", ".join(STATUSES)))
        order = request.arg("order_by", "created_at.desc")
        field, _dot, direction = order.partition(".")
        if field not in ("created_at", "name", "id") or direction not in ("", "asc", "desc"):
            raise ApiFailure(400, "invalid order_by %r" % order)
        show_deleted = request.arg("show_deleted", "false").lower() == "true"
        name, location, ident = request.arg("name"), request.arg("location_name"), request.arg("id")
        tier = request.arg("type") if kind == "s3_compatible" else None  # SDK 0.59: the S3 list's tier filter
        if tier is not None and tier not in ("standard", "fast"):
            raise ApiFailure(400, "invalid type %r: must be standard or fast" % tier)
        found = [view(record) for record in self.sim.storages.values()
                 if record["type"] == kind and (show_deleted or record["provisioning_status"] != "deleted")]
        found = [item for item in found
                 if (not name or name in item["name"]) and (not location or item["location_name"] == location)
                 and (not ident or str(item["id"]) == ident) and (not status or item["provisioning_status"] == status)
                 and (not tier or item["type"] == tier)]
        found.sort(key=lambda item: (item[field], item["id"]), reverse=direction != "asc")
        return {"count": len(found), "results": found[offset:offset + limit]}

    def s3_list(self, request):
        return self.listing(request, "s3_compatible", s3_view)

    def sftp_list(self, request):
        return self.listing(request, "sftp", sftp_view)

    def create(self, request, kind):
        """The checks every create makes; returns the new stored record (provisioning started)."""
        self.settle()
        body = request.json
        if not isinstance(body, dict):
            raise ApiFailure(400, "the request body must be a JSON object")
        for member in ("name", "location_name"):
            if not isinstance(body.get(member), str) or not body[member]:
                raise ApiFailure(400, "%s is required" % member)
        name, location = body["name"], body["location_name"]
        if not any(item["name"] == location and item["type"] == kind for item in LOCATIONS):
            raise ApiFailure(400, "location %r does not accept %s storages" % (location, kind))
        if any(record["type"] == kind and record["name"] == "%s-%s" % (CLIENT_ID, name) and record["provisioning_status"] != "deleted"
               for record in self.sim.storages.values()):
            raise ApiFailure(409, "storage with name %r already exists" % name)
        storage_id = 1000 + next(self.numbers)
        record = seeded_record(storage_id, name, kind, "creating", location, {"created_at": now_iso()})
        record["credentials"] = {}
        self.sim.storages[storage_id] = record

        def provisioned():
            if record["provisioning_status"] == "creating":
                record["provisioning_status"] = "ok"
        self.provisioning[self.sim.start_task("storage_create", apply=provisioned)] = storage_id
        return record

    def s3_create(self, request):
        record = self.create(request, "s3_compatible")
        number = next(self.numbers)
        keys = {"access_key": "%ss3-access-%d-%d" % (CREDENTIAL_MARK, record["id"], number),
                "secret_key": "%ss3-secret-%d-%d" % (CREDENTIAL_MARK, record["id"], number)}
        record["credentials"] = {"s3": dict(keys)}
        return Response(201, dict(s3_view(record), access_keys=[keys]))

    def sftp_create(self, request):
        body = request.json
        mode = body.get("password_mode") if isinstance(body, dict) else None
        if mode not in ("auto", "set", "none"):
            raise ApiFailure(400, "password_mode is required: auto, set or none")
        password = self.given_password(body, mode, ("password", "sftp_password"))
        self.check_sftp_members(body, None)
        record = self.create(request, "sftp")
        self.apply_sftp_members(record, body)
        answer = sftp_view(record)
        if mode != "none":
            record["credentials"]["sftp_password"] = password if mode == "set" else self.fresh_password(record)
            answer = dict(sftp_view(record), password=record["credentials"]["sftp_password"])
        return Response(201, answer)

    @staticmethod
    def given_password(body, mode, members):
        """The password a body sets: in ``password`` (SDK 0.59), or on create the published ``sftp_password``
        (deprecated, still answered): 8 to 63 characters, required with ``password_mode: set``, refused otherwise."""
        given = [member for member in members if member in body]
        if len(given) > 1:
            raise ApiFailure(400, "give the password in password only (sftp_password is its deprecated name)")
        member = given[0] if given else "password"
        password = body.get(member)
        if mode == "set" and not (isinstance(password, str) and 8 <= len(password) <= 63):
            raise ApiFailure(400, "%s must be 8 to 63 characters with password_mode set" % member)
        if mode != "set" and password is not None:
            raise ApiFailure(400, "%s must be omitted unless password_mode is set" % member)
        return password

    def fresh_password(self, record):
        return "%ssftp-password-%d-%d" % (CREDENTIAL_MARK, record["id"], next(self.numbers))

    def check_sftp_members(self, body, record):
        for member in ("server_alias", "expires"):
            if member in body and not isinstance(body[member], str):
                raise ApiFailure(400, "%s must be a string" % member)
        if body.get("expires") and not re.fullmatch(r"\d+ (year|month|week|day|hour)s?( \d+ (year|month|week|day|hour)s?)*", body["expires"]):
            raise ApiFailure(400, "invalid expires %r: a duration such as \"2 years 6 months\"" % body["expires"])
        for member in ("is_http_disabled", "has_custom_config_file"):
            if member in body and not isinstance(body[member], bool):
                raise ApiFailure(400, "%s must be a boolean" % member)
        if "ssh_key_ids" in body:
            ids = body["ssh_key_ids"]
            if not isinstance(ids, list) or any(not isinstance(key, int) or isinstance(key, bool) for key in ids):
                raise ApiFailure(400, "ssh_key_ids must be a list of integers")
            linked = set(key["id"] for key in (record or {}).get("credentials", {}).get("keys", []))
            unknown = [key for key in ids if key not in self.sim.storage_ssh_keys and key not in linked]
            if unknown:
                raise ApiFailure(400, "ssh key %s not found" % unknown[0])

    def apply_sftp_members(self, record, body):
        if "server_alias" in body:
            record["server_alias"] = body["server_alias"]
        if "expires" in body:
            record["expires_text"] = body["expires"]
        if "is_http_disabled" in body:
            record["disable_http"] = body["is_http_disabled"]
        if "has_custom_config_file" in body:
            record["custom_config_file"] = body["has_custom_config_file"]
        if "ssh_key_ids" in body:
            held = dict((key["id"], key) for key in record["credentials"].get("keys", []))
            record["credentials"]["keys"] = [held.get(key) or dict((member, self.sim.storage_ssh_keys[key][member])
                                                                   for member in ("id", "name", "created_at"))
                                             for key in dict.fromkeys(body["ssh_key_ids"])]

    def sftp_patch(self, request):
        record = self.v4_record(request, "sftp")
        if record["provisioning_status"] in GONE:
            raise ApiFailure(404, "storage %s not found" % record["id"])
        body = request.json if request.raw_body else {}
        if not isinstance(body, dict):
            raise ApiFailure(400, "the request body must be a JSON object")
        unknown = sorted(set(body) - {"expires", "has_custom_config_file", "is_http_disabled", "password_mode", "password",
                                      "server_alias", "ssh_key_ids"})
        if unknown:
            raise ApiFailure(400, "unknown field %r" % unknown[0])
        mode = body.get("password_mode")
        if "password_mode" in body and mode not in ("auto", "set", "none"):
            raise ApiFailure(400, "password_mode must be auto, set or none")
        password = self.given_password(body, mode, ("password",))
        self.check_sftp_members(body, record)
        self.apply_sftp_members(record, body)
        if mode == "none":
            record["credentials"].pop("sftp_password", None)
        elif mode in ("auto", "set"):
            record["credentials"]["sftp_password"] = password if mode == "set" else self.fresh_password(record)
            return dict(sftp_view(record), password=record["credentials"]["sftp_password"])
        return sftp_view(record)

    def s3_get(self, request):
        return s3_view(self.v4_record(request, "s3_compatible"))

    def sftp_get(self, request):
        return sftp_view(self.v4_record(request, "sftp"))

    def locations(self, request):
        limit = paging(request, "limit", 10, low=1, high=1000)
        offset = paging(request, "offset", 0, low=0)
        return {"count": len(LOCATIONS), "results": copy.deepcopy(LOCATIONS[offset:offset + limit])}

    # ---- buckets of an S3 storage -------------------------------------------------------------------
    def bucket_store(self, request):
        record = self.v4_record(request, "s3_compatible")
        if record["provisioning_status"] in GONE:
            raise ApiFailure(404, "storage %s not found" % record["id"])
        return record["id"], self.sim.storage_buckets.setdefault(record["id"], {})

    def bucket(self, request):
        storage_id, buckets = self.bucket_store(request)
        name = request.params["name"]
        if name not in buckets:
            raise ApiFailure(404, "bucket %r not found in storage %s" % (name, storage_id))
        return buckets[name]

    def bucket_list(self, request):
        _storage_id, buckets = self.bucket_store(request)
        limit = paging(request, "limit", 10, low=1, high=1000)
        offset = paging(request, "offset", 0, low=0)
        found = [copy.deepcopy(buckets[name]) for name in sorted(buckets)]
        return {"count": len(found), "results": found[offset:offset + limit]}

    def bucket_create(self, request):
        storage_id, buckets = self.bucket_store(request)
        body = request.json
        name = body.get("name") if isinstance(body, dict) else None
        if not isinstance(name, str) or not BUCKET_NAME.fullmatch(name):
            raise ApiFailure(400, "invalid bucket name %r: 3 to 63 lower case letters, digits, '-' and '.'" % (name,))
        if sorted(set(body) - {"name", "cors", "lifecycle", "policy"}):
            raise ApiFailure(400, "the body holds name, cors, lifecycle and policy only")
        if name in buckets:
            raise ApiFailure(409, "bucket %r already exists" % name)
        bucket = {"name": name, "storage_id": storage_id, "cors": {"allowed_origins": []},
                  "lifecycle": {"expiration_days": 0}, "policy": {"is_public": False}}
        self.apply_bucket_settings(bucket, body)
        buckets[name] = bucket
        return Response(201, copy.deepcopy(buckets[name]))

    def bucket_get(self, request):
        return copy.deepcopy(self.bucket(request))

    def bucket_patch(self, request):
        bucket = self.bucket(request)
        body = request.json if request.raw_body else {}
        if not isinstance(body, dict) or sorted(set(body) - {"cors", "lifecycle", "policy"}):
            raise ApiFailure(400, "the body holds cors, lifecycle and policy only")
        self.apply_bucket_settings(bucket, body)
        return copy.deepcopy(bucket)

    @staticmethod
    def apply_bucket_settings(bucket, body):
        """``cors``, ``lifecycle`` and ``policy`` of a PATCH or (SDK 0.59) a create body: checked, then applied."""
        for member in ("cors", "lifecycle", "policy"):
            if member in body and not isinstance(body[member], dict):
                raise ApiFailure(400, "%s must be an object" % member)
        cors, lifecycle, policy = body.get("cors"), body.get("lifecycle"), body.get("policy")
        if cors is not None and "allowed_origins" in cors:
            origins = cors["allowed_origins"]
            if not isinstance(origins, list) or any(not isinstance(origin, str) or not origin for origin in origins):
                raise ApiFailure(400, "cors.allowed_origins must be a list of non-empty strings")
        if lifecycle is not None and "expiration_days" in lifecycle:
            days = lifecycle["expiration_days"]
            if days is not None and (not isinstance(days, int) or isinstance(days, bool) or days < 0):
                raise ApiFailure(400, "lifecycle.expiration_days must be a positive integer, 0 or null")
        if policy is not None and "is_public" in policy and not isinstance(policy["is_public"], bool):
            raise ApiFailure(400, "policy.is_public must be a boolean")
        if cors is not None and "allowed_origins" in cors:
            bucket["cors"] = {"allowed_origins": list(cors["allowed_origins"] or [])}
        if lifecycle is not None and "expiration_days" in lifecycle:
            bucket["lifecycle"] = {"expiration_days": lifecycle["expiration_days"] or 0}
        if policy is not None and "is_public" in policy:
            bucket["policy"] = {"is_public": policy["is_public"]}

    def bucket_delete(self, request):
        _storage_id, buckets = self.bucket_store(request)
        self.bucket(request)
        del buckets[request.params["name"]]
        return Response(204)

    # ---- SSH keys ---------------------------------------------------------------------------------
    def ssh_key(self, request):
        raw = request.params["ssh_key_id"]
        try:
            key_id = int(raw, 10)
        except ValueError:
            raise ApiFailure(400, "invalid ssh_key_id %r: must be an integer" % raw)
        if key_id not in self.sim.storage_ssh_keys:
            raise ApiFailure(404, "ssh key %s not found" % key_id)
        return self.sim.storage_ssh_keys[key_id]

    def ssh_key_list(self, request):
        limit = paging(request, "limit", 10, low=1, high=1000)
        offset = paging(request, "offset", 0, low=0)
        name = request.arg("name")
        found = sorted((copy.deepcopy(key) for key in self.sim.storage_ssh_keys.values() if not name or name in key["name"]),
                       key=lambda key: (key["created_at"], key["id"]), reverse=True)
        return {"count": len(found), "results": found[offset:offset + limit]}

    def ssh_key_create(self, request):
        body = request.json
        if not isinstance(body, dict):
            raise ApiFailure(400, "the request body must be a JSON object")
        name, public_key = body.get("name"), body.get("public_key")
        if not isinstance(name, str) or not name:
            raise ApiFailure(400, "name is required")
        if not isinstance(public_key, str) or not PUBLIC_KEY.fullmatch(public_key.strip()):
            raise ApiFailure(400, "public_key must be an OpenSSH public key (ssh-rsa, ssh-ed25519 or ecdsa)")
        if any(key["name"] == name for key in self.sim.storage_ssh_keys.values()):
            raise ApiFailure(409, "ssh key with name %r already exists" % name)
        key_id = 100 + next(self.numbers)
        self.sim.storage_ssh_keys[key_id] = {"id": key_id, "name": name, "public_key": public_key, "created_at": now_iso()}
        return Response(201, copy.deepcopy(self.sim.storage_ssh_keys[key_id]))

    def ssh_key_get(self, request):
        return copy.deepcopy(self.ssh_key(request))

    def ssh_key_delete(self, request):
        key = self.ssh_key(request)
        del self.sim.storage_ssh_keys[key["id"]]
        return Response(204)


def paging(request, name, default, low=None, high=None):
    """A paging query member as the storage API parses it: an integer in range, else 400 {error}."""
    raw = request.arg(name)
    if raw is None:
        return default
    try:
        value = int(raw, 10)
    except ValueError:
        raise ApiFailure(400, "invalid %s %r: must be an integer" % (name, raw))
    if (low is not None and value < low) or (high is not None and value > high):
        raise ApiFailure(400, "invalid %s %s: out of range" % (name, value))
    return value
