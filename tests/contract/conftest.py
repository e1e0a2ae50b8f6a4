# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The contract suite's figure: how many calls the official SDK made against the simulator and how many of its answers
parsed strictly (test_sdk_strict.py), printed at the end of the run."""

from __future__ import annotations

import pytest

SDK_STRICT = pytest.StashKey[dict]()


@pytest.fixture(scope="session")
def sdk_counts(request):
    """``calls``: HTTP requests the SDK sent; ``parsed``: answers it parsed strictly (a call whose SDK method
    returned); ``refused``: the error answers the test expected (404, 409...), checked by status."""
    counts = {"calls": 0, "parsed": 0, "refused": 0}
    request.config.stash[SDK_STRICT] = counts
    return counts


def pytest_terminal_summary(terminalreporter, config):
    counts = config.stash.get(SDK_STRICT, None)
    if counts:
        terminalreporter.write_line("SDK strict: %(calls)s calls, %(parsed)s parsed, %(refused)s refused as expected"
                                    % counts)
