// Package schemes links in the rules of every scheme package (ftp, http,
// gopher, mailto, news, nntp, telnet, wais, file, prospero, the names
// RFC 1738 §4 reserves, and the two added as §4 foresees: gophers and
// gemini). Import it for its side effect:
//
//	import _ "github.com/rfc1738/locator/schemes"
//
// after which locator.Parse applies each scheme's own rules and
// locator.Lookup returns them. Each scheme has one file here that imports
// its package.
package schemes
