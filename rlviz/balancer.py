"""Several app replicas behind one address: the HAProxy configuration that serves a class from them.

A Streamlit session lives in the memory of the replica that opened it: its widget values, its runs,
and the files its download buttons serve (``/media/...``, fetched over plain HTTP after the click).
A load balancer in front of several replicas must therefore keep each browser on one replica
(sticky sessions), pass WebSocket upgrades through, and keep an idle WebSocket open while a student
reads. :func:`haproxy_config` writes such a configuration for HAProxy (https://www.haproxy.org, in
Debian as ``haproxy``): a cookie names the replica (``RLVIZ_REPLICA``), a new browser goes to the
replica with the fewest open connections (each open tab holds one WebSocket), and each replica's
``/_stcore/health`` is checked, so a replica that stops takes no new browsers.

``make run-balanced`` starts the replicas and HAProxy with it (README "Several replicas");
``python -m rlviz.balancer --port 8501 --replica-ports 8502 8503`` prints it. Every replica must
share one cookie secret (``STREAMLIT_SERVER_COOKIE_SECRET``), which this file does not hold.

No Streamlit here.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from collections.abc import Sequence

__all__ = ["COOKIE", "find_haproxy", "haproxy_config"]

COOKIE = "RLVIZ_REPLICA"  # the cookie that keeps a browser on its replica (values r1, r2, ...)


def find_haproxy() -> str | None:
    """The ``haproxy`` program's path: on ``PATH``, or in ``/usr/sbin`` where Debian puts it (off a
    user's ``PATH``); None when it is not installed."""
    return shutil.which("haproxy", path=os.environ.get("PATH", os.defpath) + os.pathsep + "/usr/sbin")


def _port(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 65535:
        raise ValueError(f"{name}: a TCP port from 1 to 65535, got {value!r}")
    return value


def _address(name: str, value: object) -> str:
    if not isinstance(value, str) or not value or any(c.isspace() or c in "\"'#" for c in value):
        raise ValueError(f"{name}: a host name or IP address without spaces, quotes or '#', got {value!r}")
    return value


def haproxy_config(
    replica_ports: Sequence[int],
    port: int = 8501,
    address: str = "127.0.0.1",
    replica_address: str = "127.0.0.1",
    idle_hours: float = 2.0,
) -> str:
    """An HAProxy configuration (text) that serves the replicas listening on ``replica_address`` at
    ``replica_ports`` from ``address``:``port``, with sticky sessions.

    - Sticky: HAProxy sets the cookie :data:`COOKIE` (``r1`` for the first replica, ...) on a
      browser's first response; every later request of that browser (the page, its WebSocket, a
      download's ``/media`` file) goes to the same replica. A browser whose replica is down gets
      another one (its session starts again there).
    - Balanced by open connections (``leastconn``): a student's open tab holds one WebSocket, so a new
      student goes to the replica with the fewest.
    - A WebSocket may stay idle ``idle_hours`` (a tab left open); each replica's
      ``/_stcore/health`` is checked every 5 s.

    Args:
        replica_ports: the replicas' ports, at least one, all different and none equal to ``port``.
        port, address: where the class connects (``0.0.0.0``: every interface).
        replica_address: where the replicas listen (``127.0.0.1`` when they run on this machine).
        idle_hours: how long an idle WebSocket is kept, in hours (above 0, at most 24).

    Returns:
        The configuration, for ``haproxy -f FILE``.

    Raises:
        ValueError: naming the argument: no replica, a port outside 1-65535 or repeated, an address
            that is empty or holds spaces, quotes or '#', ``idle_hours`` not in (0, 24].

    Source: HAProxy 2.6 configuration manual (``cookie ... insert``, ``balance leastconn``,
    ``timeout tunnel``, ``option httpchk``); Streamlit's health endpoint ``/_stcore/health``.
    """
    if isinstance(replica_ports, (str, bytes)) or not isinstance(replica_ports, Sequence) or not replica_ports:
        raise ValueError(f"replica_ports: at least one port, got {replica_ports!r}")
    ports = [_port("replica_ports", p) for p in replica_ports]
    port = _port("port", port)
    if len(set(ports)) != len(ports) or port in ports:
        raise ValueError(f"replica_ports: each port once, none equal to port {port}, got {list(ports)}")
    address, replica_address = _address("address", address), _address("replica_address", replica_address)
    if isinstance(idle_hours, bool) or not isinstance(idle_hours, (int, float)) or not 0 < idle_hours <= 24:
        raise ValueError(f"idle_hours: above 0 and at most 24 hours, got {idle_hours!r}")
    servers = "\n".join(
        f"    server r{k} {replica_address}:{p} check cookie r{k}" for k, p in enumerate(ports, start=1)
    )
    return f"""# rlviz: {len(ports)} Streamlit replicas behind one address, sticky sessions (rlviz.balancer).
global
    maxconn 4096

defaults
    mode http
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    timeout http-request 15s
    # an open WebSocket (a student's tab) may stay quiet this long
    timeout tunnel {round(idle_hours * 60)}m
    option forwardfor

frontend class
    bind {address}:{port}
    default_backend replicas

backend replicas
    # a new browser: the replica with the fewest open connections (a tab holds one WebSocket)
    balance leastconn
    # then always the same replica: the session, its runs and its downloads live there
    cookie {COOKIE} insert indirect nocache httponly attr "SameSite=Lax"
    option redispatch
    option httpchk GET /_stcore/health
    http-check expect status 200
    default-server inter 5s fall 2 rise 1
{servers}
"""


def main(argv: Sequence[str] | None = None, prog: str = "python -m rlviz.balancer") -> int:
    """``python -m rlviz.balancer`` (or ``rlviz balancer``, ``prog``): print :func:`haproxy_config` for the
    given ports. A bad port exits 2 with argparse's message."""
    p = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n")[0])
    p.add_argument("--port", type=int, default=8501, help="where the class connects (8501)")
    p.add_argument("--address", default="127.0.0.1", help="the address HAProxy listens on (127.0.0.1)")
    p.add_argument("--replica-ports", type=int, nargs="+", required=True, help="the replicas' ports")
    p.add_argument("--replica-address", default="127.0.0.1", help="where the replicas listen (127.0.0.1)")
    p.add_argument("--idle-hours", type=float, default=2.0, help="how long an idle tab's WebSocket is kept (2)")
    a = p.parse_args(argv)
    try:
        text = haproxy_config(a.replica_ports, a.port, a.address, a.replica_address, a.idle_hours)
    except ValueError as exc:
        p.error(str(exc))
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
