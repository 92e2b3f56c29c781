package nntp

import (
	"strconv"
	"strings"
)

// The ways of reading a group's index, as the clients offer them
// (access.Options.Method): MethodOver, the default, asks OVER (RFC 3977
// §8.3), then XOVER (RFC 2980 §2.8) when the server does not know OVER,
// then walks the group with HEAD and NEXT (RFC 977 §3.1.2, §3.5) when it
// knows neither; MethodXover starts at XOVER; MethodHead walks with HEAD
// alone.
const (
	MethodOver  = "over"
	MethodXover = "xover"
	MethodHead  = "head"
)

// Methods lists the methods, the default first.
var Methods = []string{MethodOver, MethodXover, MethodHead}

// unknown reports whether r says the server does not know a command
// (RFC 3977 §3.2.1: 500 "unknown command", 501 "syntax error").
func unknown(r Reply) bool { return r.Code == 500 || r.Code == 501 }

// Overview lists the articles numbered lo to hi of the group g selected
// by Group, by method (see MethodOver), at most max of them; more
// reports that the server had more (the connection is then closed, as
// the rest of its reply is not read). A group with no articles gives
// none without a command.
func (c *Conn) Overview(g Group, lo, hi int64, method string, max int) (list []Overview, more bool, err error) {
	if g.Count == 0 || lo > hi {
		return nil, false, nil
	}
	rng := strconv.FormatInt(lo, 10) + "-" + strconv.FormatInt(hi, 10)
	verbs := []string{"OVER", "XOVER"}
	switch method {
	case MethodXover:
		verbs = verbs[1:]
	case MethodHead:
		verbs = nil
	}
	for _, verb := range verbs {
		r, err := c.Cmd(verb, rng)
		if err != nil {
			return nil, false, err
		}
		switch {
		case r.Code == 224:
			more, err := c.Lines(max, func(line string) error {
				o, err := ParseOverview(line)
				if err != nil {
					return c.protoError(err.Error())
				}
				list = append(list, o)
				return nil
			})
			if more {
				c.Close()
			}
			return list, more, err
		case r.Code == 423 || r.Code == 420:
			// "No articles in that range" (RFC 3977 §8.3.2).
			return nil, false, nil
		case unknown(r):
			c.req.Notef("%s is not known to the server (%d); trying the next way", verb, r.Code)
			continue
		}
		return nil, false, c.answer(verb+" "+rng, r)
	}
	return c.walk(lo, hi, max)
}

// maxHeadLines bounds the header lines of one article read by walk.
const maxHeadLines = 10000

// walk lists the current group with HEAD and NEXT (RFC 977 §3.1.2:
// after GROUP "the internally maintained current article pointer is set
// to the first article in the group"; §3.5 NEXT), keeping the articles
// numbered lo to hi.
func (c *Conn) walk(lo, hi int64, max int) (list []Overview, more bool, err error) {
	for first := true; ; first = false {
		if !first {
			r, err := c.Cmd("NEXT")
			switch {
			case err != nil:
				return nil, false, err
			case r.Code == 421:
				return list, false, nil
			case r.Code != 223:
				return nil, false, c.answer("NEXT", r)
			}
		}
		r, err := c.Cmd("HEAD")
		switch {
		case err != nil:
			return nil, false, err
		case r.Code == 420 || r.Code == 423:
			return list, false, nil
		case r.Code != 221:
			return nil, false, c.answer("HEAD", r)
		}
		n, id, err := numberAndID(r.Text)
		if err != nil {
			return nil, false, c.protoError("HEAD answered " + strconv.Quote(r.String()) + ": " + err.Error())
		}
		var head []string
		long, err := c.Lines(maxHeadLines, func(line string) error {
			head = append(head, line)
			return nil
		})
		if err != nil {
			return nil, false, err
		}
		if long {
			return nil, false, c.protoError("HEAD " + strconv.FormatInt(n, 10) + " answered with more than " + strconv.Itoa(maxHeadLines) + " header lines")
		}
		if n > hi {
			return list, false, nil
		}
		if n >= lo {
			if len(list) >= max {
				return list, true, nil
			}
			list = append(list, fromHead(n, id, head))
		}
	}
}

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

// ActiveList sends LIST ACTIVE with the wildmat pattern, if any (RFC
// 3977 §7.6.3), or LIST (RFC 977 §3.6) when the server does not know
// LIST ACTIVE, and returns at most max lines; more reports that the
// server had more (the connection is then closed).
func (c *Conn) ActiveList(pattern string, max int) (list []Active, more bool, err error) {
	args := []string{"ACTIVE"}
	if pattern != "" {
		args = append(args, pattern)
	}
	r, err := c.Cmd("LIST", args...)
	if err == nil && unknown(r) && pattern == "" {
		c.req.Notef("LIST ACTIVE is not known to the server (%d); sending LIST (RFC 977 §3.6)", r.Code)
		r, err = c.Cmd("LIST")
	}
	if err != nil {
		return nil, false, err
	}
	if r.Code != 215 {
		return nil, false, c.answer("LIST "+strings.Join(args, " "), r)
	}
	more, err = c.Lines(max, func(line string) error {
		a, err := ParseActive(line)
		if err != nil {
			return c.protoError(err.Error())
		}
		list = append(list, a)
		return nil
	})
	if more {
		c.Close()
	}
	return list, more, err
}
