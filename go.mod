module github.com/rfc1738/locator

go 1.26

require mvdan.cc/xurls/v2 v2.6.0
