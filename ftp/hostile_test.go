package ftp_test

// Failure cases that need a peer that misbehaves: a control connection
// that stalls, a reply line or a multi-line reply without end, a listing
// or a file without end, a PASV reply that names a third host. The
// listener here is written for these failures only; the protocol's
// correctness is tested against real servers (peer_test.go,
// vsftpd_test.go).

import (
	"bufio"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
)

// hostile listens on 127.0.0.1 and runs serve on each connection until
// the test ends.
func hostile(t *testing.T, serve func(c net.Conn)) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				serve(c)
			}()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return l.Addr().String()
}

// flood writes s to c until the client goes away.
func flood(c net.Conn, s string) {
	b := []byte(strings.Repeat(s, 4096/len(s)+1))
	for {
		if _, err := c.Write(b); err != nil {
			return
		}
	}
}

// scripted answers the login and FEAT, opens passive listeners for EPSV
// (or PASV with the address pasv, when EPSV is refused), and serves
// data for RETR, NLST and LIST with the function given. With pasv
// "final=REPLY", EPSV is served and REPLY ends each RETR after its data.
func scripted(t *testing.T, pasv string, data func(verb string, c net.Conn)) func(net.Conn) {
	return func(c net.Conn) {
		br := bufio.NewReader(c)
		fmt.Fprint(c, "220 hostile\r\n")
		var dl net.Listener
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			verb, _, _ := strings.Cut(strings.TrimRight(line, "\r\n"), " ")
			switch verb {
			case "USER":
				fmt.Fprint(c, "230 in\r\n")
			case "CWD", "TYPE":
				fmt.Fprint(c, "250 ok\r\n")
			case "EPSV":
				if pasv != "" && !strings.HasPrefix(pasv, "final=") {
					fmt.Fprint(c, "502 no EPSV\r\n")
					continue
				}
				dl, _ = net.Listen("tcp", "127.0.0.1:0")
				fmt.Fprintf(c, "229 Extended (|||%d|)\r\n", dl.Addr().(*net.TCPAddr).Port)
			case "PASV":
				dl, _ = net.Listen("tcp", "127.0.0.1:0")
				p := dl.Addr().(*net.TCPAddr).Port
				fmt.Fprintf(c, "227 Entering Passive Mode (%s,%d,%d)\r\n", pasv, p/256, p%256)
			case "RETR", "NLST", "LIST":
				fmt.Fprint(c, "150 here it comes\r\n")
				dc, err := dl.Accept()
				dl.Close()
				if err != nil {
					return
				}
				go func() {
					defer dc.Close()
					data(verb, dc)
					if verb == "RETR" && strings.HasPrefix(pasv, "final=") {
						dc.Close()
						fmt.Fprint(c, pasv[len("final="):]+"\r\n")
					}
				}()
			case "ABOR":
				fmt.Fprint(c, "426 cut\r\n226 aborted\r\n")
			case "QUIT":
				fmt.Fprint(c, "221 bye\r\n")
				return
			default:
				fmt.Fprint(c, "502 no\r\n")
			}
		}
	}
}

func TestHostile(t *testing.T) {
	stall := hostile(t, func(c net.Conn) { c.Read(make([]byte, 1)) })
	longLine := hostile(t, func(c net.Conn) { c.Write([]byte("220 ")); flood(c, "a") })
	endless := hostile(t, func(c net.Conn) { flood(c, "220-more\r\n") })
	notFTP := hostile(t, func(c net.Conn) { fmt.Fprint(c, "SSH-2.0-OpenSSH_9.2\r\n") })
	endlessList := hostile(t, scripted(t, "", func(verb string, c net.Conn) { flood(c, "entry\r\n") }))
	endlessEntry := hostile(t, scripted(t, "", func(verb string, c net.Conn) { flood(c, "x") }))
	endlessFile := hostile(t, scripted(t, "", func(verb string, c net.Conn) { flood(c, "data") }))
	failAfterData := hostile(t, scripted(t, "final=451 Requested action aborted: local error in processing", func(verb string, c net.Conn) { c.Write([]byte("partial")) }))
	pasvElsewhere := hostile(t, scripted(t, "10,9,8,7", func(verb string, c net.Conn) {}))
	badEPSV := hostile(t, func(c net.Conn) {
		br := bufio.NewReader(c)
		fmt.Fprint(c, "220 hi\r\n")
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			if strings.HasPrefix(line, "EPSV") {
				fmt.Fprint(c, "229 Extended (|||99999|)\r\n")
			} else {
				fmt.Fprint(c, "230 ok\r\n")
			}
		}
	})

	cases := []struct {
		name, url string
		client    *access.Client
		want      string
	}{
		{"stalled control connection", "ftp://" + stall + "/f", &access.Client{IdleTimeout: 300 * time.Millisecond}, "i/o timeout"},
		{"reply line without end", "ftp://" + longLine + "/f", &access.Client{MaxLine: 1024}, "a reply line longer than 1024 octets"},
		{"multi-line reply without end (RFC 959 §4.2)", "ftp://" + endless + "/f", nil, "a multi-line reply (RFC 959 §4.2) of more than 1000 lines"},
		{"not an FTP server", "ftp://" + notFTP + "/f", nil, `not an FTP reply (RFC 959 §4.2: three digits, then a space or "-"): "SSH-2.0-OpenSSH_9.2"`},
		{"listing line without end", "ftp://" + endlessEntry + "/d/", &access.Client{MaxLine: 4096}, "a reply line longer than 4096 octets"},
		{"listing without end, bounded by MaxSize", "ftp://" + endlessList + "/d/", &access.Client{MaxSize: 1 << 16, MaxEntries: 1 << 20}, "larger than the size limit"},
		{"file without end, bounded by MaxSize", "ftp://" + endlessFile + "/f.bin", &access.Client{MaxSize: 1 << 20}, "larger than the size limit"},
		{"a 451 after the data", "ftp://" + failAfterData + "/f.bin", nil, `the transfer failed: the server says 451 Requested action aborted: local error in processing after the data of "RETR f.bin"`},
		{"PASV names a third host (RFC 2577 §3)", "ftp://" + pasvElsewhere + "/f.bin", nil, "PASV reply names 10.9.8.7, not the control connection's host 127.0.0.1; refused"},
		{"EPSV port out of range", "ftp://" + badEPSV + "/f.bin", nil, `malformed EPSV reply (RFC 2428 §3: "(|||port|)"): "Extended (|||99999|)"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := get(t, c.url, c.client)
			if r.err == nil || !strings.Contains(r.err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q\n%s", r.err, c.want, tail(r.dialog))
			}
			if got := access.Classify(r.err); got != access.Failed {
				t.Errorf("outcome %d, want Failed (%v)", got, r.err)
			}
			if c.name == "stalled control connection" && !access.Timeout(r.err) {
				t.Errorf("access.Timeout(%v) = false", r.err)
			}
		})
	}

	t.Run("listing without end, bounded by MaxEntries", func(t *testing.T) {
		r := get(t, "ftp://"+endlessList+"/d/", &access.Client{MaxEntries: 500})
		if r.err != nil {
			t.Fatalf("%v\n%s", r.err, tail(r.dialog))
		}
		if !truncated(r.res.Listing) || len(entries(r.res.Listing)) != 1 {
			// Every line names "entry": one entry, the repeats dropped.
			t.Errorf("Truncated %v, %d entries; want a truncated listing of 1 distinct entry", truncated(r.res.Listing), len(entries(r.res.Listing)))
		}
		if n := strings.Count(r.dialog, "* listing truncated at 500 entries (MaxEntries)"); n != 2 {
			t.Errorf("%d truncation notes, want 2 (NLST, then LIST)\n%s", n, tail(r.dialog))
		}
	})
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}
