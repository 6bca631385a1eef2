"""Strings of the Objective & gradient weight vs ratio page (keys ``curves.*``), English and 简体中文.

Merged into :data:`rlviz.i18n.STRINGS`; the same completeness rules apply (tests/test_i18n.py).
Texts that are formatted (``{placeholders}``) contain no LaTeX braces; figure labels contain no
LaTeX at all (Plotly cannot render it): Unicode and ``<sub>`` only.
"""

STRINGS: dict[str, dict[str, str]] = {
    "curves.title": {
        "en": "Objective and gradient weight vs the ratio",
        "zh": "目标与梯度权重随比率变化",
    },
    "curves.lede": {
        "en": "Where does each objective stop pushing a token? Each curve is one algorithm's loss on one token: "
        "objective J on top, gradient weight w below (w = 0: no push).",
        "zh": "梯度在哪个比率归零？上排是目标 J，下排是梯度权重 w。",
    },
    "curves.practitioners": {
        "en": "The papers of the chosen objectives, and the TRL and verl names of each slider (its ⓘ gives its "
        "default's source as well). The export below writes the chosen objectives, at the sliders' values, as "
        "a TRL `GRPOConfig` and as verl overrides.",
        "zh": "所选目标函数的论文，以及每个滑块在 TRL 和 verl 中的名字（滑块的 ⓘ 还给出默认值的出处）。"
        "下面的导出把所选目标函数按滑块当前的取值写成 TRL 的 `GRPOConfig` 和 verl 的覆盖参数。",
    },
    "curves.paper_item": {
        "en": "**{title}** · paper: {paper}, [arXiv:{arxiv}](https://arxiv.org/abs/{arxiv}) ({where}).",
        "zh": "**{title}** · 论文：{paper}，[arXiv:{arxiv}](https://arxiv.org/abs/{arxiv})（{where}）。",
    },
    "curves.setting_item": {"en": "{name}: TRL {trl} · verl {verl}", "zh": "{name}：TRL 中为 {trl} · verl 中为 {verl}"},
    "curves.intro": {
        "en": "Each objective here multiplies the gradient of a sampled token's log-probability, ∇log π, by a "
        "weight that depends on the importance ratio $r = \\pi_\\theta/\\pi_\\text{old}$ and on the advantage A. "
        "This page runs each algorithm's own loss (the code that trains the model on the Live page) on a single "
        "token over a grid of ratios, once with A = +1 and once with A = −1, and differentiates it with autograd. "
        "It plots the **objective J = −loss** (what the update maximises) and the **gradient weight "
        "w = ∂J/∂log π**. If w > 0 the token's probability is pushed up, if w < 0 it is pushed down, and if "
        "w = 0 the token teaches the model nothing. With one-token responses the sequence ratio of GSPO and GMPO "
        "equals the token ratio, so all algorithms share one axis.",
        "zh": "本页的每个目标函数，都是给被采样 token 的对数概率梯度 ∇log π 乘上一个权重，这个权重由重要性比率 $r = \\pi_\\theta/\\pi_\\text{old}$ 和优势 A 决定。我们在一组比率上，对单个 token 运行每个算法自己的损失函数"
        "（与“实时策略更新”页面训练模型用的是同一份代码），分别取 A = +1 和 A = −1，再用自动微分求导。"
        "图中画的是**目标 J = −loss**（更新要最大化的量）和**梯度权重 w = ∂J/∂log π**："
        "w > 0 表示把该 token 的概率往上推，w < 0 表示往下压，w = 0 表示这个 token 对模型没有任何学习信号。"
        "回答只有一个 token 时，GSPO 和 GMPO 的序列比率就等于 token 比率，所以所有算法可以共用一根横轴。",
    },
    "curves.rstar": {
        "en": "$r^*$: the largest ratio r at which the gradient weight w(r) is not zero.",
        "zh": "$r^*$：梯度权重 w(r) 不为零的最大比率 r。",
    },
    "curves.sg": {
        "en": "sg[x]: the stop-gradient, x as a value that autograd does not differentiate (detach).",
        "zh": "sg[x]：停止梯度，把 x 当作一个数值，自动微分不对它求导（detach）。",
    },
    "curves.algorithms": {"en": "Algorithms", "zh": "算法"},
    "curves.algorithms_help": {
        "en": "PPO, GRPO and Dr.GRPO share the same per-token clip (they differ in advantages and in how tokens "
        "are averaged), so their curves coincide; Dual-clip PPO is PPO with the dual clip c switched on.",
        "zh": "PPO、GRPO 和 Dr.GRPO 的逐 token 裁剪完全相同（区别在于优势的计算和 token 的平均方式），"
        "所以曲线重合；Dual-clip PPO 是打开了双重裁剪 c 的 PPO。",
    },
    "curves.settings": {"en": "Clip settings (defaults: the papers' values)", "zh": "裁剪设置（默认值取自各论文）"},
    "curves.settings_caption": {
        "en": "One panel per chosen algorithm, with a slider for each setting that shapes its per-token "
        "objective. Hover the ⓘ of a slider for where its default comes from and its name in TRL and verl; "
        "hover the ⓘ of a title for what the algorithm changed.",
        "zh": "每个选中的算法一个面板，塑造其逐 token 目标的每个设置各有一个滑块。把鼠标停在滑块的 ⓘ 上，"
        "可以看到默认值的出处以及它在 TRL 和 verl 中的名字；停在标题的 ⓘ 上，可以看到该算法改了什么。",
    },
    "curves.off": {"en": "off", "zh": "关闭"},
    "curves.setting_help": {
        "en": "Default {default}: {source}. TRL: {trl} · verl: {verl}.",
        "zh": "默认值 {default}：{source}。TRL：{trl} · verl：{verl}。",
    },
    "curves.log_x": {"en": "Log ratio axis", "zh": "比率轴取对数"},
    "curves.old_prob": {"en": "π_old of the token", "zh": "该 token 的 π_old"},
    "curves.old_prob_help": {
        "en": "{titles}: the bound is on how far the probability π itself moves from π_old, not on the ratio, so "
        "what is drawn changes with π_old. Every other objective reads only the ratio r = π/π_old and does not move.",
        "zh": "{titles} 限制的是概率 π 本身偏离 π_old 多远，而不是比率，所以它们的曲线随 π_old 改变。"
        "其他目标只读比率 r = π/π_old，曲线不变。",
    },
    "curves.old_prob_caption": {
        "en": "{titles}: drawn for a token with this π_old. Each curve ends at r = 1/π_old = {top}, where π = 1; "
        "a rare token (small π_old) may move further in ratio than a likely one before its trust region acts.",
        "zh": "{titles}：按这个 π_old 的 token 绘制，曲线止于 r = 1/π_old = {top}（此时 π = 1）；"
        "稀有 token（π_old 小）在信任域起作用前，比率上能走得比常见 token 更远。",
    },
    "curves.log_x_help": {
        "en": "A log axis treats r = 0.5 and r = 2 symmetrically and shows GMPO's log-space band as symmetric.",
        "zh": "对数轴把 r = 0.5 和 r = 2 对称地画出来，GMPO 在对数空间的裁剪区间也显得对称。",
    },
    "curves.log_x_zoomed": {
        "en": "Off while zoomed around r = 1: over so narrow a range a log axis looks linear.",
        "zh": "放大 r = 1 附近时不可用：在这么窄的范围里，对数轴看起来和线性轴一样。",
    },
    "curves.zoom": {"en": "Zoom around r = 1 (narrowest band)", "zh": "放大 r = 1 附近（最窄的区间）"},
    "curves.zoom_help": {
        "en": "Shows r in 1 ± 2.5 ε, with ε the reach of the narrowest ratio clip among the chosen algorithms "
        "(GSPO's 4e-4 by default): the only scale at which GSPO's band is visible. At this scale every other "
        "clip is wide open.",
        "zh": "把横轴限制在 1 ± 2.5 ε，ε 取选中算法里最窄的比率裁剪区间（默认是 GSPO 的 4e-4）："
        "只有在这个尺度下才能看见 GSPO 的裁剪区间；在这里其他算法的裁剪都还没有起作用。",
    },
    "curves.zoom_note": {
        "en": "Zoomed to r in [{lo}, {hi}]: on the full 0–3.5 axis a band this narrow would be thinner than a line.",
        "zh": "已放大到 r ∈ [{lo}, {hi}]：在完整的 0–3.5 横轴上，这么窄的区间比一根线还细。",
    },
    "curves.none_selected": {
        "en": "Choose at least one algorithm above to draw its curves.",
        "zh": "请在上方至少选择一个算法来绘制曲线。",
    },
    # ------------------------------------------------------------------ overlay
    "curves.overlay_header": {"en": "All algorithms on one axis", "zh": "所有算法画在同一组坐标上"},
    "curves.overlay_caption": {
        "en": "Top: objective J; bottom: gradient weight ∂J/∂log π; left A = +1, right A = −1. Dotted line: "
        "r = 1 (on-policy). Hover a curve to read the state of that point: active, clipped (zero gradient), "
        "capped (the weight is bounded but the gradient kept: CISPO, ASPO's soft dual clip) or gated (a soft gate "
        "scales it down: SAPO). "
        "Click a legend entry to hide an algorithm. Where J is r·A, the weight is r·A too; where J goes flat, "
        "the weight drops to zero.",
        "zh": "上排：目标 J；下排：梯度权重 ∂J/∂log π；左列 A = +1，右列 A = −1。虚线：r = 1（同策略）。"
        "把鼠标停在曲线上可以看到该点的状态：有梯度、被裁剪（梯度为零）、被截顶（权重有上下界但保留梯度：CISPO、ASPO 的软双重裁剪）"
        "或被门控（软门控把梯度缩小：SAPO）。点击图例可以隐藏某个算法。"
        "J 等于 r·A 的地方，权重也是 r·A；J 变平的地方，权重降为零。",
    },
    "curves.detached_note": {
        "en": "{titles}: the loss multiplies ∇log π by a stop-gradient weight w, so its value is not a surrogate "
        "whose slope is the gradient; J shows the value A·w (it may fall while the weight pushes up): read the "
        "weight panel.",
        "zh": "{titles}：损失用一个停止梯度的权重 w 乘 ∇log π，其数值不是“斜率即梯度”的代理目标；J 画的是数值 A·w"
        "（权重向上推时它也可能下降）：请看梯度权重那一排。",
    },
    "curves.overlay_band": {
        "en": "Grey band: the trust region of {title}, [{lo}, {hi}] (the first chosen algorithm that has one).",
        "zh": "灰色带：{title} 的信任域 [{lo}, {hi}]（选中的算法中第一个有裁剪区间的）。",
    },
    "curves.convention": {
        "en": "**Sign convention.** J = −λ, the loss λ of one token (each objective's, above); w = ∂J/∂log π = r·∂J/∂r is what multiplies ∇log π "
        "in the update. w > 0: pushed up; w < 0: pushed down; w = 0: no gradient.",
        "zh": "**符号约定：** J = −λ，λ 是单个 token 的损失（各目标的公式见上）；w = ∂J/∂log π = r·∂J/∂r，就是更新中乘在 ∇log π 前面的系数。"
        "w > 0：往上推；w < 0：往下压；w = 0：没有梯度。",
    },
    # ------------------------------------------------------------------ gallery
    "curves.gallery_header": {
        "en": "One panel per algorithm: where the gradient stops",
        "zh": "每个算法一张小图：梯度在哪里消失",
    },
    "curves.gallery_caption": {
        "en": "In each panel A = +1 is drawn above the axis and A = −1 below it. Thick line: gradient weight "
        "∂J/∂log π; thin dotted line: objective J. Grey band: the algorithm's own clip range; orange: where its "
        "gradient is exactly zero (read from autograd, not from the setting). The six cells of each panel "
        "(sign of A × ratio below, inside or above the band) are the six cases of the clip.",
        "zh": "每张小图中，A = +1 画在横轴上方，A = −1 画在下方。粗线：梯度权重 ∂J/∂log π；细虚线：目标 J。"
        "灰色带：该算法自己的裁剪区间；橙色：梯度恰好为零的区域（由自动微分得出，而不是由设置推出）。"
        "每张小图的六个格子（A 的符号 × 比率在区间下方、内部、上方）就是裁剪的六种情形。",
    },
    "curves.support_header": {"en": "Ratios that still get a gradient", "zh": "仍然有梯度的比率范围"},
    "curves.support_caption": {
        "en": "Found from the loss's gradient on ratios from 0.001 to 20 (the ends refined to about 1e-12): "
        "“r ≤ x” means the gradient flows all the way down to 0.001, “r ≥ x” all the way up to 20 (for DPPO, "
        "which reads π itself, up to r = 1/π_old, where π = 1). For a hard "
        "clip, A>0 keeps a gradient only up to 1 + ε_high, while A<0 keeps one from 1 − ε_low upwards with no "
        "bound: the range for negative advantages is far wider, and the noise it lets through adds up over long "
        "responses. Dual clip closes it at c.",
        "zh": "由损失函数在 0.001 到 20 的比率上的梯度求得（端点精确到约 1e-12）：“r ≤ x” 表示梯度一直延伸到 0.001，"
        "“r ≥ x” 表示一直延伸到 20（DPPO 读取 π 本身，只到 r = 1/π_old，此时 π = 1）。对硬裁剪而言，A>0 的 token 只在 1 + ε_high 以下有梯度，而 A<0 的 token 从 "
        "1 − ε_low 往上一直有梯度、没有上界：负优势一侧的范围宽得多，放进来的噪声在长回答里会不断累积。双重裁剪在 c 处把它截断。",
    },
    "curves.support.all": {"en": "every r it can reach", "zh": "它能达到的所有 r"},
    "curves.support.no_band": {"en": "no ratio band", "zh": "无比率区间"},
    "curves.support.col_band": {"en": "clip range of r", "zh": "r 的裁剪区间"},
    "curves.support.col_pos": {"en": "A>0: gradient where", "zh": "A>0：有梯度的范围"},
    "curves.support.col_neg": {"en": "A<0: gradient where", "zh": "A<0：有梯度的范围"},
    "curves.look_header": {"en": "What to look for", "zh": "看点"},
    "curves.look": {
        "en": "- **PPO / GRPO (hard clip).** A>0: w = r·A up to 1 + ε_high, then exactly 0: once a good token has "
        "gained enough it is no longer pushed. A<0: exactly 0 below 1 − ε_low, but above 1 the unclipped branch "
        "stays, so a bad token whose probability went up is pushed down with weight r·|A|, without bound.\n"
        "- **DAPO (clip-higher)** moves only the upper edge: good tokens may grow further before their gradient "
        "stops (see the probability view below).\n"
        "- **Dual-clip PPO** bounds that open negative side: for A<0 and r > c the objective is flat at c·A and "
        "the gradient is zero again.\n"
        "- **CISPO** clips the weight, not the gradient: outside the band the weight is held at the bound but "
        "never reaches zero, so a rare but important token whose ratio jumped still learns.\n"
        "- **SAPO** has no edge at all: its gate 4σ(1 − σ) is 1 at r = 1 and decays smoothly, never to exactly "
        "zero. The weight w = r·A·4σ(1 − σ) carries an extra factor r (w is the derivative in log π), so it equals "
        "A at r = 1, first keeps rising (it grows like r while the gate is still near 1) and falls only where the "
        "gate wins: around r ≈ 2 at τ = 1, much sooner at a larger τ. With τ_neg > τ_pos the A<0 side decays faster, because pushing a token down spreads "
        "probability over many others and is the less stable direction. At the paper's 1.0 / 1.05 the two "
        "sides look almost alike on this axis and the gate is gentle; set τ_neg to 3 or τ_pos to 5 to see the "
        "gate act like a smooth clip.\n"
        "- **GMPO** clips log r to ±ε (e^±0.4 ≈ [0.67, 1.49] by default): a wider band than PPO's, symmetric on "
        "a log axis. Its real strength, a geometric mean over the tokens of a response that a few extreme ratios "
        "barely move, needs many tokens: see the Token vs sequence weighting page.\n"
        "- **GSPO / GSPO-token** use ε of order 1e-4: on the 0–3.5 axis the band is invisible and the curves look "
        "like a clip with ε = 0. Switch on the zoom to see it.",
        "zh": "- **PPO / GRPO（硬裁剪）。** A>0：w = r·A，直到 1 + ε_high，之后恰好为 0——好 token 的概率涨够了，"
        "就不再继续推。A<0：在 1 − ε_low 以下恰好为 0，但在 1 以上未裁剪的分支一直有效，所以概率反而上升了的坏 token "
        "会以 r·|A| 的权重被往下压，而且没有上界。\n"
        "- **DAPO（clip-higher）** 只移动上边界：好 token 在梯度消失之前可以涨得更多（见下方的概率视角）。\n"
        "- **Dual-clip PPO** 给这条敞开的负优势一侧加了上界：A<0 且 r > c 时，目标停在 c·A，梯度重新变为零。\n"
        "- **CISPO** 裁剪的是权重而不是梯度：区间之外的权重被固定在边界值上，但永远不会变成零，"
        "所以比率突然变大的罕见而关键的 token 仍然能学到东西。\n"
        "- **SAPO** 完全没有硬边界：门控 4σ(1 − σ) 在 r = 1 处为 1，之后平滑衰减，永远不会恰好为零。"
        "权重 w = r·A·4σ(1 − σ) 多了一个因子 r（w 是对 log π 求导），所以它在 r = 1 处等于 A，随后先继续上升"
        "（门控还接近 1 时它随 r 增大），直到门控占上风才下降：τ = 1 时约在 r ≈ 2 处，τ 越大来得越早。"
        "τ_neg > τ_pos 时 A<0 一侧衰减得更快，因为把一个 token 往下压会把概率分散到很多别的 token 上，是更不稳定的方向。"
        "按论文的 1.0 / 1.05，两侧在这根横轴上几乎一样，门控也很温和；把 τ_neg 调到 3，或把 τ_pos 调到 5，"
        "就能看到门控像一个平滑的裁剪。\n"
        "- **GMPO** 把 log r 裁剪到 ±ε（默认 e^±0.4 ≈ [0.67, 1.49]）：区间比 PPO 宽，在对数轴上是对称的。"
        "它真正的优势——对一条回答的所有 token 取几何平均，少数极端比率几乎拉不动它——需要很多 token 才能体现，"
        "请看“token 级与序列级加权”页面。\n"
        "- **GSPO / GSPO-token** 的 ε 是 1e-4 量级：在 0–3.5 的横轴上看不见它的区间，曲线看起来就像 ε = 0 的裁剪。"
        "打开放大开关就能看到。",
    },
    # ------------------------------------------------------------------ six cases
    "curves.cases_header": {"en": "The six cases of the PPO clip", "zh": "PPO 裁剪的六种情形"},
    "curves.cases_caption": {
        "en": "One ratio per region, each evaluated by the same loss: the clip of {case} with its ε_low and "
        "ε_high (its sliders appear when {case} is chosen above), and in the last row the dual clip c of {dual} "
        "(while it is switched on). Shaded rows get exactly zero gradient: a good token already above 1 + ε_high and "
        "a bad token already below 1 − ε_low: the update has already gone far enough in the direction the "
        "advantage asks for. The min never clips a move in the wrong direction: a good token whose probability "
        "fell, or a bad one whose probability rose, keeps the full r·A gradient. The dual clip is what bounds "
        "the second of these.",
        "zh": "每个区域取一个比率，都用同一个损失函数计算：{case} 的裁剪及其 ε_low、ε_high"
        "（在上方选中 {case} 后会出现它的滑块），最后一行加上 {dual} 的双重裁剪 c（在它打开时）。"
        "带底色的行梯度恰好为零：已经高于 1 + ε_high 的好 token，和已经低于 1 − ε_low 的坏 token——"
        "更新在优势要求的方向上已经走得够远了。min 从不裁剪往错误方向的变化：概率下降了的好 token、"
        "概率上升了的坏 token，都保留完整的 r·A 梯度。双重裁剪限制的正是后一种。",
    },
    "curves.cases.col_case": {"en": "case", "zh": "情形"},
    "curves.cases.col_ratio": {"en": "r", "zh": "r"},
    "curves.cases.col_branch": {"en": "min takes", "zh": "min 取到"},
    "curves.cases.col_objective": {"en": "J", "zh": "J"},
    "curves.cases.col_gradient_weight": {"en": "w", "zh": "w"},
    "curves.cases.col_zero_gradient": {"en": "zero gradient?", "zh": "梯度为零？"},
    "curves.cases.region_below": {"en": "r < 1 − ε_low", "zh": "r < 1 − ε_low"},
    "curves.cases.region_inside": {"en": "r in the band", "zh": "r 在区间内"},
    "curves.cases.region_above": {"en": "r > 1 + ε_high", "zh": "r > 1 + ε_high"},
    "curves.cases.region_beyond_c": {"en": "r > c (dual clip)", "zh": "r > c（双重裁剪）"},
    "curves.cases.branch_unclipped": {"en": "r·A", "zh": "r·A"},
    "curves.cases.branch_clipped": {"en": "clip(r)·A, flat", "zh": "clip(r)·A，平坦"},
    "curves.cases.branch_equal": {"en": "both (r = clip(r))", "zh": "两项相等"},
    "curves.cases.branch_dual": {"en": "c·A, flat", "zh": "c·A，平坦"},
    "curves.cases.yes": {"en": "yes", "zh": "是"},
    "curves.cases.no": {"en": "no", "zh": "否"},
    # ------------------------------------------------------------------ probability view
    "curves.prob_header": {
        "en": "Probability view: why rare tokens barely grow",
        "zh": "概率视角：为什么低概率 token 几乎涨不动",
    },
    "curves.prob_intro": {
        "en": "For A>0 a hard clip stops the gradient once $\\pi_\\text{new}/\\pi_\\text{old}$ passes 1 + ε_high. "
        "The ceiling is proportional to $\\pi_\\text{old}$: a token that was already likely may gain a lot, an "
        "unlikely one hardly anything. Likely tokens get likelier fast, exploratory tokens cannot catch up, "
        "and the policy's entropy collapses. DAPO's clip-higher raises only ε_high, giving rare tokens more "
        "room while the lower bound stays where it was. The ceiling r* below is read off the loss's gradient "
        "(the largest ratio with a nonzero gradient), not typed in. That is the sources' argument; on the "
        "shipped model the upper clip binds on a fraction of a percent of tokens, and a higher ε_high kept no "
        "more entropy there, while putting back GRPO's KL term did (the symptoms page).",
        "zh": "对 A>0 的 token，硬裁剪在 $\\pi_\\text{new}/\\pi_\\text{old}$ 超过 1 + ε_high 时让梯度消失。"
        "这个上限与 $\\pi_\\text{old}$ 成正比：原本就很可能的 token 可以涨很多，低概率的 token 几乎涨不了。"
        "高概率 token 越来越高，探索性的 token 追不上，策略的熵随之坍缩。DAPO 的 clip-higher 只提高 ε_high，"
        "给低概率 token 更多上升空间，下界保持不变。下图中的上限 r* 是从损失函数的梯度读出来的"
        "（梯度不为零的最大比率），而不是手写的公式。这是论文的论证；在自带的模型上，上界只对不到百分之一的 token "
        "生效，提高 ε_high 并没有多保住熵，而加回 GRPO 的 KL 项保住了（见症状页）。",
    },
    "curves.prob_mark": {"en": "Mark π_old =", "zh": "标出 π_old ="},
    "curves.prob_mark_help": {
        "en": "A second token to label in the figure (0.2 is always labelled).",
        "zh": "在图中额外标出的 token 概率（0.2 始终会标出）。",
    },
    "curves.prob_result": {
        "en": "A token at π_old = {p} can reach at most **{pa}** under {a} (room {da}) and **{pb}** under {b} "
        "(room {db}) before its gradient stops. Ceilings found from the gradient: r* = {ra} and {rb}.",
        "zh": "π_old = {p} 的 token，在梯度消失之前，用 {a} 最多只能涨到 **{pa}**（空间 {da}），"
        "用 {b} 最多涨到 **{pb}**（空间 {db}）。从梯度求得的上限：r* = {ra} 和 {rb}。",
    },
    "curves.prob_name": {"en": "{title} (ε_high = {eps})", "zh": "{title} (ε_high = {eps})"},
    "curves.prob_left": {
        "en": "highest π<sub>new</sub> that still gets a gradient",
        "zh": "仍有梯度的最高 π<sub>new</sub>",
    },
    "curves.prob_right": {
        "en": "room to grow π<sub>new</sub> − π<sub>old</sub>",
        "zh": "上升空间 π<sub>new</sub> − π<sub>old</sub>",
    },
    "curves.prob_identity": {"en": "π<sub>new</sub> = π<sub>old</sub>", "zh": "π<sub>new</sub> = π<sub>old</sub>"},
    "curves.prob_hover": {
        "en": "highest π<sub>new</sub> = %{customdata[0]:.3f}<br>room = %{customdata[1]:.3f}",
        "zh": "最高 π<sub>new</sub> = %{customdata[0]:.3f}<br>上升空间 = %{customdata[1]:.3f}",
    },
    "curves.prob_x": {"en": "π<sub>old</sub> (probability before the update)", "zh": "π<sub>old</sub>（更新前的概率）"},
    "curves.prob_y_left": {"en": "π<sub>new</sub>", "zh": "π<sub>new</sub>"},
    "curves.prob_y_right": {"en": "π<sub>new</sub> − π<sub>old</sub>", "zh": "π<sub>new</sub> − π<sub>old</sub>"},
    # ------------------------------------------------------------------ figure labels (no LaTeX)
    "curves.j_short": {"en": "J", "zh": "J"},
    "curves.w_short": {"en": "∂J/∂log π", "zh": "∂J/∂log π"},
    "curves.state.active": {"en": "active", "zh": "有梯度"},
    "curves.state.clipped": {"en": "clipped · zero gradient", "zh": "被裁剪 · 梯度为零"},
    "curves.state.capped": {"en": "capped · gradient kept", "zh": "被截顶 · 保留梯度"},
    "curves.state.gated": {"en": "soft gate · never 0", "zh": "软门控 · 不为零"},
    "curves.state.masked": {"en": "masked · out of the loss", "zh": "被屏蔽 · 不进入损失"},
    "curves.gate_label": {"en": "gate f′(r)", "zh": "门控 f′(r)"},
    "curves.panel_j": {"en": "objective J · {sign}", "zh": "目标 J · {sign}"},
    "curves.panel_w": {"en": "gradient weight ∂J/∂log π · {sign}", "zh": "梯度权重 ∂J/∂log π · {sign}"},
    "curves.x_title": {
        "en": "importance ratio r = π<sub>θ</sub> / π<sub>old</sub>",
        "zh": "重要性比率 r = π<sub>θ</sub> / π<sub>old</sub>",
    },
    "curves.x_short": {"en": "ratio r", "zh": "比率 r"},
    "curves.j_axis": {"en": "J = −loss", "zh": "J = −loss"},
    "curves.w_axis": {"en": "∂J/∂log π", "zh": "∂J/∂log π"},
    "curves.legend_j": {"en": "objective J (thin dotted)", "zh": "目标 J（细虚线）"},
    "curves.legend_w": {"en": "gradient weight ∂J/∂log π (thick)", "zh": "梯度权重 ∂J/∂log π（粗线）"},
    # ------------------------------------------------------------------ downloads
    "curves.csv_curves": {"en": "Download the curves (CSV)", "zh": "下载曲线数据（CSV）"},
    "curves.csv_support": {"en": "Download the gradient ranges (CSV)", "zh": "下载梯度范围（CSV）"},
    "curves.csv_cases": {"en": "Download the six cases (CSV)", "zh": "下载六种情形（CSV）"},
    "curves.csv_prob": {"en": "Download the probability view (CSV)", "zh": "下载概率视角数据（CSV）"},
}
