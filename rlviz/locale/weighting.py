"""Strings of the Token vs sequence weighting page (keys ``weighting.*``), English and 简体中文.

Merged into :data:`rlviz.i18n.STRINGS`; the same completeness rules apply (tests/test_i18n.py).
"""

STRINGS: dict[str, dict[str, str]] = {
    "weighting.title": {"en": "TODO", "zh": "TODO"},
}
