#!/usr/bin/env bash
# One burst of training data on a many-core machine lent for a few minutes (never needed: the
# project and its tests run without one). Plays games or searches values with every core,
# under a wall-clock limit, and leaves the files and a report in OUT. The outputs are shards
# of a run (`--shard K/N`), so they merge with the shards other machines make:
#
#   scripts/burst/train.sh games  OUT K/N [SECONDS]   # train games --seed 11 --games 40000 --exact 18 --player learned
#   scripts/burst/train.sh values OUT K/N GAMES [SECONDS]   # train values GAMES --depth 8
#
# Environment: YOMI (the yomi binary, default target/release/yomi, built here if missing),
# SEED, GAMES, EXACT, DEPTH to change the run's recipe (docs/eval.md). A stage that does not
# finish in SECONDS (default 540) is stopped and reported as such: a smaller shard (a larger
# N) fits.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ $# -lt 3 ]; then
    sed -n '2,14p' "$0" >&2
    exit 2
fi
stage=$1
out=$2
shard=$3
shift 3
yomi=${YOMI:-target/release/yomi}
if [ ! -x "$yomi" ]; then
    cargo build --release --quiet -p yomi-cli
fi
mkdir -p "$out"
cores=$(nproc)
tag=${shard/\//-of-}
case $stage in
games)
    limit=${1:-540}
    cmd=("$yomi" train games --seed "${SEED:-11}" --games "${GAMES:-40000}" --exact "${EXACT:-18}"
        --player learned --shard "$shard" --threads "$cores" --out "$out/games-$tag.games")
    ;;
values)
    [ $# -ge 1 ] || { echo "values needs the game file" >&2; exit 2; }
    games=$1
    limit=${2:-540}
    cmd=("$yomi" train values "$games" --depth "${DEPTH:-8}" --shard "$shard" --threads "$cores"
        --out "$out/values-$tag.values")
    ;;
*)
    echo "unknown stage $stage: games or values" >&2
    exit 2
    ;;
esac
{
    echo "# burst: $stage, shard $shard, $cores cores, limit ${limit} s"
    echo "# machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
    echo "# command: ${cmd[*]}"
} >"$out/report.txt"
start=$(date +%s)
status=0
timeout "$limit" "${cmd[@]}" >>"$out/report.txt" 2>"$out/progress.txt" || status=$?
echo "# wall: $(($(date +%s) - start)) s, status $status$([ $status = 124 ] && echo ' (stopped at the limit: use a smaller shard)')" >>"$out/report.txt"
cat "$out/report.txt"
exit "$status"
