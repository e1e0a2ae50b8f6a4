# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Test-only lookup ``sim``: ``lookup('sim', sim_url, 'log')`` is the simulator's ``GET <url>/_sim/log`` as data.

targets/sim_vars.yml defines sim_requests, sim_writes, sim_state and sim_seeds with it; the playbook fixture of
tests/integration/conftest.py puts this folder on ANSIBLE_LOOKUP_PLUGINS. The stories template those variables
each time they name them (hundreds of times a run): a plain HTTP GET here costs a third of what
``ansible.builtin.url`` does (that one builds a TLS context for every call, even for http://).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from ansible.errors import AnsibleError
from ansible.plugins.lookup import LookupBase


class LookupModule(LookupBase):
    def run(self, terms, variables=None, **kwargs):
        url, view = (str(term) for term in terms)
        try:
            with urllib.request.urlopen("%s/_sim/%s" % (url.rstrip("/"), view), timeout=60) as response:  # nosec B310: the local simulator
                return [json.loads(response.read().decode("utf-8"))]
        except (urllib.error.URLError, OSError, ValueError) as error:
            raise AnsibleError("simulator %s: %s" % (view, error)) from error
