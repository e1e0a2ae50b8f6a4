# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The module base: environment fallbacks and validation helpers."""

from __future__ import annotations

import pytest
from ansible.module_utils.errors import AnsibleFallbackNotFound

from ansible_collections.gcore.platform.plugins.module_utils._base import (
    ValidationError, check_length, check_pattern, check_range, check_uuid, env_fallback, require)


def test_env_fallback_skips_empty_variables(monkeypatch):
    monkeypatch.setenv("GCORE_API_URL", "")
    monkeypatch.setenv("GCORE_BASE_URL", "https://base.example")
    assert env_fallback("GCORE_API_URL", "GCORE_BASE_URL") == "https://base.example"


def test_env_fallback_not_found_when_all_empty_or_unset(monkeypatch):
    monkeypatch.setenv("GCORE_CLOUD_PROJECT_ID", "")
    monkeypatch.delenv("GCORE_CLOUD_REGION_ID", raising=False)
    with pytest.raises(AnsibleFallbackNotFound):
        env_fallback("GCORE_CLOUD_PROJECT_ID", "GCORE_CLOUD_REGION_ID")


@pytest.mark.parametrize("check, args, message", [
    (require, (False, "name", "is required to create"), "name: is required to create"),
    (check_uuid, ("network_id", "abc"), "network_id: 'abc' is not a UUID"),
    (check_range, ("threshold", 59, 60, 100), "threshold: 59 is out of range (must be 60 to 100)"),
    (check_range, ("client_id", 0, 1), "client_id: 0 is out of range (must be at least 1)"),
    (check_length, ("description", "x" * 101, 0, 100), "description: length 101 is out of range (must be 0 to 100)"),
    (check_pattern, ("name", "a", "^[a-z]{3}$", "3 lower-case letters"), "name: 'a' does not match 3 lower-case letters"),
])
def test_validation_messages_name_the_option_and_the_rule(check, args, message):
    with pytest.raises(ValidationError) as err:
        check(*args)
    assert str(err.value) == message


def test_valid_values_pass():
    require(True, "x", "rule")
    check_uuid("id", "3f0e1b5a-6c2d-4e8f-9a1b-2c3d4e5f6a7b")
    check_range("threshold", 60, 60, 100)
    check_length("name", "abc", 1, 3)
    check_pattern("name", "abc", "^[a-z]{3}$")
