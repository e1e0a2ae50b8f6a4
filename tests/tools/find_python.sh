#!/usr/bin/env bash
# Print the path of a Python X.Y interpreter (argument: X.Y), or nothing and exit 1 when this machine has none.
# Looks at pythonX.Y on PATH (a pyenv shim counts only if it runs), then at the newest pyenv X.Y.* installed.
set -uo pipefail
version="${1:?usage: find_python.sh X.Y}"
if command -v "python${version}" >/dev/null 2>&1 && "python${version}" -c '' >/dev/null 2>&1; then
    command -v "python${version}"
    exit 0
fi
if command -v pyenv >/dev/null 2>&1; then
    for candidate in $(pyenv versions --bare 2>/dev/null | grep -E "^${version//./\\.}\.[0-9]+$" | sort -t. -k3,3nr); do
        prefix="$(pyenv prefix "${candidate}" 2>/dev/null)" || continue
        if [[ -x "${prefix}/bin/python${version}" ]]; then
            echo "${prefix}/bin/python${version}"
            exit 0
        fi
    done
fi
exit 1
