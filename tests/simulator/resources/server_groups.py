# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cloud server groups, the API's name for placement groups (docs/api_reference.md section 16.5), holding instances of
the one instance store (``instances.py``).

- ``POST /cloud/v1/servergroups/{p}/{r}`` (``CreateServerGroupSerializer``: ``name*`` 3-110 characters of the
  server-group pattern, ``policy*`` ``affinity``, ``anti-affinity`` or ``soft-anti-affinity``): **200 with the record,
  synchronous** (no task). Names need not be unique.
- ``GET /cloud/v1/servergroups/{p}/{r}``: ``{count, results}``; ``limit`` 1-1000 (default 1000) and ``offset`` (SDK
  0.59); ``GET .../{group_id}``: ``ServerGroupSerializer`` (``servergroup_id``, ``name``, ``policy``, ``instances``
  ``[{instance_id, instance_name}]``, ``project_id``, ``region_id``, ``region``; no ``id``, tags or timestamps).
- ``DELETE .../{group_id}``: a ``delete_servergroup`` task; refused (400) while the group holds an instance.
- Membership (``instances.py``): an instance created with ``servergroup_id`` (an unknown group: 404) joins when its
  create task finishes; ``POST /cloud/v1/instances/{p}/{r}/{id}/put_into_servergroup`` ``{servergroup_id}`` and
  ``.../remove_from_servergroup`` are tasks. An instance that is gone leaves its group.

For the instance family: ``groups_of(sim)`` is this resource (``group``, ``group_holding``, ``join``, ``leave``).
State: ``sim.server_groups`` (id -> record).
"""

from __future__ import annotations

import copy
import re
import uuid

from simulator.core import ApiFailure
from simulator.resources.production import Collection, family, in_scope, instances, region_of, scope
from simulator.validation import check_enum, check_object, invalid

NAME_PATTERN = re.compile(r"^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,108}[a-zA-Z0-9._]$")
POLICIES = ("affinity", "anti-affinity", "soft-anti-affinity")


class ServerGroups(Collection):
    NAME, NOUN, COLLECTION, TASK, TASK_TYPES = "server_groups", "Server group", "servergroups", "servergroup", ("delete_servergroup",)
    ID_KEY, ID_PARAM, ID_CHECK = "servergroup_id", "group_id", None

    # ---- for the instance family ------------------------------------------------------------------
    def group(self, ident, project_id, region_id):
        """The group of the scope (404 otherwise)."""
        self.sync()
        return in_scope(self.sim.server_groups, ident, project_id, region_id, "Server group")

    def group_holding(self, instance_id):
        self.sync()
        return next((record for record in self.sim.server_groups.values()
                     if any(item["instance_id"] == instance_id for item in record["instances"])), None)

    def join(self, group_id, instance):
        record = self.sim.server_groups.get(group_id)
        if record is not None and not any(item["instance_id"] == instance["id"] for item in record["instances"]):
            record["instances"].append({"instance_id": instance["id"], "instance_name": instance["name"]})

    def leave(self, instance_id):
        for record in self.sim.server_groups.values():
            record["instances"] = [item for item in record["instances"] if item["instance_id"] != instance_id]

    def sync(self):
        """Members follow the instance store: a deleted instance leaves its group, a renamed one shows its new name."""
        names = dict((record["id"], record["name"]) for record in instances(self.sim))
        for record in self.sim.server_groups.values():
            record["instances"] = [dict(item, instance_name=names[item["instance_id"]])
                                   for item in record["instances"] if item["instance_id"] in names]

    # ---- requests ---------------------------------------------------------------------------------
    def create(self, request):
        project_id, region_id = scope(request)
        body = request.json
        check_object("", body, ("name", "policy"), ("name", "policy"))
        if not isinstance(body["name"], str) or not NAME_PATTERN.match(body["name"]):
            invalid("name", "string does not match pattern %s" % NAME_PATTERN.pattern)
        check_enum("policy", body["policy"], POLICIES)
        record = dict(servergroup_id=str(uuid.uuid4()), name=body["name"], policy=body["policy"], instances=[],
                      **region_of(project_id, region_id))
        self.sim.server_groups[record["servergroup_id"]] = record
        return copy.deepcopy(record)

    def refuse_delete(self, record):
        if record["instances"]:
            raise ApiFailure(400, "Server group %s still holds instance %s; take the instances out first"
                             % (record["servergroup_id"], record["instances"][0]["instance_id"]))


def groups_of(sim):
    """The server-group family of ``sim`` (None without it)."""
    return family(sim, ServerGroups.NAME)
