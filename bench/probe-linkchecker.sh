#!/usr/bin/env bash
# bench/probe-linkchecker.sh — `locator probe` beside LinkChecker (Debian's
# linkchecker, /usr/bin/linkchecker on /usr/bin/python3) on one generated
# HTML document of a few thousand links to loopback servers: nginx (HTTP)
# and an FTP server (vsftpd when run as root, else pyftpdlib), half of the
# files there and half missing, a few on a closed port, some file: URLs.
#
#   bench/probe-linkchecker.sh [HTTP] [FTP] [FILE]     (defaults 2000 600 200)
#
# Both check the same document at the same per-host politeness: every
# server is 127.0.0.1, so at most 2 connections to the host at once
# (locator --jobs 2 --per-host 2; LinkChecker --threads 2, which bounds all
# its checks, and maxrequestspersecond lifted, nginx sending the
# "LinkChecker" header that LinkChecker asks for above 10 a second). The
# script prints each one's wall-clock time, the ratio, and the agreement
# on every URL both check (locator "ok" against LinkChecker "valid"), then
# lists every difference. Bounded in time: each run is cut off after 900 s.
# Servers are started on free ports and stopped by their process ids.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v go >/dev/null || export PATH="$PATH:/usr/local/go/bin"
. bench/lib.sh

NHTTP=${1:-2000}
NFTP=${2:-600}
NFILE=${3:-200}
LC=/usr/bin/linkchecker

for p in go nginx "$LC"; do
	command -v "$p" >/dev/null || { echo "bench: $p is not installed (apt-get install -y --no-install-recommends linkchecker nginx-light)" >&2; exit 2; }
done

D=$(mktemp -d /tmp/locator-probe-bench.XXXXXX)
chmod 755 "$D"
trap cleanup EXIT

echo "bench: building locator" >&2
go build -o "$D/locator" ./cmd/locator

mkdir -p "$D/ftproot/pub" "$D/www/pub" "$D/files" "$D/empty" "$D/nginx"
for i in $(seq 0 $((NHTTP / 2))); do printf 'http %d\n' "$i" >"$D/www/pub/f$i.txt"; done
for i in $(seq 0 $((NFTP / 2))); do printf 'ftp %d\n' "$i" >"$D/ftproot/pub/f$i.txt"; done
for i in $(seq 0 $((NFILE / 2))); do printf 'file %d\n' "$i" >"$D/files/f$i.txt"; done
chmod -R a+rX "$D"

FTP_PORT=$(free_port)
PMIN=$((30000 + RANDOM % 20000))
PMAX=$((PMIN + 49))
if [ "$(id -u)" = 0 ] && command -v vsftpd >/dev/null; then
	FTPD=vsftpd
	chmod 555 "$D/ftproot"
	{
		vsftpd_conf "$FTP_PORT" "$PMIN" "$PMAX"
		echo max_per_ip=0
		echo max_clients=0
	} >"$D/vsftpd.conf"
	chmod 600 "$D/vsftpd.conf"
	vsftpd "$D/vsftpd.conf" >"$D/ftpd.out" 2>&1 &
	PIDS+=($!)
else
	FTPD=pyftpdlib
	$PY -m pyftpdlib -i 127.0.0.1 -p "$FTP_PORT" -d "$D/ftproot" -r "$PMIN-$PMAX" >"$D/ftpd.out" 2>&1 &
	PIDS+=($!)
fi
wait_port "$FTP_PORT"

HTTP_PORT=$(free_port)
cat >"$D/nginx/nginx.conf" <<EOF
daemon off; master_process on; worker_processes 1; user nobody nogroup;
pid $D/nginx/nginx.pid; error_log $D/nginx/error.log;
events { worker_connections 256; }
http { access_log off;
  client_body_temp_path $D/nginx/body; proxy_temp_path $D/nginx/proxy;
  fastcgi_temp_path $D/nginx/fastcgi; uwsgi_temp_path $D/nginx/uwsgi; scgi_temp_path $D/nginx/scgi;
  server { listen 127.0.0.1:$HTTP_PORT; root $D/www; add_header LinkChecker locator-bench always; } }
EOF
nginx -e stderr -p "$D/nginx" -c "$D/nginx/nginx.conf" >"$D/nginx.out" 2>&1 &
PIDS+=($!)
wait_port "$HTTP_PORT"
CLOSED=$(free_port)

# The document: each file twice as many indices as exist, so half are
# missing; five links to a closed port of each scheme.
$PY - "$D" "$HTTP_PORT" "$FTP_PORT" "$CLOSED" "$NHTTP" "$NFTP" "$NFILE" >"$D/doc.html" <<'EOF'
import sys
d, hp, fp, cp, nh, nf, nl = sys.argv[1], *map(int, sys.argv[2:])
print("<!DOCTYPE html>\n<html><head><title>links</title></head><body>")
links = []
links += [f"http://127.0.0.1:{hp}/pub/f{i}.txt" for i in range(nh)]
links += [f"ftp://127.0.0.1:{fp}/pub/f{i}.txt" for i in range(nf)]
links += [f"file://{d}/files/f{i}.txt" for i in range(nl)]
links += [f"http://127.0.0.1:{cp}/x{i}.txt" for i in range(5)]
links += [f"ftp://127.0.0.1:{cp}/x{i}.txt" for i in range(5)]
# interleave the schemes, as a real document would
links.sort(key=lambda u: (int(''.join(c for c in u.rsplit('/', 1)[1] if c.isdigit()) or 0), u))
for u in links:
    print(f'<p><a href="{u}">{u}</a></p>')
print("</body></html>")
EOF
chmod 644 "$D/doc.html"
N=$(grep -c '<a href' "$D/doc.html")
echo "bench: $N links (http $NHTTP, ftp $NFTP by $FTPD, file $NFILE, 10 to a closed port), 2 connections to the host at once" >&2

cat >"$D/lcrc" <<EOF
[checking]
threads=2
timeout=30
maxrequestspersecond=100000
recursionlevel=1
[filtering]
checkextern=1
EOF
chmod 644 "$D/lcrc"

TIMEFORMAT='%R'
t_loc=$({ time timeout 900 sh -c "'$D/locator' extract --json --html '$D/doc.html' | '$D/locator' probe --json --jobs 2 --per-host 2 --retries 0 - >'$D/locator.ndjson' 2>'$D/locator.err'"; } 2>&1 || true)
t_lc=$({ time timeout 900 "$LC" -f "$D/lcrc" --verbose --no-status --no-robots -o csv "file://$D/doc.html" >"$D/lc.csv" 2>"$D/lc.err"; } 2>&1 || true)
tail -1 "$D/locator.err" >&2

$PY - "$D" "$t_loc" "$t_lc" <<'EOF'
import csv, json, sys
d, tl, tc = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
loc = {}
for line in open(f"{d}/locator.ndjson"):
    r = json.loads(line)
    loc[r["url"]] = r
lc = {}
rows = [l for l in open(f"{d}/lc.csv") if not l.startswith("#")]
for r in csv.DictReader(rows, delimiter=";"):
    if r.get("parentname", "").endswith("doc.html"):
        lc[r["urlname"]] = r
both = sorted(set(loc) & set(lc))
agree = [u for u in both if (loc[u]["status"] == "ok") == (lc[u]["valid"] == "True")]
print(f"links checked: locator {len(loc)}, LinkChecker {len(lc)}, both {len(both)}")
print(f"agreement: {len(agree)}/{len(both)} ({100 * len(agree) / max(1, len(both)):.1f}%)")
print(f"wall clock: locator {tl:.2f} s, LinkChecker {tc:.2f} s, LinkChecker/locator {tc / max(tl, 1e-9):.1f}x")
by = {}
for u in both:
    k = (u.split(":")[0], loc[u]["status"], lc[u]["valid"])
    by[k] = by.get(k, 0) + 1
for k in sorted(by):
    print("  %-6s locator %-7s LinkChecker valid=%-5s %5d" % (k[0], k[1], k[2], by[k]))
for u in both:
    if u not in agree:
        print("differs:", u, "| locator:", loc[u]["status"], loc[u].get("code", ""), loc[u].get("error", loc[u].get("text", "")),
              "| LinkChecker:", lc[u]["valid"], lc[u]["result"], lc[u]["warningstring"])
for u in sorted(set(loc) - set(lc))[:10]:
    print("only locator:", u, loc[u]["status"])
for u in sorted(set(lc) - set(loc))[:10]:
    print("only LinkChecker:", u, lc[u]["valid"], lc[u]["result"])
EOF
