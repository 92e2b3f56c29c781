package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

func init() {
	register(&command{
		name: "probe",
		args: "[flags] URL... (or - for one URL a line, or the NDJSON of extract --json)",
		summary: "say for each URL whether the object is there, without transferring it: ok, gone, refused, error or policy, one line a URL in input order; " +
			"exit 0 all ok, 1 some not, 2 trouble",
		flags: probeFlags,
	})
}

type probeOptions struct {
	jobs, perHost, retries int
	deadline, backoff      time.Duration
	connect, idle          time.Duration
	maxRedirects           int
	allowPorts             []int
	allowHosts, denyHosts  []string
	method, userAddress    string
	nntpServer             string
	json, verbose          bool
	forceProgress          bool // tests
}

func probeFlags(fs *flag.FlagSet) func(*env, []string) int {
	var o probeOptions
	fs.IntVar(&o.jobs, "jobs", 16, "probes under way at once, in all")
	fs.IntVar(&o.perHost, "per-host", 2, "probes under way at once to one host (connections a server sees)")
	fs.IntVar(&o.retries, "retries", 2, "tries again after a transient failure (a timeout, a reset, an FTP 4yz, HTTP 503), with doubling waits; never after a refused connection")
	fs.DurationVar(&o.backoff, "backoff", 500*time.Millisecond, "the first wait before trying again; each next one is twice as long")
	fs.DurationVar(&o.deadline, "deadline", 30*time.Second, "bound on one URL's probe, its retries included")
	fs.DurationVar(&o.connect, "connect-timeout", 10*time.Second, "bound on establishing each connection")
	fs.DurationVar(&o.idle, "timeout", 15*time.Second, "bound on each read and write")
	fs.IntVar(&o.maxRedirects, "max-redirects", access.DefaultMaxRedirects, "redirections followed at most (0: none)")
	fs.Var((*intList)(&o.allowPorts), "allow-port", "a port of another service that may be used all the same (RFC 1738 §6); repeatable or a comma list")
	fs.Var((*stringList)(&o.allowHosts), "allow-host", "the only hosts that may be contacted (\".example.com\" for a domain); repeatable or a comma list")
	fs.Var((*stringList)(&o.denyHosts), "deny-host", "hosts that may not be contacted; repeatable or a comma list")
	fs.StringVar(&o.method, "ftp-method", "", "the FTP CWD method: rfc1738 (default), singlecwd, nocwd")
	fs.StringVar(&o.userAddress, "user-address", "", "your e-mail address, the anonymous FTP password (RFC 1738 §3.2.1)")
	fs.StringVar(&o.nntpServer, "nntp-server", os.Getenv("NNTPSERVER"), "the news server asked for news: URLs, as HOST[:PORT]; default $NNTPSERVER")
	fs.BoolVar(&o.verbose, "v", false, "the protocol dialogues on standard error, passwords masked (interleaved unless --jobs 1)")
	fs.BoolVar(&o.json, "json", false, "NDJSON, one object a URL: url, status, code, text, size, modified, ms")
	return func(e *env, args []string) int { return runProbe(e, args, &o) }
}

// A probeInput is one input line or argument.
type probeInput struct {
	text string // the URL as given
	u    *locator.URL
	err  string // why it cannot be probed (not a URL)
	key  string // the distinct URL: inputs with one key share a probe
}

// A probeResult is one probe's answer, shared by the inputs of one key.
type probeResult struct {
	st    *access.Status
	ms    int64
	tries int
	done  chan struct{}
}

// probeRecord is one line of `locator probe --json`.
type probeRecord struct {
	URL      string `json:"url"`
	Status   string `json:"status"`
	Code     string `json:"code,omitempty"`
	Text     string `json:"text,omitempty"`
	Command  string `json:"command,omitempty"`
	Size     *int64 `json:"size,omitempty"`
	Modified string `json:"modified,omitempty"`
	Listing  bool   `json:"listing,omitempty"`
	Final    string `json:"final,omitempty"`
	Error    string `json:"error,omitempty"`
	Tries    int    `json:"tries"`
	MS       int64  `json:"ms"`
}

func runProbe(e *env, args []string, o *probeOptions) int {
	if len(args) == 0 {
		return usageError(e, "probe", "want URLs, or - for standard input")
	}
	if o.jobs <= 0 || o.perHost <= 0 || o.retries < 0 || o.deadline <= 0 || o.connect <= 0 || o.idle <= 0 || o.maxRedirects < 0 || o.backoff < 0 {
		return usageError(e, "probe", "--jobs, --per-host, --deadline, --connect-timeout and --timeout must be positive; --retries, --backoff and --max-redirects not negative")
	}
	switch o.method {
	case "", "rfc1738", "singlecwd", "nocwd":
	default:
		return usageError(e, "probe", "--ftp-method is rfc1738, singlecwd or nocwd")
	}
	var inputs []*probeInput
	status, err := eachInput(e, "probe", args, func(it item) error {
		in := &probeInput{text: strings.TrimSpace(it.text)}
		if it.line > 0 && strings.HasPrefix(in.text, "{") {
			// A record of `locator extract --json`: its "url".
			var rec struct {
				URL *string `json:"url"`
			}
			if jerr := json.Unmarshal([]byte(in.text), &rec); jerr != nil || rec.URL == nil {
				in.err = "a JSON line without a \"url\" string"
				inputs = append(inputs, in)
				return nil
			}
			in.text = *rec.URL
		}
		u, perr := locator.Parse(in.text)
		if perr != nil {
			in.err = message(perr)
		} else {
			in.u, in.key = u, u.String()
		}
		inputs = append(inputs, in)
		return nil
	}, nil)
	if err != nil {
		return finish(e, "probe", exitOK, status, err)
	}

	opts := access.Options{
		ConnectTimeout: o.connect,
		IdleTimeout:    o.idle,
		MaxRedirects:   o.maxRedirects,
		MaxSize:        1 << 20, // a menu or a listing the fallback reads
		UserAddress:    o.userAddress,
		Method:         o.method,
		Server:         o.nntpServer,
		Policy:         access.Policy{AllowPorts: o.allowPorts, AllowHosts: o.allowHosts, DenyHosts: o.denyHosts},
	}
	if o.maxRedirects == 0 {
		opts.MaxRedirects = -1
	}
	if o.verbose {
		opts.Dialogue = &lockedWriter{w: e.stderr}
	}

	// One probe a distinct URL, in the order of first appearance.
	results := map[string]*probeResult{}
	var order []*probeInput
	for _, in := range inputs {
		if in.u == nil || results[in.key] != nil {
			continue
		}
		results[in.key] = &probeResult{done: make(chan struct{})}
		order = append(order, in)
	}
	bar := newProbeBar(e, o, len(order))
	s := newScheduler(o.jobs, o.perHost)
	go func() {
		for _, in := range order {
			in := in
			r := results[in.key]
			s.run(serverOf(in.u, o.nntpServer), func() {
				start := time.Now()
				if st := syntaxOnly(in.u); st != nil {
					r.st, r.tries = st, 0
				} else {
					r.st, r.tries = probeWithRetries(in.u, opts, o)
				}
				r.ms = time.Since(start).Milliseconds()
				close(r.done)
				bar.add()
			})
		}
	}()

	w := bufio.NewWriter(e.stdout)
	counts := map[access.State]int{}
	worst := exitOK
	for _, in := range inputs {
		var rec probeRecord
		if in.u == nil {
			rec = probeRecord{URL: in.text, Status: string(access.Broken), Error: in.err}
			worst = exitTrouble
			counts[access.Broken]++
		} else {
			r := results[in.key]
			// Write what is done before waiting: a slow URL does not
			// hold back the lines already answered beyond a buffer.
			select {
			case <-r.done:
			default:
				if err = w.Flush(); err != nil {
					break
				}
				<-r.done
			}
			if err != nil {
				break
			}
			rec = record(in.text, r)
			counts[r.st.State]++
			if r.st.State != access.Present {
				worst = max(worst, exitNegative)
			}
		}
		if o.json {
			err = writeJSON(w, rec)
		} else {
			_, err = io.WriteString(w, probeLine(rec))
		}
		if err != nil {
			break
		}
	}
	if err == nil {
		err = w.Flush()
	}
	s.wait()
	bar.finish()
	access.CloseIdle()
	if err != nil {
		return finish(e, "probe", worst, status, err)
	}
	fmt.Fprintf(e.stderr, "locator probe: %d URLs (%d distinct probed): %d ok, %d gone, %d refused, %d error, %d policy\n",
		len(inputs), len(order), counts[access.Present], counts[access.Gone], counts[access.Denied], counts[access.Broken], counts[access.Forbidden])
	return max(worst, status)
}

// serverOf names the server a probe of u talks to, for the per-host
// limit: the host (any port), or for a news URL without one the
// configured news server; "" (no limit) for a URL that names no server.
func serverOf(u *locator.URL, nntpServer string) string {
	if u.Scheme() == "news" && u.Host() == "" {
		h, _, _ := strings.Cut(nntpServer, ":")
		return strings.ToLower(h)
	}
	if u.Scheme() == "file" {
		return ""
	}
	return strings.ToLower(strings.TrimSuffix(u.Host(), "."))
}

// syntaxOnly judges a mailto URL by its syntax alone while the mailto
// client offers no Prober: following one could send mail, and asking a
// mail server whether a mailbox exists (--mx, RCPT TO) is left for
// later. A URL that conforms to RFC 1738 §3.5 (an RFC 822 addr-spec) is
// ok, code "syntax"; one with a violation is gone, code "syntax", the
// first violation as its text. It returns nil for every other URL.
func syntaxOnly(u *locator.URL) *access.Status {
	if u.Scheme() != "mailto" {
		return nil
	}
	if f, _, ok := access.Lookup("mailto"); ok {
		if _, probes := f.(access.Prober); probes {
			return nil
		}
	}
	st := &access.Status{State: access.Present, Code: "syntax", Text: "the address conforms to RFC 1738 §3.5 (no mail server asked)", Size: -1, URL: u}
	for _, p := range u.Problems() {
		if p.Severity >= locator.Violation {
			st.State, st.Text = access.Gone, p.Message
			st.Err = fmt.Errorf("%s: not a mail address by RFC 1738 §3.5: %s (at %d, %s)", access.Masked(u), p.Message, p.Offset, p.Rule)
			break
		}
	}
	return st
}

// probeWithRetries probes u under the per-URL deadline, trying again
// after a transient failure, after o.backoff, then twice as long, ...
func probeWithRetries(u *locator.URL, opts access.Options, o *probeOptions) (*access.Status, int) {
	ctx, cancel := context.WithTimeout(context.Background(), o.deadline)
	defer cancel()
	wait := o.backoff
	var st *access.Status
	for try := 0; ; try++ {
		st = access.Probe(ctx, u, opts)
		if !st.Transient || try >= o.retries || ctx.Err() != nil {
			return st, try + 1
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return st, try + 1
		}
		wait *= 2
	}
}

func record(text string, r *probeResult) probeRecord {
	st := r.st
	rec := probeRecord{URL: text, Status: string(st.State), Code: st.Code, Text: st.Text, Command: st.Command, Listing: st.Listing, Tries: r.tries, MS: r.ms}
	if st.Size >= 0 {
		n := st.Size
		rec.Size = &n
	}
	if !st.Modified.IsZero() {
		rec.Modified = st.Modified.UTC().Format(time.RFC3339)
	}
	if st.URL != nil && st.URL.String() != text {
		if u, err := locator.Parse(text); err != nil || u.String() != st.URL.String() {
			rec.Final = access.Masked(st.URL)
		}
	}
	if st.Err != nil && st.State != access.Present {
		rec.Error = strings.TrimPrefix(message(st.Err), access.Masked(st.URL)+": ")
	}
	return rec
}

// probeLine is the readable line of a record: status, code, the URL,
// then what is known (size, date, the server's text or the error).
func probeLine(r probeRecord) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-7s %-4s %s", r.Status, orDash(r.Code), printable(r.URL))
	if r.Size != nil {
		fmt.Fprintf(&b, " size=%d", *r.Size)
	}
	if r.Modified != "" {
		b.WriteString(" modified=" + r.Modified)
	}
	if r.Final != "" {
		b.WriteString(" -> " + printable(r.Final))
	}
	switch {
	case r.Error != "":
		b.WriteString(" (" + printable(r.Error) + ")")
	case r.Text != "" && r.Status != string(access.Present):
		b.WriteString(" (" + printable(r.Text) + ")")
	}
	b.WriteByte('\n')
	return b.String()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// A scheduler runs jobs with at most jobs at once in all and perHost at
// once for one server; jobs of one server wait in order for their turn
// without holding a global slot.
type scheduler struct {
	global  chan struct{}
	perHost int
	mu      sync.Mutex
	hosts   map[string]chan struct{}
	wg      sync.WaitGroup
}

func newScheduler(jobs, perHost int) *scheduler {
	return &scheduler{global: make(chan struct{}, jobs), perHost: perHost, hosts: map[string]chan struct{}{}}
}

func (s *scheduler) run(host string, job func()) {
	var h chan struct{}
	if host != "" {
		s.mu.Lock()
		h = s.hosts[host]
		if h == nil {
			h = make(chan struct{}, s.perHost)
			s.hosts[host] = h
		}
		s.mu.Unlock()
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if h != nil {
			h <- struct{}{}
			defer func() { <-h }()
		}
		s.global <- struct{}{}
		defer func() { <-s.global }()
		job()
	}()
}

func (s *scheduler) wait() { s.wg.Wait() }

// probeBar is the progress bar on standard error, shown only when it is
// a terminal.
type probeBar struct {
	mu  sync.Mutex
	bar *progressbar.ProgressBar
}

func newProbeBar(e *env, o *probeOptions, n int) *probeBar {
	if o.verbose {
		return &probeBar{}
	}
	if !o.forceProgress {
		f, ok := e.stderr.(*os.File)
		if !ok || !term.IsTerminal(int(f.Fd())) {
			return &probeBar{}
		}
	}
	return &probeBar{bar: progressbar.NewOptions(n,
		progressbar.OptionSetWriter(e.stderr),
		progressbar.OptionSetDescription("locator probe"),
		progressbar.OptionShowCount(),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)}
}

func (p *probeBar) add() {
	if p.bar == nil {
		return
	}
	p.mu.Lock()
	p.bar.Add(1)
	p.mu.Unlock()
}

func (p *probeBar) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}

// lockedWriter lets concurrent probes write whole dialogue lines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
