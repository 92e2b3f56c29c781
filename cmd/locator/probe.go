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
	"github.com/rfc1738/locator/internal/printable"
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
	fs.DurationVar(&o.deadline, "max-time", 30*time.Second, "bound on one URL's whole probe (connecting, the dialogue, redirections), its retries included, as curl's --max-time")
	fs.DurationVar(&o.deadline, "deadline", 30*time.Second, "the same as --max-time")
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
	Approx   bool   `json:"size_approx,omitempty"` // size is the server's estimate (Gopher+)
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
		return usageError(e, "probe", "--jobs, --per-host, --max-time, --connect-timeout and --timeout must be positive; --retries, --backoff and --max-redirects not negative")
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
			// The message may quote the input: quoted masked, as the
			// output shows it.
			in.err = message(perr)
			if m := maskedText(in.text); m != in.text {
				in.err = strings.ReplaceAll(in.err, in.text, m)
			}
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
			rec = probeRecord{URL: maskedText(in.text), Status: string(access.Broken), Error: in.err}
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
			rec = record(in, r)
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

// probeWithRetries probes u under the per-URL deadline (--max-time),
// trying again after a transient failure, after o.backoff, then twice
// as long, ... A probe that the deadline ended says so: its error is
// the deadline, not the read or the dial it cut short.
func probeWithRetries(u *locator.URL, opts access.Options, o *probeOptions) (*access.Status, int) {
	ctx, cancel := context.WithTimeout(context.Background(), o.deadline)
	defer cancel()
	wait := o.backoff
	var st *access.Status
	tries := 0
	for {
		st = access.Probe(ctx, u, opts)
		tries++
		if !st.Transient || tries > o.retries || ctx.Err() != nil {
			break
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wait *= 2
	}
	if st.State == access.Broken && expired(ctx) {
		about := u
		if st.URL != nil {
			about = st.URL // the last URL a redirection led to
		}
		st.Err = &maxTimeError{url: access.Masked(about), max: o.deadline, tries: tries, err: st.Err}
	}
	return st, tries
}

// A maxTimeError says that a probe's --max-time ran out.
type maxTimeError struct {
	url   string
	max   time.Duration
	tries int
	err   error // the last try's error
}

func (e *maxTimeError) Error() string {
	s := fmt.Sprintf("%s: the probe exceeded its maximum time (--max-time %v)", e.url, e.max)
	if e.tries > 1 {
		s += fmt.Sprintf(" in %d tries", e.tries)
	}
	return s
}

func (e *maxTimeError) Unwrap() error { return e.err }

// record is the output record of input in, whose probe gave r: every
// URL in it with its password masked (access.Masked).
func record(in *probeInput, r *probeResult) probeRecord {
	st := r.st
	text := in.text
	rec := probeRecord{URL: maskedText(text), Status: string(st.State), Code: st.Code, Text: st.Text, Command: st.Command, Listing: st.Listing, Tries: r.tries, MS: r.ms}
	if st.Size >= 0 {
		n := st.Size
		rec.Size, rec.Approx = &n, st.SizeApprox
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
	fmt.Fprintf(&b, "%-7s %-4s %s", r.Status, orDash(r.Code), printable.String(r.URL))
	if r.Size != nil {
		approx := ""
		if r.Approx {
			approx = "~"
		}
		fmt.Fprintf(&b, " size=%s%d", approx, *r.Size)
	}
	if r.Modified != "" {
		b.WriteString(" modified=" + r.Modified)
	}
	if r.Final != "" {
		b.WriteString(" -> " + printable.String(r.Final))
	}
	switch {
	case r.Error != "":
		b.WriteString(" (" + printable.String(r.Error) + ")")
	case r.Text != "" && r.Status != string(access.Present):
		b.WriteString(" (" + printable.String(r.Text) + ")")
	}
	b.WriteByte('\n')
	return b.String()
}

// maskedText is s, a URL as given, with the password of its
// "//user:password@host" part written as "****" (as access.Masked does)
// and nothing else changed, for output. An unparsable URL may carry a
// password all the same: its text is masked by the same reading, up to
// the last "@" before the first "/", "?" or "#" after "//".
func maskedText(s string) string {
	if u, err := locator.Parse(s); err == nil {
		if !u.HasPassword() {
			return s
		}
		in, off := u.Input(), u.Offset(locator.PasswordComponent)
		return in[:off] + "****" + in[off+len(u.Password()):]
	}
	i := strings.Index(s, "://")
	if i < 0 {
		return s
	}
	auth := s[i+3:]
	if end := strings.IndexAny(auth, "/?#"); end >= 0 {
		auth = auth[:end]
	}
	at := strings.LastIndexByte(auth, '@')
	if at < 0 {
		return s
	}
	colon := strings.IndexByte(auth[:at], ':')
	if colon < 0 {
		return s
	}
	return s[:i+3+colon+1] + "****" + s[i+3+at:]
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
