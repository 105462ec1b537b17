#!/usr/bin/env bash
# The endgame solver's thread scaling on a many-core machine lent for a few minutes (never
# needed: the project and its tests run without one). Solves FFO positions exactly at each
# thread count in turn, each within its own wall-clock limit, and reports the time, the nodes,
# the speed-up and the node overhead against the first count:
#
#   scripts/burst/solver.sh OUT [FROM TO] [THREADS...]     # default: 40 49, 1 2 4 8 16
#
# One thread takes about 35 minutes on #40-#59 and 50 s on #40-#49 (2-core AMD EPYC), so a
# 10-minute lease fits #40-#49 at every count, or #50-#59 from 4 threads up
# (`scripts/burst/solver.sh out 50 59 4 8 16`). Environment: YOMI (the yomi binary, default
# target/release/yomi, built here if missing), LIMIT (seconds per thread count, default 150),
# HASH_MB (default 64, the bench's default). A count that does not finish in LIMIT is
# stopped and reported as such; its positions solved so far are in its JSON file.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ $# -lt 1 ]; then
    sed -n '2,14p' "$0" >&2
    exit 2
fi
out=$1
shift
from=${1:-40}
to=${2:-49}
[ $# -ge 2 ] && shift 2 || shift $#
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1 2 4 8 16)
limit=${LIMIT:-150}
yomi=${YOMI:-target/release/yomi}
if [ ! -x "$yomi" ]; then
    cargo build --release --quiet -p yomi-cli
fi
mkdir -p "$out"
report="$out/report.txt"
{
    echo "# solver scaling: FFO #$from-#$to exact, threads ${counts[*]}, limit ${limit} s each"
    echo "# machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores"
    echo "# command: $yomi bench ffo --from $from --to $to --threads T --hash-mb ${HASH_MB:-64} --json"
    printf '%8s %10s %16s %10s %10s %s\n' threads seconds nodes speed-up nodes-x status
} >"$report"
base_s=""
base_n=""
for t in "${counts[@]}"; do
    json="$out/ffo-$from-$to-t$t.json"
    start=$(date +%s.%N)
    status=0
    timeout "$limit" "$yomi" bench ffo --from "$from" --to "$to" --threads "$t" \
        --hash-mb "${HASH_MB:-64}" --json >"$json" 2>"$out/ffo-$from-$to-t$t.err" || status=$?
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    # The JSON's per-position node counts, summed (the file is complete only with status 0).
    nodes=$(grep -o '"nodes": [0-9]*' "$json" | awk '{s += $2} END {print s + 0}')
    if [ "$status" = 0 ] && [ -z "$base_s" ]; then
        base_s=$secs
        base_n=$nodes
    fi
    if [ "$status" = 0 ] && [ -n "$base_s" ]; then
        speed=$(echo "scale=2; $base_s / $secs" | bc)
        over=$(echo "scale=2; $nodes / $base_n" | bc)
    else
        speed=-
        over=-
    fi
    case $status in
    0) what=solved ;;
    124) what="stopped at ${limit} s" ;;
    *) what="exit $status" ;;
    esac
    printf '%8s %10.2f %16s %10s %10s %s\n' "$t" "$secs" "$nodes" "$speed" "$over" "$what" >>"$report"
done
cat "$report"
