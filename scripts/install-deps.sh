#!/bin/sh
# Installs the Debian 12 packages kma needs to build, test and run, when missing.
# Called by 'make demo' and 'make check'; does nothing when all are present.
set -e

PKGS="build-essential pkg-config libtracecmd-dev libtraceevent-dev libtracefs-dev libdw-dev
libsqlite3-dev sqlite3 trace-cmd libcmocka-dev python3 groff-base binutils zlib1g-dev libzstd-dev tmux"
# --html: Chart.js inlined into the page; Chromium renders it in t-html
PKGS="$PKGS libjs-chart.js chromium"
# KernelShark: the plugin's KernelShark side (libkshark-dev, whose headers need
# libjson-c-dev) and tests/t-kshark.sh (the GUI under Xvfb, screenshots by xwd)
PKGS="$PKGS kernelshark libkshark-dev libjson-c-dev xvfb xauth x11-apps"
# kma-push: libpq; libcrypto (SHA-256: stack keys in kma-analyze and kma-push,
# trace ids); t-fleet runs a private PostgreSQL 15 cluster
PKGS="$PKGS libpq-dev libssl-dev postgresql-15"
# t-fixedcost counts the start-up's instructions per kallsyms line with cachegrind
PKGS="$PKGS valgrind"
# t-syscalls counts the reader's system calls
PKGS="$PKGS strace"
# t-faults counts a run's page faults (GNU time: the kernel's count, no wrapper's own)
PKGS="$PKGS time"
# make fuzz: libFuzzer comes with clang's runtime
[ "${1:-}" = fuzz ] && PKGS="$PKGS clang-14 libclang-rt-14-dev"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "kma: missing packages:$missing" >&2
	echo "kma: run as root, or: sudo apt-get install$missing" >&2
	exit 1
fi
echo "kma: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
