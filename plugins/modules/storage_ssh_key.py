#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: storage_ssh_key
short_description: Add and remove SSH keys for Gcore SFTP storages, idempotently
version_added: 1.0.0
description:
  - Manages one SSH public key of the account through the v4 API, C(/storage/v4/ssh_keys); link keys to an SFTP storage
    with the O(gcore.platform.storage#module:ssh_key_ids) option of M(gcore.platform.storage).
  - These are the SFTP storages' keys, another API than the keys of cloud instances; manage an instance's key (a cloud
    project's C(/cloud/v1/ssh_keys)) with M(gcore.platform.ssh_key).
  - Found by its exact O(name); a key is created or deleted, never changed (a different public key fails).
author:
  - gcore.platform developers (@gcore-platform)
options:
  name:
    description:
      - Name of the key, its identity (exact). Must not be empty or hold control characters.
    type: str
    required: true
  public_key:
    description:
      - The OpenSSH public key - its type (C(ssh-ed25519), C(ssh-rsa) or C(ecdsa-sha2-nistp256)/C(384)/C(521)), its
        base64 body and an optional comment - as in an C(.pub) file. Required to create.
      - Compared by type and body; the comment may differ. Never a private key (refused without showing it).
    type: str
  state:
    description:
      - V(present) adds the key; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
notes:
  - The key is identified by its exact O(name), searched for over every page of C(GET /storage/v4/ssh_keys).
  - A key that does not exist is created (C(POST /storage/v4/ssh_keys)). The API cannot change a key, so a key whose
    public key differs fails the task and nothing is sent; delete it first (O(state=absent)) or use another name.
  - With O(state=absent) the key is deleted (C(DELETE /storage/v4/ssh_keys/{id})); a key already absent is no change.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.storage
  - module: gcore.platform.ssh_key
    description: The SSH keys of a cloud project, for instances (another API).
"""

EXAMPLES = r"""
- name: Add the deploy key
  gcore.platform.storage_ssh_key:
    name: deploy
    public_key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB2v0nJ8oVbQ0r3mXq5nYwq9Hh9m2xRr8m4Sx3kQ9aZt deploy@ci
  register: deploy_key

- name: Let the deploy key into an SFTP storage
  gcore.platform.storage:
    state: present
    type: sftp
    storage_id: 1235
    ssh_key_ids:
      - "{{ deploy_key.ssh_key.id }}"

- name: Remove a key
  gcore.platform.storage_ssh_key:
    name: ci-runner
    state: absent
"""

RETURN = r"""
ssh_key:
  description:
    - The key as read last (C(SSHKeyV4)); V(null) when it is absent (deleted, or not created in check mode).
  returned: success
  type: dict
  contains:
    id:
      description: Key ID, for O(gcore.platform.storage#module:ssh_key_ids).
      type: int
      sample: 11
    name:
      description: Key name.
      type: str
      sample: deploy
    public_key:
      description: The public key.
      type: str
      sample: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB2v0nJ8oVbQ0r3mXq5nYwq9Hh9m2xRr8m4Sx3kQ9aZt deploy@ci
    created_at:
      description: Creation time.
      type: str
      sample: "2025-08-05T09:15:00Z"
diff:
  description: With C(--diff), the key's name and public key before and after, with C(state=present), or just C(state=absent).
  returned: success
  type: dict
  sample:
    before: {state: absent}
    after: {name: deploy, public_key: ssh-ed25519 AAAA... deploy@ci, state: present}
"""

import re

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError, require
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._resource import GcoreResourceModule

CONTROL = re.compile(r"[\x00-\x1f\x7f]")
KEY_PATTERN = r"(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(?:256|384|521)) [A-Za-z0-9+/]+={0,3}(?: [^\x00-\x1f\x7f]*)?"
KEY_RULE = "an OpenSSH public key: its type (ssh-ed25519, ssh-rsa or ecdsa-sha2-nistp256/384/521), a space, its base64 body " \
           "and an optional comment, on one line"


def key_body(public_key):
    """The type and base64 body of a public key (the comment is not compared)."""
    return " ".join((public_key or "").split()[:2])


def same_key(option, value, record):
    if record is not None and key_body(record.get("public_key")) != key_body(value):
        raise ValidationError("%s: SSH key %r (id %s) holds another public key, and a key cannot be changed in place; delete it "
                              "first (state=absent) or use another name (nothing was sent)" % (option, record.get("name"), record.get("id")))
    return value.strip()


class StorageSshKey(GcoreResourceModule):
    argument_spec = dict(
        name=dict(type="str", required=True),
        public_key=dict(type="str", no_log=False),
        state=dict(type="str", choices=["present", "absent"], default="present"),
    )

    # ---- the resource: one SSH key, by exact name over every page ----
    noun = "SSH key"
    title = "SSH key"
    result_key = "ssh_key"
    scope = "the account"
    paths = dict(list="/storage/v4/ssh_keys", item="/storage/v4/ssh_keys/{id}")
    id_option = None
    name_option = "name"
    members = (
        Member("name"),
        Member("public_key", want=lambda value, record: same_key("public_key", value, record),
               same=lambda desired, current: key_body(desired) == key_body(current)),
    )
    required_to_create = ("public_key",)

    def validate(self):
        super().validate()
        params = self.params
        require(params["name"].strip(), "name", "must not be empty or only whitespace")
        require(not CONTROL.search(params["name"]), "name", "must not hold control characters (such as a newline or a tab)")
        key = params["public_key"]
        if key is not None:
            if "PRIVATE KEY" in key:
                self.hide(key)
                require(False, "public_key", "holds a private key (not shown); give the public key, the .pub file")
            require(re.fullmatch(KEY_PATTERN, key.strip()), "public_key", "is not %s (not shown)" % KEY_RULE)

    def hide(self, secret):
        """Mask a secret given in an option that is not ``no_log`` wherever Ansible prints the module's arguments (the
        result's ``invocation``, a registered result, ``-vvv``), as given and stripped (AnsibleModule's no-log values)."""
        self.module.no_log_values.update((secret, secret.strip()))

    def create_body(self):
        return {"name": self.params["name"], "public_key": self.params["public_key"].strip()}


def main():
    StorageSshKey.main()


if __name__ == "__main__":
    main()
