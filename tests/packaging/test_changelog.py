# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""antsibull-changelog: the fragments and changelogs/changelog.yaml are valid."""

from __future__ import annotations

import yaml

from gcore_packaging import BIN, ROOT, explain, run, tool_env

CHANGELOGS = ROOT / "changelogs"


def test_fragments_pass_antsibull_changelog_lint():
    fragments = sorted((CHANGELOGS / "fragments").glob("*.yml"))
    assert fragments, "no changelog fragment"
    completed = run([BIN / "antsibull-changelog", "lint"], env=tool_env())
    assert completed.returncode == 0 and not completed.stdout.strip(), explain(completed)


def test_fragments_use_only_configured_sections():
    with open(CHANGELOGS / "config.yaml", encoding="utf-8") as handle:
        config = yaml.safe_load(handle)
    sections = {name for name, _title in config["sections"]} | {config["trivial_section_name"], config["prelude_section_name"]}
    for fragment in sorted((CHANGELOGS / "fragments").glob("*.yml")):
        with open(fragment, encoding="utf-8") as handle:
            content = yaml.safe_load(handle)
        assert isinstance(content, dict) and content, fragment.name
        assert set(content) <= sections, "%s uses sections %s" % (fragment.name, sorted(set(content) - sections))


def test_changelog_yaml_is_valid():
    completed = run([BIN / "antsibull-changelog", "lint-changelog-yaml", "--strict", CHANGELOGS / "changelog.yaml"],
                    env=tool_env())
    assert completed.returncode == 0 and not completed.stdout.strip(), explain(completed)
