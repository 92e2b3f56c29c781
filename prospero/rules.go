package prospero

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
)

func init() {
	locator.Register("prospero", rules{})
}

type rules struct{}

// Check judges prosperourl (§3.11, §5): no user or password, the "/"
// before the ppath, each fieldspec ";" fieldname "=" fieldvalue with
// fieldname and fieldvalue = *[ uchar | "?" | ":" | "@" | "&" ], and
// reports the 1993 draft's %00 form (with its version = digits and
// attribute = alphanums).
func (rules) Check(u *locator.URL, r locator.Report) locator.Report {
	add := func(off int, rule, msg string) { r.Add(off, locator.Violation, rule, msg) }
	if u.HasUser() {
		add(u.Offset(locator.UserComponent), "prosperourl", "no user name or password is allowed in a Prospero URL (RFC 1738 §3.11)")
	}
	if u.HasAuthority() && !u.HasPath() {
		add(u.Offset(locator.PathComponent), "prosperourl", "prosperourl = \"prospero://\" hostport \"/\" ppath: the \"/\" and hsoname are missing (RFC 1738 §5)")
	}
	p, base := u.Path(), u.Offset(locator.PathComponent)
	sp := splitPath(p)
	if sp.nuls != nil {
		add(base+sp.nuls[0], "prosperourl", "%00 before a version and attributes is the October 1993 draft's form (hsoname [ %00 version [ attributes ] ]); RFC 1738 writes ;field=value (§3.11)")
		for k, piece := range sp.pieces(p) {
			at := base + sp.nuls[k] + 3
			if k == 0 {
				if i := notDigit(piece); i >= 0 {
					add(at+i, "version", "the 1993 draft's version is digits")
				}
				continue
			}
			if piece == "" {
				add(at, "attribute", "the 1993 draft's attribute is one or more letters and digits (alphanums); this one is empty")
			} else if i := notAlphanum(piece); i >= 0 {
				add(at+i, "attribute", "the 1993 draft's attribute is alphanums (letters and digits)")
			}
		}
	}
	for _, f := range sp.fields {
		if f[2] < 0 {
			add(base+f[0], "fieldspec", "a field is ;fieldname=fieldvalue (RFC 1738 §5 fieldspec); no \"=\" here")
		}
		fieldChars(p, base, f[0], f[1], "fieldname", add)
		if f[2] >= 0 {
			fieldChars(p, base, f[2], f[3], "fieldvalue", add)
		}
	}
	return r
}

// fieldChars reports the reserved characters fieldname and fieldvalue do
// not allow ("/", "=", ";") in p[from:to].
func fieldChars(p string, base, from, to int, rule string, add func(int, string, string)) {
	for i := from; i < to; i++ {
		if c := p[i]; c == '/' || c == '=' {
			add(base+i, rule, "'"+string(c)+"' must be encoded in a "+rule+": "+rule+" = *[ uchar | \"?\" | \":\" | \"@\" | \"&\" ] (RFC 1738 §5)")
		}
	}
}

type parts struct {
	HSOName    string            `json:"hsoname"`
	Fields     map[string]string `json:"fields,omitempty"`
	Version    *string           `json:"version,omitempty"`
	Attributes []string          `json:"attributes,omitempty"`
}

// Parts returns {hsoname, fields}; see the package documentation.
func (rules) Parts(u *locator.URL) any {
	pr, err := From(u)
	if err != nil {
		return nil
	}
	pt := parts{HSOName: pr.HSOName, Attributes: pr.Attributes}
	if len(pr.Fields) > 0 {
		pt.Fields = make(map[string]string, len(pr.Fields))
		for _, f := range pr.Fields {
			if _, dup := pt.Fields[f.Name]; !dup {
				pt.Fields[f.Name] = f.Value
			}
		}
	}
	if pr.HasVersion {
		pt.Version = &pr.Version
	}
	return pt
}

// Explain says what a Prospero URL asks of the directory server.
func (rules) Explain(u *locator.URL) string {
	pr, err := From(u)
	if err != nil {
		return ""
	}
	port := pr.Port
	if port == "" {
		port = strconv.Itoa(defaultPort)
	}
	hostport := ""
	if u.HasAuthority() { // a host is written only after "//"
		hostport = u.Hostport()
	}
	var b strings.Builder
	b.WriteString("The Prospero object with host-specific name " + strconv.Quote(pr.HSOName) + " on the Prospero directory server " +
		hostport + " (port " + port + "). The client asks that server for the object's access methods, which may themselves be URLs; the name is opaque, and its \"/\" means nothing to the client (RFC 1738 §3.11).")
	if len(pr.Fields) > 0 {
		var fs []string
		for _, f := range pr.Fields {
			fs = append(fs, f.Name+"="+strconv.Quote(f.Value))
		}
		b.WriteString(" The link's fields " + strings.Join(fs, ", ") + " identify the target.")
	}
	if pr.HasVersion {
		b.WriteString(" Written in the 1993 draft's form: version " + strconv.Quote(pr.Version))
		if len(pr.Attributes) > 0 {
			b.WriteString(", attributes " + strings.Join(pr.Attributes, ", "))
		}
		b.WriteString(".")
	}
	return b.String()
}
