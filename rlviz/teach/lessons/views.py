"""The lessons page's tables and words in a language (the page draws them; no Streamlit here): a lesson's
steps as the page shows them, a step's settings as typed, the worksheet's bilingual words and the builder's
field labels."""

from __future__ import annotations

import pandas as pd

from rlviz.app_pages import PAGES
from rlviz.i18n import LANGS, t
from rlviz.plots.lessons import WORKSHEET_LABELS
from rlviz.teach.lessons import Lesson, LessonStep, steps_frame

__all__ = ["builder_fields", "settings_text", "steps_table", "worksheet_labels"]


def builder_fields(lang: str) -> dict[str, str]:
    """The library parameter a builder error names -> the widget that sets it, in ``lang``."""
    return {
        "id": t("lessons.id", lang),
        "title": f"{t('lessons.title_en', lang)} / {t('lessons.title_zh', lang)}",
        "page": t("lessons.step_page", lang),
        "settings": t("lessons.step_settings", lang),
        "visible": t("lessons.step_visible", lang),
        "prediction": t("lessons.step_prediction", lang),
        "note": f"{t('lessons.note_en', lang)} / {t('lessons.note_zh', lang)}",
    }


def worksheet_labels() -> dict[str, dict[str, str]]:
    """The worksheet's words in both languages (it is bilingual whatever the session's language): each name
    of ``WORKSHEET_LABELS`` and ``page.<key>`` (each page's title) -> ``{lang: text}``."""
    words = {name: {code: t(f"lessons.ws.{name}", code) for code in LANGS} for name in WORKSHEET_LABELS}
    return words | {f"page.{p.key}": {code: t(f"nav.{p.key}", code) for code in LANGS} for p in PAGES}


def steps_table(lesson: Lesson, lang: str) -> pd.DataFrame:
    """``steps_frame`` of ``lesson`` as the page shows it: a step that shows every control says so, the
    columns named in ``lang``."""
    frame = steps_frame(lesson, lang)
    all_controls = t("lessons.all_controls", lang)
    frame["visible"] = frame["visible"].where([s.visible is not None for s in lesson.steps], all_controls)
    return frame.rename(columns={c: t(f"lessons.col.{c}", lang) for c in frame.columns})


def settings_text(step: LessonStep) -> str:
    """A step's settings as typed (``key=value`` joined by " · ", a list's values by "|"); the page shows it
    escaped, never rendered (a lesson comes from a URL)."""
    return " · ".join(f"{k}={'|'.join(v) if isinstance(v, tuple) else v}" for k, v in step.settings.items())
