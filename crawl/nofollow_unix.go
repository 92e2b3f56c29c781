//go:build unix

package crawl

import "syscall"

// noFollow makes an open of a frontier file fail when its name is a
// symbolic link, which would have the crawl write where it points.
const noFollow = syscall.O_NOFOLLOW
