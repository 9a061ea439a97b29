"""The numpy actor: a checkpoint's MLP evaluated without torch gives torch's logits to float32 rounding,
and a network it cannot mirror is left to torch."""

import numpy as np
import pytest
import torch

from issoku.agents.numpy_actor import numpy_mlp


def _network(*layers):
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Flatten(), *layers).eval()


@pytest.mark.parametrize("activation", [torch.nn.Tanh, torch.nn.ReLU])
@pytest.mark.parametrize("rows", [1, 7, 100])
def test_the_numpy_twin_gives_torchs_logits_to_float32_rounding(activation, rows):
    network = _network(torch.nn.Linear(129, 128), activation(), torch.nn.Linear(128, 128), activation(),
                       torch.nn.Linear(128, 100))
    observations = np.random.default_rng(rows).normal(size=(rows, 129)).astype(np.float32)
    twin = numpy_mlp(network)
    assert twin is not None
    with torch.inference_mode():
        expected = network(torch.as_tensor(observations)).numpy()
    logits = twin(observations)
    assert logits.dtype == np.float32 and logits.shape == (rows, 100)
    np.testing.assert_allclose(logits, expected, rtol=0, atol=1e-5)


def _blas_threads():
    from threadpoolctl import threadpool_info

    return [library["num_threads"] for library in threadpool_info() if library["user_api"] == "blas"]


def test_one_blas_thread_holds_numpys_blas_to_one_thread_and_restores_it():
    from threadpoolctl import threadpool_limits

    from issoku.agents.numpy_actor import one_blas_thread

    with threadpool_limits(limits=2, user_api="blas"):  # a machine with two cores, whatever this one has
        before = _blas_threads()
        assert before and max(before) == 2
        with one_blas_thread():
            assert _blas_threads() == [1] * len(before)
        assert _blas_threads() == before


def test_lockstep_play_decides_on_one_blas_thread():
    """A tournament worker's batches must not spread over the cores the other workers use."""
    from threadpoolctl import threadpool_limits

    from issoku.envs.registry import make_env
    from issoku.evaluation.games.match import play_match

    seen = []

    def policy(observation, action_mask):
        seen.append(max(_blas_threads()))
        return int(np.flatnonzero(action_mask)[0])

    with threadpool_limits(limits=2, user_api="blas"):
        play_match(make_env("tempo_duel_v0"), [policy, policy], 0, key="k", loadout="default", loadout_kwargs={},
                   policy_names=("first", "first"))
    assert seen and set(seen) == {1}


@pytest.mark.parametrize("network", [
    torch.nn.Sequential(torch.nn.Linear(4, 3)),  # no Flatten first
    _network(torch.nn.Linear(4, 3), torch.nn.Tanh()),  # ends on an activation
    _network(torch.nn.Linear(4, 3), torch.nn.Tanh(), torch.nn.Tanh(), torch.nn.Linear(3, 2)),  # two in a row
    _network(torch.nn.Linear(4, 3), torch.nn.LayerNorm(3), torch.nn.Linear(3, 2)),  # a layer it does not know
    _network(torch.nn.Linear(4, 3, bias=False)),
    _network(),
    torch.nn.Linear(4, 3),  # not a Sequential
    None,
])
def test_a_network_it_cannot_mirror_is_left_to_torch(network):
    assert numpy_mlp(network) is None
