#!/usr/bin/env bash
# bench/bulk-probe.sh — the probe pipeline (`locator-bulk probe`, prism
# in-process) beside the command it must equal, `locator probe --json -`,
# on the same URLS URLs (default 5,000) over 20 hosts: one nginx
# listening on 127.0.0.2 … 127.0.0.21 (all this machine), a fifth of the
# URLs broken (half a missing file: gone; half a port where nothing
# listens: an error), every tenth given twice. Both run at --per-host PER
# (default 2), the command with its default --jobs 16, the pipeline with
# its runner's bound (probe.MaxUnderWay, 64 probes under way in the
# process). Both run at --delay DELAY (default 0; "50ms"), the
# command's linkcheck.Checker.Delay (dest.Pace) and the pipeline's
# rounds; the script prints beside them the floor the delay sets, which
# no scheduler at that politeness can beat: (rounds of the busiest host
# - 1) x DELAY, a round being PER probes. In each of ROUNDS
# rounds (default 3) the command and the pipeline run one after the
# other; the figures printed are the medians (wall, CPU = user + system,
# peak RSS) and the pipeline's wall time over the command's (and over
# the floor). After the first round the records are compared (sorted,
# "ms" left out: it is a measurement).
#
#   bash bench/bulk-probe.sh [ROUNDS] [URLS] [PER] [DELAY]
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh # measure
rounds=${1:-3}
urls=${2:-5000}
per=${3:-2}
delay=${4:-0}
D=$(mktemp -d)
cleanup() {
	[[ -f $D/nginx/nginx.pid ]] && kill -QUIT "$(cat "$D/nginx/nginx.pid")" 2>/dev/null || true
	sleep 0.5
	rm -rf "$D"
}
trap cleanup EXIT
export TMPDIR=$D # prism's loopback workers leave empty files in $TMPDIR
go build -o "$D/locator" ./cmd/locator
(cd bulk && go build -o "$D/locator-bulk" ./cmd/locator-bulk)

# nginx on the 20 addresses, one port.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
closed=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$D/nginx" "$D/root"
listen="listen 127.0.0.1:$port;"
for i in $(seq 2 21); do listen="$listen listen 127.0.0.$i:$port;"; done
user=""
[[ $(id -u) == 0 ]] && user="user root root;"
cat >"$D/nginx/nginx.conf" <<EOF
daemon on; master_process on; worker_processes 1; $user
pid $D/nginx/nginx.pid; error_log $D/nginx/error.log;
events { worker_connections 1024; }
http { access_log off;
  client_body_temp_path $D/nginx/body; proxy_temp_path $D/nginx/proxy;
  fastcgi_temp_path $D/nginx/fastcgi; uwsgi_temp_path $D/nginx/uwsgi; scgi_temp_path $D/nginx/scgi;
  server { $listen root $D/root; }
}
EOF
/usr/sbin/nginx -p "$D/nginx" -c "$D/nginx/nginx.conf"
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done

# The URLs: host i mod 20; in every block of 100 the fifth 20..39 broken.
python3 - "$D" "$urls" "$port" "$closed" <<'EOF'
import sys
d, n, port, closed = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
with open(d + "/urls.txt", "w") as out:
    for i in range(n):
        h = "127.0.0.%d" % (i % 20 + 2)
        if (i // 20) % 5 == 1:
            u = "http://%s:%s/missing-%d.txt" % (h, port, i) if i % 2 == 0 else "http://%s:%s/f%d.txt" % (h, closed, i)
        else:
            with open("%s/root/f%d.txt" % (d, i), "w") as f:
                f.write("x" * (i % 97))
            u = "http://%s:%s/f%d.txt" % (h, port, i)
        out.write(u + "\n")
        if i % 10 == 0:
            out.write(u + "\n")
EOF
lines=$(wc -l <"$D/urls.txt")
echo "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $(go version | cut -d' ' -f3), $rounds rounds, $lines lines ($urls distinct URLs, 20 hosts), --per-host $per, --delay $delay"


for r in $(seq "$rounds"); do
	rm -rf "$D/out"
	measure cli sh -c "'$D/locator' probe --json --per-host $per --delay $delay - <'$D/urls.txt' >'$D/cli.ndjson'"
	measure job "$D/locator-bulk" probe --input="$D/urls.txt" --output="$D/out" --per-host "$per" --delay "$delay"
	echo "round $r: cli $(tail -1 "$D/cli")  job $(tail -1 "$D/job")  (wall s, cpu s, rss KB)"
	if [[ $r == 1 ]]; then
		jq -c 'del(.ms)' "$D/cli.ndjson" | LC_ALL=C sort >"$D/cli.sorted"
		cat "$D"/out/records-*.ndjson | jq -c 'del(.ms)' | LC_ALL=C sort >"$D/job.sorted"
		if cmp -s "$D/job.sorted" "$D/cli.sorted"; then
			echo "records: equal ($(wc -l <"$D/cli.sorted") lines, sorted, ms left out)"
		else
			echo "records: DIFFER"
			diff "$D/job.sorted" "$D/cli.sorted" | head -5
			exit 1
		fi
	fi
done
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for n in cli job; do
	echo "$n median: wall $(cut -d' ' -f1 "$D/$n" | median) s, cpu $(cut -d' ' -f2 "$D/$n" | median) s, rss $(cut -d' ' -f3 "$D/$n" | median) KB"
done
cw=$(cut -d' ' -f1 "$D/cli" | median)
jw=$(cut -d' ' -f1 "$D/job" | median)
echo "wall time, pipeline over command: $(awk -v j="$jw" -v c="$cw" 'BEGIN {printf "%.2f", j / c}')x"
if [[ $delay != 0 ]]; then
	# The busiest host's distinct URLs, in rounds of PER, DELAY apart.
	busiest=$(sort -u "$D/urls.txt" | awk -F/ '{split($3, a, ":"); n[a[1]]++} END {for (h in n) if (n[h] > m) m = n[h]; print m}')
	ms=$(python3 -c "import sys, re; m = re.fullmatch(r'([0-9.]+)(ms|s)', sys.argv[1]); print(float(m[1]) * (1 if m[2] == 'ms' else 1000))" "$delay")
	floor=$(awk -v b="$busiest" -v p="$per" -v ms="$ms" 'BEGIN {r = int((b + p - 1) / p); printf "%.2f", (r - 1) * ms / 1000}')
	echo "the delay's floor: $busiest distinct URLs on the busiest host, $(((busiest + per - 1) / per)) rounds, $delay apart: $floor s; command over it: $(awk -v j="$cw" -v f="$floor" 'BEGIN {printf "%.2f", j / f}')x, pipeline over it: $(awk -v j="$jw" -v f="$floor" 'BEGIN {printf "%.2f", j / f}')x"
fi
