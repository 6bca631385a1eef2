"""Words on the page: the session's language, translated strings, numbers as text, formulas, and Markdown
that shows what was typed without rendering it."""

from __future__ import annotations

import re

import streamlit as st

from rlviz.i18n import DEFAULT_LANG, LANGS, cell, latex_text, num, pct, t  # noqa: F401 (num, pct, cell: re-exported)


def formula(latex: str, small: bool = False) -> None:
    """``st.latex`` with one line per ``,\\quad``-separated part, so long objectives fit a column;
    ``small`` sets it a size smaller (for a narrow column beside a figure). The words of its
    ``\\text{}`` annotations are shown in the session's language (:func:`rlviz.i18n.latex_text`)."""
    size = r"\small" if small else ""
    latex = latex_text(latex, lang())
    st.latex(size + r"\begin{gathered}" + latex.replace(r",\quad ", r",\\ ") + r"\end{gathered}")


def lang() -> str:
    """The language of this session ("en" or "zh")."""
    value = st.session_state.get("lang", DEFAULT_LANG)
    return value if value in LANGS else DEFAULT_LANG


def tr(key: str, **fmt: object) -> str:
    """``rlviz.i18n.t`` in the session's language."""
    return t(key, lang(), **fmt)


def _css_string(text: str) -> str:
    """``text`` as a quoted CSS string (for ``content:``)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\A ") + '"'


def labels(prefix: str, *keys: str, **extra: str) -> dict[str, str]:
    """The ``labels`` mapping a figure builder of ``rlviz.plots`` takes: each of ``keys`` -> its text
    ``tr(f"{prefix}.{key}")`` in the session's language, then ``extra`` (texts the page has already
    formatted, e.g. ``sampled=tr("length.sampled", limit=24)``) added over them."""
    return {k: tr(f"{prefix}.{k}") for k in keys} | extra


_MARKDOWN_ESCAPES = re.compile(
    r"(?P<directive>:[A-Za-z\-]{1,20})\["  # Streamlit's :red[...] / :blue-badge[...]: the [ escaped
    r"|[\\`*~$]"  # code, emphasis, strike-through, formulas: anywhere
    r"|!(?=\[)|(?<=\])\("  # an image, a link's target
    r"|<(?=[A-Za-z/!?])|&(?=#?[A-Za-z0-9]+;)"  # an HTML tag, comment or autolink; an HTML entity
    # a bare URL or e-mail address: Streamlit links it even with the : . @ backslash-escaped
    r"|(?P<autolink>(?i:(?<=https)|(?<=http)|(?<=ftp)|(?<=mailto)):|(?i:(?<=www))\.|@)"
)


WORD_JOINER = "\u2060"  # an invisible character that breaks an autolink (escape_markdown)


_MARKDOWN_LINE_START = re.compile(r"^(\s*\d{0,9})((?<=\d)[.)]|(?<!\d)[#>+\-=|\[])")  # a heading, quote, list


def escape_markdown(text: object) -> str:
    r"""``text`` (e.g. an error message quoting what was typed or put in the URL) as Markdown on one
    line that shows it as typed and makes nothing of it: no image (so no URL in it is fetched), link,
    autolink, HTML tag or entity, formula (``$``), Streamlit colour or badge (``:red[...]``), code,
    bold or strike-through, heading, list or quote. Only the characters that would start one get a
    backslash (CommonMark: any ASCII punctuation may be escaped): ``\ ` * ~ $`` anywhere, ``!``
    before ``[``, ``(`` after ``]``, ``[`` after ``:name``, ``<`` before a tag, ``&`` before an
    entity, a block marker at the start; the ``:`` or ``.`` of ``http:`` / ``www.`` and every ``@``
    get an invisible word joiner (U+2060) before them instead, since Streamlit's renderer turns a
    bare URL or e-mail address into a link whatever is escaped in it (checked in chromium); each run
    of white space (line breaks, tabs) becomes one space. The rest stays as typed, so a library message
    reads the same in the Markdown source (``epsilon_high: must be in [0, 1], got 2``); ``_a_``
    between spaces would show in italics, and nothing else."""
    one_line = " ".join(str(text).split())  # no line break, no indented code block

    def escape(m: re.Match) -> str:
        if m.group("directive"):
            return m.group("directive") + "\\["
        return (WORD_JOINER if m.group("autolink") else "\\") + m.group(0)

    escaped = _MARKDOWN_ESCAPES.sub(escape, one_line)
    return _MARKDOWN_LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2), escaped)
