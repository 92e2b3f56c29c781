//go:build unix

package telnet

import (
	"os"
	"os/signal"
	"syscall"
)

// notifyEnd relays the signals that end a session on a terminal
// (the terminal is restored first).
func notifyEnd(c chan<- os.Signal) { signal.Notify(c, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP) }

// notifyResize relays a change of the window's size (SIGWINCH), which
// NAWS reports to the service (RFC 1073).
func notifyResize(c chan<- os.Signal) { signal.Notify(c, syscall.SIGWINCH) }

func isResize(s os.Signal) bool { return s == syscall.SIGWINCH }
