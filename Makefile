# Two entry points: `make demo` and `make test`. Both build .venv when it is missing.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: catalogues demo serve test bench bench-phases bench-hints bench-http bench-venv bench-events bench-bounded bench-stream bench-pairings bench-ratings fuzz hostile-load clean venv system

venv: $(STAMP)

$(STAMP): pyproject.toml
	@echo "setting up $(VENV) (log: $(VENV)/install.log)"
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install --quiet --upgrade pip > $(VENV)/install.log 2>&1 \
		|| (cat $(VENV)/install.log; exit 1)
	@$(BIN)/python -m pip install --quiet -e '.[dev]' >> $(VENV)/install.log 2>&1 \
		|| (cat $(VENV)/install.log; exit 1)
	@touch $(STAMP)

# The pages' catalogues (src/arbiter/service/web/README.md): extract every message of the web
# folder's templates, scripts and modules (babel.cfg), merge them into each language's .po,
# compile each .po to its .mo. A checkout also compiles a changed .po when the server loads it.
catalogues: $(STAMP)
	$(BIN)/python tools/catalogues.py

# Some samples are broken on purpose, so the demo's exit status 1 is expected.
demo: $(STAMP)
	@$(BIN)/arbiter adjudicate samples/ || true

# The server on its defaults (README): the API, the viewer and the events' pages on
# http://127.0.0.1:8000, events in the data folder. `make serve ARGS='--port 9000'`.
serve: $(STAMP)
	$(BIN)/arbiter serve $(ARGS)

# The browser tests drive Debian's chromium (tests/browser/) and read the desk's QR code
# with zbar-tools' zbarimg, from a screenshot and from its print (poppler-utils' pdftoppm),
# and the events tests run on a real PostgreSQL too, started from Debian's binaries
# (tests/events/). Install what is
# missing where this can be done without asking: as root, with apt-get. Elsewhere those
# tests skip without them (and fail in CI, where CI=true).
SYSTEM_PACKAGES = $(if $(wildcard /usr/bin/chromium),,chromium) \
	$(if $(wildcard /usr/lib/postgresql/*/bin/initdb),,postgresql) \
	$(if $(wildcard /usr/bin/zbarimg),,zbar-tools) \
	$(if $(wildcard /usr/bin/pdftoppm),,poppler-utils)

system: $(STAMP)
	@test -z "$(strip $(SYSTEM_PACKAGES))" || [ "$$(id -u)" != 0 ] \
		|| ! command -v apt-get > /dev/null \
		|| (echo "installing $(strip $(SYSTEM_PACKAGES)) for the tests (log: $(VENV)/apt.log)" \
		&& apt-get update -q > $(VENV)/apt.log 2>&1 \
		&& DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(SYSTEM_PACKAGES) \
			>> $(VENV)/apt.log 2>&1) \
		|| (cat $(VENV)/apt.log; exit 1)

# Lint and format (ruff), types (mypy --strict on the package; pyright on the package and the
# tests, bench, fuzz and tools, as an editor reads them), the wheel as pip builds it (its hot
# modules compiled by mypyc where a C compiler is present; tools/shipped.py builds it once per
# change), then the tests twice: on the checkout and on that wheel. Every step runs whatever
# the others gave, and a summary ends the run; it fails if any step failed (tools/check.py).
# CI runs exactly this.
test: $(STAMP) system
	$(BIN)/python tools/check.py

# The fuzz harness, the cost check and the live server's on the wire run against both
# builds, then the differential check feeds the same inputs to both (docs/robustness.md).
SHIPPED_ENV := PYTHONPATH=$(CURDIR)/build/shipped/site:$(CURDIR) PYTHONSAFEPATH=1

# The fuzz harness (docs/robustness.md): 100,000 inputs through the library, a share of
# them through the CLI and the API; the cost check to a million units; hostile HTTP and
# schemathesis (every phase, both modes) against a real server; each on both builds, then
# 30,000 inputs through both. Takes a while; `make test` runs a short budget of it.
fuzz: $(STAMP)
	$(BIN)/python tools/shipped.py
	$(BIN)/python -m pytest --long -q
	$(BIN)/python -m fuzz.harness --budget 100000
	$(SHIPPED_ENV) $(BIN)/python -m fuzz.harness --budget 100000
	$(BIN)/python -m fuzz.cost --largest 1000000
	$(SHIPPED_ENV) $(BIN)/python -m fuzz.cost --largest 1000000
	$(BIN)/python -m fuzz.live --requests 2000 --examples 200
	$(SHIPPED_ENV) $(BIN)/python -m fuzz.live --requests 2000 --examples 200
	$(BIN)/python -m fuzz.differential --inputs 30000

# The benchmarks measure the package as a user installs it: a wheel (its hot modules
# compiled with mypyc where a C compiler is present) in an environment of its own.
BENCH_VENV := .venv-bench

bench-venv:
	@test -x $(BENCH_VENV)/bin/python || $(PYTHON) -m venv $(BENCH_VENV)
	@$(BENCH_VENV)/bin/python -m pip install --quiet --upgrade pip
	@echo "building and installing the wheel in $(BENCH_VENV) (about two minutes)"
	@$(BENCH_VENV)/bin/python -m pip install --quiet --force-reinstall --no-deps .
	@$(BENCH_VENV)/bin/python -m pip install --quiet '.[bench,postgresql]'

# Whole-process and in-process figures against python-chess; writes the first table of
# docs/performance.md. Then
# the repair hints (bench-hints).
bench: bench-venv
	$(BENCH_VENV)/bin/python bench/bench.py --readme docs/performance.md
	$(BENCH_VENV)/bin/python bench/phases.py
	@$(MAKE) --no-print-directory bench-hints

# Where adjudicate --json spends its time, per game: read, replay, judge, write.
bench-phases: bench-venv
	$(BENCH_VENV)/bin/python bench/phases.py

# The repair hints on slipped records, on three corpora (the one the search was tuned on, a
# copying hand's, and a copying hand's in one part of a move), three seeds each: how often
# the move meant comes first or among the first three, the time against the same records as
# written, each run's; then each target met or missed over a corpus's three seeds together,
# over all games and for each game.
bench-hints: bench-venv
	$(BENCH_VENV)/bin/python bench/hints.py --seed 1 2 3
	$(BENCH_VENV)/bin/python bench/hints.py --corpus hand --seed 1 2 3
	$(BENCH_VENV)/bin/python bench/hints.py --corpus parts --seed 1 2 3

# The HTTP service at load: requests/s and latencies at 8 and 32 clients.
bench-http: bench-venv
	$(BENCH_VENV)/bin/python bench/http_load.py

# The events service at load (docs/performance.md, "The events service"): 900 uploads from 8 clients and standings
# reads, on SQLite and on PostgreSQL, then /adjudicate with --workers 1 and 2.
bench-events: bench-venv
	$(BENCH_VENV)/bin/python bench/events_load.py

# 2,000 players added in 4 requests and round 1 paired in one event while another takes
# uploads (docs/performance.md, "The events service"): the additions' times, the pairing's, the other's latencies.
bench-bounded: bench-venv
	$(BENCH_VENV)/bin/python bench/bounded_work.py

# 200 streams of one event open on one `arbiter serve` (its defaults) while the event changes
# 30 times (docs/performance.md, "The events service"): from each change's answer to each stream's receipt of it, p50,
# p95 and the longest, on SQLite and on PostgreSQL.
bench-stream: bench-venv
	$(BENCH_VENV)/bin/python bench/stream_latency.py

# `arbiter pair FILE.trf` as a whole process on events of 200 and 1,000 players
# (docs/performance.md, "Pairing"); the target for 200 players is under 2 s.
bench-pairings: bench-venv
	$(BENCH_VENV)/bin/python bench/pairings.py

# `arbiter ratings --compat abstractplay --json` on 30,000 generated Abstract Play records of
# real Pletore games, with its check (by default in one process per core, and with --jobs 1)
# and without, beside Abstract Play's own raters run by node on the same file, five runs
# interleaved, and the two lists compared (docs/performance.md). The node side needs
# a build of AbstractPlay/recranks: `make bench-ratings RECRANKS=DIR`; without it, skipped.
bench-ratings: bench-venv
	$(BENCH_VENV)/bin/python bench/ratings.py $(if $(RECRANKS),--recranks $(RECRANKS))

# Good requests timed while 10% of the requests are the worst inputs known
# (docs/robustness.md).
hostile-load: bench-venv
	$(BENCH_VENV)/bin/python bench/hostile_load.py

clean:
	rm -rf $(VENV) $(BENCH_VENV) build *.egg-info
