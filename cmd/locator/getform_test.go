package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/peer"
)

func TestAnswerFlag(t *testing.T) {
	var a answerList
	for _, v := range []string{"Your name=Alice", " Colour =green", "Comments=one\\ntwo", "empty="} {
		if err := a.Set(v); err != nil {
			t.Fatalf("%q: %v", v, err)
		}
	}
	want := answerList{"Your name": "Alice", "Colour": "green", "Comments": "one\ntwo", "empty": ""}
	if !reflect.DeepEqual(a, want) {
		t.Errorf("%q, want %q", a, want)
	}
	for _, v := range []string{"no equals sign", "=value", " =x"} {
		if err := a.Set(v); err == nil {
			t.Errorf("%q accepted", v)
		}
	}
	if code, _, errs := runCLI(t, "", "get", "--ask", "oops", "gopher://h/"); code != 2 || !strings.Contains(errs, "NAME=VALUE") {
		t.Errorf("--ask oops: exit %d %q", code, errs)
	}
}

// The terminal's questions: a note shown, a default taken on an empty
// line, a secret read without echo, several lines up to ".", a choice by
// number after a wrong one.
func TestTerminalAsker(t *testing.T) {
	in := bufio.NewReader(strings.NewReader("\nfirst\nsecond\n.\npurple\n2\nBob\n"))
	var out strings.Builder
	ask := terminalAsker(in, &out, func() (string, error) { return "s3cret", nil })
	var got []string
	for _, q := range []access.Question{
		{Kind: "Note", Prompt: "Please fill in this form"},
		{Kind: "Ask", Prompt: "Your name:", Default: "Gopher User"},
		{Kind: "AskP", Prompt: "Secret word:", Secret: true},
		{Kind: "AskL", Prompt: "Comments:", Lines: true},
		{Kind: "Choose", Prompt: "Colour:", Choices: []string{"red", "green", "blue"}},
		{Kind: "Ask", Prompt: "Other:"},
	} {
		a, err := ask(q)
		if err != nil {
			t.Fatalf("%s: %v", q.Prompt, err)
		}
		got = append(got, a)
	}
	if want := []string{"", "Gopher User", "s3cret", "first\nsecond", "green", "Bob"}; !reflect.DeepEqual(got, want) {
		t.Errorf("answers %q, want %q", got, want)
	}
	for _, s := range []string{"Please fill in this form\n", "Your name: [Gopher User] ", "  2) green\n", `"purple" is none of the choices`} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("prompts lack %q:\n%s", s, out.String())
		}
	}
	if strings.Contains(out.String(), "s3cret") {
		t.Errorf("the secret was echoed")
	}
	// The end of input answers nothing more.
	if _, err := ask(access.Question{Kind: "Ask", Prompt: "More:"}); err == nil {
		t.Errorf("no error at the end of input")
	}
}

// `locator get` on a Gopher+ server (UMN gopherd): --views, --view, and
// an ASK form filled with --ask, its URL printed with --print-url.
func TestGetGopherForm(t *testing.T) {
	data := t.TempDir()
	files := map[string]string{
		"hello.txt": "Hello from UMN gopherd.\n",
		"form.ask":  "Ask: Your name:\tGopher User\nAskP: Secret word:\nChoose: Colour:\tred\tgreen\tblue\nAskL: Comments:\n",
		"form":      "#!/bin/sh\nn=0\nwhile IFS= read -r line; do n=$((n+1)); echo \"line $n: [$line]\"; done\n",
	}
	for name, content := range files {
		mode := os.FileMode(0o644)
		if name == "form" {
			mode = 0o755
		}
		if err := os.WriteFile(filepath.Join(data, name), []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	s := peer.UMNGopherd(t, data)
	base := "gopher://" + s.Addr + "/"

	code, out, errs := runCLI(t, "", "get", "--views", "--json", base+"00/hello.txt")
	var v access.View
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || v != (access.View{Name: "Text/plain En_US", Type: "Text/plain", Language: "En_US", Size: 0}) {
		t.Errorf("--views: exit %d %q %q", code, out, errs)
	}
	code, out, _ = runCLI(t, "", "get", "--views", base+"00/hello.txt")
	if code != 0 || out != "VIEW              SIZE\nText/plain En_US  0\n" {
		t.Errorf("--views table: exit %d %q", code, out)
	}
	code, out, _ = runCLI(t, "", "get", "--view", "Text/plain En_US", base+"00/hello.txt")
	if code != 0 || out != "Hello from UMN gopherd.\n" {
		t.Errorf("--view: exit %d %q", code, out)
	}
	code, out, errs = runCLI(t, "", "get", "--print-url", "--ask", "Your name=Alice", "--ask", "2=sesame", "--ask", "Colour=3",
		"--ask", `Comments=one\ntwo`, base+"00/form%09%09?")
	const url = "00/form%09%09+%091%0D%0A+-1%0D%0AAlice%0D%0Asesame%0D%0Ablue%0D%0A2%0D%0Aone%0D%0Atwo%0D%0A.%0D%0A"
	if code != 0 || out != "line 1: [Alice]\nline 2: [sesame]\nline 3: [blue]\nline 4: [2]\nline 5: [one]\nline 6: [two]\n" || errs != base+url+"\n" {
		t.Errorf("form: exit %d %q %q", code, out, errs)
	}
	// Unanswered and no terminal: refused, exit 4, the question named.
	code, _, errs = runCLI(t, "", "get", base+"00/form%09%09?")
	if code != 4 || !strings.Contains(errs, `the form asks "Secret word:"`) {
		t.Errorf("unanswered form: exit %d %q", code, errs)
	}
	// A gopher URL with a decoded CR: refused before connecting.
	code, _, errs = runCLI(t, "", "get", base+"00/a%0D%0Ab")
	if code != 4 || !strings.Contains(errs, "RFC 1738 §6, at "+strconv.Itoa(len(base+"00/a"))+")") {
		t.Errorf("CR LF: exit %d %q", code, errs)
	}
	// Gopher+ error: exit 1.
	code, _, errs = runCLI(t, "", "get", base+"00/nothing%09%09+")
	if code != 1 || !strings.Contains(errs, "the server says 1 '/nothing' does not exist!!") {
		t.Errorf("missing: exit %d %q", code, errs)
	}
}
