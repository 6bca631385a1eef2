"""Strings of the "gradient scale and the learning rate" page (``pages/gradscale.py``, issue 41; keys
``gradscale.*``, ``nav.gradscale``, ``home.gradscale_claims``), English and 简体中文.

Numbers are never typed here: every ``{field}`` is formatted in from ``rlviz.experiments.gradscale``.
"""

STRINGS = {
    "nav.gradscale": {"en": "Gradient scale & LR", "zh": "梯度尺度与学习率"},
    "home.gradscale_claims": {
        "en": "- The gradient norm of one real batch under every objective, with each its own loss aggregation or "
        "all on one, read from the trainer at its first (on-policy) update and at the second, where the trust "
        "regions act.\n"
        "- What a constant factor c on the loss does to the first update, measured: under AdamW almost nothing, "
        "under SGD a c-times larger step until gradient clipping caps it.",
        "zh": "- 同一批真实数据在每个目标函数下的梯度范数：各用自己的损失聚合方式，或全部换成同一种；"
        "数值取自训练器的第一次（同策略）更新，以及信任域开始起作用的第二次更新。\n"
        "- 给损失乘上常数 c 对第一次更新有什么影响（实测）：AdamW 下几乎没有影响；SGD 下步长变为 c 倍，"
        "直到被梯度裁剪封顶。",
    },
    "gradscale.title": {"en": "Gradient scale and the learning rate", "zh": "梯度尺度与学习率"},
    "gradscale.lede": {
        "en": "Do sequence-level objectives and per-sequence averages shrink the gradient, so that the learning "
        "rate must change? The figure: one real batch's gradient norm under every objective, read from the trainer.",
        "zh": "序列级目标与按序列平均会让梯度变小、要改学习率吗？下图：同一批数据在各目标下的梯度范数（取自训练器）。",
    },
    # ---------------------------------------------------------------------------------- controls
    "gradscale.aggregation": {"en": "Loss aggregation", "zh": "损失聚合"},
    "gradscale.aggregation_help": {
        "en": "Each objective with its own loss_agg_mode (its registry default), or every objective on the same "
        "one (verl actor.loss_agg_mode, TRL loss_type).",
        "zh": "每个目标函数用自己的 loss_agg_mode（注册表中的默认值），或全部换成同一种（verl 的 "
        "actor.loss_agg_mode，TRL 的 loss_type）。",
    },
    "gradscale.agg.own": {"en": "each its own", "zh": "各用自己的"},
    "gradscale.step": {"en": "Update", "zh": "更新"},
    "gradscale.step_help": {
        "en": "The first update is on-policy: every ratio is 1. The second (μ = 2) sees the ratios the first "
        "made, so the clip and the gates act: the live page's grad_norm averages such updates.",
        "zh": "第一次更新是同策略的：每个比率都是 1。第二次（μ = 2）看到的是第一次更新造成的比率，裁剪和门控开始起作用；"
        "实时训练页上的 grad_norm 就是这类更新的平均。",
    },
    "gradscale.step.first": {"en": "1st (ratio 1)", "zh": "第 1 次（比率 1）"},
    "gradscale.step.second": {"en": "2nd (ratio ≠ 1)", "zh": "第 2 次（比率 ≠ 1）"},
    "gradscale.group_size": {"en": "Group size G", "zh": "组大小 G"},
    "gradscale.group_size_help": {
        "en": "How many responses the model samples for the prompt (a new batch is sampled).",
        "zh": "模型对这个提示词采样多少个回答（会重新采样一批）。",
    },
    "gradscale.prompt": {"en": "Prompt (a+b=)", "zh": "提示词（a+b=）"},
    "gradscale.prompt_help": {
        "en": "The prompt in use: an addition such as 37+5= (numbers of up to 3 digits). At first, the first of {n} "
        "drawn prompts whose answers are not all alike (the step page's batch); type another to use it, or empty "
        "the box to draw again.",
        "zh": "正在使用的提示词：形如 37+5= 的加法（每个数最多 3 位）。一开始是抽到的 {n} 个提示词中第一个回答有对有错的"
        "（与“慢放一次更新”页同一批数据）；输入别的即改用它，清空则重新抽取。",
    },
    "gradscale.computing": {
        "en": "Running every objective's update on the same group…",
        "zh": "正在让每个目标函数在同一组数据上做一次更新……",
    },
    # ------------------------------------------------------------------------------ the norms figure
    "gradscale.fig.norms": {
        "en": "Gradient norm before clipping, update {k} on one group of G = {G} ({prompt})",
        "zh": "裁剪前的梯度范数：同一组 G = {G} 个回答（{prompt}）上的第 {k} 次更新",
    },
    "gradscale.axis.norm": {"en": "‖∇θ loss‖ (log scale)", "zh": "‖∇θ loss‖（对数坐标）"},
    "gradscale.clip_line": {"en": "max_grad_norm = {clip}", "zh": "max_grad_norm = {clip}"},
    "gradscale.first_marker": {"en": "1st update", "zh": "第 1 次更新"},
    "gradscale.h.agg": {"en": "aggregation", "zh": "聚合方式"},
    "gradscale.h.adv": {"en": "advantages", "zh": "优势"},
    "gradscale.h.norm": {"en": "norm", "zh": "范数"},
    "gradscale.h.clip": {"en": "clipped at the 2nd update", "zh": "第 2 次更新时被裁剪"},
    "gradscale.adv.group": {"en": "(R − mean) / std", "zh": "（R − 均值）/ 标准差"},
    "gradscale.adv.batch": {"en": "(R − group mean) / batch std", "zh": "（R − 组均值）/ 整批标准差"},
    "gradscale.adv.none": {"en": "R − mean (no std)", "zh": "R − 均值（不除标准差）"},
    "gradscale.adv.gae": {"en": "GAE with a critic", "zh": "带价值模型的 GAE"},
    "gradscale.adv.estimator": {"en": "its own estimator", "zh": "它自己的估计器"},
    # ------------------------------------------------------------------------------ the card's reading
    "gradscale.read.range": {
        "en": "From **{low_norm}** ({low}) to **{high_norm}** ({high}): {ratio}× apart on the same batch.",
        "zh": "从 **{low_norm}**（{low}）到 **{high_norm}**（{high}）：同一批数据，相差 {ratio} 倍。",
    },
    "gradscale.read.zero": {
        "en": "No gradient at all on this group ({k} {k:plural:objective|objectives}, no bar on the log axis): {titles}.",
        "zh": "在这组数据上完全没有梯度（{k} 个目标函数，对数坐标上没有柱子）：{titles}。",
    },
    "gradscale.read.zero_alike": {
        "en": "Every response of this group got the same reward, so every group-relative advantage is 0: no "
        "gradient at all for {titles} ({k} {k:plural:objective|objectives}, no bar on the log axis).",
        "zh": "这组回答的奖励全都相同，所以每个组内相对优势都是 0：{titles} 完全没有梯度（{k} 个目标函数，对数坐标上"
        "没有柱子）。",
    },
    "gradscale.read.equal": {"en": "Exactly the same norm: {groups}", "zh": "范数完全相同：{groups}"},
    "gradscale.read.group": {"en": "{titles}: {norm}.", "zh": "{titles}：范数 {norm}。"},
    "gradscale.read.sequence": {
        "en": "Sequence-level {seq} equal token-level {tok} ({norm}): at the first update every ratio is 1, and a "
        "sequence ratio spreads its gradient evenly over its tokens (∂s/∂log π = s/|y|), which is what each "
        "token gets from token ratios under any of these aggregations (all tokens of a response weigh the same).",
        "zh": "序列级的 {seq} 与 token 级的 {tok} 范数相同（{norm}）：第一次更新时每个比率都是 1，序列比率把梯度平均分给"
        "自己的 token（∂s/∂log π = s/|y|），这正是 token 级比率在这些聚合方式下给每个 token 的梯度"
        "（同一回答内所有 token 权重相同）。",
    },
    "gradscale.read.weight": {
        "en": "One token's weight in this group (G = {G}, N = {N} loss tokens): {parts}.",
        "zh": "这组数据（G = {G}，共 N = {N} 个损失 token）中每个 token 的权重：{parts}。",
    },
    "gradscale.read.weight_part": {"en": "`{mode}` {weight}", "zh": "`{mode}` 为 {weight}"},
    "gradscale.read.more": {"en": "{titles} and {k} more", "zh": "{titles} 等另外 {k} 个"},
    "gradscale.read.clipped": {
        "en": "At the 2nd update the trust regions act: {parts}.",
        "zh": "第 2 次更新时信任域开始起作用：{parts}。",
    },
    "gradscale.read.clip_part": {
        "en": "{title} clips {clip} of its tokens, norm {first} → {second}",
        "zh": "{title} 裁剪了 {clip} 的 token，范数 {first} → {second}",
    },
    # ------------------------------------------------------------------------------ 2. the scale c
    "gradscale.scale_header": {
        "en": "A constant factor c on the loss: AdamW against SGD",
        "zh": "给损失乘常数 c：AdamW 与 SGD 对比",
    },
    "gradscale.scale_intro": {
        "en": "The first update of {title} on the same group, with the loss multiplied by c, under the trainer's "
        "AdamW and under SGD at the same learning rate, with gradient clipping at {clip} on and off.",
        "zh": "{title} 在同一组数据上的第一次更新：损失乘以 c，分别用训练器的 AdamW 和同样学习率的 SGD，"
        "梯度裁剪（阈值 {clip}）打开与关闭各一次。",
    },
    "gradscale.objective": {"en": "Objective", "zh": "目标函数"},
    "gradscale.objective_help": {
        "en": "The registry entry whose loss is scaled (its defaults).",
        "zh": "被缩放损失的注册表条目（默认设置）。",
    },
    "gradscale.lr": {"en": "Learning rate", "zh": "学习率"},
    "gradscale.lr_help": {
        "en": "The same for AdamW and SGD (the trainer's default: {default}).",
        "zh": "AdamW 与 SGD 用同一个值（训练器默认 {default}）。",
    },
    "gradscale.scale": {"en": "Loss scale c", "zh": "损失缩放系数 c"},
    "gradscale.scale_help": {
        "en": "The loss is multiplied by c (so is its gradient, before clipping). Marks c on the figure.",
        "zh": "损失乘以 c（它的梯度在裁剪前也乘以 c）。在图中标出 c 的位置。",
    },
    "gradscale.sweeping": {
        "en": "Running the update for every c, both optimizers, clipping on and off…",
        "zh": "正在对每个 c、两种优化器、裁剪开与关分别运行更新……",
    },
    "gradscale.fig.scale": {
        "en": "Size of the first update against c ({title}, lr = {lr})",
        "zh": "第一次更新的大小随 c 的变化（{title}，lr = {lr}）",
    },
    "gradscale.panel.theta": {"en": "‖Δθ‖ over all parameters", "zh": "全部参数的 ‖Δθ‖"},
    "gradscale.panel.logp": {"en": "mean |Δ log π| on the batch", "zh": "这批数据上的平均 |Δ log π|"},
    "gradscale.axis.c": {"en": "c (log scale)", "zh": "c（对数坐标）"},
    "gradscale.axis.theta": {"en": "‖Δθ‖", "zh": "‖Δθ‖"},
    "gradscale.axis.logp": {"en": "nats", "zh": "nats"},
    "gradscale.series.adamw.on": {"en": "AdamW, clip on", "zh": "AdamW，裁剪开"},
    "gradscale.series.adamw.off": {"en": "AdamW, clip off", "zh": "AdamW，裁剪关"},
    "gradscale.series.sgd.on": {"en": "SGD, clip on", "zh": "SGD，裁剪开"},
    "gradscale.series.sgd.off": {"en": "SGD, clip off", "zh": "SGD，裁剪关"},
    "gradscale.reference": {"en": "lr·√n", "zh": "lr·√n"},
    "gradscale.marker": {"en": "c = {c}", "zh": "c = {c}"},
    "gradscale.read.scale": {
        "en": "At c = {c} the update is ×{adam_on} (AdamW, clip on), ×{adam_off} (AdamW, clip off), ×{sgd_on} "
        "(SGD, clip on) and ×{sgd_off} (SGD, clip off) its size at c = 1. ‖g‖ is {g} at c = 1 and {cg} at "
        "c = {c}; clipping cuts any norm above {clip} down to {clip}.",
        "zh": "c = {c} 时，更新大小是 c = 1 时的 ×{adam_on}（AdamW，裁剪开）、×{adam_off}（AdamW，裁剪关）、"
        "×{sgd_on}（SGD，裁剪开）和 ×{sgd_off}（SGD，裁剪关）。c = 1 时 ‖g‖ 为 {g}，c = {c} 时为 {cg}；"
        "裁剪把任何超过 {clip} 的范数压到 {clip}。",
    },
    "gradscale.read.no_update": {
        "en": "This group gives {title} no gradient at any c (every advantage is 0): nothing moves. Type another "
        "prompt, or change the seed.",
        "zh": "这组数据在任何 c 下都不给 {title} 梯度（每个优势都是 0）：什么都不会动。换一个提示词，或换一个随机种子。",
    },
    "gradscale.read.adam": {
        "en": "AdamW's step without clipping: {step}, against lr·√n = {reference} (n = {n} parameters with a "
        "gradient, lr = {lr}): each parameter moves by about lr, whatever c.",
        "zh": "不裁剪时 AdamW 的步长为 {step}，对照 lr·√n = {reference}（n = {n} 个有梯度的参数，lr = {lr}）："
        "不论 c 多大，每个参数都移动约 lr。",
    },
    # ------------------------------------------------------------------------------------ predictions
    "gradscale.q_adam.q": {
        "en": "{title}, AdamW at lr {lr}, **gradient clipping off**. Multiply the loss by {c}: the first update's "
        "size ‖Δθ‖ becomes how many times its size at c = 1?",
        "zh": "{title}，AdamW，lr {lr}，**不做梯度裁剪**。把损失乘以 {c}：第一次更新的大小 ‖Δθ‖ 变为 c = 1 时的多少倍？",
    },
    "gradscale.q_adam.why": {
        "en": "×{answer}: ‖Δθ‖ is {one} at c = 1 and {big} at c = {c}. Adam's first step is m/(√v + eps) with m = g "
        "and v = g² after bias correction, so every parameter moves lr·g/(|g| + eps), about lr whatever the "
        "gradient's size: both are near lr·√n = {reference} (n = {n}). A constant factor cancels.",
        "zh": "×{answer}：c = 1 时 ‖Δθ‖ 为 {one}，c = {c} 时为 {big}。Adam 的第一步是 m/(√v + eps)，偏差修正后 m = g、"
        "v = g²，所以每个参数移动 lr·g/(|g| + eps)，不论梯度多大都约为 lr：两者都接近 lr·√n = {reference}"
        "（n = {n}）。常数因子被消掉了。",
    },
    "gradscale.q_adam.where": {
        "en": "The figure below: the AdamW line without clipping stays flat across c.",
        "zh": "见下图：不裁剪的 AdamW 曲线在各个 c 上都是平的。",
    },
    "gradscale.q_sgd.q": {
        "en": "{title}, plain SGD at lr {lr}, gradient clipping at max norm {clip} **on**. Multiply the loss by {c}: "
        "the first update's size ‖Δθ‖ becomes how many times its size at c = 1?",
        "zh": "{title}，普通 SGD，lr {lr}，**打开**梯度裁剪（最大范数 {clip}）。把损失乘以 {c}：第一次更新的大小 ‖Δθ‖ "
        "变为 c = 1 时的多少倍？",
    },
    "gradscale.q_sgd.why": {
        "en": "×{answer}: SGD moves θ by lr·g after clipping. At c = 1 ‖g‖ = {g}, cut to {clip} if above it; at "
        "c = {c} ‖g‖ = {cg}. The steps: {one} at c = 1, {small} at c = {c}. Clipping makes SGD scale-free only "
        "above the threshold; below it the step follows c.",
        "zh": "×{answer}：SGD 把 θ 移动裁剪后的 lr·g。c = 1 时 ‖g‖ = {g}，超过 {clip} 就被压到 {clip}；c = {c} 时 "
        "‖g‖ = {cg}。步长：c = 1 时 {one}，c = {c} 时 {small}。裁剪只在阈值之上让 SGD 与尺度无关；阈值之下步长随 c 变化。",
    },
    "gradscale.q_sgd.where": {
        "en": "The figure below: the SGD line with clipping on, between c = {c} and c = 1.",
        "zh": "见下图：打开裁剪的 SGD 曲线在 c = {c} 与 c = 1 之间的一段。",
    },
    # ----------------------------------------------------------------------------------------- notes
    "gradscale.notes.norms": {
        "en": "**What the first figure measures.** Every registry objective makes the first optimizer step of a "
        "fresh trainer (`Trainer.update`, μ = 1, one mini-batch) from the same starting weights on the same "
        "sampled group; the bar is the trainer's `grad_norm`, the norm `clip_grad_norm_` returns before it "
        "clips. At that step π_old is the policy itself, so every ratio is 1 and a clip, a cap or a gate has "
        "nothing to act on: the surrogate's gradient is −A·∇log π for every objective, times the weight its "
        "aggregation gives the token. What sets the norm is therefore (1) the aggregation's weight per "
        "token: 1/N under token-mean, 1/(G·|y_i|) under seq-mean-token-mean, 1/G under seq-mean-token-sum, "
        "1/(G·L) under seq-mean-token-sum-norm, 1 under token-sum; and (2) the advantages' scale: divided by "
        "the group's std or only centred (Dr.GRPO's R − mean is std times smaller here), or a critic's GAE. "
        "A sequence-level ratio does not shrink the gradient at this step.\n\n"
        "**The second update** (μ = 2) sees the ratios the first step made: the trust regions act, and a "
        "clipped token gives no gradient. GSPO's band is so narrow (the curves page draws it) that whole "
        "responses leave it after one step. The policy's probabilities also moved, so every objective's "
        "norm changes. The live page's `grad_norm` is the mean over its μ × mini-batch updates per step: all "
        "but the first are of this second kind, which is why GSPO can read below GRPO there.",
        "zh": "**第一张图测的是什么。** 每个注册表目标函数都从同样的初始权重、在同一组采样上，让一个新训练器做第一次优化器"
        "更新（`Trainer.update`，μ = 1，一个小批次）；柱子是训练器报告的 `grad_norm`，即 `clip_grad_norm_` 在裁剪之前"
        "返回的范数。这一步 π_old 就是策略本身，所以每个比率都是 1，裁剪、封顶或门控都无从起作用：每个目标函数的代理"
        "梯度都是 −A·∇log π，再乘以聚合方式给这个 token 的权重。因此决定范数的是：(1) 聚合方式给每个 token 的权重："
        "token-mean 为 1/N，seq-mean-token-mean 为 1/(G·|y_i|)，seq-mean-token-sum 为 1/G，seq-mean-token-sum-norm "
        "为 1/(G·L)，token-sum 为 1；(2) 优势的尺度：除以组内标准差还是只中心化（Dr.GRPO 的 R − 均值在这里小了一个标准差"
        "的倍数），或价值模型的 GAE。序列级比率在这一步并不会让梯度变小。\n\n"
        "**第二次更新**（μ = 2）看到的是第一步造成的比率：信任域开始起作用，被裁剪的 token 不再给出梯度。GSPO 的区间"
        "窄到一步之后整条回答就会出界（曲线页画出了它）。策略的概率也变了，所以每个目标函数的范数都会变化。"
        "实时训练页上的 `grad_norm` 是每步 μ × 小批次次更新的平均：除了第一次，其余都属于这第二种，所以那里 GSPO 可能"
        "比 GRPO 低。",
    },
    "gradscale.notes.scale": {
        "en": "**Adam and a constant factor.** Adam (Kingma & Ba, arXiv 1412.6980, Algorithm 1) keeps running "
        "averages m of g and v of g²; after bias correction its first step is m̂ = g, v̂ = g², so each "
        "parameter moves lr·g/(|g| + eps): about ±lr whatever g's size, and ‖Δθ‖ ≈ lr·√n for n parameters "
        "with a gradient. Multiplying the loss by c multiplies g by c and leaves that step alone until |c·g| "
        "nears eps = {eps} (then the step shrinks: the left end of the AdamW lines). Clipping multiplies g by "
        "a constant too, so it barely moves Adam's step either. **SGD** moves lr·g: c times more for c × "
        "loss, until clipping caps ‖g‖ at max_grad_norm, after which the step is lr·max_grad_norm whatever c. "
        "So with Adam a constant change of the loss's scale (token-sum against token-mean at a fixed N, a "
        "factor on the advantages) needs no change of the learning rate; with SGD it does, one for one.",
        "zh": "**Adam 与常数因子。** Adam（Kingma & Ba，arXiv 1412.6980，算法 1）维护 g 的滑动平均 m 和 g² 的滑动平均 v；"
        "偏差修正后第一步 m̂ = g、v̂ = g²，所以每个参数移动 lr·g/(|g| + eps)：不论 g 多大都约为 ±lr，n 个有梯度的参数"
        "合起来 ‖Δθ‖ ≈ lr·√n。损失乘以 c 就是 g 乘以 c，这一步不变，直到 |c·g| 接近 eps = {eps}（此时步长变小：AdamW "
        "曲线的左端）。裁剪也只是把 g 乘一个常数，所以同样几乎不改变 Adam 的步长。**SGD** 移动 lr·g：损失乘 c，步长就"
        "乘 c，直到裁剪把 ‖g‖ 限制在 max_grad_norm，此后步长恒为 lr·max_grad_norm，与 c 无关。所以用 Adam 时，损失尺度的"
        "常数变化（N 固定时 token-sum 相对 token-mean、给优势乘一个系数）不需要改学习率；用 SGD 则要按比例改。",
    },
    "gradscale.notes.limits": {
        "en": "**Limits.** One group, one step, a tiny model (the numbers above are this batch's, not a law). The "
        "invariance is of Adam's *first* step to a *constant* factor: a factor that changes from step to step "
        "(token-sum's N, the share of groups with signal) changes the ratio of new gradients to the running "
        "averages, so it does change later steps. The aggregation also changes the gradient's direction "
        "(which tokens weigh most), which no learning rate undoes. Weight decay (AdamW's λ: {wd} in this "
        "trainer; verl's default is in the practitioners' block) adds lr·λ·θ, independent of c. Gradients near eps (tiny c, or parameters "
        "that barely matter) move less than lr.",
        "zh": "**局限。** 只有一组数据、一步更新、一个很小的模型（上面的数值属于这批数据，不是定律）。不变的是 Adam 的"
        "*第一*步对*常数*因子：逐步变化的因子（token-sum 的 N、有信号的组所占比例）会改变新梯度与滑动平均之比，"
        "因而会改变之后的步长。聚合方式还会改变梯度的方向（哪些 token 分量更重），这是任何学习率都改不回来的。权重衰减"
        "（AdamW 的 λ：本训练器为 {wd}；verl 的默认值见“给实践者”一栏）会加上 lr·λ·θ，与 c 无关。接近 eps 的梯度（c 很小，或几乎无关紧要的"
        "参数）移动不到 lr。",
    },
    "gradscale.practitioners": {
        "en": "Gradient clipping: TRL `max_grad_norm` (1.0), verl `actor_rollout_ref.actor.grad_clip` (1.0). "
        "Aggregation: TRL `loss_type`, verl `actor.loss_agg_mode`. Optimizer: TRL `learning_rate` (GRPOConfig "
        "1e-6), `adam_epsilon` (1e-8), `weight_decay` (0.0); verl `actor.optim.lr` (1e-6), "
        "`actor.optim.weight_decay` (0.01). Both log the norm before clipping (TRL `grad_norm`, verl "
        "`actor/grad_norm`): a norm far above max_grad_norm means every step is clipped, which Adam ignores "
        "and SGD does not.",
        "zh": "梯度裁剪：TRL 的 `max_grad_norm`（1.0），verl 的 `actor_rollout_ref.actor.grad_clip`（1.0）。聚合方式："
        "TRL 的 `loss_type`，verl 的 `actor.loss_agg_mode`。优化器：TRL 的 `learning_rate`（GRPOConfig 默认 1e-6）、"
        "`adam_epsilon`（1e-8）、`weight_decay`（0.0）；verl 的 `actor.optim.lr`（1e-6）、`actor.optim.weight_decay`"
        "（0.01）。两者记录的都是裁剪前的范数（TRL 的 `grad_norm`，verl 的 `actor/grad_norm`）：范数远大于 "
        "max_grad_norm 意味着每一步都被裁剪，Adam 对此无感，SGD 则不然。",
    },
    "gradscale.csv_norms": {"en": "Download the norms (CSV)", "zh": "下载范数（CSV）"},
    "gradscale.csv_scale": {"en": "Download the updates over c (CSV)", "zh": "下载各个 c 的更新（CSV）"},
}
