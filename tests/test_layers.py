"""The layers import one way: rules -> common -> envs -> agents -> training / evaluation, and no module imports
itself back.

``common`` (where jobs run, duel tallies, the bad-input policy) sits just above the rules so that training and
evaluation both use it and evaluation never imports training for it. Held statically (no module under a layer names
a higher layer or a forbidden library; no import cycle among the modules of ``issoku``) and dynamically
(importing every rules module in a fresh interpreter loads no RL library).
"""

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ORDER = ["rules", "common", "envs", "agents", "training", "evaluation"]
RL_LIBRARIES = {"gymnasium", "pettingzoo", "torch", "stable_baselines3", "sb3_contrib", "tensorboard"}


IMPORT_PATH = re.compile(r"^(issoku(?:\.\w+)+):\w+$")
"""A ``package.module:attribute`` string a registry resolves when called (``"issoku.agents.policy:RandomLegal"``)."""


def _imported_modules(path: Path) -> set[str]:
    """The modules ``path`` imports, and those its import-path strings name: a registry's string is an import
    deferred to the call, so it binds the layers just the same."""
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and (found := IMPORT_PATH.match(node.value)):
            names.add(found.group(1))
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


def test_an_import_path_string_counts_as_an_import(tmp_path):
    planted = tmp_path / "registry.py"
    planted.write_text('FACTORIES = {"learned": "issoku.training.checkpoints:load"}\nNOTE = "issoku: a lab"\n')
    assert _imported_modules(planted) == {"issoku.training.checkpoints"}


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


def _issoku_modules(root: Path) -> dict[str, Path]:
    """Every module of the package by dotted name: ``src/issoku/*.py`` and each layer folder's files."""
    modules = {"issoku" + ("" if path.stem == "__init__" else f".{path.stem}"): path
               for path in (root / "src" / "issoku").glob("*.py")}
    for layer in ORDER:
        for path in (root / layer).rglob("*.py"):
            modules[".".join(("issoku", layer, *path.relative_to(root / layer).with_suffix("").parts))
                    .removesuffix(".__init__")] = path
    return modules


def _is_type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _runtime_imports(path: Path, name: str, modules: dict[str, Path]) -> set[str]:
    """The issoku modules ``name`` imports anywhere in its file, function bodies included (a function-local import
    that dodges a cycle at load time is still a cycle), but not under ``if TYPE_CHECKING:`` (never run). ``from
    package import name`` counts as the submodule where ``name`` is one, else as the package."""
    tree = ast.parse(path.read_text(), filename=str(path))
    unrun = {id(inner) for node in ast.walk(tree) if _is_type_checking_block(node)
             for statement in node.body for inner in ast.walk(statement)}
    package = name.split(".") if path.stem == "__init__" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in unrun:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package[:len(package) - node.level + 1] + [node.module or ""]).strip(".") \
                if node.level else node.module or ""
            found.update(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names)
    return {module for module in found if module in modules and module != name}


def _import_cycles(modules: dict[str, Path]) -> list[list[str]]:
    """The strongly connected groups of more than one module in the import graph (Tarjan), each sorted."""
    graph = {name: _runtime_imports(path, name, modules) for name, path in modules.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = [stack.pop()]
            while group[-1] != node:
                group.append(stack.pop())
            if len(group) > 1:
                cycles.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


def test_no_import_cycle_among_issoku_modules():
    assert _import_cycles(_issoku_modules(ROOT)) == []


def test_the_cycle_finder_sees_a_cycle_through_a_function_local_import(tmp_path):
    (tmp_path / "src" / "issoku").mkdir(parents=True)
    (tmp_path / "src" / "issoku" / "__init__.py").write_text("")
    (tmp_path / "evaluation").mkdir()
    (tmp_path / "evaluation" / "a.py").write_text("from issoku.evaluation.b import f\n")
    (tmp_path / "evaluation" / "b.py").write_text("def f():\n    from issoku.evaluation import a\n")
    (tmp_path / "evaluation" / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                                 "    from issoku.evaluation.a import x\n")
    assert _import_cycles(_issoku_modules(tmp_path)) == [["issoku.evaluation.a", "issoku.evaluation.b"]]
