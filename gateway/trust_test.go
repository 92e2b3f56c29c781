package gateway_test

// The gateway's requests come from other people: the Gemini certificates
// they lead it to trust on first use (Gemini §4.2) are kept in a store of
// its own, in memory, never in the operator's known-hosts file, and each
// server once whatever the spelling of its host (RFC 1738 §3.1, §2.2).

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gateway"
	"github.com/rfc1738/locator/gemini"
	"github.com/rfc1738/locator/internal/peer"
)

// caseSpellings returns n spellings of s, each letter's case chosen by
// the bits of the spelling's number.
func caseSpellings(s string, n int) []string {
	var out []string
	for k := 0; k < n; k++ {
		b := []byte(s)
		bit := 0
		for i, c := range b {
			if 'a' <= c && c <= 'z' {
				if k>>bit&1 == 1 {
					b[i] = c - 'a' + 'A'
				}
				bit++
			}
		}
		out = append(out, string(b))
	}
	return out
}

func TestGatewayTrustStore(t *testing.T) {
	cfgHome := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfgHome)
	t.Setenv("HOME", cfgHome)
	operator := gemini.DefaultKnownHosts()
	if !strings.HasPrefix(operator, cfgHome) {
		t.Fatalf("the operator's known hosts %q are not under %s", operator, cfgHome)
	}
	root := filepath.Join(t.TempDir(), "root")
	write(t, filepath.Join(root, "hello.txt"), "hello, gemini\n", 0o644)
	a := peer.MollyBrown(t, root, peer.MollyConfig{})
	b := peer.MollyBrown(t, root, peer.MollyConfig{})
	var target atomic.Value
	target.Store(a.Addr)
	port := peer.Relay(t, &target)
	p := ":" + strconv.Itoa(port)
	spellings := []string{"127.0.0.1" + p, "[::ffff:127.0.0.1]" + p, "[::FFFF:7F00:1]" + p, "[0:0:0:0:0:ffff:127.0.0.1]" + p, "%31%32%37.0.0.1" + p, "127.0.0.1:0" + p[1:]}
	for _, h := range caseSpellings("localhost", 512) {
		spellings = append(spellings, h+p)
	}
	spellings = append(spellings, "%6Cocalhost"+p, "%4C%4F%43%41%4C%48%4F%53%54"+p)

	store := &gemini.TrustStore{}
	policy := access.Policy{Allow: rules(t, "127.0.0.1"+p, "localhost"+p)}
	gw, log := startGateway(t, gateway.Config{Policy: policy, Schemes: map[string]access.Fetcher{"gemini": &gemini.Client{Trust: store}}})
	for _, s := range spellings {
		res, body := get(t, gw.URL+"/gemini://"+s+"/hello.txt")
		// The handshake passed: molly-brown, whose name is 127.0.0.1
		// and port its own, not the relay's, answers 53, which the
		// gateway passes on as 404.
		if res.StatusCode != 404 || !strings.Contains(body, "No proxying") || strings.Contains(body, "certificate") || strings.Contains(body, "known hosts") {
			t.Fatalf("%s: %d %q\n%s", s, res.StatusCode, body, log)
		}
	}
	if store.Len() != 2 {
		t.Errorf("%d spellings made %d entries, want 2 (127.0.0.1 and localhost)", len(spellings), store.Len())
	}
	if _, err := os.Stat(operator); err == nil {
		t.Errorf("the gateway wrote the operator's %s", operator)
	}

	// Another certificate on the port: refused under every spelling.
	target.Store(b.Addr)
	for _, s := range []string{spellings[0], spellings[1], spellings[5], spellings[6], spellings[7], spellings[len(spellings)-1]} {
		res, body := get(t, gw.URL+"/gemini://"+s+"/hello.txt")
		if res.StatusCode != 502 || !strings.Contains(body, "has changed since it was first trusted") {
			t.Errorf("%s with another certificate: %d %q", s, res.StatusCode, body)
		}
	}

	// Without a store given, the gateway keeps one of its own.
	target.Store(a.Addr)
	gw, log = startGateway(t, gateway.Config{Policy: policy})
	for _, s := range spellings[:8] {
		if res, body := get(t, gw.URL+"/gemini://"+s+"/hello.txt"); res.StatusCode == 502 && strings.Contains(body, "certificate") {
			t.Fatalf("%s: %d %q\n%s", s, res.StatusCode, body, log)
		}
	}
	target.Store(b.Addr)
	if res, body := get(t, gw.URL+"/gemini://"+spellings[1]+"/hello.txt"); res.StatusCode != 502 || !strings.Contains(body, "has changed") {
		t.Errorf("own store, another certificate: %d %q", res.StatusCode, body)
	}
	if _, err := os.Stat(operator); err == nil {
		t.Errorf("the gateway wrote the operator's %s", operator)
	}
}
