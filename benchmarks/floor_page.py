"""The floor of a page's first chart: a bare Streamlit page with a title and one small plotly chart,
served by ``benchmarks/explorer_reruns.py`` beside the app. The time from opening its address to its
chart in the browser is what Streamlit, plotly.js and chromium cost here before any page of the
app adds its own widgets, text and figures."""

import plotly.graph_objects as go
import streamlit as st

st.title("floor")
st.plotly_chart(go.Figure(go.Scatter(x=[0.0, 1.0, 2.0], y=[0.0, 1.0, 0.0])))
