#!/usr/bin/env bash
# Prepare importable copies of NNI's Python trial-side code, so that NNI trial
# scripts (nni.get_next_parameter / nni.report_*_result) can be run by Tunekit's
# local runner and tested against two generations of NNI:
#   v3: the NNI repository's HEAD (HTTP channel if NNI_TRIAL_COMMAND_CHANNEL is
#       set, else the file channel)
#   v2: the newest v2.* release tag (file channel only)
#
# Usage: distribution/nni-trial-side.sh NNI_GIT_DIR [OUT_DIR]
#   NNI_GIT_DIR  a (bare) git directory of github.com/microsoft/nni
#   OUT_DIR      default: $HOME/nni-trial-side; trees go to OUT_DIR/v3, OUT_DIR/v2, and NNI's
#                scikit-learn example to OUT_DIR/examples/sklearn-classification
# Environment:
#   NNI_V2_TAG      use this tag instead of the newest v2.* tag
#   JSON_TRICKS_SRC a directory holding a json_tricks/ package (>= 3.15.5) to
#                   use instead of Debian trixie's python3-json-tricks .deb
#
# The trees are used with Debian's interpreter: PYTHONPATH=OUT_DIR/v3 /usr/bin/python3
# Run as root the first time (installs Debian packages). Safe to re-run.
set -euo pipefail

PY=/usr/bin/python3
JSON_TRICKS_MIN=3.15.5   # NNI's own requirement (json_tricks.pathlib_encode etc.)
# Python modules that `import nni` pulls in (astor is only needed by 2.x).
DEBS=(python3-astor python3-cloudpickle python3-colorama python3-filelock
      python3-numpy python3-psutil python3-requests python3-schema python3-scipy
      python3-typeguard python3-typing-extensions python3-yaml)

die() { echo "nni-trial-side: ERROR: $*" >&2; exit 1; }
log() { echo "nni-trial-side: $*" >&2; }

[[ $# -ge 1 && $# -le 2 ]] || die "usage: $0 NNI_GIT_DIR [OUT_DIR]"
NNI_GIT=$1
OUT=${2:-$HOME/nni-trial-side}
command -v git >/dev/null || die "git is not installed (apt-get install -y git)"
[[ -x $PY ]] || die "$PY not found (apt-get install -y python3)"
git --git-dir="$NNI_GIT" rev-parse -q --verify HEAD >/dev/null 2>&1 ||
  die "$NNI_GIT is not a git directory of NNI"
# The 2.x release: newest v2.* tag (v2.10.1 as of 2023).
V2_TAG=${NNI_V2_TAG:-$(git --git-dir="$NNI_GIT" tag -l 'v2.*' | sort -V | tail -1)}
[[ -n $V2_TAG ]] || die "no v2.* tag in $NNI_GIT"
git --git-dir="$NNI_GIT" rev-parse -q --verify "refs/tags/$V2_TAG^{commit}" >/dev/null ||
  die "tag $V2_TAG not found in $NNI_GIT"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# 1. Debian packages (only call apt when one is missing).
missing=()
for p in "${DEBS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  [[ $(id -u) -eq 0 ]] || die "missing Debian packages, run as root or install: ${missing[*]}"
  log "installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2 ||
    { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2; } ||
    die "apt-get install failed for: ${missing[*]}"
fi

# 2. json_tricks >= 3.15.5. Bookworm only has 3.11, which lacks pathlib_encode,
#    so nni.dump/nni.load fail with it. Take the pure-Python package from
#    Debian trixie (downloaded with a private apt state; the system's apt
#    configuration is not touched) unless JSON_TRICKS_SRC is given.
jt_version() { "$PY" -I -c 'import sys; sys.path.insert(0, sys.argv[1]); import json_tricks._version as v; print(v.VERSION)' "$1" 2>/dev/null; }
jt_ok() {  # $1: directory holding json_tricks/
  local v; v=$(jt_version "$1") || return 1
  [[ $(printf '%s\n%s\n' "$JSON_TRICKS_MIN" "$v" | sort -V | head -1) == "$JSON_TRICKS_MIN" ]]
}
JT=$OUT/.cache/json_tricks-lib   # holds json_tricks/
if [[ -n ${JSON_TRICKS_SRC:-} ]]; then
  [[ -f $JSON_TRICKS_SRC/json_tricks/__init__.py ]] || die "JSON_TRICKS_SRC=$JSON_TRICKS_SRC has no json_tricks/__init__.py"
  jt_ok "$JSON_TRICKS_SRC" || die "json_tricks in $JSON_TRICKS_SRC is older than $JSON_TRICKS_MIN"
  JT=$JSON_TRICKS_SRC
elif ! jt_ok "$JT"; then
  [[ $(id -u) -eq 0 ]] || die "json_tricks >= $JSON_TRICKS_MIN needed: run as root once, or set JSON_TRICKS_SRC"
  apt_dir=$OUT/.cache/apt-trixie
  rm -rf "$apt_dir" "$JT"
  mkdir -p "$apt_dir/parts" "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$JT"
  printf '%s\n' 'Types: deb' 'URIs: http://deb.debian.org/debian' 'Suites: trixie' \
    'Components: main' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' \
    >"$apt_dir/parts/trixie.sources"
  apt_opts=(-o "Dir::Etc::sourcelist=/dev/null" -o "Dir::Etc::sourceparts=$apt_dir/parts"
            -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
            -o APT::Sandbox::User=root)
  log "downloading python3-json-tricks from Debian trixie"
  { apt-get "${apt_opts[@]}" update -q &&
    (cd "$apt_dir" && apt-get "${apt_opts[@]}" download python3-json-tricks); } >&2 ||
    die "could not download python3-json-tricks from Debian trixie; set JSON_TRICKS_SRC to a directory holding json_tricks/ (>= $JSON_TRICKS_MIN)"
  dpkg-deb -x "$apt_dir"/python3-json-tricks_*_all.deb "$apt_dir/x"
  mv "$apt_dir"/x/usr/lib/python3/dist-packages/json_tricks "$JT/"
  rm -rf "$apt_dir"
  jt_ok "$JT" || die "downloaded json_tricks is not >= $JSON_TRICKS_MIN"
fi
JT_VERSION=$(jt_version "$JT")

# 3. The two NNI trees: nni/ from git, a version.py (as NNI's setup.py would
#    write), and a copy of json_tricks which shadows Debian's older one.

make_tree() {  # $1: name (v3|v2), $2: git ref
  local dest=$OUT/$1 commit stamp describe
  commit=$(git --git-dir="$NNI_GIT" rev-parse "$2^{commit}")
  stamp="$commit json_tricks-$JT_VERSION"
  if [[ -f $dest/.source && $(cat "$dest/.source") == "$stamp" ]]; then
    log "$1 is up to date ($2 = $commit)"
    return
  fi
  log "extracting $1 from $2 ($commit)"
  rm -rf "$dest.tmp" && mkdir -p "$dest.tmp"
  # The mirror may lack some large blobs outside nni/; git then complains on
  # stderr without failing, so stderr is kept aside and shown only on failure.
  git --git-dir="$NNI_GIT" archive "$commit" nni 2>"$dest.tmp.err" | tar -x -C "$dest.tmp" ||
    { cat "$dest.tmp.err" >&2; die "git archive of nni/ at $2 failed"; }
  rm -f "$dest.tmp.err"
  [[ -f $dest.tmp/nni/__init__.py && -f $dest.tmp/nni/trial.py ]] || die "$2 has no nni/ package"
  describe=$(git --git-dir="$NNI_GIT" describe --tags "$commit" 2>/dev/null || echo "$commit")
  echo "__version__ = '${describe#v}'" >"$dest.tmp/nni/version.py"
  cp -r "$JT/json_tricks" "$dest.tmp/"
  echo "$stamp" >"$dest.tmp/.source"
  rm -rf "$dest" && mv "$dest.tmp" "$dest"
}
make_tree v3 HEAD
make_tree v2 "refs/tags/$V2_TAG"

# 4. Smoke test in a clean environment (no NNI_* variables: standalone mode).
for v in v3 v2; do
  (cd / && env -i PATH=/usr/bin:/bin HOME="$HOME" PYTHONPATH="$OUT/$v" "$PY" -c '
import sys, nni, json_tricks
assert nni.__file__.startswith(sys.argv[1]), nni.__file__
assert json_tricks.__file__.startswith(sys.argv[1]), json_tricks.__file__
assert nni.load(nni.dump({"x": 0.5})) == {"x": 0.5}
' "$OUT/$v" >/dev/null) || die "import nni failed with PYTHONPATH=$OUT/$v (see the traceback above)"
done

# 5. NNI's scikit-learn example (examples/trials/sklearn/classification, as it is), for the tests that
#    run an NNI example unchanged on each training service; it needs Debian's python3-sklearn.
SK=$OUT/examples/sklearn-classification
if ! dpkg-query -W -f='${Status}' python3-sklearn 2>/dev/null | grep -q 'ok installed'; then
  if [[ $(id -u) -eq 0 ]]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-sklearn >&2 || log "python3-sklearn not installed: the sklearn example's tests will skip"
  else
    log "python3-sklearn is missing (run as root to install it): the sklearn example's tests will skip"
  fi
fi
rm -rf "$SK.tmp" && mkdir -p "$SK.tmp"
git --git-dir="$NNI_GIT" archive HEAD examples/trials/sklearn/classification 2>/dev/null |
  tar -x -C "$SK.tmp" --strip-components=4 || die "git archive of NNI's sklearn example failed"
[[ -f $SK.tmp/main.py && -f $SK.tmp/config.yml ]] || die "NNI's sklearn example is missing from $NNI_GIT"
rm -rf "$SK" && mv "$SK.tmp" "$SK"

echo "NNI 3 (HEAD $(git --git-dir="$NNI_GIT" describe --tags HEAD)): PYTHONPATH=$OUT/v3"
echo "NNI 2 ($V2_TAG):   PYTHONPATH=$OUT/v2"
echo "python: $PY   json_tricks: $JT_VERSION"
echo "NNI's sklearn example: $SK"
