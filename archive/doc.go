// Package archive keeps what an access.Client fetches as WARC 1.1 files
// (ISO 28500:2017) and gives it back: a Writer is an access.Recorder, a
// Reader an access.Archive.
//
// A Writer writes one gzip member per record (WARC 1.1 Annex D), so that
// a file cut short (a process killed, a disk full) is still read whole
// up to its last whole record, and keeps beside each file a CDXJ index
// (FILE.cdxj, one line per capture: key, timestamp, JSON) so that a
// Reader finds a capture without reading the WARC file through.
//
// What each scheme's record becomes:
//
//   - an exchange (access.RecordExchange: http, gopher, gophers, gemini,
//     nntp, wais, prospero) is a 'request' record of the octets sent and
//     a 'response' record of the octets received (WARC 1.1 §6.4, §6.6),
//     of Content-Type application/http;msgtype=request|response for HTTP
//     (§6.4) and, by the same pattern, application/gopher,
//     application/gemini, application/nntp, ... for the others;
//   - an object (access.RecordResource: ftp, file, a WAIS document) is a
//     'resource' record (§6.5), and the dialogue that fetched it a
//     'metadata' record (§6.3) concurrent to it
//     (text/x-ftp-control-conversation for FTP, as Heritrix and wpull
//     write it);
//   - a payload whose digest was recorded before, with Options.Dedup, is
//     a 'revisit' record of profile identical-payload-digest (§6.7.2).
//
// A WACZWriter packs the WARC files of a Writer, their index and the
// pages fetched into a WACZ file (WACZ 1.2), which a Reader reads as it
// reads WARC files, by ranges of the ZIP file, once its entries are
// checked against its datapackage.json.
//
// Every record names its protocol in WARC-Protocol, the field the IIPC
// proposes for WARC 1.2 (one field per layer, ALPN names: "http/1.1").
package archive
