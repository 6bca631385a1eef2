"""Strings of the lessons page, its presenter bar and its worksheets (English and 简体中文)."""

STRINGS: dict[str, dict[str, str]] = {
    "nav.lessons": {"en": "Lessons for a class", "zh": "课堂课程"},
    "home.lessons_claims": {
        "en": "- a lesson is an ordered list of views of this app (a page, its settings, the controls shown, the "
        "question to ask), shared as one link and presented step by step on a projector\n"
        "- three ready lessons: clipping and clip-higher; token vs sequence; GRPO to GSPO on the live model\n"
        "- printable worksheets in both languages, whose answer keys the app computes at each step's settings",
        "zh": "- 一节课是本应用的一串视图（页面、设置、显示哪些控件、要问的问题），用一个链接分享，在投影上逐步讲解\n"
        "- 三节现成的课：裁剪与 clip-higher；token 级与序列级；在实时模型上从 GRPO 到 GSPO\n"
        "- 可打印的中英双语练习单，答案由应用按每一步的设置现场算出",
    },
    "lessons.title": {"en": "Lessons for a class", "zh": "课堂课程"},
    "lessons.lede": {
        "en": "Teach with this app: **Present** a lesson on a projector, one page and one question at a time, and "
        "print its worksheet for the class. Or build your own lesson below and share it as one link.",
        "zh": "用本应用上课：**开始讲解**把一节课投到屏幕上，一次一页、一个问题，并为全班打印练习单；"
        "也可以在下方自己编写课程，用一个链接分享。",
    },
    "lessons.notes": {"en": "What a lesson is", "zh": "课程是什么"},
    "lessons.intro": {
        "en": "A lesson walks a class through views of this app, one step at a time: each step opens a page with "
        "its settings, shows only the controls you choose, asks one of the page's predict-then-check questions "
        "and shows your note. **Present** opens it full-screen for a projector (large type, no sidebar, "
        "Previous / Next at the top). Each lesson comes with a printable worksheet in both languages and its "
        "answer key, computed by the app at each step's settings.",
        "zh": "一节课带着全班逐步浏览本应用的若干视图：每一步用设定好的参数打开一个页面，只显示你选定的控件，"
        "提出该页面的一个“先预测、再验证”问题，并显示你的讲解提示。**开始讲解**会以适合投影的方式打开它（大字号、"
        "隐藏侧边栏、顶部有上一步 / 下一步）。每节课都附有可打印的中英双语练习单及答案，答案由应用按每一步的设置算出。",
    },
    "lessons.shipped_header": {"en": "Ready lessons", "zh": "现成的课程"},
    "lessons.summary": {
        "en": "{steps} {steps:plural:step|steps} · {questions} {questions:plural:question|questions} to predict",
        "zh": "{steps} 步 · {questions} 个预测问题",
    },
    "lessons.present": {"en": "Present", "zh": "开始讲解"},
    "lessons.present_help": {
        "en": "Open step 1 in the presenter view: large type, no sidebar, 1024 px wide, Previous / Next at the top.",
        "zh": "在讲解视图中打开第 1 步：大字号、隐藏侧边栏、宽 1024 像素，顶部有上一步 / 下一步。",
    },
    "lessons.worksheet": {"en": "Worksheet (HTML)", "zh": "练习单（HTML）"},
    "lessons.answer_key": {"en": "Answer key (HTML)", "zh": "答案（HTML）"},
    "lessons.worksheet_help": {
        "en": "A print-ready page in English and Chinese; open it in a browser and print it.",
        "zh": "一份可直接打印的中英双语页面；用浏览器打开后打印。",
    },
    "lessons.edit_copy": {"en": "Edit a copy", "zh": "复制并编辑"},
    "lessons.link": {
        "en": "Presenter link (opens step 1 in the presenter view):",
        "zh": "讲解链接（在讲解视图中打开第 1 步）：",
    },
    "lessons.steps_expander": {"en": "Steps and presenter link", "zh": "步骤与讲解链接"},
    "lessons.col.step": {"en": "Step", "zh": "步骤"},
    "lessons.col.page": {"en": "Page", "zh": "页面"},
    "lessons.col.settings": {"en": "Settings (URL)", "zh": "设置（URL）"},
    "lessons.col.visible": {"en": "Controls shown", "zh": "显示的控件"},
    "lessons.col.prediction": {"en": "Question", "zh": "问题"},
    "lessons.col.note": {"en": "Teacher's note", "zh": "讲解提示"},
    "lessons.all_controls": {"en": "all", "zh": "全部"},
    # ------------------------------------------------------------------------------ builder
    "lessons.builder_header": {"en": "Build a lesson", "zh": "编写课程"},
    "lessons.builder_intro": {
        "en": "Open a page, set it up, copy its address from the browser, and paste it here as a step's settings "
        "(or write `key=value` lines). Choose the controls to leave visible and the question to ask, write a "
        "note in each language, and add the step. The lesson's link below holds the whole lesson.",
        "zh": "打开一个页面、调好设置，从浏览器复制它的地址，粘贴到这里作为一步的设置（也可以写 `key=value` 行）。"
        "选择要保留显示的控件和要问的问题，用两种语言写讲解提示，然后添加这一步。下面的课程链接包含整节课。",
    },
    "lessons.opened": {
        "en": "Opened the lesson “{title}” in the builder below.",
        "zh": "已在下方编写区打开课程“{title}”。",
    },
    "lessons.draft_kept": {
        "en": "The builder below holds your own lesson ({steps} {steps:plural:step|steps}), so the lesson “{title}” "
        "from the address was not opened over it.",
        "zh": "下方编写区里是你自己的课程（{steps} 步），所以没有用地址里的课程“{title}”覆盖它。",
    },
    "lessons.copy_asked": {
        "en": "The builder below holds your own lesson ({steps} {steps:plural:step|steps}): editing a copy of "
        "“{title}” would replace it.",
        "zh": "下方编写区里是你自己的课程（{steps} 步）：编辑“{title}”的副本会替换它。",
    },
    "lessons.draft_replace": {
        "en": "Open “{title}” instead (your steps are dropped)",
        "zh": "改为打开“{title}”（丢弃你的步骤）",
    },
    "lessons.draft_keep": {"en": "Keep my lesson", "zh": "保留我的课程"},
    "lessons.id": {"en": "Short name", "zh": "简称"},
    "lessons.id_help": {
        "en": "Lower-case letters, digits, _ and -; it names the downloaded files.",
        "zh": "小写字母、数字、_ 和 -；下载的文件以它命名。",
    },
    "lessons.title_en": {"en": "Title (English)", "zh": "标题（英文）"},
    "lessons.title_zh": {"en": "Title (Chinese)", "zh": "标题（中文）"},
    "lessons.step_page": {"en": "Page", "zh": "页面"},
    "lessons.step_settings": {
        "en": "Settings: a page address, or key=value lines",
        "zh": "设置：页面地址，或 key=value 行",
    },
    "lessons.step_settings_help": {
        "en": "Paste the address of the page set up as you want it (e.g. …/curves?c_algos=PPO&c_ppo_epsilon_high=0.28), "
        "or one key=value per line; repeat a key for several values. Leave empty for the page's defaults.",
        "zh": "粘贴按你的需要调好的页面地址（例如 …/curves?c_algos=PPO&c_ppo_epsilon_high=0.28），或每行一个 "
        "key=value；一个键有多个值时重复写这个键。留空则使用页面的默认设置。",
    },
    "lessons.step_visible": {"en": "Controls left visible while presenting", "zh": "讲解时保留显示的控件"},
    "lessons.step_visible_placeholder": {"en": "Choose or type widget keys", "zh": "选择或输入控件的 key"},
    "lessons.step_visible_help": {
        "en": "The page's widget keys (as in its address); type a key that is not listed to add it. "
        "Tick “show all controls” to hide none.",
        "zh": "页面的控件键（即地址里的名字）；列表里没有的键可以直接输入。勾选“显示全部控件”则不隐藏任何控件。",
    },
    "lessons.step_all_visible": {"en": "Show all controls", "zh": "显示全部控件"},
    "lessons.step_prediction": {"en": "Question to ask", "zh": "要问的问题"},
    "lessons.no_prediction": {"en": "(none: the page's questions as usual)", "zh": "（不指定：页面的问题照常显示）"},
    "lessons.note_en": {"en": "Teacher's note (English)", "zh": "讲解提示（英文）"},
    "lessons.note_zh": {"en": "Teacher's note (Chinese)", "zh": "讲解提示（中文）"},
    "lessons.add_step": {"en": "Add step", "zh": "添加这一步"},
    "lessons.steps_header": {"en": "Steps of this lesson", "zh": "本课的步骤"},
    "lessons.no_steps": {"en": "No steps yet: add the first one above.", "zh": "还没有步骤：请在上面添加第一步。"},
    "lessons.step_line": {"en": "**Step {k}** · {page}", "zh": "**第 {k} 步** · {page}"},
    "lessons.up": {"en": "Move up", "zh": "上移"},
    "lessons.down": {"en": "Move down", "zh": "下移"},
    "lessons.remove": {"en": "Remove", "zh": "删除"},
    "lessons.clear": {"en": "Start a new lesson", "zh": "新建课程"},
    "lessons.share_header": {"en": "Share and present", "zh": "分享与讲解"},
    "lessons.share_caption": {
        "en": "This link holds the whole lesson: whoever opens it gets it in this builder. It is also this "
        "page's address, which keeps your lesson when the page is reloaded.",
        "zh": "这个链接包含整节课：打开它的人会在编写区看到这节课。它也是本页的地址，所以重新加载页面时你的课程不会丢失。",
    },
    "lessons.too_long": {
        "en": "This lesson is too long for a link ({chars} characters; a link holds at most {limit}). The page's "
        "address cannot keep it: a reload of the page would lose the changes made since it grew too long, and "
        "it cannot be shared or presented. Shorten a note or remove a step.",
        "zh": "这节课太长，放不进链接（{chars} 个字符；链接最多 {limit} 个）。页面地址保存不了它：重新加载页面会丢失它变得过长之后的"
        "修改，也无法分享或讲解。请缩短讲解提示或删除一步。",
    },
    # what the builder says of a step's setting the page will not take (teach.lessons.setting_warnings)
    "lessons.warn.unknown_curve": {
        "en": "{names} {n:plural:is not a curve|are not curves} of the page; its curves: {known}",
        "zh": "{names} 不是这个页面的曲线（{n} 个名字无法识别）；它的曲线有：{known}",
    },
    "lessons.warn.unknown_objective": {
        "en": "{names} {n:plural:is not an objective|are not objectives} of the page; its objectives: {known}",
        "zh": "{names} 不是这个页面的目标函数（{n} 个名字无法识别）；它的目标函数有：{known}",
    },
    "lessons.warn.not_shown": {
        "en": "{title} is not among the step's curves (c_algos): its slider is not shown",
        "zh": "{title} 不在这一步的曲线（c_algos）里：它的滑块不会显示",
    },
    "lessons.warn.repeated": {
        "en": "given {n} times; the page takes one value",
        "zh": "给了 {n} 次；页面只取一个值",
    },
    "lessons.warn.not_bool": {
        "en": "must be true or false, got {value}",
        "zh": "必须是 true 或 false，收到的是 {value}",
    },
    "lessons.warn.not_number": {"en": "not a number: {value}", "zh": "不是数字：{value}"},
    "lessons.warn.not_choice": {
        "en": "{value} is not one of the slider's values ({choices})",
        "zh": "{value} 不是滑块可取的值（{choices}）",
    },
    "lessons.warn.out_of_range": {
        "en": "{value} is outside the slider's range [{low}, {high}]",
        "zh": "{value} 超出了滑块的范围 [{low}, {high}]",
    },
    "lessons.page_from_address": {
        "en": "The pasted address opens **{page}**: the step's page is set to it.",
        "zh": "粘贴的地址打开的是 **{page}**：这一步的页面已改为它。",
    },
    "lessons.visible_warning": {
        "en": "Some controls left visible will not be on the page: {problems}",
        "zh": "有些保留显示的控件不会出现在页面上：{problems}",
    },
    "lessons.settings_warning": {
        "en": "The page will not use some of these settings: {problems}",
        "zh": "页面不会使用其中的一些设置：{problems}",
    },
    "lessons.present_caption": {
        "en": "This link opens the lesson straight in the presenter view:",
        "zh": "这个链接直接在讲解视图中打开这节课：",
    },
    # ------------------------------------------------------------------------------ presenter bar
    "lessons.bar.step": {"en": "Step {k} of {n} · {page}", "zh": "第 {k} 步，共 {n} 步 · {page}"},
    "lessons.bar.prev": {"en": "Previous", "zh": "上一步"},
    "lessons.bar.next": {"en": "Next", "zh": "下一步"},
    "lessons.bar.exit": {"en": "Exit", "zh": "退出讲解"},
    "lessons.bar.language": {"en": "中文", "zh": "切换到 English"},
    "lessons.bar.bad": {
        "en": "This lesson link cannot be opened: {error}",
        "zh": "无法打开这个课程链接：{error}",
    },
    # ------------------------------------------------------------------------------ worksheet (both languages)
    "lessons.ws.sheet": {"en": "Worksheet", "zh": "练习单"},
    "lessons.ws.key": {"en": "Answer key", "zh": "答案"},
    "lessons.ws.name": {"en": "Name", "zh": "姓名"},
    "lessons.ws.date": {"en": "Date", "zh": "日期"},
    "lessons.ws.intro": {
        "en": "Write down your answer to each question before the class checks it in the app.",
        "zh": "在全班用应用验证之前，先写下你对每个问题的答案。",
    },
    "lessons.ws.intro_key": {
        "en": "Each answer was computed by rlviz at the step's settings when this file was made, with the code "
        "that draws the page; an answer that a training run measures in class says where the app reveals it.",
        "zh": "每个答案都是生成本文件时由 rlviz 按该步的设置、用绘制页面的同一套代码算出的；需要在课堂上通过训练测得的答案，"
        "会注明应用在哪一步揭晓。",
    },
    "lessons.ws.question": {"en": "Question", "zh": "问题"},
    "lessons.ws.step": {"en": "step", "zh": "步骤"},
    "lessons.ws.answer": {"en": "Answer", "zh": "答案"},
    "lessons.ws.note": {"en": "Teacher's note", "zh": "讲解提示"},
    "lessons.ws.none": {
        "en": "This lesson asks no prediction questions.",
        "zh": "这节课没有预测问题。",
    },
    "lessons.ws.measured": {
        "en": "measured by the class's run: the app reveals it at lesson step {step} when the run has finished",
        "zh": "由全班的这次训练测得：训练结束后，应用会在本课第 {step} 步揭晓",
    },
    "lessons.ws.measured_why": {
        "en": "This answer is read from a training run of the shipped model at the step's settings, so it "
        "is measured in class rather than printed here; the app explains it next to the value.",
        "zh": "这个答案来自按该步设置训练内置模型的一次运行，因此在课堂上测得，而不印在这里；应用会在数值旁给出解释。",
    },
    "lessons.ws.footer": {
        "en": "Made with rlviz: policy optimisation for LLM RL, hands-on.",
        "zh": "由 rlviz（动手理解大模型强化学习中的策略优化）生成。",
    },
}
