"""The RL maths of rlviz: pure torch, no I/O, no Streamlit.

Shape legend used in every module here:
    B  responses in a batch (= n_groups * G)
    T  padded response width (tokens)
    G  group size (responses per prompt)
    n  number of groups (prompts)
"""
