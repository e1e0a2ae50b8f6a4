# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Test-only: a bytecode cache for the Python a module runs from its AnsiballZ zip.

ansible-playbook sends each module as a zip of its source and of every module_utils it imports; Python's zipimport
compiles that source again in every module process (a zip holds no ``__pycache__``): about a quarter of the CPU of a
module task here, and the integration suite runs thousands of them. The playbook fixture of
tests/integration/conftest.py puts this folder on PYTHONPATH, so ``site`` imports this file in each Python process
of a playbook run (the modules inherit that environment); it keeps the code compiled from a zip in
GCORE_TEST_BYTECODE_CACHE, keyed by the interpreter's bytecode version and the source's digest, as Python's own
hash-based ``.pyc`` files are. What a module does is unchanged: the same source gives the same code (its file name
set back to the zip's path, as a traceback would show it). Without the variable, nothing is changed.
"""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
import zipimport

CACHE = os.environ.get("GCORE_TEST_BYTECODE_CACHE")
_compile_source = getattr(zipimport, "_compile_source", None)  # CPython's zipimport (3.11, 3.12)


def _named(code, filename):
    """``code`` and the code objects it holds (functions, classes), as compiled from ``filename``."""
    constants = tuple(_named(item, filename) if isinstance(item, type(code)) else item for item in code.co_consts)
    return code.replace(co_filename=filename, co_consts=constants)


_LOADED = {}  # zipimport asks twice for each module's code (its file name, then the code to run): read once


def _cached(pathname, source):
    digest = hashlib.sha256(importlib.util.MAGIC_NUMBER + source).hexdigest()
    if (pathname, digest) not in _LOADED:
        _LOADED[pathname, digest] = _load(pathname, digest, source)
    return _LOADED[pathname, digest]


def _load(pathname, digest, source):
    path = os.path.join(CACHE, digest)
    try:
        with open(path, "rb") as handle:
            return _named(marshal.load(handle), pathname)
    except (OSError, EOFError, ValueError, TypeError):
        pass
    code = _compile_source(pathname, source)
    try:
        os.makedirs(CACHE, exist_ok=True)
        partial = "%s.%d" % (path, os.getpid())
        with open(partial, "wb") as handle:
            marshal.dump(code, handle)
        os.replace(partial, path)  # whole or absent: processes side by side never read half a file
    except OSError:
        pass
    return code


if CACHE and _compile_source is not None:
    zipimport._compile_source = _cached
