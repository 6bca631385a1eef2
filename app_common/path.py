"""The newcomer's path (``rlviz.app_pages.PATH``) on a page: where it stands (stop k of n) and the way to
the stops before and after it, on one line under the title."""

from __future__ import annotations

import streamlit as st

from app_common.text import tr
from rlviz.app_pages import PATH, page, path_position


def path_marker(key: str) -> None:
    """Under page ``key``'s title, when it is a stop of the path: "Path · stop k of n" with links to the
    previous and the next stop (none before the first or after the last). Nothing on other pages."""
    where = path_position(key)
    if where is None:
        return
    k, n = where
    row = st.container(horizontal=True, vertical_alignment="center", key="path_marker", gap="small")
    row.caption(tr("path.marker", k=k, n=n))
    # few words (they stand above the page's figure): the previous stop's name in its hover help only
    if k > 1:
        before = page(PATH[k - 2])
        title = tr(f"nav.{before.key}")
        row.page_link(before.file, label=tr("path.prev"), help=title, icon=":material/arrow_back:")
    if k < n:
        after = page(PATH[k])
        row.page_link(after.file, label=tr("path.next", title=tr(f"nav.{after.key}")), icon=":material/arrow_forward:")
