package locator

import "slices"

// A Parser parses URLs into values its caller owns, without allocating:
// Parse's result is written into the caller's URL, and the problem list
// into the Parser's own storage, which each call reuses. So the
// Problems of a URL a Parser made are valid until that Parser's next
// Parse; copy them (or use Parse) to keep them longer. The components,
// Input and String are substrings of the text parsed and stay valid.
//
// A Parser allocates only for what has no room ready: a problem list
// longer than any before it, a message that quotes the input (a port
// number, non-ASCII octets), an upper-case scheme the core does not know,
// the offsets of a URL longer than 65,535 bytes, and the *ParseError of
// an input that does not parse.
//
// The zero Parser is ready to use. A Parser must not be used by two
// goroutines at once.
type Parser struct {
	x extra
	p parser // reused, not cleared: reset sets what a parse reads
}

// Parse parses s as the function Parse does and writes the result into
// *u. On failure *u is the zero URL and the error is a *ParseError.
func (ps *Parser) Parse(u *URL, s string) error {
	p := &ps.p
	p.reset(s)
	if p.core(); p.failed {
		*u = URL{}
		return p.readError(s)
	}
	p.copyOut(u)
	u.x = nil
	ps.x.problems, ps.x.scheme = ps.x.problems[:0], p.scheme
	if p.nroom > 0 || p.scheme != "" {
		ps.x.problems = p.appendProblems(ps.x.problems)
		u.x = &ps.x
	}
	p.longOffsets(u) // not in the Parser's storage, which the next Parse overwrites
	if p.needsRules(u) {
		if p.rules(u, &ps.x); p.failed {
			*u = URL{}
			return p.parseError(s, slices.Clone(ps.x.problems))
		}
	}
	return nil
}

// ParseBatch parses each of inputs as Parse does: urls[i] is what
// inputs[i] parses to, or the zero URL when errs[i] says why it does not;
// errs is nil when every input parses. The URLs are one slice, and their
// problem lists share a few large allocations, so a batch costs a few
// allocations however many URLs it holds; any one URL kept keeps the
// storage of its batch.
func ParseBatch(inputs []string) (urls []URL, errs []error) {
	urls = make([]URL, len(inputs))
	var extras []extra
	var probs []Problem
	p := new(parser)
	for i, s := range inputs {
		p.reset(s)
		p.core()
		var err error
		if p.failed {
			err = p.readError(s)
		} else {
			u := &urls[i]
			p.copyOut(u)
			if n := p.nprobs(); n > 0 || p.scheme != "" || u.f&fLong != 0 {
				if len(extras) == cap(extras) {
					extras = make([]extra, 0, 64)
				}
				if cap(probs)-len(probs) < n {
					probs = make([]Problem, 0, max(512, n))
				}
				k := len(probs)
				probs = p.appendProblems(probs)
				extras = append(extras, extra{problems: probs[k:len(probs):len(probs)], scheme: p.scheme})
				u.x = &extras[len(extras)-1]
			}
			p.longOffsets(u)
			if p.rules(u, nil); p.failed {
				err = p.parseError(s, u.x.problems)
				*u = URL{}
			}
		}
		if err != nil {
			if errs == nil {
				errs = make([]error, len(inputs))
			}
			errs[i] = err
		}
	}
	return urls, errs
}
