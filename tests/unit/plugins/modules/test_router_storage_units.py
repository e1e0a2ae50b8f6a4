# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Unit checks that the integration stories also cover: router name rules, storage credential removal."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.modules import router, storage

from harness import fail_message


@pytest.mark.parametrize("name", ["-starts-with-dash", "ends-with-dash-", "ab", "r" * 64, "back\\slash"])
def test_router_name_rules_fail_before_any_request(name):
    message = fail_message(router.Router, {"name": name, "project_id": 1, "region_id": 76})
    assert message.startswith("Invalid input: name:")


def test_storage_record_loses_every_credential_member_at_any_depth():
    record = {
        "id": 7, "name": "7-files", "type": "sftp", "has_password": True, "ssh_key_ids": [3, 4],
        "credentials": {"keys": [{"id": 1, "name": "k"}], "s3": {"access_key": "A", "secret_key": "S"}, "sftp_password": "P"},
        "nested": [{"Secret_Key": "S2", "keep": 1}, {"PASSWORD": "P2"}],
    }
    clean = storage.without_credentials(record)
    assert clean == {"id": 7, "name": "7-files", "type": "sftp", "has_password": True, "ssh_key_ids": [3, 4],
                     "nested": [{"keep": 1}, {}]}
    assert record["credentials"]["sftp_password"] == "P", "the input is not changed"
