package gopher

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator/access"
)

// A Field is one line of a +ASK block (Gopher+ §2.8): a kind, a prompt,
// and a default answer or the choices offered.
//
//	Ask: prompt[TAB default]      one line of text
//	AskP: prompt[TAB default]     one line, not echoed (a password)
//	AskL: prompt[TAB default]     several lines
//	AskF: prompt[TAB default]     a new local file name
//	Choose: prompt TAB choice TAB choice...   one of the choices
//	ChooseF: prompt...            an existing local file to send
//	Select: prompt:0|1            a check box (UMN gopherd writes the default after the last ":")
//	Note: text                    shown, not answered
type Field struct {
	Kind    string
	Prompt  string
	Default string
	Choices []string
}

// askKinds are the kinds Gopher+ §2.8 defines.
var askKinds = []string{"Ask", "AskP", "AskL", "AskF", "Choose", "ChooseF", "Select", "Note"}

// An AskError reports a +ASK line that is not one of Gopher+ §2.8's
// forms, or an answer that cannot be sent.
type AskError struct {
	Line    int // the block's line, from 1; 0 for an answer
	Offset  int
	Rule    string
	Message string
}

func (e *AskError) Error() string {
	s := "gopher+ ASK"
	if e.Line > 0 {
		s += " line " + strconv.Itoa(e.Line)
	}
	return s + ": offset " + strconv.Itoa(e.Offset) + ": " + e.Rule + ": " + e.Message
}

// ParseAsk reads the lines of a +ASK block (each without the block's
// leading space) into fields, in order (Gopher+ §2.8: "The client will
// use all lines in the order they appear"). Empty lines are passed over.
func ParseAsk(lines []string) ([]Field, error) {
	fields := []Field{}
	for n, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		kind, rest, ok := strings.Cut(l, ":")
		kind = strings.TrimSpace(kind)
		known := false
		for _, k := range askKinds {
			if k == kind {
				known = true
			}
		}
		if !ok || !known {
			return nil, &AskError{Line: n + 1, Rule: "Gopher+ §2.8", Message: "a +ASK line begins with Ask:, AskP:, AskL:, AskF:, Choose:, ChooseF:, Select: or Note:, not " + strconv.Quote(trimTo(l, 40))}
		}
		rest = strings.TrimLeft(rest, " ")
		f := Field{Kind: kind}
		parts := strings.Split(rest, "\t")
		f.Prompt = strings.TrimSpace(parts[0])
		switch kind {
		case "Choose", "ChooseF":
			for _, c := range parts[1:] {
				if c != "" {
					f.Choices = append(f.Choices, c)
				}
			}
			if kind == "Choose" && len(f.Choices) == 0 {
				return nil, &AskError{Line: n + 1, Offset: len(l), Rule: "Gopher+ §2.8", Message: "Choose offers its choices after the prompt, separated by TABs; this one offers none"}
			}
		case "Select":
			if len(parts) > 1 {
				f.Default = parts[1]
			} else if i := strings.LastIndexByte(f.Prompt, ':'); i >= 0 {
				if d := strings.TrimSpace(f.Prompt[i+1:]); d == "0" || d == "1" {
					f.Prompt, f.Default = f.Prompt[:i], d
				}
			}
		case "Note":
			f.Prompt = strings.TrimSpace(rest)
		default:
			if len(parts) > 1 {
				f.Default = strings.Join(parts[1:], "\t")
			}
		}
		fields = append(fields, f)
	}
	return fields, nil
}

// Question returns f as access presents it to a person.
func (f Field) Question() access.Question {
	q := access.Question{Kind: f.Kind, Prompt: f.Prompt, Default: f.Default, Choices: f.Choices}
	switch f.Kind {
	case "AskP":
		q.Secret = true
	case "AskL":
		q.Lines = true
	case "Select":
		// A check box: asked as yes or no, which FillForm sends as 1 or 0.
		q.Choices = []string{"yes", "no"}
		switch f.Default {
		case "1":
			q.Default = "yes"
		case "0":
			q.Default = "no"
		}
	}
	return q
}

// key forms of a prompt that an answer may be given by: the prompt as
// written, and without its final ":" or "?" and spaces, compared without
// regard to case.
func promptKey(s string) string {
	return strings.ToLower(strings.TrimRight(strings.TrimSpace(s), ": "))
}

// answerFor returns the answer for field f, the i-th answerable field
// (from 1): from answers (keyed by the prompt, with or without its
// final ":" and in any case, or by the position "1", "2", ...), else
// from ask, else f's default. ok is false when none gives one.
func answerFor(f Field, i int, answers map[string]string, ask func(access.Question) (string, error)) (string, bool, error) {
	for k, v := range answers {
		if promptKey(k) == promptKey(f.Prompt) {
			return v, true, nil
		}
	}
	if v, ok := answers[strconv.Itoa(i)]; ok {
		return v, true, nil
	}
	if ask != nil {
		v, err := ask(f.Question())
		return v, err == nil, err
	}
	if f.Default != "" {
		return f.Default, true, nil
	}
	return "", false, nil
}

// FillForm answers the fields of a +ASK block and returns the lines of
// the data block a Gopher+ client sends (Gopher+ §2.8): one line per
// answered field in order, an AskL answer as its count of lines and the
// lines; a Note is shown through ask (when not nil) and sends nothing.
// Answers come from answers, then ask, then the field's default; a field
// none answers is an *access.PolicyError naming it (RFC 1738 §3.4.5: the
// person fills out the form, and nobody is there to). Select takes 0 or
// 1 (yes/no, true/false, y/n are read as 1/0), Choose one of its choices
// (or its number from 1). An answer that would break the data block (a
// CR, a NUL, an LF outside AskL, or a line that is a lone ".") is an
// *AskError; so is ChooseF, which would send a local file.
func FillForm(fields []Field, answers map[string]string, ask func(access.Question) (string, error)) ([]string, error) {
	var out []string
	n := 0
	for _, f := range fields {
		if f.Kind == "Note" {
			if ask != nil {
				if _, err := ask(f.Question()); err != nil {
					return nil, err
				}
			}
			continue
		}
		n++
		if f.Kind == "ChooseF" {
			return nil, &AskError{Rule: "Gopher+ §2.8", Message: "the form asks for a local file to send (ChooseF " + strconv.Quote(f.Prompt) + "); this client never sends local files"}
		}
		v, ok, err := answerFor(f, n, answers, ask)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, &access.PolicyError{Rule: "RFC 1738 §3.4.5", Reason: "the form asks " + strconv.Quote(f.Prompt) + " (" + f.Kind + ", field " + strconv.Itoa(n) + ") and nothing answers it: give --ask '" + strings.TrimRight(f.Prompt, ": ") + "=VALUE'"}
		}
		badOctet := func(v string) error {
			if i := strings.IndexAny(v, "\r\x00"); i >= 0 {
				return &AskError{Offset: i, Rule: "Gopher+ §2.3", Message: "the answer to " + strconv.Quote(f.Prompt) + " holds a " + ctlName(v[i]) + ", which would break the data block"}
			}
			return nil
		}
		if err := badOctet(v); err != nil {
			return nil, err
		}
		switch f.Kind {
		case "AskL":
			v = strings.TrimSuffix(v, "\n")
			var lines []string
			if v != "" {
				lines = strings.Split(v, "\n")
			}
			for _, l := range lines {
				if l == "." {
					return nil, &AskError{Rule: "Gopher+ §2.3", Message: "a line \".\" in the answer to " + strconv.Quote(f.Prompt) + " would end the data block"}
				}
			}
			out = append(out, strconv.Itoa(len(lines)))
			out = append(out, lines...)
			continue
		case "Select":
			switch strings.ToLower(strings.TrimSpace(v)) {
			case "1", "yes", "y", "true", "on":
				v = "1"
			case "0", "no", "n", "false", "off", "":
				v = "0"
			default:
				return nil, &AskError{Rule: "Gopher+ §2.8", Message: "Select " + strconv.Quote(f.Prompt) + " takes 1 or 0 (yes or no), not " + strconv.Quote(v)}
			}
		case "Choose":
			c, ok := choose(f.Choices, v)
			if !ok {
				return nil, &AskError{Rule: "Gopher+ §2.8", Message: "Choose " + strconv.Quote(f.Prompt) + " takes one of " + strings.Join(f.Choices, ", ") + ", not " + strconv.Quote(v)}
			}
			v = c
			// The choice is the server's text: it must be sendable too.
			if err := badOctet(v); err != nil {
				return nil, err
			}
		}
		if i := strings.IndexByte(v, '\n'); i >= 0 {
			return nil, &AskError{Offset: i, Rule: "Gopher+ §2.8", Message: "the answer to " + strconv.Quote(f.Prompt) + " is one line; only AskL takes several"}
		}
		if v == "." {
			return nil, &AskError{Rule: "Gopher+ §2.3", Message: "the answer \".\" to " + strconv.Quote(f.Prompt) + " would end the data block"}
		}
		out = append(out, v)
	}
	return out, nil
}

// choose returns the choice v names: itself (in any case) or its number
// from 1.
func choose(choices []string, v string) (string, bool) {
	for _, c := range choices {
		if strings.EqualFold(c, strings.TrimSpace(v)) {
			return c, true
		}
	}
	if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n >= 1 && n <= len(choices) {
		return choices[n-1], true
	}
	return "", false
}
