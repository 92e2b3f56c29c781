// Package newsreader is the news-reading client of NNTP (RFC 3977, RFC
// 977) that the nntp and news scheme clients share: a connection that
// sends commands and reads status lines and multi-line data blocks
// within the bounds of an access.Request, the readers of the replies a
// news-reading client gets (GROUP, OVER and XOVER, HEAD, LIST ACTIVE),
// a pool of reader-mode connections kept for probes, and the checks of
// a URL's text that becomes a command's argument.
package newsreader
