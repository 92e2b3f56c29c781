#!/usr/bin/env bash
# bench/ftp-http.sh — throughput of `locator get -o` against `curl -o` on
# loopback: one file (256 MiB by default) served by an FTP server (vsftpd
# when run as root, else pyftpdlib) and by nginx, downloaded in alternating
# rounds (locator, curl, locator, curl, ...). Prints, per protocol, each
# client's median throughput and spread (min–max over the rounds) and the
# ratio of the medians, locator / curl.
#
#   bench/ftp-http.sh [ROUNDS] [MIB]      (defaults 5 and 256)
#
# Bounded in time: each download is cut off after 120 s (`timeout`), so
# the whole run takes at most 4 × ROUNDS × 120 s plus the setup; on
# loopback it takes seconds. Servers are started on free ports and stopped
# by their process ids on exit. Needs go, curl, nginx (nginx-light) and
# vsftpd or python3-pyftpdlib (shared/peers/debian.md §1–2).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v go >/dev/null || export PATH="$PATH:/usr/local/go/bin"
. bench/lib.sh

ROUNDS=${1:-5}
MIB=${2:-256}

for p in go curl nginx; do
	command -v "$p" >/dev/null || { echo "bench: $p is not installed" >&2; exit 2; }
done

D=$(mktemp -d /tmp/locator-bench.XXXXXX)
trap cleanup EXIT

echo "bench: building locator" >&2
go build -o "$D/locator" ./cmd/locator
"$D/locator" get --help >/dev/null 2>&1 || { echo "bench: this locator has no get subcommand" >&2; exit 2; }

mkdir -p "$D/ftproot" "$D/www"
echo "bench: writing a ${MIB} MiB file" >&2
head -c $((MIB << 20)) /dev/urandom >"$D/ftproot/big.bin"
ln "$D/ftproot/big.bin" "$D/www/big.bin"
SIZE=$(stat -c %s "$D/ftproot/big.bin")

start_ftp_http

# run CLIENT URL: one download to $D/out; prints its throughput in MB/s
# (10^6 octets/s, wall clock) and the client's CPU seconds (user + system),
# which the machine's other load disturbs less.
run() {
	local client=$1 url=$2 t real user sys
	rm -f "$D/out"
	case $client in
	locator) t=$({ TIMEFORMAT='%R %U %S'; time timeout 120 "$D/locator" get -o "$D/out" "$url" 2>"$D/err"; } 2>&1) ;;
	curl) t=$({ TIMEFORMAT='%R %U %S'; time timeout 120 curl -s -o "$D/out" "$url" 2>"$D/err"; } 2>&1) ;;
	esac
	read -r real user sys <<<"$t"
	local got
	got=$(stat -c %s "$D/out" 2>/dev/null || echo 0)
	[ "$got" = "$SIZE" ] || { echo "bench: $client got $got octets of $SIZE from $url: $(cat "$D/err")" >&2; exit 3; }
	awk -v s="$SIZE" -v r="$real" -v u="$user" -v y="$sys" 'BEGIN { printf "%.1f %.2f\n", s / r / 1e6, u + y }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
spread() { sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s–%s", lo, hi }'; }
col() { awk -v c="$1" '{ print $c }' "$2"; }

echo "bench: ${MIB} MiB, $ROUNDS rounds each, alternating; FTP by $FTPD, HTTP by nginx" >&2
printf '%-5s %-8s %12s %16s %10s\n' proto client "median MB/s" "spread MB/s" "median CPU s"
for proto in ftp http; do
	case $proto in
	ftp) url="ftp://127.0.0.1:$FTP_PORT/big.bin" ;;
	http) url="http://127.0.0.1:$HTTP_PORT/big.bin" ;;
	esac
	: >"$D/locator.$proto"
	: >"$D/curl.$proto"
	for _ in $(seq "$ROUNDS"); do
		run locator "$url" >>"$D/locator.$proto"
		run curl "$url" >>"$D/curl.$proto"
	done
	for c in locator curl; do
		printf '%-5s %-8s %12s %16s %10s\n' "$proto" "$c" "$(col 1 "$D/$c.$proto" | median)" \
			"$(col 1 "$D/$c.$proto" | spread)" "$(col 2 "$D/$c.$proto" | median)"
	done
	awk -v l="$(col 1 "$D/locator.$proto" | median)" -v c="$(col 1 "$D/curl.$proto" | median)" \
		-v lc="$(col 2 "$D/locator.$proto" | median)" -v cc="$(col 2 "$D/curl.$proto" | median)" -v p="$proto" \
		'BEGIN { printf "%-5s locator/curl: throughput median ratio %.3f; CPU median ratio %.2f\n", p, l / c, (cc > 0 ? lc / cc : 0) }'
done
