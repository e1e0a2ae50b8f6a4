# gcore.platform — `make demo` runs the demo playbook against the local simulator; `make test` runs every test
# on every supported combination (the pinned core's suites beside the other cores') and ends with one table of suites,
# their wall and CPU times.
#   make test-pinned   every suite on the pinned core (ansible-core 2.19, Python 3.11)
#   make test-cores    unit, sanity and the smoke stories on each other supported core (2.16-2.18 on Python 3.11,
#                      2.20 and 2.21 on Python 3.12)
SHELL := /bin/bash
# The pinned Python: the one `make demo` and the pinned suite run on (README, "Supported versions").
PYTHON_VERSION_PINNED := 3.11
VENV := .venv
BIN := $(VENV)/bin
COLLECTIONS := .build/collections
TIMED := tests/tools/timed.sh
export ANSIBLE_COLLECTIONS_PATH := $(CURDIR)/$(COLLECTIONS)
export PYTHONPATH := $(CURDIR)/tests

# Every supported core other than the pinned one, and the Python each runs on (2.20+ need Python 3.12).
CORES := 2.16 2.17 2.18 2.20 2.21
core_python = $(if $(filter 2.20 2.21,$(1)),3.12,3.11)
# The edges of the supported range other than the pinned core, the oldest and the newest: their sanity runs pylint on
# plugins/ (the only pylint of what ships) and they run the whole smoke set; the cores between run its every_core
# tests (tests/tools/core_suite.sh).
EDGE_CORES := 2.16 2.21

.PHONY: demo test test-all test-pinned test-cores venv venvs unit integration contract integration-contract sanity bench clean packaging docs

# ---- virtual environments: each built once (tests/tools/venv.sh keeps a checksum of its requirements) ----
$(VENV)/.installed: requirements-dev.txt requirements.txt
	tests/tools/venv.sh $(VENV) $(PYTHON_VERSION_PINNED) requirements-dev.txt

venv: $(VENV)/.installed
	@mkdir -p $(COLLECTIONS)/ansible_collections/gcore
	@ln -sfn ../../../.. $(COLLECTIONS)/ansible_collections/gcore/platform

# galaxy-importer (Galaxy's upload checker) needs attrs<24, older than requirements-dev.txt's: it gets its own venv.
.venv-importer/.installed: requirements-importer.txt
	tests/tools/venv.sh .venv-importer $(PYTHON_VERSION_PINNED) requirements-importer.txt

# A core's venv; a machine without that core's Python builds nothing here (test-core-% reports it as not run).
.venv-%/.installed: requirements-core-%.txt
	tests/tools/venv.sh .venv-$* $(call core_python,$*) requirements-core-$*.txt || [ $$? -eq 3 ]

# Every venv of `make test`, built side by side (`make -j3 venvs`: downloads and unpacking overlap).
venvs: venv .venv-importer/.installed $(CORES:%=.venv-%/.installed)

demo: venv
	@tests/tools/demo.sh

# ---- the pinned core: every suite ----
# Two pytest workers when run alone; one process in make test's pool, where another suite keeps the other CPU busy (a
# second worker imports and collects the whole suite again: 175 CPU seconds there instead of 132).
UNIT_WORKERS := -n 2
unit: venv
	$(TIMED) "2.19 unit" $(BIN)/pytest -q $(UNIT_WORKERS) tests/unit

integration: venv
	rm -rf tests/output/requests
	$(TIMED) "2.19 integration (every story)" $(BIN)/pytest -q -n 2 tests/integration

# The contract test reads the requests the integration run archived, so it follows it.
contract: venv
	$(TIMED) "2.19 contract" $(BIN)/pytest -q tests/contract

# Every sanity test on every file, but pylint on bench/ only (what measures the collection): pylint of plugins/ (what
# ships) runs on the edges of the supported range (EDGE_CORES, 2.16 and 2.21), whose checkers bracket this core's (39 CPU
# seconds here); the tests' own code is checked by pep8 and by running (pylint of tests/ cost 70 CPU seconds).
sanity: venv
	$(TIMED) "2.19 sanity" bash -c 'status=0; tests/tools/ansible-test.sh sanity --requirements --skip-test pylint || status=1; \
	    tests/tools/ansible-test.sh sanity --requirements --test pylint bench/ || status=1; exit $$status'

# Docs site + antsibull-docs lint, antsibull-changelog lint, ansible-lint (once, on the tarball) and syntax check of examples/,
# AWX credential type + ansible-runner demo run, ansible-builder create, galaxy build + install + ansible-doc,
# galaxy-importer on the built tarball. The packaging tools run once, on the pinned core.
packaging: venv .venv-importer/.installed
	$(TIMED) "2.19 packaging" $(BIN)/pytest -q -n 2 tests/packaging

test-pinned: unit sanity integration contract packaging

# ---- the other supported cores: unit, sanity and the smoke stories (tests/integration/smoke.txt, @pytest.mark.smoke) ----
test-cores: $(CORES:%=test-core-%)

test-core-%: venv .venv-%/.installed
	@tests/tools/core_suite.sh $* $(call core_python,$*) $(if $(filter $*,$(EDGE_CORES)),edge)

# ---- make test: the venvs (in parallel), every suite from a pool of two jobs, then one table of suites and times ----
# The suites are independent jobs but for the contract test, which reads the requests the integration run archived
# (integration-contract runs them one after the other). `make -j2` takes them in POOL's order, longest first, and starts
# the next whenever one ends, so the two CPUs stay busy to the end; a suite that uses both (pytest -n 2) beside one
# that uses one costs a little sharing. The pinned unit suite runs in one process here, early (its waits leave a CPU
# to the suite beside it); packaging, which uses both, comes last. Each suite's output is printed when it ends
# (--output-sync). They share nothing they write: each core has its own venv, ansible-test copy (.build/core-<core>)
# and request archive (tests/output/requests-<core>); simulators listen on ephemeral ports.
POOL := integration-contract unit sanity $(foreach core,2.21 2.16 2.20 2.18 2.17,test-core-$(core)) packaging

integration-contract:
	@$(MAKE) --no-print-directory integration
	@$(MAKE) --no-print-directory contract

test:
	@tests/tools/suite_times.sh reset; start=$$(date +%s); status=0; \
	$(TIMED) "venvs (all, built once)" $(MAKE) --no-print-directory -j3 venvs || status=1; \
	$(MAKE) --no-print-directory -k -j2 --output-sync=target UNIT_WORKERS="-p no:xdist" $(POOL) || status=1; \
	tests/tools/suite_times.sh report $$(( $$(date +%s) - start )) || status=1; \
	exit $$status

test-all: test-pinned test-cores

bench: venv
	$(BIN)/python bench/run.py

clean:
	rm -rf .build tests/output $(CORES:%=.venv-%) .venv-importer

# Build the HTML docs site offline into .build/docs/build/html (fails on any Sphinx warning).
docs: venv
	tests/tools/docs.sh
