"""The one table of the app's pages: app.py's navigation, the home page's list of what each page
demonstrates, and the browser test all read it. Adding a page is one row here plus one module in
each layer (``pages/<key>.py``, ``rlviz/experiments/<key>.py``, ``rlviz/plots/<key>.py``,
``rlviz/locale/<key>.py``); see CONTRIBUTING.md.

No Streamlit here: titles and claim texts are locale keys (``nav.<key>``, ``home.<key>_claims``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["PAGES", "PATH", "SECTIONS", "PageEntry", "app_dir", "page", "path_position"]


def app_dir() -> Path:
    """The folder of the app's files (``app.py``, ``pages/``, ``app_common/``, ``assets/``,
    ``.streamlit/config.toml``), which :attr:`PageEntry.file` is relative to: ``rlviz/_app`` in an
    installed rlviz (setup.py copies them into the wheel there), else the repository root of a clone,
    beside ``rlviz/`` (``make run``). Never raises: whether ``app.py`` is there is the caller's check
    (``rlviz app`` says so)."""
    package = Path(__file__).resolve().parent
    installed = package / "_app"
    return installed if (installed / "app.py").is_file() else package.parent


@dataclass(frozen=True)
class PageEntry:
    """One page of the app.

    Attributes:
        key: short name; the title is the locale key ``nav.<key>``, what the page demonstrates is
            ``home.<key>_claims`` (a Markdown list, shown on the home page).
        file: the page script, relative to :func:`app_dir` (the repository root of a clone).
        icon: a Material icon (``:material/name:``), bundled with Streamlit, so it works offline.
        url_path: the page's address (``/curves``); ``""`` for the default page (home).
        section: the sidebar's section it is listed under (:data:`SECTIONS`; title ``nav.section.<key>``).
        claims: numbers of the teaching claims (``shared/teaching.md``) it demonstrates live.
        prefix: the prefix of every widget key on the page (``c_`` -> ``c_algos``, ``c_ppo_epsilon_high``):
            the page's URL parameters (``bind="query-params"``), so a lesson step's settings can be
            checked against it (``rlviz.teach.lessons``); ``""`` for a page without widgets.
    """

    key: str
    file: str
    icon: str
    url_path: str
    claims: tuple[int, ...] = ()
    prefix: str = ""
    section: str = "objectives"

    @property
    def is_home(self) -> bool:
        """True for the default page (served at ``/``)."""
        return self.url_path == ""


PAGES: tuple[PageEntry, ...] = (
    PageEntry("home", "pages/home.py", ":material/account_tree:", "", section="start"),
    PageEntry("step", "pages/step.py", ":material/slow_motion_video:", "step", prefix="st_", section="start"),
    PageEntry(
        "curves",
        "pages/curves.py",
        ":material/show_chart:",
        "curves",
        (1, 2, 10, 13, 14, 17, 24),
        prefix="c_",
        section="objectives",
    ),
    PageEntry(
        "weighting",
        "pages/weighting.py",
        ":material/bar_chart:",
        "weighting",
        (5, 8, 9, 11, 15, 16, 18, 23),
        prefix="wt_",
        section="objectives",
    ),
    PageEntry(
        "length", "pages/length.py", ":material/straighten:", "length", (6, 7), prefix="l_", section="objectives"
    ),
    PageEntry(
        "sampling",
        "pages/sampling.py",
        ":material/filter_alt:",
        "sampling",
        (3, 4, 19),
        prefix="s_",
        section="training",
    ),
    PageEntry(
        "warmstart",
        "pages/warmstart.py",
        ":material/rocket_launch:",
        "warmstart",
        (3, 22),
        prefix="ws_",
        section="training",
    ),
    PageEntry(
        "advantages",
        "pages/advantages.py",
        ":material/balance:",
        "advantages",
        (3, 19),
        prefix="ad_",
        section="objectives",
    ),
    PageEntry("critic", "pages/critic.py", ":material/psychology:", "critic", prefix="cr_", section="training"),
    PageEntry("moe", "pages/moe.py", ":material/hub:", "moe", (12,), prefix="mo_", section="training"),
    PageEntry("mismatch", "pages/mismatch.py", ":material/call_split:", "mismatch", prefix="mm_", section="training"),
    PageEntry(
        "live", "pages/live.py", ":material/bolt:", "live", (3, 11, 20, 21, 22), prefix="lv_", section="training"
    ),
    PageEntry(
        "formula",
        "pages/formula.py",
        ":material/difference:",
        "formula",
        (5, 8, 9, 16, 24),
        prefix="fd_",
        section="objectives",
    ),
    PageEntry(
        "confusions",
        "pages/confusions.py",
        ":material/help:",
        "confusions",
        (1, 5, 8, 19, 20, 23),
        prefix="cf_",
        section="practice",
    ),
    PageEntry("kl", "pages/kl.py", ":material/compare_arrows:", "kl", prefix="kl_", section="objectives"),
    PageEntry("symptoms", "pages/symptoms.py", ":material/stethoscope:", "symptoms", prefix="sy_", section="training"),
    PageEntry("interview", "pages/interview.py", ":material/quiz:", "interview", prefix="iv_", section="practice"),
    PageEntry("lessons", "pages/lessons.py", ":material/school:", "lessons", prefix="ls_", section="practice"),
    PageEntry("gradscale", "pages/gradscale.py", ":material/speed:", "gradscale", prefix="gs_", section="training"),
)


def page(key: str) -> PageEntry:
    """The row of page ``key``. Raises ``ValueError`` naming ``key`` if there is none."""
    for entry in PAGES:
        if entry.key == key:
            return entry
    raise ValueError(f"key: no page {key!r}; pages: {', '.join(p.key for p in PAGES)}")


# The sidebar's sections, in order (titles: locale ``nav.section.<key>``).
SECTIONS: tuple[str, ...] = ("start", "objectives", "training", "practice")

# The newcomer's path: a handful of pages in the order a first visit should take them (the home page's
# "Start here", and each stop's "step k of n" with Previous / Next). Locale ``path.<key>``: one
# sentence each, what the stop shows.
PATH: tuple[str, ...] = (
    "step",
    "curves",
    "advantages",
    "critic",
    "weighting",
    "sampling",
    "warmstart",
    "live",
    "symptoms",
)


def path_position(key: str) -> tuple[int, int] | None:
    """``(k, n)``: page ``key`` is stop ``k`` (from 1) of the ``n`` stops of :data:`PATH`; None off the path."""
    return (PATH.index(key) + 1, len(PATH)) if key in PATH else None
