# gcore.platform — `make demo` runs the demo playbook against the local simulator; `make test` runs every test
# (`make test-pinned`: every suite on the pinned core; `make test-cores`: sanity + integration on the older cores).
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
COLLECTIONS := .build/collections
export ANSIBLE_COLLECTIONS_PATH := $(CURDIR)/$(COLLECTIONS)
export PYTHONPATH := $(CURDIR)/tests

.PHONY: demo test test-pinned test-cores venv core-venvs unit integration contract sanity bench clean packaging docs

$(STAMP): requirements-dev.txt requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

venv: $(STAMP)
	@mkdir -p $(COLLECTIONS)/ansible_collections/gcore
	@ln -sfn ../../../.. $(COLLECTIONS)/ansible_collections/gcore/platform

demo: venv
	@tests/tools/demo.sh

unit: venv
	$(BIN)/pytest -q tests/unit

integration: venv
	rm -rf tests/output/requests
	$(BIN)/pytest -q -n 2 tests/integration

contract: venv
	$(BIN)/pytest -q tests/contract

sanity: venv
	tests/tools/ansible-test.sh sanity --requirements

# Every suite on the pinned core, then sanity + integration stories on each older supported core.
test: test-pinned test-cores

# Every suite on the pinned core; the contract test reads the requests the integration run archived, so it follows it.
test-pinned: unit sanity integration contract packaging

# ---- older supported cores (issue 15): meta/runtime.yml says >=2.16; 2.19 is the pinned core above ----
# Each core gets .venv-<core>/ from requirements-core-<core>.txt (ansible-core, requests, pytest, pytest-xdist),
# then `ansible-test sanity` of that core (on its own copy under .build/core-<core>/) and the integration stories
# run by that core's ansible-playbook. The requests they archive are checked against the spec by the contract test.
CORES := 2.16 2.17 2.18

.venv-%/.installed: requirements-core-%.txt
	rm -rf .venv-$*
	$(PYTHON) -m venv .venv-$*
	.venv-$*/bin/python -m pip install --quiet -r requirements-core-$*.txt
	touch $@

core-venvs: $(CORES:%=.venv-%/.installed)

test-cores: $(CORES:%=test-core-%)

test-core-%: .venv-%/.installed venv
	@echo "==== ansible-core $$(.venv-$*/bin/python -c 'import ansible; print(ansible.__version__)'): sanity"
	ANSIBLE_TEST=.venv-$*/bin/ansible-test GCORE_BUILD_ROOT=$(CURDIR)/.build/core-$* tests/tools/ansible-test.sh sanity --requirements
	@echo "==== ansible-core $*: integration stories"
	rm -rf tests/output/requests
	.venv-$*/bin/pytest -q -n 2 -p no:cacheprovider tests/integration
	$(BIN)/pytest -q tests/contract

bench: venv
	$(BIN)/python bench/run.py

clean:
	rm -rf .build tests/output $(CORES:%=.venv-%) .venv-importer

# ---- packaging, docs site, AWX readiness (issue 7) ----

# Build the HTML docs site offline into .build/docs/build/html (fails on any Sphinx warning).
docs: venv
	tests/tools/docs.sh

# Docs site + antsibull-docs lint, antsibull-changelog lint, ansible-lint (production) and syntax check of examples/,
# AWX credential type + ansible-runner demo run, ansible-builder create, galaxy build + install + ansible-doc,
# galaxy-importer on the built tarball.
# galaxy-importer (Galaxy's upload checker) needs attrs<24, older than requirements-dev.txt's: it gets its own venv.
packaging: venv .venv-importer/.installed
	$(BIN)/pytest -q -n 2 tests/packaging

.venv-importer/.installed: requirements-importer.txt
	rm -rf .venv-importer
	$(PYTHON) -m venv .venv-importer
	.venv-importer/bin/python -m pip install --quiet -r requirements-importer.txt
	touch $@
