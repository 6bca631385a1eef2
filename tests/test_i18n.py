"""The string table is complete: every key in both languages, same placeholders, no fallback."""

from __future__ import annotations

import re
import string

import pytest

from rlviz.core.estimators import ESTIMATORS
from rlviz.core.kl import KL_SPECS
from rlviz.core.objectives import ALGORITHMS
from rlviz.i18n import DEFAULT_LANG, LANGS, STRINGS, latex_text, t

METRICS = (
    "reward_mean pass_at_1 pass_at_group distinct_right response_length_mean response_length_max overlong_fraction group_reward_std "
    "zero_adv_group_fraction entropy kl_ref ratio_mean ratio_min ratio_max clip_fraction clip_fraction_low "
    "clip_fraction_high gate_weight_mean grad_token_fraction grad_norm seconds rollouts kept_groups"
).split()

CJK = re.compile(r"[\u4e00-\u9fff]")
TEXT = re.compile(r"\\text\{([^{}]*)\}")
# inside \text{} but notation, the same in both languages: a symbol's name (pi_old, eps_low, eps_high,
# eps_h, eps_l, R_batch, L_max, tau_pos, tau_neg, D_KL), Clip-Cov's bounds (lb, ub) and KL-Cov's top-k cov
NOTATION = {"old", "low", "high", "h", "l", "batch", "max", "pos", "neg", "KL", "lb", "ub", "top-", "cov"}
# every formula of the registries (objectives, advantage estimators, KL estimators), by where it lives
FORMULAS = {
    **{f"objective:{n}": s.latex for n, s in ALGORITHMS.items()},
    **{f"estimator:{n}": s.latex for n, s in ESTIMATORS.items()},
    **{f"kl:{n}": s.latex for n, s in KL_SPECS.items()},
}


def _fields(text: str) -> set[str] | None:
    """The format fields of a text; None for a literal text with LaTeX braces (never formatted)."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}
    except ValueError:
        return None


def test_languages():
    assert set(LANGS) == {"en", "zh"}
    assert DEFAULT_LANG in LANGS


@pytest.mark.parametrize("key", sorted(STRINGS))
def test_every_key_has_both_languages(key):
    entry = STRINGS[key]
    assert set(entry) == set(LANGS), f"{key}: languages {sorted(entry)}"
    for lang in LANGS:
        assert isinstance(entry[lang], str) and entry[lang].strip(), f"{key}/{lang} is empty"


@pytest.mark.parametrize("key", sorted(STRINGS))
def test_placeholders_match(key):
    assert _fields(STRINGS[key]["en"]) == _fields(STRINGS[key]["zh"]), key


def test_chinese_is_chinese():
    # every Chinese text that differs from the English one contains Chinese characters
    for key, entry in STRINGS.items():
        if entry["zh"] != entry["en"]:
            assert CJK.search(entry["zh"]), f"{key}: zh text has no Chinese characters"
    assert CJK.search(t("app.title", "zh"))


def test_missing_key_raises():
    with pytest.raises(KeyError):
        t("no.such.key", "en")


def test_unknown_language_raises():
    with pytest.raises(ValueError, match="lang"):
        t("nav.home", "fr")


def test_format():
    assert "0.5" in t("home.parent", "en", parent="0.5")
    assert t("side.model", "zh", model="X") == "模型：X"


def test_plural_follows_the_number():
    # "{k} {k:plural:update|updates} at learning rate {lr}": the singular for exactly 1 (an int, a
    # float or its text), the plural for anything else; Chinese has no such field
    one = t("teach.moe_route.q", "en", k=1, lr="0.001")
    assert "1 update at" in one and "(s)" not in one, one
    assert "4 updates at" in t("teach.moe_route.q", "en", k=4, lr="0.001")
    assert "1.0 updates at" in t("teach.moe_route.q", "en", k=1.0, lr="0.001")  # a decimal: plural
    assert "1 update at" in t("teach.moe_route.q", "en", k="1", lr="0.001")
    assert "0 updates at" in t("teach.moe_route.q", "en", k=0, lr="0.001")
    both = t("length.group_effect", "en", reversed=1, broken=2)
    assert both.startswith("DAPO's penalty reorders this group by length: 1 pair swaps order and 2 ties on "), both
    assert "reward are broken" in both
    assert "reward is broken" in t("length.group_effect", "en", reversed=2, broken=1)
    assert "{" not in t("teach.moe_route.q", "zh", k=1, lr="0.001")


def test_counts_of_one_read_in_the_singular():
    # found by a new user: "Finished: 1 steps per algorithm.", "k = 1 steps behind", "1 tokens"
    assert "Finished: 1 step per algorithm." in t("live.finished", "en", total=1)
    assert "2 steps per algorithm" in t("live.finished", "en", total=2)
    assert t("confusions.ratio_one.q", "en", mu=1, mb=1, n=1).endswith(
        "1 optimizer step on the same rollouts. Does PPO's clip act on it?"
    )
    assert t("confusions.ratio_one.q", "en", mu=2, mb=2, n=4).endswith("Does PPO's clip act on any of them?")
    assert t("formula.n_differ", "en", n=1, total=3) == "At this token 1 of 3 numbers differs."
    assert t("formula.n_differ", "en", n=2, total=3) == "At this token 2 of 3 numbers differ."
    waiting = t("run.queued", "en", ahead=1)
    assert "1 training step of other sessions is ahead" in waiting, waiting
    from rlviz.teach.export import export_config

    one = export_config("grpo", train_config={"mini_batches": 2, "prompts_per_step": 1, "group_size": 2})
    notes = " ".join(n["en"] for n in one.notes)  # an export note, formatted by rlviz.i18n.fill
    assert "counts prompts: 1 prompt does not divide into 2 mini-batches." in notes, notes


def test_no_english_string_hedges_its_plural():
    hedged = [k for k, v in STRINGS.items() if re.search(r"[a-z]\((e?s)\)", v["en"]) and "row(s)" not in v["en"]]
    assert not hedged, hedged  # "{n} {n:plural:step|steps}", not "step(s)"


def test_a_malformed_plural_spec_raises():
    from rlviz.i18n import _FORMATTER

    with pytest.raises(ValueError, match="format_spec"):
        _FORMATTER.format("{n:plural:step}", n=2)


@pytest.mark.parametrize("metric", METRICS)
def test_every_metric_has_a_plot_label(metric):
    for lang in LANGS:
        label = t(f"metric.{metric}", lang)
        # plot labels cannot render LaTeX inside Streamlit
        assert "$" not in label and "\\" not in label, label


@pytest.mark.parametrize("where", sorted(FORMULAS))
def test_registry_formulas_show_their_words_in_each_language(where):
    # a registry entry's formula with an English annotation (\text{dual clip}) and no tex.* entry for
    # it fails here: the Chinese page would show the English words
    latex = FORMULAS[where]
    assert latex_text(latex, "en") == latex
    for words in TEXT.findall(latex_text(latex, "zh")):
        core = words.strip(" ,:;")
        assert not core or core in NOTATION or CJK.search(core), (
            f"{where}: \\text{{{words}}} shows in English in Chinese; add a tex.* entry to rlviz/locale/tex.py"
        )


def test_latex_text_translates_annotations_and_keeps_notation():
    latex = r"\pi_\text{old},\ \text{dual clip }(A<0),\ \text{region: }A>0,\ \text{unknown words}"
    assert (
        latex_text(latex, "zh") == r"\pi_\text{old},\ \text{双裁剪 }(A<0),\ \text{信任域: }A>0,\ \text{unknown words}"
    )
    assert latex_text(latex, "en") == latex and latex_text("x^2", "zh") == "x^2"
    with pytest.raises(ValueError, match="lang"):
        latex_text(latex, "fr")
    english = [v["en"] for k, v in STRINGS.items() if k.startswith("tex.")]
    assert len(english) == len(set(english))  # one Chinese text per English annotation
    assert all(w == w.strip(" ,:;") for w in english)  # the words alone: the spaces around them stay in the formula


def test_command_line_flags_are_code_spans():
    # Streamlit's Markdown turns "--" into a dash outside code ("app.py -- --model-dir" showed as
    # "app.py — --model-dir", which cannot be copied): a command-line flag is written as code
    for key, texts in STRINGS.items():
        for lang, text in texts.items():
            outside_code = re.sub(r"`[^`]*`", "", text)
            assert not re.search(r"(^|\s)--(\w|\s)", outside_code), (key, lang, text)
