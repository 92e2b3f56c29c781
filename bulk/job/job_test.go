package job

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/bulk/internal/scratch"
	"github.com/rfc1738/locator/bulk/internal/urlgen"
	"github.com/rfc1738/locator/internal/loctest"
)

func TestMain(m *testing.M) {
	// ptest: beam.Init, flags; the tests run prism.Execute.
	os.Exit(scratch.Main("locator-bulk-test-", func() int { return ptest.MainRet(m) }))
}

// cli is the command built from the repository root (module
// github.com/rfc1738/locator), the reference the job must equal.
func cli(t *testing.T) string { return scratch.Build(t, filepath.Join("..", ".."), "./cmd/locator") }

// cliParse runs `locator parse --json -` on each file (gzip undone) and
// returns its records, one per line, in input order.
func cliParse(t *testing.T, files ...string) []string {
	t.Helper()
	var all []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if _, err := b.ReadFrom(zr); err != nil {
				t.Fatal(err)
			}
			data = b.Bytes()
		}
		all = append(all, runCLI(t, data, 1, "parse", "--json", "-")...)
	}
	return all
}

// runCLI runs the command with stdin and returns its output lines; an
// exit status above worst fails the test.
func runCLI(t *testing.T, stdin []byte, worst int, args ...string) []string {
	t.Helper()
	cmd := exec.Command(cli(t), args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() <= worst {
		err = nil
	}
	if err != nil {
		t.Fatalf("locator %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return splitLines(out)
}

func splitLines(b []byte) []string {
	s := strings.TrimSuffix(string(b), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// result is what one run of the job wrote.
type result struct {
	records, dead, dups []string
	summary             map[string]any
	files               []string // names under the output directory
}

// run runs the job on prism in-process and reads its output.
func run(t *testing.T, o Options) result {
	t.Helper()
	if o.Output == "" {
		o.Output = t.TempDir()
	}
	if o.Format == "" {
		o.Format = Lines
	}
	p, s := beam.NewPipelineWithRoot()
	if err := Build(context.Background(), s, o); err != nil {
		t.Fatal(err)
	}
	if _, err := prism.Execute(context.Background(), p); err != nil {
		t.Fatalf("prism: %v", err)
	}
	return readOutput(t, o.Output)
}

func readOutput(t *testing.T, dir string) result {
	t.Helper()
	var r result
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		r.files = append(r.files, e.Name())
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasPrefix(e.Name(), "records"):
			r.records = append(r.records, splitLines(b)...)
		case strings.HasPrefix(e.Name(), "deadletter"):
			r.dead = append(r.dead, splitLines(b)...)
		case strings.HasPrefix(e.Name(), "duplicates"):
			r.dups = append(r.dups, splitLines(b)...)
		case e.Name() == "summary.json":
			if err := json.Unmarshal(b, &r.summary); err != nil {
				t.Fatalf("summary.json: %v", err)
			}
		}
	}
	sort.Strings(r.records)
	sort.Strings(r.dead)
	sort.Strings(r.dups)
	return r
}

// sameRecords fails unless got and want hold the same lines (any order).
func sameRecords(t *testing.T, got, want []string) {
	t.Helper()
	want = slices.Clone(want)
	sort.Strings(want)
	if len(got) != len(want) {
		t.Errorf("%d records, the command wrote %d", len(got), len(want))
	}
	for i := 0; i < min(len(got), len(want)); i++ {
		if got[i] != want[i] {
			t.Fatalf("first difference at sorted record %d:\n job: %s\n cli: %s", i, got[i], want[i])
		}
	}
}

// corpus returns the files of shared/data/urls.
func corpus(t *testing.T) []string {
	dir := loctest.SharedPath(t, "data", "urls")
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus under %s: %v", dir, err)
	}
	return files
}

// inputOf gives back the octets of a record's input: input_escaped
// (the `_escaped` rule) when present, else input.
func inputOf(t *testing.T, rec map[string]any) string {
	if e, ok := rec["input_escaped"].(string); ok {
		var b strings.Builder
		for i := 0; i < len(e); i++ {
			if e[i] == '%' && i+2 < len(e) {
				n, err := strconv.ParseUint(e[i+1:i+3], 16, 8)
				if err != nil {
					t.Fatalf("bad input_escaped %q", e)
				}
				b.WriteByte(byte(n))
				i += 2
				continue
			}
			b.WriteByte(e[i])
		}
		return b.String()
	}
	return rec["input"].(string)
}

func decode(t *testing.T, line string) map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("not JSON: %v: %s", err, line)
	}
	return m
}

// TestCorpusMatchesCLI runs the job over the corpus (RFC 1738 §5
// grammar and every scheme's rules, as the command judges them): the
// records equal `locator parse --json`'s, record for record, and the
// summary's counts equal those computed from the command's records.
func TestCorpusMatchesCLI(t *testing.T) {
	files := corpus(t)
	want := cliParse(t, files...)
	// Ranges of 256 KiB: the larger files are read by several workers,
	// cut anywhere in a line.
	got := run(t, Options{Inputs: []string{filepath.Join(filepath.Dir(files[0]), "*.txt")}, Top: 1000000, Block: 256 << 10, Group: Combine})
	sameRecords(t, got.records, want)
	if len(got.dead) != 0 {
		t.Errorf("dead letters: %q", got.dead)
	}
	checkFiles(t, got.files, -1)
	checkSummary(t, got, want)
}

// checkSummary recomputes the summary from the command's records and
// locator.Normalize, and compares.
func checkSummary(t *testing.T, got result, want []string) {
	t.Helper()
	var urls, ok, conforms, withProblems int
	schemes := map[string]int{}
	rules := map[string]int{}
	hosts := map[string]int{}
	groups := map[string]int{}
	for _, line := range want {
		rec := decode(t, line)
		urls++
		if ps := rec["problems"].([]any); len(ps) > 0 {
			withProblems++
			for _, p := range ps {
				pm := p.(map[string]any)
				rules[pm["severity"].(string)+"\t"+pm["rule"].(string)]++
			}
		}
		if rec["ok"] != true {
			continue
		}
		ok++
		if rec["conforms"] == true {
			conforms++
		}
		schemes[rec["scheme"].(string)]++
		if h, has := rec["host"]; has {
			hosts[strings.ToLower(h.(string))]++
		}
		u, err := locator.Parse(inputOf(t, rec))
		if err != nil {
			t.Fatal(err)
		}
		groups[locator.Normalize(u).String()]++
	}
	dupGroups, dupURLs := 0, 0
	for _, n := range groups {
		if n > 1 {
			dupGroups++
			dupURLs += n
		}
	}
	s := got.summary
	for _, c := range []struct {
		key  string
		want int
	}{{"urls", urls}, {"ok", ok}, {"conforms", conforms}, {"with_problems", withProblems},
		{"hosts_distinct", len(hosts)}, {"duplicate_groups", dupGroups}, {"duplicate_urls", dupURLs}, {"dead_letters", 0}} {
		if g, _ := s[c.key].(float64); int(g) != c.want {
			t.Errorf("summary %s = %v, want %d", c.key, s[c.key], c.want)
		}
	}
	if len(got.dups) != dupGroups {
		t.Errorf("%d duplicate lines, want %d", len(got.dups), dupGroups)
	}
	if r, _ := s["conformance_rate"].(float64); r != float64(conforms)/float64(urls) {
		t.Errorf("conformance_rate %v, want %v", r, float64(conforms)/float64(urls))
	}
	gs := map[string]int{}
	for k, v := range s["schemes"].(map[string]any) {
		gs[k] = int(v.(float64))
	}
	if fmt.Sprint(gs) != fmt.Sprint(schemes) {
		t.Errorf("schemes %v, want %v", gs, schemes)
	}
	gr := map[string]int{}
	for _, p := range s["problems_top"].([]any) {
		pm := p.(map[string]any)
		gr[pm["severity"].(string)+"\t"+pm["rule"].(string)] = int(pm["count"].(float64))
	}
	if fmt.Sprint(gr) != fmt.Sprint(rules) {
		t.Errorf("problems by rule %v, want %v", gr, rules)
	}
	hostTop := s["hosts_top"].([]any)
	if len(hostTop) != len(hosts) {
		t.Errorf("%d hosts listed, want %d", len(hostTop), len(hosts))
	}
	for _, h := range hostTop {
		hm := h.(map[string]any)
		name := hm["host"].(string)
		if e, ok := hm["host_escaped"].(string); ok {
			name = inputOf(t, map[string]any{"input_escaped": e})
		}
		if int(hm["count"].(float64)) != hosts[name] {
			t.Errorf("host %q: %v, want %d", name, hm["count"], hosts[name])
		}
	}
}

// writeGenerated writes n generated lines (internal/urlgen), gzipped
// when gz.
func writeGenerated(t *testing.T, path string, n int, seed uint64, gz bool) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if !gz {
		if err := urlgen.Write(f, n, seed); err != nil {
			t.Fatal(err)
		}
		return
	}
	zw := gzip.NewWriter(f)
	if err := urlgen.Write(zw, n, seed); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestGeneratedMatchesCLI: 100,000 generated lines (one gzip file, one
// plain) give the command's records, record for record; the millions
// were measured by hand (docs/bulk.md).
func TestGeneratedMatchesCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the 100,000-line comparison is left out")
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt.gz"), filepath.Join(dir, "b.txt")
	writeGenerated(t, a, 60000, 1, true)
	writeGenerated(t, b, 40000, 2, false)
	want := cliParse(t, a, b)
	got := run(t, Options{Inputs: []string{filepath.Join(dir, "*")}, Top: 1000000, Block: 128 << 10, Group: Bucket, Buckets: 5})
	sameRecords(t, got.records, want)
	if len(got.dead) != 0 {
		t.Errorf("dead letters: %q", got.dead)
	}
	checkSummary(t, got, want)
}

// TestProblemsOnlyAndSample: --problems_only keeps the records with a
// problem or not ok; --sample keeps the inputs its hash picks, the
// same on every run.
func TestProblemsOnlyAndSample(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	writeGenerated(t, in, 20000, 3, false)
	all := cliParse(t, in)
	keep := sampler(0.25)
	var want []string
	for _, line := range all {
		rec := decode(t, line)
		if rec["ok"] == true && len(rec["problems"].([]any)) == 0 {
			continue
		}
		if keep(inputOf(t, rec)) {
			want = append(want, line)
		}
	}
	got := run(t, Options{Inputs: []string{in}, ProblemsOnly: true, Sample: 0.25})
	sameRecords(t, got.records, want)
	if got.summary["sample"] != 0.25 {
		t.Errorf("summary sample %v", got.summary["sample"])
	}
	// Pinned at the measured values for this seed.
	if len(want) != 4021 {
		t.Errorf("%d sampled records with problems, measured 4021", len(want))
	}
}

// TestDeadLetters: a line longer than MaxLine, an NDJSON line that is
// not JSON or has no "url", and a pattern that names no file go to the
// dead letters with their reason; the other lines are judged.
func TestDeadLetters(t *testing.T) {
	dir := t.TempDir()
	lf := filepath.Join(dir, "lines.txt")
	long := strings.Repeat("x", MaxLine+1)
	os.WriteFile(lf, []byte("http://a/\n"+long+"\r\nftp://b/c\n\n  \t\nnot a url\n"), 0o644)
	got := run(t, Options{Inputs: []string{lf, filepath.Join(dir, "none-*.txt")}})
	sameRecords(t, got.records, runCLI(t, nil, 1, "parse", "--json", "http://a/", "ftp://b/c", "not a url"))
	if len(got.records) != 3 {
		t.Errorf("%d records, want 3 (two URLs and one text that is not a URL)", len(got.records))
	}
	wantDead := []string{
		fmt.Sprintf(`{"source":%q,"line":0,"offset":0,"reason":"no file matches","text":""}`, filepath.Join(dir, "none-*.txt")),
		fmt.Sprintf(`{"source":%q,"line":2,"offset":10,"reason":"longer than 1048576 bytes","text":%q}`, lf, long[:512]),
	}
	sort.Strings(wantDead)
	if fmt.Sprint(got.dead) != fmt.Sprint(wantDead) {
		t.Errorf("dead letters:\n%q\nwant\n%q", got.dead, wantDead)
	}
	if got.summary["dead_letters"] != 2.0 || got.summary["urls"] != 3.0 {
		t.Errorf("summary: dead_letters %v, urls %v", got.summary["dead_letters"], got.summary["urls"])
	}

	nd := filepath.Join(dir, "x.ndjson")
	os.WriteFile(nd, []byte(`{"url":"http://c/d","offset":0}`+"\nnot json\n"+`{"x":1}`+"\n"+`{"url":"ftp://h/%FC"}`+"\n"), 0o644)
	got = run(t, Options{Inputs: []string{nd}, Format: NDJSON})
	sameRecords(t, got.records, runCLI(t, nil, 1, "parse", "--json", "http://c/d", "ftp://h/%FC"))
	wantDead = []string{
		fmt.Sprintf(`{"source":%q,"line":2,"offset":32,"reason":"not a JSON object: invalid character 'o' in literal null (expecting 'u')","text":"not json"}`, nd),
		fmt.Sprintf(`{"source":%q,"line":3,"offset":41,"reason":"no \"url\" key","text":"{\"x\":1}"}`, nd),
	}
	if fmt.Sprint(got.dead) != fmt.Sprint(wantDead) {
		t.Errorf("dead letters:\n%q\nwant\n%q", got.dead, wantDead)
	}
}

// TestExtractFormats: the NDJSON of `locator extract --json` and the
// documents themselves (text) give the records of the URLs the command
// extracts; in a document, partial forms in <URL:...> wrappers resolve
// against the document's own file URL.
func TestExtractFormats(t *testing.T) {
	doc := loctest.SharedPath(t, "spec", "url-draft-1993-10.txt")
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	nd := filepath.Join(dir, "found.ndjson")
	os.WriteFile(nd, []byte(strings.Join(runCLI(t, data, 0, "extract", "--json", "-"), "\n")+"\n"), 0o644)
	urls := runCLI(t, data, 0, "extract", "-")
	want := runCLI(t, []byte(strings.Join(urls, "\n")+"\n"), 1, "parse", "--json", "-")
	got := run(t, Options{Inputs: []string{nd}, Format: NDJSON})
	sameRecords(t, got.records, want)

	local := filepath.Join(dir, "draft.txt")
	os.WriteFile(local, append(data, []byte("\nSee <URL:../other/doc.txt>.\n")...), 0o644)
	withLocal, _ := os.ReadFile(local)
	urls = runCLI(t, withLocal, 0, "extract", "--base", documentURL(local), "-")
	if !slices.Contains(urls, documentURL(filepath.Join(filepath.Dir(dir), "other", "doc.txt"))) {
		t.Fatalf("the partial form did not resolve against %s: %q", documentURL(local), urls)
	}
	want = runCLI(t, []byte(strings.Join(urls, "\n")+"\n"), 1, "parse", "--json", "-")
	got = run(t, Options{Inputs: []string{local}, Format: Text})
	sameRecords(t, got.records, want)
	if len(got.dead) != 0 {
		t.Errorf("dead letters: %q", got.dead)
	}
}

// TestUniversalRunner submits the job, unchanged, to prism started as a
// standalone job server on 127.0.0.1 (the portable Job API that Flink,
// Spark and Dataflow job services expose), with the LOOPBACK
// environment, and compares with the command.
func TestUniversalRunner(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: building the job and prism binaries is left out")
	}
	bin := scratch.Build(t, "..", "./cmd/locator-bulk")
	prismBin := scratch.Build(t, ".", "github.com/apache/beam/sdks/v2/go/cmd/prism")
	logf := filepath.Join(t.TempDir(), "prism.log")
	lf, err := os.Create(logf)
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	srv := exec.Command(prismBin, "--job_port=0", "--serve_http=false", "--log_kind=text")
	srv.Stdout, srv.Stderr = lf, lf
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		srv.Process.Kill() // by its process id
		srv.Wait()
	}()
	port := waitPort(t, logf)

	files := corpus(t)
	in := files[len(files)-1]
	out := t.TempDir()
	cmd := exec.Command(bin, "--runner=universal", "--endpoint=127.0.0.1:"+port, "--environment_type=LOOPBACK",
		"--input="+in, "--output="+out, "--top=1000000", "--block_size=200000")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		b, _ := os.ReadFile(logf)
		t.Fatalf("locator-bulk on the job server: %v\n%s\nserver log:\n%s", err, stderr.Bytes(), b)
	}
	got := readOutput(t, out)
	want := cliParse(t, in)
	sameRecords(t, got.records, want)
	checkSummary(t, got, want)
}

// waitPort reads the job server's port from its log ("... localhost:PORT").
func waitPort(t *testing.T, logf string) string {
	t.Helper()
	for range 600 {
		f, err := os.Open(logf)
		if err == nil {
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				line := sc.Text()
				if i := strings.Index(line, "localhost:"); i >= 0 {
					p := line[i+len("localhost:"):]
					j := 0
					for j < len(p) && p[j] >= '0' && p[j] <= '9' {
						j++
					}
					if j > 0 {
						f.Close()
						return p[:j]
					}
				}
			}
			f.Close()
		}
		sleep()
	}
	b, _ := os.ReadFile(logf)
	t.Fatalf("the job server did not say its port within 60 s:\n%s", b)
	return ""
}

func sleep() { time.Sleep(100 * time.Millisecond) }

// checkFiles holds an output directory's names to the rule of Write:
// records, dead letters and duplicates each as a dense set
// name-SSSSS-of-NNNNN.ndjson, summary.json, and nothing else (no
// temporary left). records > 0 pins the number of record files.
func checkFiles(t *testing.T, files []string, records int) {
	t.Helper()
	sets := map[string][]string{}
	for _, f := range files {
		if f == "summary.json" {
			sets[f] = append(sets[f], f)
			continue
		}
		var name string
		var i, n int
		k, err := fmt.Sscanf(strings.Replace(strings.TrimSuffix(f, ".ndjson"), "-", " ", 1), "%s %05d-of-%05d", &name, &i, &n)
		if err != nil || k != 3 || fmt.Sprintf("%s-%05d-of-%05d.ndjson", name, i, n) != f {
			t.Errorf("output file %q: not name-SSSSS-of-NNNNN.ndjson", f)
			continue
		}
		sets[name] = append(sets[name], f)
	}
	for _, name := range []string{"records", "deadletter", "duplicates"} {
		got := sets[name]
		n := len(got)
		if n == 0 {
			t.Errorf("no %s file in %q", name, files)
			continue
		}
		for i := range n {
			if want := fmt.Sprintf("%s-%05d-of-%05d.ndjson", name, i, n); !slices.Contains(got, want) {
				t.Errorf("%s files %q: no %s", name, got, want)
			}
		}
	}
	if len(sets["summary.json"]) != 1 {
		t.Errorf("files %q: no summary.json", files)
	}
	if records > 0 && len(sets["records"]) != records {
		t.Errorf("%d record files, want %d: %q", len(sets["records"]), records, sets["records"])
	}
	if len(sets) != 4 {
		t.Errorf("files %q: more than records, deadletter, duplicates and summary.json", files)
	}
}

// TestEmptyOutput: inputs with no URL still give every file, empty,
// with a summary of zeros: a missing file is a lost one.
func TestEmptyOutput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "empty.txt")
	os.WriteFile(in, []byte("\n \n"), 0o644)
	got := run(t, Options{Inputs: []string{in}})
	checkFiles(t, got.files, 1)
	if len(got.records)+len(got.dead)+len(got.dups) != 0 || got.summary["urls"] != 0.0 {
		t.Errorf("records %q, dead %q, duplicates %q, summary %v", got.records, got.dead, got.dups, got.summary)
	}
}

// TestFailedAttempt: a writer that dies mid-write on its first attempt
// leaves a temporary behind; the run that completes (a retry of the
// bundle, or the job run again) leaves exactly the right files: the
// temporaries of the failed attempt and an earlier run's extra record
// files are gone, and the records are the command's.
func TestFailedAttempt(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	writeGenerated(t, in, 5000, 4, false)
	out := filepath.Join(dir, "out")
	os.MkdirAll(out, 0o755)
	// An earlier run's files beyond what this run writes.
	for _, f := range []string{"records-00007-of-00009.ndjson", "duplicates-00003-of-00004.ndjson", "deadletter-00000-of-00002.ndjson"} {
		os.WriteFile(filepath.Join(out, f), []byte("stale\n"), 0o644)
	}
	failWrites = filepath.Join(dir, "failed-once")
	defer func() { failWrites = "" }()
	o := Options{Inputs: []string{in}, Output: out, Format: Lines, Batch: 100, Block: 32 << 10}
	p, s := beam.NewPipelineWithRoot()
	if err := Build(context.Background(), s, o); err != nil {
		t.Fatal(err)
	}
	_, err := prism.Execute(context.Background(), p)
	if _, serr := os.Stat(failWrites); serr != nil {
		t.Fatalf("no writer failed: %v", serr)
	}
	if err != nil {
		// prism did not retry the bundle: the job failed; the
		// temporary is left until the next run finalizes.
		t.Logf("the job failed (%v); running it again", err)
		ents, _ := os.ReadDir(out)
		tmp := 0
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".tmp-") {
				tmp++
			}
		}
		if tmp == 0 {
			// prism drops a failed bundle's elements and may run the
			// stages after it before the job ends failed
			// (engine/elementmanager.go's failed bundle): the finalize
			// then removed the temporary. A failed job's output is
			// not to be read (exit 1); the run again must be right.
			t.Logf("the failed attempt's temporary was finalized away before the job ended: %v", ents)
		}
		got := run(t, o)
		checkFiles(t, got.files, -1)
		sameRecords(t, got.records, cliParse(t, in))
		return
	}
	got := readOutput(t, out)
	checkFiles(t, got.files, -1)
	sameRecords(t, got.records, cliParse(t, in))
}

// TestConfigErrors: a file system that is not linked in, or an output
// that cannot be written, fails when the pipeline is built, before any
// work; a local output on a cluster runner is refused.
func TestConfigErrors(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	os.WriteFile(in, []byte("http://a/\n"), 0o644)
	notDir := filepath.Join(dir, "file")
	os.WriteFile(notDir, nil, 0o644)
	for _, o := range []Options{
		{Inputs: []string{"hdfs://nn/urls.txt"}, Output: dir},
		{Inputs: []string{in}, Output: "hdfs://nn/out"},
		{Inputs: []string{in}, Output: filepath.Join(notDir, "out")},
	} {
		o.Format = Lines
		_, s := beam.NewPipelineWithRoot()
		err := Build(context.Background(), s, o)
		var ce *ConfigError
		if !errors.As(err, &ce) {
			t.Errorf("%v -> %v, want a ConfigError", o, err)
		}
	}
	for _, c := range []struct {
		out, runner, endpoint string
		ok                    bool
	}{
		{"out", "", "", true},
		{"out", "prism", "", true},
		{"out", "universal", "127.0.0.1:8099", true},
		{"out", "universal", "[::1]:8099", true},
		{"out", "universal", "localhost:8099", true},
		{"out", "universal", "10.1.2.3:8099", false},
		{"out", "flink", "", false},
		{"out", "spark", "localhost:8099", false},
		{"out", "dataflow", "", false},
		{"gs://b/out", "dataflow", "", true},
		{"s3://b/out", "universal", "jobs.example:8099", true},
	} {
		err := CheckRunner(c.out, c.runner, c.endpoint)
		if (err == nil) != c.ok {
			t.Errorf("CheckRunner(%q, %q, %q) = %v", c.out, c.runner, c.endpoint, err)
		}
	}
}

// TestExitStatus: the command exits 2 on a configuration error found
// before any work, and 1 when no input could be read.
func TestExitStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: building the job binary is left out")
	}
	bin := scratch.Build(t, "..", "./cmd/locator-bulk")
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"--input=hdfs://nn/urls.txt", "--output=" + dir}, 2},
		{[]string{"--input=" + filepath.Join(dir, "x"), "--output=" + filepath.Join(dir, "out"), "--runner=flink", "--endpoint=10.1.2.3:8099"}, 2},
		{[]string{"--input=" + filepath.Join(dir, "none-*.txt"), "--output=" + filepath.Join(dir, "out")}, 1},
	} {
		cmd := exec.Command(bin, c.args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if code != c.want {
			t.Errorf("locator-bulk %s: exit %d, want %d\n%s", strings.Join(c.args, " "), code, c.want, stderr.Bytes())
		}
	}
	got := readOutput(t, filepath.Join(dir, "out"))
	checkFiles(t, got.files, 1)
	if len(got.dead) != 1 {
		t.Errorf("dead letters %q, want the pattern that matched nothing", got.dead)
	}
}
