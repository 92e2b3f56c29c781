package main

// get's and probe's flags for gemini URLs: where the certificates
// trusted on first use are kept, and the client certificate to present
// (curl's -E/--cert and --key).

import (
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/gemini"
)

// geminiOptions are the flags for gemini URLs.
type geminiOptions struct {
	knownHosts string // --known-hosts FILE
	// -E/--cert FILE and --key FILE, read when the flag is parsed.
	certFile, keyFile string
	certPEM, keyPEM   []byte
}

func geminiFlags(fs *flag.FlagSet, o *geminiOptions) {
	fs.StringVar(&o.knownHosts, "known-hosts", "", "gemini: keep the certificates trusted on first use in `FILE` instead of ~/.config/locator/known_hosts; a server whose certificate differs from the one kept (and not expired) is refused, both fingerprints named")
	cert := "gemini: present the client certificate of the PEM `FILE` to a server that asks for one (Gemini §4.3; one that requires it answers 60 without it), any server of the command, as curl's; its key in FILE too, or in --key"
	fs.Func("E", cert, o.setCert)
	fs.Func("cert", cert+" (the same as -E)", o.setCert)
	fs.Func("key", "gemini: the private key of --cert's certificate, the PEM `FILE`, unencrypted", func(v string) error {
		b, err := os.ReadFile(v)
		if err != nil {
			return err
		}
		o.keyFile, o.keyPEM = v, b
		return o.checkPair()
	})
}

func (o *geminiOptions) setCert(v string) error {
	b, err := os.ReadFile(v)
	if err != nil {
		return err
	}
	o.certFile, o.certPEM = v, b
	return o.checkPair()
}

// checkPair refuses, as soon as both flags are given, a key that is not
// the certificate's: before any connection, not at a server's request.
func (o *geminiOptions) checkPair() error {
	if o.certPEM == nil || o.keyPEM == nil {
		return nil
	}
	_, err := o.pair()
	return err
}

// pair returns the certificate and key of --cert and --key (the key in
// the certificate's file without --key).
func (o *geminiOptions) pair() (tls.Certificate, error) {
	key, keyFile := o.keyPEM, o.keyFile
	if key == nil {
		key, keyFile = o.certPEM, o.certFile
	}
	kp, err := tls.X509KeyPair(o.certPEM, key)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("--cert %s, --key %s: %w", o.certFile, keyFile, err)
	}
	return kp, nil
}

// client returns the gemini client o configures. A --cert that holds
// no key matching it (and no --key), or a --key without --cert, is
// found when a server asks for the certificate: the request it asked in
// fails with the reason.
//
// origin, when not nil, is the URL given: the certificate is presented
// only to its server (host and port), never to another a redirection
// leads to, as -u's credentials are (a client certificate names the
// person); nil presents it to any server that asks (probe, whose URLs
// are each given).
func (o *geminiOptions) client(origin *locator.URL) *gemini.Client {
	g := &gemini.Client{KnownHosts: o.knownHosts}
	if o.certPEM == nil {
		if o.keyPEM != nil {
			g.Certificate = func(*locator.URL) (*tls.Certificate, error) {
				return nil, errors.New("--key " + o.keyFile + " without --cert")
			}
		}
		return g
	}
	kp, err := o.pair()
	g.Certificate = func(u *locator.URL) (*tls.Certificate, error) {
		if origin != nil && !sameServer(u, origin) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		return &kp, nil
	}
	return g
}

// sameServer reports whether u and v name the same server: host (in
// lower case) and effective port.
func sameServer(u, v *locator.URL) bool {
	return strings.EqualFold(u.Host(), v.Host()) && u.EffectivePort() == v.EffectivePort()
}
