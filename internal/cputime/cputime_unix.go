//go:build unix

package cputime

import "syscall"

// Process returns the CPU time the process has used (user and system),
// in nanoseconds.
func Process() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
