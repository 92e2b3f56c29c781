#!/usr/bin/env bash
# bench/many.sh — ten files in one run: `locator get` with ten URLs and
# ten -o against `curl` with the same ten URLs and -o, on loopback (FTP
# by vsftpd when run as root, else pyftpdlib; HTTP by nginx). One run of
# each client fetches all ten files, reusing its connection where the
# protocol allows (an FTP login, an HTTP keep-alive connection); rounds
# alternate (locator, curl, locator, ...). Prints, per protocol, each
# client's median wall time and spread over the rounds, and the ratio of
# the medians, locator / curl (below 1: locator is faster).
#
#   bench/many.sh [ROUNDS] [MIB] [FILES]      (defaults 5, 20 and 10)
#
# Bounded in time: each run is cut off after 300 s (`timeout`). Servers
# are started on free ports and stopped by their process ids on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v go >/dev/null || export PATH="$PATH:/usr/local/go/bin"
. bench/lib.sh

ROUNDS=${1:-5}
MIB=${2:-20}
FILES=${3:-10}

for p in go curl nginx; do
	command -v "$p" >/dev/null || { echo "bench: $p is not installed" >&2; exit 2; }
done

D=$(mktemp -d /tmp/locator-bench.XXXXXX)
trap cleanup EXIT

echo "bench: building locator" >&2
go build -o "$D/locator" ./cmd/locator

mkdir -p "$D/ftproot" "$D/www" "$D/out"
echo "bench: writing $FILES files of ${MIB} MiB" >&2
for i in $(seq "$FILES"); do
	head -c $((MIB << 20)) /dev/urandom >"$D/ftproot/f$i.bin"
	ln "$D/ftproot/f$i.bin" "$D/www/f$i.bin"
done
start_ftp_http

# run CLIENT PROTO: one run fetching every file; prints its wall seconds.
run() {
	local client=$1 base=$2 args=() i t
	rm -f "$D"/out/*
	for i in $(seq "$FILES"); do
		args+=(-o "$D/out/f$i.bin" "$base/f$i.bin")
	done
	case $client in
	locator) t=$({ TIMEFORMAT='%R'; time timeout 300 "$D/locator" get "${args[@]}" 2>"$D/err"; } 2>&1) ;;
	curl) t=$({ TIMEFORMAT='%R'; time timeout 300 curl -s "${args[@]}" 2>"$D/err"; } 2>&1) ;;
	esac
	for i in $(seq "$FILES"); do
		cmp -s "$D/out/f$i.bin" "$D/ftproot/f$i.bin" || { echo "bench: $client: f$i.bin differs from the served file: $(cat "$D/err")" >&2; exit 3; }
	done
	echo "$t"
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
spread() { sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s–%s", lo, hi }'; }

echo "bench: $FILES × ${MIB} MiB in one run, $ROUNDS rounds each, alternating; FTP by $FTPD, HTTP by nginx" >&2
printf '%-5s %-8s %14s %18s\n' proto client "median wall s" "spread wall s"
for proto in ftp http; do
	case $proto in
	ftp) base="ftp://127.0.0.1:$FTP_PORT" ;;
	http) base="http://127.0.0.1:$HTTP_PORT" ;;
	esac
	: >"$D/locator.$proto"
	: >"$D/curl.$proto"
	for _ in $(seq "$ROUNDS"); do
		run locator "$base" >>"$D/locator.$proto"
		run curl "$base" >>"$D/curl.$proto"
	done
	for c in locator curl; do
		printf '%-5s %-8s %14s %18s\n' "$proto" "$c" "$(median <"$D/$c.$proto")" "$(spread <"$D/$c.$proto")"
	done
	awk -v l="$(median <"$D/locator.$proto")" -v c="$(median <"$D/curl.$proto")" -v p="$proto" \
		'BEGIN { printf "%-5s locator/curl: wall time median ratio %.3f\n", p, l / c }'
done
