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
    # ---- the length claims as measured on make_sum (rlviz.experiments.length_claims; the shipped record)
    "length.claims_header": {
        "en": "Measured on {task}: the length claims",
        "zh": "在“{task}”任务上实测：关于长度的几条论断",
    },
    "length.claims_header_none": {"en": "Measured: the length claims", "zh": "实测：关于长度的几条论断"},
    "length.claims_lede": {
        "en": "Three claims of the sources are about response length: dividing each response's loss by its "
        "length |o| lets wrong answers drift longer, which {fixed} removes; the noise of the token ratios builds "
        "up over a long response, which {gspo}'s length-normalised sequence ratio tames; and {gspo} learns at "
        "least as much per rollout as {grpo} while clipping far more. The shipped model of the {task} task writes "
        "answers of up to {limit} tokens. {arms} were trained side by side on it from the same start, {n} "
        "{n:plural:seed|seeds} × {steps} steps each; below is what came out.",
        "zh": "资料里有三条论断和回答长度有关：把每条回答的 loss 除以它的长度 |o|，会让错误回答越写越长，{fixed} 去掉了这一点；"
        "token 比率的噪声会在长回答上累积，{gspo} 按长度归一化的序列比率能压住它；{gspo} 裁剪的 token 多得多，"
        "但每条 rollout 学到的不比 {grpo} 少。随附的“{task}”任务模型回答最长 {limit} 个 token。我们让 {arms} 从同一起点"
        "并排训练，{n} 个随机种子 × 每个 {steps} 步，下面是实测结果。",
    },
    "length.claims_none": {
        "en": "Not measured yet: no record is shipped ({path}). Run `python benchmarks/length_claims.py --record` to "
        "measure it.",
        "zh": "尚未实测：没有随附的记录（{path}）。运行 `python benchmarks/length_claims.py --record` 即可测量。",
    },
    "length.q_bias.q": {
        "en": "The sources say {drift}'s 1/|o| lets wrong answers drift longer, and {fixed} removes it. On this "
        "model, in how many of the {n} {n:plural:seed|seeds} did {drift}'s wrong answers grow longer, and by more "
        "than {fixed}'s (their mean length, steps {first} → steps {last})?",
        "zh": "资料说 {drift} 的 1/|o| 会让错误回答越写越长，而 {fixed} 去掉了这一点。在这个模型上，{n} 个随机种子里，"
        "有几个种子中 {drift} 的错误回答变长了，而且比 {fixed} 的增长得更多（错误回答的平均长度，第 {first} 步 → 第 {last} 步）？",
    },
    "length.q_bias.choice.every": {"en": "In every seed", "zh": "每个种子都是"},
    "length.q_bias.choice.some": {"en": "In some seeds, not all", "zh": "部分种子是，并非全部"},
    "length.q_bias.choice.none": {"en": "In no seed", "zh": "没有一个种子是"},
    "length.q_bias.why.every": {
        "en": "**{answer}** ({more} of {n}). The wrong answers' change in length, seed by seed: {drift} "
        "{drift_changes} tokens, {fixed} {fixed_changes}. The claim shows on this model.",
        "zh": "**{answer}**（{n} 个中的 {more} 个）。各种子错误回答长度的变化：{drift} {drift_changes} 个 token，"
        "{fixed} {fixed_changes}。这条论断在这个模型上成立。",
    },
    "length.q_bias.why.some": {
        "en": "**{answer}**: {more} of {n}. The wrong answers' change in length, seed by seed: {drift} "
        "{drift_changes} tokens, {fixed} {fixed_changes}. The claim does not show in every seed: with answers this "
        "short, the seed matters as much as the loss's 1/|o|.",
        "zh": "**{answer}**：{n} 个中的 {more} 个。各种子错误回答长度的变化：{drift} {drift_changes} 个 token，"
        "{fixed} {fixed_changes}。这条论断并非每个种子都成立：回答这么短时，随机种子的影响不亚于 loss 里的 1/|o|。",
    },
    "length.q_bias.why.none": {
        "en": "**{answer}.** The wrong answers' change in length, seed by seed: {drift} {drift_changes} tokens, "
        "{fixed} {fixed_changes}. On this model the claim does not show in any seed.",
        "zh": "**{answer}。** 各种子错误回答长度的变化：{drift} {drift_changes} 个 token，{fixed} {fixed_changes}。"
        "在这个模型上，这条论断在哪个种子里都不成立。",
    },
    "length.q_bias.where": {
        "en": "See it: the left panel of the first figure below, one point per seed.",
        "zh": "验证：看下面第一张图的左半部分，每个点是一个随机种子。",
    },
    "length.claims_fig_change_title": {
        "en": "Wrong answers' length change<br>(tokens), steps {first} → {last}",
        "zh": "错误回答平均长度的变化（token）：<br>第 {first} 步 → 第 {last} 步",
    },
    "length.claims_fig_gain": {"en": "held-out pass@1 gain", "zh": "留出集 pass@1 提升"},
    "length.claims_fig_gain_title": {"en": "Held-out pass@1, start → end", "zh": "留出集 pass@1：开始 → 结束"},
    "length.claims_fig_seed": {"en": "seed", "zh": "随机种子"},
    "length.claims_fig_caption": {
        "en": "One point per seed. The mean length of the wrong answers is taken over the training responses of the "
        "first and of the last {window} steps; the gain is measured on {prompts} held-out prompts × {heldout} samples "
        "before and after the run.",
        "zh": "每个点是一个随机种子。错误回答的平均长度取自最初 {window} 步和最后 {window} 步的训练回答；"
        "提升是在训练前后各用 {prompts} 道留出题 × 每题 {heldout} 次采样测得的。",
    },
    "length.claims_noise_token": {"en": "per token: log r<sub>t</sub>", "zh": "每个 token：log r<sub>t</sub>"},
    "length.claims_noise_sum": {
        "en": "of the sum: Σ<sub>t</sub> log r<sub>t</sub>",
        "zh": "求和：Σ<sub>t</sub> log r<sub>t</sub>",
    },
    "length.claims_noise_mean": {
        "en": "of {gspo}'s mean: log s",
        "zh": "{gspo} 的均值：log s",
    },
    "length.claims_fig_bin": {"en": "response length (tokens)", "zh": "回答长度（token）"},
    "length.claims_fig_var": {"en": "variance (log scale)", "zh": "方差（对数坐标）"},
    "length.claims_noise_caption": {
        "en": "The variance of the token log-ratio log(π/π_old) by response length, pooled over every off-policy "
        "update of the run (the first update of a step is on-policy: ratio 1), per token, of its sum over a "
        "response (the log of the product of token ratios) and of its mean (the log of {gspo}'s sequence ratio s). "
        "A line is the mean over seeds, its bar the lowest and highest seed; a bin with fewer than {min} responses "
        "in a seed is not drawn.",
        "zh": "token 对数比率 log(π/π_old) 的方差随回答长度的变化，汇总了整次训练中每一次 off-policy 更新（每步的第一次更新是 "
        "on-policy 的，比率恒为 1）：逐 token 的方差、它在一条回答上求和后的方差（即各 token 比率乘积的对数），以及它的均值的"
        "方差（即 {gspo} 序列比率 s 的对数）。线是各种子的平均，误差条是最低和最高的种子；某个种子里回答少于 {min} 条的区间不画。",
    },
    "length.claims_fig_per_k": {"en": "held-out gain per 1,000 rollouts", "zh": "每 1,000 条 rollout 的留出集提升"},
    "length.claims_fig_clip": {"en": "clip fraction", "zh": "裁剪比例"},
    "length.claims_eff_caption": {
        "en": "One point per seed. Gain per 1,000 rollouts: the held-out pass@1 gain over the training rollouts the "
        "arm sampled; clip fraction: the mean over steps of the share of response tokens whose ratio the objective "
        "clipped.",
        "zh": "每个点是一个随机种子。每 1,000 条 rollout 的提升：留出集 pass@1 的提升除以该组采样的训练 rollout 数；"
        "裁剪比例：各步中比率被目标函数裁剪的回答 token 所占比例的平均。",
    },
    "length.claims_reading": {"en": "What this shows", "zh": "实测说明了什么"},
    "length.claims_bias_every": {
        "en": "**The length-bias claim shows here.** {drift}'s wrong answers grew, and by more than {fixed}'s, in every seed "
        "({more} of {n}; mean length, steps {first} → {last}): {drift_changes} tokens against {fixed_changes}. "
        "{drift}'s grew in {drift_grew} of {n} seeds, {fixed}'s in {fixed_grew}. Held-out pass@1 gain: {drift} "
        "{drift_gain}, {fixed} {fixed_gain}.",
        "zh": "**长度偏差这条论断在这里成立。** 每个种子里 {drift} 的错误回答都变长了，而且比 {fixed} 的增长得更多（{n} 个中的 {more} 个；"
        "平均长度，第 {first} 步 → 第 {last} 步）：{drift_changes} 个 token，对比 {fixed_changes}。{drift} 的错误回答在 "
        "{n} 个种子中的 {drift_grew} 个里变长，{fixed} 的在 {fixed_grew} 个里。留出集 pass@1 提升：{drift} {drift_gain}，"
        "{fixed} {fixed_gain}。",
    },
    "length.claims_bias_some": {
        "en": "**The length-bias claim shows in {more} of {n} seeds only.** {drift}'s wrong answers grew in "
        "{drift_grew} of {n} seeds ({drift_changes} tokens, mean length, steps {first} → {last}), {fixed}'s in "
        "{fixed_grew} of {n} ({fixed_changes}); {drift}'s grew, and by more than {fixed}'s, in {more}. Held-out pass@1 gain: "
        "{drift} {drift_gain}, {fixed} {fixed_gain}. {fixed} changes two things at once (its loss divides by a "
        "constant instead of each response's length, and its advantages are not divided by the group's std); which "
        "of them moves the lengths here is not measured.",
        "zh": "**长度偏差这条论断只在 {n} 个种子中的 {more} 个里成立。** {drift} 的错误回答在 {n} 个种子中的 {drift_grew} 个里"
        "变长（{drift_changes} 个 token，平均长度，第 {first} 步 → 第 {last} 步），{fixed} 的在 {fixed_grew} 个里"
        "（{fixed_changes}）；{drift} 的变长了、而且比 {fixed} 增长得更多的有 {more} 个。留出集 pass@1 提升：{drift} {drift_gain}，"
        "{fixed} {fixed_gain}。{fixed} 同时改了两处（loss 除以一个常数而不是每条回答的长度；优势不再除以组内标准差），"
        "这里长度的变化来自哪一处，没有测。",
    },
    "length.claims_bias_none": {
        "en": "**The length-bias claim does not show here.** In no seed did {drift}'s wrong answers grow, and by more "
        "than {fixed}'s (mean length, steps {first} → {last}): {drift_changes} tokens against "
        "{fixed_changes}. {drift}'s grew in {drift_grew} of {n} seeds, {fixed}'s in {fixed_grew}. Held-out pass@1 "
        "gain: {drift} {drift_gain}, {fixed} {fixed_gain}. {fixed} changes two things at once (its loss divides by a "
        "constant instead of each response's length, and its advantages are not divided by the group's std); which "
        "of them moves the lengths here is not measured.",
        "zh": "**长度偏差这条论断在这里不成立。** 没有一个种子里 {drift} 的错误回答既变长了、又比 {fixed} 的增长得更多"
        "（平均长度，第 {first} 步 → 第 {last} 步）：{drift_changes} 个 token，对比 {fixed_changes}。{drift} 的错误回答在 "
        "{n} 个种子中的 {drift_grew} 个里变长，{fixed} 的在 {fixed_grew} 个里。留出集 pass@1 提升：{drift} {drift_gain}，"
        "{fixed} {fixed_gain}。{fixed} 同时改了两处（loss 除以一个常数而不是每条回答的长度；优势不再除以组内标准差），"
        "这里长度的变化来自哪一处，没有测。",
    },
    "length.claims_noise_every": {
        "en": "**Token-ratio noise builds up with length here.** In every run ({sum_up} of {runs}, arm × seed) the "
        "variance of the summed log-ratio is larger at {long} tokens than at {short}. The length normalisation of log s takes it out: its variance is {ratio} times smaller "
        "than that of the sum.",
        "zh": "**token 比率的噪声在这里随长度累积。** 每一次运行（{runs} 次中的 {sum_up} 次，训练组 × 种子）里，对数比率之和的"
        "方差在 {long} 个 token 处都比 {short} 个 token 处大。"
        "log s 的长度归一化去掉了这部分：它的方差比求和的方差小 {ratio} 倍。",
    },
    "length.claims_noise_some": {
        "en": "**Token-ratio noise builds up with length in {sum_up} of {runs} runs only** (arm × seed: the variance "
        "of the summed log-ratio is larger at {long} tokens than at {short}). The variance of log s is {ratio} times smaller than that of the sum.",
        "zh": "**token 比率的噪声只在 {runs} 次运行中的 {sum_up} 次里随长度累积**（训练组 × 种子：对数比率之和的方差在 "
        "{long} 个 token 处比 {short} 个 token 处大）。log s 的方差比求和"
        "的方差小 {ratio} 倍。",
    },
    "length.claims_noise_none": {
        "en": "**Token-ratio noise does not build up with length here.** In no run (arm × seed, {runs} in all) is "
        "the variance of the summed log-ratio larger at {long} tokens than at {short}. The sources' argument assumes every token's noise is of one size, so that the sum's variance grows with "
        "length; here it is not. What the length normalisation of log s does shows all the same: its variance is "
        "{ratio} times smaller than that of the sum.",
        "zh": "**token 比率的噪声在这里没有随长度累积。** 没有一次运行（训练组 × 种子，共 {runs} 次）里对数比率之和的方差在 "
        "{long} 个 token 处比 {short} 个 token 处大。资料的论证假设每个 token 的噪声大小相同，于是求和的方差随长度增长；这里并非"
        "如此。不过 log s 的长度归一化的作用照样看得到：它的方差比求和的方差小 {ratio} 倍。",
    },
    "length.claims_token_falls": {
        "en": "In every run the per-token variance is smaller at {long} tokens than at {short}: on this model the "
        "tokens of short responses move more, in {arms} alike (why is not measured).",
        "zh": "每一次运行里，逐 token 的方差在 {long} 个 token 处都比 {short} 个 token 处小：在这个模型上，短回答的 token "
        "变化反而更大，{arms} 都是如此（原因没有测）。",
    },
    "length.claims_token_up": {
        "en": "The per-token variance is larger at {long} tokens than at {short} in {token_up} of {runs} runs.",
        "zh": "逐 token 的方差在 {long} 个 token 处比 {short} 个 token 处大的，有 {runs} 次运行中的 {token_up} 次。",
    },
    "length.claims_eff_every": {
        "en": "**{claimed} learned more per rollout than {baseline} in every seed** ({ahead} of {n}): held-out gain "
        "per 1,000 rollouts {per_k} against {base_per_k} (gain {gain} against {base_gain}), while clipping "
        "{clip} % of the tokens against {base_clip} %.",
        "zh": "**每个种子里 {claimed} 每条 rollout 学到的都比 {baseline} 多**（{n} 个中的 {ahead} 个）：每 1,000 条 rollout 的留出集"
        "提升 {per_k}，对比 {base_per_k}（提升 {gain}，对比 {base_gain}），同时它裁剪了 {clip} % 的 token，{baseline} 只裁剪 "
        "{base_clip} %。",
    },
    "length.claims_eff_some": {
        "en": "**{claimed} against {baseline}: ahead in {ahead} of {n} seeds, behind in {behind}{level}.** Held-out gain "
        "per 1,000 rollouts {per_k} against {base_per_k} (gain {gain} against {base_gain}), while clipping "
        '{clip} % of the tokens against {base_clip} %. The sources\' "at least as efficiently" is not contradicted '
        "here; that what it keeps is less noisy is not measured.",
        "zh": "**{claimed} 对比 {baseline}：{n} 个种子中 {ahead} 个领先，{behind} 个落后{level}。** 每 1,000 条 rollout 的留出集提升 {per_k}，"
        "对比 {base_per_k}（提升 {gain}，对比 {base_gain}），同时它裁剪了 {clip} % 的 token，{baseline} 只裁剪 {base_clip} %。"
        "资料说的“训练效率至少一样高”在这里没有被推翻；“它保留下来的部分噪声更小”这里没有测。",
    },
    "length.claims_eff_level": {"en": ", level in {level}", "zh": "，{level} 个持平"},
    "length.claims_eff_none": {
        "en": "**{claimed} learned less per rollout than {baseline} in every seed** ({ahead} of {n} ahead): held-out "
        "gain per 1,000 rollouts {per_k} against {base_per_k} (gain {gain} against {base_gain}), while clipping "
        "{clip} % of the tokens against {base_clip} %. The claim that it trains at least as efficiently does not "
        "show here.",
        "zh": "**每个种子里 {claimed} 每条 rollout 学到的都比 {baseline} 少**（{n} 个中领先 {ahead} 个）：每 1,000 条 rollout 的"
        "留出集提升 {per_k}，对比 {base_per_k}（提升 {gain}，对比 {base_gain}），同时它裁剪了 {clip} % 的 token，{baseline} "
        "只裁剪 {base_clip} %。“训练效率至少一样高”这一点在这里不成立。",
    },
    "length.claims_limits": {
        "en": "**What this model cannot show.** The sources' length claims are about long reasoning chains whose "
        "wrong answers run to the limit; here {share} of the responses were {long} tokens long (limit {limit}). "
        "Answers this short can neither confirm nor refute what happens over thousands of tokens.",
        "zh": "**这个模型展示不了什么。** 资料里关于长度的论断针对的是很长的推理链，错误回答会一直写到长度上限；这里只有 "
        "{share} 的回答长度在 {long} 个 token 之间（上限 {limit}）。这么短的回答，既不能证实也不能否定上千个 token 的回答里"
        "会发生什么。",
    },
    "length.claims_provenance": {
        "en": "Measured by `{command}` (seeds {seeds}, {steps} steps each, task {task}) on {date} at commit "
        "{commit}{inferred}. The record ships with the app (rlviz/data/measured/length_claims.json); "
        "`python benchmarks/length_claims.py --record` measures it again and replaces it.",
        "zh": "由 `{command}` 测得（种子 {seeds}，每个 {steps} 步，任务“{task}”），日期 {date}，提交 {commit}{inferred}。"
        "这份记录随应用一起发布（rlviz/data/measured/length_claims.json）；运行 "
        "`python benchmarks/length_claims.py --record` 会重新测量并替换它。",
    },
    "length.claims_provenance_per_seed": {
        "en": "Measured by `{command}`, run once per seed (S = {seeds}, {steps} steps each, task {task}), on "
        "{date} at commit {commit}{inferred}. The record ships with the app (rlviz/data/measured/length_claims.json); "
        "`python benchmarks/length_claims.py --record` measures it again and replaces it.",
        "zh": "由 `{command}` 测得，每个种子运行一次（S = {seeds}，每个 {steps} 步，任务“{task}”），日期 {date}，提交 {commit}"
        "{inferred}。这份记录随应用一起发布（rlviz/data/measured/length_claims.json）；运行 "
        "`python benchmarks/length_claims.py --record` 会重新测量并替换它。",
    },
    "length.claims_inferred": {
        "en": " (the last commit before the run began: the run's output did not name its commit)",
        "zh": "（运行开始前的最后一次提交：运行的输出没有记下提交）",
    },
}
