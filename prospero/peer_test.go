package prospero_test

// Tests against the original Prospero server, dirsrv (Prospero
// Alpha.5.2a as shipped with archie 3.5), built from its sources and run
// on 127.0.0.1 (internal/peer).

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	_ "github.com/rfc1738/locator/ftp"
	"github.com/rfc1738/locator/internal/peer"
	"github.com/rfc1738/locator/prospero"
)

// fixture writes a Prospero tree under a fresh directory R as the
// peer's README says: info-tree with a file and a subdirectory, and a
// shadow .directory#contents that adds links (EXTERNAL links to ftp
// objects) to info-tree.
func fixture(t *testing.T, links string) string {
	t.Helper()
	r := t.TempDir()
	for _, d := range []string{"info-tree/docs", "shadow", "security", "pfsdat"} {
		if err := os.MkdirAll(filepath.Join(r, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(r, "info-tree", "readme.txt"), "hello\n")
	write(t, filepath.Join(r, "info-tree", "docs", "a.txt"), "doc\n")
	write(t, filepath.Join(r, "shadow", r, "info-tree", ".directory#contents"), "VERSION 5\nINCLUDE-NATIVE INCLREAL\n"+links)
	return r
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

type dirsrv struct {
	*peer.Server
	dir, root string
}

// startDirsrv starts dirsrv on a free UDP port of 127.0.0.1 serving r,
// ready when it answers an ARDP request "VERSION".
func startDirsrv(t *testing.T, r string) *dirsrv {
	t.Helper()
	s, dir := peer.Dirsrv(t, r)
	return &dirsrv{Server: s, dir: dir, root: r}
}

// url is the Prospero URL of hsoname on s.
func (s *dirsrv) url(hsoname string, fields ...string) string {
	u := "prospero://" + s.Addr + "/" + hsoname
	for _, f := range fields {
		u += ";" + f
	}
	return u
}

// vls runs the real client on path of the server's tree (the README's
// environment: the virtual system's root is info-tree).
func (s *dirsrv) vls(t *testing.T, args ...string) string {
	t.Helper()
	hp := fmt.Sprintf("127.0.0.1(%d)", s.Port)
	tree := filepath.Join(s.root, "info-tree")
	cmd := exec.Command(filepath.Join(s.dir, "bin", "vls"), args...)
	cmd.Env = append(os.Environ(), "VSROOT_HOST="+hp, "VSROOT_FILE="+tree, "VSWORK_HOST="+hp, "VSWORK_FILE="+tree,
		"VSWORK=/", "VSHOME_HOST="+hp, "VSHOME_FILE="+tree, "VSHOME=/", "VSNAME=test")
	cmd.Stdin = nil
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("vls %v: %v\n%s", args, err, out)
	}
	return string(out)
}

type got struct {
	res *access.Resource
	err error
	log string
}

// fetch follows raw with ac (nil: a new access.Client), to which it
// gives a dialogue log, an idle timeout of 20 seconds when ac has none,
// and a prospero.Client that follows access methods when follow is set.
func fetch(t *testing.T, raw string, ac *access.Client, follow bool) got {
	t.Helper()
	u, err := locator.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if ac == nil {
		ac = &access.Client{}
	}
	var log bytes.Buffer
	ac.Dialogue = &log
	if ac.IdleTimeout == 0 {
		ac.IdleTimeout = 20 * time.Second
	}
	ac.Schemes = map[string]access.Fetcher{"prospero": &prospero.Client{Follow: follow}}
	res, err := ac.Get(context.Background(), u)
	err = listingErr(res, err)
	return got{res, err, log.String()}
}

const readmeLink = "LINK L EXTERNAL README-ftp INTERNET-D ftp.example.org ASCII '/pub/README' 0\n" +
	"ATTRIBUTE CACHED FIELD ACCESS-METHOD SEQUENCE AFTP '' '' '' '' ASCII\n"

// TestDirsrvListingIsVls: a directory's listing (Prospero §LIST) has the
// links vls prints — the same names, kinds (E external, D directory),
// hosts and hsonames — and each entry's URL is the object's own
// Prospero URL, or, for the EXTERNAL link, the directory's URL with
// NAME-COMPONENT, its access method in parts as an ftp URL (RFC 1738
// §3.11: "an AFTP link becomes an ftp URL").
func TestDirsrvListingIsVls(t *testing.T) {
	r := fixture(t, readmeLink)
	s := startDirsrv(t, r)
	tree := filepath.Join(r, "info-tree")
	g := fetch(t, s.url(tree), nil, false)
	if g.err != nil {
		t.Fatalf("%v\n%s", g.err, g.log)
	}
	if g.res.Listing == nil {
		t.Fatal("not a listing")
	}
	var ours []string
	for _, e := range entries(g.res.Listing) {
		kind := " "
		switch {
		case e.Parts["target"] == "EXTERNAL":
			kind = "E"
		case e.Type == access.TypeDirectory:
			kind = "D"
		}
		ours = append(ours, fmt.Sprintf("%s %s %s %s", kind, e.Name, e.Parts["host"], e.Parts["hsoname"]))
	}
	sort.Slice(ours, func(i, j int) bool { return strings.Fields(ours[i][1:])[0] < strings.Fields(ours[j][1:])[0] })
	var theirs []string
	for _, line := range strings.Split(strings.TrimRight(s.vls(t, "/"), "\n"), "\n") {
		f := strings.Fields(line[1:])
		theirs = append(theirs, line[:1]+" "+strings.Join(f, " "))
	}
	if strings.Join(ours, "\n") != strings.Join(theirs, "\n") {
		t.Fatalf("listing\n%s\nvls /\n%s", strings.Join(ours, "\n"), strings.Join(theirs, "\n"))
	}
	if len(ours) != 3 {
		t.Fatalf("%d entries, want 3", len(ours))
	}
	byName := map[string]access.Entry{}
	for _, e := range entries(g.res.Listing) {
		byName[e.Name] = e
	}
	host := fmt.Sprintf("LOCALHOST:%d", s.Port)
	want := map[string]string{
		"README-ftp": s.url(tree, "NAME-COMPONENT=README-ftp"),
		"readme.txt": "prospero://" + host + "/" + tree + "/readme.txt",
		"docs":       "prospero://" + host + "/" + tree + "/docs",
	}
	for name, u := range want {
		if byName[name].URL != u {
			t.Errorf("%s: url %q, want %q", name, byName[name].URL, u)
		}
	}
	if a := fmt.Sprint(byName["README-ftp"].Parts["access"]); a != "[ftp://ftp.example.org/pub/README;type=a]" {
		t.Errorf("README-ftp access %s", a)
	}
	if e := byName["readme.txt"]; e.Type != access.TypeFile || e.Size != 6 || e.Modified.IsZero() {
		t.Errorf("readme.txt: type %s size %d modified %v (SIZE and LAST-MODIFIED)", e.Type, e.Size, e.Modified)
	}
	for _, l := range []string{"> LIST ATTRIBUTES+LEXPAND COMPONENTS", "< VERSION 5 P53.17May94b", "> AUTHENTICATE '' UNAUTHENTICATED "} {
		if !strings.Contains(g.log, l) {
			t.Errorf("dialogue lacks %q:\n%s", l, g.log)
		}
	}
}

var replyNote = regexp.MustCompile(`ARDP: reply of (\d+) packets? \((\d+) octets\), (\d+) acknowledgements? sent`)

// TestDirsrv130Entries: a directory of 130 links comes as a reply of
// more packets than the server's window of 16 (include/ardp.h
// ARDP_DEFAULT_WINDOW_SZ): the server sets the ACK flag on the 16th of
// each window and waits (ARDP octet 11, bit 7), and the listing is whole
// only because the client acknowledges each window.
func TestDirsrv130Entries(t *testing.T) {
	r := fixture(t, "")
	big := filepath.Join(r, "info-tree", "big")
	for i := 1; i <= 130; i++ {
		write(t, filepath.Join(big, fmt.Sprintf("entry-%03d-with-a-name-long-enough-to-fill-packets.txt", i)), strconv.Itoa(i)+"\n")
	}
	s := startDirsrv(t, r)
	g := fetch(t, s.url(big), nil, false)
	if g.err != nil {
		t.Fatalf("%v\n%s", g.err, g.log)
	}
	t.Logf("%s", replyNote.FindString(g.log))
	if n := len(entries(g.res.Listing)); n != 130 {
		t.Fatalf("%d entries, want 130", n)
	}
	m := replyNote.FindStringSubmatch(g.log)
	if m == nil {
		t.Fatalf("no reply note:\n%s", g.log)
	}
	packets, _ := strconv.Atoi(m[1])
	octets, _ := strconv.Atoi(m[2])
	acks, _ := strconv.Atoi(m[3])
	// dirsrv fills each packet with 1250 octets (ARDP_PTXT_LEN) but the last.
	if want := (octets + 1249) / 1250; packets != want {
		t.Errorf("%d packets for %d octets, want %d", packets, octets, want)
	}
	if packets <= 16 {
		t.Fatalf("%d packets: the reply does not exceed the window; make the names longer", packets)
	}
	// One acknowledgement per full window: the server asks at 16, 32, ...
	if acks != packets/16 {
		t.Errorf("%d acknowledgements for %d packets, want %d", acks, packets, packets/16)
	}
	if got := strings.Count(g.log, "* ARDP: acknowledging packets through "); got != acks {
		t.Errorf("%d acknowledgement notes, want %d", got, acks)
	}
	for k := 1; k <= packets/16; k++ {
		if !strings.Contains(g.log, fmt.Sprintf("acknowledging packets through %d\n", 16*k)) {
			t.Errorf("no acknowledgement through %d:\n%s", 16*k, g.log)
		}
	}
	seen := map[string]bool{}
	for _, e := range entries(g.res.Listing) {
		seen[e.Name] = true
	}
	for i := 1; i <= 130; i++ {
		if n := fmt.Sprintf("entry-%03d-with-a-name-long-enough-to-fill-packets.txt", i); !seen[n] {
			t.Errorf("missing %s", n)
		}
	}
}

// TestDirsrvOutcomes: the server's FAILUREs are ServerErrors (exit 1);
// a file's hsoname is answered with its access methods (GET-OBJECT-INFO
// after FAILURE NOT-A-DIRECTORY); a LOCAL access method is shown as a
// file URL and never followed.
func TestDirsrvOutcomes(t *testing.T) {
	r := fixture(t, readmeLink)
	s := startDirsrv(t, r)
	tree := filepath.Join(r, "info-tree")

	g := fetch(t, s.url(tree+"/nothing-here"), nil, false)
	var se *access.ServerError
	if !errors.As(g.err, &se) || se.Code != "NOT-FOUND" || access.Classify(g.err) != access.Absent {
		t.Errorf("missing directory: %v", g.err)
	}

	g = fetch(t, s.url(tree, "NAME-COMPONENT=nothing"), nil, false)
	if !errors.As(g.err, &se) || se.Code != "NONE-FOUND" {
		t.Errorf("missing link: %v\n%s", g.err, g.log)
	}

	g = fetch(t, s.url(tree+"/readme.txt"), nil, false)
	if g.err != nil {
		t.Fatalf("%v\n%s", g.err, g.log)
	}
	var ms []string
	for _, e := range entries(g.res.Listing) {
		ms = append(ms, e.Parts["access-method"].(string)+" "+e.URL)
	}
	if want := "PROSPERO-CONTENTS |LOCAL file://" + tree + "/readme.txt"; strings.Join(ms, "|") != want {
		t.Errorf("access methods %q, want %q", strings.Join(ms, "|"), want)
	}
	if !strings.Contains(g.log, "> GET-OBJECT-INFO #ALL ASCII '"+tree+"/readme.txt' 0") {
		t.Errorf("dialogue:\n%s", g.log)
	}
	g = fetch(t, s.url(tree+"/readme.txt"), nil, true)
	if g.err == nil || !strings.Contains(g.err.Error(), "LOCAL (a file of this machine, never followed") {
		t.Errorf("follow LOCAL: %v", g.err)
	}

	// A link to a Prospero object, named in its directory, is a
	// redirection to the object's own URL, which lists it.
	g = fetch(t, s.url(tree, "NAME-COMPONENT=docs"), nil, false)
	if g.err != nil {
		t.Fatalf("%v\n%s", g.err, g.log)
	}
	if n := len(entries(g.res.Listing)); n != 1 || entries(g.res.Listing)[0].Name != "a.txt" {
		t.Errorf("docs: %+v", entries(g.res.Listing))
	}
	if !strings.Contains(g.log, fmt.Sprintf("* redirect 1 to prospero://LOCALHOST:%d/%s/docs", s.Port, tree)) {
		t.Errorf("dialogue:\n%s", g.log)
	}
}

// TestDirsrvBody: the body of an ftp object reached through an AFTP
// access method, with prospero.Client.Follow (RFC 1738 §3.11), from the ftp
// server named by the link's host(port).
func TestDirsrvFollowAFTP(t *testing.T) {
	ftpd := startPyftpd(t, map[string]string{"pub/README": "the README\r\nof the ftp area\r\n"})
	link := fmt.Sprintf("LINK L EXTERNAL README-ftp INTERNET-D 127.0.0.1(%d) ASCII '/pub/README' 0\n", ftpd.Port) +
		"ATTRIBUTE CACHED FIELD ACCESS-METHOD SEQUENCE AFTP '' '' '' '' ASCII\n"
	r := fixture(t, link)
	s := startDirsrv(t, r)
	tree := filepath.Join(r, "info-tree")
	g := fetch(t, s.url(tree, "NAME-COMPONENT=README-ftp"), nil, true)
	if g.err != nil {
		t.Fatalf("%v\n%s", g.err, g.log)
	}
	defer g.res.Close()
	b, err := io.ReadAll(g.res.Body)
	if err != nil {
		t.Fatal(err)
	}
	// TYPE A: the network's CRLF become the local LF (RFC 959 §3.1.1.1).
	if string(b) != "the README\nof the ftp area\n" {
		t.Errorf("body %q", b)
	}
	want := fmt.Sprintf("* redirect 1 to ftp://127.0.0.1:%d/pub/README;type=a", ftpd.Port)
	if !strings.Contains(g.log, want) || !strings.Contains(g.log, "> RETR README") {
		t.Errorf("dialogue lacks %q or RETR:\n%s", want, g.log)
	}
	if g.res.URL.Scheme() != "ftp" {
		t.Errorf("res.URL %s", g.res.URL)
	}
}

// startPyftpd starts pyftpdlib on loopback serving files (the ftp
// package's tests start it the same way; their helper is not
// importable from here).
func startPyftpd(t *testing.T, files map[string]string) *peer.Server {
	t.Helper()
	peer.RequirePython(t, peer.Python, "pyftpdlib")
	root := filepath.Join(t.TempDir(), "root")
	for p, c := range files {
		write(t, filepath.Join(root, filepath.FromSlash(p)), c)
	}
	return peer.Pyftpdlib(t, root, peer.PyftpdOptions{Ports: 10}).Server
}
