"""Strings of the Symptom-to-cause page (``pages/symptoms.py``)."""

STRINGS = {
    "nav.symptoms": {"en": "Symptom → cause", "zh": "症状 → 原因"},
    "home.symptoms_claims": {
        "en": "- what you see in training (entropy collapse, flat reward, length runaway, KL blow-up, "
        "zero-advantage groups, clip fraction 0 or high, ratio spikes on an MoE), its likely causes and the knob "
        "to try\n- a link that opens the live page with settings that reproduce it, and whether they did on the "
        "shipped model\n- your own live run checked for every symptom",
        "zh": "- 训练里看到的现象（熵坍缩、奖励不涨、长度失控、KL 爆炸、零优势组、裁剪比例为 0 或很高、MoE 上比率尖峰）、"
        "可能的原因和该调的旋钮\n- 一个链接，用能复现它的设置打开实时页面，并说明在内置模型上是否真的复现了\n"
        "- 检查你自己的实时运行里出现了哪些症状",
    },
    "symptoms.title": {"en": "Symptom → cause", "zh": "症状 → 原因"},
    "symptoms.lede": {
        "en": "Pick what you see in a training run: its likely causes, the settings to turn, and a run that "
        "reproduces it on the shipped model.",
        "zh": "选出训练中看到的现象：可能的原因、该调的设置，以及在内置模型上的复现。",
    },
    "symptoms.intro": {
        "en": "Pick what you see in a training run. The page lists the likely causes, the setting to turn (with its "
        "TRL and verl names where they have one) and opens the live page with settings that reproduce it on the "
        "shipped model. Whether they do is measured, not promised: the figure is the run that "
        "`benchmarks/symptoms.py` recorded, next to a run of {baseline} on the same task for as many steps, its "
        "other settings at the live page's defaults.",
        "zh": "选出你在训练中看到的现象。本页列出可能的原因、该调的设置（有 TRL 和 verl 名称的一并给出），并用能在内置模型上"
        "复现它的设置打开实时页面。是否真能复现是测出来的，不是承诺：图中是 `benchmarks/symptoms.py` 记录的那次运行，"
        "旁边是同一任务、同样步数的 {baseline} 运行，其余设置取实时页面默认值。",
    },
    "symptoms.pick": {"en": "What do you see?", "zh": "你看到了什么？"},
    "symptoms.causes": {"en": "Likely causes", "zh": "可能的原因"},
    "symptoms.knobs": {"en": "Knobs to try", "zh": "可以调的旋钮"},
    "symptoms.knob_setting": {"en": "setting", "zh": "设置"},
    "symptoms.knob_trl": {"en": "TRL", "zh": "TRL"},
    "symptoms.knob_verl": {"en": "verl", "zh": "verl"},
    # short: in half a page at 1024 px "Reproduce it on the Live policy update page" was cut after "update"
    "symptoms.reproduce": {"en": "Reproduce it: {page}", "zh": "在“{page}”页面复现"},
    "symptoms.settings": {"en": "Settings that reproduce it: {settings}.", "zh": "复现它的设置：{settings}。"},
    "symptoms.moe_settings": {
        "en": "The MoE page's defaults show it: one batch, several updates, then the share of routes that changed.",
        "zh": "MoE 页面的默认设置就能看到：一批数据、若干次更新，然后看换了专家的路由所占的比例。",
    },
    "symptoms.measured_yes": {
        "en": "Measured on the shipped model ({date}, seed {seed}, {steps} {steps:plural:step|steps}): with these settings the "
        "detector finds it. {evidence}",
        "zh": "在内置模型上实测（{date}，种子 {seed}，{steps} 步）：用这些设置，检测器发现了它。{evidence}",
    },
    "symptoms.measured_no": {
        "en": "Measured on the shipped model ({date}, seed {seed}, {steps} {steps:plural:step|steps}): with these settings the "
        "detector does NOT find it, so this tiny model does not show it here; the causes above are what to "
        "check on a real model. {evidence}",
        "zh": "在内置模型上实测（{date}，种子 {seed}，{steps} 步）：用这些设置，检测器没有发现它，所以这个小模型在这里"
        "并不表现出这个现象；上面的原因是在真实模型上要排查的方向。{evidence}",
    },
    "symptoms.baseline_yes": {
        "en": "With {baseline} (the live page's other settings at their defaults) it shows too ({value}).",
        "zh": "用 {baseline}、其余设置取实时页面默认值时也会出现（{value}）。",
    },
    "symptoms.baseline_no": {
        "en": "With {baseline} (the live page's other settings at their defaults) it does not ({value}).",
        "zh": "用 {baseline}、其余设置取实时页面默认值时则不会出现（{value}）。",
    },
    # the baseline arm of a measurement, from what its entry records (rlviz.experiments.symptoms.baseline_label)
    "symptoms.baseline_run": {
        "en": "{algorithm} on {task} for {steps} {steps:plural:step|steps}",
        "zh": "{algorithm}（{task}，{steps} 步）",
    },
    "symptoms.not_measured": {
        "en": "Not measured yet on this checkout: run `python benchmarks/symptoms.py`.",
        "zh": "本副本还没有实测数据：运行 `python benchmarks/symptoms.py`。",
    },
    "symptoms.stale": {
        "en": "The reproducing settings changed since the last measurement: run `python benchmarks/symptoms.py` "
        "again before trusting the figure.",
        "zh": "上次实测之后复现设置变了：请重新运行 `python benchmarks/symptoms.py` 再看这张图。",
    },
    "symptoms.fig_title": {"en": "Measured: {metric} per step", "zh": "实测：每步的{metric}"},
    "symptoms.fig_x": {"en": "step", "zh": "步"},
    "symptoms.fig_reproduced": {"en": "reproducing settings", "zh": "复现设置"},
    "symptoms.moe_fig_x": {"en": "update on the same batch", "zh": "同一批数据上的第几次更新"},
    "symptoms.yours": {"en": "Check your own run", "zh": "检查你自己的运行"},
    "symptoms.yours_none": {
        "en": "No live run in this session yet. Start one on the live page (or open a reproduction above), then "
        "come back: every symptom's detector runs on its metrics.",
        "zh": "本会话还没有实时运行。去实时页面开始一次（或打开上面的复现链接），再回来：每个症状的检测器都会在它的指标上运行。",
    },
    "symptoms.yours_intro": {
        "en": "The same detectors on your live run ({steps} {steps:plural:step|steps} so far). A detector needs a few steps: with "
        "fewer than 6 the thirds it compares are single steps.",
        "zh": "同样的检测器作用在你的实时运行上（目前 {steps} 步）。检测器需要几步数据：少于 6 步时，它比较的三分段都只有一步。",
    },
    "symptoms.col_arm": {"en": "arm", "zh": "分支"},
    "symptoms.col_symptom": {"en": "symptom", "zh": "症状"},
    "symptoms.col_present": {"en": "present", "zh": "出现"},
    "symptoms.col_evidence": {"en": "evidence", "zh": "证据值"},
    "symptoms.download": {"en": "Download the check (CSV)", "zh": "下载检查结果（CSV）"},
    "symptoms.yes": {"en": "yes", "zh": "是"},
    "symptoms.no": {"en": "no", "zh": "否"},
    # ---- the symptoms
    "symptoms.entropy_collapse.title": {"en": "Entropy collapse", "zh": "熵坍缩"},
    "symptoms.entropy_collapse.what": {
        "en": "The policy's token entropy falls towards zero; the samples of a group become the same answer and "
        "exploration stops.",
        "zh": "策略的 token 熵一路降向零；同一组的采样变成同一个答案，探索停止。",
    },
    "symptoms.entropy_collapse.causes": {
        "en": "- no pull back to the reference: DAPO drops GRPO's KL term; in the reproduction here (the make-a-sum "
        "task, many right answers) DAPO collapses and GRPO with its KL term does not\n- a symmetric clip: with "
        "ε_high = ε_low, a rare token the update favours can only grow by a factor 1 + ε_high, while likely tokens "
        "keep sharpening (DAPO, arXiv 2503.14476 §3.1, clip-higher); on this tiny model the upper clip almost "
        "never binds, and undoing clip-higher did not lower the entropy (docs/second-task.md)\n- a step too large "
        "for the batch (learning rate, μ): each update sharpens the distribution\n- sampling at a low temperature"
        "\n\nMeasured on the same task, three seeds each, 100 steps: DAPO with GRPO's KL term put back (β = 0.04) "
        "kept its entropy as high as GRPO's and learned as much as DAPO, while GRPO without its KL term lost part of "
        "its entropy: here the missing KL term drives most of the collapse. Clip-Cov and KL-Cov (arXiv 2505.22617) "
        "also kept the entropy as high as GRPO's; an adaptive entropy target (Skywork-OR1) held it near its target at "
        "a cost in pass@1; an entropy bonus kept a little more; a higher ε_high did not.",
        "zh": "- 没有拉回参考策略的力：DAPO 去掉了 GRPO 的 KL 项；这里的复现（“凑数”任务，正确答案很多）中 DAPO 熵坍缩，"
        "带 KL 项的 GRPO 没有\n- 对称裁剪：ε_high = ε_low 时，更新偏向的低概率 token 最多只能涨到 1 + ε_high 倍，而高概率"
        " token 持续变尖（DAPO，arXiv 2503.14476 §3.1，clip-higher）；在这个小模型上上界几乎从不生效，撤掉 clip-higher 也没有"
        "让熵更低（docs/second-task.md）\n- 步子相对批量太大（学习率、μ）：每次更新都让分布更尖\n- 采样温度太低"
        "\n\n同一任务上的实测（各三个种子，100 步）：给 DAPO 加回 GRPO 的 KL 项（β = 0.04）后，它的熵和 GRPO 一样高，学到的和 DAPO "
        "一样多；而去掉 KL 项的 GRPO 也丢了一部分熵：这里熵坍缩主要是缺了 KL 项造成的。Clip-Cov 和 KL-Cov（arXiv 2505.22617）"
        "同样让熵保持得和 GRPO 一样高；自适应熵目标（Skywork-OR1）把熵稳在目标附近，但 pass@1 有所下降；熵奖励多保住一点；"
        "更高的 ε_high 没有用。",
    },
    "symptoms.entropy_collapse.evidence": {
        "en": "Entropy over the last third is {value} of the first step's (collapse below {threshold}).",
        "zh": "最后三分之一的熵是第一步的 {value}（低于 {threshold} 算坍缩）。",
    },
    "symptoms.reward_flat.title": {"en": "Reward flat", "zh": "奖励不涨"},
    "symptoms.reward_flat.what": {
        "en": "The training reward does not rise over many steps.",
        "zh": "训练奖励在很多步里都没有上升。",
    },
    "symptoms.reward_flat.causes": {
        "en": "- a learning rate too small to move the policy in the steps you ran\n- most groups have equal rewards, "
        "so their advantages are zero and they teach nothing (see the dynamic sampling page)\n- too few prompts "
        "per step: the reward you read is noise\n- a reward function that never fires (check a few samples by hand)",
        "zh": "- 学习率太小，在跑过的步数里推不动策略\n- 大多数组的奖励都相同，优势为零，什么也学不到（见动态采样页面）\n"
        "- 每步的提示词太少：你看到的奖励只是噪声\n- 奖励函数从不触发（手工检查几个样本）",
    },
    "symptoms.reward_flat.evidence": {
        "en": "Reward of the last third minus the first third: {value} (flat below {threshold}).",
        "zh": "最后三分之一的奖励减去前三分之一：{value}（低于 {threshold} 算不涨）。",
    },
    "symptoms.length_runaway.title": {"en": "Length runaway", "zh": "长度失控"},
    "symptoms.length_runaway.what": {
        "en": "Responses grow longer step after step until they hit the length limit, usually with the reward falling.",
        "zh": "回答一步比一步长，直到撞上长度上限，通常奖励也随之下降。",
    },
    "symptoms.length_runaway.causes": {
        "en": "- an unstable update (learning rate too high) that makes the end-of-sequence token unlikely\n- the "
        "aggregation: under seq-mean-token-mean a long wrong answer is penalised less per token than a short one "
        "(Dr.GRPO, arXiv 2503.20783 §3.1)\n- no penalty for hitting the limit: truncated answers get the same "
        "reward as others",
        "zh": "- 更新不稳定（学习率太高），让结束符变得不太可能\n- 聚合方式：在 seq-mean-token-mean 下，长的错误答案每个"
        " token 受的惩罚比短的少（Dr.GRPO，arXiv 2503.20783 §3.1）\n- 撞到上限没有惩罚：被截断的回答和其他回答拿一样的奖励",
    },
    "symptoms.length_runaway.evidence": {
        "en": "Mean response length of the last third over the first third: {value}× (runaway from {threshold}×, "
        "or half the responses at the limit).",
        "zh": "最后三分之一的平均回答长度是前三分之一的 {value} 倍（从 {threshold} 倍起，或一半回答到达上限，算失控）。",
    },
    "symptoms.length_runaway.other": {
        "en": "That is below {threshold}×: what the detector found is the other criterion, half or more of the "
        "last third's responses cut at the length limit.",
        "zh": "这低于 {threshold} 倍：检测器发现的是另一个判据，最后三分之一里有一半以上的回答在长度上限处被截断。",
    },
    "symptoms.kl_blowup.title": {"en": "KL blow-up", "zh": "KL 爆炸"},
    "symptoms.kl_blowup.what": {
        "en": "The KL between the policy and the reference policy climbs fast instead of staying small.",
        "zh": "策略与参考策略之间的 KL 快速攀升，而不是保持在小值。",
    },
    "symptoms.kl_blowup.causes": {
        "en": "- a step too large (learning rate, μ): the policy leaves the reference faster than β pulls it back\n"
        "- β too small to matter, or 0 (TRL's default: no reference model at all)\n- the k3 estimator is clamped in "
        "verl; once it saturates it gives no gradient (see the confusions page)",
        "zh": "- 步子太大（学习率、μ）：策略远离参考策略的速度快过 β 拉回的速度\n- β 太小不起作用，或者为 0"
        "（TRL 的默认：根本不加载参考模型）\n- verl 里 k3 估计器有截断，饱和之后就没有梯度（见“常见误解”页面）",
    },
    "symptoms.kl_blowup.evidence": {
        "en": "KL to the reference at the last step: {value} nats per token (blow-up above {threshold}).",
        "zh": "最后一步到参考策略的 KL：每个 token {value} nats（高于 {threshold} 算爆炸）。",
    },
    "symptoms.zero_advantage.title": {"en": "Many zero-advantage groups", "zh": "大量零优势组"},
    "symptoms.zero_advantage.what": {
        "en": "A large share of the groups have all-equal rewards (all right or all wrong), so their advantages are "
        "zero and they contribute no gradient.",
        "zh": "很大比例的组奖励全部相同（全对或全错），优势为零，不贡献梯度。",
    },
    "symptoms.zero_advantage.causes": {
        "en": "- a group size G too small for the prompts' pass rates: with pass rate p a group is all-equal with "
        "probability p^G + (1 − p)^G\n- prompts too easy or too hard for the model\n- a low temperature makes the "
        "samples of a group alike",
        "zh": "- 组大小 G 相对提示词的通过率太小：通过率为 p 时，一组全部相同的概率是 p^G + (1 − p)^G\n"
        "- 提示词对模型来说太容易或太难\n- 温度低让同组的样本彼此相似",
    },
    "symptoms.zero_advantage.evidence": {
        "en": "Mean share of groups with all-equal rewards: {value} (many from {threshold}).",
        "zh": "奖励全部相同的组平均占比：{value}（从 {threshold} 起算“大量”）。",
    },
    "symptoms.clip_zero.title": {"en": "Clip fraction always 0", "zh": "裁剪比例始终为 0"},
    "symptoms.clip_zero.what": {
        "en": "The logged clip fraction is exactly zero at every step.",
        "zh": "记录的裁剪比例每一步都恰好为零。",
    },
    "symptoms.clip_zero.causes": {
        "en": "- one update per rollout batch (μ = 1 and one mini-batch): the only update sees π_θ = π_old, the "
        "ratio is exactly 1 and nothing can be clipped. That is expected, not a bug: the update is then the plain "
        "policy gradient (TRL and verl both take this on-policy shortcut)\n- a band so wide that no ratio reaches it",
        "zh": "- 每批 rollout 只更新一次（μ = 1 且只有一个小批次）：唯一的那次更新里 π_θ = π_old，比率恰好为 1，什么都不会"
        "被裁剪。这是正常现象，不是 bug：此时更新就是普通的策略梯度（TRL 和 verl 都走这条同策略捷径）\n"
        "- 裁剪区间太宽，没有比率能到达边界",
    },
    "symptoms.clip_zero.evidence": {
        "en": "Largest clip fraction of any step: {value}.",
        "zh": "所有步中最大的裁剪比例：{value}。",
    },
    "symptoms.clip_high.title": {"en": "Clip fraction very high", "zh": "裁剪比例很高"},
    "symptoms.clip_high.what": {
        "en": "A large share of the tokens is clipped at every update, so most of the batch gives no gradient.",
        "zh": "每次更新都有很大比例的 token 被裁剪，所以这批数据的大部分不提供梯度。",
    },
    "symptoms.clip_high.causes": {
        "en": "- the policy moves too far between the old policy and the update: learning rate too high, or many "
        "updates per batch (μ, mini-batches)\n- the sampler and the trainer disagree about the probabilities "
        "(precision, stale weights), so the ratio is off 1 before any update\n- a band too narrow for the ratio "
        "you use (GSPO's ε of a few 1e-4 is meant for the sequence ratio, not for token ratios)",
        "zh": "- 旧策略到本次更新之间策略移动太远：学习率太高，或每批更新太多次（μ、小批次数）\n- 采样端和训练端对概率的"
        "看法不一致（精度、权重过时），更新前比率就偏离了 1\n- 区间对所用的比率来说太窄（GSPO 的几个 1e-4 的 ε 是给序列"
        "比率用的，不是给 token 比率用的）",
    },
    "symptoms.clip_high.evidence": {
        "en": "Mean clip fraction: {value} (high above {threshold}).",
        "zh": "平均裁剪比例：{value}（高于 {threshold} 算很高）。",
    },
    "symptoms.moe_ratio_spikes.title": {"en": "Ratio spikes on an MoE", "zh": "MoE 上的比率尖峰"},
    "symptoms.moe_ratio_spikes.what": {
        "en": "On a mixture-of-experts model, token importance ratios are far more spread out than on a dense model "
        "of the same size, and training is unstable.",
        "zh": "在混合专家模型上，token 重要性比率比同规模的稠密模型分散得多，训练不稳定。",
    },
    "symptoms.moe_ratio_spikes.causes": {
        "en": "- after an update the router sends some tokens to other experts, so their probabilities jump: the "
        "token ratio then measures the routing change, not only the policy change (GSPO, arXiv 2507.18071 §5.3)\n"
        "- the sampler routes differently from the trainer (precision, kernels)",
        "zh": "- 一次更新之后路由器把部分 token 送到别的专家，它们的概率随之跳变：token 比率衡量的就不只是策略变化，"
        "还有路由变化（GSPO，arXiv 2507.18071 §5.3）\n- 采样端和训练端的路由不一致（精度、算子）",
    },
    "symptoms.moe_ratio_spikes.evidence": {
        "en": "Share of routes (token × layer) whose experts changed after the last update: {value} (spikes from "
        "{threshold}).",
        "zh": "最后一次更新后换了专家的路由（token × 层）比例：{value}（从 {threshold} 起算尖峰）。",
    },
    "symptoms.knob_note": {
        "en": "Settings of the objective carry their TRL and verl names from the registry; the trainer's settings "
        "are named as on the live page.",
        "zh": "目标函数的设置带有注册表里的 TRL 和 verl 名称；训练器的设置按实时页面上的名称给出。",
    },
}
