# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The ansible-lint configuration, and a syntax check of every example play.

ansible-lint itself runs once, on the built tarball, as galaxy-importer runs it but with every rule on and this
configuration (tests/packaging/test_galaxy_importer.py).
"""

from __future__ import annotations

import yaml

from gcore_packaging import BIN, ROOT, explain, run, tool_env


def test_lint_config():
    with open(ROOT / ".ansible-lint", encoding="utf-8") as handle:
        config = yaml.safe_load(handle)
    assert config["profile"] == "production"
    assert config["offline"] is True
    for path in (".venv/", ".build/", "tests/output/", "changelogs/"):
        assert path in config["exclude_paths"]


def test_every_example_play_passes_syntax_check(tmp_path):
    # *.gcore.yml files are inventory sources (examples/stack.gcore.yml), not plays.
    plays = sorted(path for path in (ROOT / "examples").glob("*.yml") if not path.name.endswith(".gcore.yml"))
    assert plays, "no example playbook"
    # One ansible-playbook for every play (it checks each file it is given, and names the one that fails).
    completed = run([BIN / "ansible-playbook", "--syntax-check", "-i", "localhost,"] + plays,
                    env=tool_env(ANSIBLE_LOCAL_TEMP=str(tmp_path)))
    assert completed.returncode == 0, explain(completed)
    for play in plays:
        assert "playbook: %s" % play in completed.stdout, "%s was not checked\n%s" % (play.name, explain(completed))
