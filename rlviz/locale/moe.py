"""Strings of the MoE routing page (keys ``moe.*``), English and 简体中文.

Merged into :data:`rlviz.i18n.STRINGS`; the same completeness rules apply (tests/test_i18n.py).
Every number in a reading comes from the run through a ``{placeholder}``; none is typed here.
"""

STRINGS: dict[str, dict[str, str]] = {
    "moe.title": {
        "en": "MoE routing: why token ratios swing, and what replay and GSPO do",
        "zh": "MoE 路由：token 比率为何乱跳，路由重放和 GSPO 如何应对",
    },
    "moe.lede": {
        "en": "After an update a token may pass through other experts, and its ratio π/π_old jumps. Does replaying "
        "the old routing, or GSPO's sequence ratio, calm it?",
        "zh": "路由一变，比率就跳：重放和 GSPO 哪个管用？",
    },
    "moe.batch": {"en": "Batch n × G", "zh": "批次 n × G"},
    "moe.intro": {
        "en": "In a mixture-of-experts (MoE) model a router in every layer sends each token to a few experts "
        "(here {top_k} of {experts}). A gradient step moves the routers too, so after an update some tokens go to other "
        "experts. The GSPO paper (arXiv 2507.18071, §5.3) reports that in Qwen3-30B-A3B about {article} of the "
        "experts a token is routed to change after each gradient update. The token ratio π_θ/π_old then also "
        "moves because the token passed through other experts, for reasons unrelated to what the update tried "
        "to teach, and GRPO's per-token clip fires at random. Its authors needed **routing replay** for GRPO "
        "to train stably on MoE models: compute the new policy's probabilities with the old routing. GSPO's "
        "sequence ratio, a geometric mean of the token ratios over the whole response, averages that noise "
        "and trains without replay.",
        "zh": "在混合专家（MoE）模型里，每一层都有一个路由器把每个 token 送给少数几个专家（这里是 {experts} 选 {top_k}）。"
        "一次梯度更新也会改变路由器，所以更新之后有些 token 会被送到别的专家那里。GSPO 论文（arXiv 2507.18071，"
        "§5.3）报告：在 Qwen3-30B-A3B 上，每次梯度更新后，一个 token 所用的专家中约有 {article} 发生变化。"
        "于是 token 比率 π_θ/π_old 也会因为 token 换了专家而变化，这和这次更新想教的东西无关，GRPO 的逐 token "
        "裁剪就会随机地触发。论文作者在 MoE 模型上必须用**路由重放**（routing replay）才能让 GRPO 稳定训练："
        "用旧的路由来计算新策略的概率。GSPO 的序列比率是整条回答上各 token 比率的几何平均，会把这种噪声"
        "平均掉，不需要重放也能训练。",
    },
    "moe.models": {
        "en": "**Two shipped models.** A tiny **Qwen3-MoE** ({layers} layers, {experts} experts per layer, top-{top_k} routing) "
        "and the **dense** tiny LM as the control: the same task and the same measurements, but no router, "
        "so whatever its ratios do comes from the update alone.",
        "zh": "**两个自带模型。** 一个微型 **Qwen3-MoE**（{layers} 层，每层 {experts} 个专家，top-{top_k} 路由），以及作为对照的"
        "**稠密（Dense）微型语言模型**：同样的任务、同样的测量，但没有路由器，所以它的比率怎么变都只来自更新本身。",
    },
    "moe.replay_frameworks": {
        "en": "**Routing replay in verl** is `actor_rollout_ref.actor.router_replay.mode`: **R2** replays the "
        "routing the training engine recorded when it computed the old policy's log-probabilities "
        "(arXiv 2512.01374); **R3** replays the routing the rollout engine (the sampler) used when it "
        "generated the response (arXiv 2510.11370). They differ when the sampler computes in another "
        "precision than the trainer (bf16 against float32) and so picks other experts for some tokens.",
        "zh": "**verl 中的路由重放**设置是 `actor_rollout_ref.actor.router_replay.mode`：**R2** 重放训练引擎在计算"
        "旧策略对数概率时记录的路由（arXiv 2512.01374）；**R3** 重放 rollout 引擎（采样端）生成回答时用的路由"
        "（arXiv 2510.11370）。当采样端和训练端的计算精度不同（bf16 对 float32），对一些 token 选了不同的专家时，"
        "两者就不一样。",
    },
    "moe.formula_caption": {
        "en": "·: the prompt x and the response tokens before y_i,t. e_θ: the experts the routers of θ pick for "
        "the token in each layer; e_old: those of the old policy π_old.",
        "zh": "·：提示词 x 以及 y_i,t 之前的回答 token。e_θ：参数为 θ 的路由器在每一层为该 token 选的专家；"
        "e_old：旧策略 π_old 选的专家。",
    },
    # ------------------------------------------------------------------ widgets shared by both sections
    "moe.model": {"en": "Model", "zh": "模型"},
    "moe.model_help": {
        "en": "**MoE**: the tiny Qwen3-MoE, every token through {top_k} of {experts} experts in each of its {layers} "
        "layers. **Dense**: the dense tiny LM, no router (the control: no routing effect).",
        "zh": "**MoE**：微型 Qwen3-MoE，{layers} 层中的每一层都把每个 token 送给 {experts} 个专家中的 {top_k} 个。"
        "**稠密**：稠密微型语言模型，没有路由器（对照组：没有路由效应）。",
    },
    # the model radios' option labels; the URL carries the keys of rlviz.experiments.moe.MODELS (the page
    # seeds and writes them: app_common.seed_choice_from_url), so a label may differ by language
    "moe.model_code.moe": {"en": "MoE", "zh": "MoE"},
    "moe.model_code.dense": {"en": "Dense", "zh": "稠密"},
    "moe.lr": {"en": "Learning rate", "zh": "学习率"},
    "moe.lr_help": {
        "en": "AdamW learning rate. 0 moves nothing (no route changes, every ratio exactly 1); larger steps "
        "move the routers further.",
        "zh": "AdamW 学习率。取 0 时什么都不变（路由不变，所有比率恰好为 1）；步子越大，路由器变化越大。",
    },
    "moe.prompts": {"en": "Prompts n", "zh": "提示词数 n"},
    "moe.prompts_help": {
        "en": "Prompts in the batch, each answered G times.",
        "zh": "批次中的提示词数，每个提示词采样 G 条回答。",
    },
    "moe.group_size": {"en": "Group size G", "zh": "组大小 G"},
    "moe.group_size_help": {
        "en": "Answers sampled per prompt (TRL num_generations; verl rollout.n).",
        "zh": "每个提示词采样的回答数（TRL：num_generations；verl：rollout.n）。",
    },
    "moe.seed_note": {
        "en": "The prompts and samples follow the seed in the sidebar.",
        "zh": "提示词和采样由侧边栏的随机种子决定。",
    },
    # ------------------------------------------------------------------ arms
    "moe.arm.grpo": {"en": "GRPO", "zh": "GRPO"},
    "moe.arm.grpo_r2": {"en": "GRPO + R2 replay", "zh": "GRPO + R2 路由重放"},
    "moe.arm.grpo_r3": {"en": "GRPO + R3 replay (bf16 sampler)", "zh": "GRPO + R3 路由重放（bf16 采样端）"},
    "moe.arm.gspo": {"en": "GSPO", "zh": "GSPO"},
    # the multiselect shows language-neutral names: its value in the URL stays the same in both languages
    "moe.arm_code.grpo": {"en": "GRPO", "zh": "GRPO"},
    "moe.arm_code.grpo_r2": {"en": "GRPO + R2", "zh": "GRPO + R2"},
    "moe.arm_code.grpo_r3": {"en": "GRPO + R3", "zh": "GRPO + R3"},
    "moe.arm_code.gspo": {"en": "GSPO", "zh": "GSPO"},
    # ------------------------------------------------------------------ 1. one batch, k updates
    "moe.shift_header": {
        "en": "1 · One batch, k updates: how far routing moves",
        "zh": "1 · 一个批次、k 次更新：路由变了多少",
    },
    "moe.shift_text": {
        "en": "One rollout batch (n prompts × G answers sampled from the checkpoint), then k optimizer steps on "
        "it, as an update with μ = k epochs over one mini-batch does, under GRPO, GRPO + R2 and GSPO, each "
        "from the same weights. After every step the batch is routed again with the GRPO arm's new weights, "
        "and for every response token and layer the chosen pair of experts is compared with the old policy's. "
        "The same new weights give each token's log-ratio twice: with their own routing, and with the old "
        "routing replayed. The difference between the two is the routing's part alone.",
        "zh": "先采一个 rollout 批次（n 个提示词 × G 条回答，从检查点采样），然后在这个批次上做 k 次优化器更新，"
        "就像 μ = k、只有一个小批次时那样，分别用 GRPO、GRPO + R2 和 GSPO，都从同一份权重出发。每次更新后，"
        "用 GRPO 这一分支的新权重重新计算批次的路由，对每个回答 token 的每一层，把选中的两个专家和旧策略选的相比较。"
        "同一份新权重还会给出每个 token 的两个对数比率：一个用它自己的路由，一个重放旧路由。两者之差就是单纯由路由"
        "带来的那一部分。",
    },
    "moe.updates": {"en": "Updates k", "zh": "更新次数 k"},
    "moe.updates_help": {
        "en": "Optimizer steps on the one batch; the figures show every step, the numbers the first and the last.",
        "zh": "在同一个批次上做的优化器更新次数；图里画出每一步，数字给出第一步和最后一步。",
    },
    "moe.computing": {
        "en": "Updating: {done} / {total} optimizer {total:plural:step|steps} (all arms)",
        "zh": "正在更新：{done} / {total} 次优化器更新（所有分支合计）",
    },
    "moe.m_first": {"en": "Routes changed after 1 update", "zh": "1 次更新后路由变化"},
    "moe.m_first_help": {
        "en": "Share of (response token, layer) routes whose pair of experts differs from the old policy's.",
        "zh": "（回答 token，层）路由中，所选两个专家与旧策略不同的比例。",
    },
    "moe.m_last": {"en": "Routes changed after {k} {k:plural:update|updates}", "zh": "{k} 次更新后路由变化"},
    "moe.m_article": {"en": "GSPO paper, per update", "zh": "GSPO 论文，每次更新"},
    "moe.m_article_help": {
        "en": "Qwen3-30B-A3B (48 layers, 128 experts, 8 active), arXiv 2507.18071 §5.3.",
        "zh": "Qwen3-30B-A3B（48 层，128 个专家，激活 8 个），arXiv 2507.18071 §5.3。",
    },
    "moe.m_article_value": {"en": "≈ {share}", "zh": "≈ {share}"},
    "moe.m_sampler": {"en": "bf16 sampler routes differently", "zh": "bf16 采样端路由不同"},
    "moe.m_sampler_help": {
        "en": "The same weights in bfloat16, as an inference engine holds them, pick other experts for this share "
        "of the routes than the float32 trainer, before any update. That difference is what R3 replays and R2 "
        "does not.",
        "zh": "同一份权重转成 bfloat16（推理引擎通常这样保存）后，在任何更新之前，就有这么多比例的路由选了和 "
        "float32 训练端不同的专家。R3 重放的正是这部分差异，R2 则不管它。",
    },
    "moe.m_clip": {"en": "Clip fraction at update {k} · {arm}", "zh": "第 {k} 次更新的裁剪比例 · {arm}"},
    "moe.m_clip_help": {
        "en": "The share of response tokens the clip acted on in the loss of update {k} (the last).",
        "zh": "第 {k} 次（最后一次）更新的损失中，被裁剪作用到的回答 token 占比。",
    },
    "moe.dl_arms": {"en": "Each arm, per update (CSV)", "zh": "每个分支、每次更新的数据（CSV）"},
    "moe.dl_routes": {"en": "Route changes per layer (CSV)", "zh": "各层路由变化（CSV）"},
    "moe.dense_note": {
        "en": "The dense model has no routers: there are no routes to change and no R2 arm. The ratio figures "
        "below are the control: every movement of its token ratios is the update itself.",
        "zh": "稠密模型没有路由器：没有可变化的路由，也没有 R2 这一分支。下面的比率图是对照组：它的 token 比率的"
        "每一点变化都来自更新本身。",
    },
    "moe.route_header": {"en": "Which routes changed", "zh": "哪些路由变了"},
    "moe.update": {"en": "update", "zh": "更新次数"},
    "moe.share": {"en": "routes changed", "zh": "路由变化比例"},
    "moe.all_layers": {"en": "all layers", "zh": "所有层"},
    "moe.layer": {"en": "layer {i}", "zh": "第 {i} 层"},
    "moe.article_line": {"en": "GSPO paper: ≈ {share} / update", "zh": "GSPO 论文：每次更新 ≈ {share}"},
    "moe.route_caption": {
        "en": "Share of (response token, layer) routes whose pair of experts differs from the old policy's "
        "after each update, per layer and over all layers (black), on the GRPO arm's weights. Dashed: the "
        "≈ {article} per update the GSPO paper reports for Qwen3-30B-A3B, a far larger model; here the "
        "learning rate sets how far the routers move.",
        "zh": "每次更新后，（回答 token，层）路由中所选两个专家与旧策略不同的比例，分层画出，黑线是所有层的平均，"
        "在 GRPO 这一分支的权重上测量。虚线：GSPO 论文对 Qwen3-30B-A3B（一个大得多的模型）报告的每次更新约 "
        "{article}；在这里，路由器变化多少由学习率决定。",
    },
    "moe.read_lr0": {
        "en": "At learning rate 0 the weights do not move: no route changed and every ratio is exactly 1.",
        "zh": "学习率为 0 时权重不动：没有任何路由变化，所有比率都恰好为 1。",
    },
    "moe.read_share": {
        "en": "At learning rate {lr}, one update changed the experts of **{first}** of the response routes, "
        "{cmp} the ≈ {article} the GSPO paper reports.",
        "zh": "学习率为 {lr} 时，一次更新就改变了 **{first}** 的回答路由所用的专家，{cmp} GSPO 论文报告的约 {article}。",
    },
    "moe.read_share_more": {
        "en": " After {k} {k:plural:update|updates} on the same batch **{last}** had changed; layer {layer} changed the most "
        "({layer_share} after update {k}).",
        "zh": "在同一个批次上更新 {k} 次后，变化的比例是 **{last}**；变化最多的是第 {layer} 层（第 {k} 次更新后为 "
        "{layer_share}）。",
    },
    "moe.read_share_layer": {
        "en": " Layer {layer} changed the most ({layer_share}).",
        "zh": "变化最多的是第 {layer} 层（{layer_share}）。",
    },
    "moe.cmp.above": {"en": "above", "zh": "高于"},
    "moe.cmp.below": {"en": "below", "zh": "低于"},
    "moe.cmp.equal": {"en": "about the same as", "zh": "约等于"},
    # ------------------------------------------------------------------ ratios
    "moe.ratio_header": {"en": "What routing does to the ratio", "zh": "路由对比率的影响"},
    "moe.kind.token_own": {"en": "token, own routing", "zh": "token，自身路由"},
    "moe.kind.token_replay": {"en": "token, old routing replayed", "zh": "token，重放旧路由"},
    "moe.kind.sequence": {"en": "GSPO sequence log s", "zh": "GSPO 序列 log s"},
    "moe.kind.routing": {"en": "own − replay", "zh": "自身 − 重放"},
    "moe.log_ratio": {"en": "log-ratio log(π/π_old)", "zh": "对数比率 log(π/π_old)"},
    "moe.routing_axis": {"en": "routing part: own − replay", "zh": "路由部分：自身 − 重放"},
    "moe.token_share": {"en": "share", "zh": "占比"},
    "moe.panel.ratios": {"en": "Log-ratios after update {k}", "zh": "第 {k} 次更新后的对数比率"},
    "moe.panel.routing": {"en": "The routing's part alone", "zh": "单纯由路由带来的部分"},
    "moe.ratio_caption": {
        "en": "Left: how far each token's probability moved after update {k}, log(π/π_old), with the token's own "
        "routing (red) and with the old routing replayed (blue, dashed), and GSPO's sequence log-ratio log s "
        "(green, dotted; one value per response). Right: the routing's part, own minus replay, token by token "
        "(MoE only). σ in the legend: the standard deviation over all values. The axes span the "
        "middle 95% of the values; the rest are counted in the end bins.",
        "zh": "左：第 {k} 次更新后每个 token 的概率变了多少，即 log(π/π_old)：用 token 自身的路由（红色），"
        "以及重放旧路由（蓝色虚线）；还有 GSPO 的序列对数比率 log s（绿色点线，每条回答一个值）。右：路由部分，"
        "逐 token 的“自身 − 重放”（仅 MoE）。图例中的 σ 是全部数值的标准差。坐标轴只覆盖中间 95% 的数值，其余的计入两端的区间。",
    },
    "moe.read_replay": {
        "en": "After update {k} the token log-ratio has σ = **{own}** with its own routing and σ = **{rep}** with "
        "the old routing replayed: replay {effect}. The routing's part alone (own − replay) has σ = {routing}, "
        "{pct} of the own-routing σ: {verdict}",
        "zh": "第 {k} 次更新后，token 对数比率用自身路由时 σ = **{own}**，重放旧路由时 σ = **{rep}**：重放{effect}。"
        "单纯路由部分（自身 − 重放）的 σ = {routing}，是自身路由 σ 的 {pct}：{verdict}",
    },
    "moe.effect.narrowed": {"en": "narrowed the spread by {pct}", "zh": "把分布宽度缩小了 {pct}"},
    "moe.effect.widened": {"en": "did not narrow it (it is {pct} wider)", "zh": "没有让分布变窄（反而宽了 {pct}）"},
    "moe.effect.same": {"en": "left the spread unchanged", "zh": "没有改变分布宽度"},
    "moe.verdict.update": {
        "en": "replay hardly changes how wide the spread is, so at these settings the update itself makes the "
        "spread, and routing only moves some tokens up and others down within it.",
        "zh": "重放几乎不改变分布的宽度，所以在这组设置下波动来自更新本身，路由只是让其中一些 token 上移、另一些下移。",
    },
    "moe.verdict.routing": {
        "en": "replay narrows the spread by a tenth or more, so at these settings routing adds a visible part "
        "of the ratio's spread.",
        "zh": "重放让分布至少窄了十分之一，所以在这组设置下路由为比率的波动贡献了明显的一部分。",
    },
    "moe.read_sequence": {
        "en": "GSPO's sequence log-ratio log s has σ = **{seq}**, only {pct} of the token log-ratio's {own}: the "
        "geometric mean over the response averages the token swings, routing ones included.",
        "zh": "GSPO 的序列对数比率 log s 的 σ = **{seq}**，只有 token 对数比率 σ（{own}）的 {pct}：在整条回答上"
        "取几何平均，把逐 token 的波动（包括路由带来的）平均掉了。",
    },
    "moe.read_sequence_not": {
        "en": "GSPO's sequence log-ratio log s has σ = **{seq}**, not smaller than the token log-ratio's {own} "
        "at these settings.",
        "zh": "在这组设置下，GSPO 的序列对数比率 log s 的 σ = **{seq}**，并不比 token 对数比率的 {own} 小。",
    },
    "moe.read_dense": {
        "en": "After update {k} the dense model's token log-ratio has σ = **{own}** and GSPO's sequence log-ratio "
        "σ = **{seq}**, with no router involved: this spread is the update alone.",
        "zh": "第 {k} 次更新后，稠密模型的 token 对数比率 σ = **{own}**，GSPO 的序列对数比率 σ = **{seq}**，"
        "其中没有任何路由器参与：这些波动完全来自更新本身。",
    },
    "moe.arms_header": {"en": "What each arm's clip saw", "zh": "各分支的裁剪在每次更新中作用了多少"},
    "moe.metric.clip_fraction": {"en": "clip fraction", "zh": "裁剪比例"},
    "moe.metric.ratio_var": {"en": "variance of the ratio the loss used", "zh": "损失所用比率的方差"},
    "moe.metric.token_log_ratio_std": {"en": "σ of the token log-ratio", "zh": "token 对数比率的 σ"},
    "moe.arms_caption": {
        "en": "What each arm's loss saw at each update: the share of tokens its clip acted on, the variance of the "
        "ratio it used (GRPO: token ratios; GSPO: the sequence ratio, the same for every token of a response) "
        "and the spread of the token log-ratio. The loss of update j is computed with the weights after j − 1 "
        "steps, so update 1 is on-policy: every ratio is 1 and nothing is clipped. GSPO's clip acts on whole "
        "responses with ε_low / ε_high = {eps_low} / {eps_high}, so its clip fraction is on another scale than "
        "GRPO's (claim 11 on the weighting page).",
        "zh": "每个分支的损失在每次更新时看到的：被裁剪的 token 占比、所用比率的方差（GRPO：token 比率；GSPO："
        "序列比率，一条回答里每个 token 都相同），以及 token 对数比率的波动。第 j 次更新的损失是用 j − 1 步之后的"
        "权重算的，所以第 1 次更新是同策略的：所有比率都是 1，什么都不裁剪。GSPO 以整条回答为单位裁剪，"
        "ε_low / ε_high = {eps_low} / {eps_high}，所以它的裁剪比例和 GRPO 的不在同一个量级上（见加权页面的第 11 条）。",
    },
    "moe.read_clip": {
        "en": "Share of the response tokens the clip acted on at update {k}:",
        "zh": "第 {k} 次更新时，被裁剪作用到的回答 token 占比：",
    },
    "moe.read_clip_part": {"en": "{arm}: **{share}** of its tokens", "zh": "{arm}：**{share}** 的 token"},
    "moe.strip_header": {"en": "One response, token by token", "zh": "一条回答，逐 token 查看"},
    "moe.strip_caption": {
        "en": "The response of the batch with the most changed routes after update {k} (prompt `{prompt}`). "
        "Darker: more of its {layers} layers sent the token to another pair of experts. Hover over a token "
        "for its log-ratio with its own routing, with the old routing replayed, and the difference.",
        "zh": "批次中第 {k} 次更新后路由变化最多的那条回答（提示词 `{prompt}`）。颜色越深：在 {layers} 层中有越多层"
        "把这个 token 送到了另一对专家。鼠标悬停在 token 上，可以看到它用自身路由、重放旧路由时的对数比率以及两者之差。",
    },
    "moe.strip.layers_changed": {"en": "layers changed", "zh": "变化的层数"},
    "moe.strip.own": {"en": "log-ratio, own routing", "zh": "对数比率（自身路由）"},
    "moe.strip.replay": {"en": "log-ratio, old routing", "zh": "对数比率（旧路由）"},
    "moe.strip.routing": {"en": "routing part", "zh": "路由部分"},
    "moe.batch_note": {
        "en": "The batch: mean reward {reward}, {signal} of {groups} {groups:plural:group|groups} with a non-zero advantage.",
        "zh": "这个批次：平均奖励 {reward}，{groups} 个组中有 {signal} 个组优势不为零。",
    },
    # ------------------------------------------------------------------ 2. live
    "moe.live_header": {
        "en": "2 · Live: GRPO vs GRPO + replay vs GSPO",
        "zh": "2 · 实时对比：GRPO、GRPO + 路由重放、GSPO",
    },
    "moe.live_text": {
        "en": "The arms train side by side from one checkpoint and seed, on a fresh batch each step (μ updates per "
        "batch, in mini-batches), as on the live page. Each step logs the share of routes that changed between "
        "the sampled batch's old policy and the updated one, the variance of the token ratio, the clip fraction "
        "and the KL to the starting model. A step is marked ✕ (collapse) when the training reward's mean over "
        "{window} steps has fallen below its best by at least {drop} and by more than {se} standard errors of "
        "the difference (a small batch's noise does not count), while the KL has jumped to more than {jump}× its "
        "value at that best step and above {kl_floor}, or the token-ratio variance to more than {jump}× and above "
        "{var_floor}.\n\n"
        "**GRPO + R3** (an arm you can add above) samples with a bfloat16 copy of the policy, as an inference "
        "engine would, and replays the "
        "routing that sampler chose: with a float32 sampler its routing would equal the trainer's, and R3 would "
        "be R2.",
        "zh": "几个分支从同一个检查点、同一个随机种子出发并排训练，每一步采一个新批次（每个批次做 μ 次更新，分小批次），"
        "和实时策略更新页面一样。每一步记录：采样时的旧策略与更新后策略之间路由变化的比例、token 比率的方差、"
        "裁剪比例，以及与初始模型的 KL。如果训练奖励的 {window} 步平均值比它的最好值低了至少 {drop}，并且超过两者之差"
        "的 {se} 个标准误（小批次的噪声不算），同时 KL 跳到最好那一步的 {jump} 倍以上且超过 {kl_floor}，或 token "
        "比率方差跳到 {jump} 倍以上且超过 {var_floor}，这一步就标上 ✕（崩溃）。\n\n"
        "**GRPO + R3**（可在上面的分支中加入）用策略的 bfloat16 副本采样（就像推理引擎那样），并重放这个采样端选的路由：如果采样端也是 "
        "float32，它的路由就和训练端的完全一样，R3 也就等于 R2。",
    },
    "moe.live_lede": {
        "en": "The arms train side by side from one checkpoint: press **Run** and watch the ratio's variance, the "
        "clip and the reward.",
        "zh": "各分支从同一检查点并排训练：点 **开始训练**，看比率方差、裁剪和奖励怎么变。",
    },
    "moe.empty_figure": {
        "en": "Press Run: the curves grow here, step by step",
        "zh": "点“开始训练”：曲线会在这里一步步画出来",
    },
    "moe.first_step": {
        "en": "Training: each step's points appear here as soon as it is done",
        "zh": "训练中：每一步算完，它的点就会出现在这里",
    },
    "moe.smoothed": {"en": "smoothed", "zh": "平滑后"},
    "moe.smooth_caption": {
        "en": "Lines: each arm's exponential moving average over about {span} steps (weight 2 / ({span} + 1) on the "
        "newest step); faded dots: each step's own value.",
        "zh": "线：每个分支约 {span} 步的指数移动平均（最新一步的权重为 2 / ({span} + 1)）；淡色的点：每一步自己的值。",
    },
    "moe.arms": {"en": "Arms", "zh": "对比的分支"},
    "moe.arms_help": {
        "en": "GRPO; GRPO + R2 (replays the routing the trainer recorded for the old policy); GRPO + R3 (samples "
        "with a bf16 copy and replays the sampler's routing); GSPO (sequence ratio, no replay).",
        "zh": "GRPO；GRPO + R2（重放训练端为旧策略记录的路由）；GRPO + R3（用 bf16 副本采样并重放采样端的路由）；"
        "GSPO（序列比率，不重放）。",
    },
    "moe.steps": {"en": "Steps", "zh": "训练步数"},
    "moe.live_more": {"en": "More settings", "zh": "更多设置"},
    "moe.mu": {"en": "Updates per batch μ", "zh": "每批更新次数 μ"},
    "moe.mu_help": {
        "en": "Passes over each batch (PPO epochs; TRL num_iterations, verl ppo_epochs). Above 1 the updates are "
        "off-policy and the ratio moves away from 1.",
        "zh": "每个批次上训练的轮数（PPO epochs；TRL：num_iterations，verl：ppo_epochs）。大于 1 时更新是异策略的，"
        "比率会偏离 1。",
    },
    "moe.mini_batches": {"en": "Mini-batches", "zh": "小批次数"},
    "moe.heldout": {"en": "Held-out samples", "zh": "留出集采样数"},
    "moe.heldout_help": {
        "en": "Samples per held-out prompt for pass@1 before and after training; 0 skips it (faster).",
        "zh": "训练前后计算留出集 pass@1 时每个提示词的采样数；取 0 则跳过（更快）。",
    },
    "moe.dense_no_replay_now": {
        "en": "The dense model has no router, so GRPO + R2 and GRPO + R3 cannot run on it: choose the MoE model, "
        "or drop those arms before pressing Run.",
        "zh": "稠密模型没有路由器，GRPO + R2 和 GRPO + R3 无法在它上面运行：请选择 MoE 模型，或在按“运行”之前去掉这两个分支。",
    },
    "moe.dense_no_replay": {
        "en": "routing replay needs the MoE model: the dense model has no router. Choose the MoE model, or "
        "drop GRPO + R2 and GRPO + R3.",
        "zh": "路由重放需要 MoE 模型：稠密模型没有路由器。请选择 MoE 模型，或去掉 GRPO + R2 和 GRPO + R3。",
    },
    "moe.run": {"en": "Run", "zh": "开始训练"},
    "moe.stop": {"en": "Stop", "zh": "停止"},
    "moe.continue": {"en": "Continue", "zh": "继续"},
    "moe.reset": {"en": "Reset", "zh": "清除结果"},
    "moe.no_run": {
        "en": "Choose the settings and press **Run**: the arms train side by side, step by step.",
        "zh": "选好设置后点 **开始训练**：几个分支会一步一步地并排训练。",
    },
    "moe.running": {"en": "Training…", "zh": "训练中……"},
    "moe.progress": {"en": "{arm}: step {done} / {total}", "zh": "{arm}：第 {done} / {total} 步"},
    "moe.finished": {
        "en": "Finished: {total} {total:plural:step|steps} per arm.",
        "zh": "训练完成：每个分支 {total} 步。",
    },
    "moe.stopped": {
        "en": "Stopped after {done} of {total} {total:plural:step|steps}.",
        "zh": "已在第 {done} / {total} 步停止。",
    },
    "moe.stopped_arms": {
        "en": "Stopped at {steps} of {total} {total:plural:step|steps}.",
        "zh": "已停止：{steps}（共 {total} 步）。",
    },
    "moe.settings_changed": {
        "en": "The settings above differ from those of the run shown: press **Run** to start a new one.",
        "zh": "上面的设置与所显示的训练不同：点 **开始训练** 重新开始。",
    },
    "moe.metric.route_change_fraction": {"en": "routes changed (old → updated)", "zh": "路由变化比例（旧 → 更新后）"},
    "moe.metric.token_ratio_var": {"en": "variance of the token ratio", "zh": "token 比率的方差"},
    "moe.collapse": {"en": "collapse flag", "zh": "崩溃标记"},
    "moe.live_caption": {
        "en": "One line per arm; ✕: a step flagged as collapsed. The dense model has no router, so its run has "
        "no route-change panel.",
        "zh": "每个分支一条线；✕：被标记为崩溃的步。稠密模型没有路由器，所以不画路由变化面板。",
    },
    "moe.summary_header": {"en": "Summary", "zh": "汇总"},
    "moe.col.arm": {"en": "arm", "zh": "分支"},
    "moe.col.heldout": {"en": "held-out pass@1", "zh": "留出集 pass@1"},
    "moe.col.gain": {"en": "gain", "zh": "提升"},
    "moe.col.collapse_step": {"en": "first collapse step", "zh": "首次崩溃步"},
    "moe.col.route_change_mean": {"en": "routes changed (mean)", "zh": "路由变化（均值）"},
    "moe.col.token_ratio_var_mean": {"en": "token-ratio variance (mean)", "zh": "token 比率方差（均值）"},
    "moe.col.clip_fraction_mean": {"en": "clip fraction (mean)", "zh": "裁剪比例（均值）"},
    "moe.col.steps": {"en": "steps", "zh": "步数"},
    "moe.summary_caption": {
        "en": "Held-out pass@1 on {n} {n:plural:prompt|prompts} never trained on: before → after the arm's last step (— : not measured). "
        "First collapse step: — when no step was flagged.",
        "zh": "在 {n} 个从未训练过的提示词上的留出集 pass@1：训练前 → 该分支最后一步之后（—：未测量）。首次崩溃步：没有"
        "被标记的步时显示 —。",
    },
    "moe.download_csv": {"en": "Download metrics (CSV)", "zh": "下载指标（CSV）"},
    "moe.read_changed": {
        "en": "The tokens whose experts changed in some layer ({share} of the tokens) swing more: mean |log r| "
        "**{own_changed}** against {own_unchanged} for the others. With the old routing replayed, theirs is "
        "**{rep_changed}**: replay removes {removed} of their extra swing, {verdict}",
        "zh": "在某一层换了专家的 token（占 {share}）波动更大：平均 |log r| 为 **{own_changed}**，其余 token 为 "
        "{own_unchanged}。重放旧路由后，这些 token 的平均 |log r| 为 **{rep_changed}**：重放去掉了它们多出波动的 "
        "{removed}，{verdict}",
    },
    "moe.changed.mostly_update": {
        "en": "so most of it comes from the update that moved their hidden states (and with them the routing), "
        "not from the switch of experts itself.",
        "zh": "所以多出的波动大多来自更新本身改变了它们的隐状态（路由随之改变），而不是换专家这件事本身。",
    },
    "moe.changed.mostly_routing": {
        "en": "so most of it is the switch of experts itself.",
        "zh": "所以多出的波动大多来自换专家这件事本身。",
    },
    "moe.changed.not_more": {
        "en": "The tokens whose experts changed ({share} of the tokens) do not swing more than the others at these "
        "settings (mean |log r| {own_changed} against {own_unchanged}).",
        "zh": "在这组设置下，换了专家的 token（占 {share}）并不比其余 token 波动更大（平均 |log r| {own_changed}，"
        "其余 {own_unchanged}）。",
    },
    "moe.changed.all": {
        "en": "Every token's experts changed in some layer at these settings ({share}), so there are no unchanged "
        "tokens to compare with: mean |log r| {own_changed} with their own routing, {rep_changed} with the old "
        "routing replayed.",
        "zh": "在这组设置下每个 token 都在某一层换了专家（{share}），没有未换专家的 token 可作对比：平均 |log r| "
        "用自身路由为 {own_changed}，重放旧路由为 {rep_changed}。",
    },
    "moe.read_changed_up": {
        "en": "The tokens whose experts changed in some layer ({share} of the tokens) swing more: mean |log r| "
        "**{own_changed}** against {own_unchanged} for the others. Replaying the old routing does not calm them "
        "at these settings: theirs is **{rep_changed}** with it.",
        "zh": "在某一层换了专家的 token（占 {share}）波动更大：平均 |log r| 为 **{own_changed}**，其余 token 为 "
        "{own_unchanged}。在这组设置下重放旧路由并没有让它们平静下来：重放后为 **{rep_changed}**。",
    },
    "moe.ratio_caption_held": {
        "en": "How far each token's probability moved after update {k}, log(π/π_old), with the token's own "
        "routing (red). The other distributions join it once the questions below are answered or skipped. σ in "
        "the legend: the standard deviation over all values. The axes span the middle 95% of the values; the "
        "rest are counted in the end bins.",
        "zh": "第 {k} 次更新后每个 token 的概率变了多少，即 log(π/π_old)，用 token 自身的路由（红色）。回答或跳过下面的"
        "问题后，其余分布会加进来。图例中的 σ 是全部数值的标准差。坐标轴只覆盖中间 95% 的数值，其余的计入两端的区间。",
    },
    "moe.ratio_caption_dense": {
        "en": "How far each token's probability moved after update {k}, log(π/π_old) (red), and GSPO's sequence "
        "log-ratio log s (green, dotted; one value per response). The dense model has no router: nothing to "
        "replay. σ in the legend: the standard deviation over all values. The axes span the middle 95% of the "
        "values; the rest are counted in the end bins.",
        "zh": "第 {k} 次更新后每个 token 的概率变了多少，即 log(π/π_old)（红色），以及 GSPO 的序列对数比率 log s（绿色"
        "点线，每条回答一个值）。稠密模型没有路由器，无可重放。图例中的 σ 是全部数值的标准差。坐标轴只覆盖中间 95% "
        "的数值，其余的计入两端的区间。",
    },
    "moe.read_live_collapse": {
        "en": "Flagged as collapsed: {arms}.",
        "zh": "被标记为崩溃的：{arms}。",
    },
    "moe.read_live_no_collapse": {
        "en": "No arm was flagged as collapsed.",
        "zh": "没有哪个分支被标记为崩溃。",
    },
    "moe.read_live_arm_step": {"en": "{arm} at step {step}", "zh": "{arm}（第 {step} 步）"},
    "moe.read_live_apart": {
        "en": "Held-out pass@1 at the end spans {low} to {high} across the arms; two standard errors of a "
        "difference between two arms ({n} {n:plural:sample|samples} each) are about {two_se}, so this run {verdict}",
        "zh": "训练结束时各分支的留出集 pass@1 在 {low} 到 {high} 之间；两个分支之差（每个分支 {n} 个样本）的两个标准误约为 "
        "{two_se}，所以这次运行{verdict}",
    },
    "moe.live_verdict.separates": {
        "en": "separates the best arm from the worst beyond evaluation noise (one seed: try another before "
        "drawing a conclusion).",
        "zh": "把最好和最差的分支区分开了，差距超出评估噪声（只有一个种子：换个种子再下结论）。",
    },
    "moe.live_verdict.noise": {
        "en": "does not separate the arms: their differences are within evaluation noise.",
        "zh": "没有把各分支区分开：差距在评估噪声之内。",
    },
}
