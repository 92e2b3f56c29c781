package news_test

import (
	"fmt"

	"github.com/rfc1738/locator/news"
)

// The configured news server (Client.Server, the command's --nntp-server
// or NNTPSERVER): host[:port], port 119 by default.
func ExampleSplitServer() {
	for _, s := range []string{"news.example.com", "127.0.0.1:1119", "[::1]:1119"} {
		h, p, _ := news.SplitServer(s)
		fmt.Println(h, p)
	}
	// Output:
	// news.example.com 119
	// 127.0.0.1 1119
	// ::1 1119
}
