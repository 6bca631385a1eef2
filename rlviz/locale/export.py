"""Strings of the config export (``rlviz.teach.export``, ``app_common.export_config``): the expander,
and the notes on settings every objective shares (an objective's own notes are in its registry entry).
Placeholders are filled from the export's fields (settings, training settings and the quantities it
computes from them, e.g. ``B``)."""

STRINGS = {
    "export.title": {"en": "Export to TRL / verl", "zh": "导出为 TRL / verl 配置"},
    "export.caption": {
        "en": "The same settings as TRL `GRPOConfig` arguments and verl Hydra overrides (names from the algorithm "
        "registry). The copy button is at the top right of each block. Read the notes: where a framework computes "
        "something differently, they say by how much for these settings.",
        "zh": "同一组设置写成 TRL `GRPOConfig` 参数与 verl Hydra 覆盖项（名字取自算法注册表）。每个代码块右上角可复制。"
        "请读下面的说明：框架的算法与这里不同之处，说明按当前设置算出差多少。",
    },
    "export.trl_header": {"en": "TRL (`trl.GRPOConfig` arguments)", "zh": "TRL（`trl.GRPOConfig` 参数）"},
    "export.verl_header": {
        "en": "verl (Hydra overrides for `verl.trainer.main_ppo`)",
        "zh": "verl（`verl.trainer.main_ppo` 的 Hydra 覆盖项）",
    },
    "export.notes_header": {"en": "Differences that apply to these settings", "zh": "与这些设置相关的差异"},
    "export.no_notes": {
        "en": "No documented difference applies to these settings.",
        "zh": "这些设置没有已记录的差异。",
    },
    "export.unmapped": {
        "en": "No equivalent in {framework}: {names}",
        "zh": "{framework} 中没有对应：{names}",
    },
    "export.tabs_label": {"en": "Objective", "zh": "目标函数"},
    # ------------------------------------------------------------------------------ shared notes
    "export.note.agg_norm": {
        "en": "verl's seq-mean-token-sum-norm divides the token sum by actor.loss_scale_factor alone, without the "
        "1/B of TRL's dr_grpo and of rlviz: with B = {B:g} responses per optimizer step ({prompts_per_step} {prompts_per_step:plural:prompt|prompts} "
        "× G = {group_size} ÷ {mini_batches} {mini_batches:plural:mini-batch|mini-batches}) its loss and gradient are {B:g} times larger. For the "
        "same step set actor.loss_scale_factor={verl_scale:g} (B × L_max = {B:g} × {norm_constant}) or divide the "
        "learning rate by {B:g}. Unset, verl divides by each batch's padded width; its legacy FSDP worker does not "
        "apply loss_scale_factor.",
        "zh": "verl 的 seq-mean-token-sum-norm 只把 token 之和除以 actor.loss_scale_factor，没有 TRL dr_grpo 与 rlviz "
        "的 1/B：每个优化步 B = {B:g} 条回答（{prompts_per_step} 个提示词 × G = {group_size} ÷ {mini_batches} 个小批次），"
        "它的损失与梯度是这里的 {B:g} 倍。要得到同样的一步，设 actor.loss_scale_factor={verl_scale:g}"
        "（B × L_max = {B:g} × {norm_constant}），或把学习率除以 {B:g}。不设时 verl 除以每批的填充宽度；"
        "它旧的 FSDP worker 不使用 loss_scale_factor。",
    },
    "export.note.agg_sum": {
        "en": "TRL has no loss_type for seq-mean-token-sum (1/B times each response's token sum).",
        "zh": "TRL 没有对应 seq-mean-token-sum（1/B 乘以每条回答的 token 之和）的 loss_type。",
    },
    "export.note.agg_token_sum": {
        "en": "token-sum: the loss is the batch's token sum, not a mean, so its gradient grows with the number of "
        "tokens (verl 0.9.1 loss_agg_mode=token-sum multiplies each rank's sum by the data-parallel size: the "
        "global sum). TRL has no loss_type for it; a learning rate tuned for a mean is far too large here.",
        "zh": "token-sum：损失是批次中 token 损失之和而非均值，梯度随 token 数增长（verl 0.9.1 的 "
        "loss_agg_mode=token-sum 把每个 rank 的和乘以数据并行数：即全局之和）。TRL 没有对应的 loss_type；"
        "为均值调好的学习率在这里大得多。",
    },
    "export.note.dapo_scope": {
        "en": "TRL's token-mean losses (loss_type dapo, cispo) divide each optimizer step's token sum by the tokens of "
        "the whole generation batch, here {mini_batches} {mini_batches:plural:mini-batch|mini-batches}; rlviz divides by the mini-batch's own tokens. "
        "TRL's step is about 1/{mini_batches} of rlviz's; loss_type=\"bnpo\" normalises per mini-batch as rlviz does.",
        "zh": "TRL 的 token 平均损失（loss_type dapo、cispo）把每个优化步的 token 之和除以整个生成批的 token 数，"
        "这里是 {mini_batches} 个小批次；rlviz 除以该小批次自己的 token 数。TRL 的一步约为 rlviz 的 1/{mini_batches}；"
        'loss_type="bnpo" 按小批次归一化，与 rlviz 相同。',
    },
    "export.note.dual_off": {
        "en": "verl's vanilla loss always applies the dual clip actor.clip_ratio_c (default 3.0, must be > 1): "
        "'off' has no equivalent there, and tokens with A < 0 and r > c get zero gradient. A large clip_ratio_c "
        "comes closest.",
        "zh": "verl 的 vanilla 损失总会施加双重裁剪 actor.clip_ratio_c（默认 3.0，须 > 1）：“关闭”在那里没有对应，"
        "A < 0 且 r > c 的 token 梯度为零。把 clip_ratio_c 设得很大最接近。",
    },
    "export.note.delta_equal": {
        "en": "TRL's delta (INTELLECT-2 two-sided clipping) caps every token's ratio at δ; with c = {dual_clip_c:g} "
        "> 1 + ε_high = {ratio_high:g} that is the dual clip.",
        "zh": "TRL 的 delta（INTELLECT-2 双侧裁剪）把每个 token 的比率截在 δ；c = {dual_clip_c:g} > "
        "1 + ε_high = {ratio_high:g} 时它就是双重裁剪。",
    },
    "export.note.delta_differs": {
        "en": "With c = {dual_clip_c:g} ≤ 1 + ε_high = {ratio_high:g}, TRL's delta would also cap tokens with A > 0: "
        "the dual clip has no TRL equivalent here.",
        "zh": "c = {dual_clip_c:g} ≤ 1 + ε_high = {ratio_high:g} 时，TRL 的 delta 也会截顶 A > 0 的 token："
        "这里的双重裁剪在 TRL 中没有对应。",
    },
    "export.note.kl_k3": {
        "en": "TRL's KL term is always k3; kl_estimator = {kl_estimator} has no equivalent there.",
        "zh": "TRL 的 KL 项总是 k3；kl_estimator = {kl_estimator} 在那里没有对应。",
    },
    "export.note.kl_bc": {
        "en": "kl_estimator = k3_bc is TRL's k3 with use_bias_correction_kl=True (GRPOConfig, DeepSeek-V3.2 "
        "arXiv 2512.02556); verl's kl_loss_type has no importance-weighted estimator.",
        "zh": "kl_estimator = k3_bc 即 TRL 的 k3 加 use_bias_correction_kl=True（GRPOConfig，DeepSeek-V3.2 "
        "arXiv 2512.02556）；verl 的 kl_loss_type 没有乘重要性比率的估计器。",
    },
    "export.note.kl_in_reward": {
        "en": "TRL adds the KL to the loss only: β × KL in the reward (verl algorithm.use_kl_in_reward) has no "
        "equivalent there.",
        "zh": "TRL 只把 KL 加进损失：把 β × KL 放进奖励（verl 的 algorithm.use_kl_in_reward）在那里没有对应。",
    },
    "export.note.scale_batch": {
        "en": "verl's group advantage divides by the group's std or by nothing (algorithm.norm_adv_by_std_in_grpo): "
        "the batch std has no equivalent there.",
        "zh": "verl 的组内优势要么除以组内标准差，要么不除（algorithm.norm_adv_by_std_in_grpo）：按整批标准差缩放在那里没有对应。",
    },
    "export.note.gae": {
        "en": "trl.GRPOTrainer has no value model: GAE advantages need trl.experimental.ppo.PPOTrainer (PPOConfig), "
        "whose arguments differ.",
        "zh": "trl.GRPOTrainer 没有价值网络：GAE 优势需要 trl.experimental.ppo.PPOTrainer（PPOConfig），参数不同。",
    },
    "export.note.overlong_trl": {
        "en": "The soft overlong punishment is a reward function in TRL, not a GRPOConfig argument: add "
        "trl.rewards.get_soft_overlong_punishment(max_completion_len={max_new_tokens}, "
        "soft_punish_cache={overlong_buffer_length}) to reward_funcs. It has no penalty factor: give it the reward "
        "weight {overlong_penalty_factor:g} in reward_weights (1 for the task reward).",
        "zh": "软超长惩罚在 TRL 中是奖励函数，不是 GRPOConfig 参数：把 trl.rewards.get_soft_overlong_punishment("
        "max_completion_len={max_new_tokens}, soft_punish_cache={overlong_buffer_length}) 加进 reward_funcs。"
        "它没有惩罚系数：在 reward_weights 中给它权重 {overlong_penalty_factor:g}（任务奖励为 1）。",
    },
    "export.note.overlong_verl": {
        "en": "The overlong buffer is read by verl-recipe's DAPO reward manager (reward.reward_manager.name=dapo, "
        "python -m recipe.dapo.main_dapo; it needs reward.reward_kwargs.max_resp_len = L_max). Beyond L_max = {max_new_tokens} verl's penalty keeps growing; rlviz and TRL hold it at "
        "−{overlong_penalty_factor:g}.",
        "zh": "超长缓冲区由 verl-recipe 的 DAPO 奖励管理器读取（reward.reward_manager.name=dapo，"
        "python -m recipe.dapo.main_dapo；需设 reward.reward_kwargs.max_resp_len = L_max）。"
        "超过 L_max = {max_new_tokens} 后 verl 的惩罚继续增大；rlviz 与 TRL 保持在 −{overlong_penalty_factor:g}。",
    },
    "export.note.dynamic_trl": {
        "en": "TRL has no dynamic sampling: groups whose rewards are all equal stay in the batch with zero advantage.",
        "zh": "TRL 没有动态采样：奖励全相同的组留在批中，优势为零。",
    },
    "export.note.dynamic_verl": {
        "en": "Dynamic sampling is in verl-recipe's DAPO trainer only (recipe/dapo, python -m recipe.dapo.main_dapo): "
        "algorithm.filter_groups keeps a group whose accuracies differ and generates at most "
        "{max_resample_rounds} {max_resample_rounds:plural:batch|batches} (max_num_gen_batches) per step.",
        "zh": "动态采样只在 verl-recipe 的 DAPO 训练器中（recipe/dapo，python -m recipe.dapo.main_dapo）："
        "algorithm.filter_groups 保留准确率不全相同的组，每步最多生成 {max_resample_rounds} 批（max_num_gen_batches）。",
    },
    "export.note.filtering_verl": {
        "en": "verl has no overlong filtering (DAPO docs FAQ): truncated responses stay in the loss.",
        "zh": "verl 没有超长过滤（DAPO 文档 FAQ）：截断的回答仍在损失中。",
    },
    "export.note.routing_trl": {
        "en": "TRL has no routing replay for mixture-of-experts models.",
        "zh": "TRL 没有针对混合专家模型的路由重放。",
    },
    "export.note.entropy_trl": {
        "en": "TRL's entropy bonus is always the mean per-token entropy; rlviz and verl aggregate it with "
        "loss_agg_mode = {loss_agg_mode}.",
        "zh": "TRL 的熵奖励总是按 token 平均的熵；rlviz 与 verl 用 loss_agg_mode = {loss_agg_mode} 聚合。",
    },
    "export.note.adaptive_entropy_trl": {
        "en": "TRL's adaptive entropy control (use_adaptive_entropy, after Skywork-OR1) differs from the authors' "
        "code that rlviz follows in three ways: it raises the coefficient when the entropy is at or below the "
        "target (the authors: strictly below), keeps the bonus off until it has measured a first entropy (the "
        "authors start with it on), and measures the exact entropy of the tokens it trains on, where the authors "
        "and rlviz take −mean log π_old over the batch's response tokens.",
        "zh": "TRL 的自适应熵控制（use_adaptive_entropy，源自 Skywork-OR1）与 rlviz 所依照的作者代码有三处不同："
        "熵小于或等于目标时它就调高系数（作者代码要求严格小于）；在测到第一个熵值之前它不加熵奖励（作者代码一开始就加）；"
        "它量的是参与训练的 token 的精确熵，而作者代码和 rlviz 取整批回答 token 上 −log π_old 的平均。",
    },
    "export.note.adaptive_entropy_verl": {
        "en": "verl has no adaptive entropy coefficient: entropy_target {entropy_target} and its step, bounds "
        "have no verl key. The Skywork-OR1 authors' fork of verl names them actor.adaptive_entropy.enabled, "
        "target_entropy, delta_ent_coef, min_ent_coef and max_ent_coef.",
        "zh": "verl 没有自适应熵系数：entropy_target {entropy_target} 及其步长、上下界在 verl 里没有对应的键。"
        "Skywork-OR1 作者的 verl 分支把它们叫作 actor.adaptive_entropy.enabled、target_entropy、"
        "delta_ent_coef、min_ent_coef 和 max_ent_coef。",
    },
    "export.note.batch_trl": {
        "en": "TRL splits a generation batch into equal steps: {responses_per_step} {responses_per_step:plural:response|responses} {responses_per_step:plural:does|do} not divide into "
        "{mini_batches} {mini_batches:plural:mini-batch|mini-batches}.",
        "zh": "TRL 把一个生成批分成相等的几步：{responses_per_step} 条回答不能均分成 {mini_batches} 个小批次。",
    },
    "export.note.batch_verl": {
        "en": "verl's ppo_mini_batch_size counts prompts: {prompts_per_step} {prompts_per_step:plural:prompt|prompts} {prompts_per_step:plural:does|do} not divide into "
        "{mini_batches} {mini_batches:plural:mini-batch|mini-batches}.",
        "zh": "verl 的 ppo_mini_batch_size 按提示词计数：{prompts_per_step} 个提示词不能均分成 {mini_batches} 个小批次。",
    },
    "export.note.processes_trl": {
        "en": "per_device_train_batch_size is for one process: with N processes divide it by N.",
        "zh": "per_device_train_batch_size 按单进程给出：N 个进程时除以 N。",
    },
    "export.note.correction_no_lower_verl": {
        "en": "verl's mask band (rollout_is_threshold 'lower_upper') needs a lower bound above 0; this run has none, "
        "so the export writes 1e-9, which never binds: verl clamps log-ratios to ±20, so no ratio is below exp(−20) ≈ 2.1e-9.",
        "zh": "verl 的掩码区间（rollout_is_threshold 写成 'lower_upper'）需要一个大于 0 的下界；这次运行没有下界，所以导出写成 1e-9，"
        "它永远不会起作用：verl 把对数比率截在 ±20，所以没有比率会小于 exp(−20) ≈ 2.1e-9。",
    },
    "export.note.correction_trl": {
        "en": "TRL applies vllm_importance_sampling_correction only when it samples with vLLM (use_vllm=True); "
        "without vLLM the sampler is the trainer and there is nothing to correct.",
        "zh": "TRL 只在用 vLLM 采样时（use_vllm=True）才应用 vllm_importance_sampling_correction；不用 vLLM 时采样端就是训练端，"
        "没有什么需要修正。",
    },
    "export.note.rollout_dtype_trl": {
        "en": "TRL samples with the trained weights (or with vLLM): a {rollout_dtype} sampler copy has no GRPOConfig "
        "argument.",
        "zh": "TRL 用训练中的权重采样（或用 vLLM）：{rollout_dtype} 精度的采样副本没有对应的 GRPOConfig 参数。",
    },
    "export.note.no_selector": {
        "en": "The registry names no {framework} implementation of {title}: these settings alone select "
        "{framework}'s default loss, not {title}.",
        "zh": "注册表没有给出 {title} 在 {framework} 中的实现：仅凭这些设置选中的是 {framework} 的默认损失，而不是 {title}。",
    },
    "export.note.collision": {
        "en": "{setting} = {value}: {framework} reads {key} for it, which {other} already sets to {other_value}.",
        "zh": "{setting} = {value}：{framework} 用 {key} 表示它，而 {other} 已把它设为 {other_value}。",
    },
}
