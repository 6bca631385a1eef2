"""Per-page parts of the string table (one module per page, keys prefixed by the page name).

:mod:`rlviz.i18n` merges them into one table and refuses a key defined twice.
"""
