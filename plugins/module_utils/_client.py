# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""The HTTP client shared by every gcore.platform module and the ``gcore.platform.cloud`` inventory plugin.

This module is internal to the collection: its interface may change at any time. It needs no AnsibleModule
(only ``requests``), so the inventory plugin on the controller uses the same transport, retries and errors.

One ``requests.Session`` per module run (or inventory parse). Retries live in urllib3's ``Retry``
(configured per call: safe calls and writes have different policies), errors
are parsed into one type, ``ApiError``, and lists are read by one paginator.
"""

from __future__ import annotations

import email.utils
import json as _json
import random
import ssl
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor

try:
    import requests
    from requests.adapters import HTTPAdapter
    from urllib3.util.retry import Retry
    HAS_REQUESTS = True
    REQUESTS_IMPORT_ERROR = None
except ImportError as exc:  # pragma: no cover - reported by the module base
    HAS_REQUESTS = False
    REQUESTS_IMPORT_ERROR = exc
    Retry = object  # pylint: disable=invalid-name

COLLECTION_VERSION = "1.1.0"
USER_AGENT = "gcore.platform-ansible-collection/%s" % COLLECTION_VERSION
DEFAULT_API_URL = "https://api.gcore.com"
AUTH_SCHEME = "apikey"

RETRY_AFTER_MAX = 60.0
BACKOFF_FACTOR = 0.5
BACKOFF_MAX = 8.0
SAFE_RETRY_STATUSES = frozenset((429, 502, 503, 504))
WRITE_RETRY_STATUSES = frozenset((429,))
SHORTEST_SECRET = 4  # a no_log value shorter than this is not searched for in error texts (it would mask ordinary words)
SHORTEST_LINE = 8
PAGE_CONCURRENCY = 8  # pages in flight when the service is far away
SLOW_PAGE = 0.04  # seconds: a first page slower than this means round trips dominate


class ApiError(Exception):
    """A failed API call: HTTP status (None when no answer came), method, path, service text, body."""

    def __init__(self, method, path, status=None, detail=None, body=None):
        self.method = method
        self.path = path
        self.status = status
        self.detail = detail
        self.body = body
        super().__init__(self.message)

    @property
    def message(self):
        if self.status is None:
            return "%s %s failed: %s" % (self.method, self.path, self.detail)
        text = "%s %s failed with HTTP %s" % (self.method, self.path, self.status)
        return "%s: %s" % (text, self.detail) if self.detail else text

    @property
    def ambiguous(self):
        """Whether the service may have applied a write that failed so (no answer, or a 5xx)."""
        return self.status is None or self.status >= 500

    def as_dict(self):
        return {"status": self.status, "method": self.method, "path": self.path, "body": self.body}

    @classmethod
    def from_response(cls, response, method, path):
        try:
            body = response.json()
        except ValueError:
            body = response.text or None
        return cls(method, path, response.status_code, error_detail(body), body)


def error_detail(body):
    """The service's own error text from any of the three error shapes (WAAP, cloud, storage)."""
    if not isinstance(body, dict):
        return body.strip() if isinstance(body, str) and body.strip() else None
    parts = []
    for key in ("detail", "message", "error", "title"):
        value = body.get(key)
        if isinstance(value, str) and value:
            parts.append(value)
            break
    if isinstance(body.get("errors"), list):
        for item in body["errors"]:
            if isinstance(item, dict):
                loc = ".".join(str(part) for part in item.get("loc") or [])
                parts.append("%s: %s" % (loc, item.get("detail")) if loc else str(item.get("detail")))
    if not parts and isinstance(body.get("exception_class"), str):
        parts.append(body["exception_class"])
    return "; ".join(parts) or None


class GcoreRetry(Retry):
    """urllib3 Retry with the collection's policy.

    - Only the statuses in ``status_forcelist`` are retried (urllib3 would also retry a 503 that
      carries Retry-After, which must not happen to a write).
    - ``Retry-After`` (seconds or HTTP date) is honoured, plus up to 1 s of jitter, 60 s at most.
    - Otherwise capped exponential backoff with jitter: min(0.5 * 2^n, 8) * U(0.75, 1).
    """

    def is_retry(self, method, status_code, has_retry_after=False):
        if not self._is_method_retryable(method):
            return False
        return bool(self.status_forcelist and status_code in self.status_forcelist)

    def parse_retry_after(self, retry_after):
        try:
            seconds = float(retry_after)
        except ValueError:
            parsed = email.utils.parsedate_tz(retry_after)
            if parsed is None:
                return BACKOFF_FACTOR
            seconds = email.utils.mktime_tz(parsed) - time.time()
        seconds = max(seconds, 0.0)
        # at least what the service asked for, plus jitter so that clients told the same time do not return
        # together; never more than RETRY_AFTER_MAX in all
        return min(seconds + random.uniform(0, min(seconds, 1.0)), RETRY_AFTER_MAX)

    def get_backoff_time(self):
        retries_made = len(self.history)
        if retries_made == 0:
            return 0
        base = min(BACKOFF_FACTOR * (2 ** (retries_made - 1)), BACKOFF_MAX)
        return base * random.uniform(0.75, 1.0)


def retry_policy(retries, safe):
    """The Retry for one call. ``safe``: GET and read-only POSTs; otherwise a write."""
    methods = frozenset(("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"))
    return GcoreRetry(
        total=None,
        connect=retries,  # the request was never sent: always safe to repeat
        read=retries if safe else 0,  # the request may have been applied
        status=retries,
        other=0,
        redirect=0,
        allowed_methods=methods,
        status_forcelist=SAFE_RETRY_STATUSES if safe else WRITE_RETRY_STATUSES,
        respect_retry_after_header=True,
        raise_on_status=False,
        raise_on_redirect=False,
    )


def cap_warning(warn, listing, cap):
    """The one offset-cap warning, ``on_cap`` of ``paginate``: ``listing`` names what was listed, ``warn`` says it."""
    return lambda offset: warn("The %s stopped at offset %s, the most the service serves (%s); items beyond it were not "
                               "read (narrow the listing with its filters)" % (listing, offset, cap))


class Client:
    """One session per module run; every path is relative to ``api_url``."""

    def __init__(self, api_key, api_url=DEFAULT_API_URL, timeout=30, retries=3, validate_certs=True, secrets=()):
        """``secrets``: the run's other ``no_log`` values, scrubbed from every error text as the API key is."""
        if not api_url:
            raise ValueError("api_url must not be empty")  # never fall back to production silently
        self.base_url = api_url.rstrip("/")
        self._secrets = _secret_forms(api_key, secrets)
        self.timeout = timeout
        self.retries = retries
        self.session = requests.Session()
        self.verify = validate_certs
        self.session.headers.update({
            "Authorization": "%s %s" % (AUTH_SCHEME, api_key),
            "User-Agent": USER_AGENT,
            "Accept": "application/json",
        })
        self._policies = {True: retry_policy(retries, True), False: retry_policy(retries, False)}
        self._adapter = HTTPAdapter(max_retries=self._policies[True], pool_maxsize=8)
        self.session.mount("http://", self._adapter)
        self.session.mount("https://", self._adapter)

    def request(self, method, path, params=None, json=None, safe=None, ok=(200, 201, 204)):
        """Send one call (with its retries) and return the decoded body, or None when there is none.

        ``safe`` defaults to True for GET; read-only POSTs pass ``safe=True`` explicitly.
        Any status outside ``ok`` raises ApiError.
        """
        if safe is None:
            safe = method == "GET"
        url = self.base_url + path
        self._adapter.max_retries = self._policies[safe]
        try:
            # verify is passed on every call: a session-level False loses to REQUESTS_CA_BUNDLE in the environment
            response = self.session.request(method, url, params=params, json=json, timeout=self.timeout, verify=self.verify)
        except Exception as exc:  # pylint: disable=broad-exception-caught  # any transport failure: shaped, scrubbed
            raise ApiError(method, path, detail=self.scrub(self._transport_failure(exc))) from None
        if response.status_code not in ok:
            error = ApiError.from_response(response, method, path)
            raise ApiError(method, path, error.status, self.scrub(error.detail), self.scrub(error.body))
        if response.status_code == 204 or not response.content:
            return None
        try:
            return response.json()
        except ValueError:
            raise ApiError(method, path, response.status_code, "the answer is not JSON", self.scrub(response.text[:500])) from None

    def _transport_failure(self, exc):
        """What failed when no answer came, in words that never hold a header value."""
        if isinstance(exc, requests.exceptions.InvalidHeader) or isinstance(exc, UnicodeError):
            # both carry the refused header value (requests quotes it, the codec error holds the text and the character)
            return "a request header could not be sent: it holds a character HTTP headers do not allow (the value is not shown)"
        if isinstance(exc, requests.exceptions.SSLError):
            if _certificate_failure(exc):
                return ("TLS certificate verification failed for %s (%s). Fix the certificate or the CA bundle, or set "
                        "validate_certs: false only for a trusted test endpoint" % (self.base_url, _reason(exc)))
            return ("TLS connection to %s failed (%s); this is not a certificate problem: check that api_url's scheme and "
                    "port are right (https:// to a port that serves plain HTTP fails this way)" % (self.base_url, _reason(exc)))
        if isinstance(exc, requests.exceptions.Timeout) or "timed out" in _reason(exc):
            return "no answer within api_timeout=%ss (%s)" % (self.timeout, _reason(exc))
        if isinstance(exc, requests.exceptions.RequestException):
            return "connection to %s failed (%s)" % (self.base_url, _reason(exc))
        return "the request to %s could not be sent (%s)" % (self.base_url, type(exc).__name__)

    def scrub(self, value):
        """The value (a text, or a decoded body) with every form (as is, escaped, quoted) of the API key, of every other
        ``no_log`` value and of every line of one (a key the service quotes in part) replaced by ``***``."""
        if isinstance(value, dict):
            return dict((key, self.scrub(item)) for key, item in value.items())
        if isinstance(value, list):
            return [self.scrub(item) for item in value]
        if isinstance(value, str):
            for secret in self._secrets:
                value = value.replace(secret, "***")
        return value

    def get(self, path, params=None):
        return self.request("GET", path, params=params)

    def get_or_none(self, path, params=None, absent=(404,)):
        """GET a record; None when the service answers one of ``absent``."""
        try:
            return self.get(path, params=params)
        except ApiError as exc:
            if exc.status in absent:
                return None
            raise

    def paginate(self, path, params=None, page_size=100, max_offset=None, max_results=None, on_cap=None,
                 concurrency=PAGE_CONCURRENCY, slow_page=SLOW_PAGE, total_key=None, read_ahead=False):
        """Yield every item of a ``limit``/``offset`` list, in the service's order.

        A page shorter than its ``limit`` ends the listing (WAAP's ``count`` is the size of the page,
        not a total). The offset never goes past ``max_offset``; ``on_cap(offset)`` is called when
        that cap cuts the listing short. ``max_results`` stops after that many items.

        The first page is read alone. The pages asked for depend only on the list, never on how fast the
        service answers (a busy machine makes every answer slow): without a total, pages are read one by
        one, which asks for no page past the end but the one empty page that shows a full last page was
        the last.

        ``total_key`` names the member of an answer that holds the total number of items (the cloud lists'
        ``count``): when the first answer has it, no page at or past that total is asked for, so a listing is
        exactly its pages; when the first page is full and took longer than ``slow_page`` seconds (a distant
        service: round trips dominate), the next pages, up to the total, are read with up to ``concurrency``
        requests in flight, yielded in order.

        ``read_ahead``: a list without a total read whole for its own sake (``firewall_rules_info``) may also
        be read that way from a distant service, asking for at most ``concurrency - 1`` pages past its end.
        """
        params = dict(params or {})

        def limit_at(offset):
            return page_size if max_results is None else min(page_size, max_results - offset)

        def answer(offset):
            return self.get(path, params=dict(params, limit=limit_at(offset), offset=offset)) or {}

        def fetch(offset):
            return answer(offset).get("results") or []

        started = time.monotonic()
        body = answer(0)
        first = body.get("results") or []
        total = body.get(total_key) if total_key else None
        if isinstance(total, bool) or not isinstance(total, int):
            total = None

        def more_allowed(offset):
            return ((max_results is None or offset < max_results) and (max_offset is None or offset <= max_offset)
                    and (total is None or offset < total))

        yield from first
        if len(first) < limit_at(0) or (total is not None and len(first) >= total):
            return
        if (total is None and not read_ahead) or time.monotonic() - started < slow_page:
            concurrency = 1  # without a total, a page read ahead may be past the end
        next_offset = len(first)
        window = deque()
        with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
            while True:
                while len(window) < max(1, concurrency) and more_allowed(next_offset):
                    window.append((limit_at(next_offset), pool.submit(fetch, next_offset)))
                    next_offset += limit_at(next_offset)
                if not window:
                    break
                limit, future = window.popleft()
                page = future.result()
                yield from page
                if len(page) < limit:
                    for _limit, pending in window:
                        pending.cancel()
                    return
        if max_offset is not None and next_offset > max_offset and (max_results is None or next_offset < max_results):
            if on_cap:
                on_cap(next_offset)


def _secret_forms(api_key, values=()):
    """The API key and the other secret values as an error text might show them: raw, escaped as repr and JSON do, and
    UTF-8 bytes as repr shows them; for a value of several lines, each line too (but its PEM armour and lines shorter than
    ``SHORTEST_LINE``, which would mask ordinary words)."""
    pieces = set()
    for value in [api_key] + sorted(str(value) for value in values or () if value is not None):
        if not value or (value != api_key and len(str(value)) < SHORTEST_SECRET):
            continue
        text = str(value)
        pieces.add(text)
        if "\n" in text:
            pieces.update(line.strip() for line in text.splitlines()
                          if len(line.strip()) >= SHORTEST_LINE and not line.strip().startswith("-----"))
    forms = set()
    for piece in pieces:
        forms.update((piece, repr(piece)[1:-1], _json.dumps(piece)[1:-1], piece.encode("unicode_escape").decode("ascii"),
                      repr(piece.encode("utf-8", "surrogateescape"))[2:-1]))
    return sorted((form for form in forms if form), key=len, reverse=True)


def _certificate_failure(exc):
    """Whether a TLS failure is a certificate verification failure (anywhere in the exception's chain)."""
    seen = set()
    pending = [exc]
    while pending:
        item = pending.pop()
        if item is None or id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, ssl.SSLCertVerificationError) or "CERTIFICATE_VERIFY_FAILED" in str(item):
            return True
        if isinstance(item, BaseException):
            pending.extend(arg for arg in item.args if isinstance(arg, BaseException))
            pending.extend((item.__cause__, item.__context__, getattr(item, "reason", None)))
    return False


def _reason(exc):
    """A short reason for a transport failure, without the request headers."""
    reason = exc.args[0] if exc.args else exc
    reason = getattr(reason, "reason", reason)
    return str(reason)
