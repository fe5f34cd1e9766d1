PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The chat UI's browser libraries (Cytoscape.js, markdown-it; axe-core for its tests), pinned in api/ui/vendor/package-lock.json.
UI_VENDOR := api/ui/vendor
UI_STAMP := $(UI_VENDOR)/node_modules/.installed
# The Compose Specification's JSON schema, which tests/e2e/test_compose.py checks
# docker-compose.yml against.
COMPOSE_SPEC := tests/compose_spec
COMPOSE_STAMP := $(COMPOSE_SPEC)/node_modules/.installed

.PHONY: install demo test lint bench quality mutation real-model clean

# Bytecode for the workflow definitions: a worker's sandbox imports them afresh in every run
# and, with no .pyc beside them (PYTHONDONTWRITEBYTECODE, a read-only tree), compiles their
# source each time. Checked by hash, so an edited module is recompiled, never served stale.
install: $(STAMP) $(UI_STAMP) $(COMPOSE_STAMP)
	$(BIN)/python -m compileall -q --invalidation-mode checked-hash workflows

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "need $(PYTHON)"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(UI_STAMP): $(UI_VENDOR)/package.json $(UI_VENDOR)/package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "need npm (Node.js) to install the chat UI's Cytoscape.js and markdown-it from the npm registry: apt-get install -y npm"; exit 1; }
	npm ci --prefix $(UI_VENDOR) --no-audit --no-fund
	touch $(UI_STAMP)

$(COMPOSE_STAMP): $(COMPOSE_SPEC)/package.json $(COMPOSE_SPEC)/package-lock.json
	npm ci --prefix $(COMPOSE_SPEC) --no-audit --no-fund
	touch $(COMPOSE_STAMP)

demo: install
	$(BIN)/kminer demo

# Every room but tests/e2e runs on TEST_WORKERS processes (pytest-xdist, one test file per
# worker at a time); tests/e2e, whose kminer stacks are timed against SIGTERM and kills,
# runs alone after them. Both always run, and either failing fails the target.
TEST_WORKERS ?= 2

test: install
	@rc=0; \
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile --ignore=tests/e2e || rc=$$?; \
	$(BIN)/python -m pytest -q tests/e2e || rc=$$?; \
	exit $$rc

# Ruff, then the import contracts of pyproject.toml [tool.importlinter] (the layout of docs/layout.md).
lint: install
	$(BIN)/ruff check .
	$(BIN)/lint-imports

# `make bench QUICK=1`: fewer concurrency levels and kills (throughput, recovery).
BENCH_FLAGS := $(if $(QUICK),--quick,)

bench: install
	$(BIN)/python bench/dkg.py
	$(BIN)/python bench/api.py
	$(BIN)/python bench/memory.py
	$(BIN)/python bench/history.py
	$(BIN)/python bench/overhead.py
	$(BIN)/python bench/throughput.py $(BENCH_FLAGS)
	$(BIN)/python bench/recovery.py $(BENCH_FLAGS)
	$(BIN)/python bench/model_cost.py
	$(BIN)/python bench/report.py

quality: install
	$(BIN)/python bench/quality.py

mutation: install
	$(BIN)/python bench/mutation.py

# The demo question and one question of each shared labeled set mined by a real model
# (README "With a local model"): the server at KM_BENCH_MODEL_URL (http://127.0.0.1:8080/v1)
# if set, else Qwen2.5-Coder-1.5B fetched once (1.1 GB, KM_REAL_MODEL_DIR or
# .kminer/real-model/), served on 127.0.0.1 by xllamacpp (installed on this request only)
# and stopped after. ARGS go to bench/local_model.py, then bench/real_model.py:
# ARGS="--no-demo --set ../shared/quality-sets/food" mines one set's question only;
# --no-sets the demo only, --no-record writes nothing, --fetch-only / --serve-only.
real-model: install
	$(BIN)/python bench/local_model.py $(ARGS)

clean:
	rm -rf $(VENV) .kminer .pytest_cache mutants $(UI_VENDOR)/node_modules $(COMPOSE_SPEC)/node_modules tests/artifacts
