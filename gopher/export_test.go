package gopher

// The package's unexported names its external tests (package gopher_test) use.

var NewTextReader = newTextReader
