# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""The managed members of a resource: how a record shows each, what an option asks for, how the two compare.

This module is internal to the collection: its interface may change at any time.
"""

from __future__ import annotations

UNSET = object()  # a Member without a ``created`` or ``reset`` value


def _same(desired, current):
    return desired == current


class Member:
    """One managed member of a resource.

    ``read(record)``: the member as a record shows it (the view, compared and shown in the diff);
    ``want(value, record)``: the view the option ``value`` asks for (``record``: the record as read, None when
    the resource is created); ``same(desired, current)``: whether the two views match; ``send(desired,
    current)``: the value sent for a difference. ``created``: the view on create when the option is left out
    (UNSET: not shown); ``reset``: the value a member left out gets when an item is replaced (UNSET: unmanaged).
    """

    def __init__(self, name, option=None, read=None, want=None, same=_same, send=None, created=UNSET, reset=UNSET):
        self.name = name
        self.option = option or name
        self.read = read or (lambda record: record.get(name))
        self.want = want or (lambda value, record: value)
        self.same = same
        self.send = send or (lambda desired, current: desired)
        self.created = created
        self.reset = reset


def differences(members, record, values, replace=False):
    """``{member: value to send}`` for the members given in ``values`` (``{option: value}``) that differ.

    With ``replace`` a member left out takes its ``reset`` value (when it has one)."""
    changes = {}
    for member in members:
        value = values.get(member.option)
        if value is None and member.reset is not UNSET and replace:
            value = member.reset
        if value is None:
            continue
        desired, current = member.want(value, record), member.read(record)
        if not member.same(desired, current):
            changes[member.name] = member.send(desired, current)
    return changes


def view(members, record):
    """The managed members of a record, as compared and shown in the diff."""
    return dict((member.name, member.read(record)) for member in members)


def created_view(members, values):
    """The managed members of a resource created from ``values``."""
    result = {}
    for member in members:
        value = values.get(member.option)
        if value is not None:
            result[member.name] = member.want(value, None)
        elif member.created is not UNSET:
            result[member.name] = member.created
    return result
