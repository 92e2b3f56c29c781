//go:build !unix

package atomicfile

// NoFollow is 0 where the system has no O_NOFOLLOW.
const NoFollow = 0
