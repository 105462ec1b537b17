#!/usr/bin/env bash
# CI for the Python package (crates/python): format and lints of the binding crate, then a
# fresh virtual environment with maturin, pytest and numpy, `pip install ./crates/python`
# (maturin builds the extension in release mode), and the pytest suite, which compares its
# numbers with the `yomi` binary.
#
# crates/python is a Cargo workspace of its own (PyO3's build script needs a Python
# interpreter), so the main workspace's `cargo ... --workspace` steps do not cover it. It
# builds in the main workspace's target directory, so its lints reuse the dependencies that
# `cargo clippy --workspace` has already checked (same Cargo.lock versions).
#
# The `yomi` binary is the one `cargo test --workspace` builds (.ci/run has just run it, so
# this costs nothing there). `cargo build -p yomi-cli` would not do: it resolves features
# without the workspace's dev-dependencies (yomi-core's `testing`), so it rebuilt every yomi
# crate at the test profile's opt-level 3, which was most of this step's time.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
export CARGO_TARGET_DIR="$PWD/target"

if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv python3-pip >/dev/null
fi

venv="target/python-ci"
rm -rf "$venv"
python3 -m venv "$venv"
py="$PWD/$venv/bin/python"
"$py" -m pip install --quiet -r crates/python/requirements-ci.txt

step() { echo "== python: $1 (at ${SECONDS} s)"; }

step "fmt and clippy of crates/python"
cargo fmt --manifest-path crates/python/Cargo.toml --check
PYO3_PYTHON="$py" cargo clippy --manifest-path crates/python/Cargo.toml --locked --all-targets -- -D warnings

step "pip install ./crates/python (release build)"
PATH="$PWD/$venv/bin:$PATH" "$py" -m pip install --quiet --no-build-isolation ./crates/python

step "the yomi binary of cargo test --workspace"
if [ -z "${YOMI_CLI:-}" ]; then
    YOMI_CLI="$(crates/python/tests/cli_path.sh)"
fi
export YOMI_CLI
echo "$YOMI_CLI"

step "pytest"
# From outside the source tree, so the tests import the installed package.
(cd "$(mktemp -d)" && "$py" -m pytest -q -p no:cacheprovider "$OLDPWD/crates/python/tests")
echo "== python: done in ${SECONDS} s"
