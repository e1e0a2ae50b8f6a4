#!/usr/bin/env bash
# The table of suites and their durations (recorded by tests/tools/timed.sh): `suite_times.sh reset` empties it,
# `suite_times.sh report [total seconds]` prints it; exit status 1 when a suite failed or, under CI=true, did not run.
set -uo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
TIMES="${GCORE_SUITE_TIMES:-${REPO_ROOT}/.build/suite-times.tsv}"
case "${1:-report}" in
    reset)
        mkdir -p "$(dirname "${TIMES}")"
        : > "${TIMES}"
        ;;
    report)
        [[ -s "${TIMES}" ]] || { echo "no suite ran"; exit 1; }
        echo
        echo "==================== suites and their times ===================="
        awk -F '\t' -v total="${2:-}" '
            BEGIN { printf "%-44s %-8s %8s %8s\n", "suite", "result", "wall", "CPU" }
            { printf "%-44s %-8s %6d s %6d s  %s\n", $1, $2, $3, $4, $5; sum += $3; cpu += $4
              if ($2 == "FAILED") failed++; if ($2 == "NOT RUN") missing++ }
            END { printf "%-44s %-8s %6d s %6d s\n", "sum of the suites", "", sum, cpu
                  if (total != "") printf "%-44s %-8s %6d s (%d min %02d s)\n", "make test, wall clock", "", total, total / 60, total % 60
                  if (failed) printf "%d suite(s) FAILED\n", failed
                  if (missing) printf "%d combination(s) NOT RUN on this machine (see the notes above)\n", missing }' "${TIMES}"
        echo "================================================================="
        if grep -q $'\tFAILED\t' "${TIMES}"; then exit 1; fi
        if [[ "${CI:-}" == "true" ]] && grep -q $'\tNOT RUN\t' "${TIMES}"; then
            echo "CI=true: a supported combination did not run (a matrix that silently shrinks proves nothing)"
            exit 1
        fi
        ;;
    *) echo "usage: $0 reset|report [total seconds]" >&2; exit 2 ;;
esac
