// Command urlgen writes the bulk tests' generated URL set (internal/urlgen)
// to standard output: urlgen N [SEED].
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/rfc1738/locator/bulk/internal/urlgen"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: urlgen N [SEED]")
		os.Exit(2)
	}
	n, err := strconv.Atoi(os.Args[1])
	seed := uint64(1)
	if len(os.Args) > 2 && err == nil {
		seed, err = strconv.ParseUint(os.Args[2], 10, 64)
	}
	if err != nil || n < 0 {
		fmt.Fprintln(os.Stderr, "urlgen: N and SEED are non-negative integers")
		os.Exit(2)
	}
	if err := urlgen.Write(os.Stdout, n, seed); err != nil {
		fmt.Fprintln(os.Stderr, "urlgen:", err)
		os.Exit(1)
	}
}
