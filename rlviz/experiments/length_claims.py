"""The sources' length claims as measured on the make_sum model: the shipped record, its summaries and its reading.

``benchmarks/length_claims.py`` runs GRPO, Dr.GRPO and GSPO side by side on make_sum over seeds and, with
``--record``, writes :data:`RECORD` (``rlviz/data/measured/length_claims.json``) through
:func:`record_from_outputs` and :func:`merge_records`: per seed and arm, the wrong- and right-answer
lengths of the first and last window of steps, the held-out pass@1 gain, the gain per 1,000 rollouts, the
clip fraction and the token log-ratio noise by response-length bin (``rlviz.lm.length_stats.noise_by_length``).
The length page reads it with :func:`load_record`, draws :func:`length_change_table`,
:func:`noise_table` and :func:`efficiency_table` (``rlviz.plots.length_claims``) and states
:func:`reading`, whose every count and sign is computed here from the record, the wording chosen by the
outcome, so that a measurement that came out the other way reads correctly.

The claims (``../shared/teaching.md``): 18, Dr.GRPO's length bias (Liu et al., arXiv 2503.20783, section
3.1: GRPO's 1/|o_i| lets wrong answers grow long); 8 and 10, token-ratio noise building up with length, and
GSPO's length-normalised sequence ratio (Zheng et al., arXiv 2507.18071, eq. 7: s = (Π_t r_t)^(1/|y|));
11, GSPO's efficiency against GRPO (same paper, section 5). The pairs each claim compares are data
(:data:`BIAS_PAIR`, :data:`EFFICIENCY_PAIR`), never a branch on an objective's name.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from rlviz.core.objectives import get_algorithm
from rlviz.i18n import LIST_SEPARATOR, t
from rlviz.lm.tasks import get_task

__all__ = [
    "BIAS_CHOICES",
    "BIAS_PAIR",
    "EFFICIENCY_PAIR",
    "MIN_BIN_RESPONSES",
    "NOISE_KINDS",
    "RECORD",
    "answer_bias",
    "bias_applies",
    "bias_counts",
    "efficiency_table",
    "explain_bias",
    "fields_bias",
    "heldout_prompts",
    "length_change_table",
    "load_record",
    "merge_records",
    "noise_table",
    "provenance_text",
    "question_state",
    "reading",
    "record_from_outputs",
    "task_label",
]

RECORD = Path(__file__).resolve().parent.parent / "data" / "measured" / "length_claims.json"
# claim 18: (the objective whose 1/|o| the claim says lets wrong answers drift longer, the one that drops it)
BIAS_PAIR = ("grpo", "dr_grpo")
EFFICIENCY_PAIR = ("gspo", "grpo")  # claim 11: (the objective claimed more efficient, its baseline)
BIAS_CHOICES = ("every", "some", "none")  # in how many seeds the first arm's wrong answers grew more
# the three noise figures of a length bin (rlviz.lm.length_stats.noise_by_length's keys)
NOISE_KINDS = ("token_log_ratio_var", "seq_log_ratio_var", "seq_log_ratio_mean_var")
MIN_BIN_RESPONSES = 50  # a length bin with fewer responses (in any seed) is neither drawn nor read
# what the settings of a measurement are: two measurements merge only when these agree
SETTING_KEYS = ("task", "arms", "steps", "heldout", "window", "edges")
ARM_KEYS = (  # per arm and seed, copied from the benchmark's output
    "clip_fraction",
    "heldout_pass_at_1_start",
    "heldout_pass_at_1_end",
    "heldout_gain",
    "rollouts",
    "gain_per_1k_rollouts",
    "gain_per_cpu_minute",
    "cpu_per_step_s",
    "wrong_length_change",
    "right_length_change",
)


# ---------------------------------------------------------------------------------------- the record
def record_from_outputs(outputs: Sequence[Mapping], provenance: Sequence[Mapping]) -> dict[str, Any]:
    """The record of one or more outputs of ``benchmarks/length_claims.py --out`` (each a dict with
    ``settings`` and ``seeds``), one provenance per output (``date``, ``commit``, ``command``; and
    ``commit_inferred`` when the output did not name its commit).

    Returns:
        ``{"settings": {...}, "seeds": {"<seed>": {"seed", "date", "commit", "command", "wall_s",
        "arms": {arm: {...}}}}}``, each arm with :data:`ARM_KEYS`, ``windows`` (the steps of the first
        and last window: ``"1-10"``, ``"91-100"``), ``wrong_length`` / ``right_length`` (the mean length in
        tokens of the step's wrong / right responses, per window) and ``noise_by_length`` (per bin ``lo``,
        ``hi``, ``responses``, ``tokens`` and :data:`NOISE_KINDS`).

    Raises:
        ValueError: ``outputs`` empty, of another length than ``provenance``, without ``settings`` /
            ``seeds``, or of different settings (:data:`SETTING_KEYS`).
    """
    if not outputs:
        raise ValueError("outputs: no benchmark output given")
    if len(outputs) != len(provenance):
        raise ValueError(f"provenance: {len(provenance)} given for {len(outputs)} outputs")
    settings = None
    seeds: dict[str, Any] = {}
    for out, prov in zip(outputs, provenance):
        if not isinstance(out, Mapping) or "settings" not in out or "seeds" not in out:
            raise ValueError("outputs: each must be a benchmark output with 'settings' and 'seeds'")
        own = {k: _plain(out["settings"].get(k)) for k in SETTING_KEYS}
        if settings is not None and own != settings:
            raise ValueError(f"outputs: measured at different settings ({settings} and {own})")
        settings = own
        for run in out["seeds"]:
            arms = {}
            for name, a in run["arms"].items():
                w = a["windows"]
                arms[name] = {k: float(a[k]) for k in ARM_KEYS} | {
                    "windows": [w[0]["steps"], w[-1]["steps"]],
                    "wrong_length": [float(x["response_length_wrong"]) for x in w],
                    "right_length": [float(x["response_length_right"]) for x in w],
                    "noise_by_length": [
                        {k: (int(b[k]) if k in ("lo", "hi", "responses", "tokens") else float(b[k])) for k in b}
                        for b in a["noise_by_length"]
                    ],
                }
            seeds[str(int(run["seed"]))] = {
                "seed": int(run["seed"]),
                **{k: prov[k] for k in ("date", "commit", "command") if k in prov},
                **({"commit_inferred": True} if prov.get("commit_inferred") else {}),
                "wall_s": round(float(run["wall_s"])),
                "arms": arms,
            }
    return {"settings": settings, "seeds": dict(sorted(seeds.items(), key=lambda kv: int(kv[0])))}


def merge_records(old: Mapping | None, new: Mapping) -> dict[str, Any]:
    """``new``'s seeds over ``old``'s: a seed measured again replaces its entry, the others stay; at other
    settings ``new`` replaces ``old`` whole (numbers of two settings are never mixed)."""
    if not old or old.get("settings") != new["settings"]:
        return dict(new)
    seeds = dict(old["seeds"]) | dict(new["seeds"])
    return {"settings": new["settings"], "seeds": dict(sorted(seeds.items(), key=lambda kv: int(kv[0])))}


def _plain(value):
    return list(value) if isinstance(value, (list, tuple)) else value


def load_record(path: Path | str = RECORD) -> dict[str, Any]:
    """The shipped record (:func:`record_from_outputs`' shape); ``{}`` when the file is absent.

    Raises:
        ValueError: naming ``path``: not valid JSON, no ``settings`` / ``seeds``, no seed, or a seed
            without every arm of its settings.
    """
    path = Path(path)
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"path: {path} is not valid JSON ({exc})") from None
    if not isinstance(data, Mapping) or not isinstance(data.get("seeds"), Mapping) or "settings" not in data:
        raise ValueError(f"path: {path} has no 'settings' and 'seeds'")
    if not data["seeds"]:
        raise ValueError(f"path: {path} holds no seed")
    arms = data["settings"].get("arms") or []
    for key, entry in data["seeds"].items():
        missing = [a for a in arms if a not in entry.get("arms", {})]
        if missing:
            raise ValueError(f"path: {path}, seed {key} lacks {', '.join(missing)}")
    return dict(data)


def _check(record: Mapping) -> None:
    if not record or not record.get("seeds"):
        raise ValueError("record: empty (no measurement shipped)")


def _runs(record: Mapping):
    for entry in record["seeds"].values():
        for arm in record["settings"]["arms"]:
            yield entry["seed"], arm, entry["arms"][arm]


# ---------------------------------------------------------------------------------------- summaries
def length_change_table(record: Mapping) -> pd.DataFrame:
    """Per arm and seed: the mean length (tokens) of the wrong answers in the first and the last window of
    steps, its change (last - first; NaN where a window had no wrong answer), the same of the right
    answers' change, and the held-out pass@1 gain (end - start, 57 held-out prompts x ``heldout`` samples).

    Returns:
        columns ``arm, title, seed, wrong_first, wrong_last, wrong_change, right_change, heldout_gain``,
        in the record's arm order, seeds ascending.

    Raises:
        ValueError: ``record`` is empty.
    """
    _check(record)
    rows = []
    for seed, arm, a in _runs(record):
        rows.append(
            {
                "arm": arm,
                "title": get_algorithm(arm).title,
                "seed": seed,
                "wrong_first": a["wrong_length"][0],
                "wrong_last": a["wrong_length"][-1],
                "wrong_change": a["wrong_length"][-1] - a["wrong_length"][0],
                "right_change": a["right_length"][-1] - a["right_length"][0],
                "heldout_gain": a["heldout_gain"],
            }
        )
    return _ordered(pd.DataFrame(rows), record)


def noise_table(record: Mapping, min_responses: int = MIN_BIN_RESPONSES) -> pd.DataFrame:
    """Per arm, seed and response-length bin (tokens ``lo + 1`` to ``hi``): the responses in it and the
    variance of the token log-ratio log(π/π_old) per token, of its sum over a response and of its mean
    (the log of GSPO's sequence ratio s), pooled over every off-policy update of the run; ``drawn``: the
    bin holds at least ``min_responses`` responses in every seed of that arm.

    Returns:
        columns ``arm, title, seed, lo, hi, bin, responses,`` :data:`NOISE_KINDS` ``, drawn``.

    Raises:
        ValueError: ``record`` is empty, or ``min_responses`` < 1.
    """
    _check(record)
    if min_responses < 1:
        raise ValueError(f"min_responses: must be >= 1, got {min_responses}")
    rows = [
        {"arm": arm, "title": get_algorithm(arm).title, "seed": seed, "lo": b["lo"], "hi": b["hi"]}
        | {"bin": f"{b['lo'] + 1}-{b['hi']}", "responses": b["responses"]}
        | {k: float(b[k]) for k in NOISE_KINDS}
        for seed, arm, a in _runs(record)
        for b in a["noise_by_length"]
    ]
    frame = _ordered(pd.DataFrame(rows), record)
    fewest = frame.groupby(["arm", "lo"])["responses"].transform("min")
    finite = frame[list(NOISE_KINDS)].apply(lambda c: c.map(math.isfinite)).all(axis=1)
    frame["drawn"] = (fewest >= min_responses) & finite
    return frame


def efficiency_table(record: Mapping) -> pd.DataFrame:
    """Per arm and seed: the held-out pass@1 gain, the gain per 1,000 training rollouts (gain / rollouts x
    1000), per CPU minute of training, and the clip fraction (mean over steps of the share of response
    tokens whose ratio the objective clipped).

    Returns:
        columns ``arm, title, seed, heldout_gain, gain_per_1k_rollouts, gain_per_cpu_minute, clip_fraction``.

    Raises:
        ValueError: ``record`` is empty.
    """
    _check(record)
    keys = ("heldout_gain", "gain_per_1k_rollouts", "gain_per_cpu_minute", "clip_fraction")
    rows = [
        {"arm": arm, "title": get_algorithm(arm).title, "seed": seed} | {k: float(a[k]) for k in keys}
        for seed, arm, a in _runs(record)
    ]
    return _ordered(pd.DataFrame(rows), record)


def _ordered(frame: pd.DataFrame, record: Mapping) -> pd.DataFrame:
    order = {a: i for i, a in enumerate(record["settings"]["arms"])}
    by = ["arm", "seed", "lo"] if "lo" in frame else ["arm", "seed"]
    return frame.sort_values(by, key=lambda c: c.map(order) if c.name == "arm" else c, kind="stable").reset_index(
        drop=True
    )


# ---------------------------------------------------------------------------------------- the question
def bias_counts(record: Mapping, pair: tuple[str, str] = BIAS_PAIR) -> dict[str, Any]:
    """Claim 18 counted over seeds: ``drift`` / ``fixed`` (the pair's registry names: the objective whose
    1/|o| the claim says lets wrong answers drift longer, and the one that drops it), ``n`` (seeds),
    ``drift_changes`` / ``fixed_changes`` (each seed's wrong-answer length change, last window minus
    first, tokens), ``drift_grew`` / ``fixed_grew`` (seeds where it is > 0) and ``more`` (seeds where the
    claim shows: the first arm's wrong answers grew, and by more than the second's, :func:`_shows`).

    Raises:
        ValueError: ``record`` is empty, or ``pair`` names an arm it did not measure.
    """
    _check(record)
    missing = [a for a in pair if a not in record["settings"]["arms"]]
    if missing:
        raise ValueError(f"pair: {', '.join(missing)} not measured (arms: {record['settings']['arms']})")
    table = length_change_table(record)
    drift, fixed = (table[table["arm"] == a]["wrong_change"].tolist() for a in pair)
    return {
        "drift": pair[0],
        "fixed": pair[1],
        "n": len(drift),
        "drift_changes": tuple(drift),
        "fixed_changes": tuple(fixed),
        "drift_grew": sum(d > 0 for d in drift),
        "fixed_grew": sum(f > 0 for f in fixed),
        "more": sum(_shows(d, f) for d, f in zip(drift, fixed)),
    }


def _shows(drift: float, fixed: float) -> bool:
    """Claim 18 in one seed: the wrong answers of the objective with 1/|o| grew longer (change > 0, tokens),
    and by more than those of the one without it (a shrinking that is smaller is no drift)."""
    return drift > 0 and drift > fixed


def question_state(record: Mapping | None = None) -> dict[str, Any]:
    """The state the page's question on claim 18 is asked at (``length.q_bias``): the pair, the windows
    and each seed's wrong-answer length change from ``record`` (default: the shipped one).

    Raises:
        ValueError: the record is empty or damaged (:func:`load_record`, :func:`bias_counts`).
    """
    record = load_record() if record is None else record
    c = bias_counts(record)
    first, last = next(iter(record["seeds"].values()))["arms"][c["drift"]]["windows"]
    keys = ("drift", "fixed", "drift_changes", "fixed_changes")
    return {k: c[k] for k in keys} | {"first": first, "last": last}


def _asked(state: Mapping[str, Any]) -> Mapping[str, Any]:
    """``state`` when it is a :func:`question_state`; another page state (the shaping sliders', a lesson's):
    the shipped record's."""
    return state if "drift_changes" in state else question_state()


def bias_applies(state: Mapping[str, Any]) -> bool:
    """The question is asked at a measured state (:func:`question_state`), not at the sliders' state."""
    return "drift_changes" in state


def answer_bias(state: Mapping[str, Any]) -> str:
    """One of :data:`BIAS_CHOICES`: in ``every`` / ``some`` / ``none`` of the seeds the first arm's wrong
    answers grew (last window minus first, tokens), and by more than the second's: claim 18 shows in that
    many (:func:`_shows`)."""
    s = _asked(state)
    more = sum(_shows(d, f) for d, f in zip(s["drift_changes"], s["fixed_changes"]))
    return "every" if more == len(s["drift_changes"]) else "none" if more == 0 else "some"


def _signed(values: Sequence[float]) -> str:
    return " / ".join(f"{v:+.2f}".replace("-", "−") for v in values)


def fields_bias(state: Mapping[str, Any]) -> dict[str, str]:
    """The question's fields: the pair's titles, the number of seeds and the first and last window."""
    s = _asked(state)
    return {
        "drift": get_algorithm(s["drift"]).title,
        "fixed": get_algorithm(s["fixed"]).title,
        "n": str(len(s["drift_changes"])),
        "first": str(s["first"]),
        "last": str(s["last"]),
    }


def explain_bias(state: Mapping[str, Any]) -> dict[str, str]:
    """:func:`fields_bias` and each seed's changes (``drift_changes``, ``fixed_changes``) and the count."""
    s = _asked(state)
    more = sum(_shows(d, f) for d, f in zip(s["drift_changes"], s["fixed_changes"]))
    return fields_bias(s) | {
        "drift_changes": _signed(s["drift_changes"]),
        "fixed_changes": _signed(s["fixed_changes"]),
        "more": str(more),
    }


# ---------------------------------------------------------------------------------------- the reading
def _span(values: Sequence[float], fmt: str = ".2f") -> str:
    lo, hi = min(values), max(values)
    return f"{lo:{fmt}}" if f"{lo:{fmt}}" == f"{hi:{fmt}}" else f"{lo:{fmt}}–{hi:{fmt}}"


def _outcome(count: int, n: int) -> str:
    return "every" if count == n else "none" if count == 0 else "some"


def reading(record: Mapping, lang: str) -> list[str]:
    """The reading of the record in ``lang``, one paragraph per claim (18; 8 and 10; 11), then what the
    measurement does not show: every count, sign and range computed here, the wording chosen by the outcome.

    - claim 18: in how many seeds each arm of :data:`BIAS_PAIR`'s wrong answers grew (:func:`bias_counts`),
      and in how many the first's grew more than the second's; each arm's held-out gains;
    - claims 8 and 10: in how many (arm, seed) runs the per-token variance, and the variance of the sum,
      is larger in the longest drawn bin than in the shortest; how many times smaller the variance of
      the mean (log s) is than that of the sum, over every drawn bin;
    - claim 11: in how many seeds the claimed arm's gain per 1,000 rollouts is above the baseline's;
      each arm's clip fractions;
    - the share of the responses in the last length bin (how often an answer came near the limit).

    Raises:
        ValueError: ``record`` is empty; ``lang`` is not a language of the app.
    """
    t("length.claims_header", lang)  # the language checked before any work
    c = bias_counts(record)
    changes = length_change_table(record)
    title = {a: get_algorithm(a).title for a in record["settings"]["arms"]}
    gains = {a: _span(changes[changes["arm"] == a]["heldout_gain"]) for a in (c["drift"], c["fixed"])}
    first, last = next(iter(record["seeds"].values()))["arms"][c["drift"]]["windows"]
    sep = LIST_SEPARATOR[lang]
    paragraphs = [
        t(
            f"length.claims_bias_{_outcome(c['more'], c['n'])}",
            lang,
            drift=title[c["drift"]],
            fixed=title[c["fixed"]],
            n=c["n"],
            first=first,
            last=last,
            drift_grew=c["drift_grew"],
            fixed_grew=c["fixed_grew"],
            more=c["more"],
            drift_changes=_signed(c["drift_changes"]),
            fixed_changes=_signed(c["fixed_changes"]),
            drift_gain=gains[c["drift"]],
            fixed_gain=gains[c["fixed"]],
        )
    ]

    noise = noise_table(record)
    drawn = noise[noise["drawn"]]
    token_up = sum_up = runs = 0
    for _, run in drawn.groupby(["arm", "seed"], sort=False):
        if len(run) < 2:
            continue
        runs += 1
        token_up += run["token_log_ratio_var"].iloc[-1] > run["token_log_ratio_var"].iloc[0]
        sum_up += run["seq_log_ratio_var"].iloc[-1] > run["seq_log_ratio_var"].iloc[0]
    if runs:
        ratio = drawn["seq_log_ratio_var"] / drawn["seq_log_ratio_mean_var"]
        ratio = ratio[ratio.map(math.isfinite)]
        short, long_ = drawn["bin"].iloc[0], drawn.sort_values("lo")["bin"].iloc[-1]
        paragraphs.append(
            t(
                f"length.claims_noise_{_outcome(int(sum_up), runs)}",
                lang,
                runs=runs,
                sum_up=int(sum_up),
                short=short,
                long=long_,
                arms=sep.join(title.values()),
                ratio=_span(ratio.tolist(), ",.0f"),
            )
        )
        token = {"long": long_, "short": short}
        token |= {"arms": sep.join(title.values())} if token_up == 0 else {"token_up": int(token_up), "runs": runs}
        paragraphs[-1] += " " + t(
            "length.claims_token_falls" if token_up == 0 else "length.claims_token_up", lang, **token
        )
    claimed, baseline = EFFICIENCY_PAIR
    if claimed in title and baseline in title:
        eff = efficiency_table(record)
        mine, base = (eff[eff["arm"] == a] for a in (claimed, baseline))
        pairs = list(zip(mine["gain_per_1k_rollouts"], base["gain_per_1k_rollouts"]))
        ahead, behind = sum(m > b for m, b in pairs), sum(m < b for m, b in pairs)
        level = len(pairs) - ahead - behind  # seeds where both gained exactly as much per rollout
        paragraphs.append(
            t(
                f"length.claims_eff_{_outcome(int(ahead), len(mine))}",
                lang,
                claimed=title[claimed],
                baseline=title[baseline],
                n=len(mine),
                ahead=int(ahead),
                behind=int(behind),
                level=t("length.claims_eff_level", lang, level=int(level)) if level else "",
                gain=_span(mine["heldout_gain"]),
                base_gain=_span(base["heldout_gain"]),
                per_k=_span(mine["gain_per_1k_rollouts"], ".3f"),
                base_per_k=_span(base["gain_per_1k_rollouts"], ".3f"),
                clip=_span(mine["clip_fraction"] * 100, ".0f"),
                base_clip=_span(base["clip_fraction"] * 100, ".1f"),
            )
        )
    per_bin = noise.groupby("lo", sort=True)["responses"].sum()
    last = noise.sort_values("lo").iloc[-1]
    share = per_bin.iloc[-1] / per_bin.sum() if per_bin.sum() > 0 else math.nan
    paragraphs.append(
        t(
            "length.claims_limits",
            lang,
            long=last["bin"],
            share=f"{share:.1%}",
            limit=int(last["hi"]),
        )
    )
    return paragraphs


def heldout_prompts(record: Mapping) -> int:
    """The held-out prompts the gain was measured on: those of the record's task (``rlviz.lm.tasks``)."""
    _check(record)
    return len(get_task(record["settings"]["task"]).heldout_problems())


def task_label(record: Mapping, lang: str) -> str:
    """The label of the record's task in ``lang``, as the task registry gives it
    (``rlviz.lm.tasks.TaskSpec.label``: "Make a sum" / "凑数"), never its internal key.

    Raises:
        ValueError: the record's task is not in the registry (``task``), or ``lang`` is not a language
            of the label."""
    label = get_task(record["settings"]["task"]).label
    if lang not in label:
        raise ValueError(f"lang: {lang!r} is not one of {', '.join(label)}")
    return label[lang]


def provenance_text(record: Mapping, lang: str) -> str:
    """Which command measured the record, when, at which commit, over which seeds (from the record)."""
    _check(record)
    entries = list(record["seeds"].values())
    dates = sorted({e.get("date", "?") for e in entries})
    commits = sorted({e.get("commit", "?")[:7] for e in entries})
    s = record["settings"]
    own = {e.get("command", "?") for e in entries}
    # one process for every seed (one command), or one per seed: the commands with the seed as S, where they
    # differ only in it (else each is listed)
    per_seed = {re.sub(r"--seeds \d+(?= |$)", "--seeds S", c) for c in own}
    if len(own) == 1:
        key, command = "length.claims_provenance", own.pop()
    elif len(per_seed) == 1:
        key, command = "length.claims_provenance_per_seed", per_seed.pop()
    else:
        key, command = "length.claims_provenance", "`; `".join(sorted(own))
    return t(
        key,
        lang,
        command=command,
        seeds=LIST_SEPARATOR[lang].join(str(e["seed"]) for e in entries),
        steps=s["steps"],
        task=task_label(record, lang),
        date=LIST_SEPARATOR[lang].join(dates),
        commit=LIST_SEPARATOR[lang].join(commits),
        inferred=t("length.claims_inferred", lang) if any(e.get("commit_inferred") for e in entries) else "",
    )
