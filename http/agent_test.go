package http

import (
	"crypto/tls"
	nethttp "net/http"
	"reflect"
	"testing"

	"github.com/rfc1738/locator"
)

// TestWithAgent: WithAgent's Client is configured as the one asked, every
// exported field kept, and names the agent in its User-Agent (RFC 9110
// §10.1.5) unless the Header names one; the Client asked is not changed.
func TestWithAgent(t *testing.T) {
	origin, _ := locator.Parse("http://example.org/")
	c := &Client{TLSConfig: &tls.Config{ServerName: "x"}, Header: nethttp.Header{"Accept": {"text/html"}}, User: "u", Password: "p",
		AuthOrigin: origin, Data: []byte("a=b"), Compressed: true, ErrorBody: true, Method: "PUT", OnReply: func(Reply) {}}
	n := c.WithAgent("bot (RFC 1738 crawler)").(*Client)
	if got := n.Header.Get("User-Agent"); got != "bot (RFC 1738 crawler)" || n.Header.Get("Accept") != "text/html" {
		t.Errorf("header %v", n.Header)
	}
	if c.Header.Get("User-Agent") != "" {
		t.Errorf("the Client asked was changed: %v", c.Header)
	}
	cv, nv := reflect.ValueOf(c).Elem(), reflect.ValueOf(n).Elem()
	for i := 0; i < cv.NumField(); i++ {
		f := cv.Type().Field(i)
		if !f.IsExported() || f.Name == "Header" {
			continue
		}
		if cv.Field(i).IsZero() {
			t.Fatalf("the test leaves %s zero: set it", f.Name)
		}
		if f.Type.Kind() == reflect.Func {
			if nv.Field(i).IsNil() {
				t.Errorf("%s not kept", f.Name)
			}
			continue
		}
		if !reflect.DeepEqual(cv.Field(i).Interface(), nv.Field(i).Interface()) {
			t.Errorf("%s not kept: %v", f.Name, nv.Field(i).Interface())
		}
	}
	own := (&Client{Header: nethttp.Header{"User-Agent": {"mine"}}}).WithAgent("bot").(*Client)
	if own.Header.Get("User-Agent") != "mine" {
		t.Errorf("a configured User-Agent replaced: %v", own.Header)
	}
}
