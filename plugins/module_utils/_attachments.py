# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""Items attached and detached one by one (a router's subnets, an instance's security groups): a part (``_parts``). This
module is internal to the collection: its interface may change at any time."""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._children import plan_children
from ansible_collections.gcore.platform.plugins.module_utils._parts import Part
from ansible_collections.gcore.platform.plugins.module_utils._writes import Write


class Attachments(Part):
    """``key``: the identity of an item; ``items(record)``: the items the record holds, as ``{key: ..., other members}``
    dicts; ``same(desired, current)``: whether a held item satisfies a listed one (default: the members the listed one
    gives match; one that does not is detached and attached again); ``attach``/``detach``: ``(method, path template)`` of
    the requests, whose bodies are ``attach_body(item)`` (default: the item) and ``{key: ...}``; ``check_item(where, item)``:
    one item of the option checked (raises ValidationError) and canonical; ``said``: ``(what an attach says, what a
    detach says)``, the ``changes`` keys of their items, or None."""

    def __init__(self, name, key, items, attach, detach, attach_body=dict, same=None, option=None, check_item=None, said=None):
        self.name, self.option, self.key, self.items, self.attach, self.detach, self.said = name, option or name, key, items, attach, detach, said
        self.attach_body = attach_body
        self.same = same or (lambda desired, current: all(current.get(member) == value for member, value in desired.items() if value is not None))
        self.check_item = check_item or (lambda where, item: item)

    def check(self, module):
        if module.params.get(self.option) is not None:
            module.params[self.option][:] = self.canonical(module.params[self.option])

    def canonical(self, items):
        """The option's items checked and canonical; an identity given twice fails naming both indices."""
        checked, first = [self.check_item("%s[%s]" % (self.option, index), item) for index, item in enumerate(items)], {}
        for index, key in enumerate(item[self.key] for item in checked):
            if key is not None and key in first:  # None: named, compared once the module resolved the name
                raise ValidationError("%s[%s] and %s[%s]: each item must have its own %s; %s is given twice"
                                      % (self.option, first[key], self.option, index, self.key, key))
            first[key] = index
        return checked

    def held(self, record):
        return dict((item[self.key], item) for item in (self.items(record) if record is not None else []))

    def views(self, state, wanted, params):
        """The items held and those listed, in the order of their keys; a member left out of a listed item shows what the
        record holds (no change)."""
        held = self.held(state)
        listed = [dict((name, value if value is not None else held.get(item[self.key], {}).get(name)) for name, value in item.items()) for item in wanted]
        before, after = (sorted(items, key=lambda item: str(item.get(self.key))) for items in (held.values(), listed))
        return (None if state is None else before), after

    def plan(self, record, wanted, params):
        """The writes that make ``record`` hold exactly ``wanted``, attaches first so that a failed one leaves every item
        attached: new items attached, each held one that does not satisfy its listed one detached and attached again,
        then the items not listed detached (the children's planner, ``_children.plan_children``)."""
        plan = plan_children(list(self.held(record).values()), wanted, "overridden", lambda item, current: not self.same(item, current), self.key)
        return [self.writing("attach", item, record, params) for item in plan.creates] + [write for item, current, _moved in plan.updates for write in (
            self.writing("detach", current, record, params, item), self.writing("attach", item, record, params))] + [
            self.writing("detach", item, record, params) for item in plan.deletes]

    def writing(self, kind, item, record, params, replacement=None):
        """An attach or a detach of ``item`` (``replacement``: what attaches it again), sent once ``record`` is unlocked."""
        key, (method, template) = item[self.key], self.attach if kind == "attach" else self.detach

        def done(found):
            current = self.held(found).get(key)
            if kind == "attach":
                return current is not None and self.same(item, current)
            return current is None or (replacement is not None and self.same(replacement, current))
        return Write(kind, method, template.format(**dict(params, id=record["id"])), self.attach_body(item) if kind == "attach" else {self.key: key},
                     names=[key], locked=record, done=done, said={self.said[kind == "detach"]: [key]} if self.said else None)
