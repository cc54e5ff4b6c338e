#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for the Slurm service's end-to-end test (SlurmIT).
#   bash slurm/slurm-lab.sh up     installs Debian's slurm-wlm if missing, writes /etc/slurm/slurm.conf,
#                                  starts slurmctld and slurmd, waits until the node is idle
#   bash slurm/slurm-lab.sh down   stops them
# Run as root. Idempotent: "up" on a running lab only checks it. It refuses to replace a slurm.conf it
# did not write. No authentication (auth/none): for a test machine only.
set -euo pipefail

action="${1:-up}"
conf=/etc/slurm/slurm.conf
base=/var/tmp/tunekit-slurm-lab
marker="# written by tunekit's slurm/slurm-lab.sh"
host="$(hostname -s)"

die() { echo "slurm-lab: $*" >&2; exit 1; }

node_state() { sinfo --noheader --nodes="$host" --format=%T 2>/dev/null | head -n 1 || true; }

wait_idle() {
  for _ in $(seq 1 120); do
    case "$(node_state)" in
      idle|mixed|allocated) return 0 ;;
      down*|drain*) scontrol update nodename="$host" state=resume >/dev/null 2>&1 || true ;;
    esac
    sleep 0.5
  done
  die "the node $host did not become idle within 60 s (logs in $base/log)"
}

stop() {
  if [ -f "$conf" ] && grep -qF "$marker" "$conf"; then
    scontrol shutdown >/dev/null 2>&1 || true
  fi
  for d in slurmctld slurmd; do
    if [ -f "$base/$d.pid" ]; then
      pid="$(cat "$base/$d.pid")"
      for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
      kill "$pid" 2>/dev/null || true
      rm -f "$base/$d.pid"
    fi
  done
}

case "$action" in
  up) ;;
  down) stop; echo "slurm-lab: stopped"; exit 0 ;;
  *) die "usage: $0 up|down" ;;
esac

[ "$(id -u)" = 0 ] || die "run as root (slurmd runs the jobs as their users)"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null; then
  echo "slurm-lab: installing slurm-wlm"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm </dev/null >/dev/null \
    || { apt-get update -qq </dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm </dev/null >/dev/null; } \
    || die "cannot install slurm-wlm with apt-get"
fi
if [ -f "$conf" ] && ! grep -qF "$marker" "$conf"; then
  die "$conf exists and is not the lab's: not replacing a real cluster's config"
fi
if pgrep -x slurmctld >/dev/null && pgrep -x slurmd >/dev/null && [ "$(node_state)" = idle ]; then
  echo "slurm-lab: up (already running): node $host idle"
  exit 0
fi
stop

mkdir -p "$base/state" "$base/spool" "$base/log" /etc/slurm
cpus="$(nproc)"
memory="$(awk '/MemTotal/ { m = int($2 / 1024) - 512; print (m > 256 ? m : 256) }' /proc/meminfo)"
cat > "$conf.tmp" <<CONF
$marker
ClusterName=tunekit-lab
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/none
CredType=cred/none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
StateSaveLocation=$base/state
SlurmdSpoolDir=$base/spool
SlurmctldPidFile=$base/slurmctld.pid
SlurmdPidFile=$base/slurmd.pid
SlurmctldLogFile=$base/log/slurmctld.log
SlurmdLogFile=$base/log/slurmd.log
SlurmctldTimeout=30
SlurmdTimeout=30
MinJobAge=300
NodeName=$host CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
mv "$conf.tmp" "$conf"
# no cgroups in the lab (proctrack/linuxproc, task/none): a cgroup.conf of an earlier lab goes
if [ -f /etc/slurm/cgroup.conf ] && grep -qF "$marker" /etc/slurm/cgroup.conf; then rm -f /etc/slurm/cgroup.conf; fi

slurmctld -f "$conf" || die "slurmctld did not start (see $base/log/slurmctld.log)"
slurmd -f "$conf" || die "slurmd did not start (see $base/log/slurmd.log)"
wait_idle
echo "slurm-lab: up: node $host idle, $cpus CPUs, ${memory} MB, partition debug"
