package gopher_test

// Integration tests against real Gopher servers on 127.0.0.1, started by
// the tests (internal/peer): UMN gopherd 3.0.5 built from its sources
// (Gopher+, ASK forms, --1 errors), pygopherd (Gopher+ with "+-2"
// replies and no "." after menus) and gophernicus (plain Gopher), both
// from Debian.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gopher"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
)

// get follows s with a gopher client, the request's own values o (nil:
// none) and a dialogue log, and returns the resource, its body read
// whole, and the dialogue.
func get(t *testing.T, s string, o *access.Options) (*access.Resource, []byte, string, error) {
	t.Helper()
	var log bytes.Buffer
	ac := &access.Client{Dialogue: &log, IdleTimeout: 20 * time.Second, Schemes: map[string]access.Fetcher{"gopher": &gopher.Client{}}}
	res, err := ac.Do(context.Background(), loctest.MustParse(t, s), o)
	if err = listingErr(res, err); err != nil {
		return nil, nil, log.String(), err
	}
	var body []byte
	if res.Body != nil {
		body, err = io.ReadAll(res.Body)
		res.Close()
	}
	return res, body, log.String(), err
}

func mustGet(t *testing.T, s string, o *access.Options) (*access.Resource, []byte, string) {
	t.Helper()
	res, body, log, err := get(t, s, o)
	if err != nil {
		t.Fatalf("get %s: %v\n%s", s, err, log)
	}
	return res, body, log
}

// urls lists a listing's entries as "type name url".
func urls(l *access.Listing) []string {
	var s []string
	for _, e := range entries(l) {
		s = append(s, e.Type+" "+e.Name+" "+e.URL)
	}
	return s
}

func write(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

// ---- UMN gopherd ----

const askForm = "Note: Please fill in this test form\nAsk: Your name:\tGopher User\nAskP: Secret word:\nSelect: Subscribe?:1\nChoose: Colour:\tred\tgreen\tblue\nAskL: Comments:\n"

// startUMN serves a data tree like captures/mkdata.sh's (the binary
// file deterministic) with gopherd in standalone mode (patch 01's
// GOPHERD_BIND_ADDR), as nobody when the test runs as root.
func startUMN(t *testing.T) (*peer.Server, []byte) {
	data := t.TempDir()
	write(t, filepath.Join(data, "hello.txt"), "Hello from UMN gopherd.\nSecond line.\n", 0o644)
	write(t, filepath.Join(data, "subdir", "inner.txt"), "Inside the subdirectory.\n", 0o644)
	blob := make([]byte, 256)
	for i := range blob {
		blob[i] = byte(i*7 + 3)
	}
	write(t, filepath.Join(data, "blob.dat"), string(blob), 0o644)
	write(t, filepath.Join(data, "notes"), "Notes file without extension.\n", 0o644)
	write(t, filepath.Join(data, "notes.abstract"), "An abstract for the notes item\nsecond abstract line\n", 0o644)
	write(t, filepath.Join(data, "form.ask"), askForm, 0o644)
	write(t, filepath.Join(data, "form"), "#!/bin/sh\necho \"ASK script output\"\nn=0\nwhile IFS= read -r line; do n=$((n+1)); echo \"line $n: [$line]\"; done\necho \"total lines: $n\"\n", 0o755)
	write(t, filepath.Join(data, "gen.dat"), "#!/bin/sh\nprintf \"generated binary-ish output\\r\\n.\\r\\nafter a lone dot\\r\\n\"\n", 0o755)
	s := peer.UMNGopherd(t, data)
	return s, blob
}

func TestUMNGopherd(t *testing.T) {
	s, blob := startUMN(t)
	base := "gopher://" + s.Addr + "/"
	at := func(sel string) string { return strings.ReplaceAll(sel, "ADDR", s.Addr) }

	t.Run("menu", func(t *testing.T) {
		// RFC 1436 §3.8; every line has UMN's fifth field, "?" for the form.
		want := []string{
			"file blob gopher://ADDR/99/blob.dat", "file form gopher://ADDR/00/form%09%09?", "file gen gopher://ADDR/99/gen.dat",
			"file hello gopher://ADDR/00/hello.txt", "file notes gopher://ADDR/00/notes", "directory subdir gopher://ADDR/11/subdir",
		}
		for i := range want {
			want[i] = at(want[i])
		}
		for _, u := range []string{base, base + "1%09%09+"} {
			res, _, log := mustGet(t, u, nil)
			if got := urls(res.Listing); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: %q, want %q\n%s", u, got, want, log)
			}
			if p := entries(res.Listing)[1].Parts["plus"]; p != "?" {
				t.Errorf("form's Gopher+ flag %v", p)
			}
		}
	})

	t.Run("text", func(t *testing.T) {
		const want = "Hello from UMN gopherd.\nSecond line.\n"
		// Gopher0: UMN gopherd appends a "." line and leaves the line ends as they are.
		res, body, _ := mustGet(t, base+"00/hello.txt", nil)
		if string(body) != want || res.MediaType != "text/plain" {
			t.Errorf("Gopher0 text %q %q", body, res.MediaType)
		}
		// Gopher+ "+37": exactly 37 octets; the "." UMN sends after them is not data.
		res, body, log := mustGet(t, base+"00/hello.txt%09%09+", nil)
		if string(body) != want || res.Size != 37 {
			t.Errorf("Gopher+ text %q size %d", body, res.Size)
		}
		if !strings.Contains(log, "> 0/hello.txt\\x09+\n< +37\n") {
			t.Errorf("request line without the empty search (Gopher+ §2.4):\n%s", log)
		}
		// The same view named (RFC 1738 §3.4.8).
		_, body, _ = mustGet(t, base+"00/hello.txt%09%09+Text/plain", nil)
		if string(body) != want {
			t.Errorf("view Text/plain %q", body)
		}
	})

	t.Run("binary", func(t *testing.T) {
		res, body, _ := mustGet(t, base+"99/blob.dat%09%09+", nil)
		if !bytes.Equal(body, blob) || res.Size != 256 {
			t.Errorf("+256 binary: %d octets, size %d", len(body), res.Size)
		}
		_, body, _ = mustGet(t, base+"99/blob.dat", nil)
		if !bytes.Equal(body, blob) {
			t.Errorf("Gopher0 binary: %d octets", len(body))
		}
		// "+-2": to the close, a "." line inside is data (UMN gopherd sends a script's output so).
		res, body, _ = mustGet(t, base+"99/gen.dat%09%09+", nil)
		if string(body) != "generated binary-ish output\r\n.\r\nafter a lone dot\r\n" || res.Size != -1 {
			t.Errorf("+-2 %q size %d", body, res.Size)
		}
	})

	t.Run("attributes", func(t *testing.T) {
		// "$": every item's attributes (Gopher+ §2.7).
		res, _, _ := mustGet(t, base+"1%09%09$", nil)
		l := res.Listing
		if len(entries(l)) != 6 {
			t.Fatalf("$: %d entries, want 6", len(entries(l)))
		}
		notes := entries(l)[4]
		if notes.Name != "notes" || notes.Parts["abstract"] != "An abstract for the notes item\nsecond abstract line" || notes.Modified.IsZero() {
			t.Errorf("notes: %+v", notes)
		}
		form := entries(l)[1]
		if ask, _ := form.Parts["ask"].([]map[string]any); len(ask) != 6 || ask[4]["prompt"] != "Colour:" {
			t.Errorf("form's +ASK: %+v", form.Parts["ask"])
		}
		// "!": one item's.
		res, _, _ = mustGet(t, base+"00/hello.txt%09%09!", nil)
		if len(entries(res.Listing)) != 1 || entries(res.Listing)[0].URL != at("gopher://ADDR/00/hello.txt") {
			t.Errorf("!: %q", urls(res.Listing))
		}
		adm, _ := entries(res.Listing)[0].Parts["admin"].(map[string]any)
		if adm["email"] != "admin@example.invalid" {
			t.Errorf("+ADMIN: %+v", adm)
		}
		// A +VIEWS size is the server's estimate (Gopher+ §2.5: "might
		// NOT be the exact size"): UMN writes the 37-octet file's as
		// "<.1k>", and the entry says its size is approximate.
		e := entries(res.Listing)[0]
		views, _ := e.Parts["views"].([]map[string]any)
		if !e.SizeApprox || e.Size < 0 || len(views) == 0 || !strings.HasPrefix(fmt.Sprint(views[0]["size_text"]), "<") {
			t.Errorf("!: size %d, approximate %v, views %+v; want the view's estimate, marked approximate", e.Size, e.SizeApprox, views)
		}
		// A probe reports the same estimate as one, not as a count
		// (it said size=100 for this 37-octet file).
		st := new(access.Client).Probe(context.Background(), loctest.MustParse(t, base+"00/hello.txt"))
		if st.State != access.StateOK || st.Size != e.Size || !st.SizeApprox {
			t.Errorf("probe: %s size %d approximate %v (%v); want present, %d, approximate", st.State, st.Size, st.SizeApprox, st.Err, e.Size)
		}
	})

	t.Run("views", func(t *testing.T) {
		v, err := new(access.Client).Views(context.Background(), loctest.MustParse(t, base+"11/subdir"))
		want := []access.View{
			{Name: "application/gopher-menu En_US", Type: "application/gopher-menu", Language: "En_US", Size: 4000},
			{Name: "application/gopher+-menu En_US", Type: "application/gopher+-menu", Language: "En_US", Size: 4000},
			{Name: "text/html En_US", Type: "text/html", Language: "En_US", Size: 4000},
		}
		if err != nil || !reflect.DeepEqual(v, want) {
			t.Errorf("views %+v, %v", v, err)
		}
		res, body, log := mustGet(t, base+"11/subdir", &access.Options{View: "text/html En_US"})
		if res.MediaType != "text/html" || !bytes.Contains(body, []byte(at(`<A HREF="gopher://ADDR/00/subdir/inner.txt">inner</A>`))) {
			t.Errorf("text/html view %q %q\n%s", res.MediaType, body, log)
		}
		res, _, _ = mustGet(t, base+"11/subdir", &access.Options{View: "application/gopher+-menu"})
		if got := urls(res.Listing); len(got) != 1 || got[0] != at("file inner gopher://ADDR/00/subdir/inner.txt") {
			t.Errorf("gopher+-menu view %q", got)
		}
	})

	t.Run("errors", func(t *testing.T) {
		// Gopher0: UMN gopherd's one type-0 line to error.host is the whole answer.
		_, _, _, err := get(t, base+"00/nonexistent", nil)
		var se *access.ServerError
		if !errors.As(err, &se) || se.Code != "3" || se.Text != "'/nonexistent' does not exist!!" {
			t.Errorf("Gopher0 missing item: %v", err)
		}
		// Gopher+ "--1": code 1 and the administrator.
		_, _, _, err = get(t, base+"00/nonexistent%09%09+", nil)
		if !errors.As(err, &se) || se.Code != "1" || se.Text != "'/nonexistent' does not exist!! (administrator: Test Admin <admin@example.invalid>)" || access.Classify(err) != access.Absent {
			t.Errorf("Gopher+ missing item: %v", err)
		}
		_, _, _, err = get(t, base+"00/nonexistent%09%09!", nil)
		if !errors.As(err, &se) || se.Code != "1" || !strings.HasPrefix(se.Text, "Cannot find item information for that item") {
			t.Errorf("missing item's attributes: %v", err)
		}
	})

	t.Run("ask", func(t *testing.T) {
		// RFC 1738 §3.4.5: fetch +ASK, fill it, send "selector TAB + TAB 1" and a "+-1" block (§3.4.9).
		answers := map[string]string{"Your name": "Alice", "Secret word": "sesame", "Subscribe?": "yes", "Colour": "green", "Comments": "first comment line\nsecond comment line"}
		res, body, log := mustGet(t, base+"00/form%09%09?", &access.Options{Answers: answers})
		const echo = "ASK script output\nline 1: [Alice]\nline 2: [sesame]\nline 3: [1]\nline 4: [green]\nline 5: [2]\nline 6: [first comment line]\nline 7: [second comment line]\ntotal lines: 7\n"
		if string(body) != echo {
			t.Errorf("script's reply %q, want %q\n%s", body, echo, log)
		}
		const filled = "00/form%09%09+%091%0D%0A+-1%0D%0AAlice%0D%0Asesame%0D%0A1%0D%0Agreen%0D%0A2%0D%0Afirst%20comment%20line%0D%0Asecond%20comment%20line%0D%0A.%0D%0A"
		if res.URL == nil || res.URL.String() != base+filled {
			t.Errorf("filled form's URL %v, want %s", res.URL, base+filled)
		}
		if strings.Contains(log, "sesame") || !strings.Contains(log, "> 0/form\\x09+\\x091\n> +-1\n> Alice\n> ****\n> 1\n> green\n> 2\n") {
			t.Errorf("dialogue (AskP answer masked):\n%s", log)
		}
		// The URL that holds the filled form gives the same reply (§3.4.9).
		_, body, _ = mustGet(t, base+filled, nil)
		if string(body) != echo {
			t.Errorf("filled URL's reply %q", body)
		}
		// Asked in turn, the defaults offered.
		var asked []string
		_, body, _ = mustGet(t, base+"00/form%09%09?", &access.Options{Ask: func(q access.Question) (string, error) {
			asked = append(asked, q.Kind+":"+q.Default)
			switch q.Kind {
			case "Choose":
				return q.Choices[2], nil
			case "AskL":
				return "", nil
			case "AskP":
				return "pw", nil
			}
			return q.Default, nil
		}})
		if want := []string{"Note:", "Ask:Gopher User", "AskP:", "Select:yes", "Choose:", "AskL:"}; !reflect.DeepEqual(asked, want) {
			t.Errorf("asked %q, want %q", asked, want)
		}
		if want := "ASK script output\nline 1: [Gopher User]\nline 2: [pw]\nline 3: [1]\nline 4: [blue]\nline 5: [0]\ntotal lines: 5\n"; string(body) != want {
			t.Errorf("asked form's reply %q, want %q", body, want)
		}
		// An answer that is none of the choices: refused, nothing submitted.
		_, _, log, err := get(t, base+"00/form%09%09?", &access.Options{Answers: map[string]string{"2": "pw", "Colour": "purple"}})
		var pe *access.PolicyError
		if !errors.As(err, &pe) || pe.Rule != "Gopher+ §2.8" || strings.Contains(log, "+\\x091") {
			t.Errorf("bad choice: %v\n%s", err, log)
		}
		// Nobody to answer the password: refused, nothing submitted.
		_, _, log, err = get(t, base+"00/form%09%09?", nil)
		if access.Classify(err) != access.Forbidden || strings.Contains(log, "+\\x091") {
			t.Errorf("unanswered form: %v\n%s", err, log)
		}
	})
}

// ---- pygopherd ----

func TestPygopherd(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "hello.txt"), "Hello from gopher\n", 0o644)
	write(t, filepath.Join(root, "hello.txt.abstract"), "This is an abstract for hello\n", 0o644)
	write(t, filepath.Join(root, "docs", "inner.txt"), "inner\n", 0o644)
	write(t, filepath.Join(root, "docs", "dots.txt"), "inner\n.\n..dots\n", 0o644)
	s := peer.Pygopherd(t, root)
	base := "gopher://" + s.Addr + "/"
	at := func(x string) string { return strings.ReplaceAll(x, "ADDR", s.Addr) }

	// No "." after the menu: the close ends it; the abstract is an "i" line.
	want := []string{at("directory docs gopher://ADDR/1/docs"), at("file hello gopher://ADDR/0/hello.txt"), "info This is an abstract for hello "}
	for _, u := range []string{base, base + "1%09%09+"} {
		res, _, log := mustGet(t, u, nil)
		if got := urls(res.Listing); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %q, want %q\n%s", u, got, want, log)
		}
	}
	res, body, _ := mustGet(t, base+"0/hello.txt%09%09+", nil)
	if string(body) != "Hello from gopher\n" || res.Size != 18 {
		t.Errorf("+18 text %q size %d", body, res.Size)
	}
	res, _, _ = mustGet(t, base+"0/hello.txt%09%09!", nil)
	e := entries(res.Listing)[0]
	if e.Parts["abstract"] != "This is an abstract for hello" || e.Size != 0 || e.Modified.IsZero() {
		t.Errorf("! attributes %+v", e)
	}
	v, err := new(access.Client).Views(context.Background(), loctest.MustParse(t, base+"0/hello.txt"))
	if err != nil || !reflect.DeepEqual(v, []access.View{{Name: "text/plain", Type: "text/plain", Size: 0}}) {
		t.Errorf("views %+v %v", v, err)
	}
	res, _, _ = mustGet(t, base+"1/docs%09%09$", nil)
	if got := urls(res.Listing); !reflect.DeepEqual(got, []string{at("file dots gopher://ADDR/0/docs/dots.txt"), at("file inner gopher://ADDR/0/docs/inner.txt")}) {
		t.Errorf("$ %q", got)
	}
	var se *access.ServerError
	if _, _, _, err := get(t, base+"0/nonexist", nil); !errors.As(err, &se) || se.Code != "3" {
		t.Errorf("type 3 reply: %v", err)
	}
	if _, _, _, err := get(t, base+"0/nonexist%09%09+", nil); !errors.As(err, &se) || se.Code != "1" || !strings.Contains(se.Text, "does not exist") {
		t.Errorf("--2 reply: %v", err)
	}
	// pygopherd sends text as it is, not dot-stuffed, and no "." line:
	// a "." line with text after it is text (RFC 1436 §3.8 as servers
	// follow it), and "..dots" is as written.
	_, body, _ = mustGet(t, base+"0/docs/dots.txt", nil)
	if string(body) != "inner\n.\n..dots\n" {
		t.Errorf("unstuffed lone dot: %q", body)
	}
	// Through Gopher+ the length frames the text, and nothing is lost.
	_, body, _ = mustGet(t, base+"0/docs/dots.txt%09%09+", nil)
	if string(body) != "inner\n.\n..dots\n" {
		t.Errorf("Gopher+ text %q", body)
	}
}

// ---- gophernicus ----

func TestGophernicus(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "hello.txt"), "Hello\nworld\n", 0o644)
	write(t, filepath.Join(root, "dots.txt"), "Hello\n.\n..dots\n", 0o644)
	write(t, filepath.Join(root, "sub", "a.txt"), "a\n", 0o644)
	// A search (type 7): gophernicus runs the script with the words in
	// $SEARCHREQUEST; its output is the result menu.
	write(t, filepath.Join(root, "cgi-bin", "find"), "#!/bin/sh\nprintf '0Result for %s\\t/r\\th\\t70\\r\\n' \"$SEARCHREQUEST\"\n", 0o755)
	s := peer.Gophernicus(t, root)
	base := "gopher://" + s.Addr + "/"
	res, _, log := mustGet(t, base, nil)
	var got []string
	for _, e := range entries(res.Listing) {
		got = append(got, e.Type+" "+e.URL)
	}
	if want := []string{"directory gopher://" + s.Addr + "/1/cgi-bin/", "directory gopher://" + s.Addr + "/1/sub/", "file gopher://" + s.Addr + "/0/dots.txt", "file gopher://" + s.Addr + "/0/hello.txt"}; !reflect.DeepEqual(got, want) {
		t.Errorf("menu %q, want %q\n%s", got, want, log)
	}
	// Text is sent with CR LF line ends, without a "." line.
	_, body, _ := mustGet(t, base+"0/hello.txt", nil)
	if string(body) != "Hello\r\nworld\r\n" {
		t.Errorf("text %q", body)
	}
	// Nor are lines dot-stuffed: a lone "." line with text after it is
	// text, and "..dots" is as written (RFC 1436 §3.8 as servers follow it).
	_, body, _ = mustGet(t, base+"0/dots.txt", nil)
	if string(body) != "Hello\r\n.\r\n..dots\r\n" {
		t.Errorf("unstuffed lone dot: %q", body)
	}
	// It speaks no Gopher+: an attribute request is answered with the file.
	_, _, _, err := get(t, base+"0/hello.txt%09%09!", nil)
	var pe *access.ProtocolError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "does not speak Gopher+") {
		t.Errorf("! to a Gopher0 server: %v", err)
	}
	// RFC 1738 §3.4.2: selector TAB search; the words from the URL or the option.
	for _, c := range []struct {
		url    string
		search string
		want   string
	}{
		{base + "7/cgi-bin/find%09hello%20world", "", "file Result for hello world gopher://h/0/r"},
		{base + "7/cgi-bin/find", "via the option", "file Result for via the option gopher://h/0/r"},
		{base + "7/cgi-bin/find%09", "empty in the URL", "file Result for empty in the URL gopher://h/0/r"},
	} {
		res, _, log := mustGet(t, c.url, &access.Options{Search: c.search})
		if got := urls(res.Listing); len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: %q, want %q\n%s", c.url, got, c.want, log)
		}
	}
	// A missing file is a text, not a type-3 line: delivered as the server sent it.
	_, body, _ = mustGet(t, base+"0/nonexistent.txt", nil)
	if !strings.HasPrefix(string(body), "Error: File or directory not found!") {
		t.Errorf("missing file %q", body)
	}
}
