#!/usr/bin/env bash
# CI: a real one-node Slurm cluster (Debian's packages, started as root without systemd) runs
# sharded yomi commands as job arrays with the scripts of scripts/slurm/ and merges each with
# a dependent job: a 4-shard league (merged output byte for byte the single-machine run's),
# `bench ffo` #1-#4 in 2 shards (the single run's table but the times), `train games` in 2
# shards joined by `train merge` (byte for byte the single run's game file) and `train values`
# of those games in 2 shards, joined the same way.
# Daemons are stopped by their pids; on failure the Slurm logs are printed.
#
#   .ci/slurm.sh [YOMI-BINARY]      (default: target/debug/yomi, as `cargo test --workspace` builds it)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

if [ "$(id -u)" != 0 ]; then
    echo "slurm.sh starts munged, slurmctld and slurmd as root: run it as root" >&2
    exit 1
fi
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null \
    || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        slurmctld slurmd slurm-client munge >/dev/null
fi

if [ $# -ge 1 ]; then
    yomi=$(realpath "$1")
else
    # What `cargo test --workspace` builds (the binary included): nothing new after CI's test step.
    cargo test --workspace --no-run --quiet
    yomi=$root/target/debug/yomi
fi

tmp=$(mktemp -d /tmp/yomi-slurm.XXXXXX)
pids=()
teardown() {
    local status=$?
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    if [ "$status" != 0 ]; then
        echo "== Slurm run failed (status $status): logs" >&2
        for f in "$tmp"/log/* "$tmp"/out/slurm-*.out; do
            [ -f "$f" ] || continue
            echo "---- $f" >&2
            tail -n 60 "$f" >&2
        done
    fi
    rm -rf "$tmp"
    exit "$status"
}
trap teardown EXIT

mkdir -p "$tmp"/{state,spool,log,out,munge}
chmod 711 "$tmp/munge"

# munge: a key of our own, a socket in the temporary directory.
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1 count=128 status=none
chmod 400 "$tmp/munge/munge.key"
socket=$tmp/munge/munge.socket
munged --force --foreground --key-file="$tmp/munge/munge.key" --socket="$socket" \
    --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/log/munged.log" \
    --seed-file="$tmp/munge/munge.seed" >"$tmp/log/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do
    [ -S "$socket" ] && break
    sleep 0.1
done

# slurm.conf: this machine as node `localhost`, as slurmd detects it.
node=$(slurmd -C | head -n 1 | sed -e 's/^NodeName=[^ ]*/NodeName=localhost/' \
    -e 's/ UpTime=.*//')
cpus=$(sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' <<<"$node")
cat >"$tmp/slurm.conf" <<CONF
ClusterName=yomi-ci
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MinJobAge=5
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
$node
PartitionName=ci Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf

slurmctld -D -i -f "$SLURM_CONF" >"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N localhost -f "$SLURM_CONF" >"$tmp/log/slurmd.out" 2>&1 &
pids+=($!)
state=
for _ in $(seq 120); do
    state=$(sinfo -h -N -o %t 2>/dev/null | head -n 1 || true)
    [ "$state" = idle ] && break
    sleep 0.5
done
if [ "$state" != idle ]; then
    echo "the Slurm node did not become idle (state: ${state:-none})" >&2
    exit 1
fi
echo "slurm: one node, $cpus CPUs, idle"

league=(league --game tictactoe --agents "first,pmc2:pnum=20,perfect" --baseline random
    --rounds 3000 --seed 7)
"$yomi" "${league[@]}" --threads "$cpus" >"$tmp/single.txt" 2>/dev/null

start=$(date +%s)
YOMI=$yomi WAIT=1 "$root/scripts/slurm/submit.sh" 4 "$tmp/out" "${league[@]}"
echo "slurm: 4 shards and the merge in $(($(date +%s) - start)) s"
if ! cmp "$tmp/single.txt" "$tmp/out/merged.txt"; then
    diff "$tmp/single.txt" "$tmp/out/merged.txt" >&2 || true
    exit 1
fi
ls "$tmp"/out/shard-{0,1,2,3}-of-4.jsonl >/dev/null
echo "slurm: the merged league equals the single-machine run byte for byte"

# bench ffo: 2 shards, `yomi merge`; the same table as one machine's but the times (each row's
# last two columns; one thread each, so the node counts are deterministic).
ffo=(bench ffo --from 1 --to 4)
"$yomi" "${ffo[@]}" --threads 1 >"$tmp/ffo-single.txt" 2>/dev/null
YOMI=$yomi WAIT=1 "$root/scripts/slurm/submit.sh" 2 "$tmp/ffo" "${ffo[@]}"
untimed() { awk 'NF > 3 && ($1 ~ /^[0-9]+$/ || $1 == "all") { NF -= 2 } { print }' "$1"; }
grep -q '^ all ' "$tmp/ffo/merged.txt"
if ! cmp <(untimed "$tmp/ffo-single.txt") <(untimed "$tmp/ffo/merged.txt"); then
    diff "$tmp/ffo-single.txt" "$tmp/ffo/merged.txt" >&2 || true
    exit 1
fi
echo "slurm: the merged bench ffo equals the single-machine run (but its times)"

# train games: 2 shards writing their game files ({out}), joined by `train merge`.
games=(train games --games 6 --exact 10 --seed 3)
"$yomi" "${games[@]}" --threads 1 --out "$tmp/games-single.games" >/dev/null 2>&1
YOMI=$yomi WAIT=1 YOMI_PART_EXT=games MERGE='train merge {parts} --out {out}' \
    "$root/scripts/slurm/submit.sh" 2 "$tmp/games" "${games[@]}" --out '{out}'
test -s "$tmp/games-single.games"
cmp "$tmp/games-single.games" "$tmp/games/merged.games"
echo "slurm: the merged train games file equals the single-machine run byte for byte"

# train values (labels from search) of those games: 2 shards joined by `train merge`.
values=(train values "$tmp/games-single.games" --depth 4)
"$yomi" "${values[@]}" --threads 1 --out "$tmp/values-single.values" >/dev/null 2>&1
YOMI=$yomi WAIT=1 YOMI_PART_EXT=values MERGE='train merge {parts} --out {out}' \
    "$root/scripts/slurm/submit.sh" 2 "$tmp/values" "${values[@]}" --out '{out}'
test -s "$tmp/values-single.values"
cmp "$tmp/values-single.values" "$tmp/values/merged.values"
echo "slurm: the merged train values file equals the single-machine run byte for byte"

# book deviate: 2 shards writing round parts, applied to their book by `book merge`.
head -n 200 "$root/data/openings/othello-8ply.txt" >"$tmp/lines.txt"
"$yomi" book new --lines "$tmp/lines.txt" --depth 2 --out "$tmp/b.book" >/dev/null 2>&1
round=(book deviate "$tmp/b.book" --min-ply 10 --depth 2)
"$yomi" "${round[@]}" --out "$tmp/book-single.book" >/dev/null 2>&1
YOMI=$yomi WAIT=1 YOMI_PART_EXT=book MERGE="book merge $tmp/b.book {parts} --out {out}" \
    "$root/scripts/slurm/submit.sh" 2 "$tmp/book" "${round[@]}" --out '{out}'
test -s "$tmp/book-single.book"
cmp "$tmp/book-single.book" "$tmp/book/merged.book"
echo "slurm: the merged book round equals the single-machine round byte for byte"
