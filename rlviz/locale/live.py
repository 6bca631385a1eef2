"""Strings of the Live policy update page (``live.*``, ``sum.*``) and the metric names of its figures (``metric.*``), English and 简体中文.

Merged into :data:`rlviz.i18n.STRINGS`; the same completeness rules apply (tests/test_i18n.py).
"""

STRINGS: dict[str, dict[str, str]] = {
    # ---------------------------------------------------------------- live page
    "live.title": {"en": "Live policy update", "zh": "实时策略更新"},
    "live.lede": {
        "en": "Each objective trains its own copy of one tiny model on the same prompts. Press **Run** and "
        "watch the curves grow: which one learns, which one loses entropy?",
        "zh": "各算法并排训练：谁学得好，谁的熵降得多？",
    },
    "live.empty_figure": {
        "en": "Press Run: the curves grow here, step by step",
        "zh": "点“开始训练”：曲线会在这里一步步画出来",
    },
    "live.first_step": {
        "en": "Training: each step's points appear here as soon as it is done",
        "zh": "训练中：每一步算完，它的点就会出现在这里",
    },
    "live.smoothed": {"en": "smoothed", "zh": "平滑后"},
    "live.smooth_caption": {
        "en": "{curves}, above. Lines: each algorithm's exponential moving average over about {span} steps (weight "
        "2 / ({span} + 1) on the newest step); faded dots: each step's own value. The average shows the trend the "
        "per-step zigzag hides.",
        "zh": "上图为{curves}。线：每个算法约 {span} 步的指数移动平均（最新一步的权重为 2 / ({span} + 1)）；淡色的点："
        "每一步自己的值。逐步的数值上下跳动，平均线才显出趋势。",
    },
    "live.heldout_reading": {
        "en": "**{title}** gained the most held-out pass@1: {start} → {end} ({gain}).",
        "zh": "留出集 pass@1 提升最多的是 **{title}**：{start} → {end}（{gain}）。",
    },
    "live.heldout_reading_one": {
        "en": "**{title}** raised its held-out pass@1: {start} → {end} ({gain}).",
        "zh": "**{title}** 的留出集 pass@1 提升了：{start} → {end}（{gain}）。",
    },
    "live.heldout_reading_fell_one": {
        "en": "**{title}** did not raise its held-out pass@1: {start} → {end} ({gain}).",
        "zh": "**{title}** 的留出集 pass@1 没有提升：{start} → {end}（{gain}）。",
    },
    "live.heldout_reading_fell": {
        "en": "No algorithm gained held-out pass@1 in this run; **{title}** lost the least: {start} → {end} ({gain}).",
        "zh": "这次训练没有哪个算法提升了留出集 pass@1；下降最少的是 **{title}**：{start} → {end}（{gain}）。",
    },
    "live.read_live_apart": {
        "en": "Held-out pass@1 at the end spans {low} to {high} across the algorithms ({n} {n:plural:sample|samples} "
        "each). Evaluation noise alone opens gaps up to about {margin} between the best and the worst of {k} "
        "({z} standard errors of a difference, widened for {pairs} {pairs:plural:pair|pairs}), so this run {verdict}",
        "zh": "训练结束时各算法的留出集 pass@1 在 {low} 到 {high} 之间（每个 {n} 个样本）。仅评估噪声就可能让 {k} 个算法中"
        "最好与最差之间相差约 {margin}（差值的 {z} 个标准误，已按 {pairs} 对比较放宽），所以这次运行{verdict}",
    },
    "live.live_verdict.separates": {
        "en": "separates the best algorithm from the worst beyond evaluation noise (one seed: try another before "
        "drawing a conclusion).",
        "zh": "把最好和最差的算法区分开了，差距超出评估噪声（只有一个种子：换个种子再下结论）。",
    },
    "live.live_verdict.noise": {
        "en": "does not separate the algorithms: their differences are within evaluation noise.",
        "zh": "没有把各算法区分开：差距在评估噪声之内。",
    },
    "live.intro": {
        "en": "Each chosen algorithm gets its own copy of the same tiny language model and trains "
        "it for real, step by step: sample G answers for each prompt, score them with the "
        "verifier, compute advantages, and update with the algorithm's own loss. All copies start "
        "from the same weights and the same seed, so step 1 sees the same prompts and the same "
        "answers; after that each follows its own policy.",
        "zh": "每个选中的算法各拿一份同样的微型语言模型，真刀真枪地一步步训练：每个提示词采样 G 条回答，"
        "用验证器打分，计算优势，再用该算法自己的损失更新参数。所有副本从相同的权重和相同的种子出发，"
        "所以第 1 步看到的是同样的提示词和同样的回答；之后各自沿着自己的策略走下去。",
    },
    "live.tips": {
        "en": "**Things to try.** Raise the learning rate to 1e-2 and watch the policy collapse within a "
        "few steps: KL to the reference jumps, the reward falls to zero (to −1 under DAPO's overlong "
        "penalty, and DAPO, finding no mixed group, stops updating) and the answers turn into "
        "noise whose length swings, often up to the limit. Set μ and the mini-batches (under *More settings*) to 1: every update is then fully "
        "on-policy: the ratio the update sees stays at 1 and nothing is clipped (the per-token view, "
        "computed after the update, already shows the moved ratio the next update would start from). Compare GSPO's clip fraction with "
        "GRPO's, and watch the share of zero-advantage groups: those groups teach nothing. One notch "
        "up, at learning rate 2e-4, SAPO drifts away (its KL to the reference climbs far above the others', held-out pass@1 falls) while the "
        "hard-clipped GRPO and DAPO still gain: its gate, tuned for tiny LLM-scale ratio moves, barely "
        "damps the larger moves of this small model, above all on tokens pushed down (A < 0).",
        "zh": "**可以试试：** 把学习率调到 1e-2，几步之内就能看到策略崩溃：与参考策略的 KL 飙升，"
        "奖励跌到零（DAPO 因超长惩罚跌到 −1，且找不到有信号的组而停止更新），回答变成乱码，长度忽长忽短，常常写到长度上限。把 μ 和小批次数（在“更多设置”里）都设为 1：每次更新都完全是同策略的，"
        "更新时看到的比率始终为 1，也就不会有任何裁剪（逐 token 视图是在更新之后算的，显示的是下一次更新的起点，比率已经变了）。比较 GSPO 和 GRPO 的裁剪比例，再留意零优势组的占比：这些组什么也学不到。"
        "把学习率只调高一档到 2e-4：SAPO 会越走越远（它与参考策略的 KL 远高于其他算法，留出集 pass@1 下降），而带硬裁剪的 GRPO 和 DAPO 仍在进步——"
        "它的门控是为大模型上极小的比率变化调的，对这个小模型较大的变化几乎不起抑制作用，被压低的 token（A < 0）尤其如此。",
    },
    "live.settings": {"en": "Run settings", "zh": "训练设置"},
    "live.algorithms": {"en": "Algorithms", "zh": "算法"},
    "live.algorithms_help": {
        "en": "Each one trains its own copy of the model; every extra algorithm adds time.",
        "zh": "每个算法训练自己的一份模型副本；多选一个算法就多一份耗时。",
    },
    "live.steps": {"en": "Steps", "zh": "步数"},
    "live.task": {"en": "Task", "zh": "任务"},
    "live.task_help": {
        "en": "What the model is asked and how a response is scored (the task registry, rlviz.lm.tasks; each task "
        "has its own shipped checkpoint). {tasks} Changing the task sets the response length limit and the "
        "overlong buffer to the task's own.",
        "zh": "模型要回答什么、回答如何评分（任务注册表 rlviz.lm.tasks；每个任务有自己随附的模型检查点）。{tasks} "
        "切换任务时，回答长度上限和超长缓冲区会随之设为该任务自己的值。",
    },
    "live.prompts": {"en": "Prompts per step", "zh": "每步提示词数"},
    "live.prompts_help": {
        "en": "Groups per step, n (TRL: batch size / G; verl: data.train_batch_size).",
        "zh": "每步的组数 n（TRL：batch size / G；verl：data.train_batch_size）。",
    },
    "live.group_size": {"en": "Group size G", "zh": "组大小 G"},
    "live.group_size_help": {
        "en": "Answers sampled per prompt (TRL: num_generations; verl: rollout.n).",
        "zh": "每个提示词采样的回答数（TRL：num_generations；verl：rollout.n）。",
    },
    "live.temperature": {"en": "Sampling temperature", "zh": "采样温度"},
    "live.temperature_help": {
        "en": "Lower means less diverse answers, so more groups where every answer is the same.",
        "zh": "温度越低，回答越单一，全对或全错的组也就越多。",
    },
    "live.lr": {"en": "Learning rate", "zh": "学习率"},
    "live.lr_help": {
        "en": "AdamW learning rate of the policy. Small values learn slowly; 1e-2 collapses the policy.",
        "zh": "策略的 AdamW 学习率。取值小学得慢；1e-2 会让策略崩溃。",
    },
    "live.mu": {"en": "Updates per batch μ", "zh": "每批更新次数 μ"},
    "live.mu_help": {
        "en": "Passes over each batch of samples (GRPO's μ; TRL: num_iterations; verl: ppo_epochs). "
        "Every update after the first is off-policy: the ratio moves away from 1 and the clip acts.",
        "zh": "每批样本重复使用的轮数（GRPO 的 μ；TRL：num_iterations；verl：ppo_epochs）。"
        "第一次之后的更新都是异策略的：比率偏离 1，裁剪开始起作用。",
    },
    "live.advanced": {"en": "More settings", "zh": "更多设置"},
    "live.mini_batches": {"en": "Mini-batches per pass", "zh": "每轮的小批次数"},
    "live.mini_batches_help": {
        "en": "Optimizer steps per pass over the batch (TRL: steps_per_generation).",
        "zh": "每轮遍历数据时的优化器步数（TRL：steps_per_generation）。",
    },
    "live.max_new_tokens": {"en": "Response length limit $L_{max}$", "zh": "回答长度上限 $L_{max}$"},
    "live.overlong_buffer": {"en": "Overlong buffer $L_{cache}$", "zh": "超长缓冲区 $L_{cache}$"},
    "live.overlong_buffer_help": {
        "en": "DAPO's soft penalty ramps from 0 at $L_{max} - L_{cache}$ to −1 at $L_{max}$.",
        "zh": "DAPO 的软惩罚从 $L_{max} - L_{cache}$ 处的 0 线性降到 $L_{max}$ 处的 −1。",
    },
    "live.heldout": {"en": "Held-out samples per prompt", "zh": "留出集每个提示词的采样数"},
    "live.heldout_help": {
        "en": "Held-out pass@1 is measured before training and after each algorithm's last step "
        "({n} fixed prompts × this many samples); 0 skips it.",
        "zh": "在训练前和每个算法最后一步之后测量留出集 pass@1（{n} 个固定提示词 × 每个提示词这么多次采样）；0 表示跳过。",
    },
    "live.algo_settings": {"en": "{title} settings", "zh": "{title} 的设置"},
    "live.algo_settings_caption": {
        "en": "Defaults are the paper values from the algorithm registry; hover a field for its source.",
        "zh": "默认值是算法注册表中的论文取值；把鼠标停在输入框上可以看到出处。",
    },
    "live.setting_help": {
        "en": "{meaning} — default {default} ({source}); TRL: {trl}; verl: {verl}",
        "zh": "{meaning} —— 默认 {default}（{source}）；TRL：{trl}；verl：{verl}",
    },
    "live.empty_means_none": {"en": "empty = none", "zh": "留空 = 无"},
    "live.not_a_number": {"en": "{name}: {value!r} is not a number", "zh": "{name}：{value!r} 不是数字"},
    "live.run": {"en": "Run", "zh": "开始训练"},
    "live.stop": {"en": "Stop", "zh": "停止"},
    "live.continue": {"en": "Continue", "zh": "继续"},
    "live.reset": {"en": "Reset", "zh": "清除结果"},
    "live.overlong_penalty": {"en": "Overlong penalty factor", "zh": "超长惩罚系数"},
    "live.overlong_penalty_help": {
        "en": "DAPO's soft overlong punishment reaches −factor at the length limit (verl "
        "reward.reward_kwargs.overlong_buffer_cfg.penalty_factor; the paper uses 1). Used where overlong "
        "shaping is on.",
        "zh": "DAPO 软超长惩罚在长度上限处达到 −系数（verl 的 "
        "reward.reward_kwargs.overlong_buffer_cfg.penalty_factor；"
        "论文取 1）。只在开启超长整形的算法上起作用。",
    },
    "live.entropy_coef": {"en": "Entropy bonus", "zh": "熵奖励系数"},
    "live.entropy_coef_help": {
        "en": "Adds −coef × entropy to every algorithm's loss, aggregated like the loss (verl "
        "actor.entropy_coeff, TRL entropy_coef; default 0). Raising it keeps the policy exploring.",
        "zh": "给每个算法的损失加上 −系数 × 熵，聚合方式与损失相同（verl 的 actor.entropy_coeff，"
        "TRL 的 entropy_coef；默认 0）。调大它能让策略保持探索。",
    },
    "live.entropy_target": {"en": "Entropy target (adaptive)", "zh": "目标熵（自适应）"},
    "live.entropy_target_help": {
        "en": "Skywork-OR1's adaptive entropy control (arXiv 2505.22312; the authors' verl fork, "
        "EntController): a target entropy in nats per token, 0 = off. After every step the entropy "
        "coefficient α moves by {delta}, up while the step's entropy (−mean log π_old of the sampled tokens) "
        "is below the target and down otherwise, within [{low}, {high}] (the authors' defaults); the next step "
        "subtracts α × entropy only if the entropy was below the target. The entropy bonus field above is "
        "the starting α. The panels 'entropy coefficient α' and 'entropy bonus on' show it step by step. "
        "TRL: use_adaptive_entropy with entropy_target; verl has no equivalent.",
        "zh": "Skywork-OR1 的自适应熵控制（arXiv 2505.22312；作者的 verl 分支中的 EntController）："
        "目标熵，单位 nats / token，0 表示关闭。每步之后，熵系数 α 变动 {delta}：这一步的熵"
        "（采样 token 的 −log π_old 的平均）低于目标就调高，否则调低，并限制在 [{low}, {high}] 之内（作者的默认值）；"
        "只有熵低于目标时，下一步的损失才减去 α × 熵。上面的熵奖励系数就是 α 的初值。"
        "面板“熵系数 α”和“熵奖励是否生效”逐步显示它。TRL 对应 use_adaptive_entropy 加 entropy_target；"
        "verl 没有对应设置。",
    },
    "live.kl_in_reward": {"en": "KL in the reward", "zh": "KL 放进奖励"},
    "live.kl_in_reward_help": {
        "en": "Subtract β × KL(old ‖ reference) from each response's reward instead of adding β × KL "
        "to the loss (verl algorithm.use_kl_in_reward). Only matters for algorithms with β > 0 "
        "(GRPO's default is 0.04).",
        "zh": "把 β × KL(旧策略 ‖ 参考策略) 从每条回答的奖励里减掉，而不是把 β × KL 加到损失上"
        "（verl 的 algorithm.use_kl_in_reward）。只对 β > 0 的算法起作用（GRPO 默认 0.04）。",
    },
    "live.no_run": {
        "en": "Choose the settings and press **Run**. This run: {n} algorithms × {steps} steps; a bar per "
        "algorithm shows how far it is, and **Stop** keeps what is done.",
        "zh": "选好设置后点击 **开始训练**。本次训练：{n} 个算法 × {steps} 步；每个算法有一个进度条，"
        "点 **停止** 会保留已完成的部分。",
    },
    "live.progress": {"en": "{title}: step {done} / {total}", "zh": "{title}：第 {done} / {total} 步"},
    "live.running": {
        "en": "Training… results are kept after every step: **Stop** keeps what is done so far.",
        "zh": "训练中……每一步的结果都会保存：点 **停止** 不会丢失已完成的部分。",
    },
    "live.stopped": {
        "en": "Stopped after {done} of {total} {total:plural:step|steps}. **Continue** picks up where it stopped.",
        "zh": "已在第 {done} / {total} 步停止。点 **继续** 可以从停下的地方接着训练。",
    },
    "live.stopped_arms": {
        "en": "Stopped part-way through a step round ({steps} of {total} {total:plural:step|steps}). **Continue** brings the "
        "others level first.",
        "zh": "在一轮中途停止（{steps}，共 {total} 步）。点 **继续** 会先把落后的算法补齐。",
    },
    "live.finished": {
        "en": "Finished: {total} {total:plural:step|steps} per algorithm.",
        "zh": "训练完成：每个算法 {total} 步。",
    },
    "live.settings_changed": {
        "en": "The settings differ from those of the run shown; press **Run** to start a new run.",
        "zh": "当前设置与图中这次训练所用的设置不同；点击 **开始训练** 以新设置重新训练。",
    },
    "live.curves": {"en": "Training curves", "zh": "训练曲线"},
    "live.panels": {"en": "Panels", "zh": "显示的指标"},
    "live.curves_caption": {
        "en": "One panel per metric, shared step axis; click a legend entry to hide an algorithm "
        "everywhere. Missing points mean the metric does not apply (only an objective with a soft gate, "
        "such as SAPO, has a gate weight) or the step made no update; a chosen panel that no algorithm of the "
        "run measures is left out. A soft gate clips nothing, so its clip fraction is drawn at 0.",
        "zh": "每个指标一张小图，横轴都是步数；点击图例可以在所有小图中隐藏某个算法。"
        "缺少的点表示该指标不适用（只有带软门控的目标函数，例如 SAPO，才有门控权重），或者这一步没有更新；"
        "选中的指标若这次训练里没有任何算法测量它，就不画出来。软门控不做任何裁剪，所以它的裁剪比例画在 0 处。",
    },
    "live.entropy_header": {"en": "Entropy: what this run shows, and why", "zh": "熵：这次训练显示了什么，为什么"},
    "live.entropy_reading": {
        "en": "In this run **{title}** lost the most entropy: from {first} to {last} nats per token over "
        "{steps} {steps:plural:step|steps}, while its upper clip (A > 0) acted on {high} of its tokens on average.",
        "zh": "这次训练中熵降得最多的是 **{title}**：{steps} 步内从 {first} 降到 {last} nats / token，"
        "而它的上界裁剪（A > 0）平均只作用在 {high} 的 token 上。",
    },
    "live.entropy_reading_one": {
        "en": "In this run **{title}**'s entropy fell from {first} to {last} nats per token over "
        "{steps} {steps:plural:step|steps}, while its upper clip (A > 0) acted on {high} of its tokens on average.",
        "zh": "这次训练中 **{title}** 的熵在 {steps} 步内从 {first} 降到 {last} nats / token，"
        "而它的上界裁剪（A > 0）平均只作用在 {high} 的 token 上。",
    },
    "live.entropy_reading_rose_one": {
        "en": "In this run **{title}**'s entropy did not fall: from {first} to {last} nats per token over "
        "{steps} {steps:plural:step|steps}, while its upper clip (A > 0) acted on {high} of its tokens on average.",
        "zh": "这次训练中 **{title}** 的熵没有下降：{steps} 步内从 {first} 到 {last} nats / token，"
        "而它的上界裁剪（A > 0）平均作用在 {high} 的 token 上。",
    },
    "live.entropy_reading_rose": {
        "en": "In this run no algorithm lost entropy; **{title}** gained the least: from {first} to {last} nats per "
        "token over {steps} {steps:plural:step|steps}, while its upper clip (A > 0) acted on {high} of its tokens on "
        "average.",
        "zh": "这次训练中没有哪个算法的熵下降；升得最少的是 **{title}**：{steps} 步内从 {first} 到 {last} nats / token，"
        "而它的上界裁剪（A > 0）平均作用在 {high} 的 token 上。",
    },
    "live.entropy_table_caption": {
        "en": "The table has every algorithm's numbers, read from the run's metrics.",
        "zh": "表中是每个算法的数字，直接取自这次训练的指标。",
    },
    "live.entropy_col.arm": {"en": "algorithm", "zh": "算法"},
    "live.entropy_col.steps": {"en": "steps", "zh": "步数"},
    "live.entropy_col.entropy_first": {"en": "entropy, step 1", "zh": "第 1 步的熵"},
    "live.entropy_col.entropy_last": {"en": "entropy, last step", "zh": "最后一步的熵"},
    "live.entropy_col.entropy_last5": {"en": "entropy, last 5 steps", "zh": "最后 5 步的熵"},
    "live.entropy_col.entropy_change": {"en": "change", "zh": "变化"},
    "live.entropy_col.clip_high_mean": {"en": "upper clip share", "zh": "上界裁剪占比"},
    "live.entropy_col.clip_low_mean": {"en": "lower clip share", "zh": "下界裁剪占比"},
    "live.entropy_col.signal_groups_mean": {"en": "groups with a signal per update", "zh": "每次更新中有信号的组"},
    "live.entropy_col.rollouts_total": {"en": "responses sampled", "zh": "采样回答数"},
    "live.entropy_col.heldout_gain": {"en": "held-out pass@1 gain", "zh": "留出集 pass@1 提升"},
    "live.entropy_why": {
        "en": "DAPO's clip-higher was proposed against entropy collapse, yet on the shipped tiny model DAPO "
        "usually loses the most entropy (with the defaults: 30 steps, seed 0). Two things explain it, and the "
        "table shows both.\n\n"
        "- **DAPO changes several things at once.** Dynamic sampling fills every update with groups that carry "
        "a signal (compare *groups with a signal per update*, paid for in *responses sampled*), it has no KL "
        "term and it averages over all tokens of the batch. So it learns fast and sharpens fast: here a lower "
        "entropy is mostly the model becoming sure of the answer's digits (compare the held-out gain). Of these "
        "changes, the missing KL term matters most: on the make-a-sum task over 100 steps and three seeds, DAPO "
        "with GRPO's KL term put back kept as much entropy as GRPO and learned as much as DAPO "
        "(docs/second-task.md).\n"
        "- **Clip-higher hardly ever acts here.** Raising the upper bound only matters for tokens whose ratio "
        "reaches it; look at the *upper clip share*: with a few updates per batch and a small learning rate, "
        "this small model's ratios rarely pass 1 + ε, so moving the bound changes little.\n\n"
        "To see clip-higher on its own, train DAPO alone twice at the same seed, with ε_high at its default "
        "and at ε_low's value in its settings, and compare the entropy. Its effect needs ratios that often "
        "reach the clip: more updates per batch (μ, mini-batches), longer answers, a larger vocabulary or model "
        "(the DAPO paper trained a 32B model).",
        "zh": "DAPO 的 clip-higher 是为防止熵坍缩而提出的，但在自带的微型模型上，DAPO 往往是熵降得最多的那个"
        "（默认设置：30 步，种子 0）。原因有二，表格里都看得到。\n\n"
        "- **DAPO 同时改了好几样东西。** 动态采样让每次更新都装满带信号的组（对比“每次更新中有信号的组”，"
        "代价见“采样回答数”）；它没有 KL 项，并且对整批所有 token 求平均。所以它学得快、收敛得也快："
        "这里熵的下降主要是模型对答案的数字越来越有把握（对比留出集提升）。这些改动里缺了 KL 项影响最大："
        "在“凑数”任务上训练 100 步、三个种子，加回 GRPO 的 KL 项的 DAPO 熵保持得和 GRPO 一样高，学到的和 DAPO 一样多"
        "（docs/second-task.md）。\n"
        "- **clip-higher 在这里几乎不起作用。** 提高上界只对比率碰到上界的 token 有影响；看“上界裁剪占比”："
        "每批更新次数少、学习率小的时候，这个小模型的比率很少超过 1 + ε，所以移动上界变化不大。\n\n"
        "想单独看 clip-higher 的作用，可以在同一个种子下只选 DAPO 训练两次，在它的设置里把 ε_high 分别设为默认值"
        "和 ε_low 的值，再比较熵。它的效果需要比率经常碰到裁剪边界：每批更多次更新（μ、小批次数）、更长的回答、"
        "更大的词表或模型（DAPO 论文训练的是 32B 模型）。",
    },
    "live.metric_notes": {
        "en": r"**How the numbers are computed.** Reward: the verifier's 1 or 0 (plus DAPO's overlong "
        r"penalty where it is on); pass@1: the share of correct answers among the training samples. "
        r"KL to the frozen starting model uses the k3 estimator "
        r"$\frac{\pi_{ref}}{\pi_\theta} - \log\frac{\pi_{ref}}{\pi_\theta} - 1$, averaged over tokens. "
        r"Entropy: $-\sum_v \pi_\theta(v)\log\pi_\theta(v)$ per generated token. Clip fraction: the "
        r"share of tokens the clip acted on: their gradient is zero under a hard clip, while CISPO only "
        r"caps their weight and GSPO clips whole responses. A group has zero advantage when all "
        r"its G rewards are equal. pass@G: the share of groups with at least one right answer; distinct right "
        r"per group: how many different right answers a group of G found (a task with many right answers).",
        "zh": r"**这些数字怎么算：** 奖励是验证器给出的 1 或 0（开启时再加上 DAPO 的超长惩罚）；"
        r"pass@1 是训练样本中答对的比例。与冻结初始模型之间的 KL 用 k3 估计器 "
        r"$\frac{\pi_{ref}}{\pi_\theta} - \log\frac{\pi_{ref}}{\pi_\theta} - 1$，按 token 取平均。"
        r"熵是每个生成 token 的 $-\sum_v \pi_\theta(v)\log\pi_\theta(v)$。裁剪比例是被裁剪作用到的 token 所占的比例：硬裁剪下它们的梯度为零，CISPO 只是把权重截顶，GSPO 则整条回答一起裁剪。"
        r"一个组的 G 个奖励全部相同时，它的优势为零。pass@G 是至少有一条回答答对的组所占的比例；"
        r"每组不同正确答案数是一组 G 条回答里找到的不同正确答案的个数（用于有许多正确答案的任务）。",
    },
    "live.ratio_header": {"en": "Importance ratios at one step", "zh": "某一步的重要性比率分布"},
    "live.ratio_caption": {
        "en": "The ratio each algorithm actually uses (token ratio, or the sequence ratio broadcast to "
        "its tokens), over all updates of the step; the bins are log-spaced and values beyond "
        "$[e^{-0.5}, e^{0.5}]$ land in the end bins. The first update of a step is "
        "on-policy (r = 1).",
        "zh": "每个算法实际使用的比率（token 比率，或广播到各 token 的序列比率），统计这一步里的所有更新；"
        "分箱按对数均匀划分，超出 $[e^{-0.5}, e^{0.5}]$ 的值计入两端的箱子。每一步的第一次更新是同策略的（r = 1）。",
    },
    "live.ratio_formula": {"en": "Ratio", "zh": "比率"},
    "live.step_select": {"en": "Step", "zh": "步"},
    "live.share": {"en": "share of tokens", "zh": "token 占比"},
    "live.ratio_axis": {"en": "r = π<sub>θ</sub> / π<sub>old</sub>", "zh": "r = π<sub>θ</sub> / π<sub>old</sub>"},
    "live.tokens_header": {"en": "Where the gradient goes, token by token", "zh": "梯度落在哪里：逐 token 查看"},
    "live.tokens_when": {"en": "Weights at", "zh": "权重取自"},
    "live.tokens_weight_first": {
        "en": "the step's first update (ratio 1: pure token vs sequence weighting)",
        "zh": "本步第一次更新（比率为 1：单纯的 token 级与序列级加权）",
    },
    "live.tokens_weight": {
        "en": "after the step's updates (ratios moved: clipping shows)",
        "zh": "本步各次更新之后（比率已变：能看到裁剪）",
    },
    "live.tokens_caption": {
        "en": "One group (the G answers to one prompt) of each algorithm at the chosen step. Colour "
        "is the push each token's log-probability gets from a gradient-descent step on this batch, "
        "−∂loss/∂log π (autograd of the algorithm's own loss), either at the step's first, on-policy "
        "update or with the ratio the step's μ × mini-batch updates have reached: orange pushed up, "
        "purple pushed down, white no gradient (clipped: under GSPO a whole response at once). All heatmaps share "
        "one colour scale. At step 1 all algorithms start from the same samples, so their rows usually "
        "show the same group side by side (DAPO's dynamic sampling may pick another). Hover a token to "
        "read what the trust region did to it at that point: active, clipped, capped, gated or masked.",
        "zh": "在所选的步中，每个算法的一个组（同一提示词的 G 条回答）。颜色表示在这一批上做一次梯度下降时每个 token 的对数概率受到的推力 "
        "−∂loss/∂log π（对该算法自身损失求自动微分），可以取本步第一次（同策略的）更新，也可以取本步 μ × 小批次更新之后比率已变的状态："
        "橙色往上推，紫色往下压，白色没有梯度（被裁剪；GSPO 会整条回答一起被裁掉）。所有热力图使用同一个颜色刻度。"
        "第 1 步所有算法从同样的样本出发，通常展示的是同一个组，可以逐行对比（DAPO 的动态采样可能会选到别的组）。"
        "把鼠标移到 token 上，可以看到信任域在这一时刻对它做了什么：生效、被裁剪、被截顶、被门控或被屏蔽。",
    },
    "live.tokens_algos": {"en": "Show", "zh": "显示"},
    "live.prompt_line": {
        "en": "{title} — prompt `{prompt}`, {answer}",
        "zh": "{title} —— 提示词 `{prompt}`，{answer}",
    },
    "live.no_update": {
        "en": "{title} made no update at this step (every group had equal rewards).",
        "zh": "{title} 在这一步没有更新（所有组的奖励都相同）。",
    },
    "live.row_label": {"en": "#{i} {mark} A={adv}", "zh": "#{i} {mark} A={adv}"},
    "live.masked": {"en": "masked", "zh": "被屏蔽"},
    # what the trust region did to a token (rlviz.core.objectives.TOKEN_STATES): the token heatmap's hover
    "live.state.active": {"en": "active: full gradient", "zh": "生效：完整梯度"},
    "live.state.clipped": {"en": "clipped: zero gradient", "zh": "被裁剪：梯度为零"},
    "live.state.capped": {"en": "capped: bounded gradient, not zero", "zh": "被截顶：梯度有界但不为零"},
    "live.state.gated": {"en": "gated: scaled down by the soft gate", "zh": "被门控：软门控把梯度缩小"},
    "live.state.masked": {"en": "masked: out of the loss", "zh": "被屏蔽：不进入损失"},
    "live.summary_header": {"en": "Final table", "zh": "结果汇总"},
    "live.summary_caption": {
        "en": "Held-out pass@1 on {n} fixed prompts the model never trains on, before and after (— until "
        "an algorithm finishes its steps). Train pass@1 and length: means over the last {tail} steps; clip: "
        "the mean over all steps; entropy and KL: the last step.",
        "zh": "留出集 pass@1 在 {n} 个训练中从未见过的固定提示词上测量（训练前后各一次；算法跑完全部步数之前显示 —）。"
        "训练 pass@1 和长度：最后 {tail} 步的平均；裁剪：所有步的平均；熵和 KL：最后一步的值。",
    },
    "live.summary_caption_no_heldout": {
        "en": "Held-out pass@1 was not measured in this run (held-out samples per prompt: 0), so its columns "
        "read —. Train pass@1 and length: means over the last {tail} steps; clip: the mean over all steps; "
        "entropy and KL: the last step.",
        "zh": "本次运行没有测量留出集 pass@1（留出集每个提示词的采样数为 0），所以这两列显示 —。"
        "训练 pass@1 和长度：最后 {tail} 步的平均；裁剪：所有步的平均；熵和 KL：最后一步的值。",
    },
    "live.download_csv": {"en": "Download metrics (CSV)", "zh": "下载指标（CSV）"},
    "live.download_json": {"en": "Download everything (JSON)", "zh": "下载全部结果（JSON）"},
    "sum.algorithm": {"en": "algorithm", "zh": "算法"},
    "sum.algorithm_help": {
        "en": "The objective this copy of the model trained with.",
        "zh": "这份模型副本所用的目标函数。",
    },
    "sum.heldout": {"en": "held-out pass@1", "zh": "留出集 pass@1"},
    "sum.heldout_help": {
        "en": "Pass@1 on {n} fixed prompts never trained on: before training → after this algorithm's last step "
        "(— until measured, or when held-out samples per prompt is 0).",
        "zh": "在 {n} 个从未训练过的固定提示词上的 pass@1：训练前 → 该算法最后一步之后（测量之前，或留出集每个提示词的采样数为 0 时显示 —）。",
    },
    "sum.heldout_gain": {"en": "gain", "zh": "提升"},
    "sum.heldout_gain_help": {"en": "Held-out pass@1 after minus before.", "zh": "留出集 pass@1 训练后减训练前。"},
    "sum.train_pass_at_1_last5": {"en": "train pass@1", "zh": "训练 pass@1"},
    "sum.train_pass_at_1_last5_help": {
        "en": "Share of correct training samples, mean of the last 5 steps.",
        "zh": "训练样本答对的比例，最后 5 步的平均。",
    },
    "sum.response_length_last5": {"en": "length", "zh": "长度"},
    "sum.response_length_last5_help": {
        "en": "Mean response length in tokens (EOS included), mean of the last 5 steps.",
        "zh": "回答的平均长度（token 数，含 EOS），最后 5 步的平均。",
    },
    "sum.clip_fraction_mean": {"en": "clip", "zh": "裁剪"},
    "sum.clip_fraction_mean_help": {
        "en": "Share of tokens the clip acted on, mean over all steps.",
        "zh": "被裁剪作用到的 token 占比，所有步的平均。",
    },
    "sum.entropy_last": {"en": "entropy", "zh": "熵"},
    "sum.entropy_last_help": {
        "en": "Policy entropy in nats per token at the last step.",
        "zh": "最后一步时策略的熵（nats / token）。",
    },
    "sum.kl_ref_last": {"en": "KL", "zh": "KL"},
    "sum.kl_ref_last_help": {
        "en": "KL to the frozen starting model (k3) at the last step.",
        "zh": "最后一步时与冻结的初始模型之间的 KL（k3）。",
    },
    "sum.rollouts_total": {"en": "responses", "zh": "回答数"},
    "sum.rollouts_total_help": {
        "en": "Responses sampled in all (dynamic sampling samples more than it trains on).",
        "zh": "一共采样的回答数（动态采样采的比训练用的多）。",
    },
    "sum.seconds_total": {"en": "seconds", "zh": "秒"},
    "sum.seconds_total_help": {"en": "Training time in all.", "zh": "训练总耗时。"},
    # ---------------------------------------------------------------- unusual settings (rlviz.core.advice)
    "advice.sequence_ratio_token_mean": {
        "en": "**{title} with token-mean aggregation is unusual.** It runs, but its ratio is one number per response, "
        "so token-mean gives a long response more weight in proportion to its length; the paper averages per "
        "response ({paper_mode}).",
        "zh": "**{title} 搭配 token-mean 聚合并不常见。** 它可以运行，但它的比率是每条回答一个数，所以 token-mean 会让长回答按长度"
        "获得更大的权重；论文按回答取平均（{paper_mode}）。",
    },
    "advice.k1_in_loss": {
        "en": "**{title}: k1 as a KL loss (β = {beta}) is unusual.** Its expected gradient on-policy is zero, so it "
        "barely pulls the policy towards the reference; DeepSeekMath puts k3 in the loss, and k1 belongs in the "
        "reward (KL in the reward, verl use_kl_in_reward).",
        "zh": "**{title}：把 k1 作为 KL 损失（β = {beta}）并不常见。** 它在同策略时的期望梯度为零，几乎不会把策略拉向参考策略；"
        "DeepSeekMath 在损失里用 k3，k1 应该放进奖励（把 KL 放进奖励，verl 的 use_kl_in_reward）。",
    },
    "advice.overlong_both": {
        "en": "**{title}: soft overlong punishment together with overlong filtering is unusual.** DAPO presents them as "
        "two alternatives. With both, the truncated responses leave the loss, so the punishment acts only on the "
        "finished responses inside the buffer.",
        "zh": "**{title}：软超长惩罚和超长过滤同时打开并不常见。** DAPO 把它们作为两种可选做法。两者同时打开时，被截断的回答已经"
        "离开了损失，惩罚只作用于缓冲区内已正常结束的回答。",
    },
    # ---------------------------------------------------------------- metric names (plots)
    "metric.reward_mean": {"en": "mean reward", "zh": "平均奖励"},
    "metric.pass_at_1": {"en": "pass@1 (training samples)", "zh": "pass@1（训练样本）"},
    # short: a panel title shares a row with two others (about 27 characters fit each at 1024 px)
    "metric.pass_at_group": {"en": "pass@G (solved groups)", "zh": "pass@G（有答对的组）"},
    "metric.distinct_right": {"en": "distinct right per group", "zh": "每组不同正确答案数"},
    "metric.response_length_mean": {"en": "mean response length", "zh": "平均回答长度"},
    "metric.response_length_max": {"en": "longest response", "zh": "最长回答长度"},
    "metric.response_length_right": {"en": "mean length of right responses", "zh": "答对回答的平均长度"},
    "metric.response_length_wrong": {"en": "mean length of wrong responses", "zh": "答错回答的平均长度"},
    "metric.seq_log_ratio_var": {
        "en": "variance of Σ log r per response (unnormalised)",
        "zh": "每条回答 Σ log r 的方差（未按长度归一）",
    },
    "metric.seq_log_ratio_mean_var": {
        "en": "variance of log s = (1/|y|) Σ log r (GSPO's ratio)",
        "zh": "log s = (1/|y|) Σ log r 的方差（GSPO 的比率）",
    },
    "metric.log_ratio_length_corr": {
        "en": "correlation of length with |Σ log r|",
        "zh": "回答长度与 |Σ log r| 的相关系数",
    },
    "metric.overlong_fraction": {"en": "share of overlong responses", "zh": "超长回答占比"},
    "metric.group_reward_std": {"en": "group reward std", "zh": "组内奖励标准差"},
    "metric.zero_adv_group_fraction": {"en": "share of zero-advantage groups", "zh": "零优势组占比"},
    "metric.entropy": {"en": "entropy (nats / token)", "zh": "熵（nats / token）"},
    "metric.entropy_sampled": {
        "en": "−log π_old of the sampled tokens (nats / token)",
        "zh": "采样 token 的 −log π_old（nats / token）",
    },
    "metric.entropy_coef": {"en": "entropy coefficient α", "zh": "熵系数 α"},
    "metric.entropy_bonus_active": {"en": "entropy bonus on (1 = yes)", "zh": "熵奖励是否生效（1 = 是）"},
    "metric.kl_ref": {"en": "KL to reference", "zh": "与参考策略的 KL"},
    "metric.rollout_kl": {"en": "KL sampler ‖ trainer", "zh": "采样端 ‖ 训练端 KL"},
    "metric.correction_weight_mean": {"en": "mean correction weight", "zh": "修正权重均值"},
    "metric.correction_masked_fraction": {
        "en": "share of tokens the correction drops",
        "zh": "被修正丢弃的 token 占比",
    },
    "metric.ratio_mean": {"en": "mean ratio r", "zh": "比率 r 的均值"},
    "metric.ratio_min": {"en": "smallest ratio r", "zh": "比率 r 的最小值"},
    "metric.ratio_max": {"en": "largest ratio r", "zh": "比率 r 的最大值"},
    "metric.clip_fraction": {"en": "clip fraction", "zh": "裁剪比例"},
    "metric.clip_fraction_low": {"en": "clip fraction (low side, A<0)", "zh": "裁剪比例（下界，A<0）"},
    "metric.clip_fraction_high": {"en": "clip fraction (high side, A>0)", "zh": "裁剪比例（上界，A>0）"},
    "metric.gate_weight_mean": {"en": "mean soft-gate weight", "zh": "软门控权重均值"},
    "metric.grad_token_fraction": {"en": "share of tokens with gradient", "zh": "有梯度的 token 占比"},
    "metric.grad_norm": {"en": "gradient norm", "zh": "梯度范数"},
    "metric.seconds": {"en": "seconds per step", "zh": "每步耗时（秒）"},
    "metric.rollouts": {"en": "responses sampled", "zh": "采样的回答数"},
    "metric.kept_groups": {"en": "groups kept", "zh": "保留的组数"},
    "metric.loss": {"en": "loss", "zh": "损失"},
    "metric.value_loss": {"en": "critic loss (PPO)", "zh": "评论家损失（PPO）"},
}
