package locator

// validIPv6 reports whether s is the text form of an IPv6 address
// (RFC 4291 §2.2, as RFC 2732 writes it inside brackets): eight groups of
// one to four hex digits, one "::" standing for one or more zero groups,
// and optionally a dotted IPv4 address in place of the last two groups.
// A zone identifier (RFC 6874) is not part of it: Parse splits it off.
func validIPv6(s string) bool {
	groups := 0
	elided := false
	i := 0
	if len(s) >= 2 && s[0] == ':' && s[1] == ':' {
		elided = true
		i = 2
		if i == len(s) {
			return true
		}
	} else if len(s) > 0 && s[0] == ':' {
		return false
	}
	for i < len(s) {
		// One group: hex digits, or an IPv4 tail.
		j := i
		for j < len(s) && j-i < 5 && class[s[j]]&cHex != 0 {
			j++
		}
		if j < len(s) && s[j] == '.' {
			if !validIPv4(s[i:]) {
				return false
			}
			groups += 2
			break
		}
		if j == i || j-i > 4 {
			return false
		}
		groups++
		i = j
		if i == len(s) {
			break
		}
		if s[i] != ':' {
			return false
		}
		i++
		if i < len(s) && s[i] == ':' {
			if elided {
				return false
			}
			elided = true
			i++
			if i == len(s) {
				break
			}
		} else if i == len(s) {
			return false // a trailing single ':'
		}
	}
	if elided {
		return groups < 8
	}
	return groups == 8
}

// validIPv4 reports whether s is four dotted decimal groups 0–255 without
// leading zeros.
func validIPv4(s string) bool {
	parts := 0
	i := 0
	for parts < 4 {
		j := i
		n := 0
		for j < len(s) && isDigit(s[j]) && j-i < 3 {
			n = n*10 + int(s[j]-'0')
			j++
		}
		if j == i || n > 255 || (j-i > 1 && s[i] == '0') {
			return false
		}
		parts++
		if parts < 4 {
			if j >= len(s) || s[j] != '.' {
				return false
			}
			j++
		}
		i = j
	}
	return i == len(s)
}
