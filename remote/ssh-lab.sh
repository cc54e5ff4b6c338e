#!/usr/bin/env bash
# Two real OpenSSH servers on this machine for platform: remote's end-to-end test (RemoteIT):
#
#   bash remote/ssh-lab.sh up [KNOWN_HOSTS]   start them (idempotent); prints the lab folder last
#   bash remote/ssh-lab.sh down               stop them
#
# up installs openssh-server with apt-get when sshd is missing, makes the user tunekit-ssh with a
# generated key (LAB/id_rsa, no passphrase), starts sshd -f on 127.0.0.1:2221 and 127.0.0.1:2222, each
# with its own host keys, config and pid file under LAB (default /tmp/tunekit-ssh-lab, or $SSH_LAB_DIR),
# and writes their known_hosts lines to LAB/known_hosts (and to KNOWN_HOSTS when given). Needs root.
set -euo pipefail

lab="${SSH_LAB_DIR:-/tmp/tunekit-ssh-lab}"
user=tunekit-ssh
ports=(2221 2222)
say() { echo "ssh-lab: $*" >&2; }

running() { # port
  local pid="$lab/sshd-$1/sshd.pid"
  [ -f "$pid" ] && kill -0 "$(cat "$pid")" 2>/dev/null
}

down() {
  for p in "${ports[@]}"; do
    if running "$p"; then
      kill "$(cat "$lab/sshd-$p/sshd.pid")"
      say "stopped sshd on 127.0.0.1:$p"
    fi
  done
}

up() {
  local known="${1:-}"
  if [ "$(id -u)" != 0 ]; then
    say "needs root (it adds the user $user and runs sshd); not started"
    exit 1
  fi
  local sshd
  sshd="$(command -v sshd || true)"
  [ -z "$sshd" ] && [ -x /usr/sbin/sshd ] && sshd=/usr/sbin/sshd
  if [ -z "$sshd" ]; then
    say "installing openssh-server with apt-get"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q openssh-server >/dev/null </dev/null \
      || { DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null </dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q openssh-server >/dev/null </dev/null; }
    sshd=/usr/sbin/sshd
  fi
  mkdir -p "$lab" /run/sshd
  chmod 755 "$lab"
  if ! id "$user" >/dev/null 2>&1; then
    useradd -m -s /bin/bash "$user"
    say "added user $user"
  fi
  # '*': no password to log in with, but not a locked account, which sshd would refuse keys for
  usermod -p '*' "$user"
  if [ ! -f "$lab/id_rsa" ]; then
    ssh-keygen -q -t rsa -b 3072 -N '' -C "$user@ssh-lab" -f "$lab/id_rsa"
    say "generated the key $lab/id_rsa"
  fi
  local home
  home="$(getent passwd "$user" | cut -d: -f6)"
  install -d -m 700 -o "$user" -g "$user" "$home/.ssh"
  install -m 600 -o "$user" -g "$user" "$lab/id_rsa.pub" "$home/.ssh/authorized_keys"
  : > "$lab/known_hosts"
  for p in "${ports[@]}"; do
    local d="$lab/sshd-$p"
    mkdir -p "$d"
    for t in rsa ecdsa; do
      [ -f "$d/ssh_host_${t}_key" ] || ssh-keygen -q -t "$t" -N '' -f "$d/ssh_host_${t}_key"
    done
    cat > "$d/sshd_config" <<EOF
Port $p
ListenAddress 127.0.0.1
HostKey $d/ssh_host_rsa_key
HostKey $d/ssh_host_ecdsa_key
PidFile $d/sshd.pid
AllowUsers $user
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
AuthorizedKeysFile .ssh/authorized_keys
UsePAM no
PrintMotd no
EOF
    if running "$p"; then
      say "sshd already runs on 127.0.0.1:$p (pid $(cat "$d/sshd.pid"))"
    else
      "$sshd" -f "$d/sshd_config" -E "$d/sshd.log"
      for _ in $(seq 50); do running "$p" && break; sleep 0.1; done
      running "$p" || { say "sshd on 127.0.0.1:$p did not start; see $d/sshd.log"; exit 1; }
      say "started sshd on 127.0.0.1:$p (pid $(cat "$d/sshd.pid"), config $d/sshd_config)"
    fi
    for t in rsa ecdsa; do
      echo "[127.0.0.1]:$p $(cut -d' ' -f1,2 "$d/ssh_host_${t}_key.pub")" >> "$lab/known_hosts"
    done
  done
  if [ -n "$known" ]; then
    mkdir -p "$(dirname "$known")"
    touch "$known"
    grep -v -e '^\[127\.0\.0\.1\]:2221 ' -e '^\[127\.0\.0\.1\]:2222 ' "$known" > "$known.tmp" || true
    cat "$lab/known_hosts" >> "$known.tmp"
    mv "$known.tmp" "$known"
    say "wrote the host keys to $known"
  fi
  say "user $user, key $lab/id_rsa, known_hosts $lab/known_hosts"
  echo "$lab"
}

case "${1:-}" in
  up) up "${2:-}" ;;
  down) down ;;
  *) echo "usage: $0 up [KNOWN_HOSTS] | down" >&2; exit 2 ;;
esac
