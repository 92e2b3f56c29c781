// Package cputime reads the CPU time the process has used, for the
// benchmarks' cpu-ns/URL: on a machine shared with other work, the
// clock's time measures the load as much as the code.
package cputime
