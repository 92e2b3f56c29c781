package main

// The access.Client a command follows URLs with, built from its flags:
// the generic settings on the Client itself (limits, policy, the
// dialogue, a person to ask for a password), each protocol's on its
// scheme's own client (Client.Schemes).

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	nethttp "net/http"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/term"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/ftp"
	"github.com/rfc1738/locator/gopher"
	"github.com/rfc1738/locator/gophers"
	lochttp "github.com/rfc1738/locator/http"
	"github.com/rfc1738/locator/internal/netrc"
	"github.com/rfc1738/locator/internal/printable"
	"github.com/rfc1738/locator/news"
	"github.com/rfc1738/locator/nntp"
	"github.com/rfc1738/locator/prospero"
	"github.com/rfc1738/locator/wais"
)

// schemes returns the scheme clients s configures: ftp's anonymous
// password (RFC 1738 §3.2.1), the news server news URLs do not name
// (§3.6), and --method on the client of scheme, the URL's own, so that
// a redirection into another scheme takes that scheme's default. A
// --method for a scheme whose client offers no choice is an error
// rather than a flag silently ignored.
func (s *schemeOptions) schemes(scheme string) (map[string]access.Fetcher, error) {
	f := &ftp.Client{UserAddress: s.userAddress, ASCII: s.ftpASCII}
	ns := &news.Client{Server: s.nntpServer}
	nn := &nntp.Client{}
	if s.method != "" {
		switch scheme {
		case "ftp":
			f.Method = s.method
		case "news":
			ns.Method = s.method
		case "nntp":
			nn.Method = s.method
		default:
			return nil, fmt.Errorf("--method %s: a %s URL is followed one way; ftp, news and nntp URLs have methods to choose from", s.method, scheme)
		}
	}
	return map[string]access.Fetcher{"ftp": f, "news": ns, "nntp": nn, "http": &lochttp.Client{}}, nil
}

// client returns the Client get follows u with, made once for the
// whole run, and the values of each request (access.Options: --search,
// --view, --ask), which travel with the request, not on the scheme
// clients. On a terminal (standard input one, and not a test), a
// password the URL does not give and a form's unanswered questions are
// asked of the person.
func (o *getOptions) client(e *env, u *locator.URL) (*access.Client, *access.Options, error) {
	schemes, err := o.schemes(u.Scheme())
	if err != nil {
		return nil, nil, err
	}
	opts := &access.Options{View: o.view, Search: o.search, Answers: o.answers}
	if len(o.answers) == 0 {
		opts.Answers = nil
	}
	schemes["gopher"] = &gopher.Client{}
	schemes["wais"] = &wais.Client{}
	schemes["prospero"] = &prospero.Client{Follow: o.follow}
	schemes["gemini"] = o.gemini.client(u) // --ask answers its request for input (status 1x) too
	hc, err := o.httpOptions.client(u)
	if err != nil {
		return nil, nil, err
	}
	schemes["http"], schemes["https"] = hc, hc
	// -k and --cacert apply to gophers too, as curl's do.
	schemes["gophers"] = &gophers.Client{TLSConfig: hc.TLSConfig.Clone()}
	c := &access.Client{Policy: o.policy.access(), RedirectSchemes: o.policy.redirectSchemes(), Schemes: schemes}
	o.limits.apply(c)
	if err := o.conn.apply(e, c); err != nil {
		return nil, nil, err
	}
	if o.verbose {
		c.Dialogue = e.stderr
	}
	if in, ok := e.stdin.(*os.File); ok && term.IsTerminal(int(in.Fd())) && !o.noPrompt {
		c.Password = func(prompt string) (string, error) {
			fmt.Fprint(e.stderr, printable.String(prompt))
			b, err := term.ReadPassword(int(in.Fd()))
			fmt.Fprintln(e.stderr)
			return string(b), err
		}
		opts.Ask = terminalAsker(bufio.NewReader(in), e.stderr, func() (string, error) {
			b, err := term.ReadPassword(int(in.Fd()))
			return string(b), err
		})
	}
	return c, opts, nil
}

// httpOptions are get's flags for http and https URLs, curl's: each
// becomes a field of the http.Client of both schemes, and a URL of
// another scheme ignores them, as curl does.
type httpOptions struct {
	header     headerList // -H, --header
	user       string     // -u, --user: USER:PASSWORD
	insecure   bool       // -k, --insecure
	cacert     string     // --cacert FILE
	compressed bool       // --compressed
	data       []string   // -d, --data: DATA or @FILE, in order
}

func httpFlags(fs *flag.FlagSet, o *httpOptions) {
	h := "send the header field `NAME: VALUE` with an http or https request, replacing the client's own of that name (Host, User-Agent); repeatable. CR, LF and NUL are refused"
	fs.Var(&o.header, "H", h)
	fs.Var(&o.header, "header", h+" (the same as -H)")
	u := "send `USER:PASSWORD` as Basic authorization (RFC 7617) with an http or https request; the password is masked in the dialogue"
	fs.StringVar(&o.user, "u", "", u)
	fs.StringVar(&o.user, "user", "", u+" (the same as -u)")
	k := "https and gophers: do not verify the server's certificate (its chain and name)"
	fs.BoolVar(&o.insecure, "k", false, k)
	fs.BoolVar(&o.insecure, "insecure", false, k+" (the same as -k)")
	fs.StringVar(&o.cacert, "cacert", "", "https and gophers: trust the certificates of the PEM `FILE` as roots instead of the system's")
	d := "POST `DATA` to an http or https URL (Content-Type application/x-www-form-urlencoded unless -H names one); @FILE: the file's contents, CR and LF left out, as curl; repeatable, the pieces joined by &"
	fs.Func("d", d, func(v string) error { o.data = append(o.data, v); return nil })
	fs.Func("data", d+" (the same as -d)", func(v string) error { o.data = append(o.data, v); return nil })
	fs.BoolVar(&o.compressed, "compressed", false, "ask an http or https server for a gzip body (Accept-Encoding: gzip) and decode it while it is read; --max-filesize bounds the decoded octets")
}

// client returns the http.Client o configures for following u: -u's
// credentials go to u's server only, never to another a redirection
// leads to (curl's rule without --location-trusted).
func (o *httpOptions) client(u *locator.URL) (*lochttp.Client, error) {
	c := &lochttp.Client{Compressed: o.compressed}
	if len(o.header) > 0 {
		c.Header = nethttp.Header{}
		for _, f := range o.header {
			c.Header[nethttp.CanonicalHeaderKey(f.name)] = append(c.Header[nethttp.CanonicalHeaderKey(f.name)], f.value)
		}
	}
	if o.user != "" {
		user, pass, ok := strings.Cut(o.user, ":")
		if !ok || user == "" {
			return nil, errors.New("--user: want USER:PASSWORD")
		}
		c.User, c.Password, c.AuthOrigin = user, pass, u
	}
	if len(o.data) > 0 {
		var pieces []string
		for _, d := range o.data {
			if name, ok := strings.CutPrefix(d, "@"); ok {
				b, err := os.ReadFile(name)
				if err != nil {
					return nil, fmt.Errorf("--data: %w", err)
				}
				d = strings.NewReplacer("\r", "", "\n", "").Replace(string(b))
			}
			pieces = append(pieces, d)
		}
		c.Data = []byte(strings.Join(pieces, "&"))
	}
	if o.insecure || o.cacert != "" {
		c.TLSConfig = &tls.Config{InsecureSkipVerify: o.insecure}
	}
	if o.cacert != "" {
		pem, err := os.ReadFile(o.cacert)
		if err != nil {
			return nil, fmt.Errorf("--cacert: %w", err)
		}
		roots := x509.NewCertPool()
		if !roots.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--cacert: %s holds no PEM certificate", o.cacert)
		}
		c.TLSConfig.RootCAs = roots
	}
	return c, nil
}

// headerList is the -H fields, in order.
type headerList []headerField

type headerField struct{ name, value string }

func (h *headerList) String() string {
	var s []string
	for _, f := range *h {
		s = append(s, f.name+": "+f.value)
	}
	return strings.Join(s, ", ")
}

// Set takes "Name: value". CR, LF and NUL are refused: each would end
// the field and begin another (RFC 1738 §6 keeps them from becoming
// delimiters; RFC 9110 §5.5).
func (h *headerList) Set(v string) error {
	if strings.ContainsAny(v, "\r\n\x00") {
		return errors.New("a header field holds CR, LF or NUL")
	}
	name, value, ok := strings.Cut(v, ":")
	if !ok || name == "" || strings.ContainsAny(name, " \t") {
		return errors.New("want NAME: VALUE")
	}
	*h = append(*h, headerField{name, strings.TrimSpace(value)})
	return nil
}

// connOptions are get's flags for how it reaches a server and logs in:
// curl's --netrc, --netrc-optional and --netrc-file (netrcOptions), and
// the proxies (proxyOptions).
type connOptions struct {
	netrcOptions
	proxyOptions
}

func connFlags(fs *flag.FlagSet, o *connOptions) {
	netrcFlags(fs, &o.netrcOptions)
	proxyFlags(fs, &o.proxyOptions)
}

// apply sets c's Login from the .netrc the flags name, and its Proxy.
func (o *connOptions) apply(e *env, c *access.Client) error {
	logins, err := o.load(e, "get")
	if err != nil {
		return err
	}
	if logins != nil {
		c.Login = logins.Find
	}
	o.proxyOptions.apply(c)
	return nil
}

// netrcOptions are curl's --netrc, --netrc-optional and --netrc-file.
type netrcOptions struct {
	netrc         bool   // -n, --netrc: ~/.netrc
	netrcOptional bool   // --netrc-optional
	netrcFile     string // --netrc-file FILE

	read    bool        // the .netrc was read (once, however many URLs)
	logins  *netrc.File // what it holds; nil without one
	loadErr error       // why it cannot be used
}

func netrcFlags(fs *flag.FlagSet, o *netrcOptions) {
	n := "log in with the login and password ~/.netrc gives for the URL's host when the URL gives no password (a URL with no user: its login instead of anonymous); no ~/.netrc: none, as curl"
	fs.BoolVar(&o.netrc, "n", false, n)
	fs.BoolVar(&o.netrc, "netrc", false, n+" (the same as -n)")
	fs.BoolVar(&o.netrcOptional, "netrc-optional", false, "the same as --netrc (curl's name for it); with --netrc-file, a missing FILE is no error")
	fs.StringVar(&o.netrcFile, "netrc-file", "", "as --netrc, from `FILE` instead of ~/.netrc; a missing FILE is an error")
}

// load reads the .netrc the flags name, once however many URLs the
// command follows: the error, or the warning, is the same for each. It
// returns nil when the flags name none.
func (o *netrcOptions) load(e *env, command string) (*netrc.File, error) {
	if !o.read {
		o.read = true
		o.logins, o.loadErr = o.readNetrc(e, command)
	}
	return o.logins, o.loadErr
}

// readNetrc reads the .netrc the flags name, or returns nil when they
// name none or --netrc finds no ~/.netrc. A file that holds a password
// and is open to other users than its owner is read with a warning:
// inetutils ftp refuses it, curl says nothing; the login still works,
// but the person should know.
func (o *netrcOptions) readNetrc(e *env, command string) (*netrc.File, error) {
	name, opt := o.netrcFile, "--netrc-file"
	required := name != "" && !o.netrcOptional
	if name == "" {
		if !o.netrc && !o.netrcOptional {
			return nil, nil
		}
		opt = "--netrc"
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, nil // nobody's home: no ~/.netrc
		}
		name = filepath.Join(home, ".netrc")
	}
	f, err := os.Open(name)
	if errors.Is(err, fs.ErrNotExist) && !required {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", opt, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", opt, err)
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s: %s is a directory", opt, name)
	}
	logins, err := netrc.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", opt, name, err)
	}
	if st.Mode().IsRegular() && st.Mode().Perm()&0o077 != 0 && logins.HasPassword() {
		fmt.Fprintf(e.stderr, "locator %s: warning: %s holds passwords and other users than its owner have access to it (mode %04o); chmod go= %s\n",
			command, printable.String(name), st.Mode().Perm(), printable.String(name))
	}
	return logins, nil
}
