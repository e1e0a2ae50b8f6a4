# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Snapshot schedules, the API's lifecycle policies (docs/api_reference.md section 19.5), of the volumes of the volume
family (``sim.volumes``). **Every call is synchronous**: no task; a policy id is an integer, a schedule id a string.

- ``POST /cloud/v1/lifecycle_policy/{p}/{r}`` (``CreateLifecyclePolicySerializer``: ``name*`` any non-empty string,
  ``action*`` ``volume_snapshot``, ``status`` ``active`` (default) or ``paused``, ``schedules`` at most 10,
  ``volume_ids`` uuids of volumes of the scope, 404 else): 200 with the record.
- ``GET .../{p}/{r}``: ``{count, results}``, not paged (``limit``/``offset`` are not read); ``GET .../{policy_id}``
  (an integer, else 422; another scope's: 404). A record's ``volumes`` (``[{volume_id, volume_name}]``) is shown only
  with the query ``need_volumes=true`` (on any call, writes included); otherwise it is ``[]``.
- ``PATCH .../{policy_id}`` ``{name (the Cloud NAME pattern), status}``: 200 with the record.
- ``DELETE .../{policy_id}``: 204; the snapshots it made stay (they are ordinary snapshots).
- ``POST .../{policy_id}/add_schedules`` ``{schedules*}`` and ``.../remove_schedules`` ``{schedule_ids*}`` (an id the
  policy does not have: 400); ``PUT .../add_volumes_to_policy`` and ``.../remove_volumes_from_policy``
  ``{volume_ids*}`` (a volume not of the scope: 404; adding one already there, or removing one not there, changes
  nothing): 200 with the record.
- A schedule (``oneOf`` by ``type``): ``cron`` takes ``minute`` (0-59), ``hour`` (0-23), ``day`` (1-31), ``month``
  (1-12), ``week`` (1-53), ``day_of_week`` (``mon``...``sun``), each ``*`` or a comma-separated list of such values,
  and ``timezone``; ``interval`` takes ``weeks``, ``days``, ``hours``, ``minutes`` (integers >= 0, one at least
  positive, else 400). A member of the other type is refused (422), so is one the schemas do not have. Both take
  ``max_quantity`` (1-10000, default 2), ``retention_time`` ``{weeks, days, hours, minutes}`` (integers >= 0) and
  ``resource_name_template`` (default below; only the placeholders of ``PLACEHOLDERS``, else 400). Omitted cron fields
  are kept as ``*`` (``minute``: ``0``) and the timezone as ``UTC`` [inferred, as the Terraform provider fills them];
  omitted interval members and retention members are ``null``. A policy holds at most 10 schedules (400 past it).
- A deleted volume leaves every policy; a renamed one shows its new name.

State: ``sim.lifecycle_policies`` (id -> record, volumes kept as ids).
"""

from __future__ import annotations

import copy
import re
import uuid

from simulator.core import ApiFailure
from simulator.resources.production import Collection, boolean_query, in_scope, scope
from simulator.validation import check_enum, check_int, check_list, check_object, check_str, check_uuid, invalid

NAME = re.compile(r"^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$")
MAX_SCHEDULES = 10
TEMPLATE = "Snapshot of volume {volume_id} created by policy {lifecycle_policy_id}"
PLACEHOLDERS = ("volume_id", "schedule_id", "lifecycle_policy_id", "datetime_utc", "local_datetime")
DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
CRON = {"minute": (0, 59), "hour": (0, 23), "day": (1, 31), "month": (1, 12), "week": (1, 53), "day_of_week": DAYS}
CRON_DEFAULTS = dict(dict((field, "*") for field in CRON), minute="0", timezone="UTC")
INTERVAL = ("weeks", "days", "hours", "minutes")
COMMON = ("type", "max_quantity", "retention_time", "resource_name_template")
TIMEZONE = re.compile(r"^[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+)*$")


def cron_value(field, value):
    """Whether a cron field's value is ``*`` or a comma-separated list of the field's values."""
    allowed = CRON[field]
    for item in value.replace(" ", "").split(","):
        if item == "*":
            continue
        if isinstance(allowed[0], str):
            if item.lower() not in allowed:
                return False
        elif not (item.isdigit() and allowed[0] <= int(item) <= allowed[1]):
            return False
    return True


def check_schedule(loc, schedule):
    """One schedule of a create or an add, as the service checks it."""
    if not isinstance(schedule, dict) or schedule.get("type") not in ("cron", "interval"):
        invalid(loc + ".type", "value is not one of cron, interval (the discriminator)")
    cron = schedule["type"] == "cron"
    check_object(loc, schedule, ("type",), COMMON + (tuple(CRON) + ("timezone",) if cron else INTERVAL))
    check_int(loc + ".max_quantity", schedule.get("max_quantity", 2), low=1, high=10000)
    retention = schedule.get("retention_time")
    if retention is not None:
        check_object(loc + ".retention_time", retention, (), INTERVAL)
        for member, value in retention.items():
            check_int("%s.retention_time.%s" % (loc, member), value, low=0)
    template = schedule.get("resource_name_template", TEMPLATE)
    check_str(loc + ".resource_name_template", template, min_length=1)
    unknown = [name for name in re.findall(r"{([^}]*)}", template) if name not in PLACEHOLDERS]
    if unknown:
        raise ApiFailure(400, "%s.resource_name_template: unknown placeholder {%s} (allowed: %s)" % (loc, unknown[0], ", ".join(PLACEHOLDERS)))
    if cron:
        for field in CRON:
            if field in schedule:
                check_str("%s.%s" % (loc, field), schedule[field])
                if not cron_value(field, schedule[field]):
                    raise ApiFailure(400, "%s.%s: %r is not a valid cron value" % (loc, field, schedule[field]))
        if "timezone" in schedule:
            check_str(loc + ".timezone", schedule["timezone"])
            if not TIMEZONE.match(schedule["timezone"]):
                raise ApiFailure(400, "%s.timezone: unknown timezone %r" % (loc, schedule["timezone"]))
        return
    for member in INTERVAL:
        check_int("%s.%s" % (loc, member), schedule.get(member, 0), low=0)
    if not any(schedule.get(member) for member in INTERVAL):
        raise ApiFailure(400, "%s: an interval schedule needs a period (weeks, days, hours or minutes)" % loc)


def new_schedule(schedule, policy):
    """The schedule record of a checked schedule of ``policy``."""
    record = {"id": str(uuid.uuid4()), "type": schedule["type"], "max_quantity": schedule.get("max_quantity", 2),
              "owner": "lifecycle_policy", "owner_id": policy["id"], "user_id": policy["user_id"],
              "resource_name_template": schedule.get("resource_name_template", TEMPLATE),
              "retention_time": None if schedule.get("retention_time") is None
              else dict((member, schedule["retention_time"].get(member)) for member in INTERVAL)}
    if schedule["type"] == "cron":
        record.update((field, schedule.get(field, default).replace(" ", "") if field != "timezone" else schedule.get(field, default))
                      for field, default in CRON_DEFAULTS.items())
    else:
        record.update((member, schedule.get(member)) for member in INTERVAL)
    return record


class LifecyclePolicies(Collection):
    NAME, NOUN, COLLECTION, ID_PARAM, ID_CHECK, PAGE = "lifecycle_policies", "Lifecycle policy", "lifecycle_policy", "policy_id", "int", None
    ACTIONS = (("POST", "/{id}/add_schedules", "add_schedules"), ("POST", "/{id}/remove_schedules", "remove_schedules"),
               ("PUT", "/{id}/add_volumes_to_policy", "add_volumes"), ("PUT", "/{id}/remove_volumes_from_policy", "remove_volumes"))

    def reset(self):
        super().reset()
        self.next_id = 1

    # ---- records ----------------------------------------------------------------------------------
    def volumes(self):
        return getattr(self.sim, "volumes", None) or {}

    def shown(self, record, request=None):
        """The record as answered: ``volumes`` only with ``need_volumes=true``."""
        shown = copy.deepcopy(record)
        store = self.volumes()
        held = [ident for ident in record["volumes"] if ident in store]
        record["volumes"] = held  # a deleted volume leaves the policy
        shown["volumes"] = [{"volume_id": ident, "volume_name": store[ident]["name"]} for ident in held] \
            if boolean_query(request, "need_volumes") else []
        return shown

    def volume_ids(self, loc, ids, project_id, region_id, uuids=False):
        """The ids of volumes of the scope (404 for another's, or none)."""
        check_list(loc, ids)
        for index, ident in enumerate(ids):
            (check_uuid if uuids else check_str)("%s.%s" % (loc, index), ident)
            in_scope(self.volumes(), ident, project_id, region_id, "Volume")
        return list(dict.fromkeys(ids))

    def checked_schedules(self, loc, schedules):
        check_list(loc, schedules)
        for index, schedule in enumerate(schedules):
            check_schedule("%s.%s" % (loc, index), schedule)
        return schedules

    # ---- requests ---------------------------------------------------------------------------------
    def create(self, request):
        project_id, region_id = scope(request)
        body = request.json
        check_object("", body, ("name", "action"), ("name", "action", "status", "schedules", "volume_ids"))
        check_str("name", body["name"], min_length=1)
        check_enum("action", body["action"], ("volume_snapshot",))
        check_enum("status", body.get("status", "active"), ("active", "paused"))
        schedules = self.checked_schedules("schedules", body.get("schedules", []))
        if len(schedules) > MAX_SCHEDULES:
            invalid("schedules", "ensure this value has at most %s items" % MAX_SCHEDULES)
        volumes = self.volume_ids("volume_ids", body.get("volume_ids", []), project_id, region_id, uuids=True)
        record = {"id": self.next_id, "name": body["name"], "action": body["action"], "status": body.get("status", "active"),
                  "user_id": 1, "project_id": project_id, "region_id": region_id, "schedules": [], "volumes": volumes}
        self.next_id += 1
        record["schedules"] = [new_schedule(schedule, record) for schedule in schedules]
        self.sim.lifecycle_policies[record["id"]] = record
        return self.shown(record, request)

    def update(self, request):
        record = self.one(request)
        body = request.json
        check_object("", body, (), ("name", "status"))
        if "name" in body:
            check_str("name", body["name"])
            if not NAME.match(body["name"]):
                invalid("name", "string does not match pattern %s" % NAME.pattern)
        if "status" in body:
            check_enum("status", body["status"], ("active", "paused"))
        record.update(body)
        return self.shown(record, request)

    def add_schedules(self, request):
        record = self.one(request)
        body = request.json
        check_object("", body, ("schedules",), ("schedules",))
        schedules = self.checked_schedules("schedules", body["schedules"])
        if len(record["schedules"]) + len(schedules) > MAX_SCHEDULES:
            raise ApiFailure(400, "Lifecycle policy %s has %s schedules: %s more would pass the limit of %s"
                             % (record["id"], len(record["schedules"]), len(schedules), MAX_SCHEDULES))
        record["schedules"] += [new_schedule(schedule, record) for schedule in schedules]
        return self.shown(record, request)

    def remove_schedules(self, request):
        record = self.one(request)
        body = request.json
        check_object("", body, ("schedule_ids",), ("schedule_ids",))
        ids = check_list("schedule_ids", body["schedule_ids"])
        held = [schedule["id"] for schedule in record["schedules"]]
        for index, ident in enumerate(ids):
            check_str("schedule_ids.%s" % index, ident)
            if ident not in held:
                raise ApiFailure(400, "Schedule %s is not a schedule of lifecycle policy %s" % (ident, record["id"]))
        record["schedules"] = [schedule for schedule in record["schedules"] if schedule["id"] not in ids]
        return self.shown(record, request)

    def volume_change(self, request, add):
        record = self.one(request)
        body = request.json
        check_object("", body, ("volume_ids",), ("volume_ids",))
        ids = self.volume_ids("volume_ids", body["volume_ids"], record["project_id"], record["region_id"])
        record["volumes"] = list(dict.fromkeys(record["volumes"] + ids)) if add else [ident for ident in record["volumes"] if ident not in ids]
        return self.shown(record, request)

    def add_volumes(self, request):
        return self.volume_change(request, True)

    def remove_volumes(self, request):
        return self.volume_change(request, False)
