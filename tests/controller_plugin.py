# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A controller plugin (inventory, callback), imported only while its tests run."""

from __future__ import annotations

import contextlib
import importlib
import types


@contextlib.contextmanager
def controller_plugin(name):
    """The plugin module ``name``, imported only while these tests run.

    Importing controller code (the plugins import ``ansible.errors``, ``ansible.utils.display``) marks the process as
    the controller, which makes ``module_utils`` warnings go to the display instead of a module's result. The module
    unit tests in this process assert their warnings, so the mark is undone afterwards.
    """
    try:
        from ansible.module_utils import _internal as switch  # pylint: disable=import-outside-toplevel
    except ImportError:
        switch = None
    if not hasattr(switch, "is_controller"):  # cores before 2.19 have no such switch
        switch = types.SimpleNamespace(is_controller=False)
    before = switch.is_controller
    try:
        yield importlib.import_module(name)
    finally:
        switch.is_controller = before
