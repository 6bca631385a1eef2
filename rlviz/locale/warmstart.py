"""Strings of the "Why SFT before RL?" page (keys ``warmstart.*``, plus its ``nav``, ``home`` and ``path``
entries), English and 简体中文.

Merged into :data:`rlviz.i18n.STRINGS`; the same completeness rules apply (tests/test_i18n.py).
"""

STRINGS: dict[str, dict[str, str]] = {
    "nav.warmstart": {"en": "Why SFT before RL?", "zh": "为什么先 SFT 再 RL？"},
    "path.warmstart": {
        "en": "Why RL starts from a supervised warm start: from a model that almost never answers right, nearly "
        "every group is all wrong and teaches nothing.",
        "zh": "为什么 RL 要从监督预热（SFT）之后的模型开始：模型几乎从不答对时，几乎每一组都是全错，什么也学不到。",
    },
    "home.warmstart_claims": {
        "en": "- What a group of G answers looks like from a weak checkpoint and from the supervised warm start: "
        "the shares all wrong, mixed and all right, measured at every G.\n"
        "- The same GRPO run from both starts, side by side: the share of zero-advantage groups, pass@1, pass@G "
        "and the gradient norm, step by step.\n"
        "- Why RL needs the model to answer right sometimes before it can learn anything, and what a larger G "
        "does about it.",
        "zh": "- 从一个很弱的检查点和从监督预热后的模型各采 G 条回答：每个 G 下全错、有对有错、全对的组各占多少，实测。\n"
        "- 同一个 GRPO 训练分别从两个起点出发，并排对比：零优势组占比、pass@1、pass@G 和梯度范数，逐步画出。\n"
        "- 为什么模型必须先偶尔答对，RL 才能学到东西，以及增大 G 能起多大作用。",
    },
    "warmstart.title": {"en": "Why SFT before RL?", "zh": "为什么先 SFT 再做 RL？"},
    "warmstart.lede": {
        "en": "RL learns only from groups whose answers differ. Sample G answers per prompt from a model after "
        "{weak} supervised steps and from the shipped warm start after {warm}: how many groups could teach "
        "anything? Then run the same GRPO from both.",
        "zh": "RL 只从有对有错的组里学。{weak} 步 SFT 的弱模型和 {warm} 步的预热模型各答 G 次：几组能教模型？"
        "再用 GRPO 训练两者。",
    },
    # ------------------------------------------------------------------ 1. before any run
    "warmstart.start.warm": {
        "en": "warm start, {steps} SFT steps<br>pass@1 {p}",
        "zh": "预热模型，{steps} 步 SFT<br>pass@1 {p}",
    },
    "warmstart.start.weak": {
        "en": "weak start, {steps} SFT steps<br>pass@1 {p}",
        "zh": "弱起点，{steps} 步 SFT<br>pass@1 {p}",
    },
    "warmstart.outcome.all_wrong": {"en": "all wrong", "zh": "全错"},
    "warmstart.outcome.mixed": {"en": "mixed: a signal", "zh": "有对有错：有信号"},
    "warmstart.outcome.all_correct": {"en": "all right", "zh": "全对"},
    "warmstart.group_axis": {"en": "group size G", "zh": "组大小 G"},
    "warmstart.share_axis": {"en": "share of groups", "zh": "组的占比"},
    "warmstart.groups": {"en": "groups", "zh": "组"},
    "warmstart.hidden": {
        "en": "your guess first: the question below",
        "zh": "先猜一猜：见下方的问题",
    },
    "warmstart.group_size": {"en": "Group size G", "zh": "组大小 G"},
    "warmstart.group_size_help": {
        "en": "The group size the sentences under the figure read (its bar is drawn full). Answers per prompt "
        "(TRL num_generations; verl rollout.n).",
        "zh": "图下文字读取的组大小（图中这一根柱子画成实色）。即每个提示词采样的回答数（TRL：num_generations；verl：rollout.n）。",
    },
    "warmstart.measure_popover": {"en": "Measurement", "zh": "测量设置"},
    "warmstart.n_prompts": {"en": "Prompts n", "zh": "提示词数 n"},
    "warmstart.n_prompts_help": {
        "en": "Train prompts; each start answers each of them {S} times, with the same random draws.",
        "zh": "训练集提示词的个数；两个起点对每个提示词都回答 {S} 次，用的是同一串随机数。",
    },
    "warmstart.temperature": {"en": "Sampling temperature", "zh": "采样温度"},
    "warmstart.temperature_help": {
        "en": "A lower temperature makes the answers less diverse: groups agree more often, all wrong or all right.",
        "zh": "温度越低，回答越单一：组内结果越容易一致，全错或全对。",
    },
    "warmstart.measure_note": {
        "en": "Each prompt's {S} answers are split into groups of G, so every bar counts real groups.",
        "zh": "每个提示词的 {S} 条回答按 G 条一组切开，所以每根柱子统计的都是真实的组。",
    },
    "warmstart.measuring": {
        "en": "Sampling {n} {n:plural:prompt|prompts} × {S} answers from each start…",
        "zh": "正在从两个起点各采样 {n} 个提示词 × {S} 条回答……",
    },
    "warmstart.measured_warm": {
        "en": "At G = {G} ({n} train {n:plural:prompt|prompts}, {S} answers each, split into groups of G), from the "
        "warm start {wrong} of the groups are all wrong, {mixed} mixed and {right} all right (pass@1 {p}).",
        "zh": "G = {G} 时（{n} 个训练提示词，每个 {S} 条回答，按 G 条一组切开），预热模型的组中 {wrong} 全错、"
        "{mixed} 有对有错、{right} 全对（pass@1 {p}）。",
    },
    "warmstart.measured_weak": {
        "en": " From the weak start: {wrong} all wrong, {mixed} mixed, {right} all right (pass@1 {p}).",
        "zh": "弱起点：{wrong} 全错，{mixed} 有对有错，{right} 全对（pass@1 {p}）。",
    },
    "warmstart.measured_grow": {
        "en": " A larger G rescues some of the weak start's groups: its mixed share goes from {mixed_small} at "
        "G = {small} to {mixed_large} at G = {large}, that is {cost_small} and {cost_large} answers per group "
        "with a signal.",
        "zh": "增大 G 能挽回弱起点的一部分组：它有对有错的组从 G = {small} 时的 {mixed_small} 升到 G = {large} 时的 "
        "{mixed_large}，也就是每得到一个有信号的组，要分别花 {cost_small} 和 {cost_large} 条回答。",
    },
    "warmstart.intro": {
        "en": "GRPO scores each answer against the others of its group: A_i = (r_i − mean(r)) / std(r). When all G "
        "answers to a prompt are wrong, every A_i is exactly 0 and the group adds nothing to the policy gradient; "
        "only the KL term, if any, still acts. A model that almost never answers right therefore gives RL almost "
        "nothing to learn from: the reward is flat at zero, and not for lack of steps. RL can only make more "
        "likely what the model already samples sometimes.",
        "zh": "GRPO 把每条回答和同组的其他回答比较：A_i = (r_i − mean(r)) / std(r)。一个提示词的 G 条回答全错时，"
        "每个 A_i 都恰好为 0，这一组对策略梯度毫无贡献，只剩 KL 项（如果有）还在起作用。所以一个几乎从不答对的模型，"
        "几乎不给 RL 任何可学的东西：奖励一直贴着零，并不是步数不够。RL 只能让模型已经偶尔采到的东西变得更可能。",
    },
    "warmstart.signal_text": {
        "en": "A prompt the model solves with probability p gives a mixed group with chance 1 − p^G − (1 − p)^G, "
        "about G·p while G·p is small: a larger G rescues some groups, but every answer still costs a sample, so "
        "each group with a signal costs about 1/p answers. Supervised fine-tuning (SFT) raises p itself: it "
        "imitates right answers until the model produces them often enough for RL to be rewarded for them.",
        "zh": "对一个模型以概率 p 答对的提示词，一组有对有错的概率是 1 − p^G − (1 − p)^G，在 G·p 很小时约等于 G·p："
        "增大 G 能挽回一部分组，但每条回答都要花一次采样，所以每得到一个有信号的组大约要花 1/p 条回答。"
        "监督微调（SFT）提高的是 p 本身：它模仿正确答案，直到模型自己能足够频繁地答对，RL 才能因此得到奖励。",
    },
    "warmstart.why_rl": {
        "en": "**And why RL after SFT?** SFT imitates fixed targets, noisy ones included (this task's warm start "
        "was trained on partly wrong answers); RL learns from the model's own samples, near what it can already "
        "do, and is paid by the verifier, not by the targets. The live run shows both halves: from the weak "
        "start RL barely moves; from the warm start the same settings raise pass@1.",
        "zh": "**那为什么 SFT 之后还要 RL？** SFT 模仿的是固定的目标答案，其中也有错的（这个任务的预热模型就是在部分错误的"
        "答案上训练的）；RL 从模型自己的采样中学习，贴近它当前的能力，奖励来自验证器而不是目标答案。下面的实时训练展示了"
        "两面：从弱起点出发，RL 几乎不动；从预热模型出发，同样的设置能提高 pass@1。",
    },
    "warmstart.symptoms": {
        "en": "**Reading the symptom.** Reward flat at zero from the first step, the share of zero-advantage "
        "groups near 1 and a gradient norm near zero: the model is too weak for the prompts. More RL steps, a "
        "higher learning rate or dynamic sampling (it can only keep the rare mixed groups, at about G/q answers "
        "each) do not fix it; a supervised warm start, easier prompts first, or a larger G do.",
        "zh": "**如何解读这种症状。** 从第一步起奖励就贴着零、零优势组占比接近 1、梯度范数接近零：模型对这些提示词来说太弱了。"
        "多跑几步 RL、调高学习率、或者用动态采样（它只能留下少见的有对有错的组，每组约花 G/q 条回答）都解决不了；"
        "监督预热、先用更容易的提示词、或者增大 G 才有用。",
    },
    # ------------------------------------------------------------------ predictions
    "warmstart.q_zero.q": {
        "en": "Before you look: from the weak start, what share of its groups of G = {G} will have all rewards equal, "
        "so that every advantage in them is 0? ({n} train {n:plural:prompt|prompts}, {S} answers each.)",
        "zh": "先别看图：从弱起点出发，G = {G} 的组中有多大比例奖励全都相同、因而组内每个优势都是 0？"
        "（{n} 个训练提示词，每个 {S} 条回答。）",
    },
    "warmstart.q_zero.why": {
        "en": "A share of {answer} of the weak start's groups of {G} have equal rewards, against {warm} from the warm "
        "start. Its pass@1 on these prompts is {p_weak} (the warm start's: {p_warm}); if every prompt had that pass "
        "rate, p^G + (1 − p)^G = {uniform} of the groups would be all-equal. Almost all of them are all wrong: "
        "GRPO's advantage is 0 in every one, so an update has nothing to follow but the KL term.",
        "zh": "弱起点 G = {G} 的组中有 {answer} 的比例奖励全相同，预热模型只有 {warm}。弱起点在这些提示词上的 pass@1 是 "
        "{p_weak}（预热模型是 {p_warm}）；如果每个提示词的通过率都是这个 p，全相同的组的比例是 p^G + (1 − p)^G = {uniform}。"
        "这些组几乎都是全错：GRPO 在每一组里的优势都是 0，所以一次更新除了 KL 项之外没有可跟随的方向。",
    },
    "warmstart.q_zero.where": {
        "en": "In the figure: the weak start's bar at G = {G}, its pale parts.",
        "zh": "见图：弱起点 G = {G} 那根柱子的浅色部分。",
    },
    "warmstart.q_live_zero.q": {
        "en": "Before you run: over the {steps} {steps:plural:step|steps} ({n} {n:plural:prompt|prompts} × G = {G} "
        "per step), what share of the weak arm's groups will have zero advantage, on average?",
        "zh": "训练之前先猜：在 {steps} 步中（每步 {n} 个提示词 × G = {G}），弱起点这一支平均有多大比例的组优势为零？",
    },
    "warmstart.q_live_zero.why": {
        "en": "{answer} on average (the warm arm: {warm}). Every answer in such a group gets advantage 0, so the weak "
        "arm's updates had little to follow but the KL term: its mean gradient norm was {grad_weak}, against "
        "{grad_warm} for the warm arm.",
        "zh": "平均为 {answer}（预热那一支：{warm}）。这样的组里每条回答的优势都是 0，所以弱起点的更新除了 KL 项几乎没有可跟随的"
        "方向：它的平均梯度范数是 {grad_weak}，预热那一支是 {grad_warm}。",
    },
    "warmstart.q_live_zero.where": {
        "en": "In the run's figure: the top-left panel, the dashed line.",
        "zh": "见训练曲线图：左上面板中的虚线。",
    },
    "warmstart.q_gain.q": {
        "en": "Before you run: which start will gain more held-out pass@1 in {steps} {steps:plural:step|steps} "
        "(end minus start, measured on {n} {n:plural:sample|samples} each)?",
        "zh": "训练之前先猜：跑 {steps} 步后，哪个起点的留出集 pass@1 涨得更多（结束减开始，每次在 {n} 个样本上测量）？",
    },
    "warmstart.q_gain.why.apart": {
        "en": "{answer}: the warm arm went {start_warm} → {end_warm} ({gain_warm}), the weak arm {start_weak} → "
        "{end_weak} ({gain_weak}); the gap is more than two standard errors of the difference ({two_se}). RL "
        "makes more likely the answers a model already samples: the warm start samples right answers often "
        "enough to be rewarded for them, the weak start rarely does.",
        "zh": "{answer}：预热那一支从 {start_warm} 到 {end_warm}（{gain_warm}），弱起点从 {start_weak} 到 {end_weak}"
        "（{gain_weak}）；差距超过了两者之差的两个标准误（{two_se}）。RL 让模型已经会采到的答案变得更可能："
        "预热模型答对得足够频繁，能因此得到奖励；弱起点很少答对。",
    },
    "warmstart.q_gain.why.tied": {
        "en": "The two gains lie within two standard errors of each other ({two_se}): warm {start_warm} → "
        "{end_warm} ({gain_warm}), weak {start_weak} → {end_weak} ({gain_weak}). This run cannot tell {answer} "
        "apart, so each counts as right; more steps or more held-out samples separate them.",
        "zh": "两者的涨幅相差在两个标准误（{two_se}）之内：预热 {start_warm} → {end_warm}（{gain_warm}），"
        "弱起点 {start_weak} → {end_weak}（{gain_weak}）。这次运行分不出 {answer}，所以都算对；"
        "多跑几步或增加留出集采样数就能分开。",
    },
    "warmstart.q_gain.where": {
        "en": "In the table under the run: the column “held-out pass@1, start → end”.",
        "zh": "见训练下方的表格：“留出集 pass@1（开始 → 结束）”一列。",
    },
    # ------------------------------------------------------------------ 2. live
    "warmstart.live_header": {"en": "The same GRPO run from both starts", "zh": "同一个 GRPO 训练，两个起点"},
    "warmstart.live_lede": {
        "en": "Two copies of GRPO with the same settings, seed and prompts, one from each start: press Run and "
        "watch the share of zero-advantage groups, pass@1 and the gradient.",
        "zh": "两份 GRPO，设置、种子和提示词都相同，各从一个起点出发：点 **开始训练**，看零优势组占比、pass@1 和梯度的变化。",
    },
    "warmstart.live_text": {
        "en": "Both arms are GRPO with the same settings and seed, so step 1 draws the same prompts for both; each "
        "keeps its own start as the frozen reference of its KL term. Held-out pass@1 is measured before the "
        "first step (for each start) and after each arm's last step.",
        "zh": "两支都是 GRPO，设置和种子相同，所以第 1 步两边抽到的提示词一样；每一支都以自己的起点作为 KL 项的冻结参考模型。"
        "留出集 pass@1 在第一步之前（两个起点各测一次）和每支最后一步之后测量。",
    },
    "warmstart.live_caption": {
        "en": "Top left: the share of the step's groups whose rewards were all equal. Top right: training pass@1 "
        "(every answer sampled in the step). Bottom left: pass@G, the share of groups with at least one right "
        "answer, the groups that can carry a signal. Bottom right: the gradient norm before clipping. A step of "
        "all-wrong groups leaves only the KL term's gradient, and the weak arm's is not zero for all that: the "
        "first update's gradient is round-off between two forward passes, AdamW turns it into a step of about "
        "the learning rate per weight (it divides by the gradient's own size), and from then on the KL term "
        "pulls the policy back to its start. The weights move; nothing is learned.",
        "zh": "左上：这一步中奖励全相同的组所占比例。右上：训练 pass@1（这一步采样的所有回答）。左下：pass@G，"
        "至少有一条回答正确的组所占比例，也就是可能带来信号的组。右下：裁剪前的梯度范数。一步里全是全错的组时，只剩 KL "
        "项的梯度，但弱起点的梯度范数并不为零：第一次更新的梯度只是两次前向计算之间的舍入误差，AdamW 却会把它变成每个权重"
        "约一个学习率大小的一步（它除以梯度自身的大小），此后 KL 项再把策略往起点拉回。权重在动，却什么也没学到。",
    },
    "warmstart.arm_warm": {"en": "warm start ({steps} SFT steps)", "zh": "预热模型（{steps} 步 SFT）"},
    "warmstart.arm_weak": {"en": "weak start ({steps} SFT steps)", "zh": "弱起点（{steps} 步 SFT）"},
    "warmstart.steps": {"en": "Steps", "zh": "训练步数"},
    "warmstart.live_prompts": {"en": "Prompts per step n", "zh": "每步提示词数 n"},
    "warmstart.live_group_size": {"en": "Group size G", "zh": "组大小 G"},
    "warmstart.more_settings": {"en": "More settings", "zh": "更多设置"},
    "warmstart.lr": {"en": "Learning rate", "zh": "学习率"},
    "warmstart.live_temperature": {"en": "Sampling temperature", "zh": "采样温度"},
    "warmstart.heldout": {"en": "Held-out samples per prompt", "zh": "留出集每个提示词的采样数"},
    "warmstart.heldout_help": {
        "en": "Held-out pass@1 of each start before training and of each arm after its last step ({n} fixed "
        "prompts × this many samples); 0 skips it.",
        "zh": "训练前两个起点、以及每支最后一步之后的留出集 pass@1（{n} 个固定提示词 × 每个提示词这么多次采样）；0 表示跳过。",
    },
    "warmstart.run": {"en": "Run", "zh": "开始训练"},
    "warmstart.stop": {"en": "Stop", "zh": "停止"},
    "warmstart.continue": {"en": "Continue", "zh": "继续"},
    "warmstart.reset": {"en": "Reset", "zh": "清除结果"},
    "warmstart.no_run": {
        "en": "Press **Run**. The default run is 2 × {steps} steps of {n} prompts × {G} answers; the bars show how "
        "far it is, and **Stop** keeps what is done.",
        "zh": "点击 **开始训练**。默认设置是 2 × {steps} 步，每步 {n} 个提示词 × {G} 条回答；进度条显示进度，"
        "点 **停止** 会保留已完成的部分。",
    },
    "warmstart.progress": {"en": "{arm}: step {done} / {total}", "zh": "{arm}：第 {done} / {total} 步"},
    "warmstart.running": {"en": "Training… results are kept after every step.", "zh": "训练中……每一步的结果都会保存。"},
    "warmstart.stopped": {
        "en": "Stopped: both arms have done {done} of {total} {total:plural:step|steps}. **Continue** picks up where "
        "they stopped.",
        "zh": "已停止：两支都完成了 {done} / {total} 步。点 **继续** 可以从停下的地方接着训练。",
    },
    "warmstart.stopped_arms": {
        "en": "Stopped with the arms at different steps ({steps} of {total}). **Continue** first brings the arm "
        "behind up to the other.",
        "zh": "停止时两支的步数不同（{steps}，共 {total} 步）。点 **继续** 会先让落后的一支追上另一支。",
    },
    "warmstart.finished": {"en": "Finished {total} {total:plural:step|steps}.", "zh": "已完成 {total} 步。"},
    "warmstart.settings_changed": {
        "en": "The settings differ from the run shown: press **Reset**, then **Run**, to use them.",
        "zh": "当前设置与图中这次训练不同：先点 **清除结果**，再点 **开始训练**，新设置才会生效。",
    },
    "warmstart.empty_figure": {
        "en": "Press Run: the curves grow here, step by step",
        "zh": "点“开始训练”：曲线会在这里一步步画出来",
    },
    "warmstart.first_step": {
        "en": "Training: each step's points appear here as soon as it is done",
        "zh": "训练中：每一步算完，它的点就会出现在这里",
    },
    "warmstart.smoothed": {"en": "smoothed", "zh": "平滑后"},
    "warmstart.smooth_caption": {
        "en": "Lines: each arm's exponential moving average over about {span} steps (weight 2 / ({span} + 1) on the "
        "newest step); faded dots: each step's own value.",
        "zh": "线：每支约 {span} 步的指数移动平均（最新一步的权重为 2 / ({span} + 1)）；淡色的点：每一步自己的值。",
    },
    "warmstart.read_weak": {
        "en": "From the weak start, {zero} of the groups per step had zero advantage on average; training pass@1 went "
        "from {first} (mean of the first {k} {k:plural:step|steps}) to {last} (the last {k}) in {steps} "
        "{steps:plural:step|steps}, with a mean gradient norm of {grad}.",
        "zh": "从弱起点出发，平均每步有 {zero} 的组优势为零；{steps} 步中训练 pass@1 从 {first}（前 {k} 步的均值）"
        "变为 {last}（最后 {k} 步），平均梯度范数为 {grad}。",
    },
    "warmstart.read_warm": {
        "en": "From the warm start: {zero} of the groups with zero advantage, training pass@1 {first} → {last}, "
        "gradient norm {grad}.",
        "zh": "从预热模型出发：{zero} 的组优势为零，训练 pass@1 {first} → {last}，梯度范数 {grad}。",
    },
    "warmstart.read_heldout": {
        "en": "Held-out pass@1, start → end: weak {start_weak} → {end_weak}, warm {start_warm} → {end_warm}.",
        "zh": "留出集 pass@1（开始 → 结束）：弱起点 {start_weak} → {end_weak}，预热模型 {start_warm} → {end_warm}。",
    },
    "warmstart.col_arm": {"en": "start", "zh": "起点"},
    "warmstart.col_heldout": {"en": "held-out pass@1, start → end", "zh": "留出集 pass@1（开始 → 结束）"},
    "warmstart.col_pass_k": {
        "en": "held-out pass@k, k = samples per prompt, start → end",
        "zh": "留出集 pass@k（k = 每个提示词的采样数，开始 → 结束）",
    },
    "warmstart.col_train_last5": {
        "en": "training pass@1 (last {n} {n:plural:step|steps})",
        "zh": "训练 pass@1（最后 {n} 步）",
    },
    "warmstart.col_signal_mean": {"en": "mean groups with a signal per step", "zh": "平均每步有信号的组数"},
    "warmstart.col_kl": {"en": "KL to its start (last step)", "zh": "与自身起点的 KL（最后一步）"},
    "warmstart.col_steps": {"en": "steps", "zh": "步数"},
    "warmstart.summary_caption": {
        "en": "Held-out pass@1 and pass@k are measured on {n} fixed prompts never used in training, before the first "
        "step (each start) and after an arm's last step (— : not measured, or not yet).",
        "zh": "留出集 pass@1 和 pass@k 在 {n} 个从未用于训练的固定提示词上测量，分别在第一步之前（两个起点）和每支最后一步之后"
        "（—：未测量或尚未测量）。",
    },
    "warmstart.practitioners": {
        "en": "The order is the usual recipe: SFT (TRL `SFTTrainer`; verl `verl.trainer.fsdp_sft_trainer`), then RL "
        "from its checkpoint (TRL `GRPOTrainer(model=<the SFT output>)`; verl `actor_rollout_ref.model.path`), the "
        "same checkpoint as the frozen reference. What decides whether RL can start is the pass rate on the RL "
        "prompts, not the SFT label: DeepSeek-R1-Zero (arXiv 2501.12948) ran RL straight from a strong base "
        "model, which already solved some prompts; DeepSeek-R1 added a small cold-start SFT for readability "
        "and a faster start. Before a run, measure pass@G of the start on the RL prompts: prompts it never "
        "solves only cost rollouts.",
        "zh": "先后顺序就是常见的配方：先 SFT（TRL `SFTTrainer`；verl `verl.trainer.fsdp_sft_trainer`），再从它的检查点开始 RL"
        "（TRL `GRPOTrainer(model=<SFT 的输出>)`；verl `actor_rollout_ref.model.path`），并以同一个检查点作为冻结参考模型。"
        "决定 RL 能否起步的是模型在 RL 提示词上的通过率，而不是有没有做过 SFT：DeepSeek-R1-Zero（arXiv 2501.12948）"
        "直接从一个很强的基座模型开始 RL，它本来就能答对一部分提示词；DeepSeek-R1 再加上一小段冷启动 SFT，"
        "让输出更易读、起步更快。开跑之前，先在 RL 提示词上测一下起点的 pass@G：它从来答不对的提示词只会白白消耗 rollout。",
    },
}
