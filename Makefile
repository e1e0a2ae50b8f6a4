# gcore.platform — `make demo` runs the demo playbook against the local simulator; `make test` runs every test.
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
COLLECTIONS := .build/collections
export ANSIBLE_COLLECTIONS_PATH := $(CURDIR)/$(COLLECTIONS)
export PYTHONPATH := $(CURDIR)/tests

.PHONY: demo test venv unit integration contract sanity bench clean packaging docs

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

# Every suite; the contract test reads the requests the integration run archived, so it follows it.
test: unit sanity integration contract packaging

bench: venv
	$(BIN)/python bench/run.py

clean:
	rm -rf .build tests/output

# ---- packaging, docs site, AWX readiness (issue 7) ----

# Build the HTML docs site offline into .build/docs/build/html (fails on any Sphinx warning).
docs: venv
	tests/tools/docs.sh

# Docs site + antsibull-docs lint, antsibull-changelog lint, ansible-lint (production) and syntax check of examples/,
# AWX credential type + ansible-runner demo run, ansible-builder create, galaxy build + install + ansible-doc.
packaging: venv
	$(BIN)/pytest -q tests/packaging
