# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Integration fixtures: the real simulator over loopback and real ``ansible-playbook`` runs against it."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest
from ansible.release import __version__ as ANSIBLE_CORE_VERSION

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

import pem  # noqa: E402  pylint: disable=wrong-import-position
from collection_link import collections_path  # noqa: E402  pylint: disable=wrong-import-position
from simulator.core import Simulator  # noqa: E402  pylint: disable=wrong-import-position

TARGETS = ROOT / "tests" / "integration" / "targets"
OUTPUT = ROOT / "tests" / "output"
PROJECT_ID = 1
# Besides the simulator's key: the wrong key the stories pass as an option, and the prefix of every
# credential the simulated storages hold, the mark inside every certificate the stories upload and a line of their
# private key (tests/pem.py), and the mark inside every kubeconfig (simulator.resources.k8s.KUBECONFIG_MARK). None may
# appear in any run's output (-vvvv).
SECRETS = ("not-the-right-key", "sim-cred-", pem.MARK, pem.KEY_LINE, "SIM-KUBECONFIG-SECRET-")  # the last: every kubeconfig's
REGION_ID = 76


SMOKE_LIST = ROOT / "tests" / "integration" / "smoke.txt"


def smoke_entries():
    """The node ids (relative to tests/integration/) smoke.txt lists: one a line, # comments."""
    lines = SMOKE_LIST.read_text(encoding="utf-8").splitlines() if SMOKE_LIST.is_file() else []
    return {line.split("#", 1)[0].strip() for line in lines} - {""}


def pytest_collection_modifyitems(config, items):  # pylint: disable=unused-argument
    """Tests listed in smoke.txt get the ``smoke`` marker: the other cores run ``pytest -m smoke tests/integration``."""
    entries = smoke_entries()
    found = set()
    for item in items:
        relative = item.nodeid.split("tests/integration/", 1)[-1]
        if item.get_closest_marker("every_core"):  # run by every other core: a smoke test too
            item.add_marker(pytest.mark.smoke)
        if relative in entries:
            item.add_marker(pytest.mark.smoke)
            found.add(relative)
    # A listed test that no longer exists is an error only when its file was collected (a -k or a single file is fine).
    collected_files = {item.nodeid.split("tests/integration/", 1)[-1].split("::", 1)[0] for item in items}
    stale = sorted(entry for entry in entries - found if entry.split("::", 1)[0] in collected_files and not config.option.keyword)
    if stale:
        raise pytest.UsageError("tests/integration/smoke.txt lists tests that do not exist: %s" % ", ".join(stale))


@pytest.fixture(scope="session")
def simulator():
    sim = Simulator()
    sim.start()
    yield sim
    sim.stop()


@pytest.fixture(scope="session")
def request_archive():
    """Every API request the simulator received, written for the contract test."""
    entries = []
    yield entries
    folder = pathlib.Path(os.environ.get("GCORE_REQUEST_ARCHIVE") or OUTPUT / "requests")
    folder.mkdir(parents=True, exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with open(folder / ("%s.jsonl" % worker), "w", encoding="utf-8") as handle:
        for entry in entries:
            handle.write(json.dumps(entry) + "\n")


@pytest.fixture
def sim(simulator, request_archive):
    """The simulator, reset to its seeded state for this test; its requests are archived afterwards."""
    simulator.reset()
    yield simulator
    request_archive.extend(entry for entry in simulator.log if not entry.get("contract_exempt"))


ACTION_PLUGINS = ROOT / "tests" / "integration" / "action_plugins"
LOOKUP_PLUGINS = ROOT / "tests" / "integration" / "lookup_plugins"
# A bytecode cache for the modules' AnsiballZ zips (tests/integration/zip_bytecode/sitecustomize.py says why).
ZIP_BYTECODE = ROOT / "tests" / "integration" / "zip_bytecode"
# Each module's AnsiballZ payload built once a session, not once a run (callback_plugins/ansiballz_cache.py says why),
# and the configuration of every run (ansible.cfg).
ANSIBLE_VERSION = tuple(int(part) for part in ANSIBLE_CORE_VERSION.split(".")[:2])
CALLBACK_PLUGINS = ROOT / "tests" / "integration" / "callback_plugins"
ANSIBLE_CFG = ROOT / "tests" / "integration" / "ansible.cfg"


class PlaybookRun:
    def __init__(self, completed, output):
        self.rc = completed.returncode
        self.output = output

    def failures(self):
        """(task header, fatal/failed line, ignored) for each failure the run printed, in order."""
        found, task = [], "(no task)"
        lines = self.output.splitlines()
        for index, line in enumerate(lines):
            if line.startswith("TASK [") or line.startswith("RUNNING HANDLER ["):
                task = line.rstrip("* ")
            elif line.startswith(("fatal: ", "failed: ")):
                following = lines[index + 1:]
                if line.rstrip().endswith("=> {"):  # -vvvv prints the result as indented JSON: add its msg
                    body = following[:following.index("}")] if "}" in following else following[:200]
                    line += " ".join(item.strip() for item in body if item.lstrip().startswith('"msg"'))
                    following = following[len(body) + 1:]
                ignored = any(follow.startswith("...ignoring") for follow in following[:2])
                found.append((task, line, ignored))
        return found

    def __repr__(self):
        # A failed run names its failed tasks and their fatal lines first (a -vvvv tail alone often shows only the recap).
        report = ["PlaybookRun(rc=%s)" % self.rc]
        failures = [failure for failure in self.failures() if not failure[2]]
        if failures:
            report.append("---- failed tasks (%s) ----" % len(failures))
            for task, line, _ignored in failures[:10]:
                report += [task, "  " + (line if len(line) <= 3000 else line[:3000] + "... (%s characters)" % len(line))]
        report += ["---- end of the output ----", self.output[-3000:]]
        return "\n".join(report)


@pytest.fixture(scope="session")
def ansiballz_cache(tmp_path_factory):
    """The folder of this session's AnsiballZ payloads. ansible-core 2.19+ builds a payload under a lock between
    processes, so the session's pytest workers share one folder; an older core locks within a run only, so each worker
    has its own (its runs never build one at once)."""
    if os.environ.get("PYTEST_XDIST_WORKER") and ANSIBLE_VERSION >= (2, 19):
        shared = tmp_path_factory.getbasetemp().parent / "ansiballz"  # the session's folder, above each worker's
        shared.mkdir(exist_ok=True)
        return shared
    return tmp_path_factory.mktemp("ansiballz")


@pytest.fixture
def plan_env(tmp_path):
    """The environment of a run whose configuration enables the gcore.platform.plan callback, as a user's ansible.cfg
    does (``callbacks_enabled``): the suite's own ansible.cfg with that line added."""
    config = tmp_path / "ansible.cfg"
    config.write_text(ANSIBLE_CFG.read_text(encoding="utf-8").replace(
        "[defaults]\n", "[defaults]\ncallbacks_enabled = gcore.platform.plan\n", 1), encoding="utf-8")
    return {"ANSIBLE_CONFIG": str(config)}


@pytest.fixture
def playbook(sim, tmp_path, ansiballz_cache):
    """Run a playbook (a path, or a target name under targets/) with ansible-playbook against the simulator.

    The API key and URL reach the modules through the GCORE_* environment variables, as in AWX.
    Every run is made at -vvvv and its whole output is searched for the API key.
    """
    def run(target, extra_vars=None, check=False, diff=False, verbosity="-vvvv", env=None, forks=None, inventory=None):
        path = pathlib.Path(target)
        if not path.is_absolute():
            path = TARGETS / target / "main.yml"
        variables = {"sim_url": sim.url, "ansible_python_interpreter": sys.executable,
                     "gcore_project_id": PROJECT_ID, "gcore_region_id": REGION_ID}
        variables.update(extra_vars or {})
        command = [os.path.join(os.path.dirname(sys.executable), "ansible-playbook"), str(path),
                   "-i", inventory or "localhost,", "-c", "local", "-e", json.dumps(variables)]
        if verbosity:
            command.append(verbosity)
        if check:
            command.append("--check")
        if diff:
            command.append("--diff")
        if forks:
            command += ["--forks", str(forks)]
        environment = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=collections_path(), GCORE_API_URL=sim.url,
                           GCORE_API_KEY=sim.api_key, GCORE_CLOUD_PROJECT_ID=str(PROJECT_ID),
                           GCORE_CLOUD_REGION_ID=str(REGION_ID), ANSIBLE_NOCOLOR="1", ANSIBLE_FORCE_COLOR="0",
                           ANSIBLE_LOCAL_TEMP=str(tmp_path / "tmp"), ANSIBLE_HOST_KEY_CHECKING="0",
                           ANSIBLE_DEPRECATION_WARNINGS="1", ANSIBLE_ROLES_PATH=str(ROOT / "roles"),
                           ANSIBLE_ACTION_PLUGINS=str(ACTION_PLUGINS),
                           ANSIBLE_LOOKUP_PLUGINS=str(LOOKUP_PLUGINS),
                           PYTHONPATH=os.pathsep.join(filter(None, (str(ZIP_BYTECODE), os.environ.get("PYTHONPATH")))),
                           GCORE_TEST_BYTECODE_CACHE=str(OUTPUT / "bytecode"),
                           ANSIBLE_CALLBACK_PLUGINS=str(CALLBACK_PLUGINS), GCORE_TEST_ANSIBALLZ_CACHE=str(ansiballz_cache),
                           ANSIBLE_CONFIG=str(ANSIBLE_CFG))
        environment.update(env or {})
        try:
            completed = subprocess.run(command, env=environment, capture_output=True, text=True, check=False,
                                       timeout=float(os.environ.get("GCORE_TEST_PLAYBOOK_TIMEOUT", "600")))
        except subprocess.TimeoutExpired as expired:  # a hung run shows where it hung, not only that it did
            partial = (expired.stdout or b"") + (expired.stderr or b"")
            partial = partial.decode("utf-8", "replace") if isinstance(partial, bytes) else partial
            pytest.fail("%s timed out after %s s; the end of its output:\n%s" % (path, expired.timeout, partial[-6000:]))
        output = completed.stdout + completed.stderr
        log_dir = OUTPUT / "playbooks"
        log_dir.mkdir(parents=True, exist_ok=True)
        (log_dir / ("%s%s.log" % (path.parent.name, "-check" if check else ""))).write_text(output, encoding="utf-8")
        for secret in (sim.api_key,) + SECRETS:
            assert secret not in output, "a secret (%s...) appears in the output of %s" % (secret[:6], path)
        return PlaybookRun(completed, output)

    return run
