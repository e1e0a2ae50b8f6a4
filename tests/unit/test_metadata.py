# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Metadata that must not drift from the code."""

from __future__ import annotations

import pathlib

import yaml

from ansible_collections.gcore.platform.plugins.module_utils._client import COLLECTION_VERSION

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_action_group_all_lists_exactly_the_modules():
    runtime = yaml.safe_load((ROOT / "meta" / "runtime.yml").read_text())
    modules = sorted(path.stem for path in (ROOT / "plugins" / "modules").glob("*.py") if path.stem != "__init__")
    assert sorted(runtime["action_groups"]["all"]) == modules


def test_user_agent_version_is_the_collection_version():
    galaxy = yaml.safe_load((ROOT / "galaxy.yml").read_text())
    assert COLLECTION_VERSION == galaxy["version"]


def pinned_core(requirements):
    """The ansible-core version a requirements file pins."""
    pinned = [line for line in (ROOT / requirements).read_text().splitlines() if line.startswith("ansible-core==")]
    assert len(pinned) == 1, "%s must pin ansible-core exactly once" % requirements
    return pinned[0].split("==")[1]


def test_requires_ansible_claims_only_what_ci_tests():
    """Every core from requires_ansible's lower bound to the pinned one is tested: the pinned core by the full
    suite (requirements-dev.txt), each older one by `make test-cores` (requirements-core-<core>.txt, CORES)."""
    runtime = yaml.safe_load((ROOT / "meta" / "runtime.yml").read_text())
    assert runtime["requires_ansible"] == ">=2.16.0"
    pinned = tuple(int(part) for part in pinned_core("requirements-dev.txt").split(".")[:2])
    assert pinned == (2, 19)
    makefile = (ROOT / "Makefile").read_text()
    cores = [line.split(":=", 1)[1].split() for line in makefile.splitlines() if line.startswith("CORES :=")]
    assert cores, "the Makefile names no CORES"
    expected = ["2.%d" % minor for minor in range(16, pinned[1])]
    assert cores[0] == expected
    for core in expected:
        assert pinned_core("requirements-core-%s.txt" % core).startswith(core + ".")
