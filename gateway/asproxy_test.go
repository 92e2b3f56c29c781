package gateway_test

// The gateway as the proxy of package access's Client (access.Client.Proxy
// pointing gopher_proxy, ftp_proxy, wais_proxy and news_proxy at it, as
// the CERN library and Lynx do): the whole URL on the request line,
// against real servers on loopback, an object's octets equal to those of
// a direct retrieval (no HTML around them), a listing rendered as its
// page, and the gateway's policy on what it follows.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gateway"
	"github.com/rfc1738/locator/internal/peer"
	"github.com/rfc1738/locator/news"
)

// viaGateway is an access.Client whose URLs of schemes go through the
// gateway at gw (http://ADDR), its dialogue in dia.
func viaGateway(gw string, dia io.Writer, schemes ...string) *access.Client {
	pc := access.ProxyConfig{Proxies: map[string]string{}}
	for _, s := range schemes {
		pc.Proxies[s] = gw
	}
	return &access.Client{Proxy: pc.ProxyFunc(), Dialogue: dia, IdleTimeout: 30 * time.Second}
}

// fetch follows raw with c and reads the object.
func fetch(t *testing.T, c *access.Client, raw string) (*access.Resource, []byte, error) {
	t.Helper()
	u, err := locator.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Get(context.Background(), u)
	if err != nil {
		return nil, nil, err
	}
	defer res.Close()
	if res.Listing != nil {
		return res, nil, errors.New("a listing")
	}
	b, err := io.ReadAll(res.Body)
	return res, b, err
}

// sameThroughGateway fetches raw directly and through the gateway at gw
// for its scheme, and checks that the octets are the same, that the
// request line carried the whole URL and that only the gateway was
// connected to.
func sameThroughGateway(t *testing.T, gw, raw string) {
	t.Helper()
	scheme, _, _ := strings.Cut(raw, ":")
	_, direct, err := fetch(t, &access.Client{IdleTimeout: 30 * time.Second}, raw)
	if err != nil || len(direct) == 0 {
		t.Errorf("%s directly: %d octets, %v", raw, len(direct), err)
		return
	}
	var dia strings.Builder
	res, b, err := fetch(t, viaGateway(gw, &dia, scheme), raw)
	if err != nil {
		t.Errorf("%s through the gateway: %v\n%s", raw, err, dia.String())
		return
	}
	if !bytes.Equal(b, direct) {
		t.Errorf("%s: %d octets through the gateway, %d directly; through it begins %.60q", raw, len(b), len(direct), b)
	}
	if res.Size >= 0 && res.Size != int64(len(b)) {
		t.Errorf("%s: size %d, %d octets", raw, res.Size, len(b))
	}
	gwAddr := strings.TrimPrefix(gw, "http://")
	if !strings.Contains(dia.String(), "> GET "+raw+" HTTP/1.1\n") || strings.Count(dia.String(), "* connect ") != 1 ||
		!strings.Contains(dia.String(), "* connect "+gwAddr+"\n") {
		t.Errorf("%s: dialogue:\n%s", raw, dia.String())
	}
}

func TestAsProxyGopherFTP(t *testing.T) {
	blob := make([]byte, 150_000)
	r := rand.New(rand.NewPCG(7, 70))
	for i := range blob {
		blob[i] = byte(r.UintN(256))
	}
	root := t.TempDir()
	// A text whose lines begin with "." (dot-stuffed on the wire, RFC
	// 1436 §2) and a binary file.
	write(t, filepath.Join(root, "hello.txt"), "Hello through the gateway.\n.dot line\n..two\nend\n", 0o644)
	write(t, filepath.Join(root, "blob.bin"), string(blob), 0o644)
	write(t, filepath.Join(root, "gophermap"), "0Hello\t/hello.txt\n9Blob\t/blob.bin\n", 0o644)
	gs := peer.Gophernicus(t, root)
	fs := startPyftpd(t, map[string]string{"pub/blob.bin": string(blob), "pub/a.txt": "alpha\nbeta\n"}, nil)
	gw, log := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, gs.Addr, fs.Addr)}})

	for _, u := range []string{
		"gopher://" + gs.Addr + "/0/hello.txt",
		"gopher://" + gs.Addr + "/9/blob.bin",
		"ftp://" + fs.Addr + "/pub/blob.bin",
		"ftp://" + fs.Addr + "/pub/a.txt",
		"ftp://" + fs.Addr + "/pub/a.txt;type=a",
	} {
		sameThroughGateway(t, gw.URL, u)
	}
	if !strings.Contains(log.String(), "gopher://"+gs.Addr+"/9/blob.bin") {
		t.Errorf("the gateway's log:\n%s", log.String())
	}

	t.Run("a listing is the gateway's page", func(t *testing.T) {
		res, b, err := fetch(t, viaGateway(gw.URL, nil, "gopher"), "gopher://"+gs.Addr+"/1/")
		if err != nil || !strings.HasPrefix(res.MediaType, "text/html") || !bytes.Contains(b, []byte(`href="http://`)) || !bytes.Contains(b, []byte("Blob")) {
			t.Errorf("%s %v\n%s", res.MediaType, err, b)
		}
	})

	t.Run("the server's refusal comes back as the gateway's", func(t *testing.T) {
		_, _, err := fetch(t, viaGateway(gw.URL, nil, "ftp"), "ftp://"+fs.Addr+"/pub/missing.txt")
		var se *access.ServerError
		if !errors.As(err, &se) || se.Code != "404" || !strings.Contains(se.Rule, "the proxy "+strings.TrimPrefix(gw.URL, "http://")) {
			t.Errorf("%v, want the gateway's 404 naming it", err)
		}
	})

	t.Run("probe: HEAD through the gateway", func(t *testing.T) {
		// pyftpdlib says no size with RETR: the gateway's HEAD, as its
		// GET, counts an object that fits its first buffer.
		u, _ := locator.Parse("ftp://" + fs.Addr + "/pub/a.txt")
		var dia strings.Builder
		st := viaGateway(gw.URL, &dia, "ftp").Probe(context.Background(), u)
		if st.State != access.StateOK || st.Size != int64(len("alpha\nbeta\n")) || !strings.Contains(dia.String(), "> HEAD "+u.String()+" HTTP/1.1\n") {
			t.Errorf("%s size %d (%v)\n%s", st.State, st.Size, st.Err, dia.String())
		}
		u, _ = locator.Parse("ftp://" + fs.Addr + "/pub/missing.txt")
		if st := viaGateway(gw.URL, nil, "ftp").Probe(context.Background(), u); st.State != access.StateGone {
			t.Errorf("missing: %s (%v)", st.State, st.Err)
		}
	})

	t.Run("the gateway's policy: no file, no unlisted host", func(t *testing.T) {
		secret := filepath.Join(t.TempDir(), "secret.txt")
		write(t, secret, "not for the gateway's clients\n", 0o644)
		// A client's proxy function sends no file URL to a proxy
		// (access.ProxyConfig), so it is asked of the gateway on a
		// connection of the test's own, as any HTTP client may ask it:
		// the gateway does not open its disk.
		raw := "file://localhost" + secret
		conn, err := net.Dial("tcp", strings.TrimPrefix(gw.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", raw)
		reply, _ := io.ReadAll(io.LimitReader(conn, 1<<16))
		if !bytes.HasPrefix(reply, []byte("HTTP/1.1 403 ")) || bytes.Contains(reply, []byte("not for")) {
			t.Errorf("%s: the gateway answers %q, want 403", raw, reply)
		}
		raw = "gopher://127.0.0.2:" + strconv.Itoa(gs.Port) + "/0/hello.txt"
		var dia strings.Builder
		_, b, err := fetch(t, viaGateway(gw.URL, &dia, "*"), raw)
		var se *access.ServerError
		if !errors.As(err, &se) || se.Code != "403" || bytes.Contains(b, []byte("not for")) || !strings.Contains(dia.String(), "> GET "+raw+" HTTP/1.1\n") {
			t.Errorf("%s: %v, want the gateway's 403\n%s", raw, err, dia.String())
		}
	})
}

// TestAsProxyWAIS: a WAIS document through the gateway (wais_proxy),
// against freeWAIS-sf's waisserver, equal to a direct retrieval.
func TestAsProxyWAIS(t *testing.T) {
	text := "Wide Area Information Servers use the Z39.50 protocol over TCP.\n"
	ws := peer.FreeWAIS(t, map[string]string{
		"wais.txt":   text,
		"gopher.txt": "The Internet Gopher protocol was developed at the University of Minnesota.\n",
	})
	gw, _ := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, ws.Addr)}})

	// The document's URL (its docid) comes from a direct search.
	u, _ := locator.Parse("wais://" + ws.Addr + "/demo?Z39.50")
	res, err := (&access.Client{IdleTimeout: 30 * time.Second}).Get(context.Background(), u)
	if err != nil || res.Listing == nil {
		t.Fatalf("search: %v", err)
	}
	entries, err := res.Listing.ReadAll()
	if err != nil || len(entries) != 1 {
		t.Fatalf("search: %d entries, %v", len(entries), err)
	}
	sameThroughGateway(t, gw.URL, entries[0].URL)
	_, b, err := fetch(t, viaGateway(gw.URL, nil, "wais"), entries[0].URL)
	if err != nil || string(b) != text {
		t.Errorf("%s: %q %v", entries[0].URL, b, err)
	}
}

// TestAsProxyNews: an article through the gateway (news_proxy,
// nntp_proxy), against INN, equal to a direct retrieval.
func TestAsProxyNews(t *testing.T) {
	in := peer.INN(t)
	id := "<asproxy." + in.Tag + "@locator.test>"
	in.Post(t, "From: tester@locator.test\r\nNewsgroups: "+in.Group+"\r\nSubject: Through the gateway as a proxy\r\nMessage-ID: "+id+"\r\n\r\nHello, proxy reader.\r\n.\r\n..dots\r\n")
	gw, _ := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, in.Addr)}, Schemes: map[string]access.Fetcher{"news": &news.Client{Server: in.Addr}}})
	for _, u := range []string{
		"nntp://" + in.Addr + "/" + in.Group + "/1",
		"news://" + in.Addr + "/" + strings.Trim(id, "<>"),
	} {
		sameThroughGateway(t, gw.URL, u)
	}
}
