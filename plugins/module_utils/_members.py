# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""The members of a resource that a module manages (``Member``): each read from a record (its *view*), asked for by an
option, compared, sent when it differs and shown in the diff. This module is internal to the collection: its interface
may change at any time."""

from __future__ import annotations

import operator

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError

UNSET = object()  # a Member without a ``created`` or ``reset`` value


class Member:
    """One managed member of a resource: ``read(record)``: the member as a record shows it (the view, compared and shown
    in the diff); ``want(value, record)``: the view the option ``value`` asks for (``record``: the record as read, None
    when the resource is created); ``same(desired, current)``: whether the two views match; ``send(desired, current)``:
    the value sent for a difference; ``after(desired, current)``: what the diff's after side shows for it (default: the
    desired view). ``created``: the view on create when the option is left out (UNSET: not shown); ``reset``: the value
    a member left out gets when an item is replaced (UNSET: unmanaged); ``said(desired, current)``: what a write of it
    says in ``changes`` (``_writes``; current None on create), None: nothing."""

    def __init__(self, name, option=None, read=None, want=None, same=operator.eq, send=None, created=UNSET, reset=UNSET, after=None,
                 said=None):
        self.name, self.option = name, option or name
        self.read = read or (lambda record: record.get(name))
        self.want = want or (lambda value, record: value)
        self.send = send or (lambda desired, current: desired)
        self.after = after or (lambda desired, current: desired)
        self.same, self.created, self.reset, self.said = same, created, reset, said


def create_only(option, read, noun, want=None, rule="it can only be set when the %s is created"):
    """A member the service cannot change (*create-only*): an option that differs from the record fails before any write,
    naming the option, the current and the wanted value, and saying to delete and create the resource."""
    def wanted(value, record):
        desired = want(value) if want else value
        if record is not None and read(record) != desired:
            raise ValidationError("%s: %s %s has %s %r, not %r; %s: delete the %s and create it again, or use another name "
                                  "(nothing was sent)" % (option, noun, record.get("id"), option, read(record), desired,
                                                          rule % noun, noun))
        return desired
    return Member(option, read=read, want=wanted)


def asked(members, record, values, replace=False):
    """``(member, desired view, current view)`` of each member given in ``values`` (``{option: value}``; ``replace``: a
    member left out takes its ``reset`` value); ``record`` None: a resource to create (no current view)."""
    for member in members:
        value = values.get(member.option)
        if value is None and member.reset is not UNSET and replace:
            value = member.reset
        if value is not None:
            yield member, member.want(value, record), None if record is None else member.read(record)


def differences(members, record, values, replace=False, views=False):
    """``{member: value to send}`` of the members ``asked`` that differ (``views``: the view each asks for instead, as
    the diff shows it)."""
    return dict((member.name, (member.after if views else member.send)(desired, current))
                for member, desired, current in asked(members, record, values, replace) if not member.same(desired, current))


def view(members, record):
    """The managed members of a record, as compared and shown in the diff."""
    return dict((member.name, member.read(record)) for member in members)


def created_view(members, values):
    """The managed members of a resource created from ``values``."""
    return dict((member.name, member.created if values.get(member.option) is None else member.want(values[member.option], None))
                for member in members if values.get(member.option) is not None or member.created is not UNSET)


def said_by(members, record, values):
    """What the members given in ``values`` say in ``changes`` when they are written (``Member.said``): those that
    differ from ``record``, or (None) all of them when the resource is created."""
    said = {}
    for member, desired, current in asked([member for member in members if member.said], record, values):
        if record is None or not member.same(desired, current):
            merge_said(said, member.said(desired, current))
    return said


def merge_said(said, more):
    for key, labels in more.items():
        said[key] = said.get(key, []) + list(labels)
    return said
