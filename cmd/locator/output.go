package main

import (
	"io"

	"github.com/rfc1738/locator/internal/octets"
)

// writeJSON writes rec, a record with json tags, as one line of NDJSON
// by package octets' rule (octets.WriteLine): the `_escaped` sibling of
// a value that is not UTF-8 (docs/cli.md, "Octets that are not UTF-8 in
// --json"), DEL and C1 controls as \u escapes. Every --json subcommand
// writes through it, and the bulk job's records through the same rule.
func writeJSON(w io.Writer, rec any) error { return octets.WriteLine(w, rec) }
