# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
name: plan
type: aggregate
short_description: A plan summary of what the collection's tasks create, change, replace and delete
version_added: 1.2.0
description:
  - At the end of the run, for each play and each host, one line tells what the tasks of this collection's modules
    (C(gcore.platform.*)) created, changed, replaced and deleted, followed by the tasks that failed.
  - In check mode the line is a plan, C(12 to create, 3 to change, 1 to replace, 2 to delete); in a real run it says
    what was done, C(12 created, 3 changed, 1 replaced, 2 deleted). A host whose counted tasks all ran in check mode
    (C(--check), or C(check_mode) on the task) gets the plan's wording, any other the past tense.
  - The counts come from each result's C(changes). The names in C(created), C(replaced) and C(deleted) count one each;
    a name in C(replaced) is not counted again as created or deleted. Every other key of C(changes) that is not empty
    (nested ones included, such as a load balancer's C(listeners.created) or an instance's
    C(security_groups.added)) counts the task's resource once as changed. C(deleted_ids) and C(batches) only restate
    the names of C(deleted) and C(replaced) and are not counted again.
  - The resource of a module that manages one resource (such as M(gcore.platform.network) or
    M(gcore.platform.load_balancer)) is counted from its C(diff) when the task reports a change - absent before and
    present after is one to create, the reverse one to delete; its C(changes) then describe parts of it (a new
    security group's rules, a new load balancer's listeners) and are not counted again. A task that reports a change
    the rules above do not count (an update of a resource whose module returns no C(changes)) is counted once as
    changed.
  - Only results of C(gcore.platform) modules count, each item of a loop as a result of its own; results of failed
    tasks count too (C(changes) lists only what took effect). Failed tasks are listed by name, C((ignored)) added when
    the play ignored the error.
  - An aggregate callback, it prints beside any stdout callback (C(default), C(yaml), AWX's job output and others)
    and changes nothing in theirs.
requirements:
  - Enabled in C(ansible.cfg), C(callbacks_enabled = gcore.platform.plan) in the C([defaults]) section (or
    E(ANSIBLE_CALLBACKS_ENABLED)). In AWX, the C(ansible.cfg) at the root of the project does it.
notes:
  - The summary is printed once, when the run ends (after the play recap of the stdout callback), one section a
    play.
"""

import json

from ansible.plugins.callback import CallbackBase

COLLECTION = "gcore.platform."
NAMED = ("created", "replaced", "deleted")
RESTATED = ("deleted_ids", "batches")  # the names of ``deleted`` and ``replaced`` said again
KINDS = ("create", "change", "replace", "delete")
PLANNED = {"create": "to create", "change": "to change", "replace": "to replace", "delete": "to delete"}
DONE = {"create": "created", "change": "changed", "replace": "replaced", "delete": "deleted"}


def labels(value):
    """The distinct entries of a list of names (a rule given as a mapping counts as one)."""
    seen = []
    for entry in value if isinstance(value, list) else []:
        key = json.dumps(entry, sort_keys=True, default=str)
        if key not in seen:
            seen.append(key)
    return seen


def filled(value):
    """True when a value of ``changes`` holds anything (a mapping: any of its values, at any depth)."""
    if isinstance(value, dict):
        return any(filled(item) for item in value.values())
    return bool(value)


def absent(side):
    return not side or (isinstance(side, dict) and side.get("state") == "absent")


def own_resource(result):
    """What the diff of a changed result says of the task's own resource: "create" (absent before, there after),
    "delete" (the reverse) or None (neither, or a diff of a set or a fleet, which has no such sides)."""
    diff = result.get("diff")
    if not result.get("changed") or not isinstance(diff, dict) or "before" not in diff or "after" not in diff:
        return None
    before, after = absent(diff["before"]), absent(diff["after"])
    return "create" if before and not after else "delete" if after and not before else None


def tally(result):
    """``{create, change, replace, delete}`` counts of one module result, by the rules of the documentation."""
    own = own_resource(result)
    counts = dict.fromkeys(KINDS, 0)
    if own:  # the task's resource created or deleted: what its changes list are parts of it
        counts[own] = 1
        return counts
    changes = result.get("changes") if isinstance(result.get("changes"), dict) else {}
    replaced = labels(changes.get("replaced"))
    counts["replace"] = len(replaced)
    counts["create"] = len([name for name in labels(changes.get("created")) if name not in replaced])
    counts["delete"] = len([name for name in labels(changes.get("deleted")) if name not in replaced])
    others = any(filled(value) for key, value in changes.items() if key not in NAMED + RESTATED)
    if others or (result.get("changed") and not any(counts.values())):
        counts["change"] = 1
    return counts


def phrase(counts, planned):
    words = PLANNED if planned else DONE
    return ", ".join("%d %s" % (counts[kind], words[kind]) for kind in KINDS)


class CallbackModule(CallbackBase):
    """Counts each gcore.platform result of each host; prints the summary when the run ends."""

    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "aggregate"
    CALLBACK_NAME = "gcore.platform.plan"
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.plays = []  # [(play name, {host: {"counts", "checked", "failed"}})]

    def v2_playbook_on_play_start(self, play):
        self.plays.append((play.get_name().strip(), {}))

    def host(self, result):
        if not self.plays:
            self.plays.append(("", {}))
        return self.plays[-1][1].setdefault(result._host.get_name(), {
            "counts": dict.fromkeys(KINDS, 0), "checked": [], "failed": []})

    def record(self, result, failed=False, ignored=False):
        task = result._task
        if not (task.resolved_action or task.action or "").startswith(COLLECTION):
            return
        host = self.host(result)
        items = result._result.get("results")
        for item in items if isinstance(items, list) else [result._result]:
            if not isinstance(item, dict) or item.get("skipped"):
                continue
            for kind, count in tally(item).items():
                host["counts"][kind] += count
            host["checked"].append(bool(task.check_mode))
        if failed:
            host["failed"].append(task.get_name().strip() + (" (ignored)" if ignored else ""))

    def v2_runner_on_ok(self, result):
        self.record(result)

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self.record(result, failed=True, ignored=ignore_errors)

    def v2_playbook_on_stats(self, stats):
        shown = [(name, hosts) for name, hosts in self.plays if hosts]
        if not shown:
            return
        self._display.banner("GCORE PLATFORM PLAN")
        for name, hosts in shown:
            if len(self.plays) > 1:
                self._display.display("PLAY [%s]" % name)
            for host_name in sorted(hosts):
                host = hosts[host_name]
                planned = bool(host["checked"]) and all(host["checked"])
                self._display.display("%s : %s" % (host_name, phrase(host["counts"], planned)))
                for task in host["failed"]:
                    self._display.display("%s : failed: %s" % (host_name, task))
        self._display.display("")
