"""What the lessons page draws besides Streamlit widgets (no Streamlit here): a lesson's printable
bilingual worksheet and answer key as one HTML document, and the CSS of the presenter view.

A lesson is a list of views, not data over an axis, so there is no plotly figure here: the step
overview is a table (``rlviz.teach.lessons.steps_frame``) shown with ``st.dataframe``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence

from rlviz.i18n import LANGS
from rlviz.plots import OKABE_ITO

__all__ = ["INPUT_TEST_IDS", "css_class", "presenter_css", "worksheet_html"]

# Streamlit's data-testid of an input widget's element (a toggle is a stCheckbox, a select slider a stSlider)
INPUT_TEST_IDS = (
    "stSlider",
    "stMultiSelect",
    "stSelectbox",
    "stNumberInput",
    "stTextInput",
    "stTextArea",
    "stCheckbox",
    "stRadio",
    "stButtonGroup",
    "stDateInput",
    "stTimeInput",
    "stColorPicker",
)
HIGHLIGHT = OKABE_ITO["orange"]
BAR_KEY = "ls_bar"  # the presenter bar's container key (app_common.present_lesson)


def css_class(key: str) -> str:
    """The CSS class Streamlit gives the element of widget or container ``key``: ``st-key-`` and the
    key with every character but ``a-z A-Z 0-9 _ -`` replaced by ``-`` (``lv_grpo.lr`` -> ``st-key-lv_grpo-lr``)."""
    return "st-key-" + re.sub(r"[^a-zA-Z0-9_-]", "-", key.strip())


ANSWERS_PREFIX = "answers_"  # a page's element keyed answers_<name> states an answer in words (hidden_answers_css)


def hidden_answers_css() -> str:
    """The style sheet that takes out of a presenter's page, while the class has not committed an answer,
    the elements keyed ``answers_<name>`` (a sentence or a block that states the answer in words), with
    ``display:none``: they take no space and leave no gap. A ``<style>`` element.

    Only those: the page itself holds back what else would give the answer away (a figure's value
    labels, a table: ``app_common.predictions.answers_held``), and its figures stay in view."""
    answers = f'[class*="st-key-{ANSWERS_PREFIX}"]'
    return f"<style>[data-testid=stMain] :is({_taken_out(answers)}){{display:none!important}}</style>"


PATH_MARKER_KEY = "path_marker"  # the newcomer's path under a page's title (app_common.path): not a lesson's
# what keeps a holder of hidden questions in view: a figure, a table, an image
KEPT = ("stPlotlyChart", "stDataFrame", "stTable", "stImage")
# the keyed elements of a page that are not input widgets: never hidden with the controls
NOT_INPUTS = ("stButton", "stDownloadButton", "stFormSubmitButton", "stPlotlyChart", "stDataFrame", "stTable")
_WRAPPER = "[data-testid=stLayoutWrapper]"  # Streamlit's wrapper around a block: left empty, it still adds a gap


def _taken_out(selector: str) -> str:
    """``selector`` and the layout wrapper Streamlit puts around it."""
    return f"{selector},{_WRAPPER}:has(> {selector})"


def _left_empty(gone: str, kept: str) -> str:
    """The holders (a column; a row of columns, a container or an expander, with its layout wrapper) that
    hold something ``gone`` matches and nothing ``kept`` matches: all they show is hidden."""
    out = [f"[data-testid=stColumn]:has({gone}):not(:has({kept}))"]
    for tid in ("stHorizontalBlock", "stVerticalBlock", "stExpander"):
        block = f"[data-testid={tid}]"
        out.append(f"{_WRAPPER}:has(> {block} {gone}):not(:has(> {block} {kept}))")
    return ",".join(out)


def presenter_css(
    prefix: str,
    visible: Iterable[str] | None,
    hide_predictions: Iterable[str] = (),
    highlight: str | None = None,
    max_width_px: int = 1024,
    font_px: int = 20,
) -> str:
    """The presenter view's style sheet (a ``<style>`` element).

    Large type (``font_px`` on the root, so every rem-sized text grows), no sidebar and no sidebar
    toggle, no newcomer's path under the title (its Previous / Next are not the lesson's), the main
    column at most ``max_width_px`` wide (a 1024 px projector), the input widgets of the page whose
    key starts with ``prefix`` hidden unless ``visible`` names them (``None``: all shown), the
    predictions ``hide_predictions`` (``Prediction.key``; their containers ``pred_<key>``) hidden and
    ``highlight``'s outlined. ``highlight``'s question is drawn at the top of the page
    (``app_common.predictions.predict``), which leaves an empty ``pred_moved_<key>`` where the page
    would have drawn it.

    Everything hidden is taken out with ``display:none``, and so is what would be left empty by it: a
    column, row, container or expander that holds only hidden controls; a question's column and an
    expander of questions that hold only hidden or moved questions (unless a figure or a table is in
    it); an expander with nothing in it (the page drew nothing in place of an answer it holds back:
    ``app_common.predictions.held_note``). So nothing hidden keeps a height or leaves a gap. The
    presenter bar (``ls_bar``) and the language switch in it are never hidden: they are not page widgets.
    """
    rules = [
        f"html{{font-size:{int(font_px)}px}}",
        "[data-testid=stSidebar],[data-testid=stSidebarCollapsedControl],[data-testid=stExpandSidebarButton],"
        "[data-testid=stSidebarCollapseButton]{display:none!important}",
        f"[data-testid=stMainBlockContainer]{{max-width:{int(max_width_px)}px;padding-left:1.5rem;"
        "padding-right:1.5rem;padding-top:3.5rem}",
        f".{css_class(BAR_KEY)}{{background:#fff8e8;border-left:6px solid {HIGHLIGHT};border-radius:.5rem;"
        "padding:.75rem 1rem}",
        _taken_out(f".{css_class(PATH_MARKER_KEY)}") + "{display:none!important}",
    ]
    empty = "[data-testid=stExpanderDetails]>[data-testid=stVerticalBlock]:empty"
    rules.append(f"[data-testid=stExpander]:has({empty}),{_WRAPPER}:has(> [data-testid=stExpander] {empty})")
    rules[-1] += "{display:none!important}"
    if visible is not None and prefix:
        inputs = ",".join(f"[data-testid={tid}]" for tid in INPUT_TEST_IDS)
        keep = "".join(f":not(.{css_class(k)})" for k in visible)
        element = "[data-testid=stElementContainer]"
        mine = f'{element}[class*="st-key-{prefix}"]'
        rules.append(f"{mine}:has({inputs}){keep}{{display:none!important}}")
        # what only hidden controls are in: every element in it is a control of the page not listed
        others = [f'{element}:not([class*="st-key-{prefix}"])', *(f"{element}.{css_class(k)}" for k in visible)]
        others += [f"[data-testid={tid}]" for tid in NOT_INPUTS]
        rules.append(_left_empty(mine, ":is(" + ",".join(others) + ")") + "{display:none!important}")
    gone = [css_class(f"pred_{key}") for key in hide_predictions]
    if highlight:
        gone.append(css_class(f"pred_moved_{highlight}"))
    if gone:
        any_gone = ":is(" + ",".join(f".{c}" for c in gone) + ")"
        shown = '[class*="st-key-pred_"]' + "".join(f":not(.{c})" for c in gone)
        kept = ":is(" + ",".join([shown, *(f"[data-testid={tid}]" for tid in KEPT)]) + ")"
        rules.append(",".join(_taken_out(f".{c}") for c in gone) + "{display:none!important}")
        # a column whose own content (not a nested block's) is a hidden or moved question
        block = "[data-testid=stVerticalBlock]"
        rules.append(
            f"[data-testid=stColumn]:has(> {block} > {any_gone},> {block} > * > {any_gone}):not(:has({kept}))"
            "{display:none!important}"
        )
        # an expander of questions (the pages' "Predict, then check") left with none in view
        where = "[data-testid=stExpander]"
        rules.append(
            f"{where}:has({any_gone}):not(:has({kept})),"
            f"{_WRAPPER}:has(> {where} {any_gone}):not(:has(> {where} {kept}))"
            "{display:none!important}"
        )
    if highlight:
        cls = css_class(f"pred_{highlight}")
        rules.append(f".{cls}{{outline:4px solid {HIGHLIGHT};outline-offset:.5rem;border-radius:.25rem}}")
    return "<style>" + "".join(rules) + "</style>"


# ---------------------------------------------------------------------------------------- worksheet

_SHEET_CSS = """
@page { size: A4; margin: 16mm 16mm 18mm 16mm; }
body { font-family: "Noto Sans", "Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei",
  "Helvetica Neue", Arial, sans-serif; color: #111; line-height: 1.5; max-width: 48rem; margin: 2rem auto;
  padding: 0 1rem; font-size: 11.5pt; }
h1 { font-size: 18pt; margin: 0 0 .2rem 0; }
h1 .zh, h2 .zh { display: block; font-weight: 600; }
.meta { color: #444; margin-bottom: 1rem; }
.who { display: flex; gap: 2rem; margin: 1rem 0 1.5rem 0; }
.who span { flex: 1; border-bottom: 1px solid #555; padding-bottom: .2rem; }
.intro { margin-bottom: 1.2rem; }
.q { break-inside: avoid; page-break-inside: avoid; border-top: 1px solid #bbb; padding: .8rem 0 .4rem 0; }
.q h2 { font-size: 12.5pt; margin: 0 0 .4rem 0; }
.q .where { color: #555; font-size: 10pt; font-weight: normal; }
.q p { margin: .25rem 0; }
.q p.zh { color: #222; }
ul.choices { list-style: none; padding-left: .5rem; margin: .4rem 0; }
ul.choices li::before { content: "\\2610\\00a0\\00a0"; }
.line { border-bottom: 1px solid #888; height: 2.1em; }
.answer { margin-top: .4rem; padding: .4rem .6rem; background: #f3f3f3; border-left: 4px solid #E69F00; }
.note { margin-top: .4rem; color: #333; font-size: 10.5pt; }
.footer { margin-top: 1.5rem; color: #666; font-size: 9pt; }
@media print { body { margin: 0; max-width: none; } .answer { background: none; } }
"""


def _both(labels: Mapping[str, Mapping[str, str]], key: str) -> str:
    """``labels[key]`` in every language, joined by " / "."""
    return " / ".join(html.escape(labels[key][lang]) for lang in LANGS)


WORKSHEET_LABELS = (
    "sheet",
    "key",
    "name",
    "date",
    "intro",
    "intro_key",
    "question",
    "step",
    "answer",
    "note",
    "none",
    "footer",
)
"""The text names ``worksheet_html`` reads from its ``labels`` (besides ``page.<page key>``)."""


def worksheet_html(
    title: Mapping[str, str],
    questions: Sequence,
    labels: Mapping[str, Mapping[str, str]],
    answers: bool,
) -> str:
    """A lesson's worksheet (``answers=False``: every question in each language with blank answer lines)
    or its answer key (``answers=True``: each answer as the app computes it, the explanation and the
    teacher's note), as one self-contained, print-ready HTML document (A4, no scripts, nothing fetched).

    ``questions``: ``rlviz.teach.lessons.worksheet(lesson)``. ``labels``: text name -> language ->
    text, for each name in ``WORKSHEET_LABELS`` and ``page.<page key>`` (each page's title).
    """
    langs = list(LANGS)
    kind = "key" if answers else "sheet"
    head = " · ".join(html.escape(labels[kind][lang]) for lang in langs)
    doc_title = " / ".join(html.escape(title[lang]) for lang in langs)
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{langs[0]}"><head><meta charset="utf-8">',
        f"<title>{doc_title} — {head}</title><style>{_SHEET_CSS}</style></head><body>",
        "<h1>" + "".join(f'<span class="{lang}">{html.escape(title[lang])}</span>' for lang in langs) + "</h1>",
        f'<div class="meta">{head}</div>',
    ]
    if not answers:
        parts.append(
            '<div class="who">'
            + "".join(
                f"<span>{' / '.join(html.escape(labels[name][lang]) for lang in langs)}:</span>"
                for name in ("name", "date")
            )
            + "</div>"
        )
    intro = "intro_key" if answers else "intro"
    parts.append(
        '<div class="intro">' + "".join(f"<p>{html.escape(labels[intro][lang])}</p>" for lang in langs) + "</div>"
    )
    if not questions:
        parts.append("<p>" + " / ".join(html.escape(labels["none"][lang]) for lang in langs) + "</p>")
    for q in questions:
        where = " · ".join(
            f"{html.escape(labels['step'][lang])} {q.step}: {html.escape(labels[f'page.{q.page}'][lang])}"
            for lang in langs
        )
        number = " / ".join(f"{html.escape(labels['question'][lang])} {q.number}" for lang in langs)
        block = [f'<section class="q"><h2>{number} <span class="where">({where})</span></h2>']
        block += [f'<p class="{lang}" lang="{lang}">{html.escape(q.text[lang])}</p>' for lang in langs]
        if q.choices:
            block.append(
                '<ul class="choices">'
                + "".join("<li>" + " / ".join(html.escape(c[lang]) for lang in langs) + "</li>" for c in q.choices)
                + "</ul>"
            )
        if answers:
            shown = " / ".join(dict.fromkeys(html.escape(q.answer_text[lang]) for lang in langs))
            block.append('<div class="answer">')
            block.append(f"<p><strong>{_both(labels, 'answer')}:</strong> {shown}</p>")
            block += [f'<p class="{lang}" lang="{lang}">{html.escape(q.why[lang])}</p>' for lang in langs]
            notes = [lang for lang in langs if q.note[lang].strip()]
            if notes:
                block.append('<div class="note"><strong>' + _both(labels, "note") + ":</strong>")
                block += [f'<p class="{lang}" lang="{lang}">{html.escape(q.note[lang])}</p>' for lang in notes]
                block.append("</div>")
            block.append("</div>")
        else:
            block.append('<div class="line"></div><div class="line"></div><div class="line"></div>')
        block.append("</section>")
        parts.append("".join(block))
    parts.append('<div class="footer">' + " / ".join(html.escape(labels["footer"][lang]) for lang in langs) + "</div>")
    parts.append("</body></html>")
    return "\n".join(parts)
