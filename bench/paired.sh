#!/usr/bin/env bash
# bench/paired.sh OLD-REV [PAGES] [ROUNDS] — `locator crawl` and
# `locator probe` of the work tree beside the same commands built from
# OLD-REV, in alternating rounds (old, new, old, new, ...), so that a load
# on the machine falls on both alike: a change that slows either shows.
#
# The site is bench/crawl.sh's (make_site, start_site: PAGES pages, every
# 100th linking to a missing one) on nginx on a free port of 127.0.0.1.
# Each round: both builds crawl the whole site (--per-host 8 --delay 0
# --depth 0 --json), then probe the URLs the crawl met (the pages and the
# missing ones) from standard input (--json). It prints each build's median
# wall time per command and the new/old ratio, and checks that both
# builds met the same URLs. Each run is cut off after 600 s; nginx is
# stopped by its process id. Needs: go, git, nginx.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v go >/dev/null || export PATH="$PATH:/usr/local/go/bin"
. bench/lib.sh
OLD=${1:?usage: bench/paired.sh OLD-REV [PAGES] [ROUNDS]}
PAGES=${2:-2000}
ROUNDS=${3:-5}
command -v nginx >/dev/null || { echo "bench: nginx is not installed" >&2; exit 2; }

D=$(mktemp -d /tmp/locator-paired-bench.XXXXXX)
chmod 755 "$D"
trap cleanup EXIT

echo "bench: building locator at $OLD and from the work tree" >&2
mkdir "$D/old-src"
git archive "$OLD" | tar -x -C "$D/old-src"
(cd "$D/old-src" && go build -o "$D/old" ./cmd/locator)
go build -o "$D/new" ./cmd/locator

make_site "$D" "$PAGES" 0 1
start_site "$D" ''

# The URLs to probe: those a crawl meets (pages and broken links).
"$D/new" crawl --per-host 8 --delay 0 --depth 0 --json "$SITE" >"$D/first.crawl" 2>/dev/null || true # 1: broken links
$PY -c 'import json,sys
for l in sys.stdin:
    r = json.loads(l)
    if r.get("event") in ("page", "broken"):
        print(r.get("target") or r["url"])' <"$D/first.crawl" | sort -u >"$D/urls"
echo "bench: $PAGES pages at $SITE, $(wc -l <"$D/urls") URLs to probe, $ROUNDS rounds" >&2

TIMEFORMAT='%R'
: >"$D/times"
for r in $(seq "$ROUNDS"); do
	for b in old new; do
		t=$({ time timeout 600 "$D/$b" crawl --per-host 8 --delay 0 --depth 0 --json "$SITE" >"$D/$b.crawl" 2>/dev/null; } 2>&1 || true)
		echo "$b crawl $t" >>"$D/times"
		t=$({ time timeout 600 "$D/$b" probe --json - <"$D/urls" >"$D/$b.probe" 2>/dev/null; } 2>&1 || true)
		echo "$b probe $t" >>"$D/times"
	done
	echo "bench: round $r: $(tail -4 "$D/times" | tr '\n' ' ')" >&2
done

$PY - "$D" <<'PYEOF'
import json, statistics, sys
d = sys.argv[1]
t = {}
for line in open(f"{d}/times"):
    b, cmd, v = line.split()
    t.setdefault((b, cmd), []).append(float(v))
def urls(path, kinds):
    out = set()
    for l in open(path):
        r = json.loads(l)
        if r.get("event", "probe") in kinds:
            out.add((r.get("event"), r.get("url"), r.get("status")))
    return out
same_crawl = urls(f"{d}/old.crawl", ("page", "broken")) == urls(f"{d}/new.crawl", ("page", "broken"))
same_probe = urls(f"{d}/old.probe", ("probe",)) == urls(f"{d}/new.probe", ("probe",))
print(f"same pages and broken links: {same_crawl}; same probe records (url, status): {same_probe}")
for cmd in ("crawl", "probe"):
    o, n = statistics.median(t[("old", cmd)]), statistics.median(t[("new", cmd)])
    print(f"{cmd:6s} old median {o:6.2f} s  new median {n:6.2f} s  new/old {n / max(o, 1e-9):.2f}   "
          f"rounds old {' '.join(f'{x:.2f}' for x in t[('old', cmd)])} new {' '.join(f'{x:.2f}' for x in t[('new', cmd)])}")
PYEOF
