# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the Cloud families share (networks, routers, floating IPs, volumes, security groups and the production families
of docs/api_reference.md section 16): the project/region scope of a request, a record found in it or 404, a family
found by its NAME, and the records of the one instance store. Plain functions: this module declares no resource."""

from __future__ import annotations

from simulator.core import ApiFailure, int_param, is_uuid, now_iso

REGIONS = {76: "Luxembourg-2", 1: "Luxembourg"}
SEED_PROJECT, SEED_REGION = 1, 76


def scope(request):
    """``(project_id, region_id)`` of a request's path (422 when not integers)."""
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
                record.update(task_id=None, status=failure or record["status"], updated_at=now_iso())


def boolean_query(request, name):
    """A boolean query parameter (None when absent; 422 when not true/false)."""
    value = request.arg(name)
    if value is None:
        return None
    if value.lower() not in ("true", "false", "1", "0"):
        raise ApiFailure(422, "%s: value could not be parsed to a boolean" % name,
                         errors=[{"loc": ["query", name], "detail": "value could not be parsed to a boolean"}])
    return value.lower() in ("true", "1")
