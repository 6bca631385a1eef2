"""The Streamlit-bound support of one page each: ``app_common.parts.<page>`` holds what a page needs that is
neither its widgets and layout (those stay in ``pages/<page>.py``) nor free of Streamlit (that goes to the
page's library modules, ``rlviz.experiments.<page>``, ``rlviz.plots.<page>``, ``rlviz.teach``): its
``st.cache_data`` wrappers and figure caches, small widget helpers its sections share, the parsing of its
fields that shows a message. A helper two or more pages use belongs to the ``app_common`` module of its
concern (runpage, charts, predictions, ...), not here.
"""
