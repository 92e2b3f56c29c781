#!/usr/bin/env bash
# bench/instr.sh — instructions a URL of each parsing path, counted by
# valgrind's callgrind, for a git revision and for the working tree.
#
# On a machine that others share, two runs of bench/parse.sh differ by
# more than a change of a few percent; the instructions a call executes
# do not change from run to run. Each path's benchmark runs once over
# the corpus file "all" (-test.benchtime 1x) with only its timed pass
# counted (--toggle-collect on the closure PerURL runs: not the setup,
# whose Relative calls Resolve), divided by the URLs of the pass; net/url's
# url.Parse and ResolveReference, counted the same way in the working
# tree, are the last two rows, each path's ratio to its peer the last
# column. GOGC=off leaves the collector out (its work
# follows the bytes allocated, which -benchmem shows); Go's preemption
# signals are turned off, which callgrind cannot follow. The count is
# not the time: it misses what a cache miss or a branch mispredicted
# costs. bench/parse.sh remains the measure; this one says whether a
# change does less work.
#
#   bash bench/instr.sh [REV]
#
# REV defaults to HEAD; the working tree is the second column.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "bench/instr.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
rev=${1:-HEAD}
tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/rev" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git worktree add --detach "$tmp/rev" "$rev" >/dev/null 2>&1
# The tests find their data beside the repository: ../shared.
[[ -d ../shared ]] && ln -s "$(realpath ../shared)" "$tmp/shared"
for side in rev tree; do
	dir=.
	[[ $side == rev ]] && dir=$tmp/rev
	(cd "$dir" && go test -c -o "$tmp/$side.test" . && go test -c -o "$tmp/$side.schemes.test" ./schemes) >/dev/null
done
# count BIN BENCH: instructions a URL in one timed pass of BENCH (the
# closure PerURL runs, and what it calls): the total over the URLs of the
# pass, which the benchmark's ns/op over its ns/URL gives.
count() {
	local out=$tmp/cg.out
	GODEBUG=asyncpreemptoff=1 GOGC=off valgrind --tool=callgrind --callgrind-out-file="$out" \
		--toggle-collect="*.BenchmarkPaths$2.*func1.1" "$1" -test.run '^$' -test.bench "^BenchmarkPaths$2\$/^file=all\$" -test.benchtime 1x 2>/dev/null >"$tmp/bench.out"
	grep -q '^BenchmarkPaths' "$tmp/bench.out" || { echo "bench/instr.sh: $1 ran no BenchmarkPaths$2 (no ../shared/data/urls?)" >&2; exit 1; }
	awk '/^BenchmarkPaths/ { for (i = 2; i < NF; i++) { if ($(i+1) == "ns/op") op = $i; if ($(i+1) == "ns/URL") u = $i }; printf "%.0f\n", op / u }' "$tmp/bench.out" >"$tmp/n"
	awk -v n="$(cat "$tmp/n")" '/^summary:/ { printf "%.0f", $2 / n }' "$out"
}
peerParse=$(count "$tmp/tree.test" NetURLParse)
peerResolve=$(count "$tmp/tree.test" NetURLResolve)
printf '%-14s %10s %10s %7s %9s\n' path "$rev" tree ratio "/net/url"
for path in Parse ParseSchemes Parser Resolve ResolveSchemes; do
	bin=test peer=$peerParse
	[[ $path == *Schemes ]] && bin=schemes.test
	[[ $path == Resolve* ]] && peer=$peerResolve
	# A revision from before a path had its benchmark has no count.
	a=-
	if "$tmp/rev.$bin" -test.list "^BenchmarkPaths$path\$" | grep -q .; then
		a=$(count "$tmp/rev.$bin" "$path")
	fi
	b=$(count "$tmp/tree.$bin" "$path")
	awk -v p="$path" -v a="$a" -v b="$b" -v peer="$peer" 'BEGIN { if (a == "-") printf "%-14s %10s %10d %7s %8.3f×\n", p, a, b, "", b / peer; else printf "%-14s %10d %10d %6.3f× %8.3f×\n", p, a, b, b / a, b / peer }'
done
printf '%-14s %10s %10d\n' NetURLParse "" "$peerParse"
printf '%-14s %10s %10d\n' NetURLResolve "" "$peerResolve"
