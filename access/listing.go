package access

import "time"

// A Listing is the content of a collection.
type Listing struct {
	// Entries are the collection's members in the server's order.
	Entries []Entry
	// Truncated is true when the server had more entries than
	// Options.MaxEntries; the rest were not read.
	Truncated bool
}

// Entry types (Entry.Type): what an entry is, for a person.
const (
	TypeFile      = "file"
	TypeDirectory = "directory"
	TypeSearch    = "search"
	TypeSession   = "session"
	TypeArticle   = "article"
	TypeGroup     = "group"
	TypeLink      = "link"
	TypeInfo      = "info"
	TypeError     = "error"
)

// An Entry is one member of a Listing.
type Entry struct {
	// URL is the entry's absolute URL, written by its scheme's builder;
	// "" for an entry that names nothing (an information line).
	URL string `json:"url"`
	// Name is the entry's name as a person reads it (decoded).
	Name string `json:"name"`
	// Type is one of the Type constants.
	Type string `json:"type"`
	// Size is the size in octets when the server says it, or -1.
	Size int64 `json:"size"`
	// Modified is the modification time when the server says it.
	Modified time.Time `json:"modified"`
	// Parts holds what the protocol says of the entry in its own terms
	// (a Gopher item type, FTP facts), or nil.
	Parts map[string]any `json:"parts,omitempty"`
}
