#!/usr/bin/env bash
# Build a virtual environment once: tests/tools/venv.sh <dir> <python X.Y> <requirements file>
# Rebuilt only when the requirements file changed (its checksum is kept in <dir>/.installed).
# The packages are installed by uv (requirements-uv.txt, itself installed with pip into .build/uv the first time):
# it resolves the same versions as pip from the same pinned files, downloads in parallel and keeps one cache per
# machine (~/.cache/uv), so a venv costs seconds, not a minute. The venv gets pip too (--seed): ansible-test runs it.
# Exit status 3 when this machine has no Python X.Y (tests/tools/find_python.sh).
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
dir="${1:?usage: venv.sh <dir> <X.Y> <requirements>}"
version="${2:?}"
requirements="${3:?}"
checksum="$(cat "${requirements}" "${REPO_ROOT}/requirements.txt" | sha256sum | cut -d' ' -f1) python${version}"
if [[ -f "${dir}/.installed" && "$(cat "${dir}/.installed")" == "${checksum}" && -x "${dir}/bin/python" ]]; then
    exit 0
fi
python="$("${REPO_ROOT}/tests/tools/find_python.sh" "${version}")" || { echo "venv.sh: no Python ${version} on this machine" >&2; exit 3; }

# uv itself, once per checkout; venvs built side by side (make -j3 venvs) wait for the first to install it.
tools="${REPO_ROOT}/.build/uv"
uv="${tools}/bin/uv"
uv_checksum="$(sha256sum < "${REPO_ROOT}/requirements-uv.txt" | cut -d' ' -f1)"
mkdir -p "${REPO_ROOT}/.build"
(
    flock 9
    if [[ ! -x "${uv}" || "$(cat "${tools}/.installed" 2>/dev/null)" != "${uv_checksum}" ]]; then
        rm -rf "${tools}"
        "${python}" -m venv "${tools}"
        "${tools}/bin/python" -m pip install --quiet --disable-pip-version-check -r "${REPO_ROOT}/requirements-uv.txt"
        echo "${uv_checksum}" > "${tools}/.installed"
    fi
) 9> "${REPO_ROOT}/.build/uv.lock"

rm -rf "${dir}"
"${uv}" venv --quiet --seed --python "${python}" "${dir}"
# --compile-bytecode, as pip does: Python writes a module's bytecode when it first imports it, but not where
# PYTHONDONTWRITEBYTECODE is set (this machine sets it); without it every ansible-playbook and module process compiles
# all it imports again (the integration suite cost a third more CPU).
"${uv}" pip install --quiet --compile-bytecode --python "${dir}/bin/python" -r "${requirements}"
echo "${checksum}" > "${dir}/.installed"
echo "venv.sh: ${dir} ($("${dir}/bin/python" -V), $(grep -E '^(ansible-core|galaxy-importer)==' "${requirements}" | tr '\n' ' '))"
