#!/usr/bin/env bash
# bench/instr.sh — instructions a URL of each parsing path, counted by
# valgrind's callgrind, for a git revision and for the working tree.
#
# On a machine that others share, two runs of bench/parse.sh differ by
# more than a change of a few percent; the instructions a call executes
# change far less (two runs of one build differed by up to 2.5% here:
# the allocator's slower paths, and where callgrind's count of a call
# slips, see count). Each path's benchmark runs over the
# corpus file "all" with only the calls of the path's function counted,
# over one timed pass (see count). GOGC=off leaves the collector out
# (its work follows the bytes allocated, which -benchmem shows); Go's
# preemption signals are turned off, which callgrind cannot follow, and
# so is RDTSCP (cpu.rdtscp=off): valgrind 3.19 cannot decode it, and the
# runtime times a wait for a contended lock with it where the CPU has it
# (the run died there; now it reads the clock with RDTSC, and
# golang.org/x/sys/cpu, which reads GODEBUG too and has no such option,
# prints a harmless "unknown cpu feature" line). The count is not the time: it
# misses what a cache miss or a branch mispredicted costs.
# bench/parse.sh remains the measure; this one says whether a change
# does less work.
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
# count BIN BENCH FUNC...: instructions a URL in each FUNC (and what it calls)
# over one timed pass of BENCH: the count with two passes
# (-test.benchtime 2x) less the count with one, which leaves out the
# setup's calls (Relative calls Resolve), over the URLs of a pass (the
# benchmark's ns/op over its ns/URL); a benchmark that calls b.Loop runs
# its setup once either way. Only FUNC's calls are counted
# (--toggle-collect), each from its entry to its exit; a toggle on the
# whole pass would not do: when Go switches to another stack, callgrind
# takes the move for a return from everything on the stack it left.
# Even so, a count now and then comes out far from the others (once in
# some twenty here: three times the instructions, say), when callgrind
# loses its place in a stack switch; run the script again for that path.
# net/url is not counted beside: its three or four allocations a URL,
# with the collector off, make its count swing by a quarter from run to
# run.
count() {
	local out=$tmp/cg.out total=() toggles=() f
	for f in "${@:3}"; do
		toggles+=(--toggle-collect="$f")
	done
	for x in 1 2; do
		GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off GOGC=off valgrind --tool=callgrind --callgrind-out-file="$out" "${toggles[@]}" \
			"$1" -test.run '^$' -test.bench "^BenchmarkPaths$2\$/^file=all\$" -test.benchtime ${x}x 2>/dev/null >"$tmp/bench.out"
		grep -q '^BenchmarkPaths' "$tmp/bench.out" || { echo "bench/instr.sh: $1 ran no BenchmarkPaths$2 (no ../shared/data/urls?)" >&2; exit 1; }
		total+=("$(awk '/^summary:/ { print $2 }' "$out")")
	done
	awk '/^BenchmarkPaths/ { for (i = 2; i < NF; i++) { if ($(i+1) == "ns/op") op = $i; if ($(i+1) == "ns/URL") u = $i }; printf "%.0f\n", op / u }' "$tmp/bench.out" >"$tmp/n"
	awk -v n="$(cat "$tmp/n")" -v a="${total[0]}" -v b="${total[1]}" 'BEGIN { printf "%.0f", (b - a) / n }'
}
printf '%-14s %10s %10s %7s\n' path "$rev" tree ratio
for path in Parse ParseSchemes Parser Resolve ResolveSchemes; do
	fn=github.com/rfc1738/locator.Parse bin=test
	case $path in
	ParseSchemes) bin=schemes.test ;;
	Parser) fn='github.com/rfc1738/locator.(*Parser).Parse' ;;
	Resolve) fn=github.com/rfc1738/locator.Resolve ;;
	ResolveSchemes) fn=github.com/rfc1738/locator.Resolve bin=schemes.test ;;
	esac
	# A revision from before a path had its benchmark has no count.
	a=-
	if "$tmp/rev.$bin" -test.list "^BenchmarkPaths$path\$" | grep -q .; then
		a=$(count "$tmp/rev.$bin" "$path" "$fn")
	fi
	b=$(count "$tmp/tree.$bin" "$path" "$fn")
	awk -v p="$path" -v a="$a" -v b="$b" 'BEGIN { if (a == "-") printf "%-14s %10s %10d\n", p, a, b; else printf "%-14s %10d %10d %6.3f×\n", p, a, b, b / a }'
done
