package file_test

import (
	"fmt"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/file"
)

func ExampleLocalPath() {
	u, _ := locator.Parse("file:///C:/Program%20Files/x.txt")
	w, _ := file.LocalPath(u, file.Windows)
	p, _ := file.LocalPath(u, file.Unix)
	fmt.Println(w)
	fmt.Println(p)
	// Output:
	// C:\Program Files\x.txt
	// /C:/Program Files/x.txt
}

func ExampleFromLocalPath() {
	s, _ := file.FromLocalPath("/home/me/notes; draft.txt", file.Unix)
	fmt.Println(s)
	s, _ = file.FromLocalPath(`\\server\share\a.txt`, file.Windows)
	fmt.Println(s)
	// Output:
	// file:///home/me/notes%3B%20draft.txt
	// file://server/share/a.txt
}

func ExampleURL_Build() {
	u := &file.URL{Host: "vms.host.edu", Path: "/disk$user/my/notes/note12345.txt"}
	s, _ := u.Build()
	fmt.Println(s)
	// Output: file://vms.host.edu/disk$user/my/notes/note12345.txt
}
