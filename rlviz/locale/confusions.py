"""Strings of the "TRL & verl: eleven confusions" page (keys ``confusions.*``), English and 简体中文.

Merged into :data:`rlviz.i18n.STRINGS`. Every number in these texts is a ``{placeholder}`` filled
from :mod:`rlviz.experiments.confusions`; the numbers written out are issue and pull-request numbers
of the public threads cited (``repository#number``) and setting values named in those threads.
"""

_TRL = "https://github.com/huggingface/trl/issues/"
_VERL = "https://github.com/verl-project/verl/issues/"


def _src(repo: str, number: int) -> str:
    """A Markdown link ``[repo#number](url)`` (GitHub sends /issues/N to /pull/N for a pull request)."""
    base = _TRL if repo == "huggingface/trl" else _VERL
    return f"[{repo}#{number}]({base}{number})"


STRINGS: dict[str, dict[str, str]] = {
    "nav.confusions": {"en": "TRL & verl: eleven confusions", "zh": "TRL 与 verl：十一个常见误解"},
    "home.confusions_claims": {
        "en": "- Eleven questions that come up again and again in TRL and verl issue threads, each asked before "
        "the answer is computed: what token-mean averages over, micro-batches, the ratio that is 1, token vs "
        "sequence ratios, the sampler-trainer correction, where the KL goes, the std division, ε_low / "
        "ε_high / c, a token count from the wrong window, sequence weights that compound with length, and "
        "GDPO against GRPO over several groups\n"
        "- Each answer comes from rlviz's own code (the trainer on the tiny LM where it needs one) and cites the "
        "public threads where the question was asked",
        "zh": "- TRL 和 verl 的 issue 里反复出现的十一个问题，每个都先让你作答再计算：token-mean 在什么上取平均、"
        "micro-batch、恒为 1 的比率、token 与序列比率、采样端与训练端的校正、KL 放在哪里、除以标准差、"
        "ε_low / ε_high / c、从错误窗口数出的 token 数、随长度累乘的序列级权重，以及多组之上 GDPO 与 GRPO 的区别\n"
        "- 每个答案都由 rlviz 自己的代码算出（需要时用微型语言模型上的训练器），并注明提出这个问题的公开讨论",
    },
    "confusions.title": {"en": "TRL & verl: eleven confusions", "zh": "TRL 与 verl：十一个常见误解"},
    "confusions.intro": {
        "en": "The same eleven questions keep coming back in the issue trackers of TRL (huggingface/trl) and verl "
        "(verl-project/verl, formerly volcengine/verl); the last three come from recent bug reports and pull "
        "requests. Each section states the confusion the way people put "
        "it, asks you to commit to an answer, then computes the answer with the code rlviz trains with, at the "
        "settings you chose, and cites the public threads where it was discussed.",
        "zh": "TRL（huggingface/trl）和 verl（verl-project/verl，原 volcengine/verl）的 issue 里，同样的十一个问题"
        "一再出现，其中最后三个来自最近的 bug 报告和 PR。每一节先按大家常说的样子写出这个误解，请你先给出答案，再用 rlviz 训练时用的同一套代码、"
        "按你选的设置把答案算出来，并注明讨论过它的公开帖子。",
    },
    "confusions.lede": {
        "en": "Eleven questions that keep coming back in TRL and verl issue threads. Answer each one first; rlviz "
        "then computes the answer with the code it trains with and cites the threads.",
        "zh": "TRL 和 verl 的 issue 里反复出现的十一个问题：先作答，再用 rlviz 的代码算出答案。",
    },
    "confusions.left_out": {
        "en": "Left out of the figure until you answer the question below (or press Skip): {what}.",
        "zh": "在你回答下面的问题（或点“跳过”）之前，图中先不显示：{what}。",
    },
    # each section's heading: the confusion as a question (its full title opens its explanation)
    "confusions.aggregation.ask": {
        "en": "1 · What does token-mean average over?",
        "zh": "1 · token-mean 在什么上取平均？",
    },
    "confusions.microbatch.ask": {
        "en": "2 · Does splitting a batch into micro-batches change token-mean?",
        "zh": "2 · 把 batch 切成 micro-batch，token-mean 会变吗？",
    },
    "confusions.ratio_one.ask": {
        "en": "3 · The ratio is always 1, so the clip never acts?",
        "zh": "3 · 比率恒为 1，所以裁剪从不起作用？",
    },
    "confusions.sequence.ask": {
        "en": "4 · Do a sequence ratio and token ratios clip the same tokens?",
        "zh": "4 · 序列级比率与 token 级比率裁剪的是同一批 token 吗？",
    },
    "confusions.sampler.ask": {
        "en": "5 · What does a sampler–trainer correction measure?",
        "zh": "5 · 采样端与训练端之间的校正度量的是什么？",
    },
    "confusions.kl.ask": {
        "en": "6 · Which KL placement gives the KL's true gradient?",
        "zh": "6 · KL 放在哪里，才给出 KL 的真实梯度？",
    },
    "confusions.difficulty.ask": {
        "en": "7 · Is dividing by the group's std only a rescale?",
        "zh": "7 · 除以组内标准差只是整体缩放吗？",
    },
    "confusions.clip.ask": {
        "en": "8 · Which of ε_low, ε_high and c stops a token?",
        "zh": "8 · ε_low、ε_high 和 c，哪个让 token 停下？",
    },
    "confusions.said": {"en": "What people say:", "zh": "常见说法："},
    "confusions.sources": {"en": "Public threads:", "zh": "公开讨论："},
    "confusions.running": {"en": "Computing…", "zh": "计算中…"},
    "confusions.failed": {
        "en": "The tiny model could not be run: {error}",
        "zh": "微型模型无法运行：{error}",
    },
    "confusions.response": {"en": "#{i} ({n} {n:plural:token|tokens})", "zh": "#{i}（{n} 个 token）"},
    # ------------------------------------------------------------------------------------ 1. aggregation
    "confusions.aggregation.header": {
        "en": "1. Which aggregation is which paper, and what token-mean averages over",
        "zh": "1. 哪种聚合对应哪篇论文，token-mean 到底在什么上取平均",
    },
    "confusions.aggregation.said": {
        "en": "“TRL's default loss is the GRPO loss, so every response counts equally.” · “token-mean and "
        "seq-mean-token-mean are the same thing up to a constant.”",
        "zh": "“TRL 默认的 loss 就是 GRPO 的 loss，所以每条回答同等重要。”·“token-mean 和 seq-mean-token-mean "
        "只差一个常数。”",
    },
    "confusions.aggregation.lengths": {"en": "Response lengths (tokens)", "zh": "回答长度（token）"},
    "confusions.aggregation.lengths_help": {
        "en": "One length per response of the batch, separated by commas.",
        "zh": "batch 中每条回答一个长度，用逗号分隔。",
    },
    "confusions.aggregation.q": {
        "en": 'TRL\'s default `loss_type="dapo"` (verl `loss_agg_mode="{mode}"`) on a batch of responses with '
        "lengths {lengths}: what does it average over?",
        "zh": 'TRL 默认的 `loss_type="dapo"`（verl 的 `loss_agg_mode="{mode}"`）作用在长度为 {lengths} 的一批回答上：'
        "它在什么上取平均？",
    },
    "confusions.aggregation.choice.tokens": {
        "en": "Over tokens: every token of the batch weighs the same",
        "zh": "在 token 上：batch 里每个 token 权重相同",
    },
    "confusions.aggregation.choice.responses": {
        "en": "Over responses: every response weighs the same, its tokens share that",
        "zh": "在回答上：每条回答权重相同，再由它的 token 平分",
    },
    "confusions.aggregation.choice.both": {
        "en": "Both at once (the lengths are all equal)",
        "zh": "两者同时成立（长度全都相等）",
    },
    "confusions.aggregation.why.tokens": {
        "en": "token_weights gives each of the N = {N} {N:plural:token|tokens} the weight {w}, whatever response it belongs to, so "
        "the {long}-token response controls {long_share} of the loss. GRPO's paper averages per response first "
        "(TRL `grpo`, verl `seq-mean-token-mean`): there a token of the {short}-token response weighs "
        "{w_short_grpo} and one of the {long}-token response {w_long_grpo}.",
        "zh": "token_weights 给 N = {N} 个 token 中的每一个相同的权重 {w}，不管它属于哪条回答，所以 {long} 个 token "
        "的那条回答掌握了 loss 的 {long_share}。GRPO 论文先在每条回答内部取平均（TRL 的 `grpo`，verl 的 "
        "`seq-mean-token-mean`）：那时 {short} 个 token 的回答里一个 token 的权重是 {w_short_grpo}，{long} 个 token "
        "的回答里是 {w_long_grpo}。",
    },
    "confusions.aggregation.why.responses": {
        "en": "token_weights says every response gets the same total here. (With TRL `dapo` that happens only when "
        "the lengths are equal; see the left panel.)",
        "zh": "token_weights 表明这里每条回答的总权重相同。（对 TRL 的 `dapo` 来说，只有长度相等时才会这样；见左图。）",
    },
    "confusions.aggregation.why.both": {
        "en": "All {B} responses have the same length, so every token weighs {w} and every response the same "
        "total: token-mean and seq-mean-token-mean coincide. Make one response longer to see them part.",
        "zh": "{B} 条回答长度相同，所以每个 token 的权重都是 {w}、每条回答的总权重也相同：token-mean 与 "
        "seq-mean-token-mean 重合。把某条回答改长一些就能看到两者分开。",
    },
    "confusions.aggregation.per_token": {"en": "One token's weight (log)", "zh": "单个 token 的权重（对数）"},
    "confusions.aggregation.share": {"en": "Share of the loss", "zh": "占 loss 的份额"},
    "confusions.aggregation.table_note": {
        "en": "Who uses each mode: the registry's papers (their default aggregation) and the frameworks' names.",
        "zh": "每种聚合方式的使用者：注册表中各论文的默认聚合方式，以及框架中的名字。",
    },
    "confusions.aggregation.col_mode": {"en": "mode", "zh": "聚合方式"},
    "confusions.aggregation.col_papers": {"en": "papers (registry)", "zh": "论文（注册表）"},
    "confusions.aggregation.reading": {
        "en": "Under token-mean the {long}-token response controls {tm_share} of the loss; under seq-mean-token-mean "
        "it controls {sm_share}, the same as every other response (1/{B}). The two are not a constant apart: "
        "the factor between them is different for every response.",
        "zh": "在 token-mean 下，{long} 个 token 的回答掌握 loss 的 {tm_share}；在 seq-mean-token-mean 下它掌握 "
        "{sm_share}，和其他每条回答一样（1/{B}）。两者之间并不只差一个常数：每条回答的换算系数都不一样。",
    },
    "confusions.aggregation.sources": {
        "en": f"{_src('huggingface/trl', 2995)}: why TRL's loss divides by all tokens of the batch rather than per "
        f"sequence as in the GRPO paper · {_src('huggingface/trl', 3187)}: the same question, answered as "
        f"intentional · {_src('huggingface/trl', 3256)}: the pull request that named the loss types (`bnpo`, "
        "`dr_grpo`) and found that the old default was not exactly DAPO's",
        "zh": f"{_src('huggingface/trl', 2995)}：为什么 TRL 的 loss 除以整个 batch 的 token 数，而不是像 GRPO 论文那样"
        f"按序列平均 · {_src('huggingface/trl', 3187)}：同一个问题，回复说这是有意为之 · "
        f"{_src('huggingface/trl', 3256)}：给各种 loss_type（`bnpo`、`dr_grpo`）命名的 PR，并指出旧的默认值"
        "并不完全是 DAPO 的做法",
    },
    # ------------------------------------------------------------------------------------ 2. micro-batches
    "confusions.microbatch.header": {
        "en": "2. Token-mean when the batch is split into micro-batches",
        "zh": "2. batch 被切成 micro-batch 时的 token-mean",
    },
    "confusions.microbatch.said": {
        "en": "“Gradient accumulation gives the same gradient as one big batch.” · “token-mean is token-mean, "
        "however the batch is split.”",
        "zh": "“梯度累积和一次算一个大 batch 得到的梯度一样。”·“token-mean 就是 token-mean，不管 batch 怎么切。”",
    },
    "confusions.microbatch.lengths": {"en": "Response lengths (tokens)", "zh": "回答长度（token）"},
    "confusions.microbatch.advantages": {"en": "Advantages", "zh": "优势"},
    "confusions.microbatch.k": {"en": "Micro-batches k", "zh": "micro-batch 数 k"},
    "confusions.microbatch.k_help": {
        "en": "The batch is split in order into k equal micro-batches (gradient accumulation steps); k must divide "
        "the number of responses.",
        "zh": "batch 按顺序切成 k 个等大的 micro-batch（梯度累积步数）；k 必须整除回答条数。",
    },
    "confusions.microbatch.q": {
        "en": "The batch is split into k = {k} {k:plural:micro-batch|micro-batches} and each takes its own token-mean (then scaled by "
        "{bj}/{B}). How many times its weight under a global token-mean does one token of the last response "
        "(#{last}) get?",
        "zh": "batch 被切成 k = {k} 个 micro-batch，每个各自取 token-mean（再乘以 {bj}/{B}）。最后一条回答（#{last}）"
        "的一个 token，得到的权重是全局 token-mean 下的几倍？",
    },
    "confusions.microbatch.why": {
        "en": "Globally each of the N = {N} {N:plural:token|tokens} weighs 1/{N} = {global}. Its micro-batch holds only N_j = {Nj} "
        "{Nj:plural:token|tokens}, so there it weighs ({bj}/{B})/{Nj} = {micro}: {answer} times as much. The gradient depends on how "
        "the batch was cut.",
        "zh": "全局下 N = {N} 个 token 每个权重 1/{N} = {global}。它所在的 micro-batch 只有 N_j = {Nj} 个 token，"
        "所以在那里它的权重是 ({bj}/{B})/{Nj} = {micro}：是原来的 {answer} 倍。梯度取决于 batch 是怎么切的。",
    },
    "confusions.microbatch.global": {
        "en": "global token-mean (TRL dapo; verl with global token count)",
        "zh": "全局 token-mean（TRL dapo；verl 用全局 token 数）",
    },
    "confusions.microbatch.micro": {
        "en": "token-mean per micro-batch (TRL bnpo; verl legacy dp_actor)",
        "zh": "每个 micro-batch 各自 token-mean（TRL bnpo；verl 旧版 dp_actor）",
    },
    "confusions.microbatch.weight": {"en": "Total gradient weight of the response", "zh": "回答的总梯度权重"},
    "confusions.microbatch.tick": {"en": "#{i} · L={n} · mb {j}", "zh": "#{i} · L={n} · mb {j}"},
    "confusions.microbatch.reading": {
        "en": "On-policy (r = 1) the loss is {loss_global} with the global token-mean and {loss_micro} per "
        "micro-batch. The micro-batches hold {micro_tokens} {micro_tokens:plural:token|tokens}: a token in a short micro-batch weighs more, "
        "so short responses that land together pull harder than their length says.",
        "zh": "在同策略（r = 1）下，全局 token-mean 的 loss 是 {loss_global}，按 micro-batch 分别平均是 {loss_micro}。"
        "各 micro-batch 的 token 数为 {micro_tokens}：落在短 micro-batch 里的 token 权重更大，所以被分到一起的短回答"
        "比它们的长度所应得的拉得更用力。",
    },
    "confusions.microbatch.sources": {
        "en": f"{_src('verl-project/verl', 5625)}: in verl's legacy FSDP actor each micro-batch is normalised by "
        f"its own token count and scaled by its share of the samples, so the accumulated token-mean differs from "
        f"the full-batch one · {_src('huggingface/trl', 6024)}: TRL's `dapo` normaliser (the generation batch's "
        "token count) had to be rescaled when `steps_per_generation` differs from `gradient_accumulation_steps`",
        "zh": f"{_src('verl-project/verl', 5625)}：verl 旧版 FSDP actor 中每个 micro-batch 用自己的 token 数归一化，"
        "再按样本数占比缩放，累积起来的 token-mean 与整批的不同 · "
        f"{_src('huggingface/trl', 6024)}：当 `steps_per_generation` 与 `gradient_accumulation_steps` 不同时，"
        "TRL `dapo` 的归一化常数（生成 batch 的 token 数）需要重新缩放",
    },
    # ------------------------------------------------------------------------------------ 3. ratio 1
    "confusions.ratio_one.header": {
        "en": "3. “The ratio is always 1, so the clip never acts”",
        "zh": "3. “比率恒为 1，所以裁剪从不起作用”",
    },
    "confusions.ratio_one.said": {
        "en": "“clip_ratio is always 0 in my GRPO logs: the clip is dead code.” · “ε_low and ε_high cannot matter, "
        "π_old is π_θ.”",
        "zh": "“我的 GRPO 日志里 clip_ratio 一直是 0：裁剪就是死代码。”·“ε_low 和 ε_high 不可能有影响，π_old 就是 π_θ。”",
    },
    "confusions.ratio_one.mu": {
        "en": "Passes μ (TRL num_iterations, verl ppo_epochs)",
        "zh": "遍数 μ（TRL num_iterations，verl ppo_epochs）",
    },
    "confusions.ratio_one.mb": {
        "en": "Mini-batches per pass (TRL steps_per_generation)",
        "zh": "每遍的小批次数（TRL steps_per_generation）",
    },
    "confusions.ratio_one.lr": {"en": "Learning rate", "zh": "学习率"},
    "confusions.ratio_one.note": {
        "en": "One real RL step of GRPO on the shipped tiny LM: {prompts} {prompts:plural:prompt|prompts} × G = {G}, the trainer's own "
        "update loop; the seed is the sidebar's.",
        "zh": "在随附的微型语言模型上真正跑一步 GRPO：{prompts} 个提示词 × G = {G}，用训练器自己的更新循环；"
        "随机种子取自侧边栏。",
    },
    "confusions.ratio_one.q": {
        "en": "One RL step with μ = {mu} {mu:plural:pass|passes} and {mb} {mb:plural:mini-batch|mini-batches} per pass: {n} optimizer {n:plural:step|steps} on the "
        "same rollouts. Does PPO's clip act on {n:plural:it|any of them}?",
        "zh": "一步 RL，μ = {mu} 遍、每遍 {mb} 个小批次：在同一批 rollout 上做 {n} 次优化器更新。PPO 的裁剪在其中"
        "任何一次上起作用吗？",
    },
    "confusions.ratio_one.choice.acts": {"en": "Yes, on some update", "zh": "会，在某些更新上"},
    "confusions.ratio_one.choice.never": {"en": "No, never", "zh": "不会，从不"},
    "confusions.ratio_one.why.acts": {
        "en": "The first update is on-policy: max |r − 1| = {first_dev}, nothing to clip. Every later update sees a "
        "policy the earlier ones already moved: max |r − 1| per update {devs}, clip fraction per update {clips}.",
        "zh": "第一次更新是同策略的：max |r − 1| = {first_dev}，没有可裁剪的。之后每次更新面对的都是已被前面更新改动过的"
        "策略：各次更新的 max |r − 1| 为 {devs}，裁剪比例为 {clips}。",
    },
    "confusions.ratio_one.why.never": {
        "en": "Per update max |r − 1| = {devs} and clip fraction {clips}: with a single update per rollout batch "
        "π_old is the same weights as π_θ, the ratio is exactly 1 and only its gradient is used (the plain policy "
        "gradient). Set μ > 1 or more mini-batches and the clip starts to act.",
        "zh": "各次更新 max |r − 1| = {devs}，裁剪比例 {clips}：每批 rollout 只更新一次时，π_old 与 π_θ 是同一套权重，"
        "比率恰好为 1，只用到它的梯度（即普通的策略梯度）。把 μ 设为大于 1 或增加小批次，裁剪就开始起作用。",
    },
    "confusions.ratio_one.ratio_panel": {
        "en": "Ratio r = π_θ/π_old on each update",
        "zh": "每次更新的比率 r = π_θ/π_old",
    },
    "confusions.ratio_one.clip_panel": {"en": "Clip fraction on each update", "zh": "每次更新的裁剪比例"},
    "confusions.ratio_one.update": {"en": "update (pass · mini-batch)", "zh": "更新（遍 · 小批次）"},
    "confusions.ratio_one.ratio": {"en": "ratio r", "zh": "比率 r"},
    "confusions.ratio_one.clip": {"en": "clip fraction", "zh": "裁剪比例"},
    "confusions.ratio_one.mean": {"en": "mean r", "zh": "r 的均值"},
    "confusions.ratio_one.range": {"en": "min to max of r", "zh": "r 的最小到最大"},
    "confusions.ratio_one.tick": {"en": "{update} ({epoch}·{mb})", "zh": "第 {update} 次（{epoch}·{mb}）"},
    "confusions.ratio_one.reading": {
        "en": "Update 1: every ratio is {first_min}…{first_max}, clip fraction {first_clip}. Later updates: r "
        "spans {later_min}…{later_max} and up to {later_clip} of the tokens are clipped. The clip guards the "
        "reuse of a batch; with one update per batch it has nothing to guard.",
        "zh": "第 1 次更新：所有比率都在 {first_min}…{first_max}，裁剪比例 {first_clip}。之后的更新：r 分布在 "
        "{later_min}…{later_max}，最多有 {later_clip} 的 token 被裁剪。裁剪保护的是对同一批数据的重复使用；每批只更新"
        "一次时，它无事可做。",
    },
    "confusions.ratio_one.reading_single": {
        "en": "One update only: every ratio is {first_min}…{first_max}, clip fraction {first_clip}.",
        "zh": "只有一次更新：所有比率都在 {first_min}…{first_max}，裁剪比例 {first_clip}。",
    },
    "confusions.ratio_one.sources": {
        "en": f"{_src('huggingface/trl', 3120)}: “why is clip_ratio always zero?”, answered by the default "
        f"`num_iterations=1` · {_src('huggingface/trl', 3757)}: the ratio terms are always 1 and no clipping "
        f"happens · {_src('verl-project/verl', 1477)}: with `ppo_epochs=1` the clip-higher setting cannot have "
        "acted",
        "zh": f"{_src('huggingface/trl', 3120)}：“为什么 clip_ratio 一直是 0？”，回答是默认 `num_iterations=1` · "
        f"{_src('huggingface/trl', 3757)}：比率项恒为 1，从未发生裁剪 · {_src('verl-project/verl', 1477)}："
        "`ppo_epochs=1` 时 clip-higher 的设置不可能起过作用",
    },
    # ------------------------------------------------------------------------------------ 4. token vs sequence
    "confusions.sequence.header": {
        "en": "4. Token-level vs sequence-level ratios",
        "zh": "4. token 级比率与序列级比率",
    },
    "confusions.sequence.said": {
        "en": "“GSPO just averages the token ratios, so it clips the same tokens GRPO does, only less.” · "
        "“importance_sampling_level only changes a log.”",
        "zh": "“GSPO 只是把 token 比率取平均，所以它裁剪的 token 和 GRPO 一样，只是少一些。”·"
        "“importance_sampling_level 只改一个日志项。”",
    },
    "confusions.sequence.log_ratios": {
        "en": "Token log-ratios log r_t of one response",
        "zh": "一条回答的 token 对数比率 log r_t",
    },
    "confusions.sequence.log_ratios_help": {
        "en": "log π_θ − log π_old of each token, separated by commas (at most 64 tokens, |log r| ≤ 5).",
        "zh": "每个 token 的 log π_θ − log π_old，用逗号分隔（最多 64 个 token，|log r| ≤ 5）。",
    },
    "confusions.sequence.sign": {"en": "Advantage of the response", "zh": "这条回答的优势"},
    "confusions.sequence.q": {
        "en": "With A {sign}, {token} clips {n_tok} of these {L} {L:plural:token|tokens} (each token's own ratio). How many does "
        "{seq} clip (one ratio s for the whole response, its own ε)?",
        "zh": "A {sign} 时，{token} 裁剪了这 {L} 个 token 中的 {n_tok} 个（每个 token 用自己的比率）。{seq} 会裁剪"
        "几个（整条回答共用一个比率 s，用它自己的 ε）？",
    },
    "confusions.sequence.choice.all": {"en": "All of them", "zh": "全部"},
    "confusions.sequence.choice.none": {"en": "None", "zh": "一个都不裁剪"},
    "confusions.sequence.choice.some": {"en": "Some, like the token-level one", "zh": "一部分，和 token 级一样"},
    "confusions.sequence.why.all": {
        "en": "s = {s}, the geometric mean of the r_t, lies outside {seq}'s band [{seq_low}, {seq_high}] on the "
        "side the sign of A clips, so every token shares that one clipped ratio and none gets a gradient: one "
        "outlying token decides for the whole response.",
        "zh": "s = {s} 是各 r_t 的几何平均，落在 {seq} 的区间 [{seq_low}, {seq_high}] 之外、且正好在 A 的符号会裁剪的那一侧，"
        "所以每个 token 共用这一个被裁剪的比率，没有一个 token 有梯度：一个离群 token 决定了整条回答。",
    },
    "confusions.sequence.why.none": {
        "en": "s = {s}, the geometric mean of the r_t, is inside {seq}'s band [{seq_low}, {seq_high}] or on the "
        "side the sign of A does not clip, so every token keeps its gradient, including the ones {token} clips "
        "with its band [{tok_low}, {tok_high}].",
        "zh": "s = {s} 是各 r_t 的几何平均，落在 {seq} 的区间 [{seq_low}, {seq_high}] 之内，或在 A 的符号不裁剪的一侧，"
        "所以每个 token 都保留梯度，包括 {token} 用区间 [{tok_low}, {tok_high}] 裁掉的那些。",
    },
    "confusions.sequence.why.some": {
        "en": "{seq} clipped some tokens but not all: that cannot happen with one shared s, so look at the table.",
        "zh": "{seq} 裁剪了部分 token：共用一个 s 时这不应发生，请看下表。",
    },
    "confusions.sequence.ratio_panel": {
        "en": "Each token's ratio (open: clipped) and the bands",
        "zh": "每个 token 的比率（空心：被裁剪）与区间",
    },
    "confusions.sequence.push_panel": {"en": "Push −∂loss/∂log π per token", "zh": "每个 token 的推力 −∂loss/∂log π"},
    "confusions.sequence.reading": {
        "en": "{token} (token ratios, band [{tok_low}, {tok_high}]) clips {n_tok} of {L} {L:plural:token|tokens}; {seq} (s = {s}, band "
        "[{seq_low}, {seq_high}]) clips {n_seq}. Without clipping {seq} gives every token the same push, "
        "{token} gives each token its own r_t·A.",
        "zh": "{token}（token 比率，区间 [{tok_low}, {tok_high}]）裁剪了 {L} 个 token 中的 {n_tok} 个；{seq}（s = {s}，"
        "区间 [{seq_low}, {seq_high}]）裁剪了 {n_seq} 个。不裁剪时，{seq} 给每个 token 相同的推力，{token} 给每个 "
        "token 各自的 r_t·A。",
    },
    "confusions.sequence.sources": {
        "en": f'{_src("huggingface/trl", 3775)}: GSPO in TRL as `importance_sampling_level="sequence"` · '
        f"{_src('huggingface/trl', 3820)}: GSPO-token, equal to GSPO when the advantage is constant along the "
        f"sequence · {_src('verl-project/verl', 2775)}: GSPO's sequence ratio in verl's policy loss",
        "zh": f'{_src("huggingface/trl", 3775)}：TRL 中以 `importance_sampling_level="sequence"` 实现的 GSPO · '
        f"{_src('huggingface/trl', 3820)}：GSPO-token，在优势沿序列不变时与 GSPO 相等 · "
        f"{_src('verl-project/verl', 2775)}：verl 策略损失中 GSPO 的序列比率",
    },
    # ------------------------------------------------------------------------------------ 5. sampler vs trainer
    "confusions.sampler.header": {
        "en": "5. What an importance-sampling correction between the sampler and the trainer measures",
        "zh": "5. 采样端与训练端之间的重要性采样校正到底度量了什么",
    },
    "confusions.sampler.said": {
        "en": "“TIS is PPO's clip again.” · “Same weights in vLLM and in FSDP, so the probabilities are the same "
        "and the correction is 1.”",
        "zh": "“TIS 就是又一遍 PPO 裁剪。”·“vLLM 和 FSDP 里是同一套权重，所以概率一样，校正恒为 1。”",
    },
    "confusions.sampler.dtype": {"en": "Sampler precision", "zh": "采样端精度"},
    "confusions.sampler.dtype_help": {
        "en": "The sampler runs a copy of the weights in this precision (as an inference engine serving a float32 "
        "trainer does); the trainer scores the same tokens in float32.",
        "zh": "采样端用这个精度的权重副本来采样（就像为 float32 训练端服务的推理引擎那样）；训练端用 float32 给同样的 "
        "token 打分。",
    },
    "confusions.sampler.cap": {"en": "Truncation C of min(ratio, C)", "zh": "截断 min(ratio, C) 中的 C"},
    "confusions.sampler.cap_help": {
        "en": "verl rollout correction threshold; TRL vllm_importance_sampling_cap.",
        "zh": "verl 的 rollout 校正阈值；TRL 的 vllm_importance_sampling_cap。",
    },
    "confusions.sampler.q": {
        "en": "The {dtype} sampler and the float32 trainer hold the same weights. Before any update, which ratio "
        "differs from 1: the sampler-trainer ratio π_train/π_rollout, PPO's ratio π_θ/π_old, both or neither?",
        "zh": "{dtype} 采样端和 float32 训练端持有同一套权重。在任何更新之前，哪个比率不等于 1：采样端与训练端的比率 "
        "π_train/π_rollout、PPO 的比率 π_θ/π_old、两者都是，还是都不是？",
    },
    "confusions.sampler.choice.sampler": {"en": "Only π_train/π_rollout", "zh": "只有 π_train/π_rollout"},
    "confusions.sampler.choice.ppo": {"en": "Only π_θ/π_old", "zh": "只有 π_θ/π_old"},
    "confusions.sampler.choice.both": {"en": "Both", "zh": "两者都是"},
    "confusions.sampler.choice.neither": {"en": "Neither", "zh": "都不是"},
    "confusions.sampler.why.sampler": {
        "en": "The {dtype} sampler's log-probs of its own tokens differ from the trainer's by up to {gap_max} nats "
        "(std {gap_std}): same weights, different arithmetic. PPO's ratio compares the trainer with itself "
        "(max |log r| = {ppo_max}). A truncated IS weight corrects the first gap, PPO's clip limits the second: "
        "they measure different things.",
        "zh": "{dtype} 采样端对自己采出的 token 给出的对数概率，与训练端的最多相差 {gap_max} nats（标准差 {gap_std}）："
        "权重相同，算法精度不同。PPO 的比率是训练端与它自己比较（max |log r| = {ppo_max}）。截断的重要性权重校正的是前一个"
        "差距，PPO 的裁剪限制的是后一个：它们度量的是不同的东西。",
    },
    "confusions.sampler.why.ppo": {
        "en": "Here PPO's ratio moved (max |log r| = {ppo_max}) while the sampler and trainer agree (max gap "
        "{gap_max}); look at the table below.",
        "zh": "这里 PPO 的比率变了（max |log r| = {ppo_max}），而采样端与训练端一致（最大差 {gap_max}）；请看下表。",
    },
    "confusions.sampler.why.both": {
        "en": "Both moved: sampler-trainer gap up to {gap_max} nats, PPO's ratio up to {ppo_max}.",
        "zh": "两者都变了：采样端与训练端最多相差 {gap_max} nats，PPO 的比率最多 {ppo_max}。",
    },
    "confusions.sampler.why.neither": {
        "en": "With a {dtype} sampler both ratios are 1 (max gap {gap_max}, max PPO |log r| {ppo_max}): the sampler "
        "runs the trainer's own weights and arithmetic, so there is nothing to correct. Pick bfloat16 to see the "
        "gap an inference engine brings.",
        "zh": "用 {dtype} 采样端时两个比率都是 1（最大差 {gap_max}，PPO 的 max |log r| 为 {ppo_max}）：采样端用的就是"
        "训练端自己的权重和算法，没有什么需要校正。选 bfloat16 可以看到推理引擎带来的差距。",
    },
    "confusions.sampler.gap_panel": {"en": "Sampler vs trainer", "zh": "采样端与训练端"},
    "confusions.sampler.ppo_panel": {"en": "PPO's ratio, first update", "zh": "第一次更新时 PPO 的比率"},
    "confusions.sampler.gap_x": {"en": "log π_train − log π_rollout", "zh": "log π_train − log π_rollout"},
    "confusions.sampler.ppo_x": {"en": "log π_θ − log π_old", "zh": "log π_θ − log π_old"},
    "confusions.sampler.log_ratio": {"en": "log-ratio per token (nats)", "zh": "每个 token 的对数比率（nats）"},
    "confusions.sampler.tokens": {"en": "tokens", "zh": "token 数"},
    "confusions.sampler.metric_gap": {
        "en": "max |log π_train − log π_rollout|",
        "zh": "max |log π_train − log π_rollout|",
    },
    "confusions.sampler.metric_above": {"en": "tokens with ratio > C", "zh": "比率 > C 的 token"},
    "confusions.sampler.metric_tis": {"en": "mean TIS weight min(ratio, C)", "zh": "TIS 权重 min(ratio, C) 的均值"},
    "confusions.sampler.metric_seq": {"en": "sequence ratio range", "zh": "序列比率范围"},
    "confusions.sampler.reading": {
        "en": "{tokens} {tokens:plural:token|tokens}: the per-token IS ratio π_train/π_rollout lies in [{r_min}, {r_max}]; {above} of the "
        "tokens exceed C = {cap}, so min(ratio, C) changes {above} of them and the mean weight is {tis}. Over a "
        "whole response the ratios multiply: the sequence-level ratio ranges over [{seq_min}, {seq_max}]. None of "
        "this is the policy's update: PPO's ratio at the first update is 1 on every token.",
        "zh": "{tokens} 个 token：每个 token 的重要性比率 π_train/π_rollout 在 [{r_min}, {r_max}] 内；有 {above} 的 token "
        "超过 C = {cap}，所以 min(ratio, C) 改变了其中 {above}，权重均值为 {tis}。整条回答上比率相乘：序列级比率的范围是 "
        "[{seq_min}, {seq_max}]。这些都不是策略的更新：第一次更新时 PPO 的比率在每个 token 上都是 1。",
    },
    "confusions.sampler.sources": {
        "en": f"{_src('verl-project/verl', 2953)}: truncated importance sampling for the vLLM–FSDP mismatch in verl · "
        f"{_src('huggingface/trl', 3867)}: the same in TRL, with the observed vLLM vs trainer log-prob gap · "
        f"{_src('verl-project/verl', 3694)}: verl's rollout importance-sampling framework (token and sequence "
        "level, truncate or mask)",
        "zh": f"{_src('verl-project/verl', 2953)}：verl 中针对 vLLM 与 FSDP 不一致的截断重要性采样 · "
        f"{_src('huggingface/trl', 3867)}：TRL 中的同一做法，并记录了 vLLM 与训练端对数概率的差距 · "
        f"{_src('verl-project/verl', 3694)}：verl 的 rollout 重要性采样框架（token 级与序列级，截断或屏蔽）",
    },
    # ------------------------------------------------------------------------------------ 6. KL
    "confusions.kl.header": {
        "en": "6. KL in the reward or in the loss, and which estimator",
        "zh": "6. KL 放进奖励还是放进 loss，用哪个估计器",
    },
    "confusions.kl.said": {
        "en": "“k3 is unbiased and low-variance, so it is the right KL for the loss.” · “use_kl_in_reward and "
        "use_kl_loss are two spellings of the same penalty.”",
        "zh": "“k3 无偏且方差小，所以放进 loss 的 KL 就该用它。”·“use_kl_in_reward 和 use_kl_loss 是同一个惩罚的两种写法。”",
    },
    "confusions.kl.distance": {"en": "Distance of π from π_ref", "zh": "π 与 π_ref 的距离"},
    "confusions.kl.distance_help": {
        "en": "π = softmax(θ_ref + distance · z) over a small vocabulary; z is drawn from the sidebar's seed.",
        "zh": "π = softmax(θ_ref + distance · z)，定义在一个小词表上；z 由侧边栏的随机种子生成。",
    },
    "confusions.kl.q": {
        "en": "Tokens are sampled from π. In expectation over those samples, which of these gives exactly the "
        "gradient of KL(π ‖ π_ref)?",
        "zh": "token 从 π 中采样。对这些样本取期望，下面哪一种恰好给出 KL(π ‖ π_ref) 的梯度？",
    },
    "confusions.kl.choice.k1_loss": {"en": "k1 added to the loss", "zh": "把 k1 加进 loss"},
    "confusions.kl.choice.k3_loss": {
        "en": "k3 added to the loss (TRL beta; verl low_var_kl)",
        "zh": "把 k3 加进 loss（TRL 的 beta；verl 的 low_var_kl）",
    },
    "confusions.kl.choice.k1_reward": {
        "en": "k1 subtracted from the reward (verl use_kl_in_reward, kl_penalty=kl)",
        "zh": "从奖励中减去 k1（verl 的 use_kl_in_reward，kl_penalty=kl）",
    },
    "confusions.kl.why.k1_reward": {
        "en": "Relative error of the expected gradient against ∇KL: k1 in the reward {err_k1_reward}, k1 in the loss "
        "{err_k1_loss} (its gradient is 1 on every token, and E[∇log π] = 0), k3 in the loss {err_k3_loss} (it "
        "follows a different divergence), k2 in the loss {err_k2_loss}. k3's value is unbiased; its gradient is "
        "not the KL's.",
        "zh": "期望梯度相对 ∇KL 的相对误差：k1 放进奖励 {err_k1_reward}，k1 放进 loss {err_k1_loss}（它在每个 token 上的"
        "梯度都是 1，而 E[∇log π] = 0），k3 放进 loss {err_k3_loss}（它跟随的是另一个散度），k2 放进 loss "
        "{err_k2_loss}。k3 的取值无偏，但它的梯度不是 KL 的梯度。",
    },
    "confusions.kl.why.k1_loss": {
        "en": "k1 in the loss has error {err_k1_loss} here; k1 in the reward {err_k1_reward}, k3 in the loss "
        "{err_k3_loss}.",
        "zh": "这里 k1 放进 loss 的误差是 {err_k1_loss}；k1 放进奖励 {err_k1_reward}，k3 放进 loss {err_k3_loss}。",
    },
    "confusions.kl.why.k3_loss": {
        "en": "k3 in the loss has error {err_k3_loss} here; k1 in the reward {err_k1_reward}, k1 in the loss "
        "{err_k1_loss}.",
        "zh": "这里 k3 放进 loss 的误差是 {err_k3_loss}；k1 放进奖励 {err_k1_reward}，k1 放进 loss {err_k1_loss}。",
    },
    "confusions.kl.value_panel": {"en": "Value of the estimator", "zh": "估计器的取值"},
    "confusions.kl.grad_panel": {"en": "Push, d loss / d log π", "zh": "作用 d loss / d log π"},
    "confusions.kl.x": {"en": "x = log π − log π_ref", "zh": "x = log π − log π_ref"},
    "confusions.kl.value": {"en": "k(x)", "zh": "k(x)"},
    "confusions.kl.grad": {"en": "d loss / d log π (β = 1)", "zh": "d loss / d log π（β 取 1）"},
    "confusions.kl.loss": {"en": "{e} in the loss", "zh": "{e} 放进 loss"},
    "confusions.kl.reward": {"en": "{e} in the reward", "zh": "{e} 放进奖励"},
    "confusions.kl.table_note": {
        "en": "Exact expectations over π (no sampling noise), against KL(π ‖ π_ref) = {kl}:",
        "zh": "对 π 的精确期望（没有采样噪声），对照 KL(π ‖ π_ref) = {kl}：",
    },
    "confusions.kl.col_route": {"en": "where", "zh": "位置"},
    "confusions.kl.col_estimator": {"en": "estimator", "zh": "估计器"},
    "confusions.kl.col_value": {"en": "E[k]", "zh": "E[k]"},
    "confusions.kl.col_error": {"en": "gradient error vs ∇KL", "zh": "梯度相对 ∇KL 的误差"},
    "confusions.kl.route.loss": {"en": "loss", "zh": "loss"},
    "confusions.kl.route.reward": {"en": "reward", "zh": "奖励"},
    "confusions.kl.reading": {
        "en": "In the loss, the KL term pushes each token by β·k′(x) (right panel, solid): k1 pushes every token "
        "by the same constant, k2 by x, k3 by 1 − e^(−x). In the reward, −β·k(x) becomes part of the advantage, "
        "a number with no gradient of its own: the token is pushed by β·k(x) through the policy-gradient term "
        "(dotted). At x = {x}: in the loss k1 {l1}, k2 {l2}, k3 {l3}; in the reward with k1 {r1}.",
        "zh": "放进 loss 时，KL 项对每个 token 的作用是 β·k′(x)（右图实线）：k1 对每个 token 都是同一个常数，k2 是 x，"
        "k3 是 1 − e^(−x)。放进奖励时，−β·k(x) 成为优势的一部分，是一个本身不带梯度的数：它通过策略梯度项对 token "
        "产生 β·k(x) 的作用（虚线）。在 x = {x} 处：放进 loss 时 k1 为 {l1}、k2 为 {l2}、k3 为 {l3}；k1 放进奖励时为 {r1}。",
    },
    "confusions.kl.sources": {
        "en": f"{_src('verl-project/verl', 3276)}: “use_kl_loss vs use_kl_in_reward”, what each does · "
        f"{_src('huggingface/trl', 4967)}: k3 in the loss gives a biased gradient, k1 in the reward an unbiased one "
        f"(a request to support it in TRL) · {_src('verl-project/verl', 2953)}: the discussion of k3's gradient "
        "in the TIS pull request",
        "zh": f"{_src('verl-project/verl', 3276)}：“use_kl_loss 与 use_kl_in_reward 的区别”，各自做了什么 · "
        f"{_src('huggingface/trl', 4967)}：k3 放进 loss 给出有偏的梯度，k1 放进奖励给出无偏的梯度（请求 TRL 支持后者）· "
        f"{_src('verl-project/verl', 2953)}：TIS 这个 PR 里关于 k3 梯度的讨论",
    },
    # ------------------------------------------------------------------------------------ 7. std division
    "confusions.difficulty.header": {
        "en": "7. Dividing advantages by the group's std (difficulty bias)",
        "zh": "7. 优势除以组内标准差（难度偏差）",
    },
    "confusions.difficulty.said": {
        "en": "“Dividing by the std only rescales the advantages; Adam undoes any scale.” · "
        "“scale_rewards is a numerical-stability switch.”",
        "zh": "“除以标准差只是把优势整体缩放一下，Adam 会抵消任何缩放。”·“scale_rewards 只是个数值稳定性开关。”",
    },
    "confusions.difficulty.G": {"en": "Group size G", "zh": "组大小 G"},
    "confusions.difficulty.p": {"en": "Pass rate p of the prompt asked about", "zh": "所问提示词的通过率 p"},
    "confusions.difficulty.q": {
        "en": "G = {G}. With the std division, how much expected advantage mass E[Σ|A_i|] does a prompt with pass "
        "rate p = {p} get, relative to a prompt solved half the time (p = 0.5, which counts 1)?",
        "zh": "G = {G}。除以标准差时，通过率 p = {p} 的提示词得到的期望优势总量 E[Σ|A_i|]，是一个一半时间能做对的"
        "提示词（p = 0.5，记为 1）的多少倍？",
    },
    "confusions.difficulty.why": {
        "en": "With the std division: {group} (the answer, {answer}); without it (Dr.GRPO): {none}. Dividing by a "
        "small std inflates the advantages of groups that are nearly all right or all wrong, so the weight a "
        "prompt gets depends on its difficulty, not only on how informative it is. This is not a global scale: "
        "each group has its own std.",
        "zh": "除以标准差：{group}（即答案 {answer}）；不除（Dr.GRPO）：{none}。除以一个小的标准差，会放大几乎全对或"
        "几乎全错的组的优势，所以一个提示词得到的权重取决于它的难度，而不只是它携带了多少信息。这不是全局缩放："
        "每个组有自己的标准差。",
    },
    "confusions.difficulty.group": {
        "en": '÷ group std (GRPO; TRL scale_rewards="group", verl norm_adv_by_std_in_grpo=True)',
        "zh": '÷ 组内标准差（GRPO；TRL scale_rewards="group"，verl norm_adv_by_std_in_grpo=True）',
    },
    "confusions.difficulty.none": {
        "en": 'no std (Dr.GRPO; scale_rewards="none", norm_adv_by_std_in_grpo=False)',
        "zh": '不除标准差（Dr.GRPO；scale_rewards="none"，norm_adv_by_std_in_grpo=False）',
    },
    "confusions.difficulty.p_axis": {"en": "pass rate p of the prompt", "zh": "提示词的通过率 p"},
    "confusions.difficulty.relative": {
        "en": "E[Σ|A|] relative to p = 0.5",
        "zh": "E[Σ|A|]（相对 p = 0.5）",
    },
    "confusions.difficulty.reading": {
        "en": "At p = {p}: {group} with the std division, {none} without it. At p = {p_edge}: {group_edge} vs "
        "{none_edge}. Near 0 and 1 the std division keeps prompts that are almost always solved (or never) "
        "weighing a large share.",
        "zh": "在 p = {p}：除以标准差时为 {group}，不除时为 {none}。在 p = {p_edge}：{group_edge} 对 {none_edge}。"
        "在 0 和 1 附近，除以标准差让几乎总能做对（或总做不对）的提示词仍占很大的权重。",
    },
    "confusions.difficulty.sources": {
        "en": f"{_src('huggingface/trl', 3135)}: the option not to scale rewards (Dr.GRPO) · "
        f"{_src('verl-project/verl', 990)}: the same switch for verl's GRPO advantage",
        "zh": f"{_src('huggingface/trl', 3135)}：不按标准差缩放奖励的选项（Dr.GRPO）· "
        f"{_src('verl-project/verl', 990)}：verl GRPO 优势的同一开关",
    },
    # ------------------------------------------------------------------------------------ 8. clip bounds
    "confusions.clip.header": {
        "en": "8. What ε_low, ε_high and the dual clip c mean",
        "zh": "8. ε_low、ε_high 和双重裁剪 c 分别是什么意思",
    },
    "confusions.clip.said": {
        "en": "“The ratio is clipped to [1 − ε_low, 1 + ε_high], so no token ever moves past 1 + ε_high.” · "
        "“c is just a wider ε.”",
        "zh": "“比率被裁剪到 [1 − ε_low, 1 + ε_high]，所以没有 token 能越过 1 + ε_high。”·“c 只是一个更宽的 ε。”",
    },
    "confusions.clip.eps_low": {"en": "ε_low ({trl} / {verl})", "zh": "下界 ε_low（{trl} / {verl}）"},
    "confusions.clip.eps_high": {"en": "ε_high ({trl} / {verl})", "zh": "上界 ε_high（{trl} / {verl}）"},
    "confusions.clip.dual_on": {"en": "Dual clip on", "zh": "启用双重裁剪"},
    "confusions.clip.c": {"en": "Dual clip c ({trl} / {verl})", "zh": "双重裁剪 c（{trl} / {verl}）"},
    "confusions.clip.ratio": {"en": "Ratio r of the token asked about", "zh": "所问 token 的比率 r"},
    "confusions.clip.sign": {"en": "Its advantage", "zh": "它的优势"},
    "confusions.clip.q": {
        "en": "A token with A {sign} has ratio r = {r} (band [{low}, {high}], dual clip c = {c}; ∞ means off). "
        "Which setting stops its gradient?",
        "zh": "某个 token 的 A {sign}，比率 r = {r}（区间 [{low}, {high}]，双重裁剪 c = {c}；∞ 表示关闭）。"
        "是哪个设置让它的梯度变为零？",
    },
    "confusions.clip.choice.eps_low": {"en": "ε_low", "zh": "ε_low"},
    "confusions.clip.choice.eps_high": {"en": "ε_high", "zh": "ε_high"},
    "confusions.clip.choice.c": {"en": "The dual clip c", "zh": "双重裁剪 c"},
    "confusions.clip.choice.none": {"en": "None: its gradient flows", "zh": "都不是：梯度照常存在"},
    "confusions.clip.why.eps_low": {
        "en": "With A {sign} and r = {r} below the band's lower end {low}, the clipped branch is the larger loss: "
        "ε_low stops this token (it cannot be pushed further down).",
        "zh": "A {sign} 且 r = {r} 低于区间下端 {low} 时，裁剪分支的 loss 更大：是 ε_low 让这个 token 停下（不能再被往下压）。",
    },
    "confusions.clip.why.eps_high": {
        "en": "With A {sign} and r = {r} above the band's upper end {high}, the clipped branch is the larger loss: "
        "ε_high stops this token (it cannot be pushed further up).",
        "zh": "A {sign} 且 r = {r} 高于区间上端 {high} 时，裁剪分支的 loss 更大：是 ε_high 让这个 token 停下（不能再被往上推）。",
    },
    "confusions.clip.why.c": {
        "en": "With A {sign} and r = {r} above c = {c}, the dual clip caps the loss at −c·A: its gradient is zero. "
        "c only ever acts on A < 0, where the plain clip leaves large ratios unbounded.",
        "zh": "A {sign} 且 r = {r} 高于 c = {c} 时，双重裁剪把 loss 截在 −c·A：梯度为零。c 只作用于 A < 0，那里普通裁剪"
        "对大的比率没有上界。",
    },
    "confusions.clip.why.none": {
        "en": "No setting stops it at r = {r} with A {sign}: the band is [{low}, {high}] and c = {c}. The clip only "
        "acts on the side the advantage pushes towards; on the other side the unclipped branch keeps its "
        "gradient r·A.",
        "zh": "在 r = {r}、A {sign} 时没有哪个设置让它停下：区间是 [{low}, {high}]，c = {c}。裁剪只作用在优势推动的那一侧；"
        "另一侧未裁剪的分支保留梯度 r·A。",
    },
    "confusions.clip.positive": {"en": "A = +1", "zh": "A = +1"},
    "confusions.clip.negative": {"en": "A = −1", "zh": "A = −1"},
    "confusions.clip.ratio_axis": {"en": "ratio r = π_θ/π_old", "zh": "比率 r = π_θ/π_old"},
    "confusions.clip.push": {"en": "push −∂loss/∂log π", "zh": "推力 −∂loss/∂log π"},
    "confusions.clip.bound.none": {"en": "gradient flows", "zh": "梯度存在"},
    "confusions.clip.bound.eps_low": {"en": "stopped by ε_low", "zh": "被 ε_low 截停"},
    "confusions.clip.bound.eps_high": {"en": "stopped by ε_high", "zh": "被 ε_high 截停"},
    "confusions.clip.bound.c": {"en": "stopped by c", "zh": "被 c 截停"},
    "confusions.clip.reading": {
        "en": "ε_high acts only for A > 0 and r > {high}; ε_low only for A < 0 and r < {low}; c only for A < 0 and "
        "r > {c}. Everywhere else the gradient flows, also for A > 0 below {low} and for A < 0 between {high} "
        "and c. In these curves {n_low}, {n_high} and {n_c} of the {n} sampled ratios are stopped by ε_low, "
        "ε_high and c.",
        "zh": "ε_high 只在 A > 0 且 r > {high} 时起作用；ε_low 只在 A < 0 且 r < {low} 时；c 只在 A < 0 且 r > {c} 时。"
        "其他地方梯度都存在，包括 A > 0 且低于 {low}，以及 A < 0 且在 {high} 与 c 之间。图中 {n} 个采样比率里，分别有 "
        "{n_low}、{n_high}、{n_c} 个被 ε_low、ε_high、c 截停。",
    },
    "confusions.clip.sources": {
        "en": f"{_src('huggingface/trl', 3118)}: clip-higher, TRL's `epsilon_high` (DAPO) · "
        f"{_src('verl-project/verl', 784)}: Dual-Clip PPO in verl, `clip_ratio_c` for A < 0 · "
        f"{_src('huggingface/trl', 3434)}: TRL's `delta`, a cap on the ratio for negative advantages",
        "zh": f"{_src('huggingface/trl', 3118)}：clip-higher，TRL 的 `epsilon_high`（DAPO）· "
        f"{_src('verl-project/verl', 784)}：verl 中的 Dual-Clip PPO，`clip_ratio_c` 作用于 A < 0 · "
        f"{_src('huggingface/trl', 3434)}：TRL 的 `delta`，给负优势的比率加上限",
    },
    # ------------------------------------------------------------------------------------ 9. token-count window
    "confusions.window.ask": {
        "en": "9 · Whose tokens does a token-mean divide by?",
        "zh": "9 · token-mean 除以的是哪些 token 的个数？",
    },
    "confusions.window.header": {
        "en": "9. A token-mean whose token count comes from another window than the optimizer step's",
        "zh": "9. token-mean 的 token 数取自优化步之外的另一个窗口",
    },
    "confusions.window.said": {
        "en": '“`loss_type="dapo"` divides by the tokens of the batch, so the gradient is a token-mean whatever '
        "the batch is.” · “`steps_per_generation` only changes how often we generate.”",
        "zh": '“`loss_type="dapo"` 除以的是 batch 的 token 数，所以不管 batch 是什么，梯度都是 token 平均。”·'
        "“`steps_per_generation` 只改变生成的频率。”",
    },
    "confusions.window.lengths": {"en": "Response lengths of the generation batch", "zh": "生成 batch 中各回答的长度"},
    "confusions.window.lengths_help": {
        "en": "One length (tokens) per response of the generation batch, separated by commas.",
        "zh": "生成 batch 中每条回答一个长度（token 数），用逗号分隔。",
    },
    "confusions.window.steps": {"en": "Optimizer steps per generation", "zh": "每次生成对应的优化步数"},
    "confusions.window.steps_help": {
        "en": "TRL `steps_per_generation`: the generation batch is split in order into this many optimizer steps "
        "of equal size; it must divide the number of responses.",
        "zh": "TRL 的 `steps_per_generation`：生成 batch 按顺序切成这么多个等大的优化步；它必须整除回答条数。",
    },
    "confusions.window.window": {"en": "Responses whose tokens are counted", "zh": "计入 token 数的回答条数"},
    "confusions.window.window_help": {
        "en": "The normaliser counts the tokens of this many responses, from the step's first one on (wrapping "
        "around the batch). Equal to the step's own size, it is the intended token-mean.",
        "zh": "归一化常数数的是从该步第一条回答起这么多条回答的 token（到 batch 末尾后从头接上）。等于该步自己的"
        "回答条数时，就是本来想要的 token 平均。",
    },
    "confusions.window.q": {
        "en": "A generation batch of {B} responses (lengths {lengths}) is used for k = {k} optimizer "
        "{k:plural:step|steps} of {size} {size:plural:response|responses} each, but the token-mean divides by the "
        "tokens of {w} {w:plural:response|responses} from the step's first. How many times the intended gradient "
        "does step 1 get?",
        "zh": "一个含 {B} 条回答（长度 {lengths}）的生成 batch 被用于 k = {k} 个优化步，每步 {size} 条回答；但 "
        "token-mean 除以的是从该步第一条起 {w} 条回答的 token 数。第 1 步得到的梯度是本来应有的几倍？",
    },
    "confusions.window.why": {
        "en": "Step 1 holds N_1 = {N1} {N1:plural:token|tokens}, so the intended token-mean gives each of them "
        "1/{N1} = {intended}. The normaliser counted N_w = {Nw} {Nw:plural:token|tokens} and gave each 1/{Nw} = "
        "{used}: the step's gradient is N_1 / N_w = {answer} times the intended. A count over more responses than "
        "the step shrinks the step, a count over fewer enlarges it.",
        "zh": "第 1 步有 N_1 = {N1} 个 token，本来的 token-mean 给其中每个 token 的权重是 1/{N1} = {intended}。"
        "归一化常数却数了 N_w = {Nw} 个 token，给每个 token 1/{Nw} = {used}：这一步的梯度是本来的 N_1 / N_w = "
        "{answer} 倍。数的回答比这一步多，这一步就被缩小；数得少，就被放大。",
    },
    "confusions.window.tokens": {"en": "tokens of the step N_j", "zh": "该步的 token 数 N_j"},
    "confusions.window.counted": {"en": "tokens counted N_w", "zh": "被计入的 token 数 N_w"},
    "confusions.window.scale": {"en": "gradient ÷ intended = N_j / N_w", "zh": "梯度 ÷ 本来的梯度 = N_j / N_w"},
    "confusions.window.tokens_panel": {"en": "Tokens per optimizer step", "zh": "每个优化步的 token 数"},
    "confusions.window.scale_panel": {"en": "Gradient relative to the intended", "zh": "梯度相对本来的倍数"},
    "confusions.window.step": {"en": "step {j}", "zh": "第 {j} 步"},
    "confusions.window.tokens_axis": {"en": "tokens", "zh": "token 数"},
    "confusions.window.scale_axis": {"en": "× intended", "zh": "× 本来的梯度"},
    "confusions.window.reading": {
        "en": "Over the {k} {k:plural:step|steps} the gradient is {scales} times the intended. This is not a "
        "learning-rate rescale: with unequal lengths every step is off by its own factor, and the same "
        "`loss_type` gives another gradient as soon as `steps_per_generation` or `gradient_accumulation_steps` "
        "changes.",
        "zh": "这 {k} 步的梯度分别是本来的 {scales} 倍。这不是学习率的整体缩放：长度不等时每一步偏差的倍数各不相同，"
        "而且只要 `steps_per_generation` 或 `gradient_accumulation_steps` 一变，同一个 `loss_type` 给出的梯度就变了。",
    },
    "confusions.window.sources": {
        "en": f"{_src('huggingface/trl', 6024)}: the token count TRL's `dapo` loss divides by was taken over another "
        "window than the optimizer step's when `steps_per_generation` differs from `gradient_accumulation_steps`, "
        "so the gradient came out 0.5× or 4× the intended",
        "zh": f"{_src('huggingface/trl', 6024)}：当 `steps_per_generation` 与 `gradient_accumulation_steps` 不同时，"
        "TRL `dapo` loss 所除的 token 数取自优化步之外的另一个窗口，梯度因此变成本来的 0.5 倍或 4 倍",
    },
    # ------------------------------------------------------------------------------------ 10. sequence weights
    "confusions.drift.ask": {
        "en": "10 · Is a small drift per token harmless to a sequence-level weight?",
        "zh": "10 · 每个 token 只偏一点点，对序列级权重就无害吗？",
    },
    "confusions.drift.header": {
        "en": "10. Sequence-level importance weights: a product of token ratios that compounds with length",
        "zh": "10. 序列级重要性权重：token 比率的连乘，随长度累积",
    },
    "confusions.drift.said": {
        "en": "“The sampler and the trainer agree to about 1% per token, so the importance weights are about 1.” · "
        "“`sequence_mask` only drops broken responses.”",
        "zh": "“采样端和训练端每个 token 只差 1% 左右，所以重要性权重约等于 1。”·“`sequence_mask` 只会丢掉出问题的回答。”",
    },
    "confusions.drift.drift": {
        "en": "Drift per token d = log π_train − log π_rollout",
        "zh": "每个 token 的偏差 d = log π_train − log π_rollout",
    },
    "confusions.drift.drift_help": {
        "en": "The same small gap at every token of the response (0.01 is about 1%), as a bf16 sampler against an "
        "fp32 trainer can give.",
        "zh": "回答的每个 token 上都有同样的小差距（0.01 约为 1%），bf16 采样端对 fp32 训练端就可能给出这样的差距。",
    },
    "confusions.drift.cap": {"en": "Cap C on the sequence weight", "zh": "序列权重的上限 C"},
    "confusions.drift.cap_help": {
        "en": "`sequence_mask` drops a response whose weight is above C; `sequence_truncate` clamps it to C. "
        "TRL's default: {default}.",
        "zh": "`sequence_mask` 丢弃权重高于 C 的回答；`sequence_truncate` 把权重截到 C。TRL 的默认值：{default}。",
    },
    "confusions.drift.q": {
        "en": "Every token's ratio is e^{drift} = {ratio}; the sequence weight multiplies them. From which response "
        "length L on does TRL's `sequence_mask` (cap C = {cap}) drop the whole response?",
        "zh": "每个 token 的比率都是 e^{drift} = {ratio}，序列权重是它们的连乘。回答长度 L 从多少起，TRL 的 "
        "`sequence_mask`（上限 C = {cap}）会丢掉整条回答？",
    },
    "confusions.drift.why": {
        "en": "The weight of L tokens is e^(L·d): it passes C = {cap} when L > ln C / d = {bound}. At L = {before} it "
        "is {w_before}, at L = {answer} it is {w_first}: from there on `sequence_mask` gives the response weight 0 "
        "(no gradient at all) and `sequence_truncate` clamps it to {cap}. Each token's ratio stays {ratio}.",
        "zh": "L 个 token 的权重是 e^(L·d)：当 L > ln C / d = {bound} 时超过 C = {cap}。L = {before} 时是 {w_before}，"
        "L = {answer} 时是 {w_first}：从这里起 `sequence_mask` 给这条回答权重 0（完全没有梯度），`sequence_truncate` "
        "把它截到 {cap}。而每个 token 的比率始终是 {ratio}。",
    },
    "confusions.drift.token": {
        "en": "each token's ratio e^d (= the per-token geometric mean)",
        "zh": "每个 token 的比率 e^d（= 逐 token 几何平均）",
    },
    "confusions.drift.product": {"en": "sequence weight ∏ r_t = e^(L·d)", "zh": "序列权重 ∏ r_t = e^(L·d)"},
    "confusions.drift.truncate": {"en": "sequence_truncate (clamped at C)", "zh": "sequence_truncate（截到 C）"},
    "confusions.drift.mask": {"en": "sequence_mask (0 above C)", "zh": "sequence_mask（高于 C 时为 0）"},
    "confusions.drift.length": {"en": "response length L (tokens)", "zh": "回答长度 L（token）"},
    "confusions.drift.weight": {"en": "importance weight", "zh": "重要性权重"},
    "confusions.drift.left_out": {
        "en": "the sequence weight and what sequence_mask / sequence_truncate make of it",
        "zh": "序列权重，以及 sequence_mask / sequence_truncate 对它的处理",
    },
    "confusions.drift.reading": {
        "en": "At L = {L} tokens the sequence weight is {w_L} while every token's ratio is {ratio}. `sequence_mask` "
        "drops every response of {first} tokens or more: long responses lose their gradient first, a length bias "
        "no token ratio shows. The per-token geometric mean (GSPO's sequence ratio) stays {ratio} at every length.",
        "zh": "L = {L} 个 token 时序列权重是 {w_L}，而每个 token 的比率都是 {ratio}。`sequence_mask` 会丢掉所有 "
        "{first} 个 token 及以上的回答：长回答最先失去梯度，这是一种任何 token 比率都看不出来的长度偏差。逐 token 的"
        "几何平均（GSPO 的序列比率）在任何长度下都是 {ratio}。",
    },
    "confusions.drift.sources": {
        "en": f"{_src('huggingface/trl', 5814)}: with `sequence_mask` a drift of about 1% per token compounds to about "
        f"3× over 100 tokens, so the default cap masks long responses · {_src('huggingface/trl', 5815)}: the "
        "proposal to use the per-token geometric mean instead",
        "zh": f"{_src('huggingface/trl', 5814)}：使用 `sequence_mask` 时，每个 token 约 1% 的偏差在 100 个 token 上"
        f"累积到约 3 倍，默认上限于是会把长回答屏蔽掉 · {_src('huggingface/trl', 5815)}：改用逐 token 几何平均的提议",
    },
    # ------------------------------------------------------------------------------------ 11. GDPO vs GRPO
    "confusions.gdpo.ask": {
        "en": "11 · With several rewards, does GDPO only rescale GRPO?",
        "zh": "11 · 有多个奖励时，GDPO 只是把 GRPO 重新缩放一下吗？",
    },
    "confusions.gdpo.header": {
        "en": "11. GDPO's per-reward normalisation against GRPO's, over several groups",
        "zh": "11. 多个组之上，GDPO 的逐奖励归一化与 GRPO 的对比",
    },
    "confusions.gdpo.said": {
        "en": "“Sum the rewards then normalise (GRPO), or normalise each then sum (GDPO): the same ranking, the same "
        "advantages up to a scale.” · “The batch whitening on top changes nothing.”",
        "zh": "“先把奖励相加再归一化（GRPO），还是先各自归一化再相加（GDPO）：排序一样，优势只差一个缩放。”·"
        "“最后再在整个 batch 上白化一次，什么也不改变。”",
    },
    "confusions.gdpo.reward_1": {"en": "Reward 1 of each response", "zh": "每条回答的奖励 1"},
    "confusions.gdpo.reward_2": {"en": "Reward 2 of each response", "zh": "每条回答的奖励 2"},
    "confusions.gdpo.rewards_help": {
        "en": "One value per response, commas between the responses of a group, ';' between groups (prompts). Both "
        "rewards need the same groups.",
        "zh": "每条回答一个值；同一组内的回答用逗号分隔，不同组（提示词）之间用 ';' 分隔。两个奖励的分组必须相同。",
    },
    "confusions.gdpo.q": {
        "en": "Group 1: response #{i} has rewards ({a_i}, {b_i}), sum {sum_i}; response #{j} has ({a_j}, {b_j}), sum "
        "{sum_j}. Under GDPO (over all {n} {n:plural:group|groups}), which of the two gets the larger advantage?",
        "zh": "第 1 组：回答 #{i} 的奖励是 ({a_i}, {b_i})，总和 {sum_i}；回答 #{j} 是 ({a_j}, {b_j})，总和 {sum_j}。"
        "在 GDPO 下（对全部 {n} 个组），两者中哪个的优势更大？",
    },
    "confusions.gdpo.choice.first": {"en": "The first (#1)", "zh": "第一条（#1）"},
    "confusions.gdpo.choice.same": {"en": "Neither: the same advantage", "zh": "一样大"},
    "confusions.gdpo.choice.second": {"en": "The second (#2)", "zh": "第二条（#2）"},
    "confusions.gdpo.why.first": {
        "en": "GRPO sees only the sums: #{i} gets {grpo_i}, #{j} {grpo_j}. GDPO normalises each reward within the "
        "group before summing, so a reward few responses of the group earn counts for more than one most of "
        "them earn: #{i} gets {gdpo_i}, #{j} {gdpo_j}.",
        "zh": "GRPO 只看总和：#{i} 得到 {grpo_i}，#{j} 得到 {grpo_j}。GDPO 先在组内把每个奖励分别归一化再相加，"
        "所以组里少数回答才拿到的奖励，比多数回答都拿到的奖励分量更重：#{i} 得到 {gdpo_i}，#{j} 得到 {gdpo_j}。",
    },
    "confusions.gdpo.why.second": {
        "en": "GRPO sees only the sums: #{i} gets {grpo_i}, #{j} {grpo_j}. GDPO normalises each reward within the "
        "group before summing, so a reward few responses of the group earn counts for more than one most of "
        "them earn: #{j} gets {gdpo_j}, #{i} {gdpo_i}.",
        "zh": "GRPO 只看总和：#{i} 得到 {grpo_i}，#{j} 得到 {grpo_j}。GDPO 先在组内把每个奖励分别归一化再相加，"
        "所以组里少数回答才拿到的奖励，比多数回答都拿到的奖励分量更重：#{j} 得到 {gdpo_j}，#{i} 得到 {gdpo_i}。",
    },
    "confusions.gdpo.why.same": {
        "en": "Under GDPO both get {gdpo_i} (GRPO: {grpo_i} and {grpo_j}): normalised within the group, their two "
        "rewards add up to the same value. Give one of them a reward fewer responses of the group earn to see "
        "them part.",
        "zh": "在 GDPO 下两者都是 {gdpo_i}（GRPO：{grpo_i} 和 {grpo_j}）：在组内归一化后，它们的两个奖励加起来相同。"
        "让其中一条拿到组里更少回答能拿到的奖励，就能看到两者分开。",
    },
    "confusions.gdpo.grpo": {
        "en": "GRPO: sum, then normalise in the group",
        "zh": "GRPO：先相加，再在组内归一化",
    },
    "confusions.gdpo.gdpo": {
        "en": "GDPO: normalise each reward in the group, sum, whiten over the batch",
        "zh": "GDPO：每个奖励在组内归一化，相加，再在整个 batch 上白化",
    },
    "confusions.gdpo.advantage": {"en": "advantage A", "zh": "优势 A"},
    "confusions.gdpo.tick": {"en": "g{g} #{i} ({a}, {b})", "zh": "组{g} #{i}（{a}, {b}）"},
    "confusions.gdpo.reading": {
        "en": "The std of each group's advantages, GRPO: {grpo_std}; GDPO: {gdpo_std}. GRPO normalises every group "
        "by itself, so every group whose rewards differ gets the same spread. GDPO whitens once over the batch: a "
        "group whose rewards agree keeps larger advantages than one whose rewards pull apart. With one group (the "
        "advantages page) the batch is the group, so this difference cannot show there.",
        "zh": "各组优势的标准差，GRPO：{grpo_std}；GDPO：{gdpo_std}。GRPO 每组各自归一化，所以只要组内奖励不全相同，"
        "每组的离散程度都一样。GDPO 只在整个 batch 上白化一次：奖励彼此一致的组，比奖励互相拉扯的组保留更大的优势。"
        "只有一个组时（优势估计页面），batch 就是这个组，这种差别在那里显示不出来。",
    },
    "confusions.gdpo.sources": {
        "en": "[arXiv 2601.05242](https://arxiv.org/abs/2601.05242) (GDPO) · TRL "
        '`multi_objective_aggregation="normalize_then_sum"` against its default `"sum_then_normalize"` · '
        "verl: GDPO's own fork (NVlabs/GDPO, `adv_estimator=gdpo`)",
        "zh": "[arXiv 2601.05242](https://arxiv.org/abs/2601.05242)（GDPO）· TRL 的 "
        '`multi_objective_aggregation="normalize_then_sum"` 与默认的 `"sum_then_normalize"` · '
        "verl：GDPO 作者的分支（NVlabs/GDPO，`adv_estimator=gdpo`）",
    },
}
