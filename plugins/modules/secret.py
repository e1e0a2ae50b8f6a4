#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: secret
short_description: Upload and delete a TLS certificate (a Gcore Cloud secret) for load-balancer listeners
version_added: 1.0.0
description:
  - Makes a Gcore Cloud secret (a TLS certificate with its chain and private key, used by
    M(gcore.platform.load_balancer) listeners of protocol V(TERMINATED_HTTPS)) exist, or removes it, and does nothing
    when it already exists.
  - The secret is found by O(secret_id) when it is given, otherwise by its exact O(name); the service can neither change
    a secret nor show its certificate or key, so an existing one is kept as it is (rotate it under a new name).
  - The certificate, chain and key are checked before any request; O(state=absent) deletes the secret unless a listener
    uses it.
author:
  - gcore.platform developers (@gcore-platform)
options:
  state:
    description:
      - V(present) creates the secret when it does not exist; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
  secret_id:
    description:
      - ID (UUID) of the secret, in any letter case (sent lower-case).
      - With O(state=present), an ID that does not exist fails the module (an ID cannot be created); with
        O(state=absent) it is reported unchanged.
      - One of O(secret_id) and O(name) is required.
    type: str
  name:
    description:
      - Name of the secret; the service puts no rule on it, other than not being empty.
      - Without O(secret_id), the secret whose name is exactly this one; it is created when there is none.
      - A secret cannot be renamed; with O(secret_id), a secret of another name fails the module before any write.
      - Required to create a secret.
    type: str
  certificate:
    description:
      - The server certificate, PEM text (one C(-----BEGIN CERTIFICATE-----) ... C(-----END CERTIFICATE-----) block or
        more). Required to create; never compared, never shown.
      - Text that is not PEM fails the module before any request, naming the option and not showing the value (and the
        kind of a block that is not a certificate, such as V(PUBLIC KEY)).
    type: str
  certificate_chain:
    description:
      - The intermediate (and root) certificates, PEM text, one block after another. Required to create; never
        compared, never shown.
      - The service needs a chain; for a certificate without intermediates, give the certificate itself.
      - Each certificate must be signed by the next one, the first by O(certificate)'s issuer (checked before any
        request, see the description).
    type: str
  private_key:
    description:
      - The private key of O(certificate), PEM text (a C(-----BEGIN ... PRIVATE KEY-----) block of any kind, PKCS 8,
        RSA, EC). Required to create; never compared, never shown, in no log or diff.
      - Not encrypted (the service needs the key without its passphrase), and the key of O(certificate).
    type: str
  expiration:
    description:
      - When the secret expires, an RFC 3339 date-time such as V(2027-12-31T23:59:59Z); without a time zone it is taken
        as UTC.
      - Sent as the instant in UTC (V(2027-12-31T23:59:59+00:00)).
      - Create-only. Compared with the secret's C(expiration) as an instant (V(2027-12-31T23:59:59) and
        V(2028-01-01T00:59:59+01:00) are the same); another instant fails the module before any write. When not given,
        not compared.
    type: str
notes:
  - The secret is found by O(secret_id) when it is given, otherwise by its exact O(name) over every page of
    C(GET /cloud/v1/secrets/{project_id}/{region_id}) (the service has no name filter). Names are not unique; more
    than one secret with that name fails the module, lists their IDs and sends no write.
  - "A missing secret is created with C(POST /cloud/v2/secrets/{project_id}/{region_id})
    C({name, payload: {certificate, certificate_chain, private_key}, expiration}); its ID is read from the finished
    task's C(created_resources.secrets)."
  - The service can neither change a secret nor show its certificate or key, so an existing secret is kept as it is
    and O(certificate), O(certificate_chain) and O(private_key) are not compared with it (they are needed only to
    create it). To renew a certificate, rotate it (see the examples) - create a secret under a new name, point the
    listeners at it (O(gcore.platform.load_balancer#module:listeners[].secret)), then delete the old secret.
  - O(state=absent) deletes the secret with C(DELETE /cloud/v1/secrets/{project_id}/{region_id}/{secret_id}) and
    waits for the task. A secret a listener uses is not deleted - the region's listeners are read first and the module
    fails naming those that use it, nothing sent (point them at another secret first); a refusal of the service (a pool
    using it, a C(409)) is reported as it is, not sent again.
  - A create or delete whose answer is lost (a C(5xx), a dropped connection) is settled before it is reported - the
    secret appears only when its task finishes, so the unfinished C(create_secret)/C(delete_secret) tasks of the region
    are waited for (within O(wait_timeout)), then the secret is read again; found applied, the module reports
    C(changed=true) with a warning and never sends the write twice.
  - "The certificate is checked before any request, and each problem fails the module naming the option and the problem
    (never the value): a private key encrypted with a passphrase; with the C(cryptography) Python library (a dependency
    of ansible-core) on the host the module runs on, also a block that does not decode as what its armour says (a
    certificate, a private key), a private key that does not match the certificate, a certificate (of O(certificate)
    or O(certificate_chain)) whose validity ended, and a chain out of order: the certificate, then each certificate of
    the chain, each signed by the next one (a certificate given again in the chain counts once). Without the library
    these checks are skipped, with a warning that names them."
  - O(certificate), O(certificate_chain) and O(private_key) are C(no_log) options, masked in every output. Read them
    from files with C(lookup('file', ...)), or from a vault.
  - With O(wait=false) the module returns once the service accepted each write, with the task IDs in RV(tasks); a
    secret being created is then returned as V(null).
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.gcore.WAIT
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.secret_info
    description: Read secrets.
  - module: gcore.platform.load_balancer
    description: Its V(TERMINATED_HTTPS) listeners take a secret by name or ID (O(gcore.platform.load_balancer#module:listeners[].secret)).
"""

EXAMPLES = r"""
- name: A self-signed certificate to try it with (in production, your CA's certificate, key and chain)
  ansible.builtin.command:
    cmd: >-
      openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 90 -subj /CN=www.example.com
      -keyout {{ playbook_dir }}/www-2026.key -out {{ playbook_dir }}/www-2026.crt
    creates: "{{ playbook_dir }}/www-2026.crt"

- name: Upload it (a certificate without intermediates is its own chain)
  gcore.platform.secret:
    project_id: 1
    region_id: 76
    name: www-example-com-2026
    certificate: "{{ certificate }}"
    certificate_chain: "{{ certificate }}"
    private_key: "{{ private_key }}"
    expiration: "2027-01-31T23:59:59Z"
  vars:
    certificate: "{{ lookup('ansible.builtin.file', playbook_dir ~ '/www-2026.crt') }}"
    private_key: "{{ lookup('ansible.builtin.file', playbook_dir ~ '/www-2026.key') }}"
  register: cert

- name: Serve HTTPS with it
  gcore.platform.load_balancer:
    project_id: 1
    region_id: 76
    name: web-lb
    purge_listeners: false
    listeners:
      - name: https
        protocol: TERMINATED_HTTPS
        protocol_port: 443
        secret: www-example-com-2026

# Rotation: a secret cannot change. Upload the renewed certificate under a new name, point the listeners at it, then
# delete the old secret (the service refuses to delete it while a listener uses it).
- name: The renewed certificate
  ansible.builtin.command:
    cmd: >-
      openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 90 -subj /CN=www.example.com
      -keyout {{ playbook_dir }}/www-2027.key -out {{ playbook_dir }}/www-2027.crt
    creates: "{{ playbook_dir }}/www-2027.crt"

- name: Upload the renewed certificate under a new name
  gcore.platform.secret:
    project_id: 1
    region_id: 76
    name: www-example-com-2027
    certificate: "{{ lookup('ansible.builtin.file', playbook_dir ~ '/www-2027.crt') }}"
    certificate_chain: "{{ lookup('ansible.builtin.file', playbook_dir ~ '/www-2027.crt') }}"
    private_key: "{{ lookup('ansible.builtin.file', playbook_dir ~ '/www-2027.key') }}"

- name: Point the HTTPS listener at the new certificate (one listener PATCH)
  gcore.platform.load_balancer:
    project_id: 1
    region_id: 76
    name: web-lb
    purge_listeners: false
    listeners:
      - name: https
        protocol: TERMINATED_HTTPS
        protocol_port: 443
        secret: www-example-com-2027

- name: Delete the old certificate
  gcore.platform.secret:
    project_id: 1
    region_id: 76
    name: www-example-com-2026
    state: absent
"""

RETURN = r"""
secret:
  description:
    - The secret as the service returned it when last read; the service never returns the certificate, the chain or
      the key.
    - V(null) after a delete, when O(state=absent) found no secret, in check mode when the secret would be created, and
      with O(wait=false) when it is being created.
  returned: success
  type: dict
  contains:
    id:
      description: Secret ID, to give as O(gcore.platform.load_balancer#module:listeners[].secret).
      type: str
      sample: 5ec7e700-0000-4000-8000-000000000002
    name:
      description: Secret name.
      type: str
      sample: www-example-com-2026
    secret_type:
      description: The kind of secret (V(certificate) for an upload by this module).
      type: str
      sample: certificate
    status:
      description: Status of the secret.
      type: str
      sample: ACTIVE
    content_types:
      description: The content types of the payload, or V(null).
      type: dict
      sample: {default: application/octet-stream}
    created:
      description: Creation time.
      type: str
      sample: "2026-11-26T10:00:00+00:00"
    expiration:
      description: When the secret expires, or V(null).
      type: str
      sample: "2027-01-31T23:59:59+00:00"
    algorithm:
      description: Informational, usually V(null).
      type: str
      sample: null
    bit_length:
      description: Informational, usually V(null).
      type: int
      sample: null
    mode:
      description: Informational, usually V(null).
      type: str
      sample: null
tasks:
  description:
    - IDs of the asynchronous tasks the module started (empty when nothing was sent).
    - With O(wait=true) every one of them has finished when the module returns.
  returned: success
  type: list
  elements: str
  sample: [6a1d8f3e-0b2c-4d5e-8f90-1a2b3c4d5e6f]
diff:
  description:
    - C(name) and C(expiration) (as an instant in UTC) before and after the change, with C(state); never the payload.
  returned: success
  type: dict
  sample:
    before: {state: absent}
    after: {state: present, name: www-example-com-2026, expiration: "2027-01-31T23:59:59+00:00"}
"""

import datetime
import re

from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, ValidationError, require
from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudResource
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS
from ansible_collections.gcore.platform.plugins.module_utils._members import create_only
from ansible_collections.gcore.platform.plugins.module_utils._pem import check_certificate, labels

PEM_BLOCK = r"-----BEGIN (%s)-----\r?\n[A-Za-z0-9+/=\s:,.-]+?-----END \1-----"
CERTIFICATES = re.compile(r"\s*(?:%s\s*)+" % (PEM_BLOCK % "CERTIFICATE"))
PRIVATE_KEY = re.compile(r"\s*%s\s*" % (PEM_BLOCK % "(?:[A-Z0-9]+ )*PRIVATE KEY"))
PAYLOAD = ("certificate", "certificate_chain", "private_key")
PEM_RULES = {
    "certificate": (CERTIFICATES, "one or more '-----BEGIN CERTIFICATE-----' ... '-----END CERTIFICATE-----' blocks"),
    "certificate_chain": (CERTIFICATES, "one or more '-----BEGIN CERTIFICATE-----' ... '-----END CERTIFICATE-----' blocks"),
    "private_key": (PRIVATE_KEY, "one '-----BEGIN ... PRIVATE KEY-----' ... '-----END ... PRIVATE KEY-----' block"),
}


def instant(value, option="expiration"):
    """An RFC 3339 date-time as an instant in UTC, ISO text (no time zone: UTC); None stays None."""
    if value is None:
        return None
    text = re.sub(r"[zZ]$", "+00:00", str(value).strip()).replace(" ", "T", 1)
    text = re.sub(r"\.(\d+)", lambda found: "." + (found.group(1) + "00000")[:6], text, count=1)  # Python < 3.11: 3 or 6 digits
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise ValidationError("%s: %r is not an RFC 3339 date-time such as 2027-01-31T23:59:59Z" % (option, value))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return moment.astimezone(datetime.timezone.utc).isoformat()


class Secret(CloudResource):
    kind = KINDS["secret"]
    options = dict(
        certificate=dict(type="str", no_log=True),
        certificate_chain=dict(type="str", no_log=True),
        private_key=dict(type="str", no_log=True),
        expiration=dict(type="str"),
    )
    required_to_create = ("name",) + PAYLOAD
    task_types = {"create": "create_secret", "delete": "delete_secret"}  # the record names no task (docs/api_reference.md section 16.1)
    lock = None  # nor does a 409 mean a lock: a secret in use is refused, not waited for
    members = (
        create_only("name", lambda record: record.get("name"), "secret", rule="a %s cannot be renamed"),
        create_only("expiration", lambda record: instant(record.get("expiration")), "secret", want=instant),
    )

    def validate(self):
        super().validate()
        params = self.params
        for option in PAYLOAD:  # the armour first: the value is never echoed
            pattern, rule = PEM_RULES[option]
            wrong = [label for label in labels(params[option])
                     if not (label.endswith("PRIVATE KEY") if option == "private_key" else label == "CERTIFICATE")]
            require(params[option] is None or pattern.fullmatch(params[option]), option, "is not PEM text: expected %s%s (the "
                    "value is not shown)" % (rule, "; it holds a %s block" % wrong[0] if wrong else ""))
        skipped = check_certificate(params["certificate"], params["certificate_chain"], params["private_key"])
        if skipped:
            self.module.warn("certificate: " + skipped)
        params["expiration"] = params["expiration"] if params["expiration"] is None else params["expiration"].strip()
        instant(params["expiration"])

    def examine(self, record):
        """A secret a listener uses is not deleted: the listeners of the region are read once, those using it named."""
        if not self.absent or record is None:
            return
        users = [item for item in self.pages(KINDS["listener"].paths["list"].format(**self.params))
                 if record["id"] == item.get("secret_id") or record["id"] in (item.get("sni_secret_id") or [])]
        if users:
            raise Refused("secret %s (%s) is used by %s: point %s at another secret first (nothing was sent)" % (
                record["id"], record.get("name"), ", ".join("listener %s (%s) of load balancer %s" % (
                    item.get("name"), item["id"], item.get("load_balancer_id")) for item in users), "them" if len(users) > 1 else "it"))

    def create_body(self):
        params = self.params
        body = {"name": params["name"], "payload": dict((option, params[option]) for option in PAYLOAD)}
        if params["expiration"] is not None:
            body["expiration"] = instant(params["expiration"])  # the instant, so no reading of a zone is left to the service
        return body

    def returned(self, record):
        if not self.exists_after(record):
            return None
        return dict((key, value) for key, value in record.items() if key != "payload")


def main():
    Secret.main()


if __name__ == "__main__":
    main()
