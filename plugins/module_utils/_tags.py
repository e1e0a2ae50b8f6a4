# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""User tags of a cloud resource: the ``tags`` and ``purge_tags`` options, their checks, and the member that
compares them and sends a JSON merge patch (docs/api_reference.md section 15.0).

This module is internal to the collection: its interface may change at any time.

A record shows its tags as ``[{key, value, read_only}]`` in ``tags``, or in ``tags_v2`` where it shows that (security
groups, load balancers, images); read-only tags are never compared or touched. The create body carries ``tags`` as
``{key: value}``; a PATCH carries only the keys that change, a removed key as ``null``.
"""

from __future__ import annotations

import json
import re

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._members import Member

TAG_KEY = re.compile(r"[^\s=]{1,255}")
TAG_VALUE = re.compile(r"[^ \t\n\r\f\v]([^\t\n\r\f\v]{0,253}[^ \t\n\r\f\v])?")
KEY_RULE = "a tag key is 1 to 255 characters without whitespace or '='"
VALUE_RULE = "a tag value is a string of 1 to 255 characters without tabs or line breaks, and no space at either end"

# The options of every module that manages tags.
TAGS_OPTIONS = dict(tags=dict(type="dict"), purge_tags=dict(type="bool", default=True))


def check_tags(tags, option="tags"):
    """Every key and value of ``tags`` (a dict, or None) follows the service's patterns; ValidationError otherwise."""
    for key, value in (tags or {}).items():
        if not isinstance(key, str) or not TAG_KEY.fullmatch(key):
            raise ValidationError("%s: key %r breaks the rule: %s" % (option, key, KEY_RULE))
        if not isinstance(value, str) or not TAG_VALUE.fullmatch(value):
            raise ValidationError("%s.%s: %r breaks the rule: %s" % (option, key, value, VALUE_RULE))


def user_tags(record):
    """The record's user tags as ``{key: value}`` (read-only ones left out): ``tags_v2`` where shown, else ``tags``."""
    record = record or {}
    listed = record["tags_v2"] if record.get("tags_v2") is not None else record.get("tags")
    return dict((tag.get("key"), tag.get("value")) for tag in listed or [] if not tag.get("read_only"))


def merge_patch(desired, current):
    """The JSON merge patch that turns the user tags ``current`` into ``desired``: changed keys, removed ones as null."""
    patch = dict((key, value) for key, value in desired.items() if current.get(key) != value)
    patch.update((key, None) for key in current if key not in desired)
    return patch


def tags_member(params, said=False):
    """The ``tags`` member: with ``purge_tags`` the user tags become exactly ``tags``, without it ``tags`` are added or
    updated and the others kept. The diff shows a dict of user tags; the PATCH gets ``{tags: merge patch}``. ``said``: a
    change of an existing resource's tags says ``{"updated": ["tags"]}`` in ``changes``."""
    def want(value, record):
        if params.get("purge_tags", True) or record is None:
            return dict(value)
        return dict(user_tags(record), **value)
    return Member("tags", read=user_tags, want=want, send=merge_patch,
                  said=(lambda desired, current: {"updated": ["tags"]} if current is not None else {}) if said else None)


def with_tags(declared):
    """A tagged resource's ``members`` (a tuple or a property) with the ``tags`` member last.
    Two settings of the module shape it: ``tags_said`` (True: ``tags_member``'s ``said``) and ``tags_given`` (True: the
    member is there, and shown in the diff, only in a run that gives ``tags``)."""
    def members(module):
        found = tuple(declared.fget(module) if isinstance(declared, property) else declared)
        if getattr(module, "tags_given", False) and module.params["tags"] is None:
            return found
        return found + (tags_member(module.params, getattr(module, "tags_said", False)),)
    return property(members)


def tag_query(tags):
    """The listing filter of the records carrying every one of ``tags`` (``tag_key_value``: one JSON object)."""
    return {"tag_key_value": json.dumps(tags, sort_keys=True, separators=(",", ":"))}


def renamed(module, records, name, ours=lambda record: False):
    """Warn about each of ``records`` that carries every declared user tag (at least one declared) under another name
    than ``name``: a resource renamed outside Ansible, which a create would duplicate; ``ours(record)``: one the task
    manages under its own name (a fleet's members)."""
    tags = module.params.get("tags") or {}
    for record in records if tags else ():
        mine = user_tags(record)
        if record.get("name") != name and not ours(record) and all(mine.get(key) == value for key, value in tags.items()):
            module.module.warn("%s %r (%s) carries every tag this task declares (%s) under another name than %r: renamed "
                               "outside Ansible? This task creates a new %s %r; to keep that one instead, rename it back (or "
                               "give its id)" % (module.noun, record.get("name"), record.get("id"), ", ".join(
                                   "%s=%s" % item for item in sorted(tags.items())), name, module.noun, name))
