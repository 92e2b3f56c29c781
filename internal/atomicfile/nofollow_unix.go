//go:build unix

package atomicfile

import "syscall"

// NoFollow, added to os.OpenFile's flags, makes the open fail when the
// name is a symbolic link, which would have the program read or write
// where it points.
const NoFollow = syscall.O_NOFOLLOW
