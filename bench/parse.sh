#!/usr/bin/env bash
# bench/parse.sh — Parse (the core alone, and with every scheme's rules
# linked in: locator/schemes), a Parser (no allocation), ParseBatch and
# Resolve (the core alone, and with every scheme's rules) beside net/url,
# per corpus file of the test data's data/urls and
# over all of them, in ROUNDS rounds. In each round every path runs on
# each file in a process of its own right beside net/url on the same
# inputs (url.Parse; for Resolve url.Parse of the reference and
# ResolveReference), so that the two share the machine's state of the
# moment (ParseSchemes and ResolveSchemes run in the test binary of
# ./schemes, which links every scheme, beside the same net/url benchmarks
# there): the ratio of a
# round is locator's time over net/url's in that pair of runs, and the
# ratio printed is the median of the rounds' ratios, with their range.
# The times are the medians of the rounds, with the lowest and highest
# run.
#
# Two times are read from each run: the time on the clock (ns/URL) and
# the process's CPU time, user and system, the collector's included
# (cpu-ns/URL). On a machine that other work shares, the clock counts
# the time the process waited for a CPU as well; the CPU time does not,
# and its ratio holds where the clock's swings. Both ratios are printed.
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
trap 'rm -f "$out" "$out.test" "$out.schemes.test"' EXIT
go test -c -o "$out.test" . >/dev/null
go test -c -o "$out.schemes.test" ./schemes/ >/dev/null
pin=()
if [[ -n $cpus ]]; then
	n=$(awk -F, '{print NF}' <<<"$cpus")
	pin=(env GOMAXPROCS="$n" taskset -c "$cpus")
	echo "pinned to CPU(s) $cpus, GOMAXPROCS=$n"
fi
echo "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $(go version | cut -d' ' -f3), $rounds rounds"
for r in $(seq "$rounds"); do
	for file in all isaacs_files kasztp node_files userbait; do
		for path in Parse ParseSchemes Parser ParseBatch Resolve ResolveSchemes; do
			peer=NetURLParse bin=$out.test
			[[ $path == Resolve* ]] && peer=NetURLResolve
			[[ $path == *Schemes ]] && bin=$out.schemes.test
			"${pin[@]}" "$bin" -test.run '^$' -test.bench "^BenchmarkPaths($path|$peer)\$/^file=$file\$" -test.benchtime 1s -test.benchmem |
				awk -v r="$r" -v path="$path" -v file="$file" '/^BenchmarkPaths/ {
					name=$1; sub(/^BenchmarkPaths/, "", name); sub(/\/.*$/, "", name)
					for (i = 2; i < NF; i++) { if ($(i+1) == "ns/URL") ns=$i; if ($(i+1) == "cpu-ns/URL") cpu=$i; if ($(i+1) == "allocs/URL") al=$i; if ($(i+1) == "B/URL") by=$i }
					print r, path, file, (name == path ? "locator" : "peer"), ns, cpu, sprintf("%.4f", al), sprintf("%.0f", by) }' >>"$out"
		done
	done
done
awk '
function median(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j+1] = a[j]; a[j+1] = t }
	return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
}
function lohi(a, n,   i) { lo = a[1]; hi = a[1]; for (i = 2; i <= n; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] } }
{ k = $2 "/" $3; ns[k, $4, $1] = $5; cpu[k, $4, $1] = $6; al[k, $4] = $7; by[k, $4] = $8; rounds[$1] = 1 }
END {
	np = split("Parse ParseSchemes Parser ParseBatch Resolve ResolveSchemes", paths, " ")
	split("all isaacs_files kasztp node_files userbait", files, " ")
	printf "%-15s %-13s %-22s %-22s %-20s %-22s %-20s %s\n", "path", "file", "locator ns/URL", "net/url ns/URL", "ratio, clock", "locator CPU ns/URL", "ratio, CPU", "allocs, B per URL (net/url)"
	for (p = 1; p <= np; p++) for (f = 1; f <= 5; f++) {
		k = paths[p] "/" files[f]
		delete a; delete b; delete q; delete c; delete d; delete e; n = 0
		for (r in rounds) if ((k, "locator", r) in ns && (k, "peer", r) in ns) {
			n++; a[n] = ns[k, "locator", r]; b[n] = ns[k, "peer", r]; q[n] = a[n] / b[n]
			c[n] = cpu[k, "locator", r]; d[n] = cpu[k, "peer", r]; e[n] = d[n] > 0 ? c[n] / d[n] : 0
		}
		if (n == 0) continue
		lohi(a, n); t1 = sprintf("%.1f [%.1f–%.1f]", median(a, n), lo, hi)
		lohi(b, n); t2 = sprintf("%.1f [%.1f–%.1f]", median(b, n), lo, hi)
		lohi(q, n); t3 = sprintf("%.2f× [%.2f–%.2f]", median(q, n), lo, hi)
		lohi(c, n); t4 = sprintf("%.1f [%.1f–%.1f]", median(c, n), lo, hi)
		lohi(e, n); t5 = sprintf("%.2f× [%.2f–%.2f]", median(e, n), lo, hi)
		printf "%-15s %-13s %-22s %-22s %-20s %-22s %-20s %s, %s (%s, %s)\n", paths[p], files[f], t1, t2, t3, t4, t5,
			al[k, "locator"], by[k, "locator"], al[k, "peer"], by[k, "peer"]
	}
}' "$out"
