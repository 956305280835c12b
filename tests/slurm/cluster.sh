#!/usr/bin/env bash
# A real one-node Slurm cluster on this machine, for tests/slurm.rs:
#     tests/slurm/cluster.sh ARBITER_BINARY [EXPERIMENT]
# Starts munged, slurmctld and slurmd (Debian's slurm-wlm and munge, which it never installs:
# .ci/run does) from a configuration in a temporary folder (nothing in /etc is used or
# changed), submits the script `arbiter emit slurm` writes for EXPERIMENT (default
# matchups/quick.toml) in 4 shards, waits for its merge, and checks that the merged CSV files
# equal a single-machine run's (timing columns aside). Then it submits the same experiment
# with one shard made to fail and checks that `job.sh --wait` says so and exits non-zero, and
# that running the script again finishes the run.
# Everything runs in a PID namespace of its own when unshare(1) can make one: when the script
# ends, the kernel ends every process it started (slurmstepd included, which leaves slurmd's
# process tree and ignores SIGTERM), and nothing else. Otherwise the daemons are stopped by
# the PIDs it started, and a slurmstepd only if its files are in this script's folder.
# Exit codes: 0 all checks hold, 1 a failure, 77 Slurm is not installed or cannot run here.
set -euo pipefail
ARBITER=$(realpath "$1")
REPO=$(cd "$(dirname "$0")/../.." && pwd)
EXPERIMENT=$(realpath "${2:-$REPO/matchups/quick.toml}")
SHARDS=4

say() { echo "slurm test: $*" >&2; }

if [ "$(id -u)" != 0 ]; then
    say "SKIPPED: needs root to run the Slurm daemons"
    exit 77
fi
for program in slurmctld slurmd munged sbatch sinfo mungekey; do
    if ! command -v "$program" >/dev/null; then
        say "SKIPPED: $program is not installed; install Debian's slurm-wlm and munge packages, as .ci/run does"
        exit 77
    fi
done
if [ -z "${ARBITER_SLURM_NAMESPACE:-}" ] &&
    unshare --pid --fork --kill-child --mount-proc true 2>/dev/null; then
    export ARBITER_SLURM_NAMESPACE=1
    exec unshare --pid --fork --kill-child --mount-proc bash "$0" "$@"
fi

T=$(mktemp -d /tmp/arbiter-slurm.XXXXXX)
chmod 755 "$T"
PIDS=()
cleanup() {
    local code=$?
    # One daemon after the other, newest first (munged last: slurmd needs it to stop).
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
        kill "${PIDS[i]}" 2>/dev/null || true
        for _ in $(seq 50); do
            kill -0 "${PIDS[i]}" 2>/dev/null || break
            sleep 0.1
        done
        kill -9 "${PIDS[i]}" 2>/dev/null || true
    done
    # slurmstepd outlives slurmd (a child of PID 1 that ignores SIGTERM). In a namespace of
    # our own the kernel ends it with us; otherwise end only those working in our folder.
    if [ -z "${ARBITER_SLURM_NAMESPACE:-}" ]; then
        for pid in $(pgrep -x slurmstepd 2>/dev/null || true); do
            if ls -l "/proc/$pid/fd" "/proc/$pid/cwd" 2>/dev/null | grep -q -- "$T/"; then
                kill -9 "$pid" 2>/dev/null || true
            fi
        done
    fi
    if [ "$code" != 0 ] && [ "$code" != 77 ]; then
        for log in "$T"/*.out "$T"/slurmctld.log "$T"/slurmd.log "$T"/run/logs/*.out; do
            [ -f "$log" ] && { say "--- $log"; tail -n 20 "$log" >&2; }
        done
    fi
    rm -rf "$T"
    exit "$code"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# munged: its own key, socket, pid and seed files; the socket folder must be 755.
mkdir -p "$T/munge/etc" "$T/munge/log" "$T/munge/lib" "$T/munge/run" "$T/state" "$T/spool"
chmod 700 "$T/munge/etc" "$T/munge/log" "$T/munge/lib"
chmod 755 "$T/munge" "$T/munge/run"
mungekey -c -k "$T/munge/etc/munge.key"
SOCKET="$T/munge/run/munge.socket"
munged -F --force --key-file="$T/munge/etc/munge.key" --socket="$SOCKET" \
    --pid-file="$T/munge/run/munged.pid" --log-file="$T/munge/log/munged.log" \
    --seed-file="$T/munge/lib/munged.seed" >"$T/munged.out" 2>&1 &
PIDS+=($!)

HOST=$(hostname -s)
: >"$T/plugstack.conf"
cat >"$T/slurm.conf" <<CONF
ClusterName=arbitertest
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
AuthInfo=socket=$SOCKET
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
PlugStackConfig=$T/plugstack.conf
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MinJobAge=4
SchedulerParameters=batch_sched_delay=0
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$T/slurm.conf"
for _ in $(seq 50); do [ -S "$SOCKET" ] && break; sleep 0.1; done
slurmctld -D -f "$SLURM_CONF" >"$T/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -f "$SLURM_CONF" >"$T/slurmd.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 150); do
    state=$(sinfo -h -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 0.2
done
if [ "$state" != idle ]; then
    say "the node did not come up (state '$state')"
    exit 1
fi
say "cluster up: node $HOST idle"

# The submission script, as a user would make and run it.
"$ARBITER" emit slurm "$EXPERIMENT" --shards "$SHARDS" --out "$T/run" \
    --agents "$REPO/agents" --time 0:10:00 >"$T/job.sh"
# In the background, so that a TERM trap runs at once.
bash "$T/job.sh" --wait >&2 &
wait $!
say "array and merge done"
"$ARBITER" run "$EXPERIMENT" --agents "$REPO/agents" --out "$T/single" --quiet

python3 - "$T/single" "$T/run/merged" "$SHARDS" <<'PY'
import csv, json, os, sys
single, merged, shards = sys.argv[1], sys.argv[2], int(sys.argv[3])
meta = json.load(open(os.path.join(merged, "meta.json")))
assert meta["status"] == "complete", meta["status"]
assert len(meta["merged_from"]) == shards, meta["merged_from"]
timing = set(json.load(open(os.path.join(single, "meta.json")))["timing_columns"])
compared = 0
for name in sorted(os.listdir(single)):
    if not name.endswith(".csv"):
        continue
    def rows(folder):
        table = list(csv.reader(open(os.path.join(folder, name))))
        keep = [i for i, column in enumerate(table[0]) if column not in timing]
        return [[row[i] for i in keep] for row in table]
    a, b = rows(single), rows(merged)
    if a != b:
        first = next(i for i in range(max(len(a), len(b))) if i >= len(a) or i >= len(b) or a[i] != b[i])
        sys.exit("%s differs from row %d: %s vs %s" % (name, first, a[first:first + 1], b[first:first + 1]))
    compared += 1
assert compared >= 4, compared
print("slurm test: %d CSV files of the merged run equal the single-machine run's" % compared, file=sys.stderr)
PY

# A shard that fails (its output folder is taken by a file): `job.sh --wait` must say which
# shard and where its log is, and exit non-zero, though Slurm cancels the merge unrun.
"$ARBITER" emit slurm "$EXPERIMENT" --shards "$SHARDS" --out "$T/fail" \
    --agents "$REPO/agents" --time 0:10:00 >"$T/fail.sh"
mkdir -p "$T/fail/shards"
echo "not a folder" >"$T/fail/shards/shard-2"
code=0
bash "$T/fail.sh" --wait >"$T/fail.stdout" 2>"$T/fail.stderr" &
wait $! || code=$?
said=$(cat "$T/fail.stderr")
if [ "$code" = 0 ]; then
    say "job.sh --wait exited 0 with shard 2 failed; it printed: $(cat "$T/fail.stdout") $said"
    exit 1
fi
for expected in "shard 2 of 4" "its log is $T/fail/logs/shard-2.out" "did not run: 1 shard(s) failed"; do
    if [[ "$said" != *"$expected"* ]]; then
        say "job.sh --wait (exit $code) did not say '$expected': $said"
        exit 1
    fi
done
if [[ "$said" == *"shard 0 of 4"* ]] || [ -e "$T/fail/merged/meta.json" ]; then
    say "job.sh --wait blamed a shard that succeeded, or a merge ran: $said"
    exit 1
fi
if [ ! -s "$T/fail/logs/shard-2.out" ]; then
    say "the failed shard's log $T/fail/logs/shard-2.out is missing or empty"
    exit 1
fi
say "a failed shard is reported (exit $code): $said"
# As the message advises: fix the cause and run the script again.
rm "$T/fail/shards/shard-2"
bash "$T/fail.sh" --wait >&2 &
wait $!
python3 - "$T/fail/merged" "$SHARDS" <<'PY'
import json, os, sys
meta = json.load(open(os.path.join(sys.argv[1], "meta.json")))
assert meta["status"] == "complete", meta["status"]
assert len(meta["merged_from"]) == int(sys.argv[2]), meta["merged_from"]
print("slurm test: the script run again after the fix merged all shards", file=sys.stderr)
PY
