# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""antsibull-changelog: the fragments and changelogs/changelog.yaml are valid, and the changelog agrees with galaxy.yml,
CHANGELOG.rst and the plugins' version_added; every link in it resolves to this repository's issues.

galaxy.yml's ``version`` is the newest release of changelogs/changelog.yaml (README "Release Notes"): a change made
since adds a fragment (pending for the next release; a new plugin or option says the next minor version in
``version_added``), and a release sets galaxy.yml's version and runs ``antsibull-changelog release`` in one commit."""

from __future__ import annotations

import ast
import re

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
    """galaxy.yml's version is the newest release: the changelog holds every released version up to it."""
    version, released = galaxy()["version"], releases()
    assert released and released[-1] == version, \
        "galaxy.yml says %s but the newest release in changelogs/changelog.yaml is %s: release it (antsibull-changelog " \
        "release --version %s) or set galaxy.yml back" % (version, released[-1] if released else None, version)
    assert (ROOT / "CHANGELOG.rst").is_file(), "CHANGELOG.rst exists once there is a release"
    rst = (ROOT / "CHANGELOG.rst").read_text(encoding="utf-8")
    assert re.findall(r"^v(\d+\.\d+\.\d+)\n=+$", rst, re.M) == released[::-1], "CHANGELOG.rst lists every release, newest first"


URL = re.compile(r"https?://[^\s)>\]'\"`]+")


def test_every_link_of_the_changelog_resolves_to_this_repository():
    """No link of a form that cannot resolve: an issue link is galaxy.yml's ``issues`` URL and a number (the issues of
    galaxy.yml's ``repository``), a pull request the repository's ``/pull/`` and a number; no other GitHub address."""
    info = galaxy()
    assert info["issues"] == info["repository"] + "/issues"
    allowed = re.compile(r"^(%s/\d+|%s/pull/\d+)$" % (re.escape(info["issues"]), re.escape(info["repository"])))
    sources = [CHANGELOGS / "changelog.yaml", ROOT / "CHANGELOG.rst"] + sorted((CHANGELOGS / "fragments").glob("*.yml"))
    links, bad = 0, []
    for path in sources:
        text = path.read_text(encoding="utf-8")
        for url in URL.findall(text):
            url = url.rstrip(".,;:")
            if "github.com" in url or "/issues" in url:
                links += 1
                if not allowed.match(url):
                    bad.append("%s: %s" % (path.name, url))
        bad += ["%s: %s" % (path.name, form) for form in re.findall(r"github\.com/[\w.-]+/issues\b", text)]
    assert links, "the changelog links its issues"
    assert not bad, "links that do not resolve to %s/N: %s" % (info["issues"], bad)


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
        assert listed == added, "release %s lists %s but version_added says %s (a plugin added since the release says " \
            "the next minor version)" % (release, sorted(listed - added), sorted(added - listed))
