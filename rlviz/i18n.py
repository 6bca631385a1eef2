"""Every user-visible string of the app, in English and 简体中文.

``t(key, lang, **fmt)`` looks a string up and formats it with ``str.format`` when ``fmt`` is given.
A missing key or an unknown language raises: the table must be complete, and the tests check that
every key has a non-empty text in both languages. Algorithm names, paper titles and one-line
summaries are not here: they come from the algorithm registry (``rlviz.core.objectives``).
"""

from __future__ import annotations

__all__ = ["DEFAULT_LANG", "LANGS", "STRINGS", "t"]

# language code -> the language's own name (shown in the switch)
LANGS: dict[str, str] = {"en": "English", "zh": "中文"}
DEFAULT_LANG = "en"

STRINGS: dict[str, dict[str, str]] = {
    # ---------------------------------------------------------------- app shell, sidebar
    "app.title": {
        "en": "rlviz · policy optimisation for LLM RL",
        "zh": "rlviz · 大模型强化学习中的策略优化",
    },
    "nav.home": {"en": "Home", "zh": "首页"},
    "nav.live": {"en": "Live policy update", "zh": "实时策略更新"},
    "side.language": {"en": "Language / 语言", "zh": "语言 / Language"},
    "side.seed": {"en": "Seed", "zh": "随机种子"},
    "side.seed_help": {
        "en": "Fixes sampling and initialisation: the same seed and settings give the same run.",
        "zh": "固定采样和初始化：种子和设置相同，结果就相同。",
    },
    "side.device": {"en": "Device", "zh": "计算设备"},
    "side.device_help": {
        "en": "Where the model runs. “auto” takes a GPU when there is one (cuda, then mps), else the CPU.",
        "zh": "模型在哪里运行。“auto” 会优先使用 GPU（先 cuda 后 mps），没有 GPU 时使用 CPU。",
    },
    "side.device_auto": {"en": "auto → {best}", "zh": "自动 → {best}"},
    "side.model": {"en": "Model: {model}", "zh": "模型：{model}"},
    "side.model_tiny": {"en": "the shipped tiny LM", "zh": "自带的微型语言模型"},
    "side.model_help": {
        "en": "The model is chosen when the server starts (RLVIZ_MODEL_DIR=/path make run, or "
        "streamlit run app.py -- --model-dir /path), never typed in the browser.",
        "zh": "模型在启动服务时指定（RLVIZ_MODEL_DIR=/path make run，或 "
        "streamlit run app.py -- --model-dir /path），不能在浏览器里输入路径。",
    },
    "side.server_device_bad": {
        "en": "The server was started with device {value!r}, which is not available here: {error}. "
        "Using “auto” instead.",
        "zh": "服务启动时指定的设备 {value!r} 在这台机器上不可用：{error}。已改用 “auto”。",
    },
    # ---------------------------------------------------------------- shared words
    "word.step": {"en": "step", "zh": "步数"},
    "word.position": {"en": "position in response", "zh": "回答中的位置"},
    "word.token": {"en": "token", "zh": "token"},
    "word.advantage": {"en": "advantage A", "zh": "优势 A"},
    "word.grad_weight": {"en": "gradient weight −∂loss/∂log π", "zh": "梯度权重 −∂loss/∂log π"},
    "word.tokens": {"en": "tokens", "zh": "token 数"},
    "word.algorithm": {"en": "algorithm", "zh": "算法"},
    "word.none": {"en": "none", "zh": "无"},
    # ---------------------------------------------------------------- home page
    "home.title": {
        "en": "Policy optimisation for LLM post-training, hands-on",
        "zh": "动手理解大模型后训练中的策略优化",
    },
    "home.intro": {
        "en": "After supervised fine-tuning, a language model can keep improving from its own "
        "samples: generate several answers per prompt, score them with a verifier, and push up "
        "the tokens of the better answers. The nine objectives below differ only in *how* they "
        "turn those scores into a gradient: what ratio they use, where they clip, how they "
        "average over tokens, and which groups they learn from. Every number in this app is "
        "computed live by the same code that trains a small real language model.",
        "zh": "监督微调之后，语言模型还可以从自己的采样中继续进步：每个问题生成几条回答，用验证器打分，"
        "再把较好回答里的 token 概率往上推。下面九个目标函数的区别只在于*怎样*把这些分数变成梯度："
        "用哪种比率、在哪里裁剪、怎样在 token 之间求平均、从哪些组里学习。本应用中的每个数字，"
        "都由训练一个真实小语言模型的同一套代码现场算出。",
    },
    "home.map_header": {"en": "The family tree", "zh": "算法谱系"},
    "home.map_caption": {
        "en": "Each arrow goes from an algorithm to one that modified it. Colours are the ones "
        "every chart in the app uses for that algorithm.",
        "zh": "箭头从一个算法指向在它基础上修改的算法。颜色与应用中所有图表里该算法的颜色一致。",
    },
    "home.notation": {
        "en": r"Notation: $r_t = \pi_\theta(y_t)/\pi_{old}(y_t)$ is a token's importance ratio, "
        r"$s = (\prod_t r_t)^{1/|y|}$ the sequence ratio, $A$ the advantage (the reward minus the "
        r"group mean, often divided by the group's std), $\varepsilon$ the clip range, $|y|$ the "
        r"response length, $G$ the group size.",
        "zh": r"记号：$r_t = \pi_\theta(y_t)/\pi_{old}(y_t)$ 是单个 token 的重要性比率，"
        r"$s = (\prod_t r_t)^{1/|y|}$ 是序列比率，$A$ 是优势（奖励减去组内均值，通常再除以组内标准差），"
        r"$\varepsilon$ 是裁剪范围，$|y|$ 是回答长度，$G$ 是组大小。",
    },
    "home.algos_header": {"en": "The nine objectives", "zh": "九个目标函数"},
    "home.paper": {
        "en": "Paper: {paper} — [arXiv:{arxiv}](https://arxiv.org/abs/{arxiv}) ({where})",
        "zh": "论文：{paper} — [arXiv:{arxiv}](https://arxiv.org/abs/{arxiv})（{where}）",
    },
    "home.parent": {"en": "Builds on {parent}", "zh": "基于 {parent}"},
    "home.root": {"en": "The starting point", "zh": "出发点"},
    "home.changed": {"en": "*What changed:* {text}", "zh": "*改动：*{text}"},
    "home.pages_header": {"en": "What each page demonstrates", "zh": "各页面演示的内容"},
    "home.live_claims": {
        "en": "- Train several algorithms side by side on the same prompts and watch reward, "
        "held-out pass@1, length, entropy, KL and clip fraction step by step.\n"
        "- Groups whose answers are all right or all wrong have zero advantage: they cost "
        "compute and teach nothing (the zero-advantage share).\n"
        "- GSPO clips whole sequences — a far larger clip fraction — and still learns.\n"
        "- SAPO's soft gate never cuts a token off completely; CISPO keeps a bounded gradient "
        "on tokens outside the trust region.\n"
        "- The per-token view shows how each objective spreads the gradient over one group's "
        "answers: token by token (GRPO) or one weight per response (GSPO).\n"
        "- Turn the learning rate up until the policy collapses and read the symptoms: KL and "
        "ratio spread jump, entropy falls, answers run to the length limit.",
        "zh": "- 在同一批问题上并排训练几个算法，逐步观察奖励、留出集 pass@1、回答长度、熵、KL 和裁剪比例。\n"
        "- 全对或全错的组优势为零：白白花了算力却什么也学不到（见“零优势组占比”）。\n"
        "- GSPO 按整条序列裁剪，裁剪比例大得多，却照样能学。\n"
        "- SAPO 的软门控从不把 token 完全截断；CISPO 对信任域之外的 token 仍保留有界的梯度。\n"
        "- 逐 token 视图显示每个目标函数怎样把梯度分配到一组回答上：GRPO 逐个 token 不同，GSPO 每条回答一个权重。\n"
        "- 把学习率调大直到策略崩溃，再看症状：KL 和比率的离散程度飙升、熵下降、回答一直写到长度上限。",
    },
    "home.open_live": {"en": "Open the live policy update", "zh": "打开实时策略更新"},
    "home.settings": {"en": "Settings and where their defaults come from", "zh": "参数设置及默认值出处"},
    "col.setting": {"en": "setting", "zh": "参数"},
    "col.default": {"en": "default", "zh": "默认值"},
    "col.meaning": {"en": "meaning", "zh": "含义"},
    "col.source": {"en": "source of the default", "zh": "默认值出处"},
    "col.trl": {"en": "TRL name", "zh": "TRL 中的名字"},
    "col.verl": {"en": "verl name", "zh": "verl 中的名字"},
    "home.ratio_level": {"en": "Ratio: {level}", "zh": "比率：{level}"},
    "level.token": {"en": "per token", "zh": "token 级"},
    "level.sequence": {"en": "per response (sequence)", "zh": "回答级（序列）"},
    "home.map_hover_parent": {"en": "builds on {parent}", "zh": "基于 {parent}"},
    # ---------------------------------------------------------------- metric names (plots)
    "metric.reward_mean": {"en": "mean reward", "zh": "平均奖励"},
    "metric.pass_at_1": {"en": "pass@1 (held-out)", "zh": "pass@1（留出集）"},
    "metric.response_length_mean": {"en": "mean response length", "zh": "平均回答长度"},
    "metric.response_length_max": {"en": "longest response", "zh": "最长回答长度"},
    "metric.overlong_fraction": {"en": "share of overlong responses", "zh": "超长回答占比"},
    "metric.group_reward_std": {"en": "group reward std", "zh": "组内奖励标准差"},
    "metric.zero_adv_group_fraction": {"en": "share of zero-advantage groups", "zh": "零优势组占比"},
    "metric.entropy": {"en": "entropy (nats / token)", "zh": "熵（nats / token）"},
    "metric.kl_ref": {"en": "KL to reference", "zh": "与参考模型的 KL"},
    "metric.ratio_mean": {"en": "mean ratio r", "zh": "比率 r 的均值"},
    "metric.ratio_min": {"en": "smallest ratio r", "zh": "比率 r 的最小值"},
    "metric.ratio_max": {"en": "largest ratio r", "zh": "比率 r 的最大值"},
    "metric.clip_fraction": {"en": "clip fraction", "zh": "裁剪比例"},
    "metric.clip_fraction_low": {"en": "clip fraction (low side, A<0)", "zh": "裁剪比例（下界，A<0）"},
    "metric.clip_fraction_high": {"en": "clip fraction (high side, A>0)", "zh": "裁剪比例（上界，A>0）"},
    "metric.gate_weight_mean": {"en": "mean SAPO gate weight", "zh": "SAPO 门控权重均值"},
    "metric.grad_token_fraction": {"en": "share of tokens with gradient", "zh": "有梯度的 token 占比"},
    "metric.grad_norm": {"en": "gradient norm", "zh": "梯度范数"},
    "metric.seconds": {"en": "seconds per step", "zh": "每步耗时（秒）"},
    "metric.rollouts": {"en": "responses sampled", "zh": "采样的回答数"},
    "metric.kept_groups": {"en": "groups kept", "zh": "保留的组数"},
}


def t(key: str, lang: str, **fmt: object) -> str:
    """The text for ``key`` in ``lang``, formatted with ``fmt`` when given.

    Raises:
        KeyError: ``key`` is not in the table (a missing string is a bug, not a fallback).
        ValueError: ``lang`` is not one of ``LANGS``.
    """
    if lang not in LANGS:
        raise ValueError(f"lang: {lang!r} is not one of {', '.join(LANGS)}")
    text = STRINGS[key][lang]
    return text.format(**fmt) if fmt else text
