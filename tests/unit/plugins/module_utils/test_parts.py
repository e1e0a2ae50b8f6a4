# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The part protocol alone (``_parts``): a part reads its record by default, and a value part (``Values``) plans one
write per request its declaration groups the changed keys in, each saying its verb and keys, settled by what the part
reads again; the diff holds the keys that change (no module, no HTTP)."""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.module_utils._parts import Part, Values


class Modes(Values):
    """Two switches of a box: ``a`` and ``b``, each set by its own PATCH."""

    name = "modes"

    def fetch(self, get, record, params):
        return get("/boxes/%s/modes" % record["id"], one=True)

    def held(self, state):
        return dict(state)

    def wants(self, state, params):
        return dict((key, value) for key, value in params["modes"].items() if value is not None)

    def requests(self, changes, state, params):
        return [("enabled" if on else "disabled", [key], "PATCH", "/boxes/1/modes/%s" % key, {"on": on}) for key, on in sorted(changes.items())]


def test_a_part_holds_what_its_record_says_unless_it_declares_a_read():
    assert Part().fetch(None, {"id": 1}, {}) == {"id": 1}
    assert Part().answered({"id": 1}, None, {}) is None, "read again after a write of its own"


def test_a_value_part_writes_only_the_keys_that_differ_each_saying_its_verb_and_settled_by_a_read():
    part, params = Modes(), {"modes": {"a": True, "b": True, "c": None}}
    state = part.fetch(lambda path, one=False: {"a": False, "b": True} if one and path == "/boxes/1/modes" else None, {"id": 1}, params)
    writes = part.plan(state, part.wanted(type("M", (), {"params": params})), params)
    assert [(write.method, write.path, write.body, write.said, write.label) for write in writes] == [
        ("PATCH", "/boxes/1/modes/a", {"on": True}, {"enabled": ["a"]}, "a")]
    assert writes[0].done({"a": True, "b": True}) and not writes[0].done({"a": False, "b": True})
    assert part.views(state, None, params) == ({"a": False}, {"a": True})
    assert part.plan({"a": True, "b": True}, None, params) == [], "nothing differs: nothing to send"


class Labels(Part):
    """Labels of a box, each added by its own request (a part with an option)."""

    name = option = "labels"

    def held(self, record):
        return dict((label, label) for label in record.get("labels", []))

    def plan(self, record, wanted, params):
        return [] if wanted is None else sorted(set(wanted) - set(self.held(record)))


def test_a_part_is_managed_only_when_its_option_is_given_and_its_diff_shows_both_sides():
    part, module = Labels(), type("M", (), {"params": {"labels": None}})
    assert part.wanted(module) is None and part.plan({"labels": ["a"]}, part.wanted(module), {}) == [], "not given: not managed"
    assert Part().wanted(module) is None, "a part without an option asks nothing of the task"
    assert part.views({"labels": ["a"]}, ["a", "b"], {}) == (["a"], ["a", "b"])
    assert part.views(None, ["a"], {}) == (None, ["a"]), "a resource being created held nothing: before is null"
    assert Part().created_said(["a"]) == {} and Part().held({"labels": ["a"]}) == {}, "a part says nothing unless it declares it"
