# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The client: retry branches, error parsing, pagination. Every test asserts the exact calls made."""

from __future__ import annotations

import email.utils
import http.server
import json
import ssl
import threading
import types
from unittest import mock

import pytest
import requests
import responses
from urllib3.exceptions import ConnectTimeoutError, MaxRetryError, ProtocolError
from urllib3.exceptions import SSLError as Urllib3SSLError
from urllib3.response import HTTPResponse

from ansible_collections.gcore.platform.plugins.module_utils import _client
from ansible_collections.gcore.platform.plugins.module_utils._client import ApiError, Client, error_detail, retry_policy

URL = "https://api.test"
KEY = "unit-test-key"


@pytest.fixture
def client():
    return Client(api_key=KEY, api_url=URL, timeout=7, retries=3)


@pytest.fixture(autouse=True)
def no_sleep():
    with mock.patch("time.sleep") as sleep:
        yield sleep


def calls():
    return [(call.request.method, call.request.url) for call in responses.calls]


@responses.activate
def test_headers_timeout_and_body(client):
    responses.get(URL + "/cloud/v1/x", json={"a": 1})
    with mock.patch.object(client.session, "request", wraps=client.session.request) as request:
        assert client.get("/cloud/v1/x") == {"a": 1}
    assert request.call_args.kwargs["timeout"] == 7
    sent = responses.calls[0].request.headers
    assert sent["Authorization"] == "apikey " + KEY
    assert sent["User-Agent"] == "gcore.platform-ansible-collection/%s" % _client.COLLECTION_VERSION


@responses.activate
def test_get_retried_on_5xx_then_succeeds(client):
    for status in (502, 503, 504):
        responses.get(URL + "/r", status=status)
    responses.get(URL + "/r", json={"ok": True})
    assert client.get("/r") == {"ok": True}
    assert calls() == [("GET", URL + "/r")] * 4


@responses.activate
def test_get_gives_up_after_api_retries(client):
    for _attempt in range(4):
        responses.get(URL + "/r", status=503, json={"message": "busy"})
    with pytest.raises(ApiError) as err:
        client.get("/r")
    assert len(responses.calls) == 4
    assert err.value.status == 503
    assert err.value.detail == "busy"


@responses.activate
def test_get_500_is_not_retried(client):
    responses.get(URL + "/r", status=500, json={"message": "boom"})
    with pytest.raises(ApiError):
        client.get("/r")
    assert len(responses.calls) == 1


@responses.activate
def test_create_post_not_retried_on_5xx(client):
    responses.post(URL + "/routers", status=503)
    responses.post(URL + "/routers", json={"tasks": ["t"]})
    with pytest.raises(ApiError) as err:
        client.request("POST", "/routers", json={"name": "r"})
    assert calls() == [("POST", URL + "/routers")]
    assert err.value.status == 503


@pytest.mark.parametrize("method", ["POST", "PATCH", "PUT", "DELETE"])
@responses.activate
def test_write_retried_on_429(client, method):
    responses.add(method, URL + "/w", status=429, headers={"Retry-After": "2"})
    responses.add(method, URL + "/w", json={"tasks": []})
    assert client.request(method, "/w", json={}) == {"tasks": []}
    assert calls() == [(method, URL + "/w")] * 2


@responses.activate
def test_read_only_post_retried_on_502(client):
    responses.post(URL + "/check_limits", status=502)
    responses.post(URL + "/check_limits", json={"cpu_count_limit": 1})
    assert client.request("POST", "/check_limits", json={}, safe=True) == {"cpu_count_limit": 1}
    assert len(responses.calls) == 2


@responses.activate
def test_no_retry_when_api_retries_is_zero():
    client = Client(api_key=KEY, api_url=URL, retries=0)
    responses.get(URL + "/r", status=429)
    with pytest.raises(ApiError):
        client.get("/r")
    assert len(responses.calls) == 1


def _response(status, headers):
    return HTTPResponse(body=b"", headers=headers, status=status, preload_content=False)


def test_retry_after_seconds_is_honoured(no_sleep):
    policy = retry_policy(3, safe=True)
    policy.sleep(_response(429, {"Retry-After": "7"}))
    assert 7.0 <= no_sleep.call_args.args[0] <= 8.0


def test_retry_after_http_date_is_honoured(no_sleep, monkeypatch):
    now = 1800000000.0  # a whole second, on a stub clock: the wait does not depend on how fast this test runs
    monkeypatch.setattr(_client, "time", types.SimpleNamespace(time=lambda: now, monotonic=lambda: 0.0))
    policy = retry_policy(3, safe=False)
    policy.sleep(_response(429, {"Retry-After": email.utils.formatdate(now + 20, usegmt=True)}))
    waited = no_sleep.call_args.args[0]
    assert 20 <= waited <= 21, "the time to the date named, plus at most 1 s of jitter"


def test_retry_after_is_capped_at_60s(no_sleep):
    retry_policy(3, safe=True).sleep(_response(429, {"Retry-After": "3600"}))
    no_sleep.assert_called_once_with(60.0)


def test_backoff_without_retry_after_grows_capped_with_jitter():
    policy = retry_policy(10, safe=True)
    waits = []
    for _attempt in range(6):
        policy = policy.increment(method="GET", url="/r", response=_response(502, {}))
        waits.append(policy.get_backoff_time())
    for number, waited in enumerate(waits):
        base = min(0.5 * 2 ** number, 8.0)
        assert 0.75 * base <= waited <= base
    assert waits[-1] <= 8.0


def test_write_not_retried_on_503_even_with_retry_after():
    policy = retry_policy(3, safe=False)
    assert policy.is_retry("POST", 503, has_retry_after=True) is False
    assert policy.is_retry("POST", 429, has_retry_after=True) is True


def test_write_not_retried_after_the_request_was_sent():
    """A dropped connection after sending (a read error) may have applied the write."""
    policy = retry_policy(3, safe=False)
    with pytest.raises(MaxRetryError):
        policy.increment(method="POST", url="/w", error=ProtocolError("Connection aborted"))


def test_write_retried_when_connection_failed_before_sending():
    policy = retry_policy(3, safe=False)
    policy = policy.increment(method="POST", url="/w", error=ConnectTimeoutError("connect timeout"))
    assert policy.connect == 2


def test_get_retried_after_a_dropped_connection():
    policy = retry_policy(3, safe=True)
    policy = policy.increment(method="GET", url="/r", error=ProtocolError("Connection aborted"))
    assert policy.read == 2


@pytest.mark.parametrize("body, detail", [
    ({"type": "t", "title": "Not Found", "status": 404, "detail": "Rule 5 not found"}, "Rule 5 not found"),
    ({"type": "t", "title": "Unprocessable", "status": 422, "detail": "Invalid body",
      "errors": [{"loc": ["body", "conditions", 0, "ip"], "detail": "not an IP"}]},
     "Invalid body; body.conditions.0.ip: not an IP"),
    ({"title": "Forbidden", "status": 403, "type": "t", "detail": None}, "Forbidden"),
    ({"exception_class": "NotFound", "message": "Router not found", "request_id": "r"}, "Router not found"),
    ({"code": 409, "message": "Router is locked"}, "Router is locked"),
    ({"error": "storage 7 does not exist"}, "storage 7 does not exist"),
    ({"exception_class": "BadRequest"}, "BadRequest"),
    ("<html>Bad gateway</html>", "<html>Bad gateway</html>"),
    ({}, None),
])
def test_error_shapes(body, detail):
    assert error_detail(body) == detail


@responses.activate
def test_api_error_carries_status_method_path_body(client):
    body = {"error": "storage 7 does not exist"}
    responses.delete(URL + "/storage/provisioning/v1/storage/7", status=400, json=body)
    with pytest.raises(ApiError) as err:
        client.request("DELETE", "/storage/provisioning/v1/storage/7")
    assert err.value.as_dict() == {"status": 400, "method": "DELETE", "path": "/storage/provisioning/v1/storage/7", "body": body}
    assert err.value.message == "DELETE /storage/provisioning/v1/storage/7 failed with HTTP 400: storage 7 does not exist"
    assert KEY not in err.value.message


@pytest.mark.parametrize("status, ambiguous", [(None, True), (500, True), (503, True), (409, False), (404, False), (400, False)])
def test_a_write_may_have_been_applied_only_without_an_answer_or_after_a_5xx(status, ambiguous):
    assert ApiError("POST", "/r", status, "x").ambiguous is ambiguous


@responses.activate
def test_get_or_none_on_404(client):
    responses.get(URL + "/r/1", status=404, json={"message": "gone"})
    assert client.get_or_none("/r/1") is None


def _page(start, size):
    return {"limit": 100, "offset": start, "count": size, "results": [{"id": start + n} for n in range(size)]}


@responses.activate
def test_paginate_reads_every_page_until_a_short_one(client):
    responses.get(URL + "/list", json=_page(0, 100), match=[responses.matchers.query_param_matcher({"limit": "100", "offset": "0"})])
    responses.get(URL + "/list", json=_page(100, 100), match=[responses.matchers.query_param_matcher({"limit": "100", "offset": "100"})])
    responses.get(URL + "/list", json=_page(200, 34), match=[responses.matchers.query_param_matcher({"limit": "100", "offset": "200"})])
    items = list(client.paginate("/list"))
    assert [item["id"] for item in items] == list(range(234))
    assert len(responses.calls) == 3


@responses.activate
def test_paginate_full_last_page_needs_one_empty_page(client):
    responses.get(URL + "/list", json=_page(0, 100))
    responses.get(URL + "/list", json=_page(100, 0))
    assert len(list(client.paginate("/list"))) == 100
    assert [call.request.params["offset"] for call in responses.calls] == ["0", "100"]


@responses.activate
def test_paginate_keeps_filters_and_repeated_keys(client):
    responses.get(URL + "/list", json=_page(0, 3))
    list(client.paginate("/list", params={"name": "a*", "domain_ids": [1, 2]}, page_size=50))
    assert responses.calls[0].request.url == URL + "/list?name=a%2A&domain_ids=1&domain_ids=2&limit=50&offset=0"


@responses.activate
def test_paginate_stops_at_the_offset_cap(client):
    for start in (0, 2, 4):
        responses.get(URL + "/list", json={"count": 2, "results": [{"id": start}, {"id": start + 1}]})
    capped = []
    items = list(client.paginate("/list", page_size=2, max_offset=4, on_cap=capped.append))
    assert [call.request.params["offset"] for call in responses.calls] == ["0", "2", "4"]
    assert len(items) == 6
    assert capped == [6]


@responses.activate
def test_paginate_max_results(client):
    responses.get(URL + "/list", json=_page(0, 100))
    responses.get(URL + "/list", json=_page(100, 20))
    items = list(client.paginate("/list", max_results=120))
    assert len(items) == 120
    assert [call.request.params["limit"] for call in responses.calls] == ["100", "20"]


@responses.activate
def test_validate_certs_false_wins_over_ca_bundle_in_the_environment(monkeypatch):
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", "/etc/ssl/certs/ca-certificates.crt")
    responses.get(URL + "/r", json={})
    Client(api_key=KEY, api_url=URL, validate_certs=False).get("/r")
    Client(api_key=KEY, api_url=URL).get("/r")
    assert [call.request.req_kwargs["verify"] for call in responses.calls] == [False, "/etc/ssl/certs/ca-certificates.crt"]


def _stub_clock(monkeypatch, first_page):
    """The paginator's clock: the first page takes ``first_page`` seconds, nothing else takes any time."""
    readings = [0.0, first_page]
    monkeypatch.setattr(_client, "time", types.SimpleNamespace(monotonic=lambda: readings.pop(0) if len(readings) > 1 else readings[0]))


@responses.activate
def test_paginate_near_service_reads_one_page_at_a_time(client, monkeypatch):
    """A first page just under SLOW_PAGE: every page in turn, none past the end (as paginate promises)."""
    def page(request):
        offset = int(request.params["offset"])
        return 200, {}, json.dumps(_page(offset, max(0, min(100, 1234 - offset))))

    responses.add_callback(responses.GET, URL + "/list", callback=page)
    _stub_clock(monkeypatch, _client.SLOW_PAGE * 0.99)
    assert [item["id"] for item in client.paginate("/list")] == list(range(1234))
    assert [int(call.request.params["offset"]) for call in responses.calls] == [100 * n for n in range(13)]


@responses.activate
def test_paginate_far_service_reads_ahead_up_to_the_total(client, monkeypatch):
    """A first page just over SLOW_PAGE, of a list with a total: the next pages are in flight together, yielded in
    order, and none is asked for past the total.

    The page at offset 100 is answered only once the page at offset 200 has been asked for: read one by one,
    that never happens and the test fails (after 10 s, not by a timing threshold)."""
    second_asked = threading.Event()
    counted = _counted(1234)

    def page(request):
        offset = int(request.params["offset"])
        if offset == 200:
            second_asked.set()
        if offset == 100:
            assert second_asked.wait(10), "offset 200 was not asked for while offset 100 was in flight: no read-ahead"
        return counted(request)

    responses.add_callback(responses.GET, URL + "/list", callback=page)
    _stub_clock(monkeypatch, _client.SLOW_PAGE * 1.01)
    assert [item["id"] for item in client.paginate("/list", total_key="count")] == list(range(1234))
    assert sorted(int(call.request.params["offset"]) for call in responses.calls) == [100 * n for n in range(13)]


@responses.activate
@pytest.mark.parametrize("size", [1234, 1300])
def test_paginate_without_a_total_asks_for_no_page_past_the_end_however_slow_the_service(client, monkeypatch, size):
    """A slow first page (a distant service, or a busy machine) and no total (WAAP's ``count`` is the page's size): the
    pages are read one by one, so the requests are the list's pages (and the empty one after a full last page), the
    same as from a near service."""
    def page(request):
        offset = int(request.params["offset"])
        return 200, {}, json.dumps(_page(offset, max(0, min(100, size - offset))))

    responses.add_callback(responses.GET, URL + "/list", callback=page)
    _stub_clock(monkeypatch, _client.SLOW_PAGE * 10)
    assert [item["id"] for item in client.paginate("/list")] == list(range(size))
    assert [int(call.request.params["offset"]) for call in responses.calls] == [100 * n for n in range(13 if size == 1234 else 14)]
    responses.calls.reset()
    assert len(list(client.paginate("/list", concurrency=4, slow_page=0))) == size
    assert len(responses.calls) == (13 if size == 1234 else 14), "no read-ahead without a total"


@responses.activate
def test_paginate_without_a_total_reads_ahead_only_when_asked(client):
    """``read_ahead`` (a list read whole for its own sake): up to ``concurrency`` pages in flight, in order, at most
    ``concurrency - 1`` past the end."""
    def page(request):
        offset = int(request.params["offset"])
        return 200, {}, json.dumps(_page(offset, max(0, min(100, 1234 - offset))))

    responses.add_callback(responses.GET, URL + "/list", callback=page)
    items = list(client.paginate("/list", concurrency=4, slow_page=0, read_ahead=True))
    assert [item["id"] for item in items] == list(range(1234))
    offsets = sorted(int(call.request.params["offset"]) for call in responses.calls)
    assert offsets[:13] == [100 * n for n in range(13)]
    assert 13 <= len(offsets) <= 13 + 3, "at most concurrency - 1 pages past the short one"


@responses.activate
def test_paginate_concurrently_respects_max_results_and_offset_cap(client):
    responses.add_callback(responses.GET, URL + "/list",
                           callback=lambda request: (200, {}, json.dumps(_page(int(request.params["offset"]), int(request.params["limit"])))))
    assert len(list(client.paginate("/list", max_results=250, concurrency=4, slow_page=0))) == 250
    assert sorted(call.request.params["limit"] for call in responses.calls) == ["100", "100", "50"]
    capped = []
    list(client.paginate("/list", max_offset=300, on_cap=capped.append, concurrency=4, slow_page=0))
    assert max(int(call.request.params["offset"]) for call in responses.calls) == 300
    assert capped == [400]


@pytest.mark.parametrize("failure", [
    {"status": 401, "json": {"message": "Invalid or missing API key"}},
    {"body": requests.exceptions.ConnectionError("Connection refused")},
    {"body": requests.exceptions.ReadTimeout("Read timed out. (read timeout=7)")},
], ids=["http-error", "connection-error", "timeout"])
@responses.activate
def test_the_api_key_is_in_no_error(client, failure):
    responses.get(URL + "/r", **failure)
    with pytest.raises(ApiError) as err:
        client.get("/r")
    for text in (err.value.message, str(err.value), json.dumps(err.value.as_dict()), repr(err.value.detail)):
        assert KEY not in text


# ---- issue 11: no transport error carries a header value; TLS failures told apart -------------

def _local_server():
    """A plain HTTP server on loopback answering 200 {} to every GET (a real socket: the header encoding is real)."""
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802  pylint: disable=invalid-name
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")

        def log_message(self, *args):  # pylint: disable=arguments-differ
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


SECRET = "Zx9secretKEY42"


@pytest.mark.parametrize("key, forms", [
    (SECRET + "\n", (SECRET, repr(SECRET + "\n")[1:-1])),  # requests: InvalidHeader quoting the value
    ("Zx9" + "\u2013" + "secretKEY42", ("Zx9", "secretKEY42", "\u2013", "\\u2013")),  # http.client: latin-1 codec error
    (SECRET + "\r\nX-Injected: 1", (SECRET, "Injected")),
])
def test_a_header_the_http_library_refuses_is_never_shown(key, forms):
    server = _local_server()
    try:
        client = Client(api_key=key, api_url="http://127.0.0.1:%s" % server.server_address[1], retries=0)
        with pytest.raises(ApiError) as err:
            client.get("/r")
    finally:
        server.shutdown()
        server.server_close()
    texts = (err.value.message, str(err.value), json.dumps(err.value.as_dict()), repr(err.value.detail), repr(err.value.args))
    assert "a request header could not be sent" in err.value.message
    for text in texts:
        for form in forms:
            assert form not in text, (form, text)
    assert err.value.__cause__ is None and err.value.__suppress_context__, "the original exception (holding the key) is dropped"


@pytest.mark.parametrize("failure", [
    requests.exceptions.ConnectionError("refused: Authorization: apikey %s" % KEY),
    requests.exceptions.ConnectionError("refused: %r" % ("apikey %s\n" % KEY)),
    ValueError("odd library text b'apikey %s'" % KEY),
], ids=["raw", "repr-escaped", "not-a-requests-error"])
def test_any_transport_error_text_is_scrubbed(client, failure):
    with mock.patch.object(client.session, "request", side_effect=failure):
        with pytest.raises(ApiError) as err:
            client.get("/r")
    assert KEY not in err.value.message and KEY not in str(err.value)


@responses.activate
def test_a_service_echoing_the_key_is_scrubbed(client):
    responses.get(URL + "/r", status=401, json={"message": "bad key apikey %s" % KEY, "echo": ["apikey " + KEY]})
    with pytest.raises(ApiError) as err:
        client.get("/r")
    assert err.value.message == "GET /r failed with HTTP 401: bad key apikey ***"
    assert KEY not in json.dumps(err.value.as_dict())


def _ssl_error(inner):
    """An SSLError as requests raises it: urllib3's MaxRetryError around urllib3's SSLError around the ssl error."""
    return requests.exceptions.SSLError(MaxRetryError(None, "/r", Urllib3SSLError(inner)))


def test_a_certificate_failure_suggests_validate_certs_false(client):
    error = _ssl_error(ssl.SSLCertVerificationError(1, "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self-signed certificate"))
    with mock.patch.object(client.session, "request", side_effect=error):
        with pytest.raises(ApiError) as err:
            client.get("/r")
    assert "TLS certificate verification failed for %s" % URL in err.value.message
    assert "validate_certs: false" in err.value.message


def test_another_tls_failure_does_not_blame_the_certificate(client):
    error = _ssl_error(ssl.SSLError(1, "[SSL: WRONG_VERSION_NUMBER] wrong version number (_ssl.c:1006)"))
    with mock.patch.object(client.session, "request", side_effect=error):
        with pytest.raises(ApiError) as err:
            client.get("/r")
    assert "TLS connection to %s failed" % URL in err.value.message
    assert "not a certificate problem" in err.value.message
    assert "validate_certs" not in err.value.message and "verification" not in err.value.message


def test_an_empty_api_url_never_means_production():
    with pytest.raises(ValueError):
        Client(api_key=KEY, api_url="")


def _counted(total):
    """A cloud list of ``total`` items whose answers carry the total in ``count``."""
    def page(request):
        offset, limit = int(request.params["offset"]), int(request.params["limit"])
        body = _page(offset, max(0, min(limit, total - offset)))
        body["count"] = total
        return 200, {}, json.dumps(body)
    return page


@responses.activate
@pytest.mark.parametrize("total, offsets", [(1250, [0, 1000]), (2000, [0, 1000]), (1000, [0]), (999, [0]), (0, [0])])
def test_paginate_with_a_total_asks_for_no_page_past_it(client, total, offsets):
    """The inventory reads a cloud list by its ``count``: exactly its pages, not even the empty one after a full last page."""
    responses.add_callback(responses.GET, URL + "/list", callback=_counted(total))
    items = list(client.paginate("/list", page_size=1000, total_key="count"))
    assert [item["id"] for item in items] == list(range(total))
    assert [int(call.request.params["offset"]) for call in responses.calls] == offsets


@responses.activate
def test_paginate_with_a_total_from_a_far_service_reads_ahead_only_up_to_it(client):
    responses.add_callback(responses.GET, URL + "/list", callback=_counted(1234))
    items = list(client.paginate("/list", total_key="count", slow_page=0))
    assert [item["id"] for item in items] == list(range(1234))
    assert sorted(int(call.request.params["offset"]) for call in responses.calls) == [100 * n for n in range(13)]


@responses.activate
def test_paginate_without_a_usable_total_falls_back_to_short_pages(client):
    responses.get(URL + "/list", json=dict(_page(0, 100), count="many"))
    responses.get(URL + "/list", json=dict(_page(100, 20), count="many"))
    assert len(list(client.paginate("/list", total_key="count"))) == 120
    assert len(responses.calls) == 2
