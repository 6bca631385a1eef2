"""Strings of the Interview prep page (keys ``interview.*``, plus its ``nav.`` and ``home.`` entries),
English and 简体中文.

Merged into :data:`rlviz.i18n.STRINGS`; the same completeness rules apply (tests/test_i18n.py).
The questions and claims themselves live in the bank's data files (``rlviz/teach/bank/*.toml``).
"""

STRINGS: dict[str, dict[str, str]] = {
    "nav.interview": {"en": "Interview prep", "zh": "面试准备"},
    "home.interview_claims": {
        "en": "- An interview bank by topic: commit to an answer, then see the value rlviz computes with the code "
        "that trains, the explanation, and a link to the page that proves it.\n"
        '- "Explain why" questions: write your answer, then compare it with a model answer whose numbers are '
        "computed, and tick the points you made.\n"
        "- A timed mock interview drawn from every topic, reviewed at the end, and a score per topic for the "
        "session.\n"
        "- A deck of claims to judge, wrong and true ones mixed as in prep material: agree or push back, then read "
        "the correction or the evidence, with its source.",
        "zh": "- 按主题整理的面试题库：先写下答案，再看 rlviz 用训练所用的同一份代码算出的值、解释，以及证明它的页面链接。\n"
        "- “解释原因”题：先写下你的回答，再与数值由代码算出的参考答案对照，勾选你说到的要点。\n"
        "- 从各个主题抽题的限时模拟面试，结束时逐题复盘；本次会话按主题记分。\n"
        "- 一组待辨析的说法，像备考资料里一样真假混杂：先决定同意还是反驳，再看更正或证据，以及出处。",
    },
    "interview.title": {"en": "Interview prep", "zh": "面试准备"},
    "interview.lede": {
        "en": "Practise for an interview on RL for LLMs: commit to an answer, then see the value rlviz computes, "
        "why, and the page that proves it. Or take a timed mock interview, or judge claims, some wrong and some true.",
        "zh": "大模型强化学习面试练习：先提交答案，再看 rlviz 算出的值、原因和证明它的页面；"
        "也可以限时模拟面试，或辨析真假混杂的说法。",
    },
    "interview.notes": {"en": "About the bank", "zh": "关于题库"},
    "interview.intro": {
        "en": "The bank holds {questions} {questions:plural:question|questions} and {claims} claims to judge, wrong and true. No answer here is typed in: "
        "each is computed when it is revealed, by the same rlviz code that trains, and each question links to the "
        'page that shows why. An "explain why" question is scored by you: tick the points of its checklist that '
        "your answer made. Practise one topic at a time, take a timed mock interview of {size} {size:plural:question|questions}, or "
        "judge the claims. Your scores stay in this browser session only.",
        "zh": "题库里有 {questions} 道题和 {claims} 条待辨析的说法（有错有对）。这里没有手写的答案：每个答案都在揭晓时由训练所用的"
        "同一份 rlviz 代码算出，每道题都链接到说明原因的页面。“解释原因”题由你自己打分：勾选你的回答说到的要点。可以按主题逐个练习，参加 {size} 道题的限时模拟面试，"
        "或者逐条辨析这些说法。你的得分只保存在当前浏览器会话里。",
    },
    "interview.mode": {"en": "Mode", "zh": "模式"},
    "interview.mode_practice": {"en": "Practice by topic", "zh": "按主题练习"},
    "interview.mode_mock": {"en": "Mock interview", "zh": "模拟面试"},
    "interview.mode_claims": {"en": "Claims to judge", "zh": "说法辨析"},
    "interview.mode_scores": {"en": "My scores", "zh": "我的得分"},
    # ------------------------------------------------------------------ answering
    "interview.your_answer": {"en": "Your answer", "zh": "你的答案"},
    "interview.no_answer": {"en": "no answer", "zh": "未作答"},
    "interview.enter_first": {
        "en": "Enter an answer first, then commit it.",
        "zh": "请先填写答案，再提交。",
    },
    "interview.kind_number": {"en": "Number question", "zh": "数值题"},
    "interview.kind_choice": {"en": "Choice question", "zh": "选择题"},
    "interview.kind_explain": {"en": "Explain why (you score it)", "zh": "解释原因（自评）"},
    "interview.your_explanation": {
        "en": "Your explanation (as you would say it in the interview)",
        "zh": "你的解释（按面试时会说的那样写下来）",
    },
    "interview.reveal_model": {"en": "Reveal the model answer", "zh": "揭晓参考答案"},
    "interview.you_wrote": {"en": "You wrote:", "zh": "你写的是："},
    "interview.model_answer": {"en": "Model answer", "zh": "参考答案"},
    "interview.checklist": {
        "en": "Tick each point your explanation made:",
        "zh": "你的解释里说到了哪几点，就勾选哪几点：",
    },
    "interview.score_ticks": {"en": "Score my explanation", "zh": "给我的解释打分"},
    "interview.points": {"en": "{k} of {n} points", "zh": "{n} 点中的 {k} 点"},
    "interview.ticked": {
        "en": "You made {k} of the {n} points.",
        "zh": "{n} 个要点里你说到了 {k} 个。",
    },
    "interview.right": {"en": "Right: {answer}.", "zh": "答对了：{answer}。"},
    "interview.wrong": {
        "en": "Not quite: you said {guess}, the computed answer is {answer}.",
        "zh": "不太对：你的答案是 {guess}，算出来的是 {answer}。",
    },
    "interview.unanswered_explain": {
        "en": "Not answered. The model answer and its checklist:",
        "zh": "未作答。参考答案及要点如下：",
    },
    "interview.unanswered": {
        "en": "Not answered. The computed answer is {answer}.",
        "zh": "未作答。算出来的答案是 {answer}。",
    },
    "interview.prove": {"en": "See it on the page: {page}", "zh": "到页面上验证：{page}"},
    "interview.previous": {"en": "Previous", "zh": "上一个"},
    "interview.next": {"en": "Next", "zh": "下一个"},
    # ------------------------------------------------------------------ practice
    "interview.bank_empty": {"en": "The bank holds no questions yet.", "zh": "题库里还没有题目。"},
    "interview.topic": {"en": "Topic", "zh": "主题"},
    "interview.position": {"en": "Question {i} of {n}", "zh": "第 {i} 题，共 {n} 题"},
    "interview.commit": {"en": "Commit and reveal", "zh": "提交并揭晓"},
    "interview.again": {"en": "Try again", "zh": "再试一次"},
    # ------------------------------------------------------------------ mock interview
    "interview.mock_intro": {
        "en": "{n} {n:plural:question|questions} drawn from the bank with the sidebar's seed, spread over the topics; {minutes} "
        "{minutes:plural:minute|minutes}. Commit one answer at a time: nothing is revealed until the end (or until the time runs out, or "
        'you finish early), except that an "explain why" question shows its model answer once you have written '
        "yours, so that you can tick the points you made. Each new mock draws a different set.",
        "zh": "用侧边栏的随机种子从题库中抽出 {n} 道题，分布在各个主题上；限时 {minutes} 分钟。每次提交一道题的答案："
        "结束前（或时间用完、或你提前交卷前）不揭晓任何答案；只有“解释原因”题例外：你写完自己的回答后会显示参考答案，"
        "以便你勾选自己说到的要点。每次新的模拟面试都会抽到不同的题目。",
    },
    "interview.start": {"en": "Start the mock interview", "zh": "开始模拟面试"},
    "interview.start_another": {"en": "Start another mock interview", "zh": "再来一次模拟面试"},
    "interview.elapsed": {"en": "Time taken", "zh": "已用时间"},
    "interview.left": {"en": "Time left", "zh": "剩余时间"},
    "interview.mock_position": {
        "en": "Question {i} of {n} · {answered} of {total} answered",
        "zh": "第 {i} 题，共 {n} 题 · 已答 {answered} / {total}",
    },
    "interview.commit_mock": {"en": "Commit answer", "zh": "提交答案"},
    "interview.skip": {"en": "Skip for now", "zh": "先跳过"},
    "interview.finish": {"en": "Finish now", "zh": "现在交卷"},
    "interview.review": {"en": "Review", "zh": "复盘"},
    "interview.timed_out": {
        "en": "The time ran out: the questions left unanswered count as missed.",
        "zh": "时间到：未作答的题目算作答错。",
    },
    "interview.score": {"en": "Score", "zh": "得分"},
    "interview.score_value": {"en": "{right} / {total}", "zh": "{right} / {total}"},
    "interview.time_taken": {"en": "Time taken", "zh": "用时"},
    "interview.answered": {"en": "Answered", "zh": "已作答"},
    "interview.csv_mock": {"en": "Download this mock (CSV)", "zh": "下载本次模拟面试（CSV）"},
    # ------------------------------------------------------------------ claims deck
    "interview.deck_empty": {"en": "The deck holds no claims yet.", "zh": "卡片组里还没有说法。"},
    "interview.deck_intro": {
        "en": "Each card is a statement of the kind heard in interviews and prep material. Some are wrong, some are "
        "true. Would you agree with it in an interview, or push back? Then read the correction, or the evidence that "
        "it holds.",
        "zh": "每张卡片都是面试和备考资料里常听到的一种说法，有的错，有的对。面试时你会同意，还是反驳？"
        "然后看更正，或者看它成立的证据。",
    },
    "interview.card_position": {"en": "Card {i} of {n}", "zh": "第 {i} 张，共 {n} 张"},
    "interview.deck_right": {
        "en": "Judged {right} of the {seen} {seen:plural:claim|claims} you answered right ({n} in the deck).",
        "zh": "你判断过的 {seen} 条里判断对了 {right} 条（共 {n} 条）。",
    },
    "interview.agree": {"en": "I'd agree", "zh": "我会同意"},
    "interview.push_back": {"en": "I'd push back", "zh": "我会反驳"},
    "interview.claim_right_wrong": {
        "en": "Right to push back: the claim is wrong.",
        "zh": "反驳得对：这个说法是错的。",
    },
    "interview.claim_right_true": {"en": "Right to agree: the claim is true.", "zh": "同意得对：这个说法是对的。"},
    "interview.claim_missed_wrong": {"en": "This one is wrong:", "zh": "这个说法是错的："},
    "interview.claim_missed_true": {"en": "This one was true, because:", "zh": "这个说法其实是对的，因为："},
    "interview.source": {"en": "Source: {source}", "zh": "出处：{source}"},
    "interview.deck_reset": {"en": "Start the deck again", "zh": "重新开始这组卡片"},
    # ------------------------------------------------------------------ scores
    "interview.right_count": {"en": "Right", "zh": "答对"},
    "interview.no_scores": {
        "en": "No answers yet in this session: practise a topic or take a mock interview.",
        "zh": "本次会话还没有作答：去按主题练习，或参加一次模拟面试。",
    },
    "interview.col_topic": {"en": "Topic", "zh": "主题"},
    "interview.col_in_bank": {"en": "Questions in the bank", "zh": "题库题数"},
    "interview.col_answered": {"en": "Answered", "zh": "已作答"},
    "interview.col_right": {"en": "Right", "zh": "答对"},
    "interview.col_wrong": {"en": "Wrong", "zh": "答错"},
    "interview.col_score": {"en": "Score", "zh": "得分"},
    "interview.bar_right": {"en": "right", "zh": "答对"},
    "interview.bar_wrong": {"en": "wrong", "zh": "答错"},
    "interview.bar_answers": {"en": "answers", "zh": "作答次数"},
    "interview.bar_score": {"en": "score", "zh": "得分"},
    "interview.reset_scores": {"en": "Reset my scores", "zh": "清空我的得分"},
}
