#!/usr/bin/env bash
# Builds .venv-compiled: issoku with its hot rules modules compiled by mypyc (ISSOKU_COMPILE=1, setup.py's COMPILED
# list), beside the pure-Python .venv that stays the development and default install. Needs a C compiler and the
# Python headers; the build takes minutes (mypy type-checks the package, then gcc compiles the generated C).
#
# The compiled venv borrows every dependency from .venv (a path in a .pth file, searched after its own
# site-packages; .venv's own .pth files, among them the editable issoku, are not run), so only issoku differs:
# the wheel is built by .venv's Python and installed into .venv-compiled without dependencies. A stamp names a
# digest of the sources the build reads: while none changes a call is free, after a change it builds again.
#
#   bash scripts/compiled_venv.sh                          # build (or reuse) .venv-compiled
#   .venv-compiled/bin/python -m benchmarks --sections aec # measure the compiled build (from the repository root)
#   .venv-compiled/bin/python -m pytest tests/test_compiled_build.py   # the same event logs as pure Python
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=.venv-compiled
[ -x .venv/bin/python ] || { echo "compiled-venv: no .venv; run scripts/setup.sh first" >&2; exit 2; }
DIGEST=$(git ls-files -co --exclude-standard setup.py pyproject.toml scripts/compiled_venv.sh src rules common envs \
  agents training evaluation scenarios docs/rules | sort | while read -r f; do [ -L "$f" ] || cat "$f"; done \
  | sha256sum | cut -c1-16)   # everything the wheel holds (src/issoku/<layer> are links to the layers)
STAMP="$VENV/.issoku-compiled-$DIGEST"
[ -f "$STAMP" ] && { echo "compiled-venv: $VENV is up to date"; exit 0; }
started=$SECONDS
[ -x "$VENV/bin/python" ] || .venv/bin/python -m venv --system-site-packages --without-pip "$VENV"
rm -f "$VENV"/.issoku-compiled-*
inner=$("$VENV/bin/python" -c "import sysconfig; print(sysconfig.get_path('purelib'))")
outer=$(.venv/bin/python -c "import sysconfig; print(sysconfig.get_path('purelib'))")
echo "$outer" > "$inner/issoku_dev_venv.pth"
echo "compiled-venv: building the wheel with mypyc (minutes; at $((SECONDS - started))s)"
wheels=$(mktemp -d)
trap 'rm -rf "$wheels"' EXIT
rm -rf build   # setuptools' build folder: an extension left there by an earlier module list would ship again
ISSOKU_COMPILE=1 .venv/bin/python -m pip wheel -q --no-deps --no-build-isolation -w "$wheels" .
echo "compiled-venv: installing it into $VENV (at $((SECONDS - started))s)"
.venv/bin/python -m pip --python "$VENV/bin/python" install -q --no-deps --force-reinstall "$wheels"/issoku-*.whl
"$VENV/bin/python" -c "import issoku.rules.breath.engine as m; assert not m.__file__.endswith('.py'), m.__file__"
touch "$STAMP"
echo "compiled-venv: ready in $((SECONDS - started))s ($VENV)"
