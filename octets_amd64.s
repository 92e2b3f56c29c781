//go:build amd64 && !purego

#include "go_asm.h"
#include "textflag.h"

// The sixteen octets at SRC as a mask of those the set does not allow
// (bit k for octet k), in OUT: each octet's low four bits pick a byte of
// the set's nibble table (X6), its high four bits a single bit (X7: bit
// h for h < 8, none for an octet above 0x7F); the octet is allowed when
// the two share a bit. X5 holds 0x0F in every byte, X4 zero.
#define DISALLOWED(SRC, OUT) \
	MOVOU	SRC, X0; \
	MOVOU	X0, X1; \
	PSRLW	$4, X1; \
	PAND	X5, X0; \
	PAND	X5, X1; \
	MOVOU	X6, X2; \
	PSHUFB	X0, X2; \
	MOVOU	X7, X3; \
	PSHUFB	X1, X3; \
	PAND	X3, X2; \
	PCMPEQB	X4, X2; \
	PMOVMSKB	X2, OUT

// func allowedPrefix(s string, ok *octetSet) int
//
// With SSSE3 and a set that holds no octet above 0x7F (ok.vec), a
// string of sixteen octets or more is read within itself: sixteen at a
// time from its start while sixteen are left, then its last sixteen,
// those seen already shifted out of the mask. A shorter one is read as
// the sixteen octets from its start when they lie in one page, else as
// the sixteen that end where it ends (in the same page, as it begins
// near the page's end); the octets outside it are shifted out or lie
// after the bit set at its length. Otherwise it reads one octet at a
// time in ok.t.
TEXT ·allowedPrefix(SB), NOSPLIT, $0-32
	MOVQ	s_base+0(FP), SI
	MOVQ	s_len+8(FP), BX
	MOVQ	ok+16(FP), AX
	CMPB	·useSSSE3(SB), $0
	JEQ	octets
	CMPB	octetSet_vec(AX), $0
	JEQ	octets
	MOVOU	octetSet_nib(AX), X6
	MOVOU	highBit<>(SB), X7
	MOVOU	lowNibbles<>(SB), X5
	PXOR	X4, X4
	CMPQ	BX, $16
	JB	short
	XORQ	DX, DX

loop:
	MOVQ	BX, R10
	SUBQ	DX, R10
	CMPQ	R10, $16
	JB	tail
	DISALLOWED((SI)(DX*1), AX)
	TESTL	AX, AX
	JNZ	found
	ADDQ	$16, DX
	JMP	loop

found:
	BSFL	AX, AX
	ADDQ	DX, AX
	MOVQ	AX, ret+24(FP)
	RET

tail:
	// R10 = len-i < 16 octets left.
	TESTQ	R10, R10
	JZ	whole

last:
	// The last sixteen octets of s, of which the first 16-R10 were seen
	// (or lie before s); the other R10 are those from DX.
	LEAQ	-16(SI)(BX*1), R8
	DISALLOWED((R8), AX)
	MOVQ	$16, CX
	SUBQ	R10, CX
	SHRL	CX, AX
	BTSL	R10, AX
	BSFL	AX, AX
	ADDQ	DX, AX
	MOVQ	AX, ret+24(FP)
	RET

whole:
	MOVQ	BX, ret+24(FP)
	RET

short:
	TESTQ	BX, BX
	JZ	whole
	MOVQ	SI, R8
	ANDQ	$0xfff, R8
	CMPQ	R8, $0xff0
	JA	pageEnd
	DISALLOWED((SI), AX)
	BTSL	BX, AX
	BSFL	AX, AX
	MOVQ	AX, ret+24(FP)
	RET

pageEnd:
	XORQ	DX, DX
	MOVQ	BX, R10
	JMP	last

octets:
	XORQ	DX, DX

next:
	CMPQ	DX, BX
	JAE	whole
	MOVBLZX	(SI)(DX*1), R8
	CMPB	octetSet_t(AX)(R8*1), $0
	JEQ	stop
	INCQ	DX
	JMP	next

stop:
	MOVQ	DX, ret+24(FP)
	RET

// func hasSSSE3() bool: CPUID leaf 1, ECX bit 9.
TEXT ·hasSSSE3(SB), NOSPLIT, $0-1
	MOVL	$1, AX
	XORL	CX, CX
	CPUID
	SHRL	$9, CX
	ANDL	$1, CX
	MOVB	CX, ret+0(FP)
	RET

// highBit: byte h is 1<<h for h < 8, zero for 8 to 15.
DATA highBit<>+0(SB)/8, $0x8040201008040201
DATA highBit<>+8(SB)/8, $0
GLOBL highBit<>(SB), RODATA|NOPTR, $16

DATA lowNibbles<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA lowNibbles<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL lowNibbles<>(SB), RODATA|NOPTR, $16
