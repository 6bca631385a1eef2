"""Hostile URLs and the shared-server settings (issue 12, the browser-facing part).

Every page opened with a bad value in each of its URL parameters (non-finite, malformed, repeated,
100 kB, Markdown): no exception, each parameter named in one note at the top of the page, the widget
at its default, the parameter gone from the address bar (app_common.start_url_check /
report_url_params). Markdown from the URL is shown, never rendered (app_common.escape_markdown).
The server's config file, the Makefile's address and the sidebar's model name.
One AppTest run per page (small settings where the page's defaults are slow), one thread.
"""

from __future__ import annotations

import html
import re
import string
import tomllib
from pathlib import Path

import pytest
from apptools import no_exception, open_page, torch_threads
from hypothesis import given, settings
from hypothesis import strategies as hs

from app_common import MAX_URL_VALUE_CHARS, MAX_URL_VALUES, escape_markdown
from app_common.urlstate import _guarded, _value_problem
from rlviz.app_pages import PAGES
from rlviz.i18n import t
from rlviz.teach.lessons import LESSON_PAGE, page_widget_keys

ROOT = Path(__file__).resolve().parent.parent
markdown_it = pytest.importorskip("markdown_it")  # CommonMark parser (a dependency of rich, Streamlit's)
IMAGE = "![x](http://example.invalid/x.png)"  # fetched by the browser if it were rendered
HUGE = "9" * 100_000  # 100 kB: a float of it is inf (an integer widget crashed on it before)
# values no widget here takes (a text box takes "abc" and the Markdown, as text: the library judges them)
BAD = ("inf", "abc", ("2", "1"), "-inf", IMAGE, "1e999", "nan")
TEXT_TAKES = ("abc", IMAGE)
SMALL = {  # valid settings that keep a page's computation small (as its own page test does)
    "moe": {"mo_n": "4", "mo_G": "4", "mo_k": "2"},
    "mismatch": {"mm_n": "2", "mm_G": "2", "mm_k": "1"},
}
WIDGETS = (
    "number_input",
    "slider",
    "select_slider",
    "selectbox",
    "multiselect",
    "checkbox",
    "toggle",
    "radio",
    "button_group",
    "text_input",
    "text_area",
)
TEXT_WIDGETS = ("text_input", "text_area")


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with torch_threads(1):
        yield


def _bound(at) -> dict[str, str]:
    """The page's widgets bound to the URL: parameter -> widget type (``bind="query-params"`` sets the
    proto's ``query_param_key``)."""
    found = {}
    for kind in WIDGETS:
        for el in at.get(kind):
            key = getattr(el.proto, "query_param_key", "")
            if key:
                found[key] = kind
    return found


def _bodies(at) -> list[str]:
    """The Markdown text of every element that renders Markdown."""
    kinds = ("markdown", "caption", "error", "warning", "info", "success", "subheader", "title", "header")
    return [str(el.value) for kind in kinds for el in at.get(kind)]


def _renders_media(text: str) -> bool:
    """Whether CommonMark makes an image, a link or raw HTML of ``text``."""
    for token in markdown_it.MarkdownIt("commonmark").parse(text):
        if token.type in ("html_block", "html_inline"):
            return True
        for child in token.children or ():
            if child.type in ("image", "link_open", "html_inline"):
                return True
    return False


def _note(at) -> str:
    notes = [w.value for w in at.warning if str(w.value).startswith(t("url.ignored", "en", params="|").split("|")[0])]
    notes += [w.value for w in at.warning if str(w.value).startswith(t("url.ignored", "zh", params="|").split("|")[0])]
    assert len(notes) <= 1, notes
    return notes[0] if notes else ""


# ------------------------------------------------------------------------------- pure helpers
ALPHABET = string.printable.replace("\n", "").replace("\r", "") + "中文"


@settings(max_examples=60, deadline=None)
@given(hs.text(alphabet=ALPHABET, max_size=60))
def test_escaped_markdown_makes_nothing_of_any_text(text):
    escaped = escape_markdown(text)
    assert not _renders_media(escaped)
    # no autolink either: Streamlit links a bare URL or e-mail address even with its : . @ escaped
    assert "\n" not in escaped and not re.search(r"(?i)(https?|ftp|mailto)\\?:|www\\?\.|[^\u2060]@|^@", escaped)


@settings(max_examples=60, deadline=None)
@given(hs.text(alphabet=ALPHABET.replace("_", ""), max_size=60))  # _a_ would be italics: kept as typed
def test_escaped_markdown_shows_the_text_as_typed(text):
    rendered = markdown_it.MarkdownIt("commonmark").render(escape_markdown(text))
    plain = html.unescape(re.sub(r"<[^>]+>", "", rendered)).replace("\u2060", "")  # the joiner is invisible
    assert " ".join(plain.split()) == " ".join(text.split())  # the same text, spaces aside


@pytest.mark.parametrize(
    "text, shown",
    [
        (IMAGE, "\\![x]\\(http\u2060://example.invalid/x.png)"),
        ("[link](http://example.invalid)", "\\[link]\\(http\u2060://example.invalid)"),
        ("<img src=http://example.invalid/x.png>", "\\<img src=http\u2060://example.invalid/x.png>"),
        ("# big", r"\# big"),
        ("a :red[x] :blue-badge[y]", r"a :red\[x] :blue-badge\[y]"),
        ("$x^2$ `code` **b** ~s~", r"\$x^2\$ \`code\` \*\*b\*\* \~s\~"),
        ("see www.example.invalid or a@example.invalid", "see www\u2060.example.invalid or a\u2060@example.invalid"),
        ("two\nlines", "two lines"),
        # a library message reads as written: names, intervals, comparisons
        (
            "epsilon_high: must be in [0, max_length=3], got 4 < 5",
            "epsilon_high: must be in [0, max_length=3], got 4 < 5",
        ),
    ],
)
def test_escaped_markdown_makes_no_image_link_html_or_formula(text, shown):
    assert escape_markdown(text) == shown
    assert not _renders_media(shown)


def test_values_no_widget_takes():
    assert _value_problem(["3"]) is None and _value_problem(["abc"]) is None and _value_problem(["1", "2"]) is None
    for bad in ("inf", "-inf", "nan", "Infinity", "1e999", HUGE[:400]):  # float("9" * 400) is inf
        assert _value_problem([bad]) == "invalid", bad
    assert _value_problem(["1", "inf"]) == "invalid"
    assert _value_problem(["x" * (MAX_URL_VALUE_CHARS + 1)]) == "too_long"
    assert _value_problem(["1"] * (MAX_URL_VALUES + 1)) == "too_long"


def test_checked_parameters_come_from_the_page_table():
    assert _guarded("seed") and _guarded("device")
    for p in PAGES:
        if p.prefix:
            assert _guarded(p.prefix + "x"), p.key
    assert not _guarded("lesson") and not _guarded("zz_unknown")
    assert not _guarded("c_![x](http://example.invalid/x.png)")  # never a widget key: never named in a note


def test_pages_stop_through_app_common():
    # app_common.stop() shows the URL note first; st.stop() would leave nothing able to draw it
    for path in sorted((ROOT / "pages").glob("*.py")):
        assert not re.search(r"\bst\.stop\(", path.read_text(encoding="utf-8")), path.name


# ------------------------------------------------------------------------------- the URL fuzz
@pytest.mark.parametrize("index", range(len(PAGES)), ids=[p.key for p in PAGES])
def test_every_page_takes_bad_url_values_with_a_note(index):
    entry = PAGES[index]
    lang = ("en", "zh")[index % 2]
    keys = page_widget_keys(entry.key) if entry.prefix and entry.key != LESSON_PAGE else ()
    keys = [k for k in keys if k not in SMALL.get(entry.key, {})]
    query: dict[str, str | list[str]] = {}
    for j, key in enumerate(("seed", "device", *keys)):
        bad = BAD[(index + j) % len(BAD)]
        query[key] = list(bad) if isinstance(bad, tuple) else bad
    query[keys[0] if keys else "device"] = HUGE  # one per page: Streamlit drops a query string over 512 kB
    at = open_page(entry.file, lang=lang, **SMALL.get(entry.key, {}), **query)
    assert not at.exception, [e.message for e in at.exception]
    bound = _bound(at) | {"seed": "number_input", "device": "selectbox"}  # the sidebar: first run's tree only

    def expected(key: str) -> bool:
        if key not in bound:
            return False  # a key in the script that is not a bound widget here (a button, a conditional one)
        value = query[key]
        return bound[key] not in TEXT_WIDGETS or (isinstance(value, str) and value not in TEXT_TAKES)

    note = _note(at)
    named = set(re.findall(r"`([^`]+)`", note))
    missing = {k for k in query if expected(k)} - named
    assert not missing, (missing, note)
    assert note.startswith(t("url.ignored", lang, params="|").split("|")[0])  # in the page's language
    assert named <= set(query) | {"lang"}
    assert not named & set(at.query_params), at.query_params  # gone from the address bar
    assert at.session_state["seed"] == 0 and at.session_state["device"] == "auto"
    for body in _bodies(at):
        assert not _renders_media(body) or IMAGE not in body, body  # the app ships no image; the URL's is text


# ------------------------------------------------------------------ single cases, read exactly
def test_integer_widget_given_inf_falls_back_with_a_note():
    at = open_page("pages/formula.py", seed="inf", fd_tok="1e999")  # OverflowError in Streamlit before
    no_exception(at)
    assert at.session_state["seed"] == 0
    assert "`seed`" in _note(at) and "`fd_tok`" in _note(at)


def test_repeated_value_falls_back_to_the_default_after_one_rerun():
    # Streamlit alone takes the last value (2): the widget is reset to its default, the URL cleaned
    at = open_page("pages/kl.py", seed=["1", "2"], kl_shift="0.35", lang="zh")
    no_exception(at)
    assert at.session_state["seed"] == 0 and at.session_state["kl_shift"] == pytest.approx(0.35)
    assert "seed" not in at.query_params and at.query_params["kl_shift"] == "0.35"  # a valid value stays
    assert _note(at) == t("url.ignored", "zh", params=t("url.repeated", "zh", param="seed"))


def test_parameters_read_by_hand_get_the_note_too():
    # the language (app.py) and the interview's mode (seed_choice_from_url) are not bound widgets
    at = open_page("pages/interview.py", lang="fr", iv_mode="zzz")
    no_exception(at)
    assert at.session_state["lang"] == "en" and at.session_state["iv_mode"] == "practice"
    assert {"lang", "iv_mode"} <= set(re.findall(r"`([^`]+)`", _note(at)))


def test_markdown_in_a_url_value_is_shown_never_rendered():
    # a text box takes the value; the library's message quotes it, escaped
    at = open_page("pages/advantages.py", ad_r=IMAGE)
    assert not at.exception
    assert at.error and all(not _renders_media(str(e.value)) for e in at.error)
    assert "http\u2060://example.invalid/x.png" in at.error[0].value  # the text is there, shown as typed
    assert not any(_renders_media(b) and "example.invalid" in b for b in _bodies(at))


def test_valid_url_values_are_kept_without_a_note():
    # one value of each widget kind, each a value the page offers: taken as given, no note
    query = {
        "seed": "7",
        "device": "cpu",  # selectbox (the URL holds the label)
        "cf_mb_k": "3",  # number_input
        "cf_mu": "3",  # slider (int)
        "cf_p": "0.5",  # slider (float)
        "cf_lr": "0.001",  # select_slider
        "cf_dual": "false",  # toggle
        "cf_dtype": "float16",  # radio
        "cf_mb_len": "5, 6",  # text_input
    }
    at = open_page("pages/confusions.py", **query)
    assert not at.exception
    assert _note(at) == ""
    state = at.session_state
    assert (state["seed"], state["cf_mb_k"], state["cf_mu"], state["cf_dual"], state["cf_mb_len"]) == (
        7,
        3,
        3,
        False,
        "5, 6",
    )
    assert state["cf_p"] == pytest.approx(0.5) and state["cf_lr"] == pytest.approx(1e-3)
    assert state["device"] == "cpu" and state["cf_dtype"] == "float16"


# ------------------------------------------------------------------------------- server settings
def test_config_keeps_protection_on_and_details_off():
    from streamlit.config import ShowErrorDetailsConfigOptions

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    server, client, browser = config["server"], config["client"], config["browser"]
    assert server["enableXsrfProtection"] is True and server["enableCORS"] is True
    assert server["maxUploadSize"] == 0  # MB: the smallest Streamlit takes; the app has no upload
    assert server["address"] == "127.0.0.1"  # a LAN address only on purpose (README)
    # "none": the browser gets a generic message, no type, no text, no traceback (those go to the log)
    assert client["showErrorDetails"] == ShowErrorDetailsConfigOptions.NONE.value
    assert browser["gatherUsageStats"] is False
    assert "cookieSecret" not in server  # never in the repository (README: one secret per class, set at start)


def _duplication_warnings(disabled: bool) -> list[str]:
    """Press Run on the live page with Streamlit's widget-state duplication warning switched off
    (``disabled``) or on; the warnings it logged."""
    import logging

    from streamlit import config as st_config
    from streamlit.elements.lib import policies

    at = open_page("pages/live.py", lv_steps=1, lv_prompts=2, lv_G=2, lv_heldout=0)
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append
    logger = logging.getLogger(policies.__name__)
    logger.addHandler(handler)
    saved = st_config.get_option("global.disableWidgetStateDuplicationWarning")
    st_config.set_option("global.disableWidgetStateDuplicationWarning", disabled)
    policies._shown_default_value_warning = False  # Streamlit warns once per process
    try:
        at.button(key="lv_run").click().run()
    finally:
        st_config.set_option("global.disableWidgetStateDuplicationWarning", saved)
        logger.removeHandler(handler)
    return [r.getMessage() for r in records if "default value" in r.getMessage()]


def test_the_run_callbacks_write_back_is_not_logged_as_a_duplication():
    # app_common.run_controls' Run callback writes the settings widgets' values back on purpose;
    # Streamlit logged that once per process as a 30-line warning with a stack (seen in a server log)
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    off = config["global"]["disableWidgetStateDuplicationWarning"]
    assert off is True
    assert _duplication_warnings(disabled=False)  # the warning the setting silences
    assert not _duplication_warnings(disabled=off)


def test_no_full_collection_after_every_script_run_but_the_trimmer_collects_cycles():
    # Streamlit's postScriptGC scans every object after each rerun (0.37 s with torch loaded, most of
    # a slider change); off, a cycle a session leaves is collected by the server's trimmer instead
    import gc
    import weakref

    from rlviz.serving import trim_memory

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["runner"]["postScriptGC"] is False

    class Node:
        pass

    a, b = Node(), Node()
    a.other, b.other = b, a  # a cycle: reference counting alone never frees it
    gone = weakref.ref(a)
    was_enabled = gc.isenabled()
    gc.disable()  # no automatic collection in between
    try:
        del a, b
        assert gone() is not None
        trim_memory()
        assert gone() is None
    finally:
        if was_enabled:
            gc.enable()


def test_no_page_takes_a_file():
    sources = [ROOT / "app.py", *sorted((ROOT / "app_common").glob("*.py")), *sorted((ROOT / "pages").glob("*.py"))]
    for path in sources:
        text = path.read_text(encoding="utf-8")
        for call in ("file_uploader", "camera_input", "audio_input", "accept_file"):
            assert call not in text, f"{path.name}: {call}"


def test_make_run_listens_on_localhost_unless_asked():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^ADDRESS \?= 127\.0\.0\.1$", makefile, re.M)
    run = re.search(r"^run:.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    assert "--server.address $(ADDRESS)" in run


def test_sidebar_names_the_model_directory_without_its_path(monkeypatch, tmp_path):
    model_dir = tmp_path / "private" / "qwen-tiny"
    monkeypatch.setenv("RLVIZ_MODEL_DIR", str(model_dir))
    at = open_page("pages/home.py")
    no_exception(at)
    captions = [c.value for c in at.sidebar.caption]
    assert any("qwen\\-tiny" in c or "qwen-tiny" in c for c in captions), captions
    assert not any(str(tmp_path) in c or "private" in c for c in captions), captions
