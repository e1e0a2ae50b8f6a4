# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""router_info over HTTP (responses): by id (404 is an empty list), by exact name over every page, every router."""

from __future__ import annotations

import json
from unittest import mock

import pytest
import responses
from ansible.module_utils.testing import patch_module_args

from ansible_collections.gcore.platform.plugins.modules import router_info

URL = "https://api.test"
LIST = URL + "/cloud/v1/routers/1/76"
RID = "e1a7c0de-0000-4000-8000-000000000001"


def run(args, check=False):
    args = dict(args, api_key="unit-test-key", api_url=URL, project_id=1, region_id=76, _ansible_check_mode=check)
    with patch_module_args(args), mock.patch("sys.stdout") as stdout:
        with pytest.raises(SystemExit):
            router_info.RouterInfo.main()
    return json.loads("".join(call.args[0] for call in stdout.write.call_args_list))


@responses.activate
def test_by_id():
    responses.get(LIST + "/" + RID, json={"id": RID, "name": "edge"})
    result = run({"id": RID})
    assert result["changed"] is False and result["routers"] == [{"id": RID, "name": "edge"}]


@responses.activate
def test_an_id_that_does_not_exist_is_an_empty_list():
    responses.get(LIST + "/" + RID, status=404, json={"message": "Router not found"})
    result = run({"id": RID}, check=True)
    assert result["routers"] == [] and not result.get("failed")


@responses.activate
def test_another_error_fails_with_the_service_message():
    responses.get(LIST + "/" + RID, status=403, json={"message": "Forbidden project"})
    result = run({"id": RID})
    assert result["failed"] is True and "Forbidden project" in result["msg"] and result["api_error"]["status"] == 403


@responses.activate
def test_by_name_keeps_exact_matches_of_every_page_in_order():
    page = [{"id": str(n), "name": "edge" if n % 3 == 0 else "edge-%s" % n} for n in range(1000)]
    responses.get(LIST, json={"count": 1002, "results": page})
    responses.get(LIST, json={"count": 1002, "results": [{"id": "x", "name": "edge"}, {"id": "y", "name": "my-edge"}]})
    result = run({"name": "edge"})
    assert [item["id"] for item in result["routers"]] == [str(n) for n in range(0, 1000, 3)] + ["x"]
    assert {call.request.params.get("name") for call in responses.calls} == {"edge"}, "the list filter narrows every page"
    assert {call.request.params["limit"] for call in responses.calls} == {"1000"}


@responses.activate
def test_neither_reads_every_router():
    responses.get(LIST, json={"count": 2, "results": [{"id": "a", "name": "one"}, {"id": "b", "name": "two"}]})
    result = run({})
    assert [item["id"] for item in result["routers"]] == ["a", "b"]
    assert "name" not in responses.calls[0].request.params


@pytest.mark.parametrize("args, message", [
    ({"id": "router-1"}, "Invalid input: id: 'router-1' is not a UUID"),
    ({"name": "ab"}, "Invalid input: name: length 2"),
    ({"name": "edge\x01x"}, "Invalid input: name:"),
    ({"id": RID, "name": "edge"}, "parameters are mutually exclusive: id|name"),
])
@responses.activate
def test_bad_input_sends_nothing(args, message):
    result = run(args)
    assert result["failed"] is True and message in result["msg"], result["msg"]
    assert len(responses.calls) == 0
