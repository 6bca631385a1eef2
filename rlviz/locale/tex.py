"""The words inside formulas (keys ``tex.*``), English and 简体中文.

The registries (``rlviz.core.objectives``, ``rlviz.core.estimators``, ``rlviz.core.kl``) and the pages
write their LaTeX in English; :func:`rlviz.i18n.latex_text` replaces the words of a ``\\text{...}``
annotation whose English text is one of these by the text in the language shown (the spaces and
``,:;`` around the words stay as written). A symbol's name in ``\\text{}`` (``\\pi_\\text{old}``,
``\\varepsilon_\\text{low}``, ``\\text{KL}``, ``\\text{top-}k\\ \\text{cov}``) is notation and is not here.
A new annotation in a registry formula needs its entry: tests/test_i18n.py reads every registry's
formulas. Merged into :data:`rlviz.i18n.STRINGS`; the same completeness rules apply.
"""

STRINGS: dict[str, dict[str, str]] = {
    # PPO (rlviz.core.objectives) and the curves page's case list
    "tex.dual_clip": {"en": "dual clip", "zh": "双裁剪"},
    "tex.dual": {"en": "dual", "zh": "双裁剪"},
    # cases of a piecewise formula
    "tex.otherwise": {"en": "otherwise", "zh": "其他情况"},
    "tex.else": {"en": "else", "zh": "其他情况"},
    # the trust-region gates (DPPO's TV / binary-KL masks)
    "tex.in_region": {"en": "in region", "zh": "在信任域内"},
    "tex.region": {"en": "region", "zh": "信任域"},
    "tex.moving_against": {"en": "or moving against", "zh": "或逆着"},
    # Clip-Cov: the tokens whose covariance falls in (lb, ub)
    "tex.for_a_few": {"en": "for a few", "zh": "对少数"},
    "tex.with": {"en": "with", "zh": "满足"},
    # the second-moment mask (M2PO)
    "tex.drop_largest": {"en": "drop the largest", "zh": "逐个去掉最大的"},
    "tex.where": {"en": "where", "zh": "限于"},
    "tex.until": {"en": "until", "zh": "直到"},
    # ReMax's baseline: the reward of the prompt's greedy (argmax) response
    "tex.greedy_decoding": {"en": "greedy decoding", "zh": "贪心解码"},
    # the straight-through KL estimators (rlviz.core.kl): value of one, gradient of another
    "tex.value": {"en": "(value)", "zh": "（值）"},
    "tex.gradient": {"en": "(gradient)", "zh": "（梯度）"},
}
