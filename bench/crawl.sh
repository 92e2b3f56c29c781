#!/usr/bin/env bash
# bench/crawl.sh — `locator crawl` beside `wget -r` and LinkChecker
# (Debian's /usr/bin/linkchecker) crawling one generated site served by
# nginx on loopback: PAGES HTML pages in directories of 100, page i
# linking to page i+1 (an absolute path), page 2i+1 (a relative
# reference), the index and an image; every 100th page links to a page
# that is not there.
#
#   bench/crawl.sh [PAGES] [ROUNDS]     (defaults 2000 3)
#
# The three crawl the whole site (no depth bound: locator --depth 0,
# wget -l inf, LinkChecker -r -1), obeying the site's robots.txt:
#   locator crawl --per-host 8 --delay 0 (--jobs 4, its default: 4
#     requests at once; more do not help on a 2-core machine)
#   wget -r -l inf -q --no-parent -P DIR (one request at a time; it
#     stores every page in DIR, which is removed after each round)
#   linkchecker -r -1 (its 10 threads, maxrequestspersecond lifted: nginx
#     sends the "LinkChecker" header it asks for above 10 a second)
# in alternating rounds, so that a load on the machine falls on each
# alike, and prints each one's median wall-clock time, the URLs each
# fetched, and the ratios. Bounded in time: each run is cut off after
# 600 s. nginx is started on a free port and stopped by its process id.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v go >/dev/null || export PATH="$PATH:/usr/local/go/bin"
. bench/lib.sh

PAGES=${1:-2000}
ROUNDS=${2:-3}
LC=/usr/bin/linkchecker

for p in go nginx wget "$LC"; do
	command -v "$p" >/dev/null || { echo "bench: $p is not installed (apt-get install -y --no-install-recommends linkchecker nginx-light wget)" >&2; exit 2; }
done

D=$(mktemp -d /tmp/locator-crawl-bench.XXXXXX)
chmod 755 "$D"
trap cleanup EXIT

echo "bench: building locator" >&2
go build -o "$D/locator" ./cmd/locator

make_site "$D" "$PAGES" 0 1
start_site "$D" 'add_header LinkChecker locator-bench always;'

cat >"$D/lcrc" <<EOF
[checking]
timeout=30
maxrequestspersecond=100000
EOF
chmod 644 "$D/lcrc"

echo "bench: $PAGES pages (+ index, image, $((PAGES / 100)) missing) at $SITE, $ROUNDS rounds" >&2
TIMEFORMAT='%R'
: >"$D/times"
for r in $(seq "$ROUNDS"); do
	t=$({ time timeout 600 "$D/locator" crawl --per-host 8 --delay 0 --depth 0 --json "$SITE" >"$D/locator.ndjson" 2>"$D/locator.err"; } 2>&1 || true)
	echo "locator $t" >>"$D/times"
	t=$({ time timeout 600 wget -r -l inf -q --no-parent -P "$D/wget" "$SITE" 2>"$D/wget.err"; } 2>&1 || true)
	echo "wget $t" >>"$D/times"
	find "$D/wget" -type f | wc -l >"$D/wget.files"
	rm -rf "$D/wget"
	t=$({ time timeout 600 "$LC" -f "$D/lcrc" -r -1 --no-status --verbose -o csv "$SITE" >"$D/lc.csv" 2>"$D/lc.err"; } 2>&1 || true)
	echo "linkchecker $t" >>"$D/times"
	echo "bench: round $r: $(tail -3 "$D/times" | tr '\n' ' ')" >&2
done
tail -1 "$D/locator.err" >&2

$PY - "$D" <<'EOF'
import json, statistics, sys
d = sys.argv[1]
times = {}
for line in open(f"{d}/times"):
    k, v = line.split()
    times.setdefault(k, []).append(float(v))
med = {k: statistics.median(v) for k, v in times.items()}
pages = sum(1 for l in open(f"{d}/locator.ndjson") if json.loads(l)["event"] == "page")
broken = sum(1 for l in open(f"{d}/locator.ndjson") if json.loads(l)["event"] == "broken")
wget_files = int(open(f"{d}/wget.files").read())
lc_rows = [l for l in open(f"{d}/lc.csv") if not l.startswith("#")][1:]
lc_urls = len({l.split(";")[0] for l in lc_rows})
lc_bad = sum(1 for l in lc_rows if ";False;" in l)
print(f"URLs: locator {pages} fetched ({broken} broken links), wget {wget_files} files stored, LinkChecker {lc_urls} URLs ({lc_bad} invalid)")
for k in ("locator", "wget", "linkchecker"):
    print(f"{k:12s} median {med[k]:7.2f} s   rounds {' '.join(f'{t:.2f}' for t in times[k])}")
print(f"wget/locator {med['wget'] / max(med['locator'], 1e-9):.1f}x, LinkChecker/locator {med['linkchecker'] / max(med['locator'], 1e-9):.1f}x")
EOF
