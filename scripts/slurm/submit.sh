#!/usr/bin/env bash
# Submits a sharded yomi command as N shards (a Slurm job array of shard.sbatch) and a merge
# job (merge.sbatch) that runs when every shard has succeeded; prints the two job ids.
#
#   scripts/slurm/submit.sh N OUTDIR YOMI-ARGS...      e.g.
#   scripts/slurm/submit.sh 16 results/league-1 league --game othello --rounds 5000 \
#       --agents othello:depth=4,othello:depth=6 --baseline random \
#       --openings data/openings/othello-8ply.txt
#   YOMI_PART_EXT=games MERGE='train merge {parts} --out {out}' \
#       scripts/slurm/submit.sh 8 results/games-1 train games --games 80000 --out {out}
#
# YOMI-ARGS may hold {shard} (K/N), {k}, {n}, {threads} and {out} (the shard's part file); see
# shard.sbatch. Environment: YOMI (the yomi binary, default: yomi on the PATH), SBATCH_ARGS
# (extra sbatch options for the shards, such as "--time=2:00:00 --cpus-per-task=4"), MERGE
# (the merge command, split at spaces, with {parts} and {out}; default: `yomi merge {parts}`),
# MERGE_ARGS (options for the default merge: --json or --csv), YOMI_PART_EXT (the part files'
# extension, default json), YOMI_RECORD (1: record and resume the games, the default for match
# and league), WAIT=1 to wait for the merge to finish (sbatch --wait).
# Outputs: OUTDIR/shard-K-of-N.EXT (and .jsonl records), OUTDIR/merged.txt (or merged.EXT with
# {out} in MERGE), Slurm logs OUTDIR/slurm-*.out.
set -euo pipefail

if [ $# -lt 3 ]; then
    sed -n '2,20p' "$0" >&2
    exit 2
fi
n=$1
out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
export YOMI_SHARDS=$n YOMI_OUT=$out YOMI=${YOMI:-yomi}
# shellcheck disable=SC2086 # SBATCH_ARGS is a list of options
array=$(sbatch --parsable --array="0-$((n - 1))" --output="$out/slurm-%A_%a.out" \
    ${SBATCH_ARGS:-} "$here/shard.sbatch" "$@")
array=${array%%;*}
wait=()
if [ "${WAIT:-0}" = 1 ]; then
    wait=(--wait)
fi
# The merge command: MERGE split at spaces (no globbing), then MERGE_ARGS.
read -r -a merge_cmd <<<"${MERGE:-}"
read -r -a merge_args <<<"${MERGE_ARGS:-}"
merge=$(sbatch --parsable "${wait[@]}" --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    --output="$out/slurm-merge-%j.out" "$here/merge.sbatch" "${merge_cmd[@]}" "${merge_args[@]}")
echo "shards: job $array (array 0-$((n - 1))); merge: job ${merge%%;*}"
