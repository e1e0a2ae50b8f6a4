#!/usr/bin/env bash
# One supported core other than the pinned one: tests/tools/core_suite.sh <core> <python X.Y>
# Runs, each timed for the table of `make test`: the unit tests that touch what a core changes (-m "not
# core_independent": the simulator's tests, the static checks of the tree and the generated fault matrices run once,
# on the pinned core; tests/unit/conftest.py says which), `ansible-test sanity` of that core (on its own copy,
# .build/core-<core>/) and the smoke stories (pytest -m smoke: tests/integration/smoke.txt and @pytest.mark.smoke)
# with that core's ansible-playbook. The full story suite runs once, on the pinned core (make integration).
#
# The unit tests run in one process (no xdist workers: each would import and collect the whole suite again; this
# lane runs beside the pinned core's, which keeps the other CPU busy).
# Sanity here: every test of this core's ansible-test on every file but pep8 (pycodestyle reads the text alone, the
# same on every core: the pinned core's `make sanity` runs it), and pylint, which checks only plugins/ (what
# a user runs on this core: the modules, module_utils, the inventory plugin, doc fragments). pylint of tests/ and bench/
# (code no user runs; ~60% of the Python files and of pylint's time, the bulk of each sanity run) runs once, in the
# pinned core's `make sanity`: the code is the same on every core, and the unit and smoke suites below run it on this
# core's ansible and Python anyway. What checks compatibility with this core stays whole: validate-modules, import,
# compile, ansible-doc, runtime-metadata, and this core's own pylint (its own checkers, e.g. deprecated) on plugins/.
# A machine without the core's Python reports the combination as NOT RUN (CI=true turns that into a failure).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
core="${1:?usage: core_suite.sh <core> <python X.Y>}"
python="${2:?}"
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
ANSIBLE_TEST="${venv}/bin/ansible-test" PYTHON_VERSION="${python}" GCORE_BUILD_ROOT="${PWD}/.build/core-${core}" \
    tests/tools/timed.sh "${label} sanity" bash -c 'status=0
        tests/tools/ansible-test.sh sanity --requirements --skip-test pylint --skip-test pep8 || status=1
        tests/tools/ansible-test.sh sanity --requirements --test pylint plugins/ || status=1
        exit "${status}"' || status=1
GCORE_REQUEST_ARCHIVE="${PWD}/tests/output/requests-${core}" \
    tests/tools/timed.sh "${label} smoke stories" "${venv}/bin/pytest" -q -n 2 -m smoke tests/integration || status=1
exit "${status}"
