"""Greedy decisions in a batch: :func:`decide` checks a whole batch's deterministic rows for near ties at
once, and must still pick what each decision alone would pick, finishing every row through its policy."""

import numpy as np
import pytest

from issoku.agents.batched import TIE_MARGIN, Decision, choose, decide, near_ties


class _WobblyGreedy:
    """A greedy batchable policy whose rows move by 1e-7 between a batch of one and a bigger batch; it counts the
    decisions it finishes (as a restricted policy remembers its last action)."""

    def __init__(self, probabilities):
        self.row = np.asarray(probabilities, dtype=np.float64)
        self.finished = []

    def forward(self, observations, masks):
        rows = np.repeat(self.row[None], len(observations), axis=0)
        if len(observations) > 1:
            rows[:, 0] += 1e-7
            rows[:, 1] -= 1e-7
        return rows * masks

    def begin(self, observation, mask):
        def finish(row, alone):
            action = choose(row, mask, deterministic=True, rng=None, alone=alone,
                            again=lambda: self.forward(observation[None], mask[None])[0])
            self.finished.append(action)
            return action

        return Decision("wobbly", self.forward, observation, mask, finish, True)


def test_a_near_tie_among_greedy_rows_is_decided_as_a_batch_of_one():
    observation, mask = np.zeros(2, dtype=np.float32), np.ones(3, dtype=np.int8)
    flipped = [0.4 - 1e-7, 0.4, 0.2]  # alone: 1; batched: 0 by 1e-7
    policies = [_WobblyGreedy(flipped) for _ in range(4)]
    assert decide([(policy, observation, mask) for policy in policies]) == [1] * 4
    assert [policy.finished for policy in policies] == [[1]] * 4
    clear = [0.4 - 10 * TIE_MARGIN, 0.4, 0.2 + 10 * TIE_MARGIN]
    assert decide([(_WobblyGreedy(clear), observation, mask) for _ in range(4)]) == [1] * 4


def test_near_ties_are_the_rows_choose_would_re_evaluate():
    rows = np.array([[0.5, 0.5, 0.0], [0.6, 0.4, 0.0], [1.0, 0.0, 0.0], [0.0, 0.5 - 1e-6, 0.5 + 1e-6],
                     [0.0, 0.0, 1.0]])
    masks = np.array([[1, 1, 0], [1, 1, 1], [1, 0, 0], [0, 1, 1], [1, 1, 1]], dtype=np.int8)
    expected = []
    for row, mask in zip(rows, masks):
        again = []
        choose(row, mask, deterministic=True, rng=None, alone=False, again=lambda row=row: again.append(1) or row)
        expected.append(bool(again))
    assert near_ties(rows, masks) == expected == [True, False, False, True, False]


def test_an_all_zero_mask_in_a_greedy_batch_is_refused():
    observation = np.zeros(2, dtype=np.float32)
    requests = [(_WobblyGreedy([0.5, 0.3, 0.2]), observation, np.ones(3, dtype=np.int8)),
                (_WobblyGreedy([0.5, 0.3, 0.2]), observation, np.zeros(3, dtype=np.int8))]
    with pytest.raises(ValueError, match="all-zero action mask"):
        decide(requests)
