module github.com/rfc1738/locator

go 1.26.0

require mvdan.cc/xurls/v2 v2.6.0

require (
	golang.org/x/net v0.62.0
	golang.org/x/text v0.43.0 // indirect
)
