"""Strings of the page template (``app_common.template``) and the newcomer's path (``app_common.path``)."""

STRINGS = {
    "page.notes": {"en": "How to read this", "zh": "怎么看这张图"},
    "page.more": {"en": "More about this", "zh": "更多说明"},
    "page.practitioners": {
        "en": "For practitioners: TRL / verl names, papers, framework notes",
        "zh": "给实践者：TRL / verl 参数名、论文、框架说明",
    },
    "nav.section.start": {"en": "Start", "zh": "开始"},
    "nav.section.objectives": {"en": "Objectives", "zh": "目标函数"},
    "nav.section.training": {"en": "Training", "zh": "训练"},
    "nav.section.practice": {"en": "Practice", "zh": "练习"},
    "path.marker": {"en": "Path {k}/{n}", "zh": "路线 {k}/{n}"},
    "path.prev": {"en": "Previous", "zh": "上一站"},
    "path.next": {"en": "Next: {title}", "zh": "下一站：{title}"},
    # the newcomer's path (rlviz.app_pages.PATH): one sentence per stop, what it shows
    "path.step": {
        "en": "One real update of a tiny model, stage by stage: from the sampled answers to each token's new "
        "probability.",
        "zh": "逐阶段慢放一个小模型的一次真实更新：从采样的回答到每个 token 的新概率。",
    },
    "path.curves": {
        "en": "How PPO's clip turns an advantage into a push on one token, and where the push stops.",
        "zh": "PPO 的裁剪如何把优势变成对一个 token 的推力，以及推力在哪里停下。",
    },
    "path.advantages": {
        "en": "Where the learning signal comes from: a group's rewards become advantages.",
        "zh": "学习信号从哪里来：一组回答的奖励如何变成优势。",
    },
    "path.weighting": {
        "en": "How one loss spreads over the tokens of long and short responses.",
        "zh": "一个损失如何分摊到长回答和短回答的各个 token 上。",
    },
    "path.sampling": {
        "en": "Why groups whose answers are all right or all wrong teach nothing.",
        "zh": "为什么全对或全错的组学不到东西。",
    },
    "path.live": {
        "en": "Train a small real model with several objectives side by side and watch it learn.",
        "zh": "用几个目标函数并排训练一个真实的小模型，看着它学习。",
    },
    "path.symptoms": {
        "en": "What goes wrong in training (entropy collapse, runaway length) and which settings cure it.",
        "zh": "训练中会出什么问题（熵坍缩、长度失控），以及哪些设置能治好它。",
    },
    "teach.held": {
        "en": "Hidden until you answer the question in “Predict, then check” (or press Skip): it would give the "
        "answer away.",
        "zh": "在你回答“先预测，再验证”中的问题（或点“跳过”）之前先隐藏：它会泄露答案。",
    },
    "teach.skip": {"en": "Skip: show me", "zh": "跳过：直接看答案"},
    "teach.skipped_wait": {
        "en": "Skipped: the answer is shown here when the run has finished.",
        "zh": "已跳过：训练结束后这里会显示答案。",
    },
    "teach.skipped": {"en": "The computed answer: {answer}.", "zh": "算出来的答案：{answer}。"},
    "teach.too_late": {
        "en": "This run started before you predicted, so its curves already show the answer. To predict, "
        "change a setting and answer before the next Run.",
        "zh": "这次训练在你预测之前就开始了，曲线已经给出了答案。想预测的话，改一个设置，在下次开始训练之前作答。",
    },
}
