package newsreader

import (
	"io"
	"net/mail"
	"time"

	"github.com/rfc1738/locator/access"
)

// Entry returns the listing entry of an article's overview, without its
// URL (the scheme's builder writes it): Name is the subject, Size the
// ":bytes", Modified the Date header when it reads as a date (RFC 5322
// §3.3), and Parts the number, from, date, message-id and lines.
func Entry(o Overview) access.Entry {
	e := access.Entry{Name: o.Subject, Type: access.TypeArticle, Size: o.Bytes, Modified: ParseDate(o.Date),
		Parts: map[string]any{"number": o.Number, "from": o.From, "date": o.Date, "message-id": o.MessageID}}
	if o.Lines >= 0 {
		e.Parts["lines"] = o.Lines
	}
	return e
}

// ParseDate reads a Date header (RFC 5322 §3.3, RFC 5536 §3.1.1), or
// returns the zero time.
func ParseDate(s string) time.Time {
	t, err := mail.ParseDate(s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

// Body returns d as the body of a Resource: closing it sends QUIT when
// the article was read to its end, and closes the connection.
func (c *Conn) Body(d *DotReader) io.ReadCloser { return &body{d: d, c: c} }

type body struct {
	d *DotReader
	c *Conn
}

func (b *body) Read(p []byte) (int, error) { return b.d.Read(p) }

func (b *body) Close() error {
	if b.d.Done() {
		return b.c.Quit()
	}
	return b.c.Close()
}
