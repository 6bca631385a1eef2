"""Strings of the Formula diff page (keys ``formula.*``, plus ``nav.formula`` and
``home.formula_claims``), English and 简体中文.

Merged into :data:`rlviz.i18n.STRINGS`; the same completeness rules apply (tests/test_i18n.py).
Term descriptions are assembled by the page from the parts :class:`rlviz.experiments.formula.Term`
lists (``formula.kind.*``, ``formula.band.*``, ``formula.level.*``, ``formula.setting``, ``formula.taus``).
"""

STRINGS: dict[str, dict[str, str]] = {
    "nav.formula": {"en": "Formula diff", "zh": "公式对比"},
    "home.formula_claims": {
        "en": "- Two objectives side by side, split into five terms read from the registry (importance ratio, "
        "advantage, trust region, KL term, aggregation weight); the terms that differ are boxed.\n"
        "- One clicked token of an example group, its numbers computed by `policy_loss` and substituted into "
        "both formulas: GRPO's token ratio r against GSPO's geometric-mean sequence ratio s, the per-token "
        "weight 1/(B|y_i|) against 1/Σ|y_j|, GSPO-token equal to GSPO number for number, CISPO's capped token "
        "keeping its gradient.",
        "zh": "- 两个目标函数并排，按注册表拆成五项（重要性比率、优势、信任域、KL 项、聚合权重），不同的项加框标出。\n"
        "- 在示例组里点选一个 token，用 `policy_loss` 算出它的各项数值并代入两边的公式：GRPO 的 token 比率 r 与 "
        "GSPO 的几何平均序列比率 s，每个 token 的权重 1/(B|y_i|) 与 1/Σ|y_j|，GSPO-token 与 GSPO 逐个数值相同，"
        "CISPO 被截顶的 token 仍保留梯度。",
    },
    "formula.title": {"en": "Formula diff", "zh": "公式对比"},
    "formula.not_described": {
        "en": "Not in this diff yet: {names}. Their trust regions (a mask, a penalty, a batch-level selection, "
        "a gradient-preserving clip or a gamma weight) have no term form here; each one's formula is on the "
        "home page and its curves on the ratio page.",
        "zh": "这里暂不包含：{names}。它们的信任域（掩码、惩罚、整批选择、保梯度裁剪或 gamma 权重）在这里还没有"
        "分项写法；各自的公式见首页，曲线见比率页。",
    },
    "formula.lede": {
        "en": "What exactly differs between two objectives? Pick A and B: the strips show how hard each one pushes "
        "every token of an example group. Click a square to see that token's numbers in both formulas below.",
        "zh": "两个目标函数到底差在哪？选 A 和 B；点色带中的一个 token，看它的数值代入两个公式。",
    },
    "formula.paper": {
        "en": "**{title}** · paper: {paper}, [arXiv:{arxiv}](https://arxiv.org/abs/{arxiv}) ({where}).",
        "zh": "**{title}** · 论文：{paper}，[arXiv:{arxiv}](https://arxiv.org/abs/{arxiv})（{where}）。",
    },
    "formula.intro": {
        "en": "Pick two objectives. Each one's per-token objective is split into five terms: the **importance "
        "ratio**, the **advantage**, the **trust region** (a hard clip, a capped weight or a soft gate), the "
        "**KL term** and the **aggregation weight**. Every term is read from the registry entry that also "
        "trains the model, and the terms that differ between the two are boxed. Then pick a token of the "
        "example group below (click it, or type its place): its numbers come from the same `policy_loss` the "
        "trainer calls, and they are substituted into both formulas.",
        "zh": "选两个目标函数。每个目标函数的逐 token 目标被拆成五项：**重要性比率**、**优势**、**信任域**（硬裁剪、"
        "截顶权重或软门控）、**KL 项**和**聚合权重**。每一项都读自同一个训练模型所用的注册表条目，两者不同的项加框"
        "标出。然后在下面的示例组里选一个 token（点击它，或输入它的位置）：它的各项数值由训练器调用的同一个 "
        "`policy_loss` 算出，并代入两边的公式。",
    },
    "formula.a": {"en": "Objective A", "zh": "目标函数 A"},
    "formula.b": {"en": "Objective B", "zh": "目标函数 B"},
    "formula.pick_help": {
        "en": "Any objective of the registry; its default settings, as on the home page.",
        "zh": "注册表里的任一目标函数，使用其默认设置（与首页相同）。",
    },
    "formula.spread": {"en": "Spread of the token log-ratios", "zh": "token 对数比率的离散程度"},
    "formula.spread_help": {
        "en": "The standard deviation of log π_θ − log π_old over the example's tokens. Around 1e-4 every "
        "ratio sits inside GSPO's band; at 0.1 and above GRPO clips a few tokens and GSPO most responses. "
        "The tokens themselves are drawn from the seed in the sidebar.",
        "zh": "示例中各 token 的 log π_θ − log π_old 的标准差。约 1e-4 时所有比率都在 GSPO 的区间内；"
        "0.1 及以上时 GRPO 裁掉少数 token，GSPO 裁掉大多数回答。token 本身由侧边栏的随机种子生成。",
    },
    "formula.terms_header": {"en": "Term by term", "zh": "逐项对比"},
    "formula.summary": {
        "en": "**{n} of {total} {total:plural:term|terms} {n:plural:differs|differ}:** {names}.",
        "zh": "**{total} 项中有 {n} 项不同**：{names}。",
    },
    "formula.summary_none": {
        "en": "**The two objectives have the same five terms.**",
        "zh": "**两个目标函数的五项完全相同。**",
    },
    "formula.col_term": {"en": "term", "zh": "项"},
    "formula.col_differs": {"en": "differs", "zh": "不同"},
    "formula.mark_differs": {"en": "≠ differs", "zh": "≠ 不同"},
    "formula.mark_same": {"en": "same", "zh": "相同"},
    "formula.term.ratio": {"en": "Importance ratio", "zh": "重要性比率"},
    "formula.term.advantage": {"en": "Advantage", "zh": "优势"},
    "formula.term.trust_region": {"en": "Trust region", "zh": "信任域"},
    "formula.term.kl": {"en": "KL term", "zh": "KL 项"},
    "formula.term.aggregation": {"en": "Aggregation weight", "zh": "聚合权重"},
    "formula.term.gradient": {
        "en": "Gradient weight ∂𝓛/∂log π (autograd)",
        "zh": "梯度权重 ∂𝓛/∂log π（自动微分）",
    },
    "formula.kind.ratio.token": {
        "en": "token ratio r = π_θ / π_old, one per token",
        "zh": "token 比率 r = π_θ / π_old，每个 token 一个",
    },
    "formula.kind.ratio.sequence": {
        "en": "sequence ratio s: the geometric mean of the response's token ratios, one per response; every "
        "token's gradient goes through it",
        "zh": "序列比率 s：回答中各 token 比率的几何平均，每条回答一个；每个 token 的梯度都经过它",
    },
    "formula.kind.ratio.sequence_token": {
        "en": "GSPO-token ratio: the value of the sequence ratio s, the gradient of each token's own log-probability",
        "zh": "GSPO-token 比率：数值等于序列比率 s，梯度走各 token 自己的对数概率",
    },
    "formula.kind.advantage.group_std": {
        "en": "group-relative: reward minus the group mean, divided by the group's std",
        "zh": "组内相对：奖励减去组均值，再除以组内标准差",
    },
    "formula.kind.advantage.batch_std": {
        "en": "reward minus the group mean, divided by the std of the whole batch",
        "zh": "奖励减去组均值，再除以整个批次的标准差",
    },
    "formula.kind.advantage.group_mean": {
        "en": "reward minus the group mean, no division by the std",
        "zh": "奖励减去组均值，不除以标准差",
    },
    "formula.kind.advantage.gae": {
        "en": "GAE from a critic (γ = {gamma}, λ = {lam}), whitened over the batch; one per token",
        "zh": "由价值网络计算的 GAE（γ = {gamma}，λ = {lam}），在批次内标准化；每个 token 一个",
    },
    "formula.kind.trust_region.clipped": {
        "en": "hard clip: past the band, on the side the advantage pushes towards, the gradient is exactly zero",
        "zh": "硬裁剪：越过区间、且在优势推动的那一侧时，梯度恰好为零",
    },
    "formula.kind.trust_region.capped": {
        "en": "capped importance weight: the weight is clipped, the gradient is kept (written with "
        "π/sg[π], whose value is 1: the same gradient as sg[r̂]·A·log π)",
        "zh": "截顶重要性权重：权重被裁剪，梯度保留（写成 π/sg[π]，其数值为 1：梯度与 sg[r̂]·A·log π 相同）",
    },
    "formula.kind.trust_region.gated": {
        "en": "soft gate (4/τ)σ(τ(r−1)): no band; the gradient decays smoothly and never reaches zero",
        "zh": "软门控 (4/τ)σ(τ(r−1))：没有区间；梯度平滑衰减，永不为零",
    },
    "formula.kind.trust_region.none": {"en": "no trust region", "zh": "没有信任域"},
    "formula.band.ratio": {
        "en": "band [{lo}, {hi}] on the ratio",
        "zh": "比率区间 [{lo}, {hi}]",
    },
    "formula.band.log": {
        "en": "band [{lo}, {hi}] on the ratio, clipped in log space, one-sided by the sign of A",
        "zh": "比率区间 [{lo}, {hi}]，在对数空间按 A 的符号单侧裁剪",
    },
    "formula.level.token": {"en": "acts on each token", "zh": "作用于每个 token"},
    "formula.level.sequence": {"en": "acts on the whole response", "zh": "作用于整条回答"},
    "formula.setting": {"en": "{name} = {value}", "zh": "设置 {name} = {value}"},
    "formula.taus": {
        "en": "temperatures τ_pos = {pos}, τ_neg = {neg}",
        "zh": "温度 τ_pos = {pos}，τ_neg = {neg}",
    },
    "formula.kind.kl.on": {
        "en": "β·KL to the reference policy, β = {beta}, estimator {est}, added to every token's loss",
        "zh": "对参考策略的 β·KL，β = {beta}，估计器 {est}，加在每个 token 的损失上",
    },
    "formula.kind.kl.off": {"en": "none (β = 0)", "zh": "无（β = 0）"},
    "formula.kind.aggregation.token-mean": {
        "en": "token-mean: every token of the batch weighs 1/Σ|y_j|",
        "zh": "token-mean：批次中每个 token 的权重都是 1/Σ|y_j|",
    },
    "formula.kind.aggregation.seq-mean-token-mean": {
        "en": "seq-mean-token-mean: each response weighs 1/B and its tokens share it, 1/(B|y_i|) each",
        "zh": "seq-mean-token-mean：每条回答权重 1/B，由其 token 均分，每个 1/(B|y_i|)",
    },
    "formula.kind.aggregation.seq-mean-token-sum": {
        "en": "seq-mean-token-sum: 1/B per token",
        "zh": "seq-mean-token-sum：每个 token 1/B",
    },
    "formula.kind.aggregation.seq-mean-token-sum-norm": {
        "en": "seq-mean-token-sum-norm: a constant 1/(B·L_max) per token (L_max: the length limit; here the "
        "padded width)",
        "zh": "seq-mean-token-sum-norm：每个 token 一个常数 1/(B·L_max)（L_max 为长度上限；这里取填充后的宽度）",
    },
    "formula.kind.aggregation.token-sum": {
        "en": "token-sum (verl): every token weighs 1, the loss is the batch's token sum (it grows with the "
        "number of tokens)",
        "zh": "token-sum（verl）：每个 token 权重为 1，损失是批次中所有 token 之和（随 token 数增长）",
    },
    "formula.pick_header": {"en": "Pick a token", "zh": "选一个 token"},
    "formula.pick_intro": {
        "en": "The example group: {G} responses to one prompt, {right} of them right (reward 1). Click a "
        "square to pick that token, or set the response and the token below.",
        "zh": "示例组：同一提示词的 {G} 条回答，其中 {right} 条正确（奖励为 1）。点击一个方块选中该 token，"
        "或在下方设置回答和 token 的位置。",
    },
    "formula.response": {"en": "Response", "zh": "回答"},
    "formula.response_option": {
        "en": "#{i} · {n} {n:plural:token|tokens} · R = {r}",
        "zh": "#{i} · {n} 个 token · R = {r}",
    },
    "formula.token": {"en": "Token (position in the response)", "zh": "token（在回答中的位置）"},
    "formula.token_help": {
        "en": "0 is the first token of the response; the last is its length minus 1.",
        "zh": "0 是回答的第一个 token；最后一个是长度减 1。",
    },
    "formula.panel_ratio": {
        "en": "token log-ratio ℓ = log π_θ − log π_old (the numbers: r = e^ℓ)",
        "zh": "token 对数比率 ℓ = log π_θ − log π_old（方块中的数：r = e^ℓ）",
    },
    "formula.panel_push": {
        "en": "push −∂𝓛/∂log π under {name}",
        "zh": "{name} 下的推力 −∂𝓛/∂log π",
    },
    "formula.position": {"en": "token position", "zh": "token 位置"},
    "formula.hover_response": {"en": "response", "zh": "回答"},
    "formula.hover_log_ratio": {"en": "log-ratio ℓ", "zh": "对数比率 ℓ"},
    "formula.hover_ratio": {"en": "ratio r", "zh": "比率 r"},
    "formula.hover_push": {"en": "push", "zh": "推力"},
    "formula.hover_advantage": {"en": "advantage", "zh": "优势"},
    "formula.strip_caption": {
        "en": "Orange: the token is pushed up (or its log-ratio is positive), purple: down; the two push "
        "strips share one colour scale. × clipped (zero gradient), ^ capped, ~ gated. The black frame marks "
        "the picked token.",
        "zh": "橙色：该 token 被向上推（或其对数比率为正），紫色：向下；两条推力色带共用一个色标。× 被裁剪（梯度为零），"
        "^ 被截顶，~ 被门控。黑框标出选中的 token。",
    },
    "formula.formulas_header": {
        "en": "Both formulas, with token #{t} of response #{i} bound in",
        "zh": "两个公式，代入回答 #{i} 的第 {t} 个 token",
    },
    "formula.boxed_caption": {
        "en": "One row per term: objective A on the left, B on the right (A above B on a narrow window). "
        "Black: the formula; blue: the same lines with the picked token's numbers (4 significant digits). "
        "Boxed: the terms that differ between the two objectives.",
        "zh": "每行一项：左边是目标函数 A，右边是 B（窗口较窄时 A 在上、B 在下）。黑色是公式；蓝色是代入选中 token "
        "数值后的同样几行（保留 4 位有效数字）。加框：两个目标函数之间不同的项。",
    },
    "formula.values_header": {"en": "The numbers side by side", "zh": "数值并排对比"},
    "formula.col_quantity": {"en": "quantity", "zh": "量"},
    "formula.values_caption": {
        "en": "Every number is read from `policy_loss` / `gradient_weights` on the whole example group, "
        "with each objective's own advantages and default settings. Rows marked ≠ differ between the two.",
        "zh": "每个数值都取自对整个示例组调用的 `policy_loss` / `gradient_weights`，各自使用自己的优势和默认设置。"
        "标有 ≠ 的行两者不同。",
    },
    "formula.q.log_ratio": {"en": "token log-ratio ℓ", "zh": "token 对数比率 ℓ"},
    "formula.q.token_ratio": {"en": "token ratio r", "zh": "token 比率 r"},
    "formula.q.sequence_ratio": {"en": "sequence ratio s", "zh": "序列比率 s"},
    "formula.q.ratio_used": {"en": "ratio the objective uses", "zh": "目标函数使用的比率"},
    "formula.q.trust_value": {
        "en": "trust-region value (clipped r̄ / s̄, capped r̂, gate f, or ℓ̃)",
        "zh": "信任域取值（裁剪后的 r̄ / s̄、截顶的 r̂、门控 f 或 ℓ̃）",
    },
    "formula.q.state": {"en": "what the trust region did", "zh": "信任域的作用"},
    "formula.q.advantage": {"en": "advantage A", "zh": "优势 A"},
    "formula.q.objective": {"en": "objective J", "zh": "目标 J"},
    "formula.q.kl_term": {"en": "KL term β·D", "zh": "KL 项 β·D"},
    "formula.q.per_token_loss": {"en": "per-token loss λ = −J + β·D", "zh": "逐 token 损失 λ = −J + β·D"},
    "formula.q.token_weight": {"en": "aggregation weight w", "zh": "聚合权重 w"},
    "formula.q.weighted_loss": {"en": "w·λ (its share of the loss)", "zh": "w·λ（在损失中的份额）"},
    "formula.q.grad_weight": {"en": "gradient weight ∂𝓛/∂log π", "zh": "梯度权重 ∂𝓛/∂log π"},
    "formula.state.active": {"en": "active", "zh": "正常"},
    "formula.state.clipped": {"en": "clipped (zero gradient)", "zh": "被裁剪（梯度为零）"},
    "formula.state.capped": {"en": "capped (gradient kept)", "zh": "被截顶（梯度保留）"},
    "formula.state.gated": {"en": "gated (damped)", "zh": "被门控（衰减）"},
    "formula.state.masked": {"en": "masked", "zh": "被屏蔽"},
    "formula.none": {"en": "—", "zh": "—（无）"},
    "formula.on": {"en": "on", "zh": "开启"},
    "formula.off": {"en": "off", "zh": "关闭"},
    "formula.csv_values": {"en": "Download the numbers (CSV)", "zh": "下载数值（CSV）"},
    "formula.csv_tokens": {"en": "Download the whole group (CSV)", "zh": "下载整组数据（CSV）"},
    "formula.others": {
        "en": "Outside the per-token objective these settings differ too (they act on the rewards or on "
        "which groups are sampled; see the Length penalties and Dynamic sampling pages): {items}.",
        "zh": "在逐 token 目标之外，以下设置也不同（它们作用于奖励或决定采样哪些组；见“长度惩罚”和“动态采样”页面）："
        "{items}。",
    },
    "formula.other_item": {"en": "{what} ({a}: {va}; {b}: {vb})", "zh": "{what}（{a} 为 {va}；{b} 为 {vb}）"},
    "formula.same_numbers": {
        "en": "At this token every number is the same for both objectives.",
        "zh": "在这个 token 上，两个目标函数的所有数值都相同。",
    },
    "formula.n_differ": {
        "en": "At this token {n} of {total} {total:plural:number|numbers} {n:plural:differs|differ}.",
        "zh": "在这个 token 上，{total} 个数值中有 {n} 个不同。",
    },
}
