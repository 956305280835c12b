#!/usr/bin/env bash
# A real one-node Slurm cluster on this machine, for tests/slurm.rs:
#     tests/slurm/cluster.sh ARBITER_BINARY [EXPERIMENT]
# Installs Debian's slurm-wlm and munge when missing, starts munged, slurmctld and slurmd
# from a configuration in a temporary folder (nothing in /etc is used or changed), submits
# the script `arbiter emit slurm` writes for EXPERIMENT (default matchups/quick.toml) in 4
# shards, waits for its merge, and checks that the merged CSV files equal a single-machine
# run's (timing columns aside). The daemons are stopped by PID at the end, also on failure or interruption.
# Exit codes: 0 equal, 1 a failure, 77 Slurm cannot be installed or run here (skipped).
set -euo pipefail
ARBITER=$(realpath "$1")
REPO=$(cd "$(dirname "$0")/../.." && pwd)
EXPERIMENT=$(realpath "${2:-$REPO/matchups/quick.toml}")
SHARDS=4

say() { echo "slurm test: $*" >&2; }

if [ "$(id -u)" != 0 ]; then
    say "SKIPPED: needs root to install and run the Slurm daemons"
    exit 77
fi
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
    ! command -v munged >/dev/null || ! command -v sbatch >/dev/null; then
    say "installing slurm-wlm and munge from Debian"
    if ! { apt-get update -q >/dev/null &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge >/dev/null; }; then
        say "SKIPPED: slurm-wlm and munge cannot be installed here"
        exit 77
    fi
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
    # slurmstepd outlives slurmd (a child of PID 1 that ignores SIGTERM).
    pkill -9 -x slurmstepd 2>/dev/null || true
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
