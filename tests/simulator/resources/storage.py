# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Storage: the deprecated v1 provisioning API and its v4 replacements (API_NOTES section 10).

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

Every seeded credential value comes from ``FAKE_CREDENTIALS`` below (and only from there); all of them
start with ``CREDENTIAL_MARK`` so that tests can search any output for a leak.
"""

from __future__ import annotations

import copy

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
}


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
    """S3StorageListItemV4: every member required, no credentials."""
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
    view = s3_view(record)
    view.update({
        "expires": "1 year 6 months" if record.get("expires") else "",
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
    SEEDS = {"storages": dict((seed[0], storage_id) for storage_id, seed in SEEDED.items())}
    ROUTES = (
        Route("GET", V1_PATH, "v1_get"),
        Route("DELETE", V1_PATH, "v1_delete"),
        Route("GET", S3_PATH, "s3_get"),
        Route("DELETE", S3_PATH, "s3_delete"),
        Route("GET", SFTP_PATH, "sftp_get"),
        Route("DELETE", SFTP_PATH, "sftp_delete"),
    )

    def reset(self):
        self.sim.storages = dict((storage_id, seeded_record(storage_id, *seed)) for storage_id, seed in SEEDED.items())

    # ---- v1 (deprecated) ----------------------------------------------------------------------
    def v1_record(self, request):
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
        storage_id = storage_id_of(request)
        record = self.sim.storages.get(storage_id)
        if record is None or record["type"] != kind:
            raise ApiFailure(404, "storage %s not found" % storage_id)
        return record

    def s3_get(self, request):
        return s3_view(self.v4_record(request, "s3_compatible"))

    def sftp_get(self, request):
        return sftp_view(self.v4_record(request, "sftp"))

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
