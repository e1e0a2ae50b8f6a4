# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The documentation's metadata is true: every ``version_added`` names a release of the collection
(one in changelogs/changelog.yaml, or the upcoming one: the next minor release after galaxy.yml's ``version``, which
names the newest release, README "Release Notes"); ``attributes`` say
``idempotent: partial`` exactly where an option makes every run a change; every module has ``seealso`` entries that
resolve; every module that changes something documents ``diff`` (before and after) in RETURN.

The docs are read as ansible-doc reads them: each module's DOCUMENTATION with its doc fragments merged by ansible's
own ``add_fragments``. Every module and plugin file is checked, whatever its name; none is skipped."""

from __future__ import annotations

import ast
import copy
import importlib
import json
import os
import pathlib
import re
import subprocess
import sys

import pytest
import yaml
from ansible.module_utils.compat.version import LooseVersion

ROOT = pathlib.Path(__file__).resolve().parents[2]
PLUGINS = ROOT / "plugins"
COLLECTION = "gcore.platform"
MODULES = sorted(path.stem for path in (PLUGINS / "modules").glob("*.py") if path.stem != "__init__")
# Every documented plugin: modules, the inventory plugin and any plugin type added later (not module_utils or
# doc_fragments, which are not plugins with their own docs).
PLUGIN_FILES = sorted(path for path in PLUGINS.glob("*/*.py") if path.stem != "__init__"
                      and path.parent.name not in ("module_utils", "doc_fragments"))


def block(path, name):
    """A documentation string (DOCUMENTATION, EXAMPLES, RETURN) of a plugin file, read without importing it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = [node.value.value for node in tree.body
             if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == name]
    assert len(found) == 1, "%s: %d %s blocks" % (path.name, len(found), name)
    return found[0]


class Fragments:
    """The doc fragment loader ansible's add_fragments asks (``get(name)``): this collection's fragments only."""

    def get(self, name):
        if not name.startswith(COLLECTION + "."):
            return None
        short = name[len(COLLECTION) + 1:]
        if not (PLUGINS / "doc_fragments" / ("%s.py" % short)).is_file():
            return None
        fragment = importlib.import_module("ansible_collections.gcore.platform.plugins.doc_fragments.%s" % short).ModuleDocFragment
        fragment.ansible_name = name
        return fragment


def merge(path):
    """A plugin's DOCUMENTATION with its fragments merged by ansible's own ``add_fragments``, as ansible-doc shows it."""
    from ansible.utils.plugin_docs import add_fragments  # pylint: disable=import-outside-toplevel
    doc = yaml.safe_load(block(path, "DOCUMENTATION"))
    add_fragments(doc, str(path), fragment_loader=Fragments(), is_module=path.parent.name == "modules")
    return doc


MERGED = {}


def documentation(path):
    """``merge(path)``, worked out for every plugin at once in a child process: importing ansible's controller code
    (``plugin_docs``) into this process would make the modules the other unit tests run print their warnings instead
    of returning them."""
    if not MERGED:
        sys.path.insert(0, str(ROOT / "tests"))
        from collection_link import collections_path  # pylint: disable=import-outside-toplevel
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([collections_path(), str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")]))
        answer = subprocess.run([sys.executable, __file__], env=env, check=True, capture_output=True, text=True)
        MERGED.update(json.loads(answer.stdout))
    return copy.deepcopy(MERGED[str(path)])


def module_doc(name):
    return documentation(PLUGINS / "modules" / ("%s.py" % name))


def module_return(name):
    return yaml.safe_load(block(PLUGINS / "modules" / ("%s.py" % name), "RETURN")) or {}


# ---- version_added: a release of this collection ----------------------------------------------------------------

def galaxy_version():
    return yaml.safe_load((ROOT / "galaxy.yml").read_text(encoding="utf-8"))["version"]


def changelog_releases():
    changelog = yaml.safe_load((ROOT / "changelogs" / "changelog.yaml").read_text(encoding="utf-8"))
    return changelog.get("releases") or {}


def released():
    return sorted(changelog_releases(), key=LooseVersion)


def upcoming():
    """The release a change made now ships in: galaxy.yml's version when it is not released yet, else the next minor
    release after it (galaxy.yml keeps the newest release's version between releases)."""
    version = galaxy_version()
    if version not in released():
        return version
    major, minor, _patch = (int(part) for part in version.split("."))
    return "%d.%d.0" % (major, minor + 1)


def allowed_versions():
    return set(released()) | {upcoming()}


def versions_added(node, where):
    """(where, version) of every version_added in a docs tree (the plugin's, its options', suboptions', return keys')."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "version_added":
                yield where, value
            else:
                yield from versions_added(value, "%s.%s" % (where, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from versions_added(value, "%s[%d]" % (where, index))


def test_galaxy_version_is_the_last_release_or_the_next_one():
    """galaxy.yml and the changelog agree: the version is the newest release, or newer than every release."""
    version, releases = galaxy_version(), released()
    assert re.match(r"^\d+\.\d+\.\d+$", version), version
    assert LooseVersion(version) >= LooseVersion("1.0.0"), "the first release is 1.0.0"
    assert all(LooseVersion(version) >= LooseVersion(release) for release in releases), (version, releases)


@pytest.mark.parametrize("path", PLUGIN_FILES, ids=lambda path: "%s/%s" % (path.parent.name, path.stem))
def test_version_added_names_a_release(path):
    """A plugin says the release it first ships in (the upcoming one for a new plugin, see upcoming()); so does any
    option or return key that carries a version_added. The collection never released 0.x versions."""
    allowed = allowed_versions()
    doc = yaml.safe_load(block(path, "DOCUMENTATION"))
    assert "version_added" in doc, "%s has no version_added" % path.name
    found = list(versions_added(doc, path.stem))
    if path.parent.name == "modules":
        found += list(versions_added(module_return(path.stem), "%s RETURN" % path.stem))
    wrong = ["%s: %s" % (where, version) for where, version in found if str(version) not in allowed]
    assert not wrong, "version_added must be one of %s (changelogs/changelog.yaml, and the upcoming %s): %s" % (
        sorted(allowed), upcoming(), wrong)
    release = (changelog_releases().get(str(doc["version_added"])) or {})
    if release:  # a released version: that release lists the plugin as new
        kind = "modules" if path.parent.name == "modules" else path.parent.name
        listed = release.get("modules", []) if kind == "modules" else (release.get("plugins") or {}).get(kind, [])
        assert path.stem in [item["name"] for item in listed], \
            "%s says version_added %s, a release that does not list it: a plugin added since says %s" % (
                path.stem, doc["version_added"], upcoming())


def test_doc_fragments_and_role_specs_name_a_release():
    allowed = allowed_versions()
    found = []
    for path in sorted((PLUGINS / "doc_fragments").glob("*.py")):
        fragment = Fragments().get("%s.%s" % (COLLECTION, path.stem))
        for name in (attr for attr in vars(fragment) if attr.isupper()):
            found += versions_added(yaml.safe_load(getattr(fragment, name)), "%s.%s" % (path.stem, name))
    for path in sorted(ROOT.glob("roles/*/meta/argument_specs.yml")):
        found += versions_added(yaml.safe_load(path.read_text(encoding="utf-8")), path.parts[-3])
    wrong = ["%s: %s" % (where, version) for where, version in found if str(version) not in allowed]
    assert not wrong, wrong


# ---- attributes: idempotent is partial exactly where a run always changes something ---------------------------------

EVERY_RUN = re.compile(r"\bon every\s+run\b|\bchange on every\s+run\b")


def option_texts(options):
    for name, spec in (options or {}).items():
        description = spec.get("description", [])
        yield name, " ".join(description if isinstance(description, list) else [description])
        yield from option_texts(spec.get("suboptions"))


@pytest.mark.parametrize("name", MODULES)
def test_idempotent_is_partial_where_an_option_changes_every_run(name):
    """An option documented to change something on every run (instance state=restarted, storage
    update_password=always) makes the module ``idempotent: partial``, with details naming it; otherwise ``full``."""
    doc = module_doc(name)
    idempotent = doc["attributes"]["idempotent"]
    every_run = sorted(option for option, text in option_texts(doc["options"]) if EVERY_RUN.search(text))
    if every_run:
        assert idempotent["support"] == "partial", "%s: %s change on every run, but idempotent is %s" % (
            name, every_run, idempotent["support"])
        details = " ".join(idempotent.get("details") or [])
        assert all("O(%s" % option in details for option in every_run), "%s: the details must name %s" % (name, every_run)
    else:
        assert idempotent["support"] == "full", "%s: idempotent %s, but no option changes on every run" % (
            name, idempotent["support"])


def test_the_partial_modules_are_the_known_ones():
    """The rule above is read from the docs' words: the modules known to change on every run must be found by it."""
    partial = [name for name in MODULES if module_doc(name)["attributes"]["idempotent"]["support"] == "partial"]
    assert {"instance", "storage"} <= set(partial), partial


# ---- seealso: every module has it, and every entry resolves ----------------------------------------------------------

def resolves(entry):
    if "module" in entry:
        collection, _dot, short = entry["module"].rpartition(".")
        if collection == COLLECTION:
            return (PLUGINS / "modules" / ("%s.py" % short)).is_file()
        return collection == "ansible.builtin" and importlib.util.find_spec("ansible.modules.%s" % short) is not None
    if "plugin" in entry:
        collection, _dot, short = entry["plugin"].rpartition(".")
        return collection == COLLECTION and (PLUGINS / entry["plugin_type"] / ("%s.py" % short)).is_file()
    return bool(entry.get("ref") or entry.get("link")) and bool(entry.get("description"))


@pytest.mark.parametrize("name", MODULES)
def test_every_module_has_seealso_that_resolves(name):
    seealso = module_doc(name).get("seealso") or []
    assert seealso, "%s has no seealso" % name
    unresolved = [entry for entry in seealso if not resolves(entry)]
    assert not unresolved, "%s: seealso entries that name nothing: %s" % (name, unresolved)
    modules = [entry["module"] for entry in seealso if "module" in entry]
    assert "%s.%s" % (COLLECTION, name) not in modules, "%s refers to itself" % name
    assert len(modules) == len(set(modules)), "%s names a module twice" % name


@pytest.mark.parametrize("name", [name for name in MODULES if "%s_info" % name in MODULES])
def test_a_module_and_its_info_module_refer_to_each_other(name):
    assert "%s.%s_info" % (COLLECTION, name) in [entry.get("module") for entry in module_doc(name)["seealso"]]
    assert "%s.%s" % (COLLECTION, name) in [entry.get("module") for entry in module_doc("%s_info" % name)["seealso"]]


# ---- diff: documented by every module that changes something ---------------------------------------------------------

def changes_things(doc):
    """A module with a state option or whose attributes say it supports diff mode (the others only read)."""
    return "state" in doc["options"] or doc["attributes"]["diff_mode"]["support"] not in ("N/A", "none")


def has_before_and_after(spec):
    sample = spec.get("sample")
    if isinstance(sample, dict) and {"before", "after"} <= set(sample):
        return True
    contains = spec.get("contains") or {}
    return all(side in contains and "sample" in contains[side] for side in ("before", "after"))


@pytest.mark.parametrize("name", MODULES)
def test_a_module_that_changes_things_documents_diff(name):
    doc, returned = module_doc(name), module_return(name)
    if not changes_things(doc):
        # Not skipped: a read-only module says so in its attributes (the INFO_MODULE fragment) and has no diff.
        assert doc["attributes"]["check_mode"]["support"] == "full" and doc["attributes"]["diff_mode"]["support"] == "N/A"
        assert "diff" not in returned, "%s only reads, but documents a diff" % name
        return
    assert "diff" in returned, "%s changes things but its RETURN has no diff" % name
    assert returned["diff"]["type"] == "dict" and returned["diff"].get("description"), name
    assert has_before_and_after(returned["diff"]), "%s: the diff's sample (or contains) must show before and after" % name


def test_both_kinds_are_checked():
    kinds = [changes_things(module_doc(name)) for name in MODULES]
    assert kinds.count(True) >= 15 and kinds.count(False) >= 10, kinds


if __name__ == "__main__":
    print(json.dumps(dict((str(path), merge(path)) for path in PLUGIN_FILES if path.parent.name == "modules"), default=str))


# ---- secrets: a plugin option that holds one is marked so ------------------------------------------------------------

SECRET_OPTION = re.compile(r"(^|_)(key|password|token|secret)$")


def test_a_plugin_option_holding_a_secret_is_marked_secret():
    """A plugin other than a module (the inventory plugin) marks its secret options ``secret: true``: ansible-core 2.22
    and later keep the value out of its output (a module's are ``no_log`` in its argument spec). ansible-test's
    validate-modules accepts the key from 2.19 on; tests/tools/ansible-test.sh leaves it out of the copy an older core
    checks."""
    found = {}
    for path in PLUGIN_FILES:
        if path.parent.name == "modules":
            continue
        options = yaml.safe_load(block(path, "DOCUMENTATION")).get("options") or {}
        found.update(("%s.%s" % (path.stem, name), option.get("secret")) for name, option in options.items()
                     if SECRET_OPTION.search(name))
    assert "cloud.api_key" in found, sorted(found)
    assert [name for name, secret in found.items() if secret is not True] == [], found
