#!/bin/sh
# bench/cdx.sh [N] -- the CDX server API and the TimeGate of
# `locator gateway --warc` over an index of N captures (default
# 1000000), on loopback only.
#
# A real record is written first (`locator get --warc` of a page that
# python3's http.server serves); then the script generates FILE.cdxj
# beside it: N sorted CDXJ lines, 1000 hosts x N/10000 paths x 10
# captures each, every line naming that record (its offset and length),
# as an index of N captures would. The gateway is started on the file
# and asked, over HTTP with curl (time_total of each request):
#   1. 101 prefix queries (/web/cdx?url=hostH.example.com/*, output=json),
#      each of one host: N/1000 rows;
#   2. 201 TimeGate requests (/web/http://hostH.example.com/pathP with
#      an Accept-Datetime), each a 302 to the closest memento;
# and the medians are reported (the goals: < 50 ms, < 5 ms), with the
# gateway's start-up time (the index merged and the archive's read) and
# its peak resident memory (VmHWM). Bounded: each curl has --max-time
# 10; every process is stopped by its id at the end. Needs: go, curl,
# python3, awk.
set -eu
cd "$(dirname "$0")/.."
N=${1:-1000000}
for p in go curl awk /usr/bin/python3; do
  command -v "$p" >/dev/null || { echo "bench/cdx.sh: $p is not installed" >&2; exit 2; }
done
D=$(mktemp -d)
pids=""
cleanup() { for p in $pids; do kill "$p" 2>/dev/null || true; done; rm -rf "$D"; }
trap cleanup EXIT INT TERM
freeport() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
waitport() { for _ in $(seq 600); do curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$1/" && return 0; sleep 0.05; done; echo "bench/cdx.sh: nothing answers on $1" >&2; [ -f "$D/gw.err" ] && cat "$D/gw.err" >&2; exit 2; }

go build -o "$D/locator" ./cmd/locator
mkdir -p "$D/www"
echo '<title>a page</title>archived' > "$D/www/index.html"
HP=$(freeport)
(cd "$D/www" && exec /usr/bin/python3 -m http.server "$HP" --bind 127.0.0.1 >/dev/null 2>&1) &
pids="$pids $!"
waitport "$HP"
"$D/locator" get -s --allow-host 127.0.0.1 -o /dev/null --warc "$D/a.warc.gz" "http://127.0.0.1:$HP/index.html"
rec=$(grep -o '"length":"[0-9]*","offset":"[0-9]*"' "$D/a.warc.gz.cdxj" | head -1)
len=$(echo "$rec" | sed 's/.*"length":"\([0-9]*\)".*/\1/')
off=$(echo "$rec" | sed 's/.*"offset":"\([0-9]*\)".*/\1/')

PATHS=$((N / 10000))
t0=$(date +%s.%N)
awk -v paths="$PATHS" -v len="$len" -v off="$off" 'BEGIN {
  for (h = 0; h < 1000; h++) for (p = 0; p < paths; p++) for (c = 0; c < 10; c++) {
    ts = sprintf("20%02d%02d01000000", 16 + c, 1 + (p % 12))
    printf "com,example,host%04d)/path%05d %s {\"url\":\"http://host%04d.example.com/path%05d\",\"mime\":\"text/html\",\"status\":\"200\",\"digest\":\"sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\",\"length\":\"%s\",\"offset\":\"%s\",\"filename\":\"a.warc.gz\"}\n", h, p, ts, h, p, len, off
  }
}' > "$D/a.warc.gz.cdxj"
lines=$(wc -l < "$D/a.warc.gz.cdxj")
size=$(du -m "$D/a.warc.gz.cdxj" | cut -f1)
echo "index: $lines captures, $size MB of CDXJ, generated in $(echo "$(date +%s.%N) - $t0" | bc) s"

GP=$(freeport)
t0=$(date +%s.%N)
"$D/locator" gateway --listen "127.0.0.1:$GP" --log none --warc "$D/a.warc.gz" >/dev/null 2>"$D/gw.err" &
gw=$!
pids="$pids $gw"
waitport "$GP"
echo "gateway: answering $(echo "$(date +%s.%N) - $t0" | bc) s after its start"

median() { sort -n | awk '{ a[NR] = $1 } END { printf "%.2f ms (min %.2f, max %.2f, %d requests)\n", a[int((NR + 1) / 2)] * 1000, a[1] * 1000, a[NR] * 1000, NR }'; }

# One query checked for its rows first.
rows=$(curl -s --max-time 10 "http://127.0.0.1:$GP/web/cdx?url=host0500.example.com/*&output=json" | wc -l)
echo "a prefix query returns $rows rows (want $((PATHS * 10)))"
i=0
while [ $i -lt 101 ]; do
  h=$(printf '%04d' $(( (i * 7919) % 1000 )))
  curl -s -o /dev/null --max-time 10 -w '%{time_total}\n' "http://127.0.0.1:$GP/web/cdx?url=host$h.example.com/*&output=json"
  i=$((i + 1))
done | median | sed 's/^/CDX prefix query median: /'

loc=$(curl -s -o /dev/null --max-time 10 -w '%{http_code} %{redirect_url}' -H 'Accept-Datetime: Sun, 01 Mar 2020 00:00:00 GMT' "http://127.0.0.1:$GP/web/http://host0001.example.com/path00000")
echo "a TimeGate answers: $loc"
i=0
while [ $i -lt 201 ]; do
  h=$(printf '%04d' $(( (i * 7919) % 1000 )))
  p=$(printf '%05d' $(( (i * 104729) % PATHS )))
  curl -s -o /dev/null --max-time 10 -w '%{http_code} %{time_total}\n' -H 'Accept-Datetime: Sun, 01 Mar 2020 00:00:00 GMT' "http://127.0.0.1:$GP/web/http://host$h.example.com/path$p"
  i=$((i + 1))
done > "$D/tg"
echo "TimeGate answers: $(cut -d' ' -f1 "$D/tg" | sort | uniq -c | tr '\n' ' ')"
cut -d' ' -f2 "$D/tg" | median | sed 's/^/TimeGate redirect median: /'
echo "gateway peak resident memory: $(grep VmHWM /proc/$gw/status | awk '{ printf "%d MB", $2 / 1024 }')"
