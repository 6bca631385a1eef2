"""Strings of the Token vs sequence weighting page (keys ``weighting.*``), English and 简体中文.

Merged into :data:`rlviz.i18n.STRINGS`; the same completeness rules apply (tests/test_i18n.py).
"""

STRINGS: dict[str, dict[str, str]] = {
    "weighting.title": {"en": "Token vs sequence weighting", "zh": "token 级与序列级加权"},
    "weighting.lede": {
        "en": "How hard does one update push each token? Each bar is one token's gradient weight; it changes "
        "with the aggregation, how the per-token losses are averaged into one loss.",
        "zh": "每个 token 的梯度权重随聚合方式怎样变？",
    },
    "weighting.intro": {
        "en": "How hard does one update push each token of a response? Two choices decide it: how the "
        "per-token losses are averaged into one number (the aggregation), and which ratio the clip or gate looks at: each token's own ratio r_t, or one "
        "sequence ratio s shared by the whole response. Every number on this page is a token's "
        "∂loss/∂log π, taken by autograd through the same `policy_loss` that trains the live model. "
        "Its negative is called the token's **push** here: positive means one gradient step makes the "
        "token more likely, negative less likely.",
        "zh": "一次更新会把回答里的每个 token 推动多少？由两个选择决定：逐 token 的损失怎样汇总成一个数"
        "（聚合方式），以及裁剪或门控看的是哪个比率——"
        "每个 token 自己的比率 r_t，还是整条回答共用的一个序列比率 s。本页的每个数字都是某个 token 的 "
        "∂loss/∂log π，由自动微分穿过与实时训练同一份 `policy_loss` 求得。下文把它的相反数称为该 token 的"
        "**推力**：为正表示一步梯度下降会让这个 token 的概率变大，为负则变小。",
    },
    "weighting.practitioners": {
        "en": "The aggregation is verl's `loss_agg_mode` and TRL's `loss_type`. The constant L_max of "
        "seq-mean-token-sum-norm (Dr.GRPO) is the generation budget: TRL `max_completion_length`, verl "
        "`loss_scale_factor`. The export below writes GRPO with each aggregation on this group.",
        "zh": "聚合方式对应 verl 的 `loss_agg_mode` 和 TRL 的 `loss_type`。seq-mean-token-sum-norm（Dr.GRPO）"
        "中的常数 L_max 就是生成长度预算：TRL 的 `max_completion_length`，verl 的 `loss_scale_factor`。"
        "下面的导出按这一组回答，为每种聚合方式各写一份 GRPO 配置。",
    },
    # ---------------------------------------------------------------- 1. aggregation
    "weighting.agg_header": {"en": "One group, every way to aggregate", "zh": "同一组回答，每一种聚合方式"},
    "weighting.agg_intro": {
        "en": "Start on-policy: every ratio is 1, as in the first update on fresh samples. The clip then "
        "does nothing, and every objective pushes each token by A × w, where w is the weight the "
        "aggregation gives that token. Enter the lengths and advantages of a group; the default is the "
        "example the sources use, one 200-token and one 10-token response (here the long one is wrong, "
        "A = −1, and the short one right, A = +1).",
        "zh": "先看同策略（on-policy）的情形：所有比率都等于 1，就像在新采样的数据上做第一次更新。"
        "这时裁剪不起作用，每个目标函数对每个 token 的推力都是 A × w，其中 w 是聚合方式分给该 token 的权重。"
        "输入一组回答的长度和优势；默认值就是资料里常用的例子：一条 200 个 token 的回答和一条 10 个 token 的回答"
        "（这里长的答错，A = −1；短的答对，A = +1）。",
    },
    "weighting.lengths": {"en": "Response lengths (tokens)", "zh": "回答长度（token 数）"},
    "weighting.lengths_help": {
        "en": "Comma-separated, one per response: at most 16 responses of 1 to 8192 tokens each.",
        "zh": "用逗号分隔，每条回答一个数：最多 16 条，每条 1 到 8192 个 token。",
    },
    "weighting.advantages": {"en": "Advantages A", "zh": "优势 A"},
    "weighting.advantages_help": {
        "en": "One per response, in the same order; any finite numbers (after group normalisation they "
        "are usually of order ±1).",
        "zh": "每条回答一个，顺序与长度一致；任意有限数（经过组内标准化后通常在 ±1 量级）。",
    },
    "weighting.lmax": {"en": "L_max (Dr.GRPO constant)", "zh": "L_max（Dr.GRPO 的常数）"},
    "weighting.lmax_help": {
        "en": "The constant of seq-mean-token-sum-norm: the generation budget (TRL max_completion_length, "
        "verl loss_scale_factor). It must be at least the longest response.",
        "zh": "seq-mean-token-sum-norm 中的常数，即生成长度预算（TRL 的 max_completion_length，"
        "verl 的 loss_scale_factor），不能小于最长的回答。",
    },
    "weighting.response_label": {
        "en": "#{i} · {n} {n:plural:token|tokens} · A={adv}",
        "zh": "#{i} · {n} 个 token · A={adv}",
    },
    "weighting.per_token": {"en": "weight of each token w (log scale)", "zh": "每个 token 的权重 w（对数坐标）"},
    "weighting.per_response": {
        "en": "total weight of the response Σ<sub>t</sub> w (log scale)",
        "zh": "整条回答的总权重 Σ<sub>t</sub> w（对数坐标）",
    },
    "weighting.lmax_note": {
        "en": "Here B = {B} {B:plural:response|responses} and L_max = {lmax}, so seq-mean-token-sum-norm (Dr.GRPO) gives every "
        "token the same w = 1/(B·L_max) = {w}, whatever the length of its response.",
        "zh": "这里 B = {B} 条回答、L_max = {lmax}，所以 seq-mean-token-sum-norm（Dr.GRPO）给每个 token "
        "的权重都是 w = 1/(B·L_max) = {w}，与它所在回答的长度无关。",
    },
    "weighting.claim5": {
        "en": "**Mean per response, then over responses (seq-mean-token-mean, GRPO):** a token of "
        "response i weighs (1/L_i)·(1/B): {per_response}. **Mean over all tokens (token-mean, DAPO):** "
        "every token weighs 1/{N} = {tm}. Under the per-response mean every response carries the same "
        "total weight, so each token of a long response counts for little; under the token mean a "
        "response counts in proportion to its length, and the tokens of long responses are no longer "
        "diluted.",
        "zh": "**先在回答内平均、再在回答间平均（seq-mean-token-mean，GRPO）：** 第 i 条回答的每个 token "
        "权重为 (1/L_i)·(1/B)：{per_response}。**对全部 token 平均（token-mean，DAPO）：** 每个 token 的权重"
        "都是 1/{N} = {tm}。按回答平均时，每条回答的总权重相同，长回答中的单个 token 就无足轻重；"
        "按 token 平均时，一条回答的份量与它的长度成正比，长回答里的 token 不再被稀释。",
    },
    "weighting.length_bias": {
        "en": "**Length bias (Dr.GRPO).** Under seq-mean-token-mean a short right answer gets a large "
        "push per token, while the tokens of a long wrong answer are pushed down only a little each: "
        "compare the two rows of the table under seq-mean-token-mean. A wrong answer loses less per "
        "token the longer it is, so wrong answers drift longer. Dr.GRPO divides by the constant L_max "
        "instead (one w for every token); token-mean also drops the 1/L_i.",
        "zh": "**长度偏置（Dr.GRPO）。** 在 seq-mean-token-mean 下，简短的正确回答每个 token 得到很大的推力，"
        "而冗长的错误回答每个 token 只被轻轻往下压：对比上表 seq-mean-token-mean 一列的两行。错误回答越长，"
        "每个 token 受到的惩罚越小，于是错误回答会越写越长。Dr.GRPO 改为除以常数 L_max（所有 token 同一个 w）；"
        "token-mean 同样去掉了 1/L_i。",
    },
    "weighting.algos_intro": {
        "en": "**The {n} objectives at r = 1**, each with its own default aggregation ({groups}). "
        "On-policy, each objective's bars equal those of its aggregation mode: before the policy moves, "
        "the objectives differ only in how they average.",
        "zh": "**{n} 个目标函数在 r = 1 时的权重**，各用自己默认的聚合方式（{groups}）。同策略时，"
        "每个目标函数的柱子与它所用聚合方式的柱子完全一样：策略还没动时，各目标函数的区别只在于怎样求平均。",
    },
    "weighting.mode_group": {"en": "{mode}: {names}", "zh": "按 {mode} 聚合：{names}"},
    "weighting.algos_caption": {
        "en": "Hover a bar for the push −∂loss/∂log π from autograd (A·w on-policy). The sequence-level "
        "objectives ({sequence}) match the token-level ones here because s = r = 1; they part ways as "
        "soon as the policy moves (next section).",
        "zh": "把鼠标移到柱子上可以看到自动微分得到的推力 −∂loss/∂log π（同策略时等于 A·w）。"
        "序列级目标（{sequence}）在这里与 token 级目标一致，因为 s = r = 1；策略一旦移动，它们就分道扬镳（见下一节）。",
    },
    # ---------------------------------------------------------------- 2. off-policy tokens
    "weighting.off_header": {"en": "A response with a few off-policy tokens", "zh": "含少数异策略 token 的回答"},
    "weighting.off_lead": {
        "en": "After one update a few tokens' ratios move far from 1. Each bar is one token's push divided by "
        "its push at r = 1: 1 untouched, 0 no gradient.",
        "zh": "更新一次之后，少数 token 的比率远离 1。每根柱子是该 token 的推力除以 r = 1 时的推力：1 表示不受影响，"
        "0 表示没有梯度。",
    },
    "weighting.off_intro": {
        "en": "After the first update on a batch the ratios move away from 1, and a few tokens usually "
        "move far more than the rest. Here one response of L tokens has k tokens at ratio r (hatched "
        "bars on grey bands); every other token sits at r = 1. Each bar is that token's push divided by "
        "its push at r = 1: 1 means untouched, 0 means no gradient at all.",
        "zh": "在同一批数据上做过第一次更新之后，比率就离开了 1，而且往往有少数 token 比其余的偏离得多得多。"
        "这里一条长度为 L 的回答中有 k 个 token 的比率为 r（灰色底带上带斜纹的柱子），其余 token 都在 r = 1。"
        "每根柱子是该 token 的推力除以它在 r = 1 时的推力：1 表示不受影响，0 表示完全没有梯度。",
    },
    "weighting.length": {"en": "Response length L", "zh": "回答长度 L"},
    "weighting.n_outliers": {"en": "Off-policy tokens k", "zh": "异策略 token 数 k"},
    "weighting.n_outliers_help": {
        "en": "How many tokens moved, spread evenly over the response; at most L.",
        "zh": "偏离的 token 个数，均匀分布在回答中；不能超过 L。",
    },
    "weighting.outlier_ratio": {"en": "Their ratio r = π/π_old", "zh": "它们的比率 r = π/π_old"},
    "weighting.outlier_ratio_help": {
        "en": "How far they moved: below 1 the new policy made them less likely, above 1 more likely.",
        "zh": "偏离有多远：小于 1 表示新策略降低了它们的概率，大于 1 表示提高了。",
    },
    "weighting.sign": {"en": "Advantage", "zh": "优势"},
    "weighting.sign_help": {
        "en": "The sign of the response's advantage: +1, better than its group (pushed up), or −1, worse "
        "(pushed down).",
        "zh": "这条回答优势的符号：+1 表示比组内平均好（概率被推高），−1 表示更差（概率被压低）。",
    },
    "weighting.noise": {"en": "Noise σ on every log-ratio", "zh": "每个对数比率上的噪声 σ"},
    "weighting.noise_help": {
        "en": "Adds N(0, σ²) to every token's log-ratio (drawn with the sidebar seed), so the other tokens "
        "are not exactly at r = 1.",
        "zh": "给每个 token 的对数比率加上 N(0, σ²) 噪声（用侧边栏的随机种子抽样），其余 token 就不再恰好是 r = 1。",
    },
    "weighting.clip": {"en": "Clipping on", "zh": "开启裁剪"},
    "weighting.clip_help": {
        "en": "Off: every ε is made very wide, to see the objectives without their clip (GSPO then gives "
        "every token of the response the same push s·A/|y|).",
        "zh": "关闭时把所有 ε 设得极宽，看看去掉裁剪后的目标函数（这时 GSPO 给回答里每个 token 的推力都是同一个 s·A/|y|）。",
    },
    "weighting.algorithms": {"en": "Algorithms", "zh": "算法"},
    "weighting.pick_algorithm": {"en": "Choose at least one algorithm.", "zh": "请至少选择一个算法。"},
    "weighting.panel_note": {
        "en": "{states} · total ÷ r=1: {total}",
        "zh": "{states} · 总推力 ÷ r=1：{total}",
    },
    "weighting.note_active": {"en": "all active", "zh": "全部生效"},
    "weighting.note_clipped": {"en": "{share} clipped", "zh": "{share} 被裁剪"},
    "weighting.note_capped": {"en": "{share} capped", "zh": "{share} 被截顶"},
    "weighting.note_gated": {"en": "{share} gated", "zh": "{share} 被门控"},
    "weighting.note_masked": {"en": "{share} masked", "zh": "{share} 被屏蔽"},
    "weighting.off_notes_caption": {
        "en": "Each panel's title gives the share of its tokens in each state (clipped: zero gradient; "
        "capped: bounded gradient, not zero; gated: scaled down by a soft gate) and the response's total "
        "push relative to on-policy; hover a bar for one token; the table below has every number.",
        "zh": "每个面板标题给出各状态 token 的占比（被裁剪：梯度为零；被截顶：梯度有界但不为零；被门控：被软门控缩小）"
        "以及整条回答的总推力相对于同策略时的倍数；鼠标悬停看单个 token；下表列出全部数字。",
    },
    "weighting.state_active": {"en": "active: full gradient", "zh": "生效：完整梯度"},
    "weighting.state_clipped": {"en": "clipped: zero gradient", "zh": "被裁剪：梯度为零"},
    "weighting.state_capped": {"en": "capped: bounded gradient, not zero", "zh": "被截顶：梯度有界但不为零"},
    "weighting.state_gated": {"en": "gated: scaled down by the soft gate", "zh": "被门控：软门控把梯度缩小"},
    "weighting.state_masked": {"en": "masked: out of the loss", "zh": "被屏蔽：不进入损失"},
    "weighting.relative": {"en": "push ÷ push at r = 1", "zh": "推力 ÷ r = 1 时的推力"},
    "weighting.ratio_used": {"en": "ratio the algorithm uses", "zh": "算法实际使用的比率"},
    "weighting.off_formula_caption": {
        "en": "The push of a token inside the trust region. GRPO clips each token on its own; GSPO clips "
        "its one ratio s, so all tokens of a response share one fate; SAPO multiplies each token by "
        "its gate f′(r_t), which is 1 at r = 1 and decays smoothly, never to exactly 0; GMPO clips each "
        "log-ratio (in log space) before the geometric mean; CISPO caps the weight but keeps the gradient.",
        "zh": "以上是信任域内单个 token 的推力。GRPO 对每个 token 单独裁剪；GSPO 裁剪的是唯一的比率 s，"
        "所以一条回答里的 token 同进同退；SAPO 给每个 token 乘上门控 f′(r_t)，它在 r = 1 处为 1，"
        "之后平滑衰减，但永远不会恰好为 0；GMPO 在取几何平均之前先在对数空间裁剪每个对数比率；"
        "CISPO 截顶的是权重，梯度仍然保留。",
    },
    "weighting.read_seq_clipped": {
        "en": "**{name}** sees one sequence ratio s = {s}, outside its trust region, so the whole response "
        "is clipped: {k} off-policy tokens cost the other {rest} {rest:plural:token|tokens} their gradient too.",
        "zh": "**{name}** 只看一个序列比率 s = {s}，它落在信任域之外，于是整条回答都被裁剪：{k} 个异策略 token "
        "连累其余 {rest} 个 token 也失去了梯度。",
    },
    "weighting.read_seq_clipped_none": {
        "en": "**{name}** sees one sequence ratio s = {s}, outside its trust region, so the whole response "
        "is clipped: none of its {L} {L:plural:token|tokens} gets a gradient.",
        "zh": "**{name}** 只看一个序列比率 s = {s}，它落在信任域之外，于是整条回答都被裁剪：{L} 个 token 全都没有梯度。",
    },
    "weighting.read_seq_kept": {
        "en": "**{name}** sees one sequence ratio s = {s}; its clip does not act here, so every token of the "
        "response gets the same push s·A/|y| (hover the bars): the {k} off-policy tokens are not singled "
        "out from the other {rest}.",
        "zh": "**{name}** 只看一个序列比率 s = {s}；这里裁剪没有起作用，所以回答中每个 token 的推力都是同一个 "
        "s·A/|y|（鼠标悬停可见）：{k} 个异策略 token 与其余 {rest} 个 token 没有区别对待。",
    },
    "weighting.read_seq_kept_none": {
        "en": "**{name}** sees one sequence ratio s = {s}; its clip does not act here, so all {L} {L:plural:token|tokens} of "
        "the response get the same push s·A/|y| (hover the bars), however their own ratios r_t vary.",
        "zh": "**{name}** 只看一个序列比率 s = {s}；这里裁剪没有起作用，所以回答中全部 {L} 个 token 的推力都是同一个 "
        "s·A/|y|（鼠标悬停可见），不管它们各自的比率 r_t 怎样起伏。",
    },
    "weighting.read_seq_mixed": {
        "en": "**{name}** clips {n} of the {L} {L:plural:token|tokens} one by one (their push is 0) before it averages, and "
        "gives every other token one shared push s·A/|y| with s = {s}.",
        "zh": "**{name}** 在求平均之前逐个裁剪了 {L} 个 token 中的 {n} 个（它们的推力为 0），"
        "其余每个 token 共享同一个推力 s·A/|y|，其中 s = {s}。",
    },
    "weighting.read_gated": {
        "en": "**{name}** weighs token by token through its soft gate: the off-policy tokens get {out}× their "
        "on-policy push (the gate weight times r), the others {other}×, and nothing is cut to zero. Its gate "
        "spans {gmin}–{gmax} along the response: when that range is narrow the gate acts on the whole "
        "response at once, like a smooth sequence-level clip; when it is wide it acts on single tokens, "
        "like a token-level clip.",
        "zh": "**{name}** 通过软门控逐个 token 加权：异策略 token 得到同策略推力的 {out} 倍（门控权重再乘以 r），"
        "其余 token 为 {other} 倍，没有任何 token 被砍成零。它的门控值在这条回答上介于 {gmin} 到 {gmax} 之间："
        "区间很窄时，门控相当于作用在整条回答上，像平滑版的序列级裁剪；区间很宽时，它逐个 token 起作用，"
        "更像 token 级裁剪。",
    },
    "weighting.read_gated_none": {
        "en": "**{name}** weighs token by token through its soft gate (on average {other}× the on-policy "
        "push; nothing is cut to zero). Its gate spans {gmin}–{gmax} along the response: when that range "
        "is narrow the gate acts on the whole response at once, like a smooth sequence-level clip; when "
        "it is wide it acts on single tokens, like a token-level clip.",
        "zh": "**{name}** 通过软门控逐个 token 加权（平均为同策略推力的 {other} 倍，没有任何 token 被砍成零）。"
        "它的门控值在这条回答上介于 {gmin} 到 {gmax} 之间：区间很窄时，门控相当于作用在整条回答上，"
        "像平滑版的序列级裁剪；区间很宽时，它逐个 token 起作用，更像 token 级裁剪。",
    },
    "weighting.read_capped": {
        "en": "**{name}** caps a token's weight instead of cutting its gradient: off-policy tokens {out}×, "
        "the others {other}×; {n} of the {L} {L:plural:token|tokens} are capped, and {grad} of all tokens keep a gradient.",
        "zh": "**{name}** 截顶的是 token 的权重，而不是砍掉它的梯度：异策略 token 为 {out} 倍，其余为 {other} 倍；"
        "{L} 个 token 中有 {n} 个被截顶，有梯度的 token 占 {grad}。",
    },
    "weighting.read_token": {
        "en": "**{name}** weighs token by token: off-policy tokens {out}×, the others {other}×. A token is "
        "cut to zero only past the edge of its trust region on the side its advantage pushes toward "
        "(A > 0 and r above it, or A < 0 and r below it); on the other side its push grows with r.",
        "zh": "**{name}** 逐个 token 加权：异策略 token 为 {out} 倍，其余为 {other} 倍。只有当 token 越过优势"
        "推动方向那一侧的信任域边界（A > 0 且 r 高于上界，或 A < 0 且 r 低于下界）时才被砍成零；"
        "在另一侧，推力随 r 增大。",
    },
    "weighting.read_same": {
        "en": "**{name}** gives every token the same push as **{first}** here (largest difference {diff}).",
        "zh": "**{name}** 在这里给每个 token 的推力与 **{first}** 完全相同（最大差异 {diff}）。",
    },
    "weighting.off_try": {
        "en": "**Try this.** (1) A = −1 and r = 3: GRPO does not clip these tokens and pushes them 3× as "
        "hard; for A < 0 the ratio GRPO lets through is unbounded above, a wider and noisier range than "
        "the [0, 1 + ε] it keeps for A > 0. (2) k = 0, noise σ = 0.02, clipping off: GRPO's bars follow "
        "each token's r_t while GSPO's are all the same s. (3) k = 1 and L = 400: a single wild token "
        "still sinks GSPO's whole response, while SAPO and GRPO keep the other 399 learning.",
        "zh": "**可以试试：**（1）A = −1、r = 3：GRPO 不裁剪这些 token，反而以 3 倍的力度压低它们；A < 0 时 GRPO "
        "放行的比率没有上界，比 A > 0 时的 [0, 1 + ε] 宽得多、噪声也大得多。（2）k = 0、噪声 σ = 0.02、关闭裁剪："
        "GRPO 的柱子随每个 token 的 r_t 起伏，而 GSPO 的柱子全都等于同一个 s。（3）k = 1、L = 400："
        "一个失控的 token 仍会让 GSPO 的整条回答失去梯度，而 SAPO 和 GRPO 让其余 399 个 token 照常学习。",
    },
    "weighting.col_algorithm": {"en": "algorithm", "zh": "算法"},
    "weighting.col_ratio_min": {"en": "smallest ratio used", "zh": "所用比率最小值"},
    "weighting.col_ratio_max": {"en": "largest ratio used", "zh": "所用比率最大值"},
    "weighting.col_clip_fraction": {"en": "clip fraction", "zh": "裁剪比例"},
    "weighting.col_grad_tokens": {"en": "tokens with gradient", "zh": "有梯度的 token 占比"},
    "weighting.col_total_relative": {"en": "total push ÷ r=1", "zh": "总推力 ÷ r=1"},
    "weighting.col_outlier_relative": {"en": "off-policy tokens ÷ r=1", "zh": "异策略 token ÷ r=1"},
    "weighting.col_other_relative": {"en": "other tokens ÷ r=1", "zh": "其余 token ÷ r=1"},
    # ---------------------------------------------------------------- 3. noise vs length
    "weighting.noise_header": {
        "en": "Why GSPO's ε is about 1e-4 and GRPO's is 0.2",
        "zh": "为什么 GSPO 的 ε 约为 1e-4，而 GRPO 的是 0.2",
    },
    "weighting.noise_lead": {
        "en": "A token's log-ratio wobbles by σ at any length; GSPO's log s averages L of them, so its spread "
        "shrinks with length and its ε has to be much smaller.",
        "zh": "单个 token 的对数比率无论多长都以 σ 抖动；GSPO 的 log s 是 L 个抖动的平均，离散程度随长度缩小，"
        "所以它的 ε 必须小得多。",
    },
    "weighting.noise_intro": {
        "en": "Suppose every token's log-ratio log r_t wobbles independently with standard deviation σ. "
        "A single token's ratio then varies on the scale σ whatever the length, so GRPO's per-token ε "
        "has to be wide. GSPO's log s is the *mean* of L such wobbles, so it shrinks as responses get "
        "longer, and its ε has to match that much smaller scale. Without the 1/|y|, the log of the plain "
        "product Π r_t is their *sum*, which grows with L instead. All of it is sampled (sidebar seed) "
        "and passed through `policy_loss`.",
        "zh": "假设每个 token 的对数比率 log r_t 都以标准差 σ 独立抖动。那么单个 token 的比率无论回答多长都在 σ "
        "的尺度上波动，所以 GRPO 逐 token 的 ε 必须放得比较宽。GSPO 的 log s 是 L 个抖动的*平均*，回答越长它越小，"
        "所以它的 ε 必须与这个小得多的尺度相匹配。如果不除以 |y|，直接连乘 Π r_t 的对数就是这些抖动的*总和*，"
        "反而随 L 增大。以下全部由抽样得到（使用侧边栏的随机种子），并经过 `policy_loss` 计算。",
    },
    "weighting.sigma": {"en": "Token log-ratio noise σ", "zh": "token 对数比率噪声 σ"},
    "weighting.sigma_help": {
        "en": "The default 0.02 is about the spread of token log-ratios that one AdamW step at learning rate "
        "1e-5 gives the tiny LM (the last section measures it for its own settings); LLM updates are "
        "usually smaller.",
        "zh": "默认值 0.02 大约是微型语言模型在学习率 1e-5 下做一步 AdamW 后 token 对数比率的离散程度"
        "（最后一节会按它自己的设置实测）；大模型的更新通常更小。",
    },
    "weighting.n_samples": {"en": "Responses per length N", "zh": "每个长度的回答数 N"},
    "weighting.n_samples_help": {
        "en": "More responses give smoother curves; 5000 takes about a second.",
        "zh": "回答越多曲线越平滑；5000 条大约需要一秒。",
    },
    "weighting.noise_running": {"en": "Sampling token noise…", "zh": "正在抽样 token 噪声……"},
    "weighting.var_title": {"en": "variance vs length (log–log)", "zh": "方差随长度的变化（双对数坐标）"},
    "weighting.clip_title": {"en": "share clipped at the default ε", "zh": "默认 ε 下被裁剪的比例"},
    "weighting.length_axis": {"en": "response length L (tokens)", "zh": "回答长度 L（token 数）"},
    "weighting.var_s": {"en": "var(log s): GSPO's sequence ratio", "zh": "var(log s)：GSPO 的序列比率"},
    "weighting.var_product": {"en": "var(log Π r<sub>t</sub>): no 1/|y|", "zh": "var(log Π r<sub>t</sub>)：不除以 |y|"},
    # a clip-share line of the noise figure, by the algorithm's ratio level (its title from the registry)
    "weighting.clip_line.sequence": {
        "en": "{title} (ε = {eps}): responses clipped",
        "zh": "{title}（ε = {eps}）：被裁剪的回答",
    },
    "weighting.clip_line.token": {
        "en": "{title} (ε = {eps}): tokens clipped",
        "zh": "{title}（ε = {eps}）：被裁剪的 token",
    },
    "weighting.noise_reading": {
        "en": "**Measured:** var(log s) falls with slope {slope} on the log–log plot, that is as 1/L: "
        "var(log s)·L stays near {varl} (σ² = {sigma2}). At L = {L}, log s has a standard deviation of "
        "only {std}, the same order as GSPO's ε_high = {eps_gspo}, while a single token's log-ratio still "
        "varies by σ. So at L = {L} GSPO clips {gspo} of the responses (a response is clipped only when s "
        "leaves the trust region on the side its advantage pushes toward, so at most about half of them), "
        "while GRPO with ε = {eps_grpo} clips {grpo} of the tokens: a sequence-level clip needs an ε sized "
        "for sequences. Without the 1/|y|, log Π r_t has a standard deviation of {product} at L = {L}: the "
        "plain product explodes or vanishes as responses grow.",
        "zh": "**实测结果：** 在双对数坐标上 var(log s) 以斜率 {slope} 下降，也就是按 1/L 衰减：var(log s)·L "
        "始终在 {varl} 附近（σ² = {sigma2}）。在 L = {L} 时，log s 的标准差只有 {std}，与 GSPO 的 "
        "ε_high = {eps_gspo} 同一量级，而单个 token 的对数比率仍然以 σ 的幅度波动。因此在 L = {L} 时，"
        "GSPO 裁掉了 {gspo} 的回答（只有当 s 越过优势推动方向那一侧的信任域边界时才会裁剪，所以最多约一半），"
        "而 ε = {eps_grpo} 的 GRPO 只裁掉了 {grpo} 的 token：序列级裁剪需要按序列尺度设定的 ε。"
        "如果不除以 |y|，L = {L} 时 log Π r_t 的标准差为 {product}：回答越长，直接连乘的比率就越容易爆炸或趋于零。",
    },
    "weighting.noise_caption": {
        "en": "Real token ratios are neither independent nor Gaussian: a few tokens move far more than the "
        "rest (previous section), which is why GRPO does clip some tokens in practice. The 1/L trend "
        "of a mean holds for any independent noise with a finite variance.",
        "zh": "真实的 token 比率既不独立也不服从正态分布：少数 token 的偏离远大于其余 token（见上一节），"
        "所以实际训练中 GRPO 也会裁掉一些 token。对任何方差有限的独立噪声，平均值按 1/L 衰减的规律都成立。",
    },
    # ---------------------------------------------------------------- 4. a real group
    "weighting.real_header": {"en": "The same view on a real group", "zh": "在真实的一组回答上看"},
    "weighting.real_lead": {
        "en": "The tiny LM answers one prompt G times and takes one real AdamW step; each cell is a token, "
        "coloured by its push (orange: up, purple: down, white: no gradient).",
        "zh": "微型语言模型对一个提示词回答 G 次，再真实地更新一步；每个格子是一个 token，颜色表示它的推力"
        "（橙色：推高，紫色：压低，白色：没有梯度）。",
    },
    "weighting.real_intro": {
        "en": "The tiny LM answers one prompt G times; the verifier scores the answers and GRPO turns the "
        "scores into group advantages. Then one real AdamW step with GRPO's loss moves the policy and "
        "the log-probabilities are computed again, so the ratios below are those a second update on "
        "the same samples would see. Each cell is one token, coloured by its push under the chosen "
        "objective (orange: pushed up, purple: pushed down, white: no gradient).",
        "zh": "微型语言模型对同一个提示词回答 G 次；验证器给每个回答打分，GRPO 再把分数变成组内相对优势。"
        "接着用 GRPO 的损失真实地做一步 AdamW 更新，然后重新计算对数概率，所以下面的比率正是在同一批样本上"
        "做第二次更新时会看到的比率。每个格子是一个 token，颜色表示它在所选目标函数下的推力"
        "（橙色：被推高，紫色：被压低，白色：没有梯度）。",
    },
    "weighting.prompt": {"en": "Prompt (a+b=)", "zh": "提示词（a+b=）"},
    "weighting.prompt_auto": {
        "en": "empty: the first of 8 drawn prompts with mixed answers",
        "zh": "留空：从随机抽取的 8 个提示词中选第一个回答有对有错的",
    },
    "weighting.prompt_help": {
        "en": "An addition such as 37+5= (numbers of up to 3 digits). The model writes the digits of the "
        "sum in reverse order.",
        "zh": "形如 37+5= 的加法（每个数最多 3 位）。模型把和的各位数字倒序写出。",
    },
    "weighting.group_size": {"en": "Group size G", "zh": "组大小 G"},
    "weighting.lr": {"en": "Learning rate of the one step", "zh": "这一步的学习率"},
    "weighting.lr_help": {
        "en": "This tiny model moves fast: one step at 1e-5 shifts token log-ratios by about 0.02, at 1e-4 "
        "by about 0.2, at 1e-3 by about 2 (a collapsed policy).",
        "zh": "这个微型模型动得很快：学习率 1e-5 的一步会让 token 对数比率变化约 0.02，1e-4 约 0.2，"
        "1e-3 约 2（策略已经崩溃）。",
    },
    "weighting.after": {"en": "After the update", "zh": "更新之后"},
    "weighting.after_help": {
        "en": "Off: the weights at the first, on-policy update (r = 1), where only the aggregation shows.",
        "zh": "关闭时显示第一次（同策略的）更新时的权重（r = 1），这时只体现聚合方式的差别。",
    },
    "weighting.sampling": {"en": "Sampling a group and taking one update…", "zh": "正在采样一组回答并做一步更新……"},
    "weighting.real_failed": {"en": "The tiny LM could not run: {error}", "zh": "微型语言模型无法运行：{error}"},
    "weighting.real_prompt": {
        "en": "Prompt **{prompt}** (expected answer **{answer}**, digits reversed){auto}: {right} of {G} "
        "answers right. After one step at learning rate {lr} the token log-ratios have a standard "
        "deviation of **{sigma}**; try that σ in the previous section.",
        "zh": "提示词 **{prompt}**（正确答案 **{answer}**，数字倒序）{auto}：{G} 个回答中答对 {right} 个。"
        "以学习率 {lr} 更新一步之后，token 对数比率的标准差为 **{sigma}**；可以把这个 σ 放到上一节里试试。",
    },
    "weighting.auto_note": {"en": " (chosen automatically)", "zh": "（自动选择）"},
    "weighting.no_signal": {
        "en": "Every answer in this group got the same reward, so every advantage is 0 and nothing is "
        "pushed: such a group costs compute and teaches nothing. Try another seed or prompt.",
        "zh": "这一组回答的奖励全都相同，所以优势全为 0，没有任何 token 被推动：这样的组白白耗费算力，"
        "什么也学不到。换一个随机种子或提示词试试。",
    },
    "weighting.row_label": {"en": "#{i} {mark} A={adv}", "zh": "#{i} {mark} A={adv}"},
    "weighting.real_note": {
        "en": "clip fraction {clip} · tokens with gradient {grad}",
        "zh": "裁剪比例 {clip} · 有梯度的 token {grad}",
    },
    "weighting.real_note_first": {
        "en": "at r = 1 (the first update): aggregation only",
        "zh": "r = 1（第一次更新）：只体现聚合方式",
    },
    "weighting.real_caption": {
        "en": "Sequence-level objectives show their one ratio per response, s, in the row label. GSPO's trust "
        "region is so narrow that most responses leave it after one step, so many of its rows are blank "
        "(no gradient), while GRPO and SAPO still weigh token by token. All heatmaps share one colour scale.",
        "zh": "序列级目标函数在行标签里给出每条回答唯一的比率 s。GSPO 的信任域非常窄，一步更新之后大多数回答就已越界，"
        "所以它有许多行是空白的（没有梯度），而 GRPO 和 SAPO 仍然逐个 token 加权。所有热力图共用同一个颜色刻度。",
    },
}
