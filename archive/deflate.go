package archive

import (
	"encoding/binary"
	"hash/crc32"
	"math/bits"
)

// A small record is compressed here into one deflate block of the fixed
// Huffman codes (RFC 1951 §3.2.6), its matches found greedily through a
// hash of four octets: the dynamic codes a compressor works out for each
// block cost a record of a few KiB more time than the rest of its
// compression, and save it only the few dozen octets their table takes.

// fixedBelow is the size of record, in octets, up to which it is
// compressed with the fixed codes; it keeps every distance within
// deflate's 32 KiB window.
const fixedBelow = 4 << 10

// The fixed codes, bit-reversed as the stream is written (from the
// least significant bit): a literal's or a length's code, with a
// length's extra bits after it, and their number of bits.
var (
	litCode  [256]uint32
	litBits  [256]uint8
	lenCode  [256]uint32 // by length - 3
	lenBits  [256]uint8
	distCode [512]uint32 // by distance - 1 when under 256, else 256 + (distance-1)>>7; the extra bits not included
	distBits [512]uint8
	distBase [512]uint16 // the first distance of the code, less one
	eobCode  uint32      // the end of block, 7 bits of zero
)

func init() {
	code := func(sym int) (uint32, uint8) {
		var c uint16
		var n uint8
		switch {
		case sym < 144:
			c, n = 0x30+uint16(sym), 8
		case sym < 256:
			c, n = 0x190+uint16(sym-144), 9
		case sym < 280:
			c, n = uint16(sym-256), 7
		default:
			c, n = 0xc0+uint16(sym-280), 8
		}
		return uint32(bits.Reverse16(c) >> (16 - n)), n
	}
	for b := range 256 {
		litCode[b], litBits[b] = code(b)
	}
	eobCode, _ = code(256)
	// Lengths 3-258: codes 257-285 (§3.2.5), 258 alone on 285.
	l := 3
	for sym := 257; sym <= 285; sym++ {
		extra := 0
		if sym >= 265 && sym < 285 {
			extra = (sym - 261) / 4
		}
		c, n := code(sym)
		for k := 0; k < 1<<extra && l <= 258; k++ {
			if sym == 284 && l == 258 {
				break // 258 is 285's
			}
			lenCode[l-3], lenBits[l-3] = c|uint32(k)<<n, n+uint8(extra)
			l++
		}
	}
	// Distances 1-32768: codes 0-29, five bits each.
	d := 1
	for sym := 0; sym < 30; sym++ {
		extra := 0
		if sym >= 4 {
			extra = (sym - 2) / 2
		}
		c, first := uint32(bits.Reverse8(uint8(sym))>>3), d
		for k := 0; k < 1<<extra; k++ {
			i := distSlot(d)
			distCode[i], distBits[i], distBase[i] = c, 5+uint8(extra), uint16(first-1)
			d++
		}
	}
}

// distSlot is where distance d's code is in distCode.
func distSlot(d int) int {
	if d <= 256 {
		return d - 1
	}
	return 256 + (d-1)>>7
}

// matcher is the hash table of a fixed-code compressor: the position
// of the last four octets of each hash, plus base, so that a table is
// never cleared: an entry below base is from an earlier record.
type matcher struct {
	table [1 << matchBits]int32
	base  int32
}

const matchBits = 12

func matchHash(v uint32) uint32 { return (v * 0x9E3779B1) >> (32 - matchBits) }

// bitWriter writes deflate's bits, from the least significant.
type bitWriter struct {
	out []byte
	acc uint64
	n   uint
}

func (w *bitWriter) put(v uint32, n uint8) {
	w.acc |= uint64(v) << w.n
	w.n += uint(n)
	if w.n >= 32 {
		w.out = binary.LittleEndian.AppendUint32(w.out, uint32(w.acc))
		w.acc >>= 32
		w.n -= 32
	}
}

// literals writes the codes of p's octets, three at a time: 27 bits
// at most, which the accumulator holds with the 31 it may hold already.
func (w *bitWriter) literals(p []byte) {
	for len(p) >= 3 {
		a, b, c := p[0], p[1], p[2]
		w.acc |= uint64(litCode[a]) << w.n
		w.n += uint(litBits[a])
		w.acc |= uint64(litCode[b]) << w.n
		w.n += uint(litBits[b])
		w.acc |= uint64(litCode[c]) << w.n
		w.n += uint(litBits[c])
		if w.n >= 32 {
			w.out = binary.LittleEndian.AppendUint32(w.out, uint32(w.acc))
			w.acc >>= 32
			w.n -= 32
		}
		p = p[3:]
	}
	for _, b := range p {
		w.put(litCode[b], litBits[b])
	}
}

// appendFixed appends p (32 KiB at most: deflate's window) to dst as a gzip
// member (RFC 1952) of one deflate block of the fixed codes, or of
// stored blocks when that is smaller.
func (m *matcher) appendFixed(dst, p []byte) []byte {
	if m.base > 1<<30 {
		*m = matcher{}
	}
	base := m.base
	m.base += int32(len(p)) + 1
	start := len(dst)
	dst = append(dst, 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255) // no flags, no time, OS unknown
	w := bitWriter{out: dst}
	w.put(3, 3) // BFINAL, BTYPE 01
	lit := 0    // the first octet not yet written
	for i := 0; i+4 <= len(p); {
		v := binary.LittleEndian.Uint32(p[i:])
		h := matchHash(v)
		c := int(m.table[h]-base) - 1
		m.table[h] = int32(i) + base + 1
		if c < 0 || binary.LittleEndian.Uint32(p[c:]) != v {
			i += 1 + (i-lit)>>5 // in a long run of literals, look less often
			continue
		}
		n := 4 + matchLen(p[c+4:], p[i+4:min(len(p), i+258)])
		w.literals(p[lit:i])
		w.put(lenCode[n-3], lenBits[n-3])
		d := distSlot(i - c)
		w.put(distCode[d]|uint32(i-c-1-int(distBase[d]))<<5, distBits[d])
		i += n
		lit = i
		if i+2 <= len(p) && i >= 2 { // the match's end, for the next
			m.table[matchHash(binary.LittleEndian.Uint32(p[i-2:]))] = int32(i-2) + base + 1
		}
	}
	w.literals(p[lit:])
	w.put(eobCode, 7)
	for w.n > 0 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		w.n -= min(w.n, 8)
	}
	dst = w.out
	if len(dst)-start-10 > len(p)+5 { // stored is smaller
		return appendStored(dst[:start], p)
	}
	dst = binary.LittleEndian.AppendUint32(dst, crc32.ChecksumIEEE(p))
	return binary.LittleEndian.AppendUint32(dst, uint32(len(p)))
}

// matchLen is how many octets a and b have in common from the start;
// b is not longer than a.
func matchLen(a, b []byte) int {
	n := 0
	for len(b)-n >= 8 {
		if x := binary.LittleEndian.Uint64(a[n:]) ^ binary.LittleEndian.Uint64(b[n:]); x != 0 {
			return n + bits.TrailingZeros64(x)>>3
		}
		n += 8
	}
	for n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
