# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""Parents named by name: the network of a subnet, the network and subnet of an interface, the group a rule names, the
instance a volume or a floating IP goes to (CONTRACT section 18).

This module is internal to the collection: its interface may change at any time.

``parent_id(module, kind, value, option)`` turns an option's value into the id of the resource it names, before the
first write: an id (a UUID) as given, or an exact name over every page of one listing (``_cloud.find_named``; each
name is looked up once per run). A name that matches several fails listing their ids; one that matches nothing fails
naming the option, but in check mode: a preview of a stack that does not exist yet assumes an earlier task of the
play creates that parent. The module then warns, naming the parent, and goes on with an ``Assumed`` id in its place:
nothing can be found under it (a resource under a parent not built yet does not exist either), and the create it
previews shows it. With ``state: absent`` a parent that is not there (check mode or not) means nothing under it to
delete: an ``Assumed`` id, no warning.
"""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._cloud import KINDS, find_named


class Assumed(str):
    """The id of a parent named but not built yet (check mode only): it reads ``(network 'app-net', not built yet)``."""

    def __new__(cls, noun, name):
        return super().__new__(cls, "(%s %r, not built yet)" % (noun, name))


def assumed(value):
    """Whether ``value`` (an id) is a parent that check mode assumes an earlier task creates."""
    return isinstance(value, Assumed)


def parent_id(module, kind, value, option, query=None):
    """The id of the ``kind`` (a ``_cloud.KINDS`` key) that ``option``'s ``value`` names (see the module docstring);
    ``query``: more filters of the listing (a subnet within a network). None stays None."""
    if value is None or assumed(value):
        return value
    if query and any(assumed(filtered) for filtered in query.values()):  # under a parent not built yet: not built either
        return _assume(module, KINDS[kind], value, option)
    cache = module.__dict__.setdefault("_parents", {})
    key = (kind, value, tuple(sorted((query or {}).items())))
    if key not in cache:
        scope = dict(project_id=module.params["project_id"], region_id=module.params.get("region_id"))
        absent = module.params.get("state") == "absent"  # nothing under a parent that is not there: nothing to delete
        ident = find_named(module.client, KINDS[kind], scope, value, option, required=not (module.check_mode or absent), query=query)[0]
        cache[key] = ident if ident is not None else Assumed(KINDS[kind].noun, value) if absent else _assume(module, KINDS[kind], value, option)
    return cache[key]


def _assume(module, kind, value, option):
    module.module.warn("%s: check mode assumes that an earlier task creates the %s %r for this %s (there is none yet in %s); "
                       "without --check the task fails unless it exists" % (option, kind.noun, value, module.noun, kind.scope.format(
                           project_id=module.params["project_id"], region_id=module.params.get("region_id"))))
    return Assumed(kind.noun, value)


def check_one_of(params, where, pairs):
    """``pairs``: ``(id option, name option)``; both given fail naming them."""
    for ident, name in pairs:
        if params.get(ident) is not None and params.get(name) is not None:
            raise ValidationError("%s%s and %s are mutually exclusive (give the id or the name)" % (where, ident, name))
