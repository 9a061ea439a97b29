"""The layers import one way: rules -> envs -> agents -> training / evaluation.

Held twice: statically (no module under a layer names a higher layer or a forbidden library), and
dynamically (importing every rules module in a fresh interpreter loads no RL library).
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ORDER = ["rules", "envs", "agents", "training", "evaluation"]
RL_LIBRARIES = {"gymnasium", "pettingzoo", "torch", "stable_baselines3", "sb3_contrib", "tensorboard"}


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("layer", ORDER)
def test_layer_imports_only_lower_layers(layer):
    higher = ORDER[ORDER.index(layer) + 1:]
    offenders = []
    for path in (ROOT / layer).rglob("*.py"):
        for module in _imported_modules(path):
            parts = module.split(".")
            if parts[0] == "issoku" and len(parts) > 1 and parts[1] in higher:
                offenders.append(f"{path.relative_to(ROOT)} imports {module}")
    assert not offenders, "\n".join(offenders)


def test_rules_name_no_rl_library():
    offenders = [
        f"{path.relative_to(ROOT)} imports {module}"
        for path in (ROOT / "rules").rglob("*.py")
        for module in _imported_modules(path)
        if module.split(".")[0] in RL_LIBRARIES
    ]
    assert not offenders, "\n".join(offenders)


def test_importing_every_rules_module_loads_no_rl_library():
    modules = sorted(
        ".".join(("issoku", "rules", *path.relative_to(ROOT / "rules").with_suffix("").parts)).removesuffix(".__init__")
        for path in (ROOT / "rules").rglob("*.py")
    )
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({sorted(RL_LIBRARIES)!r})))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
