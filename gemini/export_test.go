package gemini

// The package's unexported names its external tests (package gemini_test) use.

const DefaultMediaType = defaultMediaType

var Fingerprint = fingerprint

type Line = line

var Lines = lines

type Link = link

var Links = links

const MaxKnownHosts = maxKnownHosts
const MaxLine = maxLine
const MaxMeta = maxMeta

var ServerKey = serverKey
