# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The module base: environment fallbacks and validation helpers."""

from __future__ import annotations

import pytest
from ansible.module_utils.errors import AnsibleFallbackNotFound

from ansible_collections.gcore.platform.plugins.module_utils._checks import (
    ValidationError,
    check_api_url,
    check_length,
    check_numbers,
    check_pattern,
    check_range,
    check_uuid,
    clean_api_key,
    env_fallback,
    require,
)


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


# ---- issue 11: the common options and numbers ------------------------------------------------

KEY = "Zx9-secret_KEY.42"


@pytest.mark.parametrize("given", [KEY, KEY + "\n", "  %s\r\n" % KEY, "\t" + KEY])
def test_api_key_surrounding_whitespace_is_removed(given):
    assert clean_api_key(given) == KEY


@pytest.mark.parametrize("given, problem", [
    (KEY[:5] + "\n" + KEY[5:], "control character"),
    (KEY[:5] + "\x00" + KEY[5:], "control character"),
    (KEY[:5] + "\x7f" + KEY[5:], "control character"),
    (KEY[:5] + " " + KEY[5:], "space"),
    (KEY[:5] + "\u2013" + KEY[5:], "non-ASCII"),  # outside latin-1: a codec error in the HTTP library
    (KEY[:5] + "\u00e9" + KEY[5:], "non-ASCII"),  # inside latin-1: sent as is, refused by the service
    ("", "empty"), (" \n", "empty"), (None, "empty"),
])
def test_api_key_refused_naming_the_option_and_showing_none_of_it(given, problem):
    with pytest.raises(ValidationError) as err:
        clean_api_key(given)
    message = str(err.value)
    assert message.startswith("api_key: ") and problem in message
    for part in (KEY[:5], KEY[5:], repr(KEY[5:])[1:-1]):
        assert part not in message


@pytest.mark.parametrize("url", [
    "https://api.gcore.com", "https://api.gcore.com/", "http://127.0.0.1:8080", "http://127.0.0.1:8080/",
    "https://[::1]:8443", "HTTPS://API.gcore.com", "https://api.gcore.com.",
])
def test_api_url_accepted(url):
    check_api_url(url)


@pytest.mark.parametrize("url, rule", [
    ("https://api.gcore.com/cloud", "has a path (/cloud)"),  # the form another Gcore tool uses
    ("https://api.gcore.com//", "has a path"),
    ("https://api.gcore.com/?a=1", "query or a fragment"),
    ("https://api.gcore.com?", "query or a fragment"),
    ("https://api.gcore.com#top", "query or a fragment"),
    ("ftp://api.gcore.com", "scheme 'ftp' is not supported"),
    ("api.gcore.com", "has no scheme"),
    ("api.gcore.com:443", "has no scheme"),
    ("", "must not be empty"), ("  ", "must not be empty"), (None, "must not be empty"),
    ("https://", "no valid host"),
    ("https://:443", "no valid host"),
    ("https://bad_host.example", "no valid host"),
    ("https://999.0.0.1", "no valid host"),
    ("https://api.gcore.com:0", "invalid port"),
    ("https://api.gcore.com:", "invalid port"),
    ("https://api.gcore.com:70000", "not a valid URL"),
    ("https://api.gcore.com\n", "control"),
    ("https://api.gcore.com /", "space"),
])
def test_api_url_refused_naming_the_option_and_the_rule(url, rule):
    with pytest.raises(ValidationError) as err:
        check_api_url(url)
    assert str(err.value).startswith("api_url: ") and rule in str(err.value)


def test_api_url_with_user_info_is_refused_without_showing_it():
    with pytest.raises(ValidationError) as err:
        check_api_url("https://admin:hunter2@api.gcore.com")
    assert str(err.value).startswith("api_url: ") and "user info" in str(err.value)
    assert "hunter2" not in str(err.value)


@pytest.mark.parametrize("value, text", [
    (float("nan"), "not a finite number"), (float("inf"), "not a finite number"), (float("-inf"), "not a finite number"),
    (True, "not a number"), (False, "not a number"), ("5", "not a number"),
])
def test_check_range_refuses_what_is_not_a_finite_number(value, text):
    with pytest.raises(ValidationError) as err:
        check_range("max_price_per_month", value, low=0)
    assert str(err.value).startswith("max_price_per_month: ") and text in str(err.value)


@pytest.mark.parametrize("value", ["abc\n", "\nabc", "ab"])
def test_check_pattern_matches_the_whole_value(value):
    # with re.search, "^[a-z]{3}$" lets "abc\n" through: "$" matches before a final newline
    with pytest.raises(ValidationError):
        check_pattern("name", value, "^[a-z]{3}$")


SPEC = dict(
    threshold=dict(type="int"),
    budget=dict(type="float"),
    ids=dict(type="list", elements="int"),
    rule=dict(type="dict", options=dict(block=dict(type="dict", options=dict(status_code=dict(type="int"))))),
    volumes=dict(type="list", elements="dict", options=dict(size=dict(type="int", aliases=["gb"]))),
)


@pytest.mark.parametrize("raw, params, option, text", [
    ({"threshold": True}, {"threshold": True}, "threshold", "a boolean"),
    ({"budget": True}, {"budget": 1.0}, "budget", "a boolean"),  # Ansible's float type turns true into 1.0
    ({"budget": "nan"}, {"budget": float("nan")}, "budget", "not a finite number"),
    ({"budget": "-inf"}, {"budget": float("-inf")}, "budget", "not a finite number"),
    ({"ids": [1, True]}, {"ids": [1, True]}, "ids[1]", "a boolean"),
    ({"rule": {"block": {"status_code": True}}}, {"rule": {"block": {"status_code": True}}}, "rule.block.status_code", "a boolean"),
    ({"volumes": [{"size": 1}, {"gb": True}]}, {"volumes": [{"size": 1}, {"size": True}]}, "volumes[1].size", "a boolean"),
])
def test_numbers_are_numbers_everywhere(raw, params, option, text):
    full = dict((name, None) for name in SPEC)
    full.update(params)
    with pytest.raises(ValidationError) as err:
        check_numbers(SPEC, raw, full)
    assert str(err.value).startswith(option + ": ") and text in str(err.value)


def test_real_numbers_pass():
    params = {"threshold": 60, "budget": 1.5, "ids": [1, 2], "rule": {"block": {"status_code": 403}}, "volumes": [{"size": 1}]}
    check_numbers(SPEC, params, params)
    check_numbers(SPEC, {}, dict((name, None) for name in SPEC))
