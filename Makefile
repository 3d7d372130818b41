# Two commands do all set-up: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_TEST := $(VENV)/.installed-test
STAMP_PLAY := $(VENV)/.installed-play
STAMP_BROWSER := $(VENV)/.installed-browser
# Installing compiles the engine's rule modules (setup.py, engine/_compiled.py): a changed rule
# module, setup.py or pyproject.toml installs (and compiles) again.
BUILD_INPUTS := pyproject.toml setup.py $(wildcard engine/*.py)

.PHONY: run test test-browser check-web web-vendor replay-words play lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_RUN): $(BUILD_INPUTS) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

# `make test` installs in two steps so the slow one overlaps the tests: the test tools, every
# dependency (scripts/requirements.py reads them from pyproject.toml) and the package itself from
# its sources first (a second or two); then the engine is compiled in place (one core, about 30 s)
# with the build tools just installed, while the suite already runs (below).
# The dependencies go in with uv (from PyPI, into this venv): the same packages and versions as
# pip's, compiled to bytecode as pip does (or six workers compile each module at once), in about
# 3 s where pip took 18 s on one core before any test could start. Where uv can not be had or
# fails, pip installs them as before.
STAMP_DEPS := $(VENV)/.installed-test-deps
$(STAMP_DEPS): pyproject.toml setup.py scripts/requirements.py | $(BIN)/python
	$(BIN)/python scripts/requirements.py test > $(VENV)/requirements-test.txt
	( $(BIN)/python -m pip install --quiet uv && \
		$(BIN)/python -m uv pip install --quiet --compile-bytecode --python $(BIN)/python -r $(VENV)/requirements-test.txt ) || \
		$(BIN)/python -m pip install --quiet -r $(VENV)/requirements-test.txt
	FLIPFLOP_PURE_ENGINE=1 $(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

# Compiled in place (engine/*.so beside the sources, engine/.compiled.json): nothing in site-packages
# changes while the suite runs. mypyc keeps its own cache, apart from the linters' mypy.
$(STAMP_TEST): $(BUILD_INPUTS) $(STAMP_DEPS)
	MYPY_CACHE_DIR=build/mypyc-cache $(BIN)/python setup.py --quiet build_ext --inplace
	touch $@ $(STAMP_RUN)

$(STAMP_PLAY): $(BUILD_INPUTS) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,play]'
	touch $@ $(STAMP_RUN) $(STAMP_TEST)

# Status 2 without a token means "not configured yet": the bot has already said what to do, so make
# stays quiet; status 2 for a malformed setting or a port in use fails make (scripts/unconfigured.py).
run: $(STAMP_RUN)
	@$(BIN)/python -m bot || { test $$? -eq 2 && $(BIN)/python scripts/unconfigured.py; }

# pytest-xdist runs the suite in JOBS workers (each with its own temporary folder, ports and
# PostgreSQL schemas); most of the e2e and simcord tests' time is waiting (a real process, a settle),
# so three workers a core keep the cores busy (fresh clone, 2 cores: pytest 261 s with 6, 281 s with 4).
# Tests go out two at a time, the longest and the e2e ones first (tests/conftest.py),
# so the long ones start at once on every worker instead of queuing on one. JOBS=0: one process.
JOBS ?= 6
XDIST = -n $(JOBS) --maxschedchunk 2
# The suite runs on the engine's sources (FLIPFLOP_PURE_ENGINE=1: as fast here, 216 s against 228 s
# compiled), so it starts as soon as the packages are in and the suite collected once (below), beside
# the linters and the engine's compilation; once compiled, the rules run once more, compiled
# (tests/engine: the compiled and the plain engine must agree; the statistical tests, of the shuffle
# that is never compiled, and the `uncompiled` ones, of the shuffle's command line and the independent
# verifiers, which run no rule module (tests/engine/test_fairness.py), run once, in the main pass).
# Their output follows the main pass's; any of the three failing fails `make test`.
# Before the workers start, one process collects the suite (pytest --collect-only) with bytecode
# writing on, whatever PYTHONDONTWRITEBYTECODE says: pytest's assert-rewritten test modules and the
# sources' bytecode go into __pycache__ once (about 9 s of one core on a fresh clone), where each of
# the JOBS workers (starting together on a fresh clone), the compiled pass and, with
# PYTHONDONTWRITEBYTECODE set, every bot process an e2e test starts would rewrite and compile them
# again (a worker's collection: 9 s of CPU cold, 2.5 s from the cache). A collection error is left for
# the main pass to report.
COMPILED_LOG := $(VENV)/compiled-engine.log
LINT_LOG := $(VENV)/lint.log
test: $(STAMP_DEPS)
	@( $(BIN)/ruff check engine bot cogs tests bench scripts setup.py && $(BIN)/mypy --strict engine bot cogs ) \
		> $(LINT_LOG) 2>&1 & lint=$$!; \
	PYTHONDONTWRITEBYTECODE= FLIPFLOP_PURE_ENGINE=1 $(BIN)/python -m pytest -q --collect-only \
		-p no:cacheprovider > /dev/null 2>&1; \
	( $(MAKE) --no-print-directory $(STAMP_TEST) && \
		$(BIN)/python -m pytest -q -p no:cacheprovider -m "not statistical and not uncompiled" tests/engine ) \
		> $(COMPILED_LOG) 2>&1 & compiled=$$!; \
	FLIPFLOP_PURE_ENGINE=1 $(BIN)/python -m pytest $(XDIST); main=$$?; \
	wait $$lint; lint_status=$$?; wait $$compiled; compiled_status=$$?; \
	echo "== ruff and mypy --strict =="; cat $(LINT_LOG); \
	echo "== the engine compiled (tests/engine once more) =="; cat $(COMPILED_LOG); \
	test $$main -eq 0 && test $$lint_status -eq 0 && test $$compiled_status -eq 0

$(STAMP_BROWSER): $(BUILD_INPUTS) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[browser]'
	touch $@ $(STAMP_RUN) $(STAMP_TEST) $(STAMP_PLAY)

# The playground page driven by clicks in headless Chromium: Debian's `chromium` package
# (apt-get install chromium), never `playwright install`. `make test` leaves tests/browser out.
test-browser: $(STAMP_BROWSER)
	$(BIN)/mypy tests/browser
	$(BIN)/python -m pytest tests/browser

# The replay page (web/replay/) needs no build; its JavaScript is type-checked from its JSDoc
# types by TypeScript's tsc --checkJs, installed from npm at the version web/package-lock.json pins.
web/node_modules/.installed: web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund --loglevel=error
	touch $@

check-web: web/node_modules/.installed
	cd web && ./node_modules/.bin/tsc -p .

# The live page's Discord Activity SDK (@discord/embedded-app-sdk, pinned in web/package-lock.json),
# bundled with its dependencies into web/live/vendor/discord-sdk.js by esbuild. The bundle is
# committed, so the bot serves it without npm; run this after changing the pinned version.
web-vendor: web/node_modules/.installed
	cd web && npm run --silent vendor

# The replay page's words in every language (web/replay/words/<lang>.json), from the catalogs: the
# page is static, so they are committed; run this after changing a translation (docs/LANGUAGES.md).
replay-words: $(STAMP_RUN)
	$(BIN)/python -m bot.presentation.replay_words --write

COMPUTERS ?= 0
MEMBERS ?= 3
LEVEL ?= basic
play: $(STAMP_PLAY)
	$(BIN)/python -m bot.playground --members $(MEMBERS) --computers $(COMPUTERS) --level $(LEVEL) \
		$(if $(LANGUAGE),--language $(LANGUAGE)) $(if $(CARDS),--cards $(CARDS)) $(if $(THREADS),--threads)

bench: $(STAMP_TEST)
	$(BIN)/python bench/engine_bench.py
	$(BIN)/python bench/runtime_bench.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build engine/*.so engine/.compiled.json *__mypyc*.so
