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
}
