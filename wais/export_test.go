package wais

// The package's unexported names its external tests (package wais_test) use.

const ChunkSize = chunkSize
const HeaderLen = headerLen
const Implementation = implementation

type Init = initRequest

const MaxDocuments = maxDocuments
const MaxMessage = maxMessage

var ParseDocID = parseDocID
var ParseHeader = parseHeader
