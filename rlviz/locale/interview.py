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
        "- A timed mock interview drawn from every topic, reviewed at the end, and a score per topic for the "
        "session.\n"
        "- A deck of common wrong claims from prep material, each with its correction and source.",
        "zh": "- 按主题整理的面试题库：先写下答案，再看 rlviz 用训练所用的同一份代码算出的值、解释，以及证明它的页面链接。\n"
        "- 从各个主题抽题的限时模拟面试，结束时逐题复盘；本次会话按主题记分。\n"
        "- 一组备考资料里常见的错误说法，每条附有更正和出处。",
    },
    "interview.title": {"en": "Interview prep", "zh": "面试准备"},
    "interview.lede": {
        "en": "Practise for an interview on RL for LLMs: commit to an answer, then see the value rlviz computes, "
        "why, and the page that proves it. Or take a timed mock interview, or judge common wrong claims.",
        "zh": "大模型强化学习面试练习：先提交答案，再看 rlviz 算出的值、原因和证明它的页面；"
        "也可以限时模拟面试，或辨析常见的错误说法。",
    },
    "interview.notes": {"en": "About the bank", "zh": "关于题库"},
    "interview.intro": {
        "en": "The bank holds {questions} {questions:plural:question|questions} and {claims} common wrong claims. No answer here is typed in: "
        "each is computed when it is revealed, by the same rlviz code that trains, and each question links to the "
        "page that shows why. Practise one topic at a time, take a timed mock interview of {size} {size:plural:question|questions}, or "
        "go through the wrong claims. Your scores stay in this browser session only.",
        "zh": "题库里有 {questions} 道题和 {claims} 条常见的错误说法。这里没有手写的答案：每个答案都在揭晓时由训练所用的"
        "同一份 rlviz 代码算出，每道题都链接到说明原因的页面。可以按主题逐个练习，参加 {size} 道题的限时模拟面试，"
        "或者逐条辨析错误说法。你的得分只保存在当前浏览器会话里。",
    },
    "interview.mode": {"en": "Mode", "zh": "模式"},
    "interview.mode_practice": {"en": "Practice by topic", "zh": "按主题练习"},
    "interview.mode_mock": {"en": "Mock interview", "zh": "模拟面试"},
    "interview.mode_claims": {"en": "Wrong claims deck", "zh": "错误说法卡片"},
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
    "interview.right": {"en": "Right: {answer}.", "zh": "答对了：{answer}。"},
    "interview.wrong": {
        "en": "Not quite: you said {guess}, the computed answer is {answer}.",
        "zh": "不太对：你的答案是 {guess}，算出来的是 {answer}。",
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
        "you finish early). Each new mock draws a different set.",
        "zh": "用侧边栏的随机种子从题库中抽出 {n} 道题，分布在各个主题上；限时 {minutes} 分钟。每次提交一道题的答案："
        "结束前（或时间用完、或你提前交卷前）不揭晓任何答案。每次新的模拟面试都会抽到不同的题目。",
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
        "en": "Each card is a statement that circulates in interview prep material. Would you agree with it in an "
        "interview, or push back? Then read the correction.",
        "zh": "每张卡片都是面试备考资料里流传的一种说法。面试时你会同意，还是反驳？然后看更正。",
    },
    "interview.card_position": {"en": "Card {i} of {n}", "zh": "第 {i} 张，共 {n} 张"},
    "interview.caught": {
        "en": "Caught {caught} of the {seen} {seen:plural:claim|claims} you judged ({n} in the deck).",
        "zh": "你判断过的 {seen} 条里识破了 {caught} 条（共 {n} 条）。",
    },
    "interview.agree": {"en": "I'd agree", "zh": "我会同意"},
    "interview.push_back": {"en": "I'd push back", "zh": "我会反驳"},
    "interview.claim_caught": {"en": "Right to push back: the claim is wrong.", "zh": "反驳得对：这个说法是错的。"},
    "interview.claim_missed": {"en": "The claim is wrong:", "zh": "这个说法是错的："},
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
