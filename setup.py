"""Maps the top-level layer folders onto the ``issoku`` namespace.

The design card keeps ``rules/ envs/ agents/ training/ evaluation/`` at the top of the repository,
while users import ``issoku.rules``, ``issoku.envs``, ... A ``package-dir`` mapping does that for
editable and normal installs alike; the package list is computed here so that a new sub-package
needs no edit to the build files. Metadata lives in ``pyproject.toml``.
"""

import os
from fnmatch import fnmatch
from glob import glob

from setuptools import Distribution, find_packages, setup
from setuptools.command.build_ext import build_ext

LAYERS = ("rules", "common", "envs", "agents", "training", "evaluation")
DATA_FOLDERS = ("scenarios", "docs/rules")

package_dir = {"issoku": "src/issoku"}
packages = ["issoku"]
for layer in LAYERS:
    package_dir[f"issoku.{layer}"] = layer
    packages.append(f"issoku.{layer}")
    for sub in find_packages(layer):
        package_dir[f"issoku.{layer}.{sub}"] = f"{layer}/{sub.replace('.', '/')}"
        packages.append(f"issoku.{layer}.{sub}")
# Folders of data outside the layers that installed commands read, shipped under the same path inside the package:
# the worked-example scenarios (``issoku replay``, ``issoku view``) and the rules reference the viewer quotes.
for folder in DATA_FOLDERS:
    package_dir["issoku." + folder.replace("/", ".")] = folder
    packages.append("issoku." + folder.replace("/", "."))

COMPILED = ("rules/kernel/*.py", "rules/breath/*.py", "rules/ma/*.py", "rules/spells/*.py", "rules/tempo/*.py",
            "rules/encounters/*.py", "envs/decision.py")
"""The modules ``ISSOKU_COMPILE=1`` compiles with mypyc (globs from the repository root): the engines' state, legal
actions, apply, clone and dice, the observation encoders, and the env adapter's per-step upkeep (``envs/decision.py``,
which no value of a user's reaches)."""
NOT_COMPILED = (
    "*/__init__.py",
    "*/content.py",                         # the data loaders: pydantic models, read once
    "rules/kernel/protocol.py",             # runtime-checkable Protocols, which a compiled module cannot define
    "rules/breath/memo.py",                 # a dict subclass held in a WeakValueDictionary
)
"""Modules under those globs that stay Python. The env adapter (envs/) stays Python too: it is where users' values
enter (numpy integers as actions), which compiled code checks against its annotations instead of accepting. The
encounter rules compile since the duel and the skirmish share one ruleset type (``rules/encounters/configured.py``)
that the engine they share is typed for."""
COMPILE = os.environ.get("ISSOKU_COMPILE", "") == "1"


def compiled_files() -> list[str]:
    return sorted({path for pattern in COMPILED for path in glob(pattern)
                   if not any(fnmatch(path, skip) for skip in NOT_COMPILED)})


class CompilingBuildExt(build_ext):
    """Runs mypyc when a build runs, not each time setuptools reads this file (metadata: minutes saved)."""

    def finalize_options(self) -> None:
        if {"build", "build_ext", "bdist_wheel", "install"} & set(self.distribution.commands):
            try:
                from mypyc.build import mypycify
            except ImportError:
                raise SystemExit("ISSOKU_COMPILE=1: mypyc (it comes with mypy, the dev extra's pin) is not installed "
                                 "here; install it and build with pip's --no-build-isolation") from None

            self.distribution.ext_modules = mypycify(
                ["--no-warn-unused-configs"] + [os.path.join("src", "issoku", path) for path in compiled_files()])
        super().finalize_options()


class CompiledDistribution(Distribution):
    def has_ext_modules(self) -> bool:
        return True


setup(
    **({"cmdclass": {"build_ext": CompilingBuildExt}, "distclass": CompiledDistribution} if COMPILE else {}),
    packages=packages,
    package_dir=package_dir,
    # Recursive globs: the data lives in folders that are not packages (rules/*/data/, evaluation/studies/,
    # evaluation/suites/), which a plain "*.toml" (files directly in a package folder) misses; the shipped
    # checkpoints are agents/shipped/*.zip (their metadata .json comes with the JSON glob), and the first shipped
    # ones, training opponents of the shipped configs, training/configs/opponents/*.zip.
    package_data={"": ["**/*.toml", "**/*.json", "**/*.md", "shipped/*.zip", "configs/opponents/*.zip"]},
    include_package_data=True,
)
