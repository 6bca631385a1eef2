"""TODO: the curves page (issue 3)."""

from __future__ import annotations

import streamlit as st

from app_common import ensure_shell, tr

ensure_shell()
st.title(tr("curves.title"))
