package main

import (
	"bufio"
	"flag"
	"fmt"

	"github.com/rfc1738/locator"
)

var encodings = map[string]locator.Encoding{
	"uchar":    locator.EncodeUchar,
	"xchar":    locator.EncodeXchar,
	"user":     locator.EncodeUser,
	"hsegment": locator.EncodeHSegment,
	"fsegment": locator.EncodeFSegment,
	"field":    locator.EncodeField,
}

// plainText is a --json flag that is never set, for commands without one.
var plainText bool

func init() {
	register(&command{
		name:    "encode",
		args:    "[--as uchar|xchar|user|hsegment|fsegment|field|safe] TEXT... (or - for lines of stdin)",
		summary: "percent-encode text for a URL component (RFC 1738 §2.2)",
		flags: func(fs *flag.FlagSet) func(*env, []string) int {
			as := fs.String("as", "uchar", "the component: uchar (only unreserved kept), xchar (reserved kept), user, hsegment, fsegment, field; or safe (encode only unsafe characters, keep existing escapes)")
			return func(e *env, args []string) int {
				if len(args) == 0 {
					return usageError(e, "encode", "no text given")
				}
				enc, ok := encodings[*as]
				if !ok && *as != "safe" {
					return usageError(e, "encode", fmt.Sprintf("unknown component %q for --as", *as))
				}
				w := bufio.NewWriter(e.stdout)
				defer w.Flush()
				st, err := eachInput(e, "encode", args, func(it item) error {
					if *as == "safe" {
						_, err := fmt.Fprintln(w, locator.MakeSafe(it.text))
						return err
					}
					_, err := fmt.Fprintln(w, locator.Escape(it.text, enc))
					return err
				}, blankLine(w, &plainText))
				return finish(e, "encode", exitOK, st, err)
			}
		},
	})
	register(&command{
		name:    "decode",
		args:    "TEXT... (or - for lines of stdin)",
		summary: "decode %XX escapes; report malformed ones with their offset",
		flags: func(fs *flag.FlagSet) func(*env, []string) int {
			return func(e *env, args []string) int {
				if len(args) == 0 {
					return usageError(e, "decode", "no text given")
				}
				w := bufio.NewWriter(e.stdout)
				defer w.Flush()
				status := exitOK
				st, err := eachInput(e, "decode", args, func(it item) error {
					d, derr := locator.Unescape(it.text)
					if derr != nil {
						status = exitNegative
						fmt.Fprintf(e.stderr, "locator decode: %s%q: %s\n", it.where(), it.text, message(derr))
					}
					_, err := fmt.Fprintln(w, d)
					return err
				}, blankLine(w, &plainText))
				return finish(e, "decode", status, st, err)
			}
		},
	})
}
