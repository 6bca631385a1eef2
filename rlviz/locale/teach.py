"""Strings of the predict-then-reveal questions (``rlviz.teach.predict``) and their component."""

STRINGS = {
    "teach.header": {"en": "Predict, then check", "zh": "先预测，再验证"},
    "teach.intro": {
        "en": "Commit to an answer before you look: the app then computes the true value at the page's current "
        "settings.",
        "zh": "先写下你的答案再看：应用随后按页面当前的设置算出真实值。",
    },
    "teach.your_guess": {"en": "Your answer", "zh": "你的答案"},
    "teach.commit": {"en": "Commit and reveal", "zh": "提交并揭晓"},
    "teach.again": {"en": "Try again", "zh": "再试一次"},
    "teach.right": {"en": "Right: {answer}.", "zh": "答对了：{answer}。"},
    "teach.wrong": {
        "en": "Not quite: you said {guess}, the computed answer is {answer}.",
        "zh": "不太对：你的答案是 {guess}，算出来的是 {answer}。",
    },
    "teach.changed": {
        "en": "The settings changed since you answered: the question is asked again at the new settings.",
        "zh": "你作答之后设置变了：按新的设置重新提问。",
    },
    "teach.curves_ceiling.q": {
        "en": "A token has π_old = 0.2 and a positive advantage. Under PPO's clip with ε_high = {eps_high}, up to "
        "which probability π does the update keep pushing it before its gradient becomes zero?",
        "zh": "某个 token 的 π_old = 0.2，优势为正。在 ε_high = {eps_high} 的 PPO 裁剪下，更新会把它的概率 π 推到多高，"
        "之后梯度就变为零？",
    },
    "teach.curves_ceiling.why": {
        "en": "The clip keeps the ratio r = π/π_old at most {band_high}; with A > 0 the objective is flat beyond it, "
        "so π stops at 0.2 × {band_high} = {answer}. The overlay above shows the A > 0 gradient dropping to zero "
        "at r = {band_high}.",
        "zh": "裁剪让比率 r = π/π_old 不超过 {band_high}；A > 0 时超过它目标函数就是平的，所以 π 停在 "
        "0.2 × {band_high} = {answer}。上面的叠加图里，A > 0 的梯度在 r = {band_high} 处降为零。",
    },
    "teach.curves_negative.q": {
        "en": "A token has a negative advantage and ratio r = 1.5, far above the band's upper end {band_high} "
        "(dual-clip c = {c}; ∞ means off). Does PPO's clip stop its gradient?",
        "zh": "某个 token 的优势为负，比率 r = 1.5，远高于裁剪区间的上端 {band_high}（dual-clip c = {c}；∞ 表示关闭）。PPO 的裁剪会"
        "让它的梯度变为零吗？",
    },
    "teach.curves_negative.choice.flows": {
        "en": "No: the gradient still flows",
        "zh": "不会：梯度仍然存在",
    },
    "teach.curves_negative.choice.zero": {"en": "Yes: the gradient is zero", "zh": "会：梯度为零"},
    "teach.curves_negative.why.flows": {
        "en": "With A < 0 the min picks the unclipped term r·A once r > 1 + ε, so the token keeps a gradient "
        "(autograd of the loss at r = 1.5 gives d loss/d log π = {weight}); only the dual clip caps it, once "
        "r > c. See the A < 0 panel and the table of the six cases.",
        "zh": "A < 0 时，一旦 r > 1 + ε，min 取的是未裁剪的 r·A，所以这个 token 仍有梯度（在 r = 1.5 处对损失"
        "自动求导得 d loss/d log π = {weight}）；只有 dual clip 在 r > c 时才截住它。见 A < 0 的面板和六种情况的表格。",
    },
    "teach.curves_negative.why.zero": {
        "en": "With A < 0 the min would pick the unclipped term r·A, but the dual clip at c = {c} caps the loss "
        "once r > c, so at r = 1.5 the gradient is zero (autograd of the loss gives d loss/d log π = {weight}). "
        "See the A < 0 panel.",
        "zh": "A < 0 时 min 本会取未裁剪的 r·A，但 c = {c} 的 dual clip 在 r > c 时截住了损失，所以在 r = 1.5 处梯度为零"
        "（对损失自动求导得 d loss/d log π = {weight}）。见 A < 0 的面板。",
    },
    "teach.weighting_token_mean.q": {
        "en": "Under token-mean, how many times the total weight of the shortest response ({short} tokens) does "
        "the longest one ({long} tokens) get?",
        "zh": "在 token-mean 下，最长的回答（{long} 个 token）得到的总权重是最短的回答（{short} 个 token）的几倍？",
    },
    "teach.weighting_token_mean.why": {
        "en": "token-mean gives every token of the group the same weight 1/{total}, so a response's total is its "
        "length over {total}: {long}/{short} = {answer}×. Long answers dominate the update.",
        "zh": "token-mean 给组里每个 token 相同的权重 1/{total}，所以一条回答的总权重是它的长度除以 {total}："
        "{long}/{short} = {answer} 倍。长回答主导了这次更新。",
    },
    "teach.weighting_seq_mean.q": {
        "en": "Under seq-mean-token-mean (GRPO's paper), how many times the weight of one token of the longest "
        "response does one token of the shortest response get?",
        "zh": "在 seq-mean-token-mean（GRPO 论文的做法）下，最短回答的一个 token 的权重是最长回答的一个 token 的几倍？",
    },
    "teach.weighting_seq_mean.why": {
        "en": "Each response first averages over its own tokens and then counts 1/{B}, so a token weighs "
        "1/({B}·L): the short response's tokens weigh {long}/{short} = {answer}× more. This is the length bias "
        "Dr.GRPO removes.",
        "zh": "每条回答先在自己的 token 上取平均，再各占 1/{B}，所以一个 token 的权重是 1/({B}·L)：短回答的 token "
        "重 {long}/{short} = {answer} 倍。这正是 Dr.GRPO 去掉的长度偏差。",
    },
    "teach.length_in_buffer.q": {
        "en": "DAPO's soft overlong punishment with L_max = {lmax}, L_cache = {lcache} and factor {factor}: what "
        "does it add to the reward of a response of {n} tokens?",
        "zh": "DAPO 的软超长惩罚，L_max = {lmax}、L_cache = {lcache}、系数 {factor}：一条 {n} 个 token 的回答，奖励会被加上多少？",
    },
    "teach.length_in_buffer.why": {
        "en": "The penalty is 0 up to L_max − L_cache = {start} tokens, then falls linearly to −{factor} at L_max: "
        "at {n} tokens it is {answer}. The curve above shows the ramp.",
        "zh": "惩罚在 L_max − L_cache = {start} 个 token 以内为 0，之后线性下降，到 L_max 时为 −{factor}：在 {n} 个 "
        "token 处是 {answer}。上面的曲线画出了这段斜坡。",
    },
    "teach.length_at_limit.q": {
        "en": "Same settings (L_max = {lmax}, L_cache = {lcache}, factor {factor}): what does a response of exactly "
        "L_max = {lmax} tokens get added?",
        "zh": "同样的设置（L_max = {lmax}、L_cache = {lcache}、系数 {factor}）：一条恰好 L_max = {lmax} 个 token 的回答"
        "会被加上多少？",
    },
    "teach.length_at_limit.why": {
        "en": "At L_max the ramp has reached its end, so the penalty is {answer} (with L_cache = 0 there is no "
        "ramp and only responses beyond L_max are punished).",
        "zh": "到 L_max 时斜坡已经走完，所以惩罚是 {answer}（L_cache = 0 时没有斜坡，只有超过 L_max 的回答才被惩罚）。",
    },
    "teach.sampling_easy.q": {
        "en": "An easy prompt the model answers right 90% of the time gets G = {G} samples. What is the chance that "
        "its group carries a learning signal (not all rewards equal)?",
        "zh": "一道模型有 90% 概率答对的简单题，采 G = {G} 条回答。这一组带有学习信号（奖励不全相同）的概率是多少？",
    },
    "teach.sampling_easy.why": {
        "en": "1 − 0.9^{G} − 0.1^{G} = {answer}: the group is all right with probability 0.9^{G}, and then every "
        "advantage is 0. The curves below show it for every pass rate.",
        "zh": "1 − 0.9^{G} − 0.1^{G} = {answer}：整组全对的概率是 0.9^{G}，这时所有优势都是 0。下面的曲线给出了每个通过率下的值。",
    },
    "teach.sampling_hard.q": {
        "en": "A hard prompt the model answers right 5% of the time, also G = {G} samples: the chance its group "
        "carries a signal?",
        "zh": "一道模型只有 5% 概率答对的难题，同样采 G = {G} 条：这一组带有学习信号的概率是多少？",
    },
    "teach.sampling_hard.why": {
        "en": "1 − 0.05^{G} − 0.95^{G} = {answer}: all wrong with probability 0.95^{G}. Hard prompts need larger "
        "groups to teach anything, which dynamic sampling pays for in rollouts.",
        "zh": "1 − 0.05^{G} − 0.95^{G} = {answer}：整组全错的概率是 0.95^{G}。难题需要更大的组才能学到东西，"
        "动态采样为此付出更多采样。",
    },
}
