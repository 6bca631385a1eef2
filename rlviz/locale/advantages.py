"""Strings of the advantages page (keys ``advantages.*``, plus its ``nav`` and ``home`` entries), English
and 简体中文.

Merged into :data:`rlviz.i18n.STRINGS`; the same completeness rules apply (tests/test_i18n.py).
"""

STRINGS: dict[str, dict[str, str]] = {
    "nav.advantages": {"en": "Advantage estimators", "zh": "优势估计器"},
    "home.advantages_claims": {
        "en": "- Every advantage estimator of the registry (GRPO, Dr.GRPO, batch std, RLOO, REINFORCE++, "
        "REINFORCE++-baseline, ReMax, MaxRL, GDPO) on one group you type, side by side, computed by the code the "
        "trainer calls.\n"
        "- A group whose rewards are all equal gets zero advantage under every group baseline, but not under "
        "ReMax's greedy baseline (nor, in a batch of several groups, under REINFORCE++'s batch baseline).\n"
        "- The difficulty bias of each: how much a prompt of pass rate p weighs (GRPO's std favours p near 0 or 1 "
        "over Dr.GRPO, MaxRL's 1/p̂ favours hard prompts).\n"
        "- Each estimator trains on the live page (its `adv_estimator` setting).",
        "zh": "- 注册表中的每个优势估计器（GRPO、Dr.GRPO、批次标准差、RLOO、REINFORCE++、REINFORCE++-baseline、ReMax、"
        "MaxRL、GDPO）作用在你输入的同一组奖励上，并排对比，数字由训练器调用的同一份代码算出。\n"
        "- 奖励全相同的组在所有组内基线下优势为零，但在 ReMax 的贪心基线下不是（在包含多个组的批次里，"
        "REINFORCE++ 的批次基线下也不是）。\n"
        "- 每个估计器的难度偏差：通过率为 p 的提示词分到多少权重（GRPO 的标准差相对 Dr.GRPO 偏向 p 接近 0 或 1 的提示词，"
        "MaxRL 的 1/p̂ 偏向难的提示词）。\n"
        "- 每个估计器都能在实时页面上训练（`adv_estimator` 设置）。",
    },
    "advantages.title": {"en": "Advantage estimators, side by side", "zh": "优势估计器并排对比"},
    # each estimator's display name, by registry key (rlviz.core.estimators.ESTIMATORS; the English is the
    # registry's title); GRPO, RLOO, REINFORCE++, z-score and the other method names stay as written
    "advantages.name.grpo": {"en": "GRPO (z-score)", "zh": "GRPO（z-score 标准化）"},
    "advantages.name.dr_grpo": {"en": "Dr.GRPO (mean only)", "zh": "Dr.GRPO（只减均值）"},
    "advantages.name.batch_std": {"en": "Batch std", "zh": "批次标准差"},
    "advantages.name.rloo": {"en": "RLOO", "zh": "RLOO"},
    "advantages.name.reinforce_pp": {"en": "REINFORCE++", "zh": "REINFORCE++"},
    "advantages.name.reinforce_pp_baseline": {"en": "REINFORCE++-baseline", "zh": "REINFORCE++-baseline"},
    "advantages.name.remax": {"en": "ReMax", "zh": "ReMax"},
    "advantages.name.maxrl": {"en": "MaxRL", "zh": "MaxRL"},
    "advantages.name.gdpo": {"en": "GDPO", "zh": "GDPO"},
    "advantages.name.gpg": {"en": "GPG", "zh": "GPG"},
    "advantages.name.opo": {"en": "OPO", "zh": "OPO"},
    "advantages.name.grpo_passk": {"en": "Pass@k", "zh": "Pass@k（只奖励组内最优）"},
    "advantages.name.optimal_token_baseline": {"en": "Optimal Token Baseline", "zh": "最优 token 基线（OTB）"},
    "advantages.lede": {
        "en": "An advantage estimator turns a group's rewards into the weight each response's gradient gets: "
        "positive pushes it up, negative down. Type the rewards and compare the estimators' bars.",
        "zh": "一组奖励怎样变成优势？",
    },
    "advantages.held": {
        "en": "Hidden until you answer the questions below (or press Skip), as their bars would give the answer "
        "away: {names}.",
        "zh": "在你回答下面的问题（或点“跳过”）之前先隐藏，因为这些柱子会泄露答案：{names}。",
    },
    "advantages.per_token": {
        "en": "Not drawn from rewards alone: {names} gives every token its own advantage, from the old policy's "
        "probability of each sampled token and Σπ² over the vocabulary, which a typed group does not have. It "
        "trains on the live page (setting `adv_estimator`); its formula is in the collapsed block “{where}” below "
        "this section (click it to open). Section 2 draws its difficulty bias in the one case rewards settle "
        "(see the note there).",
        "zh": "仅凭奖励画不出：{names} 给每个 token 各自的优势，要用旧策略对每个采样 token 的概率和整个词表上的 Σπ²，"
        "而这里输入的组没有这些。它可以在实时训练页面上训练（设置 `adv_estimator`）；公式在本节下方折叠的“{where}”"
        "里（点击展开）。第 2 节画出了它在仅由奖励就能确定的那种情形下的难度偏差（见那里的说明）。",
    },
    "advantages.bias_per_token": {
        "en": "{names} gives one advantage per token; here every response is one token with the same token "
        "statistics, where its per-token baseline is the group's mean reward: its curve is the weight its outcome "
        "rewards alone give it (section 1 cannot draw it from typed rewards).",
        "zh": "{names} 给每个 token 各自的优势；这里每条回答只有一个 token、统计量都相同，此时它的逐 token 基线就是"
        "组内平均奖励：它的曲线是仅由结果奖励决定的权重（第 1 节无法仅凭输入的奖励画出它）。",
    },
    "advantages.left_out": {
        "en": "Left out of the figure until this field is fixed: {names}.",
        "zh": "在这一项改好之前，图中不显示：{names}。",
    },
    "advantages.intro": {
        "en": "An outcome reward gives each response one number; the **advantage estimator** turns the rewards "
        "of a step into the weight each response's gradient gets: positive pushes the response up, negative "
        "pushes it down. GRPO compares a response with its own group (mean, then std); the others change the "
        "baseline (leave-one-out, batch mean, a greedy response), the scale (none, batch std, the pass rate), or "
        "normalise several rewards one by one. They are one registry here "
        "(`rlviz.core.estimators.ESTIMATORS`), the same one the trainer calls: every bar below is what the "
        "trainer would use, and the live page trains with any of them (each objective's `adv_estimator`).",
        "zh": "结果奖励给每条回答一个数；**优势估计器**把一步里的奖励变成每条回答的梯度权重：正的把回答往上推，"
        "负的往下压。GRPO 把回答和它自己的组比较（先减均值、再除标准差）；其他估计器换了基线（留一法、批次均值、"
        "贪心回答）、换了缩放（不缩放、批次标准差、通过率），或者把多个奖励分别归一化。它们在这里是同一个注册表"
        "（`rlviz.core.estimators.ESTIMATORS`），也就是训练器调用的那一个：下面每根柱子都是训练器会用的值，"
        "实时页面可以用其中任意一个训练（每个目标函数的 `adv_estimator`）。",
    },
    # ------------------------------------------------------------------ 1. one group
    "advantages.group_header": {"en": "1 · One group, every estimator", "zh": "1 · 同一组，所有估计器"},
    "advantages.rewards": {"en": "Rewards of the group", "zh": "本组的奖励"},
    "advantages.rewards_help": {
        "en": "One reward per response, separated by commas (0/1 for a verifier; any numbers work).",
        "zh": "每条回答一个奖励，用逗号分隔（验证器给 0/1；任意数字都可以）。",
    },
    "advantages.second": {"en": "Second reward (GDPO only)", "zh": "第二个奖励（仅 GDPO）"},
    "advantages.second_help": {
        "en": "A second reward per response, e.g. 1 for a well-formed answer (the trainer's format reward). Only "
        "GDPO reads it; the other estimators see the first reward only, as in training.",
        "zh": "每条回答的第二个奖励，例如格式正确得 1（训练器里的格式奖励）。只有 GDPO 读取它；其他估计器只看第一个奖励，"
        "与训练时一致。",
    },
    "advantages.greedy": {"en": "Greedy response's reward (ReMax)", "zh": "贪心回答的奖励（ReMax）"},
    "advantages.greedy_help": {
        "en": "ReMax's baseline: the reward of one extra response decoded greedily (argmax at every token).",
        "zh": "ReMax 的基线：额外用贪心解码（每个 token 取 argmax）生成的一条回答的奖励。",
    },
    "advantages.lengths": {"en": "Response lengths in tokens (optional)", "zh": "回答长度（token 数，可选）"},
    "advantages.lengths_help": {
        "en": "Empty: every response counts once. With lengths, REINFORCE++, REINFORCE++-baseline and GDPO whiten "
        "over tokens as verl does, so long responses weigh more in the batch mean and std.",
        "zh": "留空：每条回答计一次。填了长度后，REINFORCE++、REINFORCE++-baseline 和 GDPO 会像 verl 一样按 token "
        "白化，长回答在批次均值和标准差里的分量更大。",
    },
    "advantages.estimators": {"en": "Estimators shown", "zh": "显示的估计器"},
    "advantages.need_estimator": {"en": "choose at least one estimator", "zh": "请至少选择一个估计器"},
    "advantages.response_axis": {"en": "response", "zh": "回答"},
    "advantages.advantage_axis": {"en": "advantage A", "zh": "优势 A"},
    "advantages.reward": {"en": "reward", "zh": "奖励"},
    "advantages.second_reward": {"en": "second reward", "zh": "第二个奖励"},
    "advantages.response_label": {"en": "#{i} (R = {r})", "zh": "#{i}（奖励 {r}）"},
    "advantages.bars_caption": {
        "en": "The page's batch is this one group, so the estimators with batch statistics (batch std, "
        "REINFORCE++, REINFORCE++-baseline, GDPO) normalise over the group itself here; in training they "
        "normalise over every group of the step. Estimators whose formula does not accept these rewards are left "
        "out (MaxRL needs rewards ≥ 0). GDPO against GRPO over several groups: section 11 of "
        "[TRL & verl: eleven confusions](/confusions).",
        "zh": "本页的批次就是这一个组，所以用批次统计量的估计器（批次标准差、REINFORCE++、REINFORCE++-baseline、GDPO）"
        "在这里是对本组归一化；训练时则是对一步里的所有组归一化。公式不接受这些奖励的估计器不显示（MaxRL 要求奖励 ≥ 0）。"
        "多个组之上 GDPO 与 GRPO 的对比，见 [TRL 与 verl：十一个常见误解](/confusions) 第 11 节。",
    },
    "advantages.zero_note": {
        "en": "Every reward in this group is equal: the group baselines give 0 to every response; {nonzero} do not.",
        "zh": "本组奖励全部相同：组内基线给每条回答的优势都是 0；{nonzero} 不是。",
    },
    "advantages.col_estimator": {"en": "estimator", "zh": "估计器"},
    "advantages.col_formula": {"en": "advantage of response i", "zh": "回答 i 的优势"},
    "advantages.col_trl": {"en": "TRL", "zh": "TRL"},
    "advantages.col_verl": {"en": "verl", "zh": "verl"},
    "advantages.col_paper": {"en": "paper", "zh": "论文"},
    "advantages.col_changes": {"en": "what it changes", "zh": "改了什么"},
    "advantages.table_header": {
        "en": "The estimators, their formulas and framework names",
        "zh": "估计器、公式与框架中的名字",
    },
    # ------------------------------------------------------------------ 2. difficulty bias
    "advantages.bias_header": {"en": "2 · Difficulty bias: who weighs how much", "zh": "2 · 难度偏差：谁分到多少权重"},
    "advantages.bias_text": {
        "en": "Each response's gradient is scaled by its advantage, so Σ|A| over a group is how much that prompt "
        "weighs in a step. For 0/1 rewards and a prompt of pass rate p, k ~ Binomial(G, p) of the G answers are "
        "right; the curves are the expectation over k, each estimator computed on the G + 1 possible groups "
        "taken as one batch (a batch that spans every difficulty evenly, for the estimators that read batch "
        "statistics). ReMax's greedy answer is right with probability p.",
        "zh": "每条回答的梯度按它的优势缩放，所以一组的 Σ|A| 就是这个提示词在一步中的分量。对 0/1 奖励、通过率为 p 的提示词，"
        "G 条回答里答对的条数 k ~ Binomial(G, p)；曲线是对 k 的期望，每个估计器都在 G + 1 种可能的组合成的一个批次上计算"
        "（对读取批次统计量的估计器而言，这是一个均匀覆盖各种难度的批次）。ReMax 的贪心回答以概率 p 答对。",
    },
    "advantages.bias_group_size": {"en": "Group size G", "zh": "组大小 G"},
    "advantages.pass_rate": {"en": "pass rate p", "zh": "通过率 p"},
    "advantages.weight_axis": {"en": "E[Σ|A|] per group", "zh": "每组 E[Σ|A|]"},
    "advantages.relative_axis": {"en": "over its own maximum", "zh": "相对自身最大值"},
    "advantages.bias_reading": {
        "en": "At G = {G}, a prompt with pass rate p = {p} weighs, relative to each estimator's own peak: {values}.",
        "zh": "G = {G} 时，通过率 p = {p} 的提示词相对各估计器自身峰值的分量：{values}。",
    },
    "advantages.bias_coincide": {
        "en": "In the panel “{panel}” these lines lie on top of one another (the same curve: only the last one "
        "drawn shows): {groups}.",
        "zh": "在“{panel}”图中，以下曲线完全重合（同一条曲线，只看得到最后画的那条）：{groups}。",
    },
    "advantages.bias_caption": {
        "en": "Dividing by the group's std (GRPO) up-weights nearly-solved and nearly-failed prompts against the "
        "mean-only baseline (Dr.GRPO, RLOO); dividing by the pass rate (MaxRL: 1/p̂ for a right answer) makes "
        "hard prompts weigh most. Without a group baseline (REINFORCE++), all-right and all-wrong groups still get "
        "advantages, so its weight does not vanish at p = 0 or 1.",
        "zh": "除以组内标准差（GRPO）相对只减均值的基线（Dr.GRPO、RLOO）放大了几乎全对和几乎全错的提示词；除以通过率"
        "（MaxRL：答对的回答权重为 1/p̂）让难的提示词分量最大。没有组内基线时（REINFORCE++），全对和全错的组也有优势，"
        "所以它的权重在 p = 0 或 1 处不会消失。",
    },
    "advantages.length_header": {"en": "Where response length enters", "zh": "回答长度从哪里进入"},
    "advantages.length_text": {
        "en": "None of these estimators divides by a response's length: the length bias Dr.GRPO found lives in "
        "the aggregation (see the weighting page). Length enters the estimators that whiten over the batch, in "
        "verl's token-level form:",
        "zh": "这些估计器都不除以回答长度：Dr.GRPO 指出的长度偏差来自聚合方式（见加权页面）。长度会进入在批次上白化的"
        "估计器（verl 按 token 的做法）：",
    },
    "advantages.length_none": {
        "en": "No estimator of the registry has a length note.",
        "zh": "注册表中没有估计器带有长度说明。",
    },
    # ------------------------------------------------------------------ predictions
    "advantages.predict_rloo.q": {
        "en": "In the group {rewards}, GRPO gives response #{i} (reward {reward}) A = {grpo}. What advantage does "
        "RLOO give it?",
        "zh": "在奖励为 {rewards} 的组里，GRPO 给回答 #{i}（奖励 {reward}）的优势是 A = {grpo}。RLOO 给它的优势是多少？",
    },
    "advantages.predict_rloo.why": {
        "en": "RLOO subtracts the mean of the other {G1} rewards: {answer}. That is G/(G − 1) = {G}/{G1} times "
        "R − mean, with no division by the std.",
        "zh": "RLOO 减去其余 {G1} 个奖励的均值：{answer}。也就是 R − 均值 的 G/(G − 1) = {G}/{G1} 倍，不除以标准差。",
    },
    "advantages.predict_maxrl.q": {
        "en": "Same group ({rewards}, mean {mean}): what advantage does MaxRL give response #{i}?",
        "zh": "同一组（{rewards}，均值 {mean}）：MaxRL 给回答 #{i} 的优势是多少？",
    },
    "advantages.predict_maxrl.why": {
        "en": "MaxRL divides R − mean by the mean reward (the pass rate p̂ = {mean}): {answer}. For 0/1 rewards a "
        "right answer gets 1/p̂ − 1, so the rarer it is, the more it weighs.",
        "zh": "MaxRL 用平均奖励（通过率 p̂ = {mean}）去除 R − 均值：{answer}。对 0/1 奖励，答对的回答得到 1/p̂ − 1，"
        "越少见权重越大。",
    },
}
