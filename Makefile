# Two entry points: `make demo` and `make test`. Both build .venv when it is missing.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench clean venv

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip > $(VENV)/install.log 2>&1 \
		|| (cat $(VENV)/install.log; exit 1)
	$(BIN)/python -m pip install --quiet -e '.[dev]' >> $(VENV)/install.log 2>&1 \
		|| (cat $(VENV)/install.log; exit 1)
	touch $(STAMP)

demo: $(STAMP)
	-$(BIN)/arbiter adjudicate samples/

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	$(BIN)/python bench/bench.py --compare-chess

clean:
	rm -rf $(VENV) build *.egg-info
