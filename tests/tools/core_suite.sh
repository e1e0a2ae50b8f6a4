#!/usr/bin/env bash
# One supported core other than the pinned one: tests/tools/core_suite.sh <core> <python X.Y> [edge]
# Runs, each timed for the table of `make test`: the unit tests that touch what a core changes (-m "not
# core_independent": the simulator's tests, the static checks of the tree and the generated fault matrices run once,
# on the pinned core; tests/unit/conftest.py says which), `ansible-test sanity` of that core (on its own copy,
# .build/core-<core>/) and the smoke stories with that core's ansible-playbook and ansible-inventory: on the oldest
# and the newest other core (edge) the whole smoke set (pytest -m smoke: tests/integration/smoke.txt and
# @pytest.mark.smoke), on the cores between its every_core tests (pytest -m every_core: every bad-input case in-process,
# one play and one inventory source through the core's own commands). What changes between cores changes at the edges
# of the range (2.16 the oldest supported, 2.19 the data-tagging rewrite, run whole on the pinned core, 2.21 the
# newest); the cores between run the same code as both. The full story suite runs once, on the pinned core.
#
# The unit tests run in one process (no xdist workers: each would import and collect the whole suite again; this
# suite runs beside another one in `make test`, which keeps the other CPU busy).
# Sanity here: every test of this core's ansible-test on every file, but for the linters that read the text alone,
# the same on every core, which the pinned core's `make sanity` runs: pep8 (pycodestyle) and yamllint (the YAML of
# the tree; each core still parses every module's documentation in validate-modules and ansible-doc). pylint checks
# plugins/ only (what a user runs on this core: the modules, module_utils, the inventory plugin, doc fragments), and
# only on the oldest and the newest other core (core_suite.sh <core> <python> edge): its checkers (e.g. the
# deprecations of each core) change at the edges of the supported range, and the cores between run the same code
# in their unit and smoke suites; the pinned core's checkers lie between the two (its `make sanity` runs pylint on
# bench/ only; tests/ are checked by pep8 and by running). What checks compatibility with every core stays:
# validate-modules, import, compile, ansible-doc, runtime-metadata.
# A machine without the core's Python reports the combination as NOT RUN (CI=true turns that into a failure).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
core="${1:?usage: core_suite.sh <core> <python X.Y>}"
python="${2:?}"
edge="${3:-}"
venv=".venv-${core}"
if ! tests/tools/find_python.sh "${python}" >/dev/null; then
    tests/tools/timed.sh --not-run "${core} on Python ${python}" "this machine has no Python ${python} (install it, e.g. with pyenv)"
    exit 0
fi
tests/tools/venv.sh "${venv}" "${python}" "requirements-core-${core}.txt" || exit 1
label="${core} (Py ${python})"
status=0
tests/tools/timed.sh "${label} unit" "${venv}/bin/pytest" -q -p no:xdist -m "not core_independent" tests/unit || status=1
# shellcheck disable=SC2016 # the inner script expands its own variables
ANSIBLE_TEST="${venv}/bin/ansible-test" PYTHON_VERSION="${python}" EDGE="${edge}" GCORE_BUILD_ROOT="${PWD}/.build/core-${core}" \
    tests/tools/timed.sh "${label} sanity" bash -c 'status=0
        tests/tools/ansible-test.sh sanity --requirements --skip-test pylint --skip-test pep8 --skip-test yamllint || status=1
        if [[ "${EDGE}" == edge ]]; then
            tests/tools/ansible-test.sh sanity --requirements --test pylint plugins/ || status=1
        fi
        exit "${status}"' || status=1
if [[ "${edge}" == edge ]]; then
    smoke=(-n 2 -m smoke)
else  # a few tests: one process (xdist workers would each collect the whole suite)
    smoke=(-p no:xdist -m every_core)
fi
GCORE_REQUEST_ARCHIVE="${PWD}/tests/output/requests-${core}" \
    tests/tools/timed.sh "${label} smoke stories" "${venv}/bin/pytest" -q "${smoke[@]}" tests/integration || status=1
exit "${status}"
