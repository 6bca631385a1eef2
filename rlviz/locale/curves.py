"""Strings of the Objective & gradient weight vs ratio page (keys ``curves.*``), English and 简体中文.

Merged into :data:`rlviz.i18n.STRINGS`; the same completeness rules apply (tests/test_i18n.py).
"""

STRINGS: dict[str, dict[str, str]] = {
    "curves.title": {"en": "TODO", "zh": "TODO"},
}
