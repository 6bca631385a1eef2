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
    "teach.enter_first": {
        "en": "Enter your guess first (or 'Skip: show me' to see the answer without one).",
        "zh": "请先填写你的猜测（或点“跳过：直接看答案”）。",
    },
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
        "zh": "某个 token 的优势为负，比率 r = 1.5，远高于裁剪区间的上端 {band_high}（双重裁剪 c = {c}；∞ 表示关闭）。PPO 的裁剪会"
        "让它的梯度变为零吗？",
    },
    "teach.curves_negative.choice.flows": {
        "en": "No: the gradient still flows",
        "zh": "不会：梯度仍然存在",
    },
    "teach.curves_negative.choice.zero": {"en": "Yes: the gradient is zero", "zh": "会：梯度为零"},
    "teach.curves_negative.why.flows": {
        "en": "With A < 0 the min picks the unclipped term r·A once r > 1 + ε, so the token keeps a gradient "
        "(autograd at r = 1.5 gives the gradient weight w = ∂J/∂log π = {weight}, negative: pushed down); only the dual clip caps it, once "
        "r > c. See the A < 0 panel and the table of the six cases.",
        "zh": "A < 0 时，一旦 r > 1 + ε，min 取的是未裁剪的 r·A，所以这个 token 仍有梯度（在 r = 1.5 处自动求导得"
        "梯度权重 w = ∂J/∂log π = {weight}，为负：概率往下压）；只有双重裁剪在 r > c 时才截住它。见 A < 0 的面板和六种情况的表格。",
    },
    "teach.curves_negative.why.zero": {
        "en": "With A < 0 the min would pick the unclipped term r·A, but the dual clip at c = {c} caps the loss "
        "once r > c, so at r = 1.5 the gradient is zero (autograd gives the gradient weight w = ∂J/∂log π = {weight}). "
        "See the A < 0 panel.",
        "zh": "A < 0 时 min 本会取未裁剪的 r·A，但 c = {c} 的双重裁剪在 r > c 时截住了损失，所以在 r = 1.5 处梯度为零"
        "（自动求导得梯度权重 w = ∂J/∂log π = {weight}）。见 A < 0 的面板。",
    },
    "teach.weighting_token_mean.q": {
        "en": "Under token-mean, how many times the total weight of the shortest response ({short} {short:plural:token|tokens}) does "
        "the longest one ({long} {long:plural:token|tokens}) get?",
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
        "does it add to the reward of a response of {n} {n:plural:token|tokens}?",
        "zh": "DAPO 的软超长惩罚，L_max = {lmax}、L_cache = {lcache}、系数 {factor}：一条 {n} 个 token 的回答，奖励会被加上多少？",
    },
    "teach.length_in_buffer.why": {
        "en": "The penalty is 0 up to L_max − L_cache = {start} {start:plural:token|tokens}, then falls linearly to −{factor} at L_max: "
        "at {n} {n:plural:token|tokens} it is {answer}. The curve above shows the ramp.",
        "zh": "惩罚在 L_max − L_cache = {start} 个 token 以内为 0，之后线性下降，到 L_max 时为 −{factor}：在 {n} 个 "
        "token 处是 {answer}。上面的曲线画出了这段斜坡。",
    },
    "teach.length_at_limit.q": {
        "en": "Same settings (L_max = {lmax}, L_cache = {lcache}, factor {factor}): what does a response of exactly "
        "L_max = {lmax} {lmax:plural:token|tokens} get added?",
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
        "zh": "一个模型有 90% 概率答对的简单提示词，采 G = {G} 条回答。这一组带有学习信号（奖励不全相同）的概率是多少？",
    },
    "teach.sampling_easy.why": {
        "en": "1 − 0.9^{G} − 0.1^{G} = {answer}: the group is all right with probability 0.9^{G}, and then every "
        "advantage is 0. The curves below show it for every pass rate.",
        "zh": "1 − 0.9^{G} − 0.1^{G} = {answer}：整组全对的概率是 0.9^{G}，这时所有优势都是 0。下面的曲线给出了每个通过率下的值。",
    },
    "teach.sampling_hard.q": {
        "en": "A hard prompt the model answers right 5% of the time, also G = {G} samples: the chance its group "
        "carries a signal?",
        "zh": "一个模型只有 5% 概率答对的难的提示词，同样采 G = {G} 条：这一组带有学习信号的概率是多少？",
    },
    "teach.sampling_hard.why": {
        "en": "1 − 0.05^{G} − 0.95^{G} = {answer}: all wrong with probability 0.95^{G}. Hard prompts need larger "
        "groups to teach anything, which dynamic sampling pays for in rollouts.",
        "zh": "1 − 0.05^{G} − 0.95^{G} = {answer}：整组全错的概率是 0.95^{G}。难的提示词需要更大的组才能学到东西，"
        "动态采样为此付出更多 rollout。",
    },
    # -- the component, for answers read from a run, and the pointer to the figure ---------------
    "teach.intro_run": {
        "en": "Commit to an answer before you start the run: each answer is read from the finished run with the "
        "settings above, and your answer is kept while it runs.",
        "zh": "开始训练之前先写下你的答案：每个答案都从按上面设置跑完的那次运行中读出，运行期间你的答案会一直保留。",
    },
    "teach.waiting": {
        "en": "Your answer: {guess}. The answer is read from the finished run with these settings: it appears "
        "here once the run has finished.",
        "zh": "你的答案：{guess}。答案要从按这些设置跑完的运行中读出：运行结束后会显示在这里。",
    },
    "teach.no_answer": {
        "en": "This run holds no answer to the question: {error}",
        "zh": "这次运行没有给出这道题的答案：{error}",
    },
}


def _with(text: dict[str, str], **names: dict[str, str]) -> dict[str, str]:
    """``text`` with each ``{name}`` replaced, in each language, by ``names[name]`` in that language:
    the name of a figure element, taken from its page's own locale module so the pointer and the page
    never disagree. Other placeholders stay for formatting."""
    out = {}
    for lang, value in text.items():
        for name, label in names.items():
            value = value.replace("{" + name + "}", label[lang])
        out[lang] = value
    return out


# -- the live page -----------------------------------------------------------------------------
from rlviz.locale.live import STRINGS as _LIVE  # noqa: E402 -- the names of the live page's figures

STRINGS |= {
    "teach.live_zero_adv.q": {
        "en": "Step 1 samples {n} {n:plural:prompt|prompts}, G = {G} responses each. What share of {arm}'s groups in step 1 will "
        "have all rewards equal (all right or all wrong), so that every advantage in them is 0?",
        "zh": "第 1 步抽 {n} 个提示词，每个采 G = {G} 条回答。{arm} 在第 1 步的各组中，有多大比例的组奖励全都相同（全对或全错），"
        "因而组内每个优势都是 0？",
    },
    "teach.live_zero_adv.why": {
        "en": "{answer} of {arm}'s groups in step 1 had equal rewards: each cost {G} samples and adds nothing to the "
        "gradient. Step 1's measured pass@1 was p = {p}; if every prompt had that pass rate, a group would be "
        "all-equal with chance p^G + (1 − p)^G = {uniform}. With prompts of different difficulty the expected "
        "share is at least that (the chance is convex in p): easy prompts come back all right, hard ones all wrong.",
        "zh": "{arm} 在第 1 步有 {answer} 的组奖励全相同：每组花掉 {G} 条采样，却对梯度毫无贡献。第 1 步实测的 pass@1 是 "
        "p = {p}；如果每个提示词的通过率都是这个 p，一组全相同的概率是 p^G + (1 − p)^G = {uniform}。提示词难度不一时，"
        "全相同组的期望占比不低于这个值（这个概率是 p 的凸函数）：简单的提示词全对，难的全错。",
    },
    "teach.live_zero_adv.where": _with(
        {
            "en": "In “{curves}”: the panel “{panel}” at step 1, line {arm}.",
            "zh": "见“{curves}”：面板“{panel}”第 1 步，{arm} 那条线。",
        },
        curves=_LIVE["live.curves"],
        panel=_LIVE["metric.zero_adv_group_fraction"],
    ),
    "teach.live_clip.q": {
        "en": "With μ = {mu} {mu:plural:pass|passes} and {mb} {mb:plural:mini-batch|mini-batches}, {arm} makes {updates} {updates:plural:update|updates} per step. What clip "
        "fraction will it report for step 1: the share of response tokens its clip acts on (band [{low}, {high}]), "
        "averaged over those updates?",
        "zh": "μ = {mu} 轮、{mb} 个小批次时，{arm} 每一步做 {updates} 次更新。它在第 1 步报告的裁剪比例是多少？即裁剪"
        "（区间 [{low}, {high}]）作用到的回答 token 占比，在这些更新上取平均。",
    },
    "teach.live_clip.why": {
        "en": "{arm} reported {answer}. The first update of a step is on-policy: the trainer recomputes π_old with "
        "the same weights just before it, so every ratio is exactly 1 and nothing is clipped. Only the {later} "
        "later {later:plural:update sees|updates see} a policy that has moved; over step 1 the ratio ranged over [{rmin}, {rmax}], against "
        "the band [{low}, {high}].",
        "zh": "{arm} 报告的是 {answer}。每一步的第一次更新是同策略的：训练器就在它之前用同一组权重重算 π_old，所以每个比率"
        "都正好是 1，什么也不裁剪。只有之后的 {later} 次更新看到的是已经变动的策略；第 1 步中比率落在 [{rmin}, {rmax}]，"
        "裁剪区间是 [{low}, {high}]。",
    },
    "teach.live_clip.where": _with(
        {
            "en": "In “{curves}”: the panel “{panel}” at step 1, line {arm}; the ratios themselves in “{ratios}” at "
            "step 1.",
            "zh": "见“{curves}”：面板“{panel}”第 1 步，{arm} 那条线；比率本身见“{ratios}”的第 1 步。",
        },
        curves=_LIVE["live.curves"],
        panel=_LIVE["metric.clip_fraction"],
        ratios=_LIVE["live.ratio_header"],
    ),
    "teach.live_heldout.q": {
        "en": "Which objective will end the {steps} {steps:plural:step|steps} with the highest held-out pass@1 (measured on {n} "
        "{n:plural:sample|samples} each)?",
        "zh": "跑完 {steps} 步后，哪个目标函数的留出集 pass@1 最高（每个在 {n} 个样本上测量）？",
    },
    "teach.live_heldout.why.apart": {
        "en": "{best} ends highest, at {best_value} (every objective started at {start}). The next, {second}, ends "
        "at {second_value}: a gap of {gap}, more than two standard errors of the difference of two pass rates "
        "measured on {n} {n:plural:sample|samples} each ({two_se}), so this run tells them apart.",
        "zh": "{best} 最终最高，为 {best_value}（所有目标函数的起点都是 {start}）。其次是 {second}，为 {second_value}："
        "差距 {gap}，超过了两个各在 {n} 个样本上测得的通过率之差的两个标准误（{two_se}），所以这次运行能把它们分开。",
    },
    "teach.live_heldout.why.tied": {
        "en": "{best} ends highest, at {best_value} (every objective started at {start}), but {second} ends at "
        "{second_value}: a gap of {gap}, within two standard errors of the difference of two pass rates measured on "
        "{n} {n:plural:sample|samples} each ({two_se}). This run cannot tell {answer} apart, so each of them counts as right; more "
        "held-out samples shrink the standard error.",
        "zh": "{best} 最终最高，为 {best_value}（所有目标函数的起点都是 {start}），但 {second} 为 {second_value}："
        "差距 {gap}，在两个各在 {n} 个样本上测得的通过率之差的两个标准误（{two_se}）之内。这次运行分不出 {answer} "
        "的高下，所以答其中任何一个都算对；留出集样本越多，标准误越小。",
    },
    "teach.live_heldout.where": _with(
        {
            "en": "In “{table}”: the column “{column}”, row(s) {answer}.",
            "zh": "见“{table}”：“{column}”一列，{answer} 所在的行。",
        },
        table=_LIVE["live.summary_header"],
        column=_LIVE["sum.heldout"],
    ),
}

# -- the MoE page ------------------------------------------------------------------------------
from rlviz.locale.moe import STRINGS as _MOE  # noqa: E402 -- the names of the MoE page's figures

STRINGS |= {
    "teach.moe_route.q": {
        "en": "One batch, {k} {k:plural:update|updates} at learning rate {lr}. Afterwards, what share of the response tokens' routes "
        "(one per token and MoE layer) choose a different set of experts than before? Answer as a fraction "
        "(0.1 = 10%).",
        "zh": "同一批数据，以学习率 {lr} 更新 {k} 次。之后，回答 token 的路由（每个 token 在每个 MoE 层各一条）中，有多大比例"
        "选中的专家集合与更新前不同？用小数作答（0.1 = 10%）。",
    },
    "teach.moe_route.why": {
        "en": "{answer} of the routes changed by update {k} ({first} after update 1), over the model's {layers} MoE "
        "layers. A router keeps the experts with the top scores; an update that nudges the scores flips the "
        "choice wherever two experts were close, whatever the update was for. The GSPO paper reports about "
        "{article} per update in a 48-layer model.",
        "zh": "到第 {k} 次更新，有 {answer} 的路由变了（第 1 次更新后是 {first}），遍及模型的 {layers} 个 MoE 层。路由器"
        "保留分数最高的专家；更新稍微挪动这些分数，凡是两个专家分数接近的地方选择就会翻转，不论这次更新本来是为了什么。"
        "GSPO 论文报告：在 48 层的模型里每次更新约有 {article}。",
    },
    "teach.moe_route.where": _with(
        {
            "en": "In “{figure}”: the line “{line}” at update {k}.",
            "zh": "见“{figure}”：第 {k} 次更新处的“{line}”那条线。",
        },
        figure=_MOE["moe.route_header"],
        line=_MOE["moe.all_layers"],
    ),
    "teach.moe_replay.q": {
        "en": "After update {k}, replay the old routing in the same new weights. Does that narrow the spread (σ) of "
        "the token log-ratios log(π/π_old) by {visible} or more?",
        "zh": "第 {k} 次更新后，在同样的新权重上重放旧路由。这会让 token 对数比率 log(π/π_old) 的分布宽度（σ）缩小 {visible} "
        "或更多吗？",
    },
    "teach.moe_replay.choice.routing": {
        "en": "Yes: routing makes a visible part of the spread",
        "zh": "会：路由贡献了明显的一部分波动",
    },
    "teach.moe_replay.choice.update": {
        "en": "No: the update itself makes the spread",
        "zh": "不会：波动来自更新本身",
    },
    "teach.moe_replay.why.routing": {
        "en": "σ is {own} with the own routing and {rep} with the old routing replayed ({change}): replay narrows the "
        "spread by {visible} or more, so at these settings routing adds a visible part of it. The routing's part "
        "alone (own − replay) has {routing_share} of the own-routing σ.",
        "zh": "自身路由时 σ = {own}，重放旧路由时 σ = {rep}（{change}）：重放让分布至少窄了 {visible}，所以在这组设置下"
        "路由贡献了明显的一部分波动。单纯路由的部分（自身 − 重放）的 σ 是自身路由 σ 的 {routing_share}。",
    },
    "teach.moe_replay.why.update": {
        "en": "σ is {own} with the own routing and {rep} with the old routing replayed ({change}): less than {visible} "
        "narrower, so at these settings the update itself makes the spread, and routing moves some tokens up and "
        "others down within it (its part alone, own − replay, has {routing_share} of the own-routing σ).",
        "zh": "自身路由时 σ = {own}，重放旧路由时 σ = {rep}（{change}）：窄不到 {visible}，所以在这组设置下波动来自更新"
        "本身，路由只是让其中一些 token 上移、另一些下移（单纯路由的部分，自身 − 重放，其 σ 是自身路由 σ 的 "
        "{routing_share}）。",
    },
    "teach.moe_replay.where": _with(
        {
            "en": "In “{figure}”: the histograms “{own}” and “{replay}”, σ in the legend.",
            "zh": "见“{figure}”：“{own}”和“{replay}”两个直方图，σ 在图例中。",
        },
        figure=_MOE["moe.ratio_header"],
        own=_MOE["moe.kind.token_own"],
        replay=_MOE["moe.kind.token_replay"],
    ),
    "teach.moe_sequence.q": {
        "en": "After update {k}: is the spread (σ) of {seq}'s sequence log-ratio log s_i (the mean of a response's "
        "token log-ratios) smaller than the spread of the token log-ratios themselves?",
        "zh": "第 {k} 次更新后：{seq} 的序列对数比率 log s_i（一条回答各 token 对数比率的平均）的分布宽度（σ），"
        "比 token 对数比率本身的更小吗？",
    },
    "teach.moe_sequence.choice.yes": {"en": "Yes, smaller", "zh": "是，更小"},
    "teach.moe_sequence.choice.no": {"en": "No, not smaller", "zh": "不，并不更小"},
    "teach.moe_sequence.why.yes": {
        "en": "σ of log s_i is {seq_std}, against {own} for the tokens ({pct} of it): averaging over a response "
        "cancels much of the token swings, routing ones included.",
        "zh": "log s_i 的 σ 是 {seq_std}，token 的是 {own}（前者是后者的 {pct}）：在整条回答上取平均，抵消了大部分逐 token "
        "的波动，包括路由带来的。",
    },
    "teach.moe_sequence.why.no": {
        "en": "σ of log s_i is {seq_std}, against {own} for the tokens: at these settings the sequence ratio is not "
        "narrower.",
        "zh": "log s_i 的 σ 是 {seq_std}，token 的是 {own}：在这组设置下，序列比率并不更窄。",
    },
    "teach.moe_sequence.where": _with(
        {
            "en": "In “{figure}”: the histogram “{sequence}” against “{own}”, σ in the legend.",
            "zh": "见“{figure}”：“{sequence}”与“{own}”两个直方图，σ 在图例中。",
        },
        figure=_MOE["moe.ratio_header"],
        sequence=_MOE["moe.kind.sequence"],
        own=_MOE["moe.kind.token_own"],
    ),
    "teach.moe_clip.q": {
        "en": "At update {k} on the batch, which arm's clip acts on the largest share of the response tokens?",
        "zh": "在这批数据上的第 {k} 次更新，哪一个分支的裁剪作用到的回答 token 占比最大？",
    },
    "teach.moe_clip.why.apart": {
        "en": "At update {k} the clip of {answer} acted on {best_value} of the response tokens, the most of the arms "
        "(the least: {low_value}). Each arm clips where the ratio it uses leaves its band; a sequence-level ratio "
        "outside its band clips every token of that response.",
        "zh": "第 {k} 次更新时，{answer} 的裁剪作用到了 {best_value} 的回答 token，是各分支中最多的（最少的是 {low_value}）。"
        "每个分支都在它所用的比率越出区间时裁剪；序列级比率一旦越出区间，这条回答的每个 token 都被裁剪。",
    },
    "teach.moe_clip.why.tied": {
        "en": "At update {k} the clip acted on {best_value} of the response tokens under each of {answer}: no arm "
        "clips more. (The first update on a batch is on-policy: every ratio is exactly 1, so it clips nothing.)",
        "zh": "第 {k} 次更新时，{answer} 的裁剪都作用到了 {best_value} 的回答 token：没有哪个分支裁得更多。"
        "（在一批数据上的第一次更新是同策略的：每个比率都正好是 1，所以什么也不裁剪。）",
    },
    "teach.moe_clip.where": _with(
        {
            "en": "In “{figure}”: the panel “{panel}” at update {k}, line {answer}.",
            "zh": "见“{figure}”：面板“{panel}”第 {k} 次更新处，{answer} 那条线。",
        },
        figure=_MOE["moe.arms_header"],
        panel=_MOE["moe.metric.clip_fraction"],
    ),
}
