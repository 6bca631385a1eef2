"""Strings of the Home page (keys ``home.*``, ``col.*``, ``level.*``), English and 简体中文.

Merged into :data:`rlviz.i18n.STRINGS`; the same completeness rules apply (tests/test_i18n.py).
"""

STRINGS: dict[str, dict[str, str]] = {
    # ---------------------------------------------------------------- home page
    "home.title": {
        "en": "Policy optimisation for LLM post-training, hands-on",
        "zh": "动手理解大模型后训练中的策略优化",
    },
    "home.lede": {
        "en": "After supervised fine-tuning, a language model can learn from its own samples, scored by a "
        "verifier. The {n} objectives here differ in how they turn scores into a gradient; every number is "
        "computed live by the code that trains a small real model.",
        "zh": "模型从自己采样、由验证器打分的回答中学习；{n} 个目标函数的区别在于怎样把分数变成梯度，每个数字都实时算出。",
    },
    "home.start_header": {"en": "Start here", "zh": "从这里开始"},
    "home.start_button": {"en": "**Start here:** {title}", "zh": "**从这里开始**：{title}"},
    "home.other_ways": {"en": "Or come for", "zh": "或者直接去"},
    "home.entry_lessons": {"en": "Teaching a class: lessons with a presenter view", "zh": "上课：带演示模式的课程"},
    "home.entry_interview": {
        "en": "Preparing for interviews: practice questions",
        "zh": "准备面试：练习题",
    },
    "home.intro": {
        "en": "After supervised fine-tuning, a language model can keep improving from its own "
        "samples: generate several answers per prompt, score them with a verifier, and push up "
        "the tokens of the better answers. The {n} objectives below differ only in *how* they "
        "turn those scores into a gradient: what ratio they use, where they clip, how they "
        "average over tokens, and which groups they learn from. Every number in this app is "
        "computed live by the same code that trains a small real language model.",
        "zh": "监督微调之后，语言模型还可以从自己的采样中继续进步：每个提示词生成几条回答，用验证器打分，"
        "再把较好回答里的 token 概率往上推。下面 {n} 个目标函数的区别只在于*怎样*把这些分数变成梯度："
        "用哪种比率、在哪里裁剪、怎样在 token 之间求平均、从哪些组里学习。本应用中的每个数字，"
        "都由训练一个真实小语言模型的同一套代码现场算出。",
    },
    "home.map_header": {"en": "The family tree", "zh": "算法谱系"},
    "home.map_caption": {
        "en": "Each arrow goes from an algorithm to one that modified it. Colours are the ones "
        "every chart in the app uses for that algorithm.",
        "zh": "箭头从一个算法指向在它基础上修改的算法。颜色与应用中所有图表里该算法的颜色一致。",
    },
    "home.notation": {
        "en": r"Notation: $r_t = \pi_\theta(y_t)/\pi_{old}(y_t)$ is a token's importance ratio, "
        r"$s = (\prod_t r_t)^{1/|y|}$ the sequence ratio, $A$ the advantage (the reward minus the "
        r"group mean, often divided by the group's std), $\varepsilon$ the clip range, $|y|$ the "
        r"response length, $G$ the group size.",
        "zh": r"记号：$r_t = \pi_\theta(y_t)/\pi_{old}(y_t)$ 是单个 token 的重要性比率，"
        r"$s = (\prod_t r_t)^{1/|y|}$ 是序列比率，$A$ 是优势（奖励减去组内均值，通常再除以组内标准差），"
        r"$\varepsilon$ 是裁剪范围，$|y|$ 是回答长度，$G$ 是组大小。",
    },
    "home.algos_header": {"en": "The {n} objectives", "zh": "{n} 个目标函数"},
    "home.paper": {
        "en": "Paper: {paper} — [arXiv:{arxiv}](https://arxiv.org/abs/{arxiv}) ({where})",
        "zh": "论文：{paper} — [arXiv:{arxiv}](https://arxiv.org/abs/{arxiv})（{where}）",
    },
    "home.parity_checked": {
        "en": "Checked against {frameworks}: their own loss code gives the same loss and per-token "
        "gradient on fixed inputs, to 1e-6 (tools/parity).",
        "zh": "已与 {frameworks} 对照：在固定输入上，框架自己的损失代码给出相同的损失与逐 token 梯度，"
        "误差不超过 1e-6（tools/parity）。",
    },
    "home.parity_unchecked": {
        "en": "TRL or verl implements it, but no stored parity case checks it yet.",
        "zh": "TRL 或 verl 实现了它，但还没有对照用例检查它。",
    },
    "home.parity_none": {
        "en": "No framework implements it: neither TRL nor verl ships this loss; rlviz follows the paper.",
        "zh": "没有框架实现它：TRL 与 verl 都没有这个损失；rlviz 按论文实现。",
    },
    "home.follows_paper": {
        "en": "**Follows the paper, not the authors' code:** {text}",
        "zh": "**按论文描述实现，而非作者发布的代码：**{text}",
    },
    "home.parent": {"en": "Builds on {parent}", "zh": "基于 {parent}"},
    "home.root": {"en": "The starting point", "zh": "出发点"},
    "home.changed": {"en": "*What changed:* {text}", "zh": "*改动*：{text}"},
    "home.pages_header": {"en": "What each page demonstrates", "zh": "各页面演示的内容"},
    "home.live_claims": {
        "en": "- Train several algorithms side by side on the same prompts and watch reward, "
        "pass@1, length, entropy, KL and clip fraction step by step, and held-out pass@1 before and after.\n"
        "- Groups whose answers are all right or all wrong have zero advantage: they cost "
        "compute and teach nothing (the zero-advantage share).\n"
        "- GSPO clips whole sequences — a far larger clip fraction — and still learns.\n"
        "- SAPO's soft gate never cuts a token off completely; CISPO keeps a bounded gradient "
        "on tokens outside the trust region.\n"
        "- The per-token view shows how each objective spreads the gradient over one group's "
        "answers: token by token (GRPO) or one weight per response (GSPO).\n"
        "- Turn the learning rate up until the policy collapses and read the symptoms: KL jumps, "
        "the reward falls to zero (to −1 under DAPO's overlong penalty), answers turn into noise that often runs to the length limit.\n"
        "- Entropy, measured rather than assumed: in the default run DAPO loses the most entropy although "
        "clip-higher was proposed against entropy collapse. Dynamic sampling, no KL and token-mean make it learn "
        "and sharpen fastest, and on this small model the raised upper clip almost never binds; the page reads "
        "the numbers from your run.",
        "zh": "- 在同一批提示词上并排训练几个算法，逐步观察奖励、pass@1、回答长度、熵、KL 和裁剪比例，并比较训练前后的留出集 pass@1。\n"
        "- 全对或全错的组优势为零：白白花了算力却什么也学不到（见“零优势组占比”）。\n"
        "- GSPO 按整条序列裁剪，裁剪比例大得多，却照样能学。\n"
        "- SAPO 的软门控从不把 token 完全截断；CISPO 对信任域之外的 token 仍保留有界的梯度。\n"
        "- 逐 token 视图显示每个目标函数怎样把梯度分配到一组回答上：GRPO 逐个 token 不同，GSPO 每条回答一个权重。\n"
        "- 把学习率调大直到策略崩溃，再看症状：KL 飙升，奖励跌到零（DAPO 因超长惩罚会跌到 −1），回答变成乱码，常常写到长度上限。\n"
        "- 熵是测出来的，不是假设的：默认设置下 DAPO 的熵降得最多，尽管 clip-higher 是为防止熵坍缩而提出的。"
        "动态采样、去掉 KL 和按 token 求平均让它学得最快、收敛最快；而在这个小模型上，提高的上界几乎碰不到；"
        "页面上的数字直接取自你的这次训练。",
    },
    "home.curves_claims": {
        "en": "- PPO's clip: for A>0 the gradient is exactly zero once r > 1+ε, for A<0 once r < 1−ε; "
        "the six cases of the clip in one table.\n"
        "- Clip-higher: a token at π_old = 0.2 can only rise to 0.24 (ε = 0.2) or 0.256 (ε_high = 0.28) "
        "before its gradient stops, so rare tokens barely grow.\n"
        "- Dual clip, CISPO's capped weight (never zero), SAPO's soft gate (τ_pos vs τ_neg), GMPO's log-space "
        "clip and GSPO's ε of order 1e-4, on one axis.",
        "zh": "- PPO 的裁剪：A>0 时一旦 r > 1+ε 梯度恰好为零，A<0 时一旦 r < 1−ε 梯度为零；一张表列出裁剪的六种情形。\n"
        "- Clip-higher：π_old = 0.2 的 token 在梯度消失前最多只能升到 0.24（ε = 0.2）或 0.256（ε_high = 0.28），"
        "低概率 token 几乎长不大。\n"
        "- 双重裁剪、CISPO 的截顶权重（梯度永不为零）、SAPO 的软门控（τ_pos 与 τ_neg）、GMPO 的对数空间裁剪和 GSPO "
        "约 1e-4 的 ε，放在同一坐标轴上对比。",
    },
    "home.weighting_claims": {
        "en": "- One 200-token and one 10-token response: (1/200)(1/2) and (1/10)(1/2) per token under the "
        "per-response mean, 1/210 for every token under the token mean; Dr.GRPO's length bias.\n"
        "- A few off-policy tokens: GRPO cuts only those tokens, GSPO clips the whole response, SAPO damps only "
        "the outliers; GSPO-token equals GSPO when the advantage is constant.\n"
        "- Why GSPO's ε is ~1e-4: the variance of log s falls as 1/L. The same view on a real group of the tiny LM.",
        "zh": "- 一条 200 token、一条 10 token 的回答：按回答平均时每个 token 的权重分别为 (1/200)(1/2) 和 (1/10)(1/2)，"
        "按 token 平均时都是 1/210；Dr.GRPO 指出的长度偏置。\n"
        "- 少数异策略 token：GRPO 只截断这几个 token，GSPO 把整条回答裁掉，SAPO 只衰减离群的 token；"
        "优势沿序列恒定时 GSPO-token 与 GSPO 完全相同。\n"
        "- 为什么 GSPO 的 ε 只有约 1e-4：log s 的方差按 1/L 下降。并在微型模型的一组真实回答上看同样的视图。",
    },
    "home.length_claims": {
        "en": "- DAPO's soft overlong punishment: nothing up to L_max − L_cache, a linear ramp to −1 at L_max, −1 "
        "beyond; beside it the Kimi k1.5 length reward and a cosine length-scaled reward.\n"
        "- Overlong filtering: truncated responses leave the loss instead of counting as failures.\n"
        "- On real rollouts: move L_max and L_cache and watch the mean reward, the advantages inside a group and "
        "the share of masked samples change.",
        "zh": "- DAPO 的软超长惩罚：长度不超过 L_max − L_cache 时不罚，之后线性降到 L_max 处的 −1，超出后恒为 −1；"
        "旁边是 Kimi k1.5 的长度奖励和余弦长度缩放奖励。\n"
        "- 超长过滤：被截断的回答不再当作失败计分，而是直接移出损失。\n"
        "- 在真实 rollout 上拖动 L_max 和 L_cache，观察平均奖励、组内优势和被屏蔽样本占比如何变化。",
    },
    "home.sampling_claims": {
        "en": "- A group carries a signal with chance 1 − p^G − (1−p)^G; all-right and all-wrong groups have zero "
        "advantage and teach nothing.\n"
        "- What filling a batch with informative groups costs in rollouts, and what a cap on re-sampling rounds "
        "does; measured pass rates of the tiny LM.\n"
        "- A live GRPO vs GRPO + dynamic sampling run: effective batch size, rollouts spent, reward.",
        "zh": "- 一组回答带有学习信号的概率是 1 − p^G − (1−p)^G；全对和全错的组优势为零，什么也学不到。\n"
        "- 用有信号的组填满一个批次要多花多少次 rollout，限制补采轮数会怎样；以及微型模型实测的通过率分布。\n"
        "- 实时对比 GRPO 与 GRPO + 动态采样：有效批大小、花掉的 rollout 数和奖励。",
    },
    "home.moe_claims": {
        "en": "- One batch, k updates on a tiny Qwen3-MoE: the share of routes whose experts changed, per layer, "
        "beside the ≈ 10% per update the GSPO paper reports; a bf16 copy of the same weights already routes some "
        "tokens differently (why R3 exists).\n"
        "- The token log-ratio with the policy's own routing and with the old routing replayed (verl's "
        "router_replay R2 / R3): their difference is the routing's part alone; GSPO's sequence ratio averages the "
        "token swings. The dense model is the control.\n"
        "- Live: GRPO vs GRPO + routing replay vs GSPO, with route change, ratio variance, clip fraction, KL and a "
        "collapse flag per step.",
        "zh": "- 在微型 Qwen3-MoE 上对一个批次做 k 次更新：各层有多少比例的路由换了专家，对照 GSPO 论文报告的每次更新"
        "约 10%；同一份权重的 bf16 副本已经会给一些 token 选不同的专家（这就是 R3 存在的原因）。\n"
        "- token 对数比率用策略自身的路由和重放旧路由（verl 的 router_replay R2 / R3）时的对比：两者之差就是单纯由"
        "路由带来的部分；GSPO 的序列比率把 token 的波动平均掉。稠密模型作为对照。\n"
        "- 实时对比 GRPO、GRPO + 路由重放和 GSPO：每一步的路由变化、比率方差、裁剪比例、KL 和崩溃标记。",
    },
    "home.open_live": {"en": "Open the live policy update", "zh": "打开实时策略更新"},
    "home.settings": {"en": "Settings and where their defaults come from", "zh": "参数设置及默认值出处"},
    "home.csv_settings": {
        "en": "Download every setting of every objective (CSV)",
        "zh": "下载所有目标函数的全部参数（CSV）",
    },
    "col.setting": {"en": "setting", "zh": "参数"},
    "col.default": {"en": "default", "zh": "默认值"},
    "col.meaning": {"en": "meaning", "zh": "含义"},
    "col.source": {"en": "source of the default", "zh": "默认值出处"},
    "col.trl": {"en": "TRL name", "zh": "TRL 中的名字"},
    "col.verl": {"en": "verl name", "zh": "verl 中的名字"},
    "home.ratio_level": {"en": "Ratio: {level}", "zh": "比率：{level}"},
    "level.token": {"en": "per token", "zh": "token 级"},
    "level.sequence": {"en": "per response (sequence)", "zh": "回答级（序列）"},
    "home.map_hover_parent": {"en": "builds on {parent}", "zh": "基于 {parent}"},
}
