#!/usr/bin/env bash
# CI for the Python package (crates/python): format and lints of the binding crate, then a
# fresh virtual environment with maturin, pytest and numpy, `pip install ./crates/python`
# (maturin builds the extension in release mode), and the pytest suite, which compares its
# numbers with the `yomi` binary ($YOMI_CLI, built here if the caller has not).
#
# crates/python is a Cargo workspace of its own (PyO3's build script needs a Python
# interpreter), so the main workspace's `cargo ... --workspace` steps do not cover it.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

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

# The CLI with the test profile: after `cargo test --workspace` (as in .ci/run) it is built.
cargo build --quiet --profile test -p yomi-cli
export YOMI_CLI="$PWD/target/debug/yomi"

step "pytest"
# From outside the source tree, so the tests import the installed package.
(cd "$(mktemp -d)" && "$py" -m pytest -q -p no:cacheprovider "$OLDPWD/crates/python/tests")
echo "== python: done in ${SECONDS} s"
