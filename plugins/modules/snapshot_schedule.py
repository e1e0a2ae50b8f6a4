#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: snapshot_schedule
short_description: Snapshot Gcore Cloud volumes on a schedule and keep a bounded number (a lifecycle policy)
version_added: 1.2.0
description:
  - Makes a snapshot schedule (the API calls it a lifecycle policy) exist with its name, status, schedules and volumes,
    or removes it, and does nothing when it already matches. Every call answers at once (no task).
  - The schedule is found by O(snapshot_schedule_id), otherwise by its exact O(name) in
    C(GET /cloud/v1/lifecycle_policy/{project_id}/{region_id}); two with that name fail listing their IDs. It is created
    with C(POST), renamed, paused or resumed with one C(PATCH), and deleted with C(DELETE .../{snapshot_schedule_id}).
  - Its O(schedules) and O(volumes), when given, are written by requests of their own (C(.../add_schedules),
    C(.../remove_schedules), C(PUT .../add_volumes_to_policy), C(PUT .../remove_volumes_from_policy)), only for the
    difference; left out, they are not managed.
author:
  - gcore.platform developers (@gcore-platform)
options:
  state:
    description:
      - V(present) creates or updates the snapshot schedule; V(absent) deletes it (the snapshots it made stay).
    type: str
    choices: [present, absent]
    default: present
  snapshot_schedule_id:
    description:
      - ID of the snapshot schedule (an integer, at least 1).
      - With O(name), the name it should have (a rename). An ID that does not exist fails the module with
        O(state=present) (an ID cannot be created).
      - One of O(snapshot_schedule_id) and O(name) is required.
    type: int
  name:
    description:
      - Name of the snapshot schedule, 3 to 63 characters matching
        C(^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$) (the rule of the service's C(PATCH), so that it can always
        be renamed).
      - Without O(snapshot_schedule_id), the snapshot schedule whose name is exactly this one; it is created when there
        is none. Required to create one.
    type: str
  status:
    description:
      - V(active) takes snapshots on the schedules; V(paused) takes none until it is active again.
      - Changed together with the name by one C(PATCH).
    type: str
    choices: [active, paused]
    default: active
  schedules:
    description:
      - When to take a snapshot of every volume, and how many to keep, as the complete list (at most 10, each given
        once). A schedule is identified by all its members (with the service's defaults filled in), so order does not
        count.
      - A listed schedule the policy lacks is added (one C(POST .../add_schedules) for all of them); a schedule of the
        policy that is not listed is removed (one C(POST .../remove_schedules)). A changed schedule is both; the adds
        go first while the policy stays within the service's 10 schedules.
      - Required (at least one) to create a snapshot schedule; left out, the schedules are not managed.
    type: list
    elements: dict
    suboptions:
      type:
        description:
          - V(cron) snapshots at the times its cron members give; V(interval) every period its interval members give.
          - A member of the other kind fails the module (a schedule is cron or interval, not both).
        type: str
        choices: [cron, interval]
        required: true
      minute: {description: ["(cron) Minutes 0 to 59, V(*) or a comma-separated list, for example V(0,30). Default V(0)."], type: str}
      hour: {description: ["(cron) Hours 0 to 23, V(*) or a comma-separated list. Default V(*)."], type: str}
      day: {description: ["(cron) Days of the month 1 to 31, V(*) or a comma-separated list. Default V(*)."], type: str}
      month: {description: ["(cron) Months 1 to 12, V(*) or a comma-separated list. Default V(*)."], type: str}
      week: {description: ["(cron) ISO weeks 1 to 53, V(*) or a comma-separated list. Default V(*)."], type: str}
      day_of_week: {description: ["(cron) Days of the week C(mon) to C(sun), V(*) or a comma-separated list, for example V(mon,fri). Default V(*)."], type: str}
      timezone: {description: ["(cron) The time zone of the cron times, a tz database name such as V(Europe/Luxembourg). Default V(UTC)."], type: str}
      weeks: {description: ["(interval) Weeks between snapshots (0 or more; the four interval members together must give a period)."], type: int}
      days: {description: ["(interval) Days between snapshots (0 or more)."], type: int}
      hours: {description: ["(interval) Hours between snapshots (0 or more)."], type: int}
      minutes: {description: ["(interval) Minutes between snapshots (0 or more)."], type: int}
      max_quantity:
        description:
          - How many snapshots of a volume this schedule keeps, 1 to 10000 (default 2). When it has made that many, the
            oldest is deleted as a new one is made.
        type: int
      retention_time:
        description:
          - How long a snapshot of this schedule is kept; each member 0 or more. Left out (or all 0), snapshots are kept
            until O(schedules[].max_quantity) pushes them out.
        type: dict
        suboptions:
          weeks: {description: "Weeks.", type: int}
          days: {description: "Days.", type: int}
          hours: {description: "Hours.", type: int}
          minutes: {description: "Minutes.", type: int}
      resource_name_template:
        description:
          - The name of each snapshot; it may hold C({volume_id}), C({schedule_id}), C({lifecycle_policy_id}),
            C({datetime_utc}) and C({local_datetime}). Default
            C(Snapshot of volume {volume_id} created by policy {lifecycle_policy_id}).
        type: str
  volumes:
    description:
      - The volumes to snapshot, each a volume ID (a UUID) or the exact name of a volume of the project and region, as a
        set. Every name and ID is looked up in one listing of the region's volumes before any write; a name that
        matches none or several, or an ID of another region's volume, fails the module naming it (in check mode a name
        not built yet is assumed to come from an earlier task).
      - The volumes the policy lacks are added with one C(PUT .../add_volumes_to_policy); with O(purge_volumes) the
        policy's other volumes are removed with one C(PUT .../remove_volumes_from_policy). Left out, the volumes are
        not managed.
    type: list
    elements: str
  purge_volumes: {description: ["With O(volumes), remove the policy's volumes that are not listed. V(false) only adds."], type: bool, default: true}
notes:
  - The service shows a policy's volumes only when asked (C(need_volumes=true)); the module always asks, so
    RV(policy) holds them.
  - A create sends the name, status and schedules in its C(POST); the volumes are added by the C(PUT) after it.
  - Deleting a volume takes it out of every policy; the snapshots a policy made are ordinary snapshots
    (M(gcore.platform.volume_snapshot_info)) and stay when the policy is deleted.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.snapshot_schedule_info
    description: Read snapshot schedules with their volumes.
  - module: gcore.platform.volume
    description: The volumes a schedule snapshots.
  - module: gcore.platform.volume_snapshot
    description: One snapshot taken by hand.
"""

EXAMPLES = r"""
- name: Snapshot the database volume every night at 02:00 UTC and keep seven
  gcore.platform.snapshot_schedule:
    project_id: 1
    region_id: 76
    name: db-nightly
    schedules:
      - {type: cron, hour: "2", minute: "0", max_quantity: 7}
    volumes: [data-1]
  register: nightly

- name: Pause it (one PATCH; schedules and volumes left as they are)
  gcore.platform.snapshot_schedule:
    project_id: 1
    region_id: 76
    name: db-nightly
    status: paused

- name: Every six hours instead, snapshots kept two days, and add a volume without removing any
  gcore.platform.snapshot_schedule:
    project_id: 1
    region_id: 76
    snapshot_schedule_id: "{{ nightly.policy.id }}"
    name: db-six-hourly
    status: active
    schedules:
      - {type: interval, hours: 6, max_quantity: 8, retention_time: {days: 2}}
    volumes: [attached-1]
    purge_volumes: false

- name: Delete it
  gcore.platform.snapshot_schedule:
    project_id: 1
    region_id: 76
    name: db-six-hourly
    state: absent
"""

RETURN = r"""
policy:
  description:
    - The snapshot schedule (lifecycle policy) as read last, with its schedules and volumes; V(null) after a delete and
      when there is none. In check mode, as it is now.
  returned: success
  type: dict
  contains:
    id: {description: "Snapshot schedule ID.", type: int, sample: 4}
    name: {description: "Its name.", type: str, sample: db-nightly}
    status: {description: "V(active) or V(paused).", type: str, sample: active}
    action: {description: "What it does, V(volume_snapshot).", type: str, sample: volume_snapshot}
    schedules:
      description:
        - Its schedules as the service shows them, each with its C(id) (a string), C(type), the members of its kind
          (omitted cron members shown as the service filled them), C(max_quantity), C(retention_time) (or V(null)) and
          C(resource_name_template).
      type: list
      elements: dict
      sample:
        - {id: 7a1c8a8e-0b8f-4bd4-9a48-5f0a2a1f9b01, type: cron, minute: "0", hour: "2", day: "*", month: "*", week: "*", day_of_week: "*",
           timezone: UTC, max_quantity: 7, retention_time: null,
           resource_name_template: "Snapshot of volume {volume_id} created by policy {lifecycle_policy_id}"}
    volumes:
      description: Its volumes, each C({volume_id, volume_name}).
      type: list
      elements: dict
      sample: [{volume_id: 0b3e1e4c-5c3d-4a8e-9d6f-2f6b8e1a7c92, volume_name: data-1}]
    project_id: {description: "Project ID.", type: int, sample: 1}
    region_id: {description: "Region ID.", type: int, sample: 76}
    user_id: {description: "ID of the user who created it.", type: int, sample: 1}
changes:
  description:
    - What the run changed (in check mode, what it would change). C(created) and C(updated) (renamed, paused or
      resumed) hold the name; C(schedules.added) and C(schedules.removed) each schedule as text (its kind, the members
      that are not the service's defaults, C(max_quantity), its C(resource_name_template) when not the service's);
      C(volumes.added) and C(volumes.removed) volume IDs.
    - A create lists its schedules in C(schedules.added); its volumes appear in C(volumes.added) once added (not in
      check mode, where the diff shows them).
  returned: success
  type: dict
  sample:
    created: [db-nightly]
    updated: []
    deleted: []
    schedules: {added: ["cron hour=2 minute=0, max_quantity=7"], removed: []}
    volumes: {added: [0b3e1e4c-5c3d-4a8e-9d6f-2f6b8e1a7c92], removed: []}
diff:
  description:
    - C(name) and C(status) before and after, with C(state); with O(schedules), C(schedules) (each with every member,
      the service's defaults filled in, sorted by its text); with O(volumes), C(volumes) (IDs, sorted).
  returned: success
  type: dict
  sample:
    before: {state: present, name: db-nightly, status: active, volumes: []}
    after: {state: present, name: db-nightly, status: active, volumes: [0b3e1e4c-5c3d-4a8e-9d6f-2f6b8e1a7c92]}
"""

import re

from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, ValidationError, check_pattern, check_range, is_uuid, require
from ansible_collections.gcore.platform.plugins.module_utils._children import Children
from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudResource
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS, listed
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._parents import assume, id_or_name
from ansible_collections.gcore.platform.plugins.module_utils._writes import Write, request

# The service's schedule rules and defaults (docs/api_reference.md section 19.5).
MAX_SCHEDULES = 10
TEMPLATE = "Snapshot of volume {volume_id} created by policy {lifecycle_policy_id}"
PLACEHOLDERS = ("volume_id", "schedule_id", "lifecycle_policy_id", "datetime_utc", "local_datetime")
DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
CRON = {"minute": (0, 59, "0"), "hour": (0, 23, "*"), "day": (1, 31, "*"), "month": (1, 12, "*"), "week": (1, 53, "*"),
        "day_of_week": (DAYS, None, "*")}
INTERVAL = ("weeks", "days", "hours", "minutes")
TIMEZONE = r"[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+)*"
PERIOD = dict((member, dict(type="int")) for member in INTERVAL)
SCHEDULE_SPEC = dict(type=dict(type="str", required=True, choices=["cron", "interval"]),
                     timezone=dict(type="str"), max_quantity=dict(type="int"), retention_time=dict(type="dict", options=PERIOD),
                     resource_name_template=dict(type="str"), **dict((field, dict(type="str")) for field in CRON), **PERIOD)
CHANGES = {"created": str, "updated": str, "deleted": str, "schedules": {"added": str, "removed": str},
           "volumes": {"added": str, "removed": str}}
POLICY = KINDS["snapshot_schedule"].path("/{parent_id}")  # the policy's own requests (its children's): POLICY + "/add_schedules", ...


def cron_problem(field, value):
    """Why a cron member's value is not one the service takes (None: it is)."""
    low, high, _default = CRON[field]
    for item in value.split(","):
        fits = item == "*" or (item in low if high is None else item.isdigit() and low <= int(item) <= high)
        if not fits:
            return "%r is not %s, '*' or a comma-separated list of them" % (
                value, "a day of the week (%s)" % ", ".join(DAYS) if high is None else "%s %s (%s to %s)" % (
                    "an" if field == "hour" else "a", field, low, high))
    return None


def check_schedule(where, schedule):
    """One item of ``schedules`` against the service's rules (before any request)."""
    cron = schedule["type"] == "cron"
    for member in (INTERVAL if cron else tuple(CRON) + ("timezone",)):
        require(schedule.get(member) is None, "%s.%s" % (where, member), "a%s member, not accepted with type %s (a schedule is cron "
                "or interval, not both)" % (" cron" if not cron else "n interval", schedule["type"]))
    for field in CRON:
        value = schedule.get(field)
        problem = value is not None and cron_problem(field, canonical_cron(field, value))
        require(not problem, "%s.%s" % (where, field), problem)
    check_pattern(where + ".timezone", schedule.get("timezone"), TIMEZONE, "a time zone name such as Europe/Luxembourg or UTC")
    for member in INTERVAL:
        check_range("%s.%s" % (where, member), schedule.get(member), low=0)
        check_range("%s.retention_time.%s" % (where, member), (schedule.get("retention_time") or {}).get(member), low=0)
    require(cron or any(schedule.get(member) for member in INTERVAL), where, "an interval schedule needs a period: weeks, days, "
            "hours or minutes (one at least above 0)")
    check_range(where + ".max_quantity", schedule.get("max_quantity"), 1, 10000)
    template = schedule.get("resource_name_template")
    require(template is None or template.strip(), where + ".resource_name_template", "must not be empty")
    unknown = [name for name in re.findall(r"{([^}]*)}", template or "") if name not in PLACEHOLDERS]
    require(not unknown, where + ".resource_name_template", "{%s} is not a placeholder the service fills (it fills %s)" % (
        (unknown or [""])[0], ", ".join("{%s}" % name for name in PLACEHOLDERS)))


def canonical_cron(field, value):
    return "".join(str(value).split()).lower() if field == "day_of_week" else "".join(str(value).split())


def schedule_view(schedule):
    """A schedule (an item of the option, or of a record) with the service's defaults filled in: its identity."""
    view = {"type": schedule["type"]}
    if schedule["type"] == "cron":
        view.update((field, canonical_cron(field, schedule.get(field) or default)) for field, (_l, _h, default) in CRON.items())
        view["timezone"] = schedule.get("timezone") or "UTC"
    else:
        view.update((member, schedule.get(member) or 0) for member in INTERVAL)
    retention = dict((member, (schedule.get("retention_time") or {}).get(member) or 0) for member in INTERVAL)
    view.update(max_quantity=schedule.get("max_quantity") or 2, retention_time=retention if any(retention.values()) else None,
                resource_name_template=schedule.get("resource_name_template") or TEMPLATE)
    return view


def label(view):
    """A schedule as ``changes`` tells it: its kind, its members that are not the defaults, how many it keeps (its template
    when it is not the service's: the label is the schedule's identity)."""
    if view["type"] == "cron":
        defaults = dict(((field, default) for field, (_l, _h, default) in CRON.items()), timezone="UTC")
        when = ["%s=%s" % (field, view[field]) for field in ("month", "week", "day", "day_of_week", "hour", "minute", "timezone")
                if view[field] != defaults[field]] or ["minute=0"]
    else:
        when = ["%s=%s" % (member, view[member]) for member in INTERVAL if view[member]]
    retention = view["retention_time"] or {}
    kept = "".join("%s%s" % (retention[member], member[0]) for member in INTERVAL if retention.get(member))
    template = view["resource_name_template"]
    return "%s %s, max_quantity=%s%s%s" % (view["type"], " ".join(when), view["max_quantity"], ", retention_time=" + kept if kept else "",
                                           ", resource_name_template=" + template if template != TEMPLATE else "")


def schedule_body(view):
    """What an add or a create sends for a schedule: its members, zero interval members left out."""
    return dict((key, value) for key, value in view.items() if value is not None and (key not in INTERVAL or value))


class PolicyChildren(Children):
    """Children of the policy, read with it: added in one request (``bulk_create``, its body ``batch_body(items)``) and
    removed in one, said ``added`` and ``removed``; ``room``: the adds that fit the service's limit go before the removal."""

    locked = every = listed = True

    def says(self, kind, names, ids=()):
        return {"%s.%s" % (self.name, {"create": "added", "delete": "removed"}[kind]): list(names)}

    def group(self, name, plan, held, params):
        if name == "deletes":
            return super().group(name, plan, held, params)
        room = max(0, MAX_SCHEDULES - len(held)) if "room" in self.order else 0
        items = plan.creates[:room] if name == "room" else plan.creates[room:]
        names, (method, path) = [item[self.key] for item in items], request(self.paths, "bulk_create", held.scope)
        return [Write("create", method, path, self.batch_body(items), names=names, said=self.says("create", names), reread=held.again,
                      done=lambda listing: set(names) <= set(found.get(self.key) for found in listing))] if items else []


class Schedules(PolicyChildren):
    """The policy's schedules: children identified by all their members (and so named in ``changes``), carried by the
    policy's create, the adds that fit the service's limit first."""

    inside, in_create, order = "schedules", True, ("room", "deletes", "creates")

    def __init__(self):
        super().__init__("schedules", "schedule", {"bulk_create": "POST %s/add_schedules" % POLICY, "bulk_delete": POLICY + "/remove_schedules"}, (),
                         option="schedules", key="label", mode=lambda params: "overridden", bulk_body=lambda ids: {"schedule_ids": ids})

    def check(self, module):
        items = module.params["schedules"]
        if items is not None:
            require(len(items) <= MAX_SCHEDULES, "schedules", "at most %s schedules (the service's limit), %s given" % (MAX_SCHEDULES, len(items)))
            views = []
            for index, schedule in enumerate(items):
                check_schedule("schedules[%s]" % index, schedule)
                view = schedule_view(schedule)
                require(view not in views, "schedules[%s]" % index, "the same schedule as schedules[%s] (each is given once)" % (
                    views.index(view) if view in views else 0))
                views.append(view)

    def wanted(self, module):
        items = super().wanted(module)
        return None if items is None else [self.child_of(item) for item in items]

    def child_of(self, record):
        view = schedule_view(record)
        return dict(view, id=record.get("id"), label=label(view))

    def batch_body(self, items):
        return {"schedules": [schedule_body(schedule_view(item)) for item in items]}

    shown_child = staticmethod(schedule_view)  # the diff shows a schedule with the service's defaults filled in

    def wanted_child(self, item, record, params):
        return schedule_view(item)


class Volumes(PolicyChildren):
    """The policy's volumes: children that are volume ids, added in one PUT and (``purge_volumes``) removed in one."""

    inside, ident, order, shown_child = "volumes", "volume_id", ("creates", "deletes"), staticmethod(lambda record: record["volume_id"])

    def __init__(self):
        super().__init__("volumes", "volume", {"bulk_create": "PUT %s/add_volumes_to_policy" % POLICY, "bulk_delete": "PUT %s/remove_volumes_from_policy"
                         % POLICY}, (), option="volumes", key="volume_id", mode=lambda params: "overridden" if params["purge_volumes"] else "merged",
                         bulk_body=lambda ids: {"volume_ids": ids})

    def check(self, module):
        given = []
        for index, value in enumerate(module.params["volumes"] or []):
            id_or_name("volumes[%s]" % index, value, "volume")
            require(value.lower() not in given, "volumes[%s]" % index, "given twice (volumes[%s] too)" % (
                given.index(value.lower()) if value.lower() in given else 0))
            given.append(value.lower())

    def wanted(self, module):  # once ``resolve`` turned the names into ids
        items = super().wanted(module)
        return None if items is None else [{"volume_id": ident} for ident in items]

    def batch_body(self, items):
        return {"volume_ids": [item["volume_id"] for item in items]}

    def wanted_child(self, item, record, params):
        return item["volume_id"]


class SnapshotSchedule(CloudResource):
    kind = KINDS["snapshot_schedule"]
    options = dict(
        status=dict(type="str", choices=["active", "paused"], default="active"),
        schedules=dict(type="list", elements="dict", options=SCHEDULE_SPEC),
        volumes=dict(type="list", elements="str"),
        purge_volumes=dict(type="bool", default=True),
    )
    result_key = "policy"
    waits = asynchronous = False  # every call answers at once (docs/api_reference.md section 19.5)
    lock = None
    parts = (Schedules(), Volumes())  # the update (name, status) first, then the schedules, then the volumes
    changes = CHANGES

    @property
    def members(self):
        name = self.params["name"] or str(self.params["snapshot_schedule_id"])

        renamed = []  # whether the policy read is renamed too: then its name member says the update (said once)

        def said(_desired, current):
            return {"created" if current is None else "updated": [name]}

        def status(value, record):
            renamed[:] = [record is not None and self.params["name"] not in (None, record.get("name"))]
            return value
        return (Member("name", said=said), Member("status", want=status, said=lambda desired, current: {} if current is None or renamed[0]
                                                  else said(desired, current)))

    def list_query(self):
        return dict(self.kind.list_params)

    def resolve(self):
        """Every volume of ``volumes`` (an id or an exact name) as the id of a volume of the region, from one listing of
        the region's volumes, before any write."""
        volumes, params = self.params["volumes"], self.params
        if not volumes or params["state"] == "absent":
            return
        kind = KINDS["volume"]
        listing = list(listed(self.client, kind, params))
        where, ids = kind.scope.format(**params), []
        for index, value in enumerate(volumes):
            option = "volumes[%s]" % index
            found = [volume["id"] for volume in listing if volume["id"] == value.lower() or volume.get("name") == value]
            if not found and is_uuid(value):
                raise Refused("%s: volume %s is not a volume of %s: a snapshot schedule takes the volumes of its own region "
                              "(nothing was sent)" % (option, value, where))
            if len(found) > 1:
                raise Refused("%s: %s volumes of %s are named %r (ids %s); give the id of the one to snapshot (nothing was sent)"
                              % (option, len(found), where, value, ", ".join(found)))
            if not found and not self.check_mode:
                raise Refused("%s: no volume is named %r in %s (nothing was sent)" % (option, value, where))
            ident = found[0] if found else assume(self, kind, value, option)
            require(ident not in ids, option, "the same volume as volumes[%s] (%s)" % (ids.index(ident) if ident in ids else 0, ident))
            ids.append(ident)
        volumes[:] = ids

    def create_body(self):
        params = self.params
        if not params["schedules"]:
            raise ValidationError("schedules: at least one schedule is required to create the snapshot schedule %r (nothing "
                                  "was sent)" % params["name"])
        return {"name": params["name"], "action": "volume_snapshot", "status": params["status"],
                "schedules": [schedule_body(schedule_view(item)) for item in params["schedules"]]}


def main():
    SnapshotSchedule.main()


if __name__ == "__main__":
    main()
