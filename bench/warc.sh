#!/usr/bin/env bash
# bench/warc.sh — what archiving costs, on loopback only.
#
#   bench/warc.sh [PAGES] [ROUNDS] [SECONDS]     (defaults 2000 5 5)
#
# 1. A crawl with and without --warc: nginx serves a generated site of
#    PAGES HTML pages (bench/crawl.sh's site: each page links to the
#    next, to page 2i+1, to the index and an image); `locator crawl
#    --per-host 8 --delay 0 --depth 0` crawls it whole, and again with
#    --warc (a new file each round), in alternating rounds, so that a
#    load on the machine falls on each alike. Prints each one's median
#    wall-clock time and the overhead of --warc (the bound is 15%), and
#    the median CPU time (user + system) of the crawl process, which
#    other work on a shared machine disturbs less than the wall clock.
# 2. A Gopher menu through the gateway, live from pygopherd and replayed
#    from a WARC file (`locator gateway --warc`, recorded by `locator get
#    --warc`): wrk -t2 -c8 for SECONDS each, alternating twice; requests
#    per second and p50/p99 (the replay is to be at least as fast).
# Bounded in time: each crawl is cut off after 600 s, each wrk run is
# SECONDS long; every server is stopped by its process id at the end.
# Needs: go, nginx, pygopherd, wrk, curl.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v go >/dev/null || export PATH="$PATH:/usr/local/go/bin"
. bench/lib.sh

PAGES=${1:-2000}
ROUNDS=${2:-5}
SECS=${3:-5}
for p in go nginx /usr/sbin/pygopherd wrk curl; do
	command -v "$p" >/dev/null || { echo "bench: $p is not installed" >&2; exit 2; }
done

D=$(mktemp -d /tmp/locator-warc-bench.XXXXXX)
chmod 755 "$D"
trap cleanup EXIT

echo "bench: building locator" >&2
go build -o "$D/locator" ./cmd/locator

make_site "$D" "$PAGES" 4000 0
start_site "$D"

echo "bench: crawl of $PAGES pages at $SITE, $ROUNDS rounds each, alternating" >&2
TIMEFORMAT='%R %U %S'
: >"$D/times"
CRAWL=("$D/locator" crawl --per-host 8 --delay 0 --depth 0 --json)
for r in $(seq "$ROUNDS"); do
	t=$({ time timeout 600 "${CRAWL[@]}" "$SITE" >"$D/plain.ndjson" 2>"$D/plain.err"; } 2>&1 || true)
	echo "plain $t" >>"$D/times"
	t=$({ time timeout 600 "${CRAWL[@]}" --warc "$D/crawl-$r.warc.gz" "$SITE" >"$D/warc.ndjson" 2>"$D/warc.err"; } 2>&1 || true)
	echo "warc $t" >>"$D/times"
	echo "bench: round $r: $(tail -2 "$D/times" | tr '\n' ' ')" >&2
done
ls -l "$D"/crawl-1.warc.gz* | awk '{print "bench: " $5 " octets " $NF}' >&2

$PY - "$D" "$ROUNDS" <<'EOF'
import json, statistics, sys, gzip
d, rounds = sys.argv[1], int(sys.argv[2])
times = {}
cpu = {}
for line in open(f"{d}/times"):
    k, wall, user, sys_ = line.split()
    times.setdefault(k, []).append(float(wall))
    cpu.setdefault(k, []).append(float(user) + float(sys_))
med = {k: statistics.median(v) for k, v in times.items()}
cmed = {k: statistics.median(v) for k, v in cpu.items()}
pages = {k: sum(1 for l in open(f"{d}/{k}.ndjson") if json.loads(l).get("event") == "page") for k in ("plain", "warc")}
records = sum(1 for l in open(f"{d}/crawl-{rounds}.warc.gz.cdxj"))
print(f"pages fetched: without --warc {pages['plain']}, with --warc {pages['warc']} ({records} captures in the index)")
for k in ("plain", "warc"):
    print(f"crawl {k:6s} median {med[k]:7.2f} s   rounds {' '.join(f'{t:.2f}' for t in times[k])}")
print(f"--warc adds {100 * (med['warc'] / med['plain'] - 1):+.1f}% to the crawl's wall time (bound: +15%)")
for k in ("plain", "warc"):
    print(f"crawl {k:6s} CPU median {cmed[k]:5.2f} s   rounds {' '.join(f'{t:.2f}' for t in cpu[k])}")
print(f"--warc adds {100 * (cmed['warc'] / cmed['plain'] - 1):+.1f}% to the crawl's CPU time (user + system)")
EOF

# 2. A Gopher menu, live and replayed through the gateway.
mkdir -p "$D/groot/docs" "$D/run"
for i in $(seq 1 40); do printf 'file %d\n' "$i" >"$D/groot/docs/file$i.txt"; done
chmod -R a+rX "$D/groot"
GP=$(free_port)
sed -e "s/^port = 70\$/port = $GP/" -e 's/^usechroot = yes/usechroot = no/' \
	-e "s|^root = /var/gopher|root = $D/groot|" \
	-e "s|^pidfile = .*|pidfile = $D/run/pygopherd.pid|" \
	-e 's/^logmethod = syslog/logmethod = none/' \
	-e 's/^# servername = gopher.example.com/servername = 127.0.0.1/' \
	-e 's/^# interface = gopher.example.com/interface = 127.0.0.1/' \
	/etc/pygopherd/pygopherd.conf >"$D/pygopherd.conf"
/usr/sbin/pygopherd "$D/pygopherd.conf" >"$D/pygopherd.log" 2>&1 &
PIDS+=($!)
wait_port "$GP"
MENU="gopher://127.0.0.1:$GP/1/docs"
"$D/locator" get --warc "$D/menu.warc.gz" "$MENU" >/dev/null
LP=$(free_port)
RP=$(free_port)
"$D/locator" gateway --listen 127.0.0.1:$LP --allow-host 127.0.0.1:$GP --max-conns 1024 --max-per-dest 1024 --log none >/dev/null &
PIDS+=($!)
"$D/locator" gateway --listen 127.0.0.1:$RP --warc "$D/menu.warc.gz" --max-conns 1024 --log none >/dev/null &
PIDS+=($!)
wait_port "$LP"
wait_port "$RP"
curl -s "http://127.0.0.1:$LP/$MENU" >"$D/live.html"
curl -s "http://127.0.0.1:$RP/$MENU" >"$D/replay.html"
cmp -s "$D/live.html" "$D/replay.html" || { echo "bench: the replayed menu is not the live one" >&2; exit 1; }
grep -q file40 "$D/replay.html" || { echo "bench: the menu lacks its entries" >&2; exit 1; }

run() { # NAME URL
	wrk -t2 -c8 -d"${SECS}s" --latency "$2" >"$D/wrk.out" 2>&1 || true
	awk -v name="$1" '
		/Requests\/sec/ {rps=$2}
		/^ +50%/ {p50=$2} /^ +99%/ {p99=$2}
		/Non-2xx/ {bad=$NF}
		END {printf "%-30s %10s req/s  p50 %-9s p99 %-9s%s\n", name, rps, p50, p99, (bad? "  non-2xx " bad : "")}' "$D/wrk.out"
}
echo "bench: gopher menu through the gateway, ${SECS}s per run, wrk -t2 -c8, $(nproc) cores"
for r in 1 2; do
	run "menu, live from pygopherd" "http://127.0.0.1:$LP/$MENU"
	run "menu, replayed from WARC" "http://127.0.0.1:$RP/$MENU"
done
