package telnet

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
)

// render runs p over in, fed in pieces whose sizes cycle through cuts,
// and renders the events with adjacent data joined (where a read ends
// must not change what is found).
func render(in []byte, max int, cuts []byte) (string, []byte, error) {
	ps := Parser{MaxSub: max}
	var b bytes.Buffer
	var data []byte
	inData := false
	var err error
	emit := func(e Event) {
		if e.Kind == Data {
			if !inData {
				b.WriteString("D")
				inData = true
			}
			b.Write(e.Data)
			data = append(data, e.Data...)
			return
		}
		inData = false
		if e.Kind == Sub && len(e.Params) > max {
			panic(fmt.Sprintf("a subnegotiation of %d octets past the bound %d", len(e.Params), max))
		}
		b.WriteString("|" + Describe(e) + "|")
	}
	for i, k := 0, 0; i < len(in) && err == nil; k++ {
		n := len(in) - i
		if len(cuts) > 0 {
			n = min(n, int(cuts[k%len(cuts)])+1)
		}
		err = ps.Feed(in[i:i+n], emit)
		i += n
	}
	return b.String(), data, err
}

// FuzzParser: the stream reader over any octets (RFC 854, RFC 855).
// It never panics; it finds the same events wherever the reads end; a
// subnegotiation never holds more than MaxSub octets (an IAC SB without
// IAC SE is a *SubError once past the bound, never unbounded memory);
// it hands over at most as many data octets as it read; and data with
// every 255 doubled comes back exactly.
func FuzzParser(f *testing.F) {
	f.Add([]byte("hello\r\n"), []byte{3})
	f.Add([]byte("\xff\xfd\x18\xff\xfd\x1f\xff\xfb\x01\xff\xfa\x18\x01\xff\xf0login: "), []byte{0, 1, 2})
	f.Add([]byte("\xff\xfa\x1f\x00\xff\xff\x00\x18\xff\xf0"), []byte{1})
	f.Add([]byte("\xff\xfa\x27"+string(bytes.Repeat([]byte{'x'}, 100))), []byte{7})
	f.Add([]byte("\xff\xfa\x18\x01\xff\xfd\x01"), []byte{})
	f.Add([]byte("\xff\xff\xff\xff\xff"), []byte{0})
	f.Add([]byte("\xff\xfa\xff\xfa\xff\xf0"), []byte{2})
	f.Fuzz(func(t *testing.T, in, cuts []byte) {
		const max = 64
		whole, data, err := render(in, max, nil)
		split, _, err2 := render(in, max, cuts)
		if whole != split || (err == nil) != (err2 == nil) {
			t.Fatalf("reads ending elsewhere changed the events:\n%q %v\n%q %v", whole, err, split, err2)
		}
		if err != nil {
			var se *SubError
			if !errors.As(err, &se) || se.Max != max || !bytes.Contains(in, []byte{IAC, SB}) {
				t.Fatalf("error %v", err)
			}
		}
		if len(data) > len(in) {
			t.Fatalf("%d data octets from %d read", len(data), len(in))
		}
		// Data, escaped as a sender must (IAC IAC), is read back as is.
		esc := bytes.ReplaceAll(in, []byte{IAC}, []byte{IAC, IAC})
		_, back, err := render(esc, max, cuts)
		if err != nil || !bytes.Equal(back, in) {
			t.Fatalf("escaped data read back as %q (%v), want %q", back, err, in)
		}
	})
}

// FuzzNegotiator: any sequence of option commands from a peer, mixed
// with our own requests. The answers keep RFC 854's rules: a request to
// enter the mode an option is already in is not acknowledged; only a
// change of state is answered; an answer is always the opposite side's
// verb for the same option. And two clients making any requests of each
// other settle (no loop) with their states agreeing.
func FuzzNegotiator(f *testing.F) {
	f.Add([]byte{DO, OptNAWS, DO, OptNAWS, WILL, OptEcho, WONT, OptEcho, DO, OptLinemode})
	f.Add([]byte{0, OptTType, DO, OptTType, DONT, OptTType, DO, OptTType})
	f.Add([]byte{1, OptBinary, DO, OptBinary, 2, OptBinary, DONT, OptBinary})
	f.Fuzz(func(t *testing.T, script []byte) {
		n := &Negotiator{TermType: "VT100", Size: func() (int, int) { return 80, 24 }}
		verbs := []byte{WILL, WONT, DO, DONT}
		for i := 0; i+1 < len(script); i += 2 {
			v, opt := script[i], script[i+1]
			if v < WILL {
				// Our own request.
				rv := verbs[int(v)%4]
				for _, e := range n.Request(rv, opt) {
					if e.Kind != Option || e.Cmd != rv || e.Opt != opt {
						t.Fatalf("request %s %s sent %s", commandName(rv), optionName(opt), Describe(e))
					}
				}
				continue
			}
			local := v == DO || v == DONT
			on := v == WILL || v == DO
			st := n.him[opt]
			if local {
				st = n.us[opt]
			}
			reply := n.Receive(v, opt)
			was := st == qYes
			if len(reply) == 0 {
				continue
			}
			if (on && was) || (!on && st == qNo) {
				t.Fatalf("%s %s answered while already in that mode: %s", commandName(v), optionName(opt), Describe(reply[0]))
			}
			if st == qWantYes || st == qWantNo {
				if !(local && on && opt == OptNAWS && reply[0].Kind == Sub) {
					t.Fatalf("the answer to our request %s %s was answered back: %s", commandName(v), optionName(opt), Describe(reply[0]))
				}
				continue
			}
			want := map[byte][2]byte{WILL: {DO, DONT}, WONT: {DONT, DONT}, DO: {WILL, WONT}, DONT: {WONT, WONT}}[v]
			if e := reply[0]; e.Kind != Option || e.Opt != opt || (e.Cmd != want[0] && e.Cmd != want[1]) {
				t.Fatalf("%s %s answered %s", commandName(v), optionName(opt), Describe(e))
			}
			for _, e := range reply[1:] {
				if e.Kind != Sub || e.Opt != OptNAWS || opt != OptNAWS {
					t.Fatalf("%s %s answered also %s", commandName(v), optionName(opt), Describe(e))
				}
			}
		}
		// Two clients, each with any requests.
		a := &Negotiator{TermType: "A", Size: func() (int, int) { return 1, 2 }}
		b := &Negotiator{Size: func() (int, int) { return 3, 4 }}
		var reqs [][2]byte
		for i := 0; i+1 < len(script); i += 2 {
			reqs = append(reqs, [2]byte{verbs[int(script[i])%4], script[i+1]})
		}
		if k := settle(a, b, reqs); k > 4*len(reqs) {
			t.Fatalf("%d commands exchanged for %d requests", k, len(reqs))
		}
		for o := 0; o < 256; o++ {
			opt := byte(o)
			if a.Enabled(true, opt) != b.Enabled(false, opt) || a.Enabled(false, opt) != b.Enabled(true, opt) {
				t.Fatalf("%s: the two sides disagree", optionName(opt))
			}
		}
	})
}
