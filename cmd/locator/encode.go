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
				err := eachInput(e, args, func(s string) error {
					if *as == "safe" {
						_, err := fmt.Fprintln(w, locator.MakeSafe(s))
						return err
					}
					_, err := fmt.Fprintln(w, locator.Escape(s, enc))
					return err
				})
				if err != nil {
					fmt.Fprintf(e.stderr, "locator encode: %v\n", err)
					return 1
				}
				return 0
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
				status := 0
				err := eachInput(e, args, func(s string) error {
					d, derr := locator.Unescape(s)
					if derr != nil {
						status = 1
						fmt.Fprintf(e.stderr, "locator decode: %q: %v\n", s, derr)
					}
					_, err := fmt.Fprintln(w, d)
					return err
				})
				if err != nil {
					fmt.Fprintf(e.stderr, "locator decode: %v\n", err)
					return 1
				}
				return status
			}
		},
	})
}
