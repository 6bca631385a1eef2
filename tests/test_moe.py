"""The MoE model, routing capture and replay, the trainer's routing_replay setting, and the MoE
experiment (route-change share, ratio spread with and without replay)."""

import copy
import json
import math

import pytest
import torch

from rlviz.experiments.moe import RoutingShiftSettings, routing_shift
from rlviz.lm.batching import concat_batches, select_rows
from rlviz.lm.model import load_policy
from rlviz.lm.moe import (
    MOE_MODEL_DIR,
    capture_routing,
    expert_load,
    is_moe,
    replay_routing,
    route_changed,
    routers,
)
from rlviz.lm.rollout import response_log_probs, sample_rollouts
from rlviz.lm.task import sample_problems
from rlviz.lm.trainer import TrainConfig, Trainer

SMALL = dict(prompts_per_step=4, group_size=4, mu=2, mini_batches=2)


@pytest.fixture(scope="module")
def moe():
    return load_policy(MOE_MODEL_DIR, device="cpu")


@pytest.fixture(scope="module")
def batch(moe):
    model, tok = moe
    g = torch.Generator().manual_seed(3)
    return sample_rollouts(model, tok, sample_problems(4, g), 4, 16, 1.0, g)


def _args(b):
    return b.input_ids, b.attention_mask, b.position_ids, b.prompt_width, 1.0


def test_shipped_moe_loads_with_from_pretrained_and_is_a_top2_of_8(moe):
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(MOE_MODEL_DIR)  # plain transformers, no rlviz code
    assert type(model).__name__ == "Qwen3MoeForCausalLM"
    rs = routers(model)
    assert len(rs) == model.config.num_hidden_layers == 4
    assert {r.num_experts for r in rs} == {8} and {r.top_k for r in rs} == {2}
    card = json.loads((__import__("pathlib").Path(MOE_MODEL_DIR) / "rlviz_card.json").read_text())
    held = card["figures"]["heldout"]
    for key in ("pass_at_1", "all_correct", "all_wrong"):
        assert 0.0 <= held[key] <= 1.0
    load = card["figures"]["expert_load"]
    assert len(load["per_layer"]) == 4 and all(len(row) == 8 for row in load["per_layer"])
    # the load-balancing loss kept every expert in use: none below a quarter of the uniform share
    assert load["min_share"] > 0.125 / 4
    assert is_moe(moe[0]) and not is_moe(load_policy(device="cpu")[0])


def test_capture_changes_no_log_prob(moe, batch):
    model, _ = moe
    with torch.no_grad():
        plain, _ = response_log_probs(model, *_args(batch))
        with capture_routing(model) as cap:
            hooked, _ = response_log_probs(model, *_args(batch))
    assert torch.equal(plain, hooked)
    idx = cap.indices(*batch.input_ids.shape)
    assert idx.shape == (*batch.input_ids.shape, 4, 2) and idx.dtype == torch.int64
    probs = cap.probs(*batch.input_ids.shape)
    assert torch.allclose(probs.sum(-1), torch.ones(()), atol=1e-5)
    # the chosen experts are the two most probable ones
    top2 = probs.topk(2, dim=-1).indices
    assert torch.equal(route_changed(idx, top2), torch.zeros_like(route_changed(idx, top2)))


def test_replay_of_the_recorded_routing_is_exact_and_routes_as_recorded(moe, batch):
    model, _ = moe
    with torch.no_grad():
        with capture_routing(model) as cap:
            old, _ = response_log_probs(model, *_args(batch))
        routes = cap.indices(*batch.input_ids.shape)
        with capture_routing(model) as cap2, replay_routing(model, routes):
            again, _ = response_log_probs(model, *_args(batch))
    real = batch.response_mask > 0
    assert torch.equal(old[real], again[real])  # ratio exactly 1 before any update
    assert torch.equal(cap2.indices(*batch.input_ids.shape), routes)  # the router's own choice is unchanged


def test_replay_forces_the_given_experts_and_keeps_the_router_gradient(moe, batch):
    model, _ = moe
    model = copy.deepcopy(model)
    with torch.no_grad(), capture_routing(model) as cap:
        response_log_probs(model, *_args(batch))
    routes = cap.indices(*batch.input_ids.shape)
    forced = (routes + 1) % 8  # every route moved to other experts
    seen = []
    with replay_routing(model, forced):
        # registered after the replay hook, so it sees the replayed output (hooks run in order)
        hook = routers(model)[0].register_forward_hook(lambda m, a, out: seen.append(out[2].clone()))
        lp, _ = response_log_probs(model, *_args(batch))
        hook.remove()
    assert torch.equal(seen[-1].view(forced.shape[0], forced.shape[1], 2), forced[:, :, 0])
    lp[batch.response_mask > 0].sum().backward()
    assert routers(model)[0].weight.grad is not None and routers(model)[0].weight.grad.abs().sum() > 0


def test_replay_rejects_routes_of_another_shape(moe, batch):
    model, _ = moe
    with pytest.raises(ValueError, match="indices"):
        with replay_routing(model, torch.zeros(2, 3, 4, 2, dtype=torch.long)):
            response_log_probs(model, *_args(batch))
    with pytest.raises(ValueError, match="indices"):
        with replay_routing(model, torch.zeros(2, 3, 5, 2, dtype=torch.long)):
            pass
    with pytest.raises(ValueError, match="indices"):
        with replay_routing(model, torch.full((2, 3, 4, 2), 8)):
            pass
    with pytest.raises(ValueError, match="model"):
        with replay_routing(load_policy(device="cpu")[0], torch.zeros(2, 3, 4, 2, dtype=torch.long)):
            pass


def test_route_changed_and_expert_load_by_hand():
    before = torch.tensor([[[0, 1], [2, 3]]])  # (1 token, 2 layers, k=2)
    after = torch.tensor([[[1, 0], [2, 4]]])  # layer 1: same set in another order; layer 2: 3 -> 4
    assert route_changed(before, after).tolist() == [[False, True]]
    idx = torch.tensor([[[[0, 1]], [[0, 2]]]])  # (B=1, L=2, layers=1, k=2)
    mask = torch.tensor([[1, 1]])
    # expert 0 twice, 1 once, 2 once out of 4 assignments: 0.5, 0.25, 0.25, 0
    assert expert_load(idx, mask, 4).tolist() == [[0.5, 0.25, 0.25, 0.0]]
    assert expert_load(idx, torch.tensor([[1, 0]]), 4).tolist() == [[0.5, 0.5, 0.0, 0.0]]
    with pytest.raises(ValueError, match="mask"):
        expert_load(idx, torch.tensor([[0, 0]]), 4)
    with pytest.raises(ValueError, match="after"):
        route_changed(before, after[:, :1])


def test_bf16_sampler_records_routes_that_survive_select_and_concat(moe):
    model, tok = moe
    g = torch.Generator().manual_seed(5)
    a = sample_rollouts(model, tok, sample_problems(2, g), 2, 16, 1.0, g, torch.bfloat16, record_routing=True)
    b = sample_rollouts(model, tok, sample_problems(2, g), 2, 16, 1.0, g, torch.bfloat16, record_routing=True)
    assert a.rollout_routing.shape == (*a.input_ids.shape, 4, 2)
    assert next(model.parameters()).dtype == torch.float32  # the policy itself is untouched
    both = concat_batches([a, b], tok.pad_token_id)
    assert both.rollout_routing.shape == (*both.input_ids.shape, 4, 2)
    P = both.prompt_width
    for i in range(8):  # each real position keeps its experts after re-padding
        src, j = (a, i) if i < 4 else (b, i - 4)
        Ps, Ts = src.prompt_width, src.response_ids.shape[1]
        keep = src.attention_mask[j, :Ps] > 0
        assert torch.equal(both.rollout_routing[i, P - Ps : P][keep], src.rollout_routing[j, :Ps][keep])
        assert torch.equal(both.rollout_routing[i, P : P + Ts], src.rollout_routing[j, Ps:])
    assert torch.equal(select_rows(both, [5]).rollout_routing[0], both.rollout_routing[5])


def _trainer(moe, algorithm="grpo", **kw):
    model, tok = moe
    ref = copy.deepcopy(model).requires_grad_(False)
    return Trainer(TrainConfig(algorithm=algorithm, **{**SMALL, **kw}), copy.deepcopy(model), tok, ref)


@pytest.mark.parametrize("mode, dtype", [("none", "float32"), ("R2", "float32"), ("R3", "bfloat16")])
def test_routing_replay_trains_and_starts_at_ratio_one(moe, mode, dtype):
    t = _trainer(moe, settings={"routing_replay": mode, "beta": 0.0}, mu=1, mini_batches=1, rollout_dtype=dtype)
    m = t.step()
    # one update, on-policy: the ratio is 1 for every token (R3: old log-probs use the sampler's routes too)
    assert m["ratio_min"] == pytest.approx(1.0, abs=1e-5) and m["ratio_max"] == pytest.approx(1.0, abs=1e-5)
    assert 0.0 <= m["route_change_fraction"] <= 1.0
    assert math.isfinite(m["token_ratio_var"]) and math.isfinite(m["ratio_var"])
    view = t.token_views[-1]
    assert all(len(r["layers_changed"]) == len(r["tokens"]) for r in view["rows"])


def test_r2_replays_the_old_routing_in_every_update(moe, monkeypatch):
    import rlviz.lm.trainer as trainer_mod

    t = _trainer(moe, settings={"routing_replay": "R2"})
    batch = t._rollout()
    with torch.no_grad(), capture_routing(t.model) as cap:
        response_log_probs(t.model, *_args(batch))
    recorded = cap.indices(*batch.input_ids.shape)  # the old policy's own routing
    rows, replayed = [], []
    orig_update, orig_replay = t._minibatch_update, trainer_mod.replay_routing

    def update_spy(data, idx, *a):
        rows.append(idx.cpu())
        return orig_update(data, idx, *a)

    def replay_spy(model, indices):
        replayed.append(indices.clone())
        return orig_replay(model, indices)

    t._minibatch_update = update_spy
    monkeypatch.setattr(trainer_mod, "replay_routing", replay_spy)
    _, _, data = t._update(batch)
    assert torch.equal(data.routes, recorded)  # recorded at the old log-prob forward
    assert len(rows) == len(replayed) == SMALL["mu"] * SMALL["mini_batches"]
    for idx, routes in zip(rows, replayed):  # every update's forward used the old routes of its rows
        assert torch.equal(routes, recorded[idx])


def test_routing_replay_is_refused_on_a_dense_model():
    model, tok = load_policy(device="cpu")
    with pytest.raises(ValueError, match="routing_replay"):
        Trainer(TrainConfig(algorithm="gspo", settings={"routing_replay": "R2"}, **SMALL), model, tok)
    with pytest.raises(ValueError, match="routing_replay"):
        TrainConfig(algorithm="gspo", settings={"routing_replay": "R9"}, **SMALL).validate()
    with pytest.raises(ValueError, match="rollout_dtype"):
        TrainConfig(algorithm="gspo", rollout_dtype="int8", **SMALL).validate()


def test_routing_shift_at_lr_zero_changes_no_route_and_no_ratio(moe):
    r = routing_shift(RoutingShiftSettings(lr=0.0, updates=2, prompts=4, group_size=4), policy=moe)
    assert r.moe and r.layers == 4
    assert (r.route_change["share"] == 0).all() and len(r.route_change) == 2 * 4
    assert (r.log_ratios["value"] == 0).all()
    assert (r.arms["clip_fraction"] == 0).all()
    assert set(r.arms["arm"]) == {"grpo", "grpo_r2", "gspo"}


def test_routing_shift_replay_removes_the_routing_part_of_the_ratio(moe):
    r = routing_shift(RoutingShiftSettings(lr=3e-3, updates=3, prompts=8, group_size=4), policy=moe)
    s = r.summary()
    assert s["route_change_last"] > 0  # the update moved some routes
    lr = r.log_ratios
    last = lr[lr["update"] == 3]
    own, rep = last[last["kind"] == "token_own"]["value"], last[last["kind"] == "token_replay"]["value"]
    assert len(own) == len(rep) > 0
    # the same tokens in the same order: the routing-only part is their difference
    own_rows, rep_rows = last[last["kind"] == "token_own"], last[last["kind"] == "token_replay"]
    assert own_rows["changed"].tolist() == rep_rows["changed"].tolist()
    assert s["routing_only_std"] == pytest.approx(float((own.to_numpy() - rep.to_numpy()).std()))
    assert 0 < s["tokens_changed_share"] <= 1 and own_rows["changed"].any()
    # a response is flagged when any of its tokens is
    seq = last[last["kind"] == "sequence"]
    assert seq["changed"].sum() <= len(seq) and seq["changed"].any()
    # GSPO's sequence log-ratio is the mean of the token log-ratios of each response: narrower
    assert s["sequence_std"] < s["token_std_own"]
    tok = r.token
    assert len(tok["tokens"]) == len(tok["layers_changed"]) == len(tok["log_ratio_own"]) == len(tok["log_ratio_replay"])
    assert 0 <= r.sampler_mismatch <= 1


def test_routing_shift_on_the_dense_control_has_no_routes():
    r = routing_shift(RoutingShiftSettings(model="dense", lr=1e-3, updates=2, prompts=4, group_size=4))
    assert not r.moe and r.layers == 0 and r.route_change.empty
    assert set(r.log_ratios["kind"]) == {"token_own", "sequence"}
    assert set(r.arms["arm"]) == {"grpo", "gspo"}
    assert math.isnan(r.sampler_mismatch) and r.token["layers_changed"] is None


@pytest.mark.parametrize(
    "kw, param",
    [
        ({"updates": 0}, "updates"),
        ({"lr": -1.0}, "lr"),
        ({"lr": float("nan")}, "lr"),
        ({"group_size": 1}, "group_size"),
        ({"model": "huge"}, "model"),
        ({"temperature": 0.0}, "temperature"),
    ],
)
def test_routing_shift_settings_name_the_bad_parameter(kw, param):
    with pytest.raises(ValueError, match=f"^{param}"):
        RoutingShiftSettings(**kw).validate()


def test_cli_compare_on_the_moe_with_routing_replay(tmp_path, capsys):
    from rlviz.cli import main as cli_main

    out = tmp_path / "run.json"
    args = ["compare", "--model", "moe", "--algorithms", "grpo,gspo", "--set", "grpo.routing_replay=R2"]
    small = ["--steps", "1", "--group-size", "4", "--prompts-per-step", "2", "--heldout-samples", "0"]
    assert cli_main([*args, *small, "--device", "cpu", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert [a["settings"] for a in data["arms"]] == [{"routing_replay": "R2"}, {}]
    assert 0.0 <= data["metrics"]["grpo"][0]["route_change_fraction"] <= 1.0
    # replay on the dense model is refused with the setting's name, not a traceback
    assert (
        cli_main(["compare", "--model", "dense", "--algorithms", "grpo", "--set", "grpo.routing_replay=R2", *small])
        == 2
    )
    assert "routing_replay" in capsys.readouterr().err
    assert cli_main(["compare", "--model", "moe", "--model-dir", str(tmp_path), *small]) == 2


def test_the_measured_and_sequence_arms_come_from_the_registry(monkeypatch):
    from rlviz.core.objectives import ALGORITHMS
    from rlviz.experiments.moe import SHIFT_ARMS, measured_arm, sequence_objective
    from rlviz.experiments.runner import Arm

    assert measured_arm().name == "grpo" and sequence_objective() == "gspo"
    # read from each objective's ratio_level, not from its name
    arms = (Arm("seq", "gspo"), Arm("rep", "grpo", {"routing_replay": "R2"}), Arm("tok", "dapo"))
    assert measured_arm(arms).name == "tok" and sequence_objective(arms) == "gspo"
    with pytest.raises(ValueError, match="^arms"):
        measured_arm(SHIFT_ARMS[1:2])
    with pytest.raises(ValueError, match="^arms"):
        sequence_objective(SHIFT_ARMS[:2])
    assert ALGORITHMS["gspo"].ratio_level == "sequence"


def test_arms_apart_by_hand():
    from rlviz.experiments.moe import arms_apart

    # ends 0.4 and 0.6, p = 0.5 in the middle, 100 samples each: 2 sqrt(2 x 0.25 / 100) = 0.1414
    low, high, two_se = arms_apart([0.4, float("nan"), 0.6], 100)
    assert (low, high) == (0.4, 0.6) and two_se == pytest.approx(2 * math.sqrt(0.005))
    assert arms_apart([0.5, float("nan")], 100) is None and arms_apart([0.4, 0.6], 0) is None


def test_moe_sampler_drops_finished_rows_and_samples_the_same(moe, monkeypatch):
    """The sampler stops decoding a row at its EOS: an MoE's responses and recorded routing are unchanged."""
    import rlviz.lm.rollout as rollout

    model, tok = moe
    out = {}
    for drop in (True, False):
        monkeypatch.setattr(rollout, "_DROP_FINISHED", drop)
        g = torch.Generator().manual_seed(11)
        out[drop] = sample_rollouts(model, tok, sample_problems(4, g), 8, 16, 1.0, g, record_routing=True)
    a, b = out[True], out[False]
    assert torch.equal(a.input_ids, b.input_ids) and torch.equal(a.rewards, b.rewards)
    assert torch.equal(a.rollout_routing, b.rollout_routing)  # read off the whole batch's scoring forward
    assert a.response_lengths.min() < a.response_lengths.max()  # some rows did stop early


# ------------------------------------------------------------------ the page's figures (rlviz.plots.moe)
def _log_ratios():
    import pandas as pd

    g = torch.Generator().manual_seed(0)
    own = torch.randn(200, generator=g) * 0.3
    rep = own + torch.randn(200, generator=g) * 0.05
    seq = torch.randn(20, generator=g) * 0.1
    rows = [("token_own", float(v)) for v in own] + [("token_replay", float(v)) for v in rep]
    rows += [("sequence", float(v)) for v in seq]
    return pd.DataFrame([{"update": 2, "kind": k, "value": v, "changed": False} for k, v in rows])


def test_the_log_ratio_figure_draws_only_the_distributions_asked_for():
    from rlviz.plots.moe import log_ratio_figure

    words = {"kind.token_own": "own", "kind.token_replay": "replay", "kind.sequence": "seq", "kind.routing": "routing"}
    words |= {"title": "What routing does to the ratio", "panel.ratios": "after 2", "panel.routing": "routing part"}
    full = log_ratio_figure(_log_ratios(), 2, words)
    assert [tr.name.split(" · ")[0] for tr in full.data] == ["own", "replay", "seq", "routing"]
    assert [a.text for a in full.layout.annotations] == ["after 2", "routing part"]
    # a page holding back the replayed, sequence and routing distributions: one panel, one named histogram
    held = log_ratio_figure(_log_ratios(), 2, words, kinds=("token_own",), routing=False)
    assert [tr.name.split(" · ")[0] for tr in held.data] == ["own"] and held.layout.showlegend is True
    assert [a.text for a in held.layout.annotations] == ["after 2"]
    # from the top: the title, the legend under it, the panel titles under the legend (the top margin
    # holds the legend's rows as they wrap in a 1024 px window)
    assert held.layout.title.text == "What routing does to the ratio" and held.layout.title.y == 1.0
    assert held.layout.legend.y < 1.0 and full.layout.margin.t > held.layout.margin.t


def test_wrap_title_breaks_between_words_and_between_chinese_characters():
    from rlviz.plots.moe import text_px, wrap_title

    for text, width in (
        ("rollout corrections: fixed when the batch is sampled", 200),
        ("GRPO 的信任域：在更新过程中变化", 150),
        ("variance of the ratio the loss used", 140),
        ("short", 100),
    ):
        lines = wrap_title(text, width).split("<br>")
        assert all(text_px(line) <= width or " " not in line for line in lines), lines
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")  # nothing lost, nothing added
    assert wrap_title("GRPO 的信任域：在更新过程中变化", 150) == "GRPO 的信任域：在更新<br>过程中变化"


def test_legend_rows_as_plotly_wraps_a_horizontal_legend():
    from rlviz.plots.moe import legend_rows

    assert legend_rows([]) == 0 and legend_rows(["a", "b"]) == 1  # they fit side by side
    # once it wraps, each entry takes the widest one's width: two 300 px entries, one per row
    long = ["x" * 37, "y" * 37, "z"]
    assert legend_rows(long, width=480) == 3 and legend_rows(long, width=620) == 2 and legend_rows(long, width=700) == 1


def test_live_arms_figure_smooths_each_arm_in_its_own_style_and_marks_collapses():
    import pandas as pd

    from rlviz.plots.live import SMOOTH_SPAN, ema
    from rlviz.plots.moe import ARM_STYLES, live_arms_figure

    frame = pd.DataFrame(
        [
            {"arm": arm, "step": s, "reward_mean": r, "kl_ref": 0.01 * s, "collapse": arm == "grpo_r2" and s == 3}
            for arm in ("gspo", "grpo_r2")
            for s, r in zip((1, 2, 3), (0.2, 0.6, 0.1))
        ]
    )
    words = {"reward_mean": "reward", "kl_ref": "KL", "step": "step", "collapse": "collapse", "name.grpo_r2": "R2"}
    fig = live_arms_figure(frame, ["reward_mean", "kl_ref"], words, steps=5, smooth=SMOOTH_SPAN, cols=2)
    lines = [tr for tr in fig.data if tr.mode == "lines"]
    assert [tr.name for tr in sorted(lines, key=lambda tr: (tr.legendrank, tr.yaxis))] == ["R2", "R2", "GSPO", "GSPO"]
    r2 = next(tr for tr in lines if tr.name == "R2" and tr.yaxis == "y")
    assert list(r2.y) == pytest.approx(ema([0.2, 0.6, 0.1], SMOOTH_SPAN))
    assert r2.line.color == ARM_STYLES["grpo_r2"]["color"] and r2.line.dash == ARM_STYLES["grpo_r2"]["dash"]
    points = next(tr for tr in fig.data if tr.name == "R2" and tr.mode == "markers" and tr.yaxis == "y")
    assert list(points.y) == [0.2, 0.6, 0.1] and points.marker.color == ARM_STYLES["grpo_r2"]["color"]
    marks = [tr for tr in fig.data if tr.name == "collapse"]
    assert [(list(tr.x), tr.yaxis) for tr in marks] == [([3], "y"), ([3], "y2")]  # the flagged step, every panel
    assert [tr.showlegend for tr in marks] == [True, False]
    assert list(fig.layout.xaxis.range) == [0.5, 5.5]  # the run's whole length from the start
    # before a run: the same panels, empty, with the line that says what fills them
    empty = live_arms_figure(frame.iloc[:0], ["reward_mean", "kl_ref"], words | {"empty": "press Run"}, steps=5)
    assert empty.layout.title.text == "press Run" and all(len(tr.x) == 0 for tr in empty.data)
