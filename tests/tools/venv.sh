#!/usr/bin/env bash
# Build a virtual environment once: tests/tools/venv.sh <dir> <python X.Y> <requirements file>
# Rebuilt only when the requirements file changed (its checksum is kept in <dir>/.installed). pip's wheel cache
# (~/.cache/pip) is shared by every venv, so a package is downloaded and built once per machine.
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
rm -rf "${dir}"
"${python}" -m venv "${dir}"
"${dir}/bin/python" -m pip install --quiet --disable-pip-version-check -r "${requirements}"
echo "${checksum}" > "${dir}/.installed"
echo "venv.sh: ${dir} ($("${dir}/bin/python" -V), $(grep -E '^(ansible-core|galaxy-importer)==' "${requirements}" | tr '\n' ' '))"
