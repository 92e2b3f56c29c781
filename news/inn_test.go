package news_test

// Integration tests of the news and nntp clients against INN (inn2) on
// loopback, as package peer runs it. There is one INN per machine
// (/etc/news, /var/spool/news, /run/news), so every test that starts it
// lives in this package and takes a lock file first: two test binaries
// never run innd at once. innd is started in the foreground as user news
// on a free port of 127.0.0.1 (innd -f -4 127.0.0.1 -P PORT: inn.conf is
// left as installed), a group of its own is created with ctlinnd,
// articles are posted with POST after MODE READER, and innd is stopped
// with ctlinnd shutdown, then by its process id.

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
	"github.com/rfc1738/locator/news"
	"github.com/rfc1738/locator/nntp"
)

// inn is a running innd with a group of the test's own (peer.INN).
type inn struct{ *peer.INNServer }

// startINN starts INN as every package's tests start it (peer.INN: the
// machine's lock, a copy of inn.conf, a fresh group).
func startINN(t *testing.T) *inn { return &inn{peer.INN(t)} }

// stored returns the article numbered n of the group as INN stores it
// (tradspool, wireformat: CR LF, dot-stuffed, with the "." line), with
// the stuffing and the "." line undone: what a client must deliver.
func (in *inn) stored(t *testing.T, n int) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(peer.INNSpool, strings.ReplaceAll(in.Group, ".", "/"), fmt.Sprint(n)))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(b, []byte("\r\n.\r\n")) {
		t.Fatalf("stored article %d does not end in the \".\" line (wireformat): %q", n, b[max(0, len(b)-20):])
	}
	b = b[:len(b)-3]
	var out []byte
	for _, line := range bytes.SplitAfter(b, []byte("\r\n")) {
		out = append(out, bytes.TrimPrefix(line, []byte("."))...)
	}
	return out
}

// client returns a Client whose news client asks in and whose news and
// nntp clients read a group's index by method ("" the default), with the
// dialogue in dialogue (nil: none).
func (in *inn) client(dialogue io.Writer, method string) *access.Client {
	return &access.Client{Dialogue: dialogue, IdleTimeout: 30 * time.Second, Schemes: map[string]access.Fetcher{
		"news": &news.Client{Server: in.Addr, Method: method},
		"nntp": &nntp.Client{Method: method},
	}}
}

func get(t *testing.T, raw string, c *access.Client) (*access.Resource, []byte, error) {
	t.Helper()
	u, err := locator.Parse(raw)
	if err != nil {
		t.Fatalf("parse %s: %v", raw, err)
	}
	res, err := c.Get(context.Background(), u)
	if err != nil {
		return nil, nil, err
	}
	if res.Body == nil {
		return res, nil, listingErr(res, nil)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res, b, err
}

// The articles posted: A has body lines that begin with "." (a lone "."
// among them), which POST dot-stuffs and ARTICLE must unstuff (RFC 3977
// §3.1.1); B has a long header folded over many lines (RFC 5322
// §2.2.3) and a long line.
func articles(in *inn) (a, b, c, idA, idB, idC, longSubject string) {
	idA = "<locator-" + in.Tag + "-a@feas.test>"
	idB = "<locator-" + in.Tag + "-b@feas.test>"
	idC = "<locator-" + in.Tag + "-c@feas.test>"
	a = "From: Tester A <a@example.test>\r\nNewsgroups: " + in.Group + "\r\nSubject: dots\r\nMessage-ID: " + idA + "\r\n\r\n" +
		"first line\r\n.leading dot\r\n..two dots\r\n.\r\n. space after a dot\r\nlast line\r\n"
	var words []string
	for i := 0; i < 120; i++ {
		words = append(words, fmt.Sprintf("word%03d", i))
	}
	longSubject = "long " + strings.Join(words, " ")
	folded := "long"
	for i := 0; i < len(words); i += 10 {
		folded += "\r\n\t" + strings.Join(words[i:i+10], " ")
	}
	b = "From: Tester B <b@example.test>\r\nNewsgroups: " + in.Group + "\r\nSubject: " + folded + "\r\nMessage-ID: " + idB +
		"\r\nX-Long: " + strings.Repeat("x", 900) + "\r\n\r\n" + strings.Repeat("y", 990) + "\r\n"
	c = "From: Tester C <c@example.test>\r\nNewsgroups: " + in.Group + "\r\nSubject: plain\r\nMessage-ID: " + idC + "\r\n\r\nhello\r\n"
	return
}

func TestINN(t *testing.T) {
	in := startINN(t)
	a, b, c, idA, idB, idC, longSubject := articles(in)
	for _, art := range []string{a, b, c} {
		in.Post(t, art)
	}
	bareA := strings.Trim(idA, "<>")

	t.Run("article by message-id (RFC 1738 §3.6)", func(t *testing.T) {
		var dlg bytes.Buffer
		cl := in.client(&dlg, "")
		res, body, err := get(t, "news:"+bareA, cl)
		if err != nil {
			t.Fatalf("%v\n%s", err, dlg.String())
		}
		cl.CloseIdle() // the session kept for the next request ends (QUIT)
		if want := in.stored(t, 1); !bytes.Equal(body, want) {
			t.Errorf("body:\n%q\nwant as stored:\n%q", body, want)
		}
		_, posted, _ := strings.Cut(a, "\r\n\r\n")
		if !bytes.HasSuffix(body, []byte("\r\n\r\n"+posted)) {
			t.Errorf("body does not end in the posted body %q:\n%q", posted, body)
		}
		if res.Size != -1 || res.Listing != nil {
			t.Errorf("size %d listing %v", res.Size, res.Listing)
		}
		wantDlg := "* connect " + in.Addr + "\n< 200 "
		if !strings.HasPrefix(dlg.String(), wantDlg) || !strings.Contains(dlg.String(), "\n> MODE READER\n< 200 ") ||
			!strings.Contains(dlg.String(), "\n> ARTICLE "+idA+"\n< 220 0 "+idA+" article\n") || !strings.HasSuffix(dlg.String(), "> QUIT\n< 205 Bye!\n") {
			t.Errorf("dialogue:\n%s", dlg.String())
		}
	})

	t.Run("nntp URL of an article (RFC 1738 §3.7)", func(t *testing.T) {
		for n := 1; n <= 3; n++ {
			_, body, err := get(t, fmt.Sprintf("nntp://%s/%s/%d", in.Addr, in.Group, n), &access.Client{})
			if err != nil {
				t.Fatal(err)
			}
			if want := in.stored(t, n); !bytes.Equal(body, want) {
				t.Errorf("article %d:\n%q\nwant as stored:\n%q", n, body, want)
			}
		}
	})

	// The listing of the group by each method: OVER (INN has it), XOVER
	// and the HEAD/NEXT walk, asked for by the clients' Method.
	type row struct {
		url, name, from string
		size            int64
	}
	sizes := make([]int64, 3)
	for i := range sizes {
		sizes[i] = int64(len(in.stored(t, i+1)))
	}
	wantRows := func(scheme string, withSize bool) []row {
		var rows []row
		for i, x := range []struct{ id, name, from string }{{idA, "dots", "Tester A <a@example.test>"}, {idB, longSubject, "Tester B <b@example.test>"}, {idC, "plain", "Tester C <c@example.test>"}} {
			r := row{url: "news:" + strings.Trim(x.id, "<>"), name: x.name, from: x.from, size: -1}
			if scheme == "nntp" {
				r.url = fmt.Sprintf("nntp://%s/%s/%d", in.Addr, in.Group, i+1)
			}
			if withSize {
				r.size = sizes[i]
			}
			rows = append(rows, r)
		}
		return rows
	}
	rowsOf := func(t *testing.T, l *access.Listing) []row {
		t.Helper()
		var rows []row
		for i, e := range entries(l) {
			if e.Type != access.TypeArticle || e.Parts["number"] != int64(i+1) || e.Modified.IsZero() || time.Since(e.Modified) > time.Hour {
				t.Errorf("entry %d: type %q parts %v modified %v", i, e.Type, e.Parts, e.Modified)
			}
			from, _ := e.Parts["from"].(string)
			rows = append(rows, row{url: e.URL, name: e.Name, from: from, size: e.Size})
		}
		return rows
	}
	for _, m := range []struct {
		method   string
		withSize bool
		verb     string
	}{{"", true, "> OVER 1-3\n< 224 "}, {"xover", true, "> XOVER 1-3\n< 224 "}, {"head", false, "> HEAD\n< 221 1 " + idA + " head\n> NEXT\n< 223 2 " + idB}} {
		for _, scheme := range []string{"news", "nntp"} {
			t.Run(scheme+" group listing, method "+cmp.Or(m.method, "over (default)"), func(t *testing.T) {
				raw := "news:" + in.Group
				if scheme == "nntp" {
					raw = "nntp://" + in.Addr + "/" + in.Group
				}
				var dlg bytes.Buffer
				res, _, err := get(t, raw, in.client(&dlg, m.method))
				if err != nil {
					t.Fatalf("%v\n%s", err, dlg.String())
				}
				if res.Listing == nil || truncated(res.Listing) {
					t.Fatalf("listing %+v", res.Listing)
				}
				got, want := rowsOf(t, res.Listing), wantRows(scheme, m.withSize)
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("entries:\n%v\nwant\n%v", got, want)
				}
				if !strings.Contains(dlg.String(), "> GROUP "+in.Group+"\n< 211 3 1 3 "+in.Group+"\n"+m.verb) {
					t.Errorf("dialogue:\n%s", dlg.String())
				}
			})
		}
	}

	t.Run("listing cut at MaxEntries", func(t *testing.T) {
		for _, method := range []string{"over", "head"} {
			c := in.client(nil, method)
			c.MaxEntries = 2
			res, _, err := get(t, "news:"+in.Group, c)
			if err != nil {
				t.Fatal(err)
			}
			if len(entries(res.Listing)) != 2 || !truncated(res.Listing) {
				t.Errorf("%s: %d entries, truncated %v", method, len(entries(res.Listing)), truncated(res.Listing))
			}
		}
	})

	t.Run("news:* is the active list", func(t *testing.T) {
		res, _, err := get(t, "news:*", in.client(nil, ""))
		if err != nil {
			t.Fatal(err)
		}
		active, err := os.ReadFile("/var/lib/news/active")
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, line := range strings.Split(strings.TrimSpace(string(active)), "\n") {
			f := strings.Fields(line)
			want = append(want, "news:"+f[0])
		}
		var got []string
		var mine *access.Entry
		for i, e := range entries(res.Listing) {
			got = append(got, e.URL)
			if e.Name == in.Group {
				mine = &entries(res.Listing)[i]
			}
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("groups:\n%v\nwant (the active file):\n%v", got, want)
		}
		if mine == nil || mine.Type != access.TypeGroup || fmt.Sprint(mine.Parts) != "map[high:3 low:1 status:y]" {
			t.Errorf("the test group's entry: %+v", mine)
		}
	})

	t.Run("wildcard group (draft-gilman) is LIST ACTIVE with a wildmat", func(t *testing.T) {
		res, _, err := get(t, "news:locator.t"+in.Tag[:4]+"*", in.client(nil, ""))
		if err != nil {
			t.Fatal(err)
		}
		if len(entries(res.Listing)) != 1 || entries(res.Listing)[0].URL != "news:"+in.Group {
			t.Errorf("entries %+v", entries(res.Listing))
		}
	})

	t.Run("draft-gilman message numbers", func(t *testing.T) {
		_, body, err := get(t, "news:"+in.Group+"/3", in.client(nil, ""))
		if err != nil || !bytes.Equal(body, in.stored(t, 3)) {
			t.Errorf("news:group/3: %v %q", err, body)
		}
		res, _, err := get(t, "news:"+in.Group+"/2-9", in.client(nil, ""))
		if err != nil || len(entries(res.Listing)) != 2 || entries(res.Listing)[0].URL != "news:"+strings.Trim(idB, "<>") {
			t.Errorf("news:group/2-9: %v %+v", err, res)
		}
	})

	t.Run("absent objects are the server's answer (exit 1)", func(t *testing.T) {
		for _, x := range []struct{ url, code string }{
			{"news:no-such-" + in.Tag + "@feas.test", "430"},
			{"news:no.such.group" + in.Tag, "411"},
			{"nntp://" + in.Addr + "/" + in.Group + "/99", "423"},
			{"nntp://" + in.Addr + "/no.such.group" + in.Tag, "411"},
		} {
			_, _, err := get(t, x.url, in.client(nil, ""))
			var se *access.ServerError
			if !errors.As(err, &se) || se.Code != x.code || access.Classify(err) != access.Absent {
				t.Errorf("%s: %v, want a ServerError %s", x.url, err, x.code)
			}
		}
	})

	t.Run("an article larger than MaxSize", func(t *testing.T) {
		c := in.client(nil, "")
		c.MaxSize = 100
		_, body, err := get(t, "news:"+strings.Trim(idB, "<>"), c)
		if !errors.Is(err, access.ErrTooLarge) || len(body) != 100 {
			t.Errorf("%d octets, %v", len(body), err)
		}
	})

	t.Run("AUTHINFO USER/PASS when the server asks (RFC 4643)", func(t *testing.T) {
		addr, pw := in.authReader(t)
		withAuth := func(dialogue io.Writer, a nntp.Auth) *access.Client {
			return &access.Client{Dialogue: dialogue, IdleTimeout: 30 * time.Second, Schemes: map[string]access.Fetcher{"news": &news.Client{Server: addr, Auth: a}}}
		}
		u := "news:" + bareA

		// No credentials: the server's 480 is its refusal.
		_, _, err := get(t, u, withAuth(nil, nntp.Auth{}))
		var se *access.ServerError
		if !errors.As(err, &se) || se.Code != "480" {
			t.Errorf("without credentials: %v, want a ServerError 480", err)
		}

		var dlg bytes.Buffer
		_, body, err := get(t, u, withAuth(&dlg, nntp.Auth{User: "tester", Password: pw}))
		if err != nil || !bytes.Equal(body, in.stored(t, 1)) {
			t.Errorf("with credentials: %v %q\n%s", err, body, dlg.String())
		}
		if !strings.Contains(dlg.String(), "> ARTICLE "+idA+"\n< 480 ") ||
			!strings.Contains(dlg.String(), "\n> AUTHINFO USER tester\n< 381 ") ||
			!strings.Contains(dlg.String(), "\n> AUTHINFO PASS ****\n< 281 ") ||
			!strings.Contains(dlg.String(), "\n> ARTICLE "+idA+"\n< 220 0 "+idA) || strings.Contains(dlg.String(), pw) {
			t.Errorf("dialogue:\n%s", dlg.String())
		}

		_, _, err = get(t, u, withAuth(nil, nntp.Auth{User: "tester", Password: pw + "x"}))
		if !errors.As(err, &se) || se.Code != "481" || access.Classify(err) != access.Absent {
			t.Errorf("a wrong password: %v, want a ServerError 481", err)
		}

		// Without Auth, the 480 is answered with the login the Client's
		// Login (a .netrc) knows for the server: the configured server's
		// host for a news URL, the URL's for an nntp URL. It is asked
		// only when the server asks, with the host decoded and in lower
		// case and no user (neither URL names one).
		host, _, _ := strings.Cut(addr, ":")
		type ask struct{ host, user string }
		var asked []ask
		netrc := func(password string) func(h, u string) (string, string, bool) {
			return func(h, u string) (string, string, bool) {
				asked = append(asked, ask{h, u})
				if h != host {
					return "", "", false
				}
				return "tester", password, true
			}
		}
		viaLogin := func(dialogue io.Writer, login func(h, u string) (string, string, bool), a nntp.Auth) *access.Client {
			c := withAuth(dialogue, a)
			c.Login = login
			c.Schemes["nntp"] = &nntp.Client{Auth: a}
			return c
		}
		for _, x := range []struct{ url, cmd, reply string }{
			{u, "ARTICLE " + idA, "220 0 " + idA},
			{"nntp://" + addr + "/" + in.Group + "/1", "GROUP " + in.Group, "211 "},
		} {
			asked = nil
			dlg.Reset()
			_, body, err = get(t, x.url, viaLogin(&dlg, netrc(pw), nntp.Auth{}))
			if err != nil || !bytes.Equal(body, in.stored(t, 1)) {
				t.Errorf("%s with the login of Client.Login: %v %q\n%s", x.url, err, body, dlg.String())
			}
			if len(asked) != 1 || asked[0] != (ask{host, ""}) {
				t.Errorf("%s: Client.Login asked %+v, want once for %q", x.url, asked, host)
			}
			d := dlg.String()
			if !strings.Contains(d, "> "+x.cmd+"\n< 480 ") ||
				!strings.Contains(d, "\n> AUTHINFO USER tester\n< 381 ") ||
				!strings.Contains(d, "\n> AUTHINFO PASS ****\n< 281 ") ||
				!strings.Contains(d, "\n> "+x.cmd+"\n< "+x.reply) || strings.Contains(d, pw) {
				t.Errorf("%s: dialogue:\n%s", x.url, d)
			}
		}

		// A probe (STAT, RFC 3977 §6.2.4) on a kept connection logs in
		// the same way.
		for _, raw := range []string{u, "nntp://" + addr + "/" + in.Group + "/1"} {
			asked = nil
			dlg.Reset()
			pc := viaLogin(&dlg, netrc(pw), nntp.Auth{})
			st, err := pc.Stat(context.Background(), loctest.MustParse(t, raw))
			pc.CloseIdle()
			if err != nil || st.State != access.StateOK || len(asked) != 1 || !strings.Contains(dlg.String(), "\n> AUTHINFO PASS ****\n< 281 ") {
				t.Errorf("Stat %s with the login of Client.Login: %+v %v, Login asked %+v\n%s", raw, st, err, asked, dlg.String())
			}
		}

		// A login source that knows nothing for the server: the 480
		// stands. A wrong password from it: the server's 481.
		_, _, err = get(t, u, viaLogin(nil, func(h, u string) (string, string, bool) { return "", "", false }, nntp.Auth{}))
		if !errors.As(err, &se) || se.Code != "480" {
			t.Errorf("a login source without the server: %v, want a ServerError 480", err)
		}
		_, _, err = get(t, u, viaLogin(nil, netrc(pw+"x"), nntp.Auth{}))
		if !errors.As(err, &se) || se.Code != "481" {
			t.Errorf("a wrong password from Client.Login: %v, want a ServerError 481", err)
		}

		// Configured credentials come first: Client.Login is not asked.
		asked = nil
		_, _, err = get(t, u, viaLogin(nil, netrc(pw), nntp.Auth{User: "tester", Password: pw + "x"}))
		if !errors.As(err, &se) || se.Code != "481" || len(asked) != 0 {
			t.Errorf("Auth and Client.Login: %v, Login asked %+v; want Auth's 481 and no question", err, asked)
		}

		// A server that does not ask: nor is Client.Login.
		asked = nil
		c := in.client(nil, "")
		c.Login = netrc(pw)
		if _, body, err := get(t, "news:"+bareA, c); err != nil || !bytes.Equal(body, in.stored(t, 1)) || len(asked) != 0 {
			t.Errorf("without 480: %v, Login asked %+v", err, asked)
		}
	})
}

// authReader starts a standalone nnrpd (nnrpd -D -f) on a free port
// whose readers.conf lets in only the user "tester" with a random
// password checked by ckpasswd against a crypt(3) file, and returns its
// address and the password. INN's own configuration is not touched (-c
// names the test's readers.conf).
func (in *inn) authReader(t *testing.T) (addr, password string) {
	t.Helper()
	openssl := peer.Require(t, "openssl")[0]
	dir, err := os.MkdirTemp("", "locator-nnrpd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var r [6]byte
	rand.Read(r[:])
	password = hex.EncodeToString(r[:])
	hash, err := exec.Command(openssl, "passwd", "-6", password).Output()
	if err != nil {
		t.Fatalf("openssl passwd: %v", err)
	}
	conf := fmt.Sprintf("auth \"locator-test\" {\n    hosts: \"*\"\n    auth: \"ckpasswd -f %s/passwd\"\n}\n"+
		"access \"locator-test\" {\n    users: \"tester\"\n    newsgroups: \"*\"\n    access: R\n}\n", dir)
	for name, text := range map[string]string{"passwd": "tester:" + strings.TrimSpace(string(hash)) + "\n", "readers.conf": conf} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := peer.Start(t, peer.Spec{
		Name:    "nnrpd",
		Program: "setpriv",
		Env:     in.Env,
		Args: func(port int) ([]string, error) {
			return []string{"--reuid=news", "--regid=news", "--init-groups", peer.INNBin + "nnrpd", "-D", "-f", "-4", peer.Host, "-p", fmt.Sprint(port), "-c", filepath.Join(dir, "readers.conf")}, nil
		},
		Ready: peer.ReadyLine("20"),
	})
	return srv.Addr, password
}
