"""The critic page's library code (``rlviz.experiments.critic``) and the GAE it shows.

GAE is checked by hand against verl's ``compute_gae_advantage_return`` (``verl/trainer/ppo/core_algos.py``:
backwards over t, delta_t = r_t + gamma V_{t+1} - V_t, A_t = delta_t + gamma lam A_{t+1}, a masked position
carrying the next value and advantage through, returns = A + V before the whitening, then ``masked_whiten``
with the unbiased variance + 1e-8). verl's GAE is not among the stored parity vectors
(``rlviz/data/parity/verl.json`` holds only the group estimators), so these hand values are the check.
"""

from __future__ import annotations

import math

import pytest
import torch

from rlviz.core.advantages import gae, group_advantages
from rlviz.experiments import critic as C

F64 = torch.float64
# one response of 3 tokens, the outcome reward on the last token
R3 = torch.tensor([[0.0, 0.0, 1.0]], dtype=F64)
V3 = torch.tensor([[0.5, 0.6, 0.8]], dtype=F64)
M3 = torch.ones(1, 3, dtype=F64)


def test_gae_at_lambda_0_is_one_td_error_per_token():
    # gamma = 0.9, lam = 0: A_t = delta_t = r_t + gamma V_{t+1} - V_t, V_3 = 0 (after the last token)
    #   delta_0 = 0 + 0.9 * 0.6 - 0.5 = 0.04
    #   delta_1 = 0 + 0.9 * 0.8 - 0.6 = 0.12
    #   delta_2 = 1 + 0.9 * 0   - 0.8 = 0.2
    adv, ret = gae(R3, V3, M3, gamma=0.9, lam=0.0, whiten=False)
    assert adv[0].tolist() == pytest.approx([0.04, 0.12, 0.2], abs=1e-12)
    # the value target: A + V = r_t + gamma V_{t+1} (the one-step TD target): 0.54, 0.72, 1.0
    assert ret[0].tolist() == pytest.approx([0.54, 0.72, 1.0], abs=1e-12)


def test_gae_at_lambda_1_is_the_return_minus_the_value():
    # gamma = 0.9, lam = 1: A_t = sum_k gamma^k r_{t+k} - V_t (the TD errors telescope)
    #   A_0 = 0.9^2 * 1 - 0.5 = 0.31 (= 0.04 + 0.9 * 0.12 + 0.81 * 0.2)
    #   A_1 = 0.9 * 1 - 0.6 = 0.3
    #   A_2 = 1 - 0.8 = 0.2
    adv, ret = gae(R3, V3, M3, gamma=0.9, lam=1.0, whiten=False)
    assert adv[0].tolist() == pytest.approx([0.31, 0.3, 0.2], abs=1e-12)
    assert ret[0].tolist() == pytest.approx([0.81, 0.9, 1.0], abs=1e-12)  # the discounted return itself


def test_gae_carries_a_masked_position_through_and_whitens_as_verl():
    # a masked middle token (verl's observation tokens) with junk in it, gamma = lam = 1:
    #   t = 2: A = 1 - 0.8 = 0.2; t = 1 masked: next value 0.8 and A 0.2 carried through;
    #   t = 0: delta = 0 + 0.8 - 0.5 = 0.3, A_0 = 0.3 + 0.2 = 0.5 (= 1 - 0.5: the junk 9 never enters)
    values = torch.tensor([[0.5, 9.0, 0.8]], dtype=F64)
    mask = torch.tensor([[1.0, 0.0, 1.0]], dtype=F64)
    adv, _ = gae(R3, values, mask, gamma=1.0, lam=1.0, whiten=False)
    assert adv[0, 0].item() == pytest.approx(0.5, abs=1e-12) and adv[0, 2].item() == pytest.approx(0.2, abs=1e-12)
    # whitening over the real tokens (verl masked_whiten): lam = 1, gamma = 0.9 gives A = [0.31, 0.3, 0.2],
    # mean 0.27, unbiased variance (0.04^2 + 0.03^2 + 0.07^2) / 2 = 0.0037, A' = (A - 0.27) / sqrt(0.0037 + 1e-8)
    white, ret = gae(R3, V3, M3, gamma=0.9, lam=1.0, whiten=True)
    s = math.sqrt(0.0037 + 1e-8)
    assert white[0].tolist() == pytest.approx([0.04 / s, 0.03 / s, -0.07 / s], abs=1e-9)
    assert ret[0].tolist() == pytest.approx([0.81, 0.9, 1.0], abs=1e-12)  # returns from the un-whitened A


def _group(rewards, values) -> C.CriticGroup:
    """A hand-made group (no model): tokens "a", "b", ... per response."""
    tokens = tuple(tuple("abcdefghij"[: len(v)]) for v in values)
    return C.CriticGroup(C.GroupSettings(), "1+1=", "2", tokens, tuple(rewards), tuple(map(tuple, values)), 1, math.nan)


def test_gae_frame_by_hand_and_its_two_ends():
    g = _group([1.0, 0.0], [[0.5, 0.6, 0.8], [0.4, 0.2]])
    f = C.gae_frame(g, gamma=0.9, lam=0.5)
    assert len(f) == 5 and f["response"].tolist() == [1, 1, 1, 2, 2]
    first = f[f["response"] == 1]
    assert first["td"].tolist() == pytest.approx([0.04, 0.12, 0.2], abs=1e-12)  # lam = 0, as above
    assert first["advantage_mc"].tolist() == pytest.approx([0.31, 0.3, 0.2], abs=1e-12)  # lam = 1
    # lam = 0.5: A_2 = 0.2, A_1 = 0.12 + 0.45 * 0.2 = 0.21, A_0 = 0.04 + 0.45 * 0.21 = 0.1345
    assert first["advantage"].tolist() == pytest.approx([0.1345, 0.21, 0.2], abs=1e-12)
    assert first["target"].tolist() == pytest.approx([0.6345, 0.81, 1.0], abs=1e-12)  # A + V
    # the wrong answer (R = 0, L = 2): return 0 everywhere, so A at lam = 1 is -V: -0.4, -0.2
    second = f[f["response"] == 2]
    assert second["return_mc"].tolist() == [0.0, 0.0] and second["advantage_mc"].tolist() == pytest.approx([-0.4, -0.2])
    # GRPO on the same group: rewards (1, 0), mean 0.5, unbiased std 0.7071: A = +-0.5 / (0.7071 + 1e-6)
    grpo = C.grpo_frame(g)
    assert grpo["advantage"].tolist() == pytest.approx([0.5 / (math.sqrt(0.5) + 1e-6), -0.5 / (math.sqrt(0.5) + 1e-6)])
    assert grpo["length"].tolist() == [3, 2]


def test_the_group_questions_by_hand():
    fresh = C.group_state(_group([1.0, 0.0], [[0.0, 0.0, 0.0], [0.0, 0.0]]), gamma=0.9)
    # a fresh critic (V = 0): at lam = 0 every TD error before the last token is 0 + 0.9 * 0 - 0 = 0
    assert C.answer_td(fresh) == "last"
    # the longest right answer is asked: row 0, A_0 at lam = 1 = 0.9^(3-1) * 1 - 0 = 0.81
    assert fresh["row"] == 0 and C.answer_mc(fresh) == pytest.approx(0.81, abs=1e-12)
    assert C.fields_mc(fresh) == {"gamma": "0.9", "row": "1", "length": "3", "reward": "1", "v0": "0.000"}
    trained = C.group_state(_group([1.0, 0.0], [[0.5, 0.6, 0.8], [0.4, 0.2]]), gamma=0.9)
    assert C.answer_td(trained) == "more"  # delta_0 = 0.04: the critic's own change of mind
    assert C.answer_mc(trained) == pytest.approx(0.31, abs=1e-12)  # 0.81 - 0.5
    assert not C.td_applies(C.group_state(_group([0.0, 0.0], [[0.1], [0.2]]), gamma=1.0))


def test_bad_input_names_the_parameter():
    g = _group([1.0], [[0.5]])
    with pytest.raises(ValueError, match="^gamma"):
        C.gae_frame(g, gamma=1.5, lam=0.5)
    with pytest.raises(ValueError, match="^lam"):
        C.gae_frame(g, gamma=1.0, lam=float("nan"))
    with pytest.raises(ValueError, match="^group_size"):
        C.GroupSettings(group_size=1).validate()
    with pytest.raises(ValueError, match="^critic_steps"):
        C.GroupSettings(critic_steps=-1).validate()
    with pytest.raises(ValueError, match="^task"):
        C.GroupSettings(task="nope").validate()
    with pytest.raises(ValueError, match="^values"):
        C.tensors_of([1.0, 0.0], [[0.5]])
    with pytest.raises(ValueError, match="^values"):
        C.tensors_of([1.0], [[float("inf")]])
    with pytest.raises(ValueError, match="^gamma"):
        C.CriticLiveConfig(gamma=2.0).validate()
    with pytest.raises(ValueError, match="^steps"):
        C.CriticRun(C.CriticLiveConfig(steps=0))


def test_a_fresh_critic_on_the_shipped_model_values_every_token_at_zero():
    g = C.sample_group(C.GroupSettings(group_size=4, seed=3))
    # the value head starts at zero (rlviz.lm.trainer._Critic): V = 0 at every token, whatever the trunk says
    assert all(v == 0.0 for row in g.values for v in row)
    assert len(g.rewards) == 4 and g.lengths == tuple(len(tok) for tok in g.tokens)
    assert 1 <= g.tries <= C.MAX_TRIES and math.isnan(g.value_loss)
    assert len(set(g.rewards)) > 1 or g.tries == C.MAX_TRIES  # a group with right and wrong answers, if found
    # so GAE at lam = 1 is the discounted return itself, gamma^(L-1-t) R
    f = C.gae_frame(g, gamma=0.9, lam=1.0)
    expected = [0.9 ** (L - p) * R for L, p, R in zip(f["length"], f["position"], f["reward"])]
    assert f["advantage"].tolist() == pytest.approx(expected, abs=1e-12)


def _tokens(step, row, group, reward, errors) -> list[dict]:
    """value_frame rows of one response: its per-token errors V - return, positions 1..L."""
    L = len(errors)
    return [
        {"step": step, "row": row, "group": group, "position": p + 1, "length": L, "reward": reward, "error": e}
        for p, e in enumerate(errors)
    ]


def test_errors_by_response_length_by_hand():
    import pandas as pd

    values = pd.DataFrame(
        _tokens(1, 0, 0, 1.0, [-0.4, -0.2])  # L 2: first 0.4, token mean 0.3
        + _tokens(1, 1, 0, 0.0, [0.1, 0.1, 0.1, 0.1, 0.6])  # L 5: first 0.1, token mean 1.0 / 5 = 0.2
        + _tokens(2, 0, 0, 1.0, [-0.2, -0.2, -0.2])  # L 3: first 0.2, mean 0.2
        + _tokens(2, 1, 0, 1.0, [0.0, -0.3, -0.6])  # L 3: first 0, mean 0.3
        + _tokens(2, 2, 1, 0.0, [0.5] * 7)  # L 7: first 0.5, mean 0.5
        + _tokens(2, 3, 1, 1.0, [-0.5] * 4)  # L 4: first 0.5, mean 0.5
    )
    r = C.response_errors(values)
    assert r["length"].tolist() == [2, 5, 3, 3, 7, 4]
    assert r["critic_first"].tolist() == pytest.approx([0.4, 0.1, 0.2, 0.0, 0.5, 0.5])
    assert r["critic_tokens"].tolist() == pytest.approx([0.3, 0.2, 0.2, 0.3, 0.5, 0.5])
    # |group mean R - R|: step 1 group 0 mean 0.5; step 2 group 0 mean 1 (both right), group 1 mean 0.5
    assert r["baseline"].tolist() == pytest.approx([0.5, 0.5, 0.0, 0.0, 0.5, 0.5])
    assert r["excess"].tolist() == pytest.approx([-0.2, -0.3, 0.2, 0.3, 0.0, 0.0])  # token mean - baseline
    # bins of 4 tokens, bin (L - 1) // 4: lengths 2, 3, 3, 4 in 1-4; 5, 7 in 5-8
    b = C.error_by_length(r, width=4)
    assert b[["lo", "hi", "responses"]].values.tolist() == [[1, 4, 4], [5, 8, 2]]
    assert b["critic_first"].tolist() == pytest.approx([(0.4 + 0.2 + 0 + 0.5) / 4, (0.1 + 0.5) / 2])
    assert b["critic_tokens"].tolist() == pytest.approx([(0.3 + 0.2 + 0.3 + 0.5) / 4, (0.2 + 0.5) / 2])
    assert b["baseline"].tolist() == pytest.approx([(0.5 + 0 + 0 + 0.5) / 4, (0.5 + 0.5) / 2])
    # step 2 only: 1-4 holds L 3, 3, 4 -> baseline (0 + 0 + 0.5) / 3; 5-8 holds L 7
    late = C.error_by_length(r, (2, 2), width=4)
    assert late["responses"].tolist() == [3, 1] and late["baseline"].tolist() == pytest.approx([0.5 / 3, 0.5])
    # width 3: bins 1-3 (L 2, 3, 3), 4-6 (L 5, 4), 7-9 (L 7)
    assert C.error_by_length(r, width=3)[["lo", "responses"]].values.tolist() == [[1, 3], [4, 2], [7, 1]]
    # the shortest and the longest quarter: lengths 2 3 3 4 5 7, lower quartile (index 1.25, rounded down) 3,
    # upper (index 3.75, rounded up) 5; L <= 3: token means 0.3, 0.2, 0.3, baselines 0.5, 0, 0; L >= 5: 0.2, 0.5
    ends = C.length_ends(r)
    assert (ends["q1"], ends["q3"], ends["short"], ends["long"]) == (3, 5, 3, 2)
    assert ends["critic_tokens_short"] == pytest.approx(0.8 / 3) and ends["critic_tokens_long"] == pytest.approx(0.35)
    assert ends["baseline_short"] == pytest.approx(0.5 / 3) and ends["baseline_long"] == pytest.approx(0.5)
    # the mean reward per bin: 1-4 holds R 1, 1, 1, 1 (L 2, 3, 3, 4) -> 1; 5-8 holds R 0, 0 (L 5, 7) -> 0
    assert b["reward"].tolist() == pytest.approx([1.0, 0.0])
    # bins drawn and quoted: at least 3 responses keeps 1-4 (4 of them) and drops 5-8 (2); the reading's ends
    # are the drawn frame's first and last rows, the very points the figure plots
    drawn, dropped = C.split_bins(b, 3)
    assert drawn["lo"].tolist() == [1] and dropped[["lo", "hi", "responses"]].values.tolist() == [[5, 8, 2]]
    ends2 = C.bin_ends(C.split_bins(b, 2)[0])
    assert (ends2["lo_short"], ends2["hi_long"], ends2["responses_long"]) == (1, 8, 2)
    assert ends2["critic_tokens_short"] == pytest.approx(1.3 / 4) and ends2["baseline_long"] == pytest.approx(0.5)
    assert C.bin_ends(drawn.iloc[0:0]) == {}
    with pytest.raises(ValueError, match="^min_responses"):
        C.split_bins(b, 0)
    with pytest.raises(ValueError, match="^width"):
        C.error_by_length(r, width=0)
    with pytest.raises(ValueError, match="^values"):
        C.response_errors(values.drop(columns="group"))


def test_length_trend_by_hand():
    import pandas as pd

    def frame(y):
        return pd.DataFrame({"step": 1, "length": [1, 2, 3, 4], "e": y})

    # y = 0.1 L exactly: slope 0.1, no residual, so se 0 -> grows; reversed -> shrinks
    up = C.length_trend(frame([0.1, 0.2, 0.3, 0.4]), "e")
    assert up["slope"] == pytest.approx(0.1) and up["se"] == pytest.approx(0.0, abs=1e-12) and up["verdict"] == "grows"
    assert C.length_trend(frame([0.4, 0.3, 0.2, 0.1]), "e")["verdict"] == "shrinks"
    # y = 0.1, 0.3, 0.1, 0.3: x - 2.5 = (-1.5, -0.5, 0.5, 1.5), Sxx = 5, Sxy = 0.2, slope 0.04;
    # residuals (-0.04, 0.12, -0.12, 0.04), SSR 0.032, se = sqrt(0.032 / 2 / 5) = 0.0566 > slope / 2 -> flat
    zig = C.length_trend(frame([0.1, 0.3, 0.1, 0.3]), "e")
    assert zig["slope"] == pytest.approx(0.04) and zig["se"] == pytest.approx(math.sqrt(0.0032))
    assert zig["verdict"] == "flat" and zig["responses"] == 4
    few = C.length_trend(frame([0.1, 0.2, 0.3, 0.4]).iloc[:2], "e")  # two responses: no slope measured
    assert math.isnan(few["slope"]) and few["verdict"] == "few"
    with pytest.raises(ValueError, match="^column"):
        C.length_trend(frame([0.1] * 4), "nope")


@pytest.fixture(scope="module")
def tiny_run():
    config = C.CriticLiveConfig(steps=2, prompts_per_step=2, group_size=4, seed=1)
    run = C.make_live_run(config)
    while run.step_parallel(2) is not None:
        pass
    return run


def test_a_tiny_live_run_records_the_critic_and_its_cost(tiny_run):
    run = tiny_run
    ppo, grpo = run.trainers["ppo"], run.trainers["grpo"]
    assert len(ppo.value_views) == 2 and all(v is not None for v in ppo.value_views)
    assert grpo.value_views == [None, None]  # no critic, nothing recorded
    values = C.value_frame(run)
    real = sum(int(v["mask"].sum()) for v in ppo.value_views)
    assert len(values) == real  # one row per loss token of every step
    # gamma = 1 and an outcome reward: the return from every token is the response's reward
    view = ppo.value_views[0]
    rewards = view["token_rewards"].sum(dim=1)
    first = values[values["step"] == 1]
    assert first["return_mc"].tolist() == pytest.approx(rewards[first["row"].tolist()].tolist())
    assert (values["error"] - (values["value"] - values["return_mc"])).abs().max() < 1e-12
    # per response: step 1's critic is fresh (V = 0), so its error is the reward itself at every token; the
    # group baseline is |mean of the G = 4 rewards of its prompt - R|, read from the view's own rewards
    resp = C.response_errors(values)
    assert len(resp) == 2 * 2 * 4 and resp["length"].tolist() == [int(n) for v in ppo.value_views for n in v["lengths"]]
    one = resp[resp["step"] == 1]
    assert one["critic_first"].tolist() == pytest.approx(rewards.tolist())
    assert one["critic_tokens"].tolist() == pytest.approx(rewards.tolist())
    expected = (rewards.view(2, 4).mean(dim=1, keepdim=True) - rewards.view(2, 4)).abs().flatten()
    assert one["baseline"].tolist() == pytest.approx(expected.tolist())
    assert int(C.error_by_length(resp)["responses"].sum()) == len(resp)
    by_pos = C.error_by_position(values)
    assert int(by_pos["tokens"].sum()) == len(values) and by_pos["position"].tolist()[0] == 1
    ends = C.ends_error(values)
    assert ends["tokens"] == 2 * 2 * 4 and math.isfinite(ends["first"]) and math.isfinite(ends["last"])
    cost = C.cost_frame(run).set_index("quantity")
    hidden = ppo.model.config.hidden_size
    # the critic is the policy's trunk plus a scalar head (hidden + 1 parameters); the shipped model ties
    # its output layer to the input embedding, so the policy has no parameter the trunk lacks
    assert cost.loc["parameters", "critic"] - cost.loc["parameters", "policy"] == hidden + 1
    # training state: float32 weights, their gradients and AdamW's two moments = 4 x the weights
    # (plus AdamW's one-number step count per tensor)
    n_tensors = len(list(ppo.critic.parameters()))
    assert cost.loc["train_mb", "critic"] * 1024**2 == pytest.approx(
        4 * cost.loc["weights_mb", "critic"] * 1024**2 + 4 * n_tensors
    )
    assert 0 < cost.loc["cpu_critic", "critic"] < cost.loc["cpu_critic", "policy"]  # the critic: a part of PPO's step
    frame = C.live_frame(run)
    assert frame["cpu_seconds"].gt(0).all() and frame.loc[frame["arm"] == "grpo", "critic_rmse"].isna().all()
    result = C.live_result(run)
    assert C.answer_cost(result) == pytest.approx(cost.loc["cpu_step", "critic"] / cost.loc["cpu_step", "policy"])
    assert C.answer_where(result) in ("early", "late")
    assert C.exported_arms(run.critic_config, "en").keys() == {"PPO + critic (GAE)", "GRPO (group mean)"}


def test_group_advantages_of_the_grpo_arm_match_the_registry():
    # the frame's GRPO column is group_advantages with GRPO's own scale (group): one right of four,
    # (1 - 0.25) / (0.5 + 1e-6)
    g = _group([1.0, 0.0, 0.0, 0.0], [[0.1]] * 4)
    expected = group_advantages(torch.tensor([[1.0, 0.0, 0.0, 0.0]], dtype=F64), "group")[0].tolist()
    assert C.grpo_frame(g)["advantage"].tolist() == pytest.approx(expected)
    assert expected[0] == pytest.approx(0.75 / (0.5 + 1e-6))


def test_the_interview_questions_by_hand():
    from rlviz.teach import answers
    from rlviz.teach.bank import load_bank

    bank = load_bank()
    # the critic page's own questions (the "explain why" deck links a question about the critic here too)
    mine = [q for q in bank.questions if q.page == "critic" and q.kind != "explain"]
    assert len(mine) >= 5 and {q.kind for q in mine} == {"number", "choice"}
    assert all(key.startswith("cr_") for q in mine for key in q.query)  # links open the critic page's widgets
    value = {q.id: q.compute() for q in mine}
    # a fresh critic (V = 0), rewards (0, 0, 0, 1): at lam = 0 only the last TD error, 1 - 0, is non-zero
    assert value["advantages-critic-td-fresh"] == "last"
    # lam = 1, gamma = 0.9: A_0 = 0.9^3 * 1 - 0 = 0.729
    assert value["advantages-critic-mc-fresh"] == pytest.approx(0.729, abs=1e-12)
    # a TD error 20 tokens ahead weighs (gamma lam)^20 = (0.99 * 0.95)^20
    assert value["advantages-critic-lambda-weight"] == pytest.approx((0.99 * 0.95) ** 20, rel=1e-12)
    # lam = 1: A_0 = sum_k r_k - V_0, V_1 cancels; lam = 0: A_0 = r_0 + V_1 - V_0 moves with V_1
    assert value["advantages-critic-later-value-mc"] == "no" and value["advantages-critic-later-value-td"] == "yes"
    # whitened over three tokens: (0.31 - 0.27) / sqrt(0.0037 + 1e-8) (see the whitening test above)
    assert value["advantages-critic-whitened"] == pytest.approx(0.04 / math.sqrt(0.0037 + 1e-8), abs=1e-9)
    # the critic: the trunk plus hidden + 1; its training state 4 x 4 bytes per parameter
    sizes = {w: answers.compute("cr_shipped_size", {"what": w}) for w in ("policy", "critic", "hidden")}
    assert sizes["critic"] - sizes["policy"] == sizes["hidden"] + 1
    assert value["advantages-critic-memory"] == pytest.approx(16 * sizes["critic"] / 2**20)
    with pytest.raises(ValueError, match="^what"):
        answers.compute("cr_shipped_size", {"what": "nope"})
    with pytest.raises(ValueError, match="^k"):
        answers.compute("cr_credit_weight", {"k": -1, "gamma": 1.0, "lam": 1.0})
    with pytest.raises(ValueError, match="^t"):
        answers.compute("cr_value_moves_first", {"rewards": [1], "values": [0.5], "t": 3, "shift": 0.1})
