"""The glossary's hover help (``app_common.template.glossed``): the first use of a term is wrapped, in
the language asked for, and a term inside another word or version number is left alone."""

from app_common.template import glossed
from rlviz.i18n import t


def test_the_k1_of_kimi_k1_5_is_no_kl_estimator_but_a_later_k1_is():
    # found by a learner on the length page: "Kimi k1.5" carried the KL definition on "k1"
    text = glossed("Kimi k1.5 shapes length; the k1 estimator is unbiased.", "en")
    assert "Kimi k1.5" in text  # untouched
    assert text.count("<abbr") == 1 and ">k1</abbr> estimator" in text


def test_a_term_is_wrapped_once_with_the_definition_of_the_language_asked_for():
    for language in ("en", "zh"):
        name = t("glossary.advantage.names", language).split("|")[0]
        text = glossed(f"{name} {name}", language)
        assert text.count("<abbr") == 1, text
        definition = t("glossary.advantage.def", language)
        assert definition.split("。")[0].split(".")[0][:20] in text  # its own language's definition


def test_formulas_code_and_links_are_left_as_they_are():
    text = glossed("$k1$ `k1` [k1](https://example.org/k1) k1", "en")
    assert text.count("<abbr") == 1 and text.startswith("$k1$ `k1` [k1](https://example.org/k1) <abbr")
