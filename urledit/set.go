package urledit

import (
	"strings"

	"github.com/rfc1738/locator"
)

// setGeneric makes the Set s of a generic component on p. The value,
// unless s.Encoded, is data and is encoded for the component's place in
// the grammar of RFC 1738 §5; a host is never encoded (it is judged by
// the host grammar when the URL is read back).
func setGeneric(p *locator.Parts, s Set, guessed bool) error {
	if s.IfUnset && present(p, s.Name, guessed) {
		return nil
	}
	v := s.Value
	clear := v == ""
	switch s.Name {
	case "scheme":
		p.Scheme = v
	case "user":
		if clear {
			p.HasUser, p.User, p.HasPassword, p.Password = false, "", false, ""
			break
		}
		_, pass, opts := login(p)
		setLogin(p, encodeIf(v, s.Encoded, locator.EncodeUser), pass, opts)
	case "password":
		user, _, opts := login(p)
		if clear {
			p.HasPassword, p.Password = false, ""
			setLogin(p, user, "", opts)
			break
		}
		p.HasPassword = true
		setLogin(p, user, encodeIf(v, s.Encoded, locator.EncodeUser), opts)
	case "options":
		if !hasOptions(strings.ToLower(p.Scheme)) {
			return &Error{Kind: KindSet, Offset: -1, Message: "options are IMAP's, POP's and SMTP's (RFC 5092 §3.2); a " + quote(p.Scheme) + " URL has none"}
		}
		user, pass, _ := login(p)
		setLogin(p, user, pass, encodeIf(v, s.Encoded, locator.EncodeUchar))
	case "host":
		if len(v) > 1 && v[0] == '[' && v[len(v)-1] == ']' {
			v = v[1 : len(v)-1]
		}
		p.Host = v
		if !clear {
			p.HasAuthority = true
		}
	case "port":
		p.Port, p.HasPort = v, !clear
	case "path":
		if clear {
			p.Path = ""
			if p.HasAuthority {
				p.HasPath = false
			}
			break
		}
		if !s.Encoded {
			segs := strings.Split(v, "/")
			for i, seg := range segs {
				segs[i] = locator.Escape(seg, segmentEncoding(p.Scheme))
			}
			v = strings.Join(segs, "/")
		}
		if p.HasAuthority || p.Host != "" {
			v = strings.TrimPrefix(v, "/")
		}
		p.Path, p.HasPath = v, true
	case "query":
		if !s.Encoded {
			v = encodeQuery(v, (&Editor{}).pairForm(strings.ToLower(p.Scheme)).plusSpace)
		}
		p.Search, p.HasSearch = v, !clear
	case "fragment":
		p.Fragment, p.HasFragment = encodeIf(v, s.Encoded, locator.EncodeXchar), !clear
	case "zoneid":
		if !strings.Contains(p.Host, ":") {
			return &Error{Kind: KindSet, Offset: -1, Message: "a zone identifier belongs to an IPv6 address (RFC 6874); the host " + quote(p.Host) + " is not one"}
		}
		addr, _, _ := strings.Cut(p.Host, "%25")
		if !clear {
			addr += "%25" + encodeIf(v, s.Encoded, locator.EncodeUchar)
		}
		p.Host = addr
	}
	return nil
}

func encodeIf(v string, encoded bool, e locator.Encoding) string {
	if encoded {
		return v
	}
	return locator.Escape(v, e)
}

// encodeQuery encodes v, a whole query given decoded, keeping "&" and
// "=" as the pairs' structure.
func encodeQuery(v string, plusSpace bool) string {
	f := pairForm{plusSpace: plusSpace}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if c := v[i]; c == '&' || c == '=' {
			b.WriteByte(c)
		} else {
			f.writeOctet(&b, c)
		}
	}
	return b.String()
}

// present reports whether p has the component name, for "?=". A scheme
// guessed is not there.
func present(p *locator.Parts, name string, guessed bool) bool {
	switch name {
	case "scheme":
		return p.Scheme != "" && !guessed
	case "user":
		return p.HasUser
	case "password":
		return p.HasPassword
	case "options":
		_, _, o := login(p)
		return o != ""
	case "host":
		return p.Host != ""
	case "port":
		return p.HasPort
	case "path":
		return p.Path != ""
	case "query":
		return p.HasSearch
	case "fragment":
		return p.HasFragment
	case "zoneid":
		return strings.Contains(p.Host, "%25")
	}
	return false
}

// login splits p's login into user, password and options, as curl
// reads a login of a scheme with options: "user;options:password" or
// "user:password;options". For other schemes options are "".
func login(p *locator.Parts) (user, pass, opts string) {
	user, pass = p.User, p.Password
	if !hasOptions(strings.ToLower(p.Scheme)) {
		return user, pass, ""
	}
	if k := strings.IndexByte(user, ';'); k >= 0 {
		return user[:k], pass, user[k+1:]
	}
	if k := strings.IndexByte(pass, ';'); k >= 0 {
		return user, pass[:k], pass[k+1:]
	}
	return user, pass, ""
}

// setLogin writes user, password and options back into p, the options
// after the password when there is one (else after the user).
func setLogin(p *locator.Parts, user, pass, opts string) {
	p.HasUser = true
	p.User, p.Password = user, pass
	if opts != "" {
		if p.HasPassword {
			p.Password += ";" + opts
		} else {
			p.User += ";" + opts
		}
	}
}
