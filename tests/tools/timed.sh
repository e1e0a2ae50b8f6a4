#!/usr/bin/env bash
# Run one suite and record its duration for the table `make test` ends with (tests/tools/suite_times.sh).
# Usage: tests/tools/timed.sh "<suite name>" command [args...]
#        tests/tools/timed.sh --not-run "<suite name>" "<why>"   (a combination this machine cannot run)
# Records "<name>\t<passed|FAILED|NOT RUN>\t<seconds>\t<cpu seconds>\t<note>" in ${GCORE_SUITE_TIMES:-<repo>/.build/suite-times.tsv}.
set -uo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
TIMES="${GCORE_SUITE_TIMES:-${REPO_ROOT}/.build/suite-times.tsv}"
mkdir -p "$(dirname "${TIMES}")"
if [[ "${1:-}" == "--not-run" ]]; then
    printf '%s\tNOT RUN\t0\t0\t%s\n' "$2" "$3" >> "${TIMES}"
    echo "==== ${2}: NOT RUN: ${3}"
    exit 0
fi
name="${1:?usage: timed.sh <suite name> command...}"
shift
echo "==== ${name}: $*"
start=$(date +%s)
"$@"
status=$?
seconds=$(( $(date +%s) - start ))
# The CPU time (user + system) of the suite's processes: `times` in this shell (not in a subshell, whose children
# are not the suite) sums the children it has waited for.
cpu_file="$(mktemp)"
times > "${cpu_file}"
cpu_seconds="$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "${cpu_file}")"
rm -f "${cpu_file}"
result=passed
[[ ${status} -eq 0 ]] || result=FAILED
printf '%s\t%s\t%s\t%s\t\n' "${name}" "${result}" "${seconds}" "${cpu_seconds}" >> "${TIMES}"
echo "==== ${name}: ${result} in ${seconds} s (CPU ${cpu_seconds} s)"
exit "${status}"
