# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The contract test fails, not skips, when the published spec is absent: a skip would let `make test` pass
without checking a single request."""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys

import pytest

CONTRACT_TEST = pathlib.Path(__file__).resolve().parents[1] / "contract" / "test_contract.py"


def test_the_contract_test_fails_when_the_spec_is_missing(tmp_path):
    pytest.importorskip("openapi_core")  # the contract test runs in the pinned venv (requirements-dev.txt) only
    # A checkout without the spec: <tmp>/repo/tests/contract/test_contract.py, no gcore-subset.json beside it.
    copy = tmp_path / "repo" / "tests" / "contract" / "test_contract.py"
    copy.parent.mkdir(parents=True)
    shutil.copy(CONTRACT_TEST, copy)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path / "repo"),
                          str(copy), "-k", "a_right_request"], cwd=str(tmp_path / "repo"), capture_output=True, text=True,
                         check=False, timeout=300)
    output = run.stdout + run.stderr
    assert run.returncode == 1, output
    assert "1 error" in output or "1 failed" in output, output
    assert "skipped" not in output, output
    assert "the published spec" in output and "is absent" in output, output
