"""Teaching components without Streamlit: predictions the app asks, with answers computed by ``rlviz``."""
