# Xiangqi Arbiter — the two Quick start commands (make run, make test) and a few more.
#   make run        install what running needs (.venv) and open the window on the demo tournament
#   make test       the full suite (what .ci/run calls): lint, then every test, the frozen build included
#   make test-fast  lint, then every test but the frozen build, the browser and the stress tests,
#                   the property tests and the bad-input corpus lighter, the heavy cases left out
#                   (make test runs them whole)
#   make shell      a shell where `xqarbiter` is the project's command line
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install --quiet
RUN_STAMP := $(VENV)/.run-stamp
DEV_STAMP := $(VENV)/.dev-stamp
DIST_STAMP := $(VENV)/.dist-stamp
LOCK := requirements-dist.lock
DIST_VENV := .venv-dist
# pytest-xdist workers for the tests that may run side by side; 0: one process. make test-fast runs
# FAST_JOBS: three workers on the two cores, because about a third of the fast loop's time its tests wait
# on the processes, sockets and dialogs they drive (measured: 171 s with two workers, 145 s with three,
# the same CPU; docs/figures.md). make test keeps two beside the browser and the frozen build.
JOBS ?= 2
FAST_JOBS ?= 3

.PHONY: run test test-fast venv lint shell bench screenshots samples dist lock clean i18n axe

# what running needs: the program and its dependencies, nothing for tests or builds
$(RUN_STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) --upgrade pip
	$(PIP) -e .
	touch $@

# + the tools of the tests and the lint
$(DEV_STAMP): $(RUN_STAMP)
	$(PIP) -e '.[dev]'
	touch $@

# + PyInstaller at the locked version, for the frozen-build test of the full suite
$(DIST_STAMP): $(DEV_STAMP) $(LOCK)
	$(PIP) $$(grep -iE '^(pyinstaller|pyinstaller-hooks-contrib|altgraph)==' $(LOCK))
	touch $@

venv: $(DEV_STAMP)

QM := resources/i18n/xqarbiter_en.qm

# Interface translations: .ts (Qt Linguist, in git) -> .qm with pyside6-lrelease from PySide6-Essentials.
$(QM): resources/i18n/xqarbiter_en.ts $(RUN_STAMP)
	$(VENV)/bin/pyside6-lrelease -silent $< -qm $@

i18n: $(QM)

run: $(RUN_STAMP) $(QM)
	$(PY) -m app --demo

shell: $(RUN_STAMP)
	@echo "xqarbiter is on the PATH of this shell (.venv/bin); 'exit' leaves it."
	@VIRTUAL_ENV="$(CURDIR)/$(VENV)" PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $${SHELL:-/bin/sh}

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy app
	$(VENV)/bin/lint-imports

# axe-core for the hall pages' accessibility check (browser tests): pinned in tests/web/axe/package-lock.json,
# installed here with npm ci, never fetched while the tests run.
AXE := tests/web/axe/node_modules/axe-core/axe.min.js
$(AXE): tests/web/axe/package-lock.json
	cd tests/web/axe && npm ci --no-audit --no-fund --loglevel=error
	touch $@

axe: $(AXE)

# The suite runs in two passes: the tests that may share the cores (pytest-xdist, JOBS or FAST_JOBS
# workers), then the ones that time things, race processes or build the program, one at a time
# (marker `serial`; that pass collects only the files that say `pytest.mark.serial`: XQARBITER_PASS,
# tests/scheduling.py). The first pass leaves the serial tests its markers select out and lists them
# in SERIAL_LEFT (XQARBITER_SERIAL_LEFT); the second starts only if that list is not empty (or missing):
# the fast loop selects none (the serial tests are all stress or frozen ones), so it starts no second pytest.
# Each file goes whole to one worker, the slowest first (tests/scheduling.py orders them by the last
# run's times; --no-loadscope-reorder keeps that order instead of xdist's most-tests-first).
XDIST = $(if $(filter-out 0,$(1)),-n $(1) --dist loadfile --no-loadscope-reorder,)
FAST := not frozen and not browser and not stress
SERIAL_LEFT := $(CURDIR)/$(VENV)/serial-left.txt
# the serial pass, with its markers: run only when the first pass left a serial test out (or did not say)
SERIAL_PASS = [ -e $(SERIAL_LEFT) ] && [ ! -s $(SERIAL_LEFT) ] || { $(1) XQARBITER_PASS=serial $(PY) -m pytest -q -m "$(2)" || [ $$? -eq 5 ]; }

# Compiled modules (and pytest's rewritten test modules) are kept in .venv/pycache even where the
# environment says PYTHONDONTWRITEBYTECODE: otherwise every worker, and every `python -m app.cli` a test
# starts, compiles the program and the tests again from source (about 10 s of CPU per worker).
TESTENV := PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(CURDIR)/$(VENV)/pycache

# (pytest exits 5 when a marker selects no test: not a failure here)
test: lint $(QM) $(DIST_STAMP) $(AXE)
	rm -f $(SERIAL_LEFT)
	$(TESTENV) XQARBITER_TESTS=full XQARBITER_SERIAL_LEFT=$(SERIAL_LEFT) $(PY) -m pytest -q $(call XDIST,$(JOBS))
	$(call SERIAL_PASS,$(TESTENV) XQARBITER_TESTS=full,serial)

# the fast loop runs each property test with a quarter of its examples, every third case of the
# bad-input corpus and none of the tests marked heavy, whose lighter cases run instead
# (XQARBITER_TESTS=fast, tests/conftest.py); make test runs them all
test-fast: lint $(QM)
	rm -f $(SERIAL_LEFT)
	$(TESTENV) XQARBITER_TESTS=fast XQARBITER_SERIAL_LEFT=$(SERIAL_LEFT) $(PY) -m pytest -q $(call XDIST,$(FAST_JOBS)) -m "$(FAST)"
	$(call SERIAL_PASS,$(TESTENV) XQARBITER_TESTS=fast,$(FAST) and serial)

screenshots: $(DEV_STAMP) $(QM)
	QT_QPA_PLATFORM=offscreen $(PY) scripts/screenshots.py

bench: $(RUN_STAMP)
	@for f in bench/bench_*.py; do $(PY) $$f; done

# One-folder, windowed build in dist/xqarbiter/ (PyInstaller, build.spec), then its headless self-test.
# It is built in its own environment holding exactly the versions of requirements-dist.lock.
dist: $(LOCK) $(QM)
	test -x $(DIST_VENV)/bin/python || $(PYTHON) -m venv $(DIST_VENV)
	$(DIST_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(DIST_VENV)/bin/python -m pip install --quiet -r $(LOCK)
	$(DIST_VENV)/bin/python -m pip install --quiet --no-deps -e .
	$(DIST_VENV)/bin/pyinstaller --noconfirm --log-level WARN build.spec
	QT_QPA_PLATFORM=offscreen dist/xqarbiter/xqarbiter --self-test
	@du -sh dist/xqarbiter

# Regenerate the lock from a clean environment: the program's dependencies and PyInstaller, newest allowed.
lock:
	rm -rf build/lock-venv && $(PYTHON) -m venv build/lock-venv
	build/lock-venv/bin/python -m pip install --quiet --upgrade pip
	build/lock-venv/bin/python -m pip install --quiet '.[dist]'
	( echo "# The frozen build's exact versions (make dist installs them; make lock regenerates this file)."; \
	  echo "# Generated by 'make lock' with Python $$(build/lock-venv/bin/python -c 'import platform; print(platform.python_version())') on $$(uname -s)."; \
	  build/lock-venv/bin/python -m pip freeze --all --exclude xqarbiter --exclude pip --exclude wheel \
	    | LC_ALL=C sort -f; \
	  cat scripts/lock-windows.txt ) > $(LOCK)
	rm -rf build/lock-venv

clean:
	rm -rf $(VENV) $(DIST_VENV) build dist .pytest_cache .mypy_cache .ruff_cache
