"""Strings of the app shell: navigation, sidebar, shared words and messages (English and 简体中文).

Merged into :data:`rlviz.i18n.STRINGS`; the same completeness rules apply (tests/test_i18n.py).
"""

STRINGS: dict[str, dict[str, str]] = {
    # ---------------------------------------------------------------- app shell, sidebar
    "app.title": {
        "en": "rlviz · policy optimisation for LLM RL",
        "zh": "rlviz · 大模型强化学习中的策略优化",
    },
    "nav.home": {"en": "Home", "zh": "首页"},
    "nav.live": {"en": "Live policy update", "zh": "实时策略更新"},
    "nav.curves": {"en": "Objective & gradient vs ratio", "zh": "目标与梯度随比率变化"},
    "nav.weighting": {"en": "Token vs sequence weighting", "zh": "token 级与序列级加权"},
    "nav.length": {"en": "Length penalties", "zh": "长度惩罚"},
    "nav.sampling": {"en": "Dynamic sampling", "zh": "动态采样"},
    "nav.moe": {"en": "MoE routing & replay", "zh": "MoE 路由与路由重放"},
    "side.image_format": {"en": "Chart download format", "zh": "图表下载格式"},
    "side.image_format_help": {
        "en": "What the camera button in each chart's toolbar saves: SVG (vector, for slides and papers) or PNG.",
        "zh": "每张图工具栏里相机按钮保存的格式：SVG（矢量，适合幻灯片和论文）或 PNG。",
    },
    "common.bad_input": {"en": "Please check the settings: {error}", "zh": "请检查设置。库给出的原文（英文）：{error}"},
    "common.bad_field": {
        "en": "Please check **{field}**. Details: {error}",
        "zh": "请检查“**{field}**”。库给出的原文（英文）：{error}",
    },
    # ---------------------------------------------------------------- URL parameters not used (app_common)
    "url.ignored": {
        "en": "Some settings in this link were not used; their defaults are shown instead: {params}.",
        "zh": "链接中的部分设置无效，已改用默认值：{params}。",
    },
    "url.invalid": {"en": "`{param}` (not a valid value)", "zh": "`{param}`（不是有效的值）"},
    "url.repeated": {"en": "`{param}` (given more than once)", "zh": "`{param}`（出现了不止一次）"},
    "url.too_long": {
        "en": "`{param}` (longer than {limit} characters)",
        "zh": "`{param}`（超过 {limit} 个字符）",
    },
    "common.choose": {"en": "Choose one or more", "zh": "请选择一项或多项"},
    "common.alt_chart": {"en": "Chart", "zh": "图表"},
    "common.alt_panels": {"en": "Panels: {items}", "zh": "子图：{items}"},
    "common.alt_axes": {"en": "Axes: {items}", "zh": "坐标轴：{items}"},
    "common.alt_series": {"en": "Series: {items}", "zh": "数据系列：{items}"},
    "common.download_csv": {"en": "Download the numbers (CSV)", "zh": "下载数据（CSV）"},
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
        "en": "The model is chosen when the server starts (`RLVIZ_MODEL_DIR=/path make run`, or "
        "`streamlit run app.py -- --model-dir /path`), never typed in the browser.",
        "zh": "模型在启动服务时指定（`RLVIZ_MODEL_DIR=/path make run`，或 "
        "`streamlit run app.py -- --model-dir /path`），不能在浏览器里输入路径。",
    },
    "side.server_device_bad": {
        "en": "The server was started with device {value!r}, which is not available here: {error}. "
        "Using “auto” instead.",
        "zh": "服务启动时指定的设备 {value!r} 在这台机器上不可用：{error}。已改用 “auto”。",
    },
    # ---------------------------------------------------------------- a step-wise run that stopped
    "run.fix_field": {
        "en": "A setting above is outside its range (the red field; hover its mark for the range): "
        "correct it and press Enter, then Run.",
        "zh": "上面有一项设置超出了范围（红框；把鼠标移到它的标记上可看到范围）：改正后按回车，开始按钮就会回来。",
    },
    "run.failed": {
        "en": "The run stopped: {what}. Every step done so far is kept: **Continue** tries again from "
        "there, **Reset** clears it.",
        "zh": "训练停止了：{what}。已完成的步骤都保留着：点 **继续** 从停下的地方再试一次，点 **清除结果** 清空。",
    },
    "run.queued": {
        "en": "Waiting for the server: {ahead} training {ahead:plural:step|steps} of other sessions {ahead:plural:is|are} ahead of this one in line.",
        "zh": "正在等待服务器：队列中排在本次之前的，还有其他会话的 {ahead} 个训练步。",
    },
    # Streamlit's key hints under a text or number field, which it writes in English only
    # (app_common.input_hints_css draws these in their place)
    "hint.enter_apply": {"en": "Press Enter to apply", "zh": "按回车键确认"},
    "hint.enter_submit": {"en": "Press Enter to submit form", "zh": "按回车键提交"},
    "hint.ctrl_enter_apply": {"en": "Press Ctrl+Enter (⌘+Enter) to apply", "zh": "按 Ctrl+回车（⌘+回车）确认"},
    "hint.ctrl_enter_submit": {"en": "Press Ctrl+Enter (⌘+Enter) to submit form", "zh": "按 Ctrl+回车（⌘+回车）提交"},
    "side.limits": {"en": "This server", "zh": "本服务器"},
    "side.limits_text": {
        "en": "Limits per run on this shared server: at most **{max_steps}** steps, **{max_prompts_per_step}** prompts "
        "per step, G ≤ **{max_group_size}**, **{max_responses_per_step}** responses per step, "
        "**{max_updates_per_step}** updates per step (μ × mini-batches), **{max_arms}** arms, and a model of at most "
        "**{max_parameters:,}** parameters.\n\nThe server computes **{concurrent_steps}** training steps at once "
        "({torch_threads} torch thread each, at a lower CPU priority than the pages, nice +{step_niceness}, so that "
        "sliders answer first while runs go); the others wait in line. Now: {running} running, {waiting} waiting.\n\nEach explorer figure keeps its "
        "last **{figure_cache_entries}** settings, shared by every session: a figure asked for again is looked up, "
        "not rebuilt.",
        "zh": "这台共享服务器对每次运行的限制：最多 **{max_steps}** 步，每步 **{max_prompts_per_step}** 个提示词，"
        "G ≤ **{max_group_size}**，每步 **{max_responses_per_step}** 条回答，每步 **{max_updates_per_step}** 次更新"
        "（μ × 小批次数），**{max_arms}** 个分支，模型最多 **{max_parameters:,}** 个参数。\n\n服务器同时计算 "
        "**{concurrent_steps}** 个训练步（每个用 {torch_threads} 个 torch 线程，CPU 优先级低于页面，nice +{step_niceness}，"
        "所以有训练在跑时拖动滑块也先得到响应），其余的排队等待。当前：{running} 个在算，"
        "{waiting} 个在等。\n\n每张探索图保留最近 **{figure_cache_entries}** 组设置的结果，所有会话共用：再次请求的图直接取出，"
        "不重新绘制。",
    },
    "run.starting": {
        "en": "Starting: loading the model, then the first step…",
        "zh": "正在开始：先加载模型，然后算第一步……",
    },
    "run.stopping": {
        "en": "Stopping: the step round in progress finishes first, so every run ends at the same step.",
        "zh": "正在停止：先把这一轮的步骤做完，让每个算法停在同一步。",
    },
    "run.details": {"en": "Technical details", "zh": "技术细节"},
    "run.err_memory": {
        "en": "the device ran out of memory (try fewer prompts per step, a smaller group or fewer runs side by side)",
        "zh": "设备内存不足（可以减少每步提示词数、减小组大小，或少并排几个算法）",
    },
    "run.err_numeric": {
        "en": "the numbers overflowed to infinity or NaN (a smaller learning rate usually helps)",
        "zh": "数值溢出成了无穷大或 NaN（调小学习率通常有帮助）",
    },
    "run.err_value": {
        "en": "a setting turned out to be out of range while training",
        "zh": "训练过程中发现某个设置超出了允许的范围",
    },
    "run.err_other": {
        "en": "an unexpected error in the training code",
        "zh": "训练代码遇到了意外错误",
    },
    # ---------------------------------------------------------------- shared words
    "word.step": {"en": "step", "zh": "步数"},
    "word.position": {"en": "position in response", "zh": "回答中的位置"},
    "word.token": {"en": "token", "zh": "token"},
    "word.advantage": {"en": "advantage A", "zh": "优势 A"},
    "word.grad_weight": {"en": "gradient weight −∂loss/∂log π", "zh": "梯度权重 −∂loss/∂log π"},
    "word.push": {"en": "−∂loss/∂log π", "zh": "−∂loss/∂log π"},  # the token heatmaps' colour bar
    "word.tokens": {"en": "tokens", "zh": "token 数"},
    "word.algorithm": {"en": "algorithm", "zh": "算法"},
    "word.none": {"en": "none", "zh": "无"},
}
