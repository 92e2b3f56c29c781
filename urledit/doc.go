// Package urledit edits URLs component by component, as the command
// "locator url" does: it reads a URL (or builds one from components),
// sets, appends to, trims and replaces its components, and writes the
// result in its normal form, read back with every scheme's rules so that
// what it writes conforms to RFC 1738 or the edit fails with the offset
// and the rule that the result breaks. Its operations are those of curl's
// trurl, over this module's parser and builders, plus the parts RFC 1738
// §3 gives each scheme (an ftp typecode, a gopher selector, a news
// group), which the scheme package's builder writes.
//
// The components are trurl's: scheme, user, password, options (IMAP's,
// RFC 5092), host, port, path, query, fragment and zoneid, and "url" for
// the whole. A scheme's own parts are named after its package's fields
// (Parts lists them): "cwd", "name" and "typecode" of ftp; "type",
// "selector", "search" and "plus" of gopher; "group" and "article" of
// news and nntp; "database", "search", "wtype" and "wpath" of wais;
// "hsoname" and "fields" of prospero; "address" of mailto. Telnet, http,
// https and file URLs have only the generic components.
//
// Readings that differ from trurl's, and why:
//
//   - A URL that does not conform is written all the same, as trurl
//     writes it, and Result.Violations names the offset and rule it
//     breaks: a host is a hostname or a hostnumber of four decimal groups
//     (RFC 1738 §3.1), so "10.1" and an IPv6 literal (RFC 2732) are kept
//     as written, not rewritten, and noted; an http URL carries no user
//     name or password (§3.3). What is no URL at all is refused.
//   - The normal form is the library's (locator.Normalize): a host in
//     lower case and in ASCII (an internationalized name as its A-label),
//     escapes with upper-case hex digits, an escape of an unreserved
//     character decoded, an escape of a reserved one kept (RFC 1738 §2.2).
//   - The query is the search part of the schemes that have one (http,
//     https, wais, and schemes RFC 1738 does not define). In ftp, gopher,
//     news, nntp, file, telnet and prospero URLs a "?" is data of the path
//     (mailto's headers after "?" are RFC 2368's, which the mailto rules
//     refuse).
//   - An http or https query (or one of a scheme RFC 1738 does not define)
//     is read as pairs of key and value the way HTML forms and the 1993 URL
//     draft's search ("xalphas [ + search ]") read it: "+" is a space, so
//     an escaped space is written "+"; empty pairs are dropped.
//   - A value shown decoded never holds a control character: an octet that
//     cannot be shown as text stays an escape (RFC 1738 §2.2: URLs are
//     written with graphic characters, and "the octets 00-1F and 7F
//     hexadecimal represent control characters; these must be encoded").
package urledit
