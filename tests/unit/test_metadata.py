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


def test_requires_ansible_claims_only_what_ci_tests():
    runtime = yaml.safe_load((ROOT / "meta" / "runtime.yml").read_text())
    pinned = [line for line in (ROOT / "requirements-dev.txt").read_text().splitlines() if line.startswith("ansible-core==")]
    version = pinned[0].split("==")[1]
    assert runtime["requires_ansible"] == ">=2.19.0,<2.20.0"
    assert version.startswith("2.19.")
