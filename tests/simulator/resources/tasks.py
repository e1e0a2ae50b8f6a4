# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cloud tasks: GET /cloud/v1/tasks/{task_id}, and the listing GET /cloud/v1/tasks with its filters and pages
(docs/api_reference.md section 1)."""

from __future__ import annotations

import copy
import datetime

from simulator import control
from simulator.core import ApiFailure, Resource, Route, int_param, page
from simulator.validation import check_enum, invalid

STATES = ("NEW", "RUNNING", "FINISHED", "ERROR")


def timestamp(name, value):
    """An ISO 8601 date-time query value (a naive one is UTC), as the service parses it; a 422 otherwise."""
    try:
        moment = datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        invalid(name, "invalid datetime format")
    return moment if moment.tzinfo else moment.replace(tzinfo=datetime.timezone.utc)


class Tasks(Resource):
    NAME = "tasks"
    ROUTES = (
        Route("GET", r"/cloud/v1/tasks", "list_tasks"),
        Route("GET", r"/cloud/v1/tasks/(?P<task_id>[^/]+)", "get_task"),
        Route("GET", r"/v1/tasks/(?P<task_id>[^/]+)", "get_task"),
    )
    SETTINGS = {
        "legacy_task_path": (False, control.boolean),
    }

    def get_task(self, request):
        # config["legacy_task_path"]: only the path the requirements name (/v1/tasks) answers
        legacy = self.sim.config.get("legacy_task_path", False)
        if request.path.startswith("/cloud/") == legacy:
            raise ApiFailure(404, "Not Found")
        task = self.sim.tasks.get(request.params["task_id"])
        if task is None:
            raise ApiFailure(404, "Task %s not found" % request.params["task_id"])
        return copy.deepcopy(task["record"])

    def list_tasks(self, request):
        """The tasks the filters select: ``project_id``, ``region_id``, ``state`` and ``task_type`` (each may be
        repeated: any of the values), ``from_timestamp``/``to_timestamp`` (creation time, both ends included),
        ``is_acknowledged``; by creation time, newest first unless ``order_by=asc``; ``limit`` 10 by default, at most
        1000, and ``offset``."""
        def values(name, parse):
            return set(parse(value) for value in request.query.get(name, []))

        projects = values("project_id", lambda value: int_param(value, "project_id"))
        regions = values("region_id", lambda value: int_param(value, "region_id"))
        states = values("state", str)
        for state in states:
            check_enum("state", state, STATES)
        types = values("task_type", str)
        since, until = [timestamp(name, request.arg(name)) if request.arg(name) else None for name in ("from_timestamp", "to_timestamp")]
        order = request.arg("order_by", request.arg("sorting", "desc"))
        check_enum("order_by", order, ("asc", "desc"))
        acknowledged = request.arg("is_acknowledged")
        if acknowledged not in (None, "true", "false"):
            invalid("is_acknowledged", "value could not be parsed to a boolean")

        def selected(record):
            created = timestamp("created_on", record["created_on"])
            return ((not projects or record["project_id"] in projects) and (not regions or record["region_id"] in regions)
                    and (not states or record["state"] in states) and (not types or record["task_type"] in types)
                    and (since is None or created >= since) and (until is None or created <= until)
                    and (acknowledged is None or (record["acknowledged_at"] is not None) == (acknowledged == "true")))

        records = [task["record"] for task in self.sim.tasks.values() if selected(task["record"])]  # in creation order
        if order == "desc":
            records.reverse()
        records.sort(key=lambda record: record["created_on"], reverse=order == "desc")  # stable within one second
        return page(request, records, default_limit=10)
