"""Strings of the critic and GAE page (keys ``critic.*``, plus its ``nav``, ``home`` and ``path`` entries),
English and 简体中文.

Merged into :data:`rlviz.i18n.STRINGS`; the same completeness rules apply (tests/test_i18n.py).
"""

STRINGS: dict[str, dict[str, str]] = {
    "nav.critic": {"en": "The critic and GAE", "zh": "价值模型与 GAE"},
    "path.critic": {
        "en": "PPO's critic and GAE beside GRPO's group mean: one advantage per token or one per response, and "
        "what the critic costs.",
        "zh": "PPO 的价值模型与 GAE，对照 GRPO 的组内均值：逐 token 的优势还是逐回答的优势，以及价值模型要花多少代价。",
    },
    "home.critic_claims": {
        "en": "- GAE on a real group of the shipped model: the critic's value per token, the advantage per token at "
        "any γ and λ (verl's `compute_gae_advantage_return`), and GRPO's one advantage per response beside it.\n"
        "- λ = 0 is one TD error, λ = 1 the Monte-Carlo return minus the value: with a fresh critic only the "
        "last token gets credit at λ = 0.\n"
        "- A live run of PPO with its critic beside GRPO: the critic's values against the returns, its error by "
        "token position and as responses grow (beside GRPO's group baseline), and its cost (parameters, training "
        "memory, CPU time per step), measured.",
        "zh": "- 在出厂模型的一组真实回答上演示 GAE：价值模型对每个 token 的估值、任意 γ 和 λ 下逐 token 的优势"
        "（与 verl 的 `compute_gae_advantage_return` 一致），旁边是 GRPO 给每条回答的一个优势。\n"
        "- λ = 0 就是一步 TD 误差，λ = 1 是蒙特卡洛回报减去估值：价值模型刚初始化时，λ = 0 下只有最后一个 token 得到功劳。\n"
        "- PPO（带价值模型）与 GRPO 并排实时训练：价值模型的估值对照实际回报、误差随 token 位置和回答长度的变化"
        "（对照 GRPO 的组内基线），"
        "以及它的实测代价（参数量、训练显存、每步 CPU 时间）。",
    },
    "critic.title": {"en": "The critic and GAE", "zh": "价值模型（critic）与 GAE"},
    "critic.lede": {
        "en": "Why does PPO need a critic, and what is GAE? The critic guesses, before each token, the reward to "
        "come; GAE turns its guesses into an advantage per token, where GRPO's group mean gives one per response. "
        "Answer the questions under the figure (or skip them) to open the GAE panel, then move γ and λ.",
        "zh": "PPO 为何需要价值模型？GAE 把估值变成逐 token 的优势，GRPO 只给每条回答一个。答题后拖动 γ、λ。",
    },
    # ------------------------------------------------------------------ the group's controls
    "critic.task": {"en": "Task", "zh": "任务"},
    "critic.task_help": {
        "en": "The task and its shipped checkpoint (the task registry, `rlviz.lm.tasks`).",
        "zh": "任务及其随附的模型检查点（任务注册表 `rlviz.lm.tasks`）。",
    },
    "critic.critic": {"en": "Critic's PPO steps", "zh": "价值模型训练步数"},
    "critic.critic_help": {
        "en": "0: the critic as PPO starts it, freshly initialised (its value head starts at zero, so V = 0 "
        "everywhere). Otherwise the critic after that many PPO steps from the shipped checkpoint ({prompts} "
        "prompts × G each); the group is then sampled by the policy of the same run.",
        "zh": "0：PPO 开始时刚初始化的价值模型（价值头初始化为零，所以处处 V = 0）。否则：从随附检查点出发训练这么多步 "
        "PPO 之后的价值模型（每步 {prompts} 个提示词 × G）；这时这一组回答由同一次训练后的策略采样。",
    },
    "critic.gamma": {"en": "γ", "zh": "γ"},
    "critic.gamma_help": {
        "en": "The discount: γ discounts a reward k tokens later by γ^k (verl `algorithm.gamma`, default 1: no discount within a "
        "response).",
        "zh": "折扣因子：γ 把 k 个 token 之后的奖励折扣为 γ^k（verl `algorithm.gamma`，默认 1：回答内部不打折扣）。",
    },
    "critic.lam": {"en": "λ", "zh": "λ"},
    "critic.lam_help": {
        "en": "GAE's λ. λ = 0: each advantage is one TD error (it trusts the critic). λ = 1: the return minus V (it trusts "
        "the sampled outcome). verl `algorithm.lam` (default 1.0); TRL `lam` and rlviz's PPO 0.95.",
        "zh": "GAE 的 λ。λ = 0：每个优势就是一步 TD 误差（完全相信价值模型）。λ = 1：回报减去 V（完全相信采样到的结果）。"
        "verl `algorithm.lam`（默认 1.0）；TRL 的 `lam` 和 rlviz 的 PPO 为 0.95。",
    },
    "critic.group": {"en": "Settings", "zh": "设置"},
    "critic.group_size": {"en": "Group size G", "zh": "组大小 G"},
    "critic.group_size_help": {
        "en": "Responses sampled for the one prompt (2–16).",
        "zh": "为这一个提示词采样的回答数（2–16）。",
    },
    "critic.whiten": {"en": "Whiten the advantages (verl)", "zh": "对优势做白化（verl）"},
    "critic.whiten_help": {
        "en": "verl subtracts the mean of the batch's advantages and divides by their std (`masked_whiten`); here "
        "over this group's tokens. The returns are taken before whitening.",
        "zh": "verl 会把整批优势减去均值、除以标准差（`masked_whiten`）；这里在这一组的 token 上做。回报取白化之前的值。",
    },
    "critic.computing": {
        "en": "Training the critic: PPO step {done} of {total}",
        "zh": "正在训练价值模型：PPO 第 {done} / {total} 步",
    },
    # ------------------------------------------------------------------ the group's figure
    "critic.values": {"en": "Critic's value V(s<sub>t</sub>)", "zh": "价值模型的估值 V(s<sub>t</sub>)"},
    "critic.gae": {"en": "GAE advantage A<sub>t</sub>", "zh": "GAE 优势 A<sub>t</sub>"},
    "critic.grpo": {"en": "GRPO: A<sub>i</sub>", "zh": "GRPO 的 A<sub>i</sub>"},
    "critic.grpo_axis": {"en": "advantage", "zh": "优势"},
    "critic.position": {"en": "token position", "zh": "token 位置"},
    "critic.token": {"en": "token", "zh": "token"},
    "critic.value": {"en": "V(s<sub>t</sub>)", "zh": "V(s<sub>t</sub>)"},
    "critic.advantage": {"en": "advantage", "zh": "优势"},
    "critic.td": {"en": "λ = 0: TD error δ<sub>t</sub>", "zh": "λ = 0：TD 误差 δ<sub>t</sub>"},
    "critic.mc": {"en": "λ = 1: return − V", "zh": "λ = 1：回报 − V"},
    "critic.return": {"en": "return", "zh": "回报"},
    "critic.row": {"en": "#{i} R={r}", "zh": "#{i} R={r}"},
    "critic.held_figure": {
        "en": "Hidden until you answer<br>the questions below (or Skip)",
        "zh": "回答下面的问题（或点“跳过”）<br>之后再显示",
    },
    "critic.group_caption": {
        "en": "Prompt `{prompt}` (answer `{answer}`): {right} of {G} responses right{tries}. Critic: {critic}. "
        "Rows: responses; cells: their tokens; hover a cell for V, A, the TD error and the return. GAE at "
        "γ = {gamma}, λ = {lam}{whitened}; right: GRPO's one advantage per response, the same for all its tokens.",
        "zh": "提示词 `{prompt}`（答案 `{answer}`）：{G} 个回答中 {right} 个正确{tries}。价值模型：{critic}。"
        "每行一条回答，每格一个 token；把鼠标放在格子上可看 V、A、TD 误差和回报。GAE 取 γ = {gamma}、λ = {lam}{whitened}；"
        "右侧：GRPO 给每条回答一个优势，回答里每个 token 都相同。",
    },
    "critic.tries": {
        "en": " (prompt {tries} drawn: the ones before had all-equal rewards)",
        "zh": "（抽到的第 {tries} 个提示词：之前的几个奖励全相同）",
    },
    "critic.whitened": {"en": ", whitened over the group", "zh": "，并在这一组上白化"},
    "critic.critic_fresh": {
        "en": "freshly initialised, on the shipped policy (its value head starts at zero: V = 0 everywhere)",
        "zh": "刚初始化，配随附的策略（价值头初始化为零：处处 V = 0）",
    },
    "critic.critic_trained": {
        "en": "after {steps} PPO steps from the shipped checkpoint (last value loss {loss}); the group is sampled "
        "by that run's policy",
        "zh": "从随附检查点出发训练 {steps} 步 PPO 之后（最后一步的价值损失 {loss}）；这一组由同一次训练后的策略采样",
    },
    "critic.reading": {
        "en": "At λ = {lam}, response {row}'s first token gets A = {first} and its last A = {last}; GRPO gives every "
        "token of it {grpo}.",
        "zh": "λ = {lam} 时，第 {row} 条回答的第一个 token 得到 A = {first}，最后一个得到 A = {last}；"
        "GRPO 给它的每个 token 都是 {grpo}。",
    },
    "critic.ends_header": {"en": "What the ends of the λ slider mean", "zh": "λ 滑块两端的含义"},
    "critic.response": {"en": "Response", "zh": "回答"},
    "critic.ends_title": {
        "en": "Response {row}: λ = 0, λ = {lam}, λ = 1",
        "zh": "第 {row} 条回答：λ = 0、λ = {lam}、λ = 1",
    },
    "critic.ends_now": {"en": "λ = {lam} (the slider)", "zh": "λ = {lam}（滑块）"},
    "critic.ends_y": {"en": "advantage / value", "zh": "优势 / 估值"},
    "critic.ends_caption": {
        "en": "λ = 0 trusts the critic: each advantage is one TD error, the critic's change of mind from one token to "
        "the next plus the reward. λ = 1 trusts the sample: the return from the token on minus V(s<sub>t</sub>). "
        "Between them GAE weighs the TD errors k tokens ahead by (γλ)^k.",
        "zh": "λ = 0 相信价值模型：每个优势就是一步 TD 误差，即价值模型从一个 token 到下一个 token 的“改口”加上奖励。"
        "λ = 1 相信采样：从该 token 起的回报减去 V(s<sub>t</sub>)。两者之间，GAE 用 (γλ)^k 给 k 个 token 之后的 TD 误差加权。",
    },
    "critic.intro": {
        "en": "**The critic** (value model) is a second network that reads the prompt and the response so far and "
        "guesses the reward still to come: V(s<sub>t</sub>). PPO needs it to tell a good token from a bad one "
        "inside one response, because an outcome reward arrives only at the end.\n\n"
        "**GAE** (Schulman et al. 2015, arXiv 1506.02438) turns the critic's guesses into advantages. The TD error "
        "δ<sub>t</sub> = r<sub>t</sub> + γV(s<sub>t+1</sub>) − V(s<sub>t</sub>) says how much better the next state "
        "looks than this one; GAE sums the TD errors ahead with weights (γλ)^k. At λ = 0 the advantage is one TD error: "
        "low variance, but only as right as the critic. At λ = 1 the values in between cancel and the advantage is "
        "the return minus V(s<sub>t</sub>): no bias from the critic's later guesses, all the noise of the sample. "
        "rlviz computes it as verl's `compute_gae_advantage_return` does (backwards over the tokens, padding "
        "carried through, returns = advantages + values, then the advantages whitened over the batch).\n\n"
        "**GRPO** drops the critic: its baseline is the mean reward of G responses to the same prompt, one advantage "
        "per response, the same for every token of it. It pays in samples (G per prompt) instead of a second "
        "network, and it cannot tell which tokens of a response mattered.\n\n"
        "**Why the critic is costly and noisy**: it is a network the size of the policy (here a copy of the "
        "policy's trunk with a scalar head; in verl a separate model), with its own forward, backward and optimizer "
        "state every update. With outcome rewards its targets are 0 or 1 at the end of the response, and the "
        "earlier the token, the more of the response it must predict: on long reasoning its early guesses are "
        "the weakest, and with λ < 1 their errors go into every advantage.",
        "zh": "**价值模型**（critic）是第二个网络：它读入提示词和已生成的部分回答，估计之后还能拿到的奖励，即 "
        "V(s<sub>t</sub>)。PPO 需要它来区分同一条回答里哪个 token 好、哪个不好，因为结果奖励只在回答结束时才给出。\n\n"
        "**GAE**（Schulman 等 2015，arXiv 1506.02438）把价值模型的估计变成优势。TD 误差 δ<sub>t</sub> = r<sub>t</sub> + "
        "γV(s<sub>t+1</sub>) − V(s<sub>t</sub>) 表示下一个状态比当前状态看起来好多少；GAE 以 (γλ)^k 为权重累加后面的 TD "
        "误差。λ = 0 时优势就是一步 TD 误差：方差低，但准不准全看价值模型。λ = 1 时中间的估值相互抵消，优势等于回报减去 "
        "V(s<sub>t</sub>)：不受价值模型后续估计的偏差影响，却带着采样的全部噪声。rlviz 的算法与 verl 的 "
        "`compute_gae_advantage_return` 相同（沿 token 反向递推，填充位置直接传递，回报 = 优势 + 估值，之后再在整批上对优势白化）。\n\n"
        "**GRPO** 去掉了价值模型：它的基线是同一提示词 G 个回答的平均奖励，每条回答一个优势，回答里每个 token 都相同。"
        "它付出的是样本（每个提示词 G 个），而不是第二个网络；代价是分不出一条回答里哪些 token 更关键。\n\n"
        "**价值模型为什么又贵又不准**：它和策略一样大（这里是策略主干的一份拷贝加一个标量输出头；在 verl 中是单独的模型），"
        "每次更新都要做自己的前向、反向并保存优化器状态。在结果奖励下，它的回归目标是回答末尾的 0 或 1；token 越靠前，"
        "它要预测的后续内容就越多：在长推理上，前面的估计最不可靠，而 λ < 1 时这些误差会进入每一个优势。",
    },
    "critic.formula_caption": {
        "en": "GAE, as rlviz and verl compute it, backwards from the last token (V = 0 after it).",
        "zh": "GAE 的计算方式（rlviz 与 verl 相同），从最后一个 token 往前递推（其后 V = 0）。",
    },
    # ------------------------------------------------------------------ questions
    "critic.q_td.q": {
        "en": "Set λ = 0: each token's advantage is then one TD error, rₜ + γ·V(sₜ₊₁) − V(sₜ). With this critic "
        "({steps} PPO steps; 0 is a fresh one) and γ = {gamma}, which tokens of a right answer get a non-zero "
        "advantage?",
        "zh": "令 λ = 0：每个 token 的优势就是一步 TD 误差 rₜ + γ·V(sₜ₊₁) − V(sₜ)。用现在这个价值模型（训练了 {steps} 步 "
        "PPO；0 表示刚初始化）和 γ = {gamma}，一条正确回答里哪些 token 的优势不为零？",
    },
    "critic.q_td.choice.last": {"en": "Only its last token", "zh": "只有最后一个 token"},
    "critic.q_td.choice.more": {"en": "Earlier tokens too", "zh": "前面的 token 也有"},
    "critic.q_td.why.last": {
        "en": "**{answer}.** With V = 0 everywhere (a fresh critic's head starts at zero), every TD error before the "
        "last token is 0 + γ·0 − 0 = 0, and the last one is the reward itself. λ = 0 puts all the credit where the "
        "reward arrives: the earlier tokens learn nothing until the critic has learned values. This is why PPO on "
        "outcome rewards uses λ near 1, or needs a critic that has learned.",
        "zh": "**{answer}。** 处处 V = 0 时（刚初始化的价值头输出为零），最后一个 token 之前的 TD 误差都是 0 + γ·0 − 0 = 0，"
        "最后一个就是奖励本身。λ = 0 把全部功劳放在奖励出现的地方：在价值模型学会估值之前，前面的 token 什么也学不到。"
        "这就是在结果奖励上 PPO 要用接近 1 的 λ，或者需要一个已经学过的价值模型的原因。",
    },
    "critic.q_td.why.more": {
        "en": "**{answer}.** A trained critic's values differ from token to token, so each TD error γ·V(sₜ₊₁) − V(sₜ) "
        "is the critic's own change of mind: non-zero even where no reward arrives. λ = 0 then trusts these guesses "
        "completely: an early token's advantage is only as good as the critic.",
        "zh": "**{answer}。** 训练过的价值模型在不同 token 上的估值不同，所以每个 TD 误差 γ·V(sₜ₊₁) − V(sₜ) 就是价值模型"
        "自己的“改口”：即使没有奖励出现也不为零。λ = 0 完全相信这些估计：靠前 token 的优势好坏全看价值模型。",
    },
    "critic.q_td.where": {
        "en": "See it: the dashed λ = 0 line of the figure below the main one.",
        "zh": "验证：看主图下方那张图里 λ = 0 的虚线。",
    },
    "critic.q_mc.q": {
        "en": "Now λ = 1. Response {row} ({length} tokens, reward {reward}) starts from V(s₀) = {v0} (left panel). "
        "With γ = {gamma}, what is the advantage of its first token (before whitening)?",
        "zh": "现在取 λ = 1。第 {row} 条回答（{length} 个 token，奖励 {reward}）的起始估值 V(s₀) = {v0}（左图）。"
        "取 γ = {gamma}，它第一个 token 的优势（白化之前）是多少？",
    },
    "critic.q_mc.why": {
        "en": "A = γ^(L−1)·R − V(s₀) = {answer}. At λ = 1 the TD errors telescope: every value after the first "
        "cancels, and what is left is the discounted return minus the first value, the Monte-Carlo advantage. It "
        "uses no later guess of the critic, so it carries all the noise of one sampled outcome.",
        "zh": "A = γ^(L−1)·R − V(s₀) = {answer}。λ = 1 时各步 TD 误差逐项相消：第一个之后的估值全部抵消，剩下的是折扣回报"
        "减去第一个估值，也就是蒙特卡洛优势。它不用价值模型之后的任何估计，所以带着一次采样结果的全部噪声。",
    },
    "critic.q_mc.where": {
        "en": "See it: the dotted λ = 1 line at position 1 in the figure below the main one.",
        "zh": "验证：看主图下方那张图里 λ = 1 的点线在位置 1 处的值。",
    },
    "critic.q_cost.q": {
        "en": "Before you run: how many times GRPO's CPU time per step will PPO's step take (the same {n} prompts × "
        "G = {G}, {steps} steps, no KL term)?",
        "zh": "训练之前先猜：PPO 每步的 CPU 时间是 GRPO 的几倍（相同的 {n} 个提示词 × G = {G}，{steps} 步，无 KL 项）？",
    },
    "critic.q_cost.why": {
        "en": "{answer}× in this run. The critic is a second network the size of the policy: one forward for the "
        "values, then in every update a forward, a backward and an AdamW step of its own; PPO also cannot take its "
        "old log-probs from its first update, as GRPO does. GRPO pays with G samples per prompt instead, which it "
        "draws anyway for its baseline.",
        "zh": "这次训练中是 {answer} 倍。价值模型是和策略一样大的第二个网络：先做一次前向得到估值，之后每次更新还要做它"
        "自己的前向、反向和一步 AdamW；PPO 也不能像 GRPO 那样从第一次更新里顺便拿到旧的对数概率。GRPO 付出的是每个提示词 "
        "G 个样本，而这些样本它本来就要为基线采。",
    },
    "critic.q_where.q": {
        "en": "Before you run: by the end of the run, where will the critic's error (V − return) be larger, at the "
        "first token of a response or at its last?",
        "zh": "训练之前先猜：训练到后半段，价值模型的误差（V − 回报）在哪里更大，回答的第一个 token 还是最后一个 token？",
    },
    "critic.q_where.choice.early": {"en": "At the first token", "zh": "第一个 token"},
    "critic.q_where.choice.late": {"en": "At the last token", "zh": "最后一个 token"},
    "critic.q_where.why.early": {
        "en": "**{answer}**: RMS error {first} at the first token against {last} at the last, over the run's second "
        "half. Before the first token the critic has seen only the prompt and must predict the outcome of the "
        "whole response; at the last it has read almost all of it, so a critic that has learned to read answers "
        "errs least there. How far apart the two are says how much it has learned beyond the average reward; on "
        "long reasoning the early guesses stay the weakest.",
        "zh": "**{answer}**：训练后半段，第一个 token 上的均方根误差为 {first}，最后一个为 {last}。在第一个 token 之前，"
        "价值模型只看到提示词，却要预测整条回答的结果；到最后一个 token 时它几乎读完了回答，所以学会读答案的价值模型在那里"
        "误差最小。两者差得越多，说明它在平均奖励之外学到的越多；在长推理上，前面的估计始终最不可靠。",
    },
    "critic.q_where.why.late": {
        "en": "**{answer}**: RMS error {last} at the last token against {first} at the first, over the run's second "
        "half. A critic that had learned to read answers would err least at the last token, where it has seen "
        "almost all of the response; this one still predicts about the average reward at every position, so the "
        "two errors are close and which is larger is noise of this run.",
        "zh": "**{answer}**：训练后半段，最后一个 token 上的均方根误差为 {last}，第一个为 {first}。学会读答案的价值模型"
        "本应在最后一个 token 上误差最小，因为那时它几乎看完了整条回答；这个价值模型在每个位置都还只是预测平均奖励，"
        "所以两个误差很接近，谁大谁小只是这次训练的噪声。",
    },
    # ------------------------------------------------------------------ the live run
    "critic.live_header": {
        "en": "PPO with its critic, live, beside GRPO",
        "zh": "实时训练：带价值模型的 PPO 与 GRPO 并排",
    },
    "critic.live_lede": {
        "en": "Both arms start from the same checkpoint and seed and see the same first batch; neither has a KL "
        "term, so what PPO adds is its critic.",
        "zh": "两个分支从同一检查点、同一随机种子出发，第一批数据完全相同；都没有 KL 项，所以 PPO 多出来的就是价值模型。",
    },
    "critic.steps": {"en": "Steps", "zh": "步数"},
    "critic.lr": {"en": "Policy learning rate", "zh": "策略学习率"},
    "critic.live_more": {"en": "More settings", "zh": "更多设置"},
    "critic.prompts": {"en": "Prompts per step", "zh": "每步提示词数"},
    "critic.value_lr": {"en": "Critic learning rate", "zh": "价值模型学习率"},
    "critic.value_lr_help": {
        "en": "The critic's own AdamW learning rate (verl `critic.optim.lr`, default 1e-5 for large models).",
        "zh": "价值模型自己的 AdamW 学习率（verl `critic.optim.lr`，大模型默认 1e-5）。",
    },
    "critic.run": {"en": "Run", "zh": "开始训练"},
    "critic.stop": {"en": "Stop", "zh": "停止"},
    "critic.continue": {"en": "Continue", "zh": "继续"},
    "critic.reset": {"en": "Reset", "zh": "清除结果"},
    "critic.no_run": {
        "en": "Press **Run**: PPO with its critic and GRPO train side by side, step by step.",
        "zh": "点 **开始训练**：带价值模型的 PPO 和 GRPO 会一步一步并排训练。",
    },
    "critic.running": {"en": "Training…", "zh": "训练中……"},
    "critic.progress": {"en": "{arm}: step {done} / {total}", "zh": "{arm}：第 {done} / {total} 步"},
    "critic.finished": {
        "en": "Finished: {total} {total:plural:step|steps} per arm.",
        "zh": "训练完成：每个分支 {total} 步。",
    },
    "critic.stopped": {
        "en": "Stopped after {done} of {total} {total:plural:step|steps}.",
        "zh": "已在第 {done} / {total} 步停止。",
    },
    "critic.stopped_arms": {
        "en": "Stopped at {steps} of {total} {total:plural:step|steps}.",
        "zh": "已停止：{steps}（共 {total} 步）。",
    },
    "critic.settings_changed": {
        "en": "The settings above differ from those of the run shown: press **Reset**, then **Run**, to train with them.",
        "zh": "上面的设置与所显示的训练不同：先点 **清除结果**，再点 **开始训练**，即可按新设置训练。",
    },
    "critic.empty_figure": {
        "en": "Press Run: the curves grow here, step by step",
        "zh": "点“开始训练”：曲线会在这里一步步画出来",
    },
    "critic.first_step": {
        "en": "Training: each step's points appear here as soon as it is done",
        "zh": "训练中：每一步算完，它的点就会出现在这里",
    },
    "critic.smoothed": {"en": "smoothed", "zh": "平滑后"},
    "critic.arm.ppo": {"en": "PPO + critic (GAE)", "zh": "PPO + 价值模型（GAE）"},
    "critic.arm.grpo": {"en": "GRPO (group mean)", "zh": "GRPO（组内均值）"},
    "critic.metric.reward_mean": {"en": "Reward", "zh": "奖励"},
    "critic.metric.value_loss": {"en": "Value loss (PPO)", "zh": "价值损失（PPO）"},
    "critic.metric.critic_rmse": {"en": "Critic error: RMS of V − return", "zh": "价值模型误差：V − 回报的均方根"},
    "critic.metric.cpu_seconds": {"en": "CPU seconds per step", "zh": "每步 CPU 秒数"},
    "critic.live_caption": {
        "en": "Lines: each arm's moving average over about {span} steps; dots: each step. CPU seconds: the thread "
        "that steps the arm (torch on {threads} {threads:plural:thread|threads}), so the two arms are timed alike "
        "while they train at once. The critic's error compares V(s<sub>t</sub>) before the step's updates with "
        "what the response earned from token t on.",
        "zh": "线：每个分支约 {span} 步的滑动平均；点：每一步的值。CPU 秒数：执行该分支训练的线程所用的时间（torch 用 "
        "{threads} 个线程），所以两个分支同时训练时计时方式相同。价值模型误差比较的是该步更新前的 V(s<sub>t</sub>) 与回答从 "
        "token t 起实际得到的回报。",
    },
    "critic.live_reading": {
        "en": "Over {steps} the critic's RMS error was {first} at a response's first token and {last} at its "
        "last; its values averaged {value} against an average return of {ret}. PPO's step took {ratio}× GRPO's CPU "
        "time ({ppo} s against {grpo} s), {critic} s of it in the critic, a network of {params} parameters, "
        "{pratio}× the policy's.",
        "zh": "在{steps}，价值模型在回答第一个 token 上的均方根误差为 {first}，在最后一个 token 上为 {last}；"
        "它的平均估值为 {value}，而平均回报为 {ret}。PPO 每步的 CPU 时间是 GRPO 的 {ratio} 倍（{ppo} 秒对 {grpo} 秒），"
        "其中 {critic} 秒花在价值模型上；价值模型有 {params} 个参数，是策略的 {pratio} 倍。",
    },
    "critic.position_header": {
        "en": "The critic against the returns, by token position",
        "zh": "按 token 位置对照价值模型与回报",
    },
    "critic.position_left": {
        "en": "Mean V(s<sub>t</sub>) and return, {steps}",
        "zh": "平均 V(s<sub>t</sub>) 与回报，{steps}",
    },
    "critic.position_right": {"en": "RMS of V − return", "zh": "V − 回报的均方根"},
    "critic.mean_value": {"en": "mean V(s<sub>t</sub>)", "zh": "平均 V(s<sub>t</sub>)"},
    "critic.mean_return": {"en": "mean return", "zh": "平均回报"},
    "critic.steps_range": {"en": "steps {a}–{b}", "zh": "第 {a}–{b} 步"},
    "critic.step_one": {"en": "step {a}", "zh": "第 {a} 步"},
    "critic.tokens": {"en": "tokens", "zh": "token 数"},
    "critic.position_caption": {
        "en": "Return: what the response earned from token t on, Σ γ^k r<sub>t+k</sub> (with an outcome reward, "
        "γ^(L−1−t)·R). Positions past the shorter responses average fewer tokens (hover for the count).",
        "zh": "回报：回答从 token t 起实际得到的 Σ γ^k r<sub>t+k</sub>（结果奖励下为 γ^(L−1−t)·R）。超过较短回答长度的位置，"
        "平均的 token 更少（鼠标悬停可看数量）。",
    },
    "critic.length_header": {
        "en": "The critic's error as responses grow, beside GRPO's group baseline",
        "zh": "回答变长时价值模型的误差，对照 GRPO 的组内基线",
    },
    "critic.length_fresh": {"en": "fresh critic (step 1), token mean", "zh": "初始价值模型（第 1 步），逐 token 平均"},
    "critic.length_tokens": {"en": "critic, {steps}, token mean", "zh": "价值模型，{steps}，逐 token 平均"},
    "critic.length_first": {"en": "critic, {steps}, first token", "zh": "价值模型，{steps}，第一个 token"},
    "critic.length_baseline": {
        "en": "GRPO's group baseline, {steps}",
        "zh": "GRPO 的组内基线，{steps}",
    },
    "critic.length_axis": {"en": "response length (tokens)", "zh": "回答长度（token 数）"},
    "critic.length_y": {"en": "mean |error| per response", "zh": "每条回答的平均 |误差|"},
    "critic.responses": {"en": "responses", "zh": "回答数"},
    "critic.mean_reward": {"en": "mean reward", "zh": "平均奖励"},
    "critic.length_caption": {
        "en": "A response's critic error: |V(s<sub>t</sub>) − return| before the step's critic updates, averaged "
        "over its tokens (solid) or at its first token (dashed). The group baseline's: |mean reward of its group "
        "(itself included, as GRPO computes it) − R|, what GRPO subtracts, on the same PPO responses; with γ = 1 "
        "both predict R from the first token. Bins of {width} tokens (hover for the number of responses). This "
        "run's task, {task}, allows answers of up to {limit} tokens; the task is chosen in the run's settings.{dropped}",
        "zh": "一条回答上价值模型的误差：该步更新价值模型之前的 |V(s<sub>t</sub>) − 回报|，按它的各 token 平均（实线），"
        "或只取第一个 token（虚线）。组内基线的误差：|所在组的平均奖励（含它自己，与 GRPO 的算法相同）− R|，"
        "即 GRPO 减去的基线，算在同一批 PPO 回答上；γ = 1 时两者从第一个 token 起预测的都是 R。每 {width} 个 token "
        "为一档（鼠标悬停可看回答数）。本次训练的任务“{task}”允许回答最长 {limit} 个 token；任务在训练设置里选择。{dropped}",
    },
    "critic.length_dropped": {
        "en": " Not drawn: bins with fewer than {min} responses ({bins}); a mean over so few answers mostly says "
        "whether they happened to be right.",
        "zh": "未画出：回答少于 {min} 条的长度档（{bins}）；这么少的回答，平均值主要取决于它们碰巧对不对。",
    },
    "critic.length_bin": {"en": "{lo}–{hi} tokens: {n}", "zh": "{lo}–{hi} 个 token：{n} 条"},
    "critic.length_reading": {
        "en": "Over {steps} ({n} responses of {lmin}–{lmax} tokens), the critic's error averaged over a response's "
        "tokens was {short} in the shortest bin drawn ({s_lo}–{s_hi} tokens, {ns} responses) and {long} in the "
        "longest ({l_lo}–{l_hi} tokens, {nl}). {critic}\n\n"
        "GRPO's group baseline on the same responses was off by {b_short} and {b_long} in those two bins, less "
        "than the critic in {below} of the {bins} bins drawn. {base}",
        "zh": "在{steps}（{n} 条回答，长 {lmin}–{lmax} 个 token），价值模型按回答内各 token 平均的误差：画出的最短一档"
        "（{s_lo}–{s_hi} 个 token，{ns} 条）为 {short}，最长一档（{l_lo}–{l_hi} 个 token，{nl} 条）为 {long}。{critic}\n\n"
        "在同一批回答上，GRPO 组内基线在这两档的误差分别为 {b_short} 和 {b_long}；画出的 {bins} 个长度档中有 {below} "
        "个低于价值模型。{base}",
    },
    "critic.length_reading_one": {
        "en": "Over {steps} ({n} responses of {lmin}–{lmax} tokens), only one bin has enough responses to draw "
        "({s_lo}–{s_hi} tokens, {ns} responses): there the critic's error averaged over a response's tokens was "
        "{short}, and GRPO's group baseline's {b_short}. {critic} {base}",
        "zh": "在{steps}（{n} 条回答，长 {lmin}–{lmax} 个 token），只有一个长度档的回答够多、可以画出（{s_lo}–{s_hi} 个 "
        "token，{ns} 条）：其中价值模型按回答内各 token 平均的误差为 {short}，GRPO 组内基线的为 {b_short}。{critic}{base}",
    },
    "critic.length_fresh_note": {
        "en": "The fresh critic of step 1 (V = 0 everywhere) is off by the return itself: {fresh} on average, and 0 "
        "on every wrong answer (reward 0), so its line sits low in a bin of mostly wrong answers (hover a point for "
        "its mean reward).",
        "zh": "第 1 步刚初始化的价值模型（处处 V = 0）误差就是回报本身：平均为 {fresh}，答错的回答（奖励 0）上恰为 0，"
        "所以在错答居多的长度档里它的线很低（鼠标悬停可看该点的平均奖励）。",
    },
    "critic.who.critic_tokens": {"en": "The critic's error", "zh": "价值模型的误差"},
    "critic.who.baseline": {"en": "The group baseline's error", "zh": "组内基线的误差"},
    "critic.who.excess": {
        "en": "How much more the critic errs than the baseline on the same response",
        "zh": "同一条回答上价值模型比组内基线多出的误差",
    },
    "critic.trend.grows": {
        "en": "{who} grows with length ({slope} per token, ± {se}).",
        "zh": "{who}随长度增大（每个 token {slope}，± {se}）。",
    },
    "critic.trend.shrinks": {
        "en": "{who} falls as responses grow ({slope} per token, ± {se}).",
        "zh": "{who}随长度减小（每个 token {slope}，± {se}）。",
    },
    "critic.trend.few": {
        "en": "{who}: too few responses of different lengths to measure a trend.",
        "zh": "{who}：不同长度的回答太少，测不出趋势。",
    },
    "critic.trend.flat": {
        "en": "{who} does not measurably change with length (slope {slope} per token, ± {se}: within two standard "
        "errors of 0).",
        "zh": "{who}看不出随长度变化（斜率每个 token {slope}，± {se}，在 0 的两个标准误之内）。",
    },
    "critic.cost_header": {"en": "What the critic costs, measured in this run", "zh": "价值模型的代价（本次训练实测）"},
    "critic.col.quantity": {"en": "Quantity", "zh": "指标"},
    "critic.col.policy": {"en": "Policy / GRPO", "zh": "策略 / GRPO"},
    "critic.col.critic": {"en": "Critic / PPO", "zh": "价值模型 / PPO"},
    "critic.col.ratio": {"en": "Ratio", "zh": "比值"},
    "critic.cost.parameters": {"en": "Parameters", "zh": "参数量"},
    "critic.cost.weights_mb": {"en": "Weights (MB, float32)", "zh": "权重（MB，float32）"},
    "critic.cost.train_mb": {
        "en": "Training state (MB: weights, gradients, AdamW's two moments)",
        "zh": "训练状态（MB：权重、梯度、AdamW 的两个动量）",
    },
    "critic.cost.cpu_step": {"en": "CPU s per step: GRPO | PPO", "zh": "每步 CPU 秒数：GRPO | PPO"},
    "critic.cost.cpu_critic": {"en": "CPU s per step: PPO | in its critic", "zh": "每步 CPU 秒数：PPO | 其中价值模型"},
    "critic.cost_caption": {
        "en": "Counted from the modules and the optimizer's state after PPO's first step; timed as the CPU time of "
        "the thread that steps each arm, averaged over the steps. rlviz's critic is a copy of the policy's trunk "
        "with a scalar head; verl's is a separate model (`critic.model.path`), usually of the policy's size.",
        "zh": "参数量与内存取自 PPO 第一步之后的模块和优化器状态；时间是执行每个分支的线程所用的 CPU 时间，按步平均。"
        "rlviz 的价值模型是策略主干的拷贝加一个标量输出头；verl 的是单独的模型（`critic.model.path`），通常和策略一样大。",
    },
    "critic.frameworks": {
        "en": "- **verl**: `algorithm.adv_estimator=gae` (its default) with `algorithm.gamma` (1.0) and "
        "`algorithm.lam` (1.0; TRL and rlviz's PPO use 0.95); the critic is its own model, `critic.model.path`, "
        "`critic.optim.lr` (1e-5), `critic.cliprange_value` (0.5, as rlviz's value clip), `critic.ppo_epochs`. "
        "The advantages are whitened over the batch (`masked_whiten`); the returns come from the un-whitened ones.\n"
        "- **TRL**: `trl.experimental.ppo.PPOTrainer` with a `value_model`; `PPOConfig(gamma=1.0, lam=0.95, "
        "vf_coef=0.1, cliprange_value=0.2, whiten_rewards=False)`. GRPO (`trl.GRPOTrainer`, verl "
        "`adv_estimator=grpo`) has no critic at all.\n"
        "- **Checked**: verl's GAE is not among the stored parity vectors; `tests/test_critic.py` checks "
        "`rlviz.core.advantages.gae` against hand values of verl's recursion (λ = 0 and 1, a padded position, the "
        "whitening).",
        "zh": "- **verl**：`algorithm.adv_estimator=gae`（默认值），配 `algorithm.gamma`（1.0）和 `algorithm.lam`（1.0；"
        "TRL 和 rlviz 的 PPO 用 0.95）；价值模型是单独的模型：`critic.model.path`、`critic.optim.lr`（1e-5）、"
        "`critic.cliprange_value`（0.5，与 rlviz 的价值裁剪相同）、`critic.ppo_epochs`。优势在整批上白化（`masked_whiten`），"
        "回报由白化之前的优势算出。\n"
        "- **TRL**：`trl.experimental.ppo.PPOTrainer` 配一个 `value_model`；`PPOConfig(gamma=1.0, lam=0.95, "
        "vf_coef=0.1, cliprange_value=0.2, whiten_rewards=False)`。GRPO（`trl.GRPOTrainer`，verl 的 "
        "`adv_estimator=grpo`）完全没有价值模型。\n"
        "- **核对**：verl 的 GAE 不在已存的对照向量中；`tests/test_critic.py` 用按 verl 递推公式手算的值核对 "
        "`rlviz.core.advantages.gae`（λ = 0 和 1、一个填充位置、白化）。",
    },
    "critic.dl_group": {"en": "Download the group (CSV)", "zh": "下载这一组（CSV）"},
    "critic.dl_live": {"en": "Download the curves (CSV)", "zh": "下载曲线（CSV）"},
    "critic.dl_values": {"en": "Download the critic's values (CSV)", "zh": "下载价值模型的估值（CSV）"},
    "critic.dl_responses": {
        "en": "Download each response's errors: critic and group baseline (CSV)",
        "zh": "下载每条回答的误差：价值模型与组内基线（CSV）",
    },
}
