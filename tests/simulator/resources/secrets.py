# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cloud secrets: TLS certificates for load-balancer listeners (docs/api_reference.md section 16.1).

- ``POST /cloud/v2/secrets/{p}/{r}`` (``CreateSecretSerializerV2``: ``name*`` any string, ``payload*`` with
  ``certificate*``, ``certificate_chain*``, ``private_key*`` strings, ``expiration`` date-time|null): 200 ``{tasks}``;
  the secret appears when its ``create_secret`` task finishes, named in ``created_resources.secrets``. A failed task
  makes nothing. Names are not unique. The payload is kept apart and never answered (nor in the task's ``data``).
- ``GET /cloud/v1/secrets/{p}/{r}``: ``{count, results}``, ``limit`` 1-1000 (default 1000), ``offset``; no filters.
- ``GET .../{secret_id}`` (uuid, else 422): ``SecretSerializer`` (``id``, ``name``, ``secret_type`` ``certificate``,
  ``status`` ``ACTIVE``, ``algorithm``, ``bit_length``, ``mode`` null, ``content_types``, ``created``, ``expiration``
  as an RFC 3339 instant with its offset: one given without a zone is taken as UTC).
- ``DELETE .../{secret_id}``: a ``delete_secret`` task; the secret goes when it finishes. Refused with a **409** (as
  the service answers it, issue 45; a client that takes every 409 for a lock sends it again and again) while a
  listener (``secret_id``, ``sni_secret_id``) or a pool (``secret_id``, ``ca_secret_id``, ``crl_secret_id``; the same
  answer, inferred) of the load balancer family uses it.
- The deprecated ``POST /cloud/v1/secrets/{p}/{r}`` (``CreateSecretSerializer``: ``name*``, ``payload*`` base64 of a
  PKCS12 bundle, ``payload_content_encoding*`` ``base64``, ``payload_content_type*`` (not ``text/plain``),
  ``secret_type*``, ``algorithm``, ``bit_length`` > 0, ``mode``, ``expiration``) is answered too: the same task, the
  record with the type and content type sent.
- There is no PATCH or PUT (405): a secret cannot change.

For the load-balancer family: ``known(sim, ident, project_id, region_id)``. State: ``sim.secrets`` (id -> record).
Seeded (project 1, region 76): ``seed-cert``.
"""

from __future__ import annotations

import base64
import binascii
import copy
import datetime
import uuid

from simulator.core import ApiFailure, now_iso
from simulator.resources.production import SEED_PROJECT, SEED_REGION, Collection, scope
from simulator.validation import check_enum, check_int, check_object, check_str, invalid

PAYLOAD = ("certificate", "certificate_chain", "private_key")
V1_REQUIRED = ("name", "payload", "payload_content_encoding", "payload_content_type", "secret_type")
SECRET_TYPES = ("certificate", "opaque", "passphrase", "private", "public", "symmetric")
SEEDED = {"seed_cert": "5ec7e700-0000-4000-8000-000000000001"}


def parse_instant(loc, value):
    """An RFC 3339 date-time (no zone: UTC) as the record shows it, or 422."""
    if not isinstance(value, str):
        invalid(loc, "a date-time string is required")
    try:
        moment = datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        invalid(loc, "invalid datetime format")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return moment.isoformat()


def known(sim, ident, project_id, region_id):
    """Whether a secret with that id is in the scope."""
    record = getattr(sim, "secrets", {}).get(ident)
    return record is not None and (record["project_id"], record["region_id"]) == (project_id, region_id)


class Secrets(Collection):
    NAME, NOUN, COLLECTION, TASK, TASK_TYPES = "secrets", "Secret", "secrets", "secret", ("create_secret", "delete_secret")
    VERSIONS = {"create": "v2"}
    ACTIONS = (("POST", "", "create_v1"),)
    SEEDS = dict(SEEDED, project_id=SEED_PROJECT, region_id=SEED_REGION)

    def reset(self):
        self.sim.secrets = {}
        self.payloads = {}  # id -> the payload as sent: kept, never answered
        self.add(SEEDED["seed_cert"], "seed-cert", SEED_PROJECT, SEED_REGION, None, dict.fromkeys(PAYLOAD, "-----BEGIN-----"))

    def add(self, ident, name, project_id, region_id, expiration, payload, **members):
        self.sim.secrets[ident] = dict({
            "id": ident, "name": name, "secret_type": "certificate", "status": "ACTIVE", "algorithm": None,
            "bit_length": None, "mode": None, "content_types": {"default": "application/octet-stream"},
            "created": now_iso(), "expiration": expiration, "project_id": project_id, "region_id": region_id,
        }, **members)
        self.payloads[ident] = payload

    def start_create(self, body, project_id, region_id, payload, **members):
        ident = str(uuid.uuid4())
        expiration = None if body.get("expiration") is None else parse_instant("expiration", body["expiration"])

        def apply():
            self.add(ident, body["name"], project_id, region_id, expiration, payload, **members)
            return {"secrets": [ident]}

        data = {"name": body["name"], "expiration": body.get("expiration")}  # never the payload
        return {"tasks": [self.sim.start_task("create_secret", apply=apply, project_id=project_id, region_id=region_id, data=data)]}

    def shown(self, record, _request=None):
        shown = copy.deepcopy(record)
        del shown["project_id"], shown["region_id"]  # SecretSerializer has neither
        return shown

    def create(self, request):
        project_id, region_id = scope(request)
        body = request.json
        check_object("", body, ("name", "payload"), ("name", "payload", "expiration"))
        check_str("name", body["name"])
        check_object("payload", body["payload"], PAYLOAD, PAYLOAD)
        for key in PAYLOAD:
            check_str("payload." + key, body["payload"][key])
        if body.get("expiration") is not None:
            parse_instant("expiration", body["expiration"])
        return self.start_create(body, project_id, region_id, dict(body["payload"]))

    def create_v1(self, request):
        """The deprecated v1 create: a base64 PKCS12 bundle and its declared type."""
        project_id, region_id = scope(request)
        body = request.json
        check_object("", body, V1_REQUIRED, V1_REQUIRED + ("algorithm", "bit_length", "mode", "expiration"))
        for key in ("name", "payload", "payload_content_type"):
            check_str(key, body[key])
        check_enum("payload_content_encoding", body["payload_content_encoding"], ("base64",))
        check_enum("secret_type", body["secret_type"], SECRET_TYPES)
        if body["payload_content_type"] == "text/plain":
            invalid("payload_content_type", "text/plain cannot be sent base64-encoded")
        try:
            base64.b64decode(body["payload"], validate=True)
        except (binascii.Error, ValueError):
            invalid("payload", "the payload is not base64")
        for key in ("algorithm", "mode"):
            check_str(key, body.get(key), nullable=True)
        check_int("bit_length", body.get("bit_length"), nullable=True, low=1)
        if body.get("expiration") is not None:
            parse_instant("expiration", body["expiration"])
        members = dict((key, body.get(key)) for key in ("algorithm", "bit_length", "mode"))
        return self.start_create(body, project_id, region_id, body["payload"], secret_type=body["secret_type"],
                                 content_types={"default": body["payload_content_type"]}, **members)

    def users(self, ident):
        """``(kind, id)`` of every listener and pool that uses the secret."""
        found = [("listener", record["id"]) for record in (getattr(self.sim, "lb_listeners", None) or {}).values()
                 if record.get("secret_id") == ident or ident in (record.get("sni_secret_id") or [])]
        return found + [("pool", record["id"]) for record in (getattr(self.sim, "lb_pools", None) or {}).values()
                        if ident in (record.get("secret_id"), record.get("ca_secret_id"), record.get("crl_secret_id"))]

    def refuse_delete(self, record):
        users = self.users(record["id"])
        if users:
            raise ApiFailure(409, "Secret %s is in use by %s %s and cannot be deleted" % (record["id"], users[0][0], users[0][1]))

    def removed(self, record):
        self.sim.secrets.pop(record["id"], None)
        self.payloads.pop(record["id"], None)
