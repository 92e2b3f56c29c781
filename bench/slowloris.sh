#!/usr/bin/env bash
# bench/slowloris.sh [SLOW] [LEGIT] [RECONNECT] -- what a slowloris client
# does to the gateway's other clients, on loopback only.
#
# `locator gateway` is started on a free port of 127.0.0.1 with its
# defaults (--max-per-client 32, 512 connections, a 5 s header timeout);
# bench/slowloris (a Go program) makes LEGIT (default 9) requests for the
# start page from 127.0.0.2 and reports their latency (median, max) and
# failures, then opens SLOW (default 520) connections from 127.0.0.1 that
# send a request head a line a second and never end it, opening one again
# RECONNECT (default 100ms) after the gateway closes it (on one machine
# the attacker's reconnections cost the gateway CPU too), and makes the
# same requests during the attack. The run is repeated with
# --max-per-client 100000, the gateway without a bound per client, for
# comparison. Bounded: each legitimate request has a 10 s timeout, the
# attack ends with its series, and the gateway is stopped by its process
# id.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v go >/dev/null || export PATH="$PATH:/usr/local/go/bin"
. bench/lib.sh
SLOW=${1:-520}
LEGIT=${2:-9}
RECONNECT=${3:-100ms}
D=$(mktemp -d)
trap cleanup EXIT INT TERM
go build -o "$D/locator" ./cmd/locator
go build -o "$D/slowloris" ./bench/slowloris
echo "bench/slowloris.sh: $SLOW slow connections (reconnecting after $RECONNECT), $LEGIT legitimate requests per series, loopback, $(nproc) cores"
for flags in "" "--max-per-client 100000"; do
	P=$(free_port)
	"$D/locator" gateway --listen "127.0.0.1:$P" --log none $flags > /dev/null &
	GW=$!
	PIDS+=("$GW")
	wait_port "$P"
	echo "== locator gateway ${flags:-(defaults)}"
	"$D/slowloris" -gateway "127.0.0.1:$P" -slow "$SLOW" -legit "$LEGIT" -reconnect "$RECONNECT" -timeout 10s
	kill "$GW"
	wait "$GW" 2>/dev/null || true
done
