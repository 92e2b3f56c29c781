package archive

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/peer"
)

// keyURLs are http(s) URLs whose SURT keys differ in one rule each: an
// IP address (reversed too), ports (the default one dropped), www
// prefixes, query order, case, a final dot, IPv6, escapes.
var keyURLs = []string{
	"http://127.0.0.1:18080/",
	"http://127.0.0.1/a/B.html",
	"https://127.0.0.1:443/x",
	"http://[::1]:8080/a",
	"http://[2001:db8::1]/",
	"http://www.example.com/",
	"http://www2.example.com/path",
	"http://www.com/",
	"http://wwwx.example.com/",
	"https://WWW.Example.COM/Mixed/Case?B=2&a=1",
	"http://example.com:80/",
	"https://example.com:8443/",
	"http://example.com./dot",
	"http://example.com/?b=2&a=1&c",
	"http://example.com/?",
	"http://example.com",
	"http://example.com/a%2Fb%7e?q=%41",
	"http://example.com/path;params?z=1&z=0",
	"http://sub.deep.example.co.uk/x/y/",
	"https://user@example.com/private",
	"http://example.com/a/./b/../c",
	"http://0x7f.1/",
	"HTTP://Example.com/upper-scheme",
}

// keyAsAsked are the URLs whose key follows surt's rules where warcio.js
// does not: it looks for "http:" and "www" before it lowers the URL's
// case, so that a URL written in capitals is its own key, or keeps its
// "www". Their key is warcio's of the URL as a browser asks for it (the
// scheme and host in lower case), which is what ReplayWeb.page looks
// up.
var keyAsAsked = map[string]string{
	"https://WWW.Example.COM/Mixed/Case?B=2&a=1": "https://www.example.com/Mixed/Case?B=2&a=1",
	"HTTP://Example.com/upper-scheme":            "http://example.com/upper-scheme",
}

// TestKeyAsWarcio: the CDXJ key of every http(s) record a Writer writes
// is the SURT key warcio.js computes for it (warcio cdx-index, the
// indexer of ReplayWeb.page's wabac.js), the rules of Python's surt as
// pywb applies them: IP addresses reversed like host names.
func TestKeyAsWarcio(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	cli := filepath.Join(peer.WarcioDir(), "node_modules", "warcio", "dist", "cli.js")
	if _, err := os.Stat(cli); err != nil {
		t.Skipf("warcio is not installed (%s)", cli)
	}
	path := filepath.Join(t.TempDir(), "k.warc.gz")
	var recs = sampleRecords(t)[:0]
	urls := keyURLs
	for _, u := range keyAsAsked {
		urls = append(urls, u)
	}
	for _, u := range urls {
		recs = append(recs, exchange(t, u, "http/1.1", "GET / HTTP/1.1\r\n\r\n", httpResp))
	}
	writeAll(t, path, Options{}, recs)
	out, err := exec.Command(node, cli, "cdx-index", "--format", "json", path).Output()
	if err != nil {
		t.Fatalf("warcio cdx-index: %v", err)
	}
	theirs := map[string]string{} // url -> urlkey
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var e struct{ URLKey, URL string }
		if err := json.Unmarshal([]byte(strings.Replace(l, `"urlkey"`, `"URLKey"`, 1)), &e); err != nil {
			t.Fatalf("warcio printed %q", l)
		}
		theirs[e.URL] = e.URLKey
	}
	ours := map[string]string{}
	if err := readIndex(path+".cdxj", func(e entry) { ours[e.URL] = e.key }); err != nil {
		t.Fatal(err)
	}
	if len(ours) != len(urls) || len(theirs) != len(ours) {
		t.Fatalf("%d records indexed here, %d by warcio, want %d", len(ours), len(theirs), len(urls))
	}
	for u, k := range ours {
		want := theirs[u]
		if asked, ok := keyAsAsked[u]; ok {
			want = theirs[asked]
		}
		if want != k {
			t.Errorf("%s: key %q, warcio's %q", u, k, want)
		}
	}
}

// TestOldIPKeyIndex: an index written before the keys of IP hosts
// followed surt's rule ("127.0.0.1:8080)/x") is still read.
func TestOldIPKeyIndex(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.warc.gz")
	u := "http://127.0.0.1:8080/x"
	writeAll(t, path, Options{}, []*access.Record{exchange(t, u, "http/1.1", "GET /x HTTP/1.1\r\n\r\n", httpResp)})
	idx, err := os.ReadFile(path + ".cdxj")
	if err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(string(idx), "1,0,0,127:8080)/x ", "127.0.0.1:8080)/x ", 1)
	if old == string(idx) {
		t.Fatalf("the index holds no new key:\n%s", idx)
	}
	os.WriteFile(path+".cdxj", []byte(old), 0o644)
	rd, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	rec, err := rd.Lookup(context.Background(), mustParse(t, u))
	if err != nil {
		t.Fatal(err)
	}
	rec.Close()
}
