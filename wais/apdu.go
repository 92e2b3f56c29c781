package wais

// The Z39.50-1988 APDUs as WAIS uses them (wais-protspec.txt, the WAIS
// Interface Protocol Prototype Functional Specification 1.5, and the WAIS
// Protocol Users Manual wais-waisprot.txt). Where the two texts and the
// code differ, the layout here is the code's, read in freeWAIS-sf 2.2.10
// (ir/zutil.c, ir/zprot.c, ir/wprot.c, ir/ztype1.c, ir/ui.c); no code was
// copied from it.
//
// Encoding, as zutil.c writes it (not BER):
//
//   - a compressed integer is big-endian groups of 7 bits, every octet but
//     the last with its high bit set (Z39.50-1988 p. 40; zutil.c
//     writeCompressedInteger);
//   - a data element is a tag (a compressed integer), a length (a
//     compressed integer) and that many octets (writeAny); a number is a
//     data element whose octets are a big-endian binary integer of 1–4
//     octets (writeNum); a string is one without its NUL (writeString);
//   - an APDU begins with a two-octet Header-Length-Indicator, the length
//     of the APDU's own fields after it, then the PDU type (one octet),
//     the fixed fields, the tagged optional fields; the WAIS "user
//     information" follows, outside that length (wais-protspec.txt
//     Appendix B; zprot.c writeInitAPDU).

import (
	"fmt"
	"strconv"
	"strings"
)

// PDU types (wais-protspec.txt Appendix B; zutil.h).
const (
	pduInit           = 20
	pduInitResponse   = 21
	pduSearch         = 22
	pduSearchResponse = 23
)

// Data tags: Z39.50-1988's (zutil.h) and WAIS's (wais-protspec.txt §5.1,
// wprot.h), and the Type-1 query's (ztype1.h).
const (
	tagReferenceID            = 2
	tagProtocolVersion        = 3
	tagOptions                = 4
	tagPreferredMessageSize   = 5
	tagMaximumRecordSize      = 6
	tagIDAuthentication       = 7
	tagImplementationID       = 8
	tagImplementationName     = 9
	tagImplementationVersion  = 10
	tagUserInformationField   = 11
	tagResultSetName          = 17
	tagDatabaseNames          = 18
	tagElementSetNames        = 19
	tagQueryType              = 20
	tagQuery                  = 21
	tagResultSetStatus        = 26
	tagPresentStatus          = 27
	tagDiagnosticRecord       = 28
	tagAttributeList          = 44
	tagTerm                   = 45
	tagOperator               = 46
	tagUserInformationLength  = 99
	tagSeedWords              = 106
	tagDateFactor             = 111
	tagMaxDocumentsRetrieved  = 114
	tagSeedWordsUsed          = 115
	tagDocumentID             = 116
	tagVersionNumber          = 117
	tagScore                  = 118
	tagBestMatch              = 119
	tagDocumentLength         = 120
	tagSource                 = 121
	tagDate                   = 122
	tagHeadline               = 123
	tagOriginCity             = 124
	tagDocumentText           = 127
	tagStockCodes             = 128
	tagCompanyCodes           = 129
	tagIndustryCodes          = 130
	tagLines                  = 131
	tagTypeBlock              = 132
	tagType                   = 133
	tagDocumentHeaderGroup    = 150
	tagDocumentShortHeaderGrp = 151
	tagDocumentLongHeaderGrp  = 152
	tagDocumentTextGroup      = 153
	tagDocumentHeadlineGroup  = 154
	tagDocumentCodeGroup      = 155
)

// An APDUError says an APDU cannot be read: the APDU, the offset in its
// octets (after the 25-octet header) and the rule broken.
type APDUError struct {
	APDU   string // "InitResponse", "SearchResponse", "docid", ...
	Offset int
	Msg    string
}

func (e *APDUError) Error() string {
	return "wais: " + e.APDU + ": offset " + strconv.Itoa(e.Offset) + ": " + e.Msg
}

// decoder reads the data types of zutil.c from a bounded buffer; every
// read checks the bounds (zutil.c's readers do not: "There is no attempt
// made to check that the reading does not exceed the read buffer").
type decoder struct {
	apdu string
	b    []byte
	off  int // of b[0] in the APDU, for messages
	i    int
}

func (d *decoder) fail(at int, format string, args ...any) error {
	return &APDUError{APDU: d.apdu, Offset: d.off + at, Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) done() bool { return d.i >= len(d.b) }

// compressed reads a compressed integer of at most 4 octets (zutil.c
// writtenCompressedIntSize: "curently limited to 4 bytes"), so its value
// is below 2^28.
func (d *decoder) compressed(what string) (int, error) {
	start := d.i
	n := 0
	for k := 0; ; k++ {
		if d.i >= len(d.b) {
			return 0, d.fail(start, "%s: the compressed integer is cut short (Z39.50-1988 compressed integer, zutil.c)", what)
		}
		if k == 4 {
			return 0, d.fail(start, "%s: a compressed integer longer than 4 octets", what)
		}
		c := d.b[d.i]
		d.i++
		n = n<<7 | int(c&0x7f)
		if c&0x80 == 0 {
			return n, nil
		}
	}
}

func (d *decoder) peekTag() (int, error) {
	save := d.i
	t, err := d.compressed("tag")
	d.i = save
	return t, err
}

// element reads a tagged data element: its tag and its octets.
func (d *decoder) element() (tag int, val []byte, at int, err error) {
	at = d.i
	if tag, err = d.compressed("tag"); err != nil {
		return
	}
	n, err := d.compressed(fmt.Sprintf("length of element %d", tag))
	if err != nil {
		return
	}
	if n > len(d.b)-d.i {
		return 0, nil, at, d.fail(at, "element %d declares %d octets, %d are left", tag, n, len(d.b)-d.i)
	}
	val = d.b[d.i : d.i+n]
	d.i += n
	return tag, val, at, nil
}

// fixed reads a binary integer of n octets with no tag (a fixed field).
func (d *decoder) fixed(n int, what string) (int64, error) {
	if len(d.b)-d.i < n {
		return 0, d.fail(d.i, "%s: %d octets needed, %d left", what, n, len(d.b)-d.i)
	}
	var v int64
	for _, c := range d.b[d.i : d.i+n] {
		v = v<<8 | int64(c)
	}
	d.i += n
	return v, nil
}

// number reads the octets of a number element: a big-endian binary
// integer of 1 to 8 octets (zutil.c readBinaryInteger takes up to
// sizeof(long); writeNum writes 1–4).
func (d *decoder) number(tag int, val []byte, at int) (int64, error) {
	if len(val) < 1 || len(val) > 8 {
		return 0, d.fail(at, "number element %d of %d octets (a binary integer has 1 to 8)", tag, len(val))
	}
	var v uint64
	for _, c := range val {
		v = v<<8 | uint64(c)
	}
	if v > 1<<62 {
		return 0, d.fail(at, "number element %d out of range", tag)
	}
	return int64(v), nil
}

// encoder writes the same data types.
type encoder struct{ b []byte }

func appendCompressed(b []byte, n int) []byte {
	var tmp [5]byte
	i := len(tmp) - 1
	tmp[i] = byte(n & 0x7f)
	for n >>= 7; n > 0; n >>= 7 {
		i--
		tmp[i] = byte(n&0x7f) | 0x80
	}
	return append(b, tmp[i:]...)
}

func (e *encoder) compressed(n int) { e.b = appendCompressed(e.b, n) }

func (e *encoder) bytes(tag int, v []byte) {
	e.compressed(tag)
	e.compressed(len(v))
	e.b = append(e.b, v...)
}

func (e *encoder) str(tag int, s string) { e.bytes(tag, []byte(s)) }

// num writes a number element with as few octets as the value needs
// (zutil.c writtenCompressedBinIntSize).
func (e *encoder) num(tag int, v int64) {
	n := 1
	for x := v >> 8; x > 0 && n < 4; x >>= 8 {
		n++
	}
	e.compressed(tag)
	e.compressed(n)
	for k := n - 1; k >= 0; k-- {
		e.b = append(e.b, byte(v>>(8*k)))
	}
}

func (e *encoder) fixed(v int64, n int) {
	for k := n - 1; k >= 0; k-- {
		e.b = append(e.b, byte(v>>(8*k)))
	}
}

// apdu wraps body (the PDU type and the fields counted by the
// header-Length-Indicator) and the user information after it.
func apdu(body, userInfo []byte) []byte {
	out := make([]byte, 0, 2+len(body)+len(userInfo))
	out = append(out, byte(len(body)>>8), byte(len(body)))
	out = append(out, body...)
	return append(out, userInfo...)
}

// initRequest is the Init APDU (wais-protspec.txt §2.1 and B.1; zprot.c
// writeInitAPDU): the client will search, not present nor delete
// ("The Options field must always have 0="will not use" for the Delete
// facility"), and takes messages of up to maxMessage octets.
type initRequest struct {
	MessageSize           int64 // Preferred-Message-Size and Maximum-Record-Size
	ImplementationName    string
	ImplementationVersion string
}

// Encode writes the APDU (without the 25-octet header).
func (m *initRequest) Encode() []byte {
	var e encoder
	e.fixed(pduInit, 1)
	e.bytes(tagProtocolVersion, []byte{0x80}) // version 1 (zutil.c writeProtocolVersion)
	e.bytes(tagOptions, []byte{0x80})         // search; present, delete, access and resource control off
	e.num(tagPreferredMessageSize, m.MessageSize)
	e.num(tagMaximumRecordSize, m.MessageSize)
	if m.ImplementationName != "" {
		e.str(tagImplementationName, m.ImplementationName)
	}
	if m.ImplementationVersion != "" {
		e.str(tagImplementationVersion, m.ImplementationVersion)
	}
	return apdu(e.b, nil)
}

// initReply is the Init-Response APDU (wais-protspec.txt §2.2, B.2;
// zprot.c readInitResponseAPDU).
type initReply struct {
	Accepted              bool
	PreferredMessageSize  int64
	MaximumRecordSize     int64
	ImplementationID      string
	ImplementationName    string
	ImplementationVersion string
}

// readHead reads the Header-Length-Indicator and the PDU type, and
// returns a decoder over the APDU's counted fields and the octets after
// them (the user information).
func readHead(name string, b []byte, want int) (*decoder, []byte, error) {
	d := &decoder{apdu: name, b: b}
	if len(b) < 3 {
		return nil, nil, d.fail(len(b), "an APDU is at least 3 octets (Header-Length-Indicator and PDU-Type), got %d", len(b))
	}
	n := int(b[0])<<8 | int(b[1])
	if n < 1 || n > len(b)-2 {
		return nil, nil, d.fail(0, "Header-Length-Indicator %d, but %d octets follow it", n, len(b)-2)
	}
	if int(b[2]) != want {
		return nil, nil, d.fail(2, "PDU-Type %d, expected %d (%s)", b[2], want, name)
	}
	return &decoder{apdu: name, b: b[3 : 2+n], off: 3}, b[2+n:], nil
}

// parseInitResponse reads an Init-Response APDU.
func parseInitResponse(b []byte) (*initReply, error) {
	d, _, err := readHead("InitResponse", b, pduInitResponse)
	if err != nil {
		return nil, err
	}
	r := &initReply{PreferredMessageSize: -1, MaximumRecordSize: -1}
	res, err := d.fixed(1, "Result")
	if err != nil {
		return nil, err
	}
	r.Accepted = res == 1
	// Protocol-Version, Options, Preferred-Message-Size and
	// Maximum-Record-Size are required, in this order; the rest are
	// optional and tagged. Unknown elements are ignored (wais-protspec.txt
	// §1.3.1: "WAIS systems will ignore unknown data elements").
	for !d.done() {
		tag, val, at, err := d.element()
		if err != nil {
			return nil, err
		}
		switch tag {
		case tagPreferredMessageSize:
			if r.PreferredMessageSize, err = d.number(tag, val, at); err != nil {
				return nil, err
			}
		case tagMaximumRecordSize:
			if r.MaximumRecordSize, err = d.number(tag, val, at); err != nil {
				return nil, err
			}
		case tagImplementationID:
			r.ImplementationID = string(val)
		case tagImplementationName:
			r.ImplementationName = string(val)
		case tagImplementationVersion:
			r.ImplementationVersion = string(val)
		}
	}
	return r, nil
}

// elementSetDocumentText is the element set name of a text retrieval
// (wprot.h ES_DocumentText).
const elementSetDocumentText = "Document Text"

// A Search is the Search APDU (wais-protspec.txt §3.1, B.3; zprot.c
// writeSearchAPDU) in one of WAIS's two uses: a relevance-feedback
// query of seed words (Query-Type "3", Appendix A), or a text retrieval
// (Query-Type "1": "a Type-1 query is used for text retrieval. In order
// to retrieve document number xxx, a search is performed with a query
// specifying that System-Control-Number=xxx", §1; wais-waisprot.txt
// §8.0), here by byte chunks.
type Search struct {
	Database string

	// The relevance-feedback query.
	SeedWords string
	MaxDocs   int64

	// The text retrieval: the document-id (echoed octet for octet), its
	// type, and the chunk of bytes [Start, End).
	Retrieve   bool
	DocID      []byte
	DocType    string
	Start, End int64
}

// Encode writes the APDU (without the 25-octet header).
func (m *Search) Encode() []byte {
	var e encoder
	e.fixed(pduSearch, 1)
	if m.Retrieve {
		// The values freeWAIS's client sends (ui.c generate_retrieval_apdu).
		e.fixed(10, 3) // Small-Set-Upper-Bound
		e.fixed(16, 3) // Large-Set-Lower-Bound
		e.fixed(15, 3) // Medium-Set-Present-Number
		e.fixed(1, 1)  // Replace-Indicator on (§3.1)
		e.str(tagResultSetName, "FOO")
		e.str(tagDatabaseNames, m.Database)
		e.str(tagQueryType, "1")
		// One <database, element set> pair: " " 0x1F "Document Text"
		// (zprot.c writeSearchAPDU's ES_DELIMITER_1).
		e.str(tagElementSetNames, " \x1f"+elementSetDocumentText)
		e.bytes(tagReferenceID, []byte("3"))
		body := e.b
		var q encoder
		term := func(use, rel string, v []byte) {
			q.str(tagAttributeList, use+" "+rel+" ig ig ig ig")
			q.bytes(tagTerm, v)
		}
		op := func(o string) { q.str(tagOperator, o) }
		// wais-waisprot.txt §8.0: System_Control_Number = docID, the
		// type, Chunk >= start AND Chunk < end (wprot.c: "un" system
		// control number, "wt" data type, "wb" byte chunk; relations
		// "re" =, "ro" >=, "rl" <; "a" AND).
		term("un", "re", m.DocID)
		term("wt", "re", []byte(m.DocType))
		op("a")
		term("wb", "ro", []byte(strconv.FormatInt(m.Start, 10)))
		op("a")
		term("wb", "rl", []byte(strconv.FormatInt(m.End, 10)))
		op("a")
		var u encoder
		u.bytes(tagQuery, q.b)
		return apdu(body, u.b)
	}
	// The values freeWAIS's client sends (ui.c generate_search_apdu).
	e.fixed(30, 3)
	e.fixed(5000, 3)
	e.fixed(30, 3)
	e.fixed(1, 1)
	e.str(tagResultSetName, "")
	e.str(tagDatabaseNames, m.Database)
	e.str(tagQueryType, "3")
	body := e.b
	var w encoder
	w.str(tagSeedWords, m.SeedWords)
	w.num(tagDateFactor, 1)
	w.num(tagMaxDocumentsRetrieved, m.MaxDocs)
	var u encoder
	u.bytes(tagUserInformationLength, w.b)
	return apdu(body, u.b)
}

// A docHeader is one document of a search response: a Document-Header,
// -Short-Header or -Long-Header element set (wais-protspec.txt §4.3,
// §4.5, §4.7; wprot.c readWAISDocumentHeader). A number the server did
// not send is -1.
type docHeader struct {
	Group          string // "header", "short-header", "long-header"
	DocID          []byte
	VersionNumber  int64
	Score          int64
	BestMatch      int64
	DocumentLength int64
	Lines          int64
	Types          []string
	Source         string
	Date           string
	Headline       string
	OriginCity     string
}

// A docText is a Document-Text element set (§4.4; wprot.c
// readWAISDocumentText).
type docText struct {
	DocID         []byte
	VersionNumber int64
	Text          []byte
}

// A diagnostic is a database diagnostic record (Z39.50-1988 Appendix D;
// zutil.c readDiag): a two-character code ("SF" present request out of
// range, "S1" permanent system error, ...) and its text.
type diagnostic struct {
	Code      string
	AddInfo   string
	Surrogate bool
}

func (d diagnostic) String() string {
	if d.AddInfo == "" {
		return d.Code
	}
	return d.Code + " " + d.AddInfo
}

// A searchReply is the Search-Response APDU with its WAIS user
// information (wais-protspec.txt §3.2, B.4; zprot.c
// readSearchResponseAPDU, wprot.c readSearchResponseInfo).
type searchReply struct {
	Status           int64
	ResultCount      int64
	RecordsReturned  int64
	NextResultSetPos int64
	SeedWordsUsed    string
	Headers          []docHeader
	Texts            []docText
	Diagnostics      []diagnostic
	// Others counts the Headlines and Codes element sets, which this
	// client does not use.
	Others int
}

// parseSearchResponse reads a Search-Response APDU (its length is bounded
// by the reader of the message, before it is allocated).
func parseSearchResponse(b []byte) (*searchReply, error) {
	d, ui, err := readHead("SearchResponse", b, pduSearchResponse)
	if err != nil {
		return nil, err
	}
	r := &searchReply{}
	if r.Status, err = d.fixed(1, "Search-Status"); err != nil {
		return nil, err
	}
	if r.ResultCount, err = d.fixed(3, "Result-Count"); err != nil {
		return nil, err
	}
	if r.RecordsReturned, err = d.fixed(3, "Number-of-Records-Returned"); err != nil {
		return nil, err
	}
	if r.NextResultSetPos, err = d.fixed(3, "Next-Result-Set-Position"); err != nil {
		return nil, err
	}
	for !d.done() {
		// Result-Set-Status, Present-Status, Reference-ID, or another
		// element ignored (§1.3.1).
		if _, _, _, err := d.element(); err != nil {
			return nil, err
		}
	}
	if len(ui) == 0 {
		return r, nil
	}
	off := len(b) - len(ui)
	u := &decoder{apdu: "SearchResponse", b: ui, off: off}
	tag, val, at, err := u.element()
	if err != nil {
		return nil, err
	}
	if tag != tagUserInformationLength {
		return nil, u.fail(at, "user information begins with element %d, not User-Information-Length (%d, wais-protspec.txt §5.1)", tag, tagUserInformationLength)
	}
	if !u.done() {
		return nil, u.fail(u.i, "%d octets after the user information", len(ui)-u.i)
	}
	w := &decoder{apdu: "SearchResponse", b: val, off: off + (len(ui) - len(val))}
	for !w.done() {
		t, err := w.peekTag()
		if err != nil {
			return nil, err
		}
		if t == tagDiagnosticRecord {
			dg, err := w.diagnostic()
			if err != nil {
				return nil, err
			}
			r.Diagnostics = append(r.Diagnostics, dg)
			continue
		}
		tag, val, at, err := w.element()
		if err != nil {
			return nil, err
		}
		g := &decoder{apdu: "SearchResponse", b: val, off: w.off + w.i - len(val)}
		switch tag {
		case tagSeedWordsUsed:
			r.SeedWordsUsed = string(val)
		case tagDocumentHeaderGroup, tagDocumentShortHeaderGrp, tagDocumentLongHeaderGrp:
			h, err := g.docHeader(tag)
			if err != nil {
				return nil, err
			}
			r.Headers = append(r.Headers, h)
		case tagDocumentTextGroup:
			t, err := g.docText()
			if err != nil {
				return nil, err
			}
			r.Texts = append(r.Texts, t)
		case tagDocumentHeadlineGroup, tagDocumentCodeGroup:
			r.Others++
		default:
			return nil, w.fail(at, "element %d is not one of a search response's (wais-protspec.txt §5.1)", tag)
		}
	}
	return r, nil
}

// diagnostic reads a diagnostic record, whose layout is its own (zutil.c
// writeDiag: "diagnostics (as per Appendix D) have a very weird
// format"): tag 28, a two-octet length L, the two-character code, L-3
// octets of text, the surrogate flag, and 0x1D (end of record).
func (d *decoder) diagnostic() (diagnostic, error) {
	at := d.i
	if _, err := d.compressed("tag"); err != nil {
		return diagnostic{}, err
	}
	l, err := d.fixed(2, "diagnostic record length")
	if err != nil {
		return diagnostic{}, err
	}
	if l < 3 {
		return diagnostic{}, d.fail(at, "diagnostic record length %d (at least 3: code and surrogate flag)", l)
	}
	if int64(len(d.b)-d.i) < l+1 {
		return diagnostic{}, d.fail(at, "diagnostic record of %d octets, %d left", l+1, len(d.b)-d.i)
	}
	v := d.b[d.i : d.i+int(l)+1]
	d.i += int(l) + 1
	if v[l] != 0x1d {
		return diagnostic{}, d.fail(at, "diagnostic record does not end in 0x1D (end of record)")
	}
	return diagnostic{Code: string(v[:2]), AddInfo: strings.TrimRight(string(v[2:l-1]), "\x00"), Surrogate: v[l-1] == 1}, nil
}

var groupNames = map[int]string{
	tagDocumentHeaderGroup:    "header",
	tagDocumentShortHeaderGrp: "short-header",
	tagDocumentLongHeaderGrp:  "long-header",
}

func (d *decoder) docHeader(group int) (docHeader, error) {
	h := docHeader{Group: groupNames[group], VersionNumber: -1, Score: -1, BestMatch: -1, DocumentLength: -1, Lines: -1}
	seenID := false
	for !d.done() {
		tag, val, at, err := d.element()
		if err != nil {
			return h, err
		}
		var num *int64
		switch tag {
		case tagDocumentID:
			h.DocID, seenID = val, true
		case tagVersionNumber:
			num = &h.VersionNumber
		case tagScore:
			num = &h.Score
		case tagBestMatch:
			num = &h.BestMatch
		case tagDocumentLength:
			num = &h.DocumentLength
		case tagLines:
			num = &h.Lines
		case tagTypeBlock:
			t := &decoder{apdu: d.apdu, b: val, off: d.off + d.i - len(val)}
			for !t.done() {
				tt, tv, tat, err := t.element()
				if err != nil {
					return h, err
				}
				if tt != tagType {
					return h, t.fail(tat, "element %d in a type block, not a type (%d)", tt, tagType)
				}
				h.Types = append(h.Types, string(tv))
			}
		case tagSource:
			h.Source = string(val)
		case tagDate:
			h.Date = string(val)
		case tagHeadline:
			h.Headline = string(val)
		case tagOriginCity:
			h.OriginCity = string(val)
		case tagStockCodes, tagCompanyCodes, tagIndustryCodes:
		default:
			return h, d.fail(at, "element %d is not one of a document header's (wais-protspec.txt §5.1)", tag)
		}
		if num != nil {
			if *num, err = d.number(tag, val, at); err != nil {
				return h, err
			}
		}
	}
	if !seenID {
		return h, d.fail(0, "a document header without its Document-ID (required, wais-protspec.txt §5.1)")
	}
	return h, nil
}

func (d *decoder) docText() (docText, error) {
	t := docText{VersionNumber: -1}
	seenText := false
	for !d.done() {
		tag, val, at, err := d.element()
		if err != nil {
			return t, err
		}
		switch tag {
		case tagDocumentID:
			t.DocID = val
		case tagVersionNumber:
			if t.VersionNumber, err = d.number(tag, val, at); err != nil {
				return t, err
			}
		case tagDocumentText:
			t.Text, seenText = val, true
		default:
			return t, d.fail(at, "element %d is not one of a document text's (wais-protspec.txt §5.1)", tag)
		}
	}
	if !seenText {
		return t, d.fail(0, "a document text element set without its Document-Text (required, wais-protspec.txt §5.1)")
	}
	return t, nil
}
