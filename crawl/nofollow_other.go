//go:build !unix

package crawl

const noFollow = 0
