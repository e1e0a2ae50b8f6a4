#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: ssh_key
short_description: Add, share and remove the SSH keys of a Gcore Cloud project, idempotently
version_added: 1.0.0
description:
  - Manages one SSH key of a Gcore Cloud project (C(/cloud/v1/ssh_keys/{project_id})), the key an instance is created
    with (its C(ssh_key_name)). SSH keys belong to a project, not to a region, so this module has no C(region_id).
  - Not the SSH keys of SFTP storages, which are another API; manage those with M(gcore.platform.storage_ssh_key).
  - Uploads a key (O(public_key)) or has the service generate a pair and returns its private key once, shares it in the
    project or not (O(shared_in_project)), and deletes it.
author:
  - gcore.platform developers (@gcore-platform)
options:
  state:
    description:
      - V(present) creates the key or shares or unshares it; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
  project_id:
    description:
      - Cloud project ID, at least V(1). SSH keys belong to a project and have no region.
      - If not set, the value of the E(GCORE_CLOUD_PROJECT_ID) environment variable is used; one of the two is required.
    type: int
    required: true
  ssh_key_id:
    description:
      - ID (UUID) of the key, in any letter case (sent lower-case).
      - When given, the key is found by this ID, and O(name) must be its name (a key cannot be renamed).
      - With O(state=present), an ID that does not exist fails the module (an ID cannot be created); with
        O(state=absent) it is reported unchanged.
    type: str
  name:
    description:
      - Name of the key, 3 to 63 characters matching C(^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$)
        (letters, digits, spaces, C(.), C(_) and C(-); it starts with a letter or digit and ends with a letter,
        digit, C(.) or C(_)). Instances name their key by this name.
      - Without O(ssh_key_id), the key whose name is exactly this one; it is created when there is none.
      - Create-only. A key cannot be renamed.
    type: str
    required: true
  public_key:
    description:
      - The OpenSSH public key - its type (C(ssh-ed25519), C(ssh-rsa) or C(ecdsa-sha2-nistp256)/C(384)/C(521)), its
        base64 body and an optional comment - as in an C(.pub) file.
      - Left out when the key is created, the service generates a key pair and the module returns the private key
        in RV(private_key), once.
      - Create-only. Compared by its type and base64 body, the comment ignored. A key with another public key fails
        the module before any write, saying to delete it first or use another name.
      - Never a private key (refused without showing it).
    type: str
  shared_in_project:
    description:
      - Whether every user of the project may use the key. The service makes new keys shared by default.
      - Changed on an existing key with a PATCH. Left out, it is not managed.
    type: bool
  wait:
    description:
      - Accepted as every cloud module accepts it. SSH key writes are synchronous, so there is nothing to wait for.
    type: bool
    default: true
  wait_timeout:
    description:
      - Accepted as every cloud module accepts it, at least V(1); SSH key writes start no task.
    type: int
    default: 600
notes:
  - The key is found by O(ssh_key_id) when it is given, otherwise by its exact O(name) over every page of
    C(GET /cloud/v1/ssh_keys/{project_id}) (the service's name filter matches substrings).
  - A missing key is created with C(POST /cloud/v1/ssh_keys/{project_id}), synchronously. With O(public_key) the key
    is uploaded; without it the service generates an Ed25519 key pair and answers its private key once, which the
    module returns as RV(private_key) on that run only, and nowhere else.
  - Only O(shared_in_project) can change on an existing key (C(PATCH /cloud/v1/ssh_keys/{project_id}/{ssh_key_id})).
    A key whose public key or name differs fails the module before any write; delete it first (O(state=absent)) or
    use another name.
  - O(state=absent) deletes the key (C(DELETE /cloud/v1/ssh_keys/{project_id}/{ssh_key_id})); a key already absent is
    no change.
  - A generated private key is answered once, by the create request. It is returned in RV(private_key) only, never in
    RV(ssh_key), RV(diff), messages or warnings. Ansible cannot hide one member of a result, so run that task with
    C(no_log=true), C(register) the result and save the key at once (see EXAMPLES).
  - When the answer of a create that generated the key pair is lost (a 5xx or a dropped connection after the service
    created it), the key is found by its name and the task B(fails) with C(changed=true), RV(ssh_key) (the key's id)
    and a message saying how to replace it (the private key cannot be read again, so nobody holds it). Delete the key
    (O(state=absent)) and run the task again to generate a new pair. A later run finds the key and changes nothing.
  - In check mode the module only reads; with C(--diff) it shows the key's name, public key and sharing before and
    after.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.storage_ssh_key
    description: The SSH keys of SFTP storages (another API).
  - module: gcore.platform.instance
    description: Instances are created with a key, by its name (O(gcore.platform.instance#module:ssh_key_name)).
"""

EXAMPLES = r"""
- name: Upload the deploy key to project 1
  gcore.platform.ssh_key:
    project_id: 1
    name: deploy-key
    public_key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB2v0nJ8oVbQ0r3mXq5nYwq9Hh9m2xRr8m4Sx3kQ9aZt deploy@ci

- name: Have the service generate a key pair (the private key is answered once)
  gcore.platform.ssh_key:
    project_id: 1
    name: generated-key
  register: generated
  no_log: true  # the result holds the private key

- name: Save the private key at once; it cannot be read again
  ansible.builtin.copy:
    dest: "{{ playbook_dir }}/generated-key.pem"
    content: "{{ generated.private_key }}"
    mode: "0600"
  when: generated.private_key is not none
  no_log: true

- name: Stop sharing the deploy key with the project's other users
  gcore.platform.ssh_key:
    project_id: 1
    name: deploy-key
    shared_in_project: false

- name: Delete the keys
  gcore.platform.ssh_key:
    project_id: 1
    name: "{{ item }}"
    state: absent
  loop: [deploy-key, generated-key]
"""

RETURN = r"""
ssh_key:
  description:
    - The key as read last (never a private key); V(null) when it is absent (deleted, or not created in check mode).
  returned: success
  type: dict
  contains:
    id:
      description: Key ID.
      type: str
      sample: 0b5c7a52-61f4-4c1a-9f0e-5a1d2c3b4e5f
    name:
      description: Key name, what an instance's C(ssh_key_name) refers to.
      type: str
      sample: deploy-key
    public_key:
      description: The public key.
      type: str
      sample: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB2v0nJ8oVbQ0r3mXq5nYwq9Hh9m2xRr8m4Sx3kQ9aZt deploy@ci
    fingerprint:
      description: The key's fingerprint.
      type: str
      sample: "SHA256:7q5wz1Vb0uqk3p4Hfa1JvN9o8yT2c6dLr5eXs0mQ3gA"
    state:
      description: V(ACTIVE), or V(DELETING) while it is being deleted.
      type: str
      sample: ACTIVE
    project_id:
      description: Project ID.
      type: int
      sample: 1
    shared_in_project:
      description: Whether every user of the project may use the key.
      type: bool
      sample: true
    created_at:
      description: Creation time.
      type: str
      sample: "2026-11-26T10:00:00Z"
private_key:
  description:
    - The private key the service generated, on the run that created a key without O(public_key); V(null) otherwise.
    - It cannot be read again. Run the task with C(no_log) and save it at once.
  returned: success, and on a failure after the key was created
  type: str
  sample: null
diff:
  description:
    - The key's name, public key and sharing before and after, with C(state). Never a private key.
  returned: success
  type: dict
  sample:
    before: {state: absent}
    after: {name: deploy-key, public_key: ssh-ed25519 AAAA... deploy@ci, state: present}
"""

import base64
import re
import struct

from ansible_collections.gcore.platform.plugins.module_utils._checks import Settled, ValidationError, require
from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudResource
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS
from ansible_collections.gcore.platform.plugins.module_utils._members import Member

KEY_PATTERN = r"(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(?:256|384|521)) [A-Za-z0-9+/]+={0,3}(?: [^\x00-\x1f\x7f]*)?"
TYPES = ("ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521")
KEY_RULE = "an OpenSSH public key: its type (ssh-ed25519, ssh-rsa or ecdsa-sha2-nistp256/384/521), a space, its base64 body " \
           "and an optional comment, on one line"


def check_key_type(public_key):
    """The key's type prefix is the type its base64 body names: the body starts with that string, length-prefixed."""
    prefix, body = public_key.split()[:2]
    try:  # only the type string is read: the length (4 bytes), then that many bytes
        length = struct.unpack(">I", base64.b64decode(body[:8])[:4])[0]
        head = body[:(4 + length + 2) // 3 * 4]
        embedded = base64.b64decode(head + "=" * (-len(head) % 4))[4:4 + length].decode("ascii")
    except (ValueError, struct.error, UnicodeDecodeError):
        embedded = ""
    if not embedded or len(embedded) != length:
        raise ValidationError("public_key: its body is not the base64 of an OpenSSH public key, which starts with the key's "
                              "type (not shown)")
    require(embedded == prefix, "public_key", "its type is %s but its body holds an %s key; give the key as the .pub file "
            "has it (not shown)" % (prefix, embedded if embedded in TYPES else "unknown"))


def key_body(public_key):
    """The type and base64 body of a public key (the comment is not compared)."""
    return " ".join((public_key or "").split()[:2])


def same_key(value, record):
    if record is not None and key_body(record.get("public_key")) != key_body(value):
        raise ValidationError("public_key: SSH key %r (id %s) holds another public key, and a key cannot be changed in place; "
                              "delete it first (state=absent) or use another name (nothing was sent)" % (record.get("name"), record.get("id")))
    return value.strip()


def same_name(value, record):
    if record is not None and record.get("name") != value:
        raise ValidationError("name: SSH key %s is named %r, not %r, and a key cannot be renamed; delete it and create it "
                              "again, or use another name (nothing was sent)" % (record.get("id"), record.get("name"), value))
    return value


class SshKey(CloudResource):
    kind = KINDS["ssh_key"]
    options = dict(
        name=dict(type="str", required=True),
        public_key=dict(type="str", no_log=False),
        shared_in_project=dict(type="bool"),
    )
    asynchronous = False  # every write answers the key
    lock = None
    key_lost = False  # a generated key whose answer was lost: the run fails, once
    read_after_update = False  # the PATCH answers the key (docs/api_reference.md section 15.5)
    members = (
        Member("name", want=same_name),
        Member("public_key", want=same_key, same=lambda desired, current: key_body(desired) == key_body(current)),
        Member("shared_in_project"),
    )

    def validate(self):
        super().validate()
        params = self.params
        key = params["public_key"]
        if key is not None:
            if "PRIVATE KEY" in key:
                self.module.no_log_values.add(key)  # a secret given by mistake: not even echoed in the module arguments
            require("PRIVATE KEY" not in key, "public_key", "holds a private key (not shown); give the public key, the .pub file")
            require(re.fullmatch(KEY_PATTERN, key.strip()), "public_key", "is not %s (not shown)" % KEY_RULE)
            check_key_type(key)

    def examine(self, record):
        self.result["private_key"] = None

    def create_body(self):
        params = self.params
        body = {"name": params["name"]}
        if params["public_key"] is not None:
            body["public_key"] = params["public_key"].strip()
        if params["shared_in_project"] is not None:
            body["shared_in_project"] = params["shared_in_project"]
        return body

    def answered(self, write, answer):
        """The private key a create without a public key answers, once: kept in ``private_key`` and nowhere else."""
        if write.kind == "create" and isinstance(answer, dict) and answer.get("private_key"):
            self.result["private_key"] = answer["private_key"]

    def returned(self, record):
        found = dict((key, value) for key, value in record.items() if key != "private_key") if self.exists_after(record) else None
        if self.ledger and self.params["public_key"] is None and not self.result.get("private_key") \
                and any(write.kind == "create" for write in self.ledger.confirmed) and not self.key_lost:
            self.key_lost = True  # a key nobody holds: the task fails (changed), naming the key and how to replace it
            ident = (found or {}).get("id")
            raise Settled("SSH key %r (id %s) was created, but the answer holding its generated private key was lost, and a "
                          "private key cannot be read again: nobody holds it. Replace it: delete the key (state: absent, "
                          "ssh_key_id: %s) and run this task again to generate a new pair, or give public_key"
                          % (self.params["name"], ident, ident), **{self.result_key: found})
        return found


def main():
    SshKey.main()


if __name__ == "__main__":
    main()
