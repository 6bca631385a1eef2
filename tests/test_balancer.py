"""A class served by two replicas behind HAProxy (README "Several replicas", ``make run-balanced``):
the configuration ``rlviz.balancer.haproxy_config`` writes, checked by HAProxy itself and then run,
with two real browsers. Skips where /usr/sbin/haproxy or /usr/bin/chromium is missing (``.ci/run``
installs both on Debian)."""

from __future__ import annotations

import contextlib
import subprocess
import time
import urllib.error
import urllib.request

import pytest
from browsertools import ARTIFACTS, BROWSER, check_and_shoot, settle

from rlviz.balancer import COOKIE, find_haproxy, haproxy_config, main

HAPROXY = find_haproxy()
NEEDS_HAPROXY = pytest.mark.skipif(HAPROXY is None, reason="haproxy is missing (apt-get install haproxy)")


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"replica_ports": []}, "replica_ports"),
        ({"replica_ports": "8502"}, "replica_ports"),
        ({"replica_ports": [8502, 8502]}, "replica_ports"),
        ({"replica_ports": [8501], "port": 8501}, "replica_ports"),
        ({"replica_ports": [0]}, "replica_ports"),
        ({"replica_ports": [8502.0]}, "replica_ports"),
        ({"replica_ports": [True]}, "replica_ports"),
        ({"replica_ports": [8502], "port": 70000}, "port"),
        ({"replica_ports": [8502], "address": ""}, "address"),
        ({"replica_ports": [8502], "address": "0.0.0.0 # x"}, "address"),
        ({"replica_ports": [8502], "replica_address": "a b"}, "replica_address"),
        ({"replica_ports": [8502], "idle_hours": 0}, "idle_hours"),
        ({"replica_ports": [8502], "idle_hours": float("nan")}, "idle_hours"),
        ({"replica_ports": [8502], "idle_hours": 25}, "idle_hours"),
    ],
)
def test_bad_arguments_name_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name}:"):
        haproxy_config(**kwargs)


def test_one_server_line_per_replica_each_with_its_own_cookie_value():
    text = haproxy_config([9002, 9003, 9004], port=9001, address="0.0.0.0", idle_hours=1.5)
    servers = [line.split() for line in text.splitlines() if line.strip().startswith("server ")]
    # server r<k> <address>:<port> check cookie r<k>, k = 1, 2, 3 in the order given
    assert servers == [
        ["server", f"r{k}", f"127.0.0.1:{p}", "check", "cookie", f"r{k}"] for k, p in ((1, 9002), (2, 9003), (3, 9004))
    ]
    assert "    bind 0.0.0.0:9001" in text.splitlines()
    assert "    timeout tunnel 90m" in text.splitlines()  # 1.5 hours
    assert f"cookie {COOKIE} insert" in text


def test_the_command_prints_it_and_rejects_a_repeated_port(capsys):
    assert main(["--port", "9001", "--replica-ports", "9002", "9003"]) == 0
    assert capsys.readouterr().out == haproxy_config([9002, 9003], port=9001)
    with pytest.raises(SystemExit) as exit_:
        main(["--port", "9001", "--replica-ports", "9002", "9002"])
    assert exit_.value.code == 2 and "replica_ports: each port once" in capsys.readouterr().err


@NEEDS_HAPROXY
def test_haproxy_accepts_the_configuration(tmp_path):
    cfg = tmp_path / "haproxy.cfg"
    cfg.write_text(haproxy_config([9002, 9003], port=9001, address="0.0.0.0"))
    check = subprocess.run([HAPROXY, "-c", "-f", str(cfg)], capture_output=True, text=True, timeout=30)
    assert check.returncode == 0, check.stdout + check.stderr


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as exc:
        return exc.code


@BROWSER[0]
@BROWSER[1]
@NEEDS_HAPROXY
def test_a_class_through_make_run_balanced_stays_on_its_replicas_and_downloads_work(browser):
    """``make run-balanced``: HAProxy on PORT, two replicas on 127.0.0.1 at PORT + 1 and PORT + 2
    with one cookie secret and one training step at a time each. Browsers open the KL page through
    PORT: they are spread over both replicas, each keeps its replica across a reload (the cookie),
    and each downloads its own CSV through the balancer. The download's file lives only on the
    replica that made it (the other answers 404), so it arrives only because the balancer kept the
    browser there. (A media file is named by its content: each browser sets its own x range, so
    their tables differ.) Ctrl-C (SIGINT to the group, as a terminal sends it) stops HAProxy and
    both replicas."""
    from browsertools import check_replicas, ctrl_c, free_ports, make_target

    port = free_ports(3)
    url, replica_urls = (
        f"http://127.0.0.1:{port}",
        {"r1": f"http://127.0.0.1:{port + 1}", "r2": f"http://127.0.0.1:{port + 2}"},
    )
    with make_target("run-balanced", REPLICAS=2, PORT=port) as make, contextlib.ExitStack() as stack:
        cookies, deadline = set(), time.monotonic() + 120
        while len(cookies) < 2 and time.monotonic() < deadline:  # both replicas up behind the front
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    cookies |= {c.split(";")[0] for c in r.headers.get_all("Set-Cookie") or [] if c.startswith(COOKIE)}
            except OSError:
                time.sleep(0.5)
        assert cookies == {f"{COOKIE}=r1", f"{COOKIE}=r2"}, cookies  # each replica named by its cookie
        replicas = check_replicas([port + 1, port + 2])
        found = subprocess.run(["pgrep", "-g", str(make.pid), "haproxy"], capture_output=True, text=True)
        balancer = [int(x) for x in found.stdout.split()]
        assert balancer

        seen: dict[str, object] = {}  # replica cookie value -> a browser (its page) kept there
        pages = []
        for k in range(4):
            # two browsers open at once (a fresh replica's first page imports torch: both replicas do
            # it side by side); leastconn sends the second to the replica without a WebSocket, and a
            # third or fourth comes only if both landed on one
            context = browser.new_context(viewport={"width": 1400, "height": 1000})
            stack.callback(context.close)
            page = context.new_page()
            page.goto(f"{url}/kl?kl_x=-{k + 2}.0&kl_x={k + 2}.0", wait_until="commit")  # its own curves table
            pages.append(page)
            if k == 0:
                continue
            for page in pages:
                settle(page)
                check_and_shoot(page, f"balancer-{len(seen)}")
                seen.setdefault({c["name"]: c["value"] for c in page.context.cookies()}[COOKIE], page)
            pages = []
            if len(seen) == 2:
                break
        assert sorted(seen) == ["r1", "r2"], sorted(seen)  # both replicas serve the class
        for replica, page in seen.items():
            page.reload()  # a reconnect: the same replica again
            settle(page)
            assert {c["name"]: c["value"] for c in page.context.cookies()}[COOKIE] == replica
            with page.expect_download(timeout=60_000) as info:
                page.locator(".st-key-kl_dl_curves button").click()  # the main figure's table (not held back)
            download = info.value
            path = ARTIFACTS / f"balancer-{replica}.csv"
            download.save_as(path)
            header = path.read_text(encoding="utf-8-sig").splitlines()[0]
            assert len(header.split(",")) >= 3, header  # a CSV with its columns
            assert download.url.startswith(f"{url}/media/"), download.url
            media = download.url.removeprefix(url)
            other = "r2" if replica == "r1" else "r1"
            assert _status(f"{replica_urls[replica]}{media}") == 200  # the file is on the browser's replica
            assert _status(f"{replica_urls[other]}{media}") == 404  # and only there
        stack.close()  # the browsers leave
        ctrl_c(make, replicas + balancer)
