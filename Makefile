# Tilehost: `make run` runs the bot, `make test` runs every check. Both set up .venv first, from
# the pinned versions in requirements/ (`make lock` updates them; see docs/development.md).
# With no DISCORD_TOKEN, `make run` starts local mode: the bot on a simulated Discord, in the browser.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALL := $(BIN)/python -m pip install --quiet --require-hashes --no-deps
# What each install holds: running the bot; local mode (SimCord's preview); the tests and tools.
RUN_STAMP := $(VENV)/.run
LOCAL_STAMP := $(VENV)/.local
STAMP := $(VENV)/.installed
UV := $(BIN)/uv
COMPILE = $(UV) pip compile --quiet --universal --generate-hashes --python-version 3.11 \
	--custom-compile-command "make lock" $(UPGRADE)

.PHONY: run local test lint typecheck pytest browser bench image-check lock lock-upgrade clean FORCE

# Checks the Python first (3.11 or newer) and rebuilds a venv made by another one.
$(VENV)/.python: FORCE
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "make: '$(PYTHON)' was not found: install Python 3.11 or newer, or run make PYTHON=/path/to/python3.11"; exit 1; }
	@$(PYTHON) tools/ensure_venv.py $(VENV)

$(RUN_STAMP): $(VENV)/.python pyproject.toml requirements/build.txt requirements/run.txt
	$(INSTALL) -r requirements/build.txt -r requirements/run.txt
	PYTHONWARNINGS=ignore $(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

$(LOCAL_STAMP): $(RUN_STAMP) requirements/local.txt
	$(INSTALL) -r requirements/local.txt
	touch $@

$(STAMP): $(RUN_STAMP) requirements/dev.txt
	$(INSTALL) -r requirements/dev.txt
	touch $(LOCAL_STAMP) $@

# Without a token the bot starts local mode, which needs SimCord's preview: installed then only.
run: $(RUN_STAMP)
	@$(BIN)/python -m bot check --token-set >/dev/null 2>&1 || $(MAKE) --no-print-directory $(LOCAL_STAMP)
	$(BIN)/python -m bot

local: $(LOCAL_STAMP)
	$(BIN)/python -m bot local

test: $(STAMP) lint typecheck browser pytest

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy

# The tests share the cores (pytest-xdist, TEST_JOBS processes; TEST_JOBS=0 runs them in one),
# then one last test checks that nothing the run started is still alive (also after a failure):
# both runs carry one mark.
TEST_JOBS ?= 2
pytest: $(STAMP)
	@export TILEHOST_TEST_RUN="make-$$$$-$$(date +%s%N)"; \
	if [ "$(TEST_JOBS)" = 0 ]; then $(BIN)/python -m pytest; else \
	failed=0; $(BIN)/python -m pytest -n $(TEST_JOBS) --dist worksteal || failed=$$?; \
	$(BIN)/python -m pytest tests/test_nothing_left_running.py && exit $$failed; fi

# The browser test drives Debian's Chromium (never a downloaded browser): install it if we can.
browser:
	@if command -v chromium >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing Debian's chromium for the browser test (apt-get)"; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } \
			|| echo "chromium could not be installed: the browser test will be skipped"; \
	else \
		echo "chromium is not installed and this is not root with apt-get: the browser test will be skipped"; \
	fi

bench: $(STAMP)
	for script in bench/bench_*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

# The container image's install steps in a fresh venv, and the image itself where Docker runs.
image-check: $(VENV)/.python
	$(PYTHON) tools/image_check.py

# Re-resolve requirements/*.txt after a change to pyproject.toml, keeping the other pins
# (`make lock`), or move every pin to its newest release (`make lock-upgrade`). uv resolves for
# every platform and every Python from 3.11 on; make installs it into .venv for this.
lock: $(UV)
	$(COMPILE) requirements/build.in -o requirements/build.txt
	$(COMPILE) pyproject.toml -o requirements/run.txt
	$(COMPILE) pyproject.toml --extra local -c requirements/run.txt -o requirements/local.txt
	$(COMPILE) pyproject.toml --extra dev --extra local -c requirements/local.txt -o requirements/dev.txt

lock-upgrade:
	$(MAKE) --no-print-directory lock UPGRADE=--upgrade

$(UV): $(VENV)/.python
	$(BIN)/python -m pip install --quiet "uv>=0.9,<1"

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
