// Command slowloris measures what a slowloris client does to the
// gateway's legitimate clients, on loopback only (bench/slowloris.sh
// runs it).
//
//	slowloris -gateway 127.0.0.1:PORT [-slow 520] [-legit 9] [-timeout 10s]
//
// It first makes -legit requests for the gateway's start page from
// 127.0.0.2, one after another, and reports their latency (median,
// maximum) and how many failed within -timeout; then opens -slow
// connections from 127.0.0.1 that each send a request head one header
// line a second and never end it, opening a connection again (after
// -reconnect) whenever the gateway closes one, and makes the same requests
// from 127.0.0.2 while they hold on. Bounded: every request has
// -timeout, and the slow connections are closed when the second series
// ends.
package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	gw := flag.String("gateway", "", "the gateway's address, a loopback HOST:PORT")
	slow := flag.Int("slow", 520, "slow connections from 127.0.0.1")
	legit := flag.Int("legit", 9, "legitimate requests from 127.0.0.2, in each series")
	timeout := flag.Duration("timeout", 10*time.Second, "bound on each legitimate request")
	again := flag.Duration("reconnect", 100*time.Millisecond, "pause before a slow connection the gateway closed is opened again")
	flag.Parse()
	ap, err := netip.ParseAddrPort(*gw)
	if err != nil || !ap.Addr().IsLoopback() {
		fmt.Fprintln(os.Stderr, "slowloris: -gateway must be a loopback address and port")
		os.Exit(2)
	}
	series("no attack", *gw, *legit, *timeout)

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var open, closed atomic.Int64
	for i := 0; i < *slow; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			attack(*gw, *again, stop, &open, &closed)
		}()
	}
	// Let the slow connections arrive before measuring.
	time.Sleep(3 * time.Second)
	series(fmt.Sprintf("%d slow connections from 127.0.0.1", *slow), *gw, *legit, *timeout)
	fmt.Printf("  slow connections held open at the end: %d; closed by the gateway during the run: %d\n", open.Load(), closed.Load())
	close(stop)
	wg.Wait()
}

// series makes n requests from 127.0.0.2 and prints their latency.
func series(name, gw string, n int, timeout time.Duration) {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}}
	c := &http.Client{Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}, Timeout: timeout}
	var ok []time.Duration
	failed := 0
	for i := 0; i < n; i++ {
		start := time.Now()
		res, err := c.Get("http://" + gw + "/")
		if err == nil {
			_, err = io.Copy(io.Discard, io.LimitReader(res.Body, 1<<20))
			res.Body.Close()
			if err == nil && res.StatusCode != 200 {
				err = fmt.Errorf("status %d", res.StatusCode)
			}
		}
		if err != nil {
			failed++
		} else {
			ok = append(ok, time.Since(start))
		}
		time.Sleep(200 * time.Millisecond)
	}
	sort.Slice(ok, func(i, j int) bool { return ok[i] < ok[j] })
	med, max := "-", "-"
	if len(ok) > 0 {
		med, max = round(ok[len(ok)/2]), round(ok[len(ok)-1])
	}
	fmt.Printf("%-40s legitimate requests: %d ok, %d failed (timeout %s); latency median %s, max %s\n", name+":", len(ok), failed, timeout, med, max)
}

func round(d time.Duration) string {
	if d < time.Millisecond {
		return d.Round(time.Microsecond).String()
	}
	return d.Round(100 * time.Microsecond).String()
}

// attack holds one slow connection open until stop, opening it again
// after pause when the gateway closes it.
func attack(gw string, pause time.Duration, stop <-chan struct{}, open, closed *atomic.Int64) {
	for {
		c, err := net.DialTimeout("tcp", gw, 5*time.Second)
		if err == nil {
			open.Add(1)
			cut := hold(c, stop)
			c.Close()
			open.Add(-1)
			if !cut {
				return
			}
			closed.Add(1)
		}
		select {
		case <-stop:
			return
		case <-time.After(pause):
		}
	}
}

// hold sends a request head a line a second, never ending it; it
// reports true when the gateway closed the connection, false on stop.
func hold(c net.Conn, stop <-chan struct{}) bool {
	dead := make(chan struct{})
	go func() {
		// The gateway closing the connection ends this read.
		c.Read(make([]byte, 1))
		close(dead)
	}()
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: bench\r\n"); err != nil {
		return true
	}
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return false
		case <-dead:
			return true
		case <-t.C:
			c.SetWriteDeadline(time.Now().Add(5 * time.Second))
			if _, err := io.WriteString(c, "X-Slow: a\r\n"); err != nil {
				return true
			}
		}
	}
}
