# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""The parts of a resource written by requests of their own (``Part``, the one protocol of ``GcoreResourceModule.parts``,
which reads and plans them): what a resource holds but its create and update bodies cannot set (a volume's size, items
attached one by one: ``_attachments``, a child collection: ``_children``, values each written by a request: ``Values``).
This module is internal to the collection: its interface may change at any time."""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.module_utils._writes import Write


class Part:
    """One part of a resource (the module docstring). ``name``: the diff member; ``option``: the option that asks for it
    (None: none); ``before_delete``: everything it holds is undone before the resource is deleted."""

    name = option = None
    before_delete = False

    def check(self, module):
        """Validation of what the option asks for (before any request): raises ValidationError; may make it canonical."""

    def fetch(self, get, record, params):
        """What the part holds of ``record``, as ``held`` and ``plan`` take it (``get(path, query=None, one=False)``: every
        page of a listing; ``one``: the record at ``path``, None when there is none)."""
        return record

    def answered(self, state, write, answer):
        """What the part holds after ``write`` of its own was accepted with ``answer`` (None: read it again)."""

    def wanted(self, module):
        """What the task asks the part to hold (the module resolved any name); None: not managed in this run."""
        return module.params.get(self.option) if self.option else None

    def held(self, record):
        """What ``record`` holds, ``{identity: item}``."""
        return {}

    def views(self, state, wanted, params):
        """The diff's sides of the part: the items ``state`` holds (None: the resource is created) and what is wanted."""
        return (None if state is None else list(self.held(state).values())), wanted

    def plan(self, record, wanted, params):
        """The writes that make ``record`` hold ``wanted`` (``params``: the task's, for the paths)."""
        return []

    def created_said(self, wanted):
        """What the resource's create says of this part in ``changes`` (the create body carries it)."""
        return {}


class Values(Part):
    """Values of a record under keys (a domain's status and settings, its policies' modes), written by requests of
    their own: ``held(state)`` (``{key: view}``), ``wants(state, params)`` (``{key: view}``: what the options ask,
    resolved against what was read) and ``requests(changes, state, params)`` (``[(verb, keys, method, path, body)]``:
    what sends ``changes``, each write saying ``{verb: keys}`` in ``changes``). The diff shows the keys that change."""

    def wanted(self, module):
        return module.params  # what the options ask is ``wants``, once read

    def changed(self, state, params):
        held = self.held(state)
        return held, dict((key, view) for key, view in self.wants(state, params).items() if held.get(key) != view)

    def views(self, state, wanted, params):
        held, changes = self.changed(state, params)
        return dict((key, held.get(key)) for key in changes), changes

    def plan(self, record, wanted, params):
        changes = self.changed(record, params)[1]
        return [Write("update", method, path, body, names=keys, said={verb: keys}, label=", ".join(keys),
                      done=lambda found, keys=keys: all(self.held(found).get(key) == changes[key] for key in keys))
                for verb, keys, method, path, body in self.requests(changes, record, params)]
