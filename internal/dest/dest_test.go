package dest

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestHost: a host reaches the resolver and the policy decoded
// (RFC 1738 §2.2 escapes; an internationalised name as its A-labels,
// UTS #46), or is refused when it cannot be a host.
func TestHost(t *testing.T) {
	for in, want := range map[string]string{
		"example.org":                 "example.org",
		"EXAMPLE.Org.":                "example.org.",
		"%e2%93%9bocalhost":           "localhost",
		"%E2%93%9BOCALHOST":           "localhost",
		"ⓛocalhost":                   "localhost",
		"%6c%6f%63%61%6c%68%6f%73%74": "localhost",
		"%31%32%37.0.0.1":             "127.0.0.1",
		"１２７.０.０.１":                   "127.0.0.1",
		"bücher.example":              "xn--bcher-kva.example",
		"b%C3%BCcher.example":         "xn--bcher-kva.example",
		"::1":                         "::1",
		"fe80::1%25eth0":              "",
		"::%0":                        "",
		"a_b.example":                 "a_b.example",
		"":                            "",
		".":                           "",
		"a%20b":                       "",
		"a%2Fb":                       "",
		"%zz":                         "",
		"a%00b":                       "",
		"a@b":                         "",
		"%25":                         "",
		"\u202eevil":                  "",
	} {
		got, err := Host(in)
		if want == "" {
			if err == nil {
				t.Errorf("Host(%q) = %q, want an error", in, got)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("Host(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"EXAMPLE.org.", "example.org"},
		{"%65xample.org", "example.org"},
		{"ⓛocalhost", "localhost"},
		{"A B", "a b"}, // refused by policy later: its own key
	} {
		if got := Name(c.in); got != c.want {
			t.Errorf("Name(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := Addr(netip.MustParseAddr("::ffff:192.0.2.1"), "70"); got != "192.0.2.1:70" {
		t.Errorf("Addr = %q", got)
	}
	if got := Addr(netip.MustParseAddr("2001:db8::1"), "21"); got != "[2001:db8::1]:21" {
		t.Errorf("Addr = %q", got)
	}
}

// TestLimiterTry: TryAcquire refuses the Max+1st slot of a key and not
// another key's; keys are held only while a slot is taken.
func TestLimiterTry(t *testing.T) {
	l := NewLimiter(2)
	first, second, third := l.TryAcquire("a"), l.TryAcquire("a"), l.TryAcquire("a")
	if !first || !second || third {
		t.Fatal("a: want two slots, then a refusal")
	}
	if !l.TryAcquire("b") {
		t.Fatal("b refused while a is full")
	}
	if n := keys(l); n != 2 {
		t.Errorf("%d keys, want 2", n)
	}
	l.Release("a")
	if !l.TryAcquire("a") {
		t.Fatal("a refused after a release")
	}
	l.Release("a")
	l.Release("a")
	l.Release("b")
	if n := keys(l); n != 0 {
		t.Errorf("%d keys held with nothing open, want 0", n)
	}
}

// TestLimiterAcquireOrder: callers waiting for a full key are served in
// the order they came, never more than Max at once.
func TestLimiterAcquireOrder(t *testing.T) {
	l := NewLimiter(1)
	ctx := context.Background()
	if err := l.Acquire(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	const n = 20
	var (
		mu    sync.Mutex
		order []int
		open  atomic.Int32
		most  atomic.Int32
		wg    sync.WaitGroup
	)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := l.Acquire(ctx, "k"); err != nil {
				t.Error(err)
				return
			}
			if o := open.Add(1); o > most.Load() {
				most.Store(o)
			}
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
			open.Add(-1)
			l.Release("k")
		}()
		// The next caller comes once this one waits.
		for waiting(l, "k") != i+1 {
			time.Sleep(time.Millisecond)
		}
	}
	l.Release("k")
	wg.Wait()
	for i, v := range order {
		if v != i {
			t.Fatalf("served in the order %v", order)
		}
	}
	if most.Load() != 1 {
		t.Errorf("%d at once, want 1", most.Load())
	}
	if k := keys(l); k != 0 {
		t.Errorf("%d keys held, want 0", k)
	}
}

func waiting(l *Limiter, key string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c := l.keys[key]; c != nil {
		return len(c.waiting)
	}
	return 0
}

// TestLimiterAcquireCancel: a caller whose context ends stops waiting,
// holding nothing, and the next one in line gets the slot.
func TestLimiterAcquireCancel(t *testing.T) {
	l := NewLimiter(1)
	if !l.TryAcquire("k") {
		t.Fatal("refused")
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- l.Acquire(ctx, "k") }()
	for waiting(l, "k") != 1 {
		time.Sleep(time.Millisecond)
	}
	got := make(chan error, 1)
	go func() { got <- l.Acquire(context.Background(), "k") }()
	for waiting(l, "k") != 2 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-errc; err != context.Canceled {
		t.Fatalf("cancelled Acquire: %v", err)
	}
	if w := waiting(l, "k"); w != 1 {
		t.Fatalf("%d waiting after the cancel, want 1", w)
	}
	l.Release("k")
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	l.Release("k")
	if k := keys(l); k != 0 {
		t.Errorf("%d keys held, want 0", k)
	}
	// An ended context takes nothing.
	if err := l.Acquire(ctx, "k"); err != context.Canceled || keys(l) != 0 {
		t.Errorf("Acquire with an ended context: %v, %d keys", err, keys(l))
	}
}

// keys is how many keys l holds: those with a slot taken or a caller
// waiting.
func keys(l *Limiter) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.keys)
}

// TestLimiterWait: places in line are taken when Wait is called, and
// slots handed out in that order; cancel gives up a place, and reports
// false for a slot already granted.
func TestLimiterWait(t *testing.T) {
	l := NewLimiter(1)
	g0, c0 := l.Wait("k")
	g1, _ := l.Wait("k")
	g2, c2 := l.Wait("k")
	g3, _ := l.Wait("k")
	isClosed := func(g <-chan struct{}) bool {
		select {
		case <-g:
			return true
		default:
			return false
		}
	}
	if !isClosed(g0) || isClosed(g1) || isClosed(g2) || isClosed(g3) {
		t.Fatal("want the first granted, the others waiting")
	}
	if c0() {
		t.Error("cancel of a granted slot reported true")
	}
	if !c2() {
		t.Error("cancel of a place in line reported false")
	}
	l.Release("k")
	if !isClosed(g1) || isClosed(g3) {
		t.Fatal("want the second granted next")
	}
	l.Release("k")
	if !isClosed(g3) {
		t.Fatal("want the fourth granted after the second (the third gave up)")
	}
	l.Release("k")
	if k := keys(l); k != 0 {
		t.Errorf("%d keys held, want 0", k)
	}
}

// TestNumeric: inet_aton's forms of an IPv4 address (RFC 1738 §3.1 has
// only dotted decimal).
func TestNumeric(t *testing.T) {
	for h, want := range map[string]bool{
		"2130706433": true, "0x7f.1": true, "0177.0.0.1": true, "127.1": true, "127.0.0.1.": true,
		"0x7F000001": true, "017700000001": true, "1.2.3.4.5": false, "example.org": false,
		"1e100.net": false, "0x": true, "a.1": false, "": false, "123.example": false,
	} {
		if got := Numeric(h); got != want {
			t.Errorf("Numeric(%q) = %v, want %v", h, got, want)
		}
	}
}

// names is a Resolver with fixed answers.
type names map[string][]netip.Addr

func (n names) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	a, ok := n[strings.TrimSuffix(host, ".")]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return append([]netip.Addr(nil), a...), nil
}

// TestAddrs: what a dialler connects to for a host is read once, as
// Host reads it, and refused where the host is no host or an address in
// a form RFC 1738 §3.1 does not have.
func TestAddrs(t *testing.T) {
	res := names{
		"localhost":   {netip.MustParseAddr("::ffff:127.0.0.1"), netip.MustParseAddr("::1")},
		"example.org": {netip.MustParseAddr("192.0.2.1")},
		"empty.test":  {},
	}
	for _, tt := range []struct {
		host, name, addrs, refused string
	}{
		{host: "localhost", name: "localhost", addrs: "[127.0.0.1 ::1]"},
		{host: "%6c%6fcalhost", name: "localhost", addrs: "[127.0.0.1 ::1]"},
		{host: "ⓛocalhost.", name: "localhost", addrs: "[127.0.0.1 ::1]"},
		{host: "EXAMPLE.org", name: "example.org", addrs: "[192.0.2.1]"},
		{host: "[::ffff:10.0.0.1]", name: "::ffff:10.0.0.1", addrs: "[10.0.0.1]"},
		{host: "127.0.0.1", name: "127.0.0.1", addrs: "[127.0.0.1]"},
		{host: "%31%32%37.0.0.1", name: "127.0.0.1", addrs: "[127.0.0.1]"},
		{host: "0x7f.1", refused: `the host "0x7f.1" is an IPv4 address in a form other than dotted decimal (RFC 1738 §3.1 hostnumber); resolvers read such forms differently`},
		{host: "2130706433", refused: `the host "2130706433" is an IPv4 address in a form other than dotted decimal (RFC 1738 §3.1 hostnumber); resolvers read such forms differently`},
		{host: "[fe80::1%25eth0]", refused: "an IPv6 address with a zone names an interface of this machine"},
		{host: "a b", refused: `the host "a b" holds ' ', which no host name or address has (RFC 1738 §3.1)`},
		{host: "empty.test", refused: "lookup empty.test: no address"},
		{host: "nowhere.test", refused: "lookup nowhere.test: no such host"},
	} {
		name, addrs, err := Addrs(context.Background(), res, tt.host)
		if tt.refused != "" {
			if err == nil || err.Error() != tt.refused {
				t.Errorf("Addrs(%q) = %v, want the error %q", tt.host, err, tt.refused)
			}
			continue
		}
		if err != nil || name != tt.name || fmt.Sprint(addrs) != tt.addrs {
			t.Errorf("Addrs(%q) = %q, %v, %v; want %q, %s", tt.host, name, addrs, err, tt.name, tt.addrs)
		}
	}
}

// A Pace holds each key's next request until delay after the last that
// ended, another key not at all; a done context ends the wait.
func TestPace(t *testing.T) {
	var p Pace
	ctx := context.Background()
	if err := p.Wait(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	p.Ended("a", 0) // no delay: nothing waits
	p.Ended("a", 30*time.Millisecond)
	ended := time.Now()
	p.Ended("a", time.Millisecond) // a shorter delay does not shorten the wait
	p.Ended("c", time.Hour)
	quick, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := p.Wait(quick, "b"); err != nil {
		t.Errorf("another key waited: %v", err)
	}
	if err := p.Wait(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(ended); waited < 30*time.Millisecond {
		t.Errorf("began %v after the end, want at least 30ms", waited)
	}
	cctx, cancel2 := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel2()
	if err := p.Wait(cctx, "c"); err != context.DeadlineExceeded {
		t.Errorf("Wait with a context that ends: %v", err)
	}
}
