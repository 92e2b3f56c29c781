#!/usr/bin/env bash
# bench/parse.sh — Parse, a Parser (no allocation), ParseBatch and Resolve
# beside net/url, per corpus file of ../shared/data/urls and over all of
# them, in ROUNDS rounds. In each round every path runs on each file in a
# process of its own right beside net/url on the same inputs (url.Parse;
# for Resolve url.Parse of the reference and ResolveReference), so that
# the two share the machine's state of the moment: the ratio of a round
# is locator's time over net/url's in that pair of runs, and the ratio
# printed is the median of the rounds' ratios, with their range. The
# times are the medians of the rounds, with the lowest and highest run.
#
#   bash bench/parse.sh [ROUNDS] [CPUS]
#
# ROUNDS defaults to 5. CPUS, when given, pins the runs to those CPUs with
# taskset and sets GOMAXPROCS to their count (bash bench/parse.sh 5 0 for
# one core).
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
	for file in all isaacs_files kasztp node_files userbait; do
		for path in Parse Parser ParseBatch Resolve; do
			peer=NetURLParse
			[[ $path == Resolve ]] && peer=NetURLResolve
			"${run[@]}" -test.run '^$' -test.bench "^BenchmarkPaths($path|$peer)\$/^file=$file\$" -test.benchtime 1s -test.benchmem |
				awk -v r="$r" -v path="$path" -v file="$file" '/^BenchmarkPaths/ {
					name=$1; sub(/^BenchmarkPaths/, "", name); sub(/\/.*$/, "", name)
					for (i = 2; i < NF; i++) { if ($(i+1) == "ns/URL") ns=$i; if ($(i+1) == "allocs/URL") al=$i; if ($(i+1) == "B/URL") by=$i }
					print r, path, file, (name == path ? "locator" : "peer"), ns, sprintf("%.4f", al), sprintf("%.0f", by) }' >>"$out"
		done
	done
done
awk '
function median(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j+1] = a[j]; a[j+1] = t }
	return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
}
{ k = $2 "/" $3; ns[k, $4, $1] = $5; al[k, $4] = $6; by[k, $4] = $7; rounds[$1] = 1 }
END {
	split("Parse Parser ParseBatch Resolve", paths, " ")
	split("all isaacs_files kasztp node_files userbait", files, " ")
	printf "%-11s %-13s %-24s %-24s %-22s %s\n", "path", "file", "locator ns/URL [range]", "net/url ns/URL [range]", "ratio [per-round range]", "allocs, B per URL (net/url)"
	for (p = 1; p <= 4; p++) for (f = 1; f <= 5; f++) {
		k = paths[p] "/" files[f]
		delete a; delete b; delete q; n = 0
		lo = 1e18; hi = 0; plo = 1e18; phi = 0; rlo = 1e18; rhi = 0
		for (r in rounds) if ((k, "locator", r) in ns && (k, "peer", r) in ns) {
			n++; a[n] = ns[k, "locator", r]; b[n] = ns[k, "peer", r]; q[n] = a[n] / b[n]
			if (a[n] < lo) lo = a[n]; if (a[n] > hi) hi = a[n]; if (b[n] < plo) plo = b[n]; if (b[n] > phi) phi = b[n]
			if (q[n] < rlo) rlo = q[n]; if (q[n] > rhi) rhi = q[n]
		}
		if (n == 0) continue
		m = median(a, n); pm = median(b, n); qm = median(q, n)
		printf "%-11s %-13s %6.1f [%.1f–%.1f]%*s %6.1f [%.1f–%.1f]%*s %.2f× [%.2f–%.2f]%*s %s, %s (%s, %s)\n", paths[p], files[f],
			m, lo, hi, 4, "", pm, plo, phi, 4, "", qm, rlo, rhi, 4, "", al[k, "locator"], by[k, "locator"], al[k, "peer"], by[k, "peer"]
	}
}' "$out"
