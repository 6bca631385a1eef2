"""rlviz: an interactive lab for the policy-optimisation objectives used to post-train LLMs with RL."""

__version__ = "0.1.0"
