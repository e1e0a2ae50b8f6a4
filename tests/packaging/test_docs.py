# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The docs site: it builds offline without a warning, its guides are all listed, and the linter of
antsibull-docs accepts the collection's docs (plugin docs and the guides, with their references)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request

import yaml

from gcore_packaging import BIN, ROOT, explain, module_names, run, tool_env

DOCSITE = ROOT / "docs" / "docsite"
LABEL = "ansible_collections.gcore.platform.docsite."
# Any attempt to reach the network goes to a closed local port and fails at once.
NO_NETWORK = dict(http_proxy="http://127.0.0.1:9", https_proxy="http://127.0.0.1:9", HTTP_PROXY="http://127.0.0.1:9",
                  HTTPS_PROXY="http://127.0.0.1:9", no_proxy="", NO_PROXY="")


def guides():
    with open(DOCSITE / "extra-docs.yml", encoding="utf-8") as handle:
        index = yaml.safe_load(handle)
    return [entry if isinstance(entry, str) else entry["ref"] for section in index["sections"] for entry in section["toctree"]]


def test_every_guide_is_listed_once_and_labelled():
    listed = guides()
    assert len(listed) == len(set(listed))
    files = sorted(path.stem for path in (DOCSITE / "rst").glob("*.rst"))
    assert sorted(listed) == files, "docs/docsite/extra-docs.yml and docs/docsite/rst/ differ"
    for name in files:
        text = (DOCSITE / "rst" / ("%s.rst" % name)).read_text(encoding="utf-8")
        assert ".. _%s%s:" % (LABEL, name) in text, "%s.rst lacks its label" % name
    for topic in ("getting_started", "authentication", "awx", "simulator", "storage_migration"):
        assert "guide_%s" % topic in listed


def test_docs_site_builds_offline_without_warnings(tmp_path):
    dest = tmp_path / "site"
    completed = run([ROOT / "tests" / "tools" / "docs.sh"], env=tool_env(GCORE_DOCS_DIR=str(dest), **NO_NETWORK), timeout=600)
    assert completed.returncode == 0, explain(completed)
    assert "WARNING" not in completed.stderr, explain(completed)
    html = dest / "build" / "html"
    conf = (dest / "conf.py").read_text(encoding="utf-8")
    assert "intersphinx_mapping = {}" in conf
    index = (html / "index.html").read_text(encoding="utf-8")
    for guide in guides():
        page = html / "docsite" / ("%s.html" % guide)
        assert page.is_file(), "guide %s not rendered" % guide
        assert "docsite/%s.html" % guide in index, "guide %s not linked from the index" % guide
    for name in module_names():
        assert (html / ("%s_module.html" % name)).is_file(), "module %s has no page" % name
        assert "%s_module.html" % name in index
    # The collection is not on Galaxy: no generated page (plugins, roles, guides) may tell users to install it from there.
    for page in html.rglob("*.html"):
        assert "collection install gcore.platform" not in re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")), page
    awx = (html / "docsite" / "guide_awx.html").read_text(encoding="utf-8")
    for step in ("Build the execution environment", "Create the credential type", "Create the credential",
                 "Create the project", "Create the inventory", "Create the job template", "Schedule it"):
        assert step in awx


def test_no_source_says_install_from_galaxy():
    """README, guides, role READMEs and module docs say how to install the collection today (it is not on Galaxy)."""
    sources = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.*")) + sorted((ROOT / "roles").rglob("*.*")) \
        + sorted((ROOT / "plugins").rglob("*.py"))
    for path in sources:
        assert "collection install gcore.platform" not in path.read_text(encoding="utf-8", errors="replace"), path


def test_antsibull_docs_lint_accepts_the_collection():
    completed = run([BIN / "antsibull-docs", "lint-collection-docs", "--plugin-docs", "--check-extra-docs-refs",
                     "--validate-collection-refs", "all", "."], env=tool_env(**NO_NETWORK))
    assert completed.returncode == 0 and not completed.stdout.strip(), explain(completed)


def _code_block_after(text, marker):
    """The body of the first code block after the RST comment ``.. gcore-test: <marker>``, dedented."""
    start = text.index(".. gcore-test: %s" % marker)
    block = re.search(r"\.\. code-block:: [\w+-]+\n\n((?:(?: {4}.*)?\n)+)", text[start:])
    assert block, marker
    return "\n".join(line[4:] for line in block.group(1).splitlines())


def test_awx_guide_shows_the_shipped_credential_type():
    """The guide tells people to paste `inputs` and `injectors`: what it shows must be the shipped file."""
    guide = (DOCSITE / "rst" / "guide_awx.rst").read_text(encoding="utf-8")
    with open(ROOT / "docs" / "awx" / "gcore_credential_type.yml", encoding="utf-8") as handle:
        shipped = yaml.safe_load(handle)
    assert yaml.safe_load(_code_block_after(guide, "credential-type-inputs")) == shipped["inputs"]
    assert yaml.safe_load(_code_block_after(guide, "credential-type-injectors")) == shipped["injectors"]
    assert shipped["name"] in guide and shipped["description"] in guide


def test_simulator_guide_commands_work(tmp_path):
    """The simulator guide's command line and every control API call it lists."""
    url_file = tmp_path / "url"
    env = tool_env(PYTHONPATH=str(ROOT / "tests"))
    process = subprocess.Popen([sys.executable, "-m", "simulator", "--url-file", str(url_file), "--task-delay", "0.1"],
                               cwd=str(ROOT), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120  # a generous bound: a loaded machine can take seconds to start Python
        while time.monotonic() < deadline and process.poll() is None:
            if url_file.exists() and url_file.read_text().strip():
                break
            time.sleep(0.05)
        url = url_file.read_text().strip()
        assert url.startswith("http://127.0.0.1:")

        def call(method, path, body=None):
            data = json.dumps(body).encode() if body is not None else None
            request = urllib.request.Request(url + path, data=data, method=method, headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=10) as answer:
                assert answer.status == 200, path
                return json.loads(answer.read() or b"null")

        assert call("POST", "/_sim/reset") == {"reset": True}
        call("POST", "/_sim/mark")
        assert call("POST", "/_sim/config", {"task_delay": 0.2})["task_delay"] == 0.2
        call("POST", "/_sim/faults", {"status": 503, "method": "GET", "path": "notification_threshold", "times": 1, "retry_after": 1})
        state = call("GET", "/_sim/state")
        assert state["thresholds"], "the guide says client 1 has a seeded threshold"
        request = urllib.request.Request(url + "/cloud/v2/client_quotas/1/notification_threshold",
                                         headers={"Authorization": "apikey sim-test-key-7c1e0d"})
        try:
            urllib.request.urlopen(request, timeout=10)
            raise AssertionError("the injected 503 was not served")
        except urllib.error.HTTPError as error:
            assert error.code == 503 and error.headers["Retry-After"] == "1"
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert json.loads(answer.read())["threshold"] == 85
        log = call("GET", "/_sim/log")
        assert [entry["status"] for entry in log] == [503, 200]
        assert all(entry["authorization"] == "apikey ***" for entry in log)
        assert call("GET", "/_sim/writes") == []
    finally:
        process.terminate()
        assert process.wait(timeout=10) == 0
    assert process.stdout.read().strip() == url
