package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/printable"
)

// An outputFile is where `locator get -o FILE` writes the object.
//
// The rule: an existing FILE is never lost or half-written by a transfer
// that fails, and nothing is written through a symbolic link. The
// octets go to a new file beside FILE (same directory, so that the
// rename stays on one file system), created with O_EXCL|O_NOFOLLOW so
// that a name planted in the directory is never opened; only a complete
// object is renamed over FILE. A symbolic link at FILE is itself
// replaced by the rename and its target left untouched. The new file has
// the permission bits of the regular file it replaces, else 0666 less
// the umask, as curl's. A device, FIFO or socket at FILE (/dev/null)
// holds nothing to keep and must not be replaced by a rename, and
// /dev/stdout, /dev/fd/N and /proc/self/fd/N name a descriptor the
// person opened: these are written to directly, as standard output is
// (a link to a device elsewhere is replaced like any link).
type outputFile struct {
	*os.File
	temp     string // the temporary file's name; "" when writing directly
	dest     string
	replaces bool // a regular file is at dest: it is replaced by the rename
}

// tempTries bounds the names tried when another file holds the
// temporary name drawn (a collision of 64 random bits, or a name
// planted there).
const tempTries = 16

// createOutput opens the output for -o dest.
func createOutput(dest string) (*outputFile, error) {
	li, err := os.Lstat(dest)
	direct, flags := false, os.O_WRONLY|os.O_TRUNC|syscall.O_NOFOLLOW
	switch {
	case descriptorLink(dest):
		direct, flags = true, os.O_WRONLY|os.O_TRUNC
	case err == nil && li.IsDir():
		return nil, fmt.Errorf("%s is a directory", dest)
	case err == nil && li.Mode().Type() != 0 && li.Mode()&fs.ModeSymlink == 0:
		direct = true // a device, FIFO or socket at the path itself
	}
	if direct {
		f, err := os.OpenFile(dest, flags, 0)
		if err != nil {
			return nil, err
		}
		return &outputFile{File: f, dest: dest}, nil
	}
	perm, keep := fs.FileMode(0o666), false
	if li, err := os.Lstat(dest); err == nil && li.Mode().IsRegular() {
		perm, keep = li.Mode().Perm(), true
	}
	if strings.HasSuffix(dest, "/") {
		return nil, fmt.Errorf("%s names a directory", dest)
	}
	dir, base := filepath.Dir(dest), filepath.Base(dest)
	var rnd [8]byte
	for try := 0; ; try++ {
		rand.Read(rnd[:])
		name := filepath.Join(dir, "."+base+".locator-"+hex.EncodeToString(rnd[:]))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, perm)
		if errors.Is(err, fs.ErrExist) && try < tempTries {
			continue
		}
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, fmt.Errorf("cannot create a file in %s (written there first, then renamed to %s): %w", dir, base, err)
		}
		if keep {
			// The file replaced had these bits; the umask applied to
			// the new one must not widen or narrow them.
			if err := f.Chmod(perm); err != nil {
				f.Close()
				os.Remove(name)
				return nil, err
			}
		}
		return &outputFile{File: f, temp: name, dest: dest, replaces: keep}, nil
	}
}

// descriptorLink reports whether path names an open descriptor of this
// process (/dev/stdout, /dev/fd/N, /proc/self/fd/N): the person asked
// for that descriptor, which a rename would not reach, and which is
// written to directly.
func descriptorLink(path string) bool {
	clean := filepath.Clean(path)
	if strings.HasPrefix(clean, "/dev/fd/") || strings.HasPrefix(clean, "/proc/self/fd/") {
		return true
	}
	target, err := os.Readlink(clean)
	return err == nil && strings.HasPrefix(target, "/proc/self/fd/")
}

// commit makes the complete object FILE: it renames the temporary file
// over FILE. When a file is there, the new one is first flushed to the
// disk (fsync), so that not even a crash of the machine can leave FILE
// empty where it held the old object; a new FILE is not (as curl and
// wget flush none): there is nothing to lose, and ten files fetched in
// one run would each wait for the disk.
func (o *outputFile) commit() error {
	if o.temp == "" {
		return o.Close()
	}
	var err error
	if o.replaces {
		err = o.Sync()
	}
	if cerr := o.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(o.temp, o.dest)
	}
	if err != nil {
		os.Remove(o.temp)
	}
	return err
}

// abort ends a failed transfer: the temporary file is removed and FILE
// is left as it was.
func (o *outputFile) abort() {
	o.Close()
	if o.temp != "" {
		os.Remove(o.temp)
	}
}

// A report is what --write-out tells of a get: curl's variables of the
// same names.
type report struct {
	url       *locator.URL  // %{url_effective}: the last URL followed
	code      string        // %{http_code}: the server's reply code, "" when none is known
	size      int64         // %{size_download}: octets of the object written
	redirects int           // %{num_redirects}
	total     time.Duration // %{time_total}: every try and the waits between
	exit      int           // %{exitcode}
	heads     [][]byte      // -i, -I: each HTTP reply's head as it came
	headURL   string        // the URL of the last of heads
}

// reset readies r for a new try of u: what a try learns is of that try.
func (r *report) reset(u *locator.URL) {
	r.url, r.code, r.size, r.redirects, r.heads, r.headURL = u, "", 0, 0, nil, ""
}

// setCode takes the server's reply code from err: a refusal
// (*access.ServerError) carries the protocol's own.
func (r *report) setCode(err error) {
	var se *access.ServerError
	if errors.As(err, &se) && se.Code != "" {
		r.code = se.Code
	}
}

// httpCode is %{http_code}: the reply code when it is three digits, else
// "000" as curl writes when it has none. It is the last HTTP reply's
// status, whatever it was (http.Client.OnReply), and a refusal's code
// for the other schemes (FTP, NNTP); the library gives no reply code
// for an object of another scheme it delivers (access.Resource holds
// none), nor for a scheme without numbered replies (Gopher, file).
func (r *report) httpCode() string {
	c := r.code
	if len(c) == 3 && c[0] >= '0' && c[0] <= '9' && c[1] >= '0' && c[1] <= '9' && c[2] >= '0' && c[2] <= '9' {
		return c
	}
	return "000"
}

func (r *report) value(name string) string {
	switch name {
	case "url_effective":
		if r.url == nil {
			return ""
		}
		return printable.String(access.Masked(r.url))
	case "http_code":
		return r.httpCode()
	case "size_download":
		return strconv.FormatInt(r.size, 10)
	case "time_total":
		return strconv.FormatFloat(r.total.Seconds(), 'f', 6, 64)
	case "num_redirects":
		return strconv.Itoa(r.redirects)
	case "exitcode":
		return strconv.Itoa(r.exit)
	case "json":
		code, _ := strconv.Atoi(r.httpCode())
		url := ""
		if r.url != nil {
			url = access.Masked(r.url)
		}
		var b strings.Builder
		writeJSON(&b, struct {
			URL       string  `json:"url_effective"`
			Code      int     `json:"http_code"`
			Size      int64   `json:"size_download"`
			Total     float64 `json:"time_total"`
			Redirects int     `json:"num_redirects"`
			Exit      int     `json:"exitcode"`
		}{url, code, r.size, r.total.Seconds(), r.redirects, r.exit})
		return strings.TrimSuffix(b.String(), "\n")
	}
	return ""
}

// writeOutVars are the variables --write-out knows, in the help's order.
var writeOutVars = []string{"url_effective", "http_code", "size_download", "time_total", "num_redirects", "exitcode", "json"}

// A writeOut is a --write-out FORMAT, parsed when the flag is set so
// that an unknown variable is a usage error before any connection: each
// part a literal text or a variable's name.
type writeOut []woPart

type woPart struct {
	text string
	name string // a variable; "" for text
}

func (w *writeOut) String() string {
	if w == nil {
		return ""
	}
	var b strings.Builder
	for _, p := range *w {
		if p.name != "" {
			b.WriteString("%{" + p.name + "}")
		} else {
			b.WriteString(p.text)
		}
	}
	return b.String()
}

// Set reads FORMAT as curl does: %{name} a variable, %% a "%", and the
// escapes \n, \r, \t and \\; any other octet is itself.
func (w *writeOut) Set(s string) error {
	var parts writeOut
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			parts = append(parts, woPart{text: text.String()})
			text.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '%' && strings.HasPrefix(s[i:], "%%"):
			text.WriteByte('%')
			i++
		case c == '%' && strings.HasPrefix(s[i:], "%{"):
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return fmt.Errorf("%q: a %%{ without its }", s)
			}
			name := s[i+2 : i+end]
			if !slices.Contains(writeOutVars, name) {
				return fmt.Errorf("unknown variable %%{%s}; the variables: %s", printable.String(name), strings.Join(writeOutVars, ", "))
			}
			flush()
			parts = append(parts, woPart{name: name})
			i += end
		case c == '\\' && i+1 < len(s) && strings.IndexByte(`nrt\`, s[i+1]) >= 0:
			text.WriteByte(map[byte]byte{'n': '\n', 'r': '\r', 't': '\t', '\\': '\\'}[s[i+1]])
			i++
		default:
			text.WriteByte(c)
		}
	}
	flush()
	*w = parts
	return nil
}

// write writes the format with r's values to out.
func (w writeOut) write(out io.Writer, r *report) {
	var b strings.Builder
	for _, p := range w {
		if p.name != "" {
			b.WriteString(r.value(p.name))
		} else {
			b.WriteString(p.text)
		}
	}
	io.WriteString(out, b.String())
}

// An output is where one URL of the command line sends its object: -o
// FILE ("-": standard output), or -O, the name the URL gives
// (remoteName). The zero output is standard output.
type output struct {
	file   string
	remote bool
}

// outputList is the -o and -O of the command line, in order: the i-th is
// the i-th URL's, as curl matches them.
type outputList []output

// outFlag is -o FILE: the next URL's output.
type outFlag struct{ l *outputList }

func (f outFlag) String() string { return "" }

func (f outFlag) Set(v string) error {
	if v == "" {
		return errors.New("an empty file name")
	}
	*f.l = append(*f.l, output{file: v})
	return nil
}

// remoteFlag is -O: the next URL's output is the file the URL names.
type remoteFlag struct{ l *outputList }

func (f remoteFlag) String() string   { return "false" }
func (f remoteFlag) IsBoolFlag() bool { return true }

func (f remoteFlag) Set(v string) error {
	on, err := strconv.ParseBool(v)
	if err != nil {
		return err
	}
	if on {
		*f.l = append(*f.l, output{remote: true})
	}
	return nil
}

// outputFlags declares get's flags of where objects go and which URLs
// there are: -o, -O, --output-dir, --create-dirs, -g, --max-urls, -C.
func outputFlags(fs *flag.FlagSet, o *getOptions) {
	out := "write the object to `FILE` instead of standard output (\"-\": standard output): written to a new file beside it, " +
		"renamed to FILE when the transfer succeeds (a symbolic link at FILE is replaced, never written through), removed when it fails, so that an existing FILE is never lost or half-written; " +
		"a device or FIFO at FILE (/dev/null), and a descriptor named by /dev/stdout or /dev/fd/N, are written to directly. " +
		"Each -o or -O is the next URL's, in order (curl's rule); #N in FILE is the current text of the URL's N-th glob"
	fs.Var(outFlag{&o.outs}, "o", out)
	fs.Var(outFlag{&o.outs}, "output", out+" (the same as -o)")
	rn := "write the next URL's object to a file named as the URL names it, in the current directory (or --output-dir): an ftp URL's last name, " +
		"the last segment of an http path or a gopher selector (decoded), a news message-id made safe; a name empty, \".\", \"..\" or holding \"/\" or NUL is refused"
	fs.Var(remoteFlag{&o.outs}, "O", rn)
	fs.Var(remoteFlag{&o.outs}, "remote-name", rn+" (the same as -O)")
	fs.BoolVar(&o.remoteAll, "remote-name-all", false, "every URL without its own -o or -O as if given -O")
	fs.StringVar(&o.outputDir, "output-dir", "", "put the files of -o (a relative FILE) and -O in `DIR`")
	fs.BoolVar(&o.createDirs, "create-dirs", false, "create the missing directories of an output file's path (mode 0750, as curl)")
	g := "no globbing: take {}, [] and \\ in a URL as they are written"
	fs.BoolVar(&o.globOff, "g", false, g)
	fs.BoolVar(&o.globOff, "globoff", false, g+" (the same as -g)")
	fs.IntVar(&o.maxURLs, "max-urls", defaultMaxURLs, "the URLs the command line's globs may expand to at most (0: the default); more is a usage error before any connection")
	c := "resume: retrieve the object from octet `OFFSET` on and append it to the output file (FTP REST, an HTTP Range); " +
		"\"-\": from the output file's size (-o or -O needed). A URL whose protocol or server cannot resume is refused, the file left as it was"
	fs.Var(&o.continueAt, "C", c)
	fs.Var(&o.continueAt, "continue-at", c+" (the same as -C)")
	fs.BoolVar(&o.failWithBody, "fail-with-body", false, "when an http or https server refuses (4xx, 5xx), write the page it sent with the refusal to the output; the exit status is still 1")
}

// defaultMaxURLs is --max-urls' default.
const defaultMaxURLs = 10000

// resumeFlag is -C: an offset, or "-" for the output file's size.
type resumeFlag struct {
	set, auto bool
	offset    int64
}

func (r *resumeFlag) String() string {
	switch {
	case r == nil || !r.set:
		return ""
	case r.auto:
		return "-"
	}
	return strconv.FormatInt(r.offset, 10)
}

func (r *resumeFlag) Set(v string) error {
	if v == "-" {
		*r = resumeFlag{set: true, auto: true}
		return nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || !digits(v) {
		return errors.New("want an offset in octets, or - for the output file's size")
	}
	*r = resumeFlag{set: true, offset: n}
	return nil
}

// resumeOffset is the octet j's object is retrieved from: -C's
// offset, or with -C - the size of j's file (0 when there is none yet,
// or it is no regular file: /dev/null).
func (o *getOptions) resumeOffset(j job) (int64, error) {
	if !o.continueAt.auto {
		return o.continueAt.offset, nil
	}
	fi, err := os.Lstat(j.file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return 0, nil
	case err != nil:
		return 0, err
	case !fi.Mode().IsRegular():
		return 0, nil
	}
	return fi.Size(), nil
}

// resumeRefused reports whether err says the object cannot be resumed
// at all: refused before connecting (access.Client.GetFrom's rule
// "resume": a protocol that cannot, a listing), or a server that would
// send it from another octet (a *ProtocolError before any octet came).
func resumeRefused(err error) bool {
	var pe *access.PolicyError
	var xe *access.ProtocolError
	return errors.As(err, &pe) && pe.Rule == "resume" ||
		errors.As(err, &xe) && strings.Contains(xe.Msg, "resume")
}

// openOutput opens file for an object: a new file renamed over it at
// the end (createOutput), or, to resume (-C), file itself, appended to
// from its end as curl does; never through a symbolic link. With
// --create-dirs, the missing directories of its path are made first.
func (o *getOptions) openOutput(file string, resume bool) (*outputFile, error) {
	if o.createDirs {
		if dir := filepath.Dir(file); dir != "." {
			if err := os.MkdirAll(dir, 0o750); err != nil {
				return nil, err
			}
		}
	}
	if !resume {
		return createOutput(file)
	}
	flags := os.O_WRONLY | os.O_APPEND | os.O_CREATE | syscall.O_NOFOLLOW
	if descriptorLink(file) {
		flags &^= syscall.O_NOFOLLOW
	}
	f, err := os.OpenFile(file, flags, 0o666)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%s is a symbolic link, which -C does not write through", file)
	}
	if err != nil {
		return nil, err
	}
	return &outputFile{File: f, dest: file}, nil
}

// writeErrorBody writes the page a server sent with its refusal to j's
// output (--fail-with-body), as it would an object, after the replies'
// heads with -i: a file replaced only once the page is written whole.
func (o *getOptions) writeErrorBody(e *env, j job, body []byte, r *report) error {
	var w io.Writer = e.stdout
	var f *outputFile
	if j.file != "" {
		var err error
		if f, err = o.openOutput(j.file, false); err != nil {
			return err
		}
		w = f
	}
	var err error
	if o.include {
		for _, h := range r.heads {
			if _, err = w.Write(h); err != nil {
				break
			}
		}
	}
	n := 0
	if err == nil {
		n, err = w.Write(body)
	}
	r.size = int64(n)
	switch {
	case f == nil:
		return err
	case err != nil:
		f.abort()
		return err
	}
	return f.commit()
}
