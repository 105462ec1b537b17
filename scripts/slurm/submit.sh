#!/usr/bin/env bash
# Submits a yomi run as N shards (a Slurm job array) and a merge job that runs when every
# shard has succeeded; prints the two job ids.
#
#   scripts/slurm/submit.sh N OUTDIR YOMI-ARGS...      e.g.
#   scripts/slurm/submit.sh 16 results/league-1 league --game othello --rounds 5000 \
#       --agents othello:depth=4,othello:depth=6 --baseline random \
#       --openings data/openings/othello-8ply.txt
#
# Environment: YOMI (the yomi binary, default: yomi on the PATH), SBATCH_ARGS (extra sbatch
# options for the shards, such as "--time=2:00:00 --cpus-per-task=4"), MERGE_ARGS (options for
# `yomi merge`: --json or --csv), WAIT=1 to wait for the merge to finish (sbatch --wait).
# Outputs: OUTDIR/shard-K-of-N.{jsonl,json}, OUTDIR/merged.txt, Slurm logs OUTDIR/slurm-*.out.
set -euo pipefail

if [ $# -lt 3 ]; then
    sed -n '2,13p' "$0" >&2
    exit 2
fi
n=$1
out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
export YOMI_SHARDS=$n YOMI_OUT=$out YOMI=${YOMI:-yomi}
# shellcheck disable=SC2086 # SBATCH_ARGS and MERGE_ARGS are lists of options
array=$(sbatch --parsable --array="0-$((n - 1))" --output="$out/slurm-%A_%a.out" \
    ${SBATCH_ARGS:-} "$here/shard.sbatch" "$@")
array=${array%%;*}
wait=()
if [ "${WAIT:-0}" = 1 ]; then
    wait=(--wait)
fi
# shellcheck disable=SC2086
merge=$(sbatch --parsable "${wait[@]}" --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    --output="$out/slurm-merge-%j.out" "$here/merge.sbatch" ${MERGE_ARGS:-})
echo "shards: job $array (array 0-$((n - 1))); merge: job ${merge%%;*}"
