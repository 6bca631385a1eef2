"""A student's session without a browser: Streamlit's own websocket protocol, spoken as its frontend does.

The load benchmark (``benchmarks/load.py --browsers K``) runs most of a class this way, so that thirty
sessions load one server without thirty chromium tabs drawing on the server's own two cores: each
session here asks the server for exactly what a browser asks (a page by its address, a page from the
sidebar, a slider moved, a button pressed), over the same websocket (``/_stcore/stream``), in the
same protobuf messages (``streamlit.proto``: a ``BackMsg`` carrying a ``ClientState`` with the
page and every widget's value; ``ForwardMsg`` deltas back), and times what the server sends. What it
does not do is draw: its times are the server's part of a browser's (the time until the page's first
chart has arrived, until a rerun has finished), which in a class is the part the students share.

It sends no ``cached_message_hashes``, so the server sends every message in full, as to a browser
that has just opened the page: never less work for the server than a browser causes.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

import websockets
from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

EARLY = ForwardMsg.FINISHED_EARLY_FOR_RERUN  # a script run cut short by a rerun: the next one follows


@dataclass
class Script:
    """What one request brought back: ``first_chart`` (seconds from the request until the first plotly
    chart arrived; None: no chart), ``seconds`` (until the script run finished, after any reruns it
    asked for), ``errors`` (an exception element or an error box: its text), ``successes`` (success
    boxes' texts), ``charts`` (a hash of each plotly chart's spec, in page order), ``nbytes`` (bytes
    received)."""

    first_chart: float | None = None
    seconds: float = 0.0
    errors: list[str] = field(default_factory=list)
    successes: list[str] = field(default_factory=list)
    charts: list[int] = field(default_factory=list)
    nbytes: int = 0


class ProtocolSession:
    """One browser tab's session on the server at ``base`` (``http://host:port``), spoken in
    Streamlit's websocket protocol. ``open(page)`` loads a page by its address (the first time) or
    from the sidebar (later: the same session), ``move_slider`` moves the page's first enabled slider
    like the keyboard's arrow keys, ``press(key)`` clicks the button with widget key ``key``. Each
    waits until the script run is over and returns a :class:`Script`; each raises ``TimeoutError``
    after ``timeout`` seconds and ``RuntimeError`` if the server closes the connection."""

    def __init__(self, base: str, timeout: float = 120.0):
        self.base = base.rstrip("/")
        self.timeout = timeout
        self.ws = None
        self.page: str | None = None
        self.query = ""
        self.pages: dict[str, str] = {}  # url path -> page script hash, from the server's navigation
        self.widgets: dict[str, WidgetState] = {}  # every widget the page holds, as its frontend keeps them
        self.sliders: list = []  # the last script run's sliders (Slider protos), in page order
        self.buttons: dict[str, str] = {}  # widget key -> widget id

    async def connect(self) -> None:
        host = self.base.split("://", 1)[1]
        scheme = "wss" if self.base.startswith("https") else "ws"
        self.ws = await websockets.connect(
            f"{scheme}://{host}/_stcore/stream", subprotocols=["streamlit"], origin=self.base, max_size=None
        )

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            self.ws = None

    async def open(self, page: str, query: str = "") -> Script:
        """Go to ``page`` (its url path, e.g. ``"curves"``) with ``query`` (a URL query string); the
        first time, the websocket's opening counts in the times."""
        t0 = time.perf_counter()
        if self.ws is None:  # a page opened by its address: the connection is part of its time
            await self.connect()
        connecting = time.perf_counter() - t0
        self.page, self.query = page, query
        self.widgets = {}
        out = await self._rerun()
        out.seconds += connecting
        if out.first_chart is not None:
            out.first_chart += connecting
        return out

    async def move_slider(self, steps: int) -> Script | None:
        """Move the page's first enabled one-value numeric slider ``steps`` steps (negative: left),
        held at its ends, as one change (the frontend sends a slider's value once it settles). None
        where the page has no such slider."""
        for s in self.sliders:
            if s.disabled or s.options or len(s.default) != 1:
                continue
            now = self.widgets[s.id].double_array_value.data[0] if s.id in self.widgets else s.default[0]
            # on the slider's grid, as the frontend keeps it (min + k steps), rounded as typed
            k = round((now - s.min) / s.step) + steps
            value = min(s.max, max(s.min, round(s.min + k * s.step, 12)))
            state = WidgetState(id=s.id)
            state.double_array_value.data.append(value)
            self.widgets[s.id] = state
            return await self._rerun()
        return None

    async def press(self, key: str) -> Script:
        """Click the button whose widget key is ``key`` (``KeyError`` if the page has none)."""
        trigger = WidgetState(id=self.buttons[key], trigger_value=True)
        return await self._rerun([trigger])

    async def _rerun(self, extra: list[WidgetState] | None = None) -> Script:
        msg = BackMsg()
        state = msg.rerun_script
        state.query_string = self.query
        state.page_name = self.page
        state.page_script_hash = self.pages.get(self.page, "")
        state.widget_states.widgets.extend(list(self.widgets.values()) + (extra or []))
        t0 = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        out = Script()
        sliders: list = []
        deadline = t0 + self.timeout
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError(f"{self.page}: no end of the script run in {self.timeout:.0f} s")
            try:
                raw = await asyncio.wait_for(self.ws.recv(), left)
            except websockets.ConnectionClosed as exc:
                raise RuntimeError(f"{self.page}: the server closed the connection ({exc})") from exc
            out.nbytes += len(raw)
            fm = ForwardMsg()
            fm.ParseFromString(raw)
            kind = fm.WhichOneof("type")
            if kind == "navigation":
                self.pages = {p.url_pathname: p.page_script_hash for p in fm.navigation.app_pages}
            elif kind == "delta" and fm.delta.WhichOneof("type") == "new_element":
                self._element(fm.delta.new_element, out, sliders, t0)
            elif kind == "script_finished" and fm.script_finished != EARLY:
                out.seconds = time.perf_counter() - t0
                if fm.script_finished != ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY:
                    self.sliders = sliders
                return out

    def _element(self, el, out: Script, sliders: list, t0: float) -> None:
        kind = el.WhichOneof("type")
        if kind == "plotly_chart":
            if out.first_chart is None:
                out.first_chart = time.perf_counter() - t0
            out.charts.append(hash(el.plotly_chart.spec))
        elif kind == "slider":
            sliders.append(el.slider)
        elif kind == "button":
            self.buttons[el.button.id.split("-", 2)[-1]] = el.button.id  # "$$ID-<hash>-<key>"
        elif kind == "exception":
            out.errors.append(f"exception: {el.exception.type}: {el.exception.message[:120]}")
        elif kind == "alert" and el.alert.format == Alert.ERROR:
            out.errors.append(f"error: {el.alert.body[:120]}")
        elif kind == "alert" and el.alert.format == Alert.SUCCESS:
            out.successes.append(el.alert.body)
