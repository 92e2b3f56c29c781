// Package urlbeam holds Apache Beam transforms over URLs, built on the
// locator library: parse and judge (a record per URL, the contract of
// `locator parse --json`), normalize, resolve partial forms against a
// base per element, extract URLs from documents (package text), and
// group equivalent URLs (locator.Normalize) with counts.
//
// The transforms are plain functions over PCollections and run on any
// Beam runner: prism in-process, or a portable runner (Flink, Spark,
// Dataflow) through --runner=universal.
package urlbeam

import (
	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/urlrecord"
	_ "github.com/rfc1738/locator/schemes" // every scheme's rules, as the command links them
)

// A Record is one URL judged: the record `locator parse --json` writes
// (docs/cli.md, "locator parse"), made and written by the same code. A nil
// pointer is an absent part. AppendJSON writes its NDJSON line, byte
// for byte the command's, including the `_escaped` siblings of values
// that are not valid UTF-8 (docs/cli.md, "Octets that are not UTF-8 in
// --json").
type Record = urlrecord.Record

// Judge parses in (locator.Parse, every scheme's rules linked in) and
// returns its record. A text that is not a URL gives a record with OK
// false and the parse error's problems; Judge never fails.
func Judge(in string) Record {
	u, err := locator.Parse(in)
	return urlrecord.New(in, u, err)
}

// NewRecord is the record of in, given what locator.Parse returned for
// it: for a caller that needs the parsed URL too.
func NewRecord(in string, u *locator.URL, err error) Record { return urlrecord.New(in, u, err) }
