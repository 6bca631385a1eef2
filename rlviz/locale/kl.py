"""Strings of the KL page (keys ``kl.*``, ``nav.kl``, ``home.kl_claims``), English and 简体中文.

Merged into :data:`rlviz.i18n.STRINGS`; the same completeness rules apply (tests/test_i18n.py).
"""

STRINGS: dict[str, dict[str, str]] = {
    "nav.kl": {"en": "KL estimators", "zh": "KL 估计器"},
    "home.kl_claims": {
        "en": "- Every KL estimator the frameworks ship (k1, k2, k3 = verl low_var_kl, abs, verl's "
        "straight-through k1+ / k3+, DeepSeek-V3.2's k3 × π/π_old = TRL use_bias_correction_kl): value and "
        "gradient against log(π/π_ref), with k3's clamp at 10 visible.\n"
        "- On a small vocabulary you set, exact expectations: which estimator's value is unbiased, and which "
        "placement (in the loss or in the reward) gives the true gradient of KL(π ‖ π_ref): k1 in the loss "
        "gives zero, k3 in the loss the gradient of KL(π_ref ‖ π), k2 in the loss and k1 in the reward the "
        "true one on-policy, k3 × π/π_old in the loss the true one even off-policy.\n"
        "- Links that run each placement on the live model, and what one measured run showed.",
        "zh": "- 框架里的每个 KL 估计器（k1、k2、k3 = verl 的 low_var_kl、abs、verl 的直通估计 k1+ / k3+、"
        "DeepSeek-V3.2 的 k3 × π/π_old = TRL 的 use_bias_correction_kl）：随 log(π/π_ref) 变化的取值与梯度，"
        "并标出 k3 在 10 处的截断。\n"
        "- 在你设定的小词表上精确求期望：哪个估计器的取值无偏，哪种放法（放进 loss 还是放进奖励）给出 "
        "KL(π ‖ π_ref) 的真实梯度：k1 放进 loss 梯度为零，k3 放进 loss 给出 KL(π_ref ‖ π) 的梯度，k2 放进 "
        "loss 与 k1 放进奖励在同策略下给出真实梯度，k3 × π/π_old 放进 loss 在异策略下也给出真实梯度。\n"
        "- 在实时模型上运行每种放法的链接，以及一次实测运行的结果。",
    },
    "kl.title": {
        "en": "KL estimators: the value, the gradient, and where the penalty goes",
        "zh": "KL 估计器：取值、梯度，以及惩罚放在哪里",
    },
    "kl.lede": {
        "en": "Trainers estimate the KL penalty from sampled tokens. An estimator's value and its gradient need "
        "not agree: set the range of x and compare the two panels.",
        "zh": "KL 惩罚由采样的 token 估计，但取值与梯度未必一致：设好 x 的范围，对比两栏。",
    },
    "kl.intro": {
        "en": "The KL penalty β · KL(π ‖ π_ref) cannot be summed over every possible response, so trainers "
        "estimate it from the sampled tokens with x = log π(y) − log π_ref(y). Two choices follow, and they "
        "are independent: **which estimator** (k1, k2, k3 and their variants) and **where it goes**: into the "
        "loss, where autograd differentiates it (verl `actor.use_kl_loss` with `kl_loss_type`, TRL `beta`), or "
        "into the reward, where it is a fixed number that reaches the loss only through the policy-gradient "
        "term (verl `algorithm.use_kl_in_reward` with `kl_penalty`). An estimator whose *value* is unbiased "
        "need not have an unbiased *gradient*: this page computes both.",
        "zh": "KL 惩罚 β · KL(π ‖ π_ref) 无法对所有可能的回答求和，所以训练框架用采样到的 token 来估计它，记 "
        "x = log π(y) − log π_ref(y)。接下来有两个相互独立的选择：**用哪个估计器**（k1、k2、k3 及其变体），以及"
        "**放在哪里**：放进 loss，由 autograd 对它求导（verl 的 `actor.use_kl_loss` 配 `kl_loss_type`，TRL 的 "
        "`beta`）；或放进奖励，此时它是一个固定的数，只通过策略梯度项进入 loss（verl 的 "
        "`algorithm.use_kl_in_reward` 配 `kl_penalty`）。*取值*无偏的估计器，其*梯度*不一定无偏：本页把两者都算出来。",
    },
    # ------------------------------------------------------------------------------------ (a)
    "kl.curves_header": {"en": "1 · Value and gradient against x", "zh": "1 · 取值与梯度随 x 的变化"},
    "kl.curves_text": {
        "en": "Left: each estimator's value for one token with x = log π − log π_ref. Right: its derivative with "
        "respect to log π (autograd through `kl_estimate`), which is what β · k in the loss multiplies "
        "∇log π(y) by. k3 is clamped to [−10, 10] as in verl and SkyRL (verl's `low_var_kl` and `k3` are one "
        "branch of the same code): where the clamp acts (shaded; the thin dotted line is k3 without it) the "
        "token's KL gradient is exactly 0. k1+ and k3+ return k1's and k3's value but k2's gradient (verl's "
        "straight-through `+` suffix). k3_bc is drawn on-policy (π_old = π): its ratio ρ = π/π_old is 1 but "
        "carries a gradient, so its slope is k3's slope plus k3 itself.",
        "zh": "左：单个 token 上各估计器的取值，x = log π − log π_ref。右：它对 log π 的导数（通过 `kl_estimate` "
        "自动求导），也就是 loss 中的 β · k 乘在 ∇log π(y) 上的系数。k3 像 verl 和 SkyRL 那样截断到 [−10, 10]"
        "（verl 的 `low_var_kl` 与 `k3` 是同一段代码的同一分支）：截断生效处（阴影；细点线是不截断的 k3）该 token "
        "的 KL 梯度恰好为 0。k1+ 和 k3+ 取 k1、k3 的值，却用 k2 的梯度（verl 的直通 `+` 后缀）。k3_bc 按同策略画出"
        "（π_old = π）：它的比率 ρ = π/π_old 取值为 1 但带梯度，所以它的斜率是 k3 的斜率再加上 k3 本身。",
    },
    "kl.x_range": {"en": "Range of x = log π − log π_ref", "zh": "x = log π − log π_ref 的范围"},
    "kl.x_range_help": {
        "en": "k3 reaches its clamp of 10 near x = −2.6 and near x = 11; x itself is clamped to [−20, 20].",
        "zh": "k3 在 x ≈ −2.6 和 x ≈ 11 附近达到截断值 10；x 本身被截断到 [−20, 20]。",
    },
    "kl.value_panel": {"en": "Value k(x)", "zh": "取值 k(x)"},
    "kl.grad_panel": {"en": "Gradient d k / d log π", "zh": "梯度 d k / d log π"},
    "kl.x": {"en": "x = log π − log π_ref", "zh": "x = log π − log π_ref"},
    "kl.value": {"en": "k(x), nats", "zh": "k(x)，单位 nats"},
    "kl.grad": {"en": "d k / d log π", "zh": "d k / d log π"},
    "kl.raw": {"en": "{e} without the clamp", "zh": "{e}（不截断）"},
    "kl.clamp": {"en": "k3 clamped at 10: zero gradient", "zh": "k3 截断在 10：梯度为零"},
    "kl.registry_header": {"en": "The estimators and their framework names", "zh": "各估计器及其在框架中的名字"},
    "kl.col.estimator": {"en": "kl_estimator", "zh": "kl_estimator"},
    "kl.col.formula": {"en": "meaning", "zh": "含义"},
    "kl.col.verl": {"en": "verl kl_loss_type / kl_penalty", "zh": "verl kl_loss_type / kl_penalty"},
    "kl.col.trl": {"en": "TRL GRPOConfig", "zh": "TRL GRPOConfig"},
    "kl.col.source": {"en": "source", "zh": "出处"},
    "kl.verl_plus_note": {
        "en": "verl's `+` names (k1+, k3+) crashed with NotImplementedError until verl-project/verl#6058 (merged "
        "April 2026) stripped the suffix before dispatch; check your verl version before using them.",
        "zh": "verl 的 `+` 名字（k1+、k3+）在 verl-project/verl#6058（2026 年 4 月合并）去掉后缀之前会抛出 "
        "NotImplementedError；使用前请确认你的 verl 版本。",
    },
    # ------------------------------------------------------------------------------------ (b)
    "kl.cat_header": {"en": "2 · In expectation, on a small vocabulary", "zh": "2 · 在一个小词表上求期望"},
    "kl.cat_text": {
        "en": "A policy π = softmax(θ) over a few tokens, a reference π_ref, and the sampler π_old (the policy "
        "that generated the batch: π itself on the first pass over it, an older policy on later passes or in "
        "asynchronous training). Every number below is an exact sum over the vocabulary, weighted by π_old, of "
        "what one sampled token contributes, with gradients by autograd through `policy_loss`; the target is "
        "the exact gradient of KL(π ‖ π_ref) with respect to θ.",
        "zh": "一个定义在少数几个 token 上的策略 π = softmax(θ)、参考策略 π_ref，以及采样策略 π_old（生成这批数据的"
        "策略：对这批数据的第一遍就是 π 本身，后续几遍或异步训练时是较旧的策略）。下面每个数都是按 π_old 加权、"
        "对整个词表精确求和的单个采样 token 的贡献，梯度由 autograd 通过 `policy_loss` 求得；目标是 KL(π ‖ π_ref) "
        "对 θ 的精确梯度。",
    },
    "kl.policy_logits": {"en": "Logits θ of π", "zh": "π 的 logits θ"},
    "kl.policy_logits_help": {
        "en": "2 to 8 numbers separated by commas, one per token.",
        "zh": "2 到 8 个用逗号分隔的数，每个 token 一个。",
    },
    "kl.ref_logits": {"en": "Logits of π_ref", "zh": "π_ref 的 logits"},
    "kl.old_shift": {"en": "Sampler's lag s", "zh": "采样策略的滞后 s"},
    "kl.old_shift_help": {
        "en": "π_old = softmax((1 − s) θ + s θ_ref): 0 samples from π itself (on-policy); 1 samples from π_ref.",
        "zh": "π_old = softmax((1 − s) θ + s θ_ref)：0 表示从 π 本身采样（同策略）；1 表示从 π_ref 采样。",
    },
    "kl.dist_title": {"en": "The three distributions", "zh": "三个分布"},
    "kl.pi": {"en": "π (policy)", "zh": "π（策略）"},
    "kl.pi_ref": {"en": "π_ref (reference)", "zh": "π_ref（参考）"},
    "kl.pi_old": {"en": "π_old (sampler)", "zh": "π_old（采样）"},
    "kl.token": {"en": "token", "zh": "token"},
    "kl.prob": {"en": "probability", "zh": "概率"},
    "kl.kl_values": {
        "en": "KL(π ‖ π_ref) = {kl} nats (the penalty's target); KL(π_ref ‖ π) = {kl_forward} nats.",
        "zh": "KL(π ‖ π_ref) = {kl} nats（惩罚的目标）；KL(π_ref ‖ π) = {kl_forward} nats。",
    },
    "kl.loss_panel": {"en": "In the loss: E[∇ k]", "zh": "放进 loss：E[∇ k]"},
    "kl.reward_panel": {"en": "In the reward: E[sg(k) ∇ρ]", "zh": "放进奖励：E[sg(k) ∇ρ]"},
    "kl.grad_theta": {"en": "expected gradient w.r.t. the logit", "zh": "对 logit 的期望梯度"},
    "kl.true_reverse": {"en": "∇ KL(π ‖ π_ref) (target)", "zh": "∇ KL(π ‖ π_ref)（目标）"},
    "kl.true_forward": {"en": "∇ KL(π_ref ‖ π)", "zh": "∇ KL(π_ref ‖ π)"},
    "kl.loss": {"en": "in the loss", "zh": "放进 loss"},
    "kl.reward": {"en": "in the reward", "zh": "放进奖励"},
    "kl.rel_error": {"en": "|E g − ∇KL| / |∇KL|", "zh": "|E g − ∇KL| / |∇KL|"},
    "kl.std": {"en": "spread of one sample's gradient", "zh": "单个样本梯度的离散程度"},
    "kl.estimator": {"en": "estimator", "zh": "估计器"},
    "kl.error_panel": {"en": "Bias of E[gradient] (0 = exact)", "zh": "期望梯度的偏差（0 = 精确）"},
    "kl.std_panel": {"en": "One sample's noise", "zh": "单个样本的噪声"},
    "kl.tcol.route": {"en": "route", "zh": "用法"},
    "kl.tcol.estimator": {"en": "estimator", "zh": "估计器"},
    "kl.tcol.expected_value": {"en": "expected value", "zh": "期望值"},
    "kl.tcol.value_bias": {"en": "value bias", "zh": "值的偏差"},
    "kl.tcol.rel_error": {"en": "rel. error vs ∇KL(π‖π_ref)", "zh": "相对 ∇KL(π‖π_ref) 的误差"},
    "kl.tcol.rel_error_forward": {"en": "rel. error vs ∇KL(π_ref‖π)", "zh": "相对 ∇KL(π_ref‖π) 的误差"},
    "kl.tcol.norm_ratio": {"en": "norm ratio", "zh": "长度之比"},
    "kl.tcol.cosine": {"en": "cosine", "zh": "余弦"},
    "kl.tcol.std": {"en": "std", "zh": "标准差"},
    "kl.tcol.direction": {"en": "exact gradient of", "zh": "恰好是谁的梯度"},
    "kl.tval.loss": {"en": "in the loss", "zh": "放进损失"},
    "kl.tval.reward": {"en": "in the reward", "zh": "放进奖励"},
    "kl.tval.reverse": {"en": "KL(π‖π_ref)", "zh": "KL(π‖π_ref)"},
    "kl.tval.forward": {"en": "KL(π_ref‖π)", "zh": "KL(π_ref‖π)"},
    "kl.tval.neither": {"en": "neither", "zh": "都不是"},
    "kl.table_caption": {
        "en": "Expected value: the mean penalty over samples from π_old (its bias against KL(π ‖ π_ref): value "
        "bias); the relative errors: the expected gradient against ∇KL(π ‖ π_ref) and ∇KL(π_ref ‖ π); norm "
        "ratio: its length relative to ∇KL(π ‖ π_ref); std: the square root of the trace of one sample's "
        "gradient covariance; the last column: the KL whose gradient it is exactly, if any. The CSV keeps the "
        "library's column names (expected_value, rel_error, ...).",
        "zh": "期望值：对 π_old 的样本求平均的惩罚值（相对 KL(π ‖ π_ref) 的偏差见“值的偏差”）；两个相对误差：期望梯度相对 "
        "∇KL(π ‖ π_ref) 与 ∇KL(π_ref ‖ π) 的误差；长度之比：它的长度与 ∇KL(π ‖ π_ref) 之比；标准差：单个样本梯度协方差迹的"
        "平方根；最后一列：它恰好是哪个 KL 的梯度（若有）。CSV 里保留库的列名（expected_value、rel_error 等）。",
    },
    # ------------------------------------------------------------------------------------ (c)
    "kl.route_header": {"en": "3 · In the reward or in the loss", "zh": "3 · 放进奖励还是放进 loss"},
    "kl.route_text": {
        "en": "**In the loss** the estimate is differentiated where the token was sampled (a pathwise "
        "gradient): the gradient of β · k(x) is β · k′(x) · ∇log π(y), and which tokens were drawn is held "
        "fixed. **In the reward** the estimate is a fixed number subtracted from the reward; it moves the policy "
        "only as an advantage, β · k · ∇log π(y) (a score-function, REINFORCE gradient). The exact gradient of "
        "the KL is ∇KL = E_π[(∇log π) · log(π/π_ref)]: the score-function term with k1's value. On-policy "
        "(s = 0), at the logits above:\n"
        "- **k1 in the loss**: k1′ = 1, and E_π[∇log π] = 0, so the expected gradient has length {k1_loss} × "
        "|∇KL|: the penalty does nothing on average and only adds noise (spread {k1_loss_std}).\n"
        "- **k1 in the reward**: relative error {k1_reward}: it *is* the formula above, the configuration arXiv "
        "2512.21852 finds unbiased.\n"
        "- **k2 in the loss**: k2′ = x = k1, so its pathwise gradient equals k1's score-function gradient: "
        "relative error {k2_loss} (arXiv 2510.01555 proves the equivalence); so do k1+ and k3+ ({k3p_loss}), "
        "which borrow k2's gradient.\n"
        "- **k3 in the loss**: k3′ = 1 − π_ref/π, whose expectation is ∇KL(π_ref ‖ π), the *other* direction: "
        "relative error {k3_loss} against the target, {k3_loss_forward} against KL(π_ref ‖ π). Its value is "
        "unbiased ({k3_value} vs {kl}); its gradient is not.\n"
        "- **k3 in the reward**: relative error {k3_reward}: an unbiased value used as a reward is still the "
        "wrong advantage, since k3 ≠ log(π/π_ref) token by token.\n"
        "- **k3 × π/π_old in the loss** (k3_bc): relative error {bc_loss}. The ratio's gradient adds the "
        "score-function term k3 · ∇log π to k3′, and the two together are the gradient of E_π[k3] = KL "
        "whatever the sampler. With the sampler lagging by s = {shift}: k3_bc {bc_off}, k3 {k3_off}, k2 "
        "{k2_off}, k1 in the reward {k1_reward_off} (its penalty was computed when sampling, from π_old).",
        "zh": "**放进 loss** 时，估计值在采样到的 token 处被求导（路径导数）：β · k(x) 的梯度是 β · k′(x) · "
        "∇log π(y)，而抽到哪些 token 被视为固定。**放进奖励** 时，估计值是从奖励中减去的一个固定数；它只作为优势"
        "推动策略，β · k · ∇log π(y)（得分函数，即 REINFORCE 梯度）。KL 的精确梯度是 ∇KL = E_π[(∇log π) · "
        "log(π/π_ref)]：取 k1 值的得分函数项。同策略（s = 0）、上面的 logits 下：\n"
        "- **k1 放进 loss**：k1′ = 1，而 E_π[∇log π] = 0，所以期望梯度的长度是 |∇KL| 的 {k1_loss} 倍：这个惩罚平均"
        "而言什么也不做，只添加噪声（离散程度 {k1_loss_std}）。\n"
        "- **k1 放进奖励**：相对误差 {k1_reward}：它*正是*上面的公式，也是 arXiv 2512.21852 认为无偏的配置。\n"
        "- **k2 放进 loss**：k2′ = x = k1，所以它的路径梯度等于 k1 的得分函数梯度：相对误差 {k2_loss}"
        "（arXiv 2510.01555 证明了这一等价）；借用 k2 梯度的 k1+ 与 k3+ 也一样（{k3p_loss}）。\n"
        "- **k3 放进 loss**：k3′ = 1 − π_ref/π，它的期望是 ∇KL(π_ref ‖ π)，即*另一个*方向：相对目标的误差 "
        "{k3_loss}，相对 KL(π_ref ‖ π) 的误差 {k3_loss_forward}。它的取值无偏（{k3_value} 对 {kl}），梯度却不是。\n"
        "- **k3 放进奖励**：相对误差 {k3_reward}：取值无偏的估计器当作奖励，仍是错误的优势，因为逐 token 看 k3 ≠ "
        "log(π/π_ref)。\n"
        "- **k3 × π/π_old 放进 loss**（k3_bc）：相对误差 {bc_loss}。比率的梯度给 k3′ 加上了得分函数项 k3 · ∇log π，"
        "两者合起来正是 E_π[k3] = KL 的梯度，与采样策略无关。采样策略滞后 s = {shift} 时：k3_bc {bc_off}，k3 "
        "{k3_off}，k2 {k2_off}，k1 放进奖励 {k1_reward_off}（它的惩罚在采样时由 π_old 算出）。",
    },
    "kl.paper_note": {
        "en": "What the papers report. Tang & Munos (arXiv 2506.09477): differentiating a KL estimate as a loss "
        'does not in general give the KL\'s gradient. Shah et al., "A Comedy of Estimators" (arXiv '
        "2512.21852): analyse the gradients of these configurations and, fine-tuning Qwen2.5-7B, "
        "Llama-3.1-8B-Instruct and Qwen3-4B-Instruct-2507, observe that configurations with biased gradients "
        "can make training unstable and that unbiased ones do better in and out of domain. DeepSeek-V3.2 (arXiv "
        "2512.02556 §3.1): k3's gradient gives large, unbounded weights to tokens with π ≪ π_ref; weighting k3 "
        "by π/π_old makes the estimate unbiased (TRL `use_bias_correction_kl`).",
        "zh": "论文的结论。Tang 与 Munos（arXiv 2506.09477）：把 KL 估计当作 loss 求导，一般得不到 KL 的梯度。Shah 等人"
        "《A Comedy of Estimators》（arXiv 2512.21852）：分析了这些配置的梯度，并在 Qwen2.5-7B、"
        "Llama-3.1-8B-Instruct 与 Qwen3-4B-Instruct-2507 上微调，观察到梯度有偏的配置可能使训练不稳定，而无偏的配置"
        "在域内和域外都表现更好。DeepSeek-V3.2（arXiv 2512.02556 §3.1）：对 π ≪ π_ref 的 token，k3 的梯度给出很大且"
        "无界的权重；把 k3 乘以 π/π_old 使估计无偏（TRL 的 `use_bias_correction_kl`）。",
    },
    # ------------------------------------------------------------------------------------ (d)
    "kl.live_header": {"en": "4 · On the live model", "zh": "4 · 在实时模型上"},
    "kl.live_text": {
        "en": "Each link opens the live page with GRPO on the shipped tiny LM and only the KL changed: β = {beta}, "
        "{steps} {steps:plural:step|steps} of {prompts} {prompts:plural:prompt|prompts}, learning rate {lr}. Run them one after another and compare the "
        "KL-to-reference panel (kl_ref, the sampler's mean k3, whichever estimator trains).",
        "zh": "每个链接都会打开实时页面：在随附的微型语言模型上训练 GRPO，只改动 KL 相关设置：β = {beta}，{steps} 步，"
        "每步 {prompts} 个提示词，学习率 {lr}。依次运行并比较“到参考策略的 KL”面板（kl_ref，采样策略的平均 k3，"
        "与训练用哪个估计器无关）。",
    },
    "kl.arm.no_kl": {"en": "no KL (β = 0)", "zh": "无 KL（β = 0）"},
    "kl.arm.k1_loss": {"en": "k1 in the loss", "zh": "k1 放进 loss"},
    "kl.arm.k2_loss": {"en": "k2 in the loss", "zh": "k2 放进 loss"},
    "kl.arm.k3_loss": {"en": "k3 in the loss (GRPO, TRL)", "zh": "k3 放进 loss（GRPO、TRL）"},
    "kl.arm.k3+_loss": {"en": "k3+ in the loss (verl)", "zh": "k3+ 放进 loss（verl）"},
    "kl.arm.k3_bc_loss": {"en": "k3 × π/π_old in the loss (k3_bc)", "zh": "k3 × π/π_old 放进 loss（k3_bc）"},
    "kl.arm.k1_reward": {
        "en": "k1 in the reward (verl use_kl_in_reward)",
        "zh": "k1 放进奖励（verl use_kl_in_reward）",
    },
    "kl.arm.k3_reward": {"en": "k3 in the reward", "zh": "k3 放进奖励"},
    "kl.measured_header": {"en": "What one measured run showed", "zh": "一次实测运行的结果"},
    "kl.measured_text": {
        "en": "Measured by `benchmarks/kl_effect.py` (seed {seed}, {steps} {steps:plural:step|steps}, the settings above, on {device}). "
        "Mean kl_ref over the last {window} {window:plural:step|steps}, and mean reward:",
        "zh": "由 `benchmarks/kl_effect.py` 测得（种子 {seed}，{steps} 步，上面的设置，运行于 {device}）。最后 {window} "
        "步 kl_ref 的平均值，以及平均奖励：",
    },
    "kl.measured_none": {
        "en": "No measurement is stored for these settings (run `benchmarks/kl_effect.py --out "
        "rlviz/experiments/kl_measured.json`).",
        "zh": "没有保存这些设置下的测量结果（运行 `benchmarks/kl_effect.py --out rlviz/experiments/kl_measured.json`）。",
    },
    "kl.measured_reading": {
        "en": "One seed, {steps} {steps:plural:step|steps}: the arms with a KL term end between {low} and {high} nats of kl_ref, "
        "against {no_kl} without one. {verdict}",
        "zh": "一个种子、{steps} 步：带 KL 项的各分支 kl_ref 最后落在 {low} 到 {high} nats 之间，没有 KL 的那个分支为 {no_kl}。"
        "{verdict}",
    },
    "kl.verdict.small": {
        "en": "Their spread is less than a tenth of the largest: at these settings one run cannot tell the "
        "estimators or their placements apart.",
        "zh": "它们之间的差距不到最大值的十分之一：在这些设置下，单次运行分不出估计器或放法的差别。",
    },
    "kl.verdict.large": {
        "en": "Their spread is more than a tenth of the largest, so the estimator and where it goes matter "
        "here; with one seed, read the order of the arms as a hint to check with other seeds (docs/pages.md, section KL estimators, "
        "gives a second one), not as a measured effect size.",
        "zh": "它们之间的差距超过最大值的十分之一，说明估计器和放法在这里有影响；只有一个种子，应把各分支的先后当作需要用其他种子"
        "验证的线索（docs/pages.md 的 “KL estimators” 一节给出了第二个种子），而不是测得的效应大小。",
    },
    "kl.col.arm": {"en": "arm", "zh": "分支"},
    "kl.col.kl_ref": {"en": "kl_ref (last steps)", "zh": "kl_ref（最后几步）"},
    "kl.col.reward": {"en": "reward (last steps)", "zh": "奖励（最后几步）"},
    "kl.sources": {
        "en": 'Sources: Schulman, "Approximating KL divergence" (2020); DeepSeekMath arXiv 2402.03300 eq. 4; '
        "arXiv 2506.09477; arXiv 2510.01555; arXiv 2512.21852; DeepSeek-V3.2 arXiv 2512.02556 §3.1; verl "
        "`verl/trainer/ppo/core_algos.py` (`kl_penalty`, `kl_penalty_forward`), verl-project/verl#2953, #6058; "
        "TRL `trl/trainer/grpo_trainer.py` and `grpo_config.py` (`use_bias_correction_kl`), huggingface/trl#4637.",
        "zh": "出处：Schulman《Approximating KL divergence》（2020）；DeepSeekMath arXiv 2402.03300 式 4；arXiv "
        "2506.09477；arXiv 2510.01555；arXiv 2512.21852；DeepSeek-V3.2 arXiv 2512.02556 §3.1；verl "
        "`verl/trainer/ppo/core_algos.py`（`kl_penalty`、`kl_penalty_forward`）、verl-project/verl#2953、#6058；"
        "TRL `trl/trainer/grpo_trainer.py` 与 `grpo_config.py`（`use_bias_correction_kl`）、huggingface/trl#4637。",
    },
    # ----------------------------------------------------------------------------- predictions
    "kl.k1_loss.q": {
        "en": "Tokens are sampled with lag s = {shift} and k1 = log π − log π_ref is added to the loss. How long "
        "is its expected gradient, as a multiple of the true |∇KL(π ‖ π_ref)|?",
        "zh": "以滞后 s = {shift} 采样 token，把 k1 = log π − log π_ref 加进 loss。它的期望梯度有多长？请以真实的 "
        "|∇KL(π ‖ π_ref)| 的倍数作答。",
    },
    "kl.k1_loss.why": {
        "en": "{answer}. k1's derivative is 1 on every token, so its gradient is ∇log π(y), and under on-policy "
        "sampling E_π[∇log π] = ∇Σπ = 0. The same estimator in the reward gives {k1_reward} × |∇KL|, k2 in the "
        "loss {k2_loss} ×. KL(π ‖ π_ref) here is {kl}.",
        "zh": "{answer}。k1 在每个 token 上的导数都是 1，所以它的梯度就是 ∇log π(y)，而同策略采样下 E_π[∇log π] = "
        "∇Σπ = 0。同一个估计器放进奖励给出 {k1_reward} × |∇KL|，k2 放进 loss 给出 {k2_loss} ×。这里 KL(π ‖ π_ref) "
        "为 {kl}。",
    },
    "kl.k3_direction.q": {
        "en": "With lag s = {shift}, k3 = e^−x + x − 1 goes into the loss (GRPO, TRL beta, verl low_var_kl). Its "
        "expected gradient is exactly the gradient of…",
        "zh": "在滞后 s = {shift} 下，把 k3 = e^−x + x − 1 放进 loss（GRPO、TRL 的 beta、verl 的 low_var_kl）。它的"
        "期望梯度恰好是哪个量的梯度？",
    },
    "kl.k3_direction.choice.reverse": {"en": "KL(π ‖ π_ref), the penalty's target", "zh": "KL(π ‖ π_ref)，惩罚的目标"},
    "kl.k3_direction.choice.forward": {"en": "KL(π_ref ‖ π), the other direction", "zh": "KL(π_ref ‖ π)，另一个方向"},
    "kl.k3_direction.choice.neither": {"en": "neither of them", "zh": "两者都不是"},
    "kl.k3_direction.why.reverse": {
        "en": "KL(π ‖ π_ref): relative error {err_reverse} (against KL(π_ref ‖ π): {err_forward}).",
        "zh": "KL(π ‖ π_ref)：相对误差 {err_reverse}（相对 KL(π_ref ‖ π)：{err_forward}）。",
    },
    "kl.k3_direction.why.forward": {
        "en": "KL(π_ref ‖ π): relative error {err_forward}, against the target {err_reverse}. k3′ = 1 − π_ref/π, "
        "and Σ π (1 − π_ref/π) ∇log π = −Σ π_ref ∇log π = ∇KL(π_ref ‖ π). k3 × π/π_old gives the target: "
        "error {err_bc}.",
        "zh": "KL(π_ref ‖ π)：相对误差 {err_forward}，相对目标为 {err_reverse}。k3′ = 1 − π_ref/π，而 Σ π (1 − π_ref/π) "
        "∇log π = −Σ π_ref ∇log π = ∇KL(π_ref ‖ π)。k3 × π/π_old 给出目标：误差 {err_bc}。",
    },
    "kl.k3_direction.why.neither": {
        "en": "Neither: off-policy (s = {shift}) the tokens come from π_old, so the identity that turns k3's "
        "gradient into ∇KL(π_ref ‖ π) fails: error {err_reverse} against KL(π ‖ π_ref), {err_forward} against "
        "KL(π_ref ‖ π). k3 × π/π_old still gives the target: error {err_bc}.",
        "zh": "都不是：异策略（s = {shift}）时 token 来自 π_old，使 k3 的梯度变成 ∇KL(π_ref ‖ π) 的那个恒等式不再"
        "成立：相对 KL(π ‖ π_ref) 的误差 {err_reverse}，相对 KL(π_ref ‖ π) 的误差 {err_forward}。k3 × π/π_old "
        "仍给出目标：误差 {err_bc}。",
    },
}
