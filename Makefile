# Xiangqi Arbiter — the two Quick start commands (make run, make test) and a few more.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: run test venv lint bench screenshots samples dist clean i18n axe

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,dist]'
	touch $(STAMP)

venv: $(STAMP)

QM := resources/i18n/xqarbiter_en.qm

# Interface translations: .ts (Qt Linguist, in git) -> .qm with pyside6-lrelease from PySide6-Essentials.
$(QM): resources/i18n/xqarbiter_en.ts $(STAMP)
	$(VENV)/bin/pyside6-lrelease -silent $< -qm $@

i18n: $(QM)

run: $(STAMP) $(QM)
	$(PY) -m app --demo

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict app/engine
	$(VENV)/bin/lint-imports

# axe-core for the hall pages' accessibility check (browser tests): pinned in tests/web/axe/package-lock.json,
# installed here with npm ci, never fetched while the tests run.
AXE := tests/web/axe/node_modules/axe-core/axe.min.js
$(AXE): tests/web/axe/package-lock.json
	cd tests/web/axe && npm ci --no-audit --no-fund --loglevel=error
	touch $@

axe: $(AXE)

test: lint $(QM) $(AXE)
	$(PY) -m pytest -q

screenshots: $(STAMP) $(QM)
	QT_QPA_PLATFORM=offscreen $(PY) scripts/screenshots.py

bench: $(STAMP)
	@for f in bench/bench_*.py; do $(PY) $$f; done

# One-folder, windowed build in dist/xqarbiter/ (PyInstaller, build.spec), then its headless self-test.
dist: $(STAMP) $(QM)
	$(PY) -m pip install --quiet -e '.[dist]'
	$(VENV)/bin/pyinstaller --noconfirm --log-level WARN build.spec
	QT_QPA_PLATFORM=offscreen dist/xqarbiter/xqarbiter --self-test
	@du -sh dist/xqarbiter

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
