# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Quota notification threshold: /cloud/v2/client_quotas/{client_id}/notification_threshold (docs/api_reference.md section 7).

The spec does not say whether a client that never set a threshold reads as the default record or as a
404 (docs/api_reference.md section 7), so both exist here: clients 1 to 3 answer a record (2 and 3 the default of
80 %), client 4 has no record (GET 404; PUT creates it, as the PUT is documented to create or update;
DELETE is a 204 no-op). Any other client is unknown: 404 on every method.
PUT takes ``QuotaThresholdSerializer`` (``threshold`` 60-100 required, ``last_message``/``last_sending``
allowed, nothing else); DELETE puts the threshold back to 80 and answers 204.
"""

from __future__ import annotations

import copy

from simulator.core import ApiFailure, Resource, Response, Route, int_param

DEFAULT_THRESHOLD = 80
PATH = r"/cloud/v2/client_quotas/(?P<client_id>[^/]+)/notification_threshold"

SEEDED = {
    1: {"threshold": 85, "last_sending": "2026-11-01T08:30:00Z", "last_message": {
        "global_quotas": {"project_count_limit": {"limit": 10, "usage": 9}, "keypair_count_limit": {"limit": 100, "usage": 3}},
        "regional_quotas": [{"region_id": 76, "region_name": "Luxembourg-2",
                             "cpu_count_limit": {"limit": 100, "usage": 86}, "ram_limit": {"limit": 204800, "usage": 10240}}],
    }},
    2: None,   # a client that never set a threshold: the default record
    3: None,
}
CLIENTS_WITHOUT_RECORD = (4,)


def default_record(client_id):
    return {"client_id": client_id, "threshold": DEFAULT_THRESHOLD, "last_sending": None, "last_message": None}


class Thresholds(Resource):
    NAME = "thresholds"
    STATE = ("thresholds",)
    SEEDS = {"clients": list(SEEDED), "clients_without_record": list(CLIENTS_WITHOUT_RECORD)}
    ROUTES = (
        Route("GET", PATH, "get"),
        Route("PUT", PATH, "put"),
        Route("DELETE", PATH, "delete"),
    )

    def reset(self):
        self.sim.thresholds = {}
        for client_id, seed in SEEDED.items():
            record = default_record(client_id)
            record.update(copy.deepcopy(seed or {}))
            self.sim.thresholds[client_id] = record

    def record_of(self, request, create=False):
        client_id = int_param(request.params["client_id"], "client_id")
        if client_id in self.sim.thresholds:
            return client_id, self.sim.thresholds[client_id]
        if client_id in CLIENTS_WITHOUT_RECORD:
            if create:
                return client_id, default_record(client_id)
            raise ApiFailure(404, "No quota notification threshold is set for client %s" % client_id)
        raise ApiFailure(404, "Client %s not found" % client_id)

    def get(self, request):
        return copy.deepcopy(self.record_of(request)[1])

    def put(self, request):
        client_id, record = self.record_of(request, create=True)
        body = request.json
        if not isinstance(body, dict):
            raise ApiFailure(422, "body: a JSON object is required")
        unknown = set(body) - {"threshold", "last_message", "last_sending"}
        if unknown:
            raise ApiFailure(422, "body: extra fields not permitted: %s" % ", ".join(sorted(unknown)))
        threshold = body.get("threshold")
        if not isinstance(threshold, int) or isinstance(threshold, bool) or not 60 <= threshold <= 100:
            raise ApiFailure(422, "threshold: must be an integer from 60 to 100")
        record["threshold"] = threshold
        self.sim.thresholds[client_id] = record
        return copy.deepcopy(record)

    def delete(self, request):
        client_id, record = self.record_of(request, create=True)
        if client_id in self.sim.thresholds:
            record.update(threshold=DEFAULT_THRESHOLD)
        return Response(204)
