package news

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
)

// A Plan is the NNTP (RFC 977) exchange a news URL stands for: "A news
// URL may be dereferenced using NNTP (RFC977) (The ARTICLE by message-id
// command)" (draft 03).
type Plan struct {
	// Host is the news server to ask; "" means the reader's own, since a
	// news URL names none ("the reader will fetch the article or group
	// from his or her local news host", draft 03, Note 1). Only
	// draft-gilman's news://host/ sets it.
	Host string
	Port int  // 119, or snews's 563, or the port written
	TLS  bool // snews

	// Commands are the command lines sent after the server's greeting,
	// without their CR LF:
	//
	//	ARTICLE <message-id>    an article
	//	GROUP name              a group (the reader then reads its index)
	//	GROUP name, ARTICLE n   draft-gilman's single message number
	//	LIST                    "*", or news://host/ with neither
	Commands []string
}

// Plan returns the NNTP exchange n stands for. It fails when the
// message-id or group holds an octet that would break the command line
// (CR, LF, NUL, space or TAB), and for a range of message numbers
// "n-m", which is no single exchange; the error is a
// *locator.SchemeError naming the field at fault.
func (n *URL) Plan() (*Plan, error) {
	p := &Plan{Host: n.Host, Port: defaultPort}
	if n.Scheme == "snews" {
		p.Port, p.TLS = securePort, true
	}
	if n.Port != "" {
		v, err := strconv.Atoi(n.Port)
		if err != nil || v < 1 || v > 65535 {
			return nil, &locator.SchemeError{Scheme: "news", Field: "port", Rule: "port", Message: "port " + strconv.Quote(n.Port) + " is not a number from 1 to 65535"}
		}
		p.Port = v
	}
	switch {
	case n.Article != "":
		a := n.Article
		if len(a) >= 2 && a[0] == '<' && a[len(a)-1] == '>' {
			a = a[1 : len(a)-1]
		}
		if i := strings.IndexAny(a, "\r\n\x00 \t<>"); i >= 0 {
			return nil, &locator.SchemeError{Scheme: "news", Field: "article", Offset: i, Rule: "article", Message: describe(a[i]) + " cannot be sent in an NNTP ARTICLE command's message-id (RFC 977 §3.1, RFC 1036 §2.1.5)"}
		}
		p.Commands = []string{"ARTICLE <" + a + ">"}
	case n.Group != "":
		if err := checkGroup(n.Group); err != nil {
			return nil, err
		}
		p.Commands = []string{"GROUP " + n.Group}
		if n.Range != "" {
			if i, msg := checkRange(n.Range); i >= 0 {
				return nil, &locator.SchemeError{Scheme: "news", Field: "range", Offset: i, Rule: "refbygroup", Message: msg}
			}
			if strings.IndexByte(n.Range, '-') >= 0 {
				return nil, &locator.SchemeError{Scheme: "news", Field: "range", Rule: "refbygroup", Message: "a range of message numbers " + strconv.Quote(n.Range) + " is an index to read, not one NNTP exchange"}
			}
			p.Commands = append(p.Commands, "ARTICLE "+n.Range)
		}
	default:
		p.Commands = []string{"LIST"}
	}
	return p, nil
}
