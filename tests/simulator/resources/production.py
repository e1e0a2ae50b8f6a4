# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the Cloud families share (networks, routers, floating IPs, volumes, security groups and the production families
of docs/api_reference.md section 16): the project/region scope of a request, a record found in it or 404, a family
found by its NAME, the records of the one instance store, and ``Collection``: a plain Cloud collection as a
declaration, the routes and common handlers coming from it. No family is declared here."""

from __future__ import annotations

import copy

from simulator.core import ApiFailure, Resource, Response, Route, int_param, is_uuid, now_iso, page
from simulator.validation import invalid

REGIONS = {76: "Luxembourg-2", 1: "Luxembourg"}
SEED_PROJECT, SEED_REGION = 1, 76


def scope(request):
    """``(project_id, region_id)`` of a request's path (422 when not integers); a project's collection has no region
    (None) and its project is at least 1."""
    if "region_id" not in request.params:
        return int_param(request.params["project_id"], "project_id", low=1), None
    return int_param(request.params["project_id"], "project_id"), int_param(request.params["region_id"], "region_id")


def region_of(project_id, region_id):
    """The ``project_id``, ``region_id`` and ``region`` members every record of these families has."""
    return {"project_id": project_id, "region_id": region_id, "region": REGIONS.get(region_id, "Region %s" % region_id)}


def family(sim, name):
    """The resource family of ``sim`` with that NAME, or None."""
    return next((resource for resource in sim.resources if resource.NAME == name), None)


def instances(sim):
    """Every instance record of the one instance store (``sim.instances``)."""
    store = getattr(sim, "instances", None) or []
    return list(store.values()) if isinstance(store, dict) else list(store)


def instance(sim, ident, project_id, region_id):
    return next((record for record in instances(sim) if record.get("id") == ident
                 and (record.get("project_id"), record.get("region_id")) == (project_id, region_id)), None)


def path_uuid(request, name):
    """A uuid4 path member: 422 when it is not a uuid (the service's pydantic answer)."""
    value = request.params[name]
    if not is_uuid(value):
        raise ApiFailure(422, "%s: value is not a valid uuid" % name, errors=[{"loc": ["path", name], "detail": "value is not a valid uuid"}])
    return value


def in_scope(store, ident, project_id, region_id, noun):
    """The record of ``store`` (id -> record) in the scope, or 404."""
    record = store.get(ident)
    if record is None or (record.get("project_id"), record.get("region_id")) != (project_id, region_id):
        raise ApiFailure(404, "%s %s not found" % (noun, ident))
    return record


def unlock_failed(sim, store, created, remove=None, unlocked=None):
    """The task sync of a family whose records carry their lock (``task_id``): every record of ``store`` (id -> record)
    whose task is gone or ended in ERROR is released; a failed create (``created(record, task)``) is removed
    (``remove(ident)``; default: from the store), any other write unlocks its record (``unlocked(record)``: what else
    it sets then)."""
    for ident, record in list(store.items()):
        task = sim.tasks.get(record["task_id"]) if record["task_id"] else None
        if record["task_id"] and (task is None or (task["done"] and task["record"]["state"] == "ERROR")):
            if created(record, task):
                (remove or store.pop)(ident)
            else:
                record["task_id"] = None
                if unlocked:
                    unlocked(record)


def settle_steps(sim, steps, find):
    """The task sync of a family that keeps its writes' tasks apart (``steps``: id -> (task id, status on failure)): a
    step whose record went or whose task ended is forgotten; a task gone or ended in ERROR unlocks its record (``find(id)``)
    in the step's failure status (None: the status it has)."""
    for ident, (task_id, failure) in list(steps.items()):
        task = sim.tasks.get(task_id)
        record = find(ident)
        if record is None or task is None or task["done"]:
            del steps[ident]
            if record is not None and (task is None or task["record"]["state"] == "ERROR"):
                record.update(task_id=None, status=failure or record["status"], **stamped(record))


def stamped(record):
    """``updated_at`` now, for a record that has the member."""
    return {"updated_at": now_iso()} if "updated_at" in record else {}


def boolean_query(request, name):
    """A boolean query parameter (None when absent; 422 when not true/false)."""
    value = request.arg(name)
    if value is None:
        return None
    if value.lower() not in ("true", "false", "1", "0"):
        raise ApiFailure(422, "%s: value could not be parsed to a boolean" % name,
                         errors=[{"loc": ["query", name], "detail": "value could not be parsed to a boolean"}])
    return value.lower() in ("true", "1")


class Collection(Resource):
    """A plain Cloud collection as a declaration, in the words of the modules' kinds table (``Kind``); a subclass sets:

    - ``NOUN`` (in messages: ``"<NOUN> <id> not found"``), ``COLLECTION`` (the path segment), ``VERSION`` (its
      version, v1 by default), ``VERSIONS`` (``{operation: "v2"}`` where one of ``list``, ``create``, ``get``,
      ``update``, ``delete`` is at another version; or ``(version, collection)`` where it is in another collection),
      ``REGIONAL`` (False: ``/{project_id}`` only), ``ACTIONS``: more routes, ``(method, suffix, handler[, version[,
      collection]])`` (``"/{id}/extend"``);
    - ``ID_KEY`` (the record member holding the id), ``ID_PARAM`` (its path member), ``ID_CHECK`` (``"uuid"`` or
      ``"int"``: 422 otherwise; None: any text);
    - ``NAME_QUERY``: the listing's name filter ``(parameter, longest value or None)``, matching a part of the name;
      ``PAGE``: the listing's default ``limit`` (None: the listing has no pages);
    - ``TASK``: the noun of the family's task types (``delete_<TASK>``; None: no task, a delete answers 204);
      ``STEPS``: ``{step: (status while its task runs, status it leaves, status it fails in)}`` (None: as it is; the
      status before, for a failure), the tasks kept in ``steps`` (id -> (task id, failure status)) for ``sync``
      (``settle_steps``).

    The routes: ``GET`` of the collection (``listing``: the scope's records that every ``filters`` test passes,
    ``ordered``, paged, each ``shown``), ``GET`` of a record (``read``), ``DELETE`` (``delete``: ``refuse_delete``
    may refuse, then ``removed`` when the task finishes) and, where the family defines them, ``create`` (``POST`` of
    the collection) and ``update`` (``PATCH`` of a record); then ``ACTIONS`` and the family's own ``ROUTES``. Every
    read first settles the tasks (``sync``). A record with a ``task_id`` member carries its lock: a write to it while
    set answers 409, and ``begin`` sets it. ``STATE`` is the store (``sim.<NAME>``: id -> record).
    """

    NOUN = COLLECTION = ID_PARAM = TASK = None
    VERSION = "v1"
    VERSIONS = {}
    REGIONAL = True
    ACTIONS = ()
    ID_KEY = "id"
    ID_CHECK = "uuid"
    NAME_QUERY = None
    PAGE = 1000
    STEPS = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.ID_PARAM = cls.ID_PARAM or cls.NOUN.lower().replace(" ", "_") + "_id"
        cls.STATE = cls.__dict__.get("STATE", (cls.NAME,))
        generic = (("GET", "", "list", "listing"), ("POST", "", "create", "create"), ("GET", "/{id}", "get", "read"),
                   ("PATCH", "/{id}", "update", "update"), ("DELETE", "/{id}", "delete", "delete"))
        versions = dict((operation, version if isinstance(version, tuple) else (version,)) for operation, version in cls.VERSIONS.items())
        cls.ROUTES = tuple(Route(method, cls.path(suffix, *versions.get(operation, ())), handler)
                           for method, suffix, operation, handler in generic if getattr(cls, handler, None)) + tuple(
            Route(method, cls.path(suffix, *version), handler) for method, suffix, handler, *version in cls.ACTIONS
        ) + tuple(cls.__dict__.get("ROUTES", ()))

    @classmethod
    def path(cls, suffix="", version=None, collection=None):
        """A path regex of the collection (or a sibling ``collection``) at ``version`` (``VERSION``), then ``suffix``
        (``{id}``: the record's id)."""
        owner = r"/(?P<project_id>[^/]+)" + (r"/(?P<region_id>[^/]+)" if cls.REGIONAL else "")
        return "/cloud/%s/%s%s%s" % (version or cls.VERSION, collection or cls.COLLECTION, owner, suffix.replace("{id}", "(?P<%s>[^/]+)" % cls.ID_PARAM))

    @property
    def store(self):
        return getattr(self.sim, self.NAME)

    def reset(self):
        setattr(self.sim, self.NAME, {})

    def sync(self):
        """Settle what the finished tasks changed (the default: nothing to settle)."""

    def shown(self, record, request=None):
        """A record as answered (to ``request``)."""
        return copy.deepcopy(record)

    def filters(self, request):
        """The listing's tests of a record, from the query (the name filter's is added)."""
        return []

    def ordered(self, request, records):
        return records

    def refuse_delete(self, record):
        """Raise ``ApiFailure`` when the service refuses to delete the record."""

    def removed(self, record):
        """What the (finished) delete does."""
        self.store.pop(record[self.ID_KEY], None)

    def ident(self, request):
        if self.ID_CHECK == "int":
            return int_param(request.params[self.ID_PARAM], self.ID_PARAM)
        return path_uuid(request, self.ID_PARAM) if self.ID_CHECK == "uuid" else request.params[self.ID_PARAM]

    def one(self, request, unlocked=False):
        """The record of the path in the request's scope (404 otherwise); ``unlocked``: 409 while a task holds it."""
        project_id, region_id = scope(request)
        ident = self.ident(request)
        self.sync()
        record = in_scope(self.store, ident, project_id, region_id, self.NOUN)
        return self.unlocked(record) if unlocked else record

    def unlocked(self, record):
        """The record, or 409 while a task holds it."""
        if record.get("task_id"):
            raise ApiFailure(409, "%s %s is locked by task %s; try again when it has finished" % (self.NOUN, record[self.ID_KEY], record["task_id"]))
        return record

    def begin(self, record, step, apply, data=None):
        """Start the ``<step>`` task of a record: locked (if it carries a lock) and in the step's status while it runs;
        when it finishes, unlocked, in the step's status after, and ``apply`` runs."""
        during, after, failure = self.STEPS.get(step, (None, None, None))

        def finish():
            if "task_id" in record:
                record.update(task_id=None, **stamped(record))
            if after:
                record["status"] = after
            return apply()

        task_id = self.sim.start_task("%s_%s" % (step, self.TASK), apply=finish, project_id=record["project_id"], region_id=record["region_id"], data=data)
        if self.STEPS:
            self.steps[record[self.ID_KEY]] = (task_id, failure or record["status"])
        if "task_id" in record:
            record["task_id"] = task_id
        if during:
            record["status"] = during
        return task_id

    def listing(self, request):
        tests = []
        if self.NAME_QUERY and request.arg(self.NAME_QUERY[0]) is not None:
            name = request.arg(self.NAME_QUERY[0])
            if self.NAME_QUERY[1] is not None and len(name) > self.NAME_QUERY[1]:
                invalid(self.NAME_QUERY[0], "ensure this value has at most %s characters" % self.NAME_QUERY[1])
            tests.append(lambda record: name in record["name"])
        project_id, region_id = scope(request)
        tests += self.filters(request)
        self.sync()
        found = self.ordered(request, [record for record in self.store.values()
                                       if (record["project_id"], record.get("region_id")) == (project_id, region_id)
                                       and all(test(record) for test in tests)])
        if self.PAGE is None:
            return {"count": len(found), "results": [self.shown(record, request) for record in found]}
        return page(request, found, show=lambda record: self.shown(record, request), default_limit=self.PAGE)

    def read(self, request):
        return self.shown(self.one(request), request)

    def delete(self, request):
        record = self.one(request, unlocked=True)
        self.refuse_delete(record)
        if self.TASK is None:
            self.removed(record)
            return Response(204)
        return {"tasks": [self.begin(record, "delete", lambda: self.removed(record))]}
