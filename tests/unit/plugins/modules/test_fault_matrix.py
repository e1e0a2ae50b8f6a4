# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault matrices' helper (``harness.Matrix``) can fail: a client that sends every write twice fails a row of the
network matrix and a row of the fleet's (a plan of members), and so does a run that reports no change after an applied
write."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.module_utils import _client
from test_instance_faults import FLEET_MATRIX
from test_network_faults import MATRIX


@pytest.mark.parametrize("matrix, plan", [(MATRIX, "network update"), (FLEET_MATRIX, "create stopped")])
def test_a_write_sent_twice_fails_its_row(server, monkeypatch, matrix, plan):
    request = _client.Client.request

    def twice(self, method, path, *args, **kwargs):
        if method != "GET":
            try:
                request(self, method, path, *args, **kwargs)
            except _client.ApiError:
                pass
        return request(self, method, path, *args, **kwargs)
    monkeypatch.setattr(_client.Client, "request", twice)
    with pytest.raises(AssertionError, match="a write was sent twice"):
        matrix.check_fault(server, plan, 0, "rejected 400")


def test_a_run_that_hides_an_applied_write_fails_its_row(server, monkeypatch):
    monkeypatch.setattr(MATRIX, "run", lambda server, row, **extra: dict(type(MATRIX).run(MATRIX, server, row, **extra), changed=False))
    with pytest.raises(AssertionError):
        MATRIX.check_fault(server, "network create", 0, "500 after applying")
