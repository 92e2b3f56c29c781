package access

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rfc1738/locator"
)

// countingBody records how many octets were read before Close.
type countingBody struct {
	r      io.Reader
	read   int
	closed bool
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.read += n
	return n, err
}

func (c *countingBody) Close() error { c.closed = true; return nil }

// TestProbeFallback: a client that is no Prober is probed through Fetch,
// its body closed after at most probeOctets octets; policy and Check
// apply first; redirections are followed; errors become states.
func TestProbeFallback(t *testing.T) {
	big := &countingBody{r: strings.NewReader(strings.Repeat("x", 1<<20))}
	when := time.Date(1994, 12, 20, 12, 0, 0, 0, time.UTC)
	tst.reset(map[string]route{
		"tst://h/big": func(*Request) (*Resource, error) {
			return &Resource{Body: big, Size: 1 << 20, Modified: when}, nil
		},
		"tst://h/dir":   func(*Request) (*Resource, error) { return &Resource{Listing: &Listing{}, Size: -1}, nil },
		"tst://h/moved": redirect("tst://h/dir"),
		"tst://h/25":    redirect("tst://h:25/x"),
		"tst://h/slow": func(*Request) (*Resource, error) {
			return nil, &net.OpError{Op: "read", Err: timeoutErr{}}
		},
		"tst://h/closed": func(*Request) (*Resource, error) {
			return nil, &net.OpError{Op: "dial", Err: &osSyscall{syscall.ECONNREFUSED}}
		},
		"tst://h/broken": func(*Request) (*Resource, error) { return nil, &ProtocolError{Msg: "bad"} },
	})
	for _, c := range []struct {
		url       string
		state     State
		code      string
		size      int64
		listing   bool
		transient bool
		final     string
	}{
		{"tst://h/big", StateOK, "", 1 << 20, false, false, "tst://h/big"},
		{"tst://h/dir", StateOK, "", -1, true, false, "tst://h/dir"},
		{"tst://h/moved", StateOK, "", -1, true, false, "tst://h/dir"},
		{"tst://h/none", StateGone, "404", -1, false, false, "tst://h/none"},
		{"tst://h/25", StatePolicy, "", -1, false, false, "tst://h:25/x"},
		{"tst://h:25/", StatePolicy, "", -1, false, false, "tst://h:25/"},
		{"tst://h/slow", StateError, "", -1, false, true, "tst://h/slow"},
		{"tst://h/closed", StateError, "", -1, false, false, "tst://h/closed"},
		{"tst://h/broken", StateError, "", -1, false, false, "tst://h/broken"},
		{"zz://h/", StatePolicy, "", -1, false, false, "zz://h/"},
	} {
		st := (&Client{}).Probe(context.Background(), mustParse(t, c.url))
		if st.State != c.state || st.Code != c.code || st.Size != c.size || st.Listing != c.listing || st.Transient != c.transient || st.URL.String() != c.final {
			t.Errorf("%s: %s %q size %d listing %v transient %v at %s (%v)", c.url, st.State, st.Code, st.Size, st.Listing, st.Transient, st.URL, st.Err)
		}
		if (st.State == StateOK) != (st.Err == nil) {
			t.Errorf("%s: state %s with error %v", c.url, st.State, st.Err)
		}
	}
	if big.read > probeOctets || !big.closed {
		t.Errorf("the fallback read %d octets (at most %d) and closed %v", big.read, probeOctets, big.closed)
	}
	st := (&Client{}).Probe(context.Background(), mustParse(t, "tst://h/big"))
	if !st.Modified.Equal(when) {
		t.Errorf("modified %v", st.Modified)
	}
	if st := (&Client{}).Probe(context.Background(), nil); st.State != StatePolicy {
		t.Errorf("Probe(nil): %s", st.State)
	}
}

type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

type osSyscall struct{ errno syscall.Errno }

func (e *osSyscall) Error() string { return "connect: " + e.errno.Error() }
func (e *osSyscall) Unwrap() error { return e.errno }

// probeFake is a Prober: Probe asks it instead of Fetch.
type probeFake struct{ fakeFetcher }

func (p *probeFake) Probe(ctx context.Context, u *locator.URL, req *Request) (*Status, error) {
	if u.Path() == "moved" {
		return nil, &Redirect{Location: "/there", Code: "301"}
	}
	return &Status{State: StateOK, Code: "213", Size: 7, Command: "SIZE " + u.Path()}, nil
}

func TestProbeProber(t *testing.T) {
	c := &Client{Schemes: map[string]Fetcher{"tsu": &probeFake{}}}
	st := c.Probe(context.Background(), mustParse(t, "tsu://h/moved"))
	if st.State != StateOK || st.Code != "213" || st.Command != "SIZE there" || st.URL.String() != "tsu://h/there" {
		t.Errorf("%+v", st)
	}
	c = &Client{MaxRedirects: -1, Schemes: c.Schemes}
	if st := c.Probe(context.Background(), mustParse(t, "tsu://h/moved")); st.State != StateError {
		t.Errorf("redirections off: %s", st.State)
	}
}

// TestTransient: what is worth trying again (RFC 959 §4.2's "transient"
// in spirit): timeouts and resets, not a refused connection.
func TestTransient(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{context.DeadlineExceeded, true},
		{syscall.ECONNRESET, true},
		{io.ErrUnexpectedEOF, true},
		{syscall.ECONNREFUSED, false},
		{&net.DNSError{Err: "no such host", IsNotFound: true}, false},
		{&net.DNSError{Err: "timeout", IsTimeout: true}, true},
		{errors.New("other"), false},
	} {
		if got := Transient(c.err); got != c.want {
			t.Errorf("Transient(%v) = %v", c.err, got)
		}
	}
}
