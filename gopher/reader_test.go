package gopher

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/rfc1738/locator/access"
)

// RFC 1436 §3.8 menu lines, Gopher+ §2.1's fifth field, and the lines
// real servers write (captured from UMN gopherd, pygopherd and
// gophernicus).
func TestParseMenuLine(t *testing.T) {
	for _, c := range []struct {
		line string
		want Item
		err  string // "offset rule" of the error, "" for none
	}{
		{"0hello\t0/hello.txt\t127.0.0.1\t17070\t+", Item{Type: '0', Display: "hello", Selector: "0/hello.txt", Host: "127.0.0.1", Port: "17070", Plus: "+", HasPlus: true}, ""},
		{"0form\t0/form\t127.0.0.1\t17070\t?", Item{Type: '0', Display: "form", Selector: "0/form", Host: "127.0.0.1", Port: "17070", Plus: "?", HasPlus: true}, ""},
		{"1docs\t/docs\th\t70", Item{Type: '1', Display: "docs", Selector: "/docs", Host: "h", Port: "70"}, ""},
		{"1docs\t/docs\th\t70\t+\textra", Item{Type: '1', Display: "docs", Selector: "/docs", Host: "h", Port: "70", Plus: "+", HasPlus: true}, ""},
		{"iThis is an abstract for hello\tfake\t(NULL)\t0", Item{Type: 'i', Display: "This is an abstract for hello", Selector: "fake", Host: "(NULL)", Port: "0"}, ""},
		{"iplain info", Item{Type: 'i', Display: "plain info"}, ""},
		{"", Item{Type: 'i'}, ""},
		{"3'/nonexist' does not exist (no handler found)\t\terror.host\t1", Item{Type: '3', Display: "'/nonexist' does not exist (no handler found)", Host: "error.host", Port: "1"}, ""},
		{"0x\tsel\thost", Item{Type: '0', Display: "x", Selector: "sel", Host: "host"}, "11 RFC 1436 §3.8"},
		{"0x\tsel\t\t70", Item{Type: '0', Display: "x", Selector: "sel", Port: "70"}, "7 RFC 1436 §3.8"},
		{"0x\tsel\th\tseventy", Item{Type: '0', Display: "x", Selector: "sel", Host: "h", Port: "seventy"}, "9 RFC 1436 §3.8"},
		{"0x\tsel\th\t70000", Item{Type: '0', Display: "x", Selector: "sel", Host: "h", Port: "70000"}, "9 RFC 1436 §3.8"},
		{"\tx\th\t70", Item{Type: '\t'}, "0 RFC 1436 §3.8"},
		{"0x\ts\x00el\th\t70", Item{Type: '0', Display: "x", Selector: "s\x00el", Host: "h", Port: "70"}, "4 RFC 1436 §3.8"},
	} {
		got, err := ParseMenuLine(c.line)
		if got != c.want {
			t.Errorf("ParseMenuLine(%q) = %+v, want %+v", c.line, got, c.want)
		}
		if gotErr := errString(err); gotErr != c.err {
			t.Errorf("ParseMenuLine(%q) error %q (%v), want %q", c.line, gotErr, err, c.err)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	switch e := err.(type) {
	case *MenuError:
		return itoa(e.Offset) + " " + e.Rule
	case *AttrError:
		return itoa(e.Line) + ":" + itoa(e.Offset) + " " + e.Rule
	case *AskError:
		return itoa(e.Line) + ":" + itoa(e.Offset) + " " + e.Rule
	case *ReplyError:
		return itoa(e.Offset) + " " + e.Rule
	case *access.PolicyError:
		return itoa(e.Offset) + " " + e.Rule
	}
	return err.Error()
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// Entries' URLs are written by the builders: gopher (with "?" for an
// ASK item, RFC 1738 §3.4.4), telnet/tn3270 for types 8 and T (RFC 1436
// §3.8: the selector is the login), the URL of an "h" item's "URL:"
// selector, none for "i" and "3".
func TestItemEntry(t *testing.T) {
	for _, c := range []struct {
		line, url, typ string
	}{
		{"0hello\t0/hello.txt\t127.0.0.1\t17070\t+", "gopher://127.0.0.1:17070/00/hello.txt", access.TypeFile},
		{"0form\t0/form\t127.0.0.1\t17070\t?", "gopher://127.0.0.1:17070/00/form%09%09?", access.TypeFile},
		{"1Gopher home\t\tgopher.example.org\t70", "gopher://gopher.example.org/1", access.TypeDirectory},
		{"1sub dir\t/a b\th\t70", "gopher://h/1/a%20b", access.TypeDirectory},
		{"7Search\t/find\th\t7070", "gopher://h:7070/7/find", access.TypeSearch},
		{"8Library\tguest\tlib.example.org\t23", "telnet://guest@lib.example.org/", access.TypeSession},
		{"8Library\t\tlib.example.org\t0", "telnet://lib.example.org/", access.TypeSession},
		{"TMainframe\tibmuser\tmvs.example.org\t2023", "tn3270://ibmuser@mvs.example.org:2023/", access.TypeSession},
		{"hWeb site\tURL:http://www.example.org/a?b\th\t70", "http://www.example.org/a?b", access.TypeLink},
		{"hPage\t/page.html\th\t70", "gopher://h/h/page.html", access.TypeFile},
		{"iinformation\tfake\t(NULL)\t0", "", access.TypeInfo},
		{"3no such item\t\terror.host\t1", "", access.TypeError},
		{"9blob\t9/blob.dat\th\t70\t+", "gopher://h/99/blob.dat", access.TypeFile},
		{"2CSO\t\tcso.example.org\t105", "gopher://cso.example.org:105/2", access.TypeSession},
	} {
		it, err := ParseMenuLine(c.line)
		if err != nil {
			t.Fatalf("%q: %v", c.line, err)
		}
		e := it.Entry()
		if e.URL != c.url || e.Type != c.typ || e.Parts["error"] != nil {
			t.Errorf("%q: entry url %q type %q (error %v), want %q %q", c.line, e.URL, e.Type, e.Parts["error"], c.url, c.typ)
		}
	}
	// A host no builder can write: the entry keeps no URL and says why.
	it, _ := ParseMenuLine("0x\tsel\tbad host\t70")
	if e := it.Entry(); e.URL != "" || e.Parts["error"] == nil {
		t.Errorf("bad host: entry %+v, want no URL and an error", e)
	}
}

// Gopher+ §2.3: +N, +-1, +-2 and the error forms.
func TestParseReplyHeader(t *testing.T) {
	for _, c := range []struct {
		line string
		want replyHeader
		err  string
	}{
		{"+37", replyHeader{true, 37}, ""},
		{"+0", replyHeader{true, 0}, ""},
		{"+-1", replyHeader{true, -1}, ""},
		{"+-2", replyHeader{true, -2}, ""},
		{"--1", replyHeader{false, -1}, ""},
		{"--2", replyHeader{false, -2}, ""},
		{"-12", replyHeader{false, 12}, ""},
		{"+5340 ", replyHeader{true, 5340}, ""},
		{"", replyHeader{}, "0 Gopher+ §2.3"},
		{"Hello", replyHeader{}, "0 Gopher+ §2.3"},
		{"+", replyHeader{OK: true}, "1 Gopher+ §2.3"},
		{"+-3", replyHeader{OK: true}, "1 Gopher+ §2.3"},
		{"+12a", replyHeader{OK: true}, "1 Gopher+ §2.3"},
		{"+1234567890123456789", replyHeader{OK: true}, "1 Gopher+ §2.3"},
		{"+INFO: 0x\ts\th\t70", replyHeader{OK: true}, "1 Gopher+ §2.3"},
	} {
		got, err := parseReplyHeader(c.line)
		if got != c.want || errString(err) != c.err {
			t.Errorf("ParseReplyHeader(%q) = %+v, %q; want %+v, %q", c.line, got, errString(err), c.want, c.err)
		}
	}
}

// RFC 1436 §3.8: a text ends with a lone "." line; servers send it (UMN
// gopherd) or not (pygopherd, gophernicus), and stuff no line. A "."
// line is the end only when the close follows it; lines are delivered
// as sent.
func TestTextReader(t *testing.T) {
	for _, c := range []struct {
		in, out string
		err     string // "" for a clean end
	}{
		{"Hello\r\nworld\r\n.\r\n", "Hello\r\nworld\r\n", ""},
		{"Hello from UMN gopherd.\nSecond line.\n.\r\n", "Hello from UMN gopherd.\nSecond line.\n", ""},
		{"a\n..b\n...\n.\n", "a\n..b\n...\n", ""},
		{"..\r\n.\r\n", "..\r\n", ""},
		{"no terminator\n", "no terminator\n", ""},
		{"no line end", "no line end", ""},
		{"", "", ""},
		{".\r\n", "", ""},
		{".\n", "", ""},
		{".", ".", ""},
		{".\r", ".\r", ""},
		{"x\n.", "x\n.", ""},
		{".x\n.\n", ".x\n", ""},
		{"a. b\n.\n", "a. b\n", ""},
		// A "." line with text after it is text (gophernicus, pygopherd).
		{"inner\n.\n..dots\n", "inner\n.\n..dots\n", ""},
		{"Hello\r\n.\r\n..dots\r\n", "Hello\r\n.\r\n..dots\r\n", ""},
		{".\n.\n", ".\n", ""},
		{".\r\n.\r\n.\r\n", ".\r\n.\r\n", ""},
		{"a\n.\nb", "a\n.\nb", ""},
		{"a\n.\n.", "a\n.\n.", ""},
		{"a\n.\r", "a\n.\r", ""},
		// The first octet "3" is text (a Debian source/format file).
		{"3.0 (native)\n", "3.0 (native)\n", ""},
	} {
		for _, wrap := range []struct {
			name string
			f    func(io.Reader) io.Reader
		}{{"whole", func(r io.Reader) io.Reader { return r }}, {"one octet", iotest.OneByteReader}, {"half", iotest.HalfReader}} {
			got, err := io.ReadAll(newTextReader(wrap.f(strings.NewReader(c.in))))
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if string(got) != c.out || !strings.Contains(gotErr, c.err) || (c.err == "") != (err == nil) {
				t.Errorf("%s %q: %q, %v; want %q, %q", wrap.name, c.in, got, err, c.out, c.err)
			}
		}
	}
}

// Gopher+ §2.5, §2.7 and Appendix I, with UMN gopherd's and pygopherd's
// own forms (captured from the servers).
func TestParseAttributes(t *testing.T) {
	umn := strings.Split("+INFO: 0form\t0/form\t127.0.0.1\t17070\t?\n"+
		"+ADMIN:\n Admin: Test Admin <admin@example.invalid>\n Mod-Date: Mon Nov 23 03:54:14 2026 <20261123035414>\n"+
		"+VIEWS:\n Text/plain En_US: <.2k>\n"+
		"+ASK:\n Note: Please fill in this test form\n Ask: Your name:\tGopher User\n AskP: Secret word:\n Select: Subscribe?:1\n Choose: Colour:\tred\tgreen\tblue\n AskL: Comments:\n"+
		"+INFO: 1subdir\t1/subdir\t127.0.0.1\t17070\t+\n+ADMIN:\n Admin: Test Admin <admin@example.invalid>\n Mod-Date: Mon Nov 23 03:54:14 2026 <20261123035414>\n TTL: 180\n"+
		"+VIEWS:\n application/gopher-menu En_US: <4k>\n application/gopher+-menu En_US: <4k>\n text/html En_US: <4k>\n"+
		"+3D-ICON: 0icon\t/icon\th\t70\n a line\n", "\n")
	attrs, err := ParseAttributes(umn, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(attrs) != 2 {
		t.Fatalf("%d items, want 2", len(attrs))
	}
	f := attrs[0]
	wantAdmin := &Admin{Admin: "Test Admin <admin@example.invalid>", Email: "admin@example.invalid",
		ModDate: time.Date(2026, 11, 23, 3, 54, 14, 0, time.UTC), ModDateText: "Mon Nov 23 03:54:14 2026 <20261123035414>",
		Fields: [][2]string{{"Admin", "Test Admin <admin@example.invalid>"}, {"Mod-Date", "Mon Nov 23 03:54:14 2026 <20261123035414>"}}}
	if !reflect.DeepEqual(f.Admin, wantAdmin) {
		t.Errorf("admin %+v, want %+v", f.Admin, wantAdmin)
	}
	if f.Info.Selector != "0/form" || f.Info.Plus != "?" {
		t.Errorf("info %+v", f.Info)
	}
	if want := []View{{Type: "Text/plain", Language: "En_US", SizeText: "<.2k>", Size: 200}}; !reflect.DeepEqual(f.Views, want) {
		t.Errorf("views %+v, want %+v", f.Views, want)
	}
	wantAsk := []Field{{Kind: "Note", Prompt: "Please fill in this test form"}, {Kind: "Ask", Prompt: "Your name:", Default: "Gopher User"},
		{Kind: "AskP", Prompt: "Secret word:"}, {Kind: "Select", Prompt: "Subscribe?", Default: "1"},
		{Kind: "Choose", Prompt: "Colour:", Choices: []string{"red", "green", "blue"}}, {Kind: "AskL", Prompt: "Comments:"}}
	if !reflect.DeepEqual(f.Ask, wantAsk) {
		t.Errorf("ask %+v, want %+v", f.Ask, wantAsk)
	}
	d := attrs[1]
	if len(d.Views) != 3 || d.Views[1].Name() != "application/gopher+-menu En_US" || d.Views[1].Size != 4000 {
		t.Errorf("directory views %+v", d.Views)
	}
	if b := d.Block("+3D-ICON"); b == nil || b.Value != "0icon\t/icon\th\t70" || b.Text() != "a line" {
		t.Errorf("other block kept as text: %+v", b)
	}
	if d.Admin.Fields[2] != [2]string{"TTL", "180"} {
		t.Errorf("TTL field: %+v", d.Admin.Fields)
	}

	py := strings.Split("+INFO: 0hello.txt\t/hello.txt\t127.0.0.1\t7070\t+\n+ADMIN:\n Admin: Unconfigured Pygopherd Admin <pygopherd@nowhere.nowhere>\n Mod-Date: Mon Nov 23 04:02:53 2026 <20261123040253>\n+VIEWS:\n text/plain: <0k>\n+ABSTRACT:\n This is an abstract for hello\n", "\n")
	attrs, err = ParseAttributes(py, 0)
	if err != nil || len(attrs) != 1 {
		t.Fatalf("pygopherd: %v %d", err, len(attrs))
	}
	if a := attrs[0]; a.Abstract != "This is an abstract for hello" || a.Views[0] != (View{Type: "text/plain", SizeText: "<0k>", Size: 0}) {
		t.Errorf("pygopherd attributes %+v", a)
	}

	for _, c := range []struct {
		lines []string
		max   int
		err   string
	}{
		{[]string{"+ADMIN:", " Admin: x <y>"}, 0, "1:0 Gopher+ §2.5"},
		{[]string{" stray"}, 0, "1:0 Gopher+ §2.5"},
		{[]string{"+INFO: 0x\ts\th\t70", "garbage"}, 0, "2:0 Gopher+ §2.5"},
		{[]string{"+INFO: 0x\ts\th\tport"}, 0, "1:14 Gopher+ A1.0"},
		{[]string{"+INFO: 0x\ts\th\t70", "+BAD+NAME: x"}, 0, "2:0 Gopher+ §2.5"},
		{[]string{"+INFO: 0x\ts\th\t70", "+INFO: 0y\ts\th\t70"}, 1, "2:0 limit"},
		{[]string{"+INFO: 0x\ts\th\t70", "+ASK:", " Bogus: what"}, 0, "1:0 Gopher+ §2.8"},
	} {
		_, err := ParseAttributes(c.lines, c.max)
		if errString(err) != c.err {
			t.Errorf("ParseAttributes(%q) error %q (%v), want %q", c.lines, errString(err), err, c.err)
		}
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"10k": 10000, ".1k": 100, "0k": 0, "45K": 45000, "1.5M": 1500000, "123": 123, "": -1, "k": -1, "1.2.3k": -1, "x": -1, ".": -1, "99999999999999999999G": -1} {
		if got := parseSize(in); got != want {
			t.Errorf("parseSize(%q) = %d, want %d", in, got, want)
		}
	}
}

// Gopher+ §2.8: answers in order, AskL as a count and lines, Note
// unanswered; answers by prompt or position, from Ask, or the default.
func TestFillForm(t *testing.T) {
	fields := []Field{{Kind: "Note", Prompt: "Please fill in this test form"}, {Kind: "Ask", Prompt: "Your name:", Default: "Gopher User"},
		{Kind: "AskP", Prompt: "Secret word:"}, {Kind: "Select", Prompt: "Subscribe?", Default: "1"},
		{Kind: "Choose", Prompt: "Colour:", Choices: []string{"red", "green", "blue"}}, {Kind: "AskL", Prompt: "Comments:"}}
	for _, c := range []struct {
		answers map[string]string
		want    []string
		err     string
	}{
		{map[string]string{"Your name": "Alice", "secret word:": "sesame", "Subscribe?": "yes", "Colour": "green", "Comments": "first\nsecond"},
			[]string{"Alice", "sesame", "1", "green", "2", "first", "second"}, ""},
		{map[string]string{"2": "x", "4": "3", "3": "no", "5": ""}, []string{"Gopher User", "x", "0", "blue", "0"}, ""},
		{map[string]string{"Your name": "Bob"}, nil, "0 RFC 1738 §3.4.5"},
		{map[string]string{"2": "x", "Colour": "purple"}, nil, "0:0 Gopher+ §2.8"},
		{map[string]string{"2": "x", "Subscribe?": "maybe"}, nil, "0:0 Gopher+ §2.8"},
		{map[string]string{"2": "a\rb"}, nil, "0:1 Gopher+ §2.3"},
		{map[string]string{"2": "a\nb"}, nil, "0:1 Gopher+ §2.8"},
		{map[string]string{"2": "."}, nil, "0:0 Gopher+ §2.3"},
		{map[string]string{"2": "x", "Colour": "red", "Comments": "a\n.\nb"}, nil, "0:0 Gopher+ §2.3"},
	} {
		got, err := FillForm(fields, c.answers, nil)
		if !reflect.DeepEqual(got, c.want) || errString(err) != c.err {
			t.Errorf("FillForm(%v) = %q, %q (%v); want %q, %q", c.answers, got, errString(err), err, c.want, c.err)
		}
	}
	// Ask is asked what Answers leave out, Note included, in order.
	var asked []string
	got, err := FillForm(fields, map[string]string{"Colour": "red"}, func(q access.Question) (string, error) {
		asked = append(asked, q.Kind+" "+q.Prompt)
		switch q.Kind {
		case "AskP":
			if !q.Secret {
				t.Errorf("AskP not secret")
			}
			return "pw", nil
		case "AskL":
			return "one line\n", nil
		case "Select":
			return "1", nil
		}
		return "", nil
	})
	if want := []string{"", "pw", "1", "red", "1", "one line"}; !reflect.DeepEqual(got, want) || err != nil {
		t.Errorf("with Ask: %q, %v; want %q", got, err, want)
	}
	if want := []string{"Note Please fill in this test form", "Ask Your name:", "AskP Secret word:", "Select Subscribe?", "AskL Comments:"}; !reflect.DeepEqual(asked, want) {
		t.Errorf("asked %q, want %q", asked, want)
	}
	stop := errors.New("interrupted")
	if _, err := FillForm(fields, nil, func(access.Question) (string, error) { return "", stop }); !errors.Is(err, stop) {
		t.Errorf("Ask's error: %v", err)
	}
	if _, err := FillForm([]Field{{Kind: "ChooseF", Prompt: "File"}}, nil, nil); errString(err) != "0:0 Gopher+ §2.8" {
		t.Errorf("ChooseF: %v", err)
	}
}

func TestParseAsk(t *testing.T) {
	got, err := ParseAsk([]string{"Ask: How many volts?", "Choose: Deliver electric shock to administrator now?\tYes\tNot!", "", "Select: Check\t1", "AskF: Save as:\tout.txt", "ChooseF: Send:"})
	want := []Field{{Kind: "Ask", Prompt: "How many volts?"}, {Kind: "Choose", Prompt: "Deliver electric shock to administrator now?", Choices: []string{"Yes", "Not!"}},
		{Kind: "Select", Prompt: "Check", Default: "1"}, {Kind: "AskF", Prompt: "Save as:", Default: "out.txt"}, {Kind: "ChooseF", Prompt: "Send:"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("ParseAsk = %+v, %v; want %+v", got, err, want)
	}
	for _, c := range []struct {
		lines []string
		err   string
	}{
		{[]string{"Ask: ok", "Question what"}, "2:0 Gopher+ §2.8"},
		{[]string{"Shout: loud"}, "1:0 Gopher+ §2.8"},
		{[]string{"Choose: nothing to choose"}, "1:25 Gopher+ §2.8"},
	} {
		if _, err := ParseAsk(c.lines); errString(err) != c.err {
			t.Errorf("ParseAsk(%q) error %q (%v), want %q", c.lines, errString(err), err, c.err)
		}
	}
}

// Gopher+ §2.3's error data: the code, the administrator, the message;
// code 3 ("item has moved") with the item's new menu line redirects.
func TestPlusError(t *testing.T) {
	x := &exchange{g: &URL{Type: "0"}}
	req := &access.Request{Client: &access.Client{}}
	for _, c := range []struct {
		data string
		want string
	}{
		{"1 Test Admin <admin@example.invalid>\r\n'/x' does not exist!!\r\n", "1|'/x' does not exist!! (administrator: Test Admin <admin@example.invalid>)"},
		{"2 <a@b>\r\nMy load is too high\r\nright now\r\n", "2|My load is too high right now (administrator: <a@b>)"},
		{"1\r\n", "1|"},
		{"", "-|(an error reply with no text)"},
		{"3 0moved\t/new\tnew.example.org\t7070\t+\r\n", "redirect gopher://new.example.org:7070/0/new"},
	} {
		err := x.plusError(strings.NewReader(c.data), req, "gopher://h/0x", "x\t+")
		var got string
		var se *access.ServerError
		var rd *access.Redirect
		switch {
		case errors.As(err, &se):
			got = se.Code + "|" + se.Text
		case errors.As(err, &rd):
			got = "redirect " + rd.Location
		default:
			got = fmt.Sprint(err)
		}
		if got != c.want {
			t.Errorf("%q: %q, want %q", c.data, got, c.want)
		}
	}
}
