# Two commands a newcomer needs: `make run` (install and start) and `make test` (install and
# test everything). Both build .venv/ themselves; pyproject.toml changes reinstall.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python

.PHONY: run test lint typecheck contracts pytest bench clean

run: $(VENV)/.run-installed
	@bash packaging/linux/system-libs.sh run
	$(BIN)/combatdesk $(ARGS)

test: $(VENV)/.test-installed
	@bash packaging/linux/system-libs.sh test
	$(MAKE) --no-print-directory lint contracts typecheck pytest

lint: $(VENV)/.test-installed
	$(BIN)/ruff check .

contracts: $(VENV)/.test-installed
	$(BIN)/lint-imports

typecheck: $(VENV)/.test-installed
	$(BIN)/mypy

pytest: $(VENV)/.test-installed
	$(PY) -m pytest $(PYTEST_ARGS)

bench: $(VENV)/.test-installed
	for b in bench/bench_*.py; do $(PY) $$b || exit 1; done

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.run-installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --editable .
	@touch $@

$(VENV)/.test-installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --editable ".[test]"
	@touch $@ $(VENV)/.run-installed

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache .hypothesis
