//go:build !unix

package telnet

import (
	"os"
	"os/signal"
)

// notifyEnd relays the signals that end a session on a terminal.
func notifyEnd(c chan<- os.Signal) { signal.Notify(c, os.Interrupt) }

// notifyResize: no SIGWINCH here; the size NAWS sent first stays.
func notifyResize(c chan<- os.Signal) {}

func isResize(s os.Signal) bool { return false }
