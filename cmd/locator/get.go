package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	lochttp "github.com/rfc1738/locator/http"
	"github.com/rfc1738/locator/internal/printable"
	_ "github.com/rfc1738/locator/schemes" // each scheme's rules and client
)

func init() {
	register(&command{
		name: "get",
		args: "[flags] URL... (or - for one URL on stdin)",
		summary: "follow URLs (globs as curl's: {a,b}, [1-9]): each object's octets to stdout (or -o FILE, -O), a listing as a table (or --json); " +
			"exit 0 delivered, 1 absent or refused by the server, 2 usage, 3 network or protocol failure, 4 refused by local policy; with several URLs, the last failure's",
		flags: getFlags,
	})
}

func getFlags(fs *flag.FlagSet) func(*env, []string) int {
	o := getOptions{limits: limits{
		connect:    access.DefaultConnectTimeout,
		idle:       access.DefaultIdleTimeout,
		maxRedirs:  access.DefaultMaxRedirects,
		maxEntries: access.DefaultMaxEntries,
	}}
	limitFlags(fs, &o.limits, getBounds)
	policyFlags(fs, &o.policy, true)
	methodFlag(fs, &o.schemeOptions)
	serverFlags(fs, &o.schemeOptions)
	httpFlags(fs, &o.httpOptions)
	curlFlags(fs, &o.curlOptions)
	connFlags(fs, &o.conn)
	geminiFlags(fs, &o.gemini)
	fs.StringVar(&o.search, "search", "", "search words for a URL naming a search service without them (Gopher type 7, WAIS)")
	fs.BoolVar(&o.views, "views", false, "list the representations the server offers of the object (a Gopher+ item's views) instead of retrieving it")
	fs.StringVar(&o.view, "view", "", "retrieve this representation, as --views names it (e.g. \"text/plain En_US\")")
	fs.Var(&o.answers, "ask", "answer a form's question: NAME=VALUE, NAME its prompt or number from 1 (\\n in VALUE: several lines); repeatable. Unanswered questions are asked on the terminal")
	fs.BoolVar(&o.printURL, "print-url", false, "write the URL the object was retrieved from (for a filled form, the URL that holds the answers) on standard error")
	outputFlags(fs, &o)
	fs.BoolVar(&o.json, "json", false, "a listing as NDJSON, one object per entry: url, name, type, size, modified, parts")
	fs.BoolVar(&o.verbose, "v", false, "the protocol dialogue on standard error, passwords masked")
	fs.BoolVar(&o.follow, "follow", false, "fetch an object that points to other URLs through the first it can (a Prospero link's access methods, RFC 1738 §3.11) instead of listing them")
	head := "what the server says of the object, without its body, as header lines on standard output (X-Locator-State, X-Locator-Reply, Content-Length, Last-Modified, X-Locator-Listing): " +
		"HTTP HEAD, FTP SIZE and MDTM, Gopher+ attributes, NNTP STAT, a file's stat"
	fs.BoolVar(&o.head, "head", false, head)
	fs.BoolVar(&o.head, "I", false, "the same as --head")
	fs.BoolVar(&o.ftpASCII, "ftp-ascii", false, "transfer an ftp URL without ;type= in TYPE A, its line ends converted (RFC 959 §3.1.1.1), instead of TYPE I, the file's exact octets (RFC 1738 §3.2.3)")
	wo := "after the transfer, write `FORMAT` to standard output, its variables replaced: %{url_effective} %{http_code} %{size_download} %{time_total} %{num_redirects} %{exitcode} %{json}; \\n, \\t, \\r, \\\\ and %% escapes"
	fs.Var(&o.writeOut, "w", wo)
	fs.Var(&o.writeOut, "write-out", wo+" (the same as -w)")
	fs.IntVar(&o.retry, "retry", 0, "try again up to `N` times after a transient failure (a timeout, a reset connection), waiting 1s, then 2s, 4s, ... (at most 10m); never once an octet of the object was written")
	note(fs, "max-time", "with --retry, each try")
	o.warc = addWARCFlags(fs)
	fs.Var(&o.fromWARC, "from-warc", "follow the URLs from this WARC `FILE` or WACZ file (repeatable) instead of the network: its latest capture of each, as it was fetched; a URL it holds none of fails")
	durationVar(fs, &o.retryMaxTime, "retry-max-time", 0, "begin no retry after this long since the first try began, counting the wait before it: seconds (60, 0.5) or 2m (0: no bound); each try is bounded by --max-time")
	return func(e *env, args []string) int { return runGet(e, args, &o) }
}

// getBounds are the limits get takes.
const getBounds = boundMaxTime | boundTimeouts | boundFilesize | boundRedirs | boundEntries

type getOptions struct {
	limits
	policy
	schemeOptions
	httpOptions
	curlOptions
	conn                    connOptions // --netrc, --netrc-file, --proxy, --noproxy
	gemini                  geminiOptions
	search                  string
	outs                    outputList // -o, -O: each the next URL's
	remoteAll               bool       // --remote-name-all
	outputDir               string     // --output-dir
	createDirs, globOff     bool       // --create-dirs, -g
	maxURLs                 int        // --max-urls
	continueAt              resumeFlag // -C, --continue-at
	failWithBody            bool       // --fail-with-body
	json, verbose, follow   bool
	views, printURL         bool
	view                    string
	answers                 answerList
	reqOpts                 *access.Options // each request's values (client)
	head                    bool            // --head
	writeOut                writeOut        // -w, --write-out
	retry                   int             // --retry
	retryMaxTime            time.Duration   // --retry-max-time
	progressAfter           time.Duration   // 0: one second
	forceProgress, noPrompt bool            // tests
	noProgress              bool            // -s
	clock                   clock           // tests: --limit-rate's time; nil the real one
	warc                    *warcFlags      // --warc, --warc-max-size, --warc-dedup
	fromWARC                fileList        // --from-warc
}

func runGet(e *env, args []string, o *getOptions) int {
	args, msg := getURLs(e, args)
	if msg == "" {
		msg = o.invalidGet()
	}
	if msg != "" {
		return usageError(e, "get", msg)
	}
	qe := o.quiet(e)
	if len(o.outs) > len(args) {
		// curl's warning: each -o or -O is the next URL's.
		fmt.Fprintf(qe.stderr, "locator get: %d -o/-O for %d %s: the last %d %s no URL\n",
			len(o.outs), len(args), plural(len(args), "URL", "URLs"), len(o.outs)-len(args), plural(len(o.outs)-len(args), "has", "have"))
	}
	jobs, err := o.plan(args)
	if err != nil {
		return usageError(e, "get", err.Error())
	}
	if msg := o.invalidJobs(jobs); msg != "" {
		return usageError(e, "get", msg)
	}
	u := jobs[0].u
	if access.IsSession(u.Scheme()) && !o.head {
		// An interactive service, not an object (RFC 1738 §3.8): the
		// same session as locator telnet.
		return runSession(e, "get", u, sessionOptions{limits: o.limits, policy: o.policy, verbose: o.verbose})
	}
	if err := o.askPassword(e); err != nil {
		return usageError(e, "get", err.Error())
	}
	c, reqOpts, err := o.client(e, u)
	if err != nil {
		return usageError(e, "get", err.Error())
	}
	o.reqOpts = reqOpts
	// One Client for every URL, so that a session a server keeps open
	// (an FTP login) serves the next URL of the same server.
	defer c.CloseIdle()
	var r *report // the current URL's
	o.configure(c, u, &r)
	closeArchive, code := o.archives(e, c)
	if code != exitOK {
		return code
	}
	defer closeArchive()
	pages := make([]*locator.URL, len(jobs))
	for i, j := range jobs {
		pages[i] = j.u
	}
	o.warc.pages(pages) // --wacz's pages: the URLs given
	status := o.getAll(qe, c, jobs, &r)
	c.CloseIdle() // a session's last record is made when it ends
	if err := o.warc.finish(); err != nil {
		fmt.Fprintf(e.stderr, "locator get: --warc: %s\n", printable.String(err.Error()))
		status = exitTrouble
	}
	return status
}

// getURLs returns the URLs of the command line: args, or the one URL
// on standard input when args is "-"; or the usage message.
func getURLs(e *env, args []string) ([]string, string) {
	switch {
	case len(args) == 0:
		return nil, "want a URL"
	case len(args) > 1 && slices.Contains(args, "-"):
		return nil, "\"-\" (one URL on standard input) is given alone"
	case args[0] != "-":
		return args, ""
	}
	var urls []string
	if _, err := eachInput(e, "get", args, func(it item) error {
		if s := strings.TrimSpace(it.text); s != "" {
			urls = append(urls, s)
		}
		return nil
	}, nil); err != nil {
		return nil, message(err)
	}
	if len(urls) != 1 {
		return nil, fmt.Sprintf("want one URL on standard input, got %d", len(urls))
	}
	return urls, ""
}

// invalidGet returns the usage message when the flags are out of range
// or contradict each other, or "".
func (o *getOptions) invalidGet() string {
	if msg := o.invalid(getBounds); msg != "" {
		return msg
	}
	switch {
	case o.retry < 0 || o.retryMaxTime < 0:
		return "--retry and --retry-max-time must not be negative"
	case o.maxURLs < 0:
		return "--max-urls must not be negative"
	case o.head && o.views:
		return "--head asks what the server says of the object, --views which representations it offers: give one"
	case o.head && o.continueAt.set:
		return "--head retrieves no object to resume; -C takes one"
	case o.warc == nil: // a test's options, without the WARC flags
	case len(o.fromWARC) > 0 && (o.warc.file != "" || o.warc.wacz != ""):
		return "--from-warc reads an archive, --warc writes one: give one"
	case o.warc.file != "" && o.warc.wacz != "":
		return "--warc writes a WARC file, --wacz a WACZ: give one"
	}
	return o.curlInvalid()
}

// invalidJobs returns the usage message when a URL's output cannot be
// what the flags ask, or "".
func (o *getOptions) invalidJobs(jobs []job) string {
	for _, j := range jobs {
		switch {
		case o.head && j.file != "":
			return "--head writes the header lines to standard output; -o and -O take an object"
		case o.continueAt.auto && j.file == "":
			return "-C - resumes from the size of the output file: give -o FILE or -O for " + access.Masked(j.u)
		case access.IsSession(j.u.Scheme()) && !o.head && len(jobs) > 1:
			return access.Masked(j.u) + " opens an interactive session: give it alone"
		}
	}
	return ""
}

// configure sets on c what the flags say beyond its settings (client):
// the http client's (curlOptions.configure, --fail-with-body), the
// dialer of -4, -6 and --resolve, and what fills *r, the current URL's
// report: every redirection followed (access.Client.CheckRedirect,
// after the policy admitted it) and every HTTP reply's head.
func (o *getOptions) configure(c *access.Client, u *locator.URL, r **report) {
	c.CheckRedirect = func(next *locator.URL, via []*locator.URL) error {
		(*r).redirects++
		(*r).url = next
		return nil
	}
	if r := o.resolver(); r != nil {
		c.Resolver = r
	}
	if d := o.dial(); d != nil {
		c.Dial = d
	}
	onReply := func(rep lochttp.Reply) {
		(*r).code = strconv.Itoa(rep.Code)
		if (o.include || o.head) && rep.Head != nil {
			(*r).heads = append((*r).heads, rep.Head)
			(*r).headURL = rep.URL.String()
		}
	}
	for _, s := range []string{"http", "https"} {
		if hc, ok := c.Schemes[s].(*lochttp.Client); ok {
			// curl's --fail-with-body: the page of a 4xx or 5xx reply
			// is kept (access.ServerError.Body) and written as the
			// object.
			hc.ErrorBody = o.failWithBody
			o.curlOptions.configure(hc, u, onReply)
		}
	}
}

// archives sets c to read --from-warc's archives or to write --warc's,
// and returns what closes the archives read, and exitOK, or exitTrouble
// after the message.
func (o *getOptions) archives(e *env, c *access.Client) (func(), int) {
	closeArchive := func() {}
	if len(o.fromWARC) > 0 {
		rd, err := openArchive(e, "get", o.fromWARC, c.MaxSize)
		if err != nil {
			fmt.Fprintf(e.stderr, "locator get: --from-warc: %s\n", printable.String(err.Error()))
			return closeArchive, exitTrouble
		}
		c.Archive = rd
		closeArchive = func() { rd.Close() }
	}
	if ok, err := o.warc.open("locator get"); err != nil {
		fmt.Fprintf(e.stderr, "locator get: --warc: %s\n", printable.String(err.Error()))
		return closeArchive, exitTrouble
	} else if ok {
		c.Recorder = o.warc.recorder()
	}
	return closeArchive, exitOK
}

// quiet returns e as -s leaves it: no progress bar, and without -S no
// message on standard error. The dialogue (-v) and a password's prompt
// go to standard error all the same, as curl's do.
func (o *getOptions) quiet(e *env) *env {
	if !o.silent {
		return e
	}
	q := *e
	o.noProgress = true
	if !o.showError {
		q.stderr = io.Discard
	}
	return &q
}

// getAll follows every job's URL with c, each with its report (*r),
// and returns the exit status: the last failure's, so that a URL
// delivered after one that failed does not hide the failure (curl
// returns the last transfer's status, 0 after a success, unless
// --fail-early).
func (o *getOptions) getAll(e *env, c *access.Client, jobs []job, r **report) int {
	status := exitOK
	for _, j := range jobs {
		if e.writeFailed() != nil {
			break // standard output is gone; run reports it
		}
		*r = &report{url: j.u}
		start := time.Now()
		code := o.tries(e, c, j, *r)
		if len(o.writeOut) > 0 {
			(*r).exit, (*r).total = code, time.Since(start)
			o.writeOut.write(e.stdout, *r)
		}
		if code != exitOK {
			status = code
		}
	}
	return status
}

// A job is one URL of the command line, a glob expanded, and where its
// object goes.
type job struct {
	u    *locator.URL
	file string // "" for standard output
}

// plan expands the URLs of the command line (their globs, unless -g)
// and matches each to its output: the i-th -o or -O is the i-th URL's,
// and every URL of a glob's takes it (-o's #N replaced); a URL without
// one goes to standard output, or with --remote-name-all to the name
// it gives. Everything is checked here, before any connection: a
// malformed glob, more URLs than --max-urls, a URL that does not parse,
// a URL -O cannot name a file after.
func (o *getOptions) plan(args []string) ([]job, error) {
	max := uint64(o.maxURLs)
	if max == 0 {
		max = defaultMaxURLs
	}
	globs := make([]*glob, len(args))
	total := uint64(0)
	for i, a := range args {
		g := &glob{parts: []globPart{{text: a}}}
		if !o.globOff {
			var err error
			if g, err = parseGlob(a); err != nil {
				return nil, err
			}
		}
		n, ok := g.count(max)
		switch {
		case !ok && n == 0:
			return nil, fmt.Errorf("%q expands to more than 2^64 URLs, more than --max-urls %d", a, max)
		case !ok:
			return nil, fmt.Errorf("%q expands to %d URLs, more than --max-urls %d", a, n, max)
		case total+n > max:
			return nil, fmt.Errorf("the URLs expand to %d or more, more than --max-urls %d", total+n, max)
		}
		total += n
		globs[i] = g
	}
	var jobs []job
	for i, g := range globs {
		out := output{}
		switch {
		case i < len(o.outs):
			out = o.outs[i]
		case o.remoteAll:
			out.remote = true
		}
		var err error
		g.each(func(s string, texts []string) bool {
			var u *locator.URL
			if u, err = locator.Parse(s); err != nil {
				return false
			}
			j := job{u: u}
			switch {
			case out.remote:
				if j.file, err = remoteName(u); err != nil {
					return false
				}
			case out.file != "-":
				j.file = globName(out.file, texts)
			}
			if j.file != "" && o.outputDir != "" && !filepath.IsAbs(j.file) {
				j.file = strings.TrimSuffix(o.outputDir, "/") + "/" + j.file
			}
			jobs = append(jobs, j)
			return true
		})
		if err != nil {
			return nil, err
		}
	}
	return jobs, nil
}

// A try is what one attempt at following the URL came to.
type try struct {
	code int
	// msg is the failure's message for standard error, "" when there
	// is none or it was written already.
	msg string
	// transient is true when trying again may succeed (access.Transient,
	// access.Status.Transient); delivered when an octet of the object,
	// or an entry of the listing, was written: then the output holds
	// part of it, and no retry may add another copy after it.
	transient, delivered bool
	head                 *access.Status // --head: the header lines to write
}

// maxBackoff bounds the wait between tries, as curl's ten minutes.
const maxBackoff = 10 * time.Minute

// tries follows u, and again after a transient failure while --retry
// allows (curl's --retry): the first retry one second after the
// failure, each wait after twice the one before, or each --retry-delay
// after the failure when it is set, as curl's. --retry-max-time
// bounds the time since the first try began in which a retry may begin,
// its wait included; --max-time bounds each try, as curl's does. A try
// that wrote an octet of the object is never followed by another.
func (o *getOptions) tries(e *env, c *access.Client, j job, r *report) int {
	var t try
	retry := access.Retry{Times: o.retry, Wait: time.Second, MaxWait: maxBackoff, Within: o.retryMaxTime,
		Notify: func(wait time.Duration, left int) {
			fmt.Fprintf(e.stderr, "locator get: %s; trying again in %v (%d %s left)\n", t.msg, wait, left, plural(left, "retry", "retries"))
		}}
	if o.retryDelay > 0 {
		retry.Wait, retry.Fixed = o.retryDelay, true
	}
	retry.Do(context.Background(), func() bool {
		r.reset(j.u)
		t = o.once(e, c, j, r)
		return t.msg != "" && t.transient && !t.delivered
	})
	if o.head {
		writeHeads(e.stdout, t.head, r)
	}
	if t.msg != "" {
		fmt.Fprintf(e.stderr, "locator get: %s\n", t.msg)
	}
	return t.code
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// once makes one attempt at following j's URL.
func (o *getOptions) once(e *env, c *access.Client, j job, r *report) try {
	u := j.u
	// --max-time: one deadline over everything below, which every
	// connection's reads and writes also observe (access.Request.Dial).
	ctx, cancel := o.withMaxTime(context.Background())
	defer cancel()
	if o.head {
		return o.stat(ctx, c, u, r)
	}
	if o.views {
		return try{code: listViews(ctx, e, c, u, o)}
	}
	offset, err := o.resumeOffset(j)
	if err != nil {
		fmt.Fprintf(e.stderr, "locator get: -C -: %s\n", printable.String(err.Error()))
		return try{code: exitTrouble}
	}
	opts := *o.reqOpts
	opts.Offset = offset
	res, err := c.Do(ctx, u, &opts)
	if err != nil {
		return o.refused(e, j, offset, err, r, expired(ctx))
	}
	defer res.Close()
	if res.URL != nil {
		r.url = res.URL
	}
	if o.printURL && res.URL != nil {
		fmt.Fprintln(e.stderr, printable.String(access.Masked(res.URL)))
	}
	var w io.Writer = e.stdout
	var file *outputFile
	if j.file != "" {
		file, err = o.openOutput(j.file, offset > 0)
		if err != nil {
			fmt.Fprintf(e.stderr, "locator get: -o: %s\n", printable.String(err.Error()))
			return try{code: exitTrouble}
		}
		w = file
	}
	dst := &recordingWriter{w: w}
	err = o.copyObject(e, dst, res, r)
	if file != nil {
		// Only a complete object replaces -o's file; a failed transfer
		// leaves what was there as it was. A resumed file (-C) keeps
		// the octets appended, to be resumed again from there.
		if err == nil && dst.err == nil {
			if cerr := file.commit(); cerr != nil {
				dst.err, err = cerr, cerr
			}
		} else {
			file.abort()
		}
	}
	switch {
	case dst.err != nil:
		// Our own output failed (a full disk, a closed pipe): local
		// trouble, not the server's or the network's. A failure of
		// standard output itself is reported once, by run.
		if file != nil || e.writeFailed() == nil {
			fmt.Fprintf(e.stderr, "locator get: writing %s: %s\n", printable.String(outName(j)), printable.String(dst.err.Error()))
		}
		return try{code: 2}
	case err != nil:
		r.setCode(err)
		t := o.failed(u, err, transfer{body: res.Listing == nil, listing: res.Listing != nil, octets: r.size, expired: expired(ctx)})
		t.delivered = dst.n > 0
		return t
	}
	return try{code: 0}
}

// copyObject writes res to dst: with -i the HTTP replies' heads first,
// then the listing, or the object's octets at --limit-rate's pace, with
// a progress bar on a terminal. It sets r's size to the octets of the
// object written, and returns the error of reading res.
func (o *getOptions) copyObject(e *env, dst *recordingWriter, res *access.Resource, r *report) error {
	if o.include {
		for _, h := range r.heads {
			if _, err := dst.Write(h); err != nil {
				return err
			}
		}
	}
	heads := dst.n
	defer func() { r.size = dst.n - heads }()
	if res.Listing != nil {
		return writeListing(dst, res, o)
	}
	src := o.limited(res.Body)
	size := res.Size
	if size >= 0 {
		size -= res.Offset // the octets Body holds
	}
	bar := newProgress(e, o, size)
	if bar != nil {
		src = bar.reader(src)
	}
	// A body that copies itself (ftp's, one bounded by MaxSize) does;
	// any other is read in pieces of copyBuffer, not io.Copy's 32 KiB: a
	// quarter of the reads (and writes) for a large object.
	_, err := io.CopyBuffer(dst, src, make([]byte, copyBuffer))
	if bar != nil {
		bar.finish(err == nil)
	}
	return err
}

// refused is the try whose Get met err, before any octet of the object:
// the message, and what the flags make of a server's refusal: -C's
// file left as it was, --fail-with-body's page written, -i's heads
// written to standard output, as curl -fi writes them.
func (o *getOptions) refused(e *env, j job, offset int64, err error, r *report, expired bool) try {
	u := j.u
	r.setCode(err)
	t := o.failed(u, err, transfer{expired: expired})
	if offset > 0 && resumeRefused(err) {
		url := access.Masked(u)
		t.msg = printable.String(fmt.Sprintf("%s: cannot resume from octet %d (-C): %s; %s left as it was",
			url, offset, strings.TrimPrefix(message(err), url+": "), outName(j)))
		return t
	}
	var se *access.ServerError
	if o.failWithBody && offset == 0 && errors.As(err, &se) && len(se.Body) > 0 {
		// --fail-with-body: the server's page is the output, the exit
		// status still the refusal's.
		if werr := o.writeErrorBody(e, j, se.Body, r); werr != nil {
			fmt.Fprintf(e.stderr, "locator get: %s\n", t.msg)
			fmt.Fprintf(e.stderr, "locator get: writing %s: %s\n", printable.String(outName(j)), printable.String(werr.Error()))
			return try{code: exitTrouble}
		}
		return t
	}
	if o.include && j.file == "" {
		for _, h := range r.heads {
			e.stdout.Write(h) // a failure is run's to report
		}
	}
	return t
}

// copyBuffer is the buffer an object is copied through to its output.
const copyBuffer = 256 << 10

// failed is the try that met err.
func (o *getOptions) failed(u *locator.URL, err error, t transfer) try {
	return try{code: exitStatus(access.Classify(err)), msg: failMessage(u, err, o, t), transient: access.Transient(err)}
}

// stat asks what the server says of the object u names (--head): the
// header lines when it answered (ok, gone or refused), and get's exit
// status.
func (o *getOptions) stat(ctx context.Context, c *access.Client, u *locator.URL, r *report) try {
	st, err := c.StatWith(ctx, u, o.reqOpts)
	if st != nil {
		r.code = st.Code
		if st.URL != nil {
			r.url = st.URL
		}
	}
	var t try
	if err != nil {
		r.setCode(err)
		t = o.failed(u, err, transfer{expired: expired(ctx)})
		t.transient = t.transient || st != nil && st.Transient
	}
	if st != nil {
		switch st.State {
		case access.StateOK, access.StateGone, access.StateRefused:
			t.head = st
		}
	}
	return t
}

// writeHeads writes what --head learnt: the head of each HTTP reply as
// the server sent it (curl's -I, with -L: every reply's), and for an
// object of another scheme, or one whose reply's head was not kept,
// st as writeHead writes it.
func writeHeads(w io.Writer, st *access.Status, r *report) {
	for _, h := range r.heads {
		w.Write(h) // a failure is run's to report
	}
	if st != nil && (len(r.heads) == 0 || r.url == nil || r.headURL != r.url.String()) {
		writeHead(w, st)
	}
}

// writeHead writes st as header lines (--head) for a URL of a scheme
// other than http and https, one form for every scheme,
// after HTTP's (RFC 9110 §5): X-Locator-State, the probe's state (ok,
// gone, refused); X-Locator-Reply, the server's code and text when it
// gave them; Content-Length when the server says the size (or
// X-Locator-Approximate-Length for an estimate, a Gopher+ view's
// "<2k>"); Last-Modified in HTTP's date form (RFC 9110 §5.6.7) when it
// says the time; X-Locator-Listing: yes for a collection. What the
// server sent is made printable.
func writeHead(w io.Writer, st *access.Status) {
	var b strings.Builder
	fmt.Fprintf(&b, "X-Locator-State: %s\n", st.State)
	if reply := strings.TrimSpace(st.Code + " " + st.Text); reply != "" {
		fmt.Fprintf(&b, "X-Locator-Reply: %s\n", printable.String(reply))
	}
	switch {
	case st.Size >= 0 && st.SizeApprox:
		fmt.Fprintf(&b, "X-Locator-Approximate-Length: %d\n", st.Size)
	case st.Size >= 0:
		fmt.Fprintf(&b, "Content-Length: %d\n", st.Size)
	}
	if !st.Modified.IsZero() {
		fmt.Fprintf(&b, "Last-Modified: %s\n", st.Modified.UTC().Format(httpDate))
	}
	if st.Listing {
		b.WriteString("X-Locator-Listing: yes\n")
	}
	io.WriteString(w, b.String())
}

// httpDate is HTTP's date form, IMF-fixdate (RFC 9110 §5.6.7).
const httpDate = "Mon, 02 Jan 2006 15:04:05 GMT"

func outName(j job) string {
	if j.file != "" {
		return j.file
	}
	return "standard output"
}

// transfer is what getFailed knows of the attempt that failed.
type transfer struct {
	body    bool  // the object's octets had begun to flow
	listing bool  // the listing's entries had begun to flow
	octets  int64 // how many octets of the object had been delivered
	expired bool  // --max-time had run out
}

// expired reports whether ctx's deadline (--max-time) has passed. It
// reads the clock rather than ctx.Err, for a connection's read deadline,
// set to the same instant, may fire before the context's own timer.
func expired(ctx context.Context) bool {
	d, ok := ctx.Deadline()
	return ok && !time.Now().Before(d)
}

// getFailed reports err, met while following u, and returns its exit
// status (access.Classify): 1 the server says absent or refuses, 3
// network or protocol failure, 4 refused by local policy. The message
// names the URL (password masked) and says what happened in the
// command's terms: the whole operation over --max-time, no data for
// --idle-timeout after so many octets, the connection closed before the end
// of the object. It is made printable: a server's text in it (an FTP
// reply, an HTTP reason phrase) never drives the terminal.
func getFailed(e *env, u *locator.URL, err error, o *getOptions, t transfer) int {
	fmt.Fprintf(e.stderr, "locator get: %s\n", failMessage(u, err, o, t))
	return exitStatus(access.Classify(err))
}

// failMessage is getFailed's message, printable, without the command's
// name.
func failMessage(u *locator.URL, err error, o *getOptions, t transfer) string {
	url := access.Masked(u)
	msg := err.Error()
	if !namesURL(err, url) {
		msg = url + ": " + msg
	}
	after := ""
	if t.body {
		after = fmt.Sprintf(" after %d octets", t.octets)
	}
	var op *net.OpError
	switch {
	case t.expired:
		// Whatever the error says (a read deadline, the context's), the
		// operation's own bound is what ended it.
		msg = fmt.Sprintf("%s: the operation exceeded its maximum time (--max-time %v)", url, o.maxTime)
		if t.body {
			msg += fmt.Sprintf(", with %d octets of the object delivered", t.octets)
		}
	case errors.Is(err, access.ErrTooLarge):
		msg += " (--max-filesize " + strconv.FormatInt(o.maxFilesize, 10) + ")"
	case access.Timeout(err) && errors.As(err, &op) && op.Op == "dial":
		msg = fmt.Sprintf("%s: the server did not accept the connection within --connect-timeout %v", url, o.connect)
	case access.Timeout(err) && t.body:
		msg = fmt.Sprintf("%s: no data for --idle-timeout %v%s, before the end of the object", url, o.idle, after)
	case access.Timeout(err) && t.listing:
		msg = fmt.Sprintf("%s: no data for --idle-timeout %v, before the end of the listing", url, o.idle)
	case access.Timeout(err):
		msg = fmt.Sprintf("%s: the server was silent for --idle-timeout %v, before the object began", url, o.idle)
	case errors.Is(err, io.ErrUnexpectedEOF) && t.body:
		msg = fmt.Sprintf("%s: the connection closed%s, before the end of the object", url, after)
	case errors.Is(err, io.ErrUnexpectedEOF) && t.listing:
		msg = fmt.Sprintf("%s: the connection closed before the end of the listing", url)
	case errors.Is(err, io.ErrUnexpectedEOF):
		msg = fmt.Sprintf("%s: the connection closed before the end of the server's reply", url)
	case errors.Is(err, syscall.ECONNRESET) && t.body:
		msg = fmt.Sprintf("%s: the connection was reset%s, before the end of the object", url, after)
	case t.body:
		msg += " (" + strings.TrimPrefix(after, " ") + " of the object)"
	}
	var pe *access.PolicyError
	if errors.As(err, &pe) && strings.Contains(pe.Rule, "§6") && strings.HasPrefix(pe.Reason, "port ") {
		msg += " (--allow-port)"
	}
	return printable.String(msg)
}

// namesURL reports whether err's message names the URL followed: a
// typed error of package access that carries one, or a message that
// begins with url.
func namesURL(err error, url string) bool {
	var se *access.ServerError
	var pe *access.PolicyError
	var xe *access.ProtocolError
	return errors.As(err, &se) && se.URL != "" ||
		errors.As(err, &pe) && pe.URL != "" ||
		errors.As(err, &xe) && xe.URL != "" ||
		url != "" && strings.HasPrefix(err.Error(), url)
}

// recordingWriter remembers the error of its writer, so that a failure to
// write our own output is told from a failure to read the object.
type recordingWriter struct {
	w   io.Writer
	n   int64 // octets written
	err error
}

func (r *recordingWriter) Write(p []byte) (int, error) {
	n, err := r.w.Write(p)
	r.n += int64(n)
	if err != nil && r.err == nil {
		r.err = err
	}
	return n, err
}

// listed is one entry of `locator get --json`: size and modified are
// absent when the server does not say them; size_approx is true when the
// size is the server's estimate (a Gopher+ view size).
type listed struct {
	URL        string         `json:"url"`
	Name       string         `json:"name"`
	Type       string         `json:"type"`
	Size       *int64         `json:"size,omitempty"`
	SizeApprox bool           `json:"size_approx,omitempty"`
	Modified   string         `json:"modified,omitempty"`
	Parts      map[string]any `json:"parts,omitempty"`
}

// listBlock is how many entries of a listing are written at a time: the
// table's columns are laid out over a block (and never narrow from one
// block to the next), and standard output is flushed after each, so
// that memory is bounded by a block, not by the listing, and an endless
// listing shows its entries as they come.
const listBlock = 256

// listingCut is a listing cut at --max-entries: exit 3 (access.Classify
// counts the *access.TruncatedError it wraps a failure), after the
// entries up to the limit were written.
type listingCut struct{ *access.TruncatedError }

func (e listingCut) Error() string {
	return fmt.Sprintf("the listing has more than %d entries; the rest were not read (--max-entries)", e.Max)
}

func (e listingCut) Unwrap() error { return e.TruncatedError }

// writeListing writes a listing to w as the client reads it from the
// server, entry by entry: a table, or NDJSON with --json. It returns the
// error that ended the listing: a listingCut when it has more entries
// than --max-entries, or the transfer's failure.
func writeListing(dst io.Writer, res *access.Resource, o *getOptions) error {
	w := bufio.NewWriter(dst)
	var tab *table
	if !o.json {
		tab = &table{w: w}
		tab.add([5]string{"TYPE", "SIZE", "MODIFIED", "NAME", "URL"})
	}
	var err error
	for n := 1; ; n++ {
		var en access.Entry
		en, err = res.Listing.Next()
		if err != nil {
			break
		}
		if tab == nil {
			l := listed{URL: en.URL, Name: en.Name, Type: en.Type, Parts: en.Parts, SizeApprox: en.SizeApprox && en.Size >= 0}
			if en.Size >= 0 {
				l.Size = &en.Size
			}
			if !en.Modified.IsZero() {
				l.Modified = en.Modified.UTC().Format(time.RFC3339)
			}
			if err := writeJSON(w, l); err != nil {
				return err
			}
		} else {
			tab.add(row(en))
		}
		if n%listBlock == 0 {
			if tab != nil {
				tab.flush()
			}
			if err := w.Flush(); err != nil {
				return err
			}
		}
	}
	if tab != nil {
		tab.flush()
	}
	if ferr := w.Flush(); ferr != nil {
		return ferr
	}
	var te *access.TruncatedError
	switch {
	case err == io.EOF:
		return nil
	case errors.As(err, &te):
		return listingCut{te}
	}
	return err
}

// row is the table row of en: its type, size ("~" before a size that is
// the server's estimate), date, name (quoted when it is not printable)
// and URL.
func row(en access.Entry) [5]string {
	size, mod := "-", "-"
	if en.Size >= 0 {
		size = strconv.FormatInt(en.Size, 10)
		if en.SizeApprox {
			size = "~" + size
		}
	}
	if !en.Modified.IsZero() {
		mod = en.Modified.UTC().Format("2006-01-02 15:04")
	}
	name := en.Name
	if !printable.Clean(name) {
		name = strconv.Quote(name)
	}
	url := printable.String(en.URL)
	if url == "" {
		url = "-"
	}
	return [5]string{printable.String(en.Type), size, mod, name, url}
}

// A table lays out rows in columns, a block at a time: each column but
// the last is as wide as its widest cell so far and two spaces.
type table struct {
	w      *bufio.Writer
	rows   [][5]string
	widths [4]int
}

func (t *table) add(r [5]string) { t.rows = append(t.rows, r) }

// flush writes the rows held.
func (t *table) flush() {
	for _, r := range t.rows {
		for c := range t.widths {
			t.widths[c] = max(t.widths[c], utf8.RuneCountInString(r[c]))
		}
	}
	for _, r := range t.rows {
		for c, width := range t.widths {
			t.w.WriteString(r[c])
			for i := utf8.RuneCountInString(r[c]); i < width+2; i++ {
				t.w.WriteByte(' ')
			}
		}
		t.w.WriteString(r[4])
		t.w.WriteByte('\n')
	}
	t.rows = t.rows[:0]
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
	if o.verbose || o.noProgress {
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
