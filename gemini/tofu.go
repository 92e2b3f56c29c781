package gemini

import (
	"bufio"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rfc1738/locator/internal/atomicfile"
	"github.com/rfc1738/locator/internal/dest"
)

// maxKnownHosts bounds the growth of the known-hosts file, in octets: a
// certificate of a new server that would make it larger is not
// remembered (that connection is refused: nothing can be trusted on
// first use). A full file, or a larger one written by hand, still
// trusts the servers it holds: it is read a line at a time, never whole.
const maxKnownHosts = 1 << 20

// maxKnownLine bounds a line of the known-hosts file: a host name (255
// octets at most, RFC 1034 §3.1), a port, a fingerprint and a time fit
// well within it.
const maxKnownLine = 1024

// DefaultKnownHosts returns the known-hosts file of the user,
// ~/.config/locator/known_hosts (os.UserConfigDir), or "" when the user
// has no configuration folder.
func DefaultKnownHosts() string {
	d, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "locator", "known_hosts")
}

// fingerprint returns the fingerprint a known-hosts file keeps of a
// certificate: "SHA256:" and the SHA-256 digest of its DER encoding in
// lower-case hex (the digest molly-brown and other Gemini servers name
// client certificates by).
func fingerprint(cert *x509.Certificate) string {
	d := sha256.Sum256(cert.Raw)
	return "SHA256:" + hex.EncodeToString(d[:])
}

// A CertificateError says that a server presented another certificate
// than the one trusted on first use, and the one trusted has not expired
// (Gemini §4.2): the connection is refused, as an SSH client refuses a
// changed host key. If the change is expected (the server's owner made a
// new certificate), the line for the server in File is removed and the
// new certificate is trusted on the next use.
type CertificateError struct {
	Server string    // host:port, as serverKey writes it
	File   string    // the known-hosts file; "" for a TrustStore
	Line   int       // the line of File that holds Known
	Known  string    // the fingerprint trusted since first use
	Until  time.Time // when the known certificate expires
	Got    string    // the fingerprint the server presented
}

func (e *CertificateError) Error() string {
	fix := fmt.Sprintf("remove line %d of %s", e.Line, e.File)
	if e.File == "" {
		fix = "end the process that keeps it: its trust store is in memory"
	}
	return fmt.Sprintf("the certificate of %s has changed since it was first trusted: %s is known (valid until %s), the server presents %s; "+
		"refused (Gemini §4.2). If the change is expected, %s", e.Server, e.Known, e.Until.UTC().Format(time.RFC3339), e.Got, fix)
}

// A KnownHostsError says that the known-hosts file cannot be used: it
// cannot be read or written, holds a line this client does not write, or
// is full (a new server would make it larger than maxKnownHosts, or a
// TrustStore holds its Max servers).
type KnownHostsError struct {
	File string // "" for a TrustStore
	Line int    // 0 when about the whole file
	Msg  string
	Err  error // the underlying error, or nil
}

func (e *KnownHostsError) Error() string {
	s := "known hosts " + e.File
	if e.File == "" {
		s = "known hosts (in memory)"
	}
	if e.Line > 0 {
		s += ", line " + strconv.Itoa(e.Line)
	}
	s += ": " + e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *KnownHostsError) Unwrap() error { return e.Err }

// serverKey returns the key under which the certificate of the server at
// host and port is trusted: the host as dest.Name reads it (escapes
// decoded, RFC 1738 §2.2; a name with non-ASCII characters as its
// A-labels, IDNA; lower case, §3.1: host names are case-insensitive;
// without a final "."), an IPv6 address in its canonical form (RFC 5952)
// and an IPv4-mapped one as its IPv4 address, then ":" and the port in
// decimal. "LOCALHOST", "localhost." and "%6Cocalhost" are one server;
// "[::ffff:127.0.0.1]" and "127.0.0.1" are one. A name and its address
// stay two servers: trust on first use is given to the name a person
// wrote (Gemini §4.2), which DNS may map to another address tomorrow.
func serverKey(host string, port int) string {
	// Final dots and brackets, in any order ("[::1].", "[]."), until
	// none is left: the key read back (lineKey) is then the same.
	for {
		n := strings.TrimRight(host, ".")
		if strings.HasPrefix(n, "[") && strings.HasSuffix(n, "]") {
			n = n[1 : len(n)-1]
		}
		if n == host {
			break
		}
		host = n
	}
	h := dest.Name(host)
	// "h.." and "..." are no hosts, but keys all the same: read as
	// "h." and "." are, whatever the dots.
	if h = strings.TrimRight(h, "."); h == "" {
		h = "."
	}
	if a, err := netip.ParseAddr(h); err == nil {
		h = a.Unmap().String()
	}
	return net.JoinHostPort(h, strconv.Itoa(port))
}

// lineKey returns the key of the server a known-hosts line names, as
// serverKey writes it: a line written by an earlier version under
// another spelling of the host is the same server's.
func lineKey(s string) string {
	h, p, err := net.SplitHostPort(s)
	if err != nil {
		return s
	}
	n, err := strconv.Atoi(p)
	if err != nil || n < 0 || n > 65535 {
		return s
	}
	return serverKey(h, n)
}

// keyable reports whether a line can hold the key server: it is made of
// the characters of host names, addresses and ports (RFC 1738 §3.1),
// '[', ']' and a zone's '%', and reads back as itself. A host dest.Host
// refuses (a space, a control) is never connected to anyway.
func keyable(server string) bool {
	if server == "" {
		return false
	}
	for i := 0; i < len(server); i++ {
		c := server[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("-._:[]%", c) >= 0) {
			return false
		}
	}
	return lineKey(server) == server
}

// knownHosts is the trust-on-first-use store of a Client: a file of
// lines "host:port SHA256:hex not-after", not-after in RFC 3339, one per
// server, read and changed under a lock (an in-process mutex, and an
// advisory lock on "file.lock" against other processes).
type knownHosts struct {
	mu sync.Mutex
}

// verdict is what check decided of a certificate, for the dialogue.
type verdict string

const (
	known    verdict = "known since first use"
	firstUse verdict = "first use: trusted and remembered"
	renewed  verdict = "the known certificate has expired: the new one trusted and remembered"
)

// check trusts cert for server (a serverKey) on first use, or when it is
// the known one, or when the known one has expired (then the new one
// replaces it); otherwise it returns a *CertificateError. The file is
// read a line at a time: a server it holds is judged whatever the
// file's size; a new one is refused once the file is full.
func (k *knownHosts) check(file, server string, cert *x509.Certificate, now time.Time) (verdict, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return "", &KnownHostsError{File: file, Msg: "cannot make its folder", Err: err}
	}
	unlock, err := lockFile(file + ".lock")
	if err != nil {
		return "", &KnownHostsError{File: file, Msg: "cannot lock it", Err: err}
	}
	defer unlock()
	if !keyable(server) {
		return "", &KnownHostsError{File: file, Msg: "the server " + strconv.Quote(server) + " is not a host and port a line can hold"}
	}
	got := fingerprint(cert)
	entry := server + " " + got + " " + cert.NotAfter.UTC().Format(time.RFC3339) + "\n"
	sc, err := scanKnown(file, server, got, now)
	if err != nil {
		return "", err
	}
	switch {
	case sc.conflict != nil:
		return "", sc.conflict
	case sc.known:
		return known, nil
	case len(sc.expired) > 0:
		// The first expired line becomes the new one, the others (the
		// same server under other spellings) go.
		drop := map[int]bool{}
		for _, n := range sc.expired[1:] {
			drop[n] = true
		}
		return renewed, rewriteKnown(file, sc.size, func(n int, line []byte) []byte {
			switch {
			case n == sc.expired[0]:
				return []byte(entry)
			case drop[n]:
				return nil
			}
			return line
		}, "")
	}
	if sc.size+int64(len(entry))+1 > maxKnownHosts {
		return "", &KnownHostsError{File: file, Msg: "full: the certificate of " + server + " would make it larger than " + strconv.Itoa(maxKnownHosts) +
			" octets, so it cannot be trusted on first use; the servers it holds are still trusted"}
	}
	return firstUse, rewriteKnown(file, sc.size, nil, entry)
}

// knownScan is what a known-hosts file says of one server.
type knownScan struct {
	size     int64             // the file's octets
	known    bool              // a line holds the certificate presented
	conflict *CertificateError // a line holds another, not expired
	expired  []int             // the lines that hold another, expired
}

// scanKnown reads file ("" when it does not exist) a line at a time for
// the lines of server, the certificate presented being got.
func scanKnown(file, server, got string, now time.Time) (*knownScan, error) {
	sc := &knownScan{}
	f, err := os.Open(file)
	if errors.Is(err, fs.ErrNotExist) {
		return sc, nil
	}
	if err != nil {
		return nil, &KnownHostsError{File: file, Msg: "cannot read it", Err: err}
	}
	defer f.Close()
	err = eachLine(file, f, func(n int, line []byte) error {
		sc.size += int64(len(line))
		fl := strings.Fields(string(line))
		if len(fl) == 0 || strings.HasPrefix(fl[0], "#") {
			return nil
		}
		if len(fl) != 3 || !strings.HasPrefix(fl[1], "SHA256:") {
			return &KnownHostsError{File: file, Line: n, Msg: "not a line \"host:port SHA256:hex expiry\""}
		}
		if lineKey(fl[0]) != server {
			return nil
		}
		until, err := time.Parse(time.RFC3339, fl[2])
		if err != nil {
			return &KnownHostsError{File: file, Line: n, Msg: "the expiry is not an RFC 3339 time", Err: err}
		}
		switch {
		case fl[1] == got:
			sc.known = true
		case now.Before(until):
			if sc.conflict == nil {
				sc.conflict = &CertificateError{Server: server, File: file, Line: n, Known: fl[1], Until: until, Got: got}
			}
		default:
			sc.expired = append(sc.expired, n)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return sc, nil
}

// eachLine calls fn with each line of r (its "\n" kept) and its number
// from 1; a line longer than maxKnownLine is a *KnownHostsError.
func eachLine(file string, r io.Reader, fn func(n int, line []byte) error) error {
	br := bufio.NewReaderSize(r, maxKnownLine+1)
	for n := 1; ; n++ {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull || len(line) > maxKnownLine {
			return &KnownHostsError{File: file, Line: n, Msg: "longer than " + strconv.Itoa(maxKnownLine) + " octets: not a line this client writes"}
		}
		if len(line) > 0 {
			if ferr := fn(n, line); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return &KnownHostsError{File: file, Msg: "cannot read it", Err: err}
		}
	}
}

// rewriteKnown replaces file, whole or not at all (a temporary file
// renamed over it), with its lines as edit returns them (nil: removed;
// edit nil keeps every line) and then add, copied a line at a time. A
// file that does not end its last line gets a "\n" before add. size is
// the file's length as scanned, which the new one may pass only up to
// maxKnownHosts.
func rewriteKnown(file string, size int64, edit func(n int, line []byte) []byte, add string) error {
	err := atomicfile.Write(file, 0o600, func(w io.Writer) error {
		var written int64
		last := byte('\n')
		write := func(b []byte) error {
			if len(b) > 0 {
				last = b[len(b)-1]
			}
			k, err := w.Write(b)
			written += int64(k)
			return err
		}
		f, err := os.Open(file)
		switch {
		case err == nil:
			err = eachLine(file, f, func(n int, line []byte) error {
				if edit != nil {
					line = edit(n, line)
				}
				return write(line)
			})
			f.Close()
		case errors.Is(err, fs.ErrNotExist):
			err = nil
		}
		if err == nil && add != "" {
			if last != '\n' {
				write([]byte{'\n'})
			}
			err = write([]byte(add))
		}
		if err == nil && written > max(size, maxKnownHosts) {
			err = &KnownHostsError{File: file, Msg: "full: larger than " + strconv.Itoa(maxKnownHosts) + " octets"}
		}
		return err
	})
	if err != nil {
		var ke *KnownHostsError
		if errors.As(err, &ke) {
			return ke
		}
		return &KnownHostsError{File: file, Msg: "cannot write it", Err: err}
	}
	return nil
}

// DefaultMaxTrusted is a TrustStore's Max when it is 0.
const DefaultMaxTrusted = 10000

// A TrustStore keeps the certificates trusted on first use (Gemini
// §4.2) in memory, by serverKey, for as long as the process runs: the
// store of a gateway, whose requests come from other people, who must
// not fill or decide the operator's own known-hosts file. It holds at
// most Max servers (DefaultMaxTrusted when 0): when full, a new server
// is refused (a *KnownHostsError) and the servers it holds are still
// trusted; none is ever forgotten to make room, as that would let a
// client have another certificate trusted for a server it holds. Its
// zero value is ready; it is safe for concurrent use.
type TrustStore struct {
	Max int

	mu sync.Mutex
	m  map[string]trusted
}

// trusted is a certificate a TrustStore holds.
type trusted struct {
	fp    string
	until time.Time
}

// Len returns how many servers s holds.
func (s *TrustStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.m)
}

// check is knownHosts.check for s.
func (s *TrustStore) check(server string, cert *x509.Certificate, now time.Time) (verdict, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	got := fingerprint(cert)
	if t, ok := s.m[server]; ok {
		switch {
		case t.fp == got:
			return known, nil
		case now.Before(t.until):
			return "", &CertificateError{Server: server, Known: t.fp, Until: t.until, Got: got}
		}
		s.m[server] = trusted{got, cert.NotAfter}
		return renewed, nil
	}
	max := s.Max
	if max <= 0 {
		max = DefaultMaxTrusted
	}
	if len(s.m) >= max {
		return "", &KnownHostsError{Msg: "full: it holds " + strconv.Itoa(max) + " servers, so the certificate of " + server +
			" cannot be trusted on first use; the servers it holds are still trusted"}
	}
	if s.m == nil {
		s.m = make(map[string]trusted)
	}
	s.m[server] = trusted{got, cert.NotAfter}
	return firstUse, nil
}
