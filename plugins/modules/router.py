#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: router
short_description: Create, update and delete a Gcore Cloud router
version_added: 0.1.0
description:
  - Makes a Gcore Cloud router match what you describe, or removes it, and does nothing when it already matches.
  - The router is found by O(id) when it is given, otherwise by its exact O(name) over every page of the router list.
    More than one router with that name fails the module and lists their IDs.
  - A missing router is created with C(POST /cloud/v1/routers/{project_id}/{region_id}); its ID is read from the
    finished task's C(created_resources.routers).
  - An existing router is updated with C(PATCH /cloud/v2/routers/{project_id}/{region_id}/{router_id}), sending only
    the members that differ, and read again once every task has finished.
  - O(state=absent) deletes the router with C(DELETE /cloud/v1/routers/{project_id}/{region_id}/{router_id}).
  - Only the options you give are managed; an option you leave out keeps whatever the router has.
  - While another task locks the router (its C(task_id) is set), the module waits for the lock to be released, up to
    O(wait_timeout), before it sends a change or a delete, also with O(wait=false). A C(409 Conflict) answer means
    nothing was applied; the module then waits for the lock and sends the change again (at most 3 times, and never
    more than O(api_retries)).
author:
  - gcore.platform developers (@gcore-platform)
options:
  state:
    description:
      - V(present) creates or updates the router; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
  id:
    description:
      - ID (UUID) of the router.
      - When given, the router is found by this ID and O(name) is its desired name.
      - With O(state=present), a router ID that does not exist fails the module (an ID cannot be created).
      - One of O(id) and O(name) is required.
    type: str
    aliases: [router_id]
  name:
    description:
      - Name of the router, 3 to 63 characters matching C(^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$)
        (letters, digits, spaces, C(.), C(_) and C(-); it starts with a letter or digit and ends with a letter,
        digit, C(.) or C(_)).
      - Without O(id), the router whose name is exactly this one; it is created when there is none.
      - With O(id), the name the router should have (a rename).
    type: str
  routes:
    description:
      - The router's custom routes, as the complete list.
      - Compared as a set of (destination, nexthop) pairs in canonical form, so order, duplicates and the spelling
        of an address (for example an uncompressed IPv6 address) do not count as a difference.
      - V([]) removes every route; leaving the option out keeps the routes the router has.
    type: list
    elements: dict
    suboptions:
      destination:
        description:
          - Destination network in CIDR notation, IPv4 or IPv6, for example V(10.0.3.0/24).
          - Must be a network address (no host bits set), for example V(10.0.3.0/24), not V(10.0.3.1/24).
        type: str
        required: true
      nexthop:
        description:
          - IP address to forward the traffic to, of the same IP version as O(routes[].destination).
        type: str
        required: true
  external_gateway_info:
    description:
      - The router's external gateway.
      - Compared by O(external_gateway_info.network_id) and O(external_gateway_info.enable_snat); the external IPs are
        assigned by the service and are not managed.
      - Leaving the option out keeps the router's gateway as it is.
    type: dict
    suboptions:
      type:
        description:
          - V(manual) connects the router to the external network O(external_gateway_info.network_id).
          - V(default) lets the platform choose the external network of the region. The API accepts it only when a
            router is created; on an existing router any gateway satisfies it (O(external_gateway_info.enable_snat)
            is compared only when it is set), and a router without a gateway fails the module.
        type: str
        choices: [manual, default]
        default: manual
      network_id:
        description:
          - ID (UUID) of the external network.
          - Required when O(external_gateway_info.type=manual); not accepted with V(default).
        type: str
      enable_snat:
        description:
          - Whether source NAT is enabled on the gateway.
          - When not set, V(true) (the service's default) for a V(manual) gateway and when the router is created;
            with V(default) on an existing router, the current setting is kept.
        type: bool
notes:
  - Removing the gateway of a router is not supported; leaving O(external_gateway_info) out keeps the gateway as it is.
  - With O(wait=false) the module returns the task IDs in RV(tasks) without waiting for them, and RV(router) is the
    router as read before the change (V(null) when it is being created).
  - Interfaces (subnets attached to the router) are not managed by this module.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.gcore.WAIT
  - gcore.platform.attributes
"""

EXAMPLES = r"""
- name: A router connected to an external network, with one custom route
  gcore.platform.router:
    project_id: 1
    region_id: 76
    name: edge-router
    external_gateway_info:
      network_id: 8c4b5f1e-1a3b-4b4e-9d57-2f0a4cb6a001
    routes:
      - destination: 10.0.3.0/24
        nexthop: 10.0.0.13
  register: result

- name: Rename it by ID and remove every custom route
  gcore.platform.router:
    id: "{{ result.router.id }}"
    name: edge-router-2
    routes: []

- name: A router on the region's default external network, SNAT off
  gcore.platform.router:
    name: lab-router
    external_gateway_info:
      type: default
      enable_snat: false

- name: Start a change without waiting for it
  gcore.platform.router:
    name: lab-router
    routes:
      - destination: 2001:db8:10::/64
        nexthop: 2001:db8::1
    wait: false
  register: started

- name: Delete the router
  gcore.platform.router:
    name: edge-router-2
    state: absent
"""

RETURN = r"""
router:
  description:
    - The router as the service returned it when last read.
    - V(null) after a delete, and when O(state=absent) found no router.
    - With O(wait=false), the router as read before the change, or V(null) when it is being created.
    - In check mode, the router as it is now (V(null) when it would be created).
  returned: always
  type: dict
  contains:
    id:
      description: Router ID.
      type: str
      sample: 2f6c1c64-8c3e-4c2b-9bb5-0a8cbb2f1c11
    name:
      description: Router name.
      type: str
      sample: edge-router
    status:
      description: Router status as the service reports it (a free-form string, for example C(ACTIVE)).
      type: str
      sample: ACTIVE
    distributed:
      description: Whether the router is distributed.
      type: bool
      sample: false
    external_gateway_info:
      description:
        - The external gateway, or V(null) when the router has none.
        - Holds C(network_id), C(enable_snat) and C(external_fixed_ips) (a list of C({ip_address, subnet_id})).
          It has no C(type).
      type: dict
      sample:
        network_id: 8c4b5f1e-1a3b-4b4e-9d57-2f0a4cb6a001
        enable_snat: true
        external_fixed_ips:
          - ip_address: 203.0.113.10
            subnet_id: 1b5e0f2a-3c4d-4e5f-8a9b-0c1d2e3f4a01
    interfaces:
      description: Ports attached to the router, each with C(port_id), C(network_id), C(ip_assignments) and C(mac_address).
      type: list
      elements: dict
      sample: []
    routes:
      description: Custom routes, each with C(destination) and C(nexthop).
      type: list
      elements: dict
      sample:
        - destination: 10.0.3.0/24
          nexthop: 10.0.0.13
    project_id:
      description: Project ID.
      type: int
      sample: 1
    region_id:
      description: Region ID.
      type: int
      sample: 76
    region:
      description: Region name.
      type: str
      sample: Luxembourg-2
    created_at:
      description: Creation time.
      type: str
      sample: "2026-11-22T16:20:00Z"
    updated_at:
      description: Time of the last change.
      type: str
      sample: "2026-11-22T16:21:30Z"
    task_id:
      description: ID of the task that currently locks the router, or V(null) when it is not locked.
      type: str
      sample: null
    creator_task_id:
      description: ID of the task that created the router, or V(null).
      type: str
      sample: 6a1d8f3e-0b2c-4d5e-8f90-1a2b3c4d5e6f
tasks:
  description:
    - IDs of the asynchronous tasks the module started (empty when nothing was sent).
    - With O(wait=true) every one of them has finished when the module returns.
  returned: always
  type: list
  elements: str
  sample: [6a1d8f3e-0b2c-4d5e-8f90-1a2b3c4d5e6f]
diff:
  description:
    - The managed members before and after the change (C(name), C(routes) in canonical order,
      C(external_gateway_info) as C({network_id, enable_snat})), with C(state).
    - When the platform chooses the external network (V(default)) for a new router, C(network_id) is V(null) in
      C(after).
  returned: always
  type: dict
  sample:
    before:
      state: present
      name: edge-router
      routes: []
      external_gateway_info:
        network_id: 8c4b5f1e-1a3b-4b4e-9d57-2f0a4cb6a001
        enable_snat: true
    after:
      state: present
      name: edge-router
      routes:
        - destination: 10.0.3.0/24
          nexthop: 10.0.0.13
      external_gateway_info:
        network_id: 8c4b5f1e-1a3b-4b4e-9d57-2f0a4cb6a001
        enable_snat: true
"""

import time

from ansible_collections.gcore.platform.plugins.module_utils._base import (
    GcoreResourceModule,
    ValidationError,
    check_length,
    check_pattern,
    check_uuid,
    require,
)
from ansible_collections.gcore.platform.plugins.module_utils._client import ApiError
from ansible_collections.gcore.platform.plugins.module_utils._router import (
    NAME_PATTERN,
    NAME_RULE,
    canonical_routes,
    desired_gateway,
    find_by_name,
    route_problem,
    router_changes,
    router_view,
)
from ansible_collections.gcore.platform.plugins.module_utils._tasks import TaskTimeout, poll_interval

LIST = "/cloud/v1/routers/%s/%s"
ONE = "/cloud/v1/routers/%s/%s/%s"
PATCH = "/cloud/v2/routers/%s/%s/%s"
CONFLICT_RETRIES = 3  # 409 answers (router locked) re-sent after the lock is gone; never more than api_retries


class Router(GcoreResourceModule):
    argument_spec = dict(
        state=dict(type="str", choices=["present", "absent"], default="present"),
        id=dict(type="str", aliases=["router_id"]),
        name=dict(type="str"),
        routes=dict(type="list", elements="dict", options=dict(
            destination=dict(type="str", required=True),
            nexthop=dict(type="str", required=True),
        )),
        external_gateway_info=dict(type="dict", options=dict(
            type=dict(type="str", choices=["manual", "default"], default="manual"),
            network_id=dict(type="str"),
            enable_snat=dict(type="bool"),
        )),
    )
    cloud = True
    waits = True
    module_kwargs = dict(required_one_of=[("id", "name")])
    result_key = "router"

    def validate(self):
        super().validate()
        params = self.params
        check_uuid("id", params["id"])
        check_length("name", params["name"], 3, 63)
        check_pattern("name", params["name"], NAME_PATTERN, NAME_RULE)
        for index, route in enumerate(params["routes"] or []):
            problem = route_problem(index, route)
            if problem:
                raise ValidationError(problem)
        gateway = params["external_gateway_info"]
        if gateway:
            check_uuid("external_gateway_info.network_id", gateway["network_id"])
            require(gateway["type"] != "manual" or gateway["network_id"], "external_gateway_info.network_id",
                    "required when external_gateway_info.type is manual")
            require(gateway["type"] != "default" or not gateway["network_id"], "external_gateway_info.network_id",
                    "not accepted with external_gateway_info.type default (the platform chooses the network)")

    # ---- reading and comparing ------------------------------------------------------------
    def run(self):
        self.result["tasks"] = []
        return super().run()

    def find(self):
        record = self.lookup()
        if record is not None and record.get("task_id") and not self.check_mode and self.needs_write(record):
            record = self.wait_unlocked(record)
        return record

    def lookup(self):
        router_id, name = self.params["id"], self.params["name"]
        if router_id:
            record = self.read(router_id)
            if record is None and self.params["state"] == "present":
                self.module.fail_json(msg="Router %s does not exist in project %s, region %s (a router ID cannot be created)"
                                      % (router_id, self.params["project_id"], self.params["region_id"]), **self.result)
            return record
        matches = find_by_name(self.client, self.cloud_path(LIST), name)
        if len(matches) > 1:
            self.module.fail_json(msg="%s routers are named %r: %s; give the id of the one to manage"
                                  % (len(matches), name, ", ".join(router["id"] for router in matches)), **self.result)
        return matches[0] if matches else None

    def read(self, router_id):
        return self.client.get_or_none(self.cloud_path(ONE, router_id))

    def needs_write(self, record):
        return self.params["state"] == "absent" or bool(self.differences(record))

    def view(self, record):
        return router_view(record)

    def wanted(self):
        gateway = self.params["external_gateway_info"]
        return {
            "name": self.params["name"],
            "routes": canonical_routes(self.params["routes"]),
            "external_gateway_info": desired_gateway(gateway, None) if gateway else None,
        }

    def differences(self, record):
        params = self.params
        try:
            return router_changes(record, params["name"], params["routes"], params["external_gateway_info"])
        except ValueError as exc:
            raise ValidationError(str(exc))

    # ---- writes ---------------------------------------------------------------------------
    def write(self, func, done, *args):
        record = super().write(func, done, *args)
        if record and record.get("task_id") and self.params["wait"] and self.params["state"] == "present":
            # found again after an ambiguous failure, still being built or changed: wait for it as for our own task
            self.result["tasks"] = self.result["tasks"] or [record["task_id"]]
            record = self.wait_unlocked(record)
        return record

    def create(self):
        params = self.params
        body = {"name": params["name"]}
        if params["routes"] is not None:
            body["routes"] = canonical_routes(params["routes"])
        gateway = params["external_gateway_info"]
        if gateway:
            body["external_gateway_info"] = dict((key, value) for key, value in gateway.items() if value is not None)
            body["external_gateway_info"].setdefault("enable_snat", True)
        tasks = self.client.request("POST", self.cloud_path(LIST), json=body)["tasks"]
        self.result["tasks"] = tasks
        if not params["wait"]:
            return None
        created = [router_id for task in self.wait_for(tasks)
                   for router_id in ((task.get("created_resources") or {}).get("routers") or [])]
        if created:
            return self.client.get(self.cloud_path(ONE, created[0]))
        matches = find_by_name(self.client, self.cloud_path(LIST), params["name"])
        return matches[0] if len(matches) == 1 else None

    def update(self, record, changes):
        body = dict(changes)
        if "external_gateway_info" in body:
            body["external_gateway_info"] = dict(body["external_gateway_info"], type="manual")
        tasks = self.locked_write("PATCH", self.cloud_path(PATCH, record["id"]), record, body)
        return self.finish(tasks, record, lambda: self.client.get(self.cloud_path(ONE, record["id"])))

    def delete(self, record):
        tasks = self.locked_write("DELETE", self.cloud_path(ONE, record["id"]), record)
        if tasks is None:  # deleted by someone else meanwhile
            self.result["changed"] = False
            return None
        return self.finish(tasks, record, lambda: None)

    def finish(self, tasks, before, read_after):
        self.result["tasks"] = tasks
        if not self.params["wait"]:
            return before
        self.wait_for(tasks)
        return read_after()

    # ---- the router lock ------------------------------------------------------------------
    def locked_write(self, method, path, record, body=None):
        """Send a PATCH or DELETE and return its task IDs (None: the router went away before a DELETE).

        A 409 (locked router, nothing applied) is sent again once the lock is gone.
        """
        deadline = time.monotonic() + self.params["wait_timeout"]
        resends = min(CONFLICT_RETRIES, self.params["api_retries"])
        for attempt in range(resends + 1):
            try:
                return (self.client.request(method, path, json=body) or {}).get("tasks") or []
            except ApiError as exc:
                if method == "DELETE" and exc.status == 404:
                    return None
                if exc.status != 409 or attempt == resends:
                    raise
                if not self.wait_unlocked(self.read(record["id"]) or {}, deadline):
                    if method == "DELETE":
                        return None
                    raise
        return None  # not reached

    def wait_unlocked(self, record, deadline=None):
        """Wait while ``record`` is locked by a task; return it as read last (None when it is gone)."""
        deadline = deadline or time.monotonic() + self.params["wait_timeout"]
        start = time.monotonic()
        while record and record.get("task_id"):
            now = time.monotonic()
            if now >= deadline:
                task = self.tasks.get(record["task_id"])
                raise TaskTimeout("Router %s is locked by task %s, still %s after wait_timeout=%ss"
                                  % (record["id"], record["task_id"], task.get("state"), self.params["wait_timeout"]), task)
            time.sleep(min(poll_interval(now - start), deadline - now))
            record = self.read(record["id"])
        return record


def main():
    Router.main()


if __name__ == "__main__":
    main()
