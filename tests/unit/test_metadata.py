# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Metadata that must not drift from the code."""

from __future__ import annotations

import ast
import pathlib
import re
import subprocess

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


SUPPORTED = ["2.16", "2.17", "2.18", "2.19", "2.20", "2.21"]


def test_requires_ansible_claims_only_what_ci_tests():
    """Every supported core is tested: the pinned one by the full suite (requirements-dev.txt), each other one by
    `make test-cores` (requirements-core-<core>.txt, CORES in the Makefile), each pinned to a release of that core."""
    runtime = yaml.safe_load((ROOT / "meta" / "runtime.yml").read_text())
    assert runtime["requires_ansible"] == ">=2.16.0"
    pinned = ".".join(pinned_core("requirements-dev.txt").split(".")[:2])
    assert pinned == "2.19"
    assert pinned_core("requirements-importer.txt") == pinned_core("requirements-dev.txt")
    makefile = (ROOT / "Makefile").read_text()
    cores = [line.split(":=", 1)[1].split() for line in makefile.splitlines() if line.startswith("CORES :=")]
    assert cores, "the Makefile names no CORES"
    assert sorted(cores[0] + [pinned], key=lambda core: tuple(map(int, core.split(".")))) == SUPPORTED
    for core in cores[0]:
        assert pinned_core("requirements-core-%s.txt" % core).startswith(core + ".")


def test_make_test_runs_every_suite_once():
    """make test's pool (POOL in the Makefile) holds every suite of test-pinned and test-cores, the contract test after
    the integration run whose requests it reads."""
    makefile = (ROOT / "Makefile").read_text()
    pool = [line.split(":=", 1)[1] for line in makefile.splitlines() if line.startswith("POOL :=")]
    assert len(pool) == 1
    cores = [line.split(":=", 1)[1].split() for line in makefile.splitlines() if line.startswith("CORES :=")][0]
    listed = re.search(r"\$\(foreach core,([^,]*),test-core-\$\(core\)\)", pool[0])
    assert listed and sorted(listed.group(1).split()) == sorted(cores), pool
    suites = re.sub(r"\$\(foreach[^)]*\)\)", "", pool[0]).split()
    pinned = [line.split(":", 1)[1].split() for line in makefile.splitlines() if line.startswith("test-pinned:")][0]
    assert sorted(suites) == sorted(["integration-contract"] + [suite for suite in pinned if suite not in ("integration", "contract")])
    assert "integration-contract:\n\t@$(MAKE) --no-print-directory integration\n\t@$(MAKE) --no-print-directory contract\n" in makefile


def test_cores_from_2_20_run_on_python_3_12():
    """ansible-core 2.20 and later need Python 3.12 on the controller: the Makefile gives them 3.12, the others 3.11."""
    makefile = (ROOT / "Makefile").read_text()
    rule = [line for line in makefile.splitlines() if line.startswith("core_python =")]
    assert rule == ["core_python = $(if $(filter 2.20 2.21,$(1)),3.12,3.11)"]
    assert "PYTHON_VERSION_PINNED := 3.11" in makefile.splitlines()


LICENSE_HEADER = "# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)"


def test_every_python_and_role_file_carries_the_license_header():
    """The license header (GPL-3.0-or-later, as galaxy.yml and LICENSE say) in the first lines of every Python file
    (plugins, tests, tools) and every role file, as the certification checklist asks; a new file needs it too."""
    tracked = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=str(ROOT), check=True,
                             capture_output=True, text=True).stdout.splitlines()
    files = [name for name in tracked if name.endswith(".py") or (name.startswith("roles/") and name.endswith((".yml", ".yaml")))]
    assert len(files) > 100 and any(name.startswith("plugins/modules/") for name in files), files[:5]
    missing = [name for name in files if (ROOT / name).is_file()
               and LICENSE_HEADER not in (ROOT / name).read_text(encoding="utf-8").splitlines()[:6]]
    assert not missing, "without the license header %r in its first lines: %s" % (LICENSE_HEADER, missing)


def test_wrap_var_is_imported_only_where_it_is_used():
    """The inventory plugin marks text unsafe with wrap_var only below ansible-core 2.19 (data tagging does it from
    2.19 on): ansible.utils.unsafe_proxy, slated for deprecation, is imported in that branch only."""
    tree = ast.parse((ROOT / "plugins" / "inventory" / "cloud.py").read_text(encoding="utf-8"))
    imports = [node for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module == "ansible.utils.unsafe_proxy"]
    assert [alias.name for node in imports for alias in node.names] == ["wrap_var"]
    branches = [node for node in tree.body if isinstance(node, ast.If) and getattr(node.test, "id", None) == "_DATA_TAGGING"]
    assert len(branches) == 1 and imports[0] in branches[0].orelse, "wrap_var must be imported in the else of if _DATA_TAGGING"
