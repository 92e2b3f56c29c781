package gopher_test

import (
	"fmt"
	"strings"

	"github.com/rfc1738/locator/gopher"
)

func ExampleParseMenuLine() {
	it, _ := gopher.ParseMenuLine("0form\t0/form\t127.0.0.1\t17070\t?")
	u, _ := it.URL()
	fmt.Println(it.Display, it.Plus, u)
	it, _ = gopher.ParseMenuLine("8Library\tguest\tlib.example.org\t23")
	u, _ = it.URL()
	fmt.Println(it.Display, u)
	// Output:
	// form ? gopher://127.0.0.1:17070/00/form%09%09?
	// Library telnet://guest@lib.example.org/
}

func ExampleParseAttributes() {
	a, _ := gopher.ParseAttributes(strings.Split("+INFO: 0hello\t0/hello.txt\th\t70\t+\n+ADMIN:\n Admin: Test Admin <admin@example.invalid>\n Mod-Date: Mon Nov 23 03:54:14 2026 <20261123035414>\n+VIEWS:\n Text/plain En_US: <.1k>", "\n"), 0)
	fmt.Println(a[0].Admin.Email, a[0].Admin.ModDate.Format("2006-01-02 15:04:05"), a[0].Views[0].Name(), a[0].Views[0].Size)
	// Output: admin@example.invalid 2026-11-23 03:54:14 Text/plain En_US 100
}

func ExampleFillForm() {
	fields, _ := gopher.ParseAsk([]string{"Ask: Your name:\tGopher User", "Choose: Colour:\tred\tgreen\tblue", "AskL: Comments:"})
	lines, _ := gopher.FillForm(fields, map[string]string{"Colour": "green", "Comments": "one\ntwo"}, nil)
	fmt.Printf("%q\n", lines)
	// Output: ["Gopher User" "green" "2" "one" "two"]
}
