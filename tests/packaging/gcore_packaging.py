# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Helpers and fixtures of the packaging suite: paths, the tools of .venv, the collection tarball and a copy
installed from it. The suite checks what a user or AWX gets rather than the working tree: the tarball that
``ansible-galaxy collection build`` makes, installed with ``ansible-galaxy collection install``.

This is not a conftest.py on purpose: other suites import their own ``conftest`` module by that name, and a
second conftest.py would shadow theirs when pytest collects several suites at once. Test modules import
the fixtures they use from here.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(sys.executable).parent
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))

from collection_link import collections_path as source_collections_path  # noqa: E402  pylint: disable=wrong-import-position


def galaxy():
    with open(ROOT / "galaxy.yml", encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def module_names():
    return sorted(path.stem for path in (ROOT / "plugins" / "modules").glob("*.py") if not path.name.startswith("_"))


def tool_env(collections_path=None, **extra):
    """The environment for the tools: .venv/bin first on PATH, no colours, the collection on the path."""
    env = dict(os.environ)
    env.update(PATH="%s%s%s" % (BIN, os.pathsep, env.get("PATH", "")), ANSIBLE_NOCOLOR="1", ANSIBLE_FORCE_COLOR="0",
               NO_COLOR="1", ANSIBLE_COLLECTIONS_PATH=collections_path or source_collections_path(),
               PY_COLORS="0", TERM="dumb")
    env.update(extra)
    return env


def run(command, cwd=ROOT, env=None, timeout=300):
    """Run a tool; return the CompletedProcess with stdout and stderr as text."""
    return subprocess.run([str(part) for part in command], cwd=str(cwd), env=env or tool_env(), capture_output=True,
                          text=True, check=False, timeout=timeout)


def explain(completed):
    return "rc=%s\n--- stdout ---\n%s\n--- stderr ---\n%s" % (completed.returncode, completed.stdout[-8000:], completed.stderr[-8000:])


# Built once per pytest process, whichever test module asks first (the fixtures are imported by the test
# modules rather than defined in a conftest.py, see the docstring).
_BUILT = {}


@pytest.fixture(scope="session")
def tarball(tmp_path_factory):
    """The collection artifact, built from the working tree into a temporary directory."""
    if "tarball" in _BUILT:
        return _BUILT["tarball"]
    out = tmp_path_factory.mktemp("galaxy-build")
    completed = run([BIN / "ansible-galaxy", "collection", "build", "--output-path", out, ROOT])
    assert completed.returncode == 0, explain(completed)
    info = galaxy()
    path = out / ("%s-%s-%s.tar.gz" % (info["namespace"], info["name"], info["version"]))
    assert path.is_file(), explain(completed)
    _BUILT["tarball"] = path
    return path


@pytest.fixture(scope="session")
def installed(tarball, tmp_path_factory):
    """A collections path holding gcore.platform installed from the tarball (and nothing else)."""
    if "installed" in _BUILT:
        return _BUILT["installed"]
    target = tmp_path_factory.mktemp("collections")
    completed = run([BIN / "ansible-galaxy", "collection", "install", "--offline", "-p", target, tarball],
                    env=tool_env(str(target)))
    assert completed.returncode == 0, explain(completed)
    assert (target / "ansible_collections" / "gcore" / "platform" / "MANIFEST.json").is_file(), explain(completed)
    _BUILT["installed"] = target
    return target
