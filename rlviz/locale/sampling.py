"""Strings of the Dynamic sampling page (keys ``sampling.*``), English and 简体中文.

Merged into :data:`rlviz.i18n.STRINGS`; the same completeness rules apply (tests/test_i18n.py).
"""

STRINGS: dict[str, dict[str, str]] = {
    "sampling.title": {"en": "TODO", "zh": "TODO"},
}
