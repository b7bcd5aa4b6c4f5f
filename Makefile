# RAG Privacy Studio: set-up and checks. `make run` and `make test` do everything on a fresh
# Debian machine with Python 3.11 (see README).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
export GRADIO_ANALYTICS_ENABLED := False
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: run test install install-dev browser postgresql lint bench bench-erase clean

run: install
	$(BIN)/python app.py

test: install-dev browser postgresql lint
	$(BIN)/python -m pytest -q

install: $(VENV)/.installed

$(VENV)/.installed: requirements.txt requirements-nodeps.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -r requirements.txt
	$(BIN)/pip install -q --no-deps -r requirements-nodeps.txt
	touch $@

install-dev: $(VENV)/.installed-dev

$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt requirements-ray.txt
	$(BIN)/pip install -q -r requirements-dev.txt
	touch $@

# Debian's Chromium for the browser tests (playwright drives it; its own browser download
# does not work offline).
browser:
	@command -v chromium >/dev/null || ($(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q chromium chromium-driver)

# Debian's PostgreSQL for the storage, concurrency and kill tests: each session starts its own
# server in a temporary directory (tests/postgres_server.py); nothing runs as a system service.
postgresql:
	@ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || ($(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q postgresql)

lint: install-dev
	$(BIN)/ruff check .

bench: install
	PYTHONPATH=. $(BIN)/python benchmarks/bench_graph.py
	PYTHONPATH=. $(BIN)/python benchmarks/bench_extract.py
	PYTHONPATH=. $(BIN)/python benchmarks/bench_startup.py --busy 2
	PYTHONPATH=. $(BIN)/python benchmarks/bench_storage.py
	PYTHONPATH=. $(BIN)/python benchmarks/bench_aback.py
	PYTHONPATH=. $(BIN)/python benchmarks/bench_loading.py
	PYTHONPATH=. $(BIN)/python benchmarks/bench_split.py
	PYTHONPATH=. $(BIN)/python benchmarks/bench_reliability.py

# Eraser4RAG's tables on real retrieval sets: make bench-erase ERASE_DATA=path/to/popqa_dev.jsonl
bench-erase: install
	PYTHONPATH=. $(BIN)/python benchmarks/bench_erase.py $(ERASE_DATA)

clean:
	rm -rf $(VENV) .cache test-artifacts benchmarks/results
