# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""Items attached and detached one by one (a router's subnets, an instance's security groups): a part (``_parts``).

This module is internal to the collection: its interface may change at any time.
"""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._parts import Part
from ansible_collections.gcore.platform.plugins.module_utils._writes import Write


def _satisfies(desired, current):
    return all(current.get(key) == value for key, value in desired.items() if value is not None)


class Attachments(Part):
    """``key``: the identity of an item; ``items(record)``: the items the record holds, as ``{key: ..., other members}``
    dicts; ``same(desired, current)``: whether a held item satisfies a listed one (one that does not is detached and
    attached again); ``attach``/``detach``: ``(method, path template)`` of the requests, whose bodies are
    ``attach_body(item)``/``detach_body(item)``; ``check_item(where, item)``: one item of the option checked (raises
    ValidationError) and canonical (what the create body cannot carry is attached once the resource exists);
    ``said``: ``(what an attach says, what a detach says)``, the ``changes`` keys of their items, or None."""

    def __init__(self, name, key, items, attach, detach, attach_body=None, detach_body=None, same=None, option=None,
                 check_item=None, said=None):
        self.name, self.option, self.key = name, option or name, key
        self.items, self.same, self.check_item = items, same or _satisfies, check_item or (lambda where, item: item)
        self.attach, self.attach_body = attach, attach_body or (lambda item: item)
        self.detach, self.detach_body = detach, detach_body or (lambda item: {key: item[key]})
        self.said = said

    def check(self, module):
        items = module.params.get(self.option)
        if items is not None:
            items[:] = self.canonical(items)

    def canonical(self, items):
        """The option's items checked and canonical; an identity given twice fails naming both indices."""
        checked = [self.check_item("%s[%s]" % (self.option, index), item) for index, item in enumerate(items)]
        first = {}
        for index, item in enumerate(checked):
            key = item[self.key]
            if key is not None and key in first:  # None: named, compared once the module resolved the name
                raise ValidationError("%s[%s] and %s[%s]: each item must have its own %s; %s is given twice"
                                      % (self.option, first[key], self.option, index, self.key, key))
            first[key] = index
        return checked

    def held(self, record):
        return dict((item[self.key], item) for item in (self.items(record) if record is not None else []))

    def shown(self, items):
        return sorted(items, key=lambda item: str(item.get(self.key)))

    def wanted_view(self, wanted, record):
        """The listed items as the diff's after side: a member left out shows what the record holds, so an item
        listed without it shows no change."""
        held = self.held(record)
        return self.shown([dict((name, value if value is not None else held.get(item[self.key], {}).get(name))
                                for name, value in item.items()) for item in wanted])

    def plan(self, record, wanted, params):
        """The writes that make ``record`` hold exactly ``wanted``, attaches first so that a failed one leaves every item
        attached: new items attached, each held one that does not satisfy its listed one detached and attached again,
        then the items not listed detached."""
        held, listed = self.held(record), set(item[self.key] for item in wanted)
        attach, move = [], []
        for item in wanted:
            current = held.get(item[self.key])
            if current is None:
                attach.append(self.attaching(item, record, params))
            elif not self.same(item, current):
                move += [self.detaching(current, record, params, item), self.attaching(item, record, params)]
        return attach + move + [self.detaching(item, record, params) for key, item in held.items() if key not in listed]

    def writing(self, kind, item, record, params, done):
        """An attach or a detach of ``item``, sent once ``record`` is unlocked."""
        method, template = self.attach if kind == "attach" else self.detach
        body = self.attach_body(item) if kind == "attach" else self.detach_body(item)
        return Write(kind, method, template.format(**dict(params, id=record["id"])), body, names=[item[self.key]], locked=record,
                     done=done, said={self.said[kind == "detach"]: [item[self.key]]} if self.said else None)

    def attaching(self, item, record, params):
        key = item[self.key]
        return self.writing("attach", item, record, params, lambda found: key in self.held(found) and self.same(item, self.held(found)[key]))

    def detaching(self, item, record, params, replacement=None):
        key = item[self.key]
        return self.writing("detach", item, record, params, lambda found: key not in self.held(found) or (
            replacement is not None and self.same(replacement, self.held(found)[key])))
