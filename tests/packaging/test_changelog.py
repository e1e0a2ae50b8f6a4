# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""antsibull-changelog: the fragments and changelogs/changelog.yaml are valid, and the changelog agrees with galaxy.yml,
CHANGELOG.rst and the plugins' version_added (before the first release, and after each one)."""

from __future__ import annotations

import ast

import yaml
from ansible.module_utils.compat.version import LooseVersion

from gcore_packaging import BIN, ROOT, explain, galaxy, run, tool_env

CHANGELOGS = ROOT / "changelogs"


def changelog():
    with open(CHANGELOGS / "changelog.yaml", encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def releases():
    return sorted(changelog().get("releases") or {}, key=LooseVersion)


def test_fragments_pass_antsibull_changelog_lint():
    """Every fragment is valid. Right after a release there are none (keep_fragments is false): the release took them."""
    fragments = sorted((CHANGELOGS / "fragments").glob("*.yml"))
    assert fragments or galaxy()["version"] in releases(), "no changelog fragment for the upcoming %s" % galaxy()["version"]
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


def test_changelog_agrees_with_galaxy_yml():
    """galaxy.yml's version is the newest release or the next one; CHANGELOG.rst exists once there is a release."""
    version, released = galaxy()["version"], releases()
    assert all(LooseVersion(version) >= LooseVersion(release) for release in released), (version, released)
    assert (ROOT / "CHANGELOG.rst").is_file() == bool(released), "CHANGELOG.rst exists exactly when there is a release"


def test_changelog_rst_is_what_changelog_yaml_generates(tmp_path):
    if not releases():
        return  # nothing released yet: test_changelog_agrees_with_galaxy_yml asserts there is no CHANGELOG.rst
    generated = tmp_path / "CHANGELOG.rst"
    completed = run([BIN / "antsibull-changelog", "generate", "--output", generated], env=tool_env())
    assert completed.returncode == 0, explain(completed)
    assert generated.read_text(encoding="utf-8") == (ROOT / "CHANGELOG.rst").read_text(encoding="utf-8"), \
        "CHANGELOG.rst is not what changelogs/changelog.yaml generates: run antsibull-changelog generate"


def version_added(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    doc = next(node.value.value for node in tree.body if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "DOCUMENTATION")
    return str(yaml.safe_load(doc)["version_added"])


def test_each_release_lists_the_plugins_it_added():
    """A released version's "New Modules" / "New Plugins" are exactly the plugins whose version_added is that version."""
    for release, data in (changelog().get("releases") or {}).items():
        listed = {("modules", item["name"]) for item in data.get("modules", [])}
        listed |= {(kind, item["name"]) for kind, items in (data.get("plugins") or {}).items() for item in items}
        added = {("modules" if path.parent.name == "modules" else path.parent.name, path.stem)
                 for path in (ROOT / "plugins").glob("*/*.py")
                 if path.parent.name not in ("module_utils", "doc_fragments") and path.stem != "__init__"
                 and version_added(path) == str(release)}
        assert listed == added, "release %s lists %s but version_added says %s" % (release, sorted(listed - added), sorted(added - listed))
