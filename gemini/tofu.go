package gemini

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// MaxKnownHosts bounds the known-hosts file, in octets: a larger one is
// refused rather than read (it is not one this client wrote), and a
// certificate that would make it larger is not remembered (the
// connection is refused: nothing can be trusted on first use).
const MaxKnownHosts = 1 << 20

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

// Fingerprint returns the fingerprint a known-hosts file keeps of a
// certificate: "SHA256:" and the SHA-256 digest of its DER encoding in
// lower-case hex (the digest molly-brown and other Gemini servers name
// client certificates by).
func Fingerprint(cert *x509.Certificate) string {
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
	Server string    // host:port
	File   string    // the known-hosts file
	Line   int       // the line of File that holds Known
	Known  string    // the fingerprint trusted since first use
	Until  time.Time // when the known certificate expires
	Got    string    // the fingerprint the server presented
}

func (e *CertificateError) Error() string {
	return fmt.Sprintf("the certificate of %s has changed since it was first trusted: %s is known (valid until %s), the server presents %s; "+
		"refused (Gemini §4.2). If the change is expected, remove line %d of %s", e.Server, e.Known, e.Until.UTC().Format(time.RFC3339), e.Got, e.Line, e.File)
}

// A KnownHostsError says that the known-hosts file cannot be used: it
// cannot be read or written, is larger than MaxKnownHosts, or holds a
// line this client does not write.
type KnownHostsError struct {
	File string
	Line int // 0 when about the whole file
	Msg  string
	Err  error // the underlying error, or nil
}

func (e *KnownHostsError) Error() string {
	s := "known hosts " + e.File
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

// check trusts cert for server (host:port) on first use, or when it is
// the known one, or when the known one has expired (then the new one
// replaces it); otherwise it returns a *CertificateError.
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
	data, err := readBounded(file)
	if err != nil {
		return "", err
	}
	got := Fingerprint(cert)
	entry := server + " " + got + " " + cert.NotAfter.UTC().Format(time.RFC3339) + "\n"
	lines := bytes.SplitAfter(data, []byte("\n"))
	for i, l := range lines {
		f := strings.Fields(string(l))
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if len(f) != 3 || !strings.HasPrefix(f[1], "SHA256:") {
			return "", &KnownHostsError{File: file, Line: i + 1, Msg: "not a line \"host:port SHA256:hex expiry\""}
		}
		if f[0] != server {
			continue
		}
		until, err := time.Parse(time.RFC3339, f[2])
		if err != nil {
			return "", &KnownHostsError{File: file, Line: i + 1, Msg: "the expiry is not an RFC 3339 time", Err: err}
		}
		if f[1] == got {
			return known, nil
		}
		if now.Before(until) {
			return "", &CertificateError{Server: server, File: file, Line: i + 1, Known: f[1], Until: until, Got: got}
		}
		lines[i] = []byte(entry)
		return renewed, writeKnown(file, bytes.Join(lines, nil))
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	return firstUse, writeKnown(file, append(data, entry...))
}

// readBounded reads file, "" when it does not exist, refusing one larger
// than MaxKnownHosts.
func readBounded(file string) ([]byte, error) {
	f, err := os.Open(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &KnownHostsError{File: file, Msg: "cannot read it", Err: err}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(bufio.NewReader(f), MaxKnownHosts+1))
	if err != nil {
		return nil, &KnownHostsError{File: file, Msg: "cannot read it", Err: err}
	}
	if len(data) > MaxKnownHosts {
		return nil, &KnownHostsError{File: file, Msg: "larger than " + strconv.Itoa(MaxKnownHosts) + " octets: not read"}
	}
	return data, nil
}

// writeKnown replaces file with data, whole or not at all (a temporary
// file renamed over it), unless data is larger than MaxKnownHosts.
func writeKnown(file string, data []byte) error {
	if len(data) > MaxKnownHosts {
		return &KnownHostsError{File: file, Msg: "full: the new certificate would make it larger than " + strconv.Itoa(MaxKnownHosts) + " octets, so it cannot be trusted on first use"}
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".known_hosts-*")
	if err != nil {
		return &KnownHostsError{File: file, Msg: "cannot write it", Err: err}
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(0o600)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return &KnownHostsError{File: file, Msg: "cannot write it", Err: err}
	}
	return nil
}
