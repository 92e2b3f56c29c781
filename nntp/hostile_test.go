package nntp_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
	"github.com/rfc1738/locator/nntp"
)

// hostile is a peer (peer.Hostile) that misbehaves in one way (a stall,
// a flood, an endless reply, a cut connection): it sends greeting, then
// hands each command line to respond until respond fails. Only failures
// are tested this way; the protocol itself is tested against INN
// (news/inn_test.go).
func hostile(t *testing.T, greeting string, respond func(cmd string, w io.Writer) error) string {
	t.Helper()
	return peer.Hostile(t, func(c net.Conn) {
		c.SetDeadline(time.Now().Add(30 * time.Second))
		if _, err := io.WriteString(c, greeting); err != nil {
			return
		}
		br := bufio.NewReader(c)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			if respond(strings.TrimRight(line, "\r\n"), c) != nil {
				return
			}
		}
	})
}

// reader answers MODE READER and GROUP as a server would, then hands
// other commands to rest.
func reader(rest func(cmd string, w io.Writer) error) func(string, io.Writer) error {
	return func(cmd string, w io.Writer) error {
		switch {
		case cmd == "MODE READER":
			_, err := io.WriteString(w, "200 reader\r\n")
			return err
		case strings.HasPrefix(cmd, "GROUP "):
			_, err := io.WriteString(w, "211 3 1 3 "+cmd[6:]+"\r\n")
			return err
		case cmd == "QUIT":
			io.WriteString(w, "205 bye\r\n")
			return io.EOF
		}
		return rest(cmd, w)
	}
}

// endless writes line over and over until the client goes away.
func endless(w io.Writer, head, line string) error {
	if _, err := io.WriteString(w, head); err != nil {
		return err
	}
	for i := 0; ; i++ {
		if _, err := fmt.Fprintf(w, line, i); err != nil {
			return err
		}
	}
}

func fetch(t *testing.T, raw string, c *access.Client) (*access.Resource, []byte, error) {
	t.Helper()
	res, err := c.Get(context.Background(), loctest.MustParse(t, raw))
	if err != nil || res.Body == nil {
		return res, nil, listingErr(res, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res, b, err
}

// withMethod is a Client whose nntp client reads a group's index by
// method.
func withMethod(method string) *access.Client {
	return &access.Client{Schemes: map[string]access.Fetcher{"nntp": &nntp.Client{Method: method}}}
}

func TestHostilePeers(t *testing.T) {
	never := func(string, io.Writer) error { return nil }
	tests := []struct {
		name     string
		greeting string
		respond  func(string, io.Writer) error
		path     string
		client   *access.Client
		check    func(t *testing.T, res *access.Resource, body []byte, err error)
	}{
		{"stall after the greeting: the idle deadline cuts it off", "200 hi\r\n", never, "/g/1", &access.Client{IdleTimeout: 300 * time.Millisecond},
			func(t *testing.T, _ *access.Resource, _ []byte, err error) {
				if !access.Timeout(err) || access.Classify(err) != access.Failed {
					t.Errorf("%v, want a timeout", err)
				}
			}},
		{"stall in the article", "200 hi\r\n", reader(func(cmd string, w io.Writer) error {
			_, err := io.WriteString(w, "220 1 <a@b> article\r\nSubject: x\r\n")
			return err
		}), "/g/1", &access.Client{IdleTimeout: 300 * time.Millisecond},
			func(t *testing.T, _ *access.Resource, body []byte, err error) {
				if string(body) != "Subject: x\r\n" || !access.Timeout(err) {
					t.Errorf("%q %v, want the first line and a timeout", body, err)
				}
			}},
		{"a greeting line without end", "", nil, "/g/1", &access.Client{MaxLine: 1000},
			func(t *testing.T, _ *access.Resource, _ []byte, err error) {
				var pe *access.ProtocolError
				if !errors.As(err, &pe) || !strings.Contains(err.Error(), "longer than 1000 octets") || access.Classify(err) != access.Failed {
					t.Errorf("%v, want a ProtocolError", err)
				}
			}},
		{"not a status line", "hello there\r\n", never, "/g/1", &access.Client{},
			func(t *testing.T, _ *access.Resource, _ []byte, err error) {
				var pe *access.ProtocolError
				if !errors.As(err, &pe) || !strings.Contains(err.Error(), "RFC 3977 §3.2") {
					t.Errorf("%v, want a ProtocolError", err)
				}
			}},
		{"greeting 502 is a refusal", "502 go away\r\n", never, "/g/1", &access.Client{},
			func(t *testing.T, _ *access.Resource, _ []byte, err error) {
				var se *access.ServerError
				if !errors.As(err, &se) || se.Code != "502" || access.Classify(err) != access.Absent {
					t.Errorf("%v, want a ServerError 502", err)
				}
			}},
		{"an article cut without its terminating line", "200 hi\r\n", reader(func(cmd string, w io.Writer) error {
			io.WriteString(w, "220 1 <a@b> article\r\nSubject: x\r\n\r\n..body")
			return io.EOF
		}), "/g/1", &access.Client{},
			func(t *testing.T, _ *access.Resource, body []byte, err error) {
				var pe *access.ProtocolError
				if string(body) != "Subject: x\r\n\r\n.body" || !errors.As(err, &pe) || !strings.Contains(err.Error(), "without its terminating \".\" line") {
					t.Errorf("%q %v, want the octets sent and a ProtocolError", body, err)
				}
			}},
		{"an endless article stops at MaxSize", "200 hi\r\n", reader(func(cmd string, w io.Writer) error {
			return endless(w, "220 1 <a@b> article\r\n", "line %d\r\n")
		}), "/g/1", &access.Client{MaxSize: 100000},
			func(t *testing.T, _ *access.Resource, body []byte, err error) {
				if len(body) != 100000 || !errors.Is(err, access.ErrTooLarge) || access.Classify(err) != access.Failed {
					t.Errorf("%d octets, %v; want 100000 and ErrTooLarge", len(body), err)
				}
			}},
		{"an endless article line", "200 hi\r\n", reader(func(cmd string, w io.Writer) error {
			return endless(w, "220 1 <a@b> article\r\n", "%d")
		}), "/g/1", &access.Client{MaxLine: 4096},
			func(t *testing.T, _ *access.Resource, body []byte, err error) {
				var pe *access.ProtocolError
				if len(body) != 0 || !errors.As(err, &pe) || !strings.Contains(err.Error(), "longer than 4096 octets") {
					t.Errorf("%d octets, %v; want a ProtocolError", len(body), err)
				}
			}},
		{"an endless overview is cut at MaxEntries", "200 hi\r\n", reader(func(cmd string, w io.Writer) error {
			return endless(w, "224 overview\r\n", "%d\tsubject\tfrom\tdate\t<m@h>\t\t10\t1\r\n")
		}), "/g", &access.Client{MaxEntries: 50},
			func(t *testing.T, res *access.Resource, _ []byte, err error) {
				if err != nil || len(entries(res.Listing)) != 50 || !truncated(res.Listing) {
					t.Errorf("%v, want 50 entries, truncated", err)
				}
			}},
		{"an endless overview stops at MaxSize", "200 hi\r\n", reader(func(cmd string, w io.Writer) error {
			return endless(w, "224 overview\r\n", "%d\tsubject\tfrom\tdate\t<m@h>\t\t10\t1\r\n")
		}), "/g", &access.Client{MaxSize: 100000},
			func(t *testing.T, _ *access.Resource, _ []byte, err error) {
				if !errors.Is(err, access.ErrTooLarge) {
					t.Errorf("%v, want ErrTooLarge", err)
				}
			}},
		{"a malformed overview line", "200 hi\r\n", reader(func(cmd string, w io.Writer) error {
			_, err := io.WriteString(w, "224 overview\r\n1\tonly\tthree\r\n.\r\n")
			return err
		}), "/g", &access.Client{},
			func(t *testing.T, _ *access.Resource, _ []byte, err error) {
				var pe *access.ProtocolError
				if !errors.As(err, &pe) || !strings.Contains(err.Error(), "RFC 3977 §8.3.2") {
					t.Errorf("%v, want a ProtocolError", err)
				}
			}},
		{"the HEAD walk: the connection cut after NEXT", "200 hi\r\n", reader(func(cmd string, w io.Writer) error {
			if cmd == "HEAD" {
				_, err := io.WriteString(w, "221 1 <a@b> head\r\nSubject: one\r\n.\r\n")
				return err
			}
			return io.EOF
		}), "/g", withMethod("head"),
			func(t *testing.T, _ *access.Resource, _ []byte, err error) {
				var pe *access.ProtocolError
				if !errors.As(err, &pe) || !strings.Contains(err.Error(), "closed the connection instead of a status line") {
					t.Errorf("%v, want a ProtocolError", err)
				}
			}},
		{"the HEAD walk: an endless head", "200 hi\r\n", reader(func(cmd string, w io.Writer) error {
			return endless(w, "221 1 <a@b> head\r\n", "X-%d: y\r\n")
		}), "/g", withMethod("head"),
			func(t *testing.T, _ *access.Resource, _ []byte, err error) {
				var pe *access.ProtocolError
				if !errors.As(err, &pe) || !strings.Contains(err.Error(), "more than 10000 header lines") {
					t.Errorf("%v, want a ProtocolError", err)
				}
			}},
		{"an overview cut without its terminating line", "200 hi\r\n", reader(func(cmd string, w io.Writer) error {
			io.WriteString(w, "224 overview\r\n1\ts\tf\td\t<m@h>\t\t10\t1\r\n")
			return io.EOF
		}), "/g", &access.Client{},
			func(t *testing.T, _ *access.Resource, _ []byte, err error) {
				var pe *access.ProtocolError
				if !errors.As(err, &pe) || !strings.Contains(err.Error(), "without its terminating \".\" line") {
					t.Errorf("%v, want a ProtocolError", err)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var addr string
			if tt.respond == nil {
				addr = floodGreeting(t)
			} else {
				addr = hostile(t, tt.greeting, tt.respond)
			}
			res, body, err := fetch(t, "nntp://"+addr+tt.path, tt.client)
			tt.check(t, res, body, err)
		})
	}
}

// floodGreeting is a peer whose greeting never ends.
func floodGreeting(t *testing.T) string {
	t.Helper()
	return peer.Hostile(t, func(c net.Conn) {
		c.SetDeadline(time.Now().Add(30 * time.Second))
		endless(c, "200 ", "%d")
	})
}

// A password that cannot be sent (a space would split AUTHINFO PASS's
// argument, RFC 3977 §3.1) is refused without being written anywhere:
// not in the error, not in the dialogue.
func TestAuthInfoPasswordNeverShown(t *testing.T) {
	addr := hostile(t, "200 hi\r\n", reader(func(cmd string, w io.Writer) error {
		switch cmd {
		case "AUTHINFO USER joe":
			_, err := io.WriteString(w, "381 password please\r\n")
			return err
		}
		_, err := io.WriteString(w, "480 authentication required\r\n")
		return err
	}))
	var dlg strings.Builder
	c := &access.Client{Dialogue: &dlg, Schemes: map[string]access.Fetcher{"nntp": &nntp.Client{Auth: nntp.Auth{User: "joe", Password: "se cret"}}}}
	_, err := c.Get(context.Background(), loctest.MustParse(t, "nntp://"+addr+"/g/1"))
	var pe *access.PolicyError
	if !errors.As(err, &pe) || strings.Contains(err.Error(), "se cret") || strings.Contains(dlg.String(), "se cret") {
		t.Errorf("%v\n%s", err, dlg.String())
	}
	if want := "> ARTICLE 1\n< 480 authentication required\n> AUTHINFO USER joe\n< 381 password please\n"; !strings.HasSuffix(dlg.String(), want) {
		t.Errorf("dialogue:\n%s\nwant it to end\n%s", dlg.String(), want)
	}
}
