"""A small actor network evaluated in plain numpy: what a tournament pays per learned decision.

A checkpoint's actor is a few ``Linear`` layers with ``Tanh`` (SB3's ``MlpPolicy``: 128x128 by default).
At that size torch's per-call machinery (module dispatch, tensor wrapping, ``inference_mode``) costs
more than the arithmetic: measured on the 2-core development machine, one batch-of-one forward pass
is about 35 us through torch and 8 us through numpy, a batch of 27 about 84 us and 35 us. So playing
(:class:`~issoku.agents.checkpoint.CheckpointPolicy`) evaluates the same weights with numpy's matrix
products; training keeps torch.

**Not the same floats as torch.** numpy's BLAS (OpenBLAS) sums in another order than torch's (MKL), so a
logit may differ from torch's in its last float32 bits (about 1e-8). A played action can only follow such a
difference where two actions are tied within float32 rounding; the batch-of-one and the batched evaluation
here differ from each other in the same way, and :func:`issoku.agents.batched.choose` already re-evaluates
a batched decision alone within :data:`~issoku.agents.batched.TIE_MARGIN` of a tie, so lockstep play
still plays one-at-a-time play's games exactly.

**One core.** OpenBLAS splits one product across all cores once it is large enough, and where that happens
depends on the OpenBLAS build and the processor (past about 50 rows of a 129x128 layer on one development
machine, past 24 on another): a tournament worker must stay on its one core, or two workers fight over two
cores and a study's CPU time doubles. So lockstep play runs inside :func:`one_blas_thread`, which tells
the BLAS libraries numpy loaded to use one thread (threadpoolctl) and restores them afterwards.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

ACTIVATIONS = {"Tanh": np.tanh, "ReLU": lambda values, out: np.maximum(values, 0, out=out)}
"""The activation modules a network may hold, by class name, as in-place numpy functions ``f(x, out=x)``."""


class NumpyMLP:
    """``observations (B, inputs) -> logits (B, outputs)`` in float32: dense layers, each with an optional activation."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray, Any]]) -> None:
        """``layers``: ``(weight (inputs, outputs), bias (outputs,), activation or None)`` in order, float32."""
        self.layers = [(np.ascontiguousarray(weight, dtype=np.float32), np.asarray(bias, dtype=np.float32), activation)
                       for weight, bias, activation in layers]

    def __call__(self, observations: np.ndarray) -> np.ndarray:
        values = np.asarray(observations, dtype=np.float32)
        values = values.reshape(len(values), -1)  # the network's Flatten
        for weight, bias, activation in self.layers:
            values = values @ weight
            values += bias
            if activation is not None:
                activation(values, out=values)
        return values


@functools.cache
def _blas_controller() -> Any:
    """The process's BLAS libraries as threadpoolctl sees them (found once: the search walks the loaded libraries)."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Run the block with numpy's BLAS on one thread, then restore its thread count (about 25 us each way).

    Why: a worker plays on one core beside other workers, and a BLAS that spreads one product over every
    core (see the module docstring) doubles the CPU a batch costs without finishing the study sooner.
    """
    with _blas_controller().limit(limits=1, user_api="blas"):
        yield


def tanh_mlp(dense: Sequence[tuple[np.ndarray, np.ndarray]]) -> NumpyMLP:
    """SB3's ``MlpPolicy`` actor from its dense layers ``(weight (outputs, inputs), bias)`` in order: a tanh after
    each but the last, the action head (:func:`issoku.agents.checkpoint_zip.actor_layers` reads them)."""
    last = len(dense) - 1
    return NumpyMLP([(weight.T, bias, np.tanh if index < last else None) for index, (weight, bias) in enumerate(dense)])


def numpy_mlp(module: Any) -> NumpyMLP | None:
    """The numpy twin of a torch ``Sequential`` of ``Flatten`` (first), then ``Linear`` layers each followed by at
    most one ``Tanh``/``ReLU``, ending on a ``Linear``; None for any other network (it plays through torch)."""
    children = list(module.children()) if type(module).__name__ == "Sequential" else []
    if not children or type(children[0]).__name__ != "Flatten" or children[0].start_dim != 1:
        return None
    layers: list[tuple[np.ndarray, np.ndarray, Any]] = []
    for child in children[1:]:
        kind = type(child).__name__
        if kind == "Linear" and child.bias is not None:
            layers.append((child.weight.detach().numpy().T, child.bias.detach().numpy(), None))
        elif kind in ACTIVATIONS and layers and layers[-1][2] is None:
            weight, bias, _ = layers[-1]
            layers[-1] = (weight, bias, ACTIVATIONS[kind])
        else:
            return None
    if not layers or layers[-1][2] is not None:
        return None
    return NumpyMLP(layers)
