PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install demo test lint bench quality mutation clean

install: $(STAMP)

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "need $(PYTHON)"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: install
	$(BIN)/kminer demo

test: install
	$(BIN)/python -m pytest -q

lint: install
	$(BIN)/ruff check .

bench: install
	$(BIN)/python bench/dkg.py
	$(BIN)/python bench/api.py
	$(BIN)/python bench/memory.py

quality: install
	$(BIN)/python bench/quality.py

mutation: install
	$(BIN)/python bench/mutation.py

clean:
	rm -rf $(VENV) .kminer .pytest_cache mutants
