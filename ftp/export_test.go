package ftp

// The package's unexported names its external tests (package ftp_test) use.

var ParseEPSV = parseEPSV
var ParsePASV = parsePASV
var ReadReply = readReply
var ParseMLSD = parseMLSD
var ParseTimeVal = parseTimeVal
var ParseUnixList = parseUnixList

const MaxDescribed = maxDescribed
const ListingPartType = listingPartType
