# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""galaxy-importer, the checker Galaxy runs on every upload, on the built tarball, offline.

galaxy-importer lives in its own venv (.venv-importer, requirements-importer.txt: it needs an older attrs than
requirements-dev.txt). Its ansible-test step is off (galaxy-importer.cfg); ansible-doc, the metadata,
changelog and content checks run. Its ansible-lint step (a fixed 180 s timeout, too short on a loaded machine) is
run here on the extracted tarball, with the importer's own arguments but for the rules they skip (``-x``) and with
this repository's .ansible-lint: the one ansible-lint run of the suite, stricter than Galaxy's. The importer runs on the
tarball as built: galaxy.yml names the ``repository`` Galaxy requires (and ``documentation`` and ``issues``).
"""

from __future__ import annotations

import json
import pathlib
import tarfile

import yaml

from gcore_packaging import ROOT, explain, galaxy, module_names, run, tarball, tool_env  # noqa: F401  pylint: disable=unused-import

IMPORTER_BIN = ROOT / ".venv-importer" / "bin"
CONFIG = pathlib.Path(__file__).resolve().parent / "galaxy-importer.cfg"
# The ansible-lint command of galaxy_importer/loaders/collection.py (CollectionLoader._lint_collection), 0.4.44, and
# the rules it skips (-x): the run below leaves them on.
IMPORTER_LINT = ["ansible-lint", "--profile", "production", "--exclude", "tests/integration/", "--exclude", "tests/unit/",
                 "--format=pep8", "--nocolor", "--offline"]
IMPORTER_SKIPS = ["-x", "yaml,var-naming,avoid-dot-notation,import-task-no-when,single-entry-point,use-loop"]


def importer(artifact, work):
    """Run galaxy-importer on an artifact in work/ (where it writes importer_result.json)."""
    assert (IMPORTER_BIN / "python").is_file(), "galaxy-importer's venv is missing: run `make packaging`"
    local_tmp = work / "ansible-tmp"
    local_tmp.mkdir(parents=True, exist_ok=True)
    env = tool_env(PATH="%s:%s" % (IMPORTER_BIN, tool_env()["PATH"]), GALAXY_IMPORTER_CONFIG=str(CONFIG),
                   GALAXY_IMPORTER_TMP_ROOT_DIR=str(work), GALAXY_IMPORTER_ANSIBLE_LOCAL_TMP=str(local_tmp))
    return run([IMPORTER_BIN / "python", "-m", "galaxy_importer.main", artifact], cwd=work, env=env, timeout=900)


def test_galaxy_importer_passes(tarball, tmp_path):
    work = tmp_path / "importer"
    work.mkdir()
    completed = importer(tarball, work)
    assert completed.returncode == 0, explain(completed)
    # ansible-lint violations and failed steps are logged, not fatal: none may appear.
    problems = [line for line in completed.stdout.splitlines() + completed.stderr.splitlines()
                if line.startswith(("WARNING", "ERROR")) or "Traceback" in line]
    assert not problems, explain(completed)
    assert "Importer processing completed successfully" in completed.stdout, explain(completed)

    result = json.loads((work / "importer_result.json").read_text(encoding="utf-8"))
    info = galaxy()
    for key in ("namespace", "name", "version", "license", "tags", "description", "homepage", "repository", "documentation",
                "issues"):
        assert result["metadata"][key] == info[key], key
    runtime = yaml.safe_load((ROOT / "meta" / "runtime.yml").read_text(encoding="utf-8"))
    assert result["requires_ansible"] == runtime["requires_ansible"]
    modules = sorted(item["name"] for item in result["contents"] if item["content_type"] == "module")
    assert modules == module_names()
    roles = sorted(item["name"] for item in result["contents"] if item["content_type"] == "role")
    assert roles == sorted(path.name for path in (ROOT / "roles").iterdir() if path.is_dir())
    documented = {item["doc_strings"]["doc"]["module"] for item in result["docs_blob"]["contents"]
                  if item["content_type"] == "module" and item.get("doc_strings")}
    assert documented == set(module_names())


def test_ansible_lint_as_galaxy_importer_runs_it_and_stricter(tarball, tmp_path):
    """The importer's ansible-lint on what Galaxy receives (examples, roles, the execution environment, meta...), without
    its skipped rules and with .ansible-lint (the production profile; examples/demo/*.yml are task files; changelogs/ is
    left to antsibull-changelog lint): a pass here is a pass of the importer's command, which only turns rules off."""
    assert IMPORTER_SKIPS[0] == "-x" and "-x" not in IMPORTER_LINT
    collections = tmp_path / "collections"
    extracted = collections / "ansible_collections" / "gcore" / "platform"
    extracted.mkdir(parents=True)
    with tarfile.open(tarball) as archive:
        archive.extractall(extracted, filter="data")
    cache = tmp_path / "cache"
    env = tool_env(str(collections), PATH="%s:%s" % (IMPORTER_BIN, tool_env()["PATH"]), ANSIBLE_LOCAL_TEMP=str(cache),
                   XDG_CACHE_HOME=str(cache))
    completed = run([IMPORTER_BIN / IMPORTER_LINT[0]] + IMPORTER_LINT[1:] + ["-c", ROOT / ".ansible-lint"], cwd=extracted, env=env,
                    timeout=900)
    # The importer logs every line of ansible-lint's stdout as a warning: there must be none.
    assert completed.returncode == 0 and not completed.stdout.strip(), explain(completed)
    assert "Profile 'production' was required, and it passed" in completed.stderr, explain(completed)
