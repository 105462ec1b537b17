#!/usr/bin/env bash
# `cargo package` of every library crate, verified: each crate's .crate file is unpacked and
# built alone, against the .crate files of the yomi crates it depends on (cargo's own
# multi-crate packaging, which resolves them from a temporary registry). This proves the
# crates can be reused piecemeal: versions on every path dependency, a description, a readme,
# the licence files, and no file outside the crate (such as `include_bytes!` of the
# repository's data/).
#
# The crates keep `publish = false` (nobody has decided to publish them), and cargo leaves
# unpublishable crates out of that temporary registry, so the check runs on a copy of the
# source tree whose workspace says `publish = true`; nothing else changes. The binary
# (yomi-cli) and the benches are not libraries and are not packaged.
#
# Usage: .ci/package.sh [cargo package options, e.g. --no-verify (only the .crate files, seconds)]
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
root="$PWD"

copy="$root/target/package-ci/src"
rm -rf "$copy"
mkdir -p "$copy"
# The tracked files and the new ones git does not ignore, symbolic links kept as links.
git ls-files -z --cached --others --exclude-standard | (cd "$root" && xargs -0 cp -P --parents -t "$copy")
grep -q '^publish = false$' "$copy/Cargo.toml" || {
    echo "package.sh: expected 'publish = false' in the root Cargo.toml's [workspace.package]" >&2
    exit 1
}
sed -i 's/^publish = false$/publish = true/' "$copy/Cargo.toml"

libs=()
for manifest in crates/*/Cargo.toml; do
    dir="$(dirname "$manifest")"
    name="$(sed -n 's/^name = "\(.*\)"$/\1/p' "$manifest" | head -1)"
    # The library crates of the workspace (crates/python is a workspace of its own).
    if [ -f "$dir/src/lib.rs" ] && [ "$dir" != crates/python ]; then
        libs+=(-p "$name")
    fi
done

# Cargo unpacks each verified crate under its registry directory, in a folder named after the
# temporary registry's path, and reuses an unpacked copy it finds there: a later run from the
# same path (CI's clone) would build against an earlier run's sources. Remove the yomi crates'
# unpacked copies and archives first (no crate on crates.io that yomi uses is called yomi-*).
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
rm -rf "$cargo_home"/registry/src/*/yomi-* "$cargo_home"/registry/cache/*/yomi-*.crate

cd "$copy"
# The copy's own target dir (under the workspace's), kept between runs.
export CARGO_TARGET_DIR="$root/target/package-ci/target"
cargo package --locked --allow-dirty "$@" "${libs[@]}"
echo "== package: $(( ${#libs[@]} / 2 )) crates packaged and verified in ${SECONDS} s"
ls -1 "$CARGO_TARGET_DIR/package/"*.crate
