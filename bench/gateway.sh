#!/bin/sh
# bench/gateway.sh [SECONDS] -- what `locator gateway` costs, on loopback only.
#
# pygopherd serves a menu and a 1 MiB document on a free port of
# 127.0.0.1; it answers HTTP on the same port too (shared/peers/debian.md
# §3), which gives the direct fetch of the same objects. wrk then fetches
#   1. the menu and the document directly from pygopherd (HTTP),
#   2. the same through the gateway (path form: the gateway speaks
#      Gopher+ to pygopherd and renders the menu as HTML),
# each for SECONDS (default 5) with 8 connections, and reports requests
# per second and the p50/p99 latency; then 256 connections to the gateway
# for SECONDS, and the gateway's peak resident memory (VmHWM) and its
# memory after. Bounded: each wrk run is SECONDS long; everything is
# stopped by process id at the end. Needs: go, wrk, pygopherd, curl.
set -eu
cd "$(dirname "$0")/.."
SECS=${1:-5}
for p in wrk /usr/sbin/pygopherd curl go; do
  command -v "$p" >/dev/null || { echo "bench/gateway.sh: $p is not installed" >&2; exit 2; }
done
D=$(mktemp -d)
chmod 755 "$D"
pids=""
cleanup() { for p in $pids; do kill "$p" 2>/dev/null || true; done; rm -rf "$D"; }
trap cleanup EXIT INT TERM
freeport() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
GP=$(freeport)
WP=$(freeport)

mkdir -p "$D/root/docs" "$D/run"
for i in $(seq 1 40); do printf 'file %d\n' "$i" > "$D/root/docs/file$i.txt"; done
head -c 1048576 /dev/urandom > "$D/root/big.bin"
chmod -R a+rX "$D/root"
sed -e "s/^port = 70\$/port = $GP/" -e 's/^usechroot = yes/usechroot = no/' \
    -e "s|^root = /var/gopher|root = $D/root|" \
    -e "s|^pidfile = .*|pidfile = $D/run/pygopherd.pid|" \
    -e 's/^logmethod = syslog/logmethod = none/' \
    -e 's/^# servername = gopher.example.com/servername = 127.0.0.1/' \
    -e 's/^# interface = gopher.example.com/interface = 127.0.0.1/' \
    /etc/pygopherd/pygopherd.conf > "$D/pygopherd.conf"
/usr/sbin/pygopherd "$D/pygopherd.conf" > "$D/pygopherd.log" 2>&1 &
pids="$pids $!"
go build -o "$D/locator" ./cmd/locator
"$D/locator" gateway --listen 127.0.0.1:$WP --allow 127.0.0.1:$GP --max-conns 1024 --max-per-dest 1024 --log none > /dev/null &
GW=$!
pids="$pids $GW"
for i in $(seq 100); do
  curl -s -o /dev/null "http://127.0.0.1:$GP/" && curl -s -o /dev/null "http://127.0.0.1:$WP/" && break
  sleep 0.1
done

G="http://127.0.0.1:$WP/gopher://127.0.0.1:$GP"
# Check what is measured before measuring it.
n=$(curl -s "$G/9/big.bin%09%09+" | wc -c)
[ "$n" = 1048576 ] || { echo "bench/gateway.sh: the document through the gateway has $n octets" >&2; exit 1; }
n=$(curl -s "http://127.0.0.1:$GP/big.bin" | wc -c)
[ "$n" = 1048576 ] || { echo "bench/gateway.sh: the document from pygopherd's HTTP has $n octets" >&2; exit 1; }
curl -s "$G/1/docs" | grep -q 'file40' || { echo "bench/gateway.sh: the menu through the gateway lacks its entries" >&2; exit 1; }

run() { # NAME CONNS URL
  wrk -t2 -c"$2" -d"${SECS}s" --latency "$3" > "$D/wrk.out" 2>&1 || true
  awk -v name="$1" -v c="$2" '
    /Requests\/sec/ {rps=$2}
    /^ +50%/ {p50=$2} /^ +99%/ {p99=$2}
    /Non-2xx/ {bad=$NF}
    /Socket errors/ {err=$0}
    END {printf "%-34s c=%-4s %10s req/s  p50 %-9s p99 %-9s%s%s\n", name, c, rps, p50, p99, (bad? "  non-2xx " bad : ""), (err? "  " err : "")}' "$D/wrk.out"
}
echo "bench/gateway.sh: ${SECS}s per run, wrk -t2, loopback, $(nproc) cores"
run "menu, pygopherd HTTP (direct)" 8 "http://127.0.0.1:$GP/docs"
run "menu, through the gateway" 8 "$G/1/docs"
run "1 MiB, pygopherd HTTP (direct)" 8 "http://127.0.0.1:$GP/big.bin"
run "1 MiB, through the gateway (+N)" 8 "$G/9/big.bin%09%09+"
run "gateway start page (no fetch)" 8 "http://127.0.0.1:$WP/"
grep -E 'VmRSS' /proc/$GW/status | sed 's/^/gateway before the 256-connection run: /'
run "menu, through the gateway" 256 "$G/1/docs"
grep -E 'VmHWM|VmRSS' /proc/$GW/status | sed 's/^/gateway after the 256-connection run: /'
