"""The errors an env raises, named so that callers can catch exactly what went wrong.

An illegal move is the kernel's :class:`~issoku.rules.kernel.protocol.IllegalActionError` (the adapter
raises it before the rules see the move, with the legal action names in its message); misuse of the
AEC protocol itself (stepping before ``reset``, stepping an env whose agents have all left) is an
:class:`EnvOrderError`.
"""

from __future__ import annotations

from issoku.rules.kernel.protocol import IllegalActionError


class EnvOrderError(RuntimeError):
    """The AEC protocol was called out of order (the job PettingZoo's ``OrderEnforcingWrapper`` does)."""


__all__ = ["EnvOrderError", "IllegalActionError"]
