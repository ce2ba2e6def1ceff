# Tilehost: `make run` runs the bot, `make test` runs every check. Both set up .venv first.
# With no DISCORD_TOKEN, `make run` starts local mode: the bot on a simulated Discord, in the browser.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest browser bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev,local]"
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m bot

test: $(STAMP) lint typecheck browser pytest

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/python -m pytest

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

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
