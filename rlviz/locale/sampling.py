"""Strings of the Dynamic sampling page (keys ``sampling.*``), English and 简体中文.

Merged into :data:`rlviz.i18n.STRINGS`; the same completeness rules apply (tests/test_i18n.py).
"""

STRINGS: dict[str, dict[str, str]] = {
    "sampling.title": {
        "en": "Dynamic sampling: a batch full of groups that teach",
        "zh": "动态采样：装满有信号的组",
    },
    "sampling.lede": {
        "en": "When all G answers to a prompt agree, the group teaches nothing. How often does a group carry a "
        "signal? Pick G and read the curve at a prompt's pass rate.",
        "zh": "全对或全错的组学不到东西。组有信号的概率多大？选 G，看曲线。",
    },
    "sampling.intro": {
        "en": "GRPO learns from differences inside a group: each answer's advantage is its reward minus the "
        "group's mean. When all G answers to a prompt are right, or all are wrong, every advantage is exactly "
        "zero: the group was paid for in sampling and teaches nothing. DAPO's dynamic sampling drops such groups "
        "and samples more prompts until the batch holds only groups with mixed outcomes. That is **not** a "
        "data-loading speed-up: it spends *more* rollouts per step, and what it buys is a full, steady batch of "
        "learning signal focused on the prompts the model solves only sometimes.",
        "zh": "GRPO 从组内的差异中学习：每条回答的优势等于它的奖励减去组内平均奖励。如果一个提示词的 G 条回答"
        "全对或全错，所有优势都恰好为零：这一组的采样算力花掉了，却什么也学不到。DAPO 的动态采样（dynamic "
        "sampling）丢掉这样的组，继续采样新提示词，直到批次里全是结果有对有错的组。它**不是**数据加载的加速技巧："
        "每一步反而要花*更多*的 rollout，换来的是一个满满当当、大小稳定的学习信号批次，而且集中在模型时对时错的提示词上。",
    },
    # ------------------------------------------------------------------ 1. signal probability
    "sampling.signal_header": {"en": "1 · When does a group carry a signal?", "zh": "1 · 一个组什么时候有学习信号？"},
    "sampling.signal_text": {
        "en": "Take a prompt the model answers correctly with probability p (its pass rate) and sample G answers. "
        "The group is all right with chance p^G and all wrong with chance (1−p)^G; only the rest has a non-zero "
        "advantage. Easy prompts (p near 1) and hard ones (p near 0) are mostly wasted; a larger G rescues more "
        "of them, at G times the sampling cost.",
        "zh": "设模型答对某个提示词的概率为 p（该提示词的通过率），对它采样 G 条回答。整组全对的概率是 p^G，全错的概率是 "
        "(1−p)^G，只有剩下的情况优势才不为零。太容易（p 接近 1）和太难（p 接近 0）的提示词大多白白浪费；增大 G 能挽回"
        "其中一部分，但采样成本也变成 G 倍。",
    },
    "sampling.group_sizes": {"en": "Group sizes G", "zh": "组大小 G"},
    "sampling.group_sizes_help": {
        "en": "Responses sampled per prompt (TRL num_generations; verl rollout.n). Choose one or more.",
        "zh": "每个提示词采样的回答数（TRL：num_generations；verl：rollout.n）。可以选一个或多个。",
    },
    "sampling.pass_rate": {"en": "pass rate p", "zh": "通过率 p"},
    "sampling.signal_axis": {"en": "chance the group is mixed", "zh": "组内有对有错的概率"},
    "sampling.mixed_hover": {"en": "mixed (signal)", "zh": "有对有错（有信号）"},
    "sampling.equal_hover": {"en": "all equal (zero advantage)", "zh": "全部相同（优势为零）"},
    "sampling.signal_caption": {
        "en": "Each curve is rlviz.core.sampling.signal_probability, the rule the trainer's group filter "
        "(informative_groups) applies in expectation. At G = {G} a prompt solved {p:.0%} of the time gives a "
        "learning signal in only {share:.0%} of its groups.",
        "zh": "每条曲线都由 rlviz.core.sampling.signal_probability 算出，也就是训练器的组过滤（informative_groups）"
        "在期望意义下的结果。G = {G} 时，一个只有 {p:.0%} 通过率的提示词，只有 {share:.0%} 的组带有学习信号。",
    },
    "sampling.need_group_size": {
        "en": "choose at least one group size",
        "zh": "请至少选择一个组大小",
    },
    # ------------------------------------------------------------------ 1b. difficulty bias
    "sampling.bias_header": {
        "en": "Which prompts weigh most: GRPO's std versus Dr.GRPO",
        "zh": "哪些提示词权重最大：GRPO 的标准差归一化与 Dr.GRPO 对比",
    },
    "sampling.bias_text": {
        "en": "Once a group has a signal, how hard does it push? GRPO divides the centred rewards by the group's "
        "standard deviation, which is small when almost every answer is right or almost every answer is wrong, "
        "so those groups get large advantages. Dr.GRPO drops the division. The curves average the group's total "
        "|advantage| over the number of right answers, using the trainer's own group_advantages; each curve is "
        "scaled to its own maximum so the shapes compare.",
        "zh": "一个组有了信号之后，它推动参数的力度有多大？GRPO 会把中心化后的奖励除以组内标准差；当几乎全对或几乎全错时，"
        "标准差很小，这些组的优势就被放大。Dr.GRPO 去掉了这一除法。曲线对答对条数取期望，给出整组 |优势| 之和，"
        "优势由训练器自己的 group_advantages 计算；每条曲线按各自的最大值归一化，便于比较形状。",
    },
    "sampling.bias_group_size": {"en": "Group size G (this view)", "zh": "组大小 G（本图）"},
    "sampling.bias_axis": {"en": "E[Σ|A|] / its maximum", "zh": "E[Σ|A|] / 其最大值"},
    "sampling.bias_mass": {"en": "E[Σ|A|]", "zh": "E[Σ|A|]"},
    "sampling.bias_caption": {
        "en": "The curves average over all groups, those without a signal included. With the std (GRPO), dividing "
        "by the small std of a group that is nearly all right or all wrong raises its weight, so GRPO's curve stays "
        "closer to its peak for prompts solved rarely or almost always than Dr.GRPO's (the difficulty bias): hover a curve to "
        "compare them at p = 0.1 and p = 0.5. Without it (Dr.GRPO) the weight follows how spread out the rewards "
        "are. Both are zero at p = 0 and p = 1, where no group has a signal.",
        "zh": "曲线是对所有组的平均，包括没有信号的组。带标准差归一化（GRPO）时，几乎全对或几乎全错的组标准差很小，"
        "除以它会放大这组的权重，所以对很少答对或几乎总答对的提示词，GRPO 的曲线比 Dr.GRPO 更接近峰值（即难度偏差）："
        "把鼠标放在曲线上比较 p = 0.1 和 p = 0.5 处的值。去掉它（Dr.GRPO）后，权重取决于组内奖励的离散程度。"
        "两者在 p = 0 和 p = 1 处都为零，因为这时没有任何组有信号。",
    },
    # ------------------------------------------------------------------ 2. measured
    "sampling.measured_header": {"en": "2 · Measured on the tiny LM", "zh": "2 · 在微型语言模型上实测"},
    "sampling.measured_text": {
        "en": "The shipped model answers addition prompts of four difficulty levels. Sample G answers to each of "
        "n prompts, score them with the verifier and count the groups whose rewards are all equal. Lower the "
        "temperature and watch the zero-advantage share grow: the answers become less diverse, so groups agree "
        "more often.",
        "zh": "自带的模型回答四个难度等级的加法提示词。对 n 个提示词各采样 G 条回答，用验证器打分，再统计奖励全部相同的组。"
        "把温度调低，零优势组的占比就会上升：回答越来越单一，组内结果也就越容易一致。",
    },
    "sampling.n_prompts": {"en": "Prompts n", "zh": "提示词数 n"},
    "sampling.n_prompts_help": {
        "en": "Prompts drawn from the training split, each answered G times.",
        "zh": "从训练集中抽取的提示词数，每个提示词回答 G 次。",
    },
    "sampling.measure_group_size": {"en": "Samples per prompt G", "zh": "每个提示词的采样数 G"},
    "sampling.temperature": {"en": "Sampling temperature", "zh": "采样温度"},
    "sampling.temperature_help": {
        "en": "Lower means less diverse answers and more all-equal groups; training that stalls with many "
        "all-wrong groups is a classic symptom of too low a temperature.",
        "zh": "温度越低，回答越单一，全对或全错的组越多；训练停滞、全错组大量出现，是温度过低的典型症状。",
    },
    "sampling.measuring": {
        "en": "Sampling {n} {n:plural:prompt|prompts} × {G} answers…",
        "zh": "正在采样 {n} 个提示词 × {G} 条回答……",
    },
    "sampling.zero_share": {"en": "zero-advantage groups", "zh": "零优势组"},
    "sampling.all_wrong_share": {"en": "all wrong", "zh": "全错"},
    "sampling.all_correct_share": {"en": "all right", "zh": "全对"},
    "sampling.mixed_share": {"en": "mixed (signal)", "zh": "有对有错（有信号）"},
    "sampling.hist_title": {"en": "Prompts per measured pass rate", "zh": "各实测通过率下的提示词数"},
    "sampling.outcome_title": {"en": "Groups by outcome", "zh": "按结果划分的组"},
    "sampling.measured_rate": {"en": "measured pass rate k/G", "zh": "实测通过率 k/G"},
    "sampling.prompts_axis": {"en": "prompts", "zh": "提示词数"},
    "sampling.share_axis": {"en": "share of groups", "zh": "组的占比"},
    "sampling.level": {"en": "level", "zh": "难度"},
    "sampling.all_levels": {"en": "all levels", "zh": "全部难度"},
    "sampling.zero_band": {
        "en": "shaded: zero advantage (k = 0 or k = G)",
        "zh": "阴影：优势为零（k = 0 或 k = G）",
    },
    "sampling.measured_caption": {
        "en": "{zero:.0%} of the {n} {n:plural:group|groups} carry no signal ({wrong:.0%} all wrong, {right:.0%} all right).",
        "zh": "{n} 个组中有 {zero:.0%} 没有学习信号（{wrong:.0%} 全错，{right:.0%} 全对）。",
    },
    "sampling.measured_levels": {
        "en": " All-right groups are most common at level {lv_right} ({right:.0%} of its groups) and all-wrong ones at "
        "level {lv_wrong} ({wrong:.0%}): these are what dynamic sampling drops; it trains on the levels in between.",
        "zh": " 全对的组在难度 {lv_right} 最多（占该难度的 {right:.0%}），全错的组在难度 {lv_wrong} 最多（{wrong:.0%}）："
        "动态采样丢掉的主要就是这些组，训练集中在两者之间的难度上。",
    },
    # ------------------------------------------------------------------ 3. cost
    "sampling.cost_header": {"en": "3 · What a full batch costs", "zh": "3 · 填满一个批次要花多少"},
    "sampling.cost_text": {
        "en": "Each generation round draws n prompts and samples G answers to each; a group survives the filter "
        "with chance q, the average of the curve above over the prompts' pass rates. Rounds continue until N "
        "groups survive or the cap K is reached (verl: max_num_gen_batches); surplus groups of the last round "
        "are dropped, and a capped step may train on a partly empty batch. Two pass-rate distributions are "
        "compared: a Beta(a, b) you set, and the one measured above.",
        "zh": "每一轮生成抽取 n 个提示词，每个提示词采样 G 条回答；一个组以概率 q 通过过滤，q 就是上面那条曲线在提示词通过率分布上的平均值。"
        "一轮接一轮地采样，直到攒够 N 个组或达到轮数上限 K（verl：max_num_gen_batches）；最后一轮多出来的组被丢弃，"
        "而被上限截停的一步可能只能用一个没装满的批次训练。这里比较两种通过率分布：你设定的 Beta(a, b)，以及上面实测得到的分布。",
    },
    "sampling.cost_legend": {
        "en": "R: rounds in a step; S_r: groups with a signal after r rounds; n·G·E[R]: responses sampled per "
        "step; E[min(S_K, N)]: groups with a signal in the batch; P(S_K ≥ N): chance the batch is full.",
        "zh": "R：一步中的生成轮数；S_r：前 r 轮累计的有信号组数；n·G·E[R]：每步采样的回答数；"
        "E[min(S_K, N)]：批次中有信号的组数；P(S_K ≥ N)：批次装满的概率。",
    },
    "sampling.target": {"en": "Groups wanted per step N", "zh": "每步需要的组数 N"},
    "sampling.target_help": {
        "en": "The training batch, in groups (verl data.train_batch_size; rlviz prompts per step).",
        "zh": "训练批次的大小，以组计（verl：data.train_batch_size；rlviz：每步提示词数）。",
    },
    "sampling.per_round": {"en": "Prompts per round n", "zh": "每轮提示词数 n"},
    "sampling.per_round_help": {
        "en": "Prompts generated per round (verl data.gen_batch_size; rlviz's trainer uses n = N).",
        "zh": "每轮生成的提示词数（verl：data.gen_batch_size；rlviz 的训练器取 n = N）。",
    },
    "sampling.cost_group_size": {"en": "Group size G", "zh": "组大小 G"},
    "sampling.cap": {"en": "Cap on rounds K", "zh": "轮数上限 K"},
    "sampling.cap_help": {
        "en": "At most K rounds per step (verl recipe max_num_gen_batches, 10 in the DAPO recipe; rlviz "
        "max_resample_rounds, default 3). K = 1 is plain GRPO with the filter.",
        "zh": "每步最多生成 K 轮（verl recipe 中的 max_num_gen_batches，DAPO 配方取 10；rlviz 中的 max_resample_rounds，"
        "默认 3）。K = 1 相当于只加过滤、不再补采样的 GRPO。",
    },
    "sampling.beta_a": {"en": "Beta a", "zh": "Beta 参数 a"},
    "sampling.beta_b": {"en": "Beta b", "zh": "Beta 参数 b"},
    "sampling.beta_help": {
        "en": "Pass rates ~ Beta(a, b), mean a/(a+b). a, b < 1 gives a U shape: many prompts nearly always right "
        "or nearly always wrong.",
        "zh": "通过率服从 Beta(a, b)，均值为 a/(a+b)。a、b 都小于 1 时分布呈 U 形：很多提示词几乎总对或几乎总错。",
    },
    "sampling.beta_name": {"en": "Beta({a:g}, {b:g})", "zh": "Beta({a:g}, {b:g})"},
    "sampling.measured_name": {"en": "measured (tiny LM)", "zh": "实测（微型模型）"},
    "sampling.density": {"en": "density", "zh": "概率密度"},
    "sampling.mean": {"en": "mean", "zh": "均值"},
    "sampling.cost_groups": {"en": "groups with signal per batch", "zh": "批次中有信号的组数"},
    "sampling.cost_full": {"en": "P(the batch is full)", "zh": "批次装满的概率"},
    "sampling.cost_rollouts": {"en": "responses per step", "zh": "每步采样的回答数"},
    "sampling.cap_axis": {"en": "cap on rounds K", "zh": "轮数上限 K"},
    "sampling.plain": {"en": "no dynamic sampling", "zh": "不用动态采样"},
    "sampling.target_line": {"en": "N wanted", "zh": "需要 N 组"},
    "sampling.chosen": {"en": "chosen K", "zh": "所选 K"},
    "sampling.cost_caption": {
        "en": "Dotted lines: plain GRPO, one round of n prompts, nothing re-sampled: on average n·q groups carry "
        "a signal for n·G responses. Dynamic sampling fills the batch by paying for more rounds. Per group "
        "with a signal the price is about the same (G/q responses) — slightly more, because the last round's "
        "surplus is thrown away; what changes is that every step gets the full batch.",
        "zh": "点线：普通 GRPO，只生成一轮 n 个提示词、不补采样：平均只有 n·q 个组有信号，却花了 n·G 条回答。动态采样靠多付几轮采样来填满批次。"
        "折算到每个有信号的组，代价大致相同（约 G/q 条回答），还略高一些，因为最后一轮多出的组被扔掉了；真正改变的是每一步都能拿到满批次。",
    },
    "sampling.table_caption": {
        "en": "At the chosen K. q: chance one group has a signal; rounds, responses and groups are expectations "
        "per step (exact binomial sums).",
        "zh": "在所选 K 下。q：单个组有信号的概率；轮数、回答数和组数都是每步的期望值（精确的二项分布求和）。",
    },
    "sampling.col_distribution": {"en": "pass rates", "zh": "通过率分布"},
    "sampling.col_q": {"en": "q", "zh": "q"},
    "sampling.col_rounds": {"en": "rounds", "zh": "轮数"},
    "sampling.col_rollouts": {"en": "responses", "zh": "回答数"},
    "sampling.col_groups": {"en": "groups with signal", "zh": "有信号的组"},
    "sampling.col_full": {"en": "P(full batch)", "zh": "P(批次装满)"},
    "sampling.col_per_group": {"en": "responses per signal group", "zh": "每个有信号组的回答数"},
    "sampling.col_plain_groups": {"en": "groups, no dynamic sampling", "zh": "不用动态采样时的组数"},
    "sampling.col_plain_rollouts": {"en": "responses, no dynamic sampling", "zh": "不用动态采样时的回答数"},
    "sampling.mc_header": {"en": "Check by simulation", "zh": "用模拟来验证"},
    "sampling.mc_text": {
        "en": "{trials} simulated steps with the same settings (Beta pass rates, 0/1 rewards, the trainer's group "
        "filter), against the formulas. ± is one standard error.",
        "zh": "用同样的设置模拟 {trials} 步（Beta 分布的通过率、0/1 奖励、训练器的组过滤），与公式对比。± 为一个标准误。",
    },
    "sampling.col_quantity": {"en": "quantity", "zh": "量"},
    "sampling.col_formula": {"en": "formula", "zh": "公式"},
    "sampling.col_simulation": {"en": "simulation", "zh": "模拟"},
    # ------------------------------------------------------------------ 4. live
    "sampling.live_header": {
        "en": "4 · Live: GRPO versus GRPO + dynamic sampling",
        "zh": "4 · 实时对比：GRPO 与 GRPO + 动态采样",
    },
    "sampling.live_text": {
        "en": "Two copies of the tiny LM start from the same weights and the same seed and train with GRPO; one "
        "of them filters all-equal groups and re-samples up to K rounds per step. Watch the effective batch "
        "(groups with a signal that entered the loss), the responses spent and the training reward, and at "
        "the end the held-out pass@1 of each.",
        "zh": "两份微型模型从相同的权重、相同的种子出发，都用 GRPO 训练；其中一份过滤掉结果全相同的组，每步最多补采样 K 轮。"
        "观察有效批次（进入损失、带信号的组数）、花掉的回答数和训练奖励，训练结束时再比较两者在留出集上的 pass@1。",
    },
    "sampling.live_lede": {
        "en": "Two copies of the tiny LM train with GRPO, one with dynamic sampling: press Run and watch the batch, "
        "the cost and the reward.",
        "zh": "两份微型模型都用 GRPO 训练，其中一份加上动态采样：点 **开始训练**，看批次、代价和奖励的变化。",
    },
    "sampling.empty_figure": {
        "en": "Press Run: the curves grow here, step by step",
        "zh": "点“开始训练”：曲线会在这里一步步画出来",
    },
    "sampling.first_step": {
        "en": "Training: each step's points appear here as soon as it is done",
        "zh": "训练中：每一步算完，它的点就会出现在这里",
    },
    "sampling.smoothed": {"en": "smoothed", "zh": "平滑后"},
    "sampling.smooth_caption": {
        "en": "Lines of the per-step panels: each run's exponential moving average over about {span} steps (weight "
        "2 / ({span} + 1) on the newest step); faded dots: each step's own value. The responses sampled so far are "
        "a running total, drawn as they are.",
        "zh": "逐步面板中的线：每个分支约 {span} 步的指数移动平均（最新一步的权重为 2 / ({span} + 1)）；淡色的点：每一步自己的值。"
        "累计采样的回答数本身就是累加值，按原样画出。",
    },
    "sampling.more_settings": {"en": "More settings", "zh": "更多设置"},
    "sampling.read_compare": {
        "en": "Per step, dynamic sampling trained on {signal_ds} groups with a signal against {signal} for plain "
        "GRPO, and sampled {times}× the responses ({rollouts_ds} against {rollouts}): {per_ds} against {per} "
        "responses per group with a signal.",
        "zh": "平均每步，动态采样用 {signal_ds} 个有信号的组训练，普通 GRPO 只有 {signal} 个；代价是采样了 {times} 倍的回答"
        "（{rollouts_ds} 对 {rollouts}）：每个有信号的组花 {per_ds} 条回答，普通 GRPO 花 {per} 条。",
    },
    "sampling.read_live_apart": {
        "en": "Held-out pass@1 at the end spans {low} to {high} across the two runs; two standard errors of their "
        "difference ({n} {n:plural:sample|samples} each) are about {two_se}, so this run {verdict}",
        "zh": "训练结束时两个分支的留出集 pass@1 在 {low} 到 {high} 之间；两者之差（每个 {n} 个样本）的两个标准误约为 "
        "{two_se}，所以这次运行{verdict}",
    },
    "sampling.live_verdict.separates": {
        "en": "separates them beyond evaluation noise (one seed: try another before drawing a conclusion).",
        "zh": "把两者区分开了，差距超出评估噪声（只有一个种子：换个种子再下结论）。",
    },
    "sampling.live_verdict.noise": {
        "en": "does not separate them: the difference is within evaluation noise.",
        "zh": "没有把两者区分开：差距在评估噪声之内。",
    },
    "sampling.steps": {"en": "Steps", "zh": "训练步数"},
    "sampling.live_prompts": {"en": "Prompts per step N", "zh": "每步提示词数 N"},
    "sampling.live_group_size": {"en": "Group size G", "zh": "组大小 G"},
    "sampling.rounds": {"en": "Cap on rounds K", "zh": "轮数上限 K"},
    "sampling.lr": {"en": "Learning rate", "zh": "学习率"},
    "sampling.heldout": {"en": "Held-out samples per prompt", "zh": "留出集每个提示词的采样数"},
    "sampling.heldout_help": {
        "en": "Held-out pass@1 before training and after each arm's last step ({n} fixed prompts × this many "
        "samples); 0 skips it.",
        "zh": "训练前以及每个分支最后一步之后的留出集 pass@1（{n} 个固定提示词 × 每个提示词这么多次采样）；0 表示跳过。",
    },
    "sampling.run": {"en": "Run", "zh": "开始训练"},
    "sampling.stop": {"en": "Stop", "zh": "停止"},
    "sampling.continue": {"en": "Continue", "zh": "继续"},
    "sampling.reset": {"en": "Reset", "zh": "清除结果"},
    "sampling.no_run": {
        "en": "Press **Run**. The default run is 2 × {steps} steps of {n} prompts × {G} answers; the bars show how "
        "far it is, and **Stop** keeps what is done.",
        "zh": "点击 **开始训练**。默认设置是 2 × {steps} 步，每步 {n} 个提示词 × {G} 条回答；进度条显示进度，"
        "点 **停止** 会保留已完成的部分。",
    },
    "sampling.progress": {"en": "{arm}: step {done} / {total}", "zh": "{arm}：第 {done} / {total} 步"},
    "sampling.running": {
        "en": "Training… results are kept after every step.",
        "zh": "训练中……每一步的结果都会保存。",
    },
    "sampling.stopped": {
        "en": "Stopped: both arms have done {done} of {total} {total:plural:step|steps}. **Continue** picks up where they stopped.",
        "zh": "已停止：两个分支都完成了 {done} / {total} 步。点 **继续** 可以从停下的地方接着训练。",
    },
    "sampling.stopped_arms": {
        "en": "Stopped with the arms at different steps ({steps} of {total}). **Continue** first brings the arm "
        "behind up to the other.",
        "zh": "停止时两个分支的步数不同（{steps}，共 {total} 步）。点 **继续** 会先让落后的分支追上另一个。",
    },
    "sampling.finished": {"en": "Finished {total} {total:plural:step|steps}.", "zh": "已完成 {total} 步。"},
    "sampling.settings_changed": {
        "en": "The settings differ from the run shown: press **Reset**, then **Run**, to use them.",
        "zh": "当前设置与图中这次训练不同：先点 **清除结果**，再点 **开始训练**，新设置才会生效。",
    },
    "sampling.arm_grpo": {"en": "GRPO", "zh": "GRPO"},
    "sampling.arm_grpo_ds": {"en": "GRPO + dynamic sampling", "zh": "GRPO + 动态采样"},
    "sampling.live_signal": {"en": "groups with signal in the loss", "zh": "进入损失的有信号组数"},
    "sampling.live_rollouts": {"en": "responses sampled so far", "zh": "累计采样的回答数"},
    "sampling.live_reward": {"en": "training pass@1", "zh": "训练 pass@1"},
    "sampling.live_reward_vs": {"en": "training pass@1 vs responses", "zh": "训练 pass@1 与回答数"},
    "sampling.live_caption": {
        "en": "Top left: plain GRPO's effective batch shrinks and jumps with the share of all-equal groups, while "
        "dynamic sampling keeps it at N unless the cap stops it. Top right: the price, in responses generated. "
        "Training pass@1 is measured on every response sampled in the step, filtered or not; it is noisy "
        "because easy and hard prompts are mixed, so judge learning on the held-out pass@1 below.",
        "zh": "左上：普通 GRPO 的有效批次随零优势组的比例时大时小，而动态采样除非被轮数上限截停，始终保持 N 组。"
        "右上：代价，即生成的回答数。训练 pass@1 按这一步采样的全部回答计算（无论是否被过滤）；由于难易提示词混在一起，它波动较大，"
        "判断是否真正学到东西要看下方的留出集 pass@1。",
    },
    "sampling.summary_caption": {
        "en": "Held-out pass@1 is measured on {n} fixed prompts never used in training, before the first step "
        "and after an arm's last step (— : not measured, or not yet).",
        "zh": "留出集 pass@1 在 {n} 个从未用于训练的固定提示词上测量，分别在第一步之前和每个分支最后一步之后（—：未测量或尚未测量）。",
    },
    "sampling.col_arm": {"en": "run", "zh": "分支"},
    "sampling.col_steps": {"en": "steps", "zh": "步数"},
    "sampling.col_rollouts_total": {"en": "responses sampled", "zh": "采样的回答数"},
    "sampling.col_signal_mean": {"en": "mean groups with signal", "zh": "平均有信号组数"},
    "sampling.col_signal_total": {"en": "groups with signal, total", "zh": "有信号组总数"},
    "sampling.col_per_signal": {"en": "responses per signal group", "zh": "每个有信号组的回答数"},
    "sampling.col_train_last5": {"en": "training pass@1 (last 5 steps)", "zh": "训练 pass@1（最后 5 步）"},
    "sampling.col_heldout": {"en": "held-out pass@1, start → end", "zh": "留出集 pass@1（开始 → 结束）"},
    # ------------------------------------------------------------------ 5. symptoms
    "sampling.symptoms_header": {"en": "Reading the symptoms", "zh": "如何解读训练症状"},
    "sampling.symptoms": {
        "en": "- **The share of zero-advantage groups** is worth a panel of its own: a reward curve can look fine "
        "while most groups teach nothing.\n"
        "- **Training stalls after a few dozen steps** with many *all-wrong* groups: the prompts are too hard or "
        "exploration has collapsed (entropy down, temperature too low). Dynamic sampling then spends round after "
        "round finding few mixed groups — the cap K stops it, and the batch stays partly empty.\n"
        "- **Many *all-right* groups** mean the model has outgrown the data: dynamic sampling hides this by "
        "filtering, at a rising cost in rollouts; harder prompts would help more.\n"
        "- **Rollouts per step climbing** under dynamic sampling is the signal q falling, not a bug: the filter "
        "is doing its job, and its bill grows as 1/q.",
        "zh": "- **零优势组占比**值得单独一个面板：奖励曲线看起来正常时，可能大多数组其实什么也没教。\n"
        "- **训练几十步后停滞**、*全错*组很多：提示词太难，或者探索已经坍缩（熵下降、温度过低）。这时动态采样一轮又一轮地采，"
        "也找不到几个有对有错的组——最终被轮数上限 K 截停，批次依旧装不满。\n"
        "- ***全对*组很多**说明模型已经超出了这批数据的难度：动态采样用过滤把这一点掩盖了，代价是 rollout 越来越多；换更难的提示词更有用。\n"
        "- 动态采样下**每步 rollout 数不断上升**，是信号比例 q 在下降，而不是程序出错：过滤器在正常工作，它的账单按 1/q 增长。",
    },
}
