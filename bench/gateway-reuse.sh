#!/bin/bash
# bench/gateway-reuse.sh OLD-REV [ROUNDS] [N] -- what one shared
# access.Client (issue 43) buys the gateway, on loopback only.
#
# Builds `locator` from OLD-REV (a build with one access.Client per
# request: 95954fb, or any before the change) with `git archive OLD-REV
# | tar -x`, and
# from the work tree (one access.Client for the whole gateway), starts
# each as a gateway on a free port of 127.0.0.1, in front of
#   - pyftpdlib serving 10 small files (anonymous, read-only), and
#   - INN (when run as root with INN installed and no other innd
#     running; under the lock internal/peer.INN takes) holding 10
#     articles of a group of the script's own, as --nntp-server,
# and then runs ROUNDS (default 5) rounds, the two builds alternating
# within each round: N (default 200) sequential requests through one
# curl (one HTTP keep-alive connection to the gateway) for the small
# files, then N for the articles (news:<message-id>). Every answer must
# be 200. It prints, per build and kind, the median of the rounds'
# requests per second, and pyftpdlib's count of logins (USER) per build.
# Everything it starts is stopped by process id. Needs: go, curl, git,
# python3-pyftpdlib.
set -euo pipefail
cd "$(dirname "$0")/.."
OLD=${1:?usage: bench/gateway-reuse.sh OLD-REV [ROUNDS] [N]}
ROUNDS=${2:-5}
N=${3:-200}
. bench/lib.sh # PY, PIDS, free_port, wait_port
for p in curl go git; do
	command -v "$p" >/dev/null || { echo "bench/gateway-reuse.sh: $p is not installed" >&2; exit 2; }
done
$PY -c 'import pyftpdlib' 2>/dev/null || { echo "bench/gateway-reuse.sh: python3-pyftpdlib is not installed" >&2; exit 2; }
D=$(mktemp -d)
chmod 755 "$D"
INNCONF=""
GROUP=""
cleanup() {
	if [ -n "$INNCONF" ]; then
		[ -n "$GROUP" ] && INNCONF=$INNCONF setpriv --reuid=news --regid=news --init-groups /usr/lib/news/bin/ctlinnd rmgroup "$GROUP" >/dev/null 2>&1 || true
		INNCONF=$INNCONF setpriv --reuid=news --regid=news --init-groups /usr/lib/news/bin/ctlinnd shutdown bench >/dev/null 2>&1 || true
		[ -n "$GROUP" ] && rm -rf "/var/spool/news/articles/${GROUP//.//}"
	fi
	for pid in "${PIDS[@]}"; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	rm -rf "$D"
}
trap cleanup EXIT INT TERM

echo "building $OLD (old) and the work tree (new)..."
mkdir -p "$D/old-src"
git archive "$OLD" | tar -x -C "$D/old-src"
(cd "$D/old-src" && go build -o "$D/locator-old" ./cmd/locator)
go build -o "$D/locator-new" ./cmd/locator

# pyftpdlib: 10 small files, every command logged.
mkdir -p "$D/ftproot/pub"
for i in $(seq 0 9); do printf 'small file %d\n' "$i" >"$D/ftproot/pub/f$i.txt"; done
FP=$(free_port)
PMIN=$((30000 + RANDOM % 20000))
cat >"$D/ftpd.py" <<'EOP'
import logging, sys
from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.handlers import FTPHandler
from pyftpdlib.servers import FTPServer
port, root, log, first = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
logging.basicConfig(filename=log, level=logging.DEBUG, format='%(message)s')
a = DummyAuthorizer(); a.add_anonymous(root)
h = FTPHandler; h.authorizer = a; h.passive_ports = range(first, first + 200)
FTPServer(('127.0.0.1', port), h).serve_forever()
EOP
$PY "$D/ftpd.py" "$FP" "$D/ftproot" "$D/ftpd.log" "$PMIN" >"$D/ftpd.out" 2>&1 &
PIDS+=($!)
wait_port "$FP"

# INN, when it can be had.
NP=""
if [ "$(id -u)" = 0 ] && [ -x /usr/lib/news/bin/innd ] && command -v setpriv >/dev/null; then
	exec 9>/run/lock/locator-inn.lock
	flock 9 # the lock internal/peer.INN takes: one innd on the machine at a time
	if [ -f /run/news/innd.pid ] && kill -0 "$(cat /run/news/innd.pid)" 2>/dev/null; then
		echo "an innd not started here runs already: news is not measured"
	else
		sed 's/^nnrpdloadlimit:.*/nnrpdloadlimit: 0/' /etc/news/inn.conf >"$D/inn.conf"
		INNCONF=$D/inn.conf
		NP=$(free_port)
		INNCONF=$INNCONF setpriv --reuid=news --regid=news --init-groups /usr/lib/news/bin/innd -f -4 127.0.0.1 -P "$NP" >"$D/innd.out" 2>&1 &
		PIDS+=($!)
		wait_port "$NP"
		sleep 1
		GROUP=locator.bench$RANDOM
		INNCONF=$INNCONF setpriv --reuid=news --regid=news --init-groups /usr/lib/news/bin/ctlinnd newgroup "$GROUP" y bench >/dev/null
		for i in $(seq 0 9); do
			$PY - "$NP" "$GROUP" "$i" <<'EOP'
import socket, sys
port, group, i = int(sys.argv[1]), sys.argv[2], sys.argv[3]
s = socket.create_connection(('127.0.0.1', port), 10); f = s.makefile('rwb')
def expect(code):
    l = f.readline().decode()
    if not l.startswith(code): sys.exit('post: want %s, got %r' % (code, l))
expect('200'); f.write(b'MODE READER\r\n'); f.flush(); expect('200')
f.write(b'POST\r\n'); f.flush(); expect('340')
art = 'From: bench@locator.test\r\nNewsgroups: %s\r\nSubject: bench %s\r\nMessage-ID: <bench%s.%s@locator.test>\r\n\r\nArticle %s.\r\n.\r\n' % (group, i, i, group, i)
f.write(art.encode()); f.flush(); expect('240'); f.write(b'QUIT\r\n'); f.flush()
EOP
		done
	fi
else
	echo "not root, or INN is not installed: news is not measured"
fi

start_gw() { # BINARY PORT
	local args=(gateway --listen "127.0.0.1:$2" --allow-host 127.0.0.1 --log none)
	[ -n "$NP" ] && args+=(--nntp-server "127.0.0.1:$NP")
	"$1" "${args[@]}" >"$D/gw-$2.out" 2>&1 &
	PIDS+=($!)
	wait_port "$2"
}
OP=$(free_port)
start_gw "$D/locator-old" "$OP"
NWP=$(free_port)
start_gw "$D/locator-new" "$NWP"

urls() { # GATEWAY-PORT KIND
	local i
	for i in $(seq 0 $((N - 1))); do
		if [ "$2" = ftp ]; then
			echo "url = \"http://127.0.0.1:$1/ftp://127.0.0.1:$FP/pub/f$((i % 10)).txt\""
		else
			echo "url = \"http://127.0.0.1:$1/news:bench$((i % 10)).$GROUP@locator.test\""
		fi
		echo "output = /dev/null"
	done
}
round() { # GATEWAY-PORT KIND: prints requests per second
	urls "$1" "$2" >"$D/curl.cfg"
	local t0 t1 codes
	t0=$(date +%s.%N)
	codes=$(curl -s -K "$D/curl.cfg" -w '%{http_code}\n')
	t1=$(date +%s.%N)
	if [ "$(grep -c '^200$' <<<"$codes")" != "$N" ]; then
		echo "bench/gateway-reuse.sh: $2 through port $1: not every answer is 200: $(sort <<<"$codes" | uniq -c | tr '\n' ' ')" >&2
		exit 1
	fi
	echo "$N $t0 $t1" | awk '{printf "%.1f\n", $1 / ($3 - $2)}'
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

kinds=(ftp)
[ -n "$NP" ] && kinds+=(news)
users_before=0
declare -A logins
for build in old new; do logins[$build]=0; done
echo "$ROUNDS rounds of $N sequential requests per build and kind, builds alternating; loopback, $(nproc) cores"
for r in $(seq "$ROUNDS"); do
	for build in old new; do
		port=$OP
		[ "$build" = new ] && port=$NWP
		for k in "${kinds[@]}"; do
			[ "$k" = ftp ] && users_before=$(grep -c -- '<- USER ' "$D/ftpd.log" || true)
			rps=$(round "$port" "$k")
			echo "$rps" >>"$D/$build-$k"
			if [ "$k" = ftp ]; then
				u=$(grep -c -- '<- USER ' "$D/ftpd.log" || true)
				logins[$build]=$((logins[$build] + u - users_before))
			fi
			printf 'round %d %-3s %-4s %8s req/s\n' "$r" "$build" "$k" "$rps"
		done
	done
done
echo "median requests per second:"
for k in "${kinds[@]}"; do
	for build in old new; do
		printf '  %-4s %-3s %8s req/s\n' "$k" "$build" "$(median <"$D/$build-$k")"
	done
done
for build in old new; do
	echo "  ftp logins (USER), $build: ${logins[$build]} for $((ROUNDS * N)) requests"
done
