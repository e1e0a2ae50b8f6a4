# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Test-only: the AnsiballZ payloads one ansible-playbook run builds, kept for the next runs of the same test session.

ansible-playbook builds each module's payload (the module and every module_utils it imports, found by parsing their
source) once per run, in ``ansiballz_cache`` of the run's own temporary folder, removed when the run ends: about
0.4 CPU second for each module a run uses, and the integration suite makes hundreds of short runs. The playbook
fixture of tests/integration/conftest.py puts this folder on the callback path and names, in
GCORE_TEST_ANSIBALLZ_CACHE, a folder of its test session (its ``ansiballz_cache`` fixture says when the pytest workers
share one); this callback, loaded before the first task, links the run's ``ansiballz_cache`` to it. What a module does
is unchanged: the payload is the one ansible-playbook builds, from the same files in the same session; only its
reuse by the next run is new. Without the variable, nothing is changed.
"""

from __future__ import annotations

import os

from ansible import constants as C
from ansible.plugins.callback import CallbackBase


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "aggregate"
    CALLBACK_NAME = "ansiballz_cache"
    CALLBACK_NEEDS_ENABLED = False  # loaded from the callback path without being listed

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        shared = os.environ.get("GCORE_TEST_ANSIBALLZ_CACHE")
        link = os.path.join(C.DEFAULT_LOCAL_TMP, "ansiballz_cache")
        if shared and os.path.isdir(shared) and not os.path.lexists(link):
            os.symlink(shared, link)  # the run's folder is removed at its end: the link goes, the payloads stay
