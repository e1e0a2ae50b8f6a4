#!/usr/bin/env bash
# One supported core other than the pinned one: tests/tools/core_suite.sh <core> <python X.Y>
# Runs, each timed for the table of `make test`: the unit tests, `ansible-test sanity` of that core (on its own copy,
# .build/core-<core>/) and the smoke stories (pytest -m smoke: tests/integration/smoke.txt and @pytest.mark.smoke)
# with that core's ansible-playbook. The full story suite runs once, on the pinned core (make integration).
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
tests/tools/timed.sh "${label} unit" "${venv}/bin/pytest" -q -n 2 tests/unit || status=1
ANSIBLE_TEST="${venv}/bin/ansible-test" PYTHON_VERSION="${python}" GCORE_BUILD_ROOT="${PWD}/.build/core-${core}" \
    tests/tools/timed.sh "${label} sanity" tests/tools/ansible-test.sh sanity --requirements || status=1
GCORE_REQUEST_ARCHIVE="${PWD}/tests/output/requests-${core}" \
    tests/tools/timed.sh "${label} smoke stories" "${venv}/bin/pytest" -q -n 2 -m smoke tests/integration || status=1
exit "${status}"
