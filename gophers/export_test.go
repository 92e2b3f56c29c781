package gophers

// The package's unexported names its external tests (package gophers_test) use.

const MaxReply = maxReply

var PlainReply = plainReply
