# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""A fleet: many instances declared in one task (the ``instances`` module).

This module is internal to the collection: its interface may change at any time.

A fleet is not a second flow: each member is an ``Instance`` (``_instance_resource``) run through the one resource flow
(``_resource``), with what the members share done once for the fleet and the waits batched:

- one listing (every page) finds every member; two instances with a member's name fail, listing their ids;
- each member is built inside this run (``Flow.within``); the names the options hold (placement group, images,
  snapshots, security groups) are resolved once, on a template member, before any write, and every member takes them;
- members found on their way to ready (``BUILD`` after ``wait: false``) are waited for together (one listing per poll);
- the creates are sent first, all of them; then their tasks are waited for together (``TaskWaiter.wait_each``), then
  the new instances' readiness together; then what a create body could not carry (a stop) per member;
- existing members converge as ``instance`` makes one converge, each member's plan sent round by round: the n-th
  write of every member, then their tasks together (``together``: the one flow's ``apply_together``); deletes (``state: absent``, or ``purge`` scaling
  in from the highest index) likewise;
- with ``rolling``, the members only a new instance can change (``Instance.renewed``) and those to resize are rolled a
  batch at a time (``roll``): a replaced member's delete is planned by a member of its own (``gone``), then it is created.

A member that fails leaves the others: the task fails naming the members created and those that failed; ``changed``
is true once any write was accepted.
"""

from __future__ import annotations

import re
import time

from ansible_collections.gcore.platform.plugins.module_utils._addresses import address_lists
from ansible_collections.gcore.platform.plugins.module_utils._base import GcoreModule
from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, Unfinished, ValidationError, check_range, require
from ansible_collections.gcore.platform.plugins.module_utils._client import ApiError
from ansible_collections.gcore.platform.plugins.module_utils._cloud import check_name
from ansible_collections.gcore.platform.plugins.module_utils._flow import apply_together
from ansible_collections.gcore.platform.plugins.module_utils._instance import flavor_of
from ansible_collections.gcore.platform.plugins.module_utils._instance_resource import (
    Instance, boot_images, boot_volume, one_only, ready_together)
from ansible_collections.gcore.platform.plugins.module_utils._tags import renamed, user_tags
from ansible_collections.gcore.platform.plugins.module_utils._tasks import TaskError
from ansible_collections.gcore.platform.plugins.module_utils._writes import PAST

FAILURES = (ApiError, Refused, TaskError, ValidationError)
MAX_COUNT, MAX_PAUSE = 1000, 3600


def _side(shown):
    return {"state": "absent"} if shown is None else dict(shown, state="present")


class Fleet(GcoreModule):
    """The ``instances`` module: a fleet of instances by ``names`` or ``count`` + ``name_format`` (module docstring)."""

    cloud = waits = True
    boots = None  # {instance id: boot volume} of the members, read once (``renewals``)
    argument_spec = dict(
        [(key, value) for key, value in Instance.argument_spec.items() if key not in ("instance_id", "name", "state")],
        state=dict(type="str", choices=["present", "started", "stopped", "absent"], default="present"),
        names=dict(type="list", elements="str"),
        count=dict(type="int"),
        name_format=dict(type="str"),
        purge=dict(type="bool", default=False),
        rolling=dict(type="dict", options=dict(batch=dict(type="int", required=True), pause=dict(type="int", default=0))),
    )
    module_kwargs = dict(mutually_exclusive=[("names", "count"), ("names", "name_format")],
                         required_one_of=[("names", "count")], required_together=[("count", "name_format")])

    # ---- the fleet's names -------------------------------------------------------------------
    def validate(self):
        super().validate()
        params = self.params
        if params["names"] is not None:
            require(not params["purge"], "purge", "only with count and name_format (a list of names has no index to scale in by)")
            for index, name in enumerate(params["names"]):
                check_name("names[%d]" % index, name)
                require(name not in params["names"][:index], "names[%d]" % index, "%r is listed twice" % name)
        else:
            check_range("count", params["count"], 0, MAX_COUNT)
            text = params["name_format"]
            require("{index}" in text, "name_format", "must hold {index} (replaced by 1, 2, ... count), as in 'web-{index}'")
            require(text.count("{index}") == 1, "name_format", "must hold {index} once")
            for index in (1, MAX_COUNT):
                check_name("name_format", self.name_of(index), "the name of instance %d (name_format %r)" % (index, text))
        one_only(params, len(self.wanted()))  # a value for one instance is not given to many
        if params["rolling"]:
            check_range("rolling.batch", params["rolling"]["batch"], 1, MAX_COUNT)
            check_range("rolling.pause", params["rolling"]["pause"], 0, MAX_PAUSE)
            require(params["wait"], "rolling", "needs wait=true (a batch is replaced once the one before it is ready again)")
        self.template = self.member(None)
        self.template.validate()  # every instance option checked once, before any request

    def name_of(self, index):
        return self.params["name_format"].replace("{index}", str(index))

    def index_of(self, name):
        """The index a name has in ``name_format`` (None: not one of its names)."""
        before, _sep, after = self.params["name_format"].partition("{index}")
        found = re.fullmatch(re.escape(before) + r"([1-9][0-9]*)" + re.escape(after), name or "")
        return int(found.group(1)) if found else None

    def wanted(self):
        params = self.params
        return list(params["names"]) if params["names"] is not None else [self.name_of(index) for index in range(1, params["count"] + 1)]

    def member(self, name, **params):
        """One member of the fleet: an ``Instance`` run by this module (its client, waiter and warnings), named ``name``."""
        one = Instance.within(self if name is None else self.template, name=name, instance_id=None, **params)
        if name is not None:
            one.resolved, one.placement.groups, one.boots = self.template.resolved, self.template.placement.groups, self.boots
            one.placement.client = self.client  # the groups read again after a move
            one.others = ()  # a hand rename is looked for once, for the fleet (``run``)
        return one

    # ---- reading -----------------------------------------------------------------------------
    def found(self):
        """``{name: record}`` of the fleet's instances, from one listing of every page; a name held twice fails. With
        ``purge``, a candidate to scale in that is not the fleet's (another flavor, or without the fleet's tags) is kept,
        with a warning."""
        wanted, params = set(self.wanted()), self.params
        scaled = params["names"] is None and params["purge"]
        found, self.listed = {}, list(self.template.listing())
        for record in self.listed:
            name = record.get("name")
            if name not in wanted and scaled and (self.index_of(name) or 0) > params["count"]:
                tags = user_tags(record)
                unlike = [why for why, differs in (
                    ("its flavor is %r, not %r" % (flavor_of(record), params["flavor"]), params["flavor"] not in (None, flavor_of(record))),
                    ("it lacks the fleet's tags", any(tags.get(key) != value for key, value in (params["tags"] or {}).items()))) if differs]
                if unlike:
                    self.module.warn("purge: instance %s (%s) is kept: %s, so it is not taken for a member of this fleet"
                                     % (name, record.get("id"), " and ".join(unlike)))
                    continue
            if name in wanted or (scaled and (self.index_of(name) or 0) > params["count"]):
                found.setdefault(name, []).append(record)
        twice = [name for name, records in found.items() if len(records) > 1]
        if twice:
            raise Refused("; ".join(self.template.named(name, found[name]) for name in sorted(twice))
                          + "; names must be unique in a fleet (nothing was sent)")
        return dict((name, records[0]) for name, records in found.items())

    # ---- the run -----------------------------------------------------------------------------
    def run(self):
        params, template = self.params, self.template
        template.client, template.tasks = self.client, self.tasks
        absent = params["state"] == "absent"
        self.result["tasks"] = []
        self.failed, self.members, self.untaken, self.gone, self.gone_plans, self.stopped = {}, {}, [], {}, {}, None
        template.resolve()  # the placement group, once
        found = self.found()
        names = self.wanted()
        purged = sorted((name for name in found if name not in names), key=self.index_of, reverse=True)
        if params["wait"] and not self.check_mode:  # a re-run finishes what a run left: all waited for together
            waiting = dict((name, record["id"]) for name, record in found.items() if record.get(Instance.ready[0]) in Instance.ready[2])
            found.update(ready_together(template, waiting, self.tasks.deadline(params["wait_timeout"])))
        renew = {}
        if not absent:
            template.resolve_images()  # every run, once
            renew = self.renewals(dict((name, found[name]) for name in names if name in found))
        if not absent and (renew or any(name not in found for name in names)):
            template.report(None)  # images, snapshots and security groups, once, before any write
        plans = {}
        for name in (names[::-1] if absent else names) + purged:
            one = self.members[name] = self.member(name, **({"state": "absent"} if name in purged else {}))
            one.start()
            record = self.settled(name, one, found.get(name))
            if name in renew:
                record = self.replacing(name, record)  # deleted, then created anew
            if record is not None:
                one.report(record)  # what the lookup found (a new member's names were resolved once, above)
            plans[name] = one.plan(record, one.params["state"] == "absent")
            one.record = record
            one.before, one.after = one.views(record, one.params["state"] == "absent")
            one.before = self.gone[name].before if name in renew else one.before
        creates = [name for name, plan in plans.items() if plan and plan[0].kind == "create" and name not in renew]
        if creates:  # the fleet's own members (its names, or name_format's) are not renamed ones
            renamed(template, self.listed, ", ".join(creates), lambda record: record.get("name") in names or (
                params["names"] is None and self.index_of(record.get("name")) is not None))
        resized = params["rolling"] and params["allow_resize"] and not absent  # a resize is rolled too
        rolled = [name for name in names if name in renew or (resized and name in found and params["flavor"] not in (None, flavor_of(found[name])))]
        size = (params["rolling"] or {}).get("batch") or 1
        self.batches = [rolled[index:index + size] for index in range(0, len(rolled), size)]
        self.result["changed"] = self.check_mode and any(plans.values())
        if not self.check_mode:
            deletes = [name for name, plan in plans.items() if plan and plan[-1].kind == "delete"]
            self.together(creates, plans, ready=True)
            self.converge([name for name in plans if name not in creates + deletes + rolled and plans[name]], plans)
            self.roll(plans)
            self.together(deletes, plans, ready=False)
        return self.outcome_of(names, plans)

    def renewals(self, existing):
        """``{name: what differs}`` of the existing members only a new instance can change (``Instance.renewed``; their
        boot volumes read at once, one listing of the bootable volumes), before any write: replaced with ``rolling``,
        else the task fails naming every such member."""
        self.boots = boot_images(self.template, {"bootable": "true"}) if existing and boot_volume(self.params) else {}
        renew = dict((name, why) for name, why in ((name, self.template.renewed(record, self.boots.get(record["id"])))
                                                   for name, record in existing.items()) if why)
        if renew and not self.params["rolling"]:
            raise Refused("rolling: %s; each is create-only (the instance API has no rebuild): set rolling (for example rolling: "
                          "{batch: 1}) to replace those members a batch at a time, names kept (nothing was sent)" % "; ".join(
                              "%s (%s) %s" % (name, existing[name]["id"], " and ".join(why)) for name, why in renew.items()))
        return renew

    def replacing(self, name, record):
        """A member to replace: its delete planned by a member of its own (``gone``, with ``delete_volumes`` and
        ``delete_floating_ips`` as the task says); the member itself is then planned as a new one (None)."""
        gone = self.gone[name] = self.member(name, state="absent")
        gone.start()
        gone.report(record)
        self.gone_plans[name], gone.record = gone.plan(record, True), record
        gone.before, _after = gone.views(record, True)
        return None

    def converge(self, existing, plans):
        """Existing members' plans sent round by round (``together``), then each member read until ready again."""
        for name in existing:
            self.unlocked(name, plans)
        self.together([name for name in existing if plans[name] and name not in self.failed], plans, ready=False)
        for name in existing:
            one = self.members[name]
            if name not in self.failed and one.ledger and one.exists_after(one.record):
                self.guarded(name, lambda: setattr(one, "record", one.until_ready(one.record)))

    def roll(self, plans):
        """The batches in turn, each once the one before it is ready again (``pause`` seconds apart): its replaced
        members deleted together, then created again together (their tasks and readiness waited for together), its
        resized members converged together. A batch with a failure stops the roll."""
        for number, batch in enumerate(self.batches):
            if number and self.params["rolling"]["pause"]:
                time.sleep(self.params["rolling"]["pause"])
            replaced = [name for name in batch if name in self.gone]
            self.together(replaced, self.gone_plans, ready=False, members=self.gone)
            self.together([name for name in replaced if name not in self.failed], plans, ready=True)
            self.converge([name for name in batch if name not in self.gone], plans)
            if any(name in self.failed for name in batch):
                return setattr(self, "stopped", number)

    def settled(self, name, one, found):
        """A member's record settled as ``instance`` settles it; one the service could not finish (ERROR) fails the
        fleet naming the member, with a way out that leaves the other members alone (nothing was sent)."""
        try:
            return one.settle(found, one.params["state"] == "absent")
        except Unfinished as exc:
            raise Refused("%s (instance %s) is %s: the service could not finish it; delete that instance alone (the module "
                          "gcore.platform.instance with instance_id: %s and state: absent), then run this task again to create "
                          "it anew (nothing was sent)" % (name, found.get("id"), found.get("status"), found.get("id")),
                          **exc.extra) from None

    def guarded(self, name, action):
        """``action()`` for one member; a failure is kept for the message and the others go on."""
        try:
            return action()
        except FAILURES as exc:
            self.failed[name] = str(exc)
            return None

    def unlocked(self, name, plans):
        """An existing member locked by a task: waited for, then planned again from what the lock left (as ``instance``)."""
        one = self.members[name]
        if one.record.get(one.lock) and self.params["wait"]:
            self.guarded(name, lambda: setattr(one, "record", one.wait_unlocked(one.record)))
            plans[name] = self.guarded(name, lambda: one.plan(one.record, False)) or []

    def together(self, names, plans, ready, members=None):
        """The members' plans sent in rounds (``_flow.apply_together``): the n-th write of every member, then their tasks
        waited for together, then (``ready``: creates) the new instances' readiness together (one listing per poll). With
        ``wait: false`` nothing is waited for: each member's plan is sent as ``instance`` sends it. ``members``: whose
        plans (default: the fleet's)."""
        members = self.members if members is None else members
        apply_together(dict((name, (members[name], plans[name])) for name in names), ready=self.arrived if ready else None,
                       guard=self.guarded, untaken=self.untaken_by)

    def untaken_by(self, name, write, task):
        """A member's write accepted whose task did not take effect: not in ``changes``, the member failed naming the task."""
        self.untaken.append(write)
        self.failed[name] = "task %s %s: %s" % (task.get("id"), "ended in ERROR" if task.get("state") == "ERROR" else
                                                "did not finish within wait_timeout=%ss" % self.params["wait_timeout"],
                                                task.get("error") or "the service gave no reason")

    def arrived(self, ended, deadline):
        """The new members' records once ready, read together (``ready_together``); one that went away fails."""
        created = dict((name, self.created_id(name, outcome, finished)) for name, (_one, _write, outcome, finished) in ended.items())
        records = ready_together(self.template, dict((name, ident) for name, ident in created.items() if ident), deadline)
        return dict((name, records.get(name) if records.get(name) is not None else
                     Refused("instance %s went away before it was ready" % created[name])) for name in ended)

    def created_id(self, name, outcome, finished):
        accepted, value = outcome
        if not accepted:
            return value.get("id") if isinstance(value, dict) else None
        ids = [ident for task in finished for ident in ((task.get("created_resources") or {}).get("instances") or [])]
        if not ids:
            self.failed[name] = "the create task named no instance"
        return ids[0] if ids else None

    # ---- the result --------------------------------------------------------------------------
    @staticmethod
    def said(write):
        """A member's write as ``changes`` names it: created, deleted, started, stopped (as the write says), else updated."""
        return PAST.get(write.kind) if write.kind in ("create", "delete") else next(
            (word for word in ("started", "stopped") if word in write.said), "updated")

    def writes_of(self, name, plans):
        """A member's writes that took effect (in check mode, planned), a replaced member's delete first."""
        ones = [(one, plan) for one, plan in ((self.gone.get(name), self.gone_plans.get(name)), (self.members[name], plans.get(name)))
                if one is not None]
        return [write for one, plan in ones for write in ((plan or []) if self.check_mode else one.ledger.writes()) if write not in self.untaken]

    def words(self, name, plans, said=None):
        """What ``writes_of`` a member says, once each (``said``: a write's word); a replaced member's delete and create
        as one ``replaced`` (a create that failed after its delete leaves ``deleted``)."""
        words = list(dict.fromkeys((said or self.said)(write) for write in self.writes_of(name, plans)))
        if name in self.gone and "deleted" in words and "created" in words:
            words = ["replaced"] + [word for word in words if word not in ("deleted", "created")]
        return words

    def outcome_of(self, names, plans):
        rolling = self.params["rolling"]
        changes = dict((key, []) for key in ("created", "updated", "started", "stopped", "deleted") + (("replaced",) if rolling else ()))
        before, after = {}, {}
        for name, one in self.members.items():
            for word in self.words(name, plans):
                changes[word].append(name)
            before[name], after[name] = _side(one.before), _side(one.after)
            if name in self.gone and (self.check_mode or self.gone[name].ledger):
                self.gone[name].goes.tell(self.gone[name])  # a warning names what a replaced member left
        if rolling:  # the batches begun (all of them unless a failure stopped the roll)
            changes["batches"] = self.batches[:None if self.stopped is None else self.stopped + 1]
        records = dict((name, self.members[name].record if self.members[name].record is not None else getattr(self.gone.get(name), "record", None))
                       for name in names)
        instances = dict((name, self.members[name].returned(records[name])) for name in names)
        ordered = names if self.params["names"] is None else sorted(names)  # by name (a count's names by index)
        self.result.update(changed=self.changed() if not self.check_mode else bool(self.result["changed"]), changes=changes,
                           diff={"before": before, "after": after},
                           tasks=[ident for one in list(self.gone.values()) + list(self.members.values()) for ident in one.result.get("tasks") or []])
        result = {"instances": [instances[name] for name in ordered if instances[name] is not None],
                  "addresses": dict((name, address_lists((instances[name] or {}).get("addresses"))) for name in names)}
        if self.failed:
            self.result.update(result)
            raise Refused("%d of %d instances failed: %s; done: %s; failed: %s%s. A re-run sends only what is left" % (
                len(self.failed), len(self.members), "; ".join("%s: %s" % item for item in self.failed.items()),
                self.done(plans) or "nothing", ", ".join(self.failed), self.stop_said(changes)))
        return result

    def stop_said(self, changes):
        return "" if self.stopped is None else "; the roll stopped at batch %d of %d (replaced: %s; not rolled: %s)" % (
            self.stopped + 1, len(self.batches), ", ".join(changes["replaced"]) or "none",
            ", ".join(name for batch in self.batches[self.stopped + 1:] for name in batch) or "none")

    def done(self, plans):
        """What took effect, member by member: ``web-1 (created, stopped), web-2 (moved), web-3 (replaced)``."""
        words = [(name, self.words(name, plans, lambda write: "moved" if "moved" in write.said else self.said(write))) for name in self.members]
        return ", ".join("%s (%s)" % (name, ", ".join(said)) for name, said in words if said)

    def changed(self):
        return any(bool(one.ledger) for one in list(self.members.values()) + list(self.gone.values()))

    def outcome(self, msg, error):
        """Changed means sent: true once any member's write was accepted (or confirmed), whatever failed after."""
        if not self.check_mode and getattr(self, "members", None):
            self.result["changed"] = self.changed()
        return msg
