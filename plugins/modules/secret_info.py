#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: secret_info
short_description: Read Gcore Cloud secrets (TLS certificates for load-balancer listeners)
version_added: 1.0.0
description:
  - Reads the secrets of a Gcore Cloud project and region, and changes nothing. The service never returns a secret's
    certificate, chain or key, only its record.
  - Reads one secret by O(secret_id), the secrets named exactly O(name), or every secret of the project and region.
author:
  - gcore.platform developers (@gcore-platform)
options:
  secret_id:
    description:
      - ID (UUID) of the secret to read, in any letter case.
      - Mutually exclusive with O(name).
    type: str
  name:
    description:
      - Exact name of the secrets to read (not empty).
      - Secret names are not unique, so more than one secret may be returned.
      - Mutually exclusive with O(secret_id).
    type: str
notes:
  - With O(secret_id), reads that secret with C(GET /cloud/v1/secrets/{project_id}/{region_id}/{secret_id}); a secret
    that does not exist gives an empty RV(secrets).
  - With O(name), reads every page of C(GET /cloud/v1/secrets/{project_id}/{region_id}) and keeps the secrets whose
    name is exactly O(name) (the service has no name filter).
  - With neither, returns every secret of the project in the region, reading every page.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.attributes.INFO_MODULE
seealso:
  - module: gcore.platform.secret
  - module: gcore.platform.load_balancer
"""

EXAMPLES = r"""
- name: Every secret of project 1 in region 76
  gcore.platform.secret_info:
    project_id: 1
    region_id: 76
  register: all_secrets

- name: Their names and when they expire
  ansible.builtin.debug:
    msg: "{{ all_secrets.secrets | items2dict(key_name='name', value_name='expiration') }}"

- name: The secrets named exactly seed-cert
  gcore.platform.secret_info:
    project_id: 1
    region_id: 76
    name: seed-cert
  register: named

- name: One secret by its ID (an empty list when it does not exist)
  gcore.platform.secret_info:
    project_id: 1
    region_id: 76
    secret_id: "{{ named.secrets[0].id }}"
  when: named.secrets | length > 0
"""

RETURN = r"""
secrets:
  description:
    - The secrets found, as the service returns them, in the service's order (every page read); never their payload.
    - Empty when no secret matches, or when the secret O(secret_id) does not exist.
    - Each item is a secret record as M(gcore.platform.secret) returns in RV(gcore.platform.secret#module:secret).
  returned: success
  type: list
  elements: dict
  contains:
    id:
      description: The secret's ID, to give as O(gcore.platform.load_balancer#module:listeners[].secret).
      type: str
      sample: 5ec7e700-0000-4000-8000-000000000001
    name:
      description: The secret's name.
      type: str
      sample: seed-cert
    status:
      description: Status of the secret.
      type: str
      sample: ACTIVE
    expiration:
      description: When the secret expires, or V(null).
      type: str
      sample: "2027-01-31T23:59:59+00:00"
"""

from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudInfo
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS


class SecretInfo(CloudInfo):
    kind = KINDS["secret"]


def main():
    SecretInfo.main()


if __name__ == "__main__":
    main()
