#!/usr/bin/env bash
# bench/parse.sh — Parse, a Parser (no allocation), ParseBatch and Resolve
# beside net/url, per corpus file of ../shared/data/urls and over all of
# them; medians of ROUNDS runs, each run a fresh `go test -bench` of all
# paths one after another, so locator and net/url alternate under the
# same load.
#
#   bash bench/parse.sh [ROUNDS] [CPUS]
#
# ROUNDS defaults to 5. CPUS, when given, pins the runs to those CPUs with
# taskset and sets GOMAXPROCS to their count (bash bench/parse.sh 5 0 for
# one core). The ratio is locator's median over net/url's median; the
# brackets give the lowest and highest run, and the ratio's range over
# the runs.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
cpus=${2:-}
out=$(mktemp)
trap 'rm -f "$out" "$out.test"' EXIT
go test -c -o "$out.test" . >/dev/null
run=("$out.test")
if [[ -n $cpus ]]; then
	n=$(awk -F, '{print NF}' <<<"$cpus")
	run=(env GOMAXPROCS="$n" taskset -c "$cpus" "$out.test")
	echo "pinned to CPU(s) $cpus, GOMAXPROCS=$n"
fi
echo "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $(go version | cut -d' ' -f3), $rounds rounds"
for r in $(seq "$rounds"); do
	"${run[@]}" -test.run '^$' -test.bench 'Paths' -test.benchtime 1s -test.benchmem | awk -v r="$r" '/^BenchmarkPaths/ {
		name=$1; sub(/^BenchmarkPaths/, "", name); sub(/-[0-9]+$/, "", name)
		for (i = 2; i < NF; i++) { if ($(i+1) == "ns/URL") ns=$i; if ($(i+1) == "allocs/URL") al=$i; if ($(i+1) == "B/URL") by=$i }
		print r, name, ns, sprintf("%.4f", al), sprintf("%.0f", by) }' >>"$out"
done
awk '
function median(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j+1] = a[j]; a[j+1] = t }
	return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
}
{ key = $2; n[key]++; v[key, n[key]] = $3; al[key] = $4; by[key] = $5; byrun[key, $1] = $3; runs[$1] = 1 }
END {
	split("Parse Parser ParseBatch Resolve", paths, " ")
	split("all isaacs_files kasztp node_files userbait", files, " ")
	printf "%-11s %-13s %-24s %-24s %-22s %s\n", "path", "file", "locator ns/URL [range]", "net/url ns/URL [range]", "ratio [per-run range]", "allocs, B per URL (net/url)"
	for (p = 1; p <= 4; p++) for (f = 1; f <= 5; f++) {
		k = paths[p] "/file=" files[f]
		peer = (paths[p] == "Resolve" ? "NetURLResolve" : "NetURLParse") "/file=" files[f]
		if (!(k in n)) continue
		delete a; delete b
		lo = 1e18; hi = 0; plo = 1e18; phi = 0; rlo = 1e18; rhi = 0
		for (i = 1; i <= n[k]; i++) { a[i] = v[k, i]; if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
		for (i = 1; i <= n[peer]; i++) { b[i] = v[peer, i]; if (b[i] < plo) plo = b[i]; if (b[i] > phi) phi = b[i] }
		for (r in runs) if ((k, r) in byrun && (peer, r) in byrun) {
			q = byrun[k, r] / byrun[peer, r]; if (q < rlo) rlo = q; if (q > rhi) rhi = q }
		m = median(a, n[k]); pm = median(b, n[peer])
		printf "%-11s %-13s %6.1f [%.1f–%.1f]%*s %6.1f [%.1f–%.1f]%*s %.2f× [%.2f–%.2f]%*s %s, %s (%s, %s)\n", paths[p], files[f],
			m, lo, hi, 4, "", pm, plo, phi, 4, "", m / pm, rlo, rhi, 4, "", al[k], by[k], al[peer], by[peer]
	}
}' "$out"
