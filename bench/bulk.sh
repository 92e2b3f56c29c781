#!/usr/bin/env bash
# bench/bulk.sh — the bulk job (bulk/cmd/locator-bulk) on prism
# in-process beside the command it must equal, `locator parse --json -`,
# on the same 500,000 lines, in ROUNDS rounds. The lines: the test
# data's corpus data/urls three times (as is; with HTTPS: and .COM/
# spelled in capitals, which normalize alike; with ?copy=3 appended) and
# urlgen's generated set (seed 7) up to 500,000, in four files. In each
# round the command and the job run one after the other, so that they
# share the machine's state of the moment; the figures printed are the
# medians of the rounds (CPU = user + system, from /usr/bin/time), with
# the job's CPU over the command's and its peak RSS per URL. After the
# first round the job's records are compared with the command's
# (sorted, byte for byte), and its summary and duplicates with those of
# REF (a directory of an earlier job's output), when given.
#
#   bash bench/bulk.sh [ROUNDS] [REF] [-- job flags...]
#
# ROUNDS defaults to 3. The job runs with GOMAXPROCS unset (both cores).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh # measure
rounds=${1:-3}
ref=${2:-}
shift $(( $# < 2 ? $# : 2 ))
[[ ${1:-} == -- ]] && shift
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
export TMPDIR=$D # prism's loopback workers leave empty files in $TMPDIR
go build -o "$D/locator" ./cmd/locator
(cd bulk && go build -o "$D/locator-bulk" ./cmd/locator-bulk && go build -o "$D/urlgen" ./cmd/urlgen)

mkdir -p "$D/in"
awk 1 "${LOCATOR_DATA:-../shared/data/urls}"/*.txt >"$D/in/a.txt"
sed -e 's/^https:/HTTPS:/' -e 's/\.com\//.COM\//' "$D/in/a.txt" >"$D/in/b.txt"
sed -e 's/$/?copy=3/' "$D/in/a.txt" >"$D/in/c.txt"
n=$(wc -l <"$D/in/a.txt")
"$D/urlgen" $((500000 - 3 * n)) 7 >"$D/in/d.txt"
cat "$D"/in/*.txt >"$D/all.txt"
lines=$(wc -l <"$D/all.txt")
echo "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $(go version | cut -d' ' -f3), $rounds rounds, $lines lines, job flags: ${*:-none}"


for r in $(seq "$rounds"); do
	rm -rf "$D/out"
	measure cli sh -c "'$D/locator' parse --json - <'$D/all.txt' >'$D/cli.ndjson'"
	measure job "$D/locator-bulk" --input="$D/in/*.txt" --output="$D/out" "$@"
	echo "round $r: cli $(tail -1 "$D/cli")  job $(tail -1 "$D/job")  (wall s, cpu s, rss KB)"
	if [[ $r == 1 ]]; then
		LC_ALL=C sort "$D/cli.ndjson" >"$D/cli.sorted"
		cat "$D"/out/records-*.ndjson | LC_ALL=C sort | cmp -s - "$D/cli.sorted" &&
			echo "records: identical to the command's ($(wc -l <"$D/cli.sorted") lines, sorted)" ||
			{ echo "records: DIFFER from the command's" >&2; exit 1; }
		if [[ -n $ref ]]; then
			cat "$D"/out/duplicates-*.ndjson | LC_ALL=C sort >"$D/dups.new"
			cat "$ref"/duplicates-*.ndjson | LC_ALL=C sort >"$D/dups.ref"
			cmp -s "$D/dups.new" "$D/dups.ref" && echo "duplicates: identical to $ref's ($(wc -l <"$D/dups.ref") groups)" ||
				{ echo "duplicates: DIFFER from $ref's" >&2; exit 1; }
			cmp -s "$D/out/summary.json" "$ref/summary.json" && echo "summary: identical to $ref's" ||
				{ echo "summary: DIFFERS from $ref's" >&2; diff <(tr ',' '\n' <"$D/out/summary.json") <(tr ',' '\n' <"$ref/summary.json") | head >&2; exit 1; }
		fi
	fi
done

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
for name in cli job; do
	for col in 1 2 3; do
		eval "${name}_$col=$(awk -v c=$col '{print $c}' "$D/$name" | median)"
	done
done
echo "median of $rounds rounds, $lines lines:"
echo "  locator parse --json -   wall ${cli_1} s  cpu ${cli_2} s  peak RSS ${cli_3} KB"
echo "  locator-bulk (prism)     wall ${job_1} s  cpu ${job_2} s  peak RSS ${job_3} KB"
awk -v jc="$job_2" -v cc="$cli_2" -v rss="$job_3" -v n="$lines" 'BEGIN {
	printf "  job/command CPU: %.2fx   job RSS per URL: %.0f bytes\n", jc / cc, rss * 1024 / n }'
