package main

// get's flag for gemini URLs: where the certificates trusted on first
// use are kept.

import (
	"flag"

	"github.com/rfc1738/locator/gemini"
)

// geminiOptions are get's flags for gemini URLs.
type geminiOptions struct {
	knownHosts string // --known-hosts FILE
}

func geminiFlags(fs *flag.FlagSet, o *geminiOptions) {
	fs.StringVar(&o.knownHosts, "known-hosts", "", "gemini: keep the certificates trusted on first use in `FILE` instead of ~/.config/locator/known_hosts; a server whose certificate differs from the one kept (and not expired) is refused, both fingerprints named")
}

// client returns the gemini client o configures.
func (o *geminiOptions) client() *gemini.Client {
	return &gemini.Client{KnownHosts: o.knownHosts}
}
