"""Which torch build pip would install: reads ``pip install --dry-run --report -`` JSON on stdin, prints one word.

``cuda``: the wheel pip picked is a GPU build (a ``+cu``/``+rocm`` local version, or it requires NVIDIA's
``nvidia-*`` runtime packages, as the Linux wheels on the public index do); ``cpu``: any other torch wheel;
``installed``: pip would install no torch (one that fits is there already); ``unknown``: not a report pip writes. Set-up (``scripts/setup.sh``) asks
before it installs, so the default route takes the CPU build even where pip's index would serve CUDA.
Standard library only: it runs before anything is installed.
"""

import json
import sys

GPU_LOCAL_VERSIONS = ("+cu", "+rocm")
GPU_RUNTIME_PREFIX = "nvidia-"


def build_of(report: object) -> str:
    """``cuda``, ``cpu``, ``installed`` or ``unknown`` for a pip installation report."""
    wheels = report.get("install") if isinstance(report, dict) else None
    if not isinstance(wheels, list):
        return "unknown"
    for item in wheels:
        metadata = item.get("metadata", {})
        if metadata.get("name", "").lower() != "torch":
            continue
        version = metadata.get("version", "")
        requires = metadata.get("requires_dist") or []
        gpu = any(label in version for label in GPU_LOCAL_VERSIONS) or any(
            requirement.lower().startswith(GPU_RUNTIME_PREFIX) for requirement in requires)
        return "cuda" if gpu else "cpu"
    return "installed"


if __name__ == "__main__":
    try:
        print(build_of(json.load(sys.stdin)))
    except ValueError:  # not JSON (pip printed something else)
        print("unknown")
