# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cloud SSH keys of a project (docs/api_reference.md section 15.5): synchronous, no region, no task.

Not the storage SSH keys (``/storage/v4/ssh_keys``, resources/storage.py): another API.

- ``GET /cloud/v1/ssh_keys/{p}``: ``{count, results: [SSHKey]}``. ``limit`` 1-1000 (**default 10**), ``offset`` >= 0,
  ``name`` (a **substring** filter), ``order_by`` (``created_at.asc``, ``created_at.desc`` (default), ``name.asc``,
  ``name.desc``); anything else 422.
- ``POST /cloud/v1/ssh_keys/{p}`` ``{name*, public_key?, shared_in_project?}``: **201** with the key and
  ``private_key``: without ``public_key`` a generated Ed25519 pair, the private key answered this once (it holds
  ``PRIVATE_MARK``, so the stories' search of their -vvvv output finds any leak), else null. The name follows the NAME
  pattern (3-63 characters); a name the project already has answers 409. The simulator refuses unknown members (422):
  the spec forbids none in a request; a test relying on it says so.
- ``GET .../{id}``: the key (no private key); ``PATCH .../{id}`` ``{shared_in_project*}``: the key; ``DELETE .../{id}``:
  204. An unknown id, or a key of another project, answers 404.

State: ``sim.ssh_keys`` (id -> record). Seeded in project 1 (``SEEDS["ssh_keys"]``): ``deploy`` (an Ed25519 key),
``deploy-old`` (its name holds ``deploy``: the filter matches both) and ten ``bulk-NN`` keys, so that the default page
of 10 does not show them all.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import re
import uuid

from simulator.core import ApiFailure, Response, now_iso
from simulator.resources.production import Collection, scope
from simulator.validation import check_bool, check_object, check_str, invalid

NAME_PATTERN = re.compile(r"^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$")
KEY_PATTERN = re.compile(r"^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(?:256|384|521)|ssh-dss) [A-Za-z0-9+/]+={0,3}( .*)?$")
ORDERS = ("created_at.asc", "created_at.desc", "name.asc", "name.desc")
PRIVATE_MARK = "sim-cred-"  # what every generated private key holds (tests/integration/conftest.py SECRETS)
NAMESPACE = uuid.UUID("3f0c9a5e-7d21-4b6a-8e3f-1c2d3e4f5a6b")
SEED_PROJECT = 1
DEPLOY_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB2v0nJ8oVbQ0r3mXq5nYwq9Hh9m2xRr8m4Sx3kQ9aZt deploy@ci"
OLD_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOld0nJ8oVbQ0r3mXq5nYwq9Hh9m2xRr8m4Sx3kQ9aZt old@ci"
SEEDED = [("deploy", DEPLOY_KEY, True), ("deploy-old", OLD_KEY, False)] + [
    ("bulk-%02d" % number, "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBulk%02dJ8oVbQ0r3mXq5nYwq9Hh9m2xRr8m4Sx3kQ9aZ" % number, True)
    for number in range(1, 11)]


def fingerprint(public_key):
    body = public_key.split()[1]
    try:
        digest = hashlib.sha256(base64.b64decode(body + "=" * (-len(body) % 4))).digest()
    except ValueError:
        digest = hashlib.sha256(body.encode()).digest()
    return "SHA256:" + base64.b64encode(digest).decode().rstrip("=")


def key_record(ident, name, public_key, project_id, shared, created_at):
    """A key as ``SSHKeySerializer`` has it (every member, nothing else)."""
    return {"id": ident, "name": name, "public_key": public_key, "fingerprint": fingerprint(public_key), "state": "ACTIVE",
            "project_id": project_id, "shared_in_project": shared, "created_at": created_at}


def generated_pair():
    """A new Ed25519 pair as the service answers it: the public key and the OpenSSH private key (with PRIVATE_MARK)."""
    seed = uuid.uuid4().hex
    public = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + base64.b64encode(hashlib.sha256(seed.encode()).digest()).decode().rstrip("=")
    private = "-----BEGIN OPENSSH PRIVATE KEY-----\n%s%s\n-----END OPENSSH PRIVATE KEY-----\n" % (PRIVATE_MARK, seed)
    return public, private


class SshKeys(Collection):
    NAME, NOUN, COLLECTION, REGIONAL, ID_CHECK, NAME_QUERY, PAGE = "ssh_keys", "SSH key", "ssh_keys", False, None, ("name", None), 10
    SEEDS = {
        "project_id": SEED_PROJECT,
        "ssh_keys": dict((name, str(uuid.uuid5(NAMESPACE, name))) for name, _key, _shared in SEEDED),
        "public_keys": dict((name, key) for name, key, _shared in SEEDED),
    }

    def reset(self):
        self.sim.ssh_keys = {}
        for number, (name, key, shared) in enumerate(SEEDED):
            ident = str(uuid.uuid5(NAMESPACE, name))
            self.sim.ssh_keys[ident] = key_record(ident, name, key, SEED_PROJECT, shared, "2026-01-%02dT10:00:00Z" % (number + 1))

    def ordered(self, request, records):
        order = request.arg("order_by", "created_at.desc")
        if order not in ORDERS:
            invalid("order_by", "value is not one of %s" % ", ".join(ORDERS), root=("query",))
        field, _dot, direction = order.partition(".")
        return sorted(records, key=lambda record: (record[field] or "", record["id"]), reverse=direction == "desc")

    def create(self, request):
        project_id, _region = scope(request)
        body = request.json
        check_object("body", body, ("name",), ("name", "public_key", "shared_in_project"))
        check_str("name", body["name"], min_length=1, max_length=255)
        if not NAME_PATTERN.match(body["name"]):
            invalid("name", "string does not match pattern %s" % NAME_PATTERN.pattern)
        if body.get("public_key") is not None:
            check_str("public_key", body["public_key"])
            if not KEY_PATTERN.match(body["public_key"].strip()):
                invalid("public_key", "is not a valid OpenSSH public key", status=400)
        if "shared_in_project" in body:
            check_bool("shared_in_project", body["shared_in_project"])
        if any(record["project_id"] == project_id and record["name"] == body["name"] for record in self.sim.ssh_keys.values()):
            raise ApiFailure(409, "SSH key with name '%s' already exists in project %s" % (body["name"], project_id))
        private = None
        public = (body.get("public_key") or "").strip()
        if not public:
            public, private = generated_pair()
        ident = str(uuid.uuid4())
        record = key_record(ident, body["name"], public, project_id, body.get("shared_in_project", True), now_iso())
        self.sim.ssh_keys[ident] = record
        return Response(201, dict(copy.deepcopy(record), private_key=private))

    def update(self, request):
        record = self.one(request)
        body = request.json
        check_object("body", body, ("shared_in_project",), ("shared_in_project",))
        check_bool("shared_in_project", body["shared_in_project"])
        record["shared_in_project"] = body["shared_in_project"]
        return copy.deepcopy(record)
