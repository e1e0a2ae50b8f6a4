# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Test-only lookup ``pem``: ``lookup('pem', common_name)`` is a secret's PEM options, a certificate made now (tests/pem.py:
self-signed, its own chain, the fixed test key; the certificate holds the mark tests/integration/conftest.py looks for).
A story sets it once as a fact (a variable would make a new certificate each time it is templated)."""

from __future__ import annotations

from ansible.plugins.lookup import LookupBase

import pem


class LookupModule(LookupBase):
    def run(self, terms, variables=None, **kwargs):
        return [pem.payload(*(str(term) for term in terms))]
