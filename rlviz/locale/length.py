"""Strings of the Length penalties page (keys ``length.*``), English and 简体中文.

Merged into :data:`rlviz.i18n.STRINGS`; the same completeness rules apply (tests/test_i18n.py).
Texts holding LaTeX are never formatted (no ``tr(..., **fmt)`` call passes arguments to them).
"""

STRINGS: dict[str, dict[str, str]] = {
    "length.title": {"en": "Length penalties", "zh": "长度惩罚"},
    "length.lede": {
        "en": "How much reward does a response lose for running long? Move the sliders and compare DAPO's "
        "overlong penalty with the Kimi k1.5 and cosine length rewards.",
        "zh": "回答太长会被扣多少分？拖动滑块，对比 DAPO、Kimi 与余弦三种长度惩罚。",
    },
    "length.intro": {
        "en": "Every rollout has a length limit $L_{max}$. A response that reaches it without "
        "finishing is cut off, and the verifier scores the cut-off text as wrong, even when the "
        "reasoning was on track. DAPO answers this twice: a **soft overlong punishment** that lowers "
        "the reward gradually in a buffer of $L_{cache}$ tokens before the limit, so the model "
        "learns to finish in time, and **overlong filtering**, which takes truncated responses out of "
        "the loss instead of treating them as failures. Other teams shape the reward by length in "
        "other ways; two of them are shown beside DAPO. Below, all of them act on real responses of "
        "the tiny LM.",
        "zh": "每次 rollout 都有长度上限 $L_{max}$。回答写到上限还没结束就会被截断，验证器把截断后的文本"
        "判为错误，哪怕推理本来是对的。DAPO 对此给出两种做法：**软超长惩罚**（soft overlong punishment）在上限前"
        " $L_{cache}$ 个 token 的缓冲区内逐步降低奖励，让模型学会及时收尾；**超长过滤**（overlong "
        "filtering）则把被截断的回答直接从 loss 中去掉，而不是当作失败样本。其他团队也用别的方式按长度塑形奖励，"
        "这里挑两种与 DAPO 并列展示。下文中它们都作用在微型语言模型真实采样出的回答上。",
    },
    "length.lmax": {"en": "Maximum length L_max (tokens)", "zh": "最大长度 L_max（token）"},
    "length.lmax_help": {
        "en": "The generation limit (verl data.max_response_length, TRL max_completion_length). A response "
        "still running at L_max is truncated. The rollouts below were sampled once with a limit of {limit} "
        "{limit:plural:token|tokens}; a smaller L_max keeps the first L_max tokens of a longer response.",
        "zh": "生成长度上限（verl 的 data.max_response_length，TRL 的 max_completion_length）。到 L_max 还没结束"
        "的回答会被截断。下面的 rollout 统一按 {limit} 个 token 的上限采样一次；L_max 更小时，只保留较长回答的前 "
        "L_max 个 token。",
    },
    "length.lcache": {"en": "Overlong buffer L_cache (tokens)", "zh": "超长缓冲区 L_cache（token）"},
    "length.lcache_help": {
        "en": "Length of the ramp before L_max (verl reward.reward_kwargs.overlong_buffer_cfg.len, TRL "
        "soft_punish_cache). 0 means no ramp: only responses longer than L_max are penalised. The buffer "
        "cannot be longer than L_max: a larger value is held at L_max.",
        "zh": "L_max 之前惩罚线性爬升的区间长度（verl 的 reward.reward_kwargs.overlong_buffer_cfg.len，"
        "TRL 的 "
        "soft_punish_cache）。设为 0 表示没有缓冲：只惩罚长度超过 L_max 的回答。缓冲区不能比 L_max 更长：取值更大时按 "
        "L_max 计算。",
    },
    "length.lcache_held": {
        "en": "L_cache = {lcache} is longer than L_max = {lmax}. The buffer cannot be longer than the maximum "
        "length, so L_cache is held at L_max = {lmax} below.",
        "zh": "L_cache = {lcache} 超过了 L_max = {lmax}。缓冲区不能比最大长度更长，因此下文按 L_cache = L_max = "
        "{lmax} 计算。",
    },
    "length.model_dir": {
        "en": "the model directory (chosen when the server starts, RLVIZ_MODEL_DIR)",
        "zh": "模型目录（在启动服务时指定，RLVIZ_MODEL_DIR）",
    },
    "length.factor": {"en": "Penalty factor", "zh": "惩罚系数"},
    "length.factor_help": {
        "en": "The penalty at L_max (verl reward.reward_kwargs.overlong_buffer_cfg.penalty_factor; the DAPO "
        "paper uses 1). With a factor above 1 a long right answer can score below a short wrong one.",
        "zh": "在 L_max 处的惩罚大小（verl 的 reward.reward_kwargs.overlong_buffer_cfg.penalty_factor；"
        "DAPO 论文取 1）。系数大于 1 时，"
        "一个偏长的正确回答可能比一个简短的错误回答得分还低。",
    },
    "length.others": {"en": "Other length penalties to show", "zh": "同时展示的其他长度惩罚"},
    "length.others_help": {
        "en": "Kimi k1.5's group-relative length reward and the cosine length-scaled reward of Yeo et al.",
        "zh": "Kimi k1.5 的组内相对长度奖励，以及 Yeo 等人提出的余弦长度缩放奖励。",
    },
    "length.other_params": {"en": "Parameters of the other penalties", "zh": "其他长度惩罚的参数"},
    "length.kimi_weight": {"en": "Kimi: weight of the length reward", "zh": "Kimi：长度奖励的权重"},
    "length.kimi_weight_help": {
        "en": "The length reward is added to the 0/1 task reward with this weight. The report gives no value; "
        "it also warms the term up during training.",
        "zh": "长度奖励乘以这个权重后加到 0/1 任务奖励上。技术报告没有给出具体数值，并且在训练初期会逐步引入这一项。",
    },
    "length.cos_r0c": {"en": "Cosine: right answer at length 0", "zh": "余弦：正确回答在长度 0 处的奖励"},
    "length.cos_rlc": {"en": "Cosine: right answer at L_max", "zh": "余弦：正确回答在 L_max 处的奖励"},
    "length.cos_r0w": {"en": "Cosine: wrong answer at length 0", "zh": "余弦：错误回答在长度 0 处的奖励"},
    "length.cos_rlw": {"en": "Cosine: wrong answer at L_max", "zh": "余弦：错误回答在 L_max 处的奖励"},
    "length.cos_exceed": {"en": "Cosine: reward at L_max and beyond", "zh": "余弦：达到或超过 L_max 时的奖励"},
    "length.cos_help": {
        "en": "Paper defaults: right 2 → 1, wrong −10 → 0, −10 at the limit (Yeo et al. 2025).",
        "zh": "论文默认值：正确回答 2 → 1，错误回答 −10 → 0，达到上限时 −10（Yeo 等，2025）。",
    },
    "length.rollout_settings": {"en": "Rollouts of the tiny LM", "zh": "微型语言模型的 rollout 设置"},
    "length.n_prompts": {"en": "Prompts", "zh": "提示词数"},
    "length.group_size": {"en": "Group size G", "zh": "组大小 G"},
    "length.temperature": {"en": "Sampling temperature", "zh": "采样温度"},
    "length.rollout_help": {
        "en": "Rollouts are sampled once per setting of these three, the seed and the device, then kept: moving "
        "L_max, L_cache or the factor re-scores the same responses.",
        "zh": "这三个设置、随机种子和设备每组合一次才重新采样；移动 L_max、L_cache 或惩罚系数只会重新给同一批回答打分。",
    },
    # ---------------------------------------------------------------- section 1: curves
    "length.curves_header": {"en": "The penalties as curves", "zh": "惩罚曲线"},
    "length.curves_text": {
        "en": "**DAPO soft overlong punishment**, added to the task reward; left panel: the penalty (dotted) and "
        "the total reward of a right and of a wrong answer (a wrong answer's task reward is 0, so its line is the penalty's). Up to $L_{{max}}$ − $L_{{cache}}$ = {start} {start:plural:token|tokens} "
        "nothing happens; inside the shaded buffer the reward falls linearly, reaching −{factor} at "
        "$L_{{max}}$ = {lmax} and staying there beyond. A right answer that ends exactly at $L_{{max}}$ "
        "scores 1 − {factor} = {edge}, a short wrong one 0; at equal length a right answer is always worth 1 "
        "more. With $L_{{cache}}$ = 0 there is no ramp: only a response longer than $L_{{max}}$ loses f.",
        "zh": "**DAPO 软超长惩罚**，加在任务奖励上；左图：惩罚（点线），以及正确回答与错误回答的总奖励（错误回答的任务奖励为 0，所以它的曲线与惩罚重合）。长度不超过 "
        "$L_{{max}}$ − $L_{{cache}}$ = {start} 个 token 时不受影响；进入阴影缓冲区后奖励线性下降，到 "
        "$L_{{max}}$ = {lmax} 时降到 −{factor}，之后保持不变。恰好在 $L_{{max}}$ 处结束的正确回答得 "
        "1 − {factor} = {edge} 分，简短的错误回答得 0 分；在相同长度下，正确回答始终比错误回答多 1 分。"
        "$L_{{cache}}$ = 0 时没有线性下降段：只有长度超过 $L_{{max}}$ 的回答才被扣 f。",
    },
    "length.curves_text_step": {
        "en": "**DAPO soft overlong punishment**, added to the task reward; left panel: the penalty (dotted) and "
        "the total reward of a right and of a wrong answer (a wrong answer's task reward is 0, so its line is the penalty's). With $L_{{cache}}$ = 0 there is no buffer and no "
        "ramp (the formula's fraction is not used): nothing happens up to $L_{{max}}$ = {lmax}, and only a "
        "response longer than $L_{{max}}$ loses {factor}. A response cut off at the limit is exactly "
        "$L_{{max}}$ tokens long, so it escapes the penalty.",
        "zh": "**DAPO 软超长惩罚**，加在任务奖励上；左图：惩罚（点线），以及正确回答与错误回答的总奖励（错误回答的任务奖励为 0，所以它的曲线与惩罚重合）。"
        "$L_{{cache}}$ = 0 时没有缓冲区，也没有线性下降段（不使用公式中的分式）：长度不超过 $L_{{max}}$ = {lmax} "
        "时不受影响，只有长度超过 $L_{{max}}$ 的回答才被扣 {factor} 分。在上限处被截断的回答长度恰好是 "
        "$L_{{max}}$，因此不会受罚。",
    },
    "length.curves_text_zero": {
        "en": "**DAPO soft overlong punishment**, added to the task reward; left panel: the penalty (dotted) and "
        "the total reward of a right and of a wrong answer (a wrong answer's task reward is 0, so its line is the penalty's). The penalty factor f is 0, so there is no penalty: "
        "a right answer scores 1 and a wrong one 0 at every length, whatever $L_{max}$ and $L_{cache}$ are.",
        "zh": "**DAPO 软超长惩罚**，加在任务奖励上；左图：惩罚（点线），以及正确回答与错误回答的总奖励（错误回答的任务奖励为 0，所以它的曲线与惩罚重合）。惩罚系数 f 为 0，"
        "因此没有任何惩罚：无论 $L_{max}$ 和 $L_{cache}$ 取多少，正确回答在任何长度下都得 1 分，错误回答都得 0 分。",
    },
    "length.kimi_text": {
        "en": "**Kimi k1.5 length reward**; c = 1 marks a right answer. Relative to the group: the shortest response gets +0.5, the longest −0.5. Right answers "
        "get λ, wrong ones only min(0, λ): being short never rescues a wrong answer. The panel shows a group "
        "whose lengths span 1 to $L_{max}$; if all lengths in a group are equal the reward is 0.",
        "zh": "**Kimi k1.5 长度奖励**；c = 1 表示回答正确。"
        "按组内相对长度计算：最短的回答得 +0.5，最长的得 −0.5。正确回答拿 λ，错误回答只拿 min(0, λ)：写得短并不能挽救"
        "错误答案。图中这一组的长度从 1 覆盖到 $L_{max}$；若组内长度全都相同，则奖励为 0。",
    },
    "length.cosine_text": {
        "en": "**Cosine length-scaled reward**; t is the length, c = 1 a right answer. It replaces the task reward: a "
        "right answer earns more the shorter it is, a wrong answer is punished *less* the longer it is (keep "
        "thinking when unsure), and reaching the limit costs a fixed penalty.",
        "zh": "**余弦长度缩放奖励**；t 为回答长度，c = 1 表示回答正确。它直接取代任务奖励：正确回答越短得分越高，"
        "错误回答越长惩罚反而越*轻*（没把握时鼓励多想一会儿），而写到上限则给一个固定惩罚。",
    },
    "length.dapo_source": {
        "en": "DAPO, [arXiv 2503.14476](https://arxiv.org/abs/2503.14476), §3.4, eq. 13. verl: "
        "`reward.reward_kwargs.overlong_buffer_cfg.len` / `.penalty_factor`; TRL: `get_soft_overlong_punishment`; "
        "OpenRLHF: `--reward.overlong_buffer_len`.",
        "zh": "DAPO，[arXiv 2503.14476](https://arxiv.org/abs/2503.14476)，§3.4，式 13。verl："
        "`reward.reward_kwargs.overlong_buffer_cfg.len` / `.penalty_factor`；TRL：`get_soft_overlong_punishment`；"
        "OpenRLHF：`--reward.overlong_buffer_len`。",
    },
    "length.papers": {
        "en": "Kimi k1.5 length reward: Kimi Team, [arXiv 2501.12599](https://arxiv.org/abs/2501.12599), §2.3.3. "
        "Cosine length-scaled reward: Yeo et al., “Demystifying Long Chain-of-Thought Reasoning in LLMs”, "
        "[arXiv 2502.03373](https://arxiv.org/abs/2502.03373), §4.2.",
        "zh": "Kimi k1.5 长度奖励：Kimi Team，[arXiv 2501.12599](https://arxiv.org/abs/2501.12599)，§2.3.3。"
        "余弦长度缩放奖励：Yeo 等，“Demystifying Long Chain-of-Thought Reasoning in LLMs”，"
        "[arXiv 2502.03373](https://arxiv.org/abs/2502.03373)，§4.2。",
    },
    "length.panel_dapo": {"en": "DAPO overlong penalty", "zh": "DAPO 超长惩罚"},
    "length.panel_kimi": {"en": "Kimi k1.5 (one group)", "zh": "Kimi k1.5（一个组）"},
    "length.panel_cosine": {"en": "Cosine length-scaled", "zh": "余弦长度缩放"},
    "length.penalty": {"en": "DAPO penalty", "zh": "DAPO 惩罚"},
    "length.right": {"en": "right answer", "zh": "正确回答"},
    "length.wrong": {"en": "wrong answer", "zh": "错误回答"},
    "length.truncated": {"en": "truncated", "zh": "被截断"},
    "length.length": {"en": "response length (tokens)", "zh": "回答长度（token）"},
    "length.reward": {"en": "reward", "zh": "奖励"},
    "length.hover_zero": {"en": "no penalty", "zh": "无惩罚"},
    "length.hover_ramp": {"en": "in the buffer: linear penalty", "zh": "缓冲区内：线性惩罚"},
    "length.hover_full": {"en": "past L<sub>max</sub>: full penalty", "zh": "超过 L<sub>max</sub>：满额惩罚"},
    # ---------------------------------------------------------------- section 2: rollouts
    "length.rollouts_header": {"en": "On real rollouts of the tiny LM", "zh": "作用在微型语言模型的真实 rollout 上"},
    "length.sampling": {"en": "Sampling {n} × {g} responses…", "zh": "正在采样 {n} × {g} 条回答…"},
    "length.rollouts_text": {
        "en": "{n} {n:plural:prompt|prompts} × G = {g} responses, sampled at temperature {temp} with a limit of {limit} {limit:plural:token|tokens} and "
        "cut at $L_{{max}}$ = {lmax}. The tiny LM writes a few filler dots before its answer, so lengths vary. "
        "Bars: where responses end (right, wrong, truncated); dotted step: the lengths as sampled before the cut "
        "(everything longer piles up at $L_{{max}}$ as truncated); orange line, right axis: DAPO's penalty.",
        "zh": "{n} 个提示词 × G = {g} 条回答，采样温度 {temp}，采样上限 {limit} 个 token，再按 $L_{{max}}$ = "
        "{lmax} 截断。微型语言模型会在答案前写几个填充的点号，所以回答长短不一。柱子：回答在哪个长度结束（正确、错误、"
        "被截断）；点线阶梯：截断前的采样长度（更长的回答都堆到 $L_{{max}}$ 处，成为截断样本）；橙色线（右轴）："
        "DAPO 的惩罚。",
    },
    "length.rollouts_penalised": {
        "en": "Every response in the shaded buffer loses reward, right or wrong: here {share} of them.",
        "zh": "落在阴影缓冲区里的回答，无论对错都会被扣分：这里占 {share}。",
    },
    "length.rollouts_no_penalty_zero": {
        "en": "The penalty factor is 0, so no response loses reward.",
        "zh": "惩罚系数为 0，因此没有回答被扣分。",
    },
    "length.rollouts_no_penalty": {
        "en": "No response here is longer than $L_{{max}}$ − $L_{{cache}}$ = {start} {start:plural:token|tokens}, so none loses reward.",
        "zh": "这里没有回答长于 $L_{{max}}$ − $L_{{cache}}$ = {start} 个 token，因此没有回答被扣分。",
    },
    "length.metric_reward": {"en": "Mean reward: task → with penalty", "zh": "平均奖励：任务奖励 → 加惩罚后"},
    "length.metric_truncated": {"en": "Truncated (= masked by filtering)", "zh": "被截断（= 被过滤屏蔽）"},
    "length.metric_penalised": {"en": "Responses penalised", "zh": "受到惩罚的回答"},
    "length.metric_signal": {"en": "Groups with a signal", "zh": "有学习信号的组"},
    "length.metric_signal_help": {
        "en": "Share of groups whose rewards are not all equal, i.e. whose advantages are not all zero: "
        "with the task reward alone → with DAPO's penalty added.",
        "zh": "组内奖励不全相同（即优势不全为 0）的组所占比例：只用任务奖励 → 加上 DAPO 惩罚后。",
    },
    "length.sampled": {"en": "as sampled (limit {limit})", "zh": "原始采样（上限 {limit}）"},
    "length.count": {"en": "responses", "zh": "回答数"},
    "length.penalty_axis": {"en": "DAPO penalty", "zh": "DAPO 惩罚"},
    "length.hover_count": {"en": "length %{x}: %{y} responses", "zh": "长度 %{x}：%{y} 条回答"},
    "length.schemes_header": {"en": "Each reward scheme on these rollouts", "zh": "各奖励方案在这批 rollout 上的表现"},
    "length.schemes_text": {
        "en": "Mean reward is on each scheme's own scale (the cosine reward runs from −10 to 2). The correlation "
        "of length and advantage, over groups with a signal, says how hard a scheme pushes towards short "
        "responses: near 0 for the task reward alone, clearly negative once length enters the reward (with a nonzero "
        "factor or weight).",
        "zh": "平均奖励按各方案自身的量纲计算（余弦奖励的范围是 −10 到 2）。长度与优势的相关系数（只统计有学习信号的组）"
        "反映一个方案把模型推向短回答的力度：只用任务奖励时接近 0，奖励中一旦加入长度项（系数或权重不为 0）就明显为负。",
    },
    "length.col_scheme": {"en": "reward scheme", "zh": "奖励方案"},
    "length.col_mean_reward": {"en": "mean reward", "zh": "平均奖励"},
    "length.col_signal": {"en": "groups with a signal", "zh": "有学习信号的组"},
    "length.col_corr": {"en": "corr(length, advantage)", "zh": "corr(长度, 优势)"},
    "length.scheme_task": {"en": "task reward only (0/1)", "zh": "仅任务奖励（0/1）"},
    "length.scheme_dapo": {"en": "DAPO: task + overlong penalty", "zh": "DAPO：任务奖励 + 超长惩罚"},
    "length.scheme_kimi": {
        "en": "Kimi k1.5: task + weight × length reward",
        "zh": "Kimi k1.5：任务奖励 + 权重 × 长度奖励",
    },
    "length.scheme_cosine": {"en": "cosine length-scaled reward", "zh": "余弦长度缩放奖励"},
    # ---------------------------------------------------------------- section 3: one group
    "length.group_header": {"en": "Inside one group: how the advantages move", "zh": "深入一个组：优势如何变化"},
    "length.group_pick": {
        "en": "Group (sorted by how much the penalty changes it)",
        "zh": "选择组（按惩罚带来的变化大小排序）",
    },
    "length.group_text": {
        "en": "Group {prompt}: {right} of {g} right, {cut} truncated at $L_{{max}}$. Each response, shortest first (✓ right, ✗ wrong, ✂ truncated), with its group-relative "
        "advantage A = (R − mean) / std under the task reward alone (open circles) and with the length "
        "penalties.",
        "zh": "提示词 {prompt} 这一组：{g} 条回答中 {right} 条正确，{cut} 条在 $L_{{max}}$ 处被截断。该组的每条回答按长度从短到长排列（✓ 正确，✗ 错误，✂ 被截断），纵轴是组内相对优势 A = (R − 均值) / "
        "标准差：空心圆只用任务奖励，其他标记加入了长度惩罚。",
    },
    "length.group_effect": {
        "en": "DAPO's penalty reorders this group by length: {reversed} {reversed:plural:pair swaps|pairs swap} order and {broken} {broken:plural:tie|ties} on "
        "the task reward {broken:plural:is|are} broken, the shorter response getting the larger advantage.",
        "zh": "DAPO 的惩罚按长度重新排列了这一组：{reversed} 对回答的先后顺序发生对调，{broken} 对原本在任务奖励上"
        "并列的回答被拉开，更短的那条获得更大的优势。",
    },
    "length.group_no_effect": {
        "en": "DAPO's penalty changes no order in this group: no pair swaps and no tie is broken.",
        "zh": "DAPO 的惩罚没有改变这一组的排序：没有回答对调，也没有并列被拉开。",
    },
    "length.group_no_effect_zero": {
        "en": "The penalty factor is 0: DAPO's reward is the task reward, so its advantages are the task ones.",
        "zh": "惩罚系数为 0：DAPO 的奖励就是任务奖励，因此它的优势与只用任务奖励时完全相同。",
    },
    "length.factor_note": {
        "en": "With a penalty factor of at most 1, a right answer (1 + penalty ≥ 0) never ranks below a wrong one "
        "(0 + penalty ≤ 0): shaping only breaks ties. Across all groups: {reversed} reversed {reversed:plural:pair|pairs}, {broken} "
        "broken {broken:plural:tie|ties}. Raise the factor above 1 to see right and wrong swap.",
        "zh": "惩罚系数不超过 1 时，正确回答（1 + 惩罚 ≥ 0）永远不会排在错误回答（0 + 惩罚 ≤ 0）之后：塑形只负责打破并列。"
        "所有组合计：{reversed} 对顺序对调，{broken} 对并列被拉开。把系数调到 1 以上，就能看到正确与错误回答互换位置。",
    },
    "length.factor_note_zero": {
        "en": "With a penalty factor of 0 the DAPO reward equals the task reward: across all groups {reversed} "
        "reversed {reversed:plural:pair|pairs}, {broken} broken {broken:plural:tie|ties}. Raise the factor to see the penalty act.",
        "zh": "惩罚系数为 0 时，DAPO 的奖励与任务奖励相同：所有组合计 {reversed} 对顺序对调，{broken} 对并列被拉开。"
        "把系数调大，才能看到惩罚的作用。",
    },
    "length.factor_note_high": {
        "en": "With a penalty factor above 1, a long right answer can score below a short wrong one. Across all "
        "groups: {reversed} reversed {reversed:plural:pair|pairs}, {broken} broken {broken:plural:tie|ties}.",
        "zh": "惩罚系数大于 1 时，偏长的正确回答可能得分低于简短的错误回答。所有组合计：{reversed} 对顺序对调，"
        "{broken} 对并列被拉开。",
    },
    "length.advantage": {"en": "advantage A", "zh": "优势 A"},
    "length.response": {"en": "response (#sample · length · outcome)", "zh": "回答（#编号 · 长度 · 结果）"},
    "length.col_sample": {"en": "#", "zh": "#"},
    "length.col_response": {"en": "response", "zh": "回答"},
    "length.col_length": {"en": "length", "zh": "长度"},
    "length.col_outcome": {"en": "outcome", "zh": "结果"},
    "length.col_task": {"en": "task reward", "zh": "任务奖励"},
    "length.col_penalty": {"en": "DAPO penalty", "zh": "DAPO 惩罚"},
    "length.col_reward_dapo": {"en": "reward (DAPO)", "zh": "奖励（DAPO）"},
    "length.col_adv_task": {"en": "A (task)", "zh": "优势 A（任务）"},
    "length.col_adv_dapo": {"en": "A (DAPO)", "zh": "优势 A（DAPO）"},
    "length.col_adv_kimi": {"en": "A (Kimi)", "zh": "优势 A（Kimi）"},
    "length.col_adv_cosine": {"en": "A (cosine)", "zh": "优势 A（余弦）"},
    "length.col_grad": {"en": "gradient weight", "zh": "梯度权重"},
    "length.col_grad_filtered": {"en": "gradient weight, filtered", "zh": "梯度权重（过滤后）"},
    # ---------------------------------------------------------------- section 4: filtering
    "length.filter_header": {"en": "Overlong filtering: what leaves the loss", "zh": "超长过滤：哪些内容离开了 loss"},
    "length.filter_text": {
        "en": "A truncated response is wrong only because it ran out of room, so its 0 reward{penalty} "
        "is noise about the answer. Overlong filtering (TRL `mask_truncated_completions=True`) sets its loss mask "
        "to 0. The bars split the summed gradient weight −∂loss/∂log π of DAPO's loss (token-mean, first on-policy "
        "update, computed by autograd through the same loss used for training) between right, wrong and "
        "truncated responses, without and with the filter. The advantages are the same in both: the truncated "
        "responses still count in their group's mean and std, they just get no gradient.",
        "zh": "被截断的回答之所以算错，只是因为篇幅用完了，所以它的 0 分{penalty}对于答案本身是噪声。超长过滤"
        "（TRL 中 `mask_truncated_completions=True`）把它的 loss mask 置为 0。柱状图把 DAPO loss（token-mean，第一次"
        "同策略更新，用训练时同一个 loss 经 autograd 求得）的梯度权重 −∂loss/∂log π 之和，按正确、错误、被截断三类"
        "回答拆分，分别展示过滤前后。两种情况下优势完全相同：截断样本仍计入所在组的均值和标准差，只是不再产生梯度。",
    },
    "length.filter_penalty": {"en": " (and DAPO's −{factor} on top)", "zh": "（再加上 DAPO 的 −{factor}）"},
    "length.metric_masked_tokens": {"en": "Response tokens masked", "zh": "被屏蔽的回答 token"},
    "length.metric_grad_truncated_help": {
        "en": "Share of the summed |gradient weight| that falls on truncated responses: without filtering → with it.",
        "zh": "截断回答在梯度权重绝对值之和中所占的比例：不过滤 → 过滤后。",
    },
    "length.metric_grad_truncated": {
        "en": "Gradient on truncated",
        "zh": "截断样本的梯度占比",
    },
    "length.no_filter": {"en": "no filtering", "zh": "不过滤"},
    "length.with_filter": {"en": "overlong filtering", "zh": "超长过滤"},
    "length.grad_share": {"en": "share of the summed |gradient weight|", "zh": "|梯度权重| 之和的占比"},
    # ---------------------------------------------------------------- section 5: sweep
    "length.sweep_header": {"en": "Moving L_max and L_cache", "zh": "移动 L_max 和 L_cache"},
    "length.sweep_text": {
        "en": "The same rollouts re-scored for every $L_{{max}}$ (left, $L_{{cache}}$ held at {lcache}, capped "
        "at $L_{{max}}$) and every $L_{{cache}}$ (right, $L_{{max}}$ held at {lmax}). A tight limit "
        "truncates many responses and drags the task reward down; a long buffer penalises more responses and pulls "
        "the shaped reward further below it. The penalty also gives a signal to groups that had none (all right "
        "or all wrong, but of different lengths): it teaches “be shorter” there, whatever the answer.",
        "zh": "同一批 rollout 在每个 $L_{{max}}$（左图，$L_{{cache}}$ 固定为 {lcache}，且不超过 "
        "$L_{{max}}$）和每个 $L_{{cache}}$（右图，$L_{{max}}$ 固定为 {lmax}）下重新打分。上限越紧，被截断"
        "的回答越多，任务奖励随之下降；缓冲区越长，受罚的回答越多，塑形后的奖励比任务奖励低得越多。惩罚还会让原本没有"
        "学习信号的组（全对或全错、但长度不同）产生信号：在这些组里它只教模型“写短一点”，与答案对错无关。",
    },
    "length.sweep_text_zero": {
        "en": "The same rollouts re-scored for every $L_{{max}}$ (left, $L_{{cache}}$ held at {lcache}, capped "
        "at $L_{{max}}$) and every $L_{{cache}}$ (right, $L_{{max}}$ held at {lmax}). A tight limit "
        "truncates many responses and drags the task reward down. The penalty factor is 0, so the shaped "
        "reward is the task reward at every setting and moving $L_{{cache}}$ changes nothing.",
        "zh": "同一批 rollout 在每个 $L_{{max}}$（左图，$L_{{cache}}$ 固定为 {lcache}，且不超过 "
        "$L_{{max}}$）和每个 $L_{{cache}}$（右图，$L_{{max}}$ 固定为 {lmax}）下重新打分。上限越紧，被截断"
        "的回答越多，任务奖励随之下降。惩罚系数为 0，所以在任何设置下塑形后的奖励都等于任务奖励，移动 $L_{{cache}}$ "
        "不会带来任何变化。",
    },
    "length.panel_lmax": {"en": "vs L<sub>max</sub>", "zh": "随 L<sub>max</sub> 变化"},
    "length.panel_lcache": {"en": "vs L<sub>cache</sub>", "zh": "随 L<sub>cache</sub> 变化"},
    "length.lmax_axis": {"en": "L<sub>max</sub> (tokens)", "zh": "L<sub>max</sub>（token 数）"},
    "length.lcache_axis": {"en": "L<sub>cache</sub> (tokens)", "zh": "L<sub>cache</sub>（token 数）"},
    "length.value": {"en": "mean reward / share", "zh": "平均奖励 / 比例"},
    "length.s_mean_reward_task": {"en": "mean task reward", "zh": "平均任务奖励"},
    "length.s_mean_reward_dapo": {"en": "mean reward with DAPO penalty", "zh": "加 DAPO 惩罚后的平均奖励"},
    "length.s_truncated_share": {"en": "share truncated", "zh": "截断比例"},
    "length.s_signal_task": {"en": "groups with a signal (task)", "zh": "有信号的组（任务奖励）"},
    "length.s_signal_dapo": {"en": "groups with a signal (DAPO)", "zh": "有信号的组（DAPO）"},
    "length.bias_note": {
        "en": "The penalty changes the *reward*. How a response's tokens are then averaged in the loss (token-mean "
        "vs per-sequence mean, Dr.GRPO's length bias) is a separate choice, shown on the weighting page.",
        "zh": "长度惩罚改变的是*奖励*。至于回答中各 token 在 loss 里如何平均（token-mean 还是按序列取均值，以及 "
        "Dr.GRPO 指出的长度偏差），是另一个独立的选择，见加权页面。",
    },
}
