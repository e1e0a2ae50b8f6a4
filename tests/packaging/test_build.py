# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The collection artifact: what ``ansible-galaxy collection build`` puts in the tarball, and that every module
is documented from a copy installed from that tarball (not from the working tree)."""

from __future__ import annotations

import json
import pathlib
import tarfile

from gcore_packaging import BIN, ROOT, explain, installed, module_names, run, tarball, tool_env  # noqa: F401  pylint: disable=unused-import

# Directory names that are build or test output and never belong in the artifact, wherever they are.
FORBIDDEN_DIRS = {".venv", ".build", "__pycache__", ".pytest_cache", ".git", ".ansible", ".ci", ".tox", "node_modules"}
FORBIDDEN_PREFIXES = ("tests/output/", "docs/docsite/build/", "docs/docsite/_build/", "bench/output/", "context/")
FORBIDDEN_SUFFIXES = (".pyc", ".pyo", ".tar.gz", ".retry", ".swp")


def members(tarball):
    with tarfile.open(tarball) as archive:
        return [member.name for member in archive.getmembers()]


def test_tarball_holds_no_build_or_test_output(tarball):
    names = members(tarball)
    bad = [name for name in names
           if FORBIDDEN_DIRS & set(pathlib.PurePosixPath(name).parts)
           or any(part.startswith(".venv-") for part in pathlib.PurePosixPath(name).parts)
           or (name + "/").startswith(FORBIDDEN_PREFIXES) or name.endswith(FORBIDDEN_SUFFIXES)]
    assert not bad, "the collection tarball carries build/test output: %s" % bad[:20]
    assert len(names) < 1000, "suspiciously many files in the tarball: %d" % len(names)


def test_tarball_holds_what_users_and_awx_need(tarball):
    names = set(members(tarball))
    wanted = {"MANIFEST.json", "FILES.json", "README.md", "requirements.txt", "meta/runtime.yml",
              "meta/execution-environment.yml", "changelogs/changelog.yaml", "docs/docsite/extra-docs.yml",
              "docs/docsite/links.yml", "docs/awx/gcore_credential_type.yml", "docs/awx/execution-environment.yml",
              "plugins/doc_fragments/gcore.py", "plugins/module_utils/_client.py", "plugins/module_utils/_base.py",
              "plugins/callback/plan.py"}
    wanted |= {"plugins/modules/%s.py" % name for name in module_names()}
    wanted |= {"docs/docsite/rst/%s" % path.name for path in (ROOT / "docs" / "docsite" / "rst").glob("*.rst")}
    assert not wanted - names, "missing from the tarball: %s" % sorted(wanted - names)


def test_every_module_is_documented_from_the_installed_copy(installed):
    env = tool_env(str(installed))
    listed = run([BIN / "ansible-doc", "--list", "--json", "gcore.platform"], env=env)
    assert listed.returncode == 0, explain(listed)
    fqcns = sorted("gcore.platform.%s" % name for name in module_names())
    assert sorted(json.loads(listed.stdout)) == fqcns, "ansible-doc --list of the installed copy differs from plugins/modules"

    shown = run([BIN / "ansible-doc", "--json"] + fqcns, env=env)
    assert shown.returncode == 0, explain(shown)
    assert "WARNING" not in shown.stderr and "ERROR" not in shown.stderr, explain(shown)
    docs = json.loads(shown.stdout)
    assert sorted(docs) == fqcns, explain(shown)
    for fqcn, entry in docs.items():
        doc = entry["doc"]
        assert doc["module"] == fqcn.rsplit(".", 1)[1]
        assert doc["collection"] == "gcore.platform"
        assert doc["filename"].startswith(str(installed)), "%s documented from %s, not the installed copy" % (fqcn, doc["filename"])
        assert doc.get("short_description") and doc.get("options"), fqcn
        assert entry.get("examples"), "%s has no EXAMPLES" % fqcn
        assert "api_key" in doc["options"], "%s lacks the common options" % fqcn
    # And the plain text a person reads: one ansible-doc for all (it renders each named module in turn).
    text = run([BIN / "ansible-doc"] + fqcns, env=dict(env, ANSIBLE_NOCOLOR="1"))
    assert text.returncode == 0 and "WARNING" not in text.stderr, explain(text)
    sections = {section.split(None, 1)[0]: section for section in text.stdout.split("> MODULE ")[1:]}
    assert sorted(sections) == fqcns, explain(text)
    for fqcn, section in sections.items():
        assert "OPTIONS" in section and "EXAMPLES" in section, "%s:\n%s" % (fqcn, section[:2000])


def test_the_plan_callback_is_documented_from_the_installed_copy(installed):
    """``ansible-doc -t callback`` lists and shows gcore.platform.plan (issue 46), from the installed copy."""
    env = tool_env(str(installed))
    listed = run([BIN / "ansible-doc", "-t", "callback", "--list", "--json", "gcore.platform"], env=env)
    assert listed.returncode == 0, explain(listed)
    assert sorted(json.loads(listed.stdout)) == ["gcore.platform.plan"], explain(listed)
    shown = run([BIN / "ansible-doc", "-t", "callback", "--json", "gcore.platform.plan"], env=env)
    assert shown.returncode == 0 and "WARNING" not in shown.stderr, explain(shown)
    doc = json.loads(shown.stdout)["gcore.platform.plan"]["doc"]
    assert doc["type"] == "aggregate" and doc["filename"].startswith(str(installed)), doc
    assert "callbacks_enabled = gcore.platform.plan" in " ".join(doc["requirements"]), doc
    assert "12 to create, 3 to change, 1 to replace, 2 to delete" in " ".join(doc["description"]), doc


def test_every_role_is_documented_from_the_installed_copy(installed):
    roles = sorted(path.parent.parent.name for path in (ROOT / "roles").glob("*/meta/argument_specs.yml"))
    if not roles:
        return
    env = tool_env(str(installed))
    for role in roles:
        shown = run([BIN / "ansible-doc", "-t", "role", "gcore.platform.%s" % role], env=env)
        assert shown.returncode == 0 and "ENTRY POINT" in shown.stdout.upper(), explain(shown)
