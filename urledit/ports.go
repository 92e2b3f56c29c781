package urledit

import "github.com/rfc1738/locator"

// otherPorts are the default ports of schemes RFC 1738 does not define,
// as each scheme's own specification (and curl, whose trurl this package
// follows) gives them; the library's own (locator.DefaultPort: RFC 1738
// §3 and https) come first.
var otherPorts = map[string]int{
	"dict":    2628, // RFC 2229
	"ftps":    990,  // RFC 4217
	"imap":    143,  // RFC 5092
	"imaps":   993,  // RFC 8314
	"ldap":    389,  // RFC 4516
	"ldaps":   636,
	"mqtt":    1883,
	"pop3":    110, // RFC 2384 (pop)
	"pop3s":   995,
	"rtsp":    554, // RFC 2326
	"scp":     22,
	"sftp":    22,
	"smb":     445,
	"smbs":    445,
	"smtp":    25,
	"smtps":   465,
	"tftp":    69, // RFC 3617
	"ws":      80, // RFC 6455
	"wss":     443,
	"gophers": 70,
}

// defaultPort returns scheme's default port, or 0 when it has none.
func defaultPort(scheme string) int {
	if p := locator.DefaultPort(scheme); p != 0 {
		return p
	}
	return otherPorts[scheme]
}

// hasOptions reports whether the scheme's login holds options after
// ";" (RFC 5092 §3.2 iauth for IMAP; POP and SMTP as curl reads them).
func hasOptions(scheme string) bool {
	switch scheme {
	case "imap", "imaps", "pop3", "pop3s", "smtp", "smtps":
		return true
	}
	return false
}
