# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cloud tasks: GET /cloud/v1/tasks/{task_id} (docs/api_reference.md section 1)."""

from __future__ import annotations

import copy

from simulator import control
from simulator.core import ApiFailure, Resource, Route


class Tasks(Resource):
    NAME = "tasks"
    ROUTES = (
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
