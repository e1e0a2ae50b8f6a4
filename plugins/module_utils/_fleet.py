# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""A fleet: many instances declared in one task (the ``instances`` module).

This module is internal to the collection: its interface may change at any time.

A fleet is a resource on the one flow (``_resource``): the project's instances, a ``container`` found by one listing
(``find``), whose one part (``Crew``) is its members, each an ``Instance`` (``_instance_resource``) within this run
(``within``) planned as ``instance`` plans one, what they share resolved once on a template member before any
write. Their plans are one step of the fleet's plan (``Rounds``), sent in rounds (``_tasks.apply_together``): the
creates, the existing members converging, with ``rolling`` the members to replace (``Instance.renewed``) or resize a
batch at a time, then the deletes (``state: absent``, or ``purge`` scaling in from the highest index). A member that
fails leaves the others: the task fails naming the members done and those that failed.
"""

from __future__ import annotations

import re
import time

from ansible_collections.gcore.platform.plugins.module_utils._addresses import address_lists
from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, Unfinished, ValidationError, check_range, require
from ansible_collections.gcore.platform.plugins.module_utils._client import ApiError
from ansible_collections.gcore.platform.plugins.module_utils._cloud import check_name
from ansible_collections.gcore.platform.plugins.module_utils._instance import flavor_of
from ansible_collections.gcore.platform.plugins.module_utils._instance_resource import (
    Instance, boot_images, boot_volume, one_only, ready_together)
from ansible_collections.gcore.platform.plugins.module_utils._parts import Part
from ansible_collections.gcore.platform.plugins.module_utils._resource import GcoreResourceModule
from ansible_collections.gcore.platform.plugins.module_utils._tags import renamed, user_tags
from ansible_collections.gcore.platform.plugins.module_utils._tasks import TaskError, apply_together
from ansible_collections.gcore.platform.plugins.module_utils._writes import PAST

FAILURES = (ApiError, Refused, TaskError, ValidationError)
MAX_COUNT, MAX_PAUSE = 1000, 3600


def _side(shown):
    return {"state": "absent"} if shown is None else dict(shown, state="present")


class Crew(Part):
    """A fleet's one part, its members: planned before any write (``Fleet.examine``), shown by member (``sides``: the
    diff's ``({name: before}, {name: after})``), sent as one step (``Rounds``; None: nothing to send)."""

    name = "instances"

    def __init__(self, sides, step):
        self.sides, self.step = sides, step

    def wanted(self, module):
        return ()

    def views(self, state, wanted, params):
        return self.sides

    def plan(self, record, wanted, params):
        return [self.step] if self.step else []


def within(cls, run, **params):
    """A flow of ``cls`` inside the running module ``run`` (a fleet's member), sharing its module, check mode, client,
    task waiter and names resolved, with params of its own (``run``'s with ``params``), a result and ``absent``."""
    one = cls.__new__(cls)
    one.module, one.check_mode, one.client, one.tasks, one.named_ids = run.module, run.check_mode, run.client, run.tasks, run.named_ids
    one.params, one.result = dict(run.params, **params), {"changed": False}
    one.absent = one.params.get("state") == "absent"
    return one


class Rounds:
    """The step of a fleet's plan, a write that sends itself (``Write.sends``): its members' plans, sent by them in
    rounds (``deliver()``); it says in ``changes`` what ``told()`` says (planned, then what took effect) and is in the
    fleet's ledger once a member wrote (``flows()``)."""

    locked, prepare, then, reread = None, None, None, None

    def __init__(self, deliver, told, flows):
        self.deliver, self.told, self.flows = deliver, told, flows

    @property
    def said(self):
        return self.told()

    def sends(self, ledger):
        try:
            self.deliver()
        finally:
            ledger.accepted += [self] if any(flow.ledger for flow in self.flows()) else []


class Fleet(GcoreResourceModule):
    """The ``instances`` module: a fleet of instances by ``names`` or ``count`` + ``name_format`` (module docstring)."""

    cloud = waits = container = True
    id_option = name_option = None  # the project's instances: found by ``find``
    result_key = "instances"
    crew, ones, batches, stopped = None, None, [], None  # the part, {name: member}, the roll's batches, the batch it stopped at
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
        one = within(Instance, self if name is None else self.template, name=name, instance_id=None, **params)
        if name is not None:
            one.resolved, one.placement.groups, one.boots = self.template.resolved, self.template.placement.groups, self.boots
            one.placement.client = self.client  # the groups read again after a move
            one.others = ()  # a hand rename is looked for once, for the fleet (``planned``)
        return one

    @property
    def parts(self):
        return (self.crew,) if self.crew else ()

    @property
    def changes(self):
        """By member, in the fleet's order; with ``rolling``, the members replaced and the batches begun."""
        order = list(self.ones or ()).index
        shape = dict((word, order) for word in ("created", "updated", "started", "stopped", "deleted"))
        return dict(shape, replaced=order, batches=self.batches.index) if self.params["rolling"] else shape

    # ---- reading (hooks) ---------------------------------------------------------------------
    def resolve(self):
        self.template.client, self.template.tasks, self.result["tasks"] = self.client, self.tasks, []
        self.template.resolve()  # the placement group, once

    def find(self):
        """``{name: record}`` of the fleet's instances, from one listing of every page; a name held twice fails. With
        ``purge``, a candidate to scale in that is not the fleet's (another flavor, or without the fleet's tags) is kept,
        with a warning. A re-run finishes what a run left: the members on their way to ready are waited for together."""
        wanted, params = set(self.wanted()), self.params
        scaled = params["names"] is None and params["purge"]
        found, self.listed = {}, list(self.template.listing())
        for record in self.listed:
            name = record.get("name")
            spare = name not in wanted and scaled and (self.index_of(name) or 0) > params["count"]  # one to scale in
            unlike = spare and [why for why, differs in (
                ("its flavor is %r, not %r" % (flavor_of(record), params["flavor"]), params["flavor"] not in (None, flavor_of(record))),
                ("it lacks the fleet's tags", any(user_tags(record).get(key) != value for key, value in (params["tags"] or {}).items())))
                if differs]
            if unlike:
                self.module.warn("purge: instance %s (%s) is kept: %s, so it is not taken for a member of this fleet"
                                 % (name, record.get("id"), " and ".join(unlike)))
            elif name in wanted or spare:
                found.setdefault(name, []).append(record)
        twice = [name for name, records in found.items() if len(records) > 1]
        if twice:
            raise Refused("; ".join(self.template.named(name, found[name]) for name in sorted(twice))
                          + "; names must be unique in a fleet (nothing was sent)")
        found = dict((name, records[0]) for name, records in found.items())
        if params["wait"] and not self.check_mode:
            waiting = dict((name, record["id"]) for name, record in found.items() if record.get(Instance.ready[0]) in Instance.ready[2])
            found.update(ready_together(self.template, waiting, self.tasks.deadline(params["wait_timeout"])))
        return found

    def examine(self, found):  # pylint: disable=arguments-renamed  # the fleet's record: the members found
        """Before any write: the images resolved (every run, once), the members to renew found, the names of a create
        (snapshots, security groups) resolved once; then the members planned (``planned``)."""
        self.renew = {}
        if not self.absent:
            self.template.resolve_images()
            self.renew = self.renewals(dict((name, found[name]) for name in self.wanted() if name in found))
            if self.renew or any(name not in found for name in self.wanted()):
                self.template.examine(None)
        self.planned(found)

    # ---- the plan ----------------------------------------------------------------------------
    def planned(self, found):
        """Every member planned as ``instance`` plans it (a replaced one: its delete by a member of its own, then a
        create); the roll's batches; the fleet's part (``Crew``) holding them."""
        params, names, self.ones, self.plans, self.gone, self.gone_plans = self.params, self.wanted(), {}, {}, {}, {}
        self.failed, self.untaken = {}, []
        purged = sorted((name for name in found if name not in names), key=self.index_of, reverse=True)
        for name in (names[::-1] if self.absent else names) + purged:
            one = self.ones[name] = self.member(name, **({"state": "absent"} if name in purged else {}))
            one.start()
            record = self.member_record(name, one, found.get(name))
            if name in self.renew:
                record = self.replacing(name, record)  # deleted, then created anew
            if record is not None:
                one.examine(record)  # what the lookup found (a new member's names were resolved once, above)
            self.plans[name], one.record = one.plan(record, one.params["state"] == "absent"), record
        creates = [name for name, plan in self.plans.items() if plan and plan[0].kind == "create" and name not in self.renew]
        if creates:  # the fleet's own members (its names, or name_format's) are not renamed ones
            renamed(self.template, self.listed, ", ".join(creates), lambda record: record.get("name") in names or (
                params["names"] is None and self.index_of(record.get("name")) is not None))
        resized = params["rolling"] and params["allow_resize"] and not self.absent  # a resize is rolled too
        self.rolled = [name for name in names if name in self.renew or (
            resized and name in found and params["flavor"] not in (None, flavor_of(found[name])))]
        size = (params["rolling"] or {}).get("batch") or 1
        self.batches = [self.rolled[index:index + size] for index in range(0, len(self.rolled), size)]
        self.crew = Crew(self.sides(), Rounds(self.deliver, self.told, self.flows) if any(self.plans.values()) else None)

    def sides(self):
        """The diff by member (a replaced one: before, as its delete saw it)."""
        before, after = {}, {}
        for name, one in self.ones.items():
            shown = one.views(one.record, one.params["state"] == "absent")
            before[name], after[name] = _side(self.gone[name].before if name in self.gone else shown[0]), _side(shown[1])
        return before, after

    def deliver(self):
        """The members not rolled sent together (``send_batch``), then the roll's batches in turn, each once the one before it
        is ready again (``pause`` seconds apart; a batch with a failure stops the roll), then the deletes together."""
        deletes = [name for name, plan in self.plans.items() if plan and plan[-1].kind == "delete"]
        self.send_batch([name for name in self.plans if name not in deletes + self.rolled])
        for number, batch in enumerate(self.batches):
            if number and self.params["rolling"]["pause"]:
                time.sleep(self.params["rolling"]["pause"])
            self.send_batch(batch)
            if any(name in self.failed for name in batch):
                self.stopped = number
                break
        self.together(deletes, ready=False)

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
        gone.examine(record)
        self.gone_plans[name], gone.record = gone.plan(record, True), record
        gone.before, _after = gone.views(record, True)
        return None

    def send_batch(self, names):
        """Members sent together: the deletes of those replaced, then the creates (their readiness read together), then
        the others converging, each read until ready again."""
        self.together([name for name in names if name in self.gone], ready=False, gone=True)
        self.together([name for name in names if self.plans[name] and self.plans[name][0].kind == "create"], ready=True)
        existing = [name for name in names if not (self.plans[name] and self.plans[name][0].kind == "create")]
        self.together(existing, ready=False)
        for name in existing:
            one = self.ones[name]
            if name not in self.failed and one.ledger and one.exists_after(one.record):
                self.guarded(name, lambda: setattr(one, "record", one.until_ready(one.record)))

    def member_record(self, name, one, found):
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

    def together(self, names, ready, gone=False):
        """The plans of the members ``names`` (``gone``: of their replaced instances) sent in rounds (``apply_together``),
        with (``ready``: creates) the new instances' readiness read together (``arrived``)."""
        ones, plans = (self.gone, self.gone_plans) if gone else (self.ones, self.plans)
        apply_together(dict((name, (ones[name], plans[name])) for name in names if plans[name] and name not in self.failed),
                       ready=self.arrived if ready else None, guard=self.guarded, untaken=self.untaken_by)

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
    def words(self, name, moved=False):
        """What a member's writes that took effect (in check mode, planned; a replaced member's delete first) say, once
        each: created, deleted, started, stopped (as the write says; ``moved`` too), else updated; a replaced member's
        delete and create as one ``replaced`` (a create that failed after its delete leaves ``deleted``)."""
        flows = [(one, plan) for one, plan in ((self.gone.get(name), self.gone_plans.get(name)), (self.ones[name], self.plans[name])) if one]
        said = ("started", "stopped", "moved") if moved else ("started", "stopped")
        words = list(dict.fromkeys(PAST[write.kind] if write.kind in ("create", "delete") else next((word for word in said if word in write.said), "updated")
                                   for one, plan in flows for write in (plan if self.check_mode else one.ledger.writes()) if write not in self.untaken))
        if name in self.gone and "deleted" in words and "created" in words:
            words = ["replaced"] + [word for word in words if word not in ("deleted", "created")]
        return words

    def told(self):
        """What the members' writes say (``words``): ``{word: [names]}``; with ``rolling``, the batches begun (all of them
        unless a failure stopped the roll)."""
        said = {"batches": self.batches[:None if self.stopped is None else self.stopped + 1]} if self.params["rolling"] else {}
        for name in self.ones:
            for word in self.words(name):
                said.setdefault(word, []).append(name)
        return said

    def returned(self, found):  # pylint: disable=arguments-renamed  # the fleet's record: the members found
        """The members as read last (by name; a count's by index) and their addresses; the task fails naming the members
        done and those that failed, once the result holds everything."""
        names = self.wanted()
        for gone in self.gone.values():
            if self.check_mode or gone.ledger:
                gone.goes.tell(gone)  # a warning names what a replaced member left
        instances = dict((name, self.ones[name].returned(self.ones[name].record if self.ones[name].record is not None else
                                                         getattr(self.gone.get(name), "record", None))) for name in names)
        self.result.update(tasks=[ident for one in self.flows() for ident in one.result.get("tasks") or []],
                           instances=[instances[name] for name in (names if self.params["names"] is None else sorted(names)) if instances[name]],
                           addresses=dict((name, address_lists((instances[name] or {}).get("addresses"))) for name in names))
        if self.failed:
            done = ", ".join("%s (%s)" % (name, ", ".join(said)) for name, said in ((name, self.words(name, True)) for name in self.ones) if said)
            stop = "" if self.stopped is None else "; the roll stopped at batch %d of %d (replaced: %s; not rolled: %s)" % (
                self.stopped + 1, len(self.batches), ", ".join(self.told().get("replaced", [])) or "none",
                ", ".join(name for batch in self.batches[self.stopped + 1:] for name in batch) or "none")
            raise Refused("%d of %d instances failed: %s; done: %s; failed: %s%s. A re-run sends only what is left" % (
                len(self.failed), len(self.ones), "; ".join("%s: %s" % item for item in self.failed.items()), done or "nothing",
                ", ".join(self.failed), stop))
        return self.result["instances"]

    def flows(self):
        """Every member's flow, a replaced member's delete first."""
        return list(self.gone.values()) + list(self.ones.values())
