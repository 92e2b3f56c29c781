package telnet

import (
	"fmt"
	"strconv"
	"strings"
)

// Telnet commands (RFC 854, "TELNET COMMAND STRUCTURE").
const (
	SE   = 240 // end of subnegotiation parameters
	NOP  = 241
	DM   = 242 // data mark, the data stream portion of a Synch
	BRK  = 243
	IP   = 244 // interrupt process
	AO   = 245 // abort output
	AYT  = 246 // are you there
	EC   = 247 // erase character
	EL   = 248 // erase line
	GA   = 249 // go ahead
	SB   = 250 // subnegotiation begins (RFC 855)
	WILL = 251
	WONT = 252
	DO   = 253
	DONT = 254
	IAC  = 255 // interpret as command
)

// Telnet options (the RFCs named beside them; the IANA registry).
const (
	OptBinary   = 0  // RFC 856
	OptEcho     = 1  // RFC 857
	OptSGA      = 3  // RFC 858, SUPPRESS-GO-AHEAD
	OptStatus   = 5  // RFC 859
	OptTM       = 6  // RFC 860, TIMING-MARK
	OptTType    = 24 // RFC 1091, TERMINAL-TYPE
	OptNAWS     = 31 // RFC 1073, window size
	OptTSpeed   = 32 // RFC 1079
	OptLFlow    = 33 // RFC 1372
	OptLinemode = 34 // RFC 1184
	OptXDispLoc = 35 // RFC 1096
	OptOldEnv   = 36 // RFC 1408
	OptAuth     = 37 // RFC 2941
	OptEncrypt  = 38 // RFC 2946
	OptNewEnv   = 39 // RFC 1572
)

// TERMINAL-TYPE subnegotiation codes (RFC 1091).
const (
	ttypeIS   = 0
	ttypeSEND = 1
)

var optNames = map[byte]string{
	OptBinary: "BINARY", OptEcho: "ECHO", OptSGA: "SUPPRESS-GO-AHEAD", OptStatus: "STATUS",
	OptTM: "TIMING-MARK", OptTType: "TERMINAL-TYPE", OptNAWS: "NAWS", OptTSpeed: "TERMINAL-SPEED",
	OptLFlow: "TOGGLE-FLOW-CONTROL", OptLinemode: "LINEMODE", OptXDispLoc: "X-DISPLAY-LOCATION",
	OptOldEnv: "OLD-ENVIRON", OptAuth: "AUTHENTICATION", OptEncrypt: "ENCRYPT", OptNewEnv: "NEW-ENVIRON",
}

var cmdNames = map[byte]string{
	SE: "SE", NOP: "NOP", DM: "DM", BRK: "BRK", IP: "IP", AO: "AO", AYT: "AYT", EC: "EC", EL: "EL",
	GA: "GA", SB: "SB", WILL: "WILL", WONT: "WONT", DO: "DO", DONT: "DONT", IAC: "IAC",
}

// optionName returns the option's name ("NAWS"), or its number for an
// option this package does not name.
func optionName(opt byte) string {
	if n, ok := optNames[opt]; ok {
		return n
	}
	return strconv.Itoa(int(opt))
}

// commandName returns the command's name ("WILL"), or its number.
func commandName(c byte) string {
	if n, ok := cmdNames[c]; ok {
		return n
	}
	return strconv.Itoa(int(c))
}

// An EventKind says what a Parser found in the stream.
type EventKind int

const (
	Data    EventKind = iota // data octets (IAC IAC already undone)
	Command                  // IAC and a command other than SB, WILL, WONT, DO, DONT (NOP, GA, DM, AYT, ...)
	Option                   // IAC WILL/WONT/DO/DONT option
	Sub                      // IAC SB option parameters IAC SE
)

// An Event is one thing a Parser found. Data and Params are valid only
// during the call that hands the event over.
type Event struct {
	Kind   EventKind
	Data   []byte // Data: the octets
	Cmd    byte   // Command: the command; Option: WILL, WONT, DO or DONT
	Opt    byte   // Option, Sub: the option
	Params []byte // Sub: the parameters, IAC IAC undone
}

// DefaultMaxSub bounds a subnegotiation's parameters (Parser.MaxSub).
// The longest a client of this package asks for, a TERMINAL-TYPE or an
// environment list, is far shorter.
const DefaultMaxSub = 4096

// A SubError says a peer began a subnegotiation and sent more than the
// bound of parameters without ending it (RFC 855: "IAC SB <option>
// <parameters> IAC SE"). It ends the session: what follows cannot be
// told from parameters.
type SubError struct {
	Opt byte
	Max int
}

func (e *SubError) Error() string {
	return fmt.Sprintf("telnet: the server began a subnegotiation (IAC SB %s) and sent more than %d octets of parameters without IAC SE (RFC 855)", optionName(e.Opt), e.Max)
}

// Parser states.
const (
	psData   = iota
	psIAC    // after IAC
	psVerb   // after IAC WILL/WONT/DO/DONT
	psSBOpt  // after IAC SB
	psSB     // in subnegotiation parameters
	psSBIAC  // after IAC inside parameters
	psSBSkip // after a SubError: nothing more is parsed
)

// A Parser splits the octets a Telnet peer sends into data, commands,
// option negotiations and subnegotiations (RFC 854 "The Telnet
// command structure", RFC 855). It keeps its state between calls to
// Feed, so a command may be split across reads. The zero value is ready
// to use with DefaultMaxSub.
//
// Inside a subnegotiation, IAC IAC is a parameter octet 255 and IAC SE
// ends it; IAC followed by any other octet also ends it, and the octet
// is then read as a command (what BSD telnet does with a peer that
// forgets SE). Parameters are bounded by MaxSub: past it, Feed returns a
// *SubError, and the Parser stays failed.
type Parser struct {
	// MaxSub bounds a subnegotiation's parameters; 0: DefaultMaxSub.
	MaxSub int

	state int
	verb  byte
	opt   byte
	sb    []byte
	err   error
}

// Feed parses p and calls emit for each event in order. Consecutive
// data octets are handed over as one Data event. It returns a
// *SubError when a subnegotiation outgrows MaxSub (the events before it
// have been emitted), and the same error on every later call.
func (ps *Parser) Feed(p []byte, emit func(Event)) error {
	if ps.err != nil {
		return ps.err
	}
	max := ps.MaxSub
	if max <= 0 {
		max = DefaultMaxSub
	}
	start := -1 // start of a run of data octets in p
	flush := func(end int) {
		if start >= 0 && end > start {
			emit(Event{Kind: Data, Data: p[start:end]})
		}
		start = -1
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch ps.state {
		case psData:
			if c == IAC {
				flush(i)
				ps.state = psIAC
				continue
			}
			if start < 0 {
				start = i
			}
		case psIAC:
			switch c {
			case IAC:
				// An escaped 255 is data; it begins a new run so that
				// the IAC before it is not handed over.
				ps.state = psData
				start = i
			case WILL, WONT, DO, DONT:
				ps.verb, ps.state = c, psVerb
			case SB:
				ps.state = psSBOpt
			default:
				ps.state = psData
				emit(Event{Kind: Command, Cmd: c})
			}
		case psVerb:
			ps.state = psData
			emit(Event{Kind: Option, Cmd: ps.verb, Opt: c})
		case psSBOpt:
			ps.opt, ps.sb, ps.state = c, ps.sb[:0], psSB
		case psSB:
			if c == IAC {
				ps.state = psSBIAC
				continue
			}
			if len(ps.sb) >= max {
				ps.err, ps.state, ps.sb = &SubError{Opt: ps.opt, Max: max}, psSBSkip, nil
				return ps.err
			}
			ps.sb = append(ps.sb, c)
		case psSBIAC:
			switch c {
			case IAC:
				if len(ps.sb) >= max {
					ps.err, ps.state, ps.sb = &SubError{Opt: ps.opt, Max: max}, psSBSkip, nil
					return ps.err
				}
				ps.sb = append(ps.sb, IAC)
				ps.state = psSB
			case SE:
				ps.state = psData
				emit(Event{Kind: Sub, Opt: ps.opt, Params: ps.sb})
			default:
				// IAC and a command inside the parameters: the
				// subnegotiation ends there, and the command is read.
				emit(Event{Kind: Sub, Opt: ps.opt, Params: ps.sb})
				ps.state = psIAC
				i-- // read c again after IAC
			}
		}
	}
	if ps.state == psData {
		flush(len(p))
	}
	return nil
}

// Describe renders one command sequence as the dialogue log shows it:
// "IAC WILL NAWS", "IAC SB NAWS 0 80 0 24 IAC SE", "IAC SB
// TERMINAL-TYPE IS \"XTERM\" IAC SE".
func Describe(e Event) string {
	switch e.Kind {
	case Command:
		return "IAC " + commandName(e.Cmd)
	case Option:
		return "IAC " + commandName(e.Cmd) + " " + optionName(e.Opt)
	case Sub:
		var b strings.Builder
		b.WriteString("IAC SB " + optionName(e.Opt))
		p := e.Params
		if e.Opt == OptTType || e.Opt == OptTSpeed || e.Opt == OptXDispLoc {
			if len(p) > 0 && p[0] <= 1 {
				b.WriteString([]string{" IS", " SEND"}[p[0]])
				if len(p) > 1 {
					b.WriteString(" " + strconv.Quote(string(p[1:])))
				}
				p = nil
			}
		}
		for _, c := range p {
			b.WriteString(" " + strconv.Itoa(int(c)))
		}
		b.WriteString(" IAC SE")
		return b.String()
	}
	return fmt.Sprintf("%d data octets", len(e.Data))
}

// Option states of RFC 1143's Q method, without its queue: a request is
// never sent while one is pending, so a peer's answer is always read as
// the answer.
const (
	qNo = iota
	qYes
	qWantNo
	qWantYes
)

// A Negotiator keeps the state of every option on both sides of a
// connection and answers a peer's requests (RFC 854 "The Telnet option
// negotiation", RFC 855, RFC 1143).
//
// It agrees to what a terminal client does: the peer may ECHO (RFC 857),
// SUPPRESS-GO-AHEAD (RFC 858) and send BINARY (RFC 856); this side will
// SUPPRESS-GO-AHEAD, send BINARY when asked, give its TERMINAL-TYPE
// (RFC 1091) when TermType is set and its window size (NAWS, RFC 1073)
// when Size is set. Every other option is refused with DONT or WONT.
//
// Loops cannot arise: RFC 854, "a party may not send out a 'request'
// ... to announce a mode it is already in", and "if a party receives
// what appears to be a request to enter some mode it is already in, the
// request should not be acknowledged". A request to enter a mode is
// answered only when it changes the state; an answer to our own request
// is not answered back.
type Negotiator struct {
	// TermType is the terminal type sent for TERMINAL-TYPE SEND; empty:
	// TERMINAL-TYPE is refused.
	TermType string
	// Size returns the window's width and height in characters; nil:
	// NAWS is refused.
	Size func() (width, height int)

	us, him [256]byte // option states: ours (WILL side), the peer's (DO side)
}

// Enabled reports whether the option is in effect on our side (local)
// or the peer's.
func (n *Negotiator) Enabled(local bool, opt byte) bool {
	if local {
		return n.us[opt] == qYes
	}
	return n.him[opt] == qYes
}

func (n *Negotiator) willing(opt byte) bool { // we may enable opt on our side
	switch opt {
	case OptBinary, OptSGA:
		return true
	case OptTType:
		return n.TermType != ""
	case OptNAWS:
		return n.Size != nil
	}
	return false
}

func (n *Negotiator) wanted(opt byte) bool { // the peer may enable opt on its side
	switch opt {
	case OptEcho, OptSGA, OptBinary:
		return true
	}
	return false
}

// Request asks to enable (on true) or disable our option (verb WILL or
// WONT) or the peer's (DO or DONT), and returns what to send: nothing
// when the option is already in the state asked for or a request is
// pending, or when we would not enable it.
func (n *Negotiator) Request(verb, opt byte) []Event {
	switch verb {
	case WILL:
		if n.us[opt] == qNo && n.willing(opt) {
			n.us[opt] = qWantYes
			return []Event{{Kind: Option, Cmd: WILL, Opt: opt}}
		}
	case WONT:
		if n.us[opt] == qYes {
			n.us[opt] = qWantNo
			return []Event{{Kind: Option, Cmd: WONT, Opt: opt}}
		}
	case DO:
		if n.him[opt] == qNo && n.wanted(opt) {
			n.him[opt] = qWantYes
			return []Event{{Kind: Option, Cmd: DO, Opt: opt}}
		}
	case DONT:
		if n.him[opt] == qYes {
			n.him[opt] = qWantNo
			return []Event{{Kind: Option, Cmd: DONT, Opt: opt}}
		}
	}
	return nil
}

// Receive takes the peer's IAC verb opt and returns what to send in
// answer (possibly nothing), with the window size following an agreed
// NAWS (RFC 1073: the client sends it as soon as NAWS is agreed).
func (n *Negotiator) Receive(verb, opt byte) []Event {
	reply := func(v byte) []Event { return []Event{{Kind: Option, Cmd: v, Opt: opt}} }
	switch verb {
	case WILL, WONT:
		st := &n.him[opt]
		switch {
		case verb == WILL && *st == qNo:
			if n.wanted(opt) {
				*st = qYes
				return reply(DO)
			}
			return reply(DONT)
		case verb == WILL && *st == qWantYes:
			*st = qYes // the answer to our DO
		case verb == WILL && *st == qWantNo:
			*st = qNo // RFC 1143: "DONT answered by WILL", an error; stay off
		case verb == WONT && *st == qYes:
			*st = qNo
			return reply(DONT)
		case verb == WONT:
			*st = qNo // the answer to our DONT, or a refusal of our DO
		}
	case DO, DONT:
		st := &n.us[opt]
		switch {
		case verb == DO && *st == qNo:
			if n.willing(opt) {
				*st = qYes
				return append(reply(WILL), n.enabled(opt)...)
			}
			return reply(WONT)
		case verb == DO && *st == qWantYes:
			*st = qYes
			return n.enabled(opt)
		case verb == DO && *st == qWantNo:
			*st = qNo
		case verb == DONT && *st == qYes:
			*st = qNo
			return reply(WONT)
		case verb == DONT:
			*st = qNo
		}
	}
	return nil
}

// enabled returns what follows our option's becoming enabled.
func (n *Negotiator) enabled(opt byte) []Event {
	if opt == OptNAWS {
		return n.Resized()
	}
	return nil
}

// Resized returns the NAWS subnegotiation with the current window size
// when NAWS is in effect (RFC 1073: sent again whenever the size
// changes), else nothing.
func (n *Negotiator) Resized() []Event {
	if n.us[OptNAWS] != qYes || n.Size == nil {
		return nil
	}
	w, h := n.Size()
	clamp := func(v int) int { return min(max(v, 0), 0xffff) }
	w, h = clamp(w), clamp(h)
	return []Event{{Kind: Sub, Opt: OptNAWS, Params: []byte{byte(w >> 8), byte(w), byte(h >> 8), byte(h)}}}
}

// Subnegotiate takes the peer's IAC SB opt params IAC SE and returns
// what to send in answer: TERMINAL-TYPE IS for TERMINAL-TYPE SEND when
// ours is in effect (RFC 1091: the same type again when asked again, as
// the last of a list of one). Every other subnegotiation is ignored: it
// concerns an option that is not in effect, or one with nothing to
// answer.
func (n *Negotiator) Subnegotiate(opt byte, params []byte) []Event {
	if opt == OptTType && n.us[OptTType] == qYes && len(params) == 1 && params[0] == ttypeSEND {
		return []Event{{Kind: Sub, Opt: OptTType, Params: append([]byte{ttypeIS}, n.TermType...)}}
	}
	return nil
}

// Encode appends the wire form of a command event to b: IAC verb opt,
// or IAC SB opt params IAC SE with every 255 in the parameters doubled
// (RFC 855), or IAC cmd.
func Encode(b []byte, e Event) []byte {
	switch e.Kind {
	case Option:
		return append(b, IAC, e.Cmd, e.Opt)
	case Sub:
		b = append(b, IAC, SB, e.Opt)
		for _, c := range e.Params {
			if c == IAC {
				b = append(b, IAC)
			}
			b = append(b, c)
		}
		return append(b, IAC, SE)
	case Command:
		return append(b, IAC, e.Cmd)
	}
	return b
}

// TermType returns the terminal type to send for the environment's
// TERM (RFC 1091: an NVT ASCII name of at most 40 characters, case
// not significant; sent in upper case as the Assigned Numbers list
// them), or "" when term is empty, too long, or not printable ASCII.
func TermType(term string) string {
	if term == "" || len(term) > 40 {
		return ""
	}
	for i := 0; i < len(term); i++ {
		if term[i] <= ' ' || term[i] > '~' {
			return ""
		}
	}
	return strings.ToUpper(term)
}
