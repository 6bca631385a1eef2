"""Strings of the "one update, slowly" page (``pages/step.py``, issue 40), English and 简体中文.

Numbers are never typed here: every ``{field}`` is formatted in from ``rlviz.experiments.step``.
"""

STRINGS = {
    "nav.step": {"en": "One update, slowly", "zh": "慢放一次更新"},
    "home.step_claims": {
        "en": "- One real update of the tiny model, stage by stage: the G sampled responses, their rewards and "
        "advantages, each token's importance ratio after the first optimizer step, what the clip or gate does, "
        "each token's gradient weight, its share of the loss, and how far its probability moved.\n"
        "- Any objective of the registry replays the same batch; the stages it changes relative to GRPO are "
        "marked, read from its spec.",
        "zh": "- 逐个阶段慢放小模型的一次真实更新：采样的 G 个回答、它们的奖励和优势、第一次优化器更新后每个 token "
        "的重要性比率、裁剪或门控做了什么、每个 token 的梯度权重、它在损失中的份额，以及它的概率移动了多少。\n"
        "- 注册表里的任何目标函数都在同一批数据上重放；它相对 GRPO 改变了哪些阶段，从它的规格里读出并标记出来。",
    },
    "step.title": {"en": "One update, slowly", "zh": "慢放一次更新"},
    "step.lede": {
        "en": "One real update of the tiny model, stage by stage: from the sampled answers to how far each "
        "token's probability moved. Press Next, or choose an objective to replay the same batch.",
        "zh": "逐阶段慢放小模型的一次真实更新。",
    },
    # controls
    "step.objective": {"en": "Objective", "zh": "目标函数"},
    "step.objective_help": {
        "en": "Replays the same sampled group under this registry entry, at its defaults. The stages it changes "
        "relative to GRPO are marked (read from its spec).",
        "zh": "用注册表中的这个目标函数（默认设置）重放同一组采样。它相对 GRPO 改变的阶段会被标出（从它的规格读出）。",
    },
    "step.group_size": {"en": "Group size G", "zh": "组大小 G"},
    "step.group_size_help": {
        "en": "How many responses the model samples for the prompt (a new batch is sampled).",
        "zh": "模型对这个提示词采样多少个回答（会重新采样一批）。",
    },
    "step.prompt": {"en": "Prompt (a+b=)", "zh": "提示词（a+b=）"},
    "step.prompt_help": {
        "en": "An addition such as 37+5= (numbers of up to 3 digits); the model writes the sum's digits in reverse. "
        "Empty: the first of {n} drawn prompts whose answers are not all alike.",
        "zh": "形如 37+5= 的加法（每个数最多 3 位）；模型把和的各位数字倒序写出。"
        "留空：从随机抽取的 {n} 个提示词中取第一个回答有对有错的。",
    },
    "step.lr": {"en": "Learning rate", "zh": "学习率"},
    "step.lr_help": {
        "en": "AdamW's learning rate for both optimizer steps (the trainer's default is {default}).",
        "zh": "两次优化器更新所用的 AdamW 学习率（训练器默认 {default}）。",
    },
    "step.sampling": {"en": "Sampling the group and replaying the update…", "zh": "正在采样并重放这次更新……"},
    # the navigator
    "step.prev": {"en": "Previous", "zh": "上一步"},
    "step.next": {"en": "Next", "zh": "下一步"},
    "step.stage_button": {"en": "Stage {k} / {n}", "zh": "阶段 {k}/{n}"},
    "step.stages_label": {"en": "Go to a stage", "zh": "跳到某个阶段"},
    "step.stage_item": {"en": "{k}. {name}", "zh": "{k}. {name}"},
    "step.changed_mark": {"en": "{item} · changed", "zh": "{item} · 有改动"},
    "step.changed_badge": {"en": "{title} changes this stage", "zh": "{title} 改变了这一阶段"},
    "step.baseline_note": {
        "en": "{title} is the baseline: choose another objective to see which stages it changes.",
        "zh": "{title} 是基准：选另一个目标函数，看看它改变了哪些阶段。",
    },
    "step.unchanged": {"en": "Same as in {title}.", "zh": "与 {title} 相同。"},
    "step.explore": {"en": "Explore: {title}", "zh": "深入看：{title}"},
    "step.stage.responses": {"en": "Prompt and responses", "zh": "提示词与回答"},
    "step.stage.rewards": {"en": "Rewards", "zh": "奖励"},
    "step.stage.advantages": {"en": "Advantages", "zh": "优势"},
    "step.stage.ratio": {"en": "Importance ratio", "zh": "重要性比率"},
    "step.stage.clip": {"en": "Clip or gate", "zh": "裁剪或门控"},
    "step.stage.weights": {"en": "Gradient weight", "zh": "梯度权重"},
    "step.stage.aggregation": {"en": "One loss", "zh": "聚合成一个损失"},
    "step.stage.update": {"en": "After the step", "zh": "更新之后"},
    # what changed, one line each: "<feature>: <GRPO's> → <the entry's>"
    "step.change_line": {"en": "{feature}: {old} → {new}", "zh": "{feature}: {old} → {new}"},
    "step.feature.dynamic_sampling": {"en": "dynamic sampling", "zh": "动态采样"},
    "step.feature.overlong_shaping": {"en": "overlong length penalty", "zh": "超长惩罚"},
    "step.feature.advantage": {"en": "advantage", "zh": "优势"},
    "step.feature.scale_rewards": {"en": "scale_rewards", "zh": "scale_rewards"},
    "step.feature.adv_estimator": {"en": "advantage estimator", "zh": "优势估计器"},
    "step.feature.ratio_level": {"en": "ratio level", "zh": "比率层级"},
    "step.feature.trust_region": {"en": "trust region", "zh": "信任域"},
    "step.feature.clip_space": {"en": "clip space", "zh": "裁剪空间"},
    "step.feature.surrogate": {"en": "per-token objective", "zh": "逐 token 目标"},
    "step.feature.kl": {"en": "KL term β", "zh": "KL 项 β"},
    "step.feature.top_entropy_quantile": {"en": "top_entropy_quantile", "zh": "top_entropy_quantile"},
    "step.feature.off_policy_mask_threshold": {
        "en": "off_policy_mask_threshold",
        "zh": "off_policy_mask_threshold",
    },
    "step.feature.loss_agg_mode": {"en": "loss_agg_mode", "zh": "loss_agg_mode"},
    "step.feature.norm_length": {"en": "norm_length", "zh": "norm_length"},
    "step.feature.overlong_filtering": {"en": "overlong filtering", "zh": "超长过滤"},
    "step.value.on": {"en": "on", "zh": "开"},
    "step.value.off": {"en": "off", "zh": "关"},
    "step.value.none": {"en": "none", "zh": "无"},
    "step.value.baseline": {"en": "{title}'s", "zh": "{title} 的"},
    "step.value.own": {"en": "its own", "zh": "它自己的"},
    # the cards: one line each, then the numbers the trainer gave
    "step.lede.responses": {
        "en": "The model answers **{prompt}** {G} times. Each row is one response, each cell one token, "
        "coloured by π_old: the probability the model gave the token it sampled.",
        "zh": "模型对 **{prompt}** 回答 {G} 次。每行是一个回答，每格是一个 token，颜色是 π_old：模型给它采样到的这个 "
        "token 的概率。",
    },
    "step.num.responses": {
        "en": "The right answer is **{answer}** (the sum, digits reversed). Lengths: {lengths} tokens.",
        "zh": "正确答案是 **{answer}**（和的各位数字倒序）。长度：{lengths} 个 token。",
    },
    "step.num.auto": {
        "en": "Drawn: the first of {n} prompts whose answers are not all alike.",
        "zh": "随机抽取：{n} 个提示词中第一个回答有对有错的。",
    },
    "step.num.dynamic_kept": {
        "en": "{title} keeps only groups whose rewards differ (dynamic sampling): this one is kept.",
        "zh": "{title} 只保留奖励不全相同的组（动态采样）：这一组被保留。",
    },
    "step.num.dynamic_dropped": {
        "en": "{title} keeps only groups whose rewards differ (dynamic sampling): in training this group would be "
        "dropped and another drawn; the page replays it anyway.",
        "zh": "{title} 只保留奖励不全相同的组（动态采样）：训练时这一组会被丢弃、重新抽一组；本页仍照样重放它。",
    },
    "step.lede.rewards": {
        "en": "A rule checks each answer: reward 1 if it is right, 0 if not. No model judges it.",
        "zh": "一条规则检查每个回答：答对奖励 1，答错 0。没有模型来打分。",
    },
    "step.num.rewards": {
        "en": "**{right}** of {G} right: mean reward **{mean}**.",
        "zh": "{G} 个回答中答对 **{right}** 个：平均奖励 **{mean}**。",
    },
    "step.num.shaped": {
        "en": "{title} subtracts a length penalty near the limit (overlong shaping): the advantages read {shaped}.",
        "zh": "{title} 在长度接近上限时扣一个长度惩罚（超长惩罚）：优势读到的是 {shaped}。",
    },
    "step.lede.advantages": {
        "en": "{title} turns the rewards into advantages: {rule}. A > 0 pushes a response's tokens up, A < 0 down.",
        "zh": "{title} 把奖励变成优势：{rule}。A > 0 把回答的 token 往上推，A < 0 往下推。",
    },
    "step.rule.group": {
        "en": "each reward minus the group's mean, divided by the group's standard deviation",
        "zh": "每个奖励减去组内均值，再除以组内标准差",
    },
    "step.rule.batch": {
        "en": "each reward minus the group's mean, divided by the batch's standard deviation",
        "zh": "每个奖励减去组内均值，再除以整批的标准差",
    },
    "step.rule.none": {
        "en": "each reward minus the group's mean (no division by a standard deviation)",
        "zh": "每个奖励减去组内均值（不除以标准差）",
    },
    "step.rule.gae": {
        "en": "GAE with a value model, one advantage per token (the bars show each response's mean)",
        "zh": "用价值模型做 GAE，每个 token 一个优势（条形是每个回答的平均值）",
    },
    "step.rule.estimator": {"en": "the estimator {estimator}", "zh": "估计器 {estimator}"},
    "step.num.advantages": {
        "en": "Rewards {rewards}: mean {mean}, standard deviation {std} (divided by G − 1). Advantages: {values}.",
        "zh": "奖励 {rewards}：均值 {mean}，标准差 {std}（除以 G − 1）。优势：{values}。",
    },
    "step.held_advantages": {
        "en": "Meanwhile the figure shows the rewards the advantages are computed from.",
        "zh": "在此之前，图中先给出计算优势所用的奖励。",
    },
    "step.lede.ratio": {
        "en": "The first optimizer step moved the policy. Each token's ratio r = π / π_old is what the second "
        "step sees (at the first it was 1 everywhere).",
        "zh": "第一次优化器更新已经改变了策略。每个 token 的比率 r = π / π_old 就是第二次更新看到的（第一次时处处为 1）。",
    },
    "step.num.ratio": {
        "en": "r from **{low}** to **{high}**; at the first step the trainer saw {first_low} to {first_high}.",
        "zh": "r 从 **{low}** 到 **{high}**；第一次更新时训练器看到的是 {first_low} 到 {first_high}。",
    },
    "step.num.band": {"en": "Trust band of r: [{low}, {high}].", "zh": "r 的信任域：[{low}, {high}]。"},
    "step.num.no_band": {
        "en": "{title} has no band of r: its trust region is soft or reads more than r.",
        "zh": "{title} 没有 r 的区间：它的信任域是软的，或者不只看 r。",
    },
    "step.num.sequence": {
        "en": "{title} uses one ratio per response (sequence level): each row has one colour.",
        "zh": "{title} 每个回答只用一个比率（序列级）：每一行只有一种颜色。",
    },
    "step.lede.clip": {
        "en": "Where the ratio has left the trust region in the direction the advantage pushes, {title} stops "
        "or bounds the token's gradient.",
        "zh": "比率朝优势推动的方向离开信任域时，{title} 停止或限制这个 token 的梯度。",
    },
    "step.num.clip": {
        "en": "Of the {n} tokens in the loss: {parts}. The trainer's own record of this step: clip fraction {fraction}.",
        "zh": "损失中的 {n} 个 token：{parts}。训练器自己对这一步的记录：裁剪比例 {fraction}。",
    },
    "step.num.clip_part": {"en": "{state} {share}", "zh": "{state} {share}"},
    "step.held_clip": {
        "en": "Meanwhile the figure shows the ratios the trust region reads.",
        "zh": "在此之前，图中先给出信任域读到的比率。",
    },
    "step.lede.weights": {
        "en": "Each token's push −∂L/∂log π, by autograd through the loss: orange raises its probability, "
        "purple lowers it, white leaves it.",
        "zh": "每个 token 的推力 −∂L/∂log π，由自动微分穿过损失得到：橙色抬高它的概率，紫色压低，白色不动。",
    },
    "step.num.weights": {
        "en": "{zero} of {n} tokens get no push (clipped, or A = 0); the largest push is {top}.",
        "zh": "{n} 个 token 中有 {zero} 个没有推力（被裁剪，或 A = 0）；最大的推力是 {top}。",
    },
    "step.num.kl": {
        "en": "The KL term to the reference adds β × {estimator} to every token's loss (β = {beta}).",
        "zh": "对参考策略的 KL 项给每个 token 的损失加上 β × {estimator}（β = {beta}）。",
    },
    "step.lede.aggregation": {
        "en": "The per-token losses become one number with {mode}: the colour is each token's share of the weight.",
        "zh": "逐 token 的损失用 {mode} 聚合成一个数：颜色是每个 token 在权重中的份额。",
    },
    "step.num.aggregation": {
        "en": "loss = Σ w·ℓ = **{loss}**. {rule} The longest response's tokens together weigh {long}; the "
        "shortest's {short}.",
        "zh": "损失 = Σ w·ℓ = **{loss}**。{rule}最长回答的 token 合计权重 {long}；最短的 {short}。",
    },
    "step.agg.token-mean": {
        "en": "Every token weighs the same, 1/{N} ({N} tokens in the loss).",
        "zh": "每个 token 权重相同，都是 1/{N}（损失中有 {N} 个 token）。",
    },
    "step.agg.seq-mean-token-mean": {
        "en": "Each response weighs 1/{G}, shared by its tokens: 1/(G·L_i) each.",
        "zh": "每个回答权重 1/{G}，由它的 token 平分：每个 1/(G·L_i)。",
    },
    "step.agg.seq-mean-token-sum": {
        "en": "Every token weighs 1/{G}: a long response weighs more.",
        "zh": "每个 token 权重 1/{G}：长回答的总权重更大。",
    },
    "step.agg.seq-mean-token-sum-norm": {
        "en": "Every token weighs 1/(G·L_max) = 1/({G}·{lmax}).",
        "zh": "每个 token 权重 1/(G·L_max) = 1/({G}·{lmax})。",
    },
    "step.agg.token-sum": {
        "en": "Every token weighs 1: the loss is the sum over all {N} tokens, so the step grows with the batch.",
        "zh": "每个 token 权重为 1：损失是全部 {N} 个 token 之和，所以这一步随批次变大。",
    },
    "step.lede.update": {
        "en": "The optimizer step changes the weights: each token's log-probability moved by Δ log π (orange up, "
        "purple down).",
        "zh": "优化器这一步改变了权重：每个 token 的对数概率移动了 Δ log π（橙色上升，紫色下降）。",
    },
    "step.num.update": {
        "en": "The loss went from {before} to **{after}**, a change of {actual}; to first order the tokens' moves "
        "predict a change of −Σ push·Δ log π = {first}. {agree} of {pushed} pushed tokens moved the way they "
        "were pushed: the step changes weights that every token shares, so a token also moves with the pushes "
        "on the others, and a small push can lose to them.",
        "zh": "损失从 {before} 变为 **{after}**，变化 {actual}；按一阶近似，这些 token 的移动预测的变化是 "
        "−Σ 推力·Δ log π = {first}。{pushed} 个被推的 token 中有 {agree} 个按推的方向移动：这一步改变的是所有 "
        "token 共用的权重，所以一个 token 也会随其他 token 受到的推力移动，小的推力可能被它们压过。",
    },
    "step.num.update_none": {
        "en": "The loss went from {before} to **{after}**. No token was pushed (each was clipped or had A = 0): "
        "they moved only through the weights every token shares.",
        "zh": "损失从 {before} 变为 **{after}**。没有 token 被推（每个都被裁剪或 A = 0）：它们只是随所有 token "
        "共用的权重一起移动。",
    },
    # figures: short titles (they must fit 1024 px), colour bars, hovers
    "step.fig.responses": {"en": "{prompt} → {G} responses", "zh": "{prompt} → {G} 个回答"},
    "step.fig.rewards": {"en": "Reward per response", "zh": "每个回答的奖励"},
    "step.fig.advantages": {"en": "Advantage per response", "zh": "每个回答的优势"},
    "step.fig.ratio": {"en": "r = π / π_old at the second step", "zh": "第二次更新时的 r = π / π_old"},
    "step.fig.clip": {"en": "What the trust region did", "zh": "信任域做了什么"},
    "step.fig.weights": {"en": "Push −∂L/∂log π", "zh": "推力 −∂L/∂log π"},
    "step.fig.aggregation": {"en": "Share of the loss: {mode}", "zh": "损失中的份额：{mode}"},
    "step.fig.update": {"en": "Δ log π at the step", "zh": "这一步的 Δ log π"},
    "step.axis.reward": {"en": "reward", "zh": "奖励"},
    "step.axis.advantage": {"en": "advantage A", "zh": "优势 A"},
    "step.cb.old_prob": {"en": "π_old", "zh": "π_old"},
    "step.cb.ratio": {"en": "ratio r", "zh": "比率 r"},
    "step.cb.push": {"en": "push", "zh": "推力"},
    "step.cb.share": {"en": "share", "zh": "份额"},
    "step.cb.delta": {"en": "Δ log π", "zh": "Δ log π"},
    "step.h.old_prob": {"en": "π_old", "zh": "π_old"},
    "step.h.prob": {"en": "π before the step", "zh": "更新前的 π"},
    "step.h.new_prob": {"en": "π after the step", "zh": "更新后的 π"},
    "step.h.ratio": {"en": "r (the objective's)", "zh": "r（目标函数用的）"},
    "step.h.token_ratio": {"en": "token r", "zh": "token 的 r"},
    "step.h.advantage": {"en": "A", "zh": "A"},
    "step.h.push": {"en": "push", "zh": "推力"},
    "step.h.loss": {"en": "ℓ", "zh": "ℓ"},
    "step.h.weight": {"en": "w", "zh": "w"},
    "step.h.share": {"en": "share", "zh": "份额"},
    "step.h.state": {"en": "state", "zh": "状态"},
    "step.row": {"en": "#{i} {mark}", "zh": "#{i} {mark}"},
    "step.row_adv": {"en": "#{i} {mark} A={adv}", "zh": "#{i} {mark} A={adv}"},
    # the line under a figure of the responses' tokens: what its marks are (rlviz.experiments.step.token_note)
    "step.tokens_filler": {
        "en": "“{filler}” is not padding: it is a character of the task, a filler the model may write before "
        "its digits. The verifier ignores fillers before the digits, but each is a sampled token, in the loss "
        "like the digits.",
        "zh": "“{filler}” 不是填充（padding）：它是任务里的一个字符，是模型可以在数字前写下的占位符。判分时会忽略数字前的"
        "占位符，但每一个都是采样出来的 token，和数字一样计入损失。",
    },
    "step.tokens_eos": {
        "en": "“{eos}” is the end-of-sequence token (EOS), in the loss too; the padding after it is neither "
        "drawn nor in the loss.",
        "zh": "“{eos}” 是序列结束符（EOS），同样计入损失；它后面的填充既不画出，也不计入损失。",
    },
    "step.state.active": {"en": "active", "zh": "有梯度"},
    "step.state.clipped": {"en": "clipped", "zh": "被裁剪"},
    "step.state.capped": {"en": "capped", "zh": "被截顶"},
    "step.state.gated": {"en": "gated", "zh": "被门控"},
    "step.state.masked": {"en": "masked", "zh": "被屏蔽"},
    # predict, then check
    "step.q_at": {"en": "Stage {k} · {stage}", "zh": "第 {k} 阶段 · {stage}"},
    "step.q_advantage.q": {
        "en": "Look at the rewards (stage 2). What advantage does {title} give response #1?",
        "zh": "看看奖励（第 2 阶段）。{title} 给第 1 个回答的优势是多少？",
    },
    "step.q_advantage.why": {
        "en": "The rewards the advantages read are {rewards}: mean {mean}, standard deviation {std} (the unbiased "
        "one, divided by G − 1 = {G} − 1). Response #1 has reward {reward}, so it gets {answer}: above the "
        "mean is positive, below it negative, whatever the model wrote.",
        "zh": "优势读到的奖励是 {rewards}：均值 {mean}，标准差 {std}（无偏的那个，除以 G − 1 = {G} − 1）。"
        "第 1 个回答的奖励是 {reward}，所以它得到 {answer}：高于均值为正，低于均值为负，与模型写了什么无关。",
    },
    "step.q_advantage.where": {
        "en": "Stage 3 draws every response's advantage.",
        "zh": "第 3 阶段画出了每个回答的优势。",
    },
    "step.q_clip.q": {
        "en": "After the first step, what share of the tokens in the loss will {title}'s clip stop (zero gradient) "
        "at the second? Its band is [{low}, {high}]; the ratios are on stage 4.",
        "zh": "第一次更新之后，到第二次更新时，{title} 的裁剪会让损失中多大比例的 token 梯度为零？它的区间是 "
        "[{low}, {high}]；比率在第 4 阶段。",
    },
    "step.q_clip.why": {
        "en": "{clipped} of the {n} tokens: a token is clipped only when its ratio has left the band in the "
        "direction its advantage pushes (A > 0 and r above {high}, or A < 0 and r below {low}); a token outside "
        "the band on the other side keeps its gradient.",
        "zh": "{n} 个 token 中有 {clipped} 个：只有当比率朝优势推动的方向离开区间时才会被裁剪（A > 0 且 r 高于 "
        "{high}，或 A < 0 且 r 低于 {low}）；在另一侧越界的 token 仍然保留梯度。",
    },
    "step.q_clip.where": {
        "en": "Stage 5 colours the clipped tokens.",
        "zh": "第 5 阶段给被裁剪的 token 上了色。",
    },
    # explanations on demand
    "step.notes_intro": {
        "en": "**What runs.** The shipped tiny model (a 0.8M-parameter Llama) samples one group, and the "
        "trainer of `rlviz.lm.trainer` takes its own update on it: μ = 2 passes over the group, one "
        "mini-batch each, AdamW at the chosen learning rate. The first optimizer step is on-policy, so every "
        "ratio is exactly 1 and no clip can act; it moves the policy. The second step sees ratios ≠ 1: stages "
        "4 to 8 show that second step (its ratios, clip, gradient weights, loss) and how it moved each token. "
        "Choosing another objective replays the same responses and the same π_old from the same weights; "
        "only what that objective changes changes. Every number on the page is the trainer's.",
        "zh": "**运行的是什么。** 随附的小模型（80 万参数的 Llama）采样一组回答，`rlviz.lm.trainer` 的训练器在上面"
        "做它自己的更新：对这一组做 μ = 2 轮，每轮一个 mini-batch，AdamW 用所选的学习率。第一次优化器更新是同策略的，"
        "所以每个比率都恰好是 1，裁剪不会起作用；它改变了策略。第二次更新看到的比率 ≠ 1：第 4 到第 8 阶段展示的就是"
        "这第二次更新（它的比率、裁剪、梯度权重、损失）以及它如何移动每个 token。换一个目标函数会从同样的权重出发，"
        "重放同样的回答和同样的 π_old；只有这个目标函数改变的部分会变。页面上的每个数字都来自训练器。",
    },
    "step.notes.responses": {
        "en": "The task is addition written backwards (37+5= → 24). The model samples each response token by "
        "token at temperature 1 until it writes ⏎ (end) or reaches the length limit. π_old is the probability "
        "of each sampled token under the policy that sampled it; the trainer recomputes it before the first "
        "step (verl's `old_log_prob`), and it is the denominator of every ratio later. A group whose answers "
        "are all right or all wrong teaches nothing: its advantages are all 0 (the dynamic-sampling page).",
        "zh": "任务是倒序书写的加法（37+5= → 24）。模型以温度 1 一个 token 一个 token 地采样，直到写出 ⏎（结束）"
        "或达到长度上限。π_old 是采样它的那个策略给每个采到的 token 的概率；训练器在第一次更新前重新计算它"
        "（verl 的 `old_log_prob`），之后它是每个比率的分母。回答全对或全错的组学不到东西：它的优势全为 0"
        "（见动态采样页）。",
    },
    "step.notes.rewards": {
        "en": "The reward is verifiable: a rule compares the answer with the true sum (1 or 0). An objective with "
        "DAPO's overlong shaping subtracts a penalty that grows linearly over the last tokens before the limit; "
        "the advantages then read the shaped reward.",
        "zh": "奖励是可验证的：一条规则把答案和真实的和比较（1 或 0）。带 DAPO 超长惩罚的目标函数会在接近长度上限的"
        "最后几个 token 里扣一个线性增长的惩罚；此时优势读的是加了惩罚的奖励。",
    },
    "step.notes.advantages": {
        "en": "GRPO needs no value model: the group is its own baseline. A response better than its siblings gets "
        "A > 0, a worse one A < 0, and every token of a response shares its A. Dr.GRPO drops the division by "
        "the standard deviation (it over-weights groups that are almost all right or all wrong); PPO learns a "
        "value model and gives each token its own advantage (GAE).",
        "zh": "GRPO 不需要价值模型：组本身就是基线。比同组其他回答好的得到 A > 0，差的得到 A < 0，同一个回答的"
        "每个 token 共享它的 A。Dr.GRPO 去掉了除以标准差（它会放大几乎全对或全错的组）；PPO 学一个价值模型，"
        "给每个 token 自己的优势（GAE）。",
    },
    "step.notes.ratio": {
        "en": "r = π_θ(token) / π_old(token). It is 1 at the first update on fresh samples and drifts as the "
        "policy moves (here: after one AdamW step). A sequence-level objective (GSPO) uses the geometric mean "
        "of a response's token ratios, one number per response. The band shown is the objective's trust region "
        "at its defaults (`trust_band`).",
        "zh": "r = π_θ(token) / π_old(token)。在新采样上做第一次更新时它等于 1，随着策略移动而偏离（这里：一次 "
        "AdamW 更新之后）。序列级目标（GSPO）用一个回答里各 token 比率的几何平均，每个回答一个数。图中的区间是"
        "目标函数默认设置下的信任域（`trust_band`）。",
    },
    "step.notes.clip": {
        "en": "PPO's clip takes min(r·A, clip(r)·A): once r has moved past the band in the direction A wants, the "
        "token's term is flat and its gradient is zero (clipped). A token outside the band on the other side "
        "keeps its gradient: the clip only stops further progress, never a correction. CISPO caps the weight "
        "but keeps the gradient (capped); SAPO replaces the edge with a soft gate (gated). The states come "
        "from `token_states`, read from the objective's spec.",
        "zh": "PPO 的裁剪取 min(r·A, clip(r)·A)：一旦 r 朝 A 想要的方向越过区间，这个 token 的项就变平，梯度为零"
        "（被裁剪）。在另一侧越界的 token 保留梯度：裁剪只阻止继续前进，从不阻止纠正。CISPO 截顶权重但保留梯度"
        "（被截顶）；SAPO 用软门控代替硬边界（被门控）。这些状态来自 `token_states`，由目标函数的规格决定。",
    },
    "step.notes.weights": {
        "en": "The push of a token is −∂L/∂log π, computed by autograd through the whole loss (`gradient_weights`): "
        "the factor that multiplies ∇ log π(token) in the update. On-policy it is A times the token's "
        "aggregation weight; off-policy the ratio, the clip and a KL term change it.",
        "zh": "一个 token 的推力是 −∂L/∂log π，由自动微分穿过整个损失得到（`gradient_weights`）：更新中乘在 "
        "∇ log π(token) 前面的系数。同策略时它等于 A 乘以这个 token 的聚合权重；异策略时比率、裁剪和 KL 项会改变它。",
    },
    "step.notes.aggregation": {
        "en": "`loss_agg_mode` decides how the per-token losses ℓ become one number: L = Σ w·ℓ. Under token-mean "
        "every token weighs alike, so a long response counts more; under seq-mean-token-mean every response "
        "weighs alike, so a token of a short response counts more. The colour is w / Σ w, each token's share.",
        "zh": "`loss_agg_mode` 决定逐 token 的损失 ℓ 如何变成一个数：L = Σ w·ℓ。token-mean 下每个 token 权重相同，"
        "所以长回答占比更大；seq-mean-token-mean 下每个回答权重相同，所以短回答里的 token 占比更大。颜色是 "
        "w / Σ w，即每个 token 的份额。",
    },
    "step.notes.update": {
        "en": "The optimizer step moves the weights, not the tokens: every token's probability moves with the "
        "weights it shares with the others, so a token can move against its own push. On average the pushed "
        "tokens move their way, and the loss falls by about Σ push·Δ log π. AdamW also carries momentum from "
        "the first step.",
        "zh": "优化器移动的是权重，而不是 token：每个 token 的概率都随它与其他 token 共用的权重一起移动，所以一个 "
        "token 可能逆着自己的推力移动。平均而言被推的 token 按推的方向移动，损失大约下降 Σ 推力·Δ log π。"
        "AdamW 还带着第一次更新的动量。",
    },
    "step.practitioners": {
        "en": "- μ = 2 passes over one batch: TRL `num_iterations=2`, verl `actor.ppo_epochs=2`; one mini-batch per "
        "pass: TRL `steps_per_generation=1`, verl `ppo_mini_batch_size` = the batch.\n"
        "- π_old is the trainer's recompute before the first update (verl `old_log_prob`); the clip fraction "
        "of the second step is what TRL logs as `clip_ratio/region_mean` and verl as `actor/pg_clipfrac`.\n"
        "- The aggregation: verl `actor.loss_agg_mode`, TRL `loss_type`. The objective: {selector}.",
        "zh": "- 对一批数据做 μ = 2 轮：TRL `num_iterations=2`，verl `actor.ppo_epochs=2`；每轮一个 mini-batch："
        "TRL `steps_per_generation=1`，verl `ppo_mini_batch_size` 等于整批。\n"
        "- π_old 是训练器在第一次更新前重新计算的（verl `old_log_prob`）；第二次更新的裁剪比例就是 TRL 记录的 "
        "`clip_ratio/region_mean`、verl 记录的 `actor/pg_clipfrac`。\n"
        "- 聚合方式：verl `actor.loss_agg_mode`，TRL `loss_type`。目标函数：{selector}。",
    },
    "step.selector_none": {"en": "no framework selector", "zh": "没有框架选择参数"},
    "step.csv": {"en": "Download every token's numbers (CSV)", "zh": "下载每个 token 的数据（CSV）"},
}
