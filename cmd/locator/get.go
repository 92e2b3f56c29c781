package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	_ "github.com/rfc1738/locator/schemes" // each scheme's rules and client
)

func init() {
	register(&command{
		name: "get",
		args: "[flags] URL (or - for one URL on stdin)",
		summary: "follow a URL: the object's octets to stdout (or -o FILE), a listing as a table (or --json); " +
			"exit 0 delivered, 1 absent or refused by the server, 2 usage, 3 network or protocol failure, 4 refused by local policy",
		flags: getFlags,
	})
}

func getFlags(fs *flag.FlagSet) func(*env, []string) int {
	var o getOptions
	fs.DurationVar(&o.connect, "connect-timeout", access.DefaultConnectTimeout, "bound on establishing each connection")
	fs.DurationVar(&o.idle, "timeout", access.DefaultIdleTimeout, "bound on each read and write: a server silent this long is cut off")
	fs.Var((*sizeFlag)(&o.maxSize), "max-size", "bound on the object's octets, e.g. 1048576, 512K, 10M, 2G (0: no bound)")
	fs.IntVar(&o.maxEntries, "max-entries", access.DefaultMaxEntries, "bound on a listing's entries")
	fs.IntVar(&o.maxRedirects, "max-redirects", access.DefaultMaxRedirects, "redirections followed at most (0: none)")
	fs.Var((*intList)(&o.allowPorts), "allow-port", "a port of another service that may be used all the same (RFC 1738 §6); repeatable or a comma list")
	fs.Var((*stringList)(&o.allowHosts), "allow-host", "the only hosts that may be contacted (\".example.com\" for a domain); repeatable or a comma list")
	fs.Var((*stringList)(&o.denyHosts), "deny-host", "hosts that may not be contacted; repeatable or a comma list")
	fs.StringVar(&o.method, "ftp-method", "", "the retrieval method of the scheme's client (FTP: its listing and transfer method); empty: the texts' own")
	fs.StringVar(&o.userAddress, "user-address", "", "your e-mail address, the anonymous FTP password (RFC 1738 §3.2.1)")
	fs.StringVar(&o.nntpServer, "nntp-server", os.Getenv("NNTPSERVER"), "the news server asked for news: URLs, which name none (RFC 1738 §3.6), as HOST[:PORT]; default $NNTPSERVER")
	fs.StringVar(&o.search, "search", "", "search words for a URL naming a search service without them (Gopher type 7, WAIS)")
	fs.BoolVar(&o.views, "views", false, "list the representations the server offers of the object (a Gopher+ item's views) instead of retrieving it")
	fs.StringVar(&o.view, "view", "", "retrieve this representation, as --views names it (e.g. \"text/plain En_US\")")
	fs.Var(&o.answers, "ask", "answer a form's question: NAME=VALUE, NAME its prompt or number from 1 (\\n in VALUE: several lines); repeatable. Unanswered questions are asked on the terminal")
	fs.BoolVar(&o.printURL, "print-url", false, "write the URL the object was retrieved from (for a filled form, the URL that holds the answers) on standard error")
	fs.StringVar(&o.out, "o", "", "write the object to FILE instead of standard output (removed again when the transfer fails)")
	fs.BoolVar(&o.json, "json", false, "a listing as NDJSON, one object per entry: url, name, type, size, modified, parts")
	fs.BoolVar(&o.verbose, "v", false, "the protocol dialogue on standard error, passwords masked")
	fs.BoolVar(&o.follow, "follow", false, "fetch an object that points to other URLs through the first it can (a Prospero link's access methods, RFC 1738 §3.11) instead of listing them")
	return func(e *env, args []string) int { return runGet(e, args, &o) }
}

type getOptions struct {
	connect, idle           time.Duration
	maxSize                 int64
	maxEntries              int
	maxRedirects            int
	allowPorts              []int
	allowHosts, denyHosts   []string
	method, userAddress     string
	search, out             string
	nntpServer              string
	json, verbose, follow   bool
	views, printURL         bool
	view                    string
	answers                 answerList
	progressAfter           time.Duration // 0: one second
	forceProgress, noPrompt bool          // tests
}

func runGet(e *env, args []string, o *getOptions) int {
	if len(args) != 1 {
		return usageError(e, "get", fmt.Sprintf("want one URL, got %d arguments", len(args)))
	}
	if args[0] == "-" {
		// One URL on standard input.
		var urls []string
		if _, err := eachInput(e, "get", args, func(it item) error {
			if s := strings.TrimSpace(it.text); s != "" {
				urls = append(urls, s)
			}
			return nil
		}, nil); err != nil {
			return usageError(e, "get", message(err))
		}
		if len(urls) != 1 {
			return usageError(e, "get", fmt.Sprintf("want one URL on standard input, got %d", len(urls)))
		}
		args = urls
	}
	if o.connect <= 0 || o.idle <= 0 || o.maxEntries <= 0 || o.maxRedirects < 0 {
		return usageError(e, "get", "--connect-timeout, --timeout and --max-entries must be positive, --max-redirects not negative")
	}
	u, err := locator.Parse(args[0])
	if err != nil {
		return usageError(e, "get", err.Error())
	}
	if access.IsSession(u.Scheme()) {
		// An interactive service, not an object (RFC 1738 §3.8): the
		// same session as locator telnet.
		return runSession(e, "get", u, sessionOptions{connect: o.connect, idle: o.idle, verbose: o.verbose,
			allowPorts: o.allowPorts, allowHosts: o.allowHosts, denyHosts: o.denyHosts})
	}
	opts := access.Options{
		ConnectTimeout: o.connect,
		IdleTimeout:    o.idle,
		MaxSize:        o.maxSize,
		MaxEntries:     o.maxEntries,
		MaxRedirects:   o.maxRedirects,
		UserAddress:    o.userAddress,
		Method:         o.method,
		Search:         o.search,
		Server:         o.nntpServer,
		View:           o.view,
		Answers:        o.answers,
		Policy:         access.Policy{AllowPorts: o.allowPorts, AllowHosts: o.allowHosts, DenyHosts: o.denyHosts},
	}
	if o.maxRedirects == 0 {
		opts.MaxRedirects = -1
	}
	if o.verbose {
		opts.Dialogue = e.stderr
	}
	if in, ok := e.stdin.(*os.File); ok && term.IsTerminal(int(in.Fd())) && !o.noPrompt {
		opts.Password = func(prompt string) (string, error) {
			fmt.Fprint(e.stderr, prompt)
			b, err := term.ReadPassword(int(in.Fd()))
			fmt.Fprintln(e.stderr)
			return string(b), err
		}
		opts.Ask = terminalAsker(bufio.NewReader(in), e.stderr, func() (string, error) {
			b, err := term.ReadPassword(int(in.Fd()))
			return string(b), err
		})
	}
	if o.views {
		return listViews(e, u, opts, o)
	}

	ctx := context.Background()
	if o.follow {
		ctx = access.WithFollow(ctx)
	}
	res, err := access.Get(ctx, u, opts)
	if err != nil {
		return getFailed(e, err, o)
	}
	defer res.Close()
	if o.printURL && res.URL != nil {
		fmt.Fprintln(e.stderr, access.Masked(res.URL))
	}

	var w io.Writer = e.stdout
	var file *os.File
	if o.out != "" {
		file, err = os.Create(o.out)
		if err != nil {
			fmt.Fprintf(e.stderr, "locator get: %v\n", err)
			return 2
		}
		w = file
	}
	dst := &recordingWriter{w: w}
	if res.Listing != nil {
		err = writeListing(dst, res, o)
	} else {
		var src io.Reader = res.Body
		bar := newProgress(e, o, res.Size)
		if bar != nil {
			src = bar.reader(res.Body)
		}
		_, err = io.Copy(dst, src)
		if bar != nil {
			bar.finish(err == nil)
		}
	}
	if file != nil {
		if cerr := file.Close(); err == nil && cerr != nil {
			dst.err, err = cerr, cerr
		}
		if err != nil {
			os.Remove(o.out)
		}
	}
	switch {
	case dst.err != nil:
		// Our own output failed (a full disk, a closed pipe): local
		// trouble, not the server's or the network's. A failure of
		// standard output itself is reported once, by run.
		if o.out != "" || e.writeFailed() == nil {
			fmt.Fprintf(e.stderr, "locator get: writing %s: %v\n", outName(o), dst.err)
		}
		return 2
	case err != nil:
		return getFailed(e, err, o)
	}
	if res.Listing != nil && res.Listing.Truncated {
		fmt.Fprintf(e.stderr, "locator get: the listing has more than %d entries; the rest were not read (--max-entries)\n", o.maxEntries)
	}
	return 0
}

func outName(o *getOptions) string {
	if o.out != "" {
		return o.out
	}
	return "standard output"
}

// getFailed reports err and returns its exit status (access.Classify):
// 1 the server says absent or refuses, 3 network or protocol failure,
// 4 refused by local policy.
func getFailed(e *env, err error, o *getOptions) int {
	msg := err.Error()
	switch {
	case errors.Is(err, access.ErrTooLarge):
		msg += " (--max-size " + strconv.FormatInt(o.maxSize, 10) + ")"
	case access.Timeout(err):
		msg += fmt.Sprintf(" (the server sent nothing for --timeout %v, or did not accept within --connect-timeout %v)", o.idle, o.connect)
	}
	var pe *access.PolicyError
	if errors.As(err, &pe) && strings.Contains(pe.Rule, "§6") && strings.HasPrefix(pe.Reason, "port ") {
		msg += " (--allow-port)"
	}
	fmt.Fprintf(e.stderr, "locator get: %s\n", msg)
	return int(access.Classify(err))
}

// recordingWriter remembers the error of its writer, so that a failure to
// write our own output is told from a failure to read the object.
type recordingWriter struct {
	w   io.Writer
	err error
}

func (r *recordingWriter) Write(p []byte) (int, error) {
	n, err := r.w.Write(p)
	if err != nil && r.err == nil {
		r.err = err
	}
	return n, err
}

// listed is one entry of `locator get --json`: size and modified are
// absent when the server does not say them.
type listed struct {
	URL      string         `json:"url"`
	Name     string         `json:"name"`
	Type     string         `json:"type"`
	Size     *int64         `json:"size,omitempty"`
	Modified string         `json:"modified,omitempty"`
	Parts    map[string]any `json:"parts,omitempty"`
}

// writeListing writes a listing to w: a table, or NDJSON with --json.
func writeListing(dst io.Writer, res *access.Resource, o *getOptions) error {
	w := bufio.NewWriter(dst)
	if o.json {
		for _, en := range res.Listing.Entries {
			l := listed{URL: en.URL, Name: en.Name, Type: en.Type, Parts: en.Parts}
			if en.Size >= 0 {
				l.Size = &en.Size
			}
			if !en.Modified.IsZero() {
				l.Modified = en.Modified.UTC().Format(time.RFC3339)
			}
			if err := writeJSON(w, l); err != nil {
				return err
			}
		}
		return w.Flush()
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TYPE\tSIZE\tMODIFIED\tNAME\tURL")
	for _, en := range res.Listing.Entries {
		size, mod := "-", "-"
		if en.Size >= 0 {
			size = strconv.FormatInt(en.Size, 10)
		}
		if !en.Modified.IsZero() {
			mod = en.Modified.UTC().Format("2006-01-02 15:04")
		}
		name := en.Name
		if !printableName(name) {
			name = strconv.Quote(name)
		}
		url := en.URL
		if url == "" {
			url = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", en.Type, size, mod, name, url)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return w.Flush()
}

// printableName reports whether a name can be shown in a table as it is:
// no control octet, no tab, no invalid UTF-8.
func printableName(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f })
}

// progress shows a bar on standard error for a transfer longer than a
// second, only when standard error is a terminal (never in a pipe or a
// log) and no dialogue is written there.
type progress struct {
	e       *env
	size    int64
	start   time.Time
	after   time.Duration
	bar     *progressbar.ProgressBar
	written int64
}

func newProgress(e *env, o *getOptions, size int64) *progress {
	if o.verbose {
		return nil
	}
	if !o.forceProgress {
		f, ok := e.stderr.(*os.File)
		if !ok || !term.IsTerminal(int(f.Fd())) {
			return nil
		}
	}
	after := o.progressAfter
	if after <= 0 {
		after = time.Second
	}
	return &progress{e: e, size: size, start: time.Now(), after: after}
}

func (p *progress) reader(r io.Reader) io.Reader { return &progressReader{r: r, p: p} }

func (p *progress) add(n int) {
	p.written += int64(n)
	if p.bar == nil {
		if time.Since(p.start) < p.after {
			return
		}
		max := p.size
		if max < 0 {
			max = -1
		}
		p.bar = progressbar.NewOptions64(max,
			progressbar.OptionSetWriter(p.e.stderr),
			progressbar.OptionShowBytes(true),
			progressbar.OptionSetDescription("locator get"),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(p.e.stderr) }),
		)
		p.bar.Set64(p.written)
		return
	}
	p.bar.Add(n)
}

// finish completes the bar when the transfer succeeded, and otherwise
// leaves it where the transfer stopped, on a line of its own before the
// error's message.
func (p *progress) finish(ok bool) {
	switch {
	case p.bar == nil:
	case ok:
		p.bar.Finish()
	default:
		p.bar.Exit()
		fmt.Fprintln(p.e.stderr)
	}
}

type progressReader struct {
	r io.Reader
	p *progress
}

func (r *progressReader) Read(b []byte) (int, error) {
	n, err := r.r.Read(b)
	if n > 0 {
		r.p.add(n)
	}
	return n, err
}

// sizeFlag is an octet count with an optional K, M or G (powers of 1024).
type sizeFlag int64

func (s *sizeFlag) String() string { return strconv.FormatInt(int64(*s), 10) }

func (s *sizeFlag) Set(v string) error {
	mult := int64(1)
	switch {
	case strings.HasSuffix(v, "K"), strings.HasSuffix(v, "k"):
		mult = 1 << 10
	case strings.HasSuffix(v, "M"), strings.HasSuffix(v, "m"):
		mult = 1 << 20
	case strings.HasSuffix(v, "G"), strings.HasSuffix(v, "g"):
		mult = 1 << 30
	}
	if mult > 1 {
		v = v[:len(v)-1]
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return errors.New("not a size: octets, or a number with K, M or G")
	}
	*s = sizeFlag(n * mult)
	return nil
}

// intList is a repeatable flag of ports, each also a comma list.
type intList []int

func (l *intList) String() string {
	s := make([]string, len(*l))
	for i, n := range *l {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

func (l *intList) Set(v string) error {
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("not a port: %q", f)
		}
		*l = append(*l, n)
	}
	return nil
}

// stringList is a repeatable flag of names, each also a comma list.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

func (l *stringList) Set(v string) error {
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			return errors.New("an empty host name")
		}
		*l = append(*l, f)
	}
	return nil
}
