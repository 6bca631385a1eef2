"""Strings of the Length penalties page (keys ``length.*``), English and 简体中文.

Merged into :data:`rlviz.i18n.STRINGS`; the same completeness rules apply (tests/test_i18n.py).
"""

STRINGS: dict[str, dict[str, str]] = {
    "length.title": {"en": "TODO", "zh": "TODO"},
}
