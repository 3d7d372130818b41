# Two commands do all set-up: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_TEST := $(VENV)/.installed-test
STAMP_PLAY := $(VENV)/.installed-play

.PHONY: run test play lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_RUN): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(STAMP_TEST): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(STAMP_RUN)

$(STAMP_PLAY): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,play]'
	touch $@ $(STAMP_RUN) $(STAMP_TEST)

# Status 2 means "not configured yet": the bot has already said what to do, so make stays quiet.
run: $(STAMP_RUN)
	@$(BIN)/python -m bot || test $$? -eq 2

test: $(STAMP_TEST)
	$(BIN)/ruff check engine bot cogs tests bench
	$(BIN)/mypy --strict engine bot cogs
	$(BIN)/python -m pytest

COMPUTERS ?= 0
MEMBERS ?= 3
play: $(STAMP_PLAY)
	$(BIN)/python -m bot.playground --members $(MEMBERS) --computers $(COMPUTERS)

bench: $(STAMP_TEST)
	$(BIN)/python bench/engine_bench.py
	$(BIN)/python bench/runtime_bench.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
