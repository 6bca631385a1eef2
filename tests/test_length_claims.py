"""The length claims measured on make_sum (``rlviz.experiments.length_claims``, the length page's last
section): the shipped record loads and its summaries are the record's numbers; the reading and the
question's answer follow the data (a synthetic record that comes out the other way reads the other way);
the benchmark's ``--record --from`` builds and merges the record; the figures draw every arm and seed."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

import pytest

from rlviz.experiments import length_claims as M
from rlviz.i18n import STRINGS, t
from rlviz.plots.length_claims import efficiency_figure, length_change_figure, noise_figure
from rlviz.teach.predict import PREDICTIONS, reveal

ROOT = Path(__file__).resolve().parent.parent
QUESTION = next(p for p in PREDICTIONS["length"] if p.key == "length.q_bias")


# ---------------------------------------------------------------------------------------- a synthetic record
def _arm(wrong: tuple[float, float], sums: tuple[float, float], per_1k: float, clip: float = 0.01) -> dict:
    """One arm of one seed: the wrong answers' mean length (first window, last; a window between), the
    variance of the summed log-ratio in the short bin (1-20 tokens) and the long one (21-40), the per-token
    variance the sum's / 10 and / 40, log s's the sum's / 100 and / 900, and the gain per 1,000 rollouts
    (of 12,800 rollouts)."""
    return {
        "clip_fraction": clip,
        "heldout_gain": per_1k * 12.8,
        "gain_per_1k_rollouts": per_1k,
        "gain_per_cpu_minute": per_1k * 5,
        "rollouts": 12800.0,
        "windows": ["1-10", "91-100"],
        "wrong_length": [wrong[0], (wrong[0] + wrong[1]) / 2, wrong[1]],
        "right_length": [10.0, 10.0, 11.0],
        "noise_by_length": [
            {"lo": 0, "hi": 20, "responses": 100, "tokens": 1000}
            | {"token_log_ratio_var": sums[0] / 10, "seq_log_ratio_var": sums[0], "seq_log_ratio_mean_var": sums[0] / 100},
            {"lo": 20, "hi": 40, "responses": 100, "tokens": 3000}
            | {"token_log_ratio_var": sums[1] / 40, "seq_log_ratio_var": sums[1], "seq_log_ratio_mean_var": sums[1] / 900},
        ],
    }  # fmt: skip


def _record(drift: list[float], fixed: list[float], sums=(0.5, 0.2), gspo_ahead: bool = False) -> dict:
    """GRPO's wrong answers change by ``drift`` (one value per seed), Dr.GRPO's by ``fixed``; the summed
    log-ratio's variance goes from ``sums[0]`` (short bin) to ``sums[1]`` (long bin) in every run; GSPO's
    gain per 1,000 rollouts is 0.004 above (``gspo_ahead``) or below GRPO's 0.03 in every seed."""
    seeds = {}
    for i, (d, f) in enumerate(zip(drift, fixed)):
        arms = {
            "grpo": _arm((20.0, 20.0 + d), sums, 0.03),
            "dr_grpo": _arm((20.0, 20.0 + f), sums, 0.02),
            "gspo": _arm((20.0, 20.0), sums, 0.034 if gspo_ahead else 0.026, clip=0.3),
        }
        seeds[str(i)] = {
            "seed": i,
            "date": "2026-01-01",
            "commit": "abcdef0123",
            "command": f"c --seeds {i}",
            "arms": arms,
        }
    settings = {"task": "make_sum", "arms": ["grpo", "dr_grpo", "gspo"], "steps": 30, "heldout": 8, "window": 10}
    return {"settings": settings | {"edges": [0, 20, 40]}, "seeds": seeds}


# ---------------------------------------------------------------------------------------- the shipped record
def test_the_shipped_record_loads_and_its_summaries_are_its_numbers():
    record = M.load_record()
    assert record, "rlviz/data/measured/length_claims.json is missing"
    arms = record["settings"]["arms"]
    assert set(M.BIAS_PAIR) | set(M.EFFICIENCY_PAIR) <= set(arms)
    changes, eff = M.length_change_table(record), M.efficiency_table(record)
    assert len(changes) == len(eff) == len(arms) * len(record["seeds"])
    for entry in record["seeds"].values():
        for arm, a in entry["arms"].items():
            row = changes[(changes["arm"] == arm) & (changes["seed"] == entry["seed"])].iloc[0]
            # change = mean wrong length in the last window - in the first; the benchmark computed the same
            # from its windows (wrong_length_change): two code paths, one number
            assert row["wrong_change"] == pytest.approx(a["wrong_length"][-1] - a["wrong_length"][0])
            assert row["wrong_change"] == pytest.approx(a["wrong_length_change"])
            assert row["right_change"] == pytest.approx(a["right_length_change"])
            e = eff[(eff["arm"] == arm) & (eff["seed"] == entry["seed"])].iloc[0]
            # gain per 1,000 rollouts = held-out gain / rollouts x 1000; gain = pass@1 at the end - at the start
            assert e["gain_per_1k_rollouts"] == pytest.approx(a["heldout_gain"] / a["rollouts"] * 1000)
            assert a["heldout_gain"] == pytest.approx(a["heldout_pass_at_1_end"] - a["heldout_pass_at_1_start"])
    # the question's answer is the count of seeds where GRPO's wrong answers grew (change > 0), and by more than
    # Dr.GRPO's, read from the JSON
    drift, fixed = (
        [e["arms"][a]["wrong_length"][-1] - e["arms"][a]["wrong_length"][0] for e in record["seeds"].values()]
        for a in M.BIAS_PAIR
    )
    more = sum(d > 0 and d > f for d, f in zip(drift, fixed))
    expected = "every" if more == len(drift) else "none" if more == 0 else "some"
    assert QUESTION.compute(M.question_state(record)) == expected
    assert M.bias_counts(record)["more"] == more
    text = M.provenance_text(record, "en")
    entry = next(iter(record["seeds"].values()))
    assert entry["date"] in text and entry["commit"][:7] in text and "benchmarks/length_claims.py" in text


def test_a_damaged_record_is_named(tmp_path):
    bad = tmp_path / "r.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(ValueError, match="^path: .*not valid JSON"):
        M.load_record(bad)
    bad.write_text(json.dumps({"settings": {"arms": ["grpo"]}, "seeds": {"0": {"arms": {}}}}), encoding="utf-8")
    with pytest.raises(ValueError, match="^path: .*lacks grpo"):
        M.load_record(bad)
    assert M.load_record(tmp_path / "absent.json") == {}
    with pytest.raises(ValueError, match="^record: "):
        M.length_change_table({})


# ---------------------------------------------------------------------------------------- the reading follows the data
def test_the_reading_and_the_answer_follow_the_data():
    # GRPO +2 and +1 tokens against Dr.GRPO 0 and -1: GRPO's grew, and by more, in both seeds (2 > 0, 1 > -1)
    shows = _record([2.0, 1.0], [0.0, -1.0], sums=(0.2, 0.5), gspo_ahead=True)
    # the same numbers swapped: GRPO's grew more in neither
    flips = _record([0.0, -1.0], [2.0, 1.0], sums=(0.5, 0.2), gspo_ahead=False)
    # one seed each way: GRPO +2 > 0, but -1 < +1
    mixed = _record([2.0, -1.0], [0.0, 1.0])
    # GRPO -0.5 against Dr.GRPO -1: GRPO's shrank less, but did not grow: no drift, the claim does not show
    shrank = _record([-0.5], [-1.0])
    answers = [QUESTION.compute(M.question_state(r)) for r in (shows, flips, mixed, shrank)]
    assert answers == ["every", "none", "some", "none"]
    c = M.bias_counts(mixed)
    assert (c["more"], c["drift_grew"], c["fixed_grew"], c["n"]) == (1, 1, 1, 2)
    assert c["drift_changes"] == pytest.approx((2.0, -1.0))
    verdict = reveal(QUESTION, M.question_state(flips), "every")
    assert not verdict.correct and verdict.answer == "none"

    def heads(record, lang="en"):  # each paragraph's bold heading
        return [p.split("**")[1] for p in M.reading(record, lang)]

    head = lambda key, **f: STRINGS[key]["en"].split("**")[1].format(**f)  # noqa: E731 -- its heading, formatted
    pair = {"drift": "GRPO", "fixed": "Dr.GRPO", "claimed": "GSPO", "baseline": "GRPO", "n": 2, "more": 1}
    assert heads(shows)[:3] == [head("length.claims_bias_every", **pair), head("length.claims_noise_every")] + [
        head("length.claims_eff_every", **pair)
    ]
    assert heads(flips)[:3] == [head("length.claims_bias_none", **pair), head("length.claims_noise_none")] + [
        head("length.claims_eff_none", **pair)
    ]
    assert heads(mixed)[0] == head("length.claims_bias_some", **pair)
    # the counts in the text: the sum's variance 0.5 -> 0.2 falls in all 6 runs (3 arms x 2 seeds); the per-token
    # variance (0.5/10 = 0.05 -> 0.2/40 = 0.005) too; log s's variance is the sum's / 100 (short) and / 900 (long)
    noise = M.reading(flips, "en")[1]
    assert "6 in all" in noise and "100–900 times" in noise and t("length.claims_token_falls", "en", long="21-40",
        short="1-20", arms="GRPO, Dr.GRPO, GSPO") in noise  # fmt: skip
    # the last bin's share: 100 of 200 responses per run
    assert "50.0%" in M.reading(flips, "en")[-1]
    assert all(p for p in M.reading(mixed, "zh"))
    # the command that measured it: one process per seed ("c --seeds 0", "c --seeds 1": S), or one for all
    assert "`c --seeds S`, run once per seed (S = 0, 1, 30 steps each" in M.provenance_text(mixed, "en")
    for entry in mixed["seeds"].values():
        entry["command"] = "c --seeds 0 1"
    assert "`c --seeds 0 1` (seeds 0, 1, 30 steps each" in M.provenance_text(mixed, "en")


def test_a_bin_with_few_responses_is_neither_drawn_nor_read():
    record = _record([1.0], [0.0], sums=(0.2, 0.5))
    for a in record["seeds"]["0"]["arms"].values():
        a["noise_by_length"][1]["responses"] = M.MIN_BIN_RESPONSES - 1
    table = M.noise_table(record)
    assert table["drawn"].tolist() == [True, False] * 3
    assert len(M.reading(record, "en")) == 3  # one bin left per run: no noise paragraph
    with pytest.raises(ValueError, match="^min_responses"):
        M.noise_table(record, 0)


# ---------------------------------------------------------------------------------------- building the record
def _output(seed: int, wrong_last: float, settings: dict | None = None) -> dict:
    """A benchmark output (``--out``) of one seed with the two windows the record reads."""
    arm = {k: 0.5 for k in M.ARM_KEYS} | {
        "windows": [
            {"steps": "1-10", "response_length_wrong": 20.0, "response_length_right": 10.0},
            {"steps": "11-20", "response_length_wrong": wrong_last, "response_length_right": 10.0},
        ],
        "noise_by_length": [
            {"lo": 0, "hi": 40, "responses": 60, "tokens": 600}
            | {"token_log_ratio_var": 0.1, "seq_log_ratio_var": 1.0, "seq_log_ratio_mean_var": 0.01}
        ],
    }
    s = {"task": "make_sum", "arms": ["grpo", "dr_grpo", "gspo"], "steps": 20, "heldout": 8, "window": 10}
    s |= {"edges": [0, 40], "seeds": [seed], "date": "2026-02-02", "commit": "f" * 40, "command": "x"}
    return {
        "settings": s | (settings or {}),
        "seeds": [{"seed": seed, "wall_s": 9.6, "arms": dict.fromkeys(s["arms"], arm)}],
    }


def test_the_benchmark_builds_and_merges_the_record(tmp_path):
    spec = importlib.util.spec_from_file_location("length_claims_bench", ROOT / "benchmarks" / "length_claims.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    files = []
    for seed, last in ((0, 21.0), (1, 19.0)):
        files.append(tmp_path / f"s{seed}.json")
        files[-1].write_text(json.dumps(_output(seed, last)), encoding="utf-8")
    record = tmp_path / "measured" / "r.json"
    bench.write_record([json.loads(f.read_text()) for f in files], files, record)
    first = M.load_record(record)
    assert list(first["seeds"]) == ["0", "1"]
    assert first["seeds"]["1"]["commit"] == "f" * 40 and first["seeds"]["1"]["wall_s"] == 10  # round(9.6)
    assert M.length_change_table(first)["wrong_change"].tolist() == pytest.approx([1.0, -1.0] * 3)  # 21-20, 19-20
    # seed 1 measured again: it replaces its entry, seed 0 stays
    again = _output(1, 25.0)
    bench.write_record([again], [None], record)
    merged = M.load_record(record)
    assert list(merged["seeds"]) == ["0", "1"]
    assert merged["seeds"]["1"]["arms"]["grpo"]["wrong_length"] == [20.0, 25.0]
    assert merged["seeds"]["0"] == first["seeds"]["0"]
    # other settings (more steps): the record is replaced whole, never mixed
    bench.write_record([_output(2, 20.0, {"steps": 40})], [None], record)
    assert list(M.load_record(record)["seeds"]) == ["2"]
    # an output of an older benchmark (no commit): the file's date and the last commit before its run
    old = _output(3, 20.0)
    for k in ("date", "commit", "command"):
        del old["settings"][k]
    (tmp_path / "old.json").write_text(json.dumps(old), encoding="utf-8")
    prov = bench.provenance(old, tmp_path / "old.json")
    assert prov["commit_inferred"] and prov["command"].startswith("python benchmarks/length_claims.py --seeds 3")
    with pytest.raises(ValueError, match="^outputs: measured at different settings"):
        M.record_from_outputs([_output(0, 20.0), _output(1, 20.0, {"window": 5})], [{}, {}])


# ---------------------------------------------------------------------------------------- the figures
def test_the_figures_draw_every_arm_and_seed_in_registry_colours():
    from rlviz.plots import algorithm_style

    record = _record([2.0, -1.0], [0.0, 1.0])
    change = length_change_figure(M.length_change_table(record), {})
    # two panels x three arms, one trace each, two seeds a trace
    assert [len(tr.y) for tr in change.data] == [2] * 6
    assert (
        change.data[0].y == pytest.approx((2.0, -1.0))
        and change.data[0].marker.color == algorithm_style("grpo")["color"]
    )
    noise = noise_figure(M.noise_table(record), {})
    assert len(noise.data) == 9 and all(len(tr.y) == 2 for tr in noise.data)  # 3 panels x 3 arms, 2 bins
    eff = efficiency_figure(M.efficiency_table(record), {})
    assert all(math.isfinite(v) for tr in eff.data for v in tr.y)
    with pytest.raises(ValueError, match="^table: lacks"):
        noise_figure(M.length_change_table(record), {})


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_efficiency_reading_counts_the_seeds_behind(lang):
    """Found by a new learner: with GSPO ahead in 2 of 3 seeds the reading said "behind in the others" when
    one seed was left. It now counts them: 3 seeds, GSPO 0.034 > GRPO 0.03 per 1,000 rollouts in the
    first ``ahead``, 0.026 < 0.03 in the rest (behind = 3 - ahead), 0.03 = 0.03 in a seed level with it."""
    pair = {"claimed": "GSPO", "baseline": "GRPO", "n": 3}

    def efficiency(per_1k: list[float]) -> str:
        record = _record([2.0, 1.0, 0.0], [0.0, -1.0, 0.0], gspo_ahead=True)
        for entry, value in zip(record["seeds"].values(), per_1k):
            entry["arms"]["gspo"]["gain_per_1k_rollouts"] = value
        return M.reading(record, lang)[2]

    level = lambda n: t("length.claims_eff_level", lang, level=n)  # noqa: E731
    head = lambda **f: STRINGS["length.claims_eff_some"][lang].split("**")[1].format(**pair, **f)  # noqa: E731
    assert head(ahead=2, behind=1, level="") in efficiency([0.034, 0.034, 0.026])
    assert head(ahead=1, behind=2, level="") in efficiency([0.034, 0.026, 0.026])
    assert head(ahead=1, behind=1, level=level(1)) in efficiency([0.034, 0.026, 0.03])
    assert "others" not in efficiency([0.034, 0.034, 0.026]) and "其余" not in efficiency([0.034, 0.034, 0.026])
    if lang == "en":
        assert "ahead in 2 of 3 seeds, behind in 1." in efficiency([0.034, 0.034, 0.026])
    else:
        assert "3 个种子中 2 个领先，1 个落后。" in efficiency([0.034, 0.034, 0.026])
