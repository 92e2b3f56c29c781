package locator

// Character classes of RFC 1738 §2.2 and §5, one bit each, looked up in a
// 256-entry table so that hot loops test a byte with one load and a mask.
const (
	cLowalpha    uint16 = 1 << iota // a-z
	cHialpha                        // A-Z
	cDigit                          // 0-9
	cSafe                           // $ - _ . +
	cExtra                          // ! * ' ( ) ,
	cNational                       // { } | \ ^ ~ [ ] `
	cPunctuation                    // < > # % "
	cReserved                       // ; / ? : @ & =
	cHex                            // 0-9 A-F a-f
	cScheme                         // lowalpha digit + - . (and hialpha, read case-ignore)
	cLabel                          // alpha digit -: a domain label's octets
	cCtl                            // 00-1F, 20 (space), 7F: never allowed unencoded
)

const (
	cAlpha      = cLowalpha | cHialpha
	cUnreserved = cAlpha | cDigit | cSafe | cExtra
	cUchar      = cUnreserved // plus escape, handled by the loops
	cXchar      = cUnreserved | cReserved
)

var class [256]uint16

func init() {
	for c := 'a'; c <= 'z'; c++ {
		class[c] |= cLowalpha | cScheme | cLabel
	}
	for c := 'A'; c <= 'Z'; c++ {
		class[c] |= cHialpha | cScheme | cLabel
	}
	for c := '0'; c <= '9'; c++ {
		class[c] |= cDigit | cHex | cScheme | cLabel
	}
	for _, c := range "abcdefABCDEF" {
		class[c] |= cHex
	}
	set := func(s string, m uint16) {
		for i := 0; i < len(s); i++ {
			class[s[i]] |= m
		}
	}
	set("$-_.+", cSafe)
	set("!*'(),", cExtra)
	set("{}|\\^~[]`", cNational)
	set("<>#%\"", cPunctuation)
	set(";/?:@&=", cReserved)
	set("+-.", cScheme)
	set("-", cLabel)
	for c := 0; c <= 0x20; c++ {
		class[c] |= cCtl
	}
	class[0x7f] |= cCtl
}

// The predicates name the classes of RFC 1738 §5; those the scheme
// packages use are exported.

// isSafe reports whether c is in the BNF class safe: $ - _ . +
func isSafe(c byte) bool { return class[c]&cSafe != 0 }

// isExtra reports whether c is in the BNF class extra: ! * ' ( ) ,
func isExtra(c byte) bool { return class[c]&cExtra != 0 }

// isNational reports whether c is in the BNF class national:
// { } | \ ^ ~ [ ] `, characters RFC 1738 §2.2 calls unsafe.
func isNational(c byte) bool { return class[c]&cNational != 0 }

// isPunctuation reports whether c is in the BNF class punctuation: < > # % "
func isPunctuation(c byte) bool { return class[c]&cPunctuation != 0 }

// IsReserved reports whether c is in the BNF class reserved: ; / ? : @ & =
func IsReserved(c byte) bool { return class[c]&cReserved != 0 }

// IsUnreserved reports whether c is alpha, digit, safe or extra: the
// characters that may always appear unencoded (RFC 1738 §2.2).
func IsUnreserved(c byte) bool { return class[c]&cUnreserved != 0 }

// IsHex reports whether c is a hexadecimal digit of either case.
func IsHex(c byte) bool { return class[c]&cHex != 0 }

// IsUchar reports whether c may appear unencoded where the BNF says uchar
// (the escape "%" hex hex is the other form of uchar).
func IsUchar(c byte) bool { return class[c]&cUchar != 0 }

// isXchar reports whether c may appear unencoded where the BNF says xchar.
func isXchar(c byte) bool { return class[c]&cXchar != 0 }

// IsUnsafe reports whether RFC 1738 §2.2 says c must always be encoded:
// controls, space, non-ASCII octets, national and punctuation characters
// (the "%" of a well-formed escape excepted, which callers judge).
func IsUnsafe(c byte) bool {
	return c >= 0x80 || class[c]&(cCtl|cNational|cPunctuation) != 0
}

func isAlpha(c byte) bool { return class[c]&cAlpha != 0 }
func isDigit(c byte) bool { return class[c]&cDigit != 0 }

const upperhex = "0123456789ABCDEF"
