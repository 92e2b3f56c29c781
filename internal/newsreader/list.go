package newsreader

import (
	"strings"
)

// The ways of reading a group's index (OverviewStream), as the nntp and
// news clients offer them (their Method): MethodOver, the default, asks
// OVER (RFC 3977 §8.3), then XOVER (RFC 2980 §2.8) when the server does
// not know OVER, then walks the group with HEAD and NEXT (RFC 977
// §3.1.2, §3.5) when it knows neither; MethodXover starts at XOVER;
// MethodHead walks with HEAD alone.
const (
	MethodOver  = "over"
	MethodXover = "xover"
	MethodHead  = "head"
)

// unknown reports whether r says the server does not know a command
// (RFC 3977 §3.2.1: 500 "unknown command", 501 "syntax error").
func unknown(r Reply) bool { return r.Code == 500 || r.Code == 501 }

// numberAndID reads "n <message-id>" from a 221, 223 or 220 reply (RFC
// 3977 §6.2.1.2).
func numberAndID(text string) (int64, string, error) {
	f := fields(text)
	if len(f) < 2 {
		return 0, "", errNumberID
	}
	n, err := parseNumber(f[0])
	if err != nil {
		return 0, "", errNumberID
	}
	return n, f[1], nil
}

var errNumberID = &ReplyError{Msg: "the reply is \"n message-id\" (RFC 3977 §6.2.1.2)"}

// fromHead makes an overview of an article's header lines: the fields
// of §8.4.2 from the headers of the same names (":bytes" is unknown),
// each as §8.3.2 writes it in an overview line: unfolded, and "each
// remaining TAB ... replaced by a single space".
func fromHead(n int64, id string, head []string) Overview {
	field := func(name string) string {
		v, _ := Header(head, name)
		return strings.ReplaceAll(v, "\t", " ")
	}
	o := Overview{Number: n, MessageID: id, Bytes: -1, Lines: -1}
	o.Subject = field("Subject")
	o.From = field("From")
	o.Date = field("Date")
	if v := field("Message-ID"); v != "" {
		o.MessageID = v
	}
	o.References = field("References")
	if v, ok := Header(head, "Lines"); ok {
		if l, err := parseNumber(v); err == nil {
			o.Lines = l
		}
	}
	return o
}

// maxHeadLines bounds the header lines of one article read by the walk
// with HEAD and NEXT.
const maxHeadLines = 10000
