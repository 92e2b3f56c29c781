package wais

import (
	"fmt"
	"strings"

	"github.com/rfc1738/locator"
)

// The document-id (docid) a WAIS server returns with each search result
// is opaque to the client: "an opaque object that is used by clients to
// ask for that document from the database sometime in the future"
// (wais-doc-ids.txt, LOCAL_DOC_ID), and RFC 1738 §3.9 has it "treated
// opaquely" as the wpath. It must go back to the server octet for octet
// (freeWAIS puts its own host:port, the database's path and the file's
// path in it).
//
// How the docid is written in a URL:
//
//   - RFC 1738 (primary, what Build writes): wais://h:p/db/wtype/wpath,
//     the wpath the docid's octets with every octet outside unreserved
//     percent-encoded.
//   - The older form CERN's libwww and Lynx wrote (HTWAIS.c), which the
//     1993 draft's WAIS note describes ("the "type" and length of a
//     object ... have been encoded into the path part of the URL"):
//     wais://h:p/db/wtype/length/fields, and draft 03's wpath without the
//     length: wpath = digits "=" value ";" [ wpath ]. Each field is one
//     element of the docid as freeWAIS writes it (ir/docid.c
//     anyFromDocID: tag 1 original server, 2 original database, 3
//     original local id, 4–6 the distributor's, 7 copyright disposition),
//     its number the element's tag and its value the element's octets
//     percent-encoded. Read too.

// The values of DocRef.Form: how a URL wrote its docid.
const (
	FormOpaque = "rfc1738" // the wpath is the docid's octets, encoded
	FormLength = "cern"    // wtype/length/fields, CERN libwww and Lynx
	FormFields = "draft03" // wtype/fields, draft 03's numbered fields
)

// DocRef is a document reference read from a WAIS URL's path.
type DocRef struct {
	Database string
	Type     string
	DocID    []byte
	Form     string // FormOpaque, FormLength or FormFields
	Length   int64  // the CERN form's length, else -1
}

// ParseDocPath reads the encoded url-path of a WAIS document URL,
// database "/" wtype "/" wpath, into the docid to send: the wpath's
// octets decoded, or, when the wpath has the CERN/Lynx form (digits "/"
// fields) or draft 03's field form, the docid those fields stand for. A
// path that is not a document form is a *locator.SchemeError of field
// "path" (the url-path) naming the offset in it and the rule ("waisdoc",
// "wtype" or "wpath").
func ParseDocPath(path string) (*DocRef, error) {
	i := strings.IndexByte(path, '/')
	if i < 0 {
		return nil, schemeError("path", len(path), "waisdoc", "a WAIS document URL is database \"/\" wtype \"/\" wpath (RFC 1738 §3.9)")
	}
	j := strings.IndexByte(path[i+1:], '/')
	if j < 0 {
		return nil, schemeError("path", len(path), "waisdoc", "the \"/\" and wpath after the wtype are missing (RFC 1738 §3.9)")
	}
	j += i + 1
	r := &DocRef{Database: locator.Decode(path[:i]), Type: locator.Decode(path[i+1 : j]), Length: -1}
	wpath := path[j+1:]
	if r.Type == "" {
		return nil, schemeError("path", i+1, "wtype", "the document type is empty")
	}
	// CERN/Lynx: length "/" fields.
	k := 0
	for k < len(wpath) && wpath[k] >= '0' && wpath[k] <= '9' {
		k++
	}
	if k > 0 && k < 19 && k < len(wpath) && wpath[k] == '/' {
		if fs, err := docFields(wpath[k+1:]); err == nil {
			id, err := docIDFromFields(fs)
			if err != nil {
				return nil, schemeError("path", j+1+k+1, "wpath", err.Error())
			}
			var n int64
			fmt.Sscan(wpath[:k], &n)
			r.DocID, r.Form, r.Length = id, FormLength, n
			return r, nil
		}
	}
	if fs, err := docFields(wpath); err == nil {
		id, err := docIDFromFields(fs)
		if err != nil {
			return nil, schemeError("path", j+1, "wpath", err.Error())
		}
		r.DocID, r.Form = id, FormFields
		return r, nil
	}
	if wpath == "" {
		return nil, schemeError("path", j+1, "wpath", "the wpath, the document-id, is empty")
	}
	r.DocID, r.Form = []byte(locator.Decode(wpath)), FormOpaque
	return r, nil
}

// docIDFromFields writes numbered fields as the docid's elements: each
// its number as the tag and its value as the octets (ir/docid.c
// anyFromDocID; zutil.c writeAny).
func docIDFromFields(fs []docField) ([]byte, error) {
	var b []byte
	for _, f := range fs {
		if f.Number >= 1<<28 {
			return nil, fmt.Errorf("field number %d is too large for a docid element's tag", f.Number)
		}
		if len(f.Value) >= 1<<28 {
			return nil, fmt.Errorf("field %d is too long", f.Number)
		}
		b = appendCompressed(b, f.Number)
		b = appendCompressed(b, len(f.Value))
		b = append(b, f.Value...)
	}
	return b, nil
}

// A docIDElement is one element of a docid in freeWAIS's layout (tags 1
// original server, 2 original database, 3 original local id, 4–6 the
// distributor's, 7 copyright disposition; ir/docid.c, wais-doc-ids.txt).
type docIDElement struct {
	Tag   int
	Value []byte
}

// parseDocID reads a docid as freeWAIS writes it, a sequence of tagged
// elements. Another server's docid need not have this layout; the error
// then says where it stops being one. The docid itself is always sent
// back as it came.
func parseDocID(id []byte) ([]docIDElement, error) {
	d := &decoder{apdu: "docid", b: id}
	var es []docIDElement
	for !d.done() {
		tag, val, _, err := d.element()
		if err != nil {
			return nil, err
		}
		es = append(es, docIDElement{Tag: tag, Value: val})
	}
	return es, nil
}
