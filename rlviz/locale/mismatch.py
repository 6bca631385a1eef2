"""Strings of the rollout-training mismatch page (keys ``mismatch.*``, ``nav.mismatch``,
``home.mismatch_claims``), English and 简体中文. Every number in a reading comes from the run through a
``{placeholder}``; none is typed here."""

STRINGS: dict[str, dict[str, str]] = {
    "nav.mismatch": {"en": "Sampler ≠ trainer", "zh": "采样端 ≠ 训练端"},
    "home.mismatch_claims": {
        "en": "- The log-ratio log π_train − log π_rollout per token and per response, measured on the shipped model "
        "for six samplers: the policy itself, its bf16 and fp16 copies, a copy k steps behind, top-p and top-k; "
        "and top-p and top-k again with the trainer replaying the sampler's kept tokens (vLLM's sampling mask).\n"
        "- Every rollout correction of TRL and verl (token / sequence TIS, MIS with IcePop's band, geometric-mean "
        "rejection) as a weight curve, and what each does to the measured batch.\n"
        "- Live: no correction vs each correction vs an fp16 sampler vs a matched sampler, from one seed, with the "
        "sampler–trainer KL, held-out pass@1 and the collapse flag (sampling-mask replay joins with a top-p sampler, "
        "R3 on the MoE model).",
        "zh": "- 在自带模型上实测六种采样端的逐 token 与逐回答对数比率 log π_train − log π_rollout：策略本身、它的 bf16 和 "
        "fp16 副本、落后 k 步的副本、top-p 和 top-k；再加上训练端重放采样端保留 token 集合（vLLM 的采样掩码）的 top-p 和 "
        "top-k。\n"
        "- TRL 和 verl 的每种 rollout 修正（token / 序列级 TIS、带 IcePop 区间的 MIS、几何平均拒绝）的权重曲线，以及它们"
        "对实测批次做了什么。\n"
        "- 实时：同一种子下，不修正、各种修正、fp16 采样端和匹配的采样端对比，带采样端–训练端 KL、留出集 pass@1 和崩溃"
        "标记（采样端用 top-p 时加入采样掩码重放，在 MoE 模型上加入 R3）。",
    },
    "mismatch.title": {
        "en": "Sampler ≠ trainer: the rollout-training mismatch and its corrections",
        "zh": "采样端 ≠ 训练端：rollout 与训练的概率不一致及其修正",
    },
    "mismatch.lede": {
        "en": "The sampler that draws a response and the trainer that scores it give its tokens different "
        "probabilities. How far apart are they, for each choice of sampler?",
        "zh": "同一回答，采样端与训练端给的概率差多少？",
    },
    "mismatch.measure_more": {"en": "More settings", "zh": "更多设置"},
    "mismatch.intro": {
        "en": "Real RL systems sample with an inference engine (vLLM, SGLang) and train with another, in other "
        "precisions and kernels, with weights that may arrive late, and often from a truncated distribution "
        "(top-p, top-k). The probability a response was **sampled** with, `rollout_log_prob`, is then not the "
        "**trainer's** `old_log_prob` for the same tokens, and the loss, whose ratio divides by `old_log_prob`, "
        "trains on samples from a policy it does not know about. TRL's vLLM path and verl's "
        "`algorithm.rollout_correction` weigh or drop tokens by the ratio between the two (Yao et al. 2025, TIS; "
        "Ring-1T arXiv 2510.18855, IcePop); Qi et al. (arXiv 2510.26788) sample in fp16 instead of bf16 to make "
        "the gap small in the first place.",
        "zh": "真实的 RL 系统用一个推理引擎（vLLM、SGLang）采样，用另一个框架训练：精度和算子不同，权重可能晚到，"
        "采样还常常来自截断后的分布（top-p、top-k）。于是一条回答**被采样时**的概率 `rollout_log_prob`，和**训练端**对同样 "
        "token 算出的 `old_log_prob` 并不相同；损失的比率以 `old_log_prob` 为分母，训练用的样本却来自一个它不知道的策略。"
        "TRL 的 vLLM 路径和 verl 的 `algorithm.rollout_correction` 按两者之比给 token 加权或丢弃 token（Yao 等 2025 的 "
        "TIS；Ring-1T arXiv 2510.18855 的 IcePop）；Qi 等（arXiv 2510.26788）则改用 fp16 而不是 bf16 采样，从源头上缩小差距。",
    },
    "mismatch.formula_caption": {
        "en": "l is 0 for every token when the sampler is the trainer. The trust region's ratio (π_θ / π_old) is a "
        "different ratio: it moves during the step's updates, while l is fixed when the batch is sampled.",
        "zh": "采样端就是训练端时，每个 token 的 l 都是 0。信任域的比率（π_θ / π_old）是另一个比率：它在一步内的多次更新中变化，"
        "而 l 在批次采样时就已固定。",
    },
    # ------------------------------------------------------------------ 1. measured
    "mismatch.measure_header": {
        "en": "1. The mismatch, measured on the shipped model",
        "zh": "1. 在自带模型上实测的不一致",
    },
    "mismatch.measure_text": {
        "en": "The same prompts, sampled by each sampler and scored by the trainer (float32). Precision: the "
        "policy's own weights cast to bf16 or fp16, as an inference engine serving a float32 trainer holds "
        "them. Stale: the trainer is k = {k} GRPO {k:plural:step|steps} (learning rate {lr}) ahead of the sampler, as in an "
        "asynchronous system. Top-p / top-k: the policy itself, sampling from its truncated distribution. "
        "+ mask replay: the same responses, the trainer renormalising over the tokens the sampler kept at each "
        "position (vLLM returns them with return_sampling_mask; DeepSeek-V3.2's Keep Sampling Mask).",
        "zh": "同一批提示词，分别由每种采样端采样、由训练端（float32）打分。精度：把策略自己的权重转成 bf16 或 fp16，就像推理引擎"
        "为 float32 训练端提供服务时那样。过时：训练端比采样端多走了 {k} 步 GRPO（学习率 {lr}），就像异步系统里那样。"
        "Top-p / top-k：策略本身，从截断后的分布中采样。+ 采样掩码重放：同样的回答，训练端在采样端每个位置保留下来的 token 上"
        "重新归一化（vLLM 用 return_sampling_mask 返回这些 token；即 DeepSeek-V3.2 的 Keep Sampling Mask）。",
    },
    "mismatch.model": {"en": "Model", "zh": "模型"},
    "mismatch.model_help": {
        "en": "The shipped dense tiny Llama, or the tiny Qwen3-MoE (its routers can pick other experts in bf16).",
        "zh": "自带的稠密微型 Llama，或微型 Qwen3-MoE（它的路由器在 bf16 下可能选到别的专家）。",
    },
    "mismatch.model_code.dense": {"en": "Dense", "zh": "稠密"},
    "mismatch.model_code.moe": {"en": "MoE", "zh": "MoE"},
    "mismatch.stale_steps": {"en": "Stale: steps behind (k)", "zh": "过时：落后步数（k）"},
    "mismatch.stale_steps_help": {
        "en": "How many GRPO steps the trainer has taken since the sampler last received weights.",
        "zh": "采样端上次收到权重之后，训练端又走了多少步 GRPO。",
    },
    "mismatch.stale_lr": {"en": "Stale: learning rate", "zh": "过时：学习率"},
    "mismatch.stale_lr_help": {
        "en": "The learning rate of those k steps: the larger, the further the two policies are apart.",
        "zh": "这 k 步的学习率：越大，两个策略相差越远。",
    },
    "mismatch.top_p": {"en": "top-p", "zh": "top-p"},
    "mismatch.top_p_help": {
        "en": "Nucleus sampling: keep the most likely tokens until their probability reaches p (TRL / vLLM top_p).",
        "zh": "核采样：按概率从高到低保留 token，直到累计概率达到 p（TRL / vLLM 的 top_p）。",
    },
    "mismatch.top_k": {"en": "top-k", "zh": "top-k"},
    "mismatch.top_k_help": {
        "en": "Keep only the k most likely tokens (TRL / vLLM top_k).",
        "zh": "只保留概率最高的 k 个 token（TRL / vLLM 的 top_k）。",
    },
    "mismatch.prompts": {"en": "Prompts", "zh": "提示词数"},
    "mismatch.group_size": {"en": "Responses per prompt (G)", "zh": "每个提示词的回答数（G）"},
    "mismatch.computing": {
        "en": "Measuring: {done} of {total} {total:plural:step|steps}",
        "zh": "测量中：第 {done} / {total} 步",
    },
    "mismatch.sampler.float32": {"en": "float32 (the policy)", "zh": "float32（策略本身）"},
    "mismatch.sampler.bfloat16": {"en": "bf16 copy", "zh": "bf16 副本"},
    "mismatch.sampler.float16": {"en": "fp16 copy", "zh": "fp16 副本"},
    "mismatch.sampler.stale": {"en": "{k} {k:plural:step|steps} stale", "zh": "落后 {k} 步"},
    "mismatch.sampler.top_p": {"en": "top-p {p}", "zh": "top-p {p}"},
    "mismatch.sampler.top_k": {"en": "top-k {k}", "zh": "top-k {k}"},
    "mismatch.sampler.top_p_replay": {"en": "top-p {p} + mask replay", "zh": "top-p {p} + 掩码重放"},
    "mismatch.sampler.top_k_replay": {"en": "top-k {k} + mask replay", "zh": "top-k {k} + 掩码重放"},
    "mismatch.col.sampler": {"en": "Sampler", "zh": "采样端"},
    "mismatch.col.kl": {"en": "KL(rollout ‖ train) per token", "zh": "每 token KL(rollout ‖ train)"},
    "mismatch.col.abs_mean": {"en": "mean |l|", "zh": "|l| 均值"},
    "mismatch.col.abs_p99": {"en": "99th pct |l|", "zh": "|l| 第 99 百分位"},
    "mismatch.col.abs_max": {"en": "max |l|", "zh": "|l| 最大值"},
    "mismatch.col.seq_abs_max": {"en": "max |Σ l| of a response", "zh": "单条回答 |Σ l| 最大值"},
    "mismatch.col.below_one": {"en": "tokens with ratio < 1", "zh": "比率 < 1 的 token"},
    "mismatch.col.tokens": {"en": "tokens", "zh": "token 数"},
    "mismatch.table_caption": {
        "en": "l = log π_train − log π_rollout per response token; KL is the k3 estimate of KL(π_rollout ‖ π_train) "
        "(the samples are the sampler's; k3 = (ρ − 1) − log ρ with ρ = π_train / π_rollout, never negative). "
        "{sequences} {sequences:plural:response|responses} per sampler (their lengths differ: truncated samplers draw other responses); the "
        "float32 sampler's have mean reward {reward}.",
        "zh": "l = log π_train − log π_rollout，按回答 token 计；KL 是 KL(π_rollout ‖ π_train) 的 k3 估计（样本来自采样端）。"
        "k3 = (ρ − 1) − log ρ，其中 ρ = π_train / π_rollout，永不为负。每种采样端 {sequences} 条回答（长度各不相同："
        "截断采样端采到的回答不同）；float32 采样端的回答平均奖励 {reward}。",
    },
    "mismatch.grid_header": {"en": "The log-ratio per token and per response", "zh": "逐 token 与逐回答的对数比率"},
    "mismatch.panel.token": {"en": "per token: l", "zh": "逐 token：l"},
    "mismatch.panel.sequence": {"en": "per response: Σ l", "zh": "逐回答：Σ l"},
    "mismatch.share": {"en": "share", "zh": "占比"},
    "mismatch.log_ratio": {"en": "log π_train − log π_rollout", "zh": "log π_train − log π_rollout"},
    "mismatch.grid_caption": {
        "en": "Each panel has its own x range: the samplers differ by orders of magnitude. The dotted line is "
        "l = 0 (no mismatch); values beyond the 0.5th–99.5th percentiles fall into the end bins.",
        "zh": "每个小图的横轴范围各不相同：不同采样端相差几个数量级。虚线是 l = 0（没有不一致）；超出第 0.5–99.5 百分位的值归入两端的柱。",
    },
    "mismatch.read_precision": {
        "en": "**Precision.** The bf16 copy's KL to the trainer is {bf16}, the fp16 copy's {fp16}: {verdict}",
        "zh": "**精度。** bf16 副本与训练端的 KL 是 {bf16}，fp16 副本的是 {fp16}：{verdict}",
    },
    "mismatch.verdict.fp16_closer": {
        "en": "fp16 keeps 10 mantissa bits to bf16's 7 (its range is smaller), so its probabilities are {times}× "
        "closer in KL, the effect Qi et al. report. Both are tiny on this model: its logits are small numbers.",
        "zh": "fp16 有 10 位尾数，bf16 只有 7 位（fp16 的取值范围更小），所以它的概率在 KL 上近 {times} 倍，正是 Qi 等报告的效应。"
        "在这个模型上两者都很小：它的 logit 数值本身不大。",
    },
    "mismatch.verdict.not_closer": {
        "en": "at these settings fp16 is not closer than bf16.",
        "zh": "在这组设置下 fp16 并不比 bf16 更接近。",
    },
    "mismatch.read_stale": {
        "en": "**Staleness.** k = {k} {k:plural:step|steps} behind, the KL is {kl} and the largest response's |Σ l| is {seq}: a "
        "stale sampler is by far the largest mismatch here, {times}× the bf16 copy's KL. After each of the k steps "
        "the KL was {by_step}: how it grows with k depends on how far each step moves this small policy.",
        "zh": "**过时。** 落后 {k} 步时 KL 是 {kl}，单条回答 |Σ l| 最大到 {seq}：过时的采样端是这里最大的不一致，KL 是 bf16 "
        "副本的 {times} 倍。这 k 步中每一步之后的 KL 依次是 {by_step}：它随 k 怎样增长，取决于每一步把这个小策略推了多远。",
    },
    "mismatch.read_stale_small": {
        "en": "**Staleness.** k = {k} {k:plural:step|steps} behind, the KL is {kl}, not larger than the bf16 copy's: at this learning "
        "rate the policy barely moved.",
        "zh": "**过时。** 落后 {k} 步时 KL 是 {kl}，并不比 bf16 副本大：在这个学习率下策略几乎没动。",
    },
    "mismatch.read_top_p": {
        "en": "**Top-p {p} measures kept mass, not a policy change.** The sampler's probability of a kept token is the "
        "trainer's divided by the mass the truncation kept, so π_train / π_rollout is that kept mass: "
        "{below} of the tokens have a ratio below 1 and **none above 1** (largest l {max_l}, where the truncation "
        "dropped almost nothing; a token where it dropped nothing has l = 0 exactly). The mean kept mass "
        "is {mass} per token. A response's ratio multiplies them: on average over responses exp(Σ l) = "
        "{seq_weight}, so TRL's default sequence_mask weighs every "
        "response by the share of probability its sampler cut off, longer ones less, though nothing about the "
        "policy differs. TRL issue #6789 (2026) reports the same on real models; the fix it discusses has the "
        "engine return each token's kept support (vLLM's sampling mask, vllm#49577) so the trainer renormalises "
        "over it too.",
        "zh": "**top-p {p} 量的是保留下来的概率质量，不是策略变化。** 被保留的 token 在采样端的概率，等于训练端的概率除以截断保留的"
        "质量，所以 π_train / π_rollout 就是这份保留质量：{below} 的 token 比率小于 1，**没有一个大于 1**（l 最大为 {max_l}，"
        "出现在截断几乎什么也没丢掉的位置；截断什么也没丢掉的位置上 l 恰好为 0）。每个 token 的平均保留质量是 {mass}。"
        "一条回答的比率把它们乘起来：按回答平均，exp(Σ l) 为 {seq_weight}，所以 TRL 默认的 sequence_mask 按采样端截掉的概率给每条回答降权，越长降得越多，"
        "尽管策略本身没有任何不同。TRL issue #6789（2026）在真实模型上报告了同样的现象；其中讨论的修复办法是让推理引擎返回每个 token "
        "保留下来的候选集合（vLLM 的 sampling mask，vllm#49577），训练端也在这个集合上重新归一化。",
    },
    "mismatch.read_top_k": {
        "en": "Top-k {k} does the same with a fixed number of tokens: {below} of the tokens below 1, mean kept mass {mass}.",
        "zh": "top-k {k} 做的是同一件事，只是保留固定个数的 token：{below} 的 token 比率小于 1，平均保留质量 {mass}。",
    },
    "mismatch.read_replay": {
        "en": "**Mask replay removes the truncation's mismatch.** With the sampler's kept tokens replayed, the trainer "
        "sets every other logit to −∞ before its softmax and renormalises over the same tokens as the sampler: "
        "the largest |l| falls from {p_max} (top-p {p}) and {k_max} (top-k {k}) to {replay_max}, the KL from "
        "{p_kl} to {replay_kl}. No correction then weighs or drops a response for the truncation, and no token "
        "outside the kept set gets a gradient. It fixes only this part: precision and staleness (the rows above) "
        "stay.",
        "zh": "**掩码重放消除了截断带来的不一致。** 重放采样端保留的 token 后，训练端在 softmax 之前把其余 logit 设为 −∞，"
        "和采样端在同一组 token 上重新归一化：|l| 的最大值从 {p_max}（top-p {p}）和 {k_max}（top-k {k}）降到 {replay_max}，"
        "KL 从 {p_kl} 降到 {replay_kl}。于是没有哪种修正再因为截断给回答降权或丢弃回答，保留集合之外的 token 也得不到梯度。"
        "它只修好这一部分：精度和过时（上面几行）依旧存在。",
    },
    # ------------------------------------------------------------------ predictions
    "mismatch.q_precision.q": {
        "en": "The trainer computes in float32. Which copy of the same weights samples with probabilities closer to "
        "the trainer's (smaller KL): the bf16 copy or the fp16 copy?",
        "zh": "训练端用 float32 计算。同一份权重的哪个副本采样时的概率更接近训练端（KL 更小）：bf16 副本还是 fp16 副本？",
    },
    "mismatch.q_precision.choice.bfloat16": {"en": "bf16", "zh": "bf16"},
    "mismatch.q_precision.choice.float16": {"en": "fp16", "zh": "fp16"},
    "mismatch.q_precision.choice.same": {"en": "the same", "zh": "一样"},
    "mismatch.q_precision.why.float16": {
        "en": "fp16: its KL to the trainer is {fp16} against bf16's {bf16} ({times}× smaller). fp16 keeps 10 mantissa "
        "bits, bf16 7: bf16 buys range with precision, which is why Qi et al. sample in fp16.",
        "zh": "fp16：它与训练端的 KL 是 {fp16}，bf16 是 {bf16}（小 {times} 倍）。fp16 有 10 位尾数，bf16 只有 7 位：bf16 用精度"
        "换来了取值范围，这正是 Qi 等改用 fp16 采样的原因。",
    },
    "mismatch.q_precision.why.bfloat16": {
        "en": "bf16: its KL is {bf16} against fp16's {fp16}, unusually: fp16's 10 mantissa bits usually win.",
        "zh": "bf16：它的 KL 是 {bf16}，fp16 是 {fp16}，这不寻常：通常 fp16 的 10 位尾数更占优。",
    },
    "mismatch.q_precision.why.same": {"en": "The same: both KLs are {bf16}.", "zh": "一样：两者的 KL 都是 {bf16}。"},
    "mismatch.q_truncation.q": {
        "en": "The sampler is the policy itself, sampling with top-p = {p}; the trainer scores the full distribution. "
        "Where do the tokens' ratios π_train / π_rollout lie?",
        "zh": "采样端就是策略本身，用 top-p = {p} 采样；训练端按完整分布打分。各 token 的比率 π_train / π_rollout 落在哪里？",
    },
    "mismatch.q_truncation.choice.below": {"en": "never above 1", "zh": "从不大于 1"},
    "mismatch.q_truncation.choice.above": {"en": "never below 1", "zh": "从不小于 1"},
    "mismatch.q_truncation.choice.both": {"en": "on both sides of 1", "zh": "在 1 的两侧都有"},
    "mismatch.q_truncation.why.below": {
        "en": "Never above 1: {below} of the tokens are below 1 and the largest l is {max_l}. The sampler renormalises "
        "over the kept tokens, so its probability is the trainer's divided by the kept mass: the ratio is that "
        "mass, at most 1. It measures the truncation, not a policy change.",
        "zh": "从不大于 1：{below} 的 token 小于 1，l 的最大值是 {max_l}。采样端在保留的 token 上重新归一化，所以它的概率等于"
        "训练端的概率除以保留质量：比率就是这份质量，最多为 1。它量的是截断，不是策略变化。",
    },
    "mismatch.q_truncation.why.above": {
        "en": "Never below 1 here ({below} below, largest l {max_l}).",
        "zh": "这里从不小于 1（{below} 小于 1，l 最大 {max_l}）。",
    },
    "mismatch.q_truncation.why.both": {
        "en": "On both sides: {below} below 1, largest l {max_l}.",
        "zh": "两侧都有：{below} 小于 1，l 最大 {max_l}。",
    },
    # ------------------------------------------------------------------ 2. corrections
    "mismatch.corr_header": {"en": "2. How each correction weighs a token", "zh": "2. 每种修正如何给 token 加权"},
    "mismatch.corr_text": {
        "en": "A correction turns r = π_train / π_rollout into a weight that multiplies the token's policy loss "
        "(not the KL term): **TIS** (truncated importance sampling) weighs by the ratio cut at a cap C; **MIS** "
        "(masked importance sampling) keeps it inside a band [C_min, C_max] and drops "
        "the token (or the whole response) outside; the **geometric-mean rejection** drops a response whose "
        "per-token mean ratio leaves a narrow band and keeps the others with weight 1. The sequence rules are "
        "drawn against the response's ratio. Beside them, the trust region the loss applies on top, during the "
        "updates (its gradient weight against π_θ / π_old); every objective's is on the page "
        "[Objective & gradient vs ratio](/curves).",
        "zh": "修正把 r = π_train / π_rollout 变成一个权重，乘到该 token 的策略损失上（不乘 KL 项）：**TIS**（截断重要性采样）"
        "以比率为权重，并在上限 C 处截断；**MIS**（掩码重要性采样）在区间 [C_min, C_max] 内保留比率，区间外丢弃该 token（或整条回答）；**几何平均拒绝**在每 token 平均比率离开一个很窄"
        "的区间时丢弃整条回答，其余回答权重为 1。序列级规则的横轴是整条回答的比率。右边是损失在此之上、更新过程中施加的信任域"
        "（梯度权重随 π_θ / π_old 的变化）；所有目标的信任域曲线见 [目标与梯度随比率变化](/curves) 页面。",
    },
    "mismatch.ratio": {"en": "r = π_train / π_rollout", "zh": "r = π_train / π_rollout"},
    "mismatch.weight": {"en": "weight on the token's loss", "zh": "token 损失上的权重"},
    "mismatch.panel.corrections": {
        "en": "rollout corrections: fixed when the batch is sampled",
        "zh": "rollout 修正：批次采样时即固定",
    },
    "mismatch.panel.trust": {
        "en": "{objective}'s trust region: moves during the updates",
        "zh": "{objective} 的信任域：在更新过程中变化",
    },
    "mismatch.trust_ratio": {"en": "r = π_θ / π_old", "zh": "r = π_θ / π_old"},
    "mismatch.trust_weight": {"en": "gradient weight dJ/d log π", "zh": "梯度权重 dJ/d log π"},
    "mismatch.adv.pos": {"en": "trust region, A > 0", "zh": "信任域，A > 0"},
    "mismatch.adv.neg": {"en": "trust region, A < 0", "zh": "信任域，A < 0"},
    "mismatch.corr_caption": {
        "en": "Default bands as TRL and verl ship them (the rejection filters on a one-token response of ratio r: the "
        "geometric-mean and sequence-ratio filters bound 1 / r, the K3 filter r − 1 − ln r). Weights are "
        "detached: they change how much a sample counts, not the objective's gradient direction.",
        "zh": "区间取 TRL 和 verl 的默认值（拒绝过滤画的是比率为 r 的单 token 回答：几何平均过滤和序列比率过滤约束 1 / r，"
        "K3 过滤约束 r − 1 − ln r）。权重不参与求导：它们改变一个样本算多少，而不改变目标梯度的方向。",
    },
    "mismatch.reg.col.name": {"en": "Correction", "zh": "修正"},
    "mismatch.reg.col.level": {"en": "Level", "zh": "层级"},
    "mismatch.reg.col.checked": {"en": "Weights checked against (parity suite)", "zh": "权重已核对（一致性测试）"},
    "mismatch.reg.col.band": {"en": "Band", "zh": "区间"},
    "mismatch.reg.col.trl": {"en": "TRL GRPOConfig", "zh": "TRL GRPOConfig"},
    "mismatch.reg.col.verl": {"en": "verl algorithm.rollout_correction", "zh": "verl algorithm.rollout_correction"},
    "mismatch.reg.col.what": {"en": "What it does", "zh": "作用"},
    "mismatch.level.token": {"en": "token", "zh": "token"},
    "mismatch.level.sequence": {"en": "response", "zh": "回答"},
    "mismatch.none_framework": {"en": "—", "zh": "—"},
    "mismatch.effect_header": {
        "en": "What each correction does to the measured batch",
        "zh": "每种修正对实测批次做了什么",
    },
    "mismatch.effect_caption": {
        "en": "Per sampler (rows) and correction (columns): the share of tokens dropped (weight 0 by the band) · "
        "the share of responses with at least one dropped token, and in brackets the mean weight. Default bands.",
        "zh": "按采样端（行）和修正（列）：被丢弃的 token 占比（区间外权重为 0）· 至少有一个 token 被丢弃的回答占比，"
        "括号里是平均权重。区间取默认值。",
    },
    "mismatch.read_cap": {
        "en": "**Does the cap bind?** {correction} ({band}): the raw weight reached the cap under {where}; under the "
        "other {n} {n:plural:sampler|samplers} never, so there it is plain importance sampling.",
        "zh": "**上限起作用了吗？** {correction}（{band}）：原始权重在这些采样端下达到上限：{where}；其余 {n} 种采样端从未达到，"
        "在那里它就是普通的重要性采样。",
    },
    "mismatch.read_cap_all": {
        "en": "**Does the cap bind?** {correction} ({band}): the raw weight reached the cap under every sampler "
        "shown: {where}.",
        "zh": "**上限起作用了吗？** {correction}（{band}）：在所列的每种采样端下，原始权重都达到过上限：{where}。",
    },
    "mismatch.read_cap_one": {
        "en": "{sampler} ({tokens} of the tokens, {responses} of the responses)",
        "zh": "{sampler}（{tokens} 的 token、{responses} 的回答）",
    },
    "mismatch.read_cap_none": {
        "en": "**Does the cap bind?** {correction} ({band}): no raw weight reached the cap for any sampler shown: "
        "the cap never acts on this batch, and the correction is plain importance sampling here.",
        "zh": "**上限起作用了吗？** {correction}（{band}）：所列采样端中没有一个原始权重达到上限：上限在这个批次上从未生效，"
        "这里的修正就是普通的重要性采样。",
    },
    "mismatch.read_rs": {
        "en": "{correction} (default band {band}) drops {bf16} of the bf16 copy's tokens and {top_p} under top-p {p}, "
        "where nothing but the truncation differs.",
        "zh": "{correction}（默认区间 {band}）丢掉了 bf16 副本 {bf16} 的 token，在 top-p {p} 下丢掉 {top_p}，"
        "而那里除了截断之外没有任何不同。",
    },
    "mismatch.preset_header": {"en": "verl's presets", "zh": "verl 的预设"},
    "mismatch.preset_text": {
        "en": "verl ships its corrections as presets (`RolloutCorrectionConfig.<name>()`): an importance weight, "
        "a rejection filter, and a mode. **Decoupled** mode keeps three policies: the trainer recomputes π_old "
        "and the weights come from π_old / π_rollout. **Bypass** mode keeps two: the sampler's log-probs serve "
        "as π_old, so PPO's clip acts on π / π_rollout itself (no extra weight), and REINFORCE multiplies the "
        "weight in. A rejection filter removes a response from the loss and from the token count it is "
        "averaged over.",
        "zh": "verl 把这些修正做成了预设（`RolloutCorrectionConfig.<名称>()`）：一个重要性权重、一个拒绝过滤器和一种模式。"
        "**解耦**（decoupled）模式保留三个策略：训练端重新计算 π_old，权重来自 π_old / π_rollout。"
        "**旁路**（bypass）模式只保留两个：采样端的 log-prob 直接充当 π_old，于是 PPO 的截断直接作用于 "
        "π / π_rollout（不再乘额外的权重），REINFORCE 则把权重乘进损失。被拒绝的回答既离开损失，也离开求平均用的 token 数。",
    },
    "mismatch.preset_caption": {
        "en": "Each preset at verl 0.9.1's defaults, composed from the corrections above; its weights on fixed inputs "
        "were checked against verl's own compute_rollout_correction_and_rejection_mask (parity suite; last "
        "column). In bypass mode verl's REINFORCE loss is rlviz's Bypass REINFORCE where the loss itself carries "
        'the truncated IS weight ("inside the loss"), and GPG\'s −A·log π where the weight, if any, comes from the '
        'correction part. Where a preset adds no weight and no filter outside its loss, "(its loss)" names the '
        "frameworks that loss (with any weight inside it) was checked against.",
        "zh": "每个预设取 verl 0.9.1 的默认值，由上面的修正组合而成；它在固定输入上的权重已与 verl 自己的 "
        "compute_rollout_correction_and_rejection_mask 核对（一致性测试，见最后一列）。旁路模式下，若截断的重要性权重"
        "由损失函数本身携带（“在损失函数内”），verl 的 REINFORCE 损失就是 rlviz 的 Bypass REINFORCE；若权重（如果有）"
        "来自修正部分，则是 GPG 的 −A·log π。若预设在损失函数之外不加权重也不加过滤器，"
        "“（其损失函数）”列出该损失（连同其中的权重）核对过的框架。",
    },
    "mismatch.preset_effect_caption": {
        "en": "Per verl preset (rows) and sampler (columns), its correction part on the measured batch: the share of "
        "tokens dropped · the share of responses touched, and in brackets the mean weight. A bypass preset's "
        "weights are these before the step's first update, where π is still π_old.",
        "zh": "按 verl 预设（行）和采样端（列），预设的修正部分在实测批次上的作用：被丢弃的 token 占比 · 受影响的回答占比，"
        "括号里是平均权重。旁路预设的权重在本步第一次更新之前就是这些，那时 π 仍等于 π_old。",
    },
    "mismatch.preset.col.name": {"en": "Preset (verl classmethod)", "zh": "预设（verl 类方法）"},
    "mismatch.preset.col.loss": {"en": "Mode and loss", "zh": "模式与损失"},
    "mismatch.preset.col.is": {"en": "Importance weight", "zh": "重要性权重"},
    "mismatch.preset.col.rs": {"en": "Rejection", "zh": "拒绝"},
    "mismatch.preset.any_objective": {
        "en": "decoupled: weighs the run's objective",
        "zh": "解耦：给所训练目标的逐 token 损失加权",
    },
    "mismatch.preset.bypass": {
        "en": "bypass, loss_type = {loss}: rlviz's {objective}",
        "zh": "旁路，loss_type = {loss}：即 rlviz 的 {objective}",
    },
    "mismatch.preset.col.checked": {"en": "Checked against", "zh": "核对对象"},
    "mismatch.preset.in_loss": {"en": "{weight}, inside the loss", "zh": "{weight}，在损失函数内"},
    "mismatch.preset.checked_loss": {"en": "{checked} (its loss)", "zh": "{checked}（其损失函数）"},
    # ------------------------------------------------------------------ 3. live
    "mismatch.live_header": {"en": "3. Live: corrections side by side", "zh": "3. 实时：各种修正并排对比"},
    "mismatch.live_text": {
        "en": "Every arm trains GRPO from the same checkpoint and seed. **Matched**: the sampler is the trainer "
        "(the control). The other arms sample with the mismatched sampler set above and differ only in the "
        "correction; **fp16** samples with the same sampler in fp16, uncorrected; **sampling-mask replay** trains "
        "uncorrected over the tokens a top-p sampler kept (it removes only the truncation part of the mismatch, "
        "and only when top-p < 1); on the MoE model, **R3** "
        "replays the sampler's routing (it removes only the routing part of the mismatch, not staleness or "
        "precision). The collapse flag (✕) fires when the reward's trailing mean over "
        "{window} {window:plural:step|steps} falls {drop} below its best (and {se} standard errors) while the KL to the reference or "
        "the ratio variance jumps {jump}×.",
        "zh": "每个分支都从同一检查点、同一种子开始训练 GRPO。**匹配**：采样端就是训练端（对照组）。其余分支用上面设定的不一致"
        "采样端采样，只在修正方式上不同；**fp16** 用同一采样端的 fp16 版本采样，不做修正；**采样掩码重放**不做修正，"
        "但在 top-p 采样端保留的 token 上训练（它只消除截断那一部分不一致，且只在 top-p < 1 时起作用）；"
        "在 MoE 模型上，**R3** 重放采样端的路由（它只消除不一致中路由的那一部分，不管过时或精度）。"
        "当奖励在 {window} 步内的滑动平均比历史最好值低 {drop}（且超过 {se} 个标准误），同时与参考策略的 KL 或比率方差跳升 "
        "{jump} 倍时，崩溃标记（✕）触发。",
    },
    "mismatch.live_lede": {
        "en": "Every arm trains GRPO from one checkpoint with the mismatched sampler: press **Run** and watch the "
        "sampler–trainer KL, the dropped tokens and the reward.",
        "zh": "各分支用不一致的采样端从同一检查点训练 GRPO：点 **开始训练**，看采样端–训练端 KL、被丢弃的 token 和奖励怎么变。",
    },
    "mismatch.empty_figure": {
        "en": "Press Run: the curves grow here, step by step",
        "zh": "点“开始训练”：曲线会在这里一步步画出来",
    },
    "mismatch.first_step": {
        "en": "Training: each step's points appear here as soon as it is done",
        "zh": "训练中：每一步算完，它的点就会出现在这里",
    },
    "mismatch.smoothed": {"en": "smoothed", "zh": "平滑后"},
    "mismatch.smooth_caption": {
        "en": "Lines: each arm's exponential moving average over about {span} steps (weight 2 / ({span} + 1) on the "
        "newest step); faded dots: each step's own value; ✕: a step the collapse flag marked.",
        "zh": "线：每个分支约 {span} 步的指数移动平均（最新一步的权重为 2 / ({span} + 1)）；淡色的点：每一步自己的值；"
        "✕：被崩溃标记标出的步。",
    },
    "mismatch.arms": {"en": "Arms", "zh": "分支"},
    "mismatch.arms_help": {
        "en": "One arm per correction of the registry, plus the matched control, an fp16 sampler, sampling-mask "
        "replay (with top-p < 1, under More settings) and (MoE) R3.",
        "zh": "注册表里每种修正一个分支，另加匹配的对照组、fp16 采样端、采样掩码重放（需在“更多设置”里把 top-p 设为小于 1）"
        "和（MoE 上的）R3。",
    },
    "mismatch.arm.matched": {"en": "Matched sampler", "zh": "匹配的采样端"},
    "mismatch.arm.none": {"en": "No correction", "zh": "不修正"},
    "mismatch.arm.float16": {"en": "fp16 sampler", "zh": "fp16 采样端"},
    "mismatch.arm.r3": {"en": "R3 routing replay", "zh": "R3 路由重放"},
    "mismatch.arm.mask_replay": {"en": "Sampling-mask replay", "zh": "采样掩码重放"},
    "mismatch.live_dtype": {"en": "Sampler precision", "zh": "采样端精度"},
    "mismatch.live_dtype_help": {
        "en": "The mismatched sampler's precision (verl rollout.dtype).",
        "zh": "不一致采样端的精度（verl 的 rollout.dtype）。",
    },
    "mismatch.live_stale": {"en": "Sampler steps behind", "zh": "采样端落后步数"},
    "mismatch.live_stale_help": {
        "en": "The sampler holds the policy's weights from this many steps ago (0: the current ones).",
        "zh": "采样端持有的是这么多步之前的策略权重（0：当前权重）。",
    },
    "mismatch.live_top_p": {"en": "Sampler top-p", "zh": "采样端 top-p"},
    "mismatch.steps": {"en": "Steps", "zh": "步数"},
    "mismatch.lr": {"en": "Learning rate", "zh": "学习率"},
    "mismatch.live_more": {"en": "More settings", "zh": "更多设置"},
    "mismatch.mu": {"en": "Passes per batch (μ)", "zh": "每批遍历次数（μ）"},
    "mismatch.mini_batches": {"en": "Mini-batches", "zh": "小批次数"},
    "mismatch.heldout": {"en": "Held-out samples per prompt", "zh": "留出集每个提示词的采样数"},
    "mismatch.heldout_help": {
        "en": "Held-out pass@1 is measured before the first step and after each arm's last (0: skip).",
        "zh": "在第一步之前和每个分支最后一步之后测量留出集 pass@1（0：跳过）。",
    },
    "mismatch.dense_no_r3": {
        "en": "R3 replays the sampler's routing: it needs the MoE model. Choose MoE, or drop the R3 arm.",
        "zh": "R3 重放采样端的路由，需要 MoE 模型。请选 MoE，或去掉 R3 分支。",
    },
    "mismatch.replay_no_truncation": {
        "en": "Sampling-mask replay acts only on a truncating sampler: with the sampler's top-p at 1 it trains "
        "exactly as No correction. Set top-p below 1 under More settings.",
        "zh": "采样掩码重放只对截断采样的采样端起作用：采样端 top-p 为 1 时，它和“不修正”训练得完全一样。"
        "请在“更多设置”里把 top-p 设为小于 1。",
    },
    "mismatch.run": {"en": "Run", "zh": "开始训练"},
    "mismatch.stop": {"en": "Stop", "zh": "停止"},
    "mismatch.continue": {"en": "Continue", "zh": "继续"},
    "mismatch.reset": {"en": "Reset", "zh": "清除结果"},
    "mismatch.no_run": {
        "en": "Press Run to train the arms side by side; Stop keeps every step done.",
        "zh": "点“开始训练”让各分支并排训练；“停止”会保留已完成的每一步。",
    },
    "mismatch.settings_changed": {
        "en": "The settings above changed since this run started; Reset to run them.",
        "zh": "上面的设置在本次运行开始后改过了；点“清除结果”后按新设置再开始训练。",
    },
    "mismatch.progress": {"en": "{arm}: step {done} / {total}", "zh": "{arm}：第 {done} / {total} 步"},
    "mismatch.running": {"en": "Training…", "zh": "训练中…"},
    "mismatch.finished": {
        "en": "Finished: {total} {total:plural:step|steps} per arm.",
        "zh": "完成：每个分支 {total} 步。",
    },
    "mismatch.stopped": {"en": "Stopped; Continue resumes.", "zh": "已停止；点“继续”接着训练。"},
    "mismatch.stopped_arms": {"en": "Stopped at: {arms}.", "zh": "停在：{arms}。"},
    "mismatch.collapse": {"en": "collapse flag", "zh": "崩溃标记"},
    "mismatch.summary_header": {"en": "Summary", "zh": "汇总"},
    "mismatch.col.arm": {"en": "Arm", "zh": "分支"},
    "mismatch.col.heldout": {"en": "held-out pass@1", "zh": "留出集 pass@1"},
    "mismatch.col.gain": {"en": "gain", "zh": "提升"},
    "mismatch.col.collapse_step": {"en": "collapse at step", "zh": "崩溃于第几步"},
    "mismatch.col.rollout_kl": {"en": "KL sampler ‖ trainer (mean)", "zh": "采样端 ‖ 训练端 KL（均值）"},
    "mismatch.col.masked": {"en": "tokens dropped (mean)", "zh": "丢弃的 token（均值）"},
    "mismatch.col.steps": {"en": "steps", "zh": "步数"},
    "mismatch.read_live_collapse": {"en": "Collapse flagged: {arms}.", "zh": "出现崩溃标记：{arms}。"},
    "mismatch.read_live_arm_step": {"en": "{arm} at step {step}", "zh": "{arm} 于第 {step} 步"},
    "mismatch.read_live_no_collapse": {
        "en": "No arm was flagged as collapsed in this run.",
        "zh": "本次运行中没有分支被标记为崩溃。",
    },
    "mismatch.read_live_apart": {
        "en": "Held-out pass@1 at the end spans {low}–{high} over {n} {n:plural:sample|samples} per arm (two standard errors: "
        "{two_se}): {verdict}",
        "zh": "结束时各分支的留出集 pass@1 在 {low}–{high} 之间，每个分支 {n} 个样本（两个标准误：{two_se}）：{verdict}",
    },
    "mismatch.live_verdict.separates": {
        "en": "the arms separate beyond sampling noise.",
        "zh": "分支之间的差距超出了采样噪声。",
    },
    "mismatch.live_verdict.noise": {
        "en": "within sampling noise: this run does not tell the arms apart.",
        "zh": "在采样噪声之内：这次运行分不出各分支的高下。",
    },
    "mismatch.download_csv": {"en": "Download the run (CSV)", "zh": "下载本次运行（CSV）"},
    "mismatch.measured_header": {"en": "What a stored run showed", "zh": "一次存档运行的结果"},
    "mismatch.measured_text": {
        "en": "Measured by `benchmarks/mismatch_effect.py` with this page's defaults ({arms}; sampler {dtype}, "
        "{stale} {stale:plural:step|steps} stale; learning rate {lr}; {steps} {steps:plural:step|steps}; seeds {seeds}). Per seed: held-out pass@1 after the last step, the sampler–trainer KL averaged over the last {window} {window:plural:step|steps}, "
        "and the first step the collapse flag fired:",
        "zh": "由 `benchmarks/mismatch_effect.py` 用本页默认设置测得（{arms}；采样端 {dtype}，落后 {stale} 步；学习率 {lr}；"
        "{steps} 步；种子 {seeds}）。每个种子：最后一步之后的留出集 pass@1、最后 {window} 步采样端–训练端 KL 的均值，以及崩溃标记第一次触发的步数：",
    },
    "mismatch.measured.uncorrected_worse": {
        "en": "Seed {seed}, held-out pass@1 at the end: matched {matched}, no correction {none}, {best} {best_value} ({n} samples "
        "per arm; two standard errors of a difference about {two_se}). The uncorrected arm ends below the control "
        "beyond noise and {best} recovers beyond noise.",
        "zh": "种子 {seed}，结束时的留出集 pass@1：匹配 {matched}，不修正 {none}，{best} {best_value}（每个分支 {n} 个样本；差值的"
        "两个标准误约 {two_se}）。不修正的分支结束时低于对照组，超出噪声；{best} 的恢复也超出噪声。",
    },
    "mismatch.measured.gap_uncorrected": {
        "en": "Seed {seed}, held-out pass@1 at the end: matched {matched}, no correction {none}, best other arm {best} "
        "{best_value} ({n} samples per arm; two standard errors of a difference about {two_se}). The uncorrected "
        "arm ends below the control beyond noise; {best} closes most of that gap, but its lead over no correction "
        "is within noise at this sample size.",
        "zh": "种子 {seed}，结束时的留出集 pass@1：匹配 {matched}，不修正 {none}，其余最好的分支 {best} {best_value}（每个分支 {n} 个"
        "样本；差值的两个标准误约 {two_se}）。不修正的分支结束时低于对照组，超出噪声；{best} 补回了大部分差距，但在这个样本量下"
        "它相对不修正的领先仍在噪声之内。",
    },
    "mismatch.measured_collapse": {
        "en": "Seed {seed}: the collapse flag fired for {arms}.",
        "zh": "种子 {seed}：崩溃标记在这些分支上触发：{arms}。",
    },
    "mismatch.measured_collapse_control": {
        "en": "Seed {seed}: the collapse flag fired for {arms}, the matched control among them: at this learning "
        "rate the flag marks this small run's reward dips and KL growth, not an effect of the mismatch.",
        "zh": "种子 {seed}：崩溃标记在这些分支上触发：{arms}，其中包括匹配的对照组：在这个学习率下，这个标记反映的是这次小规模"
        "运行中奖励的回落和 KL 的增长，而不是不一致造成的效应。",
    },
    "mismatch.measured_seeds.agree": {"en": "The seeds agree on this reading.", "zh": "各个种子在这一点上结论一致。"},
    "mismatch.measured_seeds.disagree": {
        "en": "**The seeds disagree**: what one seed shows is not an effect the tiny model reproduces; more seeds, "
        "longer runs or a larger model would be needed to tell. What both show: {consistent}",
        "zh": "**各个种子结论不一致**：一个种子上看到的，并不是这个微型模型能稳定复现的效应；要分清楚，需要更多种子、更长的"
        "训练或更大的模型。两个种子都显示的是：{consistent}",
    },
    "mismatch.measured_consistent.kl": {
        "en": "in every seed, a smaller sampler–trainer KL than no correction ({none}) for {ranges}.",
        "zh": "在每个种子上，以下分支的采样端–训练端 KL 都比不修正（{none}）小：{ranges}。",
    },
    "mismatch.measured_consistent.none": {
        "en": "no correction lowers the sampler–trainer KL in every seed.",
        "zh": "没有哪种修正在每个种子上都降低了采样端–训练端 KL。",
    },
    "mismatch.measured.no_gap": {
        "en": "Seed {seed}, held-out pass@1 at the end: matched {matched}, no correction {none} ({n} samples per arm; two "
        "standard errors of a difference about {two_se}): at these settings the mismatch (sampler–trainer KL "
        "{none_kl} per token) did not measurably hurt the tiny model. Raise the staleness or the learning rate to "
        "see an effect.",
        "zh": "种子 {seed}，结束时的留出集 pass@1：匹配 {matched}，不修正 {none}（每个分支 {n} 个样本；差值的两个标准误约 {two_se}）：在这组"
        "设置下，这种不一致（采样端–训练端 KL 为每 token {none_kl}）没有可测地伤害这个微型模型。加大过时步数或学习率才能看到效应。",
    },
}
