# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Shared by every suite: lets the in-process module tests run on each supported ansible-core.

``ansible.module_utils.testing.patch_module_args`` (how a test hands arguments to a module's ``main``) is new in
ansible-core 2.19. On 2.16-2.18 the same context manager is provided here, setting ``basic._ANSIBLE_ARGS`` the way
those cores read module arguments, so the unit tests and the in-process bad-input table run unchanged on every core.
"""

from __future__ import annotations

import contextlib
import json
import sys
import types

try:
    import ansible.module_utils.testing  # noqa: F401  pylint: disable=unused-import
except ImportError:
    import ansible.module_utils
    from ansible.module_utils import basic

    @contextlib.contextmanager
    def patch_module_args(args=None):
        args = dict(args or {})
        args.setdefault("_ansible_remote_tmp", "/tmp")
        args.setdefault("_ansible_keep_remote_files", False)
        previous = basic._ANSIBLE_ARGS  # pylint: disable=protected-access
        basic._ANSIBLE_ARGS = json.dumps({"ANSIBLE_MODULE_ARGS": args}).encode("utf-8")  # pylint: disable=protected-access
        try:
            yield
        finally:
            basic._ANSIBLE_ARGS = previous  # pylint: disable=protected-access

    _testing = types.ModuleType("ansible.module_utils.testing")
    _testing.patch_module_args = patch_module_args
    sys.modules["ansible.module_utils.testing"] = _testing
    ansible.module_utils.testing = _testing


def _registry_as_mapping():
    """Before 2.19 a module's warnings are kept in a list, from 2.19 in a dict: tests reset it with
    ``mock.patch.dict(warnings._global_warnings, clear=True)``, which needs ``update``. Give the list one."""
    from ansible.module_utils.common import warnings as module_warnings  # pylint: disable=import-outside-toplevel

    class _WarningList(list):
        def update(self, other):
            self[:] = list(other)

    for name in ("_global_warnings", "_global_deprecations"):
        registry = getattr(module_warnings, name, None)
        if type(registry) is list:  # pylint: disable=unidiomatic-typecheck
            setattr(module_warnings, name, _WarningList(registry))


_registry_as_mapping()
