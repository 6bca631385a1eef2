# The two commands the README promises. Each creates .venv when it is missing and installs
# requirements.txt into it (again only when requirements.txt changes).
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Python writes its bytecode cache (.pyc, under __pycache__/, ignored by git) for what it imports. Some
# images set PYTHONDONTWRITEBYTECODE; with pip's --no-compile below, every process then compiled
# torch, transformers and Streamlit from source again: about 15 s per process here (a server, a test
# worker, a CLI run), and a third of `make test`.
unexport PYTHONDONTWRITEBYTECODE
# The address the server listens on: this machine only. `make run ADDRESS=0.0.0.0` serves the LAN
# (a class), on purpose; README "Serving a class".
ADDRESS ?= 127.0.0.1
# ... and its port: `make run PORT=8601` when 8501 is taken (run-replicas and run-balanced start there too).
PORT ?= 8501

.PHONY: run run-replicas run-balanced test audit bench bench-first-screen bench-explorers bench-load bench-load-replicas bench-load-balanced bench-moe bench-mismatch bench-symptoms pretrain pretrain-moe lint format

$(STAMP): requirements.txt
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --upgrade pip -q
	$(PY) -m pip install --no-compile -r requirements.txt  # no .pyc for all of torch: 54 s instead of 126 s here
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m streamlit run app.py --server.address $(ADDRESS) --server.port $(PORT)

# README "Several replicas": REPLICAS server processes on ports PORT, PORT + 1, ... with one cookie
# secret drawn at start, each computing RLVIZ_CONCURRENT_STEPS training steps at once (1 unless set);
# give each port to part of the class, or put a sticky load balancer in front. Ctrl-C stops them all:
# the shell's trap stops listening before it signals the group (a trap that signalled its own group
# while still trapping ran again on its own signal, about 27,000 times in a second, until sh crashed).
REPLICAS ?= 2
run-replicas: $(STAMP)
	STREAMLIT_SERVER_COOKIE_SECRET=$$($(PY) -c 'import secrets; print(secrets.token_hex(32))') \
	RLVIZ_CONCURRENT_STEPS=$${RLVIZ_CONCURRENT_STEPS:-1} sh -c 'trap "trap \"\" INT TERM; kill 0; wait; exit 130" INT TERM; \
	for i in $$(seq 0 $$(($(REPLICAS) - 1))); do \
	$(PY) -m streamlit run app.py --server.address $(ADDRESS) --server.port $$(($(PORT) + i)) & done; wait'

# README "Several replicas": the same replicas behind one address, HAProxy in front (Debian: apt-get
# install haproxy). HAProxy listens on ADDRESS:PORT and keeps each browser on one replica (a cookie);
# the REPLICAS servers listen on 127.0.0.1, ports PORT + 1, PORT + 2, ... (rlviz.balancer writes the
# configuration). Ctrl-C stops them all.
HAPROXY ?= $(shell command -v haproxy || command -v /usr/sbin/haproxy)
run-balanced: $(STAMP)
	@test -n "$(HAPROXY)" || { echo "haproxy is not installed (Debian: apt-get install haproxy); README 'Several replicas'" >&2; exit 1; }
	@echo "rlviz: the class opens http://$(ADDRESS):$(PORT) (HAProxy); the $(REPLICAS) replicas below listen on 127.0.0.1 behind it."
	cfg=$$(mktemp /tmp/rlviz-haproxy.XXXXXX) && \
	$(PY) -m rlviz.balancer --address $(ADDRESS) --port $(PORT) \
	  --replica-ports $$(seq $$(($(PORT) + 1)) $$(($(PORT) + $(REPLICAS)))) > $$cfg && \
	STREAMLIT_SERVER_COOKIE_SECRET=$$($(PY) -c 'import secrets; print(secrets.token_hex(32))') \
	RLVIZ_CONCURRENT_STEPS=$${RLVIZ_CONCURRENT_STEPS:-1} sh -c 'trap "trap \"\" INT TERM; kill 0; wait; exit 130" INT TERM; \
	for i in $$(seq 1 $(REPLICAS)); do \
	$(PY) -m streamlit run app.py --server.address 127.0.0.1 --server.port $$(($(PORT) + i)) & done; \
	$(HAPROXY) -db -f '"$$cfg"' & wait'

# docs/container.md. `make wheel`: the wheel of rlviz (the library, the app and the `rlviz` command) in
# dist/, built with the venv's setuptools. `make image`: the CPU container image of the Dockerfile with
# podman (else docker), tagged $(IMAGE); IMAGE_ARGS adds build options, e.g.
# IMAGE_ARGS="--build-arg PYTHON_IMAGE=localhost/debian-python:bookworm --build-arg TORCH_INDEX_URL=".
# Neither is part of `make test` (the image takes minutes); tests/test_package.py builds a wheel itself.
ENGINE ?= $(shell command -v podman || command -v docker)
IMAGE ?= rlviz
.PHONY: wheel image
wheel: $(STAMP)
	$(PY) -m pip wheel --no-deps --no-build-isolation -w dist .

image:
	@test -n "$(ENGINE)" || { echo "neither podman nor docker is installed (Debian: apt-get install podman); docs/container.md" >&2; exit 1; }
	$(ENGINE) build $(if $(findstring podman,$(ENGINE)),--format docker) -t $(IMAGE) $(IMAGE_ARGS) .

test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) -m pytest -n auto --dist loadfile --no-loadscope-reorder

# A dependency audit of requirements.txt (pip-audit, in its own venv). It asks a vulnerability
# service (PyPI's JSON API, or OSV with AUDIT_SERVICE=osv) about each pinned package, so it needs that
# service online; --strict fails when a package cannot be checked. README "Serving a class".
AUDIT_SERVICE ?= pypi
audit:
	test -x .venv-audit/bin/pip-audit || (python3 -m venv .venv-audit && .venv-audit/bin/pip install -q pip-audit)
	.venv-audit/bin/pip-audit -r requirements.txt --strict --vulnerability-service $(AUDIT_SERVICE) --progress-spinner off

# make bench: every speed figure of docs/performance.md (issue 13), about 30 minutes here. The TRL
# peer of the step benchmark runs in its own venv (.venv-bench: requirements.txt + TRL); when it
# cannot be installed the benchmark says so and measures rlviz against its floor only.
BENCH_VENV := .venv-bench
$(BENCH_VENV)/.installed: requirements.txt benchmarks/requirements-trl.txt
	test -x $(BENCH_VENV)/bin/python || python3 -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/pip install -q --no-compile -r benchmarks/requirements-trl.txt
	touch $@

bench: $(STAMP)
	-$(MAKE) --no-print-directory $(BENCH_VENV)/.installed
	$(PY) benchmarks/bench_step.py
	$(PY) benchmarks/step_floor.py
	$(PY) benchmarks/job.py
	$(PY) benchmarks/scaling.py
	$(PY) benchmarks/arm_batching.py
	$(PY) benchmarks/explorers.py
	$(PY) benchmarks/explorer_reruns.py
	$(PY) benchmarks/first_screen.py

# issue 39: each page's first screen in headless chromium (chart in view, words above it, at 1400x900
# and 1024x768, en and zh) and the time from a click on a page's sidebar link to its first chart
bench-first-screen: $(STAMP)
	$(PY) benchmarks/first_screen.py

bench-explorers: $(STAMP)
	$(PY) benchmarks/explorers.py
	$(PY) benchmarks/explorer_reruns.py

bench-load: $(STAMP)  # a class of 30 on one server (README "Serving a class"), about 11 minutes
	$(PY) benchmarks/load.py --sessions 30 --browsers 4 --runs 4 --abandon 2 --settle 200

bench-load-replicas: $(STAMP)  # the same class on two server processes, one training step each (README)
	RLVIZ_CONCURRENT_STEPS=1 $(PY) benchmarks/load.py --sessions 30 --browsers 4 --runs 4 --abandon 2 --settle 200 --replicas 2

bench-load-balanced: $(STAMP)  # the same two replicas, the class through HAProxy (make run-balanced's; README)
	RLVIZ_CONCURRENT_STEPS=1 $(PY) benchmarks/load.py --sessions 30 --browsers 4 --runs 4 --abandon 2 --settle 200 --replicas 2 --balancer

bench-moe: $(STAMP)
	$(PY) benchmarks/moe_effect.py

bench-symptoms: $(STAMP)
	$(PY) benchmarks/symptoms.py

bench-mismatch: $(STAMP)
	$(PY) benchmarks/mismatch_effect.py --out rlviz/experiments/mismatch_measured.json

pretrain: $(STAMP)
	$(PY) -m rlviz.lm.pretrain

pretrain-moe: $(STAMP)
	$(PY) -m rlviz.lm.pretrain --moe

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .
