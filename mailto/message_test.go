package mailto

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// RFC 5322 §3.4.1 addr-spec, with RFC 6068 §2's restrictions.
func TestParseAddrSpec(t *testing.T) {
	good := []struct{ in, want string }{
		{"joe@example.com", "joe@example.com"},
		{"bill+ietf@example.org", "bill+ietf@example.org"},                       // RFC 6068 §5
		{"gorby%kremvax@example.com", "gorby%kremvax@example.com"},               // RFC 6068 §6.1
		{"Mike&family@example.org", "Mike&family@example.org"},                   // RFC 6068 §6.1
		{`"not@me"@example.org`, `"not@me"@example.org`},                         // RFC 6068 §6.2
		{`"oh\\no"@example.org`, `"oh\\no"@example.org`},                         // RFC 6068 §6.2
		{`"\\\"it's\ ugly\\\""@example.org`, `"\\\"it's\ ugly\\\""@example.org`}, // RFC 6068 §6.2
		{"user@[192.0.2.1]", "user@[192.0.2.1]"},
		{"user@[IPv6:2001:db8::1]", "user@[IPv6:2001:db8::1]"},
		{"user@納豆.example.org", "user@xn--99zt52a.example.org"}, // RFC 6068 §6.3
		{"a.b.c@d", "a.b.c@d"},
		{`"a b"@c`, `"a b"@c`},
		{strings.Repeat("l", 64) + "@d", strings.Repeat("l", 64) + "@d"},
	}
	for _, tt := range good {
		got, err := ParseAddrSpec(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseAddrSpec(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	bad := []struct {
		in     string
		offset int
		msg    string
	}{
		{"", 0, "empty"},
		{"joe", 3, `the "@" and domain are missing`},
		{"joe@", 4, "the domain is empty"},
		{"@example.com", 0, "the local-part is empty"},
		{".joe@x", 0, "an empty word in the local-part"},
		{"joe.@x", 4, "an empty word in the local-part"},
		{"jo..e@x", 3, "an empty word"},
		{"jo e@x", 2, "space cannot appear in the local-part"},
		{"joe@x y", 5, "space cannot appear in the domain"},
		{"joe@@x", 4, "'@' cannot appear in the domain"},
		{"a@b@c", 3, "'@' cannot appear in the domain"},
		{"(c)joe@x", 0, "'(' cannot appear in the local-part"},  // no comments, RFC 6068 §2 item 3
		{`"a"."b"@x`, 3, "'.' cannot appear in the local-part"}, // obs-local-part, §2 item 2
		{`"abc@x`, 6, "not closed"},
		{"\"a\x01\"@x", 2, "control octet %01 inside a quoted-string"},
		{"jöe@x", 1, "non-ASCII octet %C3 in the local-part: RFC 6068 §2 item 5"},
		{"joe@[1.2.3.4", 12, "not closed"},
		{"joe@[1\\.2]", 6, `'\' is not allowed in a domain literal`},
		{"joe@[1]x", 7, "'x' after the domain literal"},
		{"joe@x..y", 6, "an empty word in the domain"},
		{"joe@x\r\nBcc: y", 5, "control octet %0D cannot appear in the domain"},
		{strings.Repeat("l", 65) + "@d", 64, "at most 64"},
		{"a@" + strings.Repeat("d", 256), 2, "at most 255"},
		{"a@x\u00a0y", 2, "no IDNA form"},
		{"0@\u00ad", 2, `maps to "", which is not a domain`}, // FuzzParseAddrSpec found it
		{"a@x\xff.example", 3, "non-ASCII octet %FF in the domain is not UTF-8"},
	}
	for _, tt := range bad {
		got, err := ParseAddrSpec(tt.in)
		var e *locator.SchemeError
		if !errors.As(err, &e) || e.Offset != tt.offset || !strings.Contains(e.Message, tt.msg) || e.Rule != "addr-spec" {
			t.Errorf("ParseAddrSpec(%q) = %q, %v; want an error at %d containing %q", tt.in, got, err, tt.offset, tt.msg)
		}
	}
}

func mustParse(t testing.TB, s string) *locator.URL {
	t.Helper()
	u, err := locator.Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return u
}

// RFC 6068 §2-4: what a mailto URL's header fields become.
func TestCompose(t *testing.T) {
	tests := []struct {
		url     string
		want    Message
		dropped []string // "name@offset"
	}{
		{"mailto:chris@example.com", Message{To: []string{"chris@example.com"}}, nil},
		{"mailto:infobot@example.com?subject=current-issue", Message{To: []string{"infobot@example.com"}, Subject: "current-issue"}, nil},
		{"mailto:infobot@example.com?body=send%20current-issue%0D%0Asend%20index",
			Message{To: []string{"infobot@example.com"}, Body: "send current-issue\r\nsend index"}, nil},
		{"mailto:list@example.org?In-Reply-To=%3C3469A91.D10AF4C@example.com%3E",
			Message{To: []string{"list@example.org"}, InReplyTo: "<3469A91.D10AF4C@example.com>"}, nil},
		{"mailto:joe@example.com?cc=bob@example.com&body=hello",
			Message{To: []string{"joe@example.com"}, Cc: []string{"bob@example.com"}, Body: "hello"}, nil},
		// §2: the three forms are equivalent; one To.
		{"mailto:addr1@an.example,addr2@an.example", Message{To: []string{"addr1@an.example", "addr2@an.example"}}, nil},
		{"mailto:?to=addr1@an.example,addr2@an.example", Message{To: []string{"addr1@an.example", "addr2@an.example"}}, nil},
		{"mailto:addr1@an.example?to=addr2@an.example", Message{To: []string{"addr1@an.example", "addr2@an.example"}}, nil},
		// §3: duplicates eliminated, the domain without regard to case; To wins over Cc.
		{"mailto:a@x.org?cc=A@X.org,a@X.ORG,b@y&to=a@x.ORG&cc=b@y",
			Message{To: []string{"a@x.org"}, Cc: []string{"A@X.org", "b@y"}}, nil},
		{"mailto:gorby%25kremvax@example.com", Message{To: []string{"gorby%kremvax@example.com"}}, nil},
		{"mailto:unlikely%3Faddress@example.com?blat=foop", Message{To: []string{"unlikely?address@example.com"}}, []string{"blat@38"}},
		{"mailto:%22not%40me%22@example.org", Message{To: []string{`"not@me"@example.org`}}, nil},
		{"mailto:user@example.org?subject=caf%C3%A9&body=caf%C3%A9", Message{To: []string{"user@example.org"}, Subject: "café", Body: "café"}, nil},
		{"mailto:user@%E7%B4%8D%E8%B1%86.example.org?subject=Test&body=NATTO",
			Message{To: []string{"user@xn--99zt52a.example.org"}, Subject: "Test", Body: "NATTO"}, nil},
		// Spaces around list elements; an empty element.
		{"mailto:a@b,%20c@d,?to=,e@f%20", Message{To: []string{"a@b", "c@d", "e@f"}}, nil},
		// Unsafe and ignored fields, reported with their offsets.
		{"mailto:a@b?bcc=c@d&from=x@y&Reply-To=z@w&Content-Type=text/html&resent-to=r@s&x-mailer=m&subject=s&subject=t&keywords=k1&keywords=k2&noeq&=v",
			Message{To: []string{"a@b"}, Subject: "s", Keywords: "k1, k2"},
			[]string{"bcc@11", "from@19", "Reply-To@28", "Content-Type@41", "resent-to@64", "x-mailer@78", "subject@99", "noeq@133", "@138"}},
		{"mailto:a@b?in-reply-to=nonsense&In-Reply-To=%3Cx@y%3E&in-reply-to=%3Cz@w%3E",
			Message{To: []string{"a@b"}, InReplyTo: "<x@y>"}, []string{"in-reply-to@11", "in-reply-to@54"}},
		{"mailto:a@b?body=one&body=two", Message{To: []string{"a@b"}, Body: "one\r\ntwo"}, nil},
		// A line break in the body is the body's own (§5).
		{"mailto:a@b?body=x%0D%0ABcc:%20c@d", Message{To: []string{"a@b"}, Body: "x\r\nBcc: c@d"}, nil},
	}
	for _, tt := range tests {
		m, dropped, err := Compose(mustParse(t, tt.url))
		if err != nil {
			t.Errorf("Compose(%s): %v", tt.url, err)
			continue
		}
		if !reflect.DeepEqual(*m, tt.want) {
			t.Errorf("Compose(%s) =\n%+v, want\n%+v", tt.url, *m, tt.want)
		}
		var got []string
		for _, d := range dropped {
			got = append(got, fmt.Sprintf("%s@%d", d.Name, d.Offset))
			if d.Reason == "" || !strings.Contains(d.Reason, "RFC") {
				t.Errorf("Compose(%s): dropped %s without a reason citing its rule: %q", tt.url, d.Name, d.Reason)
			}
			if name := strings.ToLower(d.Name); name != "" && name != "noeq" && !strings.HasPrefix(strings.ToLower(tt.url[d.Offset:]), name) {
				t.Errorf("Compose(%s): %s's offset %d points at %q", tt.url, d.Name, d.Offset, tt.url[d.Offset:])
			}
		}
		if !reflect.DeepEqual(got, tt.dropped) {
			t.Errorf("Compose(%s) dropped %v, want %v", tt.url, got, tt.dropped)
		}
	}
}

// RFC 6068 §5 and RFC 1738 §6: a CR, LF or NUL outside the body would
// begin a header field the URL smuggles in; refused with its offset.
func TestComposeRefusesInjection(t *testing.T) {
	tests := []struct {
		url    string
		offset int
		what   string
	}{
		{"mailto:a@b?subject=x%0D%0ABcc:c@d", 20, `the "subject" header field`},
		{"mailto:a@b?subject=x%0aBcc:c@d", 20, `the "subject" header field`},
		{"mailto:a@b?x-foo=x%00", 18, `the "x-foo" header field`},
		{"mailto:a@b?bcc=x%0D%0AX:y", 16, `the "bcc" header field`},
		{"mailto:a@b?to=c@d%0D%0ABcc:e@f", 17, `the "to" header field`},
		{"mailto:a@b%0D%0ABcc:c@d", 10, "the address"},
		{"mailto:a@b?sub%0Aject=x", 14, "a header field name"},
		{"mailto:a@b?body=fine%0D%0A&subject=a%0Db", 36, `the "subject" header field`},
	}
	for _, tt := range tests {
		m, _, err := Compose(mustParse(t, tt.url))
		var pe *access.PolicyError
		if !errors.As(err, &pe) || pe.Offset != tt.offset || pe.Rule != "RFC 6068 §5" || !strings.Contains(pe.Reason, tt.what) {
			t.Errorf("Compose(%s) = %v, %v; want a PolicyError at %d about %s", tt.url, m, err, tt.offset, tt.what)
			continue
		}
		if access.Classify(err) != access.Forbidden {
			t.Errorf("Compose(%s): Classify = %d, want Forbidden", tt.url, access.Classify(err))
		}
	}
}

func TestComposeErrors(t *testing.T) {
	tests := []struct {
		url    string
		offset int
		msg    string
	}{
		{"mailto:", 7, "names no recipient"},
		{"mailto:?subject=hi", 7, "names no recipient"},
		{"mailto:joe", 10, `the "@" and domain are missing`},
		{"mailto:a@b,c%20d@e", 12, "space cannot appear in the local-part"},
		{"mailto:a@b?cc=x@y,bad..x@z", 22, "an empty word"},
		{"mailto:a@b?to=%22unclosed@z", 27, "not closed"},
		{"mailto:a@b?subject=%FF", 19, "not UTF-8"},
		{"mailto:a@b?body=ok%C3", 18, "not UTF-8"},
		{"http://a/", 0, "not mailto"},
	}
	for _, tt := range tests {
		m, _, err := Compose(mustParse(t, tt.url))
		var e *locator.SchemeError
		if !errors.As(err, &e) || e.Offset != tt.offset || !strings.Contains(e.Message, tt.msg) {
			t.Errorf("Compose(%s) = %v, %v; want a *locator.SchemeError at %d containing %q", tt.url, m, err, tt.offset, tt.msg)
		}
	}
}

var testDate = time.Date(2026, 11, 23, 6, 0, 0, 0, time.FixedZone("", 3600))

// RFC 5322 §3.6 fields in order, RFC 2045 MIME fields, RFC 2047 words.
func TestBytes(t *testing.T) {
	m := &Message{
		From: "me@example.net", To: []string{"user@example.org"}, Subject: "café",
		Body: "café\n.line\r\n", Date: testDate, MessageID: "<1@example.net>",
	}
	head := "Date: Mon, 23 Nov 2026 06:00:00 +0100\r\n" +
		"From: me@example.net\r\n" +
		"To: user@example.org\r\n" +
		"Subject: =?utf-8?q?caf=C3=A9?=\r\n" +
		"Message-ID: <1@example.net>\r\n" +
		"MIME-Version: 1.0\r\n" +
		"Content-Type: text/plain; charset=utf-8\r\n"
	// RFC 6068 §6.3's example, in quoted-printable without 8BITMIME.
	b, cte, err := m.Bytes(false)
	want := head + "Content-Transfer-Encoding: quoted-printable\r\n\r\ncaf=C3=A9\r\n.line\r\n"
	if err != nil || string(b) != want || cte != QuotedPrintable {
		t.Errorf("Bytes(false) = %q, %s, %v; want\n%q", b, cte, err, want)
	}
	b, cte, err = m.Bytes(true)
	want = head + "Content-Transfer-Encoding: 8bit\r\n\r\ncafé\r\n.line\r\n"
	if err != nil || string(b) != want || cte != EightBit {
		t.Errorf("Bytes(true) = %q, %s, %v; want\n%q", b, cte, err, want)
	}
}

// The body's transfer encoding (RFC 2045 §2.7-2.8, §6.7) and line ends.
func TestBodyEncoding(t *testing.T) {
	long := strings.Repeat("x", 999)
	tests := []struct {
		body     string
		eightBit bool
		want     string
		cte      string
	}{
		{"", false, "", SevenBit},
		{"a", false, "a\r\n", SevenBit},
		{"a\nb\rc\r\nd\n", false, "a\r\nb\r\nc\r\nd\r\n", SevenBit},
		{"\n\n", false, "\r\n\r\n", SevenBit},
		{strings.Repeat("y", 998), false, strings.Repeat("y", 998) + "\r\n", SevenBit},
		{long, true, strings.Repeat("x", 75) + "=\r\n", QuotedPrintable}, // prefix checked below
		{"a\x00b", true, "a=00b\r\n", QuotedPrintable},
		{"é", true, "é\r\n", EightBit},
		{"é", false, "=C3=A9\r\n", QuotedPrintable},
		{"a=b \n", false, "a=b \r\n", SevenBit},
		{"a=b \né", false, "a=3Db=20\r\n=C3=A9\r\n", QuotedPrintable},
	}
	for _, tt := range tests {
		got, cte := encodeBody(tt.body, tt.eightBit)
		if cte != tt.cte || (tt.body == long && !strings.HasPrefix(got, tt.want)) || (tt.body != long && got != tt.want) {
			t.Errorf("encodeBody(%.20q, %v) = %.90q, %s; want %.90q, %s", tt.body, tt.eightBit, got, cte, tt.want, tt.cte)
		}
		for _, l := range strings.Split(strings.TrimSuffix(got, "\r\n"), "\r\n") {
			if len(l) > 998 || strings.ContainsAny(l, "\r\n") {
				t.Errorf("encodeBody(%.20q): line %.40q", tt.body, l)
			}
		}
	}
}

// RFC 5322 §2.2.3 folding and §2.1.1's line lengths.
func TestFolding(t *testing.T) {
	words := strings.TrimSpace(strings.Repeat("lorem ipsum ", 10))
	tests := []struct{ value, want string }{
		{"short", " short"},
		{words, " lorem ipsum lorem ipsum lorem ipsum lorem ipsum lorem ipsum lorem\r\n ipsum lorem ipsum lorem ipsum lorem ipsum lorem ipsum"},
		{"a  b", " a  b"},
		{"   ", "    "},
		{"tab\there", " tab\there"},
		// A word too long for one line: encoded-words of at most 75 octets.
		{strings.Repeat("w", 1000), " " + strings.TrimSuffix(strings.Repeat("=?utf-8?q?"+strings.Repeat("w", 63)+"?=\r\n ", 15), "\r\n ") + "\r\n =?utf-8?q?" + strings.Repeat("w", 55) + "?="},
		{"bell\a", " =?utf-8?q?bell=07?="},
	}
	for _, tt := range tests {
		got := foldText("Subject", tt.value)
		if got != tt.want {
			t.Errorf("foldText(%.30q) =\n%q, want\n%q", tt.value, got, tt.want)
		}
		for i, l := range strings.Split("Subject:"+got, "\r\n") {
			if len(l) > 998 || i > 0 && strings.TrimLeft(l, " \t") == "" {
				t.Errorf("foldText(%.30q): line %d %.40q", tt.value, i, l)
			}
		}
	}
	list := []string{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@example.org", "bbbbbbbbbbbbbbbbbbbb@example.org", "c@d"}
	if got, want := foldList("To", list), " aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@example.org,\r\n bbbbbbbbbbbbbbbbbbbb@example.org, c@d"; got != want {
		t.Errorf("foldList = %q, want %q", got, want)
	}
}

func TestBytesErrors(t *testing.T) {
	ok := Message{From: "a@b", To: []string{"c@d"}}
	tests := []struct {
		edit func(*Message)
		msg  string
	}{
		{func(m *Message) { m.From = "" }, "the sender"},
		{func(m *Message) { m.To = nil }, "no recipient"},
		{func(m *Message) { m.Cc = []string{"x y@z"} }, "a recipient"},
		{func(m *Message) { m.Subject = "a\r\nBcc: x@y" }, "would end it"},
		{func(m *Message) { m.Keywords = "a\nb" }, "would end it"},
		{func(m *Message) { m.Subject = "\xff" }, "not UTF-8"},
		{func(m *Message) { m.InReplyTo = "nope" }, "msg-ids"},
		{func(m *Message) { m.MessageID = "<a@b> <c@d>" }, "not one msg-id"},
		{func(m *Message) { m.Body = "ok\xc3" }, "not UTF-8"},
	}
	for i, tt := range tests {
		m := ok
		tt.edit(&m)
		b, _, err := m.Bytes(true)
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%d: Bytes = %q, %v; want an error containing %q", i, b, err, tt.msg)
		}
	}
}

func TestNewMessageID(t *testing.T) {
	a, b := NewMessageID("me@example.net"), NewMessageID("me@example.net")
	if a == b || !isMsgIDList(a) || !strings.HasSuffix(a, "@example.net>") || len(a) != len("<>@example.net")+32 {
		t.Errorf("NewMessageID: %q, %q", a, b)
	}
}

func ExampleCompose() {
	u, _ := locator.Parse("mailto:joe@example.com?cc=bob@example.com&subject=caf%C3%A9&bcc=eve@example.com&body=hello")
	m, dropped, err := Compose(u)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range dropped {
		fmt.Printf("dropped %s=%s at %d\n", d.Name, d.Value, d.Offset)
	}
	m.From = "me@example.net"
	m.Date = time.Date(2026, 11, 23, 6, 0, 0, 0, time.UTC)
	m.MessageID = "<1@example.net>"
	b, cte, _ := m.Bytes(false)
	fmt.Print(strings.ReplaceAll(string(b), "\r\n", "\n"))
	fmt.Println("(" + cte + ")")
	// Output:
	// dropped bcc=eve@example.com at 60
	// Date: Mon, 23 Nov 2026 06:00:00 +0000
	// From: me@example.net
	// To: joe@example.com
	// Cc: bob@example.com
	// Subject: =?utf-8?q?caf=C3=A9?=
	// Message-ID: <1@example.net>
	// MIME-Version: 1.0
	// Content-Type: text/plain; charset=utf-8
	// Content-Transfer-Encoding: 7bit
	//
	// hello
	// (7bit)
}

func ExampleParseAddrSpec() {
	for _, a := range []string{"user@納豆.example.org", `"not@me"@example.org`, "two..dots@example.org"} {
		fmt.Println(ParseAddrSpec(a))
	}
	// Output:
	// user@xn--99zt52a.example.org <nil>
	// "not@me"@example.org <nil>
	//  mailto: address: offset 4: addr-spec: an empty word in the local-part: a dot at its start or end, or two in a row (RFC 5322 §3.2.3)
}
