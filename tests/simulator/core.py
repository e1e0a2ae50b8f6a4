# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The frame of the Gcore API simulator: HTTP server, routing, auth, errors, faults, tasks, request log.

Resources live in ``simulator.resources.*``: each module there declares ``Resource`` subclasses (their
routes, settings, seeds and state; see ``Resource``; a plain Cloud collection declares itself as a
``production.Collection``, which makes its routes and common handlers), and every one is loaded. Request bodies are checked
with ``simulator.validation``. The simulator answers as the published API does (paths, shapes, status
codes, server-filled defaults, asynchronous tasks, pagination, validation errors, auth failures).

A control path outside the API, ``/_sim/...``, lets tests inject faults, change settings and read
the request log; it needs no key and is not logged.
"""

from __future__ import annotations

import copy
import datetime
import email.utils
import importlib
import json
import pkgutil
import re
import socket
import ssl
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from simulator import control

DEFAULT_API_KEY = "sim-test-key-7c1e0d"
CONTROL_PREFIX = "/_sim"
# The frame's own settings (POST /_sim/config): name -> (default, check). Resources add theirs.
SETTINGS = {
    "task_delay": (0.3, control.number(high=600)),
    "task_fail": ({}, control.mapping(control.text)),
    "latency": (0.0, control.number(high=60)),
    "rate_limit": (None, control.optional(control.record(
        {"per_second": control.integer(low=1), "retry_after": control.number()}, required=("per_second",)))),
}


def now_iso():
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


class ApiFailure(Exception):
    """Raised by a handler: answered as ``api``'s error shape with ``status``."""

    def __init__(self, status, detail, errors=None, title=None):
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.errors = errors
        self.title = title


class Request:
    def __init__(self, method, path, query_string, headers, raw_body):
        self.method = method
        self.path = path
        self.query_string = query_string
        self.query = parse_qs(query_string, keep_blank_values=True)
        self.headers = headers
        self.raw_body = raw_body
        self.params = {}
        self._json = None

    def arg(self, name, default=None):
        values = self.query.get(name)
        return values[-1] if values else default

    @property
    def json(self):
        if self._json is None and self.raw_body:
            try:
                self._json = json.loads(self.raw_body)
            except ValueError:
                raise ApiFailure(400, "The request body is not valid JSON")
        return self._json


class Response:
    def __init__(self, status=200, body=None, headers=None, content_type="application/json"):
        self.status = status
        self.body = body
        self.headers = headers or {}
        self.content_type = content_type


REASONS = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 409: "Conflict",
           422: "Unprocessable Entity", 429: "Too Many Requests", 500: "Internal Server Error",
           502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout"}


def error_response(api, status, detail, errors=None, title=None):
    """An error in the shape each API family uses (docs/api_reference.md section 0.3)."""
    if api == "waap":
        body = {"type": "https://api.gcore.com/waap/errors/%s" % status, "title": title or REASONS.get(status, "Error"),
                "status": status, "detail": detail}
        if errors is not None:
            body["errors"] = errors
        return Response(status, body, content_type="application/problem+json")
    if api == "storage":
        return Response(status, {"error": detail})
    exception_class = {400: "BadRequest", 401: "Unauthorized", 404: "NotFound", 409: "Conflict",
                       422: "UnprocessableEntity"}.get(status, "Error")
    return Response(status, {"exception_class": exception_class, "message": detail, "request_id": str(uuid.uuid4())})


def retry_after(fault):
    """The Retry-After header of a fault: as given, or (``retry_after_date``) an HTTP date that many seconds
    after this answer, so that the wait is the same however long the client took to send the request."""
    if fault.get("retry_after_date"):
        return email.utils.formatdate(time.time() + fault["retry_after"], usegmt=True)
    return str(fault["retry_after"])


def api_of(path):
    if path.startswith("/waap/"):
        return "waap"
    if path.startswith("/storage/"):
        return "storage"
    return "cloud"


class Route:
    """One declared route: ``method``, a path regex with named groups, the name of the resource's handler
    method, and ``read_only`` for a POST that changes nothing (a quota check, a price): not a write."""

    def __init__(self, method, pattern, handler, read_only=False):
        self.method = method
        self.pattern = re.compile("^%s$" % pattern)
        self.handler = handler
        self.read_only = read_only


class Resource:
    """A resource family of the simulated API, as a declaration. A subclass sets:

    - ``ROUTES``: ``Route(method, path regex, handler method name, read_only=False)``; a handler takes the
      ``Request`` (path groups in ``request.params``) and returns a body (answered 200), a ``Response``, or
      raises ``ApiFailure``;
    - ``SETTINGS``: ``{name: (default, check)}`` for ``POST /_sim/config`` (checks in ``simulator.control``);
    - ``SEEDS``: the IDs of its seeded resources, JSON-able (``GET /_sim/seeds``, ``sim.seeds[NAME]``);
    - ``STATE``: the attributes of the simulator it keeps, shown by ``GET /_sim/state``;
    - ``TASK_TYPES``: the ``task_type`` of every task it starts (what ``task_fail`` may name);
    - ``CONTROLS``: ``{call: handler method name}``, control calls of its own (``POST /_sim/<call>``, the stories'
      ``sim.yml`` with ``sim_call: <call>``); a handler takes the JSON body, returns a JSON-able answer, and
      raises ``simulator.control.ControlError`` (answered 400, nothing changed) on bad input;
    - ``reset()``: (re)create its state on the simulator (``self.sim``) at start and on every reset.
    """

    NAME = None
    ROUTES = ()
    SETTINGS = {}
    SEEDS = {}
    STATE = ()
    TASK_TYPES = ()
    CONTROLS = {}

    def __init__(self, sim):
        self.sim = sim

    def reset(self):
        """(Re)create this resource's state; the default keeps none."""


def resource_classes():
    """Every ``Resource`` subclass declared in ``simulator.resources.*``."""
    found = []
    for info in sorted(pkgutil.iter_modules(importlib.import_module("simulator.resources").__path__), key=lambda info: info.name):
        module = importlib.import_module("simulator.resources." + info.name)
        found += [value for value in vars(module).values() if isinstance(value, type) and issubclass(value, Resource)
                  and value.__module__ == module.__name__ and value.NAME]  # a base (no NAME) is not a family
    return found


def seeds():
    """The IDs of every seeded resource, by resource NAME (what ``GET /_sim/seeds`` answers)."""
    return dict((cls.NAME, cls.SEEDS) for cls in resource_classes() if cls.SEEDS)


class Simulator:
    """The state of the simulated service and its routing table."""

    def __init__(self, api_key=DEFAULT_API_KEY):
        self.api_key = api_key
        self.lock = threading.RLock()
        self.routes = []
        self.controls = {}
        self.resources = []
        self.settings = dict(SETTINGS)
        self.seeds = {}
        self.config = {}
        self.log = []
        self.mark = 0
        self.faults = []
        self.tasks = {}
        self.holding = False
        self.releases = []
        self.injections = []
        self.server = None
        self.thread = None
        self.url = None
        for cls in resource_classes():
            resource = cls(self)
            self.resources.append(resource)
            self.routes += [(route, getattr(resource, route.handler)) for route in cls.ROUTES]
            self.settings.update(cls.SETTINGS)
            self.controls.update((call, getattr(resource, name)) for call, name in cls.CONTROLS.items())
        self.task_types = sorted(set(task_type for cls in resource_classes() for task_type in cls.TASK_TYPES))
        self.settings["task_fail"] = (SETTINGS["task_fail"][0], self.check_task_fail)
        self.seeds = seeds()
        self.reset()

    # ---- state --------------------------------------------------------------------------------
    def reset(self, keep_log=False):
        """The seeded state again; with ``keep_log`` the request log stays (a new window starts at its end)."""
        with self.lock:
            self.config = dict((name, copy.deepcopy(default)) for name, (default, _check) in self.settings.items())
            if not keep_log:
                self.log = []
            self.mark = len(self.log)
            self.faults = []
            self.tasks = {}
            self.holding = False
            self.releases = []
            self.injections = []
            self._rate_window = []
            for resource in self.resources:
                resource.reset()

    def check_task_fail(self, name, value):
        """``task_fail``: task types the simulator starts (a misspelt one would never fire), each an error text."""
        SETTINGS["task_fail"][1](name, value)
        for task_type in value:
            if task_type not in self.task_types:
                raise control.ControlError("%s.%s: no task of that type exists; the simulator's task types are %s"
                                           % (name, task_type, ", ".join(self.task_types)))
        return value

    def configure(self, **settings):
        """Merge declared settings; an unknown name or a bad value raises ``ControlError`` and changes nothing."""
        with self.lock:
            self.config.update(control.check_settings(self.settings, settings))

    def add_fault(self, **fault):
        """The next ``times`` requests matching ``method`` and the ``path`` regex get this fault.

        Members (``simulator.control.FAULT_FIELDS``): ``status``, ``method``, ``path``, ``times`` (1),
        ``retry_after``, ``drop``, ``delay`` (seconds before the answer), ``body`` (the error text), ``skip`` (how many
        matching requests pass before it fires; 0) and
        ``applied``: the request is carried out first and only its answer is replaced (or dropped, or
        delayed): the ambiguous failure where the service did the work but the client never learnt it;
        ``task_error``: the request is answered as usual, and every task it starts ends in ERROR with this text.
        A bad fault raises ``ControlError`` and is not added.
        """
        fault = control.check_fault(fault)
        with self.lock:
            self.faults.append(fault)

    def pending_faults(self):
        """The faults still to fire, in the order they are matched: each as kept (defaults filled) with
        ``times`` the number of requests it will still answer (``GET /_sim/faults``)."""
        with self.lock:
            return [dict(fault) for fault in self.faults if fault["times"] > 0]

    def clear_faults(self):
        """Drop every pending fault, leaving the rest of the state as it is (``DELETE /_sim/faults``);
        returns how many were pending."""
        with self.lock:
            pending = len(self.pending_faults())
            self.faults = []
            return pending

    def requests(self, method=None, path=None):
        """The logged API requests, optionally filtered by method and a path regex."""
        with self.lock:
            return [entry for entry in self.log
                    if (method is None or entry["method"] == method) and (path is None or re.search(path, entry["path"]))]

    def writes(self, entries=None):
        """The logged requests that change state: every POST, PUT, PATCH and DELETE but those whose route
        is declared ``read_only``."""
        return [entry for entry in (self.requests() if entries is None else entries) if entry["write"]]

    def route_of(self, method, path):
        """The declared route of a request (None when no route has this method and path)."""
        return next((route for route, _handler in self.routes if route.method == method and route.pattern.match(path)), None)

    # ---- tasks --------------------------------------------------------------------------------
    def start_task(self, task_type, apply=None, created_resources=None, project_id=None, region_id=None, data=None):
        """Start a cloud task: NEW, RUNNING, then FINISHED after ``task_delay`` (``apply()`` runs then).

        ``config["task_fail"]`` maps a task type to an error text: such a task ends in ERROR instead.
        ``apply`` may return the created resources. A task started while the simulator holds tasks
        (``hold()``) stays RUNNING, its resource locked, until ``release()``.
        """
        task_id = str(uuid.uuid4())
        delay = self.config["task_delay"]
        self.tasks[task_id] = {
            "record": {
                "id": task_id, "task_type": task_type, "state": "NEW", "user_id": 1, "client_id": 1,
                "project_id": project_id, "region_id": region_id, "created_on": now_iso(), "updated_on": None,
                "finished_on": None, "acknowledged_at": None, "acknowledged_by": None, "error": None,
                "detailed_state": None, "created_resources": created_resources, "data": data,
                "request_id": str(uuid.uuid4()), "job_id": None, "schedule_id": None, "user_client_id": None,
                "lifecycle_policy_id": None,
            },
            "started": time.monotonic(), "delay": delay, "apply": apply,
            "error": self.config["task_fail"].get(task_type), "done": False, "held": self.holding,
        }
        return task_id

    def advance(self):
        """Bring every task up to date with the clock (apply the finished ones once)."""
        now = time.monotonic()
        for task in self.tasks.values():
            if task["done"] or task.get("stuck"):
                continue
            record = task["record"]
            elapsed = now - task["started"]
            if task["held"]:
                record["state"] = "RUNNING"
                continue
            if elapsed < task["delay"]:
                record["state"] = "NEW" if elapsed < min(0.05, task["delay"] / 3) else "RUNNING"
                continue
            task["done"] = True
            record["updated_on"] = record["finished_on"] = now_iso()
            if task["error"]:
                record["state"] = "ERROR"
                record["detailed_state"] = "ERROR"
                record["error"] = task["error"]
            else:
                created = task["apply"]() if task["apply"] else None
                if created:
                    record["created_resources"] = created
                record["state"] = "FINISHED"
                record["detailed_state"] = "FINISHED"

    def hold(self):
        """From now on every new task stays RUNNING (its resource locked) until it is released."""
        with self.lock:
            self.holding = True

    def release(self, task_id=None, error=None, after=None):
        """Finish held or running tasks at the next request: ``task_id`` alone, or every unfinished task
        (which also ends ``hold()``). With ``error`` they end in ERROR with that text instead.

        With ``after`` (``{method, path, times}``) the release waits until the ``times``-th API request
        matching ``method`` and the ``path`` regex has been answered: a module is seen waiting (it was
        answered "still running" that many times) and then let go, however fast or slow it runs.
        Returns the released task IDs (or [] when deferred).
        """
        with self.lock:
            if task_id is not None and (task_id not in self.tasks or self.tasks[task_id]["done"]):
                raise control.ControlError("task_id: no unfinished task %s (GET /_sim/tasks lists them)" % task_id)
            if after is not None:
                self.releases.append({"task_id": task_id, "error": error, "seen": 0,
                                      "method": after.get("method"), "path": after.get("path"), "times": after.get("times", 1)})
                return []
            if task_id is None:
                self.holding = False
            released = [task_id] if task_id is not None else [
                key for key, task in self.tasks.items() if not task["done"] and not task.get("stuck")]
            for key in released:
                task = self.tasks[key]
                task.update(held=False, delay=0.0)
                if error is not None:
                    task["error"] = error
            return released

    def _due_releases(self, request):
        """Carry out the deferred releases whose ``after`` the request just answered completes."""
        released = []
        for pending in list(self.releases):
            if (pending["method"] and pending["method"] != request.method) or (pending["path"] and not re.search(pending["path"], request.path)):
                continue
            pending["seen"] += 1
            if pending["seen"] >= pending["times"]:
                self.releases.remove(pending)
                if pending["task_id"] is None or not self.tasks[pending["task_id"]]["done"]:
                    released += self.release(pending["task_id"], pending["error"])
        return released

    def _note_releases(self, request, entry):
        released = self._due_releases(request)
        if released:
            entry["released"] = released  # the tasks this request's answer let go (see release(after=...))
        for pending in list(self.injections):
            after = pending["after"]
            if (after.get("method") or request.method) == request.method and re.search(after.get("path") or "", request.path):
                pending["seen"] += 1
                if pending["seen"] >= after.get("times", 1):
                    self.injections.remove(pending)
                    call = pending["request"]
                    raw = json.dumps(call["body"]).encode() if call.get("body") is not None else b""
                    answer = self._answer(Request(call["method"], call["path"], "", {"Authorization": "apikey " + self.api_key}, raw),
                                          api_of(call["path"]))
                    entry.setdefault("injected", []).append(dict(call, status=answer.status))

    def inject(self, body):
        """``{after: {method, path, times}, request: {method, path, body}}``: another client's API request, carried out
        (not logged) right after the ``times``-th API request matching ``after`` has been answered: what a concurrent run
        does between a module's read and its write, with no timing (its tasks are held while ``hold()`` holds)."""
        control.unknown("inject", body, ("after", "request"))
        control.record({"method": control.optional(control.method), "path": control.optional(control.regex),
                        "times": control.integer(low=1)})("inject.after", body.get("after"))
        control.record({"method": control.method, "path": control.text, "body": control.anything},
                       required=("method", "path"))("inject.request", body.get("request"))
        with self.lock:
            self.injections.append({"after": body["after"], "request": body["request"], "seen": 0})
            return {"pending": len(self.injections)}

    def failed_lock(self, body):
        """``{id, error}``: the record ``id`` (of any family; a reserved fixed IP's ``port_id``) locked by a task that ended in ERROR with ``error``, a lock
        the service did not clear: waiting never ends it (the task stays out of ``advance``, ``release`` and the families'
        sweeps); ``error: null`` clears the lock. Returns the task id (None when cleared)."""
        control.unknown("failed_lock", body, ("id", "error"))
        control.text("failed_lock.id", body.get("id"))
        error = control.optional(control.text)("failed_lock.error", body.get("error"))
        with self.lock:
            stores = [getattr(self, name) for resource in self.resources for name in resource.STATE]
            records = [record for store in stores for record in (store.values() if isinstance(store, dict) else store)
                       if isinstance(record, dict) and record.get("id", record.get("port_id")) == body["id"] and "task_id" in record]
            if not records:
                raise control.ControlError("failed_lock.id: no record %s has a task lock" % body["id"])
            if error is None:
                records[0]["task_id"] = None
                return {"task_id": None}
            task_id = self.start_task("failed_lock")
            task = self.tasks[task_id]
            task.update(stuck=True, error=error)
            task["record"].update(state="ERROR", detailed_state="ERROR", error=error, finished_on=now_iso())
            records[0]["task_id"] = task_id
            return {"task_id": task_id}

    def task_list(self):
        """The tasks for GET /_sim/tasks: id, type, state, held."""
        with self.lock:
            self.advance()
            return [{"id": key, "task_type": task["record"]["task_type"], "state": task["record"]["state"], "held": task["held"]}
                    for key, task in self.tasks.items()]

    # ---- dispatch -----------------------------------------------------------------------------
    def authorised(self, headers):
        value = headers.get("Authorization") or ""
        scheme, _space, key = value.partition(" ")
        return scheme.lower() == "apikey" and key == self.api_key

    def dispatch(self, request):
        """Answer one API request; returns (Response or None to drop the connection, delay)."""
        api = api_of(request.path)
        with self.lock:
            fault = self._take_fault(request)
            delay = self.config["latency"] + (fault["delay"] if fault else 0.0)
            entry = {"method": request.method, "path": request.path, "query": request.query_string,
                     "body": request.raw_body.decode("utf-8", "replace") if request.raw_body else None,
                     "content_type": request.headers.get("Content-Type"),
                     "authorization": "apikey ***" if self.authorised(request.headers) else "invalid",
                     "time": time.time(), "status": None, "fault": bool(fault)}
            route = self.route_of(request.method, request.path)
            entry["write"] = request.method in ("POST", "PUT", "PATCH", "DELETE") and not (route and route.read_only)
            self.log.append(entry)
            applied = None
            if fault and fault["task_error"]:  # carried out; every task it starts ends in ERROR
                started = set(self.tasks)
                applied = self._answer(request, api)
                for task_id in set(self.tasks) - started:
                    self.tasks[task_id]["error"] = fault["task_error"]
            if fault and fault["applied"]:
                applied = self._answer(request, api)  # carried out once; only its answer is replaced below
                entry["applied_status"] = applied.status
            if fault and fault["drop"]:
                entry["status"] = "dropped"
                self._note_releases(request, entry)
                return None, delay
            if fault and fault["status"]:
                headers = {"Retry-After": retry_after(fault)} if fault["retry_after"] is not None else {}
                response = error_response(api, fault["status"], fault["body"] or "Injected fault")
                response.headers.update(headers)
            else:
                response = applied or self._rate_limited(api) or self._answer(request, api)
            entry["status"] = response.status
            self._note_releases(request, entry)
            return response, delay

    def call(self, method, path, body=None, query=""):
        """Answer one API request in-process (for unit tests): ``(status, body)``; a dropped one is ``(None, None)``."""
        raw = json.dumps(body).encode() if body is not None else b""
        response, _delay = self.dispatch(Request(method, path, query, {"Authorization": "apikey " + self.api_key,
                                                                       "Content-Type": "application/json"}, raw))
        return (None, None) if response is None else (response.status, response.body)

    def _take_fault(self, request):
        for fault in self.faults:
            if fault["times"] <= 0:
                continue
            if fault["method"] and fault["method"] != request.method:
                continue
            if fault["path"] and not re.search(fault["path"], request.path):
                continue
            if fault["skip"] > 0:  # this many matching requests pass first (the second of three alike creates)
                fault["skip"] -= 1
                continue
            fault["times"] -= 1
            return fault
        return None

    def _rate_limited(self, api):
        """With ``rate_limit = {"per_second": n, "retry_after": s}``, answer 429 above n requests a second."""
        limit = self.config.get("rate_limit")
        if not limit:
            return None
        now = time.monotonic()
        self._rate_window = [stamp for stamp in self._rate_window if now - stamp < 1.0]
        if len(self._rate_window) >= limit["per_second"]:
            response = error_response(api, 429, "Too many requests")
            response.headers["Retry-After"] = str(limit.get("retry_after", 1))
            return response
        self._rate_window.append(now)
        return None

    def _answer(self, request, api):
        if not self.authorised(request.headers):
            return error_response(api, 401, "Invalid or missing API key" if api != "storage" else "unauthorized",
                                  title="Unauthorized")
        self.advance()
        allowed = False
        for route, handler in self.routes:
            match = route.pattern.match(request.path)
            if not match:
                continue
            allowed = True
            if route.method != request.method:
                continue
            request.params = match.groupdict()
            try:
                response = handler(request)
            except ApiFailure as exc:
                return error_response(api, exc.status, exc.detail, exc.errors, exc.title)
            return response if isinstance(response, Response) else Response(200, response)
        if allowed:
            return error_response(api, 405, "Method Not Allowed")
        return error_response(api, 404, "Not Found")

    # ---- control API --------------------------------------------------------------------------
    def control(self, method, path, body):
        action = path[len(CONTROL_PREFIX):].strip("/")
        if action == "log" and method == "GET":
            return self.log[self.mark:]
        if action == "writes" and method == "GET":
            return self.writes(self.log[self.mark:])
        if action == "mark" and method == "POST":
            self.mark = len(self.log)
            return {"mark": self.mark}
        if action == "reset" and method == "POST":  # a playbook's reset: the log is the test's record, kept
            control.unknown("reset", body, ())
            self.reset(keep_log=True)
            return {"reset": True}
        if action == "faults" and method == "POST":
            faults = [control.check_fault(fault) for fault in (body if isinstance(body, list) else [body])]
            with self.lock:
                self.faults.extend(faults)  # all or none
            return {"faults": len(self.pending_faults())}
        if action == "faults" and method == "GET":
            return self.pending_faults()
        if action == "faults" and method == "DELETE":
            return {"cleared": self.clear_faults()}
        if action == "config" and method == "POST":
            self.configure(**control.check_settings(self.settings, body))
            return self.config
        if action == "state" and method == "GET":
            return self.snapshot()
        if action == "hold" and method == "POST":
            control.unknown("hold", body, ())
            self.hold()
            return {"holding": True}
        if action == "release" and method == "POST":
            release = control.check_release(body)
            return {"released": self.release(**release), "holding": self.holding, "pending": len(self.releases)}
        if action == "tasks" and method == "GET":
            return self.task_list()
        if action == "inject" and method == "POST":
            return self.inject(body)
        if action == "failed_lock" and method == "POST":
            return self.failed_lock(body)
        if action == "seeds" and method == "GET":
            return self.seeds
        if action in self.controls and method == "POST":
            with self.lock:
                return self.controls[action](body)
        raise control.ControlError("unknown control call %s %s%s (see simulator.core.Simulator.control)"
                                   % (method, CONTROL_PREFIX, "/" + action if action else ""))

    def snapshot(self):
        """Every resource's state (its declared ``STATE``), for tests."""
        return dict((name, getattr(self, name)) for resource in self.resources for name in resource.STATE)

    # ---- server -------------------------------------------------------------------------------
    def start(self, host="127.0.0.1", port=0, certfile=None, keyfile=None):
        handler = type("Handler", (SimHandler,), {"sim": self})
        self.server = ThreadingHTTPServer((host, port), handler)
        self.server.daemon_threads = True
        scheme = "http"
        if certfile:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(certfile, keyfile)
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
            scheme = "https"
        self.url = "%s://%s:%s" % (scheme, host, self.server.server_address[1])
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self.url

    def stop(self):
        if self.server:
            self.server.shutdown()
            self.server.server_close()
            self.server = None


class SimHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body are two writes: without this, keep-alive answers wait ~40 ms
    sim = None

    def log_message(self, format, *args):  # pylint: disable=redefined-builtin
        pass

    def _handle(self):
        split = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if split.path.startswith(CONTROL_PREFIX):
            try:
                body = json.loads(raw) if raw else {}
            except ValueError as exc:
                response = Response(400, {"error": "the body is not valid JSON: %s" % exc})
            else:
                try:
                    response = Response(200, self.sim.control(self.command, split.path, body))
                except control.ControlError as exc:
                    response = Response(400, {"error": str(exc)})
            self._send(response)
            return
        request = Request(self.command, split.path, split.query, self.headers, raw)
        response, delay = self.sim.dispatch(request)
        if delay:
            time.sleep(delay)
        if response is None:
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        self._send(response)

    def _send(self, response):
        payload = b"" if response.body is None or response.status == 204 else json.dumps(response.body).encode()
        self.send_response(response.status)
        if payload:
            self.send_header("Content-Type", response.content_type)
        self.send_header("Content-Length", str(len(payload)))
        for name, value in response.headers.items():
            self.send_header(name, value)
        self.end_headers()
        if payload:
            self.wfile.write(payload)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _handle


# ---- validation helpers for resource modules ------------------------------------------------
def int_param(value, name, low=None, high=None, status=422):
    """A path or query integer as the service parses it (422 when it is not an integer or out of range)."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ApiFailure(status, "%s: value is not a valid integer" % name,
                         errors=[{"loc": ["path", name], "detail": "value is not a valid integer"}])
    if (low is not None and number < low) or (high is not None and number > high):
        raise ApiFailure(status, "%s: %s is out of range" % (name, number),
                         errors=[{"loc": ["query", name], "detail": "out of range"}])
    return number


def is_uuid(value):
    try:
        uuid.UUID(str(value))
    except ValueError:
        return False
    return isinstance(value, str)


# ---- what several cloud families share: pages and user tags ---------------------------------
def page(request, records, show=copy.deepcopy, default_limit=1000):
    """A cloud list's answer ``{count, results}``: the page of ``records`` that the query's ``limit`` (1 to 1000,
    ``default_limit`` when not given) and ``offset`` (at least 0) ask for, each out of range a 422; every result
    goes through ``show`` (a copy by default)."""
    limit = int_param(request.arg("limit", str(default_limit)), "limit", low=1, high=1000)
    offset = int_param(request.arg("offset", "0"), "offset", low=0)
    return {"count": len(records), "results": [show(record) for record in records[offset:offset + limit]]}


def tag_list(tags, read_only=False):
    """User tags ``{key: value}`` as a record shows them: ``[{key, value, read_only}]``."""
    return [{"key": key, "value": value, "read_only": read_only} for key, value in tags.items()]


def merge_tags(record, patch):
    """Apply an ``UpdateTagsSerializer`` value (a JSON merge patch; null removes every user tag); read-only tags stay."""
    kept = [tag for tag in record["tags"] if tag["read_only"]]
    user = dict((tag["key"], tag["value"]) for tag in record["tags"] if not tag["read_only"])
    if patch is None:
        user = {}
    else:
        for key, value in patch.items():
            if value is None:
                user.pop(key, None)
            else:
                user[key] = value
    fixed = set(tag["key"] for tag in kept)
    record["tags"] = kept + [tag for tag in tag_list(user) if tag["key"] not in fixed]
