package gopher_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
)

// A Gopher request is a selector and nothing else (RFC 1436 §2): there
// is no way to ask for an item from an offset, so the gopher client does
// not say Resume when it registers and access.Client.GetFrom refuses a
// gopher URL before any connection, with a *PolicyError of rule
// "resume" that says to fetch the item whole.
func TestGetFromRefusedBeforeConnecting(t *testing.T) {
	if info, ok := access.Lookup("gopher"); !ok || info.Resume {
		t.Fatalf("gopher's Info %+v (registered %v): Resume must stay false", info, ok)
	}
	refused := func(t *testing.T, ac *access.Client, raw string) {
		t.Helper()
		_, err := ac.GetFrom(context.Background(), loctest.MustParse(t, raw), 10)
		var pe *access.PolicyError
		if !errors.As(err, &pe) || pe.Rule != "resume" || access.Classify(err) != access.Forbidden {
			t.Fatalf("GetFrom %s 10: %v, want a PolicyError of rule resume", raw, err)
		}
		// The message names the URL, the rule, the scheme and what to
		// do instead.
		msg := err.Error()
		for _, part := range []string{raw + ": refused by local policy (resume", "gopher", "offset", "fetch it whole"} {
			if !strings.Contains(msg, part) {
				t.Errorf("message %q lacks %q", msg, part)
			}
		}
	}

	t.Run("no server", func(t *testing.T) {
		dialed := 0
		var dlg bytes.Buffer
		ac := &access.Client{Dialogue: &dlg, Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
			dialed++
			return nil, errors.New("no network in this test")
		}}
		refused(t, ac, "gopher://gopher.example.org/0file.txt")
		if dialed != 0 || dlg.Len() != 0 {
			t.Errorf("%d dials, dialogue %q: nothing may be contacted", dialed, dlg.String())
		}
	})

	// Against a real server, the same Client retrieves the item whole
	// (GetFrom at 0 is Get) and refuses it from an offset without a
	// word to the server: the dialogue of the refusal is empty.
	t.Run("UMN gopherd", func(t *testing.T) {
		s, _ := startUMN(t)
		raw := "gopher://" + s.Addr + "/0/hello.txt"
		var dlg bytes.Buffer
		ac := &access.Client{Dialogue: &dlg, IdleTimeout: 20 * time.Second}
		res, err := ac.GetFrom(context.Background(), loctest.MustParse(t, raw), 0)
		if err != nil {
			t.Fatalf("GetFrom 0: %v\n%s", err, dlg.String())
		}
		body, err := io.ReadAll(res.Body)
		res.Close()
		if err != nil || string(body) != "Hello from UMN gopherd.\nSecond line.\n" || !strings.Contains(dlg.String(), "* connect ") {
			t.Fatalf("GetFrom 0: %q %v\n%s", body, err, dlg.String())
		}
		dlg.Reset()
		refused(t, ac, raw)
		if dlg.Len() != 0 {
			t.Errorf("the refusal's dialogue is not empty:\n%s", dlg.String())
		}
	})
}
