"""Maps the top-level layer folders onto the ``issoku`` namespace.

The design card keeps ``rules/ envs/ agents/ training/ evaluation/`` at the top of the repository,
while users import ``issoku.rules``, ``issoku.envs``, ... A ``package-dir`` mapping does that for
editable and normal installs alike; the package list is computed here so that a new sub-package
needs no edit to the build files. Metadata lives in ``pyproject.toml``.
"""

from setuptools import find_packages, setup

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

setup(
    packages=packages,
    package_dir=package_dir,
    # Recursive globs: the data lives in folders that are not packages (rules/*/data/, evaluation/studies/,
    # evaluation/suites/), which a plain "*.toml" (files directly in a package folder) misses; the shipped
    # checkpoints are agents/shipped/*.zip (their metadata .json comes with the JSON glob), and the first shipped
    # ones, training opponents of the shipped configs, training/configs/opponents/*.zip.
    package_data={"": ["**/*.toml", "**/*.json", "**/*.md", "shipped/*.zip", "configs/opponents/*.zip"]},
    include_package_data=True,
)
