package telnet

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// events renders what a Parser emits for input fed in the given chunks.
func events(t *testing.T, max int, chunks ...string) (string, error) {
	t.Helper()
	ps := Parser{MaxSub: max}
	var out []string
	var err error
	for _, c := range chunks {
		if err = ps.Feed([]byte(c), func(e Event) {
			if e.Kind == Data {
				out = append(out, fmt.Sprintf("%q", e.Data))
				return
			}
			out = append(out, Describe(e))
		}); err != nil {
			break
		}
	}
	return strings.Join(out, " | "), err
}

// TestParser: RFC 854's command structure (IAC and a command, IAC IAC a
// data octet 255, IAC WILL/WONT/DO/DONT option) and RFC 855's
// subnegotiation (IAC SB option parameters IAC SE), split anywhere
// across reads.
func TestParser(t *testing.T) {
	const iac = "\xff"
	for _, c := range []struct {
		name   string
		chunks []string
		want   string
	}{
		{"data only", []string{"hello\r\n"}, `"hello\r\n"`},
		{"IAC IAC is 255 (RFC 854)", []string{"a" + iac + iac + "b"}, `"a" | "\xffb"`},
		{"IAC IAC split", []string{"a" + iac, iac + "b"}, `"a" | "\xffb"`},
		{"option", []string{iac + "\xfd\x1f" + "x"}, `IAC DO NAWS | "x"`},
		{"option split in three", []string{iac, "\xfb", "\x01"}, `IAC WILL ECHO`},
		{"unknown option by number", []string{iac + "\xfe\xc8"}, `IAC DONT 200`},
		{"commands", []string{iac + "\xf1" + iac + "\xf9" + iac + "\xf6"}, `IAC NOP | IAC GA | IAC AYT`},
		{"subnegotiation (RFC 855)", []string{"a" + iac + "\xfa\x18\x01" + iac + "\xf0b"}, `"a" | IAC SB TERMINAL-TYPE SEND IAC SE | "b"`},
		{"subnegotiation split", []string{iac + "\xfa", "\x18", "\x01" + iac, "\xf0"}, `IAC SB TERMINAL-TYPE SEND IAC SE`},
		{"IAC IAC inside parameters", []string{iac + "\xfa\x1f\x00" + iac + iac + "\x00\x18" + iac + "\xf0"}, `IAC SB NAWS 0 255 0 24 IAC SE`},
		{"empty subnegotiation", []string{iac + "\xfa\x05" + iac + "\xf0"}, `IAC SB STATUS IAC SE`},
		{"IAC and a command ends parameters (BSD)", []string{iac + "\xfa\x18\x01" + iac + "\xfd\x01z"}, `IAC SB TERMINAL-TYPE SEND IAC SE | IAC DO ECHO | "z"`},
		{"SE outside a subnegotiation is a command", []string{iac + "\xf0"}, `IAC SE`},
	} {
		got, err := events(t, 0, c.chunks...)
		if err != nil || got != c.want {
			t.Errorf("%s: got %s (%v), want %s", c.name, got, err, c.want)
		}
	}
}

// TestParserSubBound: a subnegotiation without IAC SE is bounded by
// MaxSub (RFC 855 gives no bound; a peer could otherwise make the client
// hold everything it sends): the parameters up to the bound are held,
// one more octet is a *SubError, and the Parser stays failed.
func TestParserSubBound(t *testing.T) {
	iacSB := "\xff\xfa\x27"
	got, err := events(t, 4, iacSB+"\x00\x01\x02\x03"+"\xff\xf0")
	if err != nil || got != "IAC SB NEW-ENVIRON 0 1 2 3 IAC SE" {
		t.Errorf("4 octets under a bound of 4: %s %v", got, err)
	}
	for _, in := range []string{iacSB + "\x00\x01\x02\x03\x04", iacSB + "\x00\x01\x02\x03\xff\xff"} {
		ps := Parser{MaxSub: 4}
		n := 0
		err := ps.Feed([]byte("ok"+in+"more"), func(e Event) { n++ })
		var se *SubError
		if !errors.As(err, &se) || se.Opt != OptNewEnv || se.Max != 4 || n != 1 {
			t.Errorf("%q: err %v, %d events", in, err, n)
		}
		if err2 := ps.Feed([]byte("later"), func(Event) { n++ }); err2 != err || n != 1 {
			t.Errorf("%q: a failed Parser went on: %v, %d events", in, err2, n)
		}
	}
	want := "telnet: the server began a subnegotiation (IAC SB NEW-ENVIRON) and sent more than 4 octets of parameters without IAC SE (RFC 855)"
	if got := (&SubError{Opt: OptNewEnv, Max: 4}).Error(); got != want {
		t.Errorf("message %q", got)
	}
	// The default bound.
	ps := Parser{}
	err = ps.Feed([]byte(iacSB+strings.Repeat("x", DefaultMaxSub+1)), func(Event) {})
	var se *SubError
	if !errors.As(err, &se) || se.Max != DefaultMaxSub {
		t.Errorf("default bound: %v", err)
	}
}

// run feeds the peer's commands to n one by one and renders the
// answers.
func run(n *Negotiator, cmds ...[2]byte) string {
	var out []string
	for _, c := range cmds {
		var r []string
		for _, e := range n.Receive(c[0], c[1]) {
			r = append(r, Describe(e))
		}
		out = append(out, strings.Join(r, ", "))
	}
	return strings.Join(out, " | ")
}

// TestNegotiator: what a terminal client agrees to and refuses (RFC
// 857 ECHO, RFC 858 SGA, RFC 1073 NAWS, RFC 1091 TERMINAL-TYPE, RFC 856
// BINARY), and RFC 854's rule against loops: "if a party receives what
// appears to be a request to enter some mode it is already in, the
// request should not be acknowledged".
func TestNegotiator(t *testing.T) {
	term := func() *Negotiator {
		return &Negotiator{TermType: "XTERM", Size: func() (int, int) { return 80, 24 }}
	}
	type cmd = [2]byte
	for _, c := range []struct {
		name string
		n    *Negotiator
		cmds []cmd
		want string
	}{
		{"the service echoes, once acknowledged", term(), []cmd{{WILL, OptEcho}, {WILL, OptEcho}}, "IAC DO ECHO | "},
		{"we do not echo", term(), []cmd{{DO, OptEcho}, {DO, OptEcho}}, "IAC WONT ECHO | IAC WONT ECHO"},
		{"SGA both ways", term(), []cmd{{WILL, OptSGA}, {DO, OptSGA}}, "IAC DO SUPPRESS-GO-AHEAD | IAC WILL SUPPRESS-GO-AHEAD"},
		{"NAWS: agreed, then the size (RFC 1073)", term(), []cmd{{DO, OptNAWS}, {DO, OptNAWS}}, "IAC WILL NAWS, IAC SB NAWS 0 80 0 24 IAC SE | "},
		{"NAWS without a terminal", &Negotiator{}, []cmd{{DO, OptNAWS}}, "IAC WONT NAWS"},
		{"TERMINAL-TYPE", term(), []cmd{{DO, OptTType}}, "IAC WILL TERMINAL-TYPE"},
		{"TERMINAL-TYPE without a type", &Negotiator{}, []cmd{{DO, OptTType}}, "IAC WONT TERMINAL-TYPE"},
		{"BINARY when asked (RFC 856)", term(), []cmd{{DO, OptBinary}, {WILL, OptBinary}}, "IAC WILL BINARY | IAC DO BINARY"},
		{"LINEMODE refused (RFC 1184)", term(), []cmd{{DO, OptLinemode}}, "IAC WONT LINEMODE"},
		{"NEW-ENVIRON, TSPEED, XDISPLOC refused", term(), []cmd{{DO, OptNewEnv}, {DO, OptTSpeed}, {DO, OptXDispLoc}}, "IAC WONT NEW-ENVIRON | IAC WONT TERMINAL-SPEED | IAC WONT X-DISPLAY-LOCATION"},
		{"AUTHENTICATION, ENCRYPT, STATUS refused", term(), []cmd{{WILL, OptAuth}, {WILL, OptEncrypt}, {WILL, OptStatus}}, "IAC DONT AUTHENTICATION | IAC DONT ENCRYPT | IAC DONT STATUS"},
		{"an option never enabled: WONT and DONT unanswered", term(), []cmd{{WONT, OptEcho}, {DONT, OptNAWS}}, " | "},
		{"echo on then off, acknowledged once", term(), []cmd{{WILL, OptEcho}, {WONT, OptEcho}, {WONT, OptEcho}}, "IAC DO ECHO | IAC DONT ECHO | "},
		{"binary on then off", term(), []cmd{{DO, OptBinary}, {DONT, OptBinary}, {DONT, OptBinary}}, "IAC WILL BINARY | IAC WONT BINARY | "},
	} {
		if got := run(c.n, c.cmds...); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestNegotiatorRequests: our own requests (a terminal client's first
// WILL TERMINAL-TYPE, WILL NAWS, DO SGA) are pending until answered; the
// answer is not answered back, and a request is not repeated while
// pending or in effect (RFC 854, RFC 1143).
func TestNegotiatorRequests(t *testing.T) {
	n := &Negotiator{TermType: "VT100", Size: func() (int, int) { return 300, 255 }}
	var sent []string
	for _, r := range [][2]byte{{WILL, OptTType}, {WILL, OptNAWS}, {DO, OptSGA}, {WILL, OptNAWS}, {DO, OptEcho}, {WILL, OptLinemode}, {WONT, OptNAWS}} {
		for _, e := range n.Request(r[0], r[1]) {
			sent = append(sent, Describe(e))
		}
	}
	if got := strings.Join(sent, ", "); got != "IAC WILL TERMINAL-TYPE, IAC WILL NAWS, IAC DO SUPPRESS-GO-AHEAD, IAC DO ECHO" {
		t.Errorf("requests: %s", got)
	}
	// The answers: the size follows an agreed NAWS, with 255 doubled on
	// the wire (RFC 855); a refused SGA stays off; the echo agreed.
	got := run(n, [2]byte{DO, OptTType}, [2]byte{DO, OptNAWS}, [2]byte{WONT, OptSGA}, [2]byte{WILL, OptEcho})
	if got != " | IAC SB NAWS 1 44 0 255 IAC SE |  | " {
		t.Errorf("answers: %q", got)
	}
	if w := Encode(nil, n.Resized()[0]); string(w) != "\xff\xfa\x1f\x01\x2c\x00\xff\xff\xff\xf0" {
		t.Errorf("NAWS on the wire: % x", w)
	}
	if !n.Enabled(true, OptTType) || !n.Enabled(true, OptNAWS) || n.Enabled(false, OptSGA) || !n.Enabled(false, OptEcho) {
		t.Errorf("states after the answers")
	}
	// TERMINAL-TYPE SEND, asked again: the same type (a list of one,
	// RFC 1091); a SEND for an option not in effect is not answered.
	for i := 0; i < 2; i++ {
		r := n.Subnegotiate(OptTType, []byte{ttypeSEND})
		if len(r) != 1 || Describe(r[0]) != `IAC SB TERMINAL-TYPE IS "VT100" IAC SE` {
			t.Errorf("TERMINAL-TYPE SEND %d: %v", i, r)
		}
	}
	if r := (&Negotiator{}).Subnegotiate(OptTType, []byte{ttypeSEND}); r != nil {
		t.Errorf("SEND without TERMINAL-TYPE in effect answered: %v", r)
	}
	if r := n.Subnegotiate(OptNewEnv, []byte{1}); r != nil {
		t.Errorf("NEW-ENVIRON SEND answered: %v", r)
	}
	// Our WONT NAWS, answered by DONT: nothing more, and no size after.
	if r := n.Request(WONT, OptNAWS); len(r) != 1 {
		t.Errorf("WONT NAWS: %v", r)
	}
	if got := run(n, [2]byte{DONT, OptNAWS}); got != "" || n.Resized() != nil {
		t.Errorf("after DONT NAWS: %q %v", got, n.Resized())
	}
}

// TestNegotiatorNoLoop: two clients of this package talking to each
// other, each making a terminal client's first requests, settle after a
// bounded exchange (RFC 1143's point: no option bounces for ever).
func TestNegotiatorNoLoop(t *testing.T) {
	a := &Negotiator{TermType: "A", Size: func() (int, int) { return 1, 1 }}
	b := &Negotiator{TermType: "B", Size: func() (int, int) { return 2, 2 }}
	if n := settle(a, b, [][2]byte{{WILL, OptTType}, {WILL, OptNAWS}, {DO, OptSGA}, {DO, OptEcho}, {WILL, OptBinary}, {DO, OptBinary}}); n != 12 {
		t.Errorf("%d commands exchanged, want 12 (6 requests, 6 answers)", n)
	}
	for _, opt := range []byte{OptTType, OptNAWS, OptSGA, OptEcho, OptBinary} {
		if a.Enabled(true, opt) != b.Enabled(false, opt) || a.Enabled(false, opt) != b.Enabled(true, opt) {
			t.Errorf("%s: the two sides disagree", optionName(opt))
		}
	}
}

// settle makes a's requests, then delivers every command to the other
// side until none is left, and returns how many were exchanged (it
// fails at 10000: a loop).
func settle(a, b *Negotiator, reqs [][2]byte) int {
	type msg struct {
		toB bool
		e   Event
	}
	var q []msg
	for _, r := range reqs {
		for _, e := range a.Request(r[0], r[1]) {
			q = append(q, msg{true, e})
		}
	}
	n := 0
	for len(q) > 0 && n < 10000 {
		m := q[0]
		q = q[1:]
		n++
		to := a
		if m.toB {
			to = b
		}
		var r []Event
		if m.e.Kind == Option {
			r = to.Receive(m.e.Cmd, m.e.Opt)
		} else {
			r = to.Subnegotiate(m.e.Opt, m.e.Params)
		}
		for _, e := range r {
			q = append(q, msg{!m.toB, e})
		}
	}
	return n
}

// TestTermType: RFC 1091's terminal type from $TERM: at most 40
// printable ASCII characters, sent in upper case.
func TestTermType(t *testing.T) {
	for in, want := range map[string]string{
		"xterm-256color": "XTERM-256COLOR", "vt100": "VT100", "": "", "a b": "", "x\x1b": "",
		strings.Repeat("x", 40): strings.Repeat("X", 40), strings.Repeat("x", 41): "", "é": "",
	} {
		if got := TermType(in); got != want {
			t.Errorf("TermType(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestEncode: the wire forms, IAC doubled in parameters (RFC 855).
func TestEncode(t *testing.T) {
	for _, c := range []struct {
		e    Event
		want string
	}{
		{Event{Kind: Option, Cmd: WILL, Opt: OptNAWS}, "\xff\xfb\x1f"},
		{Event{Kind: Command, Cmd: AYT}, "\xff\xf6"},
		{Event{Kind: Sub, Opt: OptTType, Params: []byte("\x00VT100")}, "\xff\xfa\x18\x00VT100\xff\xf0"},
		{Event{Kind: Sub, Opt: OptNAWS, Params: []byte{0, 255, 0, 255}}, "\xff\xfa\x1f\x00\xff\xff\x00\xff\xff\xff\xf0"},
		{Event{Kind: Data, Data: []byte("x")}, ""},
	} {
		if got := string(Encode(nil, c.e)); got != c.want {
			t.Errorf("%s: % x, want % x", Describe(c.e), got, c.want)
		}
	}
}

func ExampleNegotiator() {
	n := &Negotiator{TermType: TermType("xterm"), Size: func() (int, int) { return 80, 24 }}
	var ps Parser
	// inetutils telnetd's first requests, and its TERMINAL-TYPE SEND.
	ps.Feed([]byte("\xff\xfd\x18\xff\xfd\x1f\xff\xfd\x27\xff\xfb\x01\xff\xfa\x18\x01\xff\xf0"), func(e Event) {
		fmt.Println("<", Describe(e))
		var reply []Event
		switch e.Kind {
		case Option:
			reply = n.Receive(e.Cmd, e.Opt)
		case Sub:
			reply = n.Subnegotiate(e.Opt, e.Params)
		}
		for _, r := range reply {
			fmt.Println(">", Describe(r))
		}
	})
	// Output:
	// < IAC DO TERMINAL-TYPE
	// > IAC WILL TERMINAL-TYPE
	// < IAC DO NAWS
	// > IAC WILL NAWS
	// > IAC SB NAWS 0 80 0 24 IAC SE
	// < IAC DO NEW-ENVIRON
	// > IAC WONT NEW-ENVIRON
	// < IAC WILL ECHO
	// > IAC DO ECHO
	// < IAC SB TERMINAL-TYPE SEND IAC SE
	// > IAC SB TERMINAL-TYPE IS "XTERM" IAC SE
}
