#!/usr/bin/env bash
# The container recipe as it runs on the project's machines (docs/container.md, "What was run here"):
# no image registry is reachable, so the base image is made locally (mmdebstrap: Debian bookworm with
# python3 and python3-venv); download.pytorch.org is not reachable either, so the CPU torch wheel comes
# from a local wheelhouse (pip download finds it on this machine's disk); pip's index is reachable from
# inside the build through the machine's TLS proxy, whose CA the local base image carries. Then: build,
# run with a published port, the health check, the home page in headless chromium (a screenshot), and
# two replicas behind HAProxy. Needs root, podman, runc, mmdebstrap, haproxy and chromium
# (apt-get install podman runc mmdebstrap haproxy chromium). Not part of `make test`: 10 to 15 minutes
# with nothing cached, about 4 with the base image and the dependencies' layer cached (2026-12-06, a loaded hour).
set -euo pipefail
cd "$(dirname "$0")/../.."
WORK=${WORK:-/tmp/rlviz-container}
BASE=${BASE:-localhost/rlviz-base:bookworm}
IMAGE=${IMAGE:-localhost/rlviz:here}
PORT=${PORT:-18501}
# Here crun fails twice: it cannot set podman's default rlimits (no CAP_SYS_RESOURCE in this VM: "setrlimit
# RLIMIT_NOFILE: Operation not permitted") nor run on these hybrid cgroups ("cgroups in hybrid mode not
# supported"); runc can, with the limits at or below this shell's.
PODMAN=(podman --runtime runc)
LIMITS=(--ulimit nofile=1024:1024 --ulimit nproc=4096:4096)
step() { echo "== $(date -u +%FT%TZ) $*"; }
mkdir -p "$WORK"

step "1. the base image $BASE-ca"
if ! podman image exists "$BASE-ca"; then
  podman image exists "$BASE" || {
    mmdebstrap --variant=minbase --include=python3,python3-venv,ca-certificates bookworm "$WORK/base.tar" http://deb.debian.org/debian
    podman import --change 'CMD ["/bin/bash"]' "$WORK/base.tar" "$BASE"
  }
  cp /etc/ssl/certs/ca-certificates.crt "$WORK/"  # the machine's CA bundle, its TLS proxy's CA included
  printf 'FROM %s\nCOPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt\nENV PIP_CERT=/etc/ssl/certs/ca-certificates.crt\n' \
    "$BASE" > "$WORK/Containerfile.base"
  "${PODMAN[@]}" build -f "$WORK/Containerfile.base" -t "$BASE-ca" "$WORK"
fi

step "2. the wheelhouse: a CPU torch wheel"
mkdir -p wheelhouse
ls wheelhouse/torch-*.whl > /dev/null 2>&1 || .venv/bin/python -m pip download --no-deps -d wheelhouse "$(grep -E '^torch==' requirements.txt | cut -d' ' -f1)"
ls wheelhouse

step "3. build $IMAGE"
"${PODMAN[@]}" build "${LIMITS[@]}" --format docker --build-arg PYTHON_IMAGE="$BASE-ca" --build-arg TORCH_INDEX_URL= -t "$IMAGE" .

step "4. run it, port $PORT published on 127.0.0.1"
cleanup() { podman rm -f rlviz-here rlviz-r1 rlviz-r2 > /dev/null 2>&1 || true; [ -z "${HAPROXY_PID:-}" ] || kill "$HAPROXY_PID" 2> /dev/null || true; }
trap cleanup EXIT
"${PODMAN[@]}" run -d --name rlviz-here "${LIMITS[@]}" -p "127.0.0.1:$PORT:8501" -e RLVIZ_CONCURRENT_STEPS=1 -e RLVIZ_MAX_STEPS=50 "$IMAGE"
healthy() { for _ in $(seq 90); do curl -fsS "$1/_stcore/health" 2> /dev/null && echo && return 0; sleep 2; done; return 1; }
healthy "http://127.0.0.1:$PORT"
podman exec rlviz-here id
podman healthcheck run rlviz-here 2> /dev/null && echo "HEALTHCHECK: healthy"

step "5. the home page through the published port, headless chromium"
shoot() {
  PYTHONPATH=tests .venv/bin/python - "$1" "$2" << 'PY'
import sys
from browsertools import launch, settle, wait_count
from playwright.sync_api import sync_playwright

url, out = sys.argv[1], sys.argv[2]
with sync_playwright() as p:
    browser = launch(p)
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    outside = []
    page.on("request", lambda r: None if r.url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:", "about:")) else outside.append(r.url))
    page.goto(url)
    settle(page)
    wait_count(page, ".js-plotly-plot", 1)
    errors = page.locator("[data-testid=stException]").count()
    page.screenshot(path=out)
    print(f"h1: {page.locator('h1').first.inner_text()!r}; sidebar links: {page.locator('[data-testid=stSidebarNav] a').count()}; "
          f"exceptions: {errors}; requests leaving the machine: {outside}; screenshot: {out}")
    browser.close()
    sys.exit(1 if errors or outside else 0)
PY
}
shoot "http://127.0.0.1:$PORT" "$WORK/container-home.png"
time podman stop rlviz-here

step "6. two replicas behind HAProxy (docs/container.md, Replicas)"
SECRET=$(python3 -c 'import secrets; print(secrets.token_hex(32))')
for i in 1 2; do
  "${PODMAN[@]}" run -d --name "rlviz-r$i" "${LIMITS[@]}" -p "127.0.0.1:$((PORT + 10 + i)):8501" \
    -e STREAMLIT_SERVER_COOKIE_SECRET="$SECRET" -e RLVIZ_CONCURRENT_STEPS=1 "$IMAGE"
done
"${PODMAN[@]}" run --rm "${LIMITS[@]}" "$IMAGE" balancer --address 127.0.0.1 --port "$((PORT + 10))" \
  --replica-ports "$((PORT + 11))" "$((PORT + 12))" > "$WORK/haproxy.cfg"
/usr/sbin/haproxy -db -f "$WORK/haproxy.cfg" > "$WORK/haproxy.log" 2>&1 &
HAPROXY_PID=$!
healthy "http://127.0.0.1:$((PORT + 10))"
curl -sS -D - -o /dev/null "http://127.0.0.1:$((PORT + 10))/" | grep -i '^set-cookie: RLVIZ_REPLICA'
shoot "http://127.0.0.1:$((PORT + 10))" "$WORK/container-haproxy-home.png"
step "done"
