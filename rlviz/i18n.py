"""Every user-visible string of the app, in English and 简体中文.

``t(key, lang, **fmt)`` looks a string up and formats it with ``str.format`` when ``fmt`` is given.
A missing key or an unknown language raises: the table must be complete, and the tests check that
every key has a non-empty text in both languages. Algorithm names, paper titles and one-line
summaries are not here: they come from the algorithm registry (``rlviz.core.objectives``).
"""

from __future__ import annotations

__all__ = ["DEFAULT_LANG", "LANGS", "STRINGS", "t"]

# language code -> the language's own name (shown in the switch)
LANGS: dict[str, str] = {"en": "English", "zh": "中文"}
DEFAULT_LANG = "en"

STRINGS: dict[str, dict[str, str]] = {
    # ---------------------------------------------------------------- app shell, sidebar
    "app.title": {
        "en": "rlviz · policy optimisation for LLM RL",
        "zh": "rlviz · 大模型强化学习中的策略优化",
    },
    "nav.home": {"en": "Home", "zh": "首页"},
    "nav.live": {"en": "Live policy update", "zh": "实时策略更新"},
    "nav.curves": {"en": "Objective & gradient vs ratio", "zh": "目标与梯度随比率变化"},
    "nav.weighting": {"en": "Token vs sequence weighting", "zh": "token 级与序列级加权"},
    "nav.length": {"en": "Length penalties", "zh": "长度惩罚"},
    "nav.sampling": {"en": "Dynamic sampling", "zh": "动态采样"},
    "side.image_format": {"en": "Chart download format", "zh": "图表下载格式"},
    "side.image_format_help": {
        "en": "What the camera button in each chart's toolbar saves: SVG (vector, for slides and papers) or PNG.",
        "zh": "每张图工具栏里相机按钮保存的格式：SVG（矢量，适合幻灯片和论文）或 PNG。",
    },
    "common.bad_input": {"en": "Please check the settings: {error}", "zh": "请检查设置：{error}"},
    "common.bad_field": {
        "en": "Please check **{field}**. Details: {error}",
        "zh": "请检查“**{field}**”。详细信息：{error}",
    },
    "common.download_csv": {"en": "Download the numbers (CSV)", "zh": "下载数据（CSV）"},
    "side.language": {"en": "Language / 语言", "zh": "语言 / Language"},
    "side.seed": {"en": "Seed", "zh": "随机种子"},
    "side.seed_help": {
        "en": "Fixes sampling and initialisation: the same seed and settings give the same run.",
        "zh": "固定采样和初始化：种子和设置相同，结果就相同。",
    },
    "side.device": {"en": "Device", "zh": "计算设备"},
    "side.device_help": {
        "en": "Where the model runs. “auto” takes a GPU when there is one (cuda, then mps), else the CPU.",
        "zh": "模型在哪里运行。“auto” 会优先使用 GPU（先 cuda 后 mps），没有 GPU 时使用 CPU。",
    },
    "side.device_auto": {"en": "auto → {best}", "zh": "自动 → {best}"},
    "side.model": {"en": "Model: {model}", "zh": "模型：{model}"},
    "side.model_tiny": {"en": "the shipped tiny LM", "zh": "自带的微型语言模型"},
    "side.model_help": {
        "en": "The model is chosen when the server starts (RLVIZ_MODEL_DIR=/path make run, or "
        "streamlit run app.py -- --model-dir /path), never typed in the browser.",
        "zh": "模型在启动服务时指定（RLVIZ_MODEL_DIR=/path make run，或 "
        "streamlit run app.py -- --model-dir /path），不能在浏览器里输入路径。",
    },
    "side.server_device_bad": {
        "en": "The server was started with device {value!r}, which is not available here: {error}. "
        "Using “auto” instead.",
        "zh": "服务启动时指定的设备 {value!r} 在这台机器上不可用：{error}。已改用 “auto”。",
    },
    # ---------------------------------------------------------------- shared words
    "word.step": {"en": "step", "zh": "步数"},
    "word.position": {"en": "position in response", "zh": "回答中的位置"},
    "word.token": {"en": "token", "zh": "token"},
    "word.advantage": {"en": "advantage A", "zh": "优势 A"},
    "word.grad_weight": {"en": "gradient weight −∂loss/∂log π", "zh": "梯度权重 −∂loss/∂log π"},
    "word.tokens": {"en": "tokens", "zh": "token 数"},
    "word.algorithm": {"en": "algorithm", "zh": "算法"},
    "word.none": {"en": "none", "zh": "无"},
    # ---------------------------------------------------------------- home page
    "home.title": {
        "en": "Policy optimisation for LLM post-training, hands-on",
        "zh": "动手理解大模型后训练中的策略优化",
    },
    "home.intro": {
        "en": "After supervised fine-tuning, a language model can keep improving from its own "
        "samples: generate several answers per prompt, score them with a verifier, and push up "
        "the tokens of the better answers. The nine objectives below differ only in *how* they "
        "turn those scores into a gradient: what ratio they use, where they clip, how they "
        "average over tokens, and which groups they learn from. Every number in this app is "
        "computed live by the same code that trains a small real language model.",
        "zh": "监督微调之后，语言模型还可以从自己的采样中继续进步：每个问题生成几条回答，用验证器打分，"
        "再把较好回答里的 token 概率往上推。下面九个目标函数的区别只在于*怎样*把这些分数变成梯度："
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
    "home.algos_header": {"en": "The nine objectives", "zh": "九个目标函数"},
    "home.paper": {
        "en": "Paper: {paper} — [arXiv:{arxiv}](https://arxiv.org/abs/{arxiv}) ({where})",
        "zh": "论文：{paper} — [arXiv:{arxiv}](https://arxiv.org/abs/{arxiv})（{where}）",
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
        "the reward falls to zero (to −1 under DAPO's overlong penalty), answers turn into noise that often runs to the length limit.",
        "zh": "- 在同一批问题上并排训练几个算法，逐步观察奖励、pass@1、回答长度、熵、KL 和裁剪比例，并比较训练前后的留出集 pass@1。\n"
        "- 全对或全错的组优势为零：白白花了算力却什么也学不到（见“零优势组占比”）。\n"
        "- GSPO 按整条序列裁剪，裁剪比例大得多，却照样能学。\n"
        "- SAPO 的软门控从不把 token 完全截断；CISPO 对信任域之外的 token 仍保留有界的梯度。\n"
        "- 逐 token 视图显示每个目标函数怎样把梯度分配到一组回答上：GRPO 逐个 token 不同，GSPO 每条回答一个权重。\n"
        "- 把学习率调大直到策略崩溃，再看症状：KL 飙升，奖励跌到零（DAPO 因超长惩罚会跌到 −1），回答变成乱码，常常写到长度上限。",
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
        "- 双重裁剪、CISPO 的截断权重（梯度永不为零）、SAPO 的软门控（τ_pos 与 τ_neg）、GMPO 的对数空间裁剪和 GSPO "
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
        "- 少数偏离策略的 token：GRPO 只截断这几个 token，GSPO 把整条回答裁掉，SAPO 只衰减离群的 token；"
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
        "- 在真实采样上拖动 L_max 和 L_cache，观察平均奖励、组内优势和被屏蔽样本占比如何变化。",
    },
    "home.sampling_claims": {
        "en": "- A group carries a signal with chance 1 − p^G − (1−p)^G; all-right and all-wrong groups have zero "
        "advantage and teach nothing.\n"
        "- What filling a batch with informative groups costs in rollouts, and what a cap on re-sampling rounds "
        "does; measured pass rates of the tiny LM.\n"
        "- A live GRPO vs GRPO + dynamic sampling run: effective batch size, rollouts spent, reward.",
        "zh": "- 一组回答带有学习信号的概率是 1 − p^G − (1−p)^G；全对和全错的组优势为零，什么也学不到。\n"
        "- 用有信号的组填满一个批次要多花多少次采样，限制补采轮数会怎样；以及微型模型实测的通过率分布。\n"
        "- 实时对比 GRPO 与 GRPO + 动态采样：有效批大小、花掉的采样数和奖励。",
    },
    "home.open_live": {"en": "Open the live policy update", "zh": "打开实时策略更新"},
    "home.settings": {"en": "Settings and where their defaults come from", "zh": "参数设置及默认值出处"},
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
    # ---------------------------------------------------------------- live page
    "live.title": {"en": "Live policy update", "zh": "实时策略更新"},
    "live.intro": {
        "en": "Each chosen algorithm gets its own copy of the same tiny language model and trains "
        "it for real, step by step: sample G answers for each prompt, score them with the "
        "verifier, compute advantages, and update with the algorithm's own loss. All copies start "
        "from the same weights and the same seed, so step 1 sees the same prompts and the same "
        "answers; after that each follows its own policy.",
        "zh": "每个选中的算法各拿一份同样的微型语言模型，真刀真枪地一步步训练：每个问题采样 G 条回答，"
        "用验证器打分，计算优势，再用该算法自己的损失更新参数。所有副本从相同的权重和相同的种子出发，"
        "所以第 1 步看到的是同样的问题和同样的回答；之后各自沿着自己的策略走下去。",
    },
    "live.tips": {
        "en": "**Things to try.** Raise the learning rate to 1e-2 and watch the policy collapse within a "
        "few steps: KL to the reference jumps, the reward falls to zero (to −1 under DAPO's overlong "
        "penalty, and DAPO, finding no mixed group, stops updating) and the answers turn into "
        "noise whose length swings, often up to the limit. Set μ and the mini-batches (under *More settings*) to 1: every update is then fully "
        "on-policy: the ratio the update sees stays at 1 and nothing is clipped (the per-token view, "
        "computed after the update, already shows the moved ratio the next update would start from). Compare GSPO's clip fraction with "
        "GRPO's, and watch the share of zero-advantage groups: those groups teach nothing. One notch "
        "up, at learning rate 2e-4, SAPO drifts away (KL 0.7-0.8, held-out pass@1 falls) while the "
        "hard-clipped GRPO and DAPO still gain: its gate, tuned for tiny LLM-scale ratio moves, barely "
        "damps the larger moves of this small model, above all on tokens pushed down (A < 0).",
        "zh": "**可以试试：** 把学习率调到 1e-2，几步之内就能看到策略崩溃：与参考模型的 KL 飙升，"
        "奖励跌到零（DAPO 因超长惩罚跌到 −1，且找不到有信号的组而停止更新），回答变成乱码，长度忽长忽短，常常写到长度上限。把 μ 和小批次数（在“更多设置”里）都设为 1：每次更新都完全在策略上，"
        "更新时看到的比率始终为 1，也就不会有任何裁剪（逐 token 视图是在更新之后算的，显示的是下一次更新的起点，比率已经变了）。比较 GSPO 和 GRPO 的裁剪比例，再留意零优势组的占比：这些组什么也学不到。"
        "把学习率只调高一档到 2e-4：SAPO 会越走越远（KL 达到 0.7–0.8，留出集 pass@1 下降），而带硬裁剪的 GRPO 和 DAPO 仍在进步——"
        "它的门控是为大模型上极小的比率变化调的，对这个小模型较大的变化几乎不起抑制作用，被压低的 token（A < 0）尤其如此。",
    },
    "live.settings": {"en": "Run settings", "zh": "训练设置"},
    "live.algorithms": {"en": "Algorithms", "zh": "算法"},
    "live.algorithms_help": {
        "en": "Each one trains its own copy of the model; every extra algorithm adds time.",
        "zh": "每个算法训练自己的一份模型副本；多选一个算法就多一份耗时。",
    },
    "live.steps": {"en": "Steps", "zh": "训练步数"},
    "live.prompts": {"en": "Prompts per step", "zh": "每步问题数"},
    "live.prompts_help": {
        "en": "Groups per step, n (TRL: batch size / G; verl: data.train_batch_size).",
        "zh": "每步的组数 n（TRL：batch size / G；verl：data.train_batch_size）。",
    },
    "live.group_size": {"en": "Group size G", "zh": "组大小 G"},
    "live.group_size_help": {
        "en": "Answers sampled per prompt (TRL: num_generations; verl: rollout.n).",
        "zh": "每个问题采样的回答数（TRL：num_generations；verl：rollout.n）。",
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
        "第一次之后的更新都是离策略的：比率偏离 1，裁剪开始起作用。",
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
    "live.heldout": {"en": "Held-out samples per prompt", "zh": "留出集每题采样数"},
    "live.heldout_help": {
        "en": "Held-out pass@1 is measured before training and after each algorithm's last step "
        "(96 fixed prompts × this many samples); 0 skips it.",
        "zh": "在训练前和每个算法最后一步之后测量留出集 pass@1（96 道固定题 × 每题这么多次采样）；0 表示跳过。",
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
        "reward_model.overlong_buffer.penalty_factor; the paper uses 1). Used where overlong shaping is on.",
        "zh": "DAPO 软超长惩罚在长度上限处达到 −系数（verl 的 reward_model.overlong_buffer.penalty_factor；"
        "论文取 1）。只在开启超长整形的算法上起作用。",
    },
    "live.entropy_coef": {"en": "Entropy bonus", "zh": "熵奖励系数"},
    "live.entropy_coef_help": {
        "en": "Adds −coef × entropy to every algorithm's loss, aggregated like the loss (verl "
        "actor.entropy_coeff, TRL entropy_coef; default 0). Raising it keeps the policy exploring.",
        "zh": "给每个算法的损失加上 −系数 × 熵，聚合方式与损失相同（verl 的 actor.entropy_coeff，"
        "TRL 的 entropy_coef；默认 0）。调大它能让策略保持探索。",
    },
    "live.kl_in_reward": {"en": "KL in the reward", "zh": "KL 放进奖励"},
    "live.kl_in_reward_help": {
        "en": "Subtract β × KL(old ‖ reference) from each response's reward instead of adding β × KL "
        "to the loss (verl algorithm.use_kl_in_reward). Only matters for algorithms with β > 0 "
        "(GRPO's default is 0.04).",
        "zh": "把 β × KL(旧策略 ‖ 参考策略) 从每条回答的奖励里减掉，而不是把 β × KL 加到损失上"
        "（verl 的 algorithm.use_kl_in_reward）。只对 β > 0 的算法起作用（GRPO 默认 0.04）。",
    },
    "live.bad_input": {"en": "Cannot start this run: {error}", "zh": "无法开始训练：{error}"},
    "live.run_failed": {
        "en": "The run stopped with an error: {error}. The steps done so far are kept: press Continue or Reset.",
        "zh": "训练因错误而停止：{error}。已完成的步骤都保留着：可以继续或重置。",
    },
    "live.no_run": {
        "en": "Choose the settings and press **Run**. On a CPU the default run (4 algorithms × 30 steps) "
        "takes a few minutes; a bar per algorithm shows how far it is, and **Stop** keeps what is done.",
        "zh": "选好设置后点击 **开始训练**。在 CPU 上，默认设置（4 个算法 × 30 步）需要几分钟；"
        "每个算法有一个进度条，点 **停止** 会保留已完成的部分。",
    },
    "live.progress": {"en": "{title}: step {done} / {total}", "zh": "{title}：第 {done} / {total} 步"},
    "live.running": {
        "en": "Training… results are kept after every step: **Stop** keeps what is done so far.",
        "zh": "训练中……每一步的结果都会保存：点 **停止** 不会丢失已完成的部分。",
    },
    "live.stopped": {
        "en": "Stopped after {done} of {total} steps. **Continue** picks up where it stopped.",
        "zh": "已在第 {done} / {total} 步停止。点 **继续** 可以从停下的地方接着训练。",
    },
    "live.finished": {"en": "Finished: {total} steps per algorithm.", "zh": "训练完成：每个算法 {total} 步。"},
    "live.settings_changed": {
        "en": "The settings above differ from those of the results below; press **Run** to start a new run.",
        "zh": "上面的设置与下方结果所用的设置不同；点击 **开始训练** 以新设置重新训练。",
    },
    "live.curves": {"en": "Training curves", "zh": "训练曲线"},
    "live.panels": {"en": "Panels", "zh": "显示的指标"},
    "live.curves_caption": {
        "en": "One panel per metric, shared step axis; click a legend entry to hide an algorithm "
        "everywhere. Missing points mean the metric does not apply (the gate weight exists only "
        "for SAPO, whose soft gate clips nothing) or the step made no update.",
        "zh": "每个指标一张小图，横轴都是步数；点击图例可以在所有小图中隐藏某个算法。"
        "缺少的点表示该指标不适用（门控权重只有 SAPO 才有，它的软门控不做任何裁剪），或者这一步没有更新。",
    },
    "live.metric_notes": {
        "en": r"**How the numbers are computed.** Reward: the verifier's 1 or 0 (plus DAPO's overlong "
        r"penalty where it is on); pass@1: the share of correct answers among the training samples. "
        r"KL to the frozen starting model uses the k3 estimator "
        r"$\frac{\pi_{ref}}{\pi_\theta} - \log\frac{\pi_{ref}}{\pi_\theta} - 1$, averaged over tokens. "
        r"Entropy: $-\sum_v \pi_\theta(v)\log\pi_\theta(v)$ per generated token. Clip fraction: the "
        r"share of tokens the clip acted on: their gradient is zero under a hard clip, while CISPO only "
        r"caps their weight and GSPO clips whole responses. A group has zero advantage when all "
        r"its G rewards are equal.",
        "zh": r"**这些数字怎么算：** 奖励是验证器给出的 1 或 0（开启时再加上 DAPO 的超长惩罚）；"
        r"pass@1 是训练样本中答对的比例。与冻结初始模型之间的 KL 用 k3 估计器 "
        r"$\frac{\pi_{ref}}{\pi_\theta} - \log\frac{\pi_{ref}}{\pi_\theta} - 1$，按 token 取平均。"
        r"熵是每个生成 token 的 $-\sum_v \pi_\theta(v)\log\pi_\theta(v)$。裁剪比例是被裁剪作用到的 token 所占的比例：硬裁剪下它们的梯度为零，CISPO 只是给权重封顶，GSPO 则整条回答一起裁剪。"
        r"一个组的 G 个奖励全部相同时，它的优势为零。",
    },
    "live.ratio_header": {"en": "Importance ratios at one step", "zh": "某一步的重要性比率分布"},
    "live.ratio_caption": {
        "en": "The ratio each algorithm actually uses (token ratio, or the sequence ratio broadcast to "
        "its tokens), over all updates of the step; the bins are log-spaced and values beyond "
        "$[e^{-0.5}, e^{0.5}]$ land in the end bins. The first update of a step is "
        "on-policy (r = 1).",
        "zh": "每个算法实际使用的比率（token 比率，或广播到各 token 的序列比率），统计这一步里的所有更新；"
        "分箱按对数均匀划分，超出 $[e^{-0.5}, e^{0.5}]$ 的值计入两端的箱子。每一步的第一次更新在策略上（r = 1）。",
    },
    "live.ratio_formula": {"en": "Ratio", "zh": "比率"},
    "live.step_select": {"en": "Step", "zh": "步"},
    "live.share": {"en": "share of tokens", "zh": "token 占比"},
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
        "show the same group side by side (DAPO's dynamic sampling may pick another).",
        "zh": "在所选的步中，每个算法的一个组（同一问题的 G 条回答）。颜色表示在这一批上做一次梯度下降时每个 token 的对数概率受到的推动量 "
        "−∂loss/∂log π（对该算法自身损失求自动微分），可以取本步第一次（在策略上的）更新，也可以取本步 μ × 小批次更新之后比率已变的状态："
        "橙色往上推，紫色往下压，白色没有梯度（被裁剪；GSPO 会整条回答一起被裁掉）。所有热力图使用同一个颜色刻度。"
        "第 1 步所有算法从同样的样本出发，通常展示的是同一个组，可以逐行对比（DAPO 的动态采样可能会选到别的组）。",
    },
    "live.tokens_algos": {"en": "Show", "zh": "显示"},
    "live.prompt_line": {
        "en": "{title} — prompt `{prompt}`, expected answer `{answer}` (digits reversed)",
        "zh": "{title} —— 问题 `{prompt}`，正确答案 `{answer}`（数字倒序书写）",
    },
    "live.no_update": {
        "en": "{title} made no update at this step (every group had equal rewards).",
        "zh": "{title} 在这一步没有更新（所有组的奖励都相同）。",
    },
    "live.row_label": {"en": "#{i} {mark} A={adv}", "zh": "#{i} {mark} A={adv}"},
    "live.masked": {"en": "masked", "zh": "已屏蔽"},
    "live.summary_header": {"en": "Final table", "zh": "结果汇总"},
    "live.summary_caption": {
        "en": "Held-out pass@1 on 96 fixed prompts the model never trains on, before and after (— until "
        "an algorithm finishes its steps); the other columns summarise the last steps.",
        "zh": "留出集 pass@1 在 96 道训练中从未见过的固定题目上测量（训练前后各一次；算法跑完全部步数之前显示 —）；"
        "其余列汇总了最后几步。",
    },
    "live.download_csv": {"en": "Download metrics (CSV)", "zh": "下载指标（CSV）"},
    "live.download_json": {"en": "Download everything (JSON)", "zh": "下载全部结果（JSON）"},
    "sum.algorithm": {"en": "algorithm", "zh": "算法"},
    "sum.steps": {"en": "steps", "zh": "步数"},
    "sum.heldout_pass_at_1_start": {"en": "held-out pass@1 before", "zh": "留出集 pass@1（训练前）"},
    "sum.heldout_pass_at_1_end": {"en": "held-out pass@1 after", "zh": "留出集 pass@1（训练后）"},
    "sum.heldout_gain": {"en": "gain", "zh": "提升"},
    "sum.train_pass_at_1_last5": {"en": "train pass@1 (last 5 steps)", "zh": "训练 pass@1（最后 5 步）"},
    "sum.response_length_last5": {"en": "response length (last 5)", "zh": "回答长度（最后 5 步）"},
    "sum.clip_fraction_mean": {"en": "mean clip fraction", "zh": "平均裁剪比例"},
    "sum.entropy_last": {"en": "final entropy", "zh": "最终熵"},
    "sum.kl_ref_last": {"en": "final KL", "zh": "最终 KL"},
    "sum.rollouts_total": {"en": "responses sampled", "zh": "采样回答总数"},
    "sum.seconds_total": {"en": "seconds", "zh": "耗时（秒）"},
    # ---------------------------------------------------------------- metric names (plots)
    "metric.reward_mean": {"en": "mean reward", "zh": "平均奖励"},
    "metric.pass_at_1": {"en": "pass@1 (training samples)", "zh": "pass@1（训练样本）"},
    "metric.response_length_mean": {"en": "mean response length", "zh": "平均回答长度"},
    "metric.response_length_max": {"en": "longest response", "zh": "最长回答长度"},
    "metric.overlong_fraction": {"en": "share of overlong responses", "zh": "超长回答占比"},
    "metric.group_reward_std": {"en": "group reward std", "zh": "组内奖励标准差"},
    "metric.zero_adv_group_fraction": {"en": "share of zero-advantage groups", "zh": "零优势组占比"},
    "metric.entropy": {"en": "entropy (nats / token)", "zh": "熵（nats / token）"},
    "metric.kl_ref": {"en": "KL to reference", "zh": "与参考模型的 KL"},
    "metric.ratio_mean": {"en": "mean ratio r", "zh": "比率 r 的均值"},
    "metric.ratio_min": {"en": "smallest ratio r", "zh": "比率 r 的最小值"},
    "metric.ratio_max": {"en": "largest ratio r", "zh": "比率 r 的最大值"},
    "metric.clip_fraction": {"en": "clip fraction", "zh": "裁剪比例"},
    "metric.clip_fraction_low": {"en": "clip fraction (low side, A<0)", "zh": "裁剪比例（下界，A<0）"},
    "metric.clip_fraction_high": {"en": "clip fraction (high side, A>0)", "zh": "裁剪比例（上界，A>0）"},
    "metric.gate_weight_mean": {"en": "mean SAPO gate weight", "zh": "SAPO 门控权重均值"},
    "metric.grad_token_fraction": {"en": "share of tokens with gradient", "zh": "有梯度的 token 占比"},
    "metric.grad_norm": {"en": "gradient norm", "zh": "梯度范数"},
    "metric.seconds": {"en": "seconds per step", "zh": "每步耗时（秒）"},
    "metric.rollouts": {"en": "responses sampled", "zh": "采样的回答数"},
    "metric.kept_groups": {"en": "groups kept", "zh": "保留的组数"},
    "metric.loss": {"en": "loss", "zh": "损失"},
    "metric.value_loss": {"en": "critic loss (PPO)", "zh": "评论家损失（PPO）"},
}


def _merge_page_tables() -> None:
    """Add each page's strings (``rlviz/locale/<page>.py``) to :data:`STRINGS`; a key twice is a bug."""
    from rlviz.locale import curves, length, sampling, weighting

    for module in (curves, weighting, length, sampling):
        clash = STRINGS.keys() & module.STRINGS.keys()
        if clash:
            raise RuntimeError(f"{module.__name__}: keys already defined: {sorted(clash)}")
        STRINGS.update(module.STRINGS)


_merge_page_tables()


def t(key: str, lang: str, **fmt: object) -> str:
    """The text for ``key`` in ``lang``, formatted with ``fmt`` when given.

    Raises:
        KeyError: ``key`` is not in the table (a missing string is a bug, not a fallback).
        ValueError: ``lang`` is not one of ``LANGS``.
    """
    if lang not in LANGS:
        raise ValueError(f"lang: {lang!r} is not one of {', '.join(LANGS)}")
    text = STRINGS[key][lang]
    return text.format(**fmt) if fmt else text
