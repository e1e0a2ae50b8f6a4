# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 11 through real module runs: the common options and every number are checked before any request,
the message names the option, and the API key shows in no form."""

from __future__ import annotations

import json

import pytest
import responses
from ansible.module_utils.testing import patch_module_args

from ansible_collections.gcore.platform.plugins.modules import notification_threshold, notification_threshold_info, price_preview

URL = "https://api.test"
KEY = "Zx9secretKEY42"
MODULES = {"notification_threshold": notification_threshold, "notification_threshold_info": notification_threshold_info,
           "price_preview": price_preview}
PRICE = {"flavor": "g1-standard-2-4", "names": ["a"], "interfaces": [{"type": "external"}], "project_id": 1, "region_id": 76}


def run(module, capsys, **args):
    with patch_module_args(dict(dict(api_key=KEY, api_url=URL), **args)):
        with pytest.raises(SystemExit):
            module.main()
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("module, args, option, text", [
    ("notification_threshold_info", {"api_url": "https://api.test/cloud"}, "api_url", "has a path (/cloud)"),
    ("notification_threshold_info", {"api_url": ""}, "api_url", "must not be empty"),
    ("notification_threshold_info", {"api_url": "api.test"}, "api_url", "has no scheme"),
    ("notification_threshold_info", {"api_url": "https://api.test?x=1"}, "api_url", "query"),
    ("notification_threshold_info", {"api_key": KEY[:4] + "\n" + KEY[4:]}, "api_key", "control character"),
    ("notification_threshold_info", {"api_key": KEY[:4] + "\u2013" + KEY[4:]}, "api_key", "non-ASCII"),
    ("notification_threshold_info", {"api_key": KEY[:4] + " " + KEY[4:]}, "api_key", "space"),
    ("notification_threshold_info", {"api_key": "\n"}, "api_key", "empty"),
    ("notification_threshold_info", {"api_timeout": 0}, "api_timeout", "1 to 3600"),
    ("notification_threshold_info", {"api_timeout": 3601}, "api_timeout", "1 to 3600"),
    ("notification_threshold_info", {"api_retries": -1}, "api_retries", "0 to 10"),
    ("notification_threshold_info", {"api_retries": 11}, "api_retries", "0 to 10"),
    ("notification_threshold_info", {"api_timeout": True}, "api_timeout", "a boolean"),
    ("notification_threshold_info", {"client_id": True}, "client_id", "a boolean"),
    ("notification_threshold", {"threshold": True}, "threshold", "a boolean"),
    ("price_preview", dict(PRICE, project_id=0), "project_id", "at least 1"),
    ("price_preview", dict(PRICE, region_id=-76), "region_id", "at least 1"),
    ("price_preview", dict(PRICE, max_price_per_month="nan"), "max_price_per_month", "not a finite number"),
    ("price_preview", dict(PRICE, max_price_per_month=float("inf")), "max_price_per_month", "not a finite number"),
    ("price_preview", dict(PRICE, max_price_per_month="-inf"), "max_price_per_month", "not a finite number"),
    ("price_preview", dict(PRICE, max_price_per_month=-1), "max_price_per_month", "at least 0"),
    ("price_preview", dict(PRICE, max_price_per_month=True), "max_price_per_month", "a boolean"),
    ("price_preview", dict(PRICE, volumes=[{"source": "image", "size": True}]), "volumes[0].size", "a boolean"),
])
@responses.activate
def test_refused_before_any_request_naming_the_option(capsys, module, args, option, text):
    args = dict({"client_id": 1} if module != "price_preview" else {}, **args)
    result = run(MODULES[module], capsys, **args)
    assert result.get("failed") is True, result
    assert result["msg"].startswith("Invalid input: %s: " % option), result["msg"]
    assert text in result["msg"], result["msg"]
    assert not responses.calls, "nothing may be sent"
    shown = json.dumps(result)
    for part in (KEY, KEY[:4], KEY[4:]):
        assert part not in shown


@responses.activate
def test_a_key_with_a_trailing_newline_is_sent_stripped_and_shown_nowhere(capsys):
    responses.get(URL + "/cloud/v2/client_quotas/1/notification_threshold", json={"threshold": 80})
    result = run(notification_threshold_info, capsys, api_key="  %s\n" % KEY, client_id=1, api_url=URL + "/")
    assert result.get("failed") is not True, result
    assert result["notification_threshold"] == {"threshold": 80}
    assert responses.calls[0].request.headers["Authorization"] == "apikey " + KEY
    assert responses.calls[0].request.url == URL + "/cloud/v2/client_quotas/1/notification_threshold"
    assert KEY not in json.dumps(result)


@responses.activate
def test_a_budget_of_nan_never_reaches_the_comparison(capsys):
    # before issue 11: the request was sent, then Decimal("nan") comparison crashed with InvalidOperation
    responses.post(URL + "/cloud/v2/pricing/1/76/instances", json={"currency_code": "USD", "total_price_per_month": "10"})
    result = run(price_preview, capsys, **dict(PRICE, max_price_per_month="nan"))
    assert result["failed"] is True and "max_price_per_month" in result["msg"]
    assert not responses.calls
