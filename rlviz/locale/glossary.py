"""The glossary: the field's terms as the pages use them, in English and 简体中文.

Each term has ``glossary.<term>.names`` (the ways a page writes it, ``|``-separated, the first one the
headword) and ``glossary.<term>.def`` (one or two sentences). ``app_common.template.glossed`` turns the
first use of a term in a lede or a note into hover help; the sidebar lists them all. :data:`TERMS` is the
order of that list.
"""

TERMS = (
    "policy",
    "rollout",
    "reward",
    "group_size",
    "advantage",
    "importance_ratio",
    "old_policy",
    "clip",
    "clip_fraction",
    "gradient_weight",
    "aggregation",
    "token_mean",
    "seq_mean_token_mean",
    "reference_policy",
    "kl",
    "entropy",
    "pass_at_k",
    "zero_advantage",
    "overlong",
    "on_policy",
    "mismatch",
    "critic",
    "moe_routing",
)

STRINGS = {
    "glossary.header": {"en": "Glossary", "zh": "术语表"},
    "glossary.help": {
        "en": "The field's terms as this app uses them. Underlined words in the pages show these on hover.",
        "zh": "本应用中使用的术语。页面上带下划线的词，鼠标悬停即可看到解释。",
    },
    "glossary.policy.names": {"en": "policy|π_θ", "zh": "策略|π_θ"},
    "glossary.policy.def": {
        "en": "The language model being trained: for each prefix it gives a probability to every next token.",
        "zh": "正在训练的语言模型：对每个前缀，它给下一个 token 的每种取值一个概率。",
    },
    "glossary.rollout.names": {"en": "rollout|rollouts|response|responses", "zh": "rollout|回答|采样回答"},
    "glossary.rollout.def": {
        "en": "A response sampled from the policy for a prompt; RL scores it and learns from it.",
        "zh": "策略对一个提示词采样出的回答；强化学习给它打分并从中学习。",
    },
    "glossary.reward.names": {"en": "reward|rewards", "zh": "奖励"},
    "glossary.reward.def": {
        "en": "The score of a response; here a verifier gives 1 for a right answer and 0 otherwise.",
        "zh": "一个回答的得分；这里由验证器给出：答对得 1，否则得 0。",
    },
    "glossary.group_size.names": {"en": "group size G|group size|group", "zh": "组大小 G|组大小"},
    "glossary.group_size.def": {
        "en": "G responses sampled for the same prompt; group methods (GRPO and its kin) compare them with each other.",
        "zh": "同一个提示词采样的 G 个回答；组方法（GRPO 及其变体）在组内相互比较。",
    },
    "glossary.advantage.names": {"en": "advantage|advantages", "zh": "优势"},
    "glossary.advantage.def": {
        "en": "How much better a response did than expected, e.g. its reward minus the group's mean (GRPO also "
        "divides by the group's std). Positive: make it likelier; negative: less likely.",
        "zh": "一个回答比预期好多少，例如它的奖励减去组均值（GRPO 还除以组标准差）。为正则提高其概率，为负则降低。",
    },
    "glossary.importance_ratio.names": {
        "en": "importance ratio|ratio|ratios",
        "zh": "重要性比率|比率",
    },
    "glossary.importance_ratio.def": {
        "en": "r = π_θ(token) / π_old(token): how much the policy has changed a token's probability since the "
        "response was sampled. 1 means unchanged.",
        "zh": "r = π_θ(token) / π_old(token)：自采样以来策略把某个 token 的概率改变了多少。1 表示没变。",
    },
    "glossary.old_policy.names": {"en": "old policy|π_old|rollout log-prob", "zh": "旧策略|π_old"},
    "glossary.old_policy.def": {
        "en": "The policy as it was when the responses were sampled; several updates on the same responses move "
        "π_θ away from it.",
        "zh": "采样这些回答时的策略；在同一批回答上做多次更新，π_θ 就会离开它。",
    },
    "glossary.clip.names": {"en": "clip|clipping|trust region|ε", "zh": "裁剪|信任域|ε"},
    "glossary.clip.def": {
        "en": "PPO's rule: once a token's ratio leaves [1−ε_low, 1+ε_high] in the direction its advantage "
        "pushes, its gradient is set to zero, so one update cannot move the policy far.",
        "zh": "PPO 的规则：一旦 token 的比率沿优势推动的方向离开 [1−ε_low, 1+ε_high]，其梯度置零，使一次更新不会让策略走太远。",
    },
    "glossary.clip_fraction.names": {"en": "clip fraction", "zh": "裁剪比例"},
    "glossary.clip_fraction.def": {
        "en": "The share of response tokens whose gradient the clip (or gate) removed in an update.",
        "zh": "一次更新中被裁剪（或门控）去掉梯度的回答 token 所占的比例。",
    },
    "glossary.gradient_weight.names": {"en": "gradient weight|push", "zh": "梯度权重|推力"},
    "glossary.gradient_weight.def": {
        "en": "How hard the loss pushes one token's log-probability: −∂loss/∂log π, computed by autograd.",
        "zh": "损失对某个 token 对数概率的推动有多大：−∂loss/∂log π，由自动求导算出。",
    },
    "glossary.aggregation.names": {"en": "aggregation|loss_agg_mode", "zh": "聚合|loss_agg_mode"},
    "glossary.aggregation.def": {
        "en": "How per-token losses become one number: averaged over all tokens, per response then over "
        "responses, or summed and divided by a constant.",
        "zh": "逐 token 的损失如何汇成一个数：对全部 token 求平均，先在回答内再在回答间平均，或求和后除以常数。",
    },
    "glossary.token_mean.names": {"en": "token-mean", "zh": "token-mean"},
    "glossary.token_mean.def": {
        "en": "Aggregation by the mean over every response token of the batch: each token weighs the same, so a "
        'long response weighs more in total (DAPO; TRL\'s loss_type="dapo").',
        "zh": '对批次中所有回答 token 取平均：每个 token 权重相同，所以长回答的总权重更大（DAPO；TRL 的 loss_type="dapo"）。',
    },
    "glossary.seq_mean_token_mean.names": {"en": "seq-mean-token-mean", "zh": "seq-mean-token-mean"},
    "glossary.seq_mean_token_mean.def": {
        "en": "Aggregation by the mean within each response, then over responses: each response weighs the "
        "same, so a token of a long response weighs less (GRPO's paper).",
        "zh": "先在每个回答内取平均，再在回答之间平均：每个回答权重相同，所以长回答中的单个 token 权重更小（GRPO 论文）。",
    },
    "glossary.reference_policy.names": {"en": "reference policy|π_ref", "zh": "参考策略|π_ref"},
    "glossary.reference_policy.def": {
        "en": "A frozen copy of the starting model; a KL penalty keeps the policy close to it.",
        "zh": "起始模型的冻结副本；KL 惩罚让策略不要离它太远。",
    },
    "glossary.kl.names": {"en": "KL|KL penalty|k1|k3", "zh": "KL|KL 惩罚"},
    "glossary.kl.def": {
        "en": "The KL divergence from the policy to the reference policy, estimated per token (k1, k2, k3) and "
        "added to the loss or the reward with weight β.",
        "zh": "策略到参考策略的 KL 散度，逐 token 估计（k1、k2、k3），以权重 β 加到损失或奖励中。",
    },
    "glossary.entropy.names": {"en": "entropy|entropy collapse", "zh": "熵|熵坍缩"},
    "glossary.entropy.def": {
        "en": "How spread out the policy's next-token distribution is; when it collapses the model stops "
        "exploring and samples nearly the same answer every time.",
        "zh": "策略下一个 token 分布的分散程度；熵坍缩时模型不再探索，几乎每次都采样出同一个答案。",
    },
    "glossary.pass_at_k.names": {"en": "pass@1|pass@k", "zh": "pass@1|pass@k"},
    "glossary.pass_at_k.def": {
        "en": "pass@1: the chance one sampled answer is right; pass@k: the chance at least one of k is right.",
        "zh": "pass@1：一次采样答对的概率；pass@k：k 次采样中至少一次答对的概率。",
    },
    "glossary.zero_advantage.names": {"en": "zero-advantage|all rewards equal", "zh": "零优势|奖励全相同"},
    "glossary.zero_advantage.def": {
        "en": "A group whose responses all got the same reward: every advantage is 0 and it teaches nothing. "
        "Dynamic sampling (DAPO) drops such groups.",
        "zh": "组内所有回答奖励相同：每个优势都是 0，学不到东西。动态采样（DAPO）会丢弃这样的组。",
    },
    "glossary.overlong.names": {"en": "overlong buffer|overlong|L_max", "zh": "超长缓冲区|超长|L_max"},
    "glossary.overlong.def": {
        "en": "DAPO's length shaping: a penalty that grows linearly over the last L_cache tokens before the "
        "maximum length L_max.",
        "zh": "DAPO 的长度整形：在最大长度 L_max 之前的最后 L_cache 个 token 内，惩罚线性增长。",
    },
    "glossary.on_policy.names": {"en": "on-policy|off-policy", "zh": "同策略|异策略"},
    "glossary.on_policy.def": {
        "en": "On-policy: trained on responses the current policy sampled (every ratio is 1). Off-policy: on "
        "responses from an older or different policy, so ratios differ from 1.",
        "zh": "同策略：用当前策略采样的回答训练（比率都是 1）。异策略：用旧的或不同的策略采样的回答，比率偏离 1。",
    },
    "glossary.mismatch.names": {
        "en": "train-inference mismatch|mismatch|sampler",
        "zh": "训练-推理不一致|不一致|采样器",
    },
    "glossary.mismatch.def": {
        "en": "The sampler (e.g. vLLM in bf16) and the trainer score the same tokens with slightly different "
        "probabilities; TIS and MIS correct for it.",
        "zh": "采样器（如 bf16 的 vLLM）与训练器给同一 token 的概率略有不同；TIS 与 MIS 用来校正。",
    },
    "glossary.critic.names": {"en": "critic|value model|GAE", "zh": "价值模型|评论家|GAE"},
    "glossary.critic.def": {
        "en": "PPO's second network, which predicts each token's expected return; GAE turns its values into "
        "per-token advantages. Group methods replace it with the group's mean.",
        "zh": "PPO 的第二个网络，预测每个 token 的期望回报；GAE 用它的值算出逐 token 的优势。组方法用组均值代替它。",
    },
    "glossary.moe_routing.names": {"en": "routing|router|MoE", "zh": "路由|路由器|MoE"},
    "glossary.moe_routing.def": {
        "en": "In a mixture-of-experts model a router picks a few experts per token; an update can change the "
        "pick, which moves the token's ratio far from 1.",
        "zh": "在混合专家模型中，路由器为每个 token 选几个专家；一次更新可能改变选择，使该 token 的比率远离 1。",
    },
}
